// SAP's theta-method on a free spinning body (Castro et al. 2023, eq. 13-14): the midpoint rule
// takes the gyroscopic torque and the inertia at the stage, so it is second order on a body spun
// about its intermediate axis (the Dzhanibekov flip), where an explicit gyroscopic torque makes it
// first order. Symplectic Euler (theta = 0, explicit) stays first order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "moreau/math/so3.hpp"
#include "moreau/model/model.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

Model spinning_body() {
  ModelBuilder mb("dzhanibekov");
  Body b;
  b.name = "wingnut";
  b.mass = 1.0;
  b.inertia = Vec3(1.0, 2.0, 3.0).asDiagonal();
  mb.add_body(b);
  mb.set_gravity(Vec3::Zero());
  return *mb.build();
}

// The state after T = 1 s at step dt: a spin of 4 rad/s about the intermediate axis, perturbed.
State run_theta(Integrator integrator, double dt) {
  const Model m = spinning_body();
  State s = State::zeros(1);
  s.u[0].tail<3>() = Vec3(0.05, 4.0, 0.05);
  SimSettings st;
  st.dt = dt;
  st.solver = "sap";
  st.integrator = integrator;
  Simulator sim(m, st);
  const int n = static_cast<int>(std::lround(1.0 / dt));
  for (int k = 0; k < n; ++k) EXPECT_TRUE(sim.step(s)) << sim.error();
  return s;
}

// The error against a reference of dt_ref: the rotation's angle and the angular velocity's error.
double error(const State& a, const State& ref) {
  const double angle = quat_log(a.q[0] * ref.q[0].conjugate()).norm();
  return std::max(angle, (a.u[0] - ref.u[0]).cwiseAbs().maxCoeff());
}

// The slope of log e against log dt through dt = 4, 2, 1 ms (least squares).
double order(Integrator integrator) {
  const State ref = run_theta(integrator, 1.0 / 32000.0);
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const double dt : {4e-3, 2e-3, 1e-3}) {
    const double x = std::log(dt), y = std::log(error(run_theta(integrator, dt), ref));
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (3 * sxy - sx * sy) / (3 * sxx - sx * sx);
}

}  // namespace

TEST(ThetaRotation, MidpointIsSecondOrderOnASpinningBody) {
  const double p = order(Integrator::SapMidpoint);
  RecordProperty("order", std::to_string(p));
  EXPECT_GE(p, 1.9) << "midpoint order " << p;
  EXPECT_LE(p, 2.2) << "midpoint order " << p;
}

TEST(ThetaRotation, SymplecticEulerStaysFirstOrder) {
  const double p = order(Integrator::SapSymplecticEuler);
  RecordProperty("order", std::to_string(p));
  EXPECT_GE(p, 0.8) << "symplectic Euler order " << p;
  EXPECT_LE(p, 1.2) << "symplectic Euler order " << p;
}

// The flip itself: over 10 s the body-frame rate about the intermediate axis reverses, as in the
// semi-implicit Euler run of TorqueFree.IntermediateAxisFlips.
TEST(ThetaRotation, MidpointFlips) {
  const Model m = spinning_body();
  State s = State::zeros(1);
  s.u[0].tail<3>() = Vec3(0.05, 4.0, 0.05);
  SimSettings st;
  st.dt = 1e-3;
  st.solver = "sap";
  st.integrator = Integrator::SapMidpoint;
  Simulator sim(m, st);
  double min_wy = 4.0;
  for (int k = 0; k < 10000; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    min_wy = std::min(min_wy, (s.q[0].conjugate() * Vec3(s.u[0].tail<3>())).y());
  }
  EXPECT_LT(min_wy, -3.0);
}
