// report.md: the run's settings, which solver wins where, per-system success and time, the
// plots, and notes on method and on the benchmark's own overhead.
#include <cmath>
#include <cstdio>

#include "moreau/bench/report_common.hpp"

namespace moreau::bench {

namespace {

std::string percent(double rate) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * rate);
  return buf;
}

std::string fixed(double v, const char* fmt) {
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string o;
  for (size_t i = 0; i < v.size(); ++i) o += (i ? sep : "") + v[i];
  return o;
}

// Markdown table cells cannot hold '|'.
std::string cell(std::string s) {
  for (char& c : s)
    if (c == '|' || c == '\n') c = ' ';
  return s;
}

// One headline row: the best solver of `rows` (one scope, one start) and its runner-up.
std::string headline_row(const std::string& scope, const std::vector<Aggregate>& rows) {
  const std::vector<Aggregate> r = ranked(rows);
  if (r.empty()) return "";
  const Aggregate& best = r[0];
  if (best.successes == 0)  // the fastest failure wins nothing
    return "| " + cell(scope) + " | " + std::to_string(best.samples) +
           " | none: no solver succeeds | 0% | - | - | - | - | - |\n";
  std::string o = "| " + cell(scope) + " | " + std::to_string(best.samples) + " | **" +
                  best.solver + "** | " + percent(best.success_rate) + " | " +
                  format_duration(best.time_s.median) + " | ";
  if (r.size() < 2) return o + "- | - | - | - |\n";
  const Aggregate& second = r[1];
  const double factor = second.time_s.median / best.time_s.median;
  o += second.solver + " | " + percent(second.success_rate) + " | " +
       format_duration(second.time_s.median) + " | " +
       (std::isfinite(factor) ? fixed(factor, "%.2fx") : std::string("-")) + " |\n";
  return o;
}

template <class Select>
std::vector<Aggregate> select(const std::vector<Aggregate>& aggs, bool warm, Select sel) {
  std::vector<Aggregate> out;
  for (const Aggregate& a : aggs)
    if (a.warm == warm && sel(a)) out.push_back(a);
  return out;
}

}  // namespace

std::string format_duration(double s) {
  if (std::isnan(s)) return "-";
  if (std::isinf(s)) return "inf";
  if (s < 1e-3) return fixed(s * 1e6, "%.3g us");
  if (s < 1.0) return fixed(s * 1e3, "%.3g ms");
  return fixed(s, "%.3g s");
}

