// Rows of a joint sequence (docs/dynamics.md, "Joint sequences"). With G the follower joint frame
// in the base joint frame and V = [R_F^T (v_F(x_F) - v_B(x_F)); R_F^T (w_F - w_B)] its body twist,
// the coordinates q are recovered from G by Gauss-Newton on the error e(q) = (G(q)^-1 G) (the
// nearest reachable pose: S^T e = 0 at the solution), warm-started from the last evaluation. The
// DoF rows are qdot = S^+ V, the constraint rows C^T V with C an orthonormal basis of the
// complement of S (C^T S = 0), transported continuously from the last evaluation, and the
// constraint values C^T e (zero on the joint's manifold, with derivative C^T V there).
#include <algorithm>
#include <cmath>

#include <Eigen/QR>

#include "moreau/dynamics/joint_kinematics.hpp"
#include "moreau/math/small_cholesky.hpp"
#include "moreau/math/so3.hpp"

namespace moreau {

namespace {

constexpr int kMaxIterations = 30;
constexpr double kStepTol = 1e-13;
constexpr double kLinearTail = 1e-7;  // a step below this is the last (see sequence_axes)

// e = (G(q)^-1 G_act) as [translation; rotation vector], in G(q)'s axes.
Vec6 pose_error(const Pose& Gq, const Pose& G) {
  Vec6 e;
  const Quat qi = Gq.q.conjugate();
  e.head<3>() = rotate(qi, G.p - Gq.p);
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

// N = S^T S (d x d, column-major) for S 6 x d.
void normal_matrix(const MotionSubspace& S, double* N) {
  const int d = static_cast<int>(S.cols());
  for (int c = 0; c < d; ++c)
    for (int r = 0; r < d; ++r) N[r + c * d] = S.col(r).dot(S.col(c));
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
  double N[36], dq[6];  // S^T S's Cholesky factor at the last pose (the normal equations), a step
  bool factored = false;
  int it = 0;
  for (;; ++it) {
    Gq = sequence_pose(seq, out.seq_q, &S);
    e = pose_error(Gq, G);
    normal_matrix(S, N);
    factored = cholesky_in_place(N, d);
    if (it == kMaxIterations) break;
    if (factored) {
      for (int k = 0; k < d; ++k) dq[k] = S.col(k).dot(e);
      cholesky_solve(N, d, dq);
    } else {  // S rank-deficient (a singular configuration of the sequence): least squares
      Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>>(dq, d) =
          S.completeOrthogonalDecomposition().solve(e);
    }
    double step = 0.0;
    for (int k = 0; k < d; ++k) step = std::max(step, std::abs(dq[k]));
    if (!(step > kStepTol)) break;
    if (factored && step < kLinearTail) {
      // The last step: on the manifold the next would be O(step^2), off it by |e| (a step's
      // drift, 1e-5) O(|e| step), below kStepTol either way. q (the DoF values) moves; S, S^+, C
      // and the constraint values C^T e stay those of the last pose (C^T e changes by O(step^2)
      // along the step, C^T S = 0): one pose evaluation fewer per call.
      sequence_advance(seq, dq, out.seq_q);
      ++it;
      break;
    }
    if (step > 0.5)  // far from the solution (a cold start): damped steps
      for (int k = 0; k < d; ++k) dq[k] *= 0.5 / step;
    sequence_advance(seq, dq, out.seq_q);
  }
  out.seq_iterations = it;

  // Constraint basis: the last basis projected onto the complement of S and re-orthonormalized
  // (C (C^T C)^-1/2 by Cholesky), so that the rows turn continuously with the configuration.
  Eigen::Matrix<double, Eigen::Dynamic, 6, 0, 6, 6> Sp(d, 6);  // S^+ = (S^T S)^-1 S^T
  if (factored) {
    for (int c = 0; c < 6; ++c) {
      double col[6];
      for (int k = 0; k < d; ++k) col[k] = S(c, k);
      cholesky_solve(N, d, col);
      for (int k = 0; k < d; ++k) Sp(k, c) = col[k];
    }
  } else {  // S rank-deficient (a singular configuration of the sequence): least squares
    Sp = S.completeOrthogonalDecomposition().pseudoInverse();
  }
  bool fresh = !warm || m == 0;
  if (!fresh) {
    Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6> X = out.seq_C.leftCols(m);
    X -= S * (Sp * X);
    double XtX[36];
    for (int c = 0; c < m; ++c)
      for (int r = 0; r < m; ++r) XtX[r + c * m] = X.col(r).dot(X.col(c));
    bool ok = cholesky_in_place(XtX, m);  // X^T X = L L^T
    for (int k = 0; ok && k < m; ++k) ok = XtX[k + k * m] > 0.5;
    if (ok) {
      // C = X L^-T: each row c of C solves L c^T = x^T (row of X).
      for (int r = 0; r < 6; ++r) {
        double row[6];
        for (int k = 0; k < m; ++k) {
          double t = X(r, k);
          for (int p = 0; p < k; ++p) t -= XtX[k + p * m] * row[p];
          row[k] = t / XtX[k + k * m];
        }
        for (int k = 0; k < m; ++k) out.seq_C(r, k) = row[k];
      }
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
