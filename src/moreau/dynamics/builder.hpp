#pragma once
// dynamics::build_problem: (Model, State, Contacts, dt) -> Problem (eq. 11-13, 67-94).
#include <vector>

#include <Eigen/LU>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/joint_delassus.hpp"
#include "moreau/dynamics/joint_kinematics.hpp"
#include "moreau/dynamics/problem.hpp"
#include "moreau/dynamics/settings.hpp"

namespace moreau {

class ProblemBuilder {
 public:
  explicit ProblemBuilder(const Model& model);
  // Builds the Problem at state s (time s.t, used by scripted actuators). The reference stays
  // valid until the next build; the caller may adjust its free velocity (JointSchur::unwedge).
  // Allocates only when the problem grows. `axes`: every joint's
  // joint_axes at s when the caller has them (PositionProjector::axes_at), read in place (it must
  // stay unchanged until build returns), else evaluated here.
  Problem& build(const State& s, const std::vector<Contact>& contacts, double dt,
                 const DynamicsSettings& settings, const std::vector<JointAxes>* axes = nullptr);
  // The last build's D_jj, factored with its redundant rows dropped, where the model has loops
  // (make_redundant_rows_consistent needs it); nullptr otherwise. Valid until the next build.
  const JointDelassus* joint_factor() const { return joint_factor_ ? &redundant_ : nullptr; }
  // After a solve of the last build at s (with the same `axes`): the limits without a row there
  // that the step's velocity u_plus (6 per body) carries past their bound within h (the time the
  // positions advance along u_plus: dt, or dt / 2 from Moreau's midpoint), an impact's impulse
  // having turned the joint toward its bound within the step. They get a row in every later
  // build until clear_forced_limits(). True when it found any (docs/dynamics.md, "Limits").
  bool force_crossed_limits(const State& s, const VecX& u_plus, double h, double dt,
                            const DynamicsSettings& st,
                            const std::vector<JointAxes>* axes = nullptr);
  void clear_forced_limits() { forced_limits_.clear(); }
  const Problem& problem() const { return p_; }
  // Whether build() also fills Problem::D_dense (when nl <= DynamicsSettings::dense_limit). Only
  // solvers that read the dense copy need it (SolverInfo::reads_dense); on by default.
  void set_build_dense(bool on) { build_dense_ = on; }
  // The theta-method's free motion (Castro et al. 2023, eq. 13-18) instead of eq. 72: springs
  // (Position servos' kp) and dampers (passive d, servo kd) of unary joints without an effort
  // limit enter A = M + dt^2 theta theta_vq K + dt theta D (eq. 15), and
  //   A (u_free - u^-) = dt (h(s, u^-) - theta dt K u^-),
  // with h's spring and damper forces explicit at (s, u^-). Problem::M and Minv then hold A and
  // A^-1 (block-diagonal: a unary joint's K and D act on its follower only). Binary joints keep
  // eq. 72 (with implicit_joint_forces). theta < 0: off (the default).
  // Controls (one per actuated_dofs(model) entry, model/model.hpp) that replace the actuators'
  // set points in the next builds; nullptr: the model's own. The array must outlive the builds.
  void set_controls(const double* u) { controls_ = u; }
  const double* controls() const { return controls_; }
  void set_theta_method(double theta, double theta_vq) {
    theta_ = theta;
    theta_vq_ = theta_vq;
  }

 private:
  void add_forces(const State& s, const DynamicsSettings& st, double dt);
  void composite(int jn, const State& s);
  void add_joint_blocks(const State& s, const DynamicsSettings& st, double dt);
  void add_limit_blocks(const State& s, const DynamicsSettings& st, double dt);
  void add_contact_blocks(const State& s, const std::vector<Contact>& c, const DynamicsSettings& st,
                          double dt);
  void build_delassus(const DynamicsSettings& st);
  bool make_redundant_rows_consistent();  // true when D_jj was factored
  void implicit_rotation(const State& s, int i, double dt);

  const Model* model_;
  Problem p_;
  std::vector<JointAxes> axes_;                // evaluated here when the caller has none
  const std::vector<JointAxes>* ax_ = &axes_;  // during a build: the caller's or axes_
  JointAxes pred_axes_;
  State pred_;                           // s [+] dt u-, for drift compensation
  std::vector<double> bias_, fbuf_;      // v_B + E v^- per row, before it is added to J u_free
  std::vector<uint64_t> forced_limits_;  // limit block ids given a row (force_crossed_limits)
  std::vector<double> compliance_;       // per armature row: 1 / (a + dt d) (other rows: unused)
  std::vector<std::vector<std::pair<int, int>>> incidence_;  // per body: (block, slot)
  std::vector<int> sizes_, cols_, mark_;
  std::vector<JacobianBlock> jminv_[2];  // J_{i,s} M^-1, per block and slot
  bool build_dense_ = true;
  const double* controls_ = nullptr;  // set_controls
  double theta_ = -1.0, theta_vq_ = 1.0;
  std::vector<Mat6> theta_K_, theta_D_;  // per body: K and D of eq. 16-17
  std::vector<char> theta_on_;           // per body: K or D non-zero
  // Per joint: the bodies of its follower's subtree (follower first), for stable PD servos.
  std::vector<std::vector<int>> subtree_;
  // The subtree of the joint whose stable PD DoFs add_forces is at (composite()).
  struct Composite {
    double mass = 0.0;
    Vec3 h, G;
    Mat3 J;
    bool invertible = false;  // Jf's LU
  };
  Composite comp_;
  Eigen::PartialPivLU<Mat6> comp_lu_;
  bool loops_ = false;         // the joints close a kinematic loop: redundant rows possible
  JointDelassus redundant_;    // D_jj with the redundant rows dropped
  bool joint_factor_ = false;  // redundant_ holds the last build's D_jj
  GrowVec xj_, scratch_;
};

// Stacked joint residual f_J(s) (eq. 83), sum m_j rows.
VecX joint_residual(const Model& m, const State& s);
// Dense joint Jacobian J_J (sum m_j x 6 nb), for inspection and tests.
MatX joint_jacobian(const Model& m, const State& s);
// Largest limit violation max(0, lower - q, q - upper) over all limited DoFs.
double limit_violation(const Model& m, const State& s);
// Infinity norm of f_J(s) and of the limit violations (the joints-and-limits part of eq. 84).
double constraint_violation(const Model& m, const State& s);
// Numerical rank by a rank-revealing QR with a relative threshold.
int numerical_rank(const MatX& A, double rel_tol = 1e-9);
// DoF coordinate q and rate qdot of joint j's DoF k. A joint sequence's coordinates come from a
// cold start at the reference configuration (hinge angles on the branch nearest it); to follow
// angles continuously past pi, keep a JointAxes per joint and call joint_axes every step.
void joint_dof_state(const Joint& j, const State& s, int k, double* q, double* qdot);

}  // namespace moreau
