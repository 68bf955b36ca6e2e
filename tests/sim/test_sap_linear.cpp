// SAP's two Newton linear-algebra paths (src/moreau/solvers/sap_linear.hpp): the dense LLT and
// CHOLMOD's supernodal sparse Cholesky of H = M + J^T G J (Castro et al. 2023, eq. 39) give
// the same Newton iterates to round-off on the Problems of built-in scenes (contacts between
// bodies, contacts with the world, joints), and the same trajectory over a few steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/sap.hpp"
#include "moreau/solvers/sap_linear.hpp"

using namespace moreau;

namespace {

struct Run {
  SapResult r;
  VecX v;
  GrowVec gamma;
  std::vector<double> cost;
};

Run minimize(const Problem& p, SapParameters prm, int linear_solver, SolverWorkspace& ws) {
  prm.linear_solver = linear_solver;
  SapModel m;
  sap_model(p, prm, m);
  Run out;
  out.v = p.u_minus;
  out.r = sap_minimize(p, prm, m, out.v, out.gamma, ws, nullptr, &out.cost);
  return out;
}

// |a - b|_inf relative to max(|a|_inf, scale): a resting stack has v ~ 0, so velocities are
// compared with the free velocity's magnitude (g dt and more).
double rel(const VecX& a, const VecX& b, double scale = 0.0) {
  const double s = std::max({a.cwiseAbs().maxCoeff(), scale, 1e-300});
  return (a - b).cwiseAbs().maxCoeff() / s;
}

// Steps `scene` with SAP (dense path) and, at every step from `first` on, solves that step's
// Problem again from u^- with both paths. Returns how many Problems had a Newton step.
int compare_paths(const char* scene, const SceneParams& params, int first, int steps) {
  Result<Scene> sc = make_builtin_scene(scene, params);
  EXPECT_TRUE(sc) << sc.error().message();
  if (!sc) return 0;
  SimSettings st = sc->settings;
  st.solver = "sap";
  st.solver_settings.tol = 1e-10;
  st.solver_settings.max_iters = 100;
  st.solver_settings.sap.linear_solver = 0;
  Simulator sim(sc->model, st);
  State s = sc->initial;
  SapParameters prm = sap_parameters(st.solver_settings);
  prm.cost_stop = false;
  SolverWorkspace ws_dense, ws_sparse;
  int compared = 0;
  for (int k = 0; k < first + steps; ++k) {
    EXPECT_TRUE(sim.step(s)) << sim.error();
    if (k < first) continue;
    const Problem& p = sim.problem();
    const Run d = minimize(p, prm, 0, ws_dense);
    const Run q = minimize(p, prm, 1, ws_sparse);
    EXPECT_FALSE(d.r.sparse);
    if (q.r.iterations > 0) {  // set at the first Newton step
      EXPECT_TRUE(q.r.sparse) << scene;
    }
    EXPECT_EQ(d.r.status, SolveStatus::Converged) << scene << " step " << k;
    EXPECT_EQ(q.r.status, d.r.status) << scene << " step " << k;
    // The same Newton iterates: the same count, the cost of every iterate and the solution to
    // round-off.
    EXPECT_EQ(q.r.iterations, d.r.iterations) << scene << " step " << k;
    const size_t n = std::min(d.cost.size(), q.cost.size());
    for (size_t i = 0; i < n; ++i)
      EXPECT_NEAR(q.cost[i], d.cost[i], 1e-10 * std::abs(d.cost[i])) << scene << " it " << i;
    EXPECT_LE(rel(q.v, d.v, p.u_free.cwiseAbs().maxCoeff()), 1e-10) << scene << " step " << k;
    if (p.nl > 0) {
      EXPECT_LE(rel(q.gamma, d.gamma), 1e-9) << scene << " step " << k;
    }
    if (d.r.iterations > 0) ++compared;
  }
  return compared;
}

}  // namespace

TEST(SapLinear, SparseAndDensePathsTakeTheSameNewtonIteratesOnScenes) {
  if (!sap::sparse_available()) GTEST_SKIP() << "built without CHOLMOD";
  // Ball-ball and ball-wall contacts; a stack (box-box contacts); a 64-sphere pile settling into
  // its container; joints (a chain and a closed loop).
  EXPECT_GE(compare_paths("balls-in-cube", {{"n", "20"}}, 0, 40), 30);
  EXPECT_GE(compare_paths("box-stack", {}, 200, 20), 10);
  EXPECT_GE(compare_paths("sphere-pile", {{"n", "64"}}, 150, 10), 5);
  EXPECT_GE(compare_paths("chain", {}, 0, 20), 20);
  EXPECT_GE(compare_paths("fourbar-fixed", {}, 0, 20), 20);
}

TEST(SapLinear, SparseAndDenseTrajectoriesAgreeOverAFewSteps) {
  if (!sap::sparse_available()) GTEST_SKIP() << "built without CHOLMOD";
  // Through the Simulator and the parameter table: 30 steps of a falling stack with the
  // dense and the sparse path give the same state to round-off.
  Result<Scene> sc = make_builtin_scene("box-stack");
  ASSERT_TRUE(sc) << sc.error().message();
  State end[2];
  for (int path = 0; path < 2; ++path) {
    SimSettings st = sc->settings;
    st.solver = "sap";
    st.solver_settings.sap.linear_solver = path;
    Simulator sim(sc->model, st);
    State s = sc->initial;
    for (int k = 0; k < 30; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
    end[path] = s;
  }
  for (size_t b = 0; b < end[0].u.size(); ++b) {
    EXPECT_LE((end[0].u[b] - end[1].u[b]).norm(), 1e-10 * (1.0 + end[0].u[b].norm())) << b;
    EXPECT_LE((end[0].r[b] - end[1].r[b]).norm(), 1e-12) << b;
  }
}
