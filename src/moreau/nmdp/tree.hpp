#pragma once
// A kinematic tree in generalized coordinates theta built from a moreau Model (maximal
// coordinates), for the NMDP integrators (Pan & Hauser 2021, Sec. III-A, eq. 1).
//
// Every moreau joint becomes a segment: base CoM frame -> joint base frame (frame_base) -> a
// sequence of one-DoF primitives (rotation about or translation along an axis of the moving
// joint frame) -> follower CoM frame (frame_follower^-1). A body that is no joint's follower is
// attached to the world by an implicit free joint. Coordinates per joint type (moreau's DoF order,
// docs/integrators.md):
//   revolute    angle about x                    prismatic  translation along x
//   cylindrical translation along x, angle about x   universal  Rx(q0) Ry(q1)
//   cartesian   translations along x, y, z       fixed      none
//   spherical   R_rel = R0 Rx(q0) Ry(q1) Rz(q2)   free       translation (x, y, z), then as
//   spherical
// Rotations of spherical and free joints use a per-step local chart: R0 is the relative
// rotation at the start of the step and the chart angles are 0 there, so theta is smooth (A5.1)
// and far from the chart's singularity at +-pi/2 (A5.2) for any step that rotates the joint by
// less than pi/2. Revolute, prismatic, cylindrical, universal and cartesian coordinates equal
// moreau's joint values q_j (joint_kinematics.hpp), so actuators act on theta directly.
//
// A model with closed loops gets a spanning tree: a joint whose follower is already the follower
// of an earlier joint closes a loop, and a cycle of base/follower relations that never reaches
// the world is cut at its lowest-numbered body (which then gets the implicit free joint). The
// joints left out are loops(); loops.hpp writes them as constraints c(theta) = 0.
#include <string>
#include <vector>

#include "moreau/model/error.hpp"
#include "moreau/model/model.hpp"
#include "moreau/model/state.hpp"

namespace moreau::nmdp {

// A one-DoF primitive: rotation about, or translation along, a unit axis of the moving frame.
struct Primitive {
  bool revolute = true;
  int axis = 0;  // 0, 1, 2: x, y, z of the moving frame
};

struct Segment {
  int joint = -1;  // moreau joint index; -1: the implicit free joint of a root body
  JointType type = JointType::Free;
  int parent = -1;  // base body, -1 = world
  int body = 0;     // follower body
  Pose pre;         // joint base frame in the parent's CoM frame (world frame for the world)
  Pose post;        // follower CoM frame in the follower joint frame (frame_follower^-1)
  int offset = 0;   // first coordinate of this segment in theta
  int dofs = 0;
  int chart_at = -1;  // primitive index before which the chart rotation R0 applies (-1: none)
  std::vector<Primitive> prims;
};

class Tree {
 public:
  // Fails (naming the model and the joint) on joint sequences.
  static Result<Tree> build(const Model& model);

  const Model& model() const { return *model_; }
  int dofs() const { return n_; }
  const std::vector<Segment>& segments() const { return segments_; }
  // DoF k: its parent DoF (the previous link toward the root), -1 for the world.
  const std::vector<int>& parent_dof() const { return parent_dof_; }
  // Body b moves with the link of DoF link_of_body()[b] (-1: welded to the world).
  const std::vector<int>& link_of_body() const { return link_of_body_; }
  // Segment index of body b (the segment whose follower it is).
  int segment_of_body(int b) const { return segment_of_body_[b]; }
  // The joints that close loops (not in the tree), in index order, and their rows in total.
  const std::vector<int>& loops() const { return loops_; }
  int loop_rows() const { return loop_rows_; }
  // Chart rotations R0 (one per segment; identity where unused).
  const std::vector<Quat>& charts() const { return charts_; }

  // Resets the charts to the state's relative rotations and returns theta (chart angles 0) and
  // theta_dot, the mass-weighted least-squares fit H theta_dot = J^T M u (exact when the state
  // satisfies the joints).
  void from_state(const State& s, VecX& theta, VecX& theta_dot);
  // Body poses and twists of (theta, theta_dot) in the current charts; s.t is left unchanged.
  void to_state(const VecX& theta, const VecX& theta_dot, State& s) const;

 private:
  const Model* model_ = nullptr;
  int n_ = 0, loop_rows_ = 0;
  std::vector<int> loops_;
  std::vector<Segment> segments_;  // topological order: a parent's segment comes first
  std::vector<int> parent_dof_, link_of_body_, segment_of_body_;
  std::vector<Quat> charts_;
};

}  // namespace moreau::nmdp
