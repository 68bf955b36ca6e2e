#include "moreau/nmdp/tree.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <deque>

#include "moreau/dynamics/joint_kinematics.hpp"
#include "moreau/nmdp/dynamics.hpp"
#include "moreau/nmdp/loops.hpp"

namespace moreau::nmdp {

namespace {

// The primitive sequence of a joint type and where its chart rotation sits (tree.hpp).
void primitives(JointType t, std::vector<Primitive>& p, int& chart_at) {
  auto rot = [](int a) { return Primitive{true, a}; };
  auto tra = [](int a) { return Primitive{false, a}; };
  chart_at = -1;
  switch (t) {
    case JointType::Revolute:
      p = {rot(0)};
      break;
    case JointType::Prismatic:
      p = {tra(0)};
      break;
    case JointType::Cylindrical:
      p = {tra(0), rot(0)};
      break;
    case JointType::Universal:
      p = {rot(0), rot(1)};
      break;
    case JointType::Spherical:
      p = {rot(0), rot(1), rot(2)};
      chart_at = 0;
      break;
    case JointType::Free:
      p = {tra(0), tra(1), tra(2), rot(0), rot(1), rot(2)};
      chart_at = 3;
      break;
    case JointType::Cartesian:
      p = {tra(0), tra(1), tra(2)};
      break;
    case JointType::Fixed:
    case JointType::Sequence:  // refused by Tree::build
      p = {};
      break;
  }
}

Error tree_error(const Model& m, const std::string& element, const std::string& got) {
  Error e;
  e.element = "model '" + m.name() + "' " + element;
  e.expected =
      "one of the joint types the nmdp integrators take (revolute, prismatic, cylindrical, "
      "universal, spherical, cartesian, fixed, free)";
  e.got = got;
  return e;
}

}  // namespace

Result<Tree> Tree::build(const Model& model) {
  Tree t;
  t.model_ = &model;
  const int nb = model.num_bodies();
  std::vector<int> parent_joint(nb, -1);
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& J = model.joints()[j];
    if (J.type == JointType::Sequence)
      return tree_error(model, "joint '" + J.name + "'", "a joint sequence");
    if (parent_joint[J.follower] >= 0)
      t.loops_.push_back(j);  // the follower already hangs from an earlier joint
    else
      parent_joint[J.follower] = j;
  }
  // Breadth-first from the world; a cycle that never reaches it is cut at its first body.
  std::vector<bool> seen;
  for (;;) {
    std::vector<std::vector<int>> children(nb + 1);  // [0] = world
    for (int b = 0; b < nb; ++b) {
      const int j = parent_joint[b];
      const int base = j >= 0 ? model.joints()[j].base : -1;
      children[base + 1].push_back(b);
    }
    t.segments_.clear();
    t.n_ = 0;
    seen.assign(nb, false);
    std::deque<int> queue(children[0].begin(), children[0].end());
    for (int b : queue) seen[b] = true;
    while (!queue.empty()) {
      const int b = queue.front();
      queue.pop_front();
      Segment sg;
      sg.body = b;
      const int j = parent_joint[b];
      if (j >= 0) {
        const Joint& J = model.joints()[j];
        sg.joint = j;
        sg.type = J.type;
        sg.parent = J.base;
        sg.pre = J.frame_base;
        sg.post = J.frame_follower.inverse();
      }
      primitives(sg.type, sg.prims, sg.chart_at);
      sg.dofs = static_cast<int>(sg.prims.size());
      sg.offset = t.n_;
      t.n_ += sg.dofs;
      t.segments_.push_back(sg);
      for (int c : children[b + 1]) {
        seen[c] = true;
        queue.push_back(c);
      }
    }
    const auto cut = std::find(seen.begin(), seen.end(), false);
    if (cut == seen.end()) break;
    const int b = static_cast<int>(cut - seen.begin());
    t.loops_.push_back(parent_joint[b]);
    parent_joint[b] = -1;
  }
  std::sort(t.loops_.begin(), t.loops_.end());
  for (int j : t.loops_) t.loop_rows_ += nmdp::loop_rows(model.joints()[j].type);
  t.segment_of_body_.assign(nb, -1);
  t.link_of_body_.assign(nb, -1);
  t.parent_dof_.assign(t.n_, -1);
  for (size_t s = 0; s < t.segments_.size(); ++s) {
    const Segment& sg = t.segments_[s];
    t.segment_of_body_[sg.body] = static_cast<int>(s);
    int link = sg.parent >= 0 ? t.link_of_body_[sg.parent] : -1;
    for (int i = 0; i < sg.dofs; ++i) {
      t.parent_dof_[sg.offset + i] = link;
      link = sg.offset + i;
    }
    t.link_of_body_[sg.body] = link;
  }
  t.charts_.assign(t.segments_.size(), Quat::Identity());
  return t;
}

