#include "scene_options.hpp"

#include "moreau/collision/contact.hpp"
#include "moreau/solvers/solver_params.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>

namespace moreau::cli {

void add_set_option(CLI::App* cmd, std::vector<std::string>& sets) {
  cmd->add_option("--set", sets,
                  "scene parameter key=value, repeatable (built-in scenes, e.g. --set n=50 for "
                  "'chain'; URDF/MJCF: floating, package_path, keyframe)")
      ->expected(1)
      ->allow_extra_args(false)  // `--set a=1 pendulum`: pendulum is the scene, not a second value
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("KEY=VALUE");
}

void fail(const char* command, const std::string& message, int code) {
  std::cerr << "moreau " << command << ": error: " << message << '\n';
  throw Exit{code};
}

SceneParams parse_scene_params(const std::vector<std::string>& sets, const char* command) {
  SceneParams params;
  for (const std::string& kv : sets) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      fail(command, "--set '" + kv + "': expected key=value", kExitBadInput);
    const std::string key = kv.substr(0, eq);
    if (params.count(key))
      fail(command, "--set: parameter '" + key + "' given twice", kExitBadInput);
    params[key] = kv.substr(eq + 1);
  }
  return params;
}

Scene load_scene_or_exit(const std::string& name, const SceneParams& params, const char* command) {
  Result<Scene> scene = load_scene(name, params);
  if (!scene) fail(command, scene.error().message(), kExitBadInput);
  // A named detector: a range-for over a temporary's member would read it after its end.
  const CollisionDetector detector(scene->model, scene->settings.collision);
  for (const std::string& w : detector.warnings())
    std::cerr << "moreau " << command << ": warning: " << w << '\n';
  return std::move(*scene);
}

void apply_solver_params_or_exit(SolverSettings& s, const std::vector<std::string>& params,
                                 const std::vector<std::string>& solvers, const char* command) {
  if (const std::string err = apply_solver_params(s, params, solvers); !err.empty())
    fail(command, err, kExitBadInput);
}

SolverSettings solver_settings_or_exit(double tol, int max_iters,
                                       const std::vector<std::string>& params,
                                       const std::vector<std::string>& solvers,
                                       const char* command) {
  SolverSettings s;
  s.tol = tol;
  s.max_iters = max_iters;
  if (!(tol > 0.0) || max_iters < 1)
    fail(command, "--tol must be > 0 and --max-iter >= 1", kExitBadInput);
  apply_solver_params_or_exit(s, params, solvers, command);
  return s;
}

}  // namespace moreau::cli
