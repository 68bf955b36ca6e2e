// Samples (report Sec. VII-C): Problems recorded while a scene runs, or read from .mprob / FCLib
// files.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "moreau/bench/bench.hpp"
#include "moreau/io/fclib.hpp"
#include "moreau/io/problem_io.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau::bench {

namespace fs = std::filesystem;

namespace {

Sample make_sample(const std::string& system, int step, double time, const char* reason,
                   const Problem& p, const WarmStart& w) {
  Sample s;
  s.system = system;
  s.step = step;
  s.time = time;
  s.reason = reason;
  s.problem = p;
  s.warm_lambda = w.lambda;
  return s;
}

// k of the n items, evenly spread and in order: indices floor(i n / k).
std::vector<Sample> thin(std::vector<Sample> v, int k) {
  const int n = static_cast<int>(v.size());
  if (k >= n) return v;
  std::vector<Sample> out;
  for (int i = 0; i < k; ++i) out.push_back(std::move(v[static_cast<size_t>(i) * n / k]));
  return out;
}

}  // namespace

// Selection, deterministic: the first constrained step always; impacts (contact count above the
// previous step's), the earliest ones, at most half the budget; periodic steps (every N, only
// constrained ones: an unconstrained Problem has nothing to solve) fill the rest, evenly thinned.
// A step is recorded once, with the first reason among first, impact, periodic.
Result<Scene> load_run_scene(const std::string& scene, const CollectSettings& cs) {
  Result<Scene> loaded = load_scene(scene);
  if (!loaded) return loaded.error();
  Scene& sc = *loaded;
  if (cs.dt > 0.0) sc.settings.dt = cs.dt;
  if (cs.duration > 0.0) sc.duration = cs.duration;
  if (!cs.sim_solver.empty()) sc.settings.solver = cs.sim_solver;
  if (sc.name.empty()) sc.name = scene;
  if (!(sc.settings.dt > 0.0) || !std::isfinite(sc.settings.dt))
    return Error{"", 0, "scene '" + sc.name + "'", "dt > 0", std::to_string(sc.settings.dt)};
  return loaded;
}

Result<std::vector<Sample>> collect_samples(const std::string& scene, const CollectSettings& cs,
                                            const std::function<void(int, int)>& progress) {
  Result<Scene> loaded = load_run_scene(scene, cs);
  if (!loaded) return loaded.error();
  const Scene& sc = *loaded;
  const std::string system = sc.name;
  if (cs.max_samples <= 0) return std::vector<Sample>{};
  const int steps = static_cast<int>(std::llround(sc.duration / sc.settings.dt));
  const int every = cs.every > 0 ? cs.every : std::max(1, steps / cs.max_samples);
  const int max_impacts = cs.impacts ? cs.max_samples / 2 : 0;

  // The samples are recorded along the full solve's trajectory with the scene's solver (no fast
  // path), so that a report does not depend on the fast path's settings (docs/benchmark.md).
  SimSettings recording = sc.settings;
  recording.fast_path = false;
  Simulator sim(sc.model, recording);
  State s = sc.initial;
  std::vector<Sample> first, impacts, periodic;
  int prev_contacts = 0, periodic_hits = 0, stride = 1;
  for (int k = 0; k < steps; ++k) {
    const double t = s.t;
    if (cs.stop && cs.stop())
      return Error{"", 0, "scene '" + system + "' step " + std::to_string(k),
                   "an uninterrupted recording", "stopped"};
    if (!sim.step(s))
      return Error{"", 0, "scene '" + system + "' step " + std::to_string(k),
                   "a successful simulation step", sim.error()};
    const Problem& p = sim.problem();
    const int nc = p.count(RowKind::Contact);
    if (p.nl > 0) {
      if (first.empty())
        first.push_back(make_sample(system, k, t, "first", p, sim.warm_start()));
      else if (nc > prev_contacts && static_cast<int>(impacts.size()) < max_impacts)
        impacts.push_back(make_sample(system, k, t, "impact", p, sim.warm_start()));
      else if (k % every == 0 && periodic_hits++ % stride == 0)
        periodic.push_back(make_sample(system, k, t, "periodic", p, sim.warm_start()));
      // Bounded memory for a small `every`: keep every other candidate, take half as many.
      if (static_cast<int>(periodic.size()) > 2 * cs.max_samples) {
        for (size_t i = 0; 2 * i < periodic.size(); ++i) periodic[i] = std::move(periodic[2 * i]);
        periodic.resize((periodic.size() + 1) / 2);
        stride *= 2;
      }
    }
    prev_contacts = nc;
    if (progress) progress(k + 1, steps);
  }
  const int room = cs.max_samples - static_cast<int>(first.size());
  if (static_cast<int>(impacts.size()) > room) impacts.resize(std::max(0, room));
  periodic = thin(std::move(periodic), room - static_cast<int>(impacts.size()));
  std::vector<Sample> out = std::move(first);
  for (auto& v : {&impacts, &periodic})
    for (Sample& x : *v) out.push_back(std::move(x));
  std::stable_sort(out.begin(), out.end(),
                   [](const Sample& a, const Sample& b) { return a.step < b.step; });
  for (Sample& x : out) x.info = classify(x.problem);  // only the kept ones (eigenvalues)
  return out;
}

