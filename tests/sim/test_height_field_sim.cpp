// Height fields in simulation (docs/collision.md, "Height fields"): a sphere resting on a flat
// field gets the contact and normal impulse of a plane (to 1e-9); a frictionless sphere on a
// linear ramp field slides down with acceleration g sin(theta) and stays on the ramp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "moreau/sim/simulator.hpp"

namespace moreau {
namespace {

// A free sphere (mass 1, radius 0.1) and, in the world, a plane (ramp_slope < 0) or a height
// field 4 x 2 m, 9 x 5 points, elevation slope * (x + 2) (flat when slope is 0).
Model sphere_on(double slope, double friction) {
  ModelBuilder mb("sphere on a height field");
  Body b;
  b.name = "ball";
  b.mass = 1.0;
  b.inertia = 0.4 * 0.01 * Mat3::Identity();
  mb.add_body(b);
  Geometry ground;
  ground.name = "ground";
  ground.body = -1;
  ground.material.friction = friction;
  if (slope < 0.0) {
    ground.type = ShapeType::Plane;
  } else {
    std::vector<double> e;
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 9; ++c) e.push_back(c / 8.0);
    ground.type = ShapeType::HeightField;
    ground.hfield = *make_height_field(5, 9, {2.0, 1.0, slope > 0.0 ? 4.0 * slope : 1.0, 0.3},
                                       slope > 0.0 ? e : std::vector<double>{}, "ramp");
  }
  mb.add_geometry(ground);
  Geometry g;
  g.name = "ball";
  g.body = 0;
  g.type = ShapeType::Sphere;
  g.radius = 0.1;
  g.material.friction = friction;
  mb.add_geometry(g);
  return *mb.build();
}

SimSettings exact_pgs() {
  SimSettings st;
  st.solver = "pgs";
  st.solver_settings.tol = 1e-14;
  st.solver_settings.max_iters = 100000;
  st.warm_start = false;
  return st;
}

TEST(HeightFieldSim, SphereRestsAsOnAPlane) {
  const Model plane = sphere_on(-1.0, 0.5), flat = sphere_on(0.0, 0.5);
  // Inside a triangle, and on a grid vertex (six triangles meet: still one contact).
  for (const Vec3& xy : {Vec3(0.13, -0.21, 0.0), Vec3(0.5, 0.5, 0.0)}) {
    State sp = State::zeros(1), sf = State::zeros(1);
    sp.r[0] = sf.r[0] = xy + Vec3(0, 0, 0.1);
    Simulator simp(plane, exact_pgs()), simf(flat, exact_pgs());
    for (int k = 0; k < 200; ++k) {
      ASSERT_TRUE(simp.step(sp)) << simp.error();
      ASSERT_TRUE(simf.step(sf)) << simf.error();
      ASSERT_EQ(simp.contacts().size(), 1u);
      ASSERT_EQ(simf.contacts().size(), 1u) << "step " << k;
      EXPECT_LE((simf.contacts()[0].normal - Vec3::UnitZ()).norm(), 1e-12);
      EXPECT_NEAR(simf.solution().lambda[2], simp.solution().lambda[2], 1e-9) << "step " << k;
    }
    std::printf("flat field at (%g, %g): normal impulse %.15g (plane %.15g) N s, z %.15g m\n",
                xy.x(), xy.y(), simf.solution().lambda[2], simp.solution().lambda[2], sf.r[0].z());
    EXPECT_NEAR(simf.solution().lambda[2], 9.81 * 1e-3, 1e-9);  // m g dt at rest
    EXPECT_LE((sf.r[0] - sp.r[0]).norm(), 1e-9);
    EXPECT_LE(sf.u[0].norm(), 1e-9);
  }
}

TEST(HeightFieldSim, FrictionlessSphereSlidesDownTheRampAtGSinTheta) {
  const double slope = 0.3, theta = std::atan(slope), g = 9.81;
  const Model m = sphere_on(slope, 0.0);
  const Vec3 n(-std::sin(theta), 0.0, std::cos(theta)),
      down(-std::cos(theta), 0.0, -std::sin(theta));
  const Vec3 x0(1.2, 0.17, slope * (1.2 + 2.0));  // on the ramp surface
  State s = State::zeros(1);
  s.r[0] = x0 + 0.1 * n;
  const Vec3 r0 = s.r[0];
  Simulator sim(m, exact_pgs());
  const int steps = 500;  // 0.5 s at dt = 1 ms: 0.35 m down the slope, across several cells
  double worst_normal = 0.0;
  for (int k = 0; k < steps; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    ASSERT_FALSE(sim.contacts().empty()) << "step " << k;
    worst_normal = std::max(worst_normal, std::abs(s.u[0].head<3>().dot(n)));
  }
  const double t = steps * 1e-3;
  const double v = s.u[0].head<3>().dot(down);
  std::printf("ramp: v = %.12g m/s (g sin theta t = %.12g), normal speed <= %.2e m/s\n", v,
              g * std::sin(theta) * t, worst_normal);
  EXPECT_NEAR(v, g * std::sin(theta) * t, 1e-9 * g * t);
  EXPECT_LE(worst_normal, 1e-9);
  EXPECT_NEAR((s.r[0] - r0).dot(n), 0.0, 1e-9);  // stays on the ramp
  // Semi-implicit Euler: travel = dt^2 a (1 + 2 + ... + N) = a t (t + dt) / 2.
  EXPECT_NEAR((s.r[0] - r0).dot(down), 0.5 * g * std::sin(theta) * t * (t + 1e-3), 1e-9);
  EXPECT_LE(s.u[0].tail<3>().norm(), 1e-9);  // frictionless: no spin
}

}  // namespace
}  // namespace moreau
