#pragma once
// The NMDP time steppers of Pan & Hauser 2021 on a Tree:
//   Mdp    NE-MDP baseline: forward Euler (eq. 3), one convex QP in the weights w.
//   Nmdp   backward Euler, problem (6) solved by first-order PGM (Alg. 1: QP (8), projection (9))
//          inside the adaptive step halving of Alg. 2.
//   NmdpZo the same with the zeroth-order Jacobian (eq. 10-11): v_x's theta-derivative dropped.
// Nmdp and NmdpZo take G and K in the Newton-Euler form (eq. 1-2, (6)) or the position-based
// form (eq. 4, 12; pbd.hpp), NmdpSettings::form; Mdp is always Newton-Euler.
// A model with loops (loops.hpp) is solved for z = (theta, lambda): G grows by the loop rows
// c(theta) = 0 and their multipliers lambda; Mdp keeps C theta_dot = -c(theta_-) / dt. Loop rows
// that are dependent at the step's start (a planar loop's out-of-plane rows) are left out for
// that step; they stay satisfied with the independent ones.
// Readings of the paper's open points are listed in docs/integrators.md.
#include <string>
#include <vector>

#include "moreau/nmdp/contact_model.hpp"
#include "moreau/nmdp/pbd.hpp"
#include "moreau/nmdp/settings.hpp"
#include "moreau/nmdp/simplex_qp.hpp"

namespace moreau::nmdp {

enum class Method : uint8_t { Mdp, Nmdp, NmdpZo };

// What the last step did.
struct StepStats {
  int outer = 0;          // PGM outer iterations (QP solves), summed over the step's sub-steps
  int rejections = 0;     // outer iterations whose K increased (gamma shrunk)
  int projections = 0;    // Newton steps of the manifold projection
  int alpha_cuts = 0;     // Alg. 2 halvings
  int substeps = 0;       // PGM solves that were accepted
  int capped = 0;         // sub-steps that hit max_outer (accepted: G = 0 and K decreased)
  int qp_capped = 0;      // QP solves that ended at their iteration cap, KKT not met
  double min_step = 0.0;  // smallest alpha dt used [s]
  // The objective (K, or K plus the servos' part: nmdp.objective) at the accepted iterates of
  // the last PGM solve.
  std::vector<double> K;
};

class Stepper {
 public:
  // Fails (naming the model and the reason) on joint sequences, more than kMaxDofs coordinates
  // and loop rows, actuated spherical/free rotations or actuated loop-closing joints, or settings
  // out of range.
  static Result<Stepper> create(const Model& model, const NmdpSettings& settings);
  static constexpr int kMaxDofs = 64;

  // Advances s by dt with the contacts detected at s. False on failure; error() says why.
  bool step(Method method, State& s, const std::vector<Contact>& contacts, double dt);
  const StepStats& stats() const { return stats_; }
  const std::string& error() const { return error_; }
  const Tree& tree() const { return tree_; }
  const ContactModel& contacts() const { return contacts_; }
  // The contact weights w and the velocity theta_dot+ that the last step's last accepted
  // (sub-)step ended with, `directions` weights per contact of contacts(); the (sub-)step started
  // at theta_minus(), qd_minus().
  const VecX& weights() const { return weights_; }
  const VecX& velocity() const { return velocity_; }
  double stiffness() const { return k_; }
  NmdpForm form() const { return settings_.form; }

