#include "moreau/dynamics/builder.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>

#include "moreau/dynamics/ids.hpp"
#include "moreau/math/so3.hpp"

namespace moreau {

namespace {
// The positional bias of a unilateral row with gap r (eq. 90b, 91b): Baumgarte beta / dt on a
// penetration, and r / dt on a gap (double-sided: the row lets it close within the step). Gaps
// within the dead band get none: a resting body's contacts settle at |r| ~ 1e-10, whose biases
// (1e-8 m/s) ask for normal velocities that no rigid motion gives when the contacts are redundant
// (4 under a box), and leave the NCP's natural map on a floor at its tolerance
// (docs/dynamics.md, "Bias dead band").
double gap_bias(double beta, double r, double dt, double dead_band) {
  if (std::abs(r) <= dead_band) return 0.0;
  return beta / dt * std::min(0.0, r) + std::max(0.0, r / dt);
}
}  // namespace

namespace {
constexpr double kPi = 3.14159265358979323846;

double wrap_angle(double a) {
  return std::atan2(std::sin(a), std::cos(a));
}

// Angles that wrap: rotational axes of the fixed-type joints. A joint sequence's hinge
// coordinates are unbounded (MuJoCo's qpos), so its springs and servos act on q itself.
bool wraps(const Joint& j, int axis) {
  return axis >= 3 && j.type != JointType::Sequence;
}

// Twist of body b (zero for the world).
Vec6 twist(const State& s, int b) {
  return b >= 0 ? s.u[b] : Vec6::Zero();
}
}  // namespace

ProblemBuilder::ProblemBuilder(const Model& model) : model_(&model) {
  const int nb = model.num_bodies();
  axes_.resize(model.num_joints());
  incidence_.resize(nb);
  p_.num_bodies = nb;
  p_.M.resize(nb);
  p_.Minv.resize(nb);
  p_.u_minus.resize(6 * nb);
  p_.generalized_force.resize(6 * nb);
  p_.u_free.resize(6 * nb);
  int bounds = 0;  // force_crossed_limits adds at most one id per bound: no allocation per step
  for (const Joint& j : model.joints())
    for (int k = 0; k < j.dofs(); ++k) bounds += 2 * j.limits[k].enabled();
  forced_limits_.reserve(bounds);
  // A joint whose bodies are already connected (through other joints or the world) closes a loop.
  std::vector<int> root(nb + 1);  // union-find over the bodies and the world (nb)
  for (int b = 0; b <= nb; ++b) root[b] = b;
  auto find = [&](int b) {
    while (root[b] != b) b = root[b] = root[root[b]];
    return b;
  };
  for (const Joint& j : model.joints()) {
    if (j.rows() == 0) continue;  // a free joint constrains nothing
    const int a = find(j.follower), b = find(j.base >= 0 ? j.base : nb);
    if (a == b)
      loops_ = true;
    else
      root[a] = b;
  }
  theta_K_.resize(nb);
  theta_D_.resize(nb);
  theta_on_.resize(nb);
  // Follower subtrees of joints with a stable PD servo: the bodies reached from the follower
  // through joints, never through the joint's base (closed loops stop there).
  subtree_.resize(model.num_joints());
  for (int jn = 0; jn < model.num_joints(); ++jn) {
    const Joint& j = model.joints()[jn];
    bool spd = false;
    for (int k = 0; k < j.dofs(); ++k) spd = spd || j.actuators[k].mode == ActuationMode::StablePd;
    if (!spd) continue;
    std::vector<char> seen(nb, 0);
    if (j.base >= 0) seen[j.base] = 1;
    std::vector<int>& sub = subtree_[jn];
    sub.push_back(j.follower);
    seen[j.follower] = 1;
    for (std::size_t i = 0; i < sub.size(); ++i)
      for (const Joint& o : model.joints()) {
        int other = -1;
        if (o.base == sub[i]) other = o.follower;
        if (o.follower == sub[i]) other = o.base;
        if (other >= 0 && !seen[other]) {
          seen[other] = 1;
          sub.push_back(other);
        }
      }
  }
}

void joint_dof_state(const Joint& j, const State& s, int k, double* q, double* qdot) {
  JointAxes ax;
  joint_axes(j, s, ax);
  const int a = ax.dof[k];
  *q = ax.value[a];
  *qdot = ax.Jf.row(a).dot(s.u[j.follower]) + (j.base >= 0 ? ax.Jb.row(a).dot(s.u[j.base]) : 0.0);
}

// The subtree of joint jn moving rigidly with its follower F (add_forces, stable PD): Jf's LU
// and the composite terms about F's centre c_F of the bodies b of the subtree, with d_b = c_b -
// c_F: mass M = sum m_b, first moment h = sum m_b d_b, inertia J = sum I_b + m_b (|d_b|^2 1 -
// d_b d_b^T) and gyroscopic torque G = sum w_b x I_b w_b (world frame, p_.M's inertias).
void ProblemBuilder::composite(int jn, const State& s) {
  const Joint& j = model_->joints()[jn];
  comp_lu_.compute((*ax_)[jn].Jf);
  comp_.invertible = std::abs(comp_lu_.determinant()) > 1e-12;
  comp_.mass = 0.0;
  comp_.h.setZero();
  comp_.J.setZero();
  comp_.G.setZero();
  const Vec3 cf = s.r[j.follower];
  for (const int b : subtree_[jn]) {
    const double mb = p_.M[b](0, 0);
    const Mat3 Ib = p_.M[b].bottomRightCorner<3, 3>();
    const Vec3 d = s.r[b] - cf, om = s.u[b].tail<3>();
    comp_.mass += mb;
    comp_.h += mb * d;
    comp_.J += Ib;
    comp_.J.diagonal().array() += mb * d.squaredNorm();
    comp_.J.noalias() -= mb * d * d.transpose();
    comp_.G += om.cross(Ib * om);
  }
}

// Body mass matrices in world frame, gravity and gyroscopic wrench (eq. 57-59).
void ProblemBuilder::add_forces(const State& s, const DynamicsSettings& st, double dt) {
  const Model& m = *model_;
  for (int i = 0; i < m.num_bodies(); ++i) {
    const Body& b = m.bodies()[i];
    const Mat3 R = s.q[i].toRotationMatrix();
    const Mat3 I = R * b.inertia * R.transpose();  // eq. 58
    const Mat3 Iinv = R * m.inertia_inverse(i) * R.transpose();
    Mat6& M = p_.M[i];
    M.setZero();
    M.topLeftCorner<3, 3>() = b.mass * Mat3::Identity();
    M.bottomRightCorner<3, 3>() = I;
    Mat6& Mi = p_.Minv[i];
    Mi.setZero();
    Mi.topLeftCorner<3, 3>() = Mat3::Identity() / b.mass;
    Mi.bottomRightCorner<3, 3>() = Iinv;
    const Vec3 w = s.u[i].tail<3>();
    p_.u_minus.segment<6>(6 * i) = s.u[i];
    p_.generalized_force.segment<3>(6 * i) = b.mass * m.gravity();  // eq. 59
    p_.generalized_force.segment<3>(6 * i + 3) = -w.cross(I * w);
  }
  // Actuation and passive damping: h += J_a^T tau (eq. 64, 72), tau = T0 - c qd with the
  // velocity-independent part T0 (feed-forward, spring kp (q* - q), kd qd*) explicit. The damping
  // c = d + kd is integrated exactly per DoF, as if the DoF's two bodies were unconstrained (w:
  // their inverse inertia along the DoF): qd decays by e^-x over the step, x = dt c w, i.e. the
  // damping force is c qd (1 - e^-x) / x. Stable and non-overshooting for any c, unchanged at
  // rest (docs/dynamics.md). implicit_joint_forces = false: explicit eq. 72.
  const bool theta_method = theta_ >= 0.0;
  if (theta_method) std::fill(theta_on_.begin(), theta_on_.end(), 0);
  int control = 0;  // the next entry of controls_ (actuated_dofs order)
  for (int jn = 0; jn < m.num_joints(); ++jn) {
    const Joint& j = m.joints()[jn];
    const JointAxes& ax = (*ax_)[jn];
    const Vec6 uf = s.u[j.follower], ub = twist(s, j.base);
    bool comp_ready = false;  // composite(jn) evaluated for this joint's DoFs
    for (int k = 0; k < ax.d; ++k) {
      const DofActuator& a = j.actuators[k];
      // The joint's damping, where no armature row (add_joint_blocks) holds it implicitly.
      const double joint_damping = j.armature[k] > 0.0 ? 0.0 : j.damping[k];
      if (a.mode == ActuationMode::Passive && joint_damping == 0.0) continue;
      // The set point (force or target) and its shift by a control (set_controls).
      const double set_point = actuator_set_point(a);
      const double shift =
          controls_ && a.mode != ActuationMode::Passive ? controls_[control++] - set_point : 0.0;
      const int axis = ax.dof[k];
      const double q = ax.value[axis];
      const double qd = ax.Jf.row(axis).dot(uf) + ax.Jb.row(axis).dot(ub);
      double t0 = 0.0, c = joint_damping;
      // The sine of the set point (Force, Velocity), evaluated only where it has an amplitude.
      auto wave = [&] {
        return a.amplitude == 0.0 ? 0.0
                                  : a.amplitude * std::sin(2.0 * kPi * a.frequency * s.t + a.phase);
      };
      switch (a.mode) {
        case ActuationMode::Passive:
          break;
        case ActuationMode::Force:
          t0 = a.force + shift + wave();
          break;
        case ActuationMode::Position: {
          const ActuatorReference ref = actuator_reference(a, s.t);
          double err = ref.q + shift - q;
          if (wraps(j, axis)) err = wrap_angle(err);
          t0 = a.force + a.kp * err + a.kd * ref.qd;
          c += a.kd;
          break;
        }
        case ActuationMode::Velocity:
          t0 = a.force + a.kd * (a.target + shift + wave());
          c += a.kd;
          break;
        case ActuationMode::StablePd: {
          // Stable PD (Tan, Liu & Turk 2011, eq. 6): the reference at the end of the step and
          // the stiffness acting on the predicted position q + dt qd+, so that the rate term
          // dt kp joins the damping: tau = T0 - (kd + dt kp) qd+ with T0 at t + dt.
          const ActuatorReference ref = actuator_reference(a, s.t + dt);
          double err = ref.q + shift - q;
          if (wraps(j, axis)) err = wrap_angle(err);
          t0 = a.force + a.kp * err + a.kd * ref.qd;
          c += a.kd + dt * a.kp;
          break;
        }
      }
      if (theta_method && j.unary() &&
          (a.mode == ActuationMode::Passive || !std::isfinite(a.effort_limit))) {
        // Theta-method (eq. 16-17): K = kp r r^T, D = c r r^T with r the DoF's Jacobian row;
        // the force at (s, u^-) stays in h, A takes the implicit part.
        const Vec6 rf = ax.Jf.row(axis).transpose();
        const double damping = c * qd;
        const double kp = a.mode == ActuationMode::Position ? a.kp : 0.0;
        const int f = j.follower;
        if (!theta_on_[f]) theta_K_[f].setZero(), theta_D_[f].setZero();
        theta_on_[f] = 1;
        theta_K_[f].noalias() += kp * rf * rf.transpose();
        theta_D_[f].noalias() += c * rf * rf.transpose();
        p_.generalized_force.segment<6>(6 * f) += rf * (t0 - damping);
        continue;
      }
      // The DoF's inverse inertia with its two bodies taken as unconstrained (docs/dynamics.md).
      auto inverse_inertia = [&] {
        const auto rf = ax.Jf.row(axis).transpose();
        double w = rf.dot(p_.Minv[j.follower] * rf);
        if (j.base >= 0) {
          const auto rb = ax.Jb.row(axis).transpose();
          w += rb.dot(p_.Minv[j.base] * rb);
        }
        // The armature's inertia joins the DoF's (its row, add_joint_blocks).
        return j.armature[k] > 0.0 && w > 0.0 ? 1.0 / (1.0 / w + j.armature[k]) : w;
      };
      double tau, passive;  // the DoF's torque and its passive damping part, -d qd
      if (a.mode == ActuationMode::StablePd) {
        // Tan et al. eq. 9 for the follower's subtree moving rigidly about the joint with the
        // base held (the composite-rigid-body inertia of the DoF): S = Jf^-1 e_axis = (v, w) is
        // the follower twist that moves this DoF only, body b of the subtree moves with
        // S_b = [v + w x d_b; w], d_b = c_b - c_F; mass m = sum S_b^T M_b S_b, bias b = sum S_b^T
        // h_b (gravity and gyroscopic wrenches), from the subtree's composite terms (composite()):
        // m = M |v|^2 + 2 v.(w x h) + w^T J w, b = (M v + w x h).g - w.G. Then qd+ = (qd + dt (T0
        // + b) / m) / (1 + dt c / m), tau = T0 - c qd+. Exact for a body on a world joint (a
        // pendulum); the free-body inverse inertia stands in when Jf is singular.
        if (!comp_ready) composite(jn, s), comp_ready = true;
        Vec6 S = Vec6::Zero();
        S[axis] = 1.0;
        S = comp_lu_.solve(S);
        const Vec3 v = S.head<3>(), w = S.tail<3>(), wh = w.cross(comp_.h);
        // The armature's inertia joins the DoF's (its row, add_joint_blocks).
        double mass =
            comp_.mass * v.squaredNorm() + 2.0 * v.dot(wh) + w.dot(comp_.J * w) + j.armature[k];
        double bias = (comp_.mass * v + wh).dot(m.gravity()) - w.dot(comp_.G);
        const bool ok = comp_.invertible && S.allFinite() && mass > 0.0;
        const double inv_mass = ok ? 1.0 / mass : inverse_inertia();
        if (!ok) bias = 0.0;
        const double d = joint_damping;
        double qd_next = (qd + dt * inv_mass * (t0 + bias)) / (1.0 + dt * c * inv_mass);
        double act = t0 - (c - d) * qd_next;
        if (std::abs(act) > a.effort_limit) {  // saturated: a constant torque, d still implicit
          act = std::copysign(a.effort_limit, act);
          qd_next = (qd + dt * inv_mass * (act + bias)) / (1.0 + dt * d * inv_mass);
        }
        passive = -d * qd_next;
        tau = act + passive;
      } else {
        double damping = c * qd;
        if (st.implicit_joint_forces && c > 0.0) {
          const double x = dt * c * inverse_inertia();
          if (x > 1e-12) damping *= -std::expm1(-x) / x;  // (1 - e^-x) / x
        }
        tau = t0 - damping;
        passive = c > 0.0 ? -damping * (joint_damping / c) : 0.0;
      }
      // The effort limit bounds the actuator's torque, not the joint's passive damping.
      if (a.mode != ActuationMode::Passive)
        tau = std::clamp(tau - passive, -a.effort_limit, a.effort_limit) + passive;
      p_.generalized_force.segment<6>(6 * j.follower) += ax.Jf.row(axis).transpose() * tau;
      if (j.base >= 0)
        p_.generalized_force.segment<6>(6 * j.base) += ax.Jb.row(axis).transpose() * tau;
    }
  }
  for (int i = 0; i < m.num_bodies(); ++i) {
    if (theta_method && theta_on_[i]) {
      // Eq. 15 and eq. 18 without constraints: A (u_free - u^-) = dt (h - theta dt K u^-).
      const Vec6 u0 = p_.u_minus.segment<6>(6 * i);
      const Mat6 A =
          p_.M[i] + dt * dt * theta_ * theta_vq_ * theta_K_[i] + dt * theta_ * theta_D_[i];
      Eigen::LLT<Mat6> llt(A);
      p_.M[i] = A;
      p_.Minv[i] = llt.solve(Mat6::Identity());
      p_.u_free.segment<6>(6 * i) =
          u0 + p_.Minv[i] * (dt * (p_.generalized_force.segment<6>(6 * i) -
                                   theta_ * dt * (theta_K_[i] * u0)));
    } else {
      p_.u_free.segment<6>(6 * i) =
          p_.u_minus.segment<6>(6 * i) + dt * (p_.Minv[i] * p_.generalized_force.segment<6>(6 * i));
    }
    if (theta_method && theta_ > 0.0) implicit_rotation(s, i, dt);
  }
}

// The theta-method's free motion of a body's rotation (Castro et al. 2023, eq. 13-14): the
// inertia and the gyroscopic torque at the stage, m(w) = I(R^theta) (w - w0) + dt w^theta x
// I(R^theta) w^theta - dt tau = 0, with w^theta = theta w + (1 - theta) w0 and R^theta =
// Exp(theta dt w^theta_vq) R0, w^theta_vq = theta_vq w + (1 - theta_vq) w0; tau is the rest of the
// body's torque (gravity, actuation, springs) at the step's start. Newton from the explicit
// u_free, its 3x3 Jacobian by central differences; a few iterations reach round-off. Without it
// the gyroscopic torque and the inertia are taken at (q0, w0), and the midpoint rule is first order
// on a spinning body. A body with unary springs (A != M) keeps the linearized form above.
void ProblemBuilder::implicit_rotation(const State& s, int i, double dt) {
  if (theta_on_[i]) return;
  const Vec3 w0 = s.u[i].tail<3>();
  Vec3 w = p_.u_free.segment<3>(6 * i + 3);
  if (w0.squaredNorm() == 0.0 && w.squaredNorm() == 0.0) return;  // nothing turns
  const Body& b = model_->bodies()[i];
  const Mat3 R0 = s.q[i].toRotationMatrix();
  const Mat3 I0 = R0 * b.inertia * R0.transpose();
  const Vec3 tau = p_.generalized_force.segment<3>(6 * i + 3) + w0.cross(I0 * w0);
  auto residual = [&](const Vec3& x) {
    const Vec3 wt = theta_ * x + (1.0 - theta_) * w0;
    const Vec3 wq = theta_vq_ * x + (1.0 - theta_vq_) * w0;
    const Mat3 R = so3_exp(theta_ * dt * wq) * R0;
    const Mat3 I = R * b.inertia * R.transpose();
    return Vec3(I * (x - w0) + dt * wt.cross(I * wt) - dt * tau);
  };
  const double scale = 1.0 + w.cwiseAbs().maxCoeff();
  for (int it = 0; it < 8; ++it) {
    const Vec3 r = residual(w);
    Mat3 J;
    const double h = 1e-6 * scale;
    for (int c = 0; c < 3; ++c) {
      Vec3 e = Vec3::Zero();
      e[c] = h;
      J.col(c) = (residual(w + e) - residual(w - e)) / (2.0 * h);
    }
    const Vec3 step = J.partialPivLu().solve(r);
    w -= step;
    if (!(step.cwiseAbs().maxCoeff() > 1e-15 * scale)) break;  // converged (or NaN: reported)
  }
  p_.u_free.segment<3>(6 * i + 3) = w;
}

// Joint rows: J from eq. 63, bias v_B = (beta/dt) f_j (eq. 89).
void ProblemBuilder::add_joint_blocks(const State& s, const DynamicsSettings& st, double dt) {
  const Model& m = *model_;
  for (int jn = 0; jn < m.num_joints(); ++jn) {
    const Joint& j = m.joints()[jn];
    const JointAxes& ax = (*ax_)[jn];
    int geared = 0;  // DoFs with armature: rows after the constrained ones
    for (int k = 0; k < ax.d; ++k) geared += j.armature[k] > 0.0;
    if (ax.m + geared == 0) continue;
    ConstraintBlock& b = p_.blocks.emplace_back();
    b.kind = RowKind::Joint;
    b.cone = ConeKind::Free;
    b.offset = p_.nl;
    b.size = ax.m + geared;
    b.rotor_rows = geared;
    b.body[0] = j.follower;
    b.body[1] = j.base;
    b.id = joint_block_id(jn);
    b.source = jn;
    const Vec6 uf = s.u[j.follower], ub = twist(s, j.base);
    // The curvature term is of order (dt |u|)^2 times the anchors' lever arms: below 1e-7 m or rad
    // of motion in the step (a body at rest) it is below 1e-14, far under the position
    // projection's tolerance, and the joint is not evaluated again at the predicted state.
    const bool drift = st.drift_compensation &&
                       dt * std::max(uf.cwiseAbs().maxCoeff(), ub.cwiseAbs().maxCoeff()) > 1e-7;
    if (drift) {
      if (j.type == JointType::Sequence) pred_axes_ = ax;  // the warm start (a sequence's basis)
      joint_axes(j, pred_, pred_axes_);
    }
    for (int r = 0; r < ax.m; ++r) {
      const int axis = ax.constrained[r];
      b.J[0].row(r) = ax.Jf.row(axis);
      b.J[1].row(r) = ax.Jb.row(axis);
      const double f = ax.value[axis];
      fbuf_[p_.nl + r] = f;
      double c = 0.0;  // curvature of f along dt u- (second-order drift)
      if (drift)
        c = pred_axes_.value[axis] - f - dt * (ax.Jf.row(axis).dot(uf) + ax.Jb.row(axis).dot(ub));
      // eq. 89b (+ drift compensation), the correction of a large error bounded per step
      const double bound = st.max_joint_correction;
      bias_[p_.nl + r] = (std::clamp(st.beta_joint * f, -bound, bound) + c) / dt;
    }
    // Armature and damping rows (docs/dynamics.md, "Armature and damping rows"): the DoF's
    // impulse mu = -a (qd+ - qd-) - dt d qd+, i.e. qd+ + mu / (a + dt d) - a qd- / (a + dt d) =
    // 0 with qd = g u along the DoF's row g: MuJoCo's joint-space inertia a and implicit damping
    // d, as a bilateral row of compliance 1 / (a + dt d) added to D's diagonal (build_delassus).
    for (int k = 0, r = ax.m; k < ax.d; ++k) {
      if (!(j.armature[k] > 0.0)) continue;
      const int axis = ax.dof[k];
      b.J[0].row(r) = ax.Jf.row(axis);
      b.J[1].row(r) = ax.Jb.row(axis);
      const double inertia = j.armature[k] + dt * j.damping[k];
      const double qd = ax.Jf.row(axis).dot(uf) + ax.Jb.row(axis).dot(ub);
      fbuf_[p_.nl + r] = 0.0;
      bias_[p_.nl + r] = -j.armature[k] / inertia * qd;
      compliance_[p_.nl + r] = 1.0 / inertia;
      ++r;
    }
    p_.nl += b.size;
  }
}

namespace {
// Each finite bound of joint j's limited DoFs: f(k, side, sign, axis, g), g = sign (q - bound) the
// gap (eq. 28), sign +1 at the lower bound and -1 at the upper, axis the DoF's row of ax.
template <class F>
void for_each_bound(const Joint& j, const JointAxes& ax, F&& f) {
  for (int k = 0; k < ax.d; ++k) {
    const DofLimit& lim = j.limits[k];
    if (!lim.enabled()) continue;
    const int axis = ax.dof[k];
    for (int side = 0; side < 2; ++side) {
      const double bound = side == 0 ? lim.lower : lim.upper;
      if (!std::isfinite(bound)) continue;
      const double sign = side == 0 ? 1.0 : -1.0;
      f(k, side, sign, axis, sign * (ax.value[axis] - bound));
    }
  }
}

// Whether a bound at gap g closing at rate gd gets its row: the gap would close within the step.
bool bound_due(double g, double gd, double dt, double margin) {
  return g + dt * std::min(0.0, gd) <= margin;
}
}  // namespace

// Limit rows (eq. 27-32, 65): one orthant row per DoF bound about to be reached; upper bounds
// use the negated direction so that lambda >= 0 pushes away from the bound.
void ProblemBuilder::add_limit_blocks(const State& s, const DynamicsSettings& st, double dt) {
  const Model& m = *model_;
  for (int jn = 0; jn < m.num_joints(); ++jn) {
    const Joint& j = m.joints()[jn];
    const JointAxes& ax = (*ax_)[jn];
    const Vec6 uf = s.u[j.follower], ub = twist(s, j.base);
    for_each_bound(j, ax, [&](int k, int side, double sign, int axis, double g) {
      const double gd = sign * (ax.Jf.row(axis).dot(uf) + ax.Jb.row(axis).dot(ub));
      const uint64_t id = limit_block_id(jn, k, side);
      if (!bound_due(g, gd, dt, st.limit_margin) &&
          std::find(forced_limits_.begin(), forced_limits_.end(), id) == forced_limits_.end())
        return;
      ConstraintBlock& b = p_.blocks.emplace_back();
      b.kind = RowKind::Limit;
      b.cone = ConeKind::Orthant;
      b.offset = p_.nl;
      b.size = 1;
      b.body[0] = j.follower;
      b.body[1] = j.base;
      b.J[0].row(0) = sign * ax.Jf.row(axis);
      b.J[1].row(0) = sign * ax.Jb.row(axis);
      b.id = id;
      b.source = jn;
      b.dof = k;
      fbuf_[p_.nl] = g;
      // eq. 90b, the correction of a violated limit bounded per step
      bias_[p_.nl] = std::max(gap_bias(st.beta_limit, g, dt, st.bias_dead_band),
                              -st.max_limit_correction / dt);
      p_.nl += 1;
    });
    // Dry friction: v = qd along the DoF, |lambda| <= friction dt, lambda = -friction dt sign(qd)
    // while the DoF slides (docs/dynamics.md, "Joint friction").
    for (int k = 0; k < ax.d; ++k) {
      if (!(j.friction[k] > 0.0)) continue;
      const int axis = ax.dof[k];
      ConstraintBlock& b = p_.blocks.emplace_back();
      b.kind = RowKind::Limit;
      b.cone = ConeKind::Box;
      b.bound = j.friction[k] * dt;
      b.offset = p_.nl;
      b.size = 1;
      b.body[0] = j.follower;
      b.body[1] = j.base;
      b.J[0].row(0) = ax.Jf.row(axis);
      b.J[1].row(0) = ax.Jb.row(axis);
      b.id = friction_block_id(jn, k);
      b.source = jn;
      b.dof = k;
      fbuf_[p_.nl] = 0.0;
      bias_[p_.nl] = 0.0;
      p_.nl += 1;
    }
  }
}

// Contact rows (eq. 66): v_c = R_c^T (v_B(point) - v_A(point)), rows [t, o, n].
void ProblemBuilder::add_contact_blocks(const State& s, const std::vector<Contact>& contacts,
                                        const DynamicsSettings& st, double dt) {
  for (size_t c = 0; c < contacts.size(); ++c) {
    const Contact& k = contacts[c];
    ConstraintBlock& b = p_.blocks.emplace_back();
    b.kind = RowKind::Contact;
    b.cone = ConeKind::Coulomb;
    b.offset = p_.nl;
    b.size = 3;
    b.mu = k.mu;
    b.restitution = k.restitution;
    b.stiffness = k.stiffness;
    b.tau_d = k.tau_d;
    b.id = contact_block_id(k.id);
    b.source = static_cast<int>(c);
    const Vec3 pA = k.point, pB = k.point + k.gap * k.normal;
    const Mat3 RcT = k.frame.transpose();
    for (int side = 0; side < 2; ++side) {
      const int body = k.body[side];
      b.body[side] = body;
      b.J[side].setZero();
      if (body < 0) continue;
      const double sign = side == 0 ? -1.0 : 1.0;
      const Vec3 arm = (side == 0 ? pA : pB) - s.r[body];
      b.J[side].topLeftCorner<3, 3>() = sign * RcT;
      b.J[side].block<3, 3>(0, 3) = -sign * RcT * skew(arm);  // v(point) = v - arm x w
    }
    fbuf_[p_.nl] = 0.0;
    fbuf_[p_.nl + 1] = 0.0;
    fbuf_[p_.nl + 2] = k.gap;
    const double r = k.gap + st.penetration_margin;  // eq. 91a
    bias_[p_.nl] = 0.0;
    bias_[p_.nl + 1] = 0.0;
    bias_[p_.nl + 2] = gap_bias(st.beta_contact, r, dt, st.bias_dead_band);  // eq. 91b
    // Newton restitution (eq. 54-55) replaces the positional bias when the contact approaches
    // faster than the threshold and closes within this step: v_n^+ + e v_n^- >= 0 exactly.
    double vn = 0.0;  // v_n^- = J_n u^-
    for (int side = 0; side < 2; ++side)
      if (b.body[side] >= 0) vn += b.J[side].row(2).dot(s.u[b.body[side]]);
    if (k.restitution > 0.0 && vn < -st.restitution_threshold && r + dt * vn <= 0.0)
      bias_[p_.nl + 2] = k.restitution * vn;
    p_.nl += 3;
  }
}

void ProblemBuilder::build_delassus(const DynamicsSettings& st) {
  const int nbk = p_.num_blocks();
  sizes_.resize(nbk);
  for (int i = 0; i < nbk; ++i) sizes_[i] = p_.blocks[i].size;
  for (auto& inc : incidence_) inc.clear();
  for (int s = 0; s < 2; ++s) jminv_[s].resize(nbk);
  for (int i = 0; i < nbk; ++i) {
    const ConstraintBlock& b = p_.blocks[i];
    for (int s = 0; s < 2; ++s)
      if (b.body[s] >= 0) {
        incidence_[b.body[s]].push_back({i, s});
        jminv_[s][i].topRows(b.size) = b.J[s].topRows(b.size) * p_.Minv[b.body[s]];
      }
  }
  // Structure: block i couples with every block sharing one of its bodies.
  p_.D.begin(sizes_.data(), nbk);
  mark_.assign(nbk, -1);
  for (int i = 0; i < nbk; ++i) {
    cols_.clear();
    const ConstraintBlock& b = p_.blocks[i];
    for (int s = 0; s < 2; ++s) {
      if (b.body[s] < 0) continue;
      for (const auto& [j, t] : incidence_[b.body[s]])
        if (mark_[j] != i) {
          mark_[j] = i;
          cols_.push_back(j);
        }
    }
    std::sort(cols_.begin(), cols_.end());
    for (int j : cols_) p_.D.push_entry(i, j);
  }
  p_.D.finalize();
  // Values: D_ij = sum over shared bodies b of J_ib M_b^-1 J_jb^T.
  for (int i = 0; i < nbk; ++i) {
    const ConstraintBlock& bi = p_.blocks[i];
    for (int e = p_.D.row_start(i); e < p_.D.row_start(i + 1); ++e) {
      const int j = p_.D.entry_col(e);
      const ConstraintBlock& bj = p_.blocks[j];
      auto Dij = p_.D.entry(e);
      for (int s = 0; s < 2; ++s) {
        if (bi.body[s] < 0) continue;
        for (int t = 0; t < 2; ++t)
          if (bj.body[t] == bi.body[s])
            Dij.noalias() += jminv_[s][i].topRows(bi.size) * bj.J[t].topRows(bj.size).transpose();
      }
    }
  }
  // The armature and damping rows' compliance on their diagonal entries (add_joint_blocks).
  for (int i = 0; i < nbk && p_.blocks[i].kind == RowKind::Joint; ++i) {
    const ConstraintBlock& b = p_.blocks[i];
    if (b.rotor_rows == 0) continue;
    for (int e = p_.D.row_start(i); e < p_.D.row_start(i + 1); ++e)
      if (p_.D.entry_col(e) == i) {
        auto Dii = p_.D.entry(e);
        for (int r = b.size - b.rotor_rows; r < b.size; ++r) Dii(r, r) += compliance_[b.offset + r];
      }
  }
  p_.has_dense = build_dense_ && p_.nl <= st.dense_limit;
  if (p_.has_dense) p_.D.to_dense(p_.D_dense);
}

Problem& ProblemBuilder::build(const State& s, const std::vector<Contact>& contacts, double dt,
                               const DynamicsSettings& st, const std::vector<JointAxes>* axes) {
  const Model& m = *model_;
  p_.dt = dt;
  if (axes != nullptr && static_cast<int>(axes->size()) == m.num_joints()) {
    ax_ = axes;  // in place: no copy of every joint's rows
    // A joint sequence's warm start (its coordinates and constraint basis) kept current, for the
    // steps that evaluate here (a state set by the caller).
    for (int jn = 0; jn < m.num_joints(); ++jn)
      if (m.joints()[jn].type == JointType::Sequence) {
        const JointAxes& from = (*axes)[jn];
        JointAxes& to = axes_[jn];
        to.seq_joint = from.seq_joint;
        to.seq_q = from.seq_q;
        to.seq_C = from.seq_C;
      }
  } else {
    for (int jn = 0; jn < m.num_joints(); ++jn) joint_axes(m.joints()[jn], s, axes_[jn]);
    ax_ = &axes_;
  }
  add_forces(s, st, dt);

  // Upper bound on rows: joints + 2 per limited DoF + 1 per DoF with friction or armature + 3 per
  // contact.
  int max_rows = m.joint_rows() + 3 * static_cast<int>(contacts.size());
  for (const Joint& j : m.joints())
    for (int k = 0; k < j.dofs(); ++k)
      max_rows += 2 * j.limits[k].enabled() + (j.friction[k] > 0.0) + (j.armature[k] > 0.0);
  if (static_cast<int>(bias_.size()) < max_rows) bias_.resize(max_rows);
  if (static_cast<int>(compliance_.size()) < max_rows) compliance_.resize(max_rows);
  if (static_cast<int>(fbuf_.size()) < max_rows) fbuf_.resize(max_rows);

  if (st.drift_compensation) {  // predicted along u- (see add_joint_blocks)
    pred_ = s;
    integrate_positions(pred_, s.u, dt);
  }
  p_.blocks.clear();
  p_.nl = 0;
  add_joint_blocks(s, st, dt);
  add_limit_blocks(s, st, dt);
  add_contact_blocks(s, contacts, st, dt);
  const int nl = p_.nl;
  if (p_.f.size() != nl) p_.f.resize(nl);
  for (int r = 0; r < nl; ++r) p_.f[r] = fbuf_[r];

  // v^- = J u^-, v_f = J u_free + E v^- + v_B (eq. 94).
  if (p_.v_f.size() != nl) p_.v_f.resize(nl);
  if (p_.v_minus.size() != nl) p_.v_minus.resize(nl);
  p_.apply_J(p_.u_minus, p_.v_minus);
  p_.apply_J(p_.u_free, p_.v_f);
  for (int r = 0; r < nl; ++r) p_.v_f[r] += bias_[r];
  build_delassus(st);
  joint_factor_ = loops_ && !st.softening.enabled && make_redundant_rows_consistent();
  if (st.softening.enabled) apply_softening(p_, st.softening);
  ax_ = &axes_;  // the caller's may change after the build
  return p_;
}

bool ProblemBuilder::force_crossed_limits(const State& s, const VecX& u_plus, double h, double dt,
                                          const DynamicsSettings& st,
                                          const std::vector<JointAxes>* axes) {
  const Model& m = *model_;
  // The build's axes: the caller's, or those it evaluated at s itself.
  const std::vector<JointAxes>& all =
      axes != nullptr && static_cast<int>(axes->size()) == m.num_joints() ? *axes : axes_;
  bool found = false;
  for (int jn = 0; jn < m.num_joints(); ++jn) {
    const Joint& j = m.joints()[jn];
    const JointAxes& ax = all[jn];
    const Vec6 uf = s.u[j.follower], ub = twist(s, j.base);
    const Vec6 pf = u_plus.segment<6>(6 * j.follower);
    const Vec6 pb = j.base >= 0 ? Vec6(u_plus.segment<6>(6 * j.base)) : Vec6::Zero();
    for_each_bound(j, ax, [&](int k, int side, double sign, int axis, double g) {
      const double gd = sign * (ax.Jf.row(axis).dot(uf) + ax.Jb.row(axis).dot(ub));
      const uint64_t id = limit_block_id(jn, k, side);
      // Rows the build made hold already.
      if (bound_due(g, gd, dt, st.limit_margin) ||
          std::find(forced_limits_.begin(), forced_limits_.end(), id) != forced_limits_.end())
        return;
      const double gd_plus = sign * (ax.Jf.row(axis).dot(pf) + ax.Jb.row(axis).dot(pb));
      if (g + h * gd_plus < 0.0) {
        forced_limits_.push_back(id);
        found = true;
      }
    });
  }
  return found;
}

// A loop's redundant joint rows are combinations of the others (J_d = B J_k), so any velocity
// after the step satisfies v_d = B v_k, and the joint equations J u+ + b = 0 have a solution only
// if the biases do too: v_f's joint part must lie in D_jj's range. Baumgarte's term and the drift
// compensation above are evaluated row by row on the nonlinear joint functions and break that
// relation at second order (the drift compensation's curvature, O(dt |u|^2) per row): on ironman
// every solver then stalls at a natural map that grows with the speed. Each redundant row's v_f is
// therefore replaced by the combination of the others' that it is, (D_jj D_jj^+ v_j)_d with D_jj^+
// the inverse on the rows kept by the factorization; a change of the order of that second-order
// term, while the position projection removes the drift itself (docs/dynamics.md).
bool ProblemBuilder::make_redundant_rows_consistent() {
  if (!redundant_.factor(p_, JointDelassus::kDropPivot)) return false;
  if (redundant_.chol().dropped() == 0) return true;
  const int nj = redundant_.joint_rows(), kj = redundant_.joint_blocks();
  xj_.resize(p_.nl);
  scratch_.resize(nj);
  xj_.head(nj) = p_.v_f.head(nj);
  xj_.tail(p_.nl - nj).setZero();
  redundant_.chol().solve(xj_.data(), scratch_.data());  // x = D_jj^+ v_j, 0 on dropped rows
  for (int i = 0; i < kj; ++i) {
    const ConstraintBlock& b = p_.blocks[i];
    bool any = false;
    for (int r = 0; r < b.size; ++r) any = any || redundant_.chol().dropped_row(i, r);
    if (!any) continue;
    assert(b.size <= 6);
    double y[6] = {0, 0, 0, 0, 0, 0};  // (D_jj x)_i: joint blocks have at most 6 rows
    p_.D.multiply_row_add(i, xj_.data(), y);
    for (int r = 0; r < b.size; ++r)
      if (redundant_.chol().dropped_row(i, r)) p_.v_f[b.offset + r] = y[r];
  }
  return true;
}

VecX joint_residual(const Model& m, const State& s) {
  VecX f(m.joint_rows());
  int row = 0;
  JointAxes ax;
  for (const Joint& j : m.joints()) {
    joint_axes(j, s, ax);
    for (int r = 0; r < ax.m; ++r) f[row++] = ax.value[ax.constrained[r]];
  }
  return f;
}

MatX joint_jacobian(const Model& m, const State& s) {
  MatX J = MatX::Zero(m.joint_rows(), 6 * m.num_bodies());
  int row = 0;
  JointAxes ax;
  for (const Joint& j : m.joints()) {
    joint_axes(j, s, ax);
    for (int r = 0; r < ax.m; ++r, ++row) {
      J.block<1, 6>(row, 6 * j.follower) += ax.Jf.row(ax.constrained[r]);
      if (j.base >= 0) J.block<1, 6>(row, 6 * j.base) += ax.Jb.row(ax.constrained[r]);
    }
  }
  return J;
}

double limit_violation(const Model& m, const State& s) {
  double worst = 0.0;
  JointAxes ax;
  for (const Joint& j : m.joints()) {
    bool any = false;
    for (int k = 0; k < j.dofs(); ++k) any |= j.limits[k].enabled();
    if (!any) continue;
    joint_axes(j, s, ax);
    for (int k = 0; k < ax.d; ++k) {
      const double q = ax.value[ax.dof[k]];
      worst = std::max({worst, j.limits[k].lower - q, q - j.limits[k].upper});
    }
  }
  return worst;
}

double constraint_violation(const Model& m, const State& s) {
  const VecX f = joint_residual(m, s);
  const double fj = f.size() ? f.cwiseAbs().maxCoeff() : 0.0;
  return std::max(fj, limit_violation(m, s));
}

int numerical_rank(const MatX& A, double rel_tol) {
  if (A.size() == 0) return 0;
  Eigen::ColPivHouseholderQR<MatX> qr(A);
  qr.setThreshold(rel_tol);
  return static_cast<int>(qr.rank());
}

}  // namespace moreau
