#pragma once
// Built-in scene builders, one function per scene, grouped by file. The table in
// builtin.cpp lists them all.
#include "moreau/io/scene.hpp"
#include "moreau/scenes/builtin.hpp"

namespace moreau::builtin {

using SceneFn = Result<Scene> (*)(const SceneParams&);
struct BuiltinScene {
  const char* name;
  const char* description;
  SceneFn make;
};
const std::vector<BuiltinScene>& builtin_table();

// joints.cpp: the report's jointed primitives.
Result<Scene> pendulum(const SceneParams&);
Result<Scene> boxes_fixed(const SceneParams&);
Result<Scene> nunchuk(const SceneParams&);
Result<Scene> fourbar_fixed(const SceneParams&);
Result<Scene> fourbar_free(const SceneParams&);
Result<Scene> chain(const SceneParams&);

// contact.cpp: frictional contact scenes (collision room).
Result<Scene> box_on_plane(const SceneParams&);
Result<Scene> ball_drop(const SceneParams&);
Result<Scene> box_incline(const SceneParams&);
Result<Scene> box_stack(const SceneParams&);
Result<Scene> sphere_pile(const SceneParams&);

// papers.cpp: the cases of Todorov 2010 and Schindler et al. 2011.
Result<Scene> ball_stack(const SceneParams&);
Result<Scene> balls_in_cube(const SceneParams&);
Result<Scene> painleve(const SceneParams&);
Result<Scene> point_mass(const SceneParams&);

// sap.cpp: the cases of Castro et al. 2023 (SAP).
Result<Scene> spring_cylinder(const SceneParams&);
Result<Scene> clutter(const SceneParams&);

// suite_robots.cpp, suite_animatronics.cpp: the benchmark suite's stand-ins (Table II).
Result<Scene> arm7d(const SceneParams&);
Result<Scene> quadruped(const SceneParams&);
Result<Scene> bdx(const SceneParams&);
Result<Scene> lima(const SceneParams&);
Result<Scene> misha(const SceneParams&);
Result<Scene> walker(const SceneParams&);
Result<Scene> gazelle(const SceneParams&);
Result<Scene> ironman(const SceneParams&);

}  // namespace moreau::builtin
