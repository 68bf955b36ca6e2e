#pragma once
// Helpers shared by the aggregates (stats.cpp) and the report writers (report*.cpp); not part of
// the public bench API.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "moreau/bench/bench.hpp"

namespace moreau::bench {

// Summary of one group of runs (the statistics of an Aggregate row, without its labels).
// Time and iteration quartiles are over every run; residual quartiles over the finite values.
Aggregate summarize(const std::vector<const RunResult*>& runs);

// The system groups of the report in report order (system_group() in bench.hpp names them).
const std::vector<std::string>& system_groups();

// Dolan-More cost of a run for the time-to-tolerance profile: solve time when it succeeded,
// +inf otherwise.
double time_cost(const RunResult& r);

// Costs cost[p][s] of the cold (or warm) runs over the samples `keep` selects, for `solvers`;
// a (sample, solver) pair without a run counts as a failure. Samples with no run at all are
// left out. `cost_of` maps a run to its cost.
template <class Keep, class CostOf>
std::vector<std::vector<double>> cost_matrix(const std::vector<Sample>& samples,
                                             const std::vector<RunResult>& runs,
                                             const std::vector<std::string>& solvers, bool warm,
                                             Keep keep, CostOf cost_of) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> by_sample(samples.size());
  std::vector<bool> seen(samples.size(), false);
  for (const RunResult& r : runs) {
    if (r.warm != warm || r.sample < 0 || r.sample >= int(samples.size())) continue;
    if (!keep(samples[r.sample])) continue;
    const auto it = std::find(solvers.begin(), solvers.end(), r.solver);
    if (it == solvers.end()) continue;
    auto& row = by_sample[r.sample];
    if (row.empty()) row.assign(solvers.size(), inf);
    row[it - solvers.begin()] = cost_of(r);
    seen[r.sample] = true;
  }
  std::vector<std::vector<double>> cost;
  for (size_t i = 0; i < samples.size(); ++i)
    if (seen[i]) cost.push_back(std::move(by_sample[i]));
  return cost;
}

// Aggregates over a system group (system = the group name, category = "all"), per solver and
// start, in the order of `solvers`; groups in system_groups() order; empty groups left out.
std::vector<Aggregate> group_aggregates(const std::vector<Sample>& samples,
                                        const std::vector<RunResult>& runs,
                                        const std::vector<std::string>& solvers);

// Rows ordered by success rate (descending), then median time (ascending, NaN last), then their
// given order.
std::vector<Aggregate> ranked(std::vector<Aggregate> rows);

// The solvers and systems of a report: as given, else in order of first appearance.
std::vector<std::string> report_solvers(const ReportInput& in);
std::vector<std::string> report_systems(const ReportInput& in);
// The start the headline uses: cold when any cold run exists.
bool headline_warm(const std::vector<RunResult>& runs);

// The files of a report, as text.
std::string results_csv(const std::vector<Sample>& samples, const std::vector<RunResult>& runs);
std::string summary_json(const ReportInput& in, const std::vector<Aggregate>& aggregates);
struct PlotFile {
  std::string name;   // "profile_time_all.svg" (under plots/)
  std::string title;  // alt text for report.md
  std::string svg;
};
std::vector<PlotFile> report_plots(const ReportInput& in, const std::vector<Aggregate>& aggregates);
std::string report_markdown(const ReportInput& in, const std::vector<Aggregate>& aggregates,
                            const std::vector<PlotFile>& plots);

// "12.3 us", "4.56 ms", "1.2 s"; "-" for NaN.
std::string format_duration(double seconds);

// Files are written whole or not at all: DIR/name.tmp, then rename. Errors name the file.
std::optional<Error> write_file_atomic(const std::string& path, const std::string& text);

// "nan", "inf", "-inf" or %.17g (round trip).
std::string format_number(double x);

}  // namespace moreau::bench
