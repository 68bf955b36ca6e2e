// Physics of the foundation: closed forms, periods, conservation laws, loop closure.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "moreau/dynamics/builder.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
constexpr double kPi = 3.14159265358979323846;

Model single_body(const Mat3& inertia, const Vec3& gravity) {
  ModelBuilder mb("one");
  Body b;
  b.name = "b";
  b.mass = 2.0;
  b.inertia = inertia;
  mb.add_body(b);
  mb.set_gravity(gravity);
  return *mb.build();
}
}  // namespace

TEST(FreeFall, SemiImplicitEulerMatchesItsClosedForm) {
  // v_n = v0 + n h g,  r_n = r0 + n h v0 + h^2 g n (n + 1) / 2  (u+ first, then positions).
  const Vec3 g(0.3, -0.2, -9.81);
  const Model m = single_body(Mat3::Identity(), g);
  State s = State::zeros(1);
  const Vec3 r0(1, 2, 3), v0(0.5, -1.0, 4.0);
  s.r[0] = r0;
  s.u[0].head<3>() = v0;
  SimSettings st;
  st.dt = 1e-3;
  Simulator sim(m, st);
  const int n = 2000;
  for (int k = 0; k < n; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  const double h = st.dt;
  const Vec3 v = v0 + n * h * g;
  const Vec3 r = r0 + n * h * v0 + h * h * g * (0.5 * n * (n + 1.0));
  EXPECT_LE((s.u[0].head<3>() - v).cwiseAbs().maxCoeff(), 1e-12 * v.norm());
  EXPECT_LE((s.r[0] - r).cwiseAbs().maxCoeff(), 1e-12 * r.norm());
  EXPECT_LE(s.u[0].tail<3>().norm(), 0.0);
}

TEST(Pendulum, SmallAmplitudePeriodMatchesPhysicalPendulum) {
  Result<Scene> sc = make_builtin_scene("pendulum", {{"theta0", "0.05"}});
  ASSERT_TRUE(sc) << sc.error().message();
  const Model& m = sc->model;
  State s = sc->initial;
  SimSettings st = sc->settings;
  st.dt = 1e-3;
  st.solver = "direct";
  Simulator sim(m, st);
  // T = 2 pi sqrt(I / (m g d)), I about the pivot = I_cm + m d^2, d = 0.5 m.
  const double d = 0.5, mass = m.bodies()[0].mass;
  const double I = m.bodies()[0].inertia(1, 1) + mass * d * d;
  const double T = 2 * kPi * std::sqrt(I / (mass * 9.81 * d));
  // Period from upward zero crossings of the bob's x position (linear interpolation).
  std::vector<double> crossings;
  double prev_x = s.r[0].x(), prev_t = s.t;
  while (s.t < 6.0 * T) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    const double x = s.r[0].x();
    if (prev_x < 0.0 && x >= 0.0)
      crossings.push_back(prev_t + (s.t - prev_t) * (-prev_x) / (x - prev_x));
    prev_x = x;
    prev_t = s.t;
  }
  ASSERT_GE(crossings.size(), 4u);
  const double measured = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  EXPECT_NEAR(measured / T, 1.0, 0.005) << "measured " << measured << " s, expected " << T << " s";
}

// Torque-free rigid body: explicit gyroscopic term + exp-map update. One step changes the world
// angular momentum L by -h w x L (orthogonal to L) plus the O(h^2) change of I_w(q) over the step,
// so over a time T the relative drift is bounded by C h T |w|^2 with C = O(1).
TEST(TorqueFree, ConservesMomentumAndEnergyWithinFirstOrderBound) {
  const Mat3 I = Vec3(1.0, 2.0, 3.0).asDiagonal();
  const Model m = single_body(I, Vec3::Zero());
  double drift[2];
  const double T = 10.0, wmax = 2.0;
  for (int pass = 0; pass < 2; ++pass) {
    const double h = pass == 0 ? 1e-3 : 5e-4;
    State s = State::zeros(1);
    s.u[0].tail<3>() = Vec3(0.3, 0.1, 2.0);  // stable spin about the major axis, plus wobble
    const Vec3 L0 = angular_momentum(m, s);
    const double E0 = kinetic_energy(m, s);
    SimSettings st;
    st.dt = h;
    Simulator sim(m, st);
    double worst_L = 0.0, worst_E = 0.0;
    while (s.t < T) {
      ASSERT_TRUE(sim.step(s));
      worst_L = std::max(worst_L, (angular_momentum(m, s) - L0).norm() / L0.norm());
      worst_E = std::max(worst_E, std::abs(kinetic_energy(m, s) - E0) / E0);
    }
    EXPECT_LE(worst_L, h * T * wmax * wmax) << "h = " << h;
    EXPECT_LE(worst_E, h * T * wmax * wmax) << "h = " << h;
    drift[pass] = worst_E;
  }
  // First order: halving h roughly halves the drift.
  EXPECT_NEAR(drift[0] / drift[1], 2.0, 0.4);
}

