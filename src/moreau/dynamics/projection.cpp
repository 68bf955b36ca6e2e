#include "moreau/dynamics/projection.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>

#include "moreau/math/so3.hpp"

namespace moreau {

namespace {
int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}
}  // namespace

PositionProjector::PositionProjector(const Model& model) : model_(&model) {
  const int nb = model.num_bodies(), nj = model.num_joints();
  rows_.resize(nj);
  incidence_.resize(nb);
  minv_.resize(nb);
  dq_.resize(nb);
  axes_.resize(nj);
  // Islands: bodies connected by joints that have position errors (rows or limits).
  std::vector<int> parent(nb), cap(nj, 0), island_of_root(nb, -1);
  std::iota(parent.begin(), parent.end(), 0);
  for (int jn = 0; jn < nj; ++jn) {
    const Joint& j = model.joints()[jn];
    cap[jn] = j.rows();
    for (int k = 0; k < j.dofs(); ++k) cap[jn] += j.limits[k].enabled();
    if (cap[jn] == 0) continue;
    if (j.base >= 0) parent[find_root(parent, j.follower)] = find_root(parent, j.base);
  }
  for (int jn = 0; jn < nj; ++jn) {
    if (cap[jn] == 0) continue;
    const Joint& j = model.joints()[jn];
    const int root = find_root(parent, j.follower);
    if (island_of_root[root] < 0) {
      island_of_root[root] = static_cast<int>(islands_.size());
      islands_.emplace_back();
    }
    Island& isl = islands_[island_of_root[root]];
    rows_[jn].island = island_of_root[root];
    isl.joints.push_back(jn);
    isl.capacity += cap[jn];
    incidence_[j.follower].push_back({jn, 0});
    if (j.base >= 0) incidence_[j.base].push_back({jn, 1});
  }
  for (Island& isl : islands_) {
    // One block per joint (its capacity), coupled to the joints sharing a body.
    std::vector<int> sizes;
    BlockCholesky::Pairs pairs;
    for (int jn : isl.joints) {
      JointRows& R = rows_[jn];
      R.local = static_cast<int>(sizes.size());
      R.capacity = cap[jn];
      sizes.push_back(cap[jn]);
    }
    int offset = 0;
    for (int jn : isl.joints) {
      rows_[jn].offset = offset;
      offset += cap[jn];
    }
    for (int jn : isl.joints) {
      const Joint& j = model.joints()[jn];
      for (int b : {j.follower, j.base}) {
        if (b < 0) continue;
        for (const auto& [jm, t] : incidence_[b])
          if (jm != jn) pairs.push_back({rows_[jn].local, rows_[jm].local});
      }
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    isl.chol.analyze(sizes, pairs);
    isl.rhs.resize(isl.capacity);
    isl.x.resize(isl.capacity);
    isl.res.resize(isl.capacity);
    isl.scratch.resize(isl.capacity);
  }
  f_.resize(nb);
  done_.resize(nb);
}

// Fills every joint's rows and errors at s; returns max |phi|. choose_limits: pick the violated
// limits (kept as equalities for the whole projection, so that the iteration sees one function).
double PositionProjector::evaluate(const State& s, bool choose_limits) {
  double worst = 0.0;
  for (int jn = 0; jn < model_->num_joints(); ++jn) {
    JointRows& R = rows_[jn];
    const Joint& j = model_->joints()[jn];
    JointAxes& ax = axes_[jn];  // per joint: a joint sequence's warm start
    joint_axes(j, s, ax);       // every joint's, for axes_at()
    if (R.island < 0) continue;
    R.n = 0;
    for (int r = 0; r < ax.m; ++r, ++R.n) {
      const int axis = ax.constrained[r];
      R.J[0].row(R.n) = ax.Jf.row(axis);
      R.J[1].row(R.n) = ax.Jb.row(axis);
      const double f = ax.value[axis];
      if (choose_limits)
        R.joint_target[r] =
            f - std::clamp(f, -max_joint_correction_, max_joint_correction_);  // 0 when small
      R.phi[R.n] = f - R.joint_target[r];
    }
    if (choose_limits) {
      R.limits = 0;
      for (int k = 0; k < ax.d; ++k) {
        const double q = ax.value[ax.dof[k]];
        const DofLimit& lim = j.limits[k];
        const double sign = q < lim.lower ? 1.0 : q > lim.upper ? -1.0 : 0.0;
        if (sign == 0.0) continue;
        const double g = sign * (q - (sign > 0.0 ? lim.lower : lim.upper));  // < 0
        R.dof[R.limits] = k;
        R.sign[R.limits] = sign;
        R.target[R.limits] = std::min(0.0, g + max_limit_correction_);
        ++R.limits;
      }
    }
    for (int l = 0; l < R.limits; ++l, ++R.n) {
      const int k = R.dof[l], axis = ax.dof[k];
      const double sign = R.sign[l];
      const double bound = sign > 0.0 ? j.limits[k].lower : j.limits[k].upper;
      R.J[0].row(R.n) = sign * ax.Jf.row(axis);  // g = sign (q - bound), as the limit rows
      R.J[1].row(R.n) = sign * ax.Jb.row(axis);  // of the builder (eq. 28)
      R.phi[R.n] = sign * (ax.value[axis] - bound) - R.target[l];
    }
    if (R.n > 0) worst = std::max(worst, R.phi.head(R.n).cwiseAbs().maxCoeff());
  }
  r_eval_ = s.r;  // same sizes after the first call: no allocation
  q_eval_ = s.q;
  evaluated_ = true;
  return worst;
}

void PositionProjector::apply_delassus(const Island& isl, const VecX& x, VecX& y) {
  const Model& m = *model_;
  for (int jn : isl.joints) {  // f_b = sum J^T x over the rows acting on body b
    const Joint& j = m.joints()[jn];
    f_[j.follower].setZero();
    done_[j.follower] = 0;
    if (j.base >= 0) {
      f_[j.base].setZero();
      done_[j.base] = 0;
    }
  }
  for (int jn : isl.joints) {
    const JointRows& R = rows_[jn];
    if (R.n == 0) continue;
    const Joint& j = m.joints()[jn];
    const auto xi = x.segment(R.offset, R.n);
    f_[j.follower].noalias() += R.J[0].topRows(R.n).transpose() * xi;
    if (j.base >= 0) f_[j.base].noalias() += R.J[1].topRows(R.n).transpose() * xi;
  }
  for (int jn : isl.joints) {  // each body once: f_ becomes M^-1 f_ where still unmarked
    const Joint& j = m.joints()[jn];
    for (int b : {j.follower, j.base})
      if (b >= 0 && !done_[b]) {
        f_[b] = (minv_[b] * f_[b]).eval();
        done_[b] = 1;
      }
  }
  for (int jn : isl.joints) {
    const JointRows& R = rows_[jn];
    y.segment(R.offset, R.capacity).setZero();
    if (R.n == 0) continue;
    const Joint& j = m.joints()[jn];
    auto yi = y.segment(R.offset, R.n);
    yi.noalias() = R.J[0].topRows(R.n) * f_[j.follower];
    if (j.base >= 0) yi.noalias() += R.J[1].topRows(R.n) * f_[j.base];
  }
}

// One Gauss-Newton correction dq = -M^-1 J^T (J M^-1 J^T)^-1 phi, per island, then the
// retraction r += dr, q = Exp(dtheta) q (the position update of eq. 10b with dt u = dq). chord:
// the last correction's M^-1 and factor of J M^-1 J^T with the new phi and J (a simplified Newton
// step: near the manifold J moves by the size of the last correction, so the step contracts by
// that factor, 1e-5 for a step's drift, without assembling and factoring again).
void PositionProjector::correct(State& s, bool chord) {
  const Model& m = *model_;
  for (int i = 0; i < m.num_bodies(); ++i) {
    dq_[i].setZero();
    if (incidence_[i].empty() || chord) continue;
    const Body& b = m.bodies()[i];
    const Mat3 R = s.q[i].toRotationMatrix();
    minv_[i].setZero();
    minv_[i].topLeftCorner<3, 3>() = Mat3::Identity() / b.mass;
    minv_[i].bottomRightCorner<3, 3>() = R * m.inertia_inverse(i) * R.transpose();
  }
  // The rotors' inertia joins the metric (docs/dynamics.md, "Position projection"): a g g^T on
  // the follower per DoF with armature a, g the DoF's follower row, so that a correction turns a
  // geared joint as little as the motion would; M^-1 by Sherman-Morrison, one DoF at a time.
  if (!chord)
    for (int jn = 0; jn < m.num_joints(); ++jn) {
      const Joint& j = m.joints()[jn];
      if (incidence_[j.follower].empty()) continue;
      const JointAxes& ax = axes_[jn];
      Mat6& Minv = minv_[j.follower];
      for (int k = 0; k < ax.d; ++k) {
        if (!(j.armature[k] > 0.0)) continue;
        const Vec6 h = Minv * ax.Jf.row(ax.dof[k]).transpose();
        const double gh = ax.Jf.row(ax.dof[k]).dot(h);
        Minv.noalias() -= (j.armature[k] / (1.0 + j.armature[k] * gh)) * h * h.transpose();
      }
    }
  Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor, 6, 6> W;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6> Aij;
  for (Island& isl : islands_) {
    int n = 0;
    for (int jn : isl.joints) n += rows_[jn].n;
    if (n == 0) continue;
    if (chord) {
      if (!isl.factored) continue;
      isl.rhs.setZero();
      for (int jn : isl.joints) {
        const JointRows& Ri = rows_[jn];
        isl.rhs.segment(Ri.offset, Ri.n) = Ri.phi.head(Ri.n);
      }
      isl.chol.solve(isl.rhs.data(), isl.scratch.data());
      apply_correction(isl);
      continue;
    }
    // The active rows of each joint block (the rest of its capacity gets a unit diagonal and a
    // zero right-hand side: zero multipliers).
    BlockCholesky& chol = isl.chol;
    chol.zero();
    isl.rhs.setZero();
    for (int jn : isl.joints) {
      const JointRows& Ri = rows_[jn];
      if (Ri.n == 0) continue;
      isl.rhs.segment(Ri.offset, Ri.n) = Ri.phi.head(Ri.n);
      const Joint& j = m.joints()[jn];
      for (int slot = 0; slot < 2; ++slot) {
        const int b = slot == 0 ? j.follower : j.base;
        if (b < 0) continue;
        W.noalias() = Ri.J[slot].topRows(Ri.n) * minv_[b];
        for (const auto& [jm, t] : incidence_[b]) {
          const JointRows& Rj = rows_[jm];
          if (Rj.n == 0 || !chol.lower(Ri.local, Rj.local)) continue;
          Aij.noalias() = W * Rj.J[t].topRows(Rj.n).transpose();
          chol.add(Ri.local, Rj.local, Aij);
        }
      }
    }
    // Redundant rows (a planar loop closed in 3D) make J M^-1 J^T singular: a regularization far
    // below the pivots but above round-off. The multipliers' null-space part is annihilated by
    // J^T, so the correction stays the minimal one up to this relative perturbation.
    const double eps = 1e-12 * chol.max_diagonal();
    for (int jn : isl.joints) {
      const JointRows& R = rows_[jn];
      for (int r = 0; r < R.capacity; ++r) chol.add_diagonal(R.local, r, r < R.n ? eps : 1.0);
    }
    isl.factored = chol.factor();
    if (!isl.factored) continue;
    // x = (A + eps)^-1 phi, then one step of iterative refinement x += (A + eps)^-1 (phi - A x):
    // the range part of the error shrinks from eps / sigma to (eps / sigma)^2 (a long chain's
    // sigma_min / sigma_max reaches 1e-5). Redundant rows (loops) show as a pivot of L at the
    // regularization's scale; where the smallest pivot is above 1e-2 of the largest (inactive rows'
    // unit placeholders included) there are none, and the refinement is skipped: the correction is
    // then off by eps / sigma_min relative (1e-12 times the condition number, 1e-7 on a long
    // chain), which the next correction, a chord step on the same factor, removes.
    const double pmin = chol.min_pivot(), pmax = chol.max_pivot();
    if (pmin * pmin >= 1e-4 * pmax * pmax) {
      chol.solve(isl.rhs.data(), isl.scratch.data());
      apply_correction(isl);
      continue;
    }
    isl.x = isl.rhs;
    chol.solve(isl.x.data(), isl.scratch.data());
    apply_delassus(isl, isl.x, isl.res);
    isl.res = isl.rhs - isl.res;
    chol.solve(isl.res.data(), isl.scratch.data());
    isl.rhs = isl.x + isl.res;
    apply_correction(isl);
  }
  for (int i = 0; i < m.num_bodies(); ++i) {
    if (incidence_[i].empty()) continue;
    s.r[i] += dq_[i].head<3>();
    s.q[i] = integrate_rotation(s.q[i], dq_[i].tail<3>(), 1.0);
  }
}

// dq_b -= M^-1 J^T x over the island's rows, x = isl.rhs.
void PositionProjector::apply_correction(const Island& isl) {
  const Model& m = *model_;
  for (int jn : isl.joints) {
    const JointRows& Ri = rows_[jn];
    if (Ri.n == 0) continue;
    const Joint& j = m.joints()[jn];
    const auto xi = isl.rhs.segment(Ri.offset, Ri.n);
    for (int slot = 0; slot < 2; ++slot) {
      const int b = slot == 0 ? j.follower : j.base;
      if (b < 0) continue;
      dq_[b].noalias() -= minv_[b] * (Ri.J[slot].topRows(Ri.n).transpose() * xi);
    }
  }
}

const std::vector<JointAxes>* PositionProjector::axes_at(const State& s) const {
  if (!evaluated_ || s.r.size() != r_eval_.size() || s.q.size() != q_eval_.size()) return nullptr;
  for (size_t i = 0; i < r_eval_.size(); ++i)
    if (std::memcmp(s.r[i].data(), r_eval_[i].data(), sizeof(double) * 3) != 0 ||
        std::memcmp(s.q[i].coeffs().data(), q_eval_[i].coeffs().data(), sizeof(double) * 4) != 0)
      return nullptr;
  return &axes_;
}

const ProjectionStats& PositionProjector::project(State& s, const DynamicsSettings& st) {
  const auto t0 = std::chrono::steady_clock::now();
  stats_ = ProjectionStats{};
  max_limit_correction_ = st.max_limit_correction;
  max_joint_correction_ = st.max_joint_correction;
  double err = evaluate(s, true);
  stats_.error_before = err;
  for (const JointRows& R : rows_) stats_.rows += R.island >= 0 ? R.n : 0;
  // After a full step that contracted 100x (the quadratic regime), chord steps; a chord step that
  // does not contract is undone and followed by a full one.
  bool chord = false;
  for (int attempt = 0;
       err > st.projection_tol && attempt < st.projection_max_iters && stats_.rows > 0; ++attempt) {
    r_prev_ = s.r;  // same sizes: no allocation
    q_prev_ = s.q;
    correct(s, chord);
    const double next = evaluate(s, false);
    if (!(next < err)) {  // far from the manifold Gauss-Newton may not contract: keep the best
      s.r = r_prev_;
      s.q = q_prev_;
      evaluate(s, false);
      if (!chord) break;
      chord = false;
      continue;
    }
    chord = next <= 1e-2 * err;
    err = next;
    ++stats_.iterations;
  }
  stats_.error_after = err;
  stats_.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return stats_;
}

}  // namespace moreau
