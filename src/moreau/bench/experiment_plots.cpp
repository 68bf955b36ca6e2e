// The experiments' figures (docs/benchmark-experiments.md), drawn from their tables with the
// benchmark report's SVG writer (svg_plot.hpp): one figure of several panels per experiment.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "moreau/bench/experiment.hpp"
#include "moreau/bench/svg_plot.hpp"

namespace moreau::bench {

namespace {

// Palette indices of svg::colour() and dash indices of svg::dash_pattern().
enum Colour { kBlue = 0, kRed, kGreen, kOrange, kPurple, kBrown, kPink, kCyan, kOlive, kGrey };
enum Dash { kSolid = 0, kDashed, kDotted, kDashDot };

// One look per solver or configuration across the figures.
void style(svg::Series& s, const std::string& name) {
  static const std::map<std::string, std::pair<int, int>> looks = {
      {"admm-ccp", {kRed, kSolid}},
      {"apgd", {kOrange, kDashed}},
      {"pgs-ccp(de_saxce=0)", {kPink, kDotted}},
      {"admm-ncp-sa", {kBlue, kSolid}},
      {"nbgs", {kGreen, kDashed}},
      {"ngn", {kCyan, kDotted}},
      {"pgs-ccp", {kPurple, kSolid}},
      {"pgs-ncp", {kBrown, kDashed}},
      {"soft pgs-ccp(de_saxce=0)", {kOrange, kDashed}},
      {"soft apgd", {kRed, kDotted}},
      {"hard pgs-ccp(de_saxce=0)", {kPurple, kDashDot}},
      {"hard apgd", {kOlive, kDashDot}},
      {"hard admm-ncp-sa", {kBlue, kSolid}},
  };
  const auto it = looks.find(name);
  s.colour = it == looks.end() ? kGrey : it->second.first;
  s.dash = it == looks.end() ? kSolid : it->second.second;
  s.size = 1.8;
}

std::string plain(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The distinct texts of a column, in order of appearance.
std::vector<std::string> uniq(const Table& t, const std::vector<size_t>& rows,
                              const std::string& column) {
  std::vector<std::string> out;
  for (size_t r : rows)
    if (std::find(out.begin(), out.end(), t.str(r, column)) == out.end())
      out.push_back(t.str(r, column));
  return out;
}

std::vector<size_t> all_rows(const Table& t) {
  return t.where({});
}

// x when finite and |x| < cap, else NaN (not drawn).
double finite_below(double x, double cap) {
  return std::isfinite(x) && std::abs(x) < cap ? x : std::nan("");
}

svg::Plot panel(const std::string& title, svg::Axis x, svg::Axis y, double width, double height) {
  svg::Plot p;
  p.title = title;
  p.x = std::move(x);
  p.y = std::move(y);
  p.width = width;
  p.height = height;
  p.widen_legend = true;
  p.title_size = 13.0;
  return p;
}

svg::Axis axis(const std::string& label, svg::Scale scale = svg::Scale::Linear, double lo = NAN,
               double hi = NAN) {
  return {label, scale, lo, hi, {}, {}};
}

// Markers where a run failed or a value was clipped: crosses at the clipping level.
svg::Series crosses(const std::string& name, std::vector<double> x, std::vector<double> y) {
  svg::Series s;
  style(s, name);
  s.mark = svg::Mark::Points;
  s.shape = 4;
  s.size = 4.5;
  s.x = std::move(x);
  s.y = std::move(y);
  return s;
}

// ccp-vs-ncp: height above rest, v_n against mu |v_t| while sliding, and the sliding distance.
svg::Figure ccp_figure(const Table& sum, const Table& tr) {
  const double v0 = sum.num(0, "v0");
  svg::Plot a =
      panel("Box height above rest (mu = 0.5, v0 = " + plain(v0) + " m/s)", axis("t [s]"),
            axis("CoM height gain [m] (floor 1e-12)", svg::Scale::Log10, 1e-13, 0.1), 470, 380);
  svg::Plot b =
      panel("Contact normal velocity while sliding (mu = 0.5)",
            axis("mu |v_t| at active contacts [m/s]"), axis("v_n (solver's v+) [m/s]"), 470, 380);
  svg::Plot c = panel("Sliding distance vs Coulomb's v0²/(2 mu g)", axis("t [s]"),
                      axis("x - x0 [m]"), 470, 380);
  const std::vector<size_t> rows = all_rows(tr);
  const std::vector<std::string> solvers = uniq(tr, rows, "solver");
  for (const std::string& solver : solvers) {
    svg::Series h, v;
    h.label = v.label = solver;
    style(h, solver);
    style(v, solver);
    v.mark = svg::Mark::Points;
    v.size = 1.8;
    for (size_t r : tr.where({{"solver", solver}})) {
      if (tr.num(r, "mu") != 0.5) continue;
      h.x.push_back(tr.num(r, "t"));
      h.y.push_back(std::max(tr.num(r, "height_gain"), 1e-12));
      if (tr.num(r, "mu_vt_contact_mean") > 1e-3) {
        v.x.push_back(tr.num(r, "mu_vt_contact_mean"));
        v.y.push_back(tr.num(r, "vn_contact_mean"));
      }
    }
    a.series.push_back(std::move(h));
    b.series.push_back(std::move(v));
  }
  for (const std::string& mu : uniq(tr, rows, "mu")) {
    for (const std::string& solver : solvers) {
      svg::Series d;
      style(d, solver);
      if (mu == "0.5") d.label = solver;
      for (size_t r : tr.where({{"solver", solver}, {"mu", mu}})) {
        d.x.push_back(tr.num(r, "t"));
        d.y.push_back(tr.num(r, "x"));
      }
      c.series.push_back(std::move(d));
    }
    const std::vector<size_t> at = sum.where({{"mu", mu}});
    if (at.empty()) continue;
    const double d_analytic = sum.num(at.front(), "distance_analytic");
    c.rules.push_back({d_analytic, kGrey, 0.8});
    c.labels.push_back({0.0, d_analytic, " v0²/(2 mu g), mu = " + mu, kGrey});
  }
  double lim = 0.0;
  for (size_t r : rows) lim = std::max(lim, tr.num(r, "mu_vt_contact_mean"));
  svg::Series diagonal;
  diagonal.label = "v_n = mu |v_t|";
  diagonal.colour = kGrey;
  diagonal.size = 0.8;
  diagonal.x = {0.0, lim};
  diagonal.y = {0.0, lim};
  b.series.push_back(std::move(diagonal));
  a.labels.push_back({0.2, 2e-3, "CCP: hop, then slides at gap = dt mu |v_t|"});
  a.labels.push_back({0.05, 3e-12, "NCP: stays on the plane"});
  svg::Figure f;
  f.title = {
      "ccp-vs-ncp: a 0.2 m cube launched along a plane (dt = 1 ms); CCP lines overlap, NCP lines "
      "overlap"};
  f.columns = 3;
  f.panels = {std::move(a), std::move(b), std::move(c)};
  return f;
}

// Longest simulated time of a run in a table with `steps` and `dt` columns [s].
double simulated_time(const Table& t) {
  double d = 0.0;
  for (size_t r : all_rows(t)) d = std::max(d, t.num(r, "steps") * t.num(r, "dt"));
  return d;
}

struct Metric {
  std::string column, label;
};

// "max |E(t) - E(0)| [J]" -> "max |E(t) - E(0)|"
std::string without_unit(const std::string& label) {
  return label.substr(0, label.find(" ["));
}

// A grid of panels: one row per system, one column per metric, one line per value of
// `series_column`; values above `cap` are clipped to it and a failed run (`failed`) is also drawn
// as a cross at `cross_y`.
struct MetricGrid {
  std::vector<Metric> metrics;
  std::string series_column;
  svg::Axis x;  // the y axes are log10, labelled by the metric
  double width = 0.0, height = 0.0;
  double cap = 0.0;
  std::function<double(size_t row)> x_value;
  std::function<double(size_t row, const Metric& m)> y_value;
  std::function<bool(size_t row, double v)> failed;
  std::function<double(const Metric& m, double v)> cross_y;
};

svg::Figure metric_grid(const Table& t, const MetricGrid& g) {
  svg::Figure f;
  f.columns = int(g.metrics.size());
  const std::vector<size_t> rows = all_rows(t);
  for (const std::string& system : uniq(t, rows, "system")) {
    for (size_t j = 0; j < g.metrics.size(); ++j) {
      const Metric& m = g.metrics[j];
      svg::Plot p = panel(system + ": " + without_unit(m.label), g.x,
                          axis(m.label, svg::Scale::Log10), g.width, g.height);
      p.legend = j == 0;
      for (const std::string& name : uniq(t, rows, g.series_column)) {
        svg::Series s;
        s.label = name;
        style(s, name);
        s.mark = svg::Mark::LinePoints;
        std::vector<double> bad_x, bad_y;
        for (size_t r : t.where({{"system", system}, {g.series_column, name}})) {
          const double x = g.x_value(r), v = g.y_value(r, m);
          s.x.push_back(x);
          s.y.push_back(finite_below(v, g.cap));
          if (g.failed(r, v)) {
            bad_x.push_back(x);
            bad_y.push_back(g.cross_y(m, v));
          }
        }
        p.series.push_back(std::move(s));
        if (!bad_x.empty()) p.series.push_back(crosses(name, bad_x, bad_y));
      }
      f.panels.push_back(std::move(p));
    }
  }
  return f;
}

// softening-vs-proximal: per system (row), four measures against the mass ratio.
svg::Figure softening_figure(const Table& t) {
  constexpr double kCap = 1e3;
  MetricGrid g;
  g.metrics = {{"max_joint_drift", "max |f_J| over the run [m, rad]"},
               {"iters_mean", "mean solver iterations per step"},
               {"max_joint_speed_late", "max |J u| over the 2nd half [m/s, rad/s]"},
               {"max_energy_drift", "max |E(t) - E(0)| [J]"}};
  g.series_column = "config";
  g.x = axis("mass ratio", svg::Scale::Log10);
  g.width = 400;
  g.cap = kCap;
  g.height = 330;
  g.x_value = [&](size_t r) { return t.num(r, "mass_ratio"); };
  g.y_value = [&](size_t r, const Metric& m) { return t.num(r, m.column); };
  g.failed = [&](size_t r, double v) {
    return t.num(r, "completed") == 0.0 || v > kCap || !std::isfinite(v);
  };
  g.cross_y = [](const Metric& m, double v) { return m.column == "iters_mean" ? v : kCap; };
  svg::Figure f = metric_grid(t, g);
  f.title = {
      "softening-vs-proximal: MuJoCo-style softening (CCP solvers, ERP off) vs hard "
      "constraints (ERP 0.5, ADMM proximal term); " +
          plain(simulated_time(t)) + " s at dt = 1 ms",
      "× = run failed (non-finite) or value > 1e3, drawn at 1e3"};
  return f;
}

// timestep-sweep: per system (row), four measures against the time step.
svg::Figure timestep_figure(const Table& t) {
  constexpr double kCap = 1e6;
  MetricGrid g;
  g.metrics = {{"iters_mean", "mean iterations / step"},
               {"natmap_max", "max natural map at exit"},
               {"drift_or_pen", "max |f_J| or penetration [m]"},
               {"max_energy_drift", "max |E(t) - E(0)| [J]"}};
  g.series_column = "solver";
  g.x = axis("dt [ms]", svg::Scale::Log10);
  g.x.ticks = {1, 2, 5, 10};
  g.width = 350;
  g.cap = kCap;
  g.height = 300;
  g.x_value = [&](size_t r) { return 1e3 * t.num(r, "dt"); };
  g.y_value = [&](size_t r, const Metric& m) {
    if (m.column != "drift_or_pen") return t.num(r, m.column);
    // The larger of the two; NaN when the drift is NaN.
    const double drift = t.num(r, "max_joint_drift"), pen = t.num(r, "max_penetration");
    return pen > drift ? pen : drift;
  };
  g.failed = [](size_t, double v) { return !(std::abs(v) < kCap); };
  g.cross_y = [](const Metric&, double) { return kCap; };
  svg::Figure f = metric_grid(t, g);
  f.title = {"timestep-sweep: " + plain(simulated_time(t)) +
             " s simulated per run, tol 1e-8; × = blew up (> 1e6, clipped)"};
  return f;
}

// sor-sensitivity: per system (column), median sweeps against omega (top) and the failures.
svg::Figure sor_figure(const Table& t) {
  const std::vector<size_t> rows = all_rows(t);
  const std::vector<std::string> systems = uniq(t, rows, "system");
  const std::vector<std::string> solvers = uniq(t, rows, "solver");
  double cap = 0.0;
  for (size_t r : rows) cap = std::max(cap, t.num(r, "iterations"));
  std::vector<svg::Plot> top, bottom;
  for (size_t i = 0; i < systems.size(); ++i) {
    const std::string& system = systems[i];
    const size_t problems = uniq(t, t.where({{"system", system}}), "step").size();
    svg::Plot a =
        panel(system + " (" + std::to_string(problems) + " recorded problems, cold start)",
              axis("SOR relaxation omega"), axis("median sweeps to tol 1e-6", svg::Scale::Log10),
              440, 400);
    svg::Plot b = panel(system + ": failures", axis("SOR relaxation omega"),
                        axis("fraction of problems", svg::Scale::Linear, 0.0, 1.05), 440, 220);
    b.legend = i == 0;
    for (size_t k = 0; k < solvers.size(); ++k) {
      const std::string& solver = solvers[k];
      const std::vector<size_t> mine = t.where({{"system", system}, {"solver", solver}});
      std::vector<double> omegas;
      for (size_t r : mine) omegas.push_back(t.num(r, "omega"));
      std::sort(omegas.begin(), omegas.end());
      omegas.erase(std::unique(omegas.begin(), omegas.end()), omegas.end());
      svg::Series med, fails, divs;
      style(med, solver);
      style(fails, solver);
      style(divs, solver);
      med.label = solver;
      med.mark = svg::Mark::LinePoints;
      fails.label = solver + ": not converged";
      divs.label = solver + ": diverged";
      fails.mark = divs.mark = svg::Mark::Bars;
      fails.opacity = 0.45;
      divs.hatch = true;
      const double off = 1.0 + 0.015 * (double(k) - 1.0);  // separate overlapping lines a little
      const double width = 0.05;
      for (double w : omegas) {
        std::vector<double> it;
        double nfail = 0.0, ndiv = 0.0;
        for (size_t r : mine)
          if (t.num(r, "omega") == w) {
            it.push_back(t.num(r, "iterations"));
            nfail += t.num(r, "converged") == 0.0;
            ndiv += t.num(r, "diverged") != 0.0;
          }
        std::sort(it.begin(), it.end());
        const double n = double(it.size());
        med.x.push_back(w);
        med.y.push_back(it[it.size() / 2] * off);
        const double x = w + (double(k) - 1.0) * width;
        fails.x.push_back(x);
        fails.y.push_back(nfail / n);
        divs.x.push_back(x);
        divs.y.push_back(ndiv / n);
      }
      fails.size = divs.size = width;
      a.series.push_back(std::move(med));
      b.series.push_back(std::move(fails));
      b.series.push_back(std::move(divs));
    }
    a.rules.push_back({cap, kGrey, 0.8});
    a.labels.push_back({0.6, cap, " iteration cap", kGrey});
    top.push_back(std::move(a));
    bottom.push_back(std::move(b));
  }
  svg::Figure f;
  f.title = {
      "sor-sensitivity: PGS family (Alg. 5) against omega; bars: not converged at the cap "
      "(filled) and diverged (hatched: blow-up or residual above the cold start's)"};
  f.columns = int(std::max<size_t>(1, systems.size()));
  for (svg::Plot& p : top) f.panels.push_back(std::move(p));
  for (svg::Plot& p : bottom) f.panels.push_back(std::move(p));
  return f;
}

// sap-spring-cylinder: E / E0 against t per scheme, frictionless and rolling, and e_q against dt.
svg::Figure sap_spring_cylinder_figure(const Table& e, const Table& o) {
  const std::map<std::string, std::pair<int, int>> looks = {{"symplectic", {kBlue, kSolid}},
                                                            {"implicit", {kRed, kDashed}},
                                                            {"midpoint", {kGreen, kSolid}}};
  svg::Figure f;
  f.title = {
      "sap-spring-cylinder: SAP's theta-method (Castro et al. 2023, Sec. VI-B): a cylinder "
      "on a spring, dt = 20 ms; order over T = 5 s against x0 cos(w t)"};
  f.columns = 3;
  for (const char* kase : {"frictionless", "rolling"}) {
    svg::Plot p = panel(std::string("Energy, ") + kase, axis("t [s]"), axis("E / E0"), 420, 320);
    for (const std::string& scheme : uniq(e, e.where({{"case", kase}}), "scheme")) {
      svg::Series s;
      s.label = scheme;
      s.colour = looks.at(scheme).first;
      s.dash = looks.at(scheme).second;
      s.size = 1.6;
      for (size_t r : e.where({{"case", kase}, {"scheme", scheme}})) {
        s.x.push_back(e.num(r, "t"));
        s.y.push_back(e.num(r, "energy"));
      }
      p.series.push_back(std::move(s));
    }
    f.panels.push_back(std::move(p));
  }
  svg::Plot q = panel("L2 position error e_q", axis("dt [s]", svg::Scale::Log10),
                      axis("e_q [m]", svg::Scale::Log10), 420, 320);
  for (const char* kase : {"frictionless", "rolling"})
    for (const std::string& scheme : uniq(o, o.where({{"case", kase}}), "scheme")) {
      svg::Series s;
      s.label = scheme + ", " + kase;
      s.mark = svg::Mark::LinePoints;
      s.colour = looks.at(scheme).first;
      s.dash = std::string(kase) == "rolling" ? kSolid : kDotted;
      s.size = 1.4;
      for (size_t r : o.where({{"case", kase}, {"scheme", scheme}})) {
        s.x.push_back(o.num(r, "dt"));
        s.y.push_back(o.num(r, "e_q"));
      }
      q.series.push_back(std::move(s));
    }
  f.panels.push_back(std::move(q));
  return f;
}

// sap-clutter: Newton iterations and the errors per step, and the time per step against n.
svg::Figure sap_clutter_figure(const Table& t, const Table* scaling) {
  svg::Figure f;
  f.title = {
      "sap-clutter: SAP on spheres and boxes dropped into an 80 cm box (Castro et al. 2023, "
      "Sec. VI-C), dt = 10 ms, eps_r = 1e-5"};
  f.columns = 3;
  svg::Plot a =
      panel("Newton iterations per step (with walls)", axis("t [s]"), axis("iterations"), 420, 320);
  svg::Plot b = panel("Momentum and complementarity errors", axis("t [s]"),
                      axis("error (floor 1e-16)", svg::Scale::Log10), 420, 320);
  svg::Series it, em, emu;
  it.label = "SAP";
  it.mark = svg::Mark::Step;
  it.size = 1.0;
  em.label = "e_m (eq. 32)";
  emu.label = "e_mu (eq. 33)";
  em.mark = emu.mark = svg::Mark::Points;
  em.size = emu.size = 1.5;
  emu.colour = kRed;
  for (size_t r : all_rows(t)) {
    it.x.push_back(t.num(r, "t"));
    it.y.push_back(t.num(r, "iterations"));
    em.x.push_back(t.num(r, "t"));
    em.y.push_back(std::max(t.num(r, "e_m"), 1e-16));
    emu.x.push_back(t.num(r, "t"));
    emu.y.push_back(std::max(t.num(r, "e_mu"), 1e-16));
  }
  a.series.push_back(std::move(it));
  b.series.push_back(std::move(em));
  b.series.push_back(std::move(emu));
  f.panels = {std::move(a), std::move(b)};
  if (scaling) {
    svg::Plot c = panel("Wall-clock time per step", axis("objects n", svg::Scale::Log10),
                        axis("time per step [ms]", svg::Scale::Log10), 420, 320);
    for (const char* walls : {"yes", "no"}) {
      svg::Series s;
      s.label = std::string(walls) == "yes" ? "with walls" : "without walls";
      s.mark = svg::Mark::LinePoints;
      s.colour = std::string(walls) == "yes" ? kBlue : kOrange;
      for (size_t r : scaling->where({{"walls", walls}})) {
        s.x.push_back(scaling->num(r, "n"));
        s.y.push_back(scaling->num(r, "time_per_step_ms"));
      }
      c.series.push_back(std::move(s));
    }
    f.panels.push_back(std::move(c));
  }
  return f;
}

// nmdp-stability. First row, from the per-run table: against dt per integrator (jump solid, walk
// dashed), the time the quadruped stayed upright (t_end; the run's length where it did not
// diverge), the PGM outer iterations per step, the jump's peak and the walking distance. Then the
// torso height against t per dt in the jump (one panel per integrator), and the walking distance
// against t per dt; a curve ends where the run diverged. Last, as Pan & Hauser 2021 Fig. 3 and 6:
// the torso tilt against t in the jump per integrator, the histogram of PGM outer iterations per
// step and Alg. 2's smallest sub-step alpha dt against t.
svg::Figure nmdp_stability_figure(const Table& t, const Table* runs, const Table* histogram) {
  svg::Figure f;
  f.title = {
      "nmdp-stability: quadruped jump and walk (PD keyframes) per integrator and dt (Pan & "
      "Hauser 2021, Sec. V; nmdp: the servo at the new state, mdp: Tan's explicit servo); a run "
      "ends when a step fails (diverged), the torso tilts > 60 deg or drops below 0.15 m (fell)"};
  f.columns = 4;
  if (runs && !runs->rows.empty()) {
    struct Metric {
      const char* column;
      const char* title;
      svg::Axis y;
      const char* gait;  // nullptr: both gaits
    };
    const Metric metrics[] = {
        {"t_end", "Time upright (run length if not diverged)", axis("t_end [s]"), nullptr},
        {"outer_mean", "PGM outer iterations per step",
         axis("mean outer iterations", svg::Scale::Log10), nullptr},
        {"jump_peak_mean", "Jump: torso's highest point", axis("peak height [m]"), "jump"},
        {"walk_distance", "Walk: forward distance", axis("x - x0 [m]"), "walk"},
    };
    const std::map<std::string, int> colour = {{"mdp", kBlue},
                                               {"nmdp", kRed},
                                               {"nmdp-zo", kGreen},
                                               {"nmdp-pbd", kPink},
                                               {"nmdp-zo-pbd", kCyan},
                                               {"mdp-implicit", kPurple},
                                               {"nmdp-tan", kOrange},
                                               {"euler", kGrey},
                                               {"nmdp-dissipation", kBrown},
                                               {"mdp-implicit-dissipation", kOlive}};
    for (const Metric& m : metrics) {
      svg::Plot p = panel(m.title, axis("dt [ms]"), m.y, 380, 300);
      for (const std::string& integrator : uniq(*runs, all_rows(*runs), "integrator"))
        for (const char* gait : {"jump", "walk"}) {
          if (m.gait && std::string(m.gait) != gait) continue;
          svg::Series s;
          s.label = integrator + (m.gait ? "" : std::string(" ") + gait);
          const auto it = colour.find(integrator);
          s.colour = it == colour.end() ? kBrown : it->second;
          s.dash = std::string(gait) == "jump" ? kSolid : kDashed;
          s.mark = svg::Mark::LinePoints;
          s.size = 1.6;
          for (size_t r : runs->where({{"integrator", integrator}, {"gait", gait}})) {
            // Jump peak and distance only where the run did not diverge (a falling or
            // exploding torso is not a jump or a walk).
            if (m.gait && runs->str(r, "diverged") == "yes") continue;
            const double y = finite_below(runs->num(r, m.column), 1e6);
            if (!std::isfinite(y)) continue;  // euler has no PGM iterations
            s.x.push_back(1e3 * runs->num(r, "dt"));
            s.y.push_back(y);
          }
          if (!s.x.empty()) p.series.push_back(std::move(s));
        }
      f.panels.push_back(std::move(p));
    }
  }
  const std::vector<std::string> dts = uniq(t, all_rows(t), "dt");
  const int colours[] = {kBlue, kOrange, kGreen, kRed, kPurple, kBrown, kPink, kCyan};
  // One panel: `column` against t for every dt of (gait, integrator).
  auto per_dt = [&](const std::string& gait, const std::string& integrator,
                    const std::string& title, const char* column, const std::string& label) {
    svg::Plot p = panel(integrator + ": " + title, axis("t [s]"), axis(label), 380, 300);
    for (size_t i = 0; i < dts.size(); ++i) {
      const std::vector<size_t> rows =
          t.where({{"gait", gait}, {"integrator", integrator}, {"dt", dts[i]}});
      if (rows.empty()) continue;
      svg::Series s;
      s.label = "dt " + plain(1e3 * t.num(rows.front(), "dt")) + " ms";
      s.colour = colours[i % 8];
      s.size = 1.4;
      for (size_t r : rows) {
        s.x.push_back(t.num(r, "t"));
        s.y.push_back(t.num(r, column));
      }
      p.series.push_back(std::move(s));
    }
    f.panels.push_back(std::move(p));
  };
  for (const std::string& integrator : uniq(t, t.where({{"gait", "jump"}}), "integrator"))
    per_dt("jump", integrator, "jump, torso height", "height", "torso height [m]");
  for (const std::string& integrator : uniq(t, t.where({{"gait", "walk"}}), "integrator"))
    per_dt("walk", integrator, "walk, distance", "x", "x - x0 [m]");
  // Torso tilt against t in the jump (Pan & Hauser 2021, Fig. 3).
  for (const std::string& integrator : uniq(t, t.where({{"gait", "jump"}}), "integrator"))
    per_dt("jump", integrator, "jump, torso tilt", "tilt_deg", "tilt [deg]");
  // Histogram of PGM outer iterations per step over both gaits and every dt (Fig. 6b): the share
  // of steps per octave of outer iterations (1, 2-3, 4-7, ...: plotted at the octave's first
  // value), per integrator (mdp: 1 by construction).
  if (histogram && !histogram->rows.empty()) {
    svg::Plot p = panel("PGM outer iterations per step (all dts, both gaits)",
                        axis("outer iterations (octaves 1, 2-3, 4-7, ...)", svg::Scale::Log2),
                        axis("share of steps [%]"), 380, 300);
    int k = 0;
    for (const std::string& integrator : uniq(*histogram, all_rows(*histogram), "integrator")) {
      std::map<double, double> steps;
      double total = 0.0;
      for (size_t r : histogram->where({{"integrator", integrator}})) {
        const double its = histogram->num(r, "outer");
        steps[its >= 1.0 ? std::exp2(std::floor(std::log2(its))) : 0.0] +=
            histogram->num(r, "steps");
        total += histogram->num(r, "steps");
      }
      svg::Series s;
      s.label = integrator;
      s.colour = colours[k++ % 8];
      s.mark = svg::Mark::LinePoints;
      s.size = 1.2;
      s.radius = 2.0;
      for (const auto& [its, n] : steps) {
        s.x.push_back(its);
        s.y.push_back(100.0 * n / total);
      }
      p.series.push_back(std::move(s));
    }
    f.panels.push_back(std::move(p));
  }
  // Alg. 2's smallest sub-step alpha dt against t at the largest dt (Fig. 6d: 50 ms), for the
  // runs that halved.
  if (t.col("alpha") >= 0 && !dts.empty()) {
    const std::string dt = *std::max_element(
        dts.begin(), dts.end(),
        [&](const auto& a, const auto& b) { return std::stod(a) < std::stod(b); });
    svg::Plot p =
        panel("Alg. 2: smallest sub-step per 10 ms at dt = " + plain(1e3 * std::stod(dt)) +
                  " ms (runs that halved)",
              axis("t [s]"), axis("alpha dt [ms]", svg::Scale::Log2), 380, 300);
    int k = 0;
    for (const char* gait : {"jump", "walk"})
      for (const std::string& integrator : uniq(t, t.where({{"gait", gait}}), "integrator")) {
        const std::vector<size_t> rows =
            t.where({{"gait", gait}, {"integrator", integrator}, {"dt", dt}});
        bool halved = false;
        for (size_t r : rows) halved = halved || t.num(r, "alpha") < 1.0;
        if (!halved) continue;
        svg::Series s;
        s.label = integrator + " " + gait;
        s.colour = colours[k++ % 8];
        s.size = 1.2;
        for (size_t r : rows) {
          s.x.push_back(t.num(r, "t"));
          s.y.push_back(1e3 * t.num(r, "alpha") * t.num(r, "dt"));
        }
        p.series.push_back(std::move(s));
      }
    if (!p.series.empty()) f.panels.push_back(std::move(p));
  }
  return f;
}

const Table* find_table(const ExperimentResult& r, const std::string& name) {
  for (const Table& t : r.tables)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace

std::vector<FigureFile> experiment_figures(const ExperimentResult& r) {
  std::vector<FigureFile> out;
  if (r.tables.empty() || r.tables.front().rows.empty()) return out;
  const Table& first = r.tables.front();
  const std::string& name = first.name;
  if (name == "ccp-vs-ncp") {
    if (const Table* tr = find_table(r, "ccp-vs-ncp-trace"))
      out.push_back({name + ".svg", svg::render(ccp_figure(first, *tr))});
  } else if (name == "softening-vs-proximal") {
    out.push_back({name + ".svg", svg::render(softening_figure(first))});
  } else if (name == "timestep-sweep") {
    out.push_back({name + ".svg", svg::render(timestep_figure(first))});
  } else if (name == "sor-sensitivity") {
    out.push_back({name + ".svg", svg::render(sor_figure(first))});
  } else if (name == "sap-spring-cylinder") {
    if (const Table* o = find_table(r, "sap-spring-cylinder-order"))
      out.push_back({name + ".svg", svg::render(sap_spring_cylinder_figure(first, *o))});
  } else if (name == "sap-clutter") {
    out.push_back({name + ".svg",
                   svg::render(sap_clutter_figure(first, find_table(r, "sap-clutter-scaling")))});
  } else if (name == "nmdp-stability") {
    if (const Table* s = find_table(r, "nmdp-stability-series"); s && !s->rows.empty())
      out.push_back({name + ".svg",
                     svg::render(nmdp_stability_figure(*s, find_table(r, "nmdp-stability"),
                                                       find_table(r, "nmdp-stability-outer")))});
  }
  return out;
}

Result<std::vector<std::string>> write_figures(const ExperimentResult& r, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{dir, 0, "output directory", "a directory that can be created", ec.message()};
  std::vector<std::string> paths;
  for (const FigureFile& fig : experiment_figures(r)) {
    const std::string path = (std::filesystem::path(dir) / fig.name).string();
    std::ofstream f(path, std::ios::binary);
    f << fig.svg;
    if (!f) return Error{path, 0, "figure '" + fig.name + "'", "a writable file", "write failed"};
    paths.push_back(path);
  }
  return paths;
}

}  // namespace moreau::bench
