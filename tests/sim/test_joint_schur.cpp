// The fast path (docs/performance.md): the joint rows eliminated by the Schur complement of the
// Delassus matrix (sim/joint_schur.hpp). The reduced NCP is equivalent to the full one: its
// expanded answer solves the joint rows' equation to round-off, the full problem's natural map
// (eq. 163) of the expanded answer meets the tolerance, and a trajectory with the fast path stays
// near the trajectory of the full solve, its joints held as well.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "moreau/dynamics/analysis.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/dynamics/joint_delassus.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/joint_schur.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"
#include "sim/fast_path_check.hpp"

using namespace moreau;

namespace {

Scene scene_or_die(const std::string& name) {
  Result<Scene> sc = load_scene(name);  // a built-in scene or a file
  EXPECT_TRUE(sc) << sc.error().message();
  return std::move(*sc);
}

// Steps the scene until its Problem has joint and contact rows; returns that Problem.
Problem problem_with_contacts(const std::string& name, int max_steps) {
  Scene sc = scene_or_die(name);
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < max_steps; ++k) {
    EXPECT_TRUE(sim.step(s)) << sim.error();
    const Problem& p = sim.problem();
    if (p.rows_of(RowKind::Contact) > 0 && p.rows_of(RowKind::Joint) > 0) return p;
  }
  ADD_FAILURE() << name << ": no step with both joint and contact rows";
  return {};
}

}  // namespace

// The quadruped's four feet, bdx, lima, and the closed-loop biped whose joints' dry friction rows
// come before its contacts, in another order than the joints' elimination tree (the reduction
// reorders the rows and back).
class JointSchurOf : public ::testing::TestWithParam<const char*> {};

TEST_P(JointSchurOf, ReducedProblemIsTheSchurComplement) {
  const Problem p = problem_with_contacts(GetParam(), 400);
  ASSERT_GT(p.nl, 0);
  JointSchur js;
  ASSERT_TRUE(js.reduce(p));
  const int nj = p.rows_of(RowKind::Joint), nc = p.nl - nj;
  EXPECT_EQ(js.joint_rows(), nj);
  const Problem& r = js.reduced();
  ASSERT_EQ(r.nl, nc);
  MatX D;
  p.D.to_dense(D);
  // D_S = D_cc - D_cj D_jj^-1 D_jc, checked as D_S x = D_cc x - D_cj y with D_jj y = D_jc x.
  const VecX x = VecX::LinSpaced(nc, -1.0, 2.0);
  const VecX y = D.topLeftCorner(nj, nj).ldlt().solve(D.topRightCorner(nj, nc) * x);
  const VecX want = D.bottomRightCorner(nc, nc) * x - D.bottomLeftCorner(nc, nj) * y;
  VecX got(nc);
  r.D.multiply(x.data(), got.data());
  EXPECT_LE((got - want).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + want.cwiseAbs().maxCoeff()));
  EXPECT_LE((r.D_dense - r.D_dense.transpose()).cwiseAbs().maxCoeff(), 0.0);  // symmetric
  // v_S = v_c - D_cj D_jj^-1 v_j, and the dense D_S is the block-sparse one.
  const VecX vj0 = p.v_f.head(nj);
  const VecX want_v =
      p.v_f.tail(nc) - D.bottomLeftCorner(nc, nj) * D.topLeftCorner(nj, nj).ldlt().solve(vj0);
  EXPECT_LE((VecX(r.v_f) - want_v).cwiseAbs().maxCoeff(),
            1e-9 * (1.0 + want_v.cwiseAbs().maxCoeff()));
  EXPECT_LE((r.D_dense * x - got).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + got.cwiseAbs().maxCoeff()));
  // Any lambda_c expands to a lambda whose joint rows see zero velocity: D_j lambda + v_j = 0.
  GrowVec full;
  js.expand(p, x, full);
  ASSERT_EQ(full.size(), p.nl);
  const VecX vj = D.topRows(nj) * VecX(full) + p.v_f.head(nj);
  EXPECT_LE(vj.cwiseAbs().maxCoeff(), 1e-10 * (1.0 + p.v_f.head(nj).cwiseAbs().maxCoeff()));
  EXPECT_EQ(VecX(full.tail(nc)), x);
}

INSTANTIATE_TEST_SUITE_P(Robots, JointSchurOf,
                         ::testing::Values("quadruped", "bdx", "lima",
                                           MOREAU_SOURCE_DIR "/tests/data/robots/loop_biped.xml"));

