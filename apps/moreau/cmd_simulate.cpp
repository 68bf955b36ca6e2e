// `moreau simulate SCENE`: runs a scene for a number of steps, writes the trajectory (CSV or
// JSON) and prints a summary of the run (constraint violation, energy drift, solver statistics).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "interrupt.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/io/problem_io.hpp"
#include "moreau/sim/blowup.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/sim/state_hash.hpp"
#include "moreau/solvers/stop.hpp"
#include "moreau/viewer/viewer_html.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "scene_options.hpp"
#include "trajectory.hpp"

namespace moreau::cli {

namespace {

constexpr const char* kCmd = "simulate";

struct SimulateOptions {
  std::string scene;
  std::vector<std::string> sets, params;
  int64_t steps = 0;
  double duration = 0.0, dt = 0.0, tol = 0.0;
  double max_step_time = 0.0;  // s; 0: no budget
  int max_iter = 0, every = 1;
  std::string solver, integrator, out, dump_dir, view;
  int dump_every = 1, view_max_frames = 5000;
  bool no_warm_start = false, json = false, quiet = false, contacts = false, fail_on_cap = false,
       fast_path = false, no_fast_path = false, no_blowup_check = false;
  // Which optional options were given.
  CLI::Option *steps_opt = nullptr, *duration_opt = nullptr, *dt_opt = nullptr, *tol_opt = nullptr,
              *max_iter_opt = nullptr, *solver_opt = nullptr, *integrator_opt = nullptr;
};

// What the run measured; becomes the summary.
struct RunStats {
  int64_t steps_requested = 0, steps_done = 0, samples = 0;
  bool completed = false, nan_detected = false, interrupted = false;
  std::string error;
  double wall_time_s = 0.0;
  double max_violation = 0.0, initial_energy = 0.0, final_energy = 0.0, max_energy_drift = 0.0;
  double max_energy_gain = 0.0;  // max(E - E0): energy made, not what friction and impacts took
  int64_t iterations_sum = 0;
  int iterations_max = 0, nonconverged = 0, max_contacts = 0;
  int64_t contacts_sum = 0;
  double solver_time_s = 0.0, max_penetration = 0.0;
  int64_t problems_dumped = 0;
  int64_t projection_iterations_sum = 0;
  int projection_iterations_max = 0;
  double projection_time_s = 0.0;
  StepTimes stage_time_s;  // the steps' stages, summed (Simulator::step_times)
  // The first step whose solve did not converge (iteration cap): 0 when none.
  int64_t first_nonconverged_step = 0;
  double first_nonconverged_t = 0.0, first_nonconverged_residual = 0.0;
  // Every state of the rollout, the initial one included, folded into one hash (state_hash):
  // equal hashes mean bit-identical rollouts (docs/reliability.md).
  uint64_t rollout_hash = kStateHashSeed;
};

// Where and how often to write the step Problems (`--dump-problems DIR`).
struct DumpOptions {
  std::string dir;
  int every = 1;
};

std::string hex(uint64_t h) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

void finite_positive(double x, const char* what) {
  if (!std::isfinite(x) || x <= 0.0)
    fail(kCmd, std::string(what) + ": expected a finite number > 0, got " + num(x), kExitBadInput);
}

// Applies the command-line overrides to the scene's settings and works out the step count.
int64_t configure(const SimulateOptions& o, const Scene& scene, SimSettings& st) {
  if (o.dt_opt->count()) st.dt = o.dt;
  finite_positive(st.dt, o.dt_opt->count() ? "--dt" : "the scene's dt");
  if (o.solver_opt->count()) st.solver = o.solver;
  if (!find_solver(st.solver))
    fail(kCmd, "unknown solver '" + st.solver + "'; available solvers: " + solver_names(),
         kExitBadInput);
  if (o.integrator_opt->count() && !parse_integrator(o.integrator, &st.integrator))
    fail(kCmd, "--integrator '" + o.integrator + "': expected one of " + integrator_names(),
         kExitBadInput);
  if (const std::string bad = integrator_solver_error(st.integrator, st.solver); !bad.empty())
    fail(kCmd, bad, kExitBadInput);
  if (is_nmdp(st.integrator)) {
    // A model the generalized-coordinate integrators cannot handle is bad input, not a failed run.
    Result<nmdp::Stepper> check = nmdp::Stepper::create(scene.model, st.nmdp);
    if (!check)
      fail(kCmd, std::string(integrator_name(st.integrator)) + ": " + check.error().message(),
           kExitBadInput);
  }
  if (o.tol_opt->count()) {
    finite_positive(o.tol, "--tol");
    st.solver_settings.tol = o.tol;
  }
  if (o.max_iter_opt->count()) {
    if (o.max_iter < 1)
      fail(kCmd, "--max-iter: expected an integer >= 1, got " + std::to_string(o.max_iter),
           kExitBadInput);
    st.solver_settings.max_iters = o.max_iter;
  }
  apply_solver_params_or_exit(st.solver_settings, o.params, {st.solver}, kCmd);
  if (o.no_warm_start) st.warm_start = false;
  if (o.fast_path) st.fast_path = true;
  if (o.no_fast_path) st.fast_path = false;
  if (o.every < 1)
    fail(kCmd, "--every: expected an integer >= 1, got " + std::to_string(o.every), kExitBadInput);
  if (o.steps_opt->count()) {
    if (o.steps < 0)
      fail(kCmd, "--steps: expected an integer >= 0, got " + std::to_string(o.steps),
           kExitBadInput);
    return o.steps;
  }
  const double duration = o.duration_opt->count() ? o.duration : scene.duration;
  if (!std::isfinite(duration) || duration < 0.0)
    fail(kCmd, "--duration: expected a finite number >= 0, got " + num(duration), kExitBadInput);
  const double n = std::ceil(duration / st.dt - 1e-9);  // the last step may end just past T
  if (!(n < 1e12))
    fail(kCmd, "duration / dt = " + num(n) + " steps: expected fewer than 1e12", kExitBadInput);
  return static_cast<int64_t>(std::max(0.0, n));
}

// Per-state measures: constraint violation (returned) and energy drift.
double measure_state(const Model& m, const State& s, RunStats& r) {
  const double violation = constraint_violation(m, s);
  r.max_violation = std::max(r.max_violation, violation);
  r.final_energy = total_energy(m, s);
  r.max_energy_drift = std::max(r.max_energy_drift, std::abs(r.final_energy - r.initial_energy));
  r.max_energy_gain = std::max(r.max_energy_gain, r.final_energy - r.initial_energy);
  return violation;
}

// Per-step measures from the simulator: solver statistics and contacts.
void measure_step(const Simulator& sim, RunStats& r) {
  const Solution& x = sim.solution();
  r.iterations_sum += x.iterations;
  r.iterations_max = std::max(r.iterations_max, x.iterations);
  r.solver_time_s += x.solve_time_s;
  r.nonconverged += !x.converged();
  const std::vector<Contact>& c = sim.contacts();
  r.max_contacts = std::max(r.max_contacts, static_cast<int>(c.size()));
  r.contacts_sum += static_cast<int64_t>(c.size());
  for (const Contact& k : c) r.max_penetration = std::max(r.max_penetration, -k.gap);
  const ProjectionStats& p = sim.projection_stats();
  r.projection_iterations_sum += p.iterations;
  r.projection_iterations_max = std::max(r.projection_iterations_max, p.iterations);
  r.projection_time_s += p.time_s;
  const StepTimes& t = sim.step_times();
  r.stage_time_s.collision += t.collision;
  r.stage_time_s.build += t.build;
  r.stage_time_s.solve += t.solve;
  r.stage_time_s.integrate += t.integrate;
  r.stage_time_s.project += t.project;
}

// A failed step is a non-finite failure when the state, the problem or the impulses hold NaN/Inf.
bool non_finite_failure(const Simulator& sim, const State& s) {
  const Solution& x = sim.solution();
  return !s.all_finite() || !sim.problem().v_f.allFinite() || !x.lambda.allFinite() ||
         !x.v_plus.allFinite();
}

RunStats run(const Scene& scene, const SimSettings& st, int64_t steps, int every,
             TrajectoryWriter* traj, viewer::Recording* view, bool quiet, const DumpOptions& dump,
             bool fail_on_cap, bool blowup_check, double max_step_time) {
  RunStats r;
  r.steps_requested = steps;
  const Model& m = scene.model;
  State s = scene.initial;
  Simulator sim(m, st);
  ProgressBar progress(steps, !quiet);
  const auto t0 = std::chrono::steady_clock::now();
  r.initial_energy = total_energy(m, s);
  r.rollout_hash = state_hash(s);
  const double violation0 = measure_state(m, s, r);
  if (traj) {
    traj->sample(0, s, violation0);
    ++r.samples;
  }
  if (view) view->add_frame(s);
  double prev_violation = violation0;
  for (int64_t i = 1; i <= steps; ++i) {
    // The step's time budget: the solvers' loops stop at the deadline (solvers/stop.hpp).
    const auto step_start = std::chrono::steady_clock::now();
    if (max_step_time > 0.0)
      set_deadline(step_start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(max_step_time)));
    const double t_before = s.t;
    const bool stepped = sim.step(s);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count();
    if (interrupted()) {
      r.interrupted = true;
      r.error =
          "interrupted by a signal in step " + std::to_string(i) + ", t = " + num(t_before) + " s";
      break;
    }
    if (max_step_time > 0.0 && took > max_step_time) {
      r.error = "step " + std::to_string(i) + " of " + std::to_string(steps) +
                " (t = " + num(t_before) + " s) took " + num(took) + " s, over --max-step-time " +
                num(max_step_time) + " s";
      break;
    }
    if (!stepped) {
      // Where and how the solver stopped (step, time, residual), before the simulator's reason.
      r.error = "step " + std::to_string(i) + " of " + std::to_string(steps) + " (t = " + num(s.t) +
                " s, solver residual " + num(sim.solution().residual) + "): " + sim.error();
      r.nan_detected = non_finite_failure(sim, s);
      break;
    }
    r.steps_done = i;
    r.rollout_hash = state_hash(s, r.rollout_hash);
    measure_step(sim, r);
    if (const Solution& x = sim.solution(); !x.converged()) {
      if (r.first_nonconverged_step == 0) {
        r.first_nonconverged_step = i;
        r.first_nonconverged_t = s.t;
        r.first_nonconverged_residual = x.residual;
      }
      if (fail_on_cap) {
        r.error = "step " + std::to_string(i) + " (t = " + num(s.t) + " s): solver '" + st.solver +
                  "' " + status_name(x.status) + " after " + std::to_string(x.iterations) +
                  " iterations, residual " + num(x.residual) + " (--fail-on-cap)";
        break;
      }
    }
    if (!dump.dir.empty() && i % dump.every == 0) {
      char name[32];
      std::snprintf(name, sizeof(name), "/step_%06lld", static_cast<long long>(i));
      if (auto e = save_problem(sim.problem(), dump.dir + name + kProblemExtension)) {
        r.error = e->message();
        break;
      }
      ++r.problems_dumped;
    }
    const double energy_before = r.final_energy;
    const double violation = measure_state(m, s, r);
    if (blowup_check) {
      // A violation that shrinks is being corrected (a loop that starts open closes at
      // stabilization.max_joint_correction per step): only one that grew can be a blow-up.
      const double grown = violation > prev_violation ? violation : 0.0;
      prev_violation = violation;
      const std::string what =
          blowup(m, s, grown, r.initial_energy, energy_before, r.final_energy, sim.contacts());
      if (!what.empty()) {
        r.error = "step " + std::to_string(i) + " (t = " + num(s.t) +
                  " s): the run blew up: " + what + " (--no-blowup-check runs on)";
        break;
      }
    }
    if (traj && (i % every == 0 || i == steps)) {
      traj->sample(i, s, violation, &sim);
      ++r.samples;
    }
    if (view && (i % every == 0 || i == steps)) {
      view->add_frame(s);
      viewer::add_step_contacts(*view, sim.contacts(), sim.problem(), sim.solution());
    }
    progress.update(i, s.t);
  }
  progress.finish();
  r.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.completed = r.error.empty();
  if (r.completed && !std::isfinite(r.max_energy_drift + r.max_violation)) {
    r.completed = false;
    r.nan_detected = true;
    r.error = "non-finite energy or constraint violation";
  }
  return r;
}

nlohmann::ordered_json summary_json(const Scene& scene, const SimSettings& st, const RunStats& r,
                                    const std::string& out, const std::string& view) {
  const double n = static_cast<double>(std::max<int64_t>(r.steps_done, 1));
  nlohmann::ordered_json j;
  j["scene"] = scene.name;
  j["source"] = scene.source;
  j["solver"] = st.solver;
  j["integrator"] = integrator_name(st.integrator);
  j["dt"] = st.dt;
  j["steps"] = r.steps_requested;
  j["steps_completed"] = r.steps_done;
  j["sim_time_s"] = static_cast<double>(r.steps_done) * st.dt;
  j["bodies"] = scene.model.num_bodies();
  j["completed"] = r.completed;
  j["error"] = r.error.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.error);
  j["nan_detected"] = r.nan_detected;
  j["wall_time_s"] = r.wall_time_s;
  j["max_constraint_violation"] = r.max_violation;
  j["initial_energy"] = r.initial_energy;
  j["final_energy"] = r.final_energy;
  j["max_energy_drift"] = r.max_energy_drift;
  j["max_energy_gain"] = r.max_energy_gain;
  j["solver_iterations_mean"] = r.steps_done ? static_cast<double>(r.iterations_sum) / n : 0.0;
  j["solver_iterations_max"] = r.iterations_max;
  j["solver_time_s"] = r.solver_time_s;
  j["nonconverged_steps"] = r.nonconverged;
  if (r.first_nonconverged_step > 0)
    j["first_nonconverged"] = {{"step", r.first_nonconverged_step},
                               {"t", r.first_nonconverged_t},
                               {"residual", r.first_nonconverged_residual}};
  else
    j["first_nonconverged"] = nullptr;
  j["projection_iterations_mean"] =
      r.steps_done ? static_cast<double>(r.projection_iterations_sum) / n : 0.0;
  j["projection_iterations_max"] = r.projection_iterations_max;
  j["projection_time_s"] = r.projection_time_s;
  j["stage_time_s"] = {{"collision", r.stage_time_s.collision},
                       {"build", r.stage_time_s.build},
                       {"solve", r.stage_time_s.solve},
                       {"integrate", r.stage_time_s.integrate},
                       {"project", r.stage_time_s.project}};
  j["max_penetration"] = r.max_penetration;
  j["max_contacts"] = r.max_contacts;
  j["mean_contacts"] = r.steps_done ? static_cast<double>(r.contacts_sum) / n : 0.0;
  j["output"] = out.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(out);
  j["samples_written"] = out.empty() ? 0 : r.samples;
  j["problems_dumped"] = r.problems_dumped;
  j["view"] = view.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(view);
  j["state_hash"] = hex(r.rollout_hash);
  return j;
}

