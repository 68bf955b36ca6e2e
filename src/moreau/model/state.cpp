#include "moreau/model/state.hpp"

#include "moreau/math/so3.hpp"

namespace moreau {

State State::zeros(int nb) {
  State s;
  s.r.assign(nb, Vec3::Zero());
  s.q.assign(nb, Quat::Identity());
  s.u.assign(nb, Vec6::Zero());
  return s;
}

bool State::all_finite() const {
  if (!std::isfinite(t)) return false;
  for (const Vec3& x : r)
    if (!x.allFinite()) return false;
  for (const Quat& x : q)
    if (!x.coeffs().allFinite()) return false;
  for (const Vec6& x : u)
    if (!x.allFinite()) return false;
  return true;
}

void integrate_positions(State& s, const std::vector<Vec6>& u, double dt) {
  for (int i = 0; i < s.num_bodies(); ++i) {
    s.r[i] += dt * u[i].head<3>();
    s.q[i] = integrate_rotation(s.q[i], u[i].tail<3>(), dt);  // eq. 10b
  }
}

double kinetic_energy(const Model& m, const State& s) {
  double e = 0.0;
  for (int i = 0; i < m.num_bodies(); ++i) {
    const Body& b = m.bodies()[i];
    const Mat3 R = s.q[i].toRotationMatrix();
    const Vec3 w = s.u[i].tail<3>();
    e += 0.5 * b.mass * s.u[i].head<3>().squaredNorm() +
         0.5 * w.dot(R * b.inertia * R.transpose() * w);
  }
  return e;
}

double potential_energy(const Model& m, const State& s) {
  double e = 0.0;
  for (int i = 0; i < m.num_bodies(); ++i) e -= m.bodies()[i].mass * m.gravity().dot(s.r[i]);
  return e;
}

Vec3 angular_momentum(const Model& m, const State& s) {
  Vec3 L = Vec3::Zero();
  for (int i = 0; i < m.num_bodies(); ++i) {
    const Body& b = m.bodies()[i];
    const Mat3 R = s.q[i].toRotationMatrix();
    L += R * b.inertia * R.transpose() * s.u[i].tail<3>() + s.r[i].cross(b.mass * s.u[i].head<3>());
  }
  return L;
}

Vec3 linear_momentum(const Model& m, const State& s) {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < m.num_bodies(); ++i) p += m.bodies()[i].mass * s.u[i].head<3>();
  return p;
}

}  // namespace moreau
