#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "moreau/math/block_cholesky.hpp"

using namespace moreau;

namespace {

struct Pattern {
  std::vector<int> sizes;
  BlockCholesky::Pairs pairs;
  // Row offset of each block in the original order.
  std::vector<int> offsets() const {
    std::vector<int> o(sizes.size() + 1, 0);
    for (size_t i = 0; i < sizes.size(); ++i) o[i + 1] = o[i] + sizes[i];
    return o;
  }
  int rows() const { return offsets().back(); }
};

// A random tree on nb blocks of 3..6 rows: block i > 0 hangs on a random earlier block, the pair
// written in either order.
Pattern random_tree(std::mt19937& g, int nb) {
  Pattern p;
  std::uniform_int_distribution<int> size(3, 6), coin(0, 1);
  for (int i = 0; i < nb; ++i) p.sizes.push_back(size(g));
  for (int i = 1; i < nb; ++i) {
    const int parent = std::uniform_int_distribution<int>(0, i - 1)(g);
    p.pairs.push_back(coin(g) ? std::make_pair(i, parent) : std::make_pair(parent, i));
  }
  std::shuffle(p.pairs.begin(), p.pairs.end(), g);
  return p;
}

Pattern cycle(std::mt19937& g, int nb) {
  Pattern p;
  std::uniform_int_distribution<int> size(3, 6);
  for (int i = 0; i < nb; ++i) p.sizes.push_back(size(g));
  for (int i = 0; i < nb; ++i) p.pairs.emplace_back(i, (i + 1) % nb);
  return p;
}

// A dense symmetric positive definite matrix with the block pattern: random coupling blocks, and
// diagonal blocks R R^T plus a margin over the row's absolute sum (diagonally dominant).
MatX random_spd(std::mt19937& g, const Pattern& p) {
  const std::vector<int> o = p.offsets();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = p.rows();
  MatX A = MatX::Zero(n, n);
  for (const auto& [i, j] : p.pairs) {
    const MatX B = MatX::NullaryExpr(p.sizes[i], p.sizes[j], [&] { return u(g); });
    A.block(o[i], o[j], p.sizes[i], p.sizes[j]) = B;
    A.block(o[j], o[i], p.sizes[j], p.sizes[i]) = B.transpose();
  }
  const VecX row_sum = A.cwiseAbs().rowwise().sum();
  for (size_t i = 0; i < p.sizes.size(); ++i) {
    const int s = p.sizes[i];
    const MatX R = MatX::NullaryExpr(s, s, [&] { return u(g); });
    A.block(o[i], o[i], s, s) = R * R.transpose();
    for (int r = 0; r < s; ++r) A(o[i] + r, o[i] + r) += row_sum(o[i] + r) + 0.1;
  }
  return A;
}

// zero(), then every block of the pattern added in both orders.
void load(BlockCholesky& chol, const Pattern& p, const MatX& A) {
  const std::vector<int> o = p.offsets();
  chol.zero();
  for (int i = 0; i < static_cast<int>(p.sizes.size()); ++i)
    chol.add(i, i, A.block(o[i], o[i], p.sizes[i], p.sizes[i]));
  for (const auto& [i, j] : p.pairs) {
    chol.add(i, j, A.block(o[i], o[j], p.sizes[i], p.sizes[j]));
    chol.add(j, i, A.block(o[j], o[i], p.sizes[j], p.sizes[i]));
  }
}

// P with (P x) in the permuted order of the solves.
MatX permutation(const BlockCholesky& chol, const Pattern& p) {
  const std::vector<int> o = p.offsets();
  MatX P = MatX::Zero(p.rows(), p.rows());
  for (int i = 0; i < static_cast<int>(p.sizes.size()); ++i)
    for (int r = 0; r < p.sizes[i]; ++r) P(chol.permuted_offset(i) + r, o[i] + r) = 1.0;
  return P;
}

int stored_blocks(const BlockCholesky& chol) {
  int count = 0;
  for (int b = 0; b < chol.num_blocks(); ++b) count += chol.column_end(b) - chol.column_begin(b);
  return count;
}

// L (dense) from forward() on the identity's columns: their matrix is L^-1.
MatX dense_factor(const BlockCholesky& chol) {
  MatX Linv = MatX::Identity(chol.rows(), chol.rows());
  for (int c = 0; c < chol.rows(); ++c) chol.forward(Linv.col(c).data());
  return Linv.inverse();
}

double relative(const MatX& x, const MatX& ref) {
  return (x - ref).norm() / ref.norm();
}

// A random right-hand side b and A^-1 b by Eigen's dense LLT (ref); returns solve()'s relative
// error against it.
double solve_error(const BlockCholesky& chol, const MatX& A, std::mt19937& g, VecX& b, VecX& ref) {
  b = VecX::NullaryExpr(A.rows(), [&] { return std::normal_distribution<>()(g); });
  ref = A.llt().solve(b);
  VecX x = b, scratch(A.rows());
  chol.solve(x.data(), scratch.data());
  return relative(x, ref);
}

}  // namespace