void print_human(const Scene& scene, const SimSettings& st, const RunStats& r,
                 const std::string& out, const std::string& view) {
  std::printf(
      "%s: %lld of %lld steps of %g s (%g s simulated), solver %s, %s integrator, %.3g s wall\n",
      scene.name.c_str(), static_cast<long long>(r.steps_done),
      static_cast<long long>(r.steps_requested), st.dt, static_cast<double>(r.steps_done) * st.dt,
      st.solver.c_str(), integrator_name(st.integrator), r.wall_time_s);
  std::printf("  constraint violation  max %.3e\n", r.max_violation);
  std::printf(
      "  energy                initial %.9g J, final %.9g J, max drift %.3e J, max gain %.3e J\n",
      r.initial_energy, r.final_energy, r.max_energy_drift, r.max_energy_gain);
  const double n = static_cast<double>(std::max<int64_t>(r.steps_done, 1));
  std::printf(
      "  solver                iterations mean %.3g max %d, %d steps not converged, %.3g s in the "
      "solver\n",
      static_cast<double>(r.iterations_sum) / n, r.iterations_max, r.nonconverged, r.solver_time_s);
  if (r.first_nonconverged_step > 0)
    std::printf("                        first not converged: step %lld, t = %g s, residual %.3e\n",
                static_cast<long long>(r.first_nonconverged_step), r.first_nonconverged_t,
                r.first_nonconverged_residual);
  if (st.dynamics.position_projection)
    std::printf("  position projection   iterations mean %.3g max %d, %.3g s\n",
                static_cast<double>(r.projection_iterations_sum) / n, r.projection_iterations_max,
                r.projection_time_s);
  const StepTimes& t = r.stage_time_s;
  std::printf(
      "  stages                collision %.3g s, build %.3g s, solve %.3g s, integrate %.3g s, "
      "project %.3g s\n",
      t.collision, t.build, t.solve, t.integrate, t.project);
  std::printf("  contacts              max %d, mean %.3g, max penetration %.3e m\n", r.max_contacts,
              static_cast<double>(r.contacts_sum) / n, r.max_penetration);
  if (!out.empty())
    std::printf("  trajectory            %lld samples -> %s\n", static_cast<long long>(r.samples),
                out.c_str());
  if (!view.empty()) std::printf("  viewer                %s\n", view.c_str());
  std::printf("  rollout state hash    %s\n", hex(r.rollout_hash).c_str());
  if (!r.completed) std::printf("  FAILED: %s\n", r.error.c_str());
}

