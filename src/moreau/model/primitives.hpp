#pragma once
// Small model builders: bodies from primitive shapes, joints placed by a world-frame anchor in
// the initial configuration. Used by the built-in scenes (src/moreau/scenes) and the JSON scene
// reader (io/scene_json_read.cpp).
#include <string>

#include "moreau/model/model.hpp"
#include "moreau/model/state.hpp"

namespace moreau {

// Solid box of half extents a (body frame = CoM frame).
Body box_body(const std::string& name, double mass, const Vec3& half_extents);
Body sphere_body(const std::string& name, double mass, double radius);
// Solid cylinder/capsule approximated as a cylinder along local z.
Body cylinder_body(const std::string& name, double mass, double radius, double half_length);

Geometry box_geom(int body, const Vec3& half_extents, const Pose& pose = {});
Geometry sphere_geom(int body, double radius, const Pose& pose = {});
Geometry ground_plane(double friction = 0.5, double restitution = 0.0);

// A joint whose frame sits at `world_frame` in the state s (both local frames are derived from s,
// so the joint is exactly satisfied there). base = -1 for the world.
Joint joint_at(const std::string& name, JointType type, int base, int follower,
               const Pose& world_frame, const State& s);

// Rotation taking the joint x axis to the world direction `axis`.
Quat axis_frame(const Vec3& axis);

// Adds body b to builder and state at pose (r, q) with twist u.
int add_body(ModelBuilder& mb, State& s, Body b, const Vec3& r, const Quat& q = Quat::Identity(),
             const Vec6& u = Vec6::Zero());

}  // namespace moreau
