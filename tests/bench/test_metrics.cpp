// Metrics (eq. 173-176, 156): zero at constructed NCP solutions, hand-computed values at points
// off them; r_pen against an independent dense computation of f + dt J u+. No solver is run.
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>

#include "bench/bench_problems.hpp"
#include "moreau/bench/bench.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;
using namespace moreau::bench;
using moreau::bench_problems::ground_contact;
using moreau::bench_problems::with_bodies;

namespace {

constexpr double kG = 9.81, kDt = 1e-3, kMass = 2.0;

// A point-like body on the ground with free velocity (vt, 0, -g dt) and gap `gap`.
Problem ground_problem(double vt, double mu, double gap) {
  VecX uf = VecX::Zero(6);
  uf << vt, 0.0, -kG * kDt, 0.0, 0.0, 0.0;
  VecX f(3);
  f << 0.0, 0.0, gap;
  return with_bodies({ground_contact(mu)}, {kMass}, {1.0}, uf, f, kDt);
}

VecX v_plus_of(const Problem& p, const VecX& lambda) {
  VecX v(p.nl);
  p.D.multiply(lambda.data(), v.data());
  return v + p.v_f;  // v+ = D lambda + v_f   (eq. 13)
}

}  // namespace

TEST(BenchMetrics, RestingContactExactSolutionHasZeroResiduals) {
  const Problem p = ground_problem(0.0, 0.5, 0.0);
  const VecX lambda = Vec3(0.0, 0.0, kMass * kG * kDt);  // lambda_n = m g dt, v+ = 0
  const Metrics m = evaluate_metrics(p, lambda, v_plus_of(p, lambda));
  EXPECT_LE(m.r_dual, 1e-15);
  EXPECT_LE(m.r_compl, 1e-15);
  EXPECT_LE(m.r_natmap, 1e-15);
  EXPECT_LE(m.r_primal, 1e-15);
  EXPECT_LE(m.r_pen, 1e-15);
}

TEST(BenchMetrics, SlidingContactExactSolutionHasZeroResidualsAndPerturbedIsPositive) {
  const double mu = 0.5, vt = 1.0, ln = kMass * kG * kDt;
  const Problem p = ground_problem(vt, mu, 0.0);
  // Sliding: lambda_t = -mu lambda_n opposes the slip, v_t+ = vt - mu g dt > 0, v_n+ = 0.
  const VecX lambda = Vec3(-mu * ln, 0.0, ln);
  const VecX v = v_plus_of(p, lambda);
  ASSERT_NEAR(v[0], vt - mu * kG * kDt, 1e-15);
  const Metrics m = evaluate_metrics(p, lambda, v);
  const double scale = std::max(ln, vt);
  EXPECT_LE(m.r_dual, 1e-12 * scale);
  EXPECT_LE(m.r_compl, 1e-12 * scale * scale);
  EXPECT_LE(m.r_natmap, 1e-12 * scale);
  // More normal impulse: the body leaves the ground (v_n > 0 with lambda_n > 0).
  const VecX l2 = Vec3(-mu * ln, 0.0, 1.5 * ln);
  const Metrics m2 = evaluate_metrics(p, l2, v_plus_of(p, l2));
  EXPECT_GT(m2.r_compl, 1e-6 * ln);
  EXPECT_GT(m2.r_natmap, 1e-3 * ln);
  // Friction outside the cone: primal residual.
  const VecX l3 = Vec3(-2.0 * mu * ln, 0.0, ln);
  EXPECT_GT(evaluate_metrics(p, l3, v_plus_of(p, l3)).r_primal, 0.5 * mu * ln);
}