TEST(BlockCholesky, SolveOnATreeMatchesDenseLlt) {
  std::mt19937 g(1);
  for (int trial = 0; trial < 20; ++trial) {
    const Pattern p = random_tree(g, 12);
    const MatX A = random_spd(g, p);
    BlockCholesky chol;
    chol.analyze(p.sizes, p.pairs);
    ASSERT_EQ(chol.rows(), p.rows());
    ASSERT_EQ(chol.num_blocks(), 12);
    load(chol, p, A);
    ASSERT_TRUE(chol.factor());

    VecX b, ref;
    EXPECT_LE(solve_error(chol, A, g, b, ref), 1e-12) << "trial " << trial;

    // forward() then backward() work in the permuted order: P A^-1 b.
    const MatX P = permutation(chol, p);
    VecX y = P * b;
    chol.forward(y.data());
    chol.backward(y.data());
    EXPECT_LE(relative(y, P * ref), 1e-12) << "trial " << trial;
  }
}

TEST(BlockCholesky, TreeEliminatedLeavesFirstFillsNothing) {
  // A path whose middle block has as many rows as its two leaves together (a tie in rows), and
  // one whose middle block has more: the leaves go first either way.
  for (const Pattern& p :
       {Pattern{{6, 3, 3}, {{0, 1}, {0, 2}}}, Pattern{{1, 6, 1}, {{0, 1}, {1, 2}}}}) {
    BlockCholesky chol;
    chol.analyze(p.sizes, p.pairs);
    EXPECT_EQ(stored_blocks(chol), 2)
        << "sizes " << p.sizes[0] << " " << p.sizes[1] << " " << p.sizes[2];
  }
  std::mt19937 g(2);
  for (int trial = 0; trial < 50; ++trial) {
    const Pattern p = random_tree(g, 12);
    BlockCholesky chol;
    chol.analyze(p.sizes, p.pairs);
    EXPECT_EQ(stored_blocks(chol), static_cast<int>(p.pairs.size())) << "trial " << trial;
    // The stored blocks are exactly the pairs, each once, below the diagonal.
    std::set<std::pair<int, int>> stored, expected;
    for (int b = 0; b < chol.num_blocks(); ++b)
      for (int e = chol.column_begin(b); e < chol.column_end(b); ++e) {
        EXPECT_GT(chol.entry_row(e), b);
        stored.emplace(chol.entry_row(e), b);
      }
    for (const auto& [i, j] : p.pairs)
      expected.emplace(std::max(chol.position(i), chol.position(j)),
                       std::min(chol.position(i), chol.position(j)));
    EXPECT_EQ(stored, expected) << "trial " << trial;
  }
}

