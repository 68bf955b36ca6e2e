#pragma once
// The link tree both importers (URDF, MJCF) produce, and its translation into a moreau Model with
// maximal coordinates: one body per moving link (welded links merged into their parent, links
// welded to the world become world geometry), one moreau joint per link joint, plus loop joints.
// The body frame is the CoM frame, so link, joint and geometry frames are re-expressed in it.
#include <memory>
#include <string>
#include <vector>

#include "moreau/io/scene.hpp"
#include "moreau/model/joint_sequence.hpp"

namespace tinyxml2 {
class XMLDocument;
}

namespace moreau {

// One joint of the source file acting on a link: an MJCF <joint> or the URDF <joint>.
enum class SourceKind : uint8_t { Hinge, Slide, Ball, Free };

struct SourceJoint {
  std::string name;
  SourceKind kind = SourceKind::Hinge;
  Vec3 anchor = Vec3::Zero();  // in the link frame
  Vec3 axis = Vec3::UnitX();   // unit, in the link frame (hinge, slide)
  double ref = 0.0;            // value at the reference configuration (MJCF ref)
  int line = 0;
  int width() const { return kind == SourceKind::Free ? 7 : kind == SourceKind::Ball ? 4 : 1; }
};

struct TreeLink {
  std::string name;
  std::string element;  // "link 'x'", "body 'x'": for messages
  int line = 0;
  int parent = -1;  // link index (parents come first), -1 = the world
  Pose in_parent;   // link frame in the parent link frame at the reference configuration
  // Fixed: welded to the parent (merged into it); Free: no joint (a free body); else the moreau
  // joint type that carries the sources.
  JointType joint = JointType::Fixed;
  std::string joint_name;
  Pose joint_frame;                  // moreau joint frame in the link frame (x = first DoF axis)
  std::vector<SourceJoint> sources;  // source joints in order (values come in this order)
  std::array<DofLimit, 6> limits{};
  std::array<double, 6> damping{};
  std::array<double, 6> armature{};        // rotor inertia (Joint::armature)
  std::array<double, 6> friction{};        // dry friction (Joint::friction)
  std::array<DofActuator, 6> actuators{};  // URDF <limit effort> -> effort_limit
  std::array<double, 6> max_velocity{};    // URDF <limit velocity>: kept, not enforced (0: none)
  double mass = 0.0;                       // kg
  Vec3 com = Vec3::Zero();                 // in the link frame
  Mat3 inertia = Mat3::Zero();             // about the CoM, in link-frame axes
  std::vector<Geometry> geoms;             // poses in the link frame (Geometry::body is ignored)
};

// A joint that closes a loop (MJCF equality, URDF <loop_joint>): a moreau joint between two links.
struct LoopJoint {
  std::string name, element;
  int line = 0;
  JointType type = JointType::Spherical;
  int link_a = -1, link_b = -1;  // -1 = the world
  Pose frame_a;                  // joint frame in link a's frame (world frame if link_a = -1)
  Pose frame_b;                  // joint frame in link b's frame
  bool frame_b_from_reference = false;  // frame_b = where frame_a is at the reference configuration
  std::array<DofLimit, 6> limits{};
  std::array<double, 6> damping{};
};

struct LinkTree {
  std::string name = "model";
  std::string source;  // file, for messages
  std::vector<TreeLink> links;
  std::vector<Geometry> world_geoms;  // poses in the world frame
  std::vector<LoopJoint> loops;
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
  double dt = 0.0;  // 0: moreau's default time step
  // Links jointed to the world collide with the world's geometry (MJCF: MuJoCo's parent-child
  // filter exempts the world body, so a base on slides and a ball, or a hopper's root joints,
  // lands on the floor). URDF keeps the filter: an arm's first link and its static base overlap.
  bool world_joints_collide = false;
  // Link pairs (-1: the world's own geometries) whose geometries never collide with each other
  // (MJCF's <contact><exclude>).
  std::vector<std::pair<int, int>> excluded;
};

// Source values per link (sources' widths concatenated: hinge/slide 1, ball 4 as w x y z, free 7
// as x y z w qx qy qz, MuJoCo's qpos layout). Empty vectors mean the reference configuration.
using LinkValues = std::vector<std::vector<double>>;

struct TreeBuild {
  std::vector<int> body_of_link;   // moreau body index of each link, -1 = static (the world)
  std::vector<Pose> link_in_body;  // link frame in its body's CoM frame (world frame if static)
  std::vector<int> joint_of_link;  // moreau joint index of each link's joint, -1 = none
};

// A Sequence link's joints (its sources; anchors and axes in the link frame = the joint frame).
std::vector<SequenceJoint> link_sequence(const TreeLink& l);

// World poses of all link frames at the given values.
std::vector<Pose> link_world_poses(const LinkTree& t, const LinkValues& values);
// moreau DoF coordinates of a link joint from its source values (as joint_dof_state reports them
// for revolute, prismatic, cylindrical, universal, sequence; the rotation vector for spherical and
// for a sequence's balls).
std::vector<double> link_dof_coordinates(const TreeLink& l, const std::vector<double>& values);

// Builds the Model (merging welded links, folding CoMs into body frames) and the State at values.
// Errors name the link element and line: zero mass of a moving body, non-physical inertia.
Result<Scene> build_tree_scene(const LinkTree& t, const LinkValues& values, TreeBuild* out);

// One warning per joint DoF of the scene's initial state that lies outside its limits, naming the
// joint, its value and its range, and one per joint the initial state does not close (a loop that
// starts open), naming it and its error; each says how fast it is brought back
// (DynamicsSettings::max_limit_correction, max_joint_correction).
std::vector<std::string> initial_state_warnings(const Scene& sc);

// State of the built model at other values (same tree and build).
State tree_state(const LinkTree& t, const TreeBuild& b, const Model& m, const LinkValues& values);

// Convex hull of a mesh file (OBJ, STL) scaled per axis: the collision shape of mesh geometry.
// Errors name the file; the caller adds the element.
Result<std::shared_ptr<const MeshData>> load_mesh_hull(const std::string& path, const Vec3& scale);

// tinyxml2's parse error without its "Error=... Line number=N:" preamble.
std::string xml_error_text(const tinyxml2::XMLDocument& doc);

// Directory part of a path ("" for none), and a path joined to a directory unless absolute.
std::string directory_of(const std::string& path);
std::string join_path(const std::string& dir, const std::string& path);

// Mass properties of a rigid set: adds (m, com, I about com) to an accumulator (parallel axes).
struct MassAccumulator {
  double mass = 0.0;
  Vec3 first = Vec3::Zero();   // sum m c
  Mat3 second = Mat3::Zero();  // sum I_c + m (|c|^2 1 - c c^T)  about the origin
  void add(double m, const Vec3& c, const Mat3& I_c);
  Vec3 com() const { return mass > 0.0 ? Vec3(first / mass) : Vec3::Zero(); }
  Mat3 inertia_about_com() const;
};

}  // namespace moreau
