#include "moreau/solvers/solver.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "moreau/solvers/registry_list.hpp"
#include "moreau/solvers/stop.hpp"

namespace moreau {

const char* status_name(SolveStatus s) {
  switch (s) {
    case SolveStatus::Converged:
      return "converged";
    case SolveStatus::MaxIterations:
      return "max_iterations";
    case SolveStatus::Diverged:
      return "diverged";
    case SolveStatus::Failed:
      return "failed";
  }
  return "?";
}

const std::vector<SolverInfo>& solver_registry() {
  static const std::vector<SolverInfo> registry = make_solver_registry();
  return registry;
}

bool in_bench_default_set(const SolverInfo& s) {
  return s.name != "pgs" && s.name != "direct" && s.name != "sap" && !s.peer && s.bench_default;
}

const SolverInfo* find_solver(std::string_view name) {
  for (const SolverInfo& s : solver_registry())
    if (s.name == name) return &s;
  return nullptr;
}

std::string solver_names(std::string_view sep) {
  std::string out;
  for (const SolverInfo& s : solver_registry()) {
    if (!out.empty()) out += sep;
    out += s.name;
  }
  return out;
}

bool solve(std::string_view name, const Problem& p, const SolverSettings& s, const WarmStart& w,
           SolverWorkspace& ws, Solution& sol) {
  const SolverInfo* info = find_solver(name);
  if (!info) {
    sol.status = SolveStatus::Failed;
    sol.message = "unknown solver '" + std::string(name) + "'; available: " + solver_names();
    return false;
  }
  if (!w.empty() && w.lambda.size() != p.nl) {
    sol.status = SolveStatus::Failed;
    sol.message = "warm start has " + std::to_string(w.lambda.size()) + " entries, expected " +
                  std::to_string(p.nl);
    return false;
  }
  if (sol.lambda.size() != p.nl) sol.lambda.resize(p.nl);
  if (sol.v_plus.size() != p.nl) sol.v_plus.resize(p.nl);
  sol.trace.clear();
  sol.message.clear();
  sol.iterations = 0;
  sol.fallbacks = 0;
  sol.residual = 0.0;
  sol.solve_time_s = 0.0;
  sol.setup_time_s = 0.0;
  sol.iteration_time_s = 0.0;
  // Non-finite or inconsistent problems get status Failed, never a solve (O(nnz) check).
  if (std::string bad = p.validate(); !bad.empty()) {
    sol.status = SolveStatus::Failed;
    sol.message = std::string(name) + ": invalid problem: " + bad;
    sol.lambda.setZero();
    sol.v_plus.setConstant(std::numeric_limits<double>::quiet_NaN());
    return true;
  }
  if (!info->handles_softening && p.R.size() == p.nl && p.nl > 0) {
    sol.status = SolveStatus::Failed;
    sol.message = std::string(name) +
                  ": the Problem carries constraint softening (R), which this solver does not "
                  "solve; turn softening off (settings.softening) or pick another solver";
    sol.lambda.setZero();
    sol.v_plus.setConstant(std::numeric_limits<double>::quiet_NaN());
    return true;
  }
  if (!info->handles_box && std::any_of(p.blocks.begin(), p.blocks.end(),
                                        [](const auto& b) { return b.cone == ConeKind::Box; })) {
    sol.status = SolveStatus::Failed;
    sol.message = std::string(name) +
                  ": this Problem has joint dry-friction rows (an interval bound, MJCF "
                  "frictionloss, URDF friction), which this solver does not take: pick another "
                  "solver (docs/solvers.md)";
    sol.lambda.setZero();
    sol.v_plus.setConstant(std::numeric_limits<double>::quiet_NaN());
    return true;
  }
  if (info->contacts_only && p.rows_of(RowKind::Contact) != p.nl) {
    sol.status = SolveStatus::Failed;
    sol.message = std::string(name) +
                  ": solves contact-only problems (W r + q); this Problem has " +
                  std::to_string(p.nl - p.rows_of(RowKind::Contact)) +
                  " joint or limit rows: pick a moreau solver";
    sol.lambda.setZero();
    sol.v_plus.setConstant(std::numeric_limits<double>::quiet_NaN());
    return true;
  }
  if (should_stop()) {  // a signal or the step's time budget (solvers/stop.hpp): no solve
    sol.status = SolveStatus::Failed;
    sol.message = std::string(name) + ": " + stop_message();
    sol.lambda.setZero();
    sol.v_plus.setConstant(std::numeric_limits<double>::quiet_NaN());
    return true;
  }
  const auto t0 = std::chrono::steady_clock::now();
  info->fn(p, s, w, ws, sol);
  if (!sol.converged() && should_stop()) {  // its loop ended on the request
    sol.status = SolveStatus::Failed;
    sol.message = std::string(name) + ": " + stop_message();
  }
  sol.solve_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sol.iteration_time_s = std::max(0.0, sol.solve_time_s - sol.setup_time_s);
  // v+ = D lambda + v_f (eq. 13), computed here once for every solver.
  p.D.multiply(sol.lambda.data(), sol.v_plus.data());
  sol.v_plus += p.v_f;
  // With softening, v_f holds the regulation bias v_r (eq. 106); the physical velocity is without
  // it.
  if (p.v_r.size() == p.nl) sol.v_plus -= p.v_r;
  if (!sol.lambda.allFinite() || !sol.v_plus.allFinite()) {
    sol.status = SolveStatus::Diverged;
    if (sol.message.empty()) sol.message = "non-finite iterate";
  }
  return true;
}

bool solves_ccp(std::string_view solver, const SolverSettings& s) {
  if (solver == "pgs-ccp") return !s.pgs.de_saxce;
  if (solver == "apgd") return !s.apgd.ncp;
  const SolverInfo* info = find_solver(solver);
  return info && info->problem == "CCP";
}

}  // namespace moreau
