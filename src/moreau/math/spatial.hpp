#pragma once
// Screw transforms of twists and wrenches between points (report eq. 26).
#include "moreau/math/so3.hpp"

namespace moreau {

// W(r_j, r_i) = [I 0; [r_j - r_i]x I]: shifts a wrench [f; tau] applied at r_j to the point r_i
// (eq. 26b). Its transpose shifts a twist at r_i to the velocity of the point r_j.
inline Mat6 wrench_shift(const Vec3& r_j, const Vec3& r_i) {
  Mat6 W = Mat6::Identity();
  W.block<3, 3>(3, 0) = skew(r_j - r_i);
  return W;
}

// Wrench [f; tau] applied at r_j expressed at r_i: tau_i = tau + (r_j - r_i) x f.
inline Vec6 shift_wrench(const Vec6& w, const Vec3& r_j, const Vec3& r_i) {
  Vec6 out = w;
  out.tail<3>() += (r_j - r_i).cross(w.head<3>());
  return out;
}

// Twist [v; w] given at r_i, re-expressed at r_j: v_j = v_i + w x (r_j - r_i).
inline Vec6 shift_twist(const Vec6& t, const Vec3& r_i, const Vec3& r_j) {
  Vec6 out = t;
  out.head<3>() += t.tail<3>().cross(r_j - r_i);
  return out;
}

// Rotate a twist or a wrench (both halves) by R.
inline Vec6 rotate6(const Mat3& R, const Vec6& x) {
  Vec6 out;
  out.head<3>() = R * x.head<3>();
  out.tail<3>() = R * x.tail<3>();
  return out;
}

}  // namespace moreau
