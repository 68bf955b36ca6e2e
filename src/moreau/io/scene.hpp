#pragma once
// A Scene is what a file or a built-in name describes: a Model, its initial State and the
// simulation settings (time step, solver and its settings). Options live here, never in Model.
// Built-in scenes and load_scene (name or file) are in moreau/scenes/builtin.hpp.
#include <map>
#include <string>
#include <vector>

#include "moreau/model/state.hpp"
#include "moreau/sim/settings.hpp"

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

// Native JSON scene format (docs/scene-format.md).
Result<Scene> load_scene_json_file(const std::string& path);
Result<Scene> parse_scene_json(const std::string& text, const std::string& source);
std::string scene_to_json(const Scene& scene);

}  // namespace moreau
