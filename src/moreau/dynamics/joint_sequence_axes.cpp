// Rows of a joint sequence (docs/dynamics.md, "Joint sequences"). With G the follower joint frame
// in the base joint frame and V = [R_F^T (v_F(x_F) - v_B(x_F)); R_F^T (w_F - w_B)] its body twist,
// the coordinates q are recovered from G by Gauss-Newton on the error e(q) = (G(q)^-1 G) (the
// nearest reachable pose: S^T e = 0 at the solution), warm-started from the last evaluation. The
// DoF rows are qdot = S^+ V, the constraint rows C^T V with C an orthonormal basis of the
// complement of S (C^T S = 0), transported continuously from the last evaluation, and the
// constraint values C^T e (zero on the joint's manifold, with derivative C^T V there).
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "moreau/dynamics/joint_kinematics.hpp"
#include "moreau/math/so3.hpp"

namespace moreau {

namespace {

constexpr int kMaxIterations = 30;
constexpr double kStepTol = 1e-13;

// e = (G(q)^-1 G_act) as [translation; rotation vector], in G(q)'s axes.
Vec6 pose_error(const Pose& Gq, const Pose& G) {
  Vec6 e;
  const Quat qi = Gq.q.conjugate();
  e.head<3>() = qi * (G.p - Gq.p);
  e.tail<3>() = quat_log((qi * G.q).normalized());
  return e;
}

// An orthonormal basis of the complement of span(S): the last columns of a full QR of S.
void complement_from_qr(const MotionSubspace& S, Eigen::Matrix<double, 6, 6>& C) {
  const int d = static_cast<int>(S.cols()), m = 6 - d;
  const Eigen::HouseholderQR<MotionSubspace> qr(S);
  const Mat6 Q = qr.householderQ();
  C.leftCols(m) = Q.rightCols(m);
}

}  // namespace

void sequence_axes(const Joint& j, const Pose& B, const Pose& F, const State& s, JointAxes& out) {
  const std::vector<SequenceJoint>& seq = j.sequence;
  const bool warm = out.seq_joint == &j;
  if (!warm) out.seq_q = sequence_reference(seq);
  const Pose G = B.inverse() * F;
  MotionSubspace S;
  Pose Gq;
  Vec6 e;
  const int d = j.dofs(), m = 6 - d;
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1> dq(d);
  // S^T S's factor at the last pose: the coordinates' normal equations, then S^+ below.
  Eigen::LDLT<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>> ne(d);
  int it = 0;
  for (;; ++it) {
    Gq = sequence_pose(seq, out.seq_q, &S);
    e = pose_error(Gq, G);
    ne.compute(S.transpose() * S);
    if (it == kMaxIterations) break;
    dq = ne.solve(S.transpose() * e);
    const double step = dq.lpNorm<Eigen::Infinity>();
    if (!(step > kStepTol)) break;
    if (step > 0.5) dq *= 0.5 / step;  // far from the solution (a cold start): damped steps
    sequence_advance(seq, dq.data(), out.seq_q);
  }
  out.seq_iterations = it;

  // Constraint basis: the last basis projected onto the complement of S and re-orthonormalized
  // (C (C^T C)^-1/2 by Cholesky), so that the rows turn continuously with the configuration.
  const Eigen::Matrix<double, Eigen::Dynamic, 6, 0, 6, 6> Sp = ne.solve(S.transpose());  // S^+
  bool fresh = !warm || m == 0;
  if (!fresh) {
    Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6> X = out.seq_C.leftCols(m);
    X -= S * (Sp * X);
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6> XtX = X.transpose() * X;
    const Eigen::LLT<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>> llt(XtX);
    if (llt.info() == Eigen::Success && llt.matrixLLT().diagonal().minCoeff() > 0.5) {
      out.seq_C.leftCols(m) = llt.matrixU().solve<Eigen::OnTheRight>(X);
    } else {
      fresh = true;
    }
  }
  if (fresh && m > 0) complement_from_qr(S, out.seq_C);
  out.seq_joint = &j;

  // Rows on V, then on the world twists: a row (a_v, a_w) in F's axes acts on the follower as
  // [R_F a_v; (x_F - r_F) x R_F a_v + R_F a_w] and on the base with the opposite sign, x_F - r_B.
  out.m = m;
  out.d = d;
  for (int k = 0; k < 6; ++k) (k < d ? out.dof[k] : out.constrained[k - d]) = k;
  const Mat3 Rf = F.R();
  const Vec3 xf = F.p, rF = s.r[j.follower];
  const Vec3 rB = j.base >= 0 ? s.r[j.base] : Vec3::Zero();
  out.anchor = xf;
  for (int k = 0; k < 6; ++k) {
    const Vec6 row = k < d ? Vec6(Sp.row(k).transpose()) : Vec6(out.seq_C.col(k - d));
    const Vec3 a = Rf * row.head<3>(), w = Rf * row.tail<3>();
    const Vec3 tf = (xf - rF).cross(a) + w, tb = (xf - rB).cross(a) + w;
    out.Jf.row(k) << a.transpose(), tf.transpose();
    out.Jb.row(k) << -a.transpose(), -tb.transpose();
  }
  sequence_dof_values(seq, out.seq_q, out.value.data());
  for (int r = 0; r < m; ++r) out.value[d + r] = out.seq_C.col(r).dot(e);
}

}  // namespace moreau