  // ---- The pieces of a step (public for the tests) ----
  // Starts a step at s: charts, theta_-, theta_dot_-, contacts (with the zeta offset for ZO),
  // the independent loop rows.
  void begin(Method method, const State& s, const std::vector<Contact>& contacts);
  // Sets the sub-step: theta_-, theta_dot_-, its length h and its end time t_new. The
  // position-based form takes theta_-- = theta_- - h theta_dot_- (one sub-step back).
  void set_substep(const VecX& theta_minus, const VecX& qd_minus, double h, double t_new);
  const VecX& theta_minus() const { return theta_m_; }
  const VecX& qd_minus() const { return qd_m_; }
  // G_alpha(theta, w) of (6) (or of eq. 12 in the position-based form) and, when J != nullptr,
  // dG/dtheta (exact, or zeroth-order: the dv/dtheta term dropped) by forward-mode automatic
  // differentiation. With loops, theta is z = (theta, lambda) (unknowns() entries) and G is
  // (G - C^T lambda, c(theta)) with the active loop rows.
  void residual(const VecX& theta, const VecX& w, VecX& G, MatX* J, bool zeroth_order);
  // dG/dw = -[J_x^T v_x^i] (one column per weight) at theta; zero rows for the loop rows.
  void weight_jacobian(const VecX& theta, MatX& B) const;
  // Coordinates plus active loop rows: the size of z.
  int unknowns() const { return tree_.dofs() + active_rows_; }
  // The loop rows kept for this step (begin()).
  const std::vector<bool>& active_loop_rows() const { return active_; }
  // K(theta) (theta's first dofs() entries) = 1/2 theta_dot^T H theta_dot (position-based: integral
  // rho |X(theta) - X(theta_-)|^2 / (2 h^2)), and its gradient when grad != nullptr. With the
  // dissipation objective (NmdpSettings::objective) plus 1/2 theta_dot^T S theta_dot, S the
  // servos' diagonal (servo_diagonal()).
  double kinetic(const VecX& theta, VecX* grad);
  // S = A - H of the sub-step: -h d tau_i / d qd_i along qd -> (q_- + h qd, qd) at qd = 0, the
  // servos' and dampers' h Kd + h^2 Kp (h Kd alone for Tan's servo, whose position is fixed).
  const VecX& servo_diagonal() const { return servo_diag_; }
  // The joint-space mass matrix at theta.
  void mass(const VecX& theta, MatX& H);
  // Projection (9)/(11): Newton on G(., w) = 0 from theta. False when |G| does not decrease,
  // dG/dtheta is near singular or max_projection steps do not reach tol.
  bool project(VecX& theta, const VecX& w, bool zeroth_order);
  // Algorithm 1 on the current sub-step. Returns false when the projection diverged.
  bool pgm(bool zeroth_order, VecX& theta, VecX& w);
  // The loop residual c(theta) (all loop rows).
  VecX loop_residual_at(const VecX& theta);
  // |G| tolerance of the current sub-step.
  double tolerance() const { return tol_; }

 private:
  bool simulate(bool zeroth_order, const VecX& theta_minus, const VecX& qd_minus, double h,
                double t0, VecX& theta, VecX& qd);
  bool mdp(VecX& theta, VecX& qd);
  // K(theta) alone (kinetic() without the servos' part), theta of dofs() entries.
  double motion_energy(const VecX& theta, VecX* grad);
  // max(|G|_inf / tol, |c|_inf / tol_loop): <= 1 when z solves G = 0.
  double merit(const VecX& G) const;
  // c(theta) and C = dc/dtheta (all loop rows) at theta.
  void loop_jacobian(const VecX& theta, VecX& c, MatX& C);
  template <class T>
  void generalized_residual(const VX<T>& theta, const VecX& w, bool frozen, VX<T>& G);
  template <class T>
  T actuation(int dof, const T& q, const T& qd) const;
  template <class T>
  T servo_position(int dof, const T& q) const;

  Stepper(const Model& model, Tree tree, const NmdpSettings& settings);
  const Model* model_;
  Tree tree_;
  NmdpSettings settings_;
  double k_ = 0.0;
  ContactModel contacts_;
  std::vector<const Joint*> dof_joint_;  // the moreau joint of each DoF (nullptr: implicit)
  std::vector<int> dof_index_;           // its DoF index within the joint
  std::vector<bool> dof_angular_;
  std::vector<int> groups_;
  SimplexQp qp_;
  std::vector<bool> active_;  // loop rows kept this step
  int active_rows_ = 0;
  VecX lambda_;  // the loop multipliers of the last accepted solve (warm start)
  VecX theta_m_, qd_m_;
  VecX servo_diag_;          // servo_diagonal()
  VecX weights_, velocity_;  // weights(), velocity()
  // Position-based form: per-body second moments, the targets of I_alpha and K (pbd.hpp) and
  // the kinematics at theta_- and theta_-- they come from.
  std::vector<Mat3> sigma_;
  AffineTargets inertial_, kinetic_;
  Kinematics<double> kin_m_, kin_mm_;
  VecX theta_mm_;
  double h_ = 0.0, t_new_ = 0.0, tol_ = 0.0;
  StepStats stats_;
  std::string error_;
};

}  // namespace moreau::nmdp
