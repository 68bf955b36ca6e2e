// summary.json: settings, every aggregate row, time-to-tolerance and r_natmap profiles, and the
// ranking of solvers (success rate, then median time) per system, system group and category.
// JSON has no NaN or infinity: nlohmann writes them as null.
#include <cmath>
#include <nlohmann/json.hpp>

#include "moreau/bench/report_common.hpp"

namespace moreau::bench {

namespace {

using json = nlohmann::ordered_json;  // keys in the order written: settings first

json quartiles_json(const Quartiles& q) {
  return {{"q1", q.q1}, {"median", q.median}, {"q3", q.q3}, {"n", q.n}};
}

json aggregate_json(const Aggregate& a) {
  return {{"system", a.system},
          {"category", a.category},
          {"solver", a.solver},
          {"start", a.warm ? "warm" : "cold"},
          {"samples", a.samples},
          {"successes", a.successes},
          {"success_rate", a.success_rate},
          {"time_s", quartiles_json(a.time_s)},
          {"iterations", quartiles_json(a.iterations)},
          {"r_pen", quartiles_json(a.r_pen)},
          {"r_dual", quartiles_json(a.r_dual)},
          {"r_compl", quartiles_json(a.r_compl)},
          {"r_natmap", quartiles_json(a.r_natmap)}};
}

json profiles_json(const std::vector<Profile>& profiles, int problems) {
  json arr = json::array();
  for (const Profile& p : profiles)
    arr.push_back({{"solver", p.solver}, {"problems", problems}, {"tau", p.tau}, {"rho", p.rho}});
  return arr;
}

json ranking_json(const std::vector<Aggregate>& rows) {
  json arr = json::array();
  for (const Aggregate& a : ranked(rows))
    arr.push_back({{"solver", a.solver},
                   {"success_rate", a.success_rate},
                   {"median_time_s", a.time_s.median},
                   {"samples", a.samples}});
  return arr;
}

// Rows of `aggs` with this start whose (system, category) `key` returns non-empty, by key.
template <class Key>
json ranking_by(const std::vector<Aggregate>& aggs, bool warm, Key key) {
  std::vector<std::string> order;
  std::vector<std::vector<Aggregate>> rows;
  for (const Aggregate& a : aggs) {
    if (a.warm != warm) continue;
    const std::string k = key(a);
    if (k.empty()) continue;
    auto it = std::find(order.begin(), order.end(), k);
    if (it == order.end()) {
      order.push_back(k);
      rows.emplace_back();
      it = order.end() - 1;
    }
    rows[size_t(it - order.begin())].push_back(a);
  }
  json out = json::object();
  for (size_t i = 0; i < order.size(); ++i) out[order[i]] = ranking_json(rows[i]);
  return out;
}

}  // namespace

std::string summary_json(const ReportInput& in, const std::vector<Aggregate>& aggregates) {
  const std::vector<Sample>& samples = *in.samples;
  const std::vector<RunResult>& runs = *in.runs;
  const std::vector<std::string> solvers = report_solvers(in);
  json j;
  j["settings"] = {{"tol", in.tol},
                   {"solvers", solvers},
                   {"systems", report_systems(in)},
                   {"command_line", in.command_line},
                   {"samples", samples.size()},
                   {"runs", runs.size()},
                   {"wall_s", in.wall_s},
                   {"solve_s", in.solve_s},
                   {"overhead_s", in.wall_s - in.solve_s},
                   {"success", "converged and r_natmap <= tol, finite metrics"},
                   {"time_quartiles", "over every run (failures included)"},
                   {"residual_quartiles", "over the finite values"}};
  if (in.default_runs != nullptr) {
    json dp = json::array();
    for (const DefaultPathRun& d : *in.default_runs)
      dp.push_back({{"system", d.system},
                    {"solver", d.solver},
                    {"fast_path", d.fast_path},
                    {"steps", d.steps},
                    {"unconverged", d.unconverged},
                    {"first_unconverged", d.first_unconverged},
                    {"wall_s", d.wall_s},
                    {"error", d.error}});
    j["default_path"] = std::move(dp);
  }
  json aggs = json::array();
  for (const Aggregate& a : aggregates) aggs.push_back(aggregate_json(a));
  j["aggregates"] = std::move(aggs);

  json profiles = json::object();
  for (const bool warm : {false, true}) {
    const auto all = [](const Sample&) { return true; };
    const auto cost_t = cost_matrix(samples, runs, solvers, warm, all, time_cost);
    if (cost_t.empty()) continue;
    const auto cost_r = cost_matrix(samples, runs, solvers, warm, all, [](const RunResult& r) {
      return r.status == SolveStatus::Converged || r.status == SolveStatus::MaxIterations
                 ? r.metrics.r_natmap
                 : std::numeric_limits<double>::infinity();
    });
    const char* start = warm ? "warm" : "cold";
    profiles["time_to_tolerance"][start] =
        profiles_json(performance_profile(cost_t, solvers), int(cost_t.size()));
    profiles["r_natmap"][start] =
        profiles_json(performance_profile(cost_r, solvers), int(cost_r.size()));
  }
  j["profiles"] = std::move(profiles);

  const bool warm = headline_warm(runs);
  json ranking = {{"start", warm ? "warm" : "cold"},
                  {"order", "success rate (descending), then median solve time (ascending)"}};
  ranking["per_system"] = ranking_by(aggregates, warm, [](const Aggregate& a) {
    return a.system != "all" && a.category == "all" ? a.system : std::string();
  });
  ranking["per_category"] = ranking_by(aggregates, warm, [](const Aggregate& a) {
    return a.system == "all" && a.category != "all" ? a.category : std::string();
  });
  ranking["per_group"] = ranking_by(group_aggregates(samples, runs, solvers), warm,
                                    [](const Aggregate& a) { return a.system; });
  ranking["overall"] = ranking_by(aggregates, warm, [](const Aggregate& a) {
    return a.system == "all" && a.category == "all" ? std::string("all") : std::string();
  });
  j["ranking"] = std::move(ranking);
  return j.dump(1) + "\n";
}

}  // namespace moreau::bench
