// Experiment `softening-vs-proximal` (report Sec. I and V-D): the two remedies for an
// ill-conditioned Delassus matrix, over a sweep of mass ratios. (a) MuJoCo-style softening: the
// regularized problem (eq. 95/96) with R = diag(c_j D_jj) and the spring-damper reference v_r
// (eq. 106), solved by a CCP solver (RSOCP) with the Baumgarte bias off; (b) hard constraints
// (R = 0, Baumgarte ERP) solved by the proximal ADMM (eq. 166-172), whose proximal term eta
// regularizes the iteration without changing its fixed point. Systems: boxes-fixed (a heavy box
// on the ground with a 1 kg box welded on top) and heavy-chain (four hinged links, the last one
// `mass_ratio` times heavier, released horizontally).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "moreau/bench/experiment.hpp"
#include "moreau/scenes/builtin_helpers.hpp"

namespace moreau::bench {

namespace {

struct Config {
  std::string label;
  bool soft;
  std::string solver;
  bool de_saxce = true;  // pgs-ccp: false solves the CCP (PgsSettings::de_saxce)
};

const std::vector<Config>& configs() {
  static const std::vector<Config> c = {
      {"soft pgs-ccp(de_saxce=0)", true, "pgs-ccp", false},  {"soft apgd", true, "apgd", true},
      {"hard pgs-ccp(de_saxce=0)", false, "pgs-ccp", false}, {"hard apgd", false, "apgd", true},
      {"hard admm-ncp-sa", false, "admm-ncp-sa", true},
  };
  return c;
}

// Four 0.1 m links (0.1 kg) hanging from the world on hinges about y, released horizontally; the
// tip link weighs mass_ratio * 0.1 kg.
Result<Scene> heavy_chain(double mass_ratio) {
  ModelBuilder mb("heavy-chain");
  State s;
  builtin::add_hanging_chain(mb, s, {0.1, 0.1, 0.1, 0.1 * mass_ratio}, false);
  Result<Scene> sc = builtin::finish_scene(mb, std::move(s), 1.0);
  if (sc) {
    sc->name = "heavy-chain";
    sc->source = "experiment";
  }
  return sc;
}

Result<Scene> make_system(const std::string& system, double ratio) {
  if (system == "heavy-chain") return heavy_chain(ratio);
  return make_builtin_scene(system, {{"mass_ratio", number_text(ratio)}});
}

// Max |J_J u^-| over the joint rows of p: the constraint velocity at the state p was built at.
double joint_speed(const Problem& p) {
  double m = 0.0;
  for (const ConstraintBlock& b : p.blocks)
    if (b.kind == RowKind::Joint)
      m = std::max(m, p.v_minus.segment(b.offset, b.size - b.rotor_rows).lpNorm<Eigen::Infinity>());
  return m;
}

}  // namespace

ExperimentResult softening_vs_proximal(const ExperimentOptions& o) {
  const std::vector<double> ratios =
      o.quick ? std::vector<double>{1.0, 1000.0} : std::vector<double>{1, 10, 100, 1000, 10000};
  const double duration = o.quick ? 0.3 : 2.0;  // [s]
  Table t{"softening-vs-proximal",
          {"system", "config", "softening", "solver", "mass_ratio", "dt", "steps", "completed",
           "max_joint_drift", "final_joint_drift", "max_joint_speed_late", "max_penetration",
           "max_energy_drift", "iters_mean", "iters_max", "nonconverged", "natmap_max"},
          {}};
  Table tr{"softening-vs-proximal-trace",
           {"system", "config", "mass_ratio", "t", "joint_drift", "joint_speed", "energy"},
           {}};
  const int trace_every = o.quick ? 10 : 5;
  ExperimentResult res;
  for (const std::string system : {"boxes-fixed", "heavy-chain"}) {
    for (double ratio : ratios) {
      Result<Scene> sc = make_system(system, ratio);
      if (!sc) {
        res.headlines.push_back(system + ": " + sc.error().message());
        continue;
      }
      for (const Config& c : configs()) {
        SimSettings st = sc->settings;
        st.dt = 1e-3;
        st.solver = c.solver;
        reset_solver_params(st.solver_settings);
        st.solver_settings.pgs.de_saxce = c.de_saxce;
        st.solver_settings.tol = 1e-8;
        st.solver_settings.max_iters = o.quick ? 300 : 1000;
        // The experiment measures the drift left by the velocity-level regulation itself.
        st.dynamics.position_projection = false;
        if (c.soft) {
          // Pure MuJoCo-style regulation: the spring-damper reference replaces the ERP bias.
          st.dynamics.softening.enabled = true;
          st.dynamics.beta_joint = st.dynamics.beta_limit = st.dynamics.beta_contact = 0.0;
          st.dynamics.drift_compensation = false;
        }
        const int steps = static_cast<int>(std::lround(duration / st.dt));
        double late_speed = std::nan(""), final_drift = 0.0;  // NaN: no step in the 2nd half
        auto hook = [&](int k, const Simulator& sim, const State& s) {
          if (2 * k >= steps)
            late_speed = std::isnan(late_speed) ? joint_speed(sim.problem())
                                                : std::max(late_speed, joint_speed(sim.problem()));
          final_drift = constraint_violation(sc->model, s);
          if (k % trace_every == 0)
            tr.add({system, c.label, ratio, s.t, final_drift, joint_speed(sim.problem()),
                    total_energy(sc->model, s)});
        };
        const RunStats rs = run_simulation(*sc, st, steps, hook);
        t.add({system, c.label, std::string(c.soft ? "soft" : "hard"), c.solver, ratio, st.dt,
               double(rs.steps), double(rs.completed), rs.max_violation, final_drift, late_speed,
               rs.max_penetration, rs.max_energy_drift, rs.iters_mean, rs.iters_max,
               double(rs.nonconverged), rs.natmap_max});
      }
    }
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.num(r, "mass_ratio") != ratios.back() && t.num(r, "mass_ratio") != 1.0) continue;
    char line[256];
    std::snprintf(line, sizeof line,
                  "%-12s ratio %-6g %-26s drift max %.2e final %.2e  late |v_J| %.2e  iters "
                  "mean %.0f max %.0f  capped %g",
                  t.str(r, "system").c_str(), t.num(r, "mass_ratio"), t.str(r, "config").c_str(),
                  t.num(r, "max_joint_drift"), t.num(r, "final_joint_drift"),
                  t.num(r, "max_joint_speed_late"), t.num(r, "iters_mean"), t.num(r, "iters_max"),
                  t.num(r, "nonconverged"));
    res.headlines.push_back(line);
  }
  res.tables.push_back(std::move(t));
  res.tables.push_back(std::move(tr));
  return res;
}

}  // namespace moreau::bench
