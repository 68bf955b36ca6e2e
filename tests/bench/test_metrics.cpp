// Metrics (eq. 173-176): zero at exact NCP solutions, positive away from them; r_pen against an
// independent dense computation of f + dt J u+.
#include <gtest/gtest.h>

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
  SolverSettings st;
  st.tol = 1e-12;
  SolverWorkspace ws;
  Solution sol;
  ASSERT_TRUE(solve("direct", p, st, {}, ws, sol)) << sol.message;
  ASSERT_TRUE(sol.converged()) << sol.message;
  // Independently: u+ = u_free + M^-1 J^T lambda with dense matrices, g = f + dt J u+.
  const MatX J = bench_problems::dense_J(p);
  MatX Minv = MatX::Zero(6 * p.num_bodies, 6 * p.num_bodies);
  for (int i = 0; i < p.num_bodies; ++i) Minv.block<6, 6>(6 * i, 6 * i) = p.M[i].inverse();
  const VecX u_plus = p.u_free + Minv * J.transpose() * sol.lambda;
  const VecX g = p.f + p.dt * J * u_plus;
  const double expected = g.cwiseAbs().maxCoeff();
  const Metrics m = evaluate_metrics(p, sol.lambda, sol.v_plus);
  EXPECT_NEAR(m.r_pen, expected, 1e-12 * p.f.cwiseAbs().maxCoeff());
  EXPECT_GT(expected, 1e-6);  // Baumgarte removes only part of the error in one step
  // Joints solved exactly: the dual and natural-map residuals are the joint velocity error.
  EXPECT_LE(m.r_natmap, 1e-9);
}

TEST(BenchMetrics, BoxOnPlaneSolvedToTightToleranceHasNearZeroResiduals) {
  Result<Scene> sc = load_scene("box-on-plane");
  ASSERT_TRUE(sc) << sc.error().message();
  State s = sc->initial;
  Simulator sim(sc->model, sc->settings);
  while (s.t < 0.2) ASSERT_TRUE(sim.step(s)) << sim.error();
  const Problem& p = sim.problem();
  ASSERT_EQ(p.count(RowKind::Contact), 4);
  SolverSettings st;
  st.tol = 1e-12;
  st.max_iters = 20000;
  SolverWorkspace ws;
  Solution sol;
  ASSERT_TRUE(solve("nbgs", p, st, {}, ws, sol)) << sol.message;
  ASSERT_TRUE(sol.converged());
  const double scale = sol.lambda.cwiseAbs().maxCoeff();
  const Metrics m = evaluate_metrics(p, sol.lambda, sol.v_plus);
  EXPECT_LE(m.r_dual, 1e-11);
  EXPECT_LE(m.r_natmap, 1e-11);
  EXPECT_LE(m.r_compl, 1e-11 * scale);
  EXPECT_LE(m.r_primal, 1e-12 * scale);
  // A perturbed normal impulse makes the box leave the ground (v_n > 0 with lambda_n > 0).
  VecX l = sol.lambda;
  l[2] += 0.1 * scale;
  VecX v(p.nl);
  p.D.multiply(l.data(), v.data());
  v += p.v_f;
  if (p.v_r.size() == p.nl) v -= p.v_r;
  const Metrics mp = evaluate_metrics(p, l, v);
  EXPECT_GT(mp.r_natmap, 1e-3 * scale);
  EXPECT_GT(mp.r_compl, 1e-6 * scale * scale);
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
