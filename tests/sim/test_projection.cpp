// Position projection (docs/dynamics.md, "Position projection"): loops stay closed to round-off,
// the correction is the minimal one in the mass metric, no energy is injected, and switched off
// the step is the one without it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include <Eigen/QR>

#include "moreau/dynamics/builder.hpp"
#include "moreau/dynamics/projection.hpp"
#include "moreau/math/so3.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

struct RunResult {
  double closure = 0.0;  // max over the run of constraint_violation
  double drift = 0.0;    // max |E(t) - E(0)|
  int iterations_max = 0;
  State final;
};

RunResult simulate_for(const Scene& sc, const SimSettings& st, double seconds) {
  RunResult r;
  State s = sc.initial;
  Simulator sim(sc.model, st);
  const double e0 = total_energy(sc.model, s);
  const long steps = std::lround(seconds / st.dt);
  for (long k = 0; k < steps; ++k) {
    EXPECT_TRUE(sim.step(s)) << sim.error();
    r.closure = std::max(r.closure, constraint_violation(sc.model, s));
    r.drift = std::max(r.drift, std::abs(total_energy(sc.model, s) - e0));
    r.iterations_max = std::max(r.iterations_max, sim.projection_stats().iterations);
  }
  r.final = s;
  return r;
}

// Positions moved off the manifold by a smooth deterministic perturbation; `planar`: in the x-z
// plane only (rotations about y), which keeps a planar loop's redundant rows exactly redundant.
State perturbed(const State& s0, double size, bool planar) {
  State s = s0;
  const double y = planar ? 0.0 : 1.0;
  for (int i = 0; i < s.num_bodies(); ++i) {
    const double a = 0.7 * i + 0.3;
    s.r[i] += size * Vec3(std::sin(a), y * std::cos(2 * a), std::sin(3 * a));
    s.q[i] = integrate_rotation(s.q[i], Vec3(y * std::cos(a), std::sin(2 * a), y * std::cos(5 * a)),
                                size);
  }
  return s;
}

}  // namespace

TEST(PositionProjection, FourbarFixedStaysClosedTo1e9OverTenSeconds) {
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc) << sc.error().message();
  ASSERT_TRUE(sc->settings.dynamics.position_projection) << "on by default";
  const RunResult on = simulate_for(*sc, sc->settings, 10.0);
  SimSettings off = sc->settings;
  off.dynamics.position_projection = false;
  const RunResult without = simulate_for(*sc, off, 10.0);
  std::printf("fourbar-fixed 10 s: closure %.3e m with projection, %.3e m without\n", on.closure,
              without.closure);
  EXPECT_LE(on.closure, 1e-9);
  EXPECT_LE(on.iterations_max, sc->settings.dynamics.projection_max_iters);
}

TEST(PositionProjection, EnergyDriftOverSixtySecondsDoesNotGrow) {
  // The passive four-bar: the projection moves positions only, by the minimal correction, so it
  // must not add energy to what the integrator already drifts.
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc);
  const RunResult on = simulate_for(*sc, sc->settings, 60.0);
  SimSettings off = sc->settings;
  off.dynamics.position_projection = false;
  const RunResult without = simulate_for(*sc, off, 60.0);
  const double e0 = std::abs(total_energy(sc->model, sc->initial));
  std::printf("fourbar-fixed 60 s: energy drift %.6e J with projection, %.6e J without (E0 %.3f)\n",
              on.drift, without.drift, e0);
  EXPECT_LE(on.drift, without.drift + 1e-6 * e0);
}

