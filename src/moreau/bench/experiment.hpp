#pragma once
// Reproducible experiments for the report's qualitative claims (Sec. I, II-C, V-D, VI-B):
// CCP artefacts at a sliding contact, MuJoCo-style softening against the ADMM proximal term,
// time-step sensitivity, and the SOR relaxation of the PGS family. Each experiment is a
// deterministic function of its size and returns tidy tables (one row per observation) and a few
// headline lines; `moreau experiment NAME --out DIR` writes the tables as DIR/<table>.csv and the
// figures as DIR/<experiment>.svg.
// Documented in docs/benchmark-experiments.md.
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "moreau/model/error.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau::bench {

// A tidy table: named columns, one row per observation; cells are text or numbers.
struct Table {
  using Cell = std::variant<std::string, double>;
  std::string name;  // file stem: DIR/<name>.csv
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;

  void add(std::vector<Cell> row) { rows.push_back(std::move(row)); }
  int col(std::string_view column) const;  // -1 when absent
  double num(size_t row, std::string_view column) const;
  std::string str(size_t row, std::string_view column) const;
  // Rows whose text columns equal the given values, e.g. where({{"solver", "nbgs"}}).
  std::vector<size_t> where(const std::vector<std::pair<std::string, std::string>>& eq) const;
  // CSV text: header, then rows; numbers in shortest round-trip form, non-finite as "nan"/"inf".
  std::string csv() const;
};

struct ExperimentOptions {
  bool quick = false;  // a few seconds (tests); default: fuller, each under about a minute
  bool full = false;   // also the long variants (sap-clutter: n = 160), minutes each
};

struct ExperimentResult {
  std::vector<Table> tables;           // the first is named after the experiment
  std::vector<std::string> headlines;  // a few lines for the terminal
  // Named headline numbers, written as DIR/summary.json (write_summary); empty for most.
  std::vector<std::pair<std::string, double>> summary;
  // Named lists of numbers, written to DIR/summary.json after `summary` (nmdp-stability).
  std::vector<std::pair<std::string, std::vector<double>>> summary_lists;
  // Named words, written to DIR/summary.json after the lists (nmdp-stability: each row's servo).
  std::vector<std::pair<std::string, std::string>> summary_text;
};

using ExperimentFn = ExperimentResult (*)(const ExperimentOptions&);
struct ExperimentInfo {
  std::string_view name;      // "ccp-vs-ncp"
  std::string_view question;  // one line
  ExperimentFn run;
};
const std::vector<ExperimentInfo>& experiment_list();
const ExperimentInfo* find_experiment(std::string_view name);

// Writes every table as dir/<table.name>.csv (dir is created); returns the paths written.
Result<std::vector<std::string>> write_tables(const ExperimentResult& r, const std::string& dir);

// Writes the key/number pairs, then the lists and the words, as one JSON object to
// dir/summary.json (non-finite numbers as null); returns the path written.
Result<std::string> write_summary(
    const std::vector<std::pair<std::string, double>>& summary, const std::string& dir,
    const std::vector<std::pair<std::string, std::vector<double>>>& lists = {},
    const std::vector<std::pair<std::string, std::string>>& text = {});

// An experiment's figure: file name ("<experiment>.svg") and SVG text.
struct FigureFile {
  std::string name, svg;
};
// The figures of an experiment's tables, drawn with the benchmark report's SVG writer
// (experiment_plots.cpp; docs/benchmark-experiments.md shows them). Deterministic.
std::vector<FigureFile> experiment_figures(const ExperimentResult& r);
// Writes every figure as dir/<name> (dir is created); returns the paths written.
Result<std::vector<std::string>> write_figures(const ExperimentResult& r, const std::string& dir);

// ---- the experiments (experiment_<name>.cpp) ----
ExperimentResult ccp_vs_ncp(const ExperimentOptions& o);
ExperimentResult softening_vs_proximal(const ExperimentOptions& o);
ExperimentResult timestep_sweep(const ExperimentOptions& o);
ExperimentResult sor_sensitivity(const ExperimentOptions& o);
ExperimentResult sap_spring_cylinder(const ExperimentOptions& o);  // experiment_sap.cpp
ExperimentResult sap_clutter(const ExperimentOptions& o);
ExperimentResult nmdp_stability(const ExperimentOptions& o);  // experiment_nmdp.cpp

// ---- shared by the experiments ----
// Measures over one simulation run (steps after a failure are not counted).
struct RunStats {
  int steps = 0;                // steps completed
  bool completed = false;       // all steps succeeded
  std::string error;            // why it stopped
  double max_violation = 0;     // max |f_J| and limit violation over the run [m, rad]
  double max_penetration = 0;   // max(0, -gap) over the contacts met at each step [m]
  double max_energy_drift = 0;  // max |E(t) - E(0)| [J]
  double iters_mean = 0, iters_max = 0;
  double natmap_mean = 0, natmap_max = 0;  // common natural map at exit (NCP or CCP by solver)
  int nonconverged = 0;
};
// Called after every successful step with the simulator (its Problem and Solution are that
// step's) and the new state.
using StepHook = std::function<void(int step, const Simulator& sim, const State& s)>;
RunStats run_simulation(const Scene& scene, const SimSettings& settings, int steps,
                        const StepHook& hook = {});
// Shortest round-trip text of a number ("nan", "inf", "-inf" when not finite).
std::string number_text(double x);

}  // namespace moreau::bench
