#pragma once
// Per-joint kinematics: the six joint axes (3 translations, 3 rotations of the base joint
// frame), each with its Jacobian rows for follower and base (eq. 63-64) and its value: the
// constraint residual f_j (constrained axes, eq. 21) or the DoF coordinate q_j (free axes).
#include <array>

#include "moreau/model/joint_sequence.hpp"
#include "moreau/model/state.hpp"

namespace moreau {

struct JointAxes {
  // Row k = axis k: velocity of axis k = Jf.row(k) u_follower + Jb.row(k) u_base.
  Eigen::Matrix<double, 6, 6, Eigen::RowMajor> Jf, Jb;
  Vec6 value;                        // constrained axis: f (m or rad); DoF axis: q (m or rad)
  std::array<int, 6> constrained{};  // axes constrained, first m entries
  std::array<int, 6> dof{};          // axes free (DoF order), first d entries
  int m = 0, d = 0;
  Vec3 anchor = Vec3::Zero();  // follower anchor in world (the joint position r_j)
  // Joint sequences (docs/dynamics.md, "Joint sequences"): the coordinates recovered from the
  // relative pose and the basis of the constraint rows, kept as the warm start of the next
  // evaluation for the same joint (seq_joint).
  const Joint* seq_joint = nullptr;
  SequenceCoords seq_q{};
  Eigen::Matrix<double, 6, 6> seq_C;  // first m columns: orthonormal complement of S
  int seq_iterations = 0;             // Gauss-Newton iterations of the last evaluation
};

// Which axes a type constrains and which it leaves free (selection S_c / S_a of eq. 23).
void joint_axis_sets(JointType t, std::array<int, 6>& constrained, int& m, std::array<int, 6>& dof,
                     int& d);

// Fills `out` for joint j at state s. Exact time derivative for translational rows; rotational
// rows are exact on the constraint manifold (see docs/dynamics.md).
void joint_axes(const Joint& j, const State& s, JointAxes& out);

// joint_axes for JointType::Sequence (dynamics/joint_sequence_axes.cpp): B, F the joint frames.
void sequence_axes(const Joint& j, const Pose& B, const Pose& F, const State& s, JointAxes& out);

// World pose of a joint's base frame and follower frame.
Pose joint_base_frame(const Joint& j, const State& s);
Pose joint_follower_frame(const Joint& j, const State& s);

}  // namespace moreau
