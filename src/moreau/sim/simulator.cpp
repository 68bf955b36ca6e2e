#include "moreau/sim/simulator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "moreau/math/so3.hpp"
#include "moreau/ncp/residuals.hpp"

namespace moreau {

Simulator::Simulator(const Model& model, SimSettings settings)
    : model_(&model),
      settings_(std::move(settings)),
      collision_(model, settings_.collision),
      builder_(model),
      projector_(model) {
  twist_buf_.resize(model.num_bodies());
  vq_buf_.resize(model.num_bodies());
  u_plus_.resize(6 * model.num_bodies());
  // D's dense copy only for the solvers that read it (an unknown name fails in step()), and not on
  // the fast path: its elimination reads the block-sparse D, and a step that falls back to the
  // full solve has the solver densify D itself.
  const SolverInfo* info = find_solver(settings_.solver);
  builder_.set_build_dense((info == nullptr || info->reads_dense) && !settings_.fast_path);
  double theta = -1.0, theta_vq = 1.0;
  if (integrator_theta(settings_.integrator, &theta, &theta_vq))
    builder_.set_theta_method(theta, theta_vq);
  theta_vq_ = theta_vq;
  newton_settings_ = settings_.solver_settings;  // tol and nsn's parameters
  newton_settings_.max_iters = settings_.fast_path_newton;
}

void Simulator::make_warm_start(const Problem& p) {
  if (!settings_.warm_start || prev_ids_.empty()) {
    warm_.lambda.resize(0);
    return;
  }
  if (warm_.lambda.size() != p.nl) warm_.lambda.resize(p.nl);
  warm_.lambda.setZero();
  for (const ConstraintBlock& b : p.blocks) {
    auto it = std::lower_bound(prev_ids_.begin(), prev_ids_.end(), std::make_pair(b.id, -1));
    if (it == prev_ids_.end() || it->first != b.id) continue;
    const int k = static_cast<int>(it - prev_ids_.begin());
    if (prev_sizes_[k] != b.size) continue;
    warm_.lambda.segment(b.offset, b.size) = prev_lambda_.segment(it->second, b.size);
  }
}

void Simulator::remember_solution(const Problem& p) {
  prev_ids_.clear();
  for (const ConstraintBlock& b : p.blocks) prev_ids_.push_back({b.id, b.offset});
  std::sort(prev_ids_.begin(), prev_ids_.end());
  prev_sizes_.resize(prev_ids_.size());
  for (size_t k = 0; k < prev_ids_.size(); ++k) {
    // blocks are few per id; find the size by offset (blocks sorted by offset)
    const int off = prev_ids_[k].second;
    auto it = std::lower_bound(p.blocks.begin(), p.blocks.end(), off,
                               [](const ConstraintBlock& b, int o) { return b.offset < o; });
    prev_sizes_[k] = it->size;
  }
  if (prev_lambda_.size() != p.nl) prev_lambda_.resize(p.nl);
  prev_lambda_ = solution_.lambda;
}

bool Simulator::solve_step(const Problem& p) {
  fast_path_used_ = false;
  if (settings_.fast_path && solve_fast(p)) return true;
  return solve(settings_.solver, p, settings_.solver_settings, warm_, solver_ws_, solution_);
}

// The fast path: the Problem split into islands (sim/islands.hpp), each solved on its own
// (solve_island): its warm start where that meets tol (warm_answers), otherwise its joint rows
// eliminated (sim/joint_schur.hpp), the NCP of its limit and contact rows solved by nsn and the
// step's solver (solve_reduced), the answer expanded and scattered into the full impulse. The
// problems are equivalent: D is block diagonal over the islands, and the full natural map (eq. 163)
// of the expanded impulse is the reduced ones' on the limit and contact rows and the joint rows'
// equation residual after one refinement step. The answer is kept unless every island converged
// while the full natural map misses tol (a joint block too ill-conditioned for the elimination):
// then warm_ becomes the expanded impulse, from which the full solve starts. A solve stopped at its
// iteration cap is kept with that status, as the full solve's would be.
bool Simulator::solve_fast(const Problem& p) {
  const SolverInfo* info = find_solver(settings_.solver);
  // A CCP solver's answer misses the NCP's natural map the fast path judges by, and nsn solves the
  // NCP: such a step takes the full solve.
  if (info == nullptr || !info->handles_contacts || info->peer || info->name == "sap" ||
      info->problem != "NCP" || solves_ccp(info->name, settings_.solver_settings) ||
      p.R.size() != 0 || p.nl == 0)
    return false;
  const auto t0 = std::chrono::steady_clock::now();
  // solution_ is still the last step's: its answer well inside tol predicts a warm start that
  // meets tol (warm_answers).
  try_warm_ = settings_.fast_path_newton > 0 &&
              solution_.residual <= kWarmAnswerMargin * settings_.solver_settings.tol;
  islands_.split(p);
  const int ni = islands_.count();
  IslandStats stats;
  if (ni == 1) {
    if (!solve_island(p, warm_, *info, full_lambda_, stats)) return false;
  } else {
    full_lambda_.resize(p.nl);
    for (int k = 0; k < ni; ++k) {
      islands_.extract(p, k, island_);
      if (warm_.empty())
        island_warm_.lambda.resize(0);
      else
        islands_.gather(p, k, warm_.lambda, island_warm_.lambda);
      if (!solve_island(island_, island_warm_, *info, island_lambda_, stats)) return false;
      islands_.scatter(p, k, island_lambda_, full_lambda_);
    }
  }
  // The full natural map; a single island answered by its warm start has it already.
  double natmap = stats.warm_natmap;
  if (ni == 1 && stats.warm_answers == 1) {
    full_v_.swap(island_v_);
  } else {
    full_v_.resize(p.nl);
    p.D.multiply(full_lambda_.data(), full_v_.data());
    full_v_ += p.v_f;
    natmap = ncp_residuals(p, full_lambda_, full_v_, info->problem == "NCP", scratch_).natmap;
  }
  const SolverSettings& st = settings_.solver_settings;
  const bool converged = natmap <= st.tol;
  // The split, the eliminations and the expansions count as set-up: all but the solvers'
  // iterations.
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (stats.status == SolveStatus::Converged && !converged) {
    warm_.lambda = full_lambda_;
    return false;
  }
  solution_.lambda = full_lambda_;
  solution_.v_plus = full_v_;
  solution_.status = converged ? SolveStatus::Converged : stats.status;
  solution_.iterations = stats.iterations;
  solution_.residual = natmap;
  solution_.solve_time_s = total;
  solution_.setup_time_s = std::max(0.0, total - stats.iteration_time_s);
  solution_.iteration_time_s = stats.iteration_time_s;
  solution_.fallbacks = stats.fallbacks;
  solution_.message.clear();
  solution_.trace.clear();
  fast_path_used_ = true;
  islands_used_ = ni;
  warm_answers_used_ = stats.warm_answers;
  return true;
}

// One island q (or the whole Problem): its joint rows eliminated where the elimination applies,
// else q solved as it is; the answer into lambda (q.nl entries), the solvers' counts into stats.
// False when a solver fails or diverges (the caller then solves the full problem).
bool Simulator::solve_island(const Problem& q, const WarmStart& warm, const SolverInfo& info,
                             GrowVec& lambda, IslandStats& stats) {
  const bool eliminate = schur_.factor(q);  // false without joint rows
  if (warm_answers(q, warm, eliminate, lambda, stats.warm_natmap)) {
    ++stats.warm_answers;
    return true;
  }
  if (eliminate) schur_.reduce_factored(q);
  const Problem& r = eliminate ? schur_.reduced() : q;
  if (warm.empty())
    schur_warm_.lambda.resize(0);
  else
    schur_warm_.lambda = warm.lambda.tail(r.nl);  // the limit and contact rows come last (eq. 67)
  int newton_iters = 0;
  if (r.nl == 0) {  // joint rows only: the elimination is the solve
    schur_sol_.lambda.resize(0);
    schur_sol_.status = SolveStatus::Converged;
    schur_sol_.iterations = 0;
    schur_sol_.fallbacks = 0;
    schur_sol_.iteration_time_s = 0.0;
  } else if (!solve_reduced(r, info, newton_iters)) {
    return false;
  }
  if (eliminate)
    schur_.expand(q, schur_sol_.lambda, lambda);
  else
    lambda = schur_sol_.lambda;
  stats.iterations += newton_iters + schur_sol_.iterations;
  stats.fallbacks += schur_sol_.fallbacks;
  stats.iteration_time_s += schur_sol_.iteration_time_s;
  if (schur_sol_.status != SolveStatus::Converged) stats.status = schur_sol_.status;
  return true;
}

// Whether the warm start answers island q (its natural map into natmap): its limit and contact
// impulses, with the joint impulses they imply (JointSchur::expand), meet tol on q. Where nsn would
// take the island (an NCP of at most JointSchur::kMaxReducedRows rows once its joint rows are
// eliminated, or without joint rows), that is its iteration 0, without building the reduced NCP: a
// body at rest keeps its impulses (docs/performance.md, "A warm start that answers the step"). The
// test is the full natural map, by which the step is judged; where both accept, the answer is nsn's
// iteration 0's, bit for bit. Tried only after a step whose answer was within kWarmAnswerMargin
// tol: one at the edge of tol (a warm start taken as it was) rarely meets tol a step later, and the
// test would cost its expansion for nothing.
bool Simulator::warm_answers(const Problem& q, const WarmStart& warm, bool eliminated,
                             GrowVec& lambda, double& natmap) {
  if (!try_warm_ || warm.lambda.size() != q.nl) return false;
  // A loop's joint rows (D_jj singular) are not taken as they were; nor is an island nsn does not
  // solve.
  if (!eliminated && schur_.joint_rows() > 0) return false;
  if (schur_.other_rows() > JointSchur::kMaxReducedRows) return false;
  if (eliminated)
    schur_.expand(q, warm.lambda.tail(schur_.other_rows()), lambda);
  else
    lambda = warm.lambda;
  island_v_.resize(q.nl);
  q.D.multiply(lambda.data(), island_v_.data());
  island_v_ += q.v_f;
  // A non-finite entry of D, v_f or the warm start makes v, hence the natural map, NaN (0 x NaN
  // is NaN): the test fails and the solve's validation reports it.
  natmap = ncp_residuals(q, lambda, island_v_, true, scratch_).natmap;
  return natmap <= settings_.solver_settings.tol;
}

// The reduced NCP (SimSettings::fast_path_newton): nsn from the warm start settles most steps in a
// few Newton iterations. Where it does not, the step's solver runs from nsn's best iterate, and
// where that stops at its iteration cap, nsn polishes its answer. False when the step's solver
// fails or diverges (the caller then solves the full problem).
bool Simulator::solve_reduced(const Problem& r, const SolverInfo& info, int& newton_iters) {
  const SolverSettings& st = settings_.solver_settings;
  // nsn's Newton system is dense: past the elimination's size limit, the step's solver alone.
  const bool use_newton = settings_.fast_path_newton > 0 && r.nl <= JointSchur::kMaxReducedRows;
  double newton_time = 0.0;
  double best = std::numeric_limits<double>::infinity();  // the lowest natural map nsn reached
  // nsn from `start`: true when it converged (answer in schur_sol_); otherwise its best iterate
  // becomes schur_warm_ if it is the best so far.
  auto newton = [&](const WarmStart& start) {
    if (!solve("nsn", r, newton_settings_, start, solver_ws_, newton_sol_)) return false;
    newton_iters += newton_sol_.iterations;
    newton_time += newton_sol_.iteration_time_s;
    if (newton_sol_.status == SolveStatus::Converged) {
      schur_sol_.lambda = newton_sol_.lambda;
      schur_sol_.status = SolveStatus::Converged;
      return true;
    }
    if (newton_sol_.status == SolveStatus::MaxIterations && newton_sol_.residual < best) {
      best = newton_sol_.residual;
      schur_warm_.lambda = newton_sol_.lambda;
    }
    return false;
  };
  const bool cold_retry =
      use_newton && !schur_warm_.empty() && r.nl <= settings_.fast_path_cold_rows;
  if (use_newton && (newton(schur_warm_) || (cold_retry && newton(cold_start_)))) {
    schur_sol_.iterations = 0;
    schur_sol_.fallbacks = 0;
    schur_sol_.iteration_time_s = newton_time;
    return true;
  }
  if (!solve(settings_.solver, r, st, schur_warm_, solver_ws_, schur_sol_)) return false;
  if (schur_sol_.status == SolveStatus::Diverged || schur_sol_.status == SolveStatus::Failed)
    return false;
  if (use_newton && schur_sol_.status == SolveStatus::MaxIterations) {
    schur_warm_.lambda = schur_sol_.lambda;
    // A polish, then (where the cold retry above did not run) nsn from zero: a warm start in the
    // wrong stick-slip pattern can trap it where a cold start is not. Each counts only if it
    // converges.
    if (!newton(schur_warm_) && !cold_retry) newton(cold_start_);
  }
  schur_sol_.iteration_time_s += newton_time;
  return true;
}

bool Simulator::step(State& s) {
  const double dt = settings_.dt;
  if (s.num_bodies() != model_->num_bodies() || static_cast<int>(s.q.size()) != s.num_bodies() ||
      static_cast<int>(s.u.size()) != s.num_bodies()) {
    error_ = "state has " + std::to_string(s.num_bodies()) + " bodies, the model " +
             std::to_string(model_->num_bodies());
    return false;
  }
  if (!(dt > 0.0) || !std::isfinite(dt)) {
    error_ = "time step must be finite and > 0, got " + std::to_string(dt);
    return false;
  }
  if (std::string bad = integrator_solver_error(settings_.integrator, settings_.solver);
      !bad.empty()) {
    error_ = std::move(bad);
    return false;
  }
  if (is_nmdp(settings_.integrator)) {
    if (builder_.controls()) {
      error_ = std::string("integrator ") + integrator_name(settings_.integrator) +
               " does not take controls (set_controls); it reads the model's actuators";
      return false;
    }
    return step_nmdp(s);
  }
  const bool midpoint = settings_.integrator == Integrator::MoreauMidpoint;
  // SAP's theta-method (Castro et al. 2023, Alg. 1): contacts and J at s, the free motion and A
  // from the builder (eq. 13-18), then s+ = s [+] dt (theta_vq u+ + (1 - theta_vq) u-) (eq. 12).
  const bool theta_method = integrator_theta(settings_.integrator);
  State* at = &s;
  if (midpoint) {
    // Moreau's midpoint: everything (collision, J, M, generalized force) is evaluated at s_m = s
    // [+] dt/2 u^-.
    mid_ = s;
    integrate_positions(mid_, s.u, 0.5 * dt);
    mid_.t = s.t + 0.5 * dt;
    at = &mid_;
  }
  contacts_ = &collision_.detect(*at, settings_.collision);
  const Problem& p =
      builder_.build(*at, *contacts_, dt, settings_.dynamics, projector_.axes_at(*at));
  if (!p.v_f.allFinite()) {
    error_ = "non-finite free velocity at t = " + std::to_string(s.t) +
             " s (state or forces contain NaN/Inf)";
    return false;
  }
  make_warm_start(p);
  if (!solve_step(p)) {
    error_ = solution_.message;
    return false;
  }
  if (solution_.status == SolveStatus::Diverged || solution_.status == SolveStatus::Failed) {
    error_ = std::string("solver '") + settings_.solver + "' " + status_name(solution_.status) +
             " at t = " + std::to_string(s.t) + " s" +
             (solution_.message.empty() ? "" : ": " + solution_.message);
    return false;
  }
  remember_solution(p);
  p.velocity_from_impulse(solution_.lambda, u_plus_);  // eq. 76
  for (int i = 0; i < model_->num_bodies(); ++i) twist_buf_[i] = u_plus_.segment<6>(6 * i);
  if (midpoint) {
    s.r = mid_.r;
    s.q = mid_.q;
    integrate_positions(s, twist_buf_, 0.5 * dt);
  } else if (theta_method && theta_vq_ != 1.0) {
    for (int i = 0; i < model_->num_bodies(); ++i)
      vq_buf_[i] = theta_vq_ * twist_buf_[i] + (1.0 - theta_vq_) * s.u[i];
    integrate_positions(s, vq_buf_, dt);
  } else {
    integrate_positions(s, twist_buf_, dt);
  }
  for (int i = 0; i < model_->num_bodies(); ++i) s.u[i] = twist_buf_[i];
  // Post-stabilization of the positions only: u+ already satisfies the joint rows at s (or s_m),
  // and projecting it too would remove kinetic energy (docs/dynamics.md, "Position projection").
  // Softened (compliant) joints are meant to stretch: not projected.
  if (settings_.dynamics.position_projection && !settings_.dynamics.softening.enabled)
    projector_.project(s, settings_.dynamics);
  s.t += dt;
  if (!s.all_finite()) {
    error_ = "non-finite state after the step ending at t = " + std::to_string(s.t) + " s";
    return false;
  }
  return true;
}

// mdp, nmdp, nmdp-zo: contacts detected once at s (fixed within the step, Pan & Hauser 2021,
// Sec. VII), then the generalized-coordinate stepper; no NCP. The Solution reports the PGM outer
// iterations as `iterations` and the Alg. 2 halvings as `fallbacks`.
bool Simulator::step_nmdp(State& s) {
  if (!nmdp_) {
    Result<nmdp::Stepper> st = nmdp::Stepper::create(*model_, settings_.nmdp);
    if (!st) {
      error_ = st.error().message();
      return false;
    }
    nmdp_ = std::make_unique<nmdp::Stepper>(std::move(*st));
  }
  CollisionSettings cs = settings_.collision;
  cs.margin = std::max(cs.margin, settings_.nmdp.contact_margin);
  contacts_ = &collision_.detect(s, cs);
  const nmdp::Method method = settings_.integrator == Integrator::Mdp    ? nmdp::Method::Mdp
                              : settings_.integrator == Integrator::Nmdp ? nmdp::Method::Nmdp
                                                                         : nmdp::Method::NmdpZo;
  const bool ok = nmdp_->step(method, s, *contacts_, settings_.dt);
  const nmdp::StepStats& st = nmdp_->stats();
  solution_.lambda.resize(0);
  solution_.v_plus.resize(0);
  solution_.iterations = st.outer;
  solution_.fallbacks = st.alpha_cuts;
  // A sub-step accepted at PGM's max_outer, or a QP stopped at its cap, is reported as a step
  // that did not converge (it is kept, as a capped NCP solve is).
  const bool capped = st.capped > 0 || st.qp_capped > 0;
  solution_.status = !ok      ? SolveStatus::Failed
                     : capped ? SolveStatus::MaxIterations
                              : SolveStatus::Converged;
  solution_.message = !ok ? nmdp_->error()
                      : capped
                          ? std::to_string(st.capped) + " sub-step(s) accepted at max_outer, " +
                                std::to_string(st.qp_capped) + " QP(s) at their cap"
                          : std::string();
  if (!ok) {
    error_ = nmdp_->error();
    return false;
  }
  if (!s.all_finite()) {
    error_ = "non-finite state after the step ending at t = " + std::to_string(s.t) + " s";
    return false;
  }
  return true;
}

}  // namespace moreau
