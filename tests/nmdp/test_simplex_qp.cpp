// The polytope-weight QP of Pan & Hauser 2021 (eq. 5, 8): minimize 1/2 w^T Q w + c^T w over
// w >= 0, sum(w[g]) <= 1. Checked against the KKT conditions, closed forms, warm starts and
// cvxopt's interior-point QP (tests/nmdp/cvxopt_qp.py).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "moreau/nmdp/simplex_qp.hpp"

namespace moreau::nmdp {
namespace {

struct Instance {
  MatX Q;
  VecX c;
  std::vector<int> groups;
};

// Q = A^T A / rows + shift I: rank-deficient (semidefinite) when rows < n and shift = 0.
// c is scaled so that the unconstrained minimizer leaves the feasible set: a mix of weights at
// zero, interior weights and saturated groups.
Instance random_instance(std::mt19937& rng, std::vector<int> groups, int rows, double shift) {
  std::normal_distribution<double> normal(0.0, 1.0);
  int n = 0;
  for (const int g : groups) n += g;
  MatX A(rows, n);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = normal(rng);
  Instance inst;
  inst.Q = A.transpose() * A / rows + shift * MatX::Identity(n, n);
  inst.Q = 0.5 * (inst.Q + inst.Q.transpose()).eval();
  inst.c.resize(n);
  for (int j = 0; j < n; ++j) inst.c[j] = 1.5 * normal(rng) - 0.5;
  inst.groups = std::move(groups);
  return inst;
}

double objective(const Instance& p, const VecX& w) {
  return 0.5 * w.dot(p.Q * w) + p.c.dot(w);
}

// KKT conditions of the QP at w, checked from the data alone: feasibility; per group a
// multiplier mu_g >= 0 of the sum (zero unless the sum is 1); lambda_i = g_i + mu_g >= 0 for
// every weight (stationarity g + mu 1_g - lambda = 0, g = Q w + c); complementarity
// w_i lambda_i = 0. Tolerances scale with the data.
void expect_kkt(const Instance& p, const VecX& w, double tol = 1e-9) {
  const int n = static_cast<int>(p.c.size());
  ASSERT_EQ(w.size(), n);
  const VecX g = p.Q * w + p.c;
  const double scale = std::max({1.0, p.Q.cwiseAbs().maxCoeff(), p.c.cwiseAbs().maxCoeff()});
  int begin = 0;
  for (const int size : p.groups) {
    const auto wg = w.segment(begin, size);
    const auto gg = g.segment(begin, size);
    EXPECT_GE(wg.minCoeff(), -tol) << "group at " << begin;
    const double sum = wg.sum();
    EXPECT_LE(sum, 1.0 + tol) << "group at " << begin;
    double mu = 0.0;
    if (sum > 1.0 - 1e-9) {
      // Saturated: the largest weight is positive, so its lambda is zero: mu = -g there.
      int imax = 0;
      wg.maxCoeff(&imax);
      mu = -gg[imax];
      EXPECT_GE(mu, -tol * scale) << "sum multiplier of the group at " << begin;
    }
    for (int i = 0; i < size; ++i) {
      const double lambda = gg[i] + mu;
      EXPECT_GE(lambda, -tol * scale) << "bound multiplier of weight " << begin + i;
      EXPECT_LE(std::abs(wg[i] * lambda), tol * scale) << "complementarity of " << begin + i;
    }
    begin += size;
  }
}

std::vector<int> uniform_groups(int count, int size) {
  return std::vector<int>(count, size);
}

TEST(SimplexQp, KktOnRandomInstancesOfSeveralSizesAndGroupings) {
  std::mt19937 rng(7);
  const std::vector<std::vector<int>> structures = {{1},
                                                    {4},
                                                    {1, 1, 1},
                                                    {3, 5, 2, 7},
                                                    uniform_groups(4, 4),
                                                    uniform_groups(8, 8),
                                                    uniform_groups(20, 6),
                                                    {12, 1, 9, 30}};
  SimplexQp qp;
  int saturated = 0, interior = 0, at_zero = 0;
  for (const auto& groups : structures)
    for (int trial = 0; trial < 6; ++trial) {
      int n = 0;
      for (const int g : groups) n += g;
      // Positive definite (shift > 0, full rank) and semidefinite (rank n/2, no shift) Q.
      const bool psd = trial % 2 == 1;
      const Instance p =
          random_instance(rng, groups, psd ? std::max(1, n / 2) : n + 3, psd ? 0.0 : 0.1);
      VecX w = VecX::Zero(n);
      const SimplexQpResult r = qp.solve(p.Q, p.c, p.groups, w);
      ASSERT_TRUE(r.converged) << "n = " << n << " trial " << trial;
      expect_kkt(p, w);
      EXPECT_NEAR(r.objective, objective(p, w), 1e-12 * std::max(1.0, std::abs(r.objective)));
      int begin = 0;
      for (const int g : groups) {
        saturated += w.segment(begin, g).sum() > 1.0 - 1e-9;
        begin += g;
      }
      for (int i = 0; i < n; ++i) (w[i] == 0.0 ? at_zero : interior) += 1;
    }
  // The instances exercise every kind of active constraint.
  EXPECT_GT(saturated, 10);
  EXPECT_GT(interior, 10);
  EXPECT_GT(at_zero, 10);
}

TEST(SimplexQp, ManyRandomStructuresConvergeToKktPoints) {
  // Random group counts and sizes, ranks from 1 to full, and scales of c from tiny to large:
  // degenerate vertices and flat directions occur, and every solve must still end at a KKT point.
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> group_count(1, 10), group_size(1, 8);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SimplexQp qp;
  int max_iterations = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<int> groups(group_count(rng));
    int n = 0;
    for (int& g : groups) n += (g = group_size(rng));
    const int rank = 1 + static_cast<int>(unit(rng) * n);
    const double shift = trial % 3 == 0 ? 0.0 : 1e-3;
    Instance p = random_instance(rng, groups, rank, shift);
    p.c *= std::pow(10.0, -3.0 + 6.0 * unit(rng));
    VecX w = VecX::Zero(n);
    const SimplexQpResult r = qp.solve(p.Q, p.c, p.groups, w);
    ASSERT_TRUE(r.converged) << "trial " << trial << ", n = " << n << ", rank " << rank;
    expect_kkt(p, w);
    max_iterations = std::max(max_iterations, r.iterations);
  }
  std::printf("[ random ] 300 instances, at most %d iterations\n", max_iterations);
}

TEST(SimplexQp, ZeroLinearTermGivesZeroWeights) {
  std::mt19937 rng(3);
  const Instance p0 = random_instance(rng, {3, 4}, 10, 0.5);
  SimplexQp qp;
  VecX w = VecX::Constant(7, 0.1);  // a feasible non-zero start
  const SimplexQpResult r = qp.solve(p0.Q, VecX::Zero(7), p0.groups, w);
  ASSERT_TRUE(r.converged);
  EXPECT_LT(w.cwiseAbs().maxCoeff(), 1e-15);  // one full Newton step from the interior
  EXPECT_LT(r.objective, 1e-30);
  // From the cold start no weight leaves its bound.
  w.setZero();
  const SimplexQpResult cold = qp.solve(p0.Q, VecX::Zero(7), p0.groups, w);
  ASSERT_TRUE(cold.converged);
  EXPECT_EQ(cold.iterations, 1);
  EXPECT_EQ(w, VecX::Zero(7));
  EXPECT_EQ(cold.active_bounds, 7);
  EXPECT_EQ(cold.objective, 0.0);
}

TEST(SimplexQp, PositiveLinearTermKeepsEveryWeightAtTheBound) {
  std::mt19937 rng(4);
  Instance p = random_instance(rng, {5, 2, 6}, 4, 0.0);  // semidefinite
  p.c = VecX::LinSpaced(13, 0.1, 2.0);
  SimplexQp qp;
  VecX w = VecX::Zero(13);
  const SimplexQpResult r = qp.solve(p.Q, p.c, p.groups, w);
  ASSERT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 1);  // the cold start is already optimal
  EXPECT_EQ(w, VecX::Zero(13));
  EXPECT_EQ(r.active_bounds, 13);
  expect_kkt(p, w);
}

