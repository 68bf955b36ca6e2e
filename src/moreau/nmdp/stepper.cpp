#include "moreau/nmdp/stepper.hpp"
#include "moreau/solvers/stop.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <unsupported/Eigen/AutoDiff>

#include "moreau/nmdp/loops.hpp"

namespace moreau::nmdp {

namespace {

using Deriv = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, Stepper::kMaxDofs, 1>;
using AD = Eigen::AutoDiffScalar<Deriv>;
constexpr double kPi = std::numbers::pi;
constexpr double kInf = std::numeric_limits<double>::infinity();

Error model_error(const Model& m, const std::string& element, const std::string& expected,
                  const std::string& got) {
  Error e;
  e.element = "model '" + m.name() + "'" + (element.empty() ? "" : " " + element);
  e.expected = expected;
  e.got = got;
  return e;
}

}  // namespace

Result<Stepper> Stepper::create(const Model& model, const NmdpSettings& settings) {
  if (auto e = validate(settings)) return *e;
  Result<Tree> tree = Tree::build(model);
  if (!tree) return tree.error();
  if (tree->dofs() + tree->loop_rows() > kMaxDofs)
    return model_error(model, "",
                       "at most " + std::to_string(kMaxDofs) + " coordinates and loop rows (nmdp)",
                       std::to_string(tree->dofs()) + " coordinates and " +
                           std::to_string(tree->loop_rows()) + " loop rows");
  for (int j : tree->loops()) {
    const Joint& J = model.joints()[j];
    for (int k = 0; k < J.dofs(); ++k)
      if (J.actuators[k].mode != ActuationMode::Passive || J.damping[k] != 0.0)
        return model_error(model, "joint '" + J.name + "'",
                           "a passive joint where it closes a loop (the nmdp integrators close "
                           "loops by constraints: its coordinates are not tree coordinates)",
                           std::string("DoF ") + std::to_string(k) + " " +
                               (J.actuators[k].mode != ActuationMode::Passive
                                    ? actuation_mode_name(J.actuators[k].mode)
                                    : "damped"));
  }
  for (const Joint& J : model.joints())
    for (int k = 0; k < J.dofs(); ++k)
      if (J.armature[k] > 0.0)
        return model_error(
            model, "joint '" + J.name + "'",
            "no armature (the nmdp integrators' tree mass matrix does not hold the "
            "rotors yet; import MJCF with --set armature=inertia)",
            "armature " + std::to_string(J.armature[k]) + " on DoF " + std::to_string(k));
  for (const Segment& sg : tree->segments()) {
    if (sg.joint < 0 || sg.chart_at < 0) continue;
    const Joint& j = model.joints()[sg.joint];
    for (int k = sg.chart_at; k < sg.dofs; ++k)
      if (j.actuators[k].mode != ActuationMode::Passive || j.damping[k] != 0.0)
        return model_error(model, "joint '" + j.name + "'",
                           "no actuator or damping on the rotation of a spherical or free joint "
                           "(the nmdp integrators' chart angles are not moreau's joint values)",
                           std::string("DoF ") + std::to_string(k) + " " +
                               actuation_mode_name(j.actuators[k].mode));
  }
  return Stepper(model, std::move(*tree), settings);
}

Stepper::Stepper(const Model& model, Tree tree, const NmdpSettings& settings)
    : model_(&model), tree_(std::move(tree)), settings_(settings) {
  k_ = settings.k > 0.0 ? settings.k
                        : automatic_stiffness(model, settings.delta, settings.expected_contacts);
  const int n = tree_.dofs();
  dof_joint_.assign(n, nullptr);
  dof_index_.assign(n, 0);
  dof_angular_.assign(n, false);
  for (const Segment& sg : tree_.segments())
    for (int i = 0; i < sg.dofs; ++i) {
      dof_joint_[sg.offset + i] = sg.joint >= 0 ? &model.joints()[sg.joint] : nullptr;
      dof_index_[sg.offset + i] = i;
      dof_angular_[sg.offset + i] = sg.prims[i].revolute;
    }
  active_.assign(tree_.loop_rows(), false);
  lambda_.setZero(tree_.loop_rows());
  sigma_.resize(model.num_bodies());
  for (int b = 0; b < model.num_bodies(); ++b) sigma_[b] = second_moment(model.bodies()[b]);
}

void Stepper::begin(Method method, const State& s, const std::vector<Contact>& contacts) {
  tree_.from_state(s, theta_m_, qd_m_);
  contacts_.directions = settings_.directions;
  contacts_.k = k_;
  contacts_.offset = method == Method::NmdpZo
                         ? settings_.zeta * settings_.delta * settings_.delta * settings_.delta
                         : 0.0;
  contacts_.set(contacts, s);
  groups_.assign(contacts_.size(), settings_.directions);
  // The independent loop rows at theta_-: column-pivoted QR of C^T.
  active_rows_ = 0;
  if (tree_.loop_rows() == 0 || tree_.dofs() == 0) return;
  VecX c;
  MatX C;
  loop_jacobian(theta_m_, c, C);
  // Pivots below 1e-9 max(1, largest pivot) count as dependent: absolute for rows that do not
  // depend on theta at all (a loop that duplicates a fixed joint: C = 0 up to rounding).
  Eigen::ColPivHouseholderQR<MatX> qr(C.transpose());
  const double top = qr.maxPivot();
  if (top > 0.0) qr.setThreshold(1e-9 * std::max(1.0, top) / top);
  std::vector<bool> active(C.rows(), false);
  const int rank = top > 0.0 ? static_cast<int>(qr.rank()) : 0;
  for (int i = 0; i < rank; ++i) active[qr.colsPermutation().indices()[i]] = true;
  for (int r = 0; r < C.rows(); ++r)
    if (!active[r]) lambda_[r] = 0.0;  // no warm start for a row that comes back
  active_ = active;
  active_rows_ = rank;
}

void Stepper::loop_jacobian(const VecX& theta, VecX& c, MatX& C) {
  const int n = tree_.dofs();
  VX<AD> th(n), ca;
  for (int i = 0; i < n; ++i) th[i] = AD(theta[i], n, i);
  Kinematics<AD> kin;
  forward_kinematics<AD>(tree_, th, kin);
  loop_residual<AD>(tree_, kin, ca);
  c.resize(ca.size());
  C.setZero(ca.size(), n);
  for (int r = 0; r < ca.size(); ++r) {
    c[r] = ca[r].value();
    if (ca[r].derivatives().size() == n) C.row(r) = ca[r].derivatives().transpose();
  }
}

VecX Stepper::loop_residual_at(const VecX& theta) {
  Kinematics<double> kin;
  forward_kinematics<double>(tree_, theta, kin);
  VecX c;
  loop_residual<double>(tree_, kin, c);
  return c;
}

double Stepper::merit(const VecX& G) const {
  const int n = tree_.dofs();
  double g = G.head(n).lpNorm<Eigen::Infinity>();
  if (G.size() > n)
    g = std::max(g, G.tail(G.size() - n).lpNorm<Eigen::Infinity>() * tol_ / settings_.tol_loop);
  return g;
}

void Stepper::set_substep(const VecX& theta_minus, const VecX& qd_minus, double h, double t_new) {
  theta_m_ = theta_minus;
  qd_m_ = qd_minus;
  h_ = h;
  t_new_ = t_new;
  const int n = tree_.dofs();
  servo_diag_.setZero(n);
  for (int i = 0; i < n; ++i) {
    using AD1 = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
    const AD1 x(0.0, 1, 0);
    const AD1 tau = actuation<AD1>(i, servo_position<AD1>(i, theta_m_[i] + h_ * x), x);
    if (tau.derivatives().size() == 1) servo_diag_[i] = -h_ * tau.derivatives()[0];
  }
  if (settings_.form == NmdpForm::PositionBased) {
    theta_mm_ = theta_m_ - h_ * qd_m_;
    forward_kinematics<double>(tree_, theta_m_, kin_m_);
    forward_kinematics<double>(tree_, theta_mm_, kin_mm_);
    affine_targets(kin_m_, kin_mm_, 1.0, inertial_);  // 2 X(theta_-) - X(theta_--)
    affine_targets(kin_m_, kin_mm_, 0.0, kinetic_);   // X(theta_-)
  }
}

// The joint force of DoF i at the new state (q, qd): moreau's actuator and damping law
// (dynamics/builder.cpp), evaluated implicitly as in stable PD (Tan, Liu & Turk 2011), the
// controller Pan & Hauser 2021 use (Sec. VI).
template <class T>
T Stepper::actuation(int i, const T& q, const T& qd) const {
  const Joint* j = dof_joint_[i];
  if (j == nullptr) return T(0.0);
  const int k = dof_index_[i];
  const DofActuator& a = j->actuators[k];
  double c = j->damping[k];
  if (a.mode == ActuationMode::Passive && c == 0.0) return T(0.0);
  const double phase = 2.0 * kPi * a.frequency * t_new_ + a.phase;
  T t0 = T(0.0);
  switch (a.mode) {
    case ActuationMode::Passive:
      break;
    case ActuationMode::Force:
      t0 = T(a.force + a.amplitude * std::sin(phase));
      break;
    // Position servo and stable PD: one law; where q is taken is ServoForm (servo_position).
    case ActuationMode::Position:
    case ActuationMode::StablePd: {
      const ActuatorReference ref = actuator_reference(a, t_new_);
      T err = ref.q - q;
      if (dof_angular_[i]) {
        const double e = value_of(err);
        err += std::atan2(std::sin(e), std::cos(e)) - e;  // wrap to (-pi, pi]
      }
      t0 = a.force + a.kp * err + a.kd * ref.qd;
      c += a.kd;
      break;
    }
    case ActuationMode::Velocity:
      t0 = T(a.force + a.kd * (a.target + a.amplitude * std::sin(phase)));
      c += a.kd;
      break;
  }
  T tau = t0 - c * qd;
  if (a.mode != ActuationMode::Passive) {
    if (value_of(tau) > a.effort_limit) tau = T(a.effort_limit);
    if (value_of(tau) < -a.effort_limit) tau = T(-a.effort_limit);
  }
  return tau;
}

// The position a servo sees at the step's new coordinate q (ServoForm): q itself, or Tan, Liu &
// Turk's prediction q_n + dt q_dot_n from the sub-step's start (a constant).
template <class T>
T Stepper::servo_position(int i, const T& q) const {
  if (settings_.servo == ServoForm::Implicit) return q;
  return T(theta_m_[i] + h_ * qd_m_[i]);
}

// G_alpha of (6) with theta_dot, theta_ddot from (2) (over the sub-step length h, see
// docs/integrators.md): ID(theta, qd, qdd) - sum_x J_x^T v_x w_x - tau; or in the position-based
// form (eq. 12) grad I_alpha(theta) - sum_x J_x^T v_x w_x - tau with gravity's potential in I.
template <class T>
void Stepper::generalized_residual(const VX<T>& theta, const VecX& w, bool frozen, VX<T>& G) {
  const int n = tree_.dofs();
  Kinematics<T> kin;
  forward_kinematics<T>(tree_, theta, kin);
  VX<T> qd(n), qdd(n);
  for (int i = 0; i < n; ++i) {
    qd[i] = (theta[i] - theta_m_[i]) / h_;
    qdd[i] = (qd[i] - qd_m_[i]) / h_;
  }
  std::vector<V6<T>> f(model_->num_bodies(), V6<T>::Zero());
  if (w.size() > 0) contacts_.add_forces<T>(kin, w, frozen, f);
  VX<T> c;  // loop rows: c(theta), and C^T lambda among the body forces
  if (active_rows_ > 0) loop_terms<T>(tree_, kin, c, &active_, theta.data() + n, &f);
  if (settings_.form == NmdpForm::PositionBased)
    pbd_gradient<T>(tree_, kin, sigma_, inertial_, 1.0 / (h_ * h_), model_->gravity(), f, G);
  else
    inverse_dynamics<T>(tree_, kin, qd, qdd, f, G);
  for (int i = 0; i < n; ++i)
    if (dof_joint_[i] != nullptr) G[i] -= actuation<T>(i, servo_position<T>(i, theta[i]), qd[i]);
  if (active_rows_ == 0) return;
  G.conservativeResize(n + active_rows_);
  for (int r = 0, a = n; r < c.size(); ++r)
    if (active_[r]) G[a++] = c[r];
}

void Stepper::residual(const VecX& theta, const VecX& w, VecX& G, MatX* J, bool zeroth_order) {
  if (J == nullptr) {
    generalized_residual<double>(theta, w, false, G);
    return;
  }
  const int n = static_cast<int>(theta.size());
  VX<AD> th(n), g;
  for (int i = 0; i < n; ++i) th[i] = AD(theta[i], n, i);
  generalized_residual<AD>(th, w, zeroth_order, g);
  G.resize(n);
  J->setZero(n, n);
  for (int i = 0; i < n; ++i) {
    G[i] = g[i].value();
    if (g[i].derivatives().size() == n) J->row(i) = g[i].derivatives().transpose();
  }
}

void Stepper::weight_jacobian(const VecX& theta, MatX& B) const {
  const int n = tree_.dofs(), D = contacts_.directions;
  Kinematics<double> kin;
  forward_kinematics<double>(tree_, theta, kin);
  B.setZero(theta.size(), contacts_.weights());
  MatX Jx(3, n), Jo(3, n);
  for (int c = 0; c < contacts_.size(); ++c) {
    const PointContact& p = contacts_.points[c];
    const double s = contacts_.scale<double>(kin, c, false);
    if (s == 0.0) continue;
    const Vec3 X = point_position(kin, p.body, p.local);
    point_jacobian(tree_, kin, p.body, X, Jx);
    if (p.other >= 0) {
      point_jacobian(tree_, kin, p.other, X, Jo);
      Jx -= Jo;  // relative point velocity: the difference of both bodies' point Jacobians
    }
    for (int i = 0; i < D; ++i)
      B.col(c * D + i) = -s * (Jx.transpose() * contacts_.direction(c, i));
  }
}

double Stepper::kinetic(const VecX& z, VecX* grad) {
  const int n = tree_.dofs();
  const VecX theta = z.head(n);
  double K = motion_energy(theta, grad);
  if (settings_.objective == NmdpObjective::Dissipation) {
    // + 1/2 qd^T S qd with qd = (theta - theta_-) / h: A's part beyond H.
    const VecX d = theta - theta_m_;
    const double s = 1.0 / (h_ * h_);
    K += 0.5 * s * d.dot(servo_diag_.cwiseProduct(d));
    if (grad != nullptr) *grad += s * servo_diag_.cwiseProduct(d);
  }
  return K;
}

double Stepper::motion_energy(const VecX& theta, VecX* grad) {
  const int n = tree_.dofs();
  if (settings_.form == NmdpForm::PositionBased) {
    Kinematics<double> kin;
    forward_kinematics<double>(tree_, theta, kin);
    const double s = 1.0 / (h_ * h_);
    if (grad != nullptr) {
      const std::vector<V6<double>> none(model_->num_bodies(), V6<double>::Zero());
      pbd_gradient<double>(tree_, kin, sigma_, kinetic_, s, Vec3::Zero(), none, *grad);
    }
    return s * pbd_energy<double>(tree_, kin, sigma_, kinetic_);
  }
  if (grad == nullptr) {
    Kinematics<double> kin;
    forward_kinematics<double>(tree_, theta, kin);
    const VecX qd = (theta - theta_m_) / h_;
    return kinetic_energy<double>(tree_, kin, qd);
  }
  VX<AD> th(n), qd(n);
  for (int i = 0; i < n; ++i) {
    th[i] = AD(theta[i], n, i);
    qd[i] = (th[i] - theta_m_[i]) / h_;
  }
  Kinematics<AD> kin;
  forward_kinematics<AD>(tree_, th, kin);
  const AD K = kinetic_energy<AD>(tree_, kin, qd);
  grad->setZero(n);
  if (K.derivatives().size() == n) *grad = K.derivatives();
  return K.value();
}

void Stepper::mass(const VecX& theta, MatX& H) {
  Kinematics<double> kin;
  forward_kinematics<double>(tree_, theta, kin);
  mass_matrix<double>(tree_, kin, H);
}

bool Stepper::project(VecX& theta, const VecX& w, bool zeroth_order) {
  VecX G;
  MatX J;
  double prev = kInf;
  for (int it = 0;; ++it) {
    residual(theta, w, G, &J, zeroth_order);
    const double g = merit(G);
    if (!std::isfinite(g)) return false;
    if (g <= tol_) return true;
    // Divergence (Pan & Hauser 2021, Sec. V): |G| does not decrease, or the step cap.
    if (g >= prev || it >= settings_.max_projection) return false;
    prev = g;
    Eigen::FullPivLU<MatX> lu(J);
    if (!lu.isInvertible()) return false;  // A5.2 violated
    theta -= lu.solve(G);
    ++stats_.projections;
  }
}

bool Stepper::pgm(bool zeroth_order, VecX& theta, VecX& w) {
  const int m = contacts_.weights(), n = tree_.dofs(), N = unknowns();
  w.setZero(m);
  VecX G, lambda(N - n);
  for (int r = 0, a = 0; r < tree_.loop_rows(); ++r)
    if (active_[r]) lambda[a++] = lambda_[r];
  VecX z0(N);
  z0 << theta_m_, lambda;
  residual(z0, w, G, nullptr, false);
  tol_ = settings_.tol_G * std::max(1.0, G.head(n).lpNorm<Eigen::Infinity>());
  // Start: the contact-free backward-Euler solution (Alg. 1, l. 2), projected from the explicit
  // prediction theta_- + h theta_dot_- (the paper starts at theta_-; the same manifold point).
  theta.resize(N);
  theta << theta_m_ + h_ * qd_m_, lambda;
  if (!project(theta, w, zeroth_order)) return false;
  VecX gradK, gradC, wn, cand, c;
  MatX J, B, P, H, Q;
  double K = kinetic(theta, &gradK);
  stats_.K.assign(1, K);
  if (m == 0) return true;
  double gamma = settings_.gamma0;
  for (int it = 0; it < settings_.max_outer; ++it) {
    if (should_stop()) break;  // a signal or the step's time budget (solvers/stop.hpp)
    ++stats_.outer;
    // QP (8)/(10): P = dG/dtheta^-1 dG/dw, Hessian of K by its dominant term H / h^2 (in both
    // forms: integral rho J^T J dx / h^2 = H / h^2 for the position-based K).
    residual(theta, w, G, &J, zeroth_order);
    weight_jacobian(theta, B);
    Eigen::FullPivLU<MatX> lu(J);
    if (!lu.isInvertible()) return false;
    P = lu.solve(B);
    if (N > n) P = P.topRows(n).eval();  // d theta / d w: the loops' multipliers dropped
    mass(theta, H);
    if (settings_.objective == NmdpObjective::Dissipation) H.diagonal() += servo_diag_;
    Q = P.transpose() * (H / (h_ * h_)) * P;
    Q.diagonal().array() += 2.0 / gamma;
    c = -P.transpose() * gradK - Q * w;
    wn = w;
    if (!qp_.solve(Q, c, groups_, wn).converged) ++stats_.qp_capped;
    cand = theta;
    const bool ok = project(cand, wn, zeroth_order);
    const double Kc = ok ? kinetic(cand, &gradC) : kInf;
    const double step = ok ? (cand - theta).head(n).lpNorm<Eigen::Infinity>() : kInf;
    if (Kc > K) {
      // Reject (Alg. 1, l. 10) with the smaller step gamma / eta: the proximal term |dw|^2 /
      // gamma shrinks the step as gamma decreases. A failed projection counts as a rejection.
      ++stats_.rejections;
      gamma /= settings_.eta;
      if (step < settings_.epsilon) return true;  // stationary within epsilon
      continue;
    }
    theta = cand;
    w = wn;
    K = Kc;
    gradK = gradC;
    stats_.K.push_back(K);
    gamma *= settings_.eta;
    if (step < settings_.epsilon) return true;  // Alg. 1, l. 13
  }
  ++stats_.capped;  // feasible (G = 0) with K decreased, not yet stationary
  return true;
}

bool Stepper::simulate(bool zeroth_order, const VecX& theta_minus, const VecX& qd_minus, double h,
                       double t0, VecX& theta, VecX& qd) {
  set_substep(theta_minus, qd_minus, h, t0 + h);
  VecX w;
  if (pgm(zeroth_order, theta, w)) {
    const int n = tree_.dofs();
    for (int r = 0, a = n; r < tree_.loop_rows(); ++r)
      if (active_[r]) lambda_[r] = theta[a++];
    theta.conservativeResize(n);
    qd = (theta - theta_minus) / h;
    weights_ = w;
    velocity_ = qd;
    ++stats_.substeps;
    stats_.min_step = std::min(stats_.min_step, h);
    return true;
  }
  // Algorithm 2: two halves, the second from the first's end state.
  if (0.5 * h < settings_.min_step) {
    error_ =
        "nmdp: PGM diverged at t = " + error_number(t0) + " s with alpha dt = " + error_number(h) +
        " s; halving would go below the minimum step " + error_number(settings_.min_step) + " s";
    return false;
  }
  ++stats_.alpha_cuts;
  VecX theta_half, qd_half;
  if (!simulate(zeroth_order, theta_minus, qd_minus, 0.5 * h, t0, theta_half, qd_half))
    return false;
  return simulate(zeroth_order, theta_half, qd_half, 0.5 * h, t0 + 0.5 * h, theta, qd);
}

// NE-MDP (Pan & Hauser 2021, Sec. VI baseline): H, C, J and v at theta_-; the stable-PD joint
// forces tau(theta_- + h qd, qd) = tau0 - D qd are linear in qd and solved with it.
bool Stepper::mdp(VecX& theta, VecX& qd) {
  const int n = tree_.dofs(), m = contacts_.weights();
  Kinematics<double> kin;
  forward_kinematics<double>(tree_, theta_m_, kin);
  MatX H;
  mass_matrix<double>(tree_, kin, H);
  VecX C;
  std::vector<V6<double>> f(model_->num_bodies(), V6<double>::Zero());
  inverse_dynamics<double>(tree_, kin, qd_m_, VecX::Zero(n), f, C);
  VecX tau0(n);
  for (int i = 0; i < n; ++i)
    tau0[i] = actuation<double>(i, servo_position<double>(i, theta_m_[i]), 0.0);
  MatX A = H;
  A.diagonal() += servo_diag_;  // tau = tau0 - S qd / h along the step
  const VecX rhs = H * qd_m_ + h_ * (tau0 - C);
  VecX qd_free;
  MatX Y;  // qd(w) = qd_free + Y w
  MatX B;
  if (m > 0) weight_jacobian(theta_m_, B);
  if (active_rows_ == 0) {
    Eigen::LDLT<MatX> fac(A);
    if (fac.info() != Eigen::Success) {
      error_ = "mdp: the linearized mass matrix is not positive definite";
      return false;
    }
    qd_free = fac.solve(rhs);
    if (m > 0) Y = -h_ * fac.solve(B);
  } else {
    // Loops: [A C^T; C 0] (qd, nu) = (rhs, -c(theta_-) / h): the velocity closes the loop's
    // position error within the step.
    const int na = active_rows_;
    VecX c_all, c(na);
    MatX C_all, Ca(na, n);
    loop_jacobian(theta_m_, c_all, C_all);
    for (int r = 0, a = 0; r < C_all.rows(); ++r)
      if (active_[r]) c[a] = c_all[r], Ca.row(a++) = C_all.row(r);
    MatX K = MatX::Zero(n + na, n + na);
    K.topLeftCorner(n, n) = A;
    K.topRightCorner(n, na) = Ca.transpose();
    K.bottomLeftCorner(na, n) = Ca;
    Eigen::FullPivLU<MatX> fac(K);
    if (!fac.isInvertible()) {
      error_ = "mdp: the loop-constrained system is singular";
      return false;
    }
    VecX b(n + na);
    b << rhs, -c / h_;
    qd_free = fac.solve(b).head(n);
    if (m > 0) {
      MatX Bz = MatX::Zero(n + na, m);
      Bz.topRows(n) = B;
      Y = -h_ * fac.solve(Bz).topRows(n);
    }
  }
  qd = qd_free;
  if (m > 0) {
    // Eq. 6's K = 1/2 qd^T H qd, or 1/2 qd^T A qd (NmdpSettings::objective).
    const MatX& W = settings_.objective == NmdpObjective::Dissipation ? A : H;
    const MatX Q = Y.transpose() * W * Y;
    const VecX c = Y.transpose() * (W * qd_free);
    VecX w = VecX::Zero(m);
    if (!qp_.solve(Q, c, groups_, w).converged) ++stats_.qp_capped;
    qd += Y * w;
    weights_ = w;
  } else {
    weights_.resize(0);
  }
  theta = theta_m_ + h_ * qd;
  velocity_ = qd;
  stats_.outer = 1;
  stats_.substeps = 1;
  return true;
}

bool Stepper::step(Method method, State& s, const std::vector<Contact>& contacts, double dt) {
  stats_ = StepStats{};
  stats_.min_step = dt;
  error_.clear();
  begin(method, s, contacts);
  VecX theta, qd;
  bool ok;
  if (method == Method::Mdp) {
    set_substep(theta_m_, qd_m_, dt, s.t + dt);
    ok = mdp(theta, qd);
  } else {
    const VecX th0 = theta_m_, qd0 = qd_m_;
    ok = simulate(method == Method::NmdpZo, th0, qd0, dt, s.t, theta, qd);
  }
  if (!ok) return false;
  if (!theta.allFinite() || !qd.allFinite()) {
    error_ = "nmdp: non-finite coordinates after the step from t = " + error_number(s.t) + " s";
    return false;
  }
  tree_.to_state(theta, qd, s);
  s.t += dt;
  return true;
}

}  // namespace moreau::nmdp
