// box-on-plane at rest: four coplanar contacts make D rank deficient, so lambda is not unique,
// yet every NCP solver must give v+ ~ 0 and a total normal impulse of m g dt.
#include <gtest/gtest.h>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

TEST(SolverRest, BoxOnPlaneEveryNcpSolverCarriesTheWeight) {
  Result<Scene> sc = make_builtin_scene("box-on-plane");
  ASSERT_TRUE(sc) << sc.error().message();
  // Settle for 1 s with the scene's own settings.
  State s = sc->initial;
  {
    Simulator sim(sc->model, sc->settings);
    while (s.t < 1.0) ASSERT_TRUE(sim.step(s)) << sim.error();
  }
  CollisionDetector cd(sc->model);
  const std::vector<Contact>& contacts = cd.detect(s, sc->settings.collision);
  ASSERT_EQ(contacts.size(), 4u);
  ProblemBuilder pb(sc->model);
  const double dt = sc->settings.dt;
  const Problem& p = pb.build(s, contacts, dt, sc->settings.dynamics);
  MatX D;
  p.D.to_dense(D);
  ASSERT_LT(numerical_rank(D), p.nl) << "four coplanar contacts: D is rank deficient";
  const double weight = sc->model.total_mass() * 9.81 * dt;  // m g dt [N s]
  int checked = 0;
  for (const SolverInfo& info : solver_registry()) {
    if (info.problem != "NCP" || info.name == "raisim-ds-es") continue;  // -es stops on a plateau
    if (info.peer) continue;  // the peers are compared with moreau in tests/io/test_siconos.cpp
    SolverSettings st;
    st.tol = 1e-11;
    st.max_iters = 20000;
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve(info.name, p, st, {}, ws, sol)) << sol.message;
    double normal = 0.0;
    for (const ConstraintBlock& b : p.blocks) normal += sol.lambda[b.offset + 2];
    EXPECT_TRUE(sol.converged()) << info.name << ": " << status_name(sol.status);
    EXPECT_LE(sol.v_plus.cwiseAbs().maxCoeff(), 1e-8) << info.name;
    EXPECT_NEAR(normal, weight, 1e-8) << info.name;
    EXPECT_LE(ncp_residuals(p, sol.lambda, sol.v_plus).natmap, 1e-8) << info.name;
    ++checked;
  }
  EXPECT_GE(checked, 10);
}
