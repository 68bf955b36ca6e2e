// sim::FastPath on its own (sim/fast_path.hpp): which solvers it takes, what it declines, and that
// its answer to a step's Problem is judged by, and meets, the full problem's natural map.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdio>
#include <string>

#include "moreau/io/problem_io.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/fast_path.hpp"
#include "moreau/sim/islands.hpp"
#include "moreau/sim/joint_schur.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

// The full problem's natural map (eq. 163) of lambda.
double natural_map(const Problem& p, const GrowVec& lambda) {
  GrowVec v(p.nl), scratch;
  p.D.multiply(lambda.data(), v.data());
  v += p.v_f;
  return ncp_residuals(p, lambda, v, true, scratch).natmap;
}

// The Problem of a built-in scene's step `steps`, built by a Simulator on the full solve.
Problem problem_of(const char* scene, const SceneParams& params, int steps, SimSettings* st) {
  Result<Scene> sc = make_builtin_scene(scene, params);
  EXPECT_TRUE(sc) << sc.error().message();
  *st = sc->settings;
  st->fast_path = false;
  Simulator sim(sc->model, *st);
  State s = sc->initial;
  for (int k = 0; k < steps; ++k) EXPECT_TRUE(sim.step(s)) << sim.error();
  st->fast_path = true;
  return sim.problem();
}

}  // namespace

TEST(FastPath, TakesMoreauNcpSolversOnly) {
  SolverSettings st;
  // pgs-ccp with its default De Saxce term solves the NCP (Table I).
  for (const char* s : {"admm-ncp-sa", "admm-ncp-fp", "nbgs", "pgs-ncp", "pgs-ccp", "nsn"})
    EXPECT_TRUE(FastPath::takes(s, st)) << s;
  // CCP solvers answer another problem; sap regularizes every row; peers and unknown names are
  // not moreau's.
  for (const char* s : {"admm-ccp", "apgd", "sap", "no-such-solver"})
    EXPECT_FALSE(FastPath::takes(s, st)) << s;
  st.pgs.de_saxce = false;  // pure CCP (eq. 18)
  EXPECT_FALSE(FastPath::takes("pgs-ccp", st));
}

TEST(FastPath, IslandsAnswerTheFullProblemWithinTol) {
  // 20 spheres after 60 steps: several separate islands; the answer's natural map, computed here
  // on the full Problem, is the one reported and meets tol.
  SimSettings st;
  Problem p = problem_of("sphere-pile", {{"n", "20"}}, 60, &st);
  ASSERT_GT(p.nl, 0);
  FastPath fast(st);
  WarmStart warm;
  SolverWorkspace ws;
  Solution sol;
  sol.residual = 1.0;  // no last step
  ASSERT_TRUE(fast.solve(p, warm, ws, sol));
  EXPECT_GT(fast.islands(), 1);
  EXPECT_EQ(sol.status, SolveStatus::Converged);
  const double natmap = natural_map(p, sol.lambda);
  EXPECT_NEAR(natmap, sol.residual, 1e-12 * (1.0 + natmap));
  EXPECT_LE(natmap, st.solver_settings.tol);
  EXPECT_EQ(fast.warm_answers(), 0);
}

TEST(FastPath, AWarmStartThatMeetsTolIsTheAnswerWithoutIterations) {
  // The quadruped standing: a warm start within tol of the step's own Problem (here its answer,
  // refined by nsn), after a step that converged well inside tol, is taken as it is: every island
  // answered by it, no solver iteration, the full natural map within tol. A warm start that does
  // not meet tol is solved (the first call: iterations > 0).
  SimSettings st;
  Problem p = problem_of("quadruped", {}, 300, &st);
  FastPath fast(st);
  WarmStart warm;
  SolverWorkspace ws;
  Solution sol;
  sol.residual = 1.0;
  ASSERT_TRUE(fast.solve(p, warm, ws, sol));
  ASSERT_TRUE(sol.converged());
  EXPECT_GT(sol.iterations, 0);
  // Refine the answer well inside tol with nsn on the full problem, as a settled stance has it.
  SolverSettings tight = st.solver_settings;
  tight.tol = 1e-3 * st.solver_settings.tol;
  warm.lambda = sol.lambda;
  Solution refined;
  ASSERT_TRUE(solve("nsn", p, tight, warm, ws, refined));
  ASSERT_TRUE(refined.converged()) << refined.message;
  warm.lambda = refined.lambda;
  Solution again;
  again.residual = refined.residual;  // the last step's, within kWarmAnswerMargin tol
  ASSERT_TRUE(fast.solve(p, warm, ws, again));
  EXPECT_EQ(fast.warm_answers(), fast.islands());
  EXPECT_EQ(again.iterations, 0);
  EXPECT_LE(natural_map(p, again.lambda), st.solver_settings.tol);
}