void run_simulate(const SimulateOptions& o) {
  const SceneParams params = parse_scene_params(o.sets, kCmd);
  const Scene scene = load_scene_or_exit(o.scene, params, kCmd);
  SimSettings st = scene.settings;
  const int64_t steps = configure(o, scene, st);
  // From here on Ctrl-C stops the run at the next step; the temporary output is then removed.
  InterruptGuard signals;
  // The output file is created (as a temporary) before the run: a bad path fails fast.
  AtomicFile file;
  std::unique_ptr<TrajectoryWriter> traj;
  if (!o.out.empty()) {
    const std::string ext = file_extension(o.out);
    if (ext != "csv" && ext != "json")
      fail(kCmd, "--out '" + o.out + "': expected a .csv or .json file name", kExitBadInput);
    if (o.contacts && ext != "json")
      fail(kCmd, "--contacts: only a .json trajectory carries contacts", kExitBadInput);
    if (std::string why = file.open(o.out); !why.empty()) fail(kCmd, why, kExitBadInput);
    const TrajectoryFormat format = ext == "csv" ? TrajectoryFormat::Csv : TrajectoryFormat::Json;
    traj = std::make_unique<TrajectoryWriter>(file.file(), format, scene, st, o.every, o.contacts);
  }
  AtomicFile view_file;
  std::unique_ptr<viewer::Recording> view;
  if (!o.view.empty()) {
    if (file_extension(o.view) != "html")
      fail(kCmd, "--view '" + o.view + "': expected a .html file name", kExitBadInput);
    if (!viewer::available())
      fail(kCmd,
           "--view: this moreau was built without three.js (install libjs-three and build again)",
           kExitBadInput);
    if (o.view_max_frames < 2) fail(kCmd, "--max-frames: expected an integer >= 2", kExitBadInput);
    if (std::string why = view_file.open(o.view); !why.empty()) fail(kCmd, why, kExitBadInput);
    view = std::make_unique<viewer::Recording>(scene.model.num_bodies(), true);
  }
  if (o.contacts && o.out.empty())
    fail(kCmd, "--contacts: expected --out FILE.json to write them to", kExitBadInput);
  DumpOptions dump{o.dump_dir, o.dump_every};
  if (!dump.dir.empty()) {
    if (dump.every < 1) fail(kCmd, "--dump-every: expected an integer >= 1", kExitBadInput);
    std::error_code ec;
    std::filesystem::create_directories(dump.dir, ec);
    if (ec || !std::filesystem::is_directory(dump.dir))
      fail(kCmd,
           "--dump-problems '" + dump.dir + "': cannot create the directory" +
               (ec ? ": " + ec.message() : ""),
           kExitBadInput);
  }
  RunStats r = run(scene, st, steps, o.every, traj.get(), view.get(), o.quiet, dump, o.fail_on_cap,
                   !o.no_blowup_check, o.max_step_time);
  clear_deadline();
  if (r.completed && traj) {
    traj->finish();
    if (std::string why = file.commit(); !why.empty()) {
      r.completed = false;
      r.error = why;
    }
  }
  if (r.completed && view) {
    const viewer::RunInfo info{scene.name, st.solver, integrator_name(st.integrator), st.dt};
    const std::string html = viewer::viewer_html(scene.model, info, *view, {o.view_max_frames});
    std::fwrite(html.data(), 1, html.size(), view_file.file());
    if (std::string why = view_file.commit(); !why.empty()) {
      r.completed = false;
      r.error = why;
    }
  }
  file.discard();  // no-op after a commit; removes the partial trajectory after a failure
  view_file.discard();
  const std::string written = r.completed ? o.out : std::string();
  const std::string viewed = r.completed ? o.view : std::string();
  if (o.json)
    std::cout << summary_json(scene, st, r, written, viewed).dump(2) << std::endl;
  else if (!o.quiet)
    print_human(scene, st, r, written, viewed);
  if (!r.completed) {
    const bool say_nan = r.nan_detected && r.error.find("non-finite") == std::string::npos;
    fail(kCmd, r.error + (say_nan ? " (non-finite numbers detected)" : ""),
         r.interrupted ? kExitInterrupted : kExitFailure);
  }
}

}  // namespace

