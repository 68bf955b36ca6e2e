// The report's SVG plots: Dolan-More profiles of time to tolerance (all samples, per system
// group), accuracy vs work, median time per system, residual traces per category, success rates.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "moreau/bench/report_common.hpp"
#include "moreau/bench/svg_plot.hpp"

namespace moreau::bench {

namespace {

constexpr double kResidualFloor = 1e-17;  // r = 0 is drawn here on a log axis

std::string percent(double rate) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * rate);
  return buf;
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0e", v);
  return buf;
}

// One look per solver across every plot: colour by index, dash and marker cycling.
void style(svg::Series& s, int solver) {
  s.colour = solver;
  s.dash = solver / 5 % 4;
  s.shape = solver % 4;
}

std::string start_name(bool warm) {
  return warm ? "warm start" : "cold start";
}

// Dolan-More profile of time to tolerance over the samples `keep` selects.
template <class Keep>
std::optional<svg::Plot> profile_plot(const ReportInput& in,
                                      const std::vector<std::string>& solvers, bool warm,
                                      const std::string& scope, Keep keep) {
  const auto cost = cost_matrix(*in.samples, *in.runs, solvers, warm, keep, time_cost);
  if (cost.empty()) return std::nullopt;
  const std::vector<Profile> prof = performance_profile(cost, solvers);
  double tau_max = 2.0;
  for (const Profile& p : prof)
    if (!p.tau.empty()) tau_max = std::max(tau_max, p.tau.back());
  tau_max = std::exp2(std::ceil(std::log2(tau_max * 1.05)));
  svg::Plot plot;
  plot.title = "Performance profile, time to tolerance: " + scope + " (" + start_name(warm) + ")";
  plot.subtitle =
      "rho(tau) = fraction of the " + std::to_string(cost.size()) +
      " samples a solver solves within tau x the fastest solver's time; tol = " + sci(in.tol) +
      "; failures never count";
  plot.x = {
      "tau = solve time / fastest solve time  (log2)", svg::Scale::Log2, 1.0, tau_max, {}, {}};
  plot.y = {"rho(tau): fraction of samples", svg::Scale::Linear, -0.02, 1.04, {}, {}};
  // Legend ordered by the fraction solved at the right edge, best first.
  std::vector<size_t> order(prof.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return prof[a].rho.back() > prof[b].rho.back() ||
           (prof[a].rho.back() == prof[b].rho.back() && prof[a].rho.front() > prof[b].rho.front());
  });
  for (size_t k : order) {
    const Profile& p = prof[k];
    svg::Series s;
    s.label = p.solver + " (" + percent(p.rho.back()) + ", best " + percent(p.rho.front()) + ")";
    s.mark = svg::Mark::Step;
    s.x = p.tau;
    s.y = p.rho;
    s.x.push_back(tau_max);
    s.y.push_back(p.rho.back());
    s.size = 2.0;
    style(s, int(k));
    plot.series.push_back(std::move(s));
  }
  plot.notes = {"Legend: solver (fraction solved at any tau, fraction where it is the fastest).",
                "Success = converged and r_natmap <= tol. Ties count for every tied solver."};
  return plot;
}

// Scatter of (solve time, r_natmap) per run, with each solver's median and IQR on top.
svg::Plot accuracy_plot(const ReportInput& in, const std::vector<std::string>& solvers, bool warm) {
  svg::Plot plot;
  plot.title = "Accuracy vs work (" + start_name(warm) + ")";
  plot.subtitle =
      "each dot one solve; large marker: median, bars: interquartile range per solver; "
      "dashed line: tol = " +
      sci(in.tol);
  plot.x = {"solve time [s]  (log)", svg::Scale::Log10, NAN, NAN, {}, {}};
  plot.y = {"r_natmap, natural-map residual (eq. 176)  (log)", svg::Scale::Log10, NAN, NAN, {}, {}};
  double t_lo = INFINITY, t_hi = -INFINITY;
  std::vector<svg::Series> medians;
  for (size_t k = 0; k < solvers.size(); ++k) {
    svg::Series dots;
    dots.mark = svg::Mark::Points;
    dots.opacity = 0.3;
    dots.size = 2.2;
    style(dots, int(k));
    std::vector<double> t, r;
    for (const RunResult& run : *in.runs) {
      if (run.solver != solvers[k] || run.warm != warm) continue;
      const double res = run.metrics.r_natmap;
      if (!std::isfinite(res) || !(run.solve_time_s > 0)) continue;
      dots.x.push_back(run.solve_time_s);
      dots.y.push_back(std::max(res, kResidualFloor));
      t.push_back(run.solve_time_s);
      r.push_back(std::max(res, kResidualFloor));
      t_lo = std::min(t_lo, run.solve_time_s);
      t_hi = std::max(t_hi, run.solve_time_s);
    }
    if (t.empty()) continue;
    const Quartiles qt = quartiles(t), qr = quartiles(r);
    svg::Series m;
    m.label = solvers[k];
    m.mark = svg::Mark::Points;
    m.size = 6.0;
    style(m, int(k));
    m.x = {qt.median};
    m.y = {qr.median};
    m.x_lo = {qt.q1};
    m.x_hi = {qt.q3};
    m.y_lo = {qr.q1};
    m.y_hi = {qr.q3};
    plot.series.push_back(std::move(dots));
    medians.push_back(std::move(m));
  }
  if (in.tol > 0 && t_lo <= t_hi) {
    svg::Series tol;
    tol.mark = svg::Mark::Line;
    tol.x = {t_lo, t_hi};
    tol.y = {in.tol, in.tol};
    tol.colour = 9;
    tol.dash = 1;
    tol.size = 1.2;
    plot.series.push_back(std::move(tol));
  }
  for (svg::Series& m : medians) plot.series.push_back(std::move(m));
  plot.notes = {"Residuals of exactly 0 are drawn at 1e-17; non-finite residuals are left out."};
  return plot;
}

