// The material combination rule of a geometry pair (collision/material.hpp, docs/collision.md):
// SAP's stiffness in series and the compliance-weighted dissipation time scale.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "moreau/collision/material.hpp"

using namespace moreau;

namespace {
Material mat(double k, double tau) {
  Material m;
  m.stiffness = k;
  m.tau_d = tau;
  return m;
}
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST(Material, StiffnessCombinesInSeries) {
  EXPECT_DOUBLE_EQ(combine_stiffness(mat(1e4, kNaN), mat(1e4, kNaN)), 5e3);
  EXPECT_DOUBLE_EQ(combine_stiffness(mat(1e4, kNaN), mat(3e4, kNaN)), 7.5e3);
  EXPECT_EQ(combine_stiffness(mat(1e4, kNaN), mat(kInf, kNaN)), 1e4);  // a rigid side
  EXPECT_EQ(combine_stiffness(mat(kInf, kNaN), mat(2e3, kNaN)), 2e3);
  EXPECT_TRUE(std::isinf(combine_stiffness(mat(kInf, kNaN), mat(kInf, kNaN))));
  const Material a = mat(2e3, 0.1), b = mat(6e3, 0.3);  // symmetric
  EXPECT_EQ(combine_stiffness(a, b), combine_stiffness(b, a));
}

// Two Kelvin-Voigt layers k_i (1 + s tau_i) in series: to first order in s the compliance is
// sum 1/k_i - s sum tau_i / k_i = 1/k - s tau / k, so tau = k sum tau_i / k_i.
TEST(Material, DissipationTimeScaleIsTheComplianceWeightedMean) {
  const Material a = mat(2e3, 0.1), b = mat(6e3, 0.3);
  const double k = combine_stiffness(a, b);
  EXPECT_NEAR(combine_tau_d(a, b), k * (0.1 / 2e3 + 0.3 / 6e3), 1e-15);
  EXPECT_DOUBLE_EQ(combine_tau_d(a, b), combine_tau_d(b, a));
  EXPECT_DOUBLE_EQ(combine_tau_d(mat(1e4, 0.02), mat(1e4, 0.02)), 0.02);  // equal layers
  EXPECT_DOUBLE_EQ(combine_tau_d(mat(1e4, 0.02), mat(kInf, 0.5)), 0.02);  // rigid side: no say
  EXPECT_DOUBLE_EQ(combine_tau_d(mat(kInf, 0.02), mat(kInf, 0.04)), 0.03);
  EXPECT_DOUBLE_EQ(combine_tau_d(mat(1e4, 0.02), mat(1e4, kNaN)), 0.02);  // unset side
  EXPECT_TRUE(std::isnan(combine_tau_d(mat(1e4, kNaN), mat(kInf, kNaN))));
}
