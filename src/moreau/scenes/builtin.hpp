#pragma once
// The built-in scenes (the report's jointed primitives, contact scenes, the papers' cases and the
// benchmark suite's stand-ins), by exact name, and load_scene: a built-in name or a scene file.
#include <string>
#include <vector>

#include "moreau/io/scene.hpp"

namespace moreau {

// Built-in scenes, by exact name.
std::vector<std::string> builtin_scene_names();
bool is_builtin_scene(const std::string& name);
Result<Scene> make_builtin_scene(const std::string& name, const SceneParams& params = {});

// Loads a scene: a built-in name, or a file (.json native format; other formats by extension).
Result<Scene> load_scene(const std::string& name_or_path, const SceneParams& params = {});

// Helpers for scene parameters: value of key or fallback; Error if present but not a number.
Result<double> param_double(const SceneParams& p, const std::string& scene, const std::string& key,
                            double fallback);
// Value of key, one of `choices`, or fallback; Error naming the choices otherwise.
Result<std::string> param_choice(const SceneParams& p, const std::string& scene,
                                 const std::string& key, const std::vector<std::string>& choices,
                                 const std::string& fallback);

}  // namespace moreau
