// Experiment `nmdp-stability`: Pan & Hauser 2021 (Sec. V) claim that NE-NMDP stays stable for
// time steps of 5-50 ms on a legged robot where NE-MDP (forward Euler) does not. The suite's
// quadruped with the keyframed `jump` and `walk` gaits (PD servos) runs over dt = 5 ... 50 ms
// with the paper's configurations: `nmdp` (NE-NMDP: backward Euler, the servo at the new state,
// "consistent with the backward-Euler integrator"), `nmdp-zo`, the position-based forms `nmdp-pbd`
// and `nmdp-zo-pbd` (eq. 12), all with that servo, and `mdp` (NE-MDP: forward Euler with the
// explicit stable PD of Tan, Liu & Turk 2011, the servo's position term at theta_- + h
// theta_dot_-); beside them `nmdp-tan` (NE-NMDP with mdp's servo), `mdp-implicit` (mdp with the
// servo at the new state), the `-dissipation` rows (the contact weights minimise 1/2 qd^T A qd, A
// = H + h Kd + h^2 Kp, where eq. 6 minimises K = 1/2 qd^T H qd: nmdp/settings.hpp) and
// semi-implicit Euler (the scene's admm-ncp-sa). A run stops when it
// diverges (a step fails or the state is not finite) or falls (torso tilt above 60 deg or its
// centre below 0.15 m); consistency is Table I's statistic (docs/benchmark-experiments.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "moreau/bench/contact_slip.hpp"
#include "moreau/bench/experiment.hpp"
#include "moreau/scenes/gait.hpp"

