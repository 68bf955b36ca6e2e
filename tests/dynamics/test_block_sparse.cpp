// BlockSparse::all_finite: one NaN or infinity anywhere among the stored blocks is found.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

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