TEST(BlockCholesky, LoopFillIsFoundByTheSymbolicPhase) {
  std::mt19937 g(3);
  for (int trial = 0; trial < 10; ++trial) {
    const Pattern p = cycle(g, 6);
    const MatX A = random_spd(g, p);
    BlockCholesky chol;
    chol.analyze(p.sizes, p.pairs);
    // Any order of a cycle of n blocks fills n - 3 chords.
    EXPECT_GT(stored_blocks(chol), 6);
    EXPECT_EQ(stored_blocks(chol), 9);
    load(chol, p, A);
    ASSERT_TRUE(chol.factor());

    VecX b, ref;
    EXPECT_LE(solve_error(chol, A, g, b, ref), 1e-12) << "trial " << trial;

    // The dense factor's nonzero blocks are all stored ones (nothing was dropped).
    const MatX P = permutation(chol, p);
    const MatX L = MatX((P * A * P.transpose()).llt().matrixL());
    for (int a = 0; a < chol.num_blocks(); ++a)
      for (int c = 0; c < a; ++c) {
        bool is_stored = false;
        for (int e = chol.column_begin(c); e < chol.column_end(c); ++e)
          is_stored |= chol.entry_row(e) == a;
        const double norm = L.block(chol.offset_at(a), chol.offset_at(c), chol.block_size_at(a),
                                    chol.block_size_at(c))
                                .norm();
        if (!is_stored) {
          EXPECT_EQ(norm, 0.0) << "block (" << a << ", " << c << ")";
        }
      }
    EXPECT_LE(relative(dense_factor(chol), L), 1e-12);
  }
}

TEST(BlockCholesky, IndefiniteMatrixIsRejected) {
  std::mt19937 g(4);
  const Pattern p = random_tree(g, 12);
  const std::vector<int> o = p.offsets();
  BlockCholesky chol;
  chol.analyze(p.sizes, p.pairs);

  // One diagonal block negative definite.
  MatX A = random_spd(g, p);
  const int k = 5;
  A.block(o[k], o[k], p.sizes[k], p.sizes[k]) *= -1.0;
  load(chol, p, A);
  EXPECT_FALSE(chol.factor());

  // Positive definite diagonal blocks, but a coupling too strong: [[I, 2I], [2I, I]] on a pair.
  A = MatX::Identity(p.rows(), p.rows());
  const auto [i, j] = p.pairs[0];
  const int s = std::min(p.sizes[i], p.sizes[j]);
  A.block(o[i], o[j], s, s) = 2.0 * MatX::Identity(s, s);
  A.block(o[j], o[i], s, s) = 2.0 * MatX::Identity(s, s);
  ASSERT_LT(A.selfadjointView<Eigen::Lower>().eigenvalues().minCoeff(), 0.0);
  load(chol, p, A);
  EXPECT_FALSE(chol.factor());

  // The same pattern factors again once the matrix is definite.
  load(chol, p, random_spd(g, p));
  EXPECT_TRUE(chol.factor());
}

