// `moreau bench`: record samples from the suite's scenes (and FCLib files), solve each with every
// chosen solver from a cold and a warm start, and write results.csv, summary.json, plots and
// report.md (docs/benchmark.md explains the method).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "bench_pictures.hpp"
#include "commands.hpp"
#include "interrupt.hpp"
#include "moreau/bench/bench.hpp"
#include "moreau/bench/parallel.hpp"
#include "moreau/io/scene.hpp"
#include "progress.hpp"
#include "scene_options.hpp"

namespace moreau::cli {

namespace {

namespace fs = std::filesystem;

struct BenchOptions {
  std::string systems, solvers, out, samples_out;
  std::vector<std::string> fclib, samples, params;
  double dt = 0.0, tol = 1e-6, duration = 0.0;
  int max_iters = 1000, max_samples = 0, jobs = -1;  // -1: 1, or all cores with --quick
  bool quick = false, no_warm = false, no_cold = false, traces = true, quiet = false,
       no_pictures = false, no_default_path = false;
};

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

// The report's solvers (solver.hpp, in_bench_default_set); the others run when named.
std::vector<std::string> default_solvers() {
  std::vector<std::string> out;
  for (const SolverInfo& s : solver_registry())
    if (in_bench_default_set(s)) out.emplace_back(s.name);
  return out;
}

std::vector<std::string> systems_or_exit(const BenchOptions& o) {
  if (o.systems == "none") return {};
  if (o.systems.empty()) return bench::suite_systems();
  std::vector<std::string> out = split_list(o.systems);
  for (const std::string& s : out)
    if (!is_builtin_scene(s) && !fs::exists(s))
      fail("bench",
           "unknown system '" + s + "'; the suite is: " + join(bench::suite_systems()) +
               " (any built-in scene or scene file works too; built-ins: " +
               join(builtin_scene_names()) + ")",
           kExitBadInput);
  return out;
}

std::vector<std::string> solvers_or_exit(const BenchOptions& o) {
  if (o.solvers.empty()) return default_solvers();
  std::vector<std::string> out = split_list(o.solvers);
  for (const std::string& s : out)
    if (!find_solver(s))
      fail("bench", "unknown solver '" + s + "'; available: " + solver_names(), kExitBadInput);
  if (out.empty()) fail("bench", "--solvers: expected a comma-separated list", kExitBadInput);
  return out;
}

// Creates DIR and checks that a file can be written in it, before any work.
void check_out_dir_or_exit(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    fail("bench", "--out " + dir + ": cannot create the directory (" + ec.message() + ")",
         kExitBadInput);
  const fs::path probe = fs::path(dir) / ".moreau-write-test";
  {
    std::ofstream f(probe);
    f << "x";
    if (!f) fail("bench", "--out " + dir + ": the directory is not writable", kExitBadInput);
  }
  fs::remove(probe, ec);
}

// FCLib inputs: files, or directories searched for *.hdf5 (sorted, for determinism).
std::vector<std::string> expand_fclib(const std::vector<std::string>& in) {
  std::vector<std::string> out;
  for (const std::string& p : in) {
    if (fs::is_directory(p)) {
      std::vector<std::string> found;
      for (const auto& e : fs::directory_iterator(p))
        if (e.path().extension() == ".hdf5" || e.path().extension() == ".h5")
          found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(p);
    }
  }
  return out;
}

std::string command_line(int argc, char** argv) {
  std::string s = "moreau";
  for (int i = 1; i < argc; ++i) s += std::string(" ") + argv[i];
  return s;
}

int g_argc = 0;
char** g_argv = nullptr;

void run_bench(BenchOptions o) {
  // Ctrl-C skips the remaining work and ends with kExitInterrupted before the report is written:
  // the report files, each written to a temporary and renamed, stay the old ones (or none).
  InterruptGuard signals;
  const auto t0 = std::chrono::steady_clock::now();
  if (o.quick) {  // the README's main job: every suite system and solver, in under two minutes
    if (o.max_samples == 0) o.max_samples = 3;
    if (o.duration == 0.0) o.duration = 0.5;
    if (o.max_iters == 1000) o.max_iters = 500;
  }
  if (o.max_samples == 0) o.max_samples = 12;
  if (o.jobs == -1) o.jobs = o.quick ? 0 : 1;
  if (o.jobs < 1) o.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (o.dt < 0.0 || o.duration < 0.0)
    fail("bench", "--dt and --duration must be >= 0", kExitBadInput);
  const std::vector<std::string> systems = systems_or_exit(o);
  const std::vector<std::string> solvers = solvers_or_exit(o);
  const SolverSettings solver =
      solver_settings_or_exit(o.tol, o.max_iters, o.params, solvers, "bench");
  const std::vector<std::string> fclib = expand_fclib(o.fclib);
  for (const std::string& f : fclib)
    if (!fs::is_regular_file(f)) fail("bench", "--fclib " + f + ": no such file", kExitBadInput);
  for (const std::string& f : o.samples)
    if (!fs::exists(f)) fail("bench", "--samples " + f + ": no such file", kExitBadInput);
  check_out_dir_or_exit(o.out);
  if (!o.samples_out.empty()) check_out_dir_or_exit(o.samples_out);
  const auto stop_if_interrupted = [] {
    if (interrupted())
      fail("bench", "interrupted by a signal; no report written", kExitInterrupted);
  };

  // 1. Samples.
  std::vector<bench::Sample> samples;
  std::vector<std::string> system_names;
  bench::CollectSettings cs;
  cs.dt = o.dt;
  cs.duration = o.duration;
  cs.max_samples = o.max_samples;
  cs.stop = interrupted;
  std::vector<std::string> notes;
  std::vector<bench::DefaultPathRun> default_runs;  // by system; empty entries not run
  {
    // Each system's simulation is independent: they run on `jobs` threads, and their samples are
    // taken in the order of `systems`, so the result does not depend on the thread count.
    std::vector<std::optional<Result<std::vector<bench::Sample>>>> recorded(systems.size());
    default_runs.resize(systems.size());
    ProgressBar bar(static_cast<int64_t>(systems.size()), !o.quiet, "systems recorded");
    bench::parallel_for(
        static_cast<int>(systems.size()), o.jobs,
        [&](int i, int) {
          if (interrupted()) return;
          recorded[i] = bench::collect_samples(systems[i], cs);
          if (!o.no_default_path) default_runs[i] = bench::run_default_path(systems[i], cs);
        },
        [&bar](int done, int) { bar.update(done, 0.0); });
    bar.finish();
    stop_if_interrupted();
    for (size_t i = 0; i < systems.size(); ++i) {
      Result<std::vector<bench::Sample>>& r = *recorded[i];
      if (!r) {  // a system whose simulation fails is reported and skipped, not the end of the run
        const std::string note = "system " + systems[i] + " skipped: its simulation failed (" +
                                 r.error().message() + ")";
        std::cerr << "moreau bench: warning: " << note << '\n';
        notes.push_back(note);
        continue;
      }
      for (auto& smp : *r) samples.push_back(std::move(smp));
      system_names.push_back(systems[i]);
    }
  }
  std::vector<std::string> files = fclib;
  files.insert(files.end(), o.samples.begin(), o.samples.end());
  for (const std::string& f : files) {
    auto r = bench::load_samples(f);
    if (!r) fail("bench", r.error().message(), kExitBadInput);
    for (auto& s : *r) {
      if (system_names.empty() || system_names.back() != s.system) system_names.push_back(s.system);
      samples.push_back(std::move(s));
    }
  }
  if (samples.empty())
    fail("bench", "no samples: the systems produced no constrained step", kExitFailure);
  if (!o.samples_out.empty())
    if (auto e = bench::save_samples(samples, o.samples_out))
      fail("bench", e->message(), kExitFailure);

  // 2. Solves.
  bench::RunSettings rs;
  rs.solvers = solvers;
  rs.solver = solver;
  rs.cold = !o.no_cold;
  rs.warm = !o.no_warm;
  rs.jobs = o.jobs;
  rs.traces = o.traces;
  rs.stop = interrupted;
  if (!rs.cold && !rs.warm)
    fail("bench", "--no-cold and --no-warm leave nothing to run", kExitBadInput);
  std::vector<bench::RunResult> runs;
  {
    int64_t total = 0;
    for (const auto& s : samples)
      total += static_cast<int64_t>(solvers.size()) *
               ((rs.cold ? 1 : 0) + (rs.warm && s.warm_lambda.size() > 0 ? 1 : 0));
    ProgressBar bar(total, !o.quiet, "solves");
    runs = bench::run_solves(samples, rs, [&bar](int done, int) { bar.update(done, 0.0); });
  }
  stop_if_interrupted();

  // 3. Report.
  double solve_s = 0.0;
  for (const auto& r : runs) solve_s += r.solve_time_s;
  bench::ReportInput in;
  in.out_dir = o.out;
  in.samples = &samples;
  in.runs = &runs;
  in.solvers = solvers;
  in.systems = system_names;
  in.tol = o.tol;
  in.command_line = command_line(g_argc, g_argv);
  in.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  in.solve_s = solve_s;
  in.notes = notes;
  std::vector<bench::DefaultPathRun> ran;
  for (const bench::DefaultPathRun& d : default_runs)
    if (!d.system.empty()) ran.push_back(d);
  if (!o.no_default_path) in.default_runs = &ran;
  if (!o.no_pictures) {
    const SystemsPicture pic = write_systems_picture(system_names, o.out);
    in.systems_figure = pic.file;
    in.systems_figure_note = pic.note;
    if (!pic.note.empty()) std::printf("note: %s\n", pic.note.c_str());
  }
  if (auto e = bench::write_report(in)) fail("bench", e->message(), kExitFailure);

  int successes = 0;
  for (const auto& r : runs) successes += r.success ? 1 : 0;
  std::printf(
      "%zu samples from %zu systems, %zu solvers, %zu solves (%d successful) in %.1f s "
      "(%.1f s inside the solvers)\n",
      samples.size(), system_names.size(), solvers.size(), runs.size(), successes, in.wall_s,
      solve_s);
  for (const std::string& n : notes) std::printf("note: %s\n", n.c_str());
  std::printf("wrote %s/report.md, results.csv, summary.json, plots/\n", o.out.c_str());
}

}  // namespace

void add_bench(CLI::App& app, int argc, char** argv) {
  g_argc = argc;
  g_argv = argv;
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "benchmark the solvers on samples recorded from the suite (report Sec. VII)");
  cmd->footer(
      "Writes OUT/results.csv (one row per sample, solver and start), OUT/summary.json "
      "(aggregates, profiles, rankings), OUT/plots/*.svg and OUT/report.md.\n"
      "Systems default to the report's Table II suite: " +
      join(bench::suite_systems()) +
      ".\nExit status: 0 done (failing solves are rows, not errors); 1 a simulation failed; "
      "2 bad input; 130 interrupted (SIGINT/SIGTERM: no report written). See docs/benchmark.md.");
  cmd->add_option("--out", o->out, "output directory (created)")->required();
  cmd->add_option("--systems", o->systems,
                  "comma-separated scenes (built-in names or files); 'none' for FCLib only");
  cmd->add_option("--solvers", o->solvers,
                  "comma-separated solver names (default: all but pgs, direct, sap)");
  cmd->add_option("--fclib", o->fclib, "FCLib .hdf5 file or directory of them (repeatable)");
  cmd->add_option("--samples", o->samples, "saved samples (.mprob or FCLib .hdf5), repeatable");
  cmd->add_option("--samples-out", o->samples_out,
                  "also write the recorded samples as .mprob here");
  cmd->add_option("--dt", o->dt, "time step override [s] (default: each scene's)");
  cmd->add_option("--duration", o->duration,
                  "simulated time per system [s] (default: each scene's)");
  cmd->add_option("--max-samples", o->max_samples,
                  "samples per system (default 12; 3 with --quick)");
  cmd->add_option("--tol", o->tol,
                  "tolerance on r_natmap and the solvers' stopping test (default 1e-6)");
  cmd->add_option("--max-iter", o->max_iters,
                  "iteration cap per solve (default 1000; 500 with --quick)");
  cmd->add_option(
      "--param", o->params,
      "solver parameter key=value, set on every selected solver that has it (repeatable)");
  cmd->add_option("--jobs", o->jobs,
                  "record systems and solve samples on N threads (0: all cores; default 1, all "
                  "cores with --quick)");
  cmd->add_flag("--quick", o->quick, "a short run of every suite system and solver (< 2 min)");
  cmd->add_flag("--no-warm", o->no_warm, "cold starts only");
  cmd->add_flag("--no-cold", o->no_cold, "warm starts only");
  cmd->add_flag("--quiet", o->quiet, "no progress bar");
  cmd->add_flag("--no-default-path", o->no_default_path,
                "no run of each system on the default path (the report's table of steps "
                "unconverged)");
  cmd->add_flag("--no-pictures", o->no_pictures,
                "no plots/systems.png (the systems drawn by headless Chromium, docs/viewer.md)");
  cmd->callback([o] { run_bench(*o); });
}

}  // namespace moreau::cli
