#pragma once
// The speed at which a contact slides after a step: the relative velocity, along the contact
// plane, of the two material points that touched at the step's start
// (docs/benchmark-experiments.md, `nmdp-stability`'s slip_fraction).
#include "moreau/collision/contact.hpp"
#include "moreau/model/state.hpp"

namespace moreau::bench {

// `c` was detected at `before`; `after` is the state the step ended at.
inline double contact_slip_speed(const Contact& c, const State& before, const State& after) {
  // Each side's material point at the contact, carried by its body's rotation over the step.
  auto point_velocity = [&](int b) -> Vec3 {
    if (b < 0) return Vec3::Zero();
    const Vec3 arm = after.q[b] * (before.q[b].inverse() * (c.point - before.r[b]));
    return after.u[b].head<3>() + after.u[b].tail<3>().cross(arm);
  };
  const Vec3 v = point_velocity(c.body[1]) - point_velocity(c.body[0]);
  return (v - v.dot(c.normal) * c.normal).norm();
}

}  // namespace moreau::bench