// One JointSchur meets islands of different joint patterns in turn (two robots): each pattern's
// analysis is kept, and every reduction equals that of a JointSchur that met only its problem
// (quadruped and bdx).
TEST(JointSchur, AlternatingPatternsReduceAsFreshOnes) {
  const Problem pa = problem_with_contacts("quadruped", 400);
  const Problem pb = problem_with_contacts("bdx", 400);
  ASSERT_GT(pa.nl, 0);
  ASSERT_GT(pb.nl, 0);
  JointSchur shared;
  for (int round = 0; round < 3; ++round)
    for (const Problem* p : {&pa, &pb}) {
      JointSchur fresh;
      ASSERT_TRUE(fresh.reduce(*p));
      ASSERT_TRUE(shared.reduce(*p));
      EXPECT_EQ(shared.reduced().D_dense, fresh.reduced().D_dense);  // bit for bit
      EXPECT_EQ(VecX(shared.reduced().v_f), VecX(fresh.reduced().v_f));
      const VecX lc = VecX::LinSpaced(shared.reduced().nl, 0.5, -0.5);
      GrowVec a, b;
      shared.expand(*p, lc, a);
      fresh.expand(*p, lc, b);
      EXPECT_EQ(VecX(a), VecX(b));
    }
}

// factor() alone is enough for expand(): the simulator's test of a warm start (that its limit and
// contact impulses, with the joint impulses they imply, meet tol) gives bit for bit the answer of
// nsn's iteration 0 on the reduced NCP, expanded, without building the reduced NCP.
TEST(JointSchur, FactorAloneExpandsAsTheReduction) {
  const Problem p = problem_with_contacts("quadruped", 400);
  ASSERT_GT(p.nl, 0);
  SolverSettings st;
  SolverWorkspace ws;
  Solution full;
  ASSERT_TRUE(solve("nsn", p, st, WarmStart{}, ws, full));
  ASSERT_TRUE(full.converged()) << full.residual;
  JointSchur reduced, factored;
  ASSERT_TRUE(reduced.reduce(p));
  // factored met another robot's pattern first: nothing of it may remain.
  const Problem other = problem_with_contacts("bdx", 400);
  ASSERT_TRUE(factored.reduce(other));
  ASSERT_TRUE(factored.factor(p));
  ASSERT_EQ(factored.other_rows(), reduced.reduced().nl);
  const int nc = reduced.reduced().nl;
  WarmStart warm;  // the converged impulse's limit and contact rows meet tol on the reduced NCP
  warm.lambda = full.lambda.tail(nc);
  Solution newton;
  ASSERT_TRUE(solve("nsn", reduced.reduced(), st, warm, ws, newton));
  EXPECT_TRUE(newton.converged());
  EXPECT_EQ(newton.iterations, 0);
  GrowVec a, b;
  reduced.expand(p, newton.lambda, a);
  factored.expand(p, warm.lambda, b);
  EXPECT_EQ(VecX(a), VecX(b));  // bit for bit
  VecX v(p.nl);
  p.D.multiply(b.data(), v.data());
  v += p.v_f;
  EXPECT_LE(ncp_residuals(p, b, v).natmap, st.tol);
}

TEST(JointSchur, DeclinesWithoutJointRows) {
  JointSchur js;
  Scene sc = scene_or_die("box-stack");  // contact rows only
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  ASSERT_TRUE(sim.step(s)) << sim.error();
  EXPECT_FALSE(js.reduce(sim.problem()));
}

// walker's loops (36 redundant joint rows) with its feet on the floor: the factorization drops as
// many pivots as the model has redundant rows, D_S is the Schur complement through D_jj's
// pseudo-inverse (Eigen's complete orthogonal decomposition, an independent algorithm), and any
// lambda_c expands to joint impulses that meet every joint row's equation, the redundant ones
// included: the builder gave them consistent biases (docs/dynamics.md).
TEST(JointSchur, LoopsRedundantRowsAreDroppedAndTheirEquationsStillHold) {
  Scene sc = scene_or_die("walker");
  const ModelSummary summary = summarize_model(sc.model, sc.initial);
  ASSERT_EQ(summary.redundant_rows, 36);
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  Problem p;
  for (int k = 0; k < 200 && p.rows_of(RowKind::Contact) == 0; ++k) {  // moving, feet down
    ASSERT_TRUE(sim.step(s)) << sim.error();
    if (k >= 20) p = sim.problem();
  }
  ASSERT_GT(p.rows_of(RowKind::Contact), 0);
  JointDelassus jd;
  ASSERT_TRUE(jd.factor(p, JointDelassus::kDropPivot));
  EXPECT_EQ(jd.chol().dropped(), summary.redundant_rows);
  JointSchur js;
  ASSERT_TRUE(js.reduce(p));
  const int nj = p.rows_of(RowKind::Joint), nc = p.nl - nj;
  ASSERT_EQ(js.reduced().nl, nc);
  MatX D;
  p.D.to_dense(D);
  const MatX Djj = D.topLeftCorner(nj, nj);
  const Eigen::CompleteOrthogonalDecomposition<MatX> cod(Djj);
  EXPECT_EQ(cod.rank(), nj - summary.redundant_rows);
  const VecX x = VecX::LinSpaced(nc, -1.0, 2.0);
  const VecX want = D.bottomRightCorner(nc, nc) * x -
                    D.bottomLeftCorner(nc, nj) * cod.solve(D.topRightCorner(nj, nc) * x);
  VecX got(nc);
  js.reduced().D.multiply(x.data(), got.data());
  EXPECT_LE((got - want).cwiseAbs().maxCoeff(), 1e-7 * (1.0 + want.cwiseAbs().maxCoeff()));
  // v_j lies in D_jj's range: its least-squares residual is round-off.
  const VecX vj = p.v_f.head(nj);
  const double scale = 1.0 + vj.cwiseAbs().maxCoeff();
  EXPECT_LE((Djj * cod.solve(vj) - vj).cwiseAbs().maxCoeff(), 1e-9 * scale);
  GrowVec full;
  js.expand(p, x, full);
  const VecX v = D.topRows(nj) * VecX(full) + vj;
  EXPECT_LE(v.cwiseAbs().maxCoeff(), 1e-10 * scale);
}

