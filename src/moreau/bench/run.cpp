// run_solves: every (sample, solver, start) solved once, on `jobs` threads (parallel.hpp). Each
// task writes only its own row (indexed by task number), so the rows and their values do not
// depend on `jobs`; only solve_time_s does.
#include <cmath>
#include <limits>

#include "moreau/bench/bench.hpp"
#include "moreau/bench/parallel.hpp"

namespace moreau::bench {

namespace {

struct Task {
  int sample = 0;
  int solver = 0;  // index into RunSettings::solvers
  bool warm = false;
};

// Tasks in the documented order: sample, solver, cold before warm. Unconstrained samples
// (n_lambda = 0) are not solved (kept for the counts only; docs/benchmark.md).
std::vector<Task> make_tasks(const std::vector<Sample>& samples, const RunSettings& rs) {
  std::vector<Task> tasks;
  for (int i = 0; i < static_cast<int>(samples.size()); ++i) {
    if (samples[i].problem.nl == 0) continue;
    const bool has_warm = samples[i].warm_lambda.size() == samples[i].problem.nl;
    for (int k = 0; k < static_cast<int>(rs.solvers.size()); ++k) {
      if (rs.cold) tasks.push_back({i, k, false});
      if (rs.warm && has_warm) tasks.push_back({i, k, true});
    }
  }
  return tasks;
}

void run_task(const Sample& smp, const Task& t, const RunSettings& rs, SolverWorkspace& ws,
              Solution& sol, RunResult& row) {
  row.sample = t.sample;
  row.solver = rs.solvers[t.solver];
  row.warm = t.warm;
  // A solve that never ran has no residuals: NaN, never a perfect-looking 0.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  row.metrics = Metrics{nan, nan, nan, nan, nan};
  const Problem& p = smp.problem;
  const SolverInfo* info = find_solver(row.solver);
  if (!info) {
    row.status = SolveStatus::Failed;
    row.message = "unknown solver '" + row.solver + "'";
    return;
  }
  if (!info->handles_contacts && p.count(RowKind::Contact) > 0) {
    row.status = SolveStatus::Failed;
    row.message = "does not handle contacts";
    return;
  }
  SolverSettings st = rs.solver;
  st.trace = rs.traces;
  WarmStart w;
  if (t.warm) w.lambda = smp.warm_lambda;
  if (!solve(row.solver, p, st, w, ws, sol)) {
    row.status = SolveStatus::Failed;
    row.message = sol.message;
    return;
  }
  row.status = sol.status;
  row.iterations = sol.iterations;
  row.fallbacks = sol.fallbacks;
  row.solve_time_s = sol.solve_time_s;
  row.message = sol.message;
  row.metrics = evaluate_metrics(p, sol.lambda, sol.v_plus);
  // success: converged, finite, natural-map residual (eq. 176) within the tolerance
  row.success = sol.converged() && sol.lambda.allFinite() && std::isfinite(row.metrics.r_natmap) &&
                row.metrics.r_natmap <= rs.solver.tol;
  if (rs.traces) row.trace = sol.trace;
}

}  // namespace

std::vector<RunResult> run_solves(const std::vector<Sample>& samples, const RunSettings& rs,
                                  const std::function<void(int, int)>& progress) {
  const std::vector<Task> tasks = make_tasks(samples, rs);
  const int total = static_cast<int>(tasks.size());
  std::vector<RunResult> rows(tasks.size());
  // Per thread: scratch only, never changes a result.
  const int workers = worker_count(total, rs.jobs);
  std::vector<SolverWorkspace> ws(workers);
  std::vector<Solution> sol(workers);
  parallel_for(
      total, rs.jobs,
      [&](int i, int w) {
        if (rs.stop && rs.stop()) return;
        const Task& t = tasks[i];
        run_task(samples[t.sample], t, rs, ws[w], sol[w], rows[i]);
      },
      progress);
  return rows;
}

}  // namespace moreau::bench
