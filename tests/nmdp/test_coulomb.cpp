// Coulomb's law under the Pan & Hauser integrators: a block on an incline below its friction angle
// sticks, above it slides with a = g (sin a - mu cos a). MDP picks the contact force that
// minimises the kinetic energy after the step (eq. 6), which for a lone body is the force that
// stops it when friction allows: both regimes follow.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

// Distance the box travels along the incline (downhill positive) over `seconds`, after 0.2 s to
// settle into the penetrable contact.
double slide(Integrator integ, double mu, double dt, double seconds) {
  Result<Scene> sc =
      make_builtin_scene("box-incline", {{"angle", "20"}, {"mu", std::to_string(mu)}});
  EXPECT_TRUE(sc) << sc.error().message();
  SimSettings st = sc->settings;
  st.integrator = integ;
  st.dt = dt;
  Simulator sim(sc->model, st);
  State s = sc->initial;
  const int settle = static_cast<int>(std::lround(0.2 / dt));
  const int steps = static_cast<int>(std::lround(seconds / dt));
  for (int k = 0; k < settle; ++k) EXPECT_TRUE(sim.step(s)) << sim.error();
  const Vec3 r0 = s.r[0];
  for (int k = 0; k < steps; ++k) EXPECT_TRUE(sim.step(s)) << sim.error();
  // The incline's normal is R_y(a) z = (sin a, 0, cos a); gravity's part in its plane points
  // along (cos a, 0, -sin a).
  const double a = 20.0 * 3.14159265358979323846 / 180.0;
  const Vec3 down(std::cos(a), 0.0, -std::sin(a));
  return (s.r[0] - r0).dot(down);
}

}  // namespace

TEST(NmdpCoulomb, ABlockBelowTheFrictionAngleSticks) {
  // tan 20 deg = 0.364 < mu = 0.5: at rest, it stays (1 mm over 1 s at most: the contact is a
  // penetrable force, its depth settles in the first 0.2 s).
  for (Integrator integ : {Integrator::Nmdp, Integrator::Mdp})
    for (double dt : {0.005, 0.02}) {
      const double d = slide(integ, 0.5, dt, 1.0);
      std::printf("%s dt %g: %.3e m\n", integrator_name(integ), dt, d);
      EXPECT_LT(std::abs(d), 1e-3) << integrator_name(integ) << " dt " << dt;
    }
}

TEST(NmdpCoulomb, ABlockAboveTheFrictionAngleSlidesAtCoulombsRate) {
  // mu = 0.2 < tan 20 deg: a = g (sin a - mu cos a) = 1.51 m/s^2 along the incline; over 1 s
  // from the speed it has after the 0.2 s settle, the distance is v0 t + a t^2 / 2.
  const double a = 20.0 * 3.14159265358979323846 / 180.0;
  const double acc = 9.81 * (std::sin(a) - 0.2 * std::cos(a));
  for (Integrator integ : {Integrator::Nmdp, Integrator::Mdp})
    for (double dt : {0.005, 0.02}) {
      const double d = slide(integ, 0.2, dt, 1.0);
      const double expect = acc * 0.2 * 1.0 + 0.5 * acc * 1.0;
      std::printf("%s dt %g: %.4f m (Coulomb %.4f m)\n", integrator_name(integ), dt, d, expect);
      EXPECT_NEAR(d, expect, 0.05 * expect) << integrator_name(integ) << " dt " << dt;
    }
}
