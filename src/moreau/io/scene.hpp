#pragma once
// A Scene is what a file or a built-in name describes: a Model, its initial State and the
// simulation settings (time step, solver and its settings). Options live here, never in Model.
#include <map>
#include <string>
#include <vector>

#include "moreau/model/state.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {

struct Scene {
  std::string name;
  std::string source;  // file path, or "builtin:NAME"
  Model model;
  State initial;
  SimSettings settings;
  double duration = 1.0;  // default simulated time for `moreau simulate` [s]
};

// Scene parameters from the command line (`--set key=value`).
using SceneParams = std::map<std::string, std::string>;

// Built-in scenes, by exact name.
std::vector<std::string> builtin_scene_names();
bool is_builtin_scene(const std::string& name);
Result<Scene> make_builtin_scene(const std::string& name, const SceneParams& params = {});

// Loads a scene: a built-in name, or a file (.json native format; other formats by extension).
Result<Scene> load_scene(const std::string& name_or_path, const SceneParams& params = {});

// Native JSON scene format (docs/scene-format.md).
Result<Scene> load_scene_json_file(const std::string& path);
Result<Scene> parse_scene_json(const std::string& text, const std::string& source);
std::string scene_to_json(const Scene& scene);

// Helpers for scene parameters: value of key or fallback; Error if present but not a number.
Result<double> param_double(const SceneParams& p, const std::string& scene, const std::string& key, double fallback);

}  // namespace moreau