TEST(FastPath, JointRowsOnlyAreSolvedByTheElimination) {
  // chain: links on revolute joints, no contacts, no limits. The elimination alone is the solve,
  // lambda_j = -D_jj^-1 v_j: zero iterations, the full natural map at round-off, and the same
  // impulse as the full solve to its tolerance.
  Result<Scene> made = make_builtin_scene("chain", {{"n", "8"}});
  ASSERT_TRUE(made) << made.error().message();
  Scene sc = std::move(*made);
  SimSettings fast = sc.settings, full = sc.settings;
  fast.fast_path = true;
  full.fast_path = false;
  full.solver_settings.tol = 1e-12;
  full.solver_settings.max_iters = 100000;
  Simulator a(sc.model, fast), b(sc.model, full);
  State sa = sc.initial, sb = sc.initial;
  for (int k = 0; k < 20; ++k) {
    ASSERT_TRUE(a.step(sa)) << a.error();
    ASSERT_TRUE(b.step(sb)) << b.error();
    const Problem& p = a.problem();
    ASSERT_EQ(p.rows_of(RowKind::Joint), p.nl) << "step " << k;
    EXPECT_TRUE(a.fast_path_used()) << "step " << k;
    EXPECT_TRUE(a.solution().converged()) << "step " << k;
    EXPECT_EQ(a.solution().iterations, 0);
    EXPECT_LE(a.solution().residual, 1e-12) << "step " << k;
    const double scale = 1.0 + b.solution().lambda.cwiseAbs().maxCoeff();
    EXPECT_LE((a.solution().lambda - b.solution().lambda).cwiseAbs().maxCoeff(), 1e-8 * scale)
        << "step " << k;
    sb = sa;  // same state for the next comparison
  }
}

TEST(FastPath, StepsMeetTheFullNaturalMapAndFollowTheFullTrajectory) {
  // quadruped: a floating base with legs on the ground. Each fast step's answer is judged on the
  // full problem; converged steps meet tol there, and the trajectory stays close to the one of
  // the full solve (both solve the same NCP to tol).
  Scene sc = scene_or_die("quadruped");
  SimSettings fast = sc.settings;
  fast.fast_path = true;
  SimSettings full = sc.settings;
  full.fast_path = false;
  Simulator a(sc.model, fast), b(sc.model, full);
  State sa = sc.initial, sb = sc.initial;
  int used = 0, converged = 0;
  double viol_a = 0.0, viol_b = 0.0;
  const int steps = 200;
  for (int k = 0; k < steps; ++k) {
    ASSERT_TRUE(a.step(sa)) << a.error();
    ASSERT_TRUE(b.step(sb)) << b.error();
    used += a.fast_path_used();
    viol_a = std::max(viol_a, constraint_violation(sc.model, sa));
    viol_b = std::max(viol_b, constraint_violation(sc.model, sb));
    converged += test::check_full_natural_map(a, k);
  }
  EXPECT_GT(used, steps / 2);
  EXPECT_GT(converged, steps / 2);
  double dq = 0.0;
  for (int i = 0; i < sc.model.num_bodies(); ++i) dq = std::max(dq, (sa.r[i] - sb.r[i]).norm());
  // Contact impulses are not unique (four feet, redundant normals), so the two runs part by
  // round-off-sized choices: a centimetre after one second, with joints held as well.
  EXPECT_LE(dq, 1e-2);
  EXPECT_LE(viol_a, 1.5 * viol_b + 1e-6);
}