TEST(TorqueFree, IntermediateAxisFlips) {
  // Spin about the intermediate axis (I = 2) is unstable: the body-frame rate about it reverses.
  const Model m = single_body(Vec3(1.0, 2.0, 3.0).asDiagonal(), Vec3::Zero());
  State s = State::zeros(1);
  s.u[0].tail<3>() = Vec3(1e-3, 2.0, 1e-3);
  SimSettings st;
  st.dt = 2e-4;
  Simulator sim(m, st);
  double min_wy = 2.0;
  while (s.t < 20.0) {
    ASSERT_TRUE(sim.step(s));
    const double wy = (s.q[0].conjugate() * Vec3(s.u[0].tail<3>())).y();
    min_wy = std::min(min_wy, wy);
  }
  EXPECT_LT(min_wy, -1.5);  // a full flip: w_y went from +2 to about -2
}

TEST(Fourbar, FixedRankAndClosureUnderGravity) {
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc) << sc.error().message();
  const Model& m = sc->model;
  State s = sc->initial;
  EXPECT_EQ(m.joint_rows(), 26);
  EXPECT_EQ(numerical_rank(joint_jacobian(m, s)), 23);
  EXPECT_LE(constraint_violation(m, s), 1e-12);
  Simulator sim(m, sc->settings);
  const double E0 = total_energy(m, s);
  double worst = 0.0, drift = 0.0, swing = 0.0;
  const double x0 = s.r[1].x();
  while (s.t < 10.0) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    worst = std::max(worst, constraint_violation(m, s));
    drift = std::max(drift, std::abs(total_energy(m, s) - E0));
    swing = std::max(swing, std::abs(s.r[1].x() - x0));
  }
  EXPECT_LE(worst, 1e-6) << "closure error (inf-norm of f(s)) over 10 s";
  EXPECT_GT(swing, 0.05) << "the loop must actually move under gravity";
  RecordProperty("max_energy_drift_J", std::to_string(drift));
  std::printf(
      "fourbar-fixed 10 s: max closure error %.3e m, max energy drift %.3e J (E0 = %.3f J)\n",
      worst, drift, E0);
}

TEST(Fourbar, FreeRank) {
  Result<Scene> sc = make_builtin_scene("fourbar-free");
  ASSERT_TRUE(sc);
  EXPECT_EQ(sc->model.joint_rows(), 20);
  EXPECT_EQ(numerical_rank(joint_jacobian(sc->model, sc->initial)), 17);
}

TEST(Delassus, BlockSparseEqualsDenseJMinvJt) {
  for (const char* name : {"fourbar-fixed", "nunchuk", "boxes-fixed", "chain"}) {
    Result<Scene> sc = make_builtin_scene(name);
    ASSERT_TRUE(sc);
    State s = sc->initial;
    for (auto& u : s.u) u.setConstant(0.1);
    ProblemBuilder pb(sc->model);
    DynamicsSettings ds = sc->settings.dynamics;
    ds.drift_compensation = false;  // v_f is then exactly J u_free + (beta / dt) f
    const Problem& p = pb.build(s, {}, 1e-3, ds);
    const MatX J = joint_jacobian(sc->model, s);
    MatX Minv = MatX::Zero(6 * s.num_bodies(), 6 * s.num_bodies());
    for (int i = 0; i < s.num_bodies(); ++i) Minv.block<6, 6>(6 * i, 6 * i) = p.Minv[i];
    const MatX D = J * Minv * J.transpose();
    MatX Ds;
    p.D.to_dense(Ds);
    ASSERT_EQ(Ds.rows(), D.rows()) << name;
    EXPECT_LE((Ds - D).cwiseAbs().maxCoeff(), 1e-12 * (1 + D.cwiseAbs().maxCoeff())) << name;
    // v_f = J (u^- + dt M^-1 h) + (beta/dt) f
    VecX u(6 * s.num_bodies());
    for (int i = 0; i < s.num_bodies(); ++i) u.segment<6>(6 * i) = p.u_free.segment<6>(6 * i);
    const VecX vf = J * u + sc->settings.dynamics.beta_joint / 1e-3 * joint_residual(sc->model, s);
    EXPECT_LE((vf - p.v_f).cwiseAbs().maxCoeff(), 1e-12 * (1 + vf.cwiseAbs().maxCoeff())) << name;
  }
}

