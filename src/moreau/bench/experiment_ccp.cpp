// Experiment `ccp-vs-ncp`: a 0.2 m cube launched at v0 along x on a plane, friction mu, simulated
// with CCP solvers (eq. 18) and NCP solvers (eq. 15). The CCP's complementarity K* ∋ v ⊥ lambda
// makes a sliding contact separate at v_n = mu |v_t| (the report on the CCP at eq. 15: "artifacts
// such as forces acting at a distance"); the NCP keeps v_n = 0. Coulomb's law gives the
// stopping distance v0^2 / (2 mu g) and time v0 / (mu g).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "moreau/bench/experiment.hpp"
#include "moreau/ncp/cones.hpp"

namespace moreau::bench {

namespace {

struct SolverCase {
  std::string label;     // table name
  std::string solver;    // registry name
  bool de_saxce = true;  // pgs-ccp: false solves the CCP (PgsSettings::de_saxce)
};

const std::vector<SolverCase>& cases() {
  static const std::vector<SolverCase> c = {
      {"admm-ccp", "admm-ccp", true},
      {"apgd", "apgd", true},
      {"pgs-ccp(de_saxce=0)", "pgs-ccp", false},
      {"admm-ncp-sa", "admm-ncp-sa", true},
      {"nbgs-exact", "nbgs-exact", true},
      {"ngn", "ngn", true},
  };
  return c;
}

constexpr double kHalf = 0.1;      // half edge of the cube [m]
constexpr double kActive = 1e-8;   // a contact carries a normal impulse above this [N s]
constexpr double kSliding = 1e-3;  // a contact slides above this tangential speed [m/s]
constexpr double kStopped = 1e-4;  // the box has stopped below this speed [m/s]

}  // namespace

ExperimentResult ccp_vs_ncp(const ExperimentOptions& o) {
  const double v0 = o.quick ? 1.0 : 2.0;  // initial sliding speed [m/s]
  const std::vector<double> mus = {0.5, 0.3};
  const int trace_every = o.quick ? 10 : 5;

  Table sum{"ccp-vs-ncp",
            {"solver",
             "problem",
             "mu",
             "v0",
             "dt",
             "sliding_steps",
             "vn_over_mu_vt_mean",
             "vn_over_mu_vt_maxdev",
             "vn_max",
             "box_vz_mean",
             "gap_with_force_max",
             "height_gain_max",
             "distance",
             "distance_analytic",
             "distance_rel_err",
             "stop_time",
             "stop_time_analytic",
             "iters_mean",
             "natmap_max",
             "nonconverged"},
            {}};
  Table tr{"ccp-vs-ncp-trace",
           {"solver", "problem", "mu", "t", "x", "height_gain", "vx", "vz", "vn_contact_mean",
            "mu_vt_contact_mean"},
           {}};
  ExperimentResult res;

  for (double mu : mus) {
    const std::string mu_text = number_text(mu);
    Result<Scene> sc = make_builtin_scene("box-on-plane", {{"drop", "0"}, {"mu", mu_text}});
    if (!sc) {
      res.headlines.push_back("box-on-plane: " + sc.error().message());
      continue;
    }
    Scene scene = std::move(*sc);
    scene.initial.u[0][0] = v0;
    const double g = -scene.model.gravity().z();
    const double d_analytic = v0 * v0 / (2.0 * mu * g), t_analytic = v0 / (mu * g);
    const int steps = static_cast<int>(std::ceil((t_analytic + 0.1) / scene.settings.dt));

    for (const SolverCase& c : cases()) {
      SimSettings st = scene.settings;
      st.solver = c.solver;
      reset_solver_params(st.solver_settings);
      st.solver_settings.pgs.de_saxce = c.de_saxce;
      st.solver_settings.max_iters = 1000;
      const bool ccp = solves_ccp(c.solver, st.solver_settings);
      const double x0 = scene.initial.r[0].x();
      double ratio_sum = 0.0, ratio_dev = 0.0, vn_max = 0.0, vz_sum = 0.0, gap_max = 0.0;
      double rise_max = 0.0, stop_time = std::nan("");
      int ratio_n = 0, sliding_steps = 0;
      State last;
      auto hook = [&](int k, const Simulator& sim, const State& s) {
        const Problem& p = sim.problem();
        const Solution& x = sim.solution();
        double vn_sum = 0.0, mvt_sum = 0.0;
        int nact = 0;
        bool sliding = false;
        for (const ConstraintBlock& b : p.blocks) {
          if (b.kind != RowKind::Contact) continue;
          const int i = b.offset;
          const double vt = std::hypot(x.v_plus[i], x.v_plus[i + 1]), vn = x.v_plus[i + 2];
          if (!(x.lambda[i + 2] > kActive)) continue;
          ++nact;
          vn_sum += vn;
          const double gamma = de_saxce(x.v_plus.segment<3>(i), b.mu)[2];  // mu |v_T| (eq. 50)
          mvt_sum += gamma;
          gap_max = std::max(gap_max, p.f[i + 2]);  // gap at the start of the step (eq. 91a)
          if (vt > kSliding) {
            sliding = true;
            const double ratio = vn / gamma;  // CCP: 1; NCP: 0
            ratio_sum += ratio;
            ratio_dev = std::max(ratio_dev, std::abs(ratio - (ccp ? 1.0 : 0.0)));
            vn_max = std::max(vn_max, std::abs(vn));
            ++ratio_n;
          }
        }
        if (sliding) {
          ++sliding_steps;
          vz_sum += s.u[0][2];
        }
        rise_max = std::max(rise_max, s.r[0].z() - kHalf);
        const double speed = s.u[0].head<3>().norm();
        if (std::isnan(stop_time) && speed < kStopped) stop_time = s.t;
        last = s;
        if (k % trace_every == 0)
          tr.add({c.label, std::string(ccp ? "CCP" : "NCP"), mu, s.t, s.r[0].x() - x0,
                  s.r[0].z() - kHalf, s.u[0][0], s.u[0][2], nact ? vn_sum / nact : 0.0,
                  nact ? mvt_sum / nact : 0.0});
      };
      const RunStats rs = run_simulation(scene, st, steps, hook);
      const double dist = rs.steps > 0 ? last.r[0].x() - x0 : std::nan("");
      sum.add({c.label,
               std::string(ccp ? "CCP" : "NCP"),
               mu,
               v0,
               st.dt,
               double(sliding_steps),
               ratio_n ? ratio_sum / ratio_n : std::nan(""),
               ratio_dev,
               vn_max,
               sliding_steps ? vz_sum / sliding_steps : 0.0,
               gap_max,
               rise_max,
               dist,
               d_analytic,
               (dist - d_analytic) / d_analytic,
               stop_time,
               t_analytic,
               rs.iters_mean,
               rs.natmap_max,
               double(rs.nonconverged)});
      if (!rs.completed) res.headlines.push_back(c.label + " mu=" + mu_text + ": " + rs.error);
    }
  }
  for (size_t r = 0; r < sum.rows.size(); ++r) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "%-20s %s mu=%.1f  v_n/(mu|v_t|)=%.6f  gap with force %.2e m  rise %.2e m  "
                  "distance %.4f m (analytic %.4f, %+.2f%%)",
                  sum.str(r, "solver").c_str(), sum.str(r, "problem").c_str(), sum.num(r, "mu"),
                  sum.num(r, "vn_over_mu_vt_mean"), sum.num(r, "gap_with_force_max"),
                  sum.num(r, "height_gain_max"), sum.num(r, "distance"),
                  sum.num(r, "distance_analytic"), 100.0 * sum.num(r, "distance_rel_err"));
    res.headlines.push_back(line);
  }
  res.tables.push_back(std::move(sum));
  res.tables.push_back(std::move(tr));
  return res;
}

}  // namespace moreau::bench