// Median solve time per system (dot per solver, IQR bars), log y.
svg::Plot time_per_system_plot(const std::vector<Aggregate>& aggs,
                               const std::vector<std::string>& solvers,
                               const std::vector<std::string>& systems, bool warm) {
  svg::Plot plot;
  plot.title = "Median solve time per system (" + start_name(warm) + ")";
  plot.subtitle =
      "dot: median over the system's samples (all runs, failures included); bar: "
      "interquartile range";
  plot.x = {"system", svg::Scale::Linear, NAN, NAN, systems, {}};
  plot.y = {"solve time [s]  (log)", svg::Scale::Log10, NAN, NAN, {}, {}};
  plot.width = std::max(960.0, 320.0 + 64.0 * double(systems.size()));
  const double S = double(solvers.size());
  for (size_t k = 0; k < solvers.size(); ++k) {
    svg::Series s;
    s.label = solvers[k];
    s.mark = svg::Mark::Points;
    s.size = 3.6;
    style(s, int(k));
    for (size_t i = 0; i < systems.size(); ++i)
      for (const Aggregate& a : aggs)
        if (a.system == systems[i] && a.category == "all" && a.solver == solvers[k] &&
            a.warm == warm) {
          s.x.push_back(double(i) + (double(k) - (S - 1) / 2) * 0.8 / std::max(S, 1.0));
          s.y.push_back(a.time_s.median);
          s.y_lo.push_back(a.time_s.q1);
          s.y_hi.push_back(a.time_s.q3);
        }
    plot.series.push_back(std::move(s));
  }
  return plot;
}

// Residual per iteration of every solver on one representative sample of `cat`: the sample of
// median n_lambda among those with traces (the first of equals).
std::optional<svg::Plot> trace_plot(const ReportInput& in, const std::vector<std::string>& solvers,
                                    Category cat, bool warm) {
  const std::vector<Sample>& samples = *in.samples;
  std::vector<int> with_trace;
  for (const RunResult& r : *in.runs)
    if (r.warm == warm && !r.trace.empty() && r.sample >= 0 && r.sample < int(samples.size()) &&
        samples[r.sample].info.category == cat &&
        std::find(with_trace.begin(), with_trace.end(), r.sample) == with_trace.end())
      with_trace.push_back(r.sample);
  if (with_trace.empty()) return std::nullopt;
  std::stable_sort(with_trace.begin(), with_trace.end(),
                   [&](int a, int b) { return samples[a].info.nl < samples[b].info.nl; });
  const int pick = with_trace[(with_trace.size() - 1) / 2];
  const Sample& smp = samples[pick];
  svg::Plot plot;
  plot.title =
      std::string("Residual per iteration: ") + category_name(cat) + " (" + start_name(warm) + ")";
  plot.subtitle = "sample: " + smp.system +
                  (smp.step >= 0 ? " step " + std::to_string(smp.step) : std::string(" (file)")) +
                  ", n_lambda = " + std::to_string(smp.info.nl) +
                  ", contacts = " + std::to_string(smp.info.contacts) +
                  "; each solver's own stopping residual";
  plot.x = {"iteration", svg::Scale::Log10, 0.7, NAN, {}, {}};  // room for markers at 1
  plot.y = {"solver residual  (log)", svg::Scale::Log10, NAN, NAN, {}, {}};
  for (size_t k = 0; k < solvers.size(); ++k)
    for (const RunResult& r : *in.runs) {
      if (r.sample != pick || r.solver != solvers[k] || r.warm != warm || r.trace.empty()) continue;
      svg::Series s;
      s.label = solvers[k] + " (" + std::to_string(r.trace.size()) + " it, " +
                status_name(r.status) + ")";
      // A trace of one or two iterations is too short to see as a line: markers.
      s.mark = r.trace.size() <= 2 ? svg::Mark::Points : svg::Mark::Line;
      s.size = r.trace.size() <= 2 ? 4.0 : 1.8;
      style(s, int(k));
      for (size_t i = 0; i < r.trace.size(); ++i) {
        s.x.push_back(double(i + 1));
        s.y.push_back(std::max(r.trace[i], kResidualFloor));
      }
      plot.series.push_back(std::move(s));
    }
  plot.notes = {
      "Solvers stop on different quantities; compare shapes (rates), not levels. "
      "Residuals of 0 are drawn at 1e-17."};
  return plot;
}