TEST(BlockCholesky, ForwardTransposedMatchesDenseTriangularSolveAndTracksItsReach) {
  std::mt19937 g(5);
  for (int trial = 0; trial < 10; ++trial) {
    const Pattern p = random_tree(g, 12);
    const MatX A = random_spd(g, p);
    BlockCholesky chol;
    chol.analyze(p.sizes, p.pairs);
    load(chol, p, A);
    ASSERT_TRUE(chol.factor());
    const int n = p.rows(), nb = chol.num_blocks();

    // B (n x m, rows permuted): a few row blocks nonzero on a range of B's columns.
    const int m = 9;
    MatX B = MatX::Zero(n, m);
    std::vector<int> lo(nb, 0), hi(nb, 0);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int k = 0; k < 3; ++k) {
      const int i = std::uniform_int_distribution<int>(0, nb - 1)(g);
      const int b = chol.position(i);
      const int l = std::uniform_int_distribution<int>(0, m - 2)(g);
      const int h = std::uniform_int_distribution<int>(l + 1, m)(g);
      B.block(chol.permuted_offset(i), l, p.sizes[i], h - l) =
          MatX::NullaryExpr(p.sizes[i], h - l, [&] { return u(g); });
      lo[b] = hi[b] > lo[b] ? std::min(lo[b], l) : l;
      hi[b] = std::max(hi[b], h);
    }
    const std::vector<int> lo0 = lo, hi0 = hi;
    const int ld = m + 3;  // X = B^T with padding rows that must stay untouched
    MatX X = MatX::Constant(ld, n, 7.0);
    X.topRows(m) = B.transpose();

    const MatX P = permutation(chol, p);
    const MatX L = MatX((P * A * P.transpose()).llt().matrixL());
    const MatX ref = L.triangularView<Eigen::Lower>().solve(B);
    chol.forward_transposed(X.data(), ld, lo, hi);
    EXPECT_LE(relative(MatX(X.topRows(m).transpose()), ref), 1e-12) << "trial " << trial;
    EXPECT_TRUE((X.bottomRows(3).array() == 7.0).all());
    for (int b = 0; b < nb; ++b) {
      const int sb = chol.block_size_at(b), r0 = chol.offset_at(b);
      for (int c = 0; c < m; ++c) {
        if (ref.block(r0, c, sb, 1).cwiseAbs().maxCoeff() == 0.0) continue;
        EXPECT_TRUE(lo[b] <= c && c < hi[b]) << "block " << b << ", column " << c;
      }
      if (hi0[b] > lo0[b]) {  // the initial ranges are kept
        EXPECT_LE(lo[b], lo0[b]);
        EXPECT_GE(hi[b], hi0[b]);
      }
    }
  }
}

TEST(BlockCholesky, SamePatternAndPivotsMatchTheDenseFactor) {
  std::mt19937 g(6);
  const Pattern p = random_tree(g, 12);
  BlockCholesky chol;
  EXPECT_FALSE(chol.same_pattern(p.sizes, p.pairs));  // nothing analyzed yet
  chol.analyze(p.sizes, p.pairs);
  EXPECT_TRUE(chol.same_pattern(p.sizes, p.pairs));

  Pattern other = p;
  other.sizes[3] = other.sizes[3] == 6 ? 5 : other.sizes[3] + 1;
  EXPECT_FALSE(chol.same_pattern(other.sizes, other.pairs));
  other = p;
  other.pairs.back().first = (other.pairs.back().first + 1) % 12 == other.pairs.back().second
                                 ? (other.pairs.back().first + 2) % 12
                                 : (other.pairs.back().first + 1) % 12;
  EXPECT_FALSE(chol.same_pattern(other.sizes, other.pairs));
  other = p;
  other.pairs.pop_back();
  EXPECT_FALSE(chol.same_pattern(other.sizes, other.pairs));

  // The pivots are the diagonal of the (unique) dense factor of P A P^T.
  const MatX A = random_spd(g, p);
  load(chol, p, A);
  EXPECT_EQ(chol.max_diagonal(), A.diagonal().maxCoeff());
  ASSERT_TRUE(chol.factor());
  const MatX P = permutation(chol, p);
  const MatX L = MatX((P * A * P.transpose()).llt().matrixL());
  EXPECT_NEAR(chol.min_pivot(), L.diagonal().minCoeff(), 1e-12 * L.diagonal().maxCoeff());
  EXPECT_NEAR(chol.max_pivot(), L.diagonal().maxCoeff(), 1e-12 * L.diagonal().maxCoeff());
  EXPECT_GT(chol.min_pivot(), 0.0);
  EXPECT_LE(chol.max_pivot() * chol.max_pivot(), A.diagonal().maxCoeff() * (1 + 1e-14));
  EXPECT_LE(relative(dense_factor(chol), L), 1e-12);
}