std::string report_markdown(const ReportInput& in, const std::vector<Aggregate>& aggs,
                            const std::vector<PlotFile>& plots) {
  const std::vector<Sample>& samples = *in.samples;
  const std::vector<RunResult>& runs = *in.runs;
  const std::vector<std::string> solvers = report_solvers(in), systems = report_systems(in);
  const bool warm = headline_warm(runs);
  const char* start = warm ? "warm" : "cold";
  int n_cold = 0, n_warm = 0, n_success = 0;
  for (const RunResult& r : runs) {
    (r.warm ? n_warm : n_cold) += 1;
    n_success += r.success ? 1 : 0;
  }
  std::vector<int> per_cat(kNumCategories, 0);
  for (const Sample& s : samples) per_cat[int(s.info.category)] += 1;
  std::vector<std::string> cat_counts;
  for (int c = 0; c < kNumCategories; ++c)
    if (per_cat[c] > 0)
      cat_counts.push_back(std::string(category_name(Category(c))) + " " +
                           std::to_string(per_cat[c]));

  std::string o = "# moreau benchmark report\n\n";
  o += "Solver comparison on dual (NCP) problems recorded from simulation; metrics of the "
       "dual-solvers report (eq. 173-176). Read `results.csv` for every solve and `summary.json` "
       "for every aggregate.\n\n## Settings\n\n| setting | value |\n|---|---|\n";
  o += "| command | `" +
       cell(in.command_line.empty() ? std::string("(not recorded)") : in.command_line) + "` |\n";
  o += "| tolerance | r_natmap <= " + fixed(in.tol, "%.3g") + " (L-inf) |\n";
  o += "| solvers (" + std::to_string(solvers.size()) + ") | " + join(solvers, ", ") + " |\n";
  o += "| systems (" + std::to_string(systems.size()) + ") | " + join(systems, ", ") + " |\n";
  o += "| samples | " + std::to_string(samples.size()) + " (" + join(cat_counts, ", ") +
       "), recorded along the full solve with each scene's solver (no fast path) |\n";
  o += "| solves | " + std::to_string(runs.size()) + " (" + std::to_string(n_cold) + " cold, " +
       std::to_string(n_warm) + " warm), " + std::to_string(n_success) + " successful |\n";
  o += "| wall time | " + format_duration(in.wall_s) + " |\n";
  o += "| sum of solve times | " + format_duration(in.solve_s) + " |\n\n";
  if (!in.notes.empty()) {
    o += "**Notes on this run.**\n\n";
    for (const std::string& n : in.notes) o += "- " + n + "\n";
    o += "\n";
  }

  if (!in.systems_figure.empty())
    o += "## The systems\n\nEach system in its initial state (drawn by `moreau view`'s renderer, "
         "docs/viewer.md).\n\n![The systems](plots/" +
         in.systems_figure + ")\n\n";
  else if (!in.systems_figure_note.empty())
    o += "## The systems\n\n*" + in.systems_figure_note + "*\n\n";

  if (in.default_runs != nullptr && !in.default_runs->empty()) {
    o += "## Steps unconverged on the default path\n\n"
         "Each system run again as `moreau simulate NAME` runs it (its scene's solver, tolerance "
         "and fast path, with this run's dt and duration overrides): a step whose solve ends above "
         "the tolerance, at the iteration cap included, is unconverged. Time per step is the "
         "stepping loop's wall time over its steps (systems ran in parallel on `--jobs` "
         "threads).\n\n"
         "| system | solver | fast path | steps | unconverged | first unconverged step | "
         "time per step |\n|---|---|---|---:|---:|---:|---:|\n";
    for (const DefaultPathRun& d : *in.default_runs) {
      const std::string first =
          d.first_unconverged >= 0 ? std::to_string(d.first_unconverged) : "-";
      const std::string per_step =
          d.steps > 0 ? fixed(1e6 * d.wall_s / d.steps, "%.1f") + " us" : "-";
      o += "| " + cell(d.system) + " | " + d.solver + " | " + (d.fast_path ? "on" : "off") + " | " +
           std::to_string(d.steps) + " | " + std::to_string(d.unconverged) + " | " + first + " | " +
           per_step + " |\n";
      if (!d.error.empty()) o += "| | ended early: " + cell(d.error) + " | | | | | |\n";
    }
    o += "\n";
  }

  o += "## Which solver wins where\n\n";
  o += std::string("Best solver per scope (") + start +
       " start): highest success rate, then lowest median solve time (median over all its runs "
       "in the scope). *Factor* = runner-up median time / best median time (below 1: the "
       "runner-up is faster but succeeds less often).\n\n";
  o += "| scope | samples | best | success | median time | runner-up | success | median time | "
       "factor |\n"
       "|---|---|---|---|---|---|---|---|---|\n";
  o += headline_row("all samples", select(aggs, warm, [](const Aggregate& a) {
                      return a.system == "all" && a.category == "all";
                    }));
  const std::vector<Aggregate> groups = group_aggregates(samples, runs, solvers);
  for (const std::string& g : system_groups())
    o += headline_row("group: " + g,
                      select(groups, warm, [&](const Aggregate& a) { return a.system == g; }));
  for (int c = 0; c < kNumCategories; ++c) {
    const std::string name = category_name(Category(c));
    o += headline_row("category: " + name, select(aggs, warm, [&](const Aggregate& a) {
                        return a.system == "all" && a.category == name;
                      }));
  }

  o += std::string("\n## Per system\n\nSuccess rate and median solve time (") + start +
       " start) per solver and system; the best of each column (by the same ranking) in bold.\n\n";
  o += "| solver | " + join(systems, " | ") + " |\n|---|";
  for (size_t i = 0; i < systems.size(); ++i) o += "---|";
  o += "\n";
  std::vector<std::string> best(systems.size());
  for (size_t i = 0; i < systems.size(); ++i) {
    const auto r = ranked(select(aggs, warm, [&](const Aggregate& a) {
      return a.system == systems[i] && a.category == "all";
    }));
    if (!r.empty()) best[i] = r[0].solver;
  }
  for (const std::string& solver : solvers) {
    o += "| " + solver + " |";
    for (size_t i = 0; i < systems.size(); ++i) {
      const auto r = select(aggs, warm, [&](const Aggregate& a) {
        return a.system == systems[i] && a.category == "all" && a.solver == solver;
      });
      std::string c =
          r.empty() ? "-"
                    : percent(r[0].success_rate) + " / " + format_duration(r[0].time_s.median);
      if (!r.empty() && best[i] == solver) c = "**" + c + "**";
      o += " " + c + " |";
    }
    o += "\n";
  }

  if (n_warm > 0 && n_cold > 0) {
    o +=
        "\n## Warm start\n\nCold start over every sample; the simulator's warm start over the "
        "samples that have one (so the two columns may cover different samples).\n\n| solver | "
        "success cold | success warm | median time cold | median time "
        "warm | median iterations cold | median iterations warm |\n|---|---|---|---|---|---|---|\n";
    for (const std::string& solver : solvers) {
      const auto row = [&](bool w) {
        return select(aggs, w, [&](const Aggregate& a) {
          return a.system == "all" && a.category == "all" && a.solver == solver;
        });
      };
      const auto c = row(false), w = row(true);
      if (c.empty() || w.empty()) continue;
      o += "| " + solver + " | " + percent(c[0].success_rate) + " | " + percent(w[0].success_rate) +
           " | " + format_duration(c[0].time_s.median) + " | " +
           format_duration(w[0].time_s.median) + " | " + fixed(c[0].iterations.median, "%.0f") +
           " | " + fixed(w[0].iterations.median, "%.0f") + " |\n";
    }
  }

  o += "\n## Plots\n\n";
  for (const PlotFile& p : plots)
    o += "### " + p.title + "\n\n![" + p.title + "](plots/" + p.name + ")\n\n";

  o += "## Method\n\n";
  o += "See `docs/benchmark.md` in the moreau repository for how samples are recorded and "
       "classified and the decisions the dual-solvers report leaves open. In short:\n\n";
  o += "- Every metric is the L-inf norm of the NCP quantity (eq. 173-176), whatever problem the "
       "solver solves (CCP solvers are measured against the NCP).\n";
  o += "- Success = converged (the solver's own test) and r_natmap <= tol, with finite metrics.\n";
  o += "- Quartiles interpolate linearly between order statistics (numpy's default, type 7). Time "
       "and iteration quartiles are over every run, failures included; residual quartiles over "
       "the finite values only.\n";
  o +=
      "- Performance profiles (Dolan-More): rho_s(tau) = fraction of samples with t_s <= tau min_s "
      "t_s; a failure has t = inf and never counts; samples every solver fails stay in the "
      "denominator, so rho may stay below 1.\n";
  o += "- Times are the solve only (no D assembly), each on its own thread.\n\n";
  o += "### Overhead of the benchmark\n\n";
  const double overhead = in.wall_s - in.solve_s;
  o += "Wall time " + format_duration(in.wall_s) + ", sum of solve times " +
       format_duration(in.solve_s);
  if (in.wall_s > 0.0 && overhead >= 0.0)
    o += " (" + fixed(100.0 * in.solve_s / in.wall_s, "%.1f") + "% of the wall time); the rest, " +
         format_duration(overhead) +
         ", is simulation to record samples, metrics, bookkeeping and writing.\n";
  else if (in.wall_s > 0.0)
    o += ": the solves ran on several worker threads, so their sum exceeds the wall time (" +
         fixed(in.solve_s / in.wall_s, "%.2f") + "x).\n";
  else
    o += ".\n";
  return o;
}

}  // namespace moreau::bench