void add_simulate(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "simulate", "simulate a scene and write its trajectory and a summary of the run");
  cmd->footer(
      "Exit status: 0 success; 1 the run failed (NaN/Inf, solver failure); 2 bad input; 130 "
      "interrupted (SIGINT/SIGTERM).\n"
      "The trajectory file appears only when the run succeeds. See docs/cli.md.");
  cmd->add_option("scene", o->scene,
                  "built-in scene name (e.g. pendulum, chain) or scene file (.json)")
      ->required();
  o->steps_opt =
      cmd->add_option("--steps,-n", o->steps, "number of time steps (default: duration / dt)");
  o->duration_opt = cmd->add_option("--duration,-T", o->duration,
                                    "simulated time [s] (default: the scene's duration)")
                        ->excludes(o->steps_opt);
  o->dt_opt = cmd->add_option("--dt", o->dt, "time step [s] (default: the scene's)");
  o->solver_opt =
      cmd->add_option("--solver,-s", o->solver, "solver (default: the scene's): " + solver_names());
  o->integrator_opt = cmd->add_option("--integrator", o->integrator,
                                      "time stepping: euler (semi-implicit), midpoint (Moreau), or "
                                      "with --solver sap the theta-method sap-symplectic, "
                                      "sap-implicit, sap-midpoint, or mdp, nmdp, nmdp-zo "
                                      "(Pan & Hauser, docs/integrators.md)");
  o->tol_opt =
      cmd->add_option("--tol", o->tol, "solver stopping tolerance, L-infinity [m/s | rad/s]");
  o->max_iter_opt = cmd->add_option("--max-iter", o->max_iter, "solver iteration cap per step");
  cmd->add_option("--param", o->params,
                  "solver parameter key=value (repeatable), overriding the scene's; keys: moreau "
                  "solvers NAME");
  cmd->add_flag("--no-warm-start", o->no_warm_start, "start every solve from zero impulses");
  cmd->add_flag("--fail-on-cap", o->fail_on_cap,
                "fail the run at the first step whose solver stops at its iteration cap");
  cmd->add_option("--max-step-time", o->max_step_time,
                  "end the run (exit 1, naming the step) when one step takes longer than this "
                  "many seconds of wall time; the solvers stop at the deadline (default: no "
                  "budget)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag(
      "--no-blowup-check", o->no_blowup_check,
      "run on when a step blows up (energy up 100x in a step, a joint violated by more "
      "than 1 cm, a penetration deeper than 10 cm), which otherwise ends the run, exit 1");
  cmd->add_flag("--fast-path", o->fast_path,
                "eliminate the joint rows before the solve, Newton first (docs/performance.md, "
                "the fast path; the default except in the papers' scenes)");
  cmd->add_flag("--no-fast-path", o->no_fast_path,
                "solve the full problem with the step's solver (no joint elimination, no Newton "
                "first)")
      ->excludes("--fast-path");
  add_set_option(cmd, o->sets);
  cmd->add_option("--out,-o", o->out,
                  "trajectory file, .csv or .json (written only if the run succeeds)");
  cmd->add_option("--every", o->every,
                  "record every K-th step (the first and last steps are always recorded)")
      ->default_val(1);
  cmd->add_flag("--contacts", o->contacts,
                "JSON trajectory: each sample also lists its contacts (point, force)");
  cmd->add_option("--view", o->view,
                  "also write the trajectory viewer, a self-contained .html file (docs/viewer.md)");
  cmd->add_option("--max-frames", o->view_max_frames,
                  "--view: at most this many frames in the viewer (every k-th; default 5000)");
  cmd->add_option("--dump-problems", o->dump_dir,
                  "write each step's Problem to DIR/step_NNNNNN.mprob (read by `moreau solve`)");
  cmd->add_option("--dump-every", o->dump_every, "dump every K-th step's Problem (default 1)");
  cmd->add_flag("--json", o->json, "print the summary as one JSON object on stdout");
  cmd->add_flag("--quiet,-q", o->quiet, "no progress bar and no human-readable summary");
  cmd->callback([o] { run_simulate(*o); });
}

}  // namespace moreau::cli
