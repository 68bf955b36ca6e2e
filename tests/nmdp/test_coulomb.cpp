// Coulomb's law under the Pan & Hauser integrators: a block on an incline below its friction angle
// sticks, above it slides with a = g (sin a - mu cos a). MDP picks the contact force that
// minimises the kinetic energy after the step (eq. 6), which for a lone body is the force that
// stops it when friction allows: both regimes follow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "moreau/bench/contact_slip.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

// Distance the box travels along the incline (downhill positive) over `seconds`, after 0.2 s to
// settle into the penetrable contact.
// v0: the speed along the incline at the end of the settle.
// slip: the slowest and fastest slip speed of a touching contact over the run
// (bench/contact_slip.hpp).
double slide(Integrator integ, double mu, double dt, double seconds, double* v0 = nullptr,
             std::pair<double, double>* slip = nullptr) {
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
  // The incline's normal is R_y(a) z = (sin a, 0, cos a); gravity's part in its plane points
  // along (cos a, 0, -sin a).
  const double a = 20.0 * 3.14159265358979323846 / 180.0;
  const Vec3 down(std::cos(a), 0.0, -std::sin(a));
  const Vec3 r0 = s.r[0];
  if (v0) *v0 = s.u[0].head<3>().dot(down);
  double fastest = 0.0, slowest = 1e300;  // contact slip speeds (nmdp-stability's measure)
  for (int k = 0; k < steps; ++k) {
    const State before = s;
    EXPECT_TRUE(sim.step(s)) << sim.error();
    for (const Contact& c : sim.contacts()) {
      if (c.gap > 0.0) continue;
      const double v = bench::contact_slip_speed(c, before, s);
      fastest = std::max(fastest, v);
      slowest = std::min(slowest, v);
    }
  }
  if (slip) *slip = {slowest, fastest};
  return (s.r[0] - r0).dot(down);
}

}  // namespace

TEST(NmdpCoulomb, ABlockBelowTheFrictionAngleSticks) {
  // tan 20 deg = 0.364 < mu = 0.5: at rest, it stays (0.1 mm over 1 s at most: the contact is a
  // penetrable force, its depth settles in the first 0.2 s; measured 3.6e-5 m at 5 ms).
  for (Integrator integ : {Integrator::Nmdp, Integrator::Mdp})
    for (double dt : {0.005, 0.02}) {
      std::pair<double, double> slip;
      const double d = slide(integ, 0.5, dt, 1.0, nullptr, &slip);
      std::printf("%s dt %g: %.3e m, slip speed up to %.2e m/s\n", integrator_name(integ), dt, d,
                  slip.second);
      EXPECT_LT(std::abs(d), 1e-4) << integrator_name(integ) << " dt " << dt;
      // No contact slides faster than 0.1 mm/s (measured 3.1e-5 m/s), a hundredth of
      // nmdp-stability's slip threshold.
      EXPECT_LT(slip.second, 1e-4) << integrator_name(integ) << " dt " << dt;
    }
}

TEST(NmdpCoulomb, ABlockAboveTheFrictionAngleSlidesAtCoulombsRate) {
  // mu = 0.2 < tan 20 deg: a = g (sin a - mu cos a) = 1.51 m/s^2 along the incline; over 1 s
  // from the speed v0 it has after the 0.2 s settle, the distance is v0 t + a t^2 / 2.
  const double a = 20.0 * 3.14159265358979323846 / 180.0;
  const double acc = 9.81 * (std::sin(a) - 0.2 * std::cos(a));
  for (Integrator integ : {Integrator::Nmdp, Integrator::Mdp})
    for (double dt : {0.005, 0.02}) {
      double v0 = 0.0;
      std::pair<double, double> slip;
      const double d = slide(integ, 0.2, dt, 1.0, &v0, &slip);
      EXPECT_GT(slip.first, 0.01) << "every touching contact slides faster than 1 cm/s";
      EXPECT_NEAR(v0, acc * 0.2, 0.1 * acc * 0.2);  // sliding from the start
      const double expect = v0 * 1.0 + 0.5 * acc * 1.0;
      std::printf("%s dt %g: %.4f m (Coulomb %.4f m)\n", integrator_name(integ), dt, d, expect);
      EXPECT_NEAR(d, expect, 0.025 * expect) << integrator_name(integ) << " dt " << dt;  // 1.9%
    }
}
