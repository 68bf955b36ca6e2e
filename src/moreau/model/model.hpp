#pragma once
// The Model describes a system and is immutable after ModelBuilder::build() (cf. mjModel,
// pinocchio::Model). Everything that changes per step lives in State and the workspaces.
#include <string>
#include <utility>
#include <vector>

#include "moreau/model/error.hpp"
#include "moreau/model/geometry.hpp"
#include "moreau/model/joint.hpp"

namespace moreau {

struct Body {
  std::string name;
  double mass = 1.0;                // kg, > 0
  Mat3 inertia = Mat3::Identity();  // kg m^2, about the CoM, in the body frame (SPD)
  // The body frame IS the centre-of-mass frame: state positions are CoM positions.
};

class Model {
 public:
  const std::string& name() const { return name_; }
  const std::vector<Body>& bodies() const { return bodies_; }
  const std::vector<Joint>& joints() const { return joints_; }
  const std::vector<Geometry>& geometries() const { return geometries_; }
  const Vec3& gravity() const { return gravity_; }
  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  int num_joints() const { return static_cast<int>(joints_.size()); }
  // Sum of joint constraint rows m_j (joints only; limits and contacts come and go).
  int joint_rows() const { return joint_rows_; }
  int body_index(const std::string& name) const;  // -1 if absent
  // Body b's name for messages and files: "world" for b = -1, "body<b>" for an unnamed body.
  std::string body_name(int b) const;
  int joint_index(const std::string& name) const;
  // Body i's inverse inertia in its body frame (computed once by ModelBuilder::build).
  const Mat3& inertia_inverse(int i) const { return inertia_inv_[i]; }
  // Largest over smallest body mass.
  double mass_ratio() const;
  double total_mass() const;
  // Geometries attached to body b (or to the world for b = -1), in model order.
  const std::vector<int>& body_geometries(int b) const { return body_geoms_[b + 1]; }
  // Geometry pairs that never collide (MJCF's <contact><exclude>: every geometry of one body
  // against every one of the other), besides the bodies a joint connects
  // (Joint::collide_connected): geometry indices (a, b) with a < b; sorted, no duplicates.
  const std::vector<std::pair<int, int>>& collision_exclusions() const { return exclusions_; }

 private:
  friend class ModelBuilder;
  std::string name_;
  std::vector<Body> bodies_;
  std::vector<Joint> joints_;
  std::vector<Geometry> geometries_;
  std::vector<std::vector<int>> body_geoms_;  // [0] = world
  std::vector<Mat3> inertia_inv_;             // per body
  std::vector<std::pair<int, int>> exclusions_;
  Vec3 gravity_ = Vec3(0.0, 0.0, -9.81);
  int joint_rows_ = 0;
};

// A DoF an actuator drives (its mode is not Passive): one entry of a control vector
// (Simulator::set_controls, sim/batch.hpp), in joint order, then DoF order. The control replaces
// the actuator's set point: `force` for Force, `target` for Position, StablePd and Velocity (the
// scripted sinusoid or keyframes then move around it).
struct ActuatedDof {
  int joint = 0;
  int dof = 0;
};
std::vector<ActuatedDof> actuated_dofs(const Model& m);
// The actuator's set point that a control replaces (ActuatedDof): its force or its target.
double actuator_set_point(const DofActuator& a);

// Builds and validates a Model. Validation errors name the element ("body 'arm'",
// "joint 'knee'") and what was expected; loaders add the file and line.
class ModelBuilder {
 public:
  explicit ModelBuilder(std::string name = "model") { m_.name_ = std::move(name); }
  // A built model to change and build again: every field carried over (build() derives the rest).
  explicit ModelBuilder(Model m) : m_(std::move(m)) {}
  int add_body(Body b);
  int add_joint(Joint j);
  int add_geometry(Geometry g);
  void set_gravity(const Vec3& g) { m_.gravity_ = g; }
  // Geometries a and b (indices) never collide with each other (Model::collision_exclusions).
  void exclude_collisions(int a, int b) { m_.exclusions_.emplace_back(a, b); }
  int num_bodies() const { return static_cast<int>(m_.bodies_.size()); }
  int num_geometries() const { return static_cast<int>(m_.geometries_.size()); }
  const Body& body(int i) const { return m_.bodies_[i]; }
  Body& body(int i) { return m_.bodies_[i]; }
  Joint& joint(int i) { return m_.joints_[i]; }
  int body_index(const std::string& name) const { return m_.body_index(name); }
  Result<Model> build() const;

 private:
  Model m_;
};

// Validation used by build() and by loaders (which want the element before building).
std::optional<Error> validate_body(const Body& b, const std::string& element);
std::optional<Error> validate_joint(const Joint& j, int num_bodies, const std::string& element);
std::optional<Error> validate_geometry(const Geometry& g, int num_bodies,
                                       const std::string& element);

}  // namespace moreau
