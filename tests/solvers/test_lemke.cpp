// lemke: Lemke's algorithm on textbook and random LCPs, the Painleve cases (solution, first
// solution, ray termination), the point mass, and cross-solver agreement of ngn, lemke (as n_d
// grows), prox-fp and the report's NCP solvers on uniquely solvable problems.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/lemke.hpp"
#include "moreau/solvers/solver.hpp"
#include "moreau/solvers/solver_params.hpp"
#include "solvers/implicit_problems.hpp"

using namespace moreau;
using namespace moreau::testing_problems;

namespace {
Solution run_lemke(const std::string& name, const Problem& p,
                   std::map<std::string, double, std::less<>> params = {}, int max_iters = 100000) {
  SolverSettings s;
  s.tol = 1e-12;
  s.max_iters = max_iters;
  for (const auto& [k, v] : params) find_param(*find_solver(name), k)->set(s, v);  // unchecked
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve(name, p, s, {}, ws, sol)) << sol.message;
  return sol;
}
}  // namespace

TEST(LemkeLcp, TextbookAndRandomPositiveDefinite) {
  lemke::Tableau t;
  VecX z;
  int piv = 0;
  MatX M(2, 2);
  M << 2, 1, 1, 2;
  VecX q(2);
  q << -5, -6;
  ASSERT_EQ(lemke::solve_lcp(M, q, VecX::Ones(q.size()), 100, 1e-12, t, z, &piv),
            lemke::Result::Solution);
  EXPECT_NEAR(z[0], 4.0 / 3.0, 1e-14);
  EXPECT_NEAR(z[1], 7.0 / 3.0, 1e-14);
  std::mt19937 rng(1);
  std::normal_distribution<double> N(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 2 + trial;
    MatX B(n, n);
    for (int i = 0; i < n * n; ++i) B.data()[i] = N(rng);
    const MatX P = B * B.transpose() + 0.1 * MatX::Identity(n, n);
    VecX qq(n);
    for (int i = 0; i < n; ++i) qq[i] = N(rng);
    ASSERT_EQ(lemke::solve_lcp(P, qq, VecX::Ones(n), 10 * n, 1e-12, t, z, &piv),
              lemke::Result::Solution);
    EXPECT_LE(lemke::lcp_residual(P, qq, z), 1e-10 * (1.0 + qq.cwiseAbs().maxCoeff())) << n;
    EXPECT_GE(z.minCoeff(), 0.0);
  }
}

TEST(LemkeLcp, DegenerateProblemsTerminate) {
  // Ties in the ratio test everywhere: repeated rows and zero entries of q.
  lemke::Tableau t;
  VecX z;
  int piv = 0;
  const int n = 6;
  const MatX M = MatX::Ones(n, n) + MatX::Identity(n, n);
  VecX q = VecX::Constant(n, -1.0);
  q[2] = 0.0;
  ASSERT_EQ(lemke::solve_lcp(M, q, VecX::Ones(q.size()), 100, 1e-12, t, z, &piv),
            lemke::Result::Solution);
  EXPECT_LE(lemke::lcp_residual(M, q, z), 1e-12);
}

// Spec C.8: Lemke on (G, b): unique solution, the first of two, ray termination.
TEST(Lemke, PainleveCases) {
  const double G1 = painleve_G(1.0, 1.0, std::atan(2.0), 0.3);
  const Solution unique = run_lemke("lemke", painleve_lcp(G1, -9.81));
  ASSERT_TRUE(unique.converged());
  EXPECT_NEAR(unique.lambda[0], 7.9113, 1e-4);
  EXPECT_NEAR(unique.lambda[0], 9.81 / G1, 1e-12);
  const double G2 = painleve_G(1.0, 1.0, std::atan(2.0), 1.5);
  const Solution two = run_lemke("lemke", painleve_lcp(G2, 9.81));  // solutions {0, 49.05}
  ASSERT_TRUE(two.converged());
  EXPECT_EQ(two.lambda[0], 0.0);
  EXPECT_EQ(two.iterations, 0);  // q >= 0: z = 0 at once
  const Solution none = run_lemke("lemke", painleve_lcp(G2, -9.81));
  EXPECT_EQ(none.status, SolveStatus::Failed);
  EXPECT_NE(none.message.find("ray termination"), std::string::npos) << none.message;
  EXPECT_TRUE(none.lambda.allFinite());
}

