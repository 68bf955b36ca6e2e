#pragma once
// The benchmark room (report Sec. VII): samples recorded from simulation,
// their categories, the solver-agnostic metrics (eq. 173-176), aggregates, Dolan-More profiles.
// Pipeline:  collect_samples -> run_solves -> aggregate / performance_profile -> write_report.
// Decisions the report leaves open are recorded in docs/benchmark.md.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "moreau/bench/metrics.hpp"
#include "moreau/dynamics/problem.hpp"
#include "moreau/io/scene.hpp"
#include "moreau/model/error.hpp"
#include "moreau/solvers/solver.hpp"

namespace moreau::bench {

// The report's Table II suite in table order, each system with its group: "primitives",
// "robotics" or "animatronics" (the table's sections).
struct SuiteSystem {
  const char* name;
  const char* group;
};
inline const std::vector<SuiteSystem>& suite_table() {
  static const std::vector<SuiteSystem> table = {
      {"box-on-plane", "primitives"}, {"boxes-fixed", "primitives"},
      {"nunchuk", "primitives"},      {"fourbar-fixed", "primitives"},
      {"fourbar-free", "primitives"}, {"arm7d", "robotics"},
      {"quadruped", "robotics"},      {"bdx", "robotics"},
      {"lima", "robotics"},           {"misha", "animatronics"},
      {"walker", "animatronics"},     {"gazelle", "animatronics"},
      {"ironman", "animatronics"}};
  return table;
}
// The suite's names in table order.
inline const std::vector<std::string>& suite_systems() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const SuiteSystem& s : suite_table()) n.push_back(s.name);
    return n;
  }();
  return names;
}
// The group of a system name: its suite group, "fclib" (names "fclib:*") or "other".
inline std::string system_group(const std::string& system) {
  for (const SuiteSystem& s : suite_table())
    if (system == s.name) return s.group;
  return system.rfind("fclib:", 0) == 0 ? "fclib" : "other";
}

// ---- sample categories (report Sec. VII-C), by the first matching rule in this order ----
enum class Category : uint8_t {
  IndependentJoints,  // n_c = 0, n_j >= 1, rank J = n_lambda
  RedundantJoints,    // n_c = 0, n_j >= 1, rank J < n_lambda, d_J < 1
  DenseJoints,        // n_c = 0, n_j >= 1, rank J < n_lambda, d_J >= 1
  DenseConstraints,   // n_j >= 1, n_c >= 1, d_JC > 1 (checked before the contact rules)
  SingleContact,      // n_c = 1
  SparseContacts,     // 2 <= n_c <= 2 n_b
  DenseContacts,      // n_c > 2 n_b
  Unconstrained,      // n_lambda = 0 (not solved; kept for the counts)
};
inline constexpr int kNumCategories = 8;
const char* category_name(Category c);  // "independent-joints", "dense-contacts", ...

// Raw structure of one sample (report Sec. VII-C).
struct SampleInfo {
  int bodies = 0;           // n_b (bodies with at least one constraint row count too: all of them)
  int joint_blocks = 0;     // n_j: joint constraint blocks
  int limit_rows = 0;       // active limits
  int contacts = 0;         // n_c
  int nl = 0;               // n_lambda
  int joint_rows = 0;       // m_J
  double d_J = 0.0;         // m_J / (6 n_b)
  double d_C = 0.0;         // 3 n_c / (6 n_b)
  double d_JC = 0.0;        // n_lambda / (6 n_b)
  int rank_J = 0;           // numerical rank of the whole J (all rows), via rank of D
  double cond_D = 0.0;      // estimate of sigma_max / sigma_min(non-zero) of D (+R when soft)
  double mass_ratio = 0.0;  // max / min body mass over the bodies the problem touches
  Category category = Category::Unconstrained;
};
SampleInfo classify(const Problem& p);

// ---- samples ----
struct Sample {
  std::string system;  // scene name ("fourbar-fixed"), or "fclib:<file stem>"
  int step = -1;       // simulation step the Problem was met at (-1: read from a file)
  double time = 0.0;   // simulated time of that step [s]
  std::string reason;  // why it was recorded: "first", "periodic", "impact", "file"
  Problem problem;
  VecX warm_lambda;  // the simulator's warm start for this step (empty when none)
  SampleInfo info;
};

struct CollectSettings {
  double dt = 0.0;         // time step override [s]; 0 keeps the scene's
  double duration = 0.0;   // simulated time [s]; 0 keeps the scene's
  int max_samples = 12;    // per system
  int every = 0;           // periodic sample every N steps; 0 chooses duration/dt/max_samples
  std::string sim_solver;  // solver that drives the simulation; empty keeps the scene's
  bool impacts = true;     // also record steps where the contact count grows
  // Polled before each step: once it returns true the recording ends early with an Error
  // ("stopped"), so that an interrupted `moreau bench` stops promptly (docs/cli.md).
  std::function<bool()> stop;
};

// A scene (built-in name or file) with cs's dt, duration and solver overrides, named (its file or
// built-in name where it has none); an error where it does not load or its dt is not > 0.
Result<Scene> load_run_scene(const std::string& scene, const CollectSettings& cs);

// Runs a scene (built-in name or file) and records its Problems: the first constrained step,
// periodic steps and impacts (contact count rises), at most max_samples, in step order.
// Errors name the scene. `progress(step, total_steps)` is optional.
Result<std::vector<Sample>> collect_samples(const std::string& scene, const CollectSettings& cs,
                                            const std::function<void(int, int)>& progress = {});

