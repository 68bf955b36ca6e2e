// The NCP module (moreau/ncp) against brute force and known solutions: the Coulomb projector as a
// sampled nearest-point search, the block-wise Moreau decomposition, the De Saxce term, the
// natural map (report eq. 146-164) and the diagonal-block inverses of D + R.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "moreau/ncp/blocks.hpp"
#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "solvers/pgs_test_util.hpp"

using namespace moreau;

namespace {

// Nearest point of K_mu to x among a polar grid of K_mu (normal up to nmax): the brute-force
// answer P_K must match up to the grid's resolution and must never lose to.
double sampled_distance_to_cone(const Vec3& x, double mu, double nmax) {
  double best = x.norm();  // the apex
  const int nn = 240, nr = 24, na = 72;
  for (int i = 1; i <= nn; ++i) {
    const double n = nmax * i / nn;
    for (int j = 0; j <= nr; ++j) {
      const double r = mu * n * j / nr;
      for (int k = 0; k < (j == 0 ? 1 : na); ++k) {
        const double a = 2.0 * std::numbers::pi * k / na;
        best = std::min(best, (x - Vec3(r * std::cos(a), r * std::sin(a), n)).norm());
      }
    }
  }
  return best;
}

Problem mixed_problem(const MatX& D, const VecX& vf) {
  return test::dense_problem({{ConeKind::Free, 2},
                              {ConeKind::Orthant, 1},
                              {ConeKind::Coulomb, 3, 0.5},
                              {ConeKind::Coulomb, 3, 0.0}},
                             D, vf);
}

MatX random_spd(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatX A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = u(rng);
  return A * A.transpose() + 0.1 * MatX::Identity(n, n);
}

}  // namespace

TEST(NcpProjection, CoulombProjectionIsTheSampledNearestPoint) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (double mu : {0.2, 0.7, 1.5})
    for (int s = 0; s < 12; ++s) {
      const Vec3 x(u(rng), u(rng), u(rng));
      const Vec3 p = project_coulomb(x, mu);
      ASSERT_TRUE(in_coulomb(p, mu, 1e-12));
      const double d = (x - p).norm(), brute = sampled_distance_to_cone(x, mu, 4.0);
      EXPECT_LE(d, brute + 1e-12) << x.transpose() << " mu " << mu;  // never beaten
      EXPECT_GE(d, brute - 0.05) << x.transpose() << " mu " << mu;   // grid resolution
    }
}

TEST(NcpProjection, BlockwiseMoreauDecompositionWithOrthogonality) {
  // x = P_K(x) + P_K°(x), P_K°(x) = -P_K*(-x), block by block (eq. 146): joints (K = R^m,
  // K* = {0}), a limit (R_+), contacts with mu = 0.5 and mu = 0 (a ray; K* a half-space).
  const Problem p = mixed_problem(MatX::Identity(9, 9), VecX::Zero(9));
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (int s = 0; s < 100; ++s) {
    VecX x(9);
    GrowVec pk, pd;
    for (int k = 0; k < 9; ++k) x[k] = u(rng);
    project_primal(p, x, pk);
    project_dual(p, VecX(-x), pd);
    const VecX polar = -pd;
    EXPECT_LE((pk + polar - x).cwiseAbs().maxCoeff(), 1e-12) << x.transpose();
    for (const ConstraintBlock& b : p.blocks)  // orthogonal block by block
      EXPECT_LE(std::abs(pk.segment(b.offset, b.size).dot(polar.segment(b.offset, b.size))),
                1e-12 * (1.0 + x.squaredNorm()));
    // In place (out aliases x) gives the same answer, bit for bit.
    GrowVec y = x;
    project_primal(p, y, y);
    EXPECT_EQ(y, pk);
  }
}

TEST(NcpDeSaxce, TermIsMuTimesTangentialSpeedOnContactNormalsOnly) {
  const Problem p = mixed_problem(MatX::Identity(9, 9), VecX::Zero(9));
  VecX v(9), s(9);
  GrowVec vh;
  v << 1, -2, 3, 0.3, -0.4, -7, 2.0, 1.0, 5.0;
  de_saxce_term(p, v, s);
  VecX expect = VecX::Zero(9);
  expect[5] = 0.5 * 0.5;  // mu |(0.3, -0.4)|; the mu = 0 contact gets nothing
  EXPECT_LE((s - expect).cwiseAbs().maxCoeff(), 1e-15);
  augment_de_saxce(p, v, vh);
  EXPECT_EQ(vh - v, s);
  // A sliding velocity with v_n = 0 becomes a point of the boundary of K*_mu (eq. 51).
  const Vec3 w = Vec3(0.3, -0.4, 0.0) + de_saxce(Vec3(0.3, -0.4, 0.0), 0.5);
  EXPECT_TRUE(in_dual_coulomb(w, 0.5, 1e-15));
  EXPECT_FALSE(in_dual_coulomb(w - Vec3(0, 0, 1e-9), 0.5, 0.0));
}

