// SAP (Castro et al. 2023) on built-in scenes: joints of the closed-loop fourbar held by the
// near-rigid regularization, one Newton step per step when every row is bilateral (the cost is
// quadratic), and a box resting on the ground carried by the regularized contacts.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/dynamics/builder.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/sap.hpp"

using namespace moreau;

TEST(SapScenes, FourbarFixedJointsHeldOneNewtonStepPerStep) {
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc) << sc.error().message();
  SimSettings st = sc->settings;
  st.solver = "sap";
  st.solver_settings.tol = 1e-8;
  // Without the position projection, which would pull the loop back to 1e-12 after every step
  // and hide what SAP's regularized joint rows hold.
  st.dynamics.position_projection = false;
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
  // micrometre level at dt = 1 ms (3.9e-6 measured); the projection would leave 1e-12.
  EXPECT_LE(viol, 1e-5);
  EXPECT_GT(viol, 1e-7) << "the projection is still on";
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

namespace {

// The spring-cylinder's x(t) over `duration` with the given integrator and dt.
std::vector<double> cylinder_x(const Scene& sc, Integrator integ, double dt, double duration) {
  SimSettings st = sc.settings;
  st.integrator = integ;
  st.dt = dt;
  Simulator sim(sc.model, st);
  State s = sc.initial;
  std::vector<double> x;
  const int n = static_cast<int>(std::lround(duration / dt));
  for (int k = 0; k < n; ++k) {
    EXPECT_TRUE(sim.step(s)) << sim.error();
    x.push_back(s.r[0].x());
  }
  return x;
}

double rms_error(const std::vector<double>& x, double dt, double x0, double w) {
  double sum = 0.0;
  for (size_t k = 0; k < x.size(); ++k) {
    const double d = x[k] - x0 * std::cos(w * dt * (k + 1));
    sum += d * d;
  }
  return std::sqrt(sum / x.size());
}

}  // namespace

// Castro 2023, eq. 15: the midpoint rule (theta = 1/2) on the frictionless spring-mass is the
// trapezoidal rule: second order, and symplectic Euler first order (e_q against x0 cos(w t)).
TEST(SapScenes, ThetaMethodOrderOnTheFrictionlessSpringCylinder) {
  Result<Scene> sc = make_builtin_scene("spring-cylinder");
  ASSERT_TRUE(sc) << sc.error().message();
  const double w = std::sqrt(100.0 / 0.5), T = 2.0;
  auto err = [&](Integrator i, double dt) {
    return rms_error(cylinder_x(*sc, i, dt, T), dt, 0.1, w);
  };
  const double mid = err(Integrator::SapMidpoint, 0.01) / err(Integrator::SapMidpoint, 0.005);
  const double sym =
      err(Integrator::SapSymplecticEuler, 0.01) / err(Integrator::SapSymplecticEuler, 0.005);
  EXPECT_NEAR(mid, 4.0, 0.4);  // error / 4 when dt / 2
  EXPECT_GT(sym, 1.6);
  EXPECT_LT(sym, 2.8);
  // Implicit Euler's numerical damping: the amplitude decays by 1 / sqrt(1 + (w dt)^2) per step.
  const std::vector<double> x = cylinder_x(*sc, Integrator::SapImplicitEuler, 0.02, 2.0);
  double amp = 0.0;
  for (size_t k = x.size() - 25; k < x.size(); ++k) amp = std::max(amp, std::abs(x[k]));
  const double decay = std::pow(1.0 + 0.02 * 0.02 * w * w, -0.5 * 75);  // after ~75 steps
  EXPECT_LT(amp, 0.1 * decay * 2.0);
  EXPECT_GT(amp, 0.1 * decay * 0.2);
}

// Per-contact k from the materials (Castro 2023, eq. 2 and Sec. V): the cylinder at rest on
// its two capsule contacts of k/2 each sinks m g / k, whatever the solver's default stiffness.
TEST(SapScenes, SpringCylinderRestsAtTheMaterialsPenetration) {
  for (double k : {5e3, 1e4}) {  // both compliant at dt = 20 ms (eq. 29)
    Result<Scene> sc =
        make_builtin_scene("spring-cylinder", {{"x0", "0"}, {"k", std::to_string(k)}});
    ASSERT_TRUE(sc) << sc.error().message();
    sc->initial.r[0].z() = 0.05;  // start touching, without the static penetration
    Simulator sim(sc->model, sc->settings);
    State s = sc->initial;
    while (s.t < 3.0) ASSERT_TRUE(sim.step(s)) << sim.error();
    EXPECT_NEAR(0.05 - s.r[0].z(), 0.5 * 9.81 / k, 1e-3 * 0.5 * 9.81 / k) << "k = " << k;
    EXPECT_LT(s.u[0].norm(), 1e-6);
  }
}