// A kinematic loop's Delassus matrix A = J M^-1 J^T: a cycle of welds, joint i relating bodies i
// and i+1 by J_i = T_i [X_i, -X_{i+1}] (T, X random invertible). The rows of the welds sum to zero
// (sum_i T_i^-1 J_i = 0), so A is positive semidefinite of rank 6 (nb - 1) = 24. With drop > 0 the
// factorization drops exactly 6 pivots, and its solve gives a solution of A x = b for b in A's
// range (a consistent system), 0 on the dropped rows.
TEST(BlockCholesky, RedundantRowsOfALoopAreDroppedAndTheSolveIsExact) {
  std::mt19937 g(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto invertible = [&] {
    return MatX(MatX::NullaryExpr(6, 6, [&] { return u(g); }) + 3.0 * MatX::Identity(6, 6));
  };
  for (int trial = 0; trial < 5; ++trial) {
    const int nb = 5;
    Pattern p;
    for (int i = 0; i < nb; ++i) {
      p.sizes.push_back(6);
      p.pairs.emplace_back(i, (i + 1) % nb);
    }
    std::vector<MatX> X(nb);
    for (MatX& x : X) x = invertible();
    MatX J = MatX::Zero(6 * nb, 6 * nb), Minv = MatX::Zero(6 * nb, 6 * nb);
    for (int i = 0; i < nb; ++i) {
      const MatX T = invertible();
      J.block(6 * i, 6 * i, 6, 6) = T * X[i];
      J.block(6 * i, 6 * ((i + 1) % nb), 6, 6) = -T * X[(i + 1) % nb];
      const MatX R = invertible();
      Minv.block(6 * i, 6 * i, 6, 6) = R * R.transpose();
    }
    const MatX A = J * Minv * J.transpose();
    BlockCholesky chol;
    chol.analyze(p.sizes, p.pairs);
    load(chol, p, A);
    ASSERT_TRUE(chol.factor(1e-10)) << "trial " << trial;
    EXPECT_EQ(chol.dropped(), 6) << "trial " << trial;
    int flagged = 0;
    for (int i = 0; i < nb; ++i)
      for (int r = 0; r < 6; ++r) flagged += chol.dropped_row(i, r);
    EXPECT_EQ(flagged, 6);
    const VecX y = VecX::NullaryExpr(6 * nb, [&] { return u(g); });
    const VecX b = A * y;  // in the range
    VecX x = b, scratch(6 * nb);
    chol.solve(x.data(), scratch.data());
    EXPECT_LE((A * x - b).cwiseAbs().maxCoeff(), 1e-10 * b.cwiseAbs().maxCoeff())
        << "trial " << trial;
    for (int i = 0; i < nb; ++i)
      for (int r = 0; r < 6; ++r) {
        if (chol.dropped_row(i, r)) {
          EXPECT_EQ(x[6 * i + r], 0.0);
        }
      }
  }
}

// On a definite matrix dropping changes nothing: no pivot dropped, the solve bit for bit that of
// factor() without it.
TEST(BlockCholesky, DefiniteMatrixDropsNothing) {
  std::mt19937 g(8);
  const Pattern p = random_tree(g, 12);
  const MatX A = random_spd(g, p);
  BlockCholesky plain, dropping;
  plain.analyze(p.sizes, p.pairs);
  dropping.analyze(p.sizes, p.pairs);
  load(plain, p, A);
  load(dropping, p, A);
  ASSERT_TRUE(plain.factor());
  ASSERT_TRUE(dropping.factor(1e-10));
  EXPECT_EQ(dropping.dropped(), 0);
  const VecX b = VecX::LinSpaced(p.rows(), -1.0, 1.0);
  VecX x1 = b, x2 = b, scratch(p.rows());
  plain.solve(x1.data(), scratch.data());
  dropping.solve(x2.data(), scratch.data());
  EXPECT_EQ(x1, x2);
  EXPECT_EQ(plain.min_pivot(), dropping.min_pivot());
}
