#pragma once
// Kinematics of a joint sequence (JointType::Sequence, docs/dynamics.md "Joint sequences"): the
// follower joint frame in the base joint frame is the product of the joints' motions,
//   G(q) = M_1(q_1) M_2(q_2) ... M_n(q_n),
// M_k a rotation by q_k about joint k's line (hinge), a translation q_k along its axis (slide) or
// the rotation of the unit quaternion q_k about its anchor (ball), each in the frame the earlier
// joints have moved (MuJoCo's mj_kinematics order). Coordinates are offsets from the reference
// configuration (MuJoCo's qpos - qpos0), a ball's four as w x y z; velocities are the rates of the
// hinge and slide coordinates and a ball's angular velocity in its moved frame (MuJoCo's qvel).
#include <optional>
#include <string>
#include <vector>

#include "moreau/model/error.hpp"
#include "moreau/model/joint.hpp"

namespace moreau {

inline constexpr int kMaxSequenceWidth = 8;  // coordinates: up to 6 DoFs, two balls at most
using SequenceCoords = std::array<double, kMaxSequenceWidth>;
// The motion subspace: column k is the follower frame's body twist [v; w] (its own axes) per
// unit rate of DoF k.
using MotionSubspace = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;

// Coordinates of the reference configuration (zeros, balls at the identity quaternion).
SequenceCoords sequence_reference(const std::vector<SequenceJoint>& seq);
// G(q), and the motion subspace at q when S is not null.
Pose sequence_pose(const std::vector<SequenceJoint>& seq, const SequenceCoords& q,
                   MotionSubspace* S = nullptr);
// q (+) dq: coordinates advanced by the DoF increments dq (balls: q Exp(dw), w in the moved frame).
void sequence_advance(const std::vector<SequenceJoint>& seq, const double* dq, SequenceCoords& q);
// DoF values: hinge and slide coordinates, a ball's rotation vector.
void sequence_dof_values(const std::vector<SequenceJoint>& seq, const SequenceCoords& q,
                         double* out);

// A sequence moreau can carry: at least one joint, at most 6 DoFs, unit axes, and a motion
// subspace of full rank at the reference configuration. The error names `element` and the
// joints (e.g. two hinges about the same line).
std::optional<Error> validate_sequence(const std::vector<SequenceJoint>& seq,
                                       const std::string& element);

}  // namespace moreau
