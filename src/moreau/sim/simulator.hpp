#pragma once
// Simulator::step: the pipeline of the design sketch, one plain value handed on per stage:
//   collision::detect -> dynamics::build_problem -> solve (sim::FastPath, else solvers::solve)
//   -> integrate -> project positions (docs/design.md, "One time step").
#include <memory>
#include <string>
#include <vector>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/dynamics/projection.hpp"
#include "moreau/nmdp/stepper.hpp"
#include "moreau/sim/fast_path.hpp"
#include "moreau/sim/settings.hpp"
#include "moreau/solvers/solver.hpp"

namespace moreau {

// Wall time of the last step's stages [s] (docs/performance.md, "Where the time goes"). The
// NMDP integrators' steps have their own pipeline (nmdp/stepper.hpp): all of it counts as solve.
struct StepTimes {
  double collision = 0.0;  // contact detection (after Moreau's midpoint state, where it applies)
  double build = 0.0;      // the Problem: M^-1, J, D, v_f (dynamics/builder.hpp)
  double solve = 0.0;      // the warm start, the fast path or the solver, the impulses remembered
  double integrate = 0.0;  // u+ and the positions
  double project = 0.0;    // the position projection, the state's finiteness check
  double total() const { return collision + build + solve + integrate + project; }
};

class Simulator {
 public:
  Simulator(const Model& model, SimSettings settings);
  // Advances `s` by one step dt. Returns false on failure (unknown solver, non-finite numbers in
  // the problem or the new state); error() then says what and where.
  bool step(State& s);
  // Controls, one per actuated_dofs(model) entry (model/model.hpp), that replace the actuators'
  // set points from the next step on; nullptr: the model's own. The array is read in place at
  // every step and must outlive them. The NMDP integrators (mdp, nmdp, nmdp-zo) read the model's
  // set points; their steps fail while controls are set.
  void set_controls(const double* u) { builder_.set_controls(u); }

  const Model& model() const { return *model_; }
  const SimSettings& settings() const { return settings_; }
  const Problem& problem() const { return builder_.problem(); }
  const Solution& solution() const { return solution_; }
  // The warm start the last step's solve used (empty: cold start).
  const WarmStart& warm_start() const { return warm_; }
  const std::vector<Contact>& contacts() const { return *contacts_; }
  const std::string& error() const { return error_; }
  // What the collision detector cannot handle in this model (CollisionDetector::warnings).
  const std::vector<std::string>& warnings() const { return collision_.warnings(); }
  // Iterations, errors and time of the last step's position projection (zeros when it is off).
  const ProjectionStats& projection_stats() const { return projector_.stats(); }
  // Wall time of the last step's stages (zeros before the first step or after a failed check).
  const StepTimes& step_times() const { return times_; }
  // The last step's PGM statistics (mdp, nmdp, nmdp-zo; nullptr for the NCP integrators).
  const nmdp::StepStats* nmdp_stats() const { return nmdp_ ? &nmdp_->stats() : nullptr; }
  // The stepper of mdp, nmdp, nmdp-zo after the last step (nullptr before the first one and for
  // the NCP integrators): its contact model, weights and sub-step.
  const nmdp::Stepper* nmdp_stepper() const { return nmdp_.get(); }
  // Whether the last step's answer came from the fast path (SimSettings::fast_path): the joint
  // rows eliminated, the answer checked on the full problem.
  bool fast_path_used() const { return fast_path_used_; }
  // Islands the last fast step solved separately (sim/islands.hpp); 0 when it took the full solve.
  int fast_path_islands() const { return fast_path_used_ ? fast_path_.islands() : 0; }
  // Islands of the last fast step answered by their warm start, with no solver iteration
  // (docs/performance.md, "A warm start that answers the step").
  int fast_path_warm_answers() const { return fast_path_used_ ? fast_path_.warm_answers() : 0; }
  // Contacts of the last step wedged by the joints, whose free velocity the fast path corrected
  // (JointSchur::unwedge; docs/performance.md, "Wedged contacts").
  int fast_path_wedged() const { return fast_path_.wedged(); }
  // Open contacts the last fast step set aside (SimSettings::fast_path_set_aside_open).
  int fast_path_set_aside() const { return fast_path_used_ ? fast_path_.set_aside() : 0; }
  // Of those, the ones the step's answer let close, taken back and solved with the rest.
  int fast_path_taken_back() const { return fast_path_used_ ? fast_path_.taken_back() : 0; }

 private:
  // The stages of step(), in order.
  bool check_step(const State& s);  // the state's size, dt, the integrator's solver
  bool step_nmdp(State& s);
  void make_warm_start(const Problem& p);
  // Solves the step's Problem into solution_, by the fast path when it applies and its answer
  // passes the full problem's natural map; false on an unknown solver.
  bool solve_step(Problem& p);
  // solve_step, and the message of a solver that fails or diverges; false then.
  bool solve_checked(Problem& p, double t);
  void remember_solution(const Problem& p);
  void integrate(State& s);  // u+ (u_plus_), positions by the integrator
  // Builds and solves again for limits the answer's velocity crosses (step()): at most this many.
  static constexpr int kLimitPasses = 2;

  const Model* model_;
  SimSettings settings_;
  CollisionDetector collision_;
  ProblemBuilder builder_;
  PositionProjector projector_;
  SolverWorkspace solver_ws_;
  Solution solution_;
  WarmStart warm_;
  const std::vector<Contact>* contacts_ = nullptr;
  std::vector<Contact> no_contacts_;
  std::vector<std::pair<uint64_t, int>> prev_ids_;  // (id, offset) sorted by id
  std::vector<int> prev_sizes_;
  GrowVec prev_lambda_;
  VecX u_plus_;
  std::vector<Vec6> twist_buf_, vq_buf_;  // u+ and the theta-method's v^theta_vq (eq. 6)
  double theta_vq_ = 1.0;
  State mid_;
  std::unique_ptr<nmdp::Stepper> nmdp_;  // made on the first step of mdp, nmdp, nmdp-zo
  std::string error_;
  FastPath fast_path_;
  bool fast_path_used_ = false;
  StepTimes times_;
};

}  // namespace moreau