TEST(BenchMetrics, PenetrationCountsOnlyUnilateralViolationsAndIgnoresFriction) {
  const double ln = kMass * kG * kDt;
  const VecX lambda = Vec3(0.0, 0.0, ln);  // u+ = 0
  Problem p = ground_problem(0.0, 0.5, -0.01);
  EXPECT_NEAR(evaluate_metrics(p, lambda, v_plus_of(p, lambda)).r_pen, 0.01, 1e-15);
  p.f[0] = 5.0;  // friction rows carry no configuration residual: ignored
  EXPECT_NEAR(evaluate_metrics(p, lambda, v_plus_of(p, lambda)).r_pen, 0.01, 1e-15);
  p.f[2] = 0.01;  // a positive gap is not an error
  EXPECT_EQ(evaluate_metrics(p, lambda, v_plus_of(p, lambda)).r_pen, 0.0);
  // Without an impulse the body falls g dt^2 into the ground in one step: f + dt v_n = -g dt^2.
  p.f[2] = 0.0;
  const VecX zero = VecX::Zero(3);
  EXPECT_NEAR(evaluate_metrics(p, zero, v_plus_of(p, zero)).r_pen, kG * kDt * kDt, 1e-15);
}

TEST(BenchMetrics, JointOnlyPenetrationEqualsDenseFPlusDtJUplus) {
  Result<Scene> sc = load_scene("fourbar-free");
  ASSERT_TRUE(sc) << sc.error().message();
  // Break the loop by 1 mm so that f(s) != 0 (eq. 84), then build the step's Problem.
  State s = sc->initial;
  s.r[1] += Vec3(1e-3, -2e-3, 0.5e-3);
  Simulator sim(sc->model, sc->settings);
  ASSERT_TRUE(sim.step(s)) << sim.error();
  const Problem& p = sim.problem();
  ASSERT_GT(p.f.cwiseAbs().maxCoeff(), 1e-4);
  ASSERT_GT(p.nl, 0);
  ASSERT_EQ(p.count(RowKind::Contact) + p.count(RowKind::Limit), 0);
  // Independently of any solver: u+ = u_free + M^-1 J^T lambda with dense matrices,
  // g = f + dt J u+, at an arbitrary lambda and at the minimum-norm solution of D lambda = -v_f
  // (complete orthogonal decomposition of the rank-deficient dense D; joints only: v+ = 0).
  const MatX J = bench_problems::dense_J(p);
  MatX Minv = MatX::Zero(6 * p.num_bodies, 6 * p.num_bodies);
  for (int i = 0; i < p.num_bodies; ++i) Minv.block<6, 6>(6 * i, 6 * i) = p.M[i].inverse();
  MatX D;
  p.D.to_dense(D);
  const VecX exact = Eigen::CompleteOrthogonalDecomposition<MatX>(D).solve(-p.v_f);
  const VecX arbitrary = VecX::LinSpaced(p.nl, -1.0, 2.0);
  for (const VecX& lambda : {exact, arbitrary}) {
    const VecX u_plus = p.u_free + Minv * J.transpose() * lambda;
    const VecX g = p.f + p.dt * J * u_plus;
    const Metrics m = evaluate_metrics(p, lambda, v_plus_of(p, lambda));
    const double expected = g.cwiseAbs().maxCoeff();
    EXPECT_NEAR(m.r_pen, expected, 1e-12 * std::max(expected, p.f.cwiseAbs().maxCoeff()));
  }
  const Metrics m = evaluate_metrics(p, exact, v_plus_of(p, exact));
  EXPECT_GT(m.r_pen, 1e-6);  // Baumgarte removes only part of the error in one step
  // Joint rows: dual residual and natural map are |v+| (eq. 157, 163), 0 at the exact solution.
  EXPECT_LE(m.r_natmap, 1e-9);
  EXPECT_LE(m.r_dual, 1e-9);
  EXPECT_EQ(m.r_primal, 0.0);  // R^m: every lambda is primal feasible
  EXPECT_EQ(m.r_compl, 0.0);   // joint rows carry no complementarity
  const Metrics ma = evaluate_metrics(p, arbitrary, v_plus_of(p, arbitrary));
  EXPECT_DOUBLE_EQ(ma.r_natmap, v_plus_of(p, arbitrary).cwiseAbs().maxCoeff());
  EXPECT_DOUBLE_EQ(ma.r_dual, ma.r_natmap);
}

