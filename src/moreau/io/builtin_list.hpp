#pragma once
// Built-in scene builders, one function per scene, grouped by file. The table in
// builtin_scenes.cpp lists them all.
#include "moreau/io/scene.hpp"

namespace moreau::builtin {

using SceneFn = Result<Scene> (*)(const SceneParams&);
struct BuiltinScene {
  const char* name;
  const char* description;
  SceneFn make;
};
const std::vector<BuiltinScene>& builtin_table();

// scenes_joints.cpp: the report's jointed primitives.
Result<Scene> pendulum(const SceneParams&);
Result<Scene> boxes_fixed(const SceneParams&);
Result<Scene> nunchuk(const SceneParams&);
Result<Scene> fourbar_fixed(const SceneParams&);
Result<Scene> fourbar_free(const SceneParams&);
Result<Scene> chain(const SceneParams&);

}  // namespace moreau::builtin
