// Experiment `timestep-sweep`: the same simulated time at dt = 1, 2, 5, 10 ms on a loop
// (fourbar-fixed), a stack (box-stack) and a legged robot (quadruped), with an ADMM, a PGS and a
// CCP solver: iterations per step, natural map at exit (eq. 163/164), joint drift (eq. 83),
// penetration and energy drift. Semi-implicit Euler (eq. 9-10) is first order, so drift and
// penetration are expected to grow with dt; the question is how the solvers' effort does.
#include <cmath>
#include <cstdio>

#include "moreau/bench/experiment.hpp"

namespace moreau::bench {

ExperimentResult timestep_sweep(const ExperimentOptions& o) {
  const std::vector<double> dts = {1e-3, 2e-3, 5e-3, 10e-3};
  const std::vector<std::string> systems = {"fourbar-fixed", "box-stack", "quadruped"};
  const std::vector<std::string> solvers = {"admm-ncp-sa", "nbgs-exact", "apgd"};
  const double duration = o.quick ? 0.1 : 1.0;  // [s]
  Table t{"timestep-sweep",
          {"system", "solver", "problem", "dt", "steps", "completed", "iters_mean", "iters_max",
           "natmap_mean", "natmap_max", "nonconverged", "max_joint_drift", "max_penetration",
           "max_energy_drift", "initial_energy"},
          {}};
  ExperimentResult res;
  for (const std::string& system : systems) {
    Result<Scene> sc = make_builtin_scene(system);
    if (!sc) {
      res.headlines.push_back(system + ": " + sc.error().message());
      continue;
    }
    for (const std::string& solver : solvers) {
      for (double dt : dts) {
        SimSettings st = sc->settings;
        st.dt = dt;
        st.solver = solver;
        reset_solver_params(st.solver_settings);
        st.solver_settings.tol = 1e-8;
        st.solver_settings.max_iters = o.quick ? 200 : 1000;
        // The joint drift measured here is the time stepping's (first order in dt), without the
        // position projection that would remove it (docs/dynamics.md).
        st.dynamics.position_projection = false;
        const int steps = static_cast<int>(std::lround(duration / dt));
        const RunStats rs = run_simulation(*sc, st, steps);
        const bool ccp = solves_ccp(solver, st.solver_settings);
        t.add({system, solver, std::string(ccp ? "CCP" : "NCP"), dt, double(rs.steps),
               double(rs.completed), rs.iters_mean, rs.iters_max, rs.natmap_mean, rs.natmap_max,
               double(rs.nonconverged), rs.max_violation, rs.max_penetration, rs.max_energy_drift,
               total_energy(sc->model, sc->initial)});
      }
    }
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.str(r, "solver") != "admm-ncp-sa" && t.str(r, "solver") != "nbgs-exact") continue;
    char line[256];
    std::snprintf(line, sizeof line,
                  "%-13s %-11s dt %2.0f ms  iters %6.1f  natmap max %.1e  drift %.1e m  "
                  "penetration %.1e m  |dE| %.2e J",
                  t.str(r, "system").c_str(), t.str(r, "solver").c_str(), 1e3 * t.num(r, "dt"),
                  t.num(r, "iters_mean"), t.num(r, "natmap_max"), t.num(r, "max_joint_drift"),
                  t.num(r, "max_penetration"), t.num(r, "max_energy_drift"));
    res.headlines.push_back(line);
  }
  res.tables.push_back(std::move(t));
  return res;
}

}  // namespace moreau::bench