void Tree::from_state(const State& s, VecX& theta, VecX& theta_dot) {
  const Model& m = *model_;
  theta.setZero(n_);
  for (size_t si = 0; si < segments_.size(); ++si) {
    const Segment& sg = segments_[si];
    // Follower joint frame in the base joint frame.
    const Pose B = sg.parent >= 0 ? s.pose(sg.parent) * sg.pre : sg.pre;
    const Pose F = s.pose(sg.body) * sg.post.inverse();
    const Pose rel = B.inverse() * F;
    const Mat3 R = rel.R();
    double* q = theta.data() + sg.offset;
    switch (sg.type) {
      case JointType::Revolute:
        q[0] = std::atan2(R(2, 1), R(1, 1));
        break;
      case JointType::Prismatic:
        q[0] = rel.p.x();
        break;
      case JointType::Cylindrical:
        q[0] = rel.p.x();
        q[1] = std::atan2(R(2, 1), R(1, 1));
        break;
      case JointType::Universal:
        q[0] = std::atan2(R(2, 1), R(1, 1));
        q[1] = std::atan2(R(0, 2), R(0, 0));
        break;
      case JointType::Spherical:
        charts_[si] = rel.q.normalized();
        break;
      case JointType::Free:
        q[0] = rel.p.x(), q[1] = rel.p.y(), q[2] = rel.p.z();
        charts_[si] = rel.q.normalized();
        break;
      case JointType::Cartesian:
        q[0] = rel.p.x(), q[1] = rel.p.y(), q[2] = rel.p.z();
        break;
      case JointType::Fixed:
      case JointType::Sequence:
        break;
    }
  }
  // Generalized momentum J^T M u: each body's spatial momentum at the origin, summed toward the
  // root and projected on S.
  Kinematics<double> k;
  forward_kinematics<double>(*this, theta, k);
  std::vector<Vec6> h(n_, Vec6::Zero());
  for (int b = 0; b < m.num_bodies(); ++b) {
    const int l = link_of_body_[b];
    if (l < 0) continue;
    const Body& body = m.bodies()[b];
    const Vec3 vc = s.u[b].head<3>(), w = s.u[b].tail<3>();
    const Vec3 lin = body.mass * vc;
    h[l].head<3>() += world_inertia<double>(body, k.R[b]) * w + k.p[b].cross(lin);
    h[l].tail<3>() += lin;
  }
  VecX p(n_);
  for (int i = n_ - 1; i >= 0; --i) {
    p[i] = k.S[i].dot(h[i]);
    if (parent_dof_[i] >= 0) h[parent_dof_[i]] += h[i];
  }
  MatX H;
  mass_matrix<double>(*this, k, H);
  theta_dot = H.ldlt().solve(p);
}

void Tree::to_state(const VecX& theta, const VecX& theta_dot, State& s) const {
  Kinematics<double> k;
  forward_kinematics<double>(*this, theta, k);
  link_velocities<double>(*this, k, theta_dot);
  const int nb = model_->num_bodies();
  for (int b = 0; b < nb; ++b) {
    s.r[b] = k.p[b];
    s.q[b] = Quat(k.R[b]).normalized();
    const Vec6 V = body_velocity(*this, k, b);
    s.u[b].tail<3>() = V.head<3>();
    s.u[b].head<3>() = V.tail<3>() + V.head<3>().cross(k.p[b]);
  }
}

void point_jacobian(const Tree& tree, const Kinematics<double>& k, int b, const Vec3& X,
                    Eigen::Ref<MatX> J) {
  J.setZero();
  if (b < 0) return;
  for (int i = tree.link_of_body()[b]; i >= 0; i = tree.parent_dof()[i])
    J.col(i) = k.S[i].tail<3>() + k.S[i].head<3>().cross(X);
}

}  // namespace moreau::nmdp
