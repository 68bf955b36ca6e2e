#include "moreau/model/joint_sequence.hpp"

#include <cmath>

#include <Eigen/SVD>

#include "moreau/math/so3.hpp"

namespace moreau {

SequenceCoords sequence_reference(const std::vector<SequenceJoint>& seq) {
  SequenceCoords q{};
  int o = 0;
  for (const SequenceJoint& s : seq) {
    if (s.kind == SequenceKind::Ball) q[o] = 1.0;
    o += s.width();
  }
  return q;
}

Pose sequence_pose(const std::vector<SequenceJoint>& seq, const SequenceCoords& q,
                   MotionSubspace* S) {
  // Columns first in the base frame, as (w, point on the line) for rotations and (0, direction)
  // for translations, then moved to the follower frame once G is known.
  struct Column {
    Vec3 w, p;
    bool rot;
  };
  std::array<Column, 6> col;
  int nc = 0, o = 0;
  Pose P;  // M_1 ... M_k
  for (const SequenceJoint& s : seq) {
    const Vec3 anchor = P * s.anchor;  // fixed by this joint's own motion
    switch (s.kind) {
      case SequenceKind::Hinge: {
        col[nc++] = {rotate(P.q, s.axis), anchor, true};
        const Quat r(Eigen::AngleAxisd(q[o], s.axis));
        P = P * Pose{s.anchor - rotate(r, s.anchor), r};
        break;
      }
      case SequenceKind::Slide:
        col[nc++] = {rotate(P.q, s.axis), Vec3::Zero(), false};
        P.p += rotate(P.q, q[o] * s.axis);
        break;
      case SequenceKind::Ball: {
        const Quat r = Quat(q[o], q[o + 1], q[o + 2], q[o + 3]).normalized();
        P = P * Pose{s.anchor - r * s.anchor, r};
        const Mat3 R = P.R();  // angular velocity in the moved frame
        for (int i = 0; i < 3; ++i) col[nc++] = {R.col(i), anchor, true};
        break;
      }
    }
    o += s.width();
  }
  if (S) {
    S->resize(6, nc);
    const Mat3 RT = P.R().transpose();
    for (int k = 0; k < nc; ++k) {
      const Column& c = col[k];
      if (c.rot) {
        S->col(k).head<3>() = RT * c.w.cross(P.p - c.p);
        S->col(k).tail<3>() = RT * c.w;
      } else {
        S->col(k).head<3>() = RT * c.w;
        S->col(k).tail<3>().setZero();
      }
    }
  }
  return P;
}

void sequence_advance(const std::vector<SequenceJoint>& seq, const double* dq, SequenceCoords& q) {
  int o = 0, k = 0;
  for (const SequenceJoint& s : seq) {
    if (s.kind == SequenceKind::Ball) {
      Quat r(q[o], q[o + 1], q[o + 2], q[o + 3]);
      r = (r * quat_exp(Vec3(dq[k], dq[k + 1], dq[k + 2]))).normalized();
      q[o] = r.w(), q[o + 1] = r.x(), q[o + 2] = r.y(), q[o + 3] = r.z();
    } else {
      q[o] += dq[k];
    }
    o += s.width();
    k += s.dofs();
  }
}

void sequence_dof_values(const std::vector<SequenceJoint>& seq, const SequenceCoords& q,
                         double* out) {
  int o = 0, k = 0;
  for (const SequenceJoint& s : seq) {
    if (s.kind == SequenceKind::Ball) {
      const Vec3 w = quat_log(Quat(q[o], q[o + 1], q[o + 2], q[o + 3]).normalized());
      out[k] = w.x(), out[k + 1] = w.y(), out[k + 2] = w.z();
    } else {
      out[k] = q[o];
    }
    o += s.width();
    k += s.dofs();
  }
}

std::optional<Error> validate_sequence(const std::vector<SequenceJoint>& seq,
                                       const std::string& element) {
  std::string names;
  int d = 0;
  for (const SequenceJoint& s : seq) {
    names += (names.empty() ? "" : ", ") + s.name;
    d += s.dofs();
    if (s.kind != SequenceKind::Ball && std::abs(s.axis.norm() - 1.0) > 1e-9)
      return Error{"", 0, element + " joint '" + s.name + "' axis", "a unit vector",
                   "norm " + error_number(s.axis.norm())};
    if (!s.anchor.allFinite())
      return Error{"", 0, element + " joint '" + s.name + "' anchor", "finite numbers",
                   "non-finite"};
  }
  if (seq.empty()) return Error{"", 0, element + " sequence", "at least one joint", "none"};
  if (d > 6)
    return Error{"", 0, element + " joints (" + names + ")", "at most 6 degrees of freedom",
                 std::to_string(d)};
  MotionSubspace S;
  sequence_pose(seq, sequence_reference(seq), &S);
  // Singular values relative to a unit length scale (hinge columns carry their lever arms).
  const Eigen::JacobiSVD<MotionSubspace> svd(S);
  const double smin = svd.singularValues()[d - 1];
  if (!(smin > 1e-6))
    return Error{"", 0, element + " joints (" + names + ")",
                 "independent motions at the reference configuration (a non-singular joint "
                 "sequence)",
                 "a singular sequence (smallest singular value of its motion subspace " +
                     error_number(smin) + "; e.g. two hinges about one line)"};
  return std::nullopt;
}

}  // namespace moreau