namespace {
// A joint row, a limit row and a contact (mu = 0.5), in that order; D = I (only r_pen reads D,
// and this problem has no primal view: r_pen is NaN).
Problem joint_limit_contact() {
  using testing_problems::block;
  return testing_problems::from_dense(
      {block(ConeKind::Free, 1), block(ConeKind::Orthant, 1), block(ConeKind::Coulomb, 3, 0.5)},
      MatX::Identity(5, 5), VecX::Zero(5));
}
VecX vec5(double a, double b, double c, double d, double e) {
  VecX x(5);
  x << a, b, c, d, e;
  return x;
}
}  // namespace

TEST(BenchMetrics, KnownNcpSolutionHasZeroResiduals) {
  const Problem p = joint_limit_contact();
  // Joint: any impulse, v = 0. Limit: separating, lambda = 0, v = 0.2. Contact sliding with
  // v_T = (0.3, 0.4), |v_T| = 0.5, v_n = 0: lambda_T = -mu lambda_n v_T / |v_T| = (-0.6, -0.8)
  // with lambda_n = 2, so v_hat = (0.3, 0.4, 0.25) lies on the boundary of K*_mu (eq. 14, 51).
  const VecX lambda = vec5(7.0, 0.0, -0.6, -0.8, 2.0);
  const VecX v = vec5(0.0, 0.2, 0.3, 0.4, 0.0);
  const Metrics m = evaluate_metrics(p, lambda, v);
  EXPECT_LE(m.r_primal, 1e-14);
  EXPECT_LE(m.r_dual, 1e-14);
  EXPECT_LE(m.r_compl, 1e-14);
  EXPECT_LE(m.r_natmap, 1e-14);
  EXPECT_TRUE(std::isnan(m.r_pen));
}

TEST(BenchMetrics, PointsOffTheSolutionHaveHandComputedResiduals) {
  const Problem p = joint_limit_contact();
  // Joint lambda = 7, v = 0.01: dual = natmap = 0.01 (eq. 157, 163 on R^m).
  // Limit lambda = 0.3, v = -0.05: primal 0, dual |v - max(0, v)| = 0.05,
  //   compl |0.3 * -0.05| = 0.015, natmap |0.3 - max(0, 0.3 + 0.05)| = 0.05.
  // Contact lambda = (0.3, 0, 0.4) outside K_0.5 (|lambda_T| = 0.3 > 0.2), v = (0, 0, 0.1):
  //   P_K(lambda) = ((0.5 * 0.3 + 0.4) / 1.25) (0.5, 0, 1) = (0.22, 0, 0.44): primal 0.08;
  //   v_hat = v (no slip) in K*: dual 0; compl lambda . v_hat = 0.04;
  //   P_K(lambda - v_hat) = P_K(0.3, 0, 0.3) = 0.36 (0.5, 0, 1): natmap |0.3 - 0.18| = 0.12.
  const VecX lambda = vec5(7.0, 0.3, 0.3, 0.0, 0.4);
  const VecX v = vec5(0.01, -0.05, 0.0, 0.0, 0.1);
  const Metrics m = evaluate_metrics(p, lambda, v);
  EXPECT_NEAR(m.r_primal, 0.08, 1e-15);
  EXPECT_NEAR(m.r_dual, 0.05, 1e-15);
  EXPECT_NEAR(m.r_compl, 0.04, 1e-15);
  EXPECT_NEAR(m.r_natmap, 0.12, 1e-15);
  // Each block alone: the maxima above come from the block named.
  const Metrics joint = evaluate_metrics(p, vec5(7.0, 0, 0, 0, 1), vec5(0.01, 0, 0, 0, 0));
  EXPECT_NEAR(joint.r_dual, 0.01, 1e-15);
  EXPECT_NEAR(joint.r_natmap, 0.01, 1e-15);
  EXPECT_EQ(joint.r_compl, 0.0);
  const Metrics limit = evaluate_metrics(p, vec5(0, 0.3, 0, 0, 1), vec5(0, -0.05, 0, 0, 0));
  EXPECT_NEAR(limit.r_compl, 0.015, 1e-15);
  EXPECT_NEAR(limit.r_natmap, 0.05, 1e-15);
  EXPECT_NEAR(limit.r_dual, 0.05, 1e-15);
  // A negative limit impulse is primal infeasible by its magnitude.
  EXPECT_NEAR(evaluate_metrics(p, vec5(0, -0.25, 0, 0, 1), vec5(0, 0.1, 0, 0, 0)).r_primal, 0.25,
              1e-15);
}