TEST(FastPath, AWarmStartThatMeetsTolIsTheStepsAnswer) {
  // The quadruped standing: many steps keep the last step's impulses. Such a step is answered by
  // its warm start: zero iterations, its impulse the last step's on the limit and contact rows, its
  // velocity D lambda + v_f, and tol met on the full problem.
  Scene sc = scene_or_die("quadruped");
  SimSettings st = sc.settings;
  st.fast_path = true;
  Simulator sim(sc.model, st);
  State s = sc.initial;
  int answered = 0;
  const int steps = 400;
  VecX last;                       // the last step's impulse, by constraint id
  std::vector<uint64_t> last_ids;  // per row: the id of the block starting there
  const uint64_t none = ~uint64_t{0};
  for (int k = 0; k < steps; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    test::check_full_natural_map(sim, k);
    const Problem& p = sim.problem();
    const Solution& x = sim.solution();
    if (sim.fast_path_warm_answers() > 0) {
      ++answered;
      EXPECT_TRUE(x.converged()) << k;
      EXPECT_EQ(x.iterations, 0) << k;
      VecX v(p.nl);
      p.D.multiply(x.lambda.data(), v.data());
      v += p.v_f;
      EXPECT_LE((v - VecX(x.v_plus)).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + v.cwiseAbs().maxCoeff()))
          << k;
      // The limit and contact rows keep the last step's impulses where their constraint persists.
      for (const ConstraintBlock& b : p.blocks) {
        if (b.kind == RowKind::Joint) continue;
        const auto it = std::find(last_ids.begin(), last_ids.end(), b.id);
        if (it == last_ids.end()) continue;
        const int o = static_cast<int>(it - last_ids.begin());
        for (int r = 0; r < b.size; ++r) EXPECT_EQ(x.lambda[b.offset + r], last[o + r]) << k;
      }
    }
    last = x.lambda;
    last_ids.assign(p.nl, none);
    for (const ConstraintBlock& b : p.blocks) last_ids[b.offset] = b.id;
  }
  EXPECT_GT(answered, steps / 8);  // 89 of 400 here
}

TEST(FastPath, NewtonFirstConvergesMoreStepsInFewerIterations) {
  // SimSettings::fast_path_newton: nsn from the previous step's impulses before the step's solver
  // (admm-ncp-sa). On the quadruped (feet on the ground: redundant sticking contacts) it must
  // settle at least as many steps to tol on the full problem, with fewer iterations in all.
  Scene sc = scene_or_die("quadruped");
  auto run = [&](int newton, int& converged, long& iterations, int& newton_only) {
    SimSettings st = sc.settings;
    st.fast_path = true;
    st.fast_path_newton = newton;
    Simulator sim(sc.model, st);
    State s = sc.initial;
    converged = 0;
    iterations = 0;
    newton_only = 0;
    for (int k = 0; k < 200; ++k) {
      ASSERT_TRUE(sim.step(s)) << sim.error();
      const Solution& x = sim.solution();
      converged += x.converged();
      iterations += x.iterations;
      if (x.converged()) {
        EXPECT_LE(x.residual, st.solver_settings.tol) << k;
      }
      newton_only += sim.fast_path_used() && x.converged() && x.iterations <= newton;
    }
  };
  int conv_admm = 0, conv_newton = 0, only_admm = 0, only_newton = 0;
  long it_admm = 0, it_newton = 0;
  run(0, conv_admm, it_admm, only_admm);
  run(50, conv_newton, it_newton, only_newton);
  EXPECT_GE(conv_newton, conv_admm);
  EXPECT_LT(it_newton, it_admm / 2) << it_newton << " vs " << it_admm;
  EXPECT_GT(only_newton, 100);  // most steps end within nsn's own iterations
}

// The simulator hands the fast path the builder's factor of D_jj (ProblemBuilder::joint_factor,
// made for the redundant rows' biases) instead of factoring it twice: the reduction from it is
// the reduction from a factor of its own, bit for bit (walker, a step with its feet down).
TEST(JointSchur, TheBuildersFactorReducesAsItsOwn) {
  Scene sc = scene_or_die("walker");
  ProblemBuilder builder(sc.model);
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 40; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  const Problem& p = builder.build(s, sim.contacts(), sc.settings.dt, sc.settings.dynamics);
  ASSERT_NE(builder.joint_factor(), nullptr);  // walker closes loops
  JointSchur given, own;
  ASSERT_TRUE(given.factor(p, builder.joint_factor()));
  given.reduce_factored(p);
  ASSERT_TRUE(own.reduce(p));
  EXPECT_EQ(given.reduced().D_dense, own.reduced().D_dense);
  EXPECT_EQ(VecX(given.reduced().v_f), VecX(own.reduced().v_f));
  // A tree has no redundant rows to make consistent: no factor to hand over.
  Scene tree = scene_or_die("quadruped");
  ProblemBuilder tb(tree.model);
  tb.build(tree.initial, {}, tree.settings.dt, tree.settings.dynamics);
  EXPECT_EQ(tb.joint_factor(), nullptr);
}
