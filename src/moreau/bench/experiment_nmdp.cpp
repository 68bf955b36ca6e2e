// Experiment `nmdp-stability`: Pan & Hauser 2021 (Sec. V) claim that NE-NMDP stays stable for
// time steps of 5-50 ms on a legged robot where NE-MDP (forward Euler) does not. The suite's
// quadruped with the keyframed `jump` and `walk` gaits (stable PD servos) runs with mdp, nmdp,
// nmdp-zo, their position-based forms nmdp-pbd and nmdp-zo-pbd (Pan & Hauser 2021, eq. 12), all
// with the paper's servo (stable PD as Tan, Liu & Turk 2011 publish it), mdp-implicit and
// nmdp-implicit (the servo at the new state, moreau's default) and semi-implicit Euler (the scene's
// admm-ncp-sa) over dt = 5 ... 50 ms; a run diverges when a step fails, the state is not finite or
// the torso falls (docs/benchmark-experiments.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "moreau/bench/experiment.hpp"
#include "moreau/scenes/gait.hpp"

namespace moreau::bench {

namespace {

constexpr double kMaxTiltDeg = 60.0;  // torso z axis against the vertical
constexpr double kMinHeight = 0.15;   // torso centre [m]: the trunk (8 cm thick) on the ground

struct StabilityRun {
  std::string integrator, gait;
  double dt = 0.0;
  bool diverged = false;
  std::string reason;
  double t_end = 0.0, tilt_max = 0.0;
  double jump_peak_mean = std::nan(""), jump_peak_std = std::nan("");
  double walk_distance = 0.0;
  double outer_mean = std::nan("");
  double alpha_cuts = 0.0;
};

double mean(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return v.empty() ? std::nan("") : s / double(v.size());
}
// Population standard deviation; NaN for fewer than two values.
double stdev(const std::vector<double>& v) {
  if (v.size() < 2) return std::nan("");
  const double m = mean(v);
  double s = 0.0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / double(v.size()));
}

bool finite_state(const State& s) {
  for (size_t b = 0; b < s.r.size(); ++b)
    if (!s.r[b].allFinite() || !s.q[b].coeffs().allFinite() || !s.u[b].allFinite()) return false;
  return true;
}

StabilityRun run_one(const Scene& sc, const std::string& gait, const char* integrator, double dt,
                     double duration, Table& series, Table& histogram) {
  StabilityRun run;
  run.integrator = integrator;
  run.gait = gait;
  run.dt = dt;
  SimSettings st = sc.settings;
  // The Pan & Hauser rows run the paper's servo, stable PD as Tan, Liu & Turk publish it
  // (nmdp.servo = tan); "-implicit" rows moreau's default servo at the new state; "-pbd" rows
  // the position-based form (nmdp.form = pbd).
  std::string name = integrator;
  auto strip = [&](const std::string& suffix) {
    if (name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      return false;
    name.resize(name.size() - suffix.size());
    return true;
  };
  st.nmdp.servo = strip("-implicit") ? nmdp::ServoForm::Implicit : nmdp::ServoForm::Tan;
  if (strip("-pbd")) st.nmdp.form = nmdp::NmdpForm::PositionBased;
  parse_integrator(name, &st.integrator);
  st.dt = dt;
  Simulator sim(sc.model, st);
  State s = sc.initial;
  const double x0 = s.r[0].x();
  const int steps = static_cast<int>(std::lround(duration / dt));
  const int every = std::max(1, static_cast<int>(std::lround(0.01 / dt)));  // series at 10 ms
  std::vector<double> peaks;  // the torso's highest point in each jump
  double peak = -1e300, outer = 0.0;
  int period = 0, counted = 0;
  std::map<int, int> outer_count;                             // PGM outer iterations -> steps
  double alpha_min = std::nan(""), outer_max = std::nan("");  // over the series window
  for (int k = 0; k < steps; ++k) {
    if (!sim.step(s)) {
      run.diverged = true;
      run.reason = "step failed: " + sim.error();
      break;
    }
    run.t_end = s.t;
    if (const nmdp::StepStats* ns = sim.nmdp_stats()) {
      outer += ns->outer;
      run.alpha_cuts += ns->alpha_cuts;
      ++counted;
      ++outer_count[ns->outer];
      // Alg. 2's step: the smallest sub-step alpha dt of the window, relative to dt.
      const double alpha = ns->min_step / dt;
      alpha_min = std::isnan(alpha_min) ? alpha : std::min(alpha_min, alpha);
      outer_max = std::isnan(outer_max) ? ns->outer : std::max<double>(outer_max, ns->outer);
    }
    if (!finite_state(s)) {
      run.diverged = true;
      run.reason = "non-finite state";
      break;
    }
    const double h = s.r[0].z();
    const double tilt = std::acos(std::clamp(s.q[0].toRotationMatrix()(2, 2), -1.0, 1.0)) * 180.0 /
                        std::numbers::pi;
    run.tilt_max = std::max(run.tilt_max, tilt);
    run.walk_distance = s.r[0].x() - x0;
    // The jump's peak: the torso's highest point between the lowest crouch and the landing's
    // absorption of each period (JumpParams, scenes/gait.hpp), away from the initial drop.
    const builtin::JumpParams jp;
    const double mid = s.t - 0.5 * dt;  // the step's midpoint: its period and phase
    const int p = static_cast<int>(std::floor(mid / jp.period));
    const double phase = mid - p * jp.period;
    if (p != period) {
      if (peak > -1e300) peaks.push_back(peak);
      peak = -1e300;
      period = p;
    }
    if (phase >= jp.crouch_end && phase < jp.absorb_time) peak = std::max(peak, h);
    if ((k + 1) % every == 0) {
      series.add({run.integrator, gait, dt, s.t, tilt, h, s.r[0].x() - x0, alpha_min, outer_max});
      alpha_min = outer_max = std::nan("");
    }
    if (tilt > kMaxTiltDeg || h < kMinHeight) {
      run.diverged = true;
      run.reason = tilt > kMaxTiltDeg ? "torso tilt above 60 deg" : "torso below 0.15 m";
      break;
    }
  }
  for (const auto& [its, n] : outer_count)
    histogram.add({run.integrator, gait, dt, double(its), double(n)});
  if (peak > -1e300) peaks.push_back(peak);
  if (gait == "jump") {
    run.jump_peak_mean = mean(peaks);
    run.jump_peak_std = peaks.size() > 1 ? stdev(peaks) : 0.0;
  }
  if (counted > 0) run.outer_mean = outer / counted;
  return run;
}

}  // namespace

ExperimentResult nmdp_stability(const ExperimentOptions& o) {
  ExperimentResult res;
  // quick (tests): 20 and 50 ms, 0.2 s; default: 2 s, nmdp-zo only at 20 and 50 ms (it costs
  // about 10-17 s of wall clock per simulated second there, about 50 s at 5 ms); full: 10 s,
  // everything.
  const double duration = o.full ? 10.0 : o.quick ? 0.2 : 2.0;
  const std::vector<double> dts = o.quick
                                      ? std::vector<double>{0.02, 0.05}
                                      : std::vector<double>{0.005, 0.007, 0.01, 0.02, 0.03, 0.05};
  const char* integrators[] = {"mdp",         "nmdp",         "nmdp-zo",       "nmdp-pbd",
                               "nmdp-zo-pbd", "mdp-implicit", "nmdp-implicit", "euler"};
  Table t{"nmdp-stability",
          {"integrator", "gait", "dt", "diverged", "t_end", "reason", "tilt_max_deg",
           "jump_peak_mean", "jump_peak_std", "walk_distance", "outer_mean", "alpha_cuts"},
          {}};
  // Every 10 ms: alpha is the smallest sub-step alpha dt / dt (Alg. 2) and outer the most PGM
  // outer iterations of a step since the previous row (NaN for euler).
  Table series{"nmdp-stability-series",
               {"integrator", "gait", "dt", "t", "tilt_deg", "height", "x", "alpha", "outer"},
               {}};
  // Steps per number of PGM outer iterations (the histogram of Pan & Hauser 2021, Fig. 6b).
  Table histogram{"nmdp-stability-outer", {"integrator", "gait", "dt", "outer", "steps"}, {}};
  std::vector<StabilityRun> runs;
  for (const char* gait : {"jump", "walk"}) {
    Result<Scene> sc = make_builtin_scene("quadruped", {{"gait", gait}});
    if (!sc) {
      res.headlines.push_back(sc.error().message());
      return res;
    }
    for (const char* integrator : integrators)
      for (double dt : dts) {
        const bool zo = std::string(integrator).rfind("nmdp-zo", 0) == 0;
        if (!o.full && !o.quick && zo && dt != 0.02 && dt != 0.05) continue;
        const StabilityRun r = run_one(*sc, gait, integrator, dt, duration, series, histogram);
        t.add({r.integrator, r.gait, r.dt, r.diverged ? "yes" : "no", r.t_end, r.reason, r.tilt_max,
               r.jump_peak_mean, r.jump_peak_std, r.walk_distance, r.outer_mean, r.alpha_cuts});
        runs.push_back(r);
      }
  }
  res.headlines.push_back(
      "quadruped, " + number_text(duration) + " s per run" +
      (o.full || o.quick ? std::string()
                         : "; nmdp-zo and nmdp-zo-pbd only at dt = 20, 50 ms (--full: all dts)"));
  for (const char* integrator : integrators) {
    const std::string name = integrator;
    std::vector<double> diverged_dts, jump, walk;
    double outer = 0.0, cuts = 0.0;
    int n_outer = 0;
    for (const StabilityRun& r : runs) {
      if (r.integrator != name) continue;
      if (r.diverged) {
        if (std::find(diverged_dts.begin(), diverged_dts.end(), r.dt) == diverged_dts.end())
          diverged_dts.push_back(r.dt);
      }
      cuts += r.alpha_cuts;
      if (std::isfinite(r.outer_mean)) outer += r.outer_mean, ++n_outer;
    }
    // Across the dts at which that gait did not diverge.
    for (const StabilityRun& r : runs) {
      if (r.integrator != name || r.diverged) continue;
      if (r.gait == "jump") jump.push_back(r.jump_peak_mean);
      if (r.gait == "walk") walk.push_back(r.walk_distance);
    }
    std::sort(diverged_dts.begin(), diverged_dts.end());
    res.summary_lists.push_back({name + ".diverged_dts", diverged_dts});
    res.summary.push_back({name + ".jump_height_std_across_dt", stdev(jump)});
    res.summary.push_back({name + ".walk_distance_std_across_dt", stdev(walk)});
    res.summary.push_back({name + ".mean_outer_iterations", n_outer ? outer / n_outer : NAN});
    res.summary.push_back({name + ".alpha_cuts", cuts});
    std::string ds;
    for (double d : diverged_dts) ds += (ds.empty() ? "" : ", ") + number_text(1e3 * d);
    char line[240];
    std::snprintf(line, sizeof line,
                  "%-7s diverged at dt [ms]: {%s}; std across dt: jump peak %.3g m, walk distance "
                  "%.3g m; mean outer iterations %.3g, alpha cuts %g",
                  integrator, ds.c_str(), stdev(jump), stdev(walk), n_outer ? outer / n_outer : NAN,
                  cuts);
    res.headlines.push_back(line);
  }
  res.tables.push_back(std::move(t));
  res.tables.push_back(std::move(series));
  res.tables.push_back(std::move(histogram));
  return res;
}

}  // namespace moreau::bench