namespace {

bool has_ext(const fs::path& p, std::initializer_list<const char*> exts) {
  const std::string e = p.extension().string();
  for (const char* x : exts)
    if (e == x) return true;
  return false;
}

bool contacts_only(const Problem& p) {
  for (const ConstraintBlock& b : p.blocks)
    if (b.cone != ConeKind::Coulomb) return false;
  return true;
}

// "fourbar-fixed-120" -> "fourbar-fixed": the name save_samples gave, without its step.
std::string system_of_stem(const std::string& stem) {
  const size_t dash = stem.find_last_of('-');
  if (dash == std::string::npos || dash + 1 == stem.size()) return stem;
  for (size_t i = dash + 1; i < stem.size(); ++i)
    if (stem[i] < '0' || stem[i] > '9') return stem;
  return stem.substr(0, dash);
}

Result<Sample> load_one(const fs::path& path) {
  Sample s;
  s.step = -1;
  s.reason = "file";
  if (has_ext(path, {".mprob"})) {
    Result<Problem> p = load_problem(path.string());
    if (!p) return p.error();
    s.system = system_of_stem(path.stem().string());
    s.problem = std::move(*p);
  } else if (has_ext(path, {".hdf5", ".h5"})) {
    Result<FclibProblem> p = load_fclib(path.string());
    if (!p) return p.error();
    s.system = "fclib:" + path.stem().string();
    s.problem = std::move(p->problem);
  } else {
    return Error{path.string(), 0, "sample file", "a .mprob, .hdf5 or .h5 file",
                 path.extension().string()};
  }
  s.info = classify(s.problem);
  return s;
}

}  // namespace

// A file gives one sample (an FCLib file holds one problem); a directory gives its .mprob and
// FCLib files in name order.
Result<std::vector<Sample>> load_samples(const std::string& path) {
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(path, ec)) {
    for (const fs::directory_entry& e : fs::directory_iterator(path, ec))
      if (e.is_regular_file() && has_ext(e.path(), {".mprob", ".hdf5", ".h5"}))
        files.push_back(e.path());
    if (ec) return Error{path, 0, "directory", "a readable directory", ec.message()};
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  std::vector<Sample> out;
  for (const fs::path& f : files) {
    Result<Sample> s = load_one(f);
    if (!s) return s.error();
    out.push_back(std::move(*s));
  }
  return out;
}

namespace {
// File-name safe system name: "fclib:spheres" -> "fclib_spheres", path separators too.
std::string file_safe(const std::string& name) {
  std::string s = name;
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) c = '_';
  return s;
}
}  // namespace

std::optional<Error> save_samples(const std::vector<Sample>& samples, const std::string& dir) {
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    // Samples read from files (step -1) are numbered by their index instead.
    const long id = s.step >= 0 ? s.step : static_cast<long>(i);
    const std::string name = file_safe(s.system) + "-" + std::to_string(id) + kProblemExtension;
    const fs::path path = fs::path(dir) / name;
    if (auto e = save_problem(s.problem, path.string())) return e;
    // Contact-only samples also as FCLib local problems, for other tools, in DIR/fclib (a
    // subdirectory, so that reading DIR back does not count them twice).
    if (!fclib_supported() || s.problem.nl == 0 || !contacts_only(s.problem)) continue;
    const fs::path fdir = fs::path(dir) / "fclib";
    std::error_code ec;
    fs::create_directories(fdir, ec);
    const fs::path fpath = fdir / (path.stem().string() + ".hdf5");
    if (auto e =
            save_fclib_local(s.problem, fpath.string(), s.system + " step " + std::to_string(id),
                             "recorded by moreau bench (" + s.reason + ")"))
      return e;
  }
  return std::nullopt;
}

}  // namespace moreau::bench