// One system run on the default path: its scene's settings as `moreau simulate` uses them (the
// fast path where the scene has it on), with the dt, duration and solver overrides of cs; every
// step's solve status counted. A step stopped at the iteration cap is unconverged.
struct DefaultPathRun {
  std::string system;
  std::string solver;
  bool fast_path = false;
  int steps = 0;               // steps completed
  int unconverged = 0;         // steps with constraint rows whose solve did not converge
  int first_unconverged = -1;  // the first such step
  double wall_s = 0.0;         // the stepping loop's wall time
  std::string error;           // why the run ended early ("" when it did not)
};
DefaultPathRun run_default_path(const std::string& scene, const CollectSettings& cs);

// Reads samples from disk: a .mprob Problem dump or an FCLib HDF5 file (every problem in it).
Result<std::vector<Sample>> load_samples(const std::string& path);
// Writes each sample as DIR/<system>-<step>.mprob, and the contact-only ones also as FCLib local
// problems DIR/fclib/<system>-<step>.hdf5 (when built with HDF5). Errors name the file.
std::optional<Error> save_samples(const std::vector<Sample>& samples, const std::string& dir);

// ---- metrics (eq. 173-176): moreau/bench/metrics.hpp ----

// ---- one solve of one sample ----
struct RunResult {
  int sample = 0;      // index into the sample list
  std::string solver;  // registry name
  bool warm = false;   // warm started from Sample::warm_lambda
  SolveStatus status = SolveStatus::Failed;
  int iterations = 0;
  int fallbacks = 0;  // Solution::fallbacks (local-solver fallbacks)
  double solve_time_s = 0.0;
  Metrics metrics;
  bool success = false;  // converged and r_natmap <= tol (finite metrics)
  std::string message;
  std::vector<double> trace;  // the solver's residual per iteration (when traces requested)
};

struct RunSettings {
  std::vector<std::string> solvers;  // registry names
  SolverSettings solver;             // tol, max_iters; trace is set by `traces`
  bool cold = true, warm = true;     // which starts to run (warm only where warm_lambda exists)
  int jobs = 1;                      // worker threads; each solve is timed on its own thread
  bool traces = false;               // keep residual traces
  // Polled before each solve: once it returns true the remaining solves are skipped (their rows
  // stay empty), so that an interrupted `moreau bench` stops promptly (docs/cli.md).
  std::function<bool()> stop;
};

// Solves every (sample, solver, start). Results come back in a deterministic order (sample,
// solver, cold before warm) whatever `jobs` is. A solver that fails gives a row with its status.
std::vector<RunResult> run_solves(const std::vector<Sample>& samples, const RunSettings& rs,
                                  const std::function<void(int, int)>& progress = {});

// ---- aggregates and profiles ----
struct Quartiles {
  double q1 = 0.0, median = 0.0, q3 = 0.0;  // NaN when n = 0
  int n = 0;
};
Quartiles quartiles(std::vector<double> values);  // linear interpolation between order statistics

struct Aggregate {
  std::string system;    // a system name, or "all"
  std::string category;  // category_name(), or "all"
  std::string solver;
  bool warm = false;
  int samples = 0;
  int successes = 0;
  double success_rate = 0.0;
  Quartiles time_s, iterations, r_pen, r_dual, r_compl, r_natmap;
};
// Groups per (system, category, solver, start), plus "all" rows per (system, solver, start),
// (category, solver, start) and (solver, start). Deterministic order.
std::vector<Aggregate> aggregate(const std::vector<Sample>& samples,
                                 const std::vector<RunResult>& runs);

// Dolan-More profile: rho_s(tau) = fraction of problems with cost_{p,s} <= tau min_s cost_{p,s}.
// cost[p][s] is +inf for a failure. Problems that every solver fails are counted (rho never
// reaches 1 then). Returns, per solver, the breakpoints of the step function (tau ascending,
// starting at tau = 1) with rho at each.
struct Profile {
  std::string solver;
  std::vector<double> tau, rho;
  double at(double t) const;  // rho_s(t)
};
std::vector<Profile> performance_profile(const std::vector<std::vector<double>>& cost,
                                         const std::vector<std::string>& solvers);

// ---- output ----
struct ReportInput {
  std::string out_dir;
  std::vector<Sample> const* samples = nullptr;
  std::vector<RunResult> const* runs = nullptr;
  std::vector<std::string> solvers;
  std::vector<std::string> systems;
  double tol = 0.0;
  std::string command_line;  // how the run was started (for the report)
  double wall_s = 0.0;       // whole run
  double solve_s = 0.0;      // sum of solve times
  std::vector<std::string>
      notes;  // shown under the settings (e.g. systems whose simulation failed)
  // The recorded systems run on the default path (empty: not run, no table).
  std::vector<DefaultPathRun> const* default_runs = nullptr;
  // The picture of the systems (docs/viewer.md): a file name under plots/ ("" when none), or
  // why there is none.
  std::string systems_figure, systems_figure_note;
};
// Writes results.csv, summary.json, the SVG plots and report.md into out_dir (which exists).
// Each file is written atomically (temporary + rename). Errors name the file.
std::optional<Error> write_report(const ReportInput& in);

}  // namespace moreau::bench