// Success rate per solver (rows) and category or system (columns).
svg::HeatMap success_map(const std::vector<Aggregate>& aggs,
                         const std::vector<std::string>& solvers,
                         const std::vector<std::string>& cols, bool by_category, bool warm,
                         double tol) {
  svg::HeatMap h;
  h.title = std::string("Success rate per ") + (by_category ? "category" : "system") + " (" +
            start_name(warm) + ")";
  h.subtitle = "success = converged and r_natmap <= " + sci(tol) + "; cell: success rate (samples)";
  h.row_label = "solver";
  h.col_label = "colour: 0% dark blue .. 100% yellow; blank: no runs";
  h.rows = solvers;
  h.cols = cols;
  h.cols.push_back("all");
  for (const std::string& solver : solvers) {
    std::vector<double> vals;
    std::vector<std::string> texts;
    for (const std::string& c : h.cols) {
      const Aggregate* hit = nullptr;
      for (const Aggregate& a : aggs) {
        const bool match = by_category ? (a.system == "all" && a.category == c)
                                       : (a.system == c && a.category == "all");
        if (match && a.solver == solver && a.warm == warm) hit = &a;
      }
      vals.push_back(hit ? hit->success_rate : NAN);
      texts.push_back(hit ? percent(hit->success_rate) + " (" + std::to_string(hit->samples) + ")"
                          : "");
    }
    h.value.push_back(std::move(vals));
    h.text.push_back(std::move(texts));
  }
  return h;
}

}  // namespace

std::vector<PlotFile> report_plots(const ReportInput& in, const std::vector<Aggregate>& aggs) {
  const std::vector<std::string> solvers = report_solvers(in), systems = report_systems(in);
  const bool warm = headline_warm(*in.runs);
  std::vector<PlotFile> out;
  const auto all = [](const Sample&) { return true; };
  if (auto p = profile_plot(in, solvers, warm, "all samples", all))
    out.push_back({"profile_time_all.svg", "Performance profile, all samples", svg::render(*p)});
  for (const std::string& g : system_groups()) {
    auto p = profile_plot(in, solvers, warm, g,
                          [&](const Sample& s) { return system_group(s.system) == g; });
    if (p)
      out.push_back({"profile_time_" + g + ".svg", "Performance profile, " + g, svg::render(*p)});
  }
  out.push_back(
      {"accuracy_vs_time.svg", "Accuracy vs work", svg::render(accuracy_plot(in, solvers, warm))});
  out.push_back({"median_time_per_system.svg", "Median solve time per system",
                 svg::render(time_per_system_plot(aggs, solvers, systems, warm))});
  std::vector<std::string> cats;
  for (int c = 0; c < kNumCategories; ++c)
    for (const Aggregate& a : aggs)
      if (a.system == "all" && a.category == category_name(Category(c))) {
        cats.push_back(a.category);
        break;
      }
  out.push_back({"success_rate_category.svg", "Success rate per category",
                 svg::render(success_map(aggs, solvers, cats, true, warm, in.tol))});
  out.push_back({"success_rate_system.svg", "Success rate per system",
                 svg::render(success_map(aggs, solvers, systems, false, warm, in.tol))});
  for (int c = 0; c < kNumCategories; ++c)
    if (auto p = trace_plot(in, solvers, Category(c), warm))
      out.push_back({std::string("trace_") + category_name(Category(c)) + ".svg",
                     std::string("Residual traces, ") + category_name(Category(c)),
                     svg::render(*p)});
  return out;
}

}  // namespace moreau::bench