namespace moreau::bench {

namespace {

constexpr double kMaxTiltDeg = 60.0;  // torso z axis against the vertical
constexpr double kMinHeight = 0.15;   // torso centre [m]: the trunk (8 cm thick) on the ground
constexpr double kSlipSpeed = 0.01;   // [m/s]: a touching contact point faster than this slides

struct StabilityRun {
  std::string integrator, gait, servo, objective;
  double dt = 0.0;
  bool diverged = false, fell = false;
  std::string reason;
  std::vector<double> t;    // every step's end time
  std::vector<Vec3> torso;  // and the torso's centre then
  double t_end = 0.0, tilt_max = 0.0;
  double jump_peak_mean = std::nan(""), jump_peak_std = std::nan("");
  double walk_distance = 0.0;
  double outer_mean = std::nan("");
  double alpha_cuts = 0.0;
  // Steps whose solve stopped above its tolerance: a QP at the simplex QP's cap, a PGM sub-step
  // accepted at max_outer (nmdp), a solver at its iteration cap (euler).
  int capped = 0;
  // Of the touching contacts (gap <= 0) after the first 0.2 s, the fraction whose point on the
  // robot moves along the ground faster than kSlipSpeed after the step: a stance foot sliding.
  double slip_fraction = std::nan("");
  int touching = 0, slipping = 0;
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
  // The paper's configurations: mdp with the explicit servo (nmdp.servo = tan), the NMDP rows
  // with the servo at the new state; "-tan" and "-implicit" rows the other servo; "-pbd" rows the
  // position-based form (nmdp.form = pbd); "-dissipation" rows nmdp.objective = dissipation.
  std::string name = integrator;
  auto strip = [&](const std::string& suffix) {
    if (name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      return false;
    name.resize(name.size() - suffix.size());
    return true;
  };
  const bool dissipation = strip("-dissipation");
  const bool tan = strip("-tan"), implicit = strip("-implicit");
  if (dissipation) st.nmdp.objective = nmdp::NmdpObjective::Dissipation;
  st.nmdp.servo =
      tan || (name == "mdp" && !implicit) ? nmdp::ServoForm::Tan : nmdp::ServoForm::Implicit;
  if (strip("-pbd")) st.nmdp.form = nmdp::NmdpForm::PositionBased;
  parse_integrator(name, &st.integrator);
  run.servo = is_nmdp(st.integrator) ? nmdp::servo_form_name(st.nmdp.servo) : "-";
  run.objective = is_nmdp(st.integrator) ? nmdp::nmdp_objective_name(st.nmdp.objective) : "-";
  st.dt = dt;
  Simulator sim(sc.model, st);
  State s = sc.initial;
  const double x0 = s.r[0].x();
  run.t.push_back(s.t);
  run.torso.push_back(s.r[0]);
  const int steps = static_cast<int>(std::lround(duration / dt));
  const int every = std::max(1, static_cast<int>(std::lround(0.01 / dt)));  // series at 10 ms
  std::vector<double> peaks;  // the torso's highest point in each jump
  double peak = -1e300, outer = 0.0;
  int period = 0, counted = 0;
  std::map<int, int> outer_count;                             // PGM outer iterations -> steps
  double alpha_min = std::nan(""), outer_max = std::nan("");  // over the series window
  State before = s;  // the state the step's contacts were detected at
  for (int k = 0; k < steps; ++k) {
    before = s;
    if (!sim.step(s)) {
      run.diverged = true;
      run.reason = "step failed: " + sim.error();
      break;
    }
    run.t_end = s.t;
    if (!sim.solution().converged()) ++run.capped;
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
    run.t.push_back(s.t);
    run.torso.push_back(s.r[0]);
    const double h = s.r[0].z();
    const double tilt = std::acos(std::clamp(s.q[0].toRotationMatrix()(2, 2), -1.0, 1.0)) * 180.0 /
                        std::numbers::pi;
    run.tilt_max = std::max(run.tilt_max, tilt);
    run.walk_distance = s.r[0].x() - x0;
    if (s.t > 0.2 + 1e-9)
      for (const Contact& c : sim.contacts()) {
        if (c.gap > 0.0) continue;
        ++run.touching;
        run.slipping += contact_slip_speed(c, before, s) > kSlipSpeed;
      }
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
      run.fell = true;
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
  if (run.touching > 0) run.slip_fraction = double(run.slipping) / run.touching;
  return run;
}

// The torso's centre at time tau, interpolated linearly between the run's steps.
Vec3 torso_at(const StabilityRun& r, double tau) {
  const auto it = std::lower_bound(r.t.begin(), r.t.end(), tau - 1e-12);
  if (it == r.t.end()) return r.torso.back();
  const size_t i = static_cast<size_t>(it - r.t.begin());
  if (i == 0) return r.torso.front();
  const double a = (tau - r.t[i - 1]) / (r.t[i] - r.t[i - 1]);
  return (1.0 - a) * r.torso[i - 1] + a * r.torso[i];
}

// Pan & Hauser 2021, Table I's consistency of one integrator on one gait: every 10 ms, the
// standard deviation across dt of the torso's centre (the root mean square distance from the mean
// over the dts), averaged over the run. `runs` are its runs at every dt of the sweep, the same set
// for every row (nmdp-zo's: the dts it ran, fewer without --full); a run that stopped (diverged or
// fell) holds its last state for the rest: the robot lying where it fell is as far from the others
// as it is. NaN for fewer than two runs.
double consistency(const std::vector<const StabilityRun*>& runs, double duration) {
  if (runs.size() < 2) return std::nan("");
  const int n = static_cast<int>(std::lround(duration / 0.01));
  std::vector<Vec3> at(runs.size());
  double sum = 0.0;
  for (int k = 1; k <= n; ++k) {
    Vec3 m = Vec3::Zero();
    for (size_t i = 0; i < runs.size(); ++i) m += at[i] = torso_at(*runs[i], 0.01 * k);
    m /= double(runs.size());
    double var = 0.0;
    for (const Vec3& p : at) var += (p - m).squaredNorm();
    sum += std::sqrt(var / double(runs.size()));
  }
  return n > 0 ? sum / n : std::nan("");
}

}  // namespace

ExperimentResult nmdp_stability(const ExperimentOptions& o) {
  ExperimentResult res;
  // quick (tests): 20 and 50 ms (nmdp-zo only at 50 ms), 0.5 s: past the 0.4 s at which the
  // explicit servo fails; default: 2 s, nmdp-zo only at 20 and 50 ms (it costs about 10-17 s of
  // wall clock per simulated second there, about 50 s at 5 ms); full: 10 s, everything.
  const double duration = o.full ? 10.0 : o.quick ? 0.5 : 2.0;
  const std::vector<double> dts = o.quick
                                      ? std::vector<double>{0.02, 0.05}
                                      : std::vector<double>{0.005, 0.007, 0.01, 0.02, 0.03, 0.05};
  const char* integrators[] = {"mdp",
                               "nmdp",
                               "nmdp-zo",
                               "nmdp-pbd",
                               "nmdp-zo-pbd",
                               "mdp-implicit",
                               "nmdp-tan",
                               "nmdp-dissipation",
                               "mdp-implicit-dissipation",
                               "euler"};
  Table t{"nmdp-stability",
          {"integrator", "servo", "objective", "gait", "dt", "diverged", "fell", "t_end", "reason",
           "tilt_max_deg", "jump_peak_mean", "jump_peak_std", "walk_distance", "slip_fraction",
           "outer_mean", "alpha_cuts", "capped_steps"},
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
        if (o.quick && zo && dt != 0.05) continue;
        const StabilityRun r = run_one(*sc, gait, integrator, dt, duration, series, histogram);
        t.add({r.integrator, r.servo, r.objective, r.gait, r.dt, r.diverged ? "yes" : "no",
               r.fell ? "yes" : "no", r.t_end, r.reason, r.tilt_max, r.jump_peak_mean,
               r.jump_peak_std, r.walk_distance, r.slip_fraction, r.outer_mean, r.alpha_cuts,
               double(r.capped)});
        runs.push_back(r);
      }
  }
  res.headlines.push_back(
      "quadruped, " + number_text(duration) + " s per run" +
      (o.full    ? std::string()
       : o.quick ? std::string("; nmdp-zo and nmdp-zo-pbd only at dt = 50 ms")
                 : "; nmdp-zo and nmdp-zo-pbd only at dt = 20, 50 ms (--full: all dts)"));
  res.headlines.push_back(
      "consistency (Pan & Hauser 2021, Table I): every 10 ms the std across the sweep's dts of the "
      "torso's centre, averaged over the run; a run that stopped holds its last state");
  // The dts every integrator ran (nmdp-zo's decide): Table I's statistic over the same set for
  // every row is <name>.consistency_common_dts.
  std::vector<double> common = dts;
  for (const char* integrator : integrators)
    std::erase_if(common, [&](double dt) {
      return std::none_of(runs.begin(), runs.end(), [&](const StabilityRun& r) {
        return r.integrator == integrator && r.dt == dt;
      });
    });
  res.summary_lists.push_back({"common_dts", common});
  for (const char* integrator : integrators) {
    const std::string name = integrator;
    std::vector<double> diverged_dts, fell_dts, jump, walk;
    std::map<std::string, std::vector<const StabilityRun*>> per_gait_runs, per_gait_common;
    double outer = 0.0, cuts = 0.0, capped = 0.0;
    int n_outer = 0;
    std::string servo = "-", objective = "-";
    for (const StabilityRun& r : runs) {
      if (r.integrator != name) continue;
      servo = r.servo;
      objective = r.objective;
      auto note = [&](std::vector<double>& v) {
        if (std::find(v.begin(), v.end(), r.dt) == v.end()) v.push_back(r.dt);
      };
      if (r.diverged) note(diverged_dts);
      if (r.fell) note(fell_dts);
      cuts += r.alpha_cuts;
      capped += r.capped;
      if (std::isfinite(r.outer_mean)) outer += r.outer_mean, ++n_outer;
      per_gait_runs[r.gait].push_back(&r);
      if (std::find(common.begin(), common.end(), r.dt) != common.end())
        per_gait_common[r.gait].push_back(&r);
      // The old statistics: over the dts at which the gait did not stop.
      if (r.diverged || r.fell) continue;
      if (r.gait == "jump") jump.push_back(r.jump_peak_mean);
      if (r.gait == "walk") walk.push_back(r.walk_distance);
    }
    // Table I: the trajectories' spread across dt, the mean of the two gaits'.
    std::vector<double> per_gait;
    for (const auto& [gait, rs] : per_gait_runs)
      if (const double c = consistency(rs, duration); std::isfinite(c)) per_gait.push_back(c);
    const double consistent = mean(per_gait);
    std::vector<double> per_gait_c;
    for (const auto& [gait, rs] : per_gait_common)
      if (const double c = consistency(rs, duration); std::isfinite(c)) per_gait_c.push_back(c);
    std::sort(diverged_dts.begin(), diverged_dts.end());
    std::sort(fell_dts.begin(), fell_dts.end());
    res.summary_lists.push_back({name + ".diverged_dts", diverged_dts});
    res.summary_lists.push_back({name + ".fell_dts", fell_dts});
    res.summary_text.push_back({name + ".servo", servo});
    res.summary_text.push_back({name + ".objective", objective});
    res.summary.push_back({name + ".consistency", consistent});
    res.summary.push_back({name + ".consistency_common_dts", mean(per_gait_c)});
    res.summary.push_back({name + ".jump_height_std_across_dt", stdev(jump)});
    res.summary.push_back({name + ".walk_distance_std_across_dt", stdev(walk)});
    res.summary.push_back({name + ".mean_outer_iterations", n_outer ? outer / n_outer : NAN});
    res.summary.push_back({name + ".alpha_cuts", cuts});
    res.summary.push_back({name + ".capped_steps", capped});
    auto list = [](const std::vector<double>& v) {
      std::string d;
      for (double x : v) d += (d.empty() ? "" : ", ") + number_text(1e3 * x);
      return d;
    };
    char line[400];
    std::snprintf(line, sizeof line,
                  "%-12s servo %-8s diverged at dt [ms]: {%s}, fell at {%s}; consistency %.3g m "
                  "(%.3g m over {%s} ms); mean outer iterations %.3g, alpha cuts %g, steps above "
                  "tol %g",
                  integrator, servo.c_str(), list(diverged_dts).c_str(), list(fell_dts).c_str(),
                  consistent, mean(per_gait_c), list(common).c_str(),
                  n_outer ? outer / n_outer : NAN, cuts, capped);
    res.headlines.push_back(line);
  }
  res.tables.push_back(std::move(t));
  res.tables.push_back(std::move(series));
  res.tables.push_back(std::move(histogram));
  return res;
}

}  // namespace moreau::bench
