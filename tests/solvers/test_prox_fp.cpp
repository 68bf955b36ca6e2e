// prox-fp (Schindler, Nguyen, Trinkle 2011): the point-mass r-sweep (converges iff 0 < r < 2m,
// one iteration at r = m, period-2 cycle beyond), the Painleve cases, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/prox_fp.hpp"
#include "moreau/solvers/solver.hpp"
#include "moreau/solvers/solver_params.hpp"
#include "solvers/implicit_problems.hpp"

using namespace moreau;
using namespace moreau::testing_problems;

namespace {
Solution run_fp(const Problem& p, std::map<std::string, double, std::less<>> params,
                const WarmStart& warm = {}, int max_iters = 20000) {
  SolverSettings s;
  s.tol = 1e-12;
  s.max_iters = max_iters;
  s.trace = true;
  for (const auto& [k, v] : params) find_param(*find_solver("prox-fp"), k)->set(s, v);  // unchecked
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve("prox-fp", p, s, warm, ws, sol)) << sol.message;
  return sol;
}
}  // namespace

// Spec C.7: normal direction, h_y = -9.81, m = 2: G = 1/m, r = omega m.
TEST(ProxFp, PointMassNormalConvergesIffRBelowTwoM) {
  const double m = 2.0;
  const Problem p = point_mass(m, 0.0, -9.81, 0.5);
  for (const double ratio : {0.25, 0.5, 1.0, 1.5, 1.9}) {
    const Solution sol = run_fp(p, {{"omega", ratio}});
    EXPECT_TRUE(sol.converged()) << "r/m = " << ratio << ": " << sol.message;
    EXPECT_NEAR(sol.lambda[2], 9.81, 1e-9) << ratio;  // lambda_U* = -h_y
    if (ratio == 1.0) {
      EXPECT_EQ(sol.iterations, 1);  // the prox map is flat
    } else {
      EXPECT_GT(sol.iterations, 1);
    }
  }
  for (const double ratio : {2.0, 2.5, 4.0}) {
    const Solution sol = run_fp(p, {{"omega", ratio}});
    EXPECT_EQ(sol.status, SolveStatus::Failed) << ratio;
    EXPECT_NE(sol.message.find("period 2"), std::string::npos) << sol.message;
    // The cycle {0, (r/m) |h_y|} (impulse scale: lambda = m v, r = omega m, v_f = h_y / m).
    const double top = ratio * 9.81;
    EXPECT_TRUE(std::abs(sol.lambda[2]) < 1e-12 || std::abs(sol.lambda[2] - top) < 1e-9)
        << sol.lambda[2];
    ASSERT_GE(sol.trace.size(), 3u);
    EXPECT_DOUBLE_EQ(sol.trace[sol.trace.size() - 1], sol.trace[sol.trace.size() - 3]);
  }
}

TEST(ProxFp, PointMassStickAndSlideForces) {
  const Solution stick = run_fp(point_mass(1.0, 2.0, -9.81, 0.5), {{"omega", 1.5}});
  ASSERT_TRUE(stick.converged());
  EXPECT_NEAR(stick.lambda[0], -2.0, 1e-10);  // lambda_T* = -h_x (the paper prints +h_x)
  EXPECT_NEAR(stick.lambda[2], 9.81, 1e-10);
  const Solution slide = run_fp(point_mass(1.0, 6.0, -9.81, 0.5), {{"omega", 1.5}});
  ASSERT_TRUE(slide.converged());
  EXPECT_NEAR(slide.lambda[0], -4.905, 1e-10);  // -sign(h_x) mu |h_y|
  EXPECT_NEAR(slide.v_plus[0], 1.095, 1e-10);
}