TEST(FastPath, DeclinesWhatItCannotJudge) {
  SimSettings st;
  Problem p = problem_of("sphere-pile", {{"n", "4"}}, 60, &st);
  WarmStart warm;
  SolverWorkspace ws;
  Solution sol;
  // A CCP solver: its answer misses the NCP's natural map.
  SimSettings ccp = st;
  ccp.solver = "admm-ccp";
  FastPath declines(ccp);
  EXPECT_FALSE(declines.solve(p, warm, ws, sol));
  // Regularized (softened) rows: the elimination would drop R.
  FastPath fast(st);
  Problem soft = p;
  soft.R.resize(soft.nl);
  soft.R.setConstant(1e-6);
  EXPECT_FALSE(fast.solve(soft, warm, ws, sol));
  EXPECT_TRUE(fast.solve(p, warm, ws, sol));
}

namespace {

// A recorded step (tests/data/problems/NAME.mprob) with `joint_rows` joint rows, solved from zero
// on the default path without the rescue (it must stay above tol) and with it (it must converge,
// its answer meeting the full problem's natural map); with `full_newton`, the last resort is the
// Newton solve of the whole problem instead (SimSettings::fast_path_full_newton), the rescue off in
// both runs.
void expect_only_the_last_resort_converges(const char* name, int joint_rows,
                                           bool full_newton = false) {
  const Result<Problem> loaded =
      load_problem(std::string(MOREAU_SOURCE_DIR) + "/tests/data/problems/" + name + ".mprob");
  ASSERT_TRUE(loaded) << loaded.error().message();
  Problem p = *loaded, q = *loaded;  // each FastPath may correct its copy (JointSchur::unwedge)
  ASSERT_EQ(p.rows_of(RowKind::Joint), joint_rows);
  SimSettings st;  // the default path: admm-ncp-sa, tol 1e-8
  // The recorded problem as a whole: with its open contacts set aside (the default), the rest
  // converges without the rescue.
  st.fast_path_set_aside_open = false;
  SimSettings off = st;
  off.fast_path_full_newton = 0;
  off.fast_path_rescue = 0;
  if (full_newton)
    st.fast_path_rescue = 0;
  else
    st.fast_path_full_newton = 0;
  SolverWorkspace ws;
  Solution without, with;
  WarmStart w0, w1;  // cold
  FastPath plain(off), rescued(st);
  ASSERT_TRUE(plain.solve(q, w0, ws, without));
  EXPECT_FALSE(without.converged()) << without.residual;
  ASSERT_TRUE(rescued.solve(p, w1, ws, with));
  EXPECT_TRUE(with.converged()) << with.residual;
  EXPECT_LE(natural_map(p, with.lambda), st.solver_settings.tol);
}

}  // namespace

// A step of the quadruped's trot (10 s run, step 7979) with 60 joint rows and 66 limit and contact
// rows at a stick-slip transition. From zero, nsn's 50 iterations, admm-ncp-sa's 1000 and nsn's
// polish all stop above tol (nsn hovers near 2e-8 for hundreds of iterations: 622 from zero).
TEST(FastPath, RescueSettlesAStickSlipStepTheOthersLeaveAboveTol) {
  expect_only_the_last_resort_converges("quadruped_stick_slip", 60);
}

// A step of bdx's gait (100 s run, step 60543), 70 joint rows and 27 limit and contact rows, where
// nsn stalls (3e-6 after 20,000 iterations from zero, with any of the rescue's variants) and
// admm-ncp-sa from zero needs about 5200 iterations, past its cap of 1000: the step's solver's
// longer run converges it.
TEST(FastPath, RescueRunsTheStepsSolverLongerWhereNewtonStalls) {
  expect_only_the_last_resort_converges("bdx_nsn_stall", 70);
}

// A step of humanoid100 (500 s run, step 6263, t = 31.3 s) whose one island above tol is a box
// sliding at 1e-4 m/s on four floor contacts and touching two other objects: 27 contact rows, D of
// rank 17. There nsn with the step's proximal term, the step's solver and the rescue's other
// variants all stall at 4e-8 to 6e-8; nsn with 1e4 times the proximal term, the rescue's last
// variant, converges in about 140 iterations.
TEST(FastPath, RescueSettlesASlidingBoxOnRedundantContacts) {
  expect_only_the_last_resort_converges("humanoid100_sliding_box", 0);
}