TEST(PositionProjection, IsTheMinimalMassWeightedCorrection) {
  // One Gauss-Newton step equals dq = -M^-1 J^T (J M^-1 J^T)^+ phi from dense matrices, on a tree
  // (full row rank) and on the planar four-bar (3 redundant rows: the pseudo-inverse; moved out of
  // its plane the redundancy breaks into tiny singular values, where pseudo-inverse and
  // regularized solve legitimately differ).
  for (const char* name : {"chain", "fourbar-fixed", "nunchuk"}) {
    const bool planar = std::string(name) == "fourbar-fixed";
    Result<Scene> sc = make_builtin_scene(name);
    ASSERT_TRUE(sc) << name;
    const Model& m = sc->model;
    const State s0 = perturbed(sc->initial, 1e-5, planar);
    const int nb = m.num_bodies();
    const MatX J = joint_jacobian(m, s0);
    const VecX phi = joint_residual(m, s0);
    MatX Minv = MatX::Zero(6 * nb, 6 * nb);
    for (int i = 0; i < nb; ++i) {
      const Mat3 R = s0.q[i].toRotationMatrix();
      Minv.block<3, 3>(6 * i, 6 * i) = Mat3::Identity() / m.bodies()[i].mass;
      Minv.block<3, 3>(6 * i + 3, 6 * i + 3) = R * m.bodies()[i].inertia.inverse() * R.transpose();
    }
    const MatX A = J * Minv * J.transpose();
    Eigen::CompleteOrthogonalDecomposition<MatX> cod;
    cod.setThreshold(1e-10);  // before compute: it sets the rank
    cod.compute(A);
    const VecX dq = -Minv * J.transpose() * cod.solve(phi);
    State expect = s0;
    for (int i = 0; i < nb; ++i) {
      expect.r[i] += dq.segment<3>(6 * i);
      expect.q[i] = integrate_rotation(expect.q[i], dq.segment<3>(6 * i + 3), 1.0);
    }
    State s = s0;
    DynamicsSettings st;
    st.projection_max_iters = 1;
    st.projection_tol = 0.0;
    PositionProjector proj(m);
    const ProjectionStats& ps = proj.project(s, st);
    EXPECT_EQ(ps.iterations, 1) << name;
    EXPECT_GT(ps.error_before, 1e-7) << name;
    EXPECT_LT(ps.error_after, 1e-3 * ps.error_before) << name << ": Gauss-Newton contracts";
    const double scale = dq.cwiseAbs().maxCoeff();
    for (int i = 0; i < nb; ++i) {
      EXPECT_LE((s.r[i] - expect.r[i]).cwiseAbs().maxCoeff(), 1e-8 * scale)
          << name << " body " << i;
      EXPECT_LE(quat_log(s.q[i] * expect.q[i].conjugate()).norm(), 1e-8 * scale)
          << name << " body " << i;
    }
    // And iterated it reaches round-off.
    State t = s0;
    DynamicsSettings full;
    proj.project(t, full);
    EXPECT_LE(constraint_violation(m, t), 1e-12) << name;
  }
}

TEST(PositionProjection, OffReproducesTheStepWithoutIt) {
  // Switched off, nothing of the projector runs: the trajectory is the one of the step before the
  // projection existed, bit for bit; with it on it differs.
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc);
  SimSettings on = sc->settings;
  on.fast_path = false;  // the golden state below is the full solve's
  SimSettings off = on;
  off.dynamics.position_projection = false;
  State a = sc->initial, b = sc->initial;
  Simulator sa(sc->model, off), sb(sc->model, on);
  for (int k = 0; k < 300; ++k) {
    ASSERT_TRUE(sa.step(a));
    ASSERT_TRUE(sb.step(b));
    EXPECT_EQ(sa.projection_stats().iterations, 0);
  }
  // The golden state after 300 steps of the step without projection (`moreau simulate
  // fourbar-fixed --steps 300` with the projection off; recorded before the projection existed,
  // again when drift compensation began to skip joints at rest: it moved in the 14th digit; and
  // when the loop's redundant rows got consistent biases: 7.7e-13 in u, 2.2e-16 in r).
  EXPECT_EQ(a.r[1].x(), 0.017012376873275108);
  EXPECT_EQ(a.r[1].z(), 0.75057951155755354);
  EXPECT_EQ(a.q[1].y(), 0.99942031838862821);
  EXPECT_EQ(a.r[3].x(), 1.0170123701972624);
  EXPECT_EQ(a.u[2][0], -1.1854058895931436);
  EXPECT_EQ(a.u[3][4], 2.3765149978666913);
  EXPECT_NE(a.r[1].x(), b.r[1].x());
}
