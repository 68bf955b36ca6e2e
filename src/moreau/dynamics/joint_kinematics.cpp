#include "moreau/dynamics/joint_kinematics.hpp"

#include <cmath>

#include "moreau/math/so3.hpp"

namespace moreau {

void joint_axis_sets(JointType t, std::array<int, 6>& c, int& m, std::array<int, 6>& f, int& d) {
  // Axis numbering: 0-2 translation along x, y, z; 3-5 rotation about x, y, z (joint frame).
  auto set = [](std::array<int, 6>& a, int& n, std::initializer_list<int> l) {
    n = 0;
    for (int x : l) a[n++] = x;
  };
  switch (t) {
    case JointType::Free:
      set(c, m, {}), set(f, d, {0, 1, 2, 3, 4, 5});
      break;
    case JointType::Revolute:
      set(c, m, {0, 1, 2, 4, 5}), set(f, d, {3});
      break;
    case JointType::Prismatic:
      set(c, m, {1, 2, 3, 4, 5}), set(f, d, {0});
      break;
    case JointType::Cylindrical:
      set(c, m, {1, 2, 4, 5}), set(f, d, {0, 3});
      break;
    case JointType::Universal:
      set(c, m, {0, 1, 2, 5}), set(f, d, {3, 4});
      break;
    case JointType::Spherical:
      set(c, m, {0, 1, 2}), set(f, d, {3, 4, 5});
      break;
    case JointType::Cartesian:
      set(c, m, {3, 4, 5}), set(f, d, {0, 1, 2});
      break;
    case JointType::Fixed:
      set(c, m, {0, 1, 2, 3, 4, 5}), set(f, d, {});
      break;
    case JointType::Sequence:  // set per joint by sequence_axes
      set(c, m, {}), set(f, d, {});
      break;
  }
}

Pose joint_base_frame(const Joint& j, const State& s) {
  return j.base >= 0 ? s.pose(j.base) * j.frame_base : j.frame_base;
}

Pose joint_follower_frame(const Joint& j, const State& s) {
  return s.pose(j.follower) * j.frame_follower;
}

void joint_axes(const Joint& j, const State& s, JointAxes& out) {
  const Pose B = joint_base_frame(j, s);
  const Pose F = joint_follower_frame(j, s);
  if (j.type == JointType::Sequence) return sequence_axes(j, B, F, s, out);
  joint_axis_sets(j.type, out.constrained, out.m, out.dof, out.d);
  const Mat3 Rb = B.R(), Rf = F.R();
  const Vec3 rF = s.r[j.follower];
  const Vec3 rB = j.base >= 0 ? s.r[j.base] : Vec3::Zero();
  const Vec3 xf = F.p;
  const Vec3 d = F.p - B.p;  // anchor separation
  out.anchor = xf;
  out.Jf.setZero();
  out.Jb.setZero();

  // Translational axes k: f_k = a_k . (x_F - x_B), a_k = R_B e_k. The exact derivative uses the
  // follower anchor x_F as r_j for both bodies (eq. 63 with r_j = x_F).
  for (int k = 0; k < 3; ++k) {
    const Vec3 a = Rb.col(k);
    out.value[k] = a.dot(d);
    out.Jf.row(k).head<3>() = a;
    out.Jf.row(k).tail<3>() = (xf - rF).cross(a);
    out.Jb.row(k).head<3>() = -a;
    out.Jb.row(k).tail<3>() = -(xf - rB).cross(a);
  }

  // Rotational axes: rows e_k^B . (w_F - w_B) by default.
  for (int k = 0; k < 3; ++k) {
    out.Jf.row(3 + k).tail<3>() = Rb.col(k);
    out.Jb.row(3 + k).tail<3>() = -Rb.col(k);
  }
  const Mat3 Rrel = Rb.transpose() * Rf;  // follower joint frame in base joint frame
  switch (j.type) {
    case JointType::Revolute:
    case JointType::Cylindrical: {
      // Axis alignment: f = ((x_B x x_F) . y_B, (x_B x x_F) . z_B); DoF angle about x_B.
      const Vec3 c = Rb.col(0).cross(Rf.col(0));
      out.value[3] = std::atan2(Rrel(2, 1), Rrel(1, 1));
      out.value[4] = c.dot(Rb.col(1));
      out.value[5] = c.dot(Rb.col(2));
      break;
    }
    case JointType::Universal: {
      // R_rel = Rx(q1) Ry(q2): DoF rates along x_B and y_F; constraint f = x_B . y_F.
      const Vec3 xB = Rb.col(0), yF = Rf.col(1);
      const Vec3 n = xB.cross(yF);
      out.value[3] = std::atan2(Rrel(2, 1), Rrel(1, 1));
      out.value[4] = std::atan2(Rrel(0, 2), Rrel(0, 0));
      out.value[5] = xB.dot(yF);
      out.Jf.row(4).tail<3>() = yF;
      out.Jb.row(4).tail<3>() = -yF;
      out.Jf.row(5).tail<3>() = -n;  // d/dt (x_B . y_F) = -(x_B x y_F) . (w_F - w_B)
      out.Jb.row(5).tail<3>() = n;
      break;
    }
    default: {
      // Fixed, prismatic, cartesian (constrained), spherical, free (DoFs): rotation vector.
      out.value.tail<3>() = quat_log(Quat(Rrel));
      break;
    }
  }
}

}  // namespace moreau
