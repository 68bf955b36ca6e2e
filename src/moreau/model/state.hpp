#pragma once
// The per-step state s = [r; q] (CoM positions and unit quaternions) and u = [v; w] (twists at
// the CoM, world frame), body by body (eq. 20).
#include <cmath>
#include <vector>

#include "moreau/model/model.hpp"

namespace moreau {

struct State {
  double t = 0.0;
  std::vector<Vec3> r;  // CoM positions [m]
  std::vector<Quat> q;  // body orientations, unit
  std::vector<Vec6> u;  // twists [v; w] at the CoM, world frame [m/s; rad/s]

  int num_bodies() const { return static_cast<int>(r.size()); }
  Pose pose(int b) const { return {r[b], q[b]}; }
  // All bodies at the origin, at rest.
  static State zeros(int num_bodies);
  bool all_finite() const;
};

// Positions update s [+] dt u (eq. 10b): r += dt v, q = Exp(dt w) (x) q, quaternions renormalized.
void integrate_positions(State& s, const std::vector<Vec6>& u, double dt);

// Kinetic energy sum 1/2 u^T M u plus gravitational potential -m g.r  [J].
double kinetic_energy(const Model& m, const State& s);
double potential_energy(const Model& m, const State& s);
inline double total_energy(const Model& m, const State& s) {
  return kinetic_energy(m, s) + potential_energy(m, s);
}
// World angular momentum about the origin and linear momentum.
Vec3 angular_momentum(const Model& m, const State& s);
Vec3 linear_momentum(const Model& m, const State& s);

}  // namespace moreau
