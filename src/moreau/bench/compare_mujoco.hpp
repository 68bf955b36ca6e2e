#pragma once
// `moreau compare MODEL.xml`: the same MJCF model run by MuJoCo (its own solver options, dt
// overridden) and by moreau (the MJCF importer + Simulator) for the same time and dt, measured
// side by side: time per step, constraint violation, penetration and energy per step
// (docs/performance.md). Available when moreau is built with MuJoCo (MOREAU_HAVE_MUJOCO).
#include <array>
#include <string>
#include <vector>

#include "moreau/model/error.hpp"

namespace moreau::bench {

// True when this build links MuJoCo (compare_available() false: run_compare returns an Error).
bool compare_available();

struct CompareOptions {
  std::string model;      // MJCF file
  double dt = 0.005;      // [s], both engines
  double duration = 5.0;  // [s]
  std::string solver;     // moreau's solver; empty: the imported scene's (the default)
  bool fast_path = true;  // moreau: SimSettings::fast_path (joint rows eliminated)
};

// The stages of a step, as moreau's Simulator times them (sim/simulator.hpp, StepTimes) and
// MuJoCo's timers map onto them (docs/performance.md, "Where the time goes").
inline constexpr int kStages = 5;
inline constexpr const char* kStageNames[kStages] = {"collision", "build", "solve", "integrate",
                                                     "project"};
using StageTimes = std::array<double, kStages>;  // [s]

// One engine's run, one entry per step in the per-step series.
struct EngineRun {
  std::string engine, detail;  // "mujoco" / "moreau"; solver or integrator in words
  int bodies = 0, dofs = 0;    // MuJoCo: nbody - 1 (no world) and nv; moreau: bodies and 6 nb
  int steps_requested = 0;
  bool completed = false;
  std::string error;
  double initial_energy = 0.0;  // [J] before the first step
  std::vector<double> t, step_time_s, energy, violation, penetration;
  std::vector<int> contacts;
  // Per step, the stages' wall times. MuJoCo's come from a second run of the same steps with its
  // timers on (mjcb_time), so that the clock reads do not weigh on step_time_s.
  std::vector<StageTimes> stages;
  std::vector<double> timed_step_s;   // MuJoCo: mjTIMER_STEP of the timed run; moreau: empty
  int nonconverged = 0;               // moreau: steps whose solve did not converge
  std::vector<std::string> warnings;  // moreau's importer
};

struct CompareResult {
  CompareOptions options;
  EngineRun mujoco, moreau;
  // Where Debian's MuJoCo 2.2.2 cannot load the file: the copy it ran (mujoco22_copy) and what
  // the copy changed; empty when it ran the file itself.
  std::string mujoco_copy;
  std::vector<std::string> mujoco_copy_changes;
};

// A copy of an MJCF file for MuJoCo 2.2.2 (files written for MuJoCo 3): includes expanded, asset
// directories made absolute, and what 2.2.2 rejects and the compared run does not use changed or
// dropped: <sensor> elements, joint actuatorfrcrange/actuatorfrclimited, autolimits made explicit
// (MuJoCo 3's default). `changed` says what, in words.
struct MujocoCopy {
  std::string xml;
  std::vector<std::string> changed;
};
Result<MujocoCopy> mujoco22_copy(const std::string& file);

Result<CompareResult> run_compare(const CompareOptions& o);

// Summary statistics of one run.
struct RunSummary {
  int steps = 0;
  double median_step_s = 0.0, mean_step_s = 0.0, total_s = 0.0;
  double max_violation = 0.0, max_penetration = 0.0, mean_contacts = 0.0;
  double initial_energy = 0.0, final_energy = 0.0, max_energy_drift = 0.0;
  StageTimes mean_stage_s{};       // mean over steps of each stage [s] (zeros: not timed)
  double mean_timed_step_s = 0.0;  // MuJoCo: the mean step of the timed run
};
RunSummary summarize(const EngineRun& r);

// DIR/compare.csv (per step), DIR/compare.md (side-by-side table) and DIR/compare.svg (plots).
// Returns "" or the reason a file could not be written.
std::string write_compare(const CompareResult& c, const std::string& dir);
// The side-by-side table (compare.md's body) and the --json summary.
std::string compare_markdown(const CompareResult& c);
std::string compare_json(const CompareResult& c);

}  // namespace moreau::bench
