// The suite builder (suite_rig.hpp).
#include "moreau/scenes/suite_rig.hpp"

#include <cmath>

namespace moreau::builtin {

namespace {
constexpr uint32_t kMaskMech = kGroupGround | kGroupShell | kGroupProp;
constexpr uint32_t kMaskShell = kGroupGround | kGroupMech | kGroupProp;

Geometry grouped(Geometry g, uint32_t group, uint32_t mask) {
  g.group = group;
  g.mask = mask;
  return g;
}
}  // namespace

int Rig::box(const std::string& name, double mass, const Vec3& half, const Vec3& pos) {
  const int b = add_body(mb_, s_, box_body(name, mass, half), pos);
  mb_.add_geometry(grouped(box_geom(b, half), kGroupMech, kMaskMech));
  return b;
}

int Rig::ball(const std::string& name, double mass, double radius, const Vec3& pos,
              uint32_t group) {
  const int b = add_body(mb_, s_, sphere_body(name, mass, radius), pos);
  mb_.add_geometry(
      grouped(sphere_geom(b, radius), group, group == kGroupMech ? kMaskMech : 0xffffffffu));
  return b;
}

int Rig::shell(const std::string& name, double mass, const Vec3& in, double t, const Vec3& pos,
               int mask) {
  const int b = add_body(mb_, s_, box_body(name, mass, in + Vec3::Constant(t)), pos);
  const Vec3 o = in + Vec3::Constant(t);
  const Vec3 plates[5][2] = {{v3(t, o.y(), o.z()), v3(in.x() + t, 0, 0)},
                             {v3(t, o.y(), o.z()), v3(-in.x() - t, 0, 0)},
                             {v3(o.x(), t, o.z()), v3(0, in.y() + t, 0)},
                             {v3(o.x(), t, o.z()), v3(0, -in.y() - t, 0)},
                             {v3(o.x(), o.y(), t), v3(0, 0, in.z() + t)}};
  for (int k = 0; k < 5; ++k) {
    if (!(mask & (1 << k))) continue;
    const auto& p = plates[k];
    mb_.add_geometry(grouped(box_geom(b, p[0], {p[1], Quat::Identity()}), kGroupShell, kMaskShell));
  }
  return b;
}

void Rig::world_box(const Vec3& half, const Vec3& pos) {
  mb_.add_geometry(box_geom(-1, half, {pos, Quat::Identity()}));
}

int Rig::joint(const std::string& name, JointType t, int base, int follower, const Vec3& anchor,
               const Vec3& a1, const Vec3& a2) {
  Mat3 R;
  R.col(0) = a1.normalized();
  R.col(1) = (a2 - a2.dot(R.col(0)) * R.col(0)).normalized();
  R.col(2) = R.col(0).cross(R.col(1));
  return mb_.add_joint(joint_at(name, t, base, follower, {anchor, Quat(R)}, s_));
}

void Rig::pd(int j, double kp, double kd, double target, double amp, double freq, double phase) {
  Joint& jt = mb_.joint(j);
  for (int k = 0; k < jt.dofs(); ++k) {
    DofActuator& a = jt.actuators[k];
    a.mode = ActuationMode::Position;
    a.kp = kp;
    a.kd = kd;
    a.target = target;
    a.amplitude = amp;
    a.frequency = freq;
    a.phase = phase + 0.5 * kPi * k;
  }
}

void Rig::limit(int j, double lower, double upper) {
  Joint& jt = mb_.joint(j);
  for (int k = 0; k < jt.dofs(); ++k) jt.limits[k] = {lower, upper};
}

void Rig::damping(int j, double c) {
  Joint& jt = mb_.joint(j);
  for (int k = 0; k < jt.dofs(); ++k) jt.damping[k] = c;
}

int Rig::fourbar(const std::string& p, int parent, const Vec3& A, const Vec3& B, const Vec3& down,
                 double L, double mass) {
  const Vec3 d = down.normalized(), C = A + L * d, D = B + L * d;
  const Vec3 axis = (B - A).cross(d).normalized();
  const double w = 0.01;
  const int crank = box(p + "_crank", mass, v3(w, w, 0.5 * L), 0.5 * (A + C));
  const int coupler = box(p + "_coupler", mass, v3(0.5 * (B - A).norm(), w, w), 0.5 * (C + D));
  const int rocker = box(p + "_rocker", mass, v3(w, w, 0.5 * L), 0.5 * (B + D));
  const int jc = hinge(p + "_crank_hinge", parent, crank, A, axis);
  hinge(p + "_coupler_hinge", crank, coupler, C, axis);
  hinge(p + "_rocker_hinge", coupler, rocker, D, axis);
  hinge(p + "_closing_hinge", rocker, parent, B, axis);  // closes the loop: 3 redundant rows
  return jc;
}

Result<Scene> Rig::finish(double duration, double dt) {
  mb_.add_geometry(ground_plane(0.8));
  Result<Model> m = mb_.build();
  if (!m) return m.error();
  Scene sc;
  sc.model = std::move(*m);
  sc.initial = s_;
  sc.duration = duration;
  sc.settings.dt = dt;
  return sc;
}

}  // namespace moreau::builtin