TEST(BenchMetrics, DeSaxceTermEntersDualComplementarityAndNaturalMap) {
  const Problem p = joint_limit_contact();
  // Contact pushing along its axis, lambda = (0, 0, 1), while sliding at v = (0.3, 0.4, 0):
  // primal feasible, and v alone is complementary to lambda (lambda . v = 0), but the NCP's
  // v_hat = (0.3, 0.4, 0.25) is not: compl = 0.25. v_hat is on the boundary of K*: dual 0.
  // P_K(lambda - v_hat) = P_K(-0.3, -0.4, 0.75): |x_T| = 0.5 > 0.375, so it is
  // ((0.5 * 0.5 + 0.75) / 1.25) (0.5 x_T / |x_T|, 1) = (-0.24, -0.32, 0.8): natmap 0.32.
  const VecX lambda = vec5(0, 0, 0.0, 0.0, 1.0);
  const VecX v = vec5(0, 0, 0.3, 0.4, 0.0);
  const Metrics m = evaluate_metrics(p, lambda, v);
  EXPECT_EQ(m.r_primal, 0.0);
  EXPECT_LE(m.r_dual, 1e-15);
  EXPECT_NEAR(m.r_compl, 0.25, 1e-15);
  EXPECT_NEAR(m.r_natmap, 0.32, 1e-15);
  // Approaching the ground (v_n = -0.1) while sliding: v_hat = (0.3, 0.4, 0.15) leaves
  // K* = K_{1/mu} = K_2 (eq. 151; 2 * 0.15 < 0.5). Its projection onto K_2 is
  // ((2 * 0.5 + 0.15) / (1 + 4)) (2 x_T / |x_T|, 1) = (0.276, 0.368, 0.23): dual 0.08.
  const VecX v2 = vec5(0, 0, 0.3, 0.4, -0.1);
  EXPECT_NEAR(evaluate_metrics(p, lambda, v2).r_dual, 0.08, 1e-15);
}

TEST(BenchMetrics, WithoutPrimalViewPenetrationIsNaN) {
  // FCLib-like: no bodies, no f.
  Problem p = testing_problems::one_contact(Mat3::Identity(), Vec3(0.0, 0.0, -1.0), 0.3);
  p.f.resize(0);
  const VecX lambda = Vec3(0.0, 0.0, 1.0);
  const Metrics m = evaluate_metrics(p, lambda, v_plus_of(p, lambda));
  EXPECT_TRUE(std::isnan(m.r_pen));
  EXPECT_LE(m.r_natmap, 1e-15);
}

TEST(BenchMetrics, NonFiniteIterateGivesNaNMetrics) {
  const Problem p = ground_problem(0.0, 0.5, 0.0);
  const VecX lambda = Vec3(0.0, std::nan(""), 1.0);
  const Metrics m = evaluate_metrics(p, lambda, v_plus_of(p, lambda));
  EXPECT_TRUE(std::isnan(m.r_natmap));
  EXPECT_TRUE(std::isnan(m.r_dual));
  EXPECT_TRUE(std::isnan(m.r_pen));
}
