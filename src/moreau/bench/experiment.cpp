// Experiment registry, tidy tables and the shared simulation runner (experiment.hpp).
#include "moreau/bench/experiment.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "moreau/ncp/residuals.hpp"

namespace moreau::bench {

std::string number_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

int Table::col(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == column) return static_cast<int>(i);
  return -1;
}

double Table::num(size_t row, std::string_view column) const {
  const int c = col(column);
  if (c < 0 || row >= rows.size()) return std::nan("");
  const Cell& x = rows[row][c];
  return std::holds_alternative<double>(x) ? std::get<double>(x) : std::nan("");
}

std::string Table::str(size_t row, std::string_view column) const {
  const int c = col(column);
  if (c < 0 || row >= rows.size()) return {};
  const Cell& x = rows[row][c];
  return std::holds_alternative<std::string>(x) ? std::get<std::string>(x)
                                                : number_text(std::get<double>(x));
}

std::vector<size_t> Table::where(const std::vector<std::pair<std::string, std::string>>& eq) const {
  std::vector<size_t> out;
  for (size_t r = 0; r < rows.size(); ++r) {
    bool all = true;
    for (const auto& [k, v] : eq) all = all && str(r, k) == v;
    if (all) out.push_back(r);
  }
  return out;
}

std::string Table::csv() const {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + columns[i];
  out += '\n';
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) out += ',';
      out += std::holds_alternative<double>(row[i]) ? number_text(std::get<double>(row[i]))
                                                    : std::get<std::string>(row[i]);
    }
    out += '\n';
  }
  return out;
}

const std::vector<ExperimentInfo>& experiment_list() {
  static const std::vector<ExperimentInfo> list = {
      {"ccp-vs-ncp", "does the CCP lift a sliding box (v_n = mu |v_t|, forces at a distance)?",
       ccp_vs_ncp},
      {"softening-vs-proximal",
       "MuJoCo-style softening vs hard constraints with the ADMM proximal term over mass ratios",
       softening_vs_proximal},
      {"timestep-sweep", "iterations, residuals, drift and energy for dt = 1, 2, 5, 10 ms",
       timestep_sweep},
      {"sor-sensitivity", "PGS family: iterations and divergence against the SOR omega",
       sor_sensitivity},
      {"sap-spring-cylinder",
       "SAP theta-method on a spring-cylinder: energy per scheme and order of accuracy",
       sap_spring_cylinder},
      {"sap-clutter",
       "SAP on clutter: Newton iterations, e_m, e_mu, static slip, time per step vs objects",
       sap_clutter},
      {"nmdp-stability",
       "quadruped jump/walk: do mdp, nmdp, nmdp-zo (NE and PBD forms, two servos), euler stay "
       "upright for dt = "
       "5 ... 50 ms?",
       nmdp_stability},
  };
  return list;
}

const ExperimentInfo* find_experiment(std::string_view name) {
  for (const ExperimentInfo& e : experiment_list())
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::vector<std::string>> write_tables(const ExperimentResult& r, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{dir, 0, "output directory", "a directory that can be created", ec.message()};
  std::vector<std::string> paths;
  for (const Table& t : r.tables) {
    const std::string path = (std::filesystem::path(dir) / (t.name + ".csv")).string();
    std::ofstream f(path, std::ios::binary);
    f << t.csv();
    if (!f) return Error{path, 0, "table '" + t.name + "'", "a writable file", "write failed"};
    paths.push_back(path);
  }
  return paths;
}

Result<std::string> write_summary(
    const std::vector<std::pair<std::string, double>>& summary, const std::string& dir,
    const std::vector<std::pair<std::string, std::vector<double>>>& lists,
    const std::vector<std::pair<std::string, std::string>>& text) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{dir, 0, "output directory", "a directory that can be created", ec.message()};
  const std::string path = (std::filesystem::path(dir) / "summary.json").string();
  std::string out = "{";
  for (size_t i = 0; i < summary.size(); ++i) {
    const double x = summary[i].second;
    out += (i ? ",\n  \"" : "\n  \"") + summary[i].first +
           "\": " + (std::isfinite(x) ? number_text(x) : "null");
  }
  for (size_t i = 0; i < lists.size(); ++i) {
    out += (i || !summary.empty() ? ",\n  \"" : "\n  \"") + lists[i].first + "\": [";
    for (size_t k = 0; k < lists[i].second.size(); ++k) {
      const double x = lists[i].second[k];
      out += (k ? ", " : "") + (std::isfinite(x) ? number_text(x) : std::string("null"));
    }
    out += "]";
  }
  for (size_t i = 0; i < text.size(); ++i) {
    std::string word;  // a JSON string: quotes, backslashes and control characters escaped
    for (const char c : text[i].second) {
      if (c == '"' || c == '\\') word += '\\';
      if (static_cast<unsigned char>(c) < 0x20) {
        char u[8];
        std::snprintf(u, sizeof u, "\\u%04x", c);
        word += u;
      } else {
        word += c;
      }
    }
    out += (i || !summary.empty() || !lists.empty() ? ",\n  \"" : "\n  \"") + text[i].first +
           "\": \"" + word + "\"";
  }
  out += "\n}\n";
  std::ofstream f(path, std::ios::binary);
  f << out;
  if (!f) return Error{path, 0, "summary", "a writable file", "write failed"};
  return path;
}

RunStats run_simulation(const Scene& scene, const SimSettings& settings, int steps,
                        const StepHook& hook) {
  RunStats st;
  // The experiments measure the step's solver: every step solves the full Problem with it (no
  // fast path, whose Newton attempt would answer most steps first).
  SimSettings full = settings;
  full.fast_path = false;
  Simulator sim(scene.model, full);
  State s = scene.initial;
  const double e0 = total_energy(scene.model, s);
  const bool ccp = solves_ccp(settings.solver, settings.solver_settings);
  st.max_violation = constraint_violation(scene.model, s);
  GrowVec scratch;
  double iters_sum = 0.0, natmap_sum = 0.0;
  for (int k = 0; k < steps; ++k) {
    if (!sim.step(s)) {
      st.error = sim.error();
      break;
    }
    ++st.steps;
    const Solution& x = sim.solution();
    const Problem& p = sim.problem();
    for (const Contact& c : sim.contacts())
      st.max_penetration = std::max(st.max_penetration, -c.gap);
    st.max_violation = std::max(st.max_violation, constraint_violation(scene.model, s));
    st.max_energy_drift =
        std::max(st.max_energy_drift, std::abs(total_energy(scene.model, s) - e0));
    double natmap = 0.0;
    if (p.nl > 0) {
      // The residual of the problem the solver was asked to solve: (D + R) lambda + v_f, with
      // v_f holding v_r (eq. 95); Solution::v_plus is D lambda + v_f - v_r.
      VecX v = x.v_plus;
      if (p.R.size() == p.nl) v += p.R.cwiseProduct(x.lambda);
      if (p.v_r.size() == p.nl) v += p.v_r;
      natmap = ncp_residuals(p, x.lambda, v, !ccp, scratch).natmap;
    }
    iters_sum += x.iterations;
    natmap_sum += natmap;
    st.iters_max = std::max(st.iters_max, double(x.iterations));
    st.natmap_max = std::max(st.natmap_max, natmap);
    if (p.nl > 0 && !x.converged()) ++st.nonconverged;
    if (hook) hook(k, sim, s);
  }
  st.completed = st.steps == steps;
  if (st.steps > 0) {
    st.iters_mean = iters_sum / st.steps;
    st.natmap_mean = natmap_sum / st.steps;
  }
  return st;
}

}  // namespace moreau::bench
