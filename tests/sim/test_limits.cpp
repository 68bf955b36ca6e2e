// Joint limits: rows activated by their gap (eq. 28-30) stop the motion at the bound.
#include <gtest/gtest.h>

#include <cstdio>

#include "moreau/dynamics/builder.hpp"
#include "moreau/model/primitives.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
struct Limited {
  Model model;
  State state;
};

Limited limited_pendulum(JointType type, double lower, double upper) {
  ModelBuilder mb("limited");
  State s;
  const Quat q(Eigen::AngleAxisd(0.5, Vec3::UnitY()));
  const int b =
      add_body(mb, s, box_body("bob", 1.0, Vec3(0.025, 0.025, 0.5)), q * Vec3(0, 0, -0.5), q);
  Joint j = joint_at("hinge", type, -1, b, {Vec3::Zero(), axis_frame(Vec3::UnitY())}, s);
  j.limits[0].lower = lower;
  j.limits[0].upper = upper;
  mb.add_joint(j);
  return {*mb.build(), s};
}
}  // namespace

TEST(Limits, RevoluteStopsAtLowerBound) {
  // Joint angle is measured from the build pose (0.5 rad from vertical); the bob swings towards
  // -1.0 rad relative and is stopped at -0.7.
  Limited L = limited_pendulum(JointType::Revolute, -0.7, 0.3);
  SimSettings st;
  st.dt = 1e-3;
  st.solver_settings.tol = 1e-10;
  Simulator sim(L.model, st);
  double qmin = 1e9, qmax = -1e9;
  int limit_steps = 0;
  while (L.state.t < 3.0) {
    ASSERT_TRUE(sim.step(L.state)) << sim.error();
    double q, qd;
    joint_dof_state(L.model.joints()[0], L.state, 0, &q, &qd);
    qmin = std::min(qmin, q);
    qmax = std::max(qmax, q);
    limit_steps += sim.problem().count(RowKind::Limit) > 0;
  }
  EXPECT_GT(limit_steps, 0);
  EXPECT_GE(qmin, -0.7 - 2e-3) << "penetration of the lower limit";
  EXPECT_LE(qmin, -0.7 + 1e-3) << "the bound must be reached";
  EXPECT_LE(qmax, 0.3 + 2e-3);
  EXPECT_LE(limit_violation(L.model, L.state), 2e-3);
}

TEST(Limits, UpperBoundUsesNegatedDirection) {
  // Same pendulum mirrored: the bound at +0.2 holds with lambda >= 0.
  Limited L = limited_pendulum(JointType::Revolute, -2.0, 0.2);
  L.state.u[0].tail<3>() = Vec3(0, 3.0, 0);  // kick towards positive angles
  L.state.u[0].head<3>() = Vec3(0, 3.0, 0).cross(L.state.r[0]);
  SimSettings st;
  Simulator sim(L.model, st);
  double qmax = -1e9;
  bool saw_positive_impulse = false;
  while (L.state.t < 1.0) {
    ASSERT_TRUE(sim.step(L.state)) << sim.error();
    double q, qd;
    joint_dof_state(L.model.joints()[0], L.state, 0, &q, &qd);
    qmax = std::max(qmax, q);
    for (const ConstraintBlock& b : sim.problem().blocks)
      if (b.kind == RowKind::Limit) {
        EXPECT_GE(sim.solution().lambda[b.offset], -1e-12);
        saw_positive_impulse |= sim.solution().lambda[b.offset] > 1e-6;
      }
  }
  EXPECT_TRUE(saw_positive_impulse);
  EXPECT_LE(qmax, 0.2 + 2e-3);
}

TEST(Limits, PrismaticLimitHoldsAgainstGravity) {
  // A slider along world z (prismatic joint x axis = -z): gravity pulls it down onto its bound.
  ModelBuilder mb("slider");
  State s;
  const int b = add_body(mb, s, box_body("carriage", 2.0, Vec3(0.1, 0.1, 0.1)), Vec3::Zero());
  Joint j =
      joint_at("rail", JointType::Prismatic, -1, b, {Vec3::Zero(), axis_frame(-Vec3::UnitZ())}, s);
  j.limits[0].upper = 0.05;  // may move at most 5 cm down
  mb.add_joint(j);
  Model m = *mb.build();
  SimSettings st;
  st.solver = "pgs";  // exact 1-row limit blocks: lambda to round-off
  Simulator sim(m, st);
  while (s.t < 2.0) ASSERT_TRUE(sim.step(s)) << sim.error();
  EXPECT_NEAR(s.r[0].z(), -0.05, 1e-4);
  EXPECT_LE(std::abs(s.u[0][2]), 1e-6);
  // At rest the limit impulse carries the weight: lambda = m g dt.
  double total = 0.0;
  for (const ConstraintBlock& blk : sim.problem().blocks)
    if (blk.kind == RowKind::Limit) total += sim.solution().lambda[blk.offset];
  EXPECT_NEAR(total, 2.0 * 9.81 * st.dt, 1e-6);
}

// A limit whose row the step's start does not call for (g + dt min(0, qd^-) > limit_margin), while
// the step's own velocity carries the joint past it: the step is solved again with the row
// (Simulator::step, ProblemBuilder::force_crossed_limits), and the joint stops at its bound
// instead of overshooting it by the step's travel and creeping back at the bounded correction.
// Here gravity over one long step (dt = 0.1 s) swings the pendulum from rest 0.05 rad above its
// bound to -0.0705 rad.
TEST(Limits, AStepWhoseVelocityCrossesAnInactiveBoundStopsAtIt) {
  const double dt = 0.1, lower = -0.05;
  auto one_step = [&](double bound) {
    Limited L = limited_pendulum(JointType::Revolute, bound, 0.3);
    SimSettings st;
    st.dt = dt;
    st.solver_settings.tol = 1e-12;
    st.dynamics.position_projection = false;  // the step's own answer
    Simulator sim(L.model, st);
    EXPECT_TRUE(sim.step(L.state)) << sim.error();
    EXPECT_TRUE(sim.solution().converged());
    double q, qd;
    joint_dof_state(L.model.joints()[0], L.state, 0, &q, &qd);
    return std::pair<double, int>(q, sim.problem().count(RowKind::Limit));
  };
  const auto [q_free, rows_free] = one_step(-10.0);
  EXPECT_LT(q_free, lower - 0.02) << "without the bound the step crosses it";
  EXPECT_EQ(rows_free, 0);
  const auto [q, rows] = one_step(lower);
  std::printf("one step of %.1f s: %.4f rad without the bound, %.7f with it at %.2f\n", dt, q_free,
              q, lower);
  EXPECT_EQ(rows, 1) << "the row the step's velocity called for";
  EXPECT_NEAR(q, lower, 1e-6);
}
