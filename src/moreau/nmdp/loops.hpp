#pragma once
// The model's loop-closing joints as holonomic constraints c(theta) = 0 inside G (Pan & Hauser
// 2021, eq. 1 on the spanning tree, with Lagrange multipliers):
//   G(theta, w) - C(theta)^T lambda = 0,   c(theta) = 0,   C = dc/dtheta.
// The joints of the spanning tree are coordinates (tree.hpp); each joint left out of it
// contributes its constraint rows, written on its base and follower joint frames A and B
// (columns a_i, b_i; x is the joint's axis, as in moreau's joint frames) at the anchors p_A, p_B:
//   translation  a_i . (p_B - p_A)                  i = 0, 1, 2 (prismatic, cylindrical: 1, 2)
//   rotation     vee(R_A^T R_B - R_B^T R_A) / 2      fixed, prismatic, cartesian
//                a_1 . b_0, a_2 . b_0                revolute, cylindrical (axes aligned)
//                a_0 . b_1                           universal (R_A^T R_B = Rx(q0) Ry(q1))
// C^T lambda is applied as the rows' exact reaction, which is what makes it the transpose of the
// rows' Jacobian: the force sum_i lambda_i a_i at p_B on B and its opposite on A (at the same
// point), and the torque sum_j lambda_j n_j on B and its opposite on A, n_j the gradient of
// rotation row j with respect to B's rotation.
#include <array>
#include <vector>

#include "moreau/nmdp/dynamics.hpp"

namespace moreau::nmdp {

// Constraint rows of a loop-closing joint of type t (translations first, then rotations).
inline int loop_rows(JointType t) {
  switch (t) {
    case JointType::Fixed:
      return 6;
    case JointType::Revolute:
    case JointType::Prismatic:
      return 5;
    case JointType::Cylindrical:
    case JointType::Universal:
      return 4;
    case JointType::Spherical:
    case JointType::Cartesian:
      return 3;
    case JointType::Free:
    case JointType::Sequence:  // refused by Tree::build
      return 0;
  }
  return 0;
}

namespace detail {

// The world frames of joint J's base (A) and follower (B) joint frames at the kinematics k.
template <class T>
void joint_frames(const Kinematics<T>& k, const Joint& J, M3<T>& RA, V3<T>& pA, M3<T>& RB,
                  V3<T>& pB) {
  const M3<T> Fa = J.frame_base.R().cast<T>(), Fb = J.frame_follower.R().cast<T>();
  if (J.base >= 0) {
    RA = k.R[J.base] * Fa;
    pA = k.p[J.base] + k.R[J.base] * J.frame_base.p.cast<T>();
  } else {
    RA = Fa;
    pA = J.frame_base.p.cast<T>();
  }
  RB = k.R[J.follower] * Fb;
  pB = k.p[J.follower] + k.R[J.follower] * J.frame_follower.p.cast<T>();
}

// The translation directions (indices into A's axes) a loop joint of type t constrains.
inline int translation_rows(JointType t, std::array<int, 3>& axes) {
  switch (t) {
    case JointType::Fixed:
    case JointType::Revolute:
    case JointType::Universal:
    case JointType::Spherical:
      axes = {0, 1, 2};
      return 3;
    case JointType::Prismatic:
    case JointType::Cylindrical:
      axes = {1, 2, 0};
      return 2;
    default:
      return 0;
  }
}

// Rotation rows of joint type t: values and their gradients n_j with respect to B's rotation.
template <class T>
int rotation_rows(JointType t, const M3<T>& RA, const M3<T>& RB, T* value, V3<T>* n) {
  const V3<T> a0 = RA.col(0), a1 = RA.col(1), a2 = RA.col(2);
  const V3<T> b0 = RB.col(0), b1 = RB.col(1), b2 = RB.col(2);
  switch (t) {
    case JointType::Fixed:
    case JointType::Prismatic:
    case JointType::Cartesian:
      value[0] = 0.5 * (a1.dot(b2) - a2.dot(b1));
      value[1] = 0.5 * (a2.dot(b0) - a0.dot(b2));
      value[2] = 0.5 * (a0.dot(b1) - a1.dot(b0));
      n[0] = 0.5 * (b2.cross(a1) - b1.cross(a2));
      n[1] = 0.5 * (b0.cross(a2) - b2.cross(a0));
      n[2] = 0.5 * (b1.cross(a0) - b0.cross(a1));
      return 3;
    case JointType::Revolute:
    case JointType::Cylindrical:
      value[0] = a1.dot(b0);
      value[1] = a2.dot(b0);
      n[0] = b0.cross(a1);
      n[1] = b0.cross(a2);
      return 2;
    case JointType::Universal:
      value[0] = a0.dot(b1);
      n[0] = b1.cross(a0);
      return 1;
    default:
      return 0;
  }
}

}  // namespace detail

// c(theta) of the loop joints, all their rows in order (after forward_kinematics at theta), and,
// when f != nullptr, C(theta)^T lambda added to f as body forces (spatial, at the origin:
// [n_O; f]); rows whose active[row] is false carry no force (lambda has one entry per active
// row). One pass: the joint frames serve both.
template <class T>
void loop_terms(const Tree& tree, const Kinematics<T>& k, VX<T>& c,
                const std::vector<bool>* active = nullptr, const T* lambda = nullptr,
                std::vector<V6<T>>* f = nullptr) {
  const Model& m = tree.model();
  c.resize(tree.loop_rows());
  int r = 0, a = 0;
  auto force = [&](int row) { return f != nullptr && (*active)[row]; };
  for (int j : tree.loops()) {
    const Joint& J = m.joints()[j];
    M3<T> RA, RB;
    V3<T> pA, pB;
    detail::joint_frames<T>(k, J, RA, pA, RB, pB);
    std::array<int, 3> axes;
    const int nt = detail::translation_rows(J.type, axes);
    const V3<T> d = pB - pA;
    V3<T> F = V3<T>::Zero(), tau = V3<T>::Zero();  // on B: F at p_B, and a torque
    for (int i = 0; i < nt; ++i, ++r) {
      c[r] = RA.col(axes[i]).dot(d);
      if (force(r)) F += lambda[a++] * RA.col(axes[i]);
    }
    T value[3];
    V3<T> n[3];
    const int nr = detail::rotation_rows<T>(J.type, RA, RB, value, n);
    for (int i = 0; i < nr; ++i, ++r) {
      c[r] = value[i];
      if (force(r)) tau += lambda[a++] * n[i];
    }
    if (f == nullptr) continue;
    V6<T> W;  // the wrench on B; its opposite acts on A
    W.template head<3>() = pB.cross(F) + tau;
    W.template tail<3>() = F;
    (*f)[J.follower] += W;
    if (J.base >= 0) (*f)[J.base] -= W;
  }
}

template <class T>
void loop_residual(const Tree& tree, const Kinematics<T>& k, VX<T>& c) {
  loop_terms<T>(tree, k, c);
}

}  // namespace moreau::nmdp