// The contact normal's positional bias (eq. 91b) is zero for gaps within bias_dead_band and
// (beta / dt) min(0, r) + max(0, r / dt) outside it; with a zero dead band every gap is biased.
TEST(ContactBias, GapsWithinTheDeadBandGetNoPositionalBias) {
  Result<Scene> sc = make_builtin_scene("box-on-plane");
  ASSERT_TRUE(sc);
  State s = sc->initial;
  for (auto& u : s.u) u.setZero();
  ProblemBuilder pb(sc->model);
  const double dt = 5e-3;
  Contact c;
  c.body[0] = -1;
  c.body[1] = 0;
  c.point = s.r[0] - Vec3(0.0, 0.0, 0.1);
  c.mu = 0.5;
  for (const double band : {1e-7, 0.0}) {
    DynamicsSettings ds = sc->settings.dynamics;
    ds.bias_dead_band = band;
    ds.penetration_margin = 0.0;
    for (const double gap : {-5e-8, 5e-8, -2e-7, 2e-7, -1e-3}) {
      c.gap = gap;
      const Problem& p = pb.build(s, {c}, dt, ds);
      ASSERT_EQ(p.nl, 3);
      VecX ju(p.nl);
      p.apply_J(p.u_free, ju);
      const double bias = p.v_f[2] - ju[2];
      const double expected = std::abs(gap) <= band ? 0.0
                                                    : ds.beta_contact / dt * std::min(0.0, gap) +
                                                          std::max(0.0, gap / dt);
      EXPECT_NEAR(bias, expected, 1e-12) << "band " << band << " gap " << gap;
      if (band == 0.0) EXPECT_NE(bias, 0.0) << gap;  // every gap biased without the dead band
      EXPECT_EQ(p.v_f[0], ju[0]);                    // no bias on the friction rows
    }
  }
}

TEST(Solvers, DirectAndPgsAgreeOnFourbar) {
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc);
  State s = sc->initial;
  ProblemBuilder pb(sc->model);
  const Problem& p = pb.build(s, {}, 1e-3, sc->settings.dynamics);
  SolverSettings st;
  st.tol = 1e-12;
  st.max_iters = 100000;
  SolverWorkspace ws;
  Solution a, b;
  ASSERT_TRUE(solve("direct", p, st, {}, ws, a));
  ASSERT_TRUE(solve("pgs", p, st, {}, ws, b));
  EXPECT_EQ(a.status, SolveStatus::Converged);
  EXPECT_LE(a.v_plus.cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LE(b.v_plus.cwiseAbs().maxCoeff(), 1e-10) << "pgs iterations " << b.iterations;
}

TEST(Determinism, SameSceneSameBitsTwice) {
  auto run = [](const char* name) {
    Result<Scene> sc = make_builtin_scene(name);
    State s = sc->initial;
    Simulator sim(sc->model, sc->settings);
    for (int k = 0; k < 500; ++k) sim.step(s);
    return s;
  };
  for (const char* name : {"fourbar-fixed", "nunchuk", "chain"}) {
    const State a = run(name), b = run(name);
    for (int i = 0; i < a.num_bodies(); ++i) {
      EXPECT_EQ(0, std::memcmp(a.r[i].data(), b.r[i].data(), sizeof(Vec3))) << name;
      EXPECT_EQ(0, std::memcmp(a.q[i].coeffs().data(), b.q[i].coeffs().data(), 4 * sizeof(double)))
          << name;
      EXPECT_EQ(0, std::memcmp(a.u[i].data(), b.u[i].data(), sizeof(Vec6))) << name;
    }
  }
}

TEST(Midpoint, MoreauMidpointKeepsFourbarClosed) {
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc);
  SimSettings st = sc->settings;
  st.integrator = Integrator::MoreauMidpoint;
  State s = sc->initial;
  Simulator sim(sc->model, st);
  double worst = 0.0;
  while (s.t < 2.0) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    worst = std::max(worst, constraint_violation(sc->model, s));
  }
  EXPECT_LE(worst, 1e-5);
}
