#pragma once
// Small builders shared by the built-in scenes: bodies from primitive shapes, joints placed by a
// world-frame anchor in the initial configuration.
#include "moreau/io/scene.hpp"

namespace moreau::builtin {

constexpr double kPi = 3.14159265358979323846;

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

// A chain of 0.1 m box links (masses[i] kg) hanging from the world on revolute joints about
// world y, laid out horizontally along +x (the `chain` scene; the softening experiment's heavy
// chain). With `geometry`, each link also gets its box as collision geometry.
void add_hanging_chain(ModelBuilder& mb, State& s, const std::vector<double>& masses,
                       bool geometry);

// A Scene from a builder and an initial state (the last step of every builder).
Result<Scene> finish_scene(ModelBuilder& mb, State s, double duration, SimSettings settings = {});

// `double var` = the scene parameter `key` (or `fallback`); returns the Error from the enclosing
// scene builder, which must have `params` and `scene_name` in scope, when it is not a number.
#define MOREAU_SCENE_PARAM(var, key, fallback)                           \
  double var;                                                            \
  {                                                                      \
    Result<double> r_ = param_double(params, scene_name, key, fallback); \
    if (!r_) return r_.error();                                          \
    var = *r_;                                                           \
  }

}  // namespace moreau::builtin