// Spec C.7: stick and slide of the point mass (the pyramid has the sliding direction +-x).
TEST(Lemke, PointMassStickAndSlide) {
  const Solution stick = run_lemke("lemke", point_mass(1.0, 2.0, -9.81, 0.5));
  ASSERT_TRUE(stick.converged());
  EXPECT_NEAR(stick.lambda[0], -2.0, 1e-12);
  EXPECT_NEAR(stick.lambda[1], 0.0, 1e-12);
  EXPECT_NEAR(stick.lambda[2], 9.81, 1e-12);
  const Solution slide = run_lemke("lemke", point_mass(1.0, 6.0, -9.81, 0.5));
  ASSERT_TRUE(slide.converged());
  EXPECT_NEAR(slide.lambda[0], -4.905, 1e-12);
  EXPECT_NEAR(slide.v_plus[0], 1.095, 1e-12);
  // The same answers from prox-fp and ngn (exact cone).
  for (const char* other : {"prox-fp", "ngn"}) {
    const Solution s1 = run_lemke(other, point_mass(1.0, 2.0, -9.81, 0.5));
    const Solution s2 = run_lemke(other, point_mass(1.0, 6.0, -9.81, 0.5));
    EXPECT_LE((s1.lambda - stick.lambda).cwiseAbs().maxCoeff(), 1e-10) << other;
    EXPECT_LE((s2.lambda - slide.lambda).cwiseAbs().maxCoeff(), 1e-10) << other;
  }
}

TEST(Lemke, BadParametersAndInput) {
  const Solution bad = run_lemke("lemke", point_mass(1.0, 2.0, -9.81, 0.5), {{"directions", 2.0}});
  EXPECT_EQ(bad.status, SolveStatus::Failed);
  EXPECT_NE(bad.message.find("directions"), std::string::npos);
  Problem p = point_mass(1.0, 2.0, -9.81, 0.5);
  p.blocks[0].mu = -1.0;
  const Solution neg = run_lemke("lemke", p);
  EXPECT_EQ(neg.status, SolveStatus::Failed);
  EXPECT_NE(neg.message.find("friction coefficient"), std::string::npos) << neg.message;
  const Solution cap =
      run_lemke("lemke", point_mass(1.0, 6.0, -9.81, 0.5), {{"pivot_factor", 0.1}});
  EXPECT_EQ(cap.status, SolveStatus::Failed);
  EXPECT_NE(cap.message.find("pivot limit"), std::string::npos) << cap.message;
}

// Spec D.6: on uniquely solvable frictional problems (D SPD, small mu) ngn, prox-fp and the
// report's NCP solvers agree on v+ and lambda; lemke approaches them as n_d grows. A sliding
// contact's pyramid force snaps to the polygon vertex nearest to -v_T, so the error is
// O(mu lambda_n pi / n_d) per contact (first order: it shrinks on average, not monotonically).
TEST(CrossSolver, AgreeOnUniquelySolvableProblems) {
  std::mt19937 rng(31);
  const double nds[3] = {8.0, 32.0, 128.0};
  double mean_err[3] = {0.0, 0.0, 0.0};
  const int trials = 12;
  for (int trial = 0; trial < trials; ++trial) {
    const Problem p = random_contacts(rng, 3, 2 + trial % 4, 0.3, 1.0, trial % 3 == 0, trial % 2);
    const Solution ref = run_lemke("ngn", p);
    ASSERT_TRUE(ref.converged()) << trial;
    ASSERT_LE(ncp_residuals(p, ref.lambda, ref.v_plus, true).natmap, 1e-10);
    for (const char* name : {"prox-fp", "prox", "nbgs-exact"}) {
      const Solution s = run_lemke(name, p);
      ASSERT_TRUE(s.converged()) << name << " " << trial << " " << s.message;
      EXPECT_LE((s.v_plus - ref.v_plus).cwiseAbs().maxCoeff(), 1e-8) << name << " " << trial;
      EXPECT_LE((s.lambda - ref.lambda).cwiseAbs().maxCoeff(), 1e-8) << name << " " << trial;
    }
    double friction = 0.0;  // largest mu lambda_n
    for (const ConstraintBlock& b : p.blocks)
      if (b.cone == ConeKind::Coulomb)
        friction = std::max(friction, b.mu * ref.lambda[b.offset + 2]);
    const double dnorm = p.D_dense.cwiseAbs().rowwise().sum().maxCoeff();
    for (int k = 0; k < 3; ++k) {
      const Solution s = run_lemke("lemke", p, {{"directions", nds[k]}});
      ASSERT_TRUE(s.converged()) << nds[k] << " " << s.message;
      const double err = (s.v_plus - ref.v_plus).cwiseAbs().maxCoeff();
      EXPECT_LE(err, 2.0 * dnorm * friction * M_PI / nds[k] + 1e-12) << nds[k] << " " << trial;
      mean_err[k] += err / trials;
    }
  }
  EXPECT_LT(mean_err[1], 0.5 * mean_err[0]);
  EXPECT_LT(mean_err[2], 0.35 * mean_err[0]);
}
