#include "moreau/sim/simulator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "moreau/math/so3.hpp"

namespace moreau {

Simulator::Simulator(const Model& model, SimSettings settings)
    : model_(&model),
      settings_(std::move(settings)),
      collision_(model, settings_.collision),
      builder_(model),
      projector_(model),
      fast_path_(settings_) {
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

bool Simulator::solve_step(Problem& p) {
  fast_path_used_ = false;
  if (settings_.fast_path &&
      fast_path_.solve(p, warm_, solver_ws_, solution_, builder_.joint_factor())) {
    fast_path_used_ = true;
    return true;
  }
  return solve(settings_.solver, p, settings_.solver_settings, warm_, solver_ws_, solution_);
}

namespace {

// Seconds from t to now; t becomes now (one clock read per stage boundary).
double lap(std::chrono::steady_clock::time_point& t) {
  const auto now = std::chrono::steady_clock::now();
  const double s = std::chrono::duration<double>(now - t).count();
  t = now;
  return s;
}

}  // namespace

bool Simulator::step(State& s) {
  times_ = StepTimes{};
  if (!check_step(s)) return false;
  auto clock = std::chrono::steady_clock::now();
  if (is_nmdp(settings_.integrator)) {
    const bool ok = step_nmdp(s);
    times_.solve = lap(clock);
    return ok;
  }
  // Moreau's midpoint evaluates everything (collision, J, M, generalized force) at
  // s_m = s [+] dt/2 u^-.
  const double dt = settings_.dt;
  const bool midpoint = settings_.integrator == Integrator::MoreauMidpoint;
  if (midpoint) {
    mid_ = s;
    integrate_positions(mid_, s.u, 0.5 * dt);
    mid_.t = s.t + 0.5 * dt;
  }
  const State& at = midpoint ? mid_ : s;
  contacts_ = &collision_.detect(at, settings_.collision);
  times_.collision = lap(clock);
  const std::vector<JointAxes>* axes = projector_.axes_at(at);
  Problem& p = builder_.build(at, *contacts_, dt, settings_.dynamics, axes);
  times_.build = lap(clock);
  if (!p.v_f.allFinite()) {
    error_ = "non-finite free velocity at t = " + std::to_string(s.t) +
             " s (state or forces contain NaN/Inf)";
    return false;
  }
  make_warm_start(p);
  if (!solve_checked(p, s.t)) return false;
  p.velocity_from_impulse(solution_.lambda, u_plus_);  // eq. 76
  // A limit the step's velocity carries past its bound with no row (an impact's impulse turned
  // the joint toward it within the step): the Problem is built again with its row and solved from
  // this answer (docs/dynamics.md, "Limits").
  const double h = integrator_theta(settings_.integrator) ? 0.0 : midpoint ? 0.5 * dt : dt;
  for (int pass = 0; h > 0.0 && pass < kLimitPasses &&
                     builder_.force_crossed_limits(at, u_plus_, h, dt, settings_.dynamics, axes);
       ++pass) {
    remember_solution(p);
    builder_.build(at, *contacts_, dt, settings_.dynamics, axes);
    make_warm_start(p);
    if (!solve_checked(p, s.t)) {
      builder_.clear_forced_limits();
      return false;
    }
    p.velocity_from_impulse(solution_.lambda, u_plus_);
  }
  builder_.clear_forced_limits();
  remember_solution(p);
  times_.solve = lap(clock);
  integrate(s);
  times_.integrate = lap(clock);
  // Post-stabilization of the positions only: u+ already satisfies the joint rows at s (or s_m),
  // and projecting it too would remove kinetic energy (docs/dynamics.md, "Position projection").
  // Softened (compliant) joints are meant to stretch: not projected.
  if (settings_.dynamics.position_projection && !settings_.dynamics.softening.enabled)
    projector_.project(s, settings_.dynamics);
  s.t += dt;
  const bool finite = s.all_finite();
  times_.project = lap(clock);
  if (!finite) {
    error_ = "non-finite state after the step ending at t = " + std::to_string(s.t) + " s";
    return false;
  }
  return true;
}

bool Simulator::solve_checked(Problem& p, double t) {
  if (!solve_step(p)) {
    error_ = solution_.message;
    return false;
  }
  if (solution_.status == SolveStatus::Diverged || solution_.status == SolveStatus::Failed) {
    error_ = std::string("solver '") + settings_.solver + "' " + status_name(solution_.status) +
             " at t = " + std::to_string(t) + " s" +
             (solution_.message.empty() ? "" : ": " + solution_.message);
    return false;
  }
  return true;
}

bool Simulator::check_step(const State& s) {
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
  if (is_nmdp(settings_.integrator) && builder_.controls()) {
    error_ = std::string("integrator ") + integrator_name(settings_.integrator) +
             " does not take controls (set_controls); it reads the model's actuators";
    return false;
  }
  return true;
}

// u+ (u_plus_, from the impulse by eq. 76), then the positions: s+ = s [+] dt u+ (semi-implicit
// Euler), s+ = s_m [+] dt/2 u+ (Moreau's midpoint), or SAP's theta-method s+ = s [+] dt (theta_vq
// u+ + (1 - theta_vq) u-) (Castro et al. 2023, eq. 12).
void Simulator::integrate(State& s) {
  const double dt = settings_.dt;
  for (int i = 0; i < model_->num_bodies(); ++i) twist_buf_[i] = u_plus_.segment<6>(6 * i);
  if (settings_.integrator == Integrator::MoreauMidpoint) {
    s.r = mid_.r;
    s.q = mid_.q;
    integrate_positions(s, twist_buf_, 0.5 * dt);
  } else if (integrator_theta(settings_.integrator) && theta_vq_ != 1.0) {
    for (int i = 0; i < model_->num_bodies(); ++i)
      vq_buf_[i] = theta_vq_ * twist_buf_[i] + (1.0 - theta_vq_) * s.u[i];
    integrate_positions(s, vq_buf_, dt);
  } else {
    integrate_positions(s, twist_buf_, dt);
  }
  for (int i = 0; i < model_->num_bodies(); ++i) s.u[i] = twist_buf_[i];
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