// Spec C.8, uniform rod m = 1, L = 1, theta = atan 2.
TEST(ProxFp, PainleveUniqueCaseConvergesForRBelowTwoOverG) {
  const double G = painleve_G(1.0, 1.0, std::atan(2.0), 0.3);
  ASSERT_NEAR(G, 1.24, 1e-12);
  const Problem p = painleve_lcp(G, -9.81);
  for (const double r : {0.2 / G, 1.0 / G, 1.9 / G}) {
    const Solution sol = run_fp(p, {{"r", r}});
    EXPECT_TRUE(sol.converged()) << r;
    EXPECT_NEAR(sol.lambda[0], 9.81 / G, 1e-9);
  }
  EXPECT_NEAR(9.81 / G, 7.9113, 1e-4);
  const Solution bad = run_fp(p, {{"r", 2.5 / G}});
  EXPECT_FALSE(bad.converged());
}

TEST(ProxFp, PainleveTwoSolutionsFindsOnlyTheZeroOne) {
  const double G = painleve_G(1.0, 1.0, std::atan(2.0), 1.5);
  ASSERT_NEAR(G, -0.2, 1e-12);
  const Problem p = painleve_lcp(G, 9.81);  // gravity reversed: b > 0, solutions {0, 49.05}
  const double lam2 = -9.81 / G;
  EXPECT_NEAR(lam2, 49.05, 1e-9);
  for (const double start : {0.0, 20.0, 49.0}) {
    WarmStart w;
    w.lambda = VecX::Constant(1, start);
    const Solution sol = run_fp(p, {{"r", 0.5}}, w);
    EXPECT_TRUE(sol.converged()) << start;
    EXPECT_NEAR(sol.lambda[0], 0.0, 1e-12) << start;
  }
  WarmStart w;
  w.lambda = VecX::Constant(1, 49.1);  // above the repelling lambda_2: slope 1 - rG > 1
  const Solution sol = run_fp(p, {{"r", 0.5}}, w);
  EXPECT_EQ(sol.status, SolveStatus::Diverged);
  EXPECT_NE(sol.message.find("diverged"), std::string::npos);
}

TEST(ProxFp, PainleveNoSolutionDivergesFromEveryStart) {
  const double G = painleve_G(1.0, 1.0, std::atan(2.0), 1.5);
  const Problem p = painleve_lcp(G, -9.81);
  for (const double start : {0.0, 10.0, 100.0}) {
    WarmStart w;
    w.lambda = VecX::Constant(1, start);
    const Solution sol = run_fp(p, {{"r", 0.5}}, w);
    EXPECT_EQ(sol.status, SolveStatus::Diverged) << start;
    EXPECT_TRUE(std::isfinite(sol.lambda[0]));
  }
}

TEST(ProxFp, JacobiOptionAndJointsAndLimits) {
  std::mt19937 rng(12);
  const Problem p = random_contacts(rng, 3, 3, 0.3, 1.0, 1, 2);
  const Solution gs = run_fp(p, {}, {}, 200000);
  ASSERT_TRUE(gs.converged()) << gs.message;
  EXPECT_LE(ncp_residuals(p, gs.lambda, gs.v_plus, true).natmap, 1e-11);
  const Solution jac = run_fp(p, {{"jacobi", 1.0}, {"omega", 0.3}}, {}, 200000);
  ASSERT_TRUE(jac.converged()) << jac.message;
  EXPECT_LE((jac.v_plus - gs.v_plus).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_GT(jac.iterations, gs.iterations);
}

TEST(ProxFp, RejectsInvalidProblems) {
  Problem p = point_mass(1.0, 2.0, -9.81, 0.5);
  p.D.entry(0)(1, 1) = INFINITY;
  SolverSettings s;
  SolverWorkspace ws;
  Solution sol;
  solve_prox_fp(p, s, {}, ws, sol);  // directly: solve() computes v+ from the bad D afterwards
  EXPECT_EQ(sol.status, SolveStatus::Failed);
  EXPECT_NE(sol.message.find("prox-fp: invalid problem: D has non-finite"), std::string::npos)
      << sol.message;
}
