// BlockSparse: one NaN or infinity anywhere among the stored blocks is found (all_finite); its
// product is the dense matrix's, block sizes 0 to 7 (the fixed-size kernels up to 6 and the loop
// past them).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "moreau/dynamics/block_sparse.hpp"

using namespace moreau;

TEST(BlockSparse, AllFiniteFindsEveryNonFiniteEntry) {
  const int sizes[3] = {3, 1, 3};
  BlockSparse D;
  D.begin(sizes, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) D.push_entry(i, j);
  D.finalize();
  const auto fill = [&] {
    // finite, and large enough that their plain sum overflows
    for (int e = 0; e < D.nnz_blocks(); ++e) D.entry(e).setConstant(1e308);
  };
  fill();
  EXPECT_TRUE(D.all_finite());
  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()})
    for (int e = 0; e < D.nnz_blocks(); ++e) {
      fill();
      D.entry(e)(D.entry(e).rows() - 1, 0) = bad;
      EXPECT_FALSE(D.all_finite()) << "entry " << e << " = " << bad;
    }
}

TEST(BlockSparse, ProductIsTheDenseProductForEveryBlockSize) {
  const int sizes[9] = {1, 2, 3, 4, 5, 6, 7, 0, 5};
  BlockSparse D;
  D.begin(sizes, 9);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j)
      if ((i < 6 && j < 6) || (i + 2 * j) % 3 != 1 || i == j)  // every pair of sizes 1 to 6,
        D.push_entry(i, j);                                    // and some blocks absent
  D.finalize();
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int e = 0; e < D.nnz_blocks(); ++e)
    for (int r = 0; r < D.entry(e).rows(); ++r)
      for (int c = 0; c < D.entry(e).cols(); ++c) D.entry(e)(r, c) = u(gen);
  MatX A;
  D.to_dense(A);
  VecX x(D.rows());
  for (int i = 0; i < x.size(); ++i) x[i] = u(gen);
  VecX y(D.rows());
  D.multiply(x.data(), y.data());
  // Each entry of y sums the same products as the dense row, block by block: equal to round-off
  // of the sums of |products|.
  const VecX scale = A.cwiseAbs() * x.cwiseAbs();
  for (int i = 0; i < y.size(); ++i) EXPECT_LE(std::abs(y[i] - A.row(i).dot(x)), 1e-14 * scale[i]);
  EXPECT_GT(A.cwiseAbs().sum(), 0.0);
}