// A step of the G1 23 standing on its eight foot spheres (MJCF, dt 1.9 ms, step 654 at 1.24 s: 168
// joint rows, 61 limit, joint-friction and contact rows on the robot's island), recorded from a
// fall with nsn's short-step test on (NsnSettings::stall_step), here started from zero as the
// helper does. nsn's 50 iterations, admm-ncp-sa's 1000 and the polish stop above tol; the
// rescue's first try, nsn from zero with 1000 iterations, converges (in 145).
TEST(FastPath, RescueSettlesTheG1StandingOnRedundantFootContacts) {
  expect_only_the_last_resort_converges("g1_23_standing", 168);
}

// A step of the walker (10 s run, step 4788), 180 joint rows and 51 limit and contact rows, at a
// stick-slip transition that the reduced problems' solvers leave above tol (the rescue without its
// last variant too: 1.1e-7 after 13,482 iterations): nsn on the whole problem, stalling at 9.5e-8
// from that answer, converges from zero in 61 iterations.
TEST(FastPath, NewtonOnTheWholeProblemSettlesAStepTheRescueLeavesAboveTol) {
  expect_only_the_last_resort_converges("walker_stick_slip", 180, true);
}

// A pile: 150 spheres after 0.4 s, one island of contacts past the elimination's size (192 rows)
// with a sparse D. The fast path takes nsn on it (its sparse Newton system, from zero here) and
// meets tol on the full problem, where the step's solver alone, with the scene's budget, stops
// above it; and the pile's rescue settles it where nsn's other attempts are cut short.
TEST(FastPath, NewtonSettlesAPilesIslandTheStepsSolverLeavesAboveTol) {
  SimSettings st;
  Problem p = problem_of("sphere-pile", {{"n", "150"}}, 400, &st);
  Islands islands;
  islands.split(p);
  int largest = 0;
  Problem island;
  for (int k = 0; k < islands.count(); ++k) {
    islands.extract(p, k, island);
    largest = std::max(largest, island.nl);
  }
  ASSERT_GT(largest, JointSchur::kMaxReducedRows);
  ASSERT_EQ(p.rows_of(RowKind::Joint), 0);
  SolverWorkspace ws;
  Solution alone, fast;
  ASSERT_TRUE(solve(st.solver, p, st.solver_settings, {}, ws, alone));
  EXPECT_FALSE(alone.converged()) << alone.residual;
  FastPath path(st);
  WarmStart cold;
  ASSERT_TRUE(path.solve(p, cold, ws, fast));
  EXPECT_TRUE(fast.converged()) << fast.residual;
  EXPECT_LE(natural_map(p, fast.lambda), st.solver_settings.tol);
  std::printf("largest island %d rows of %d; %s alone %.2e after %d iterations\n", largest, p.nl,
              st.solver.c_str(), alone.residual, alone.iterations);
  // The pile's rescue (SimSettings::fast_path_pile_rescue): with nsn's attempts cut to one
  // iteration each, only its longer run from the best iterate meets tol.
  SimSettings short_newton = st;
  short_newton.fast_path_newton = 1;
  short_newton.fast_path_pile_rescue = 0;
  SimSettings rescued = short_newton;
  rescued.fast_path_pile_rescue = 200;
  Solution cut, saved;
  FastPath without(short_newton), with(rescued);
  WarmStart cold1, cold2;
  ASSERT_TRUE(without.solve(p, cold1, ws, cut));
  EXPECT_FALSE(cut.converged()) << cut.residual;
  ASSERT_TRUE(with.solve(p, cold2, ws, saved));
  EXPECT_TRUE(saved.converged()) << saved.residual;
  EXPECT_LE(natural_map(p, saved.lambda), st.solver_settings.tol);
  // A rescue too short to meet tol (one iteration): its best iterate is the answer where it beats
  // the step's solver's.
  SimSettings short_rescue = short_newton;
  short_rescue.fast_path_pile_rescue = 1;
  Solution partial;
  FastPath brief(short_rescue);
  WarmStart cold3;
  ASSERT_TRUE(brief.solve(p, cold3, ws, partial));
  EXPECT_FALSE(partial.converged()) << partial.residual;
  std::printf("without the rescue %.3e, after 1 of its iterations %.3e\n",
              natural_map(p, cut.lambda), natural_map(p, partial.lambda));
  EXPECT_LT(natural_map(p, partial.lambda), 0.5 * natural_map(p, cut.lambda));
}
