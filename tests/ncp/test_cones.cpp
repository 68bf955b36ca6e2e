// Cone projectors and the De Saxce operator (ncp/cones.hpp, eq. 147-151): the properties every
// solver relies on, checked on seeded random points.
#include <gtest/gtest.h>

#include <random>

#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "solvers/pgs_test_util.hpp"

using namespace moreau;

namespace {
std::vector<Vec3> samples(unsigned seed, int n, double scale = 3.0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<Vec3> out;
  for (int k = 0; k < n; ++k) out.emplace_back(u(rng), u(rng), u(rng));
  return out;
}
// The apex, the axis, boundary rays and pure tangents.
std::vector<Vec3> edge_cases() {
  return {{0, 0, 0}, {0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0.5, 0, 1}, {-2, 0, -4}, {0, 1e-300, -1}};
}
const double kMus[] = {0.0, 0.1, 0.5, 1.0, 3.0};
}  // namespace

TEST(Cones, ProjectionIsIdempotentAndFeasible) {
  for (double mu : kMus)
    for (const Vec3& x : samples(1, 200)) {
      const Vec3 p = project_coulomb(x, mu);
      EXPECT_TRUE(in_coulomb(p, mu, 1e-12)) << x.transpose() << " mu " << mu;
      EXPECT_LE((project_coulomb(p, mu) - p).cwiseAbs().maxCoeff(), 1e-12);
      const Vec3 d = project_dual_coulomb(x, mu);
      EXPECT_TRUE(in_dual_coulomb(d, mu, 1e-12));
      EXPECT_LE((project_dual_coulomb(d, mu) - d).cwiseAbs().maxCoeff(), 1e-12);
    }
}

TEST(Cones, MoreauDecompositionWithOrthogonality) {
  // x = P_K(x) + P_K°(x), K° = -K*, computed with the independent dual projector (eq. 151).
  for (double mu : kMus)
    for (const Vec3& x : samples(2, 200)) {
      const Vec3 pk = project_coulomb(x, mu);
      const Vec3 polar = -project_dual_coulomb(-x, mu);
      EXPECT_LE((pk + polar - x).cwiseAbs().maxCoeff(), 1e-12) << x.transpose() << " mu " << mu;
      EXPECT_LE(std::abs(pk.dot(polar)), 1e-12 * (1.0 + x.squaredNorm()));
    }
}

TEST(Cones, ProjectionIsTheNearestPoint) {
  // Variational inequality (x - P(x)) . (y - P(x)) <= 0 for every y in K.
  for (double mu : kMus) {
    const auto xs = samples(3, 50), ys = samples(4, 50);
    for (const Vec3& x : xs) {
      const Vec3 p = project_coulomb(x, mu);
      for (const Vec3& y0 : ys) {
        const Vec3 y = project_coulomb(y0, mu);
        EXPECT_LE((x - p).dot(y - p), 1e-12);
      }
    }
  }
}

TEST(Cones, LimitsInMu) {
  for (const Vec3& x : samples(5, 100)) {
    // mu -> 0: K is the normal ray.
    const Vec3 ray(0.0, 0.0, std::max(0.0, x[2]));
    EXPECT_LE((project_coulomb(x, 1e-12) - ray).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LE((project_coulomb(x, 0.0) - ray).cwiseAbs().maxCoeff(), 0.0);
    // mu -> inf: K is the half-space x_n >= 0.
    const Vec3 half(x[0], x[1], std::max(0.0, x[2]));
    EXPECT_LE((project_coulomb(x, 1e9) - half).cwiseAbs().maxCoeff(), 1e-8) << x.transpose();
  }
}

TEST(Cones, EdgeCasesOnTheAxisAndApex) {
  // Exact answers: K_mu ∋ P(x), Moreau decomposition, for the points where |x_t| = 0 or the
  // comparisons tie (mu = 0 included: K_0 is the normal ray).
  for (double mu : kMus)
    for (const Vec3& x : edge_cases()) {
      const Vec3 p = project_coulomb(x, mu);
      EXPECT_TRUE(in_coulomb(p, mu, 1e-12))
          << "P_K(" << x.transpose() << "), mu " << mu << " = " << p.transpose() << " is outside K";
      const Vec3 polar = -project_dual_coulomb(-x, mu);
      EXPECT_LE((p + polar - x).cwiseAbs().maxCoeff(), 1e-12) << x.transpose() << " mu " << mu;
    }
}

TEST(Cones, DeSaxceIgnoresNormalBias) {
  // Gamma(v + bias on normal rows) = Gamma(v): the invariance every bias must keep (Sec. 2.1).
  const Problem p = test::dense_problem(
      {{ConeKind::Free, 2}, {ConeKind::Coulomb, 3, 0.7}, {ConeKind::Coulomb, 3, 0.2}},
      MatX::Identity(8, 8), VecX::Zero(8));
  VecX v(8), bias = VecX::Zero(8);
  GrowVec a, b;
  v << 0.3, -1, 0.4, -0.2, 2.0, -0.7, 0.1, -3.0;
  bias[0] = 5.0;   // joint row
  bias[4] = -1.5;  // normal of contact 1
  bias[7] = 2.5;   // normal of contact 2
  augment_de_saxce(p, v, a);
  augment_de_saxce(p, v + bias, b);
  // Gamma itself is unchanged, bit for bit; the augmented velocities differ by the bias only.
  EXPECT_EQ(de_saxce(v.segment<3>(2), 0.7), de_saxce((v + bias).segment<3>(2), 0.7));
  EXPECT_EQ(de_saxce(v.segment<3>(5), 0.2), de_saxce((v + bias).segment<3>(5), 0.2));
  EXPECT_LE((b - a - bias).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_DOUBLE_EQ(a[4] - v[4], 0.7 * std::hypot(0.4, -0.2));
}