TEST(SimplexQp, SaturatedGroupIsTheSimplexProjection) {
  // min 1/2 |w|^2 - a^T w over the simplex: w = P_simplex(a). For a = (1, 1, 1): w = 1/3 each;
  // for a = (2, 0.5, 0): w = (1, 0, 0) (theta = 1 removes all but the first).
  const MatX I = MatX::Identity(3, 3);
  const std::vector<int> groups = {3};
  SimplexQp qp;
  VecX w = VecX::Zero(3);
  SimplexQpResult r = qp.solve(I, -VecX::Ones(3), groups, w);
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR((w - VecX::Constant(3, 1.0 / 3.0)).cwiseAbs().maxCoeff(), 0.0, 1e-15);
  EXPECT_EQ(r.active_groups, 1);
  w.setZero();
  r = qp.solve(I, -Eigen::Vector3d(2.0, 0.5, 0.0), groups, w);
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR((w - Eigen::Vector3d(1.0, 0.0, 0.0)).cwiseAbs().maxCoeff(), 0.0, 1e-15);
  // Two groups, one saturated and one interior: the second group's unconstrained minimizer
  // (0.2, 0.3) has sum 0.5 < 1 and stays.
  const MatX I5 = MatX::Identity(5, 5);
  VecX c(5);
  c << -1, -1, -1, -0.2, -0.3;
  const std::vector<int> two = {3, 2};
  w.setZero(5);
  r = qp.solve(I5, c, two, w);
  ASSERT_TRUE(r.converged);
  VecX expected(5);
  expected << 1.0 / 3, 1.0 / 3, 1.0 / 3, 0.2, 0.3;
  EXPECT_LT((w - expected).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_EQ(r.active_groups, 1);
}

TEST(SimplexQp, LinearProgramPicksTheBestVertex) {
  // Q = 0 (semidefinite, rank 0): every step is a zero-curvature ray to the boundary. The
  // optimum of c^T w over a simplex is its most negative vertex, or 0 when c >= 0.
  const MatX Z = MatX::Zero(6, 6);
  VecX c(6);
  c << -1.0, -2.0, -0.5, 0.3, 0.1, 0.2;
  const std::vector<int> groups = {3, 3};
  SimplexQp qp;
  VecX w = VecX::Zero(6);
  const SimplexQpResult r = qp.solve(Z, c, groups, w);
  ASSERT_TRUE(r.converged);
  VecX expected = VecX::Zero(6);
  expected[1] = 1.0;
  EXPECT_LT((w - expected).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_DOUBLE_EQ(r.objective, -2.0);
}

TEST(SimplexQp, RankOneHessianWithATieIsStillOptimal) {
  // Q = u u^T with u = (1, 1): along (1, -1) the objective is flat. Every w with w1 + w2 = 0.5
  // minimizes 1/2 (w1 + w2)^2 - 0.5 (w1 + w2); the KKT conditions hold for whatever is returned.
  Instance p;
  p.Q = MatX::Ones(2, 2);
  p.c = VecX::Constant(2, -0.5);
  p.groups = {2};
  SimplexQp qp;
  VecX w = VecX::Zero(2);
  const SimplexQpResult r = qp.solve(p.Q, p.c, p.groups, w);
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR(w.sum(), 0.5, 1e-14);
  EXPECT_NEAR(r.objective, -0.125, 1e-15);
  expect_kkt(p, w);
}

TEST(SimplexQp, InfeasibleWarmStartIsProjected) {
  VecX w(5);
  w << 2.0, -1.0, 0.5, 0.2, -0.3;
  std::vector<double> scratch;
  const std::vector<int> groups = {3, 2};
  project_simplex_groups(groups, w, scratch);
  // Group 1: clamp gives (2, 0, 0.5), sum > 1: simplex projection with theta = 1 -> (1, 0, 0).
  // Group 2: clamp gives (0.2, 0), feasible.
  VecX expected(5);
  expected << 1.0, 0.0, 0.0, 0.2, 0.0;
  EXPECT_EQ(w, expected);
  // A solve from an infeasible, wrongly sized or non-finite start reaches the same optimum.
  std::mt19937 rng(11);
  const Instance p = random_instance(rng, {3, 2}, 8, 0.2);
  SimplexQp qp;
  VecX w_cold = VecX::Zero(5);
  ASSERT_TRUE(qp.solve(p.Q, p.c, p.groups, w_cold).converged);
  for (VecX start : {VecX(VecX::Constant(5, 3.0)), VecX(VecX::Constant(5, -2.0)), VecX(2),
                     VecX(VecX::Constant(5, std::nan("")))}) {
    ASSERT_TRUE(qp.solve(p.Q, p.c, p.groups, start).converged);
    EXPECT_LT((start - w_cold).cwiseAbs().maxCoeff(), 1e-12);
  }
}

TEST(SimplexQp, WarmStartGivesTheSameSolutionInFewerIterations) {
  std::mt19937 rng(21);
  SimplexQp qp;
  int warm_total = 0, cold_total = 0;
  for (int trial = 0; trial < 10; ++trial) {
    Instance p = random_instance(rng, uniform_groups(8, 6), 60, 0.05);
    VecX w = VecX::Zero(48);
    const SimplexQpResult first = qp.solve(p.Q, p.c, p.groups, w);
    ASSERT_TRUE(first.converged);
    // The solution as warm start: optimal at once.
    VecX again = w;
    const SimplexQpResult same = qp.solve(p.Q, p.c, p.groups, again);
    EXPECT_EQ(same.iterations, 1);
    EXPECT_EQ(again, w);
    // A nearby problem (as consecutive PGM iterations give): the previous solution as warm
    // start reaches the cold solution in fewer iterations.
    std::normal_distribution<double> normal(0.0, 1e-3);
    for (int i = 0; i < 48; ++i) p.c[i] += normal(rng);
    VecX cold = VecX::Zero(48);
    const SimplexQpResult rc = qp.solve(p.Q, p.c, p.groups, cold);
    const SimplexQpResult rw = qp.solve(p.Q, p.c, p.groups, w);
    ASSERT_TRUE(rc.converged && rw.converged);
    EXPECT_LT((w - cold).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LT(rw.iterations, rc.iterations);
    warm_total += rw.iterations;
    cold_total += rc.iterations;
  }
  std::printf("[ warm start ] 10 perturbed solves: %d iterations warm, %d cold\n", warm_total,
              cold_total);
}

TEST(SimplexQp, BadSizesThrow) {
  SimplexQp qp;
  VecX w;
  const std::vector<int> groups = {2, 2};
  EXPECT_THROW(qp.solve(MatX::Identity(3, 3), VecX::Zero(4), groups, w), std::invalid_argument);
  const std::vector<int> short_groups = {2, 1};
  EXPECT_THROW(qp.solve(MatX::Identity(4, 4), VecX::Zero(4), short_groups, w),
               std::invalid_argument);
  const std::vector<int> empty_group = {4, 0};
  EXPECT_THROW(qp.solve(MatX::Identity(4, 4), VecX::Zero(4), empty_group, w),
               std::invalid_argument);
}

// Agreement with cvxopt.solvers.qp (an interior-point method, tolerances 1e-10) on random
// instances; skipped where /usr/bin/python3 has no cvxopt (scripts/setup.sh installs it).
TEST(SimplexQp, AgreesWithCvxopt) {
  if (std::system("/usr/bin/python3 -c 'import cvxopt' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 cannot import cvxopt (apt-get install python3-cvxopt)";
  std::mt19937 rng(2024);
  std::vector<Instance> instances;
  const std::vector<std::vector<int>> structures = {
      {4}, {3, 5, 2, 7}, uniform_groups(4, 4), uniform_groups(8, 8), uniform_groups(10, 5)};
  for (const auto& groups : structures)
    for (int trial = 0; trial < 4; ++trial) {
      int n = 0;
      for (const int g : groups) n += g;
      const bool psd = trial % 2 == 1;
      instances.push_back(
          random_instance(rng, groups, psd ? std::max(1, n / 2) : n + 3, psd ? 0.0 : 0.1));
    }

  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = "moreau_simplex_qp_" + std::to_string(::getpid());
  const auto in_path = dir / (tag + "_in.txt"), out_path = dir / (tag + "_out.txt");
  {
    std::ofstream in(in_path);
    in << std::setprecision(17) << instances.size() << "\n";
    for (const Instance& p : instances) {
      in << p.c.size() << " " << p.groups.size();
      for (const int g : p.groups) in << " " << g;
      in << "\n" << p.Q.reshaped<Eigen::RowMajor>().transpose() << "\n" << p.c.transpose() << "\n";
    }
  }
  const std::string cmd = "/usr/bin/python3 " MOREAU_SOURCE_DIR "/tests/nmdp/cvxopt_qp.py " +
                          in_path.string() + " " + out_path.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;

  std::ifstream out(out_path);
  SimplexQp qp;
  double max_obj_diff = 0.0, max_w_diff_pd = 0.0;
  for (std::size_t k = 0; k < instances.size(); ++k) {
    const Instance& p = instances[k];
    const int n = static_cast<int>(p.c.size());
    int status = 0;
    double f_ref = 0.0;
    out >> status >> f_ref;
    VecX w_ref(n);
    for (int i = 0; i < n; ++i) out >> w_ref[i];
    ASSERT_TRUE(out.good()) << "reading cvxopt's answer " << k;
    ASSERT_EQ(status, 1) << "cvxopt did not reach optimality on instance " << k;

    VecX w = VecX::Zero(n);
    const SimplexQpResult r = qp.solve(p.Q, p.c, p.groups, w);
    ASSERT_TRUE(r.converged);
    // The active-set solution is at least as good as the interior point's (up to its accuracy).
    const double obj_diff = std::abs(r.objective - f_ref);
    EXPECT_LE(obj_diff, 1e-6 * std::max(1.0, std::abs(f_ref))) << "instance " << k;
    EXPECT_LE(r.objective, objective(p, w_ref) + 1e-9) << "instance " << k;
    max_obj_diff = std::max(max_obj_diff, obj_diff);
    expect_kkt(p, w);
    // Positive definite Q: the solution is unique, so the weights agree too, to the accuracy of
    // the interior point (|w - w*|^2 <= 2 (f(w) - f*) / sigma_min(Q), sigma_min >= 0.1 here).
    if (k % 2 == 0) {
      const double w_diff = (w - w_ref).cwiseAbs().maxCoeff();
      EXPECT_LE(w_diff, 1e-5) << "instance " << k;
      max_w_diff_pd = std::max(max_w_diff_pd, w_diff);
    }
  }
  std::printf(
      "[ cvxopt ] %zu instances: max |objective difference| %.3g, max |w difference| "
      "(positive definite Q) %.3g\n",
      instances.size(), max_obj_diff, max_w_diff_pd);
  std::filesystem::remove(in_path);
  std::filesystem::remove(out_path);
}

TEST(SimplexQp, AnIterationCapReportsNotConvergedWithAFeasibleIterate) {
  // NMDP counts a QP stopped at its cap (StepStats::qp_capped, a step reported as not converged):
  // the cap must be visible in the result, and the iterate it leaves must be feasible and no
  // worse than where it started, so that a warm restart from it reaches the same optimum.
  std::mt19937 rng(11);
  const Instance p = random_instance(rng, {4, 4, 4, 4}, 20, 0.1);
  SimplexQp qp;
  VecX full = VecX::Zero(16);
  const SimplexQpResult done = qp.solve(p.Q, p.c, p.groups, full);
  ASSERT_TRUE(done.converged);
  ASSERT_GT(done.iterations, 3);  // the cap below stops it early
  SimplexQpSettings capped;
  capped.max_iterations = 2;
  VecX w = VecX::Zero(16);
  const SimplexQpResult r = qp.solve(p.Q, p.c, p.groups, w, capped);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_GE(w.minCoeff(), 0.0);
  for (int g = 0; g < 4; ++g) EXPECT_LE(w.segment(4 * g, 4).sum(), 1.0 + 1e-12);
  EXPECT_NEAR(r.objective, objective(p, w), 1e-12);  // the objective of the iterate it leaves
  EXPECT_LE(objective(p, w), 0.0);                   // below the cold start's 0, above the optimum
  EXPECT_GT(objective(p, w), done.objective + 1e-9);
  const SimplexQpResult again = qp.solve(p.Q, p.c, p.groups, w);
  ASSERT_TRUE(again.converged);
  EXPECT_NEAR(again.objective, done.objective, 1e-12 * std::max(1.0, std::abs(done.objective)));
  expect_kkt(p, w);
}

}  // namespace
}  // namespace moreau::nmdp
