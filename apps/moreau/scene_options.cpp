#include "scene_options.hpp"

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
  return std::move(*scene);
}

}  // namespace moreau::cli
