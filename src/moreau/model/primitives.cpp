#include "moreau/model/primitives.hpp"

namespace moreau {

Body box_body(const std::string& name, double m, const Vec3& a) {
  Body b;
  b.name = name;
  b.mass = m;
  const Vec3 s = a.cwiseProduct(a);
  b.inertia = (m / 3.0 * Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y())).asDiagonal();
  return b;
}

Body sphere_body(const std::string& name, double m, double r) {
  Body b;
  b.name = name;
  b.mass = m;
  b.inertia = Mat3::Identity() * (0.4 * m * r * r);
  return b;
}

Body cylinder_body(const std::string& name, double m, double r, double hl) {
  Body b;
  b.name = name;
  b.mass = m;
  const double ixx = m * (3.0 * r * r + 4.0 * hl * hl) / 12.0;
  b.inertia = Vec3(ixx, ixx, 0.5 * m * r * r).asDiagonal();
  return b;
}

namespace {
// A shape of `type` attached to `body` at `pose` in the body frame; the caller sets its size.
Geometry attached(int body, ShapeType type, const Pose& pose) {
  Geometry g;
  g.body = body;
  g.type = type;
  g.pose = pose;
  return g;
}
}  // namespace

Geometry box_geom(int body, const Vec3& half_extents, const Pose& pose) {
  Geometry g = attached(body, ShapeType::Box, pose);
  g.half_extents = half_extents;
  return g;
}

Geometry sphere_geom(int body, double radius, const Pose& pose) {
  Geometry g = attached(body, ShapeType::Sphere, pose);
  g.radius = radius;
  return g;
}

Geometry ground_plane(double friction, double restitution) {
  Geometry g;
  g.name = "ground";
  g.body = -1;
  g.type = ShapeType::Plane;
  g.material.friction = friction;
  g.material.restitution = restitution;
  return g;
}

Joint joint_at(const std::string& name, JointType type, int base, int follower,
               const Pose& world_frame, const State& s) {
  Joint j;
  j.name = name;
  j.type = type;
  j.base = base;
  j.follower = follower;
  j.frame_base = base >= 0 ? s.pose(base).inverse() * world_frame : world_frame;
  j.frame_follower = s.pose(follower).inverse() * world_frame;
  return j;
}

Quat axis_frame(const Vec3& axis) {
  return Quat::FromTwoVectors(Vec3::UnitX(), axis.normalized());
}

int add_body(ModelBuilder& mb, State& s, Body b, const Vec3& r, const Quat& q, const Vec6& u) {
  const int i = mb.add_body(std::move(b));
  s.r.push_back(r);
  s.q.push_back(q);
  s.u.push_back(u);
  return i;
}

}  // namespace moreau
