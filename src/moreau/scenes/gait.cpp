#include "moreau/scenes/gait.hpp"

#include <algorithm>
#include <cmath>

namespace moreau::builtin {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kLink = 0.2;  // m, thigh and shank (hip-knee, knee-foot centre)
}  // namespace

std::array<double, 2> leg_ik(double x, double depth, double knee_sign) {
  const double r = std::min(std::hypot(x, depth), 2.0 * kLink * (1.0 - 1e-9));
  const double knee = knee_sign * 2.0 * std::acos(r / (2.0 * kLink));
  const double hip = std::atan2(-x, depth) - 0.5 * knee;
  return {hip, knee};
}

double walk_speed(const WalkParams& p) {
  return 2.0 * p.stride / p.period;
}

std::array<LegReference, 4> jump_reference(const JumpParams& p) {
  // Foot depth keyframes over one period (feet below their hips, x = 0).
  const std::array<double, 2> key[] = {{0.0, p.stand_depth},
                                       {p.crouch_start, p.stand_depth},
                                       {p.crouch_end, p.crouch_depth},
                                       {p.push_end, p.push_depth},
                                       {p.tuck_time, p.tuck_depth},
                                       {p.land_time, p.stand_depth},
                                       {p.absorb_time, p.absorb_depth},
                                       {p.recover_time, p.stand_depth}};
  std::array<LegReference, 4> legs;
  for (int k = 0; k < 4; ++k)
    for (const auto& [t, depth] : key) {
      const auto [hip, knee] = leg_ik(0.0, depth, k < 2 ? 1.0 : -1.0);
      legs[k].abduction.push_back({t, 0.0});
      legs[k].hip.push_back({t, hip});
      legs[k].knee.push_back({t, knee});
    }
  return legs;
}

std::array<LegReference, 4> walk_reference(const WalkParams& p) {
  // Foot path over one cycle, phase s in [0, 1): stance for s < 1/2 (x from +stride/2 to
  // -stride/2 on the ground), swing after (back to +stride/2 along a half-sine).
  auto foot = [&](double s) -> std::array<double, 2> {
    if (s < 0.5) return {p.stride * (0.5 - 2.0 * s), p.depth};
    const double u = 2.0 * s - 1.0;  // swing progress
    const double x = p.stride * (u - 0.5);
    return {x, p.depth - p.clearance * std::sin(kPi * u)};
  };
  std::array<LegReference, 4> legs;
  for (int k = 0; k < 4; ++k) {
    const double offset = (k == 0 || k == 3) ? 0.0 : 0.5;  // trot: fl+hr, then fr+hl
    for (int i = 0; i < p.samples; ++i) {
      const double s = static_cast<double>(i) / p.samples;
      const double t = s * p.period;
      const auto [x, depth] = foot(std::fmod(s + offset, 1.0));
      const auto [hip, knee] = leg_ik(x, depth, k < 2 ? 1.0 : -1.0);
      legs[k].abduction.push_back({t, 0.0});
      legs[k].hip.push_back({t, hip});
      legs[k].knee.push_back({t, knee});
    }
  }
  return legs;
}

}  // namespace moreau::builtin
