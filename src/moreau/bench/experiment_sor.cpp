// Experiment `sor-sensitivity` (report Sec. VI-B at eq. 145: SOR omega is hard to choose and can
// diverge): Problems recorded from simulations of fourbar-fixed (a loop with redundant rows),
// boxes-fixed (mass ratio 1000 on the ground) and box-stack (five cubes) are solved cold by the
// PGS family (Alg. 5: pgs-ccp, pgs-ncp, nbgs-exact) for each relaxation omega (eq. 145).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "moreau/bench/experiment.hpp"
#include "moreau/ncp/residuals.hpp"

namespace moreau::bench {

namespace {

struct Recorded {
  std::string system;
  int step;
  Problem problem;
};

// n Problems at evenly spaced steps of a `duration` simulation with the scene's own settings.
std::vector<Recorded> record(const std::string& system, int n, double duration) {
  std::vector<Recorded> out;
  Result<Scene> sc = make_builtin_scene(system);
  if (!sc) return out;
  const int steps = std::max(1, static_cast<int>(std::lround(duration / sc->settings.dt)));
  const int every = std::max(1, steps / n);
  run_simulation(*sc, sc->settings, steps, [&](int k, const Simulator& sim, const State&) {
    if (k % every == 0 && static_cast<int>(out.size()) < n && sim.problem().nl > 0)
      out.push_back({system, k, sim.problem()});
  });
  return out;
}

}  // namespace

ExperimentResult sor_sensitivity(const ExperimentOptions& o) {
  const std::vector<double> omegas = {0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8};
  const std::vector<std::string> solvers = {"pgs-ccp", "pgs-ncp", "nbgs-exact"};
  const int per_system = o.quick ? 2 : 8;
  const double duration = o.quick ? 0.02 : 0.5;  // [s]
  const double tol = 1e-6;
  const int max_iters = o.quick ? 1000 : 5000;
  std::vector<Recorded> problems;
  for (const std::string system : {"fourbar-fixed", "boxes-fixed", "box-stack"}) {
    std::vector<Recorded> r = record(system, per_system, duration);
    for (Recorded& x : r) problems.push_back(std::move(x));
  }
  Table t{"sor-sensitivity",
          {"system", "step", "nl", "solver", "omega", "status", "converged", "diverged",
           "iterations", "natmap", "natmap_initial"},
          {}};
  SolverWorkspace ws;
  Solution sol;
  GrowVec scratch;
  for (const Recorded& r : problems) {
    const Problem& p = r.problem;
    // Natural map of the cold start lambda = 0: v = v_f.
    const double natmap0 = ncp_residuals(p, VecX::Zero(p.nl), p.v_f, true, scratch).natmap;
    for (const std::string& solver : solvers) {
      for (double omega : omegas) {
        SolverSettings s;
        s.tol = tol;
        s.max_iters = max_iters;
        s.pgs.omega = omega;
        solve(solver, p, s, WarmStart{}, ws, sol);
        const double natmap = sol.lambda.allFinite() && sol.v_plus.allFinite()
                                  ? ncp_residuals(p, sol.lambda, sol.v_plus, true, scratch).natmap
                                  : std::nan("");
        // Diverged: reported so by the solver, non-finite, or left worse than the cold start.
        const bool diverged = sol.status == SolveStatus::Diverged || !std::isfinite(natmap) ||
                              (!sol.converged() && natmap > natmap0);
        t.add({r.system, double(r.step), double(p.nl), solver, omega,
               std::string(status_name(sol.status)), double(sol.converged()), double(diverged),
               double(sol.iterations), natmap, natmap0});
      }
    }
  }
  // Headlines: per system, solver and omega, the median iterations and the failures.
  ExperimentResult res;
  for (const std::string system : {"fourbar-fixed", "boxes-fixed", "box-stack"})
    for (const std::string& solver : solvers) {
      std::string line = system + " " + solver + ":";
      for (double omega : omegas) {
        std::vector<double> it;
        int fails = 0, div = 0;
        for (size_t row : t.where({{"system", system}, {"solver", solver}}))
          if (t.num(row, "omega") == omega) {
            it.push_back(t.num(row, "iterations"));
            fails += t.num(row, "converged") == 0.0;
            div += t.num(row, "diverged") != 0.0;
          }
        if (it.empty()) continue;
        std::sort(it.begin(), it.end());
        char cell[96];
        std::snprintf(cell, sizeof cell, " w%.1f:%g%s", omega, it[it.size() / 2],
                      fails ? (div ? "(" + std::to_string(fails) + "x,div)"
                                   : "(" + std::to_string(fails) + "x)")
                                  .c_str()
                            : "");
        line += cell;
      }
      res.headlines.push_back(line);
    }
  res.tables.push_back(std::move(t));
  return res;
}

}  // namespace moreau::bench
