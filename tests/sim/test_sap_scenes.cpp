// SAP (Castro et al. 2023) on built-in scenes: joints of the closed-loop fourbar held by the
// near-rigid regularization, one Newton step per step when every row is bilateral (the cost is
// quadratic), and a box resting on the ground carried by the regularized contacts.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/dynamics/builder.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

TEST(SapScenes, FourbarFixedJointsHeldOneNewtonStepPerStep) {
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc) << sc.error().message();
  SimSettings st = sc->settings;
  st.solver = "sap";
  st.solver_settings.tol = 1e-8;
  Simulator sim(sc->model, st);
  State s = sc->initial;
  double viol = 0.0;
  int steps = 0;
  while (s.t < 2.0) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    ASSERT_TRUE(sim.solution().converged()) << sim.solution().message;
    ASSERT_EQ(sim.problem().count(RowKind::Contact), 0);
    // Bilateral rows only: l(v) is quadratic and Newton with the exact line search is exact.
    EXPECT_LE(sim.solution().iterations, 1) << "t = " << s.t;
    viol = std::max(viol, constraint_violation(sc->model, s));
    ++steps;
  }
  EXPECT_GT(steps, 100);
  // Near-rigid joints (T = beta dt, critically damped): the loop closure error stays at the
  // micrometre level at dt = 1 ms.
  EXPECT_LE(viol, 1e-5);
}

TEST(SapScenes, BoxOnPlaneRestsWithNearRigidPenetration) {
  Result<Scene> sc = make_builtin_scene("box-on-plane");
  ASSERT_TRUE(sc) << sc.error().message();
  SimSettings st = sc->settings;
  st.solver = "sap";
  st.solver_settings.tol = 1e-10;
  Simulator sim(sc->model, st);
  State s = sc->initial;
  while (s.t < 1.0) ASSERT_TRUE(sim.step(s)) << sim.error();
  const double dt = st.dt, g = 9.81;
  // At rest the contacts carry the weight: sum of normal impulses = m g dt (momentum balance).
  double normal = 0.0, pen = 0.0;
  for (const ConstraintBlock& b : sim.problem().blocks)
    normal += sim.solution().lambda[b.offset + 2];
  for (const Contact& c : sim.contacts()) pen = std::max(pen, -c.gap);
  EXPECT_NEAR(normal, sc->model.total_mass() * g * dt, 1e-6 * sc->model.total_mass() * g * dt);
  EXPECT_LE(s.u[0].norm(), 1e-6);
  // Penetration of the order beta^2 g dt^2 / (4 pi^2) (Castro 2023, Sec. V-B): 2.5e-7 m at 1 ms.
  EXPECT_GT(pen, 0.0);
  EXPECT_LE(pen, 4.0 * g * dt * dt / (4.0 * M_PI * M_PI));
}