TEST(NcpNaturalMap, ZeroAtKnownSolutionsAndNotOffThem) {
  // D = I, so v = lambda + v_f. Contact 1 (mu = 0.5) slides: lambda on the cone's boundary
  // opposite the slip, v = (2, 0, 0); contact 2 (mu = 0) separates; the joint is held
  // (v = 0) and the limit is active (lambda = 1, v = 0).
  const Vec3 lc(-0.5, 0.0, 1.0), vc(2.0, 0.0, 0.0);
  VecX lambda(9), v(9);
  lambda << 0.3, -0.2, 1.0, lc, 0.0, 0.0, 0.0;
  v << 0.0, 0.0, 0.0, vc, 0.1, -0.2, 0.4;
  const Problem p = mixed_problem(MatX::Identity(9, 9), v - lambda);
  const NcpResiduals r = ncp_residuals(p, lambda, v, true);
  EXPECT_LE(r.primal, 1e-15);
  EXPECT_LE(r.dual, 1e-15);
  EXPECT_LE(r.compl_, 1e-15);
  EXPECT_LE(r.natmap, 1e-15);
  // The same pair is no CCP solution: v = (2, 0, 0) is outside K*_mu without the De Saxce term,
  // P_K*(v) = (1.6, 0, 0.8) (eq. 151, third case).
  EXPECT_NEAR(ncp_residuals(p, lambda, v, false).dual, 0.8, 1e-12);
  // Off the solution the natural map is non-zero: a joint velocity, a limit impulse without
  // contact, a sticking force with a sliding velocity.
  for (int k : {0, 2, 3, 5}) {
    VecX l2 = lambda;
    l2[k] += 0.25;
    const VecX v2 = l2 + p.v_f;
    EXPECT_GE(ncp_residuals(p, l2, v2, true).natmap, 0.05) << "row " << k;
  }
}

TEST(NcpNaturalMap, ANonFiniteEntryIsNeverWithinTolerance) {
  // A NaN in any row of v or lambda (joint, limit, contact) makes every residual it enters NaN,
  // wherever it stands among finite rows: a tolerance test then fails (std::max would drop it).
  const Vec3 lc(-0.5, 0.0, 1.0), vc(2.0, 0.0, 0.0);
  VecX lambda(9), v(9);
  lambda << 0.3, -0.2, 1.0, lc, 0.0, 0.0, 0.0;
  v << 0.0, 0.0, 0.0, vc, 0.1, -0.2, 0.4;
  const Problem p = mixed_problem(MatX::Identity(9, 9), v - lambda);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int k = 0; k < 9; ++k) {
    VecX v2 = v, l2 = lambda;
    v2[k] = nan;
    EXPECT_TRUE(std::isnan(ncp_residuals(p, lambda, v2, true).natmap)) << "v row " << k;
    EXPECT_TRUE(std::isnan(ncp_residuals(p, lambda, v2, false).natmap)) << "v row " << k;
    l2[k] = nan;
    EXPECT_TRUE(std::isnan(ncp_residuals(p, l2, v, true).natmap)) << "lambda row " << k;
  }
}

TEST(NcpBlocks, DiagonalBlockInversesMatchADenseInverse) {
  // Blocks of sizes 2, 1, 3, 3 over a random SPD D, with a softening R on every row.
  const MatX D = random_spd(9, 3);
  Problem p = mixed_problem(D, VecX::Zero(9));
  p.R = VecX::LinSpaced(9, 0.01, 0.09);
  for (const BlockRegularization reg :
       {BlockRegularization{1e-12, 1e-300, true}, BlockRegularization{1e-3, 1.0, false},
        BlockRegularization{0.2, 0.0, true}}) {
    std::vector<double> packed;
    std::vector<int> start;
    block_diagonal_inverses(p, reg, packed, start);
    ASSERT_EQ(start.back(), 4 + 1 + 9 + 9);
    for (int i = 0; i < p.num_blocks(); ++i) {
      const ConstraintBlock& b = p.blocks[i];
      MatX A = D.block(b.offset, b.offset, b.size, b.size);
      if (reg.softening) A.diagonal() += p.R.segment(b.offset, b.size);
      const double s = std::max(reg.scale_floor, A.diagonal().cwiseAbs().maxCoeff());
      A.diagonal().array() += reg.regularization * s;
      const MatX expect = A.inverse();
      const Mat6 inv = block_diagonal_inverse(p, i, reg);
      EXPECT_LE((inv.topLeftCorner(b.size, b.size) - expect).cwiseAbs().maxCoeff(),
                1e-12 * expect.cwiseAbs().maxCoeff())
          << "block " << i;
      EXPECT_EQ(inv.bottomRightCorner(6 - b.size, 6 - b.size).cwiseAbs().maxCoeff(), 0.0);
      for (int r = 0; r < b.size; ++r)
        for (int c = 0; c < b.size; ++c)
          EXPECT_EQ(packed[start[i] + r * b.size + c], inv(r, c));  // row-major, packed
    }
  }
}

TEST(NcpBlocks, SingularAndZeroBlocks) {
  // A rank-1 joint block is inverted with its regularization; a zero block with scale_floor = 0
  // is inert (zero inverse), with scale_floor = 1 it is regularized absolutely.
  MatX D = MatX::Zero(9, 9);
  D.block(0, 0, 2, 2) << 1.0, 1.0, 1.0, 1.0;
  D(2, 2) = 2.0;
  D.block(3, 3, 3, 3) = Mat3::Identity();
  const Problem p = mixed_problem(D, VecX::Zero(9));
  const Mat6 j = block_diagonal_inverse(p, 0, {1e-6, 0.0, true});
  Eigen::Matrix2d A = D.block(0, 0, 2, 2);
  A.diagonal().array() += 1e-6;
  EXPECT_LE((A * j.topLeftCorner<2, 2>() - Eigen::Matrix2d::Identity()).cwiseAbs().maxCoeff(),
            1e-8);
  EXPECT_EQ(block_diagonal_inverse(p, 3, {1e-6, 0.0, true}), Mat6::Zero());
  const Mat6 z = block_diagonal_inverse(p, 3, {1e-6, 1.0, true});
  EXPECT_LE((z.topLeftCorner<3, 3>() - 1e6 * Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-3);
}
