// Aggregates (quartiles type 7, groups) and Dolan-More performance profiles.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "moreau/bench/bench.hpp"

namespace moreau::bench {
namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Hand-computed type-7 quartiles: h = (n-1) p, x_(floor h) + frac(h) (x_(floor h + 1) - x_(floor
// h)).
TEST(BenchStats, QuartilesInterpolateLinearlyBetweenOrderStatistics) {
  const Quartiles a = quartiles({4.0, 1.0, 3.0, 2.0});  // h = 0.75, 1.5, 2.25
  EXPECT_DOUBLE_EQ(a.q1, 1.75);
  EXPECT_DOUBLE_EQ(a.median, 2.5);
  EXPECT_DOUBLE_EQ(a.q3, 3.25);
  EXPECT_EQ(a.n, 4);
  const Quartiles b = quartiles({7.0, 1.0, 3.0, 10.0, 5.0});  // h = 1, 2, 3: order statistics
  EXPECT_DOUBLE_EQ(b.q1, 3.0);
  EXPECT_DOUBLE_EQ(b.median, 5.0);
  EXPECT_DOUBLE_EQ(b.q3, 7.0);
  const Quartiles c = quartiles({64.0, 2.0, 32.0, 4.0, 16.0, 8.0});  // h = 1.25, 2.5, 3.75
  EXPECT_DOUBLE_EQ(c.q1, 5.0);
  EXPECT_DOUBLE_EQ(c.median, 12.0);
  EXPECT_DOUBLE_EQ(c.q3, 28.0);
  const Quartiles one = quartiles({0.5});
  EXPECT_EQ(one.n, 1);
  EXPECT_DOUBLE_EQ(one.q1, 0.5);
  EXPECT_DOUBLE_EQ(one.q3, 0.5);
}

TEST(BenchStats, QuartilesDropNanKeepInfinity) {
  const Quartiles empty = quartiles({});
  EXPECT_EQ(empty.n, 0);
  EXPECT_TRUE(std::isnan(empty.median));
  const Quartiles nan_only = quartiles({kNaN, kNaN});
  EXPECT_EQ(nan_only.n, 0);
  EXPECT_TRUE(std::isnan(nan_only.q1));
  const Quartiles a = quartiles({kNaN, 1.0, 3.0});
  EXPECT_EQ(a.n, 2);
  EXPECT_DOUBLE_EQ(a.median, 2.0);
  const Quartiles b = quartiles({1.0, kInf, 2.0});  // h = 0.5, 1, 1.5
  EXPECT_DOUBLE_EQ(b.q1, 1.5);
  EXPECT_DOUBLE_EQ(b.median, 2.0);
  EXPECT_EQ(b.q3, kInf);
  const Quartiles c = quartiles({kInf, 1.0, kInf, kInf});  // inf between infs, not inf - inf
  EXPECT_EQ(c.median, kInf);
  EXPECT_EQ(c.q3, kInf);
  EXPECT_EQ(c.q1, kInf);  // h = 0.75 between 1 and inf
}

Sample make_sample(const std::string& system, Category cat) {
  Sample s;
  s.system = system;
  s.info.category = cat;
  return s;
}

RunResult make_run(int sample, const std::string& solver, bool warm, bool success, double t,
                   double r_nat) {
  RunResult r;
  r.sample = sample;
  r.solver = solver;
  r.warm = warm;
  r.success = success;
  r.status = success ? SolveStatus::Converged : SolveStatus::MaxIterations;
  r.solve_time_s = t;
  r.iterations = int(t * 1000);
  r.metrics.r_natmap = r_nat;
  r.metrics.r_pen = r.metrics.r_dual = r.metrics.r_compl = 0.0;
  return r;
}

const Aggregate* find(const std::vector<Aggregate>& rows, const std::string& sys,
                      const std::string& cat, const std::string& solver, bool warm) {
  for (const Aggregate& a : rows)
    if (a.system == sys && a.category == cat && a.solver == solver && a.warm == warm) return &a;
  return nullptr;
}

TEST(BenchStats, AggregateGroupsAndAllRows) {
  const std::vector<Sample> samples = {make_sample("fourbar-fixed", Category::RedundantJoints),
                                       make_sample("fourbar-fixed", Category::RedundantJoints),
                                       make_sample("box-on-plane", Category::SparseContacts)};
  std::vector<RunResult> runs;
  // pgs: solves sample 0 and 2, fails 1 with a NaN residual; admm: solves all, also warm on 0.
  runs.push_back(make_run(0, "pgs", false, true, 0.001, 1e-8));
  runs.push_back(make_run(0, "admm", false, true, 0.004, 1e-9));
  runs.push_back(make_run(0, "admm", true, true, 0.002, 1e-9));
  runs.push_back(make_run(1, "pgs", false, false, 0.003, kNaN));
  runs.push_back(make_run(1, "admm", false, true, 0.005, 1e-7));
  runs.push_back(make_run(2, "pgs", false, true, 0.002, 1e-10));
  runs.push_back(make_run(2, "admm", false, true, 0.006, 1e-9));
  const std::vector<Aggregate> rows = aggregate(samples, runs);

  // (sys, cat): 2 systems x 1 category x (pgs cold, admm cold, admm warm where present) = 5
  // (sys, all): 5; (all, cat): 5; (all, all): 3.
  EXPECT_EQ(rows.size(), 18u);
  // Block order: specific rows, then (system, all), then (all, category), then (all, all).
  auto block = [](const Aggregate& a) {
    return (a.system == "all" ? 2 : 0) + (a.category == "all" ? 1 : 0);
  };
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_LE(block(rows[i - 1]), block(rows[i]));

  const Aggregate* pgs_fb = find(rows, "fourbar-fixed", "redundant-joints", "pgs", false);
  ASSERT_NE(pgs_fb, nullptr);
  EXPECT_EQ(pgs_fb->samples, 2);
  EXPECT_EQ(pgs_fb->successes, 1);
  EXPECT_DOUBLE_EQ(pgs_fb->success_rate, 0.5);
  EXPECT_DOUBLE_EQ(pgs_fb->time_s.median, 0.002);  // over every run, failures included
  EXPECT_EQ(pgs_fb->time_s.n, 2);
  EXPECT_EQ(pgs_fb->r_natmap.n, 1);  // residuals over the finite values only
  EXPECT_DOUBLE_EQ(pgs_fb->r_natmap.median, 1e-8);

  const Aggregate* pgs_all = find(rows, "all", "all", "pgs", false);
  ASSERT_NE(pgs_all, nullptr);
  EXPECT_EQ(pgs_all->samples, 3);
  EXPECT_EQ(pgs_all->successes, 2);
  EXPECT_DOUBLE_EQ(pgs_all->time_s.median, 0.002);
  EXPECT_DOUBLE_EQ(pgs_all->time_s.q1, 0.0015);
  const Aggregate* admm_warm = find(rows, "all", "all", "admm", true);
  ASSERT_NE(admm_warm, nullptr);
  EXPECT_EQ(admm_warm->samples, 1);
  const Aggregate* box_cat = find(rows, "all", "sparse-contacts", "admm", false);
  ASSERT_NE(box_cat, nullptr);
  EXPECT_EQ(box_cat->samples, 1);
  EXPECT_EQ(find(rows, "box-on-plane", "sparse-contacts", "admm", true), nullptr);
  EXPECT_EQ(aggregate(samples, runs).size(), rows.size());  // deterministic
}

TEST(BenchStats, ProfileFastestEverywhereHasRhoOneAtTauOne) {
  const std::vector<std::vector<double>> cost = {{1, 2, 3}, {2, 3, 4}, {5, 6, kInf}};
  const auto prof = performance_profile(cost, {"a", "b", "c"});
  ASSERT_EQ(prof.size(), 3u);
  EXPECT_EQ(prof[0].solver, "a");
  EXPECT_DOUBLE_EQ(prof[0].at(1.0), 1.0);
  EXPECT_DOUBLE_EQ(prof[1].at(1.0), 0.0);
  // At large tau, rho = problems solved / problems.
  EXPECT_DOUBLE_EQ(prof[1].at(1e9), 1.0);
  EXPECT_DOUBLE_EQ(prof[2].at(1e9), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(prof[0].at(0.5), 0.0);  // nothing below tau = 1
}

TEST(BenchStats, ProfileHandComputedAndMonotone) {
  // ratios: a = {1, 2, 1}, b = {2, 1, fail}
  const std::vector<std::vector<double>> cost = {{1, 2}, {4, 2}, {3, kInf}};
  const auto prof = performance_profile(cost, {"a", "b"});
  EXPECT_DOUBLE_EQ(prof[0].at(1.0), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(prof[0].at(1.999), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(prof[0].at(2.0), 1.0);
  EXPECT_DOUBLE_EQ(prof[1].at(1.0), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(prof[1].at(2.0), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(prof[1].at(1e12), 2.0 / 3.0);  // the failure never counts
  for (const Profile& p : prof) {
    ASSERT_EQ(p.tau.size(), p.rho.size());
    EXPECT_DOUBLE_EQ(p.tau.front(), 1.0);
    for (size_t i = 1; i < p.tau.size(); ++i) {
      EXPECT_LT(p.tau[i - 1], p.tau[i]);
      EXPECT_LE(p.rho[i - 1], p.rho[i]);
    }
  }
}

TEST(BenchStats, ProfileTiesCountForBothFailuresNever) {
  const auto tie = performance_profile({{1.5, 1.5}, {2.0, 2.0}}, {"a", "b"});
  EXPECT_DOUBLE_EQ(tie[0].at(1.0), 1.0);
  EXPECT_DOUBLE_EQ(tie[1].at(1.0), 1.0);
  // A problem every solver fails stays in the denominator; a solver that fails everything has 0.
  const auto f = performance_profile({{1.0, kInf}, {kInf, kInf}, {kNaN, 2.0}}, {"a", "b"});
  EXPECT_DOUBLE_EQ(f[0].at(1e12), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(f[1].at(1.0), 1.0 / 3.0);  // NaN counts as a failure, b is best on problem 3
  EXPECT_DOUBLE_EQ(f[1].at(1e12), 1.0 / 3.0);
  const auto none = performance_profile({{kInf}, {kInf}}, {"a"});
  EXPECT_DOUBLE_EQ(none[0].at(1e12), 0.0);
  // Best cost 0 (an exact residual): only the zero counts.
  const auto zero = performance_profile({{0.0, 1e-9}}, {"a", "b"});
  EXPECT_DOUBLE_EQ(zero[0].at(1.0), 1.0);
  EXPECT_DOUBLE_EQ(zero[1].at(1e12), 0.0);
  const auto empty = performance_profile({}, {"a"});
  EXPECT_DOUBLE_EQ(empty[0].at(2.0), 0.0);
}

}  // namespace
}  // namespace moreau::bench