// Rolling (mu = 1): the contact points do not slip beyond the regularization, v = -w R, and the
// midpoint rule keeps the energy within 1% over 5 s (Castro 2023, Fig. 6: 0.16%).
TEST(SapScenes, SpringCylinderRollsWithoutSlipping) {
  Result<Scene> sc = make_builtin_scene("spring-cylinder", {{"mu", "1"}});
  ASSERT_TRUE(sc) << sc.error().message();
  Simulator sim(sc->model, sc->settings);
  State s = sc->initial;
  // Mechanical energy: kinetic + the spring's 1/2 ks x^2 (ks = 100 N/m) + gravity from the start
  // height (the contacts' elastic energy is left out: the height is static).
  const Body& body = sc->model.bodies()[0];
  const double z0 = s.r[0].z();
  auto energy = [&](const State& x) {
    const Mat3 R = x.q[0].toRotationMatrix();
    const Vec3 v = x.u[0].head<3>(), w = x.u[0].tail<3>();
    return 0.5 * body.mass * v.squaredNorm() + 0.5 * w.dot(R * body.inertia * R.transpose() * w) +
           0.5 * 100.0 * x.r[0].x() * x.r[0].x() + body.mass * 9.81 * (x.r[0].z() - z0);
  };
  const double e0 = energy(s);
  double slip = 0.0, vmax = 0.0, drift = 0.0;
  while (s.t < 5.0) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    slip = std::max(slip, std::abs(s.u[0][0] - 0.05 * s.u[0][4]));  // v_x - w_y R
    vmax = std::max(vmax, std::abs(s.u[0][0]));
    drift = std::max(drift, std::abs(energy(s) / e0 - 1.0));
  }
  EXPECT_GT(vmax, 0.5);  // x0 w = 0.1 sqrt(100 / 0.75) = 1.15 m/s
  EXPECT_LT(slip, 1e-3 * vmax);
  EXPECT_LT(drift, 0.01);  // 0.24 % measured (the paper: 0.16 %)
}

// Clutter (Castro 2023, Sec. VI-C), 8 objects: every step converges, and the walls keep every
// object inside the 80 cm box.
TEST(SapScenes, ClutterStaysInTheBox) {
  Result<Scene> sc = make_builtin_scene("clutter", {{"n", "8"}});
  ASSERT_TRUE(sc) << sc.error().message();
  Simulator sim(sc->model, sc->settings);
  State s = sc->initial;
  while (s.t < 2.0) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    // Converged: eq. 26's measure within the scene's eps_r = 1e-5 (a bound on the residual as
    // well would restate it).
    ASSERT_TRUE(sim.solution().converged()) << sim.solution().message;
  }
  for (int i = 0; i < sc->model.num_bodies(); ++i) {
    EXPECT_LT(std::abs(s.r[i].x()), 0.4) << i;
    EXPECT_LT(std::abs(s.r[i].y()), 0.4) << i;
    EXPECT_GT(s.r[i].z(), 0.0) << i;
  }
}

// The theta-method integrators need the solver "sap": another solver is refused with a message.
TEST(SapScenes, ThetaMethodNeedsSap) {
  Result<Scene> sc = make_builtin_scene("spring-cylinder");
  ASSERT_TRUE(sc) << sc.error().message();
  SimSettings st = sc->settings;
  st.solver = "pgs";
  Simulator sim(sc->model, st);
  State s = sc->initial;
  EXPECT_FALSE(sim.step(s));
  EXPECT_NE(sim.error().find("needs solver 'sap'"), std::string::npos) << sim.error();
  EXPECT_NE(integrator_solver_error(Integrator::SapMidpoint, "pgs"), "");
  EXPECT_EQ(integrator_solver_error(Integrator::SapMidpoint, "sap"), "");
  EXPECT_EQ(integrator_solver_error(Integrator::SemiImplicitEuler, "pgs"), "");
  for (Integrator i :
       {Integrator::SapSymplecticEuler, Integrator::SapImplicitEuler, Integrator::SapMidpoint}) {
    Integrator back;
    ASSERT_TRUE(parse_integrator(integrator_name(i), &back));
    EXPECT_EQ(back, i);
  }
}

// Castro 2023, Sec. V: R and vhat per contact from the materials' k and tau_d. The
// spring-cylinder's contacts (k/2 = 5e3 N/m, tau_d = 0.02 s) are compliant at dt = 20 ms:
// R_n = 1 / (dt k (dt + tau_d)); the clutter's (k = 1e12) are near-rigid: R_n = beta^2 / (4 pi^2)
// w (eq. 29), R_t = sigma w (eq. 30) in both.
TEST(SapScenes, ContactRegularizationFromTheMaterials) {
  for (const char* name : {"spring-cylinder", "clutter"}) {
    SCOPED_TRACE(name);
    SceneParams params;
    if (std::string(name) == "clutter") params["n"] = "4";
    Result<Scene> sc = make_builtin_scene(name, params);
    ASSERT_TRUE(sc) << sc.error().message();
    Simulator sim(sc->model, sc->settings);
    State s = sc->initial;
    int contacts = 0;
    for (int k = 0; k < 60 && contacts == 0; ++k) {
      ASSERT_TRUE(sim.step(s)) << sim.error();
      contacts = sim.problem().count(RowKind::Contact);
    }
    ASSERT_GT(contacts, 0);
    const Problem& p = sim.problem();
    const SapParameters prm = sap_parameters(sc->settings.solver_settings);
    SapModel m;
    sap_model(p, prm, m);
    const double dt = p.dt;
    for (const ConstraintBlock& b : p.blocks) {
      if (b.cone != ConeKind::Coulomb) continue;
      const int o = b.offset;
      const double w = p.D.diagonal(static_cast<int>(&b - p.blocks.data())).norm() / 3.0;
      const double soft = 1.0 / (dt * b.stiffness * (dt + b.tau_d));
      const double rigid = w / (4.0 * M_PI * M_PI);
      if (std::string(name) == "spring-cylinder") {
        EXPECT_EQ(b.stiffness, 5e3);
        EXPECT_EQ(b.tau_d, 0.02);
        EXPECT_GT(soft, rigid);
        EXPECT_DOUBLE_EQ(m.R[o + 2], soft);
      } else {
        EXPECT_EQ(b.stiffness, 1e12);
        EXPECT_DOUBLE_EQ(b.tau_d, dt);
        EXPECT_DOUBLE_EQ(m.R[o + 2], rigid);
      }
      EXPECT_DOUBLE_EQ(m.R[o], 1e-3 * w);
      EXPECT_DOUBLE_EQ(m.vhat[o + 2], -p.f[o + 2] / (dt + b.tau_d));
    }
  }
}
