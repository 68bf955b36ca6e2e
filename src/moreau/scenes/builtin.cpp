#include <cmath>
#include <cstdlib>
#include <set>

#include "moreau/scenes/builtin_list.hpp"

namespace moreau {

namespace builtin {
const std::vector<BuiltinScene>& builtin_table() {
  static const std::vector<BuiltinScene> table = {
      {"pendulum", "physical pendulum: one box on a revolute joint to the world", pendulum},
      {"boxes-fixed", "two boxes joined by a fixed joint, mass ratio 1000, free-floating",
       boxes_fixed},
      {"nunchuk", "three bars joined by two spherical joints, free-floating", nunchuk},
      {"fourbar-fixed",
       "planar four-bar loop, ground link fixed to the world (26 rows, rank 23, 1 DoF)",
       fourbar_fixed},
      {"fourbar-free", "planar four-bar loop, free-floating (20 rows, rank 17, 7 DoF)",
       fourbar_free},
      {"chain", "a chain of n links on revolute joints hanging from the world (--set n=30)", chain},
      {"box-on-plane", "one free 0.2 m cube dropped 1 cm onto the ground (--set drop=, mu=)",
       box_on_plane},
      {"ball-drop", "a sphere dropped on a plane, restitution 0.5 (--set height=, restitution=)",
       ball_drop},
      {"box-incline",
       "a cube on a plane tilted 20 degrees, friction 0.5: sticks (--set mu=, angle=)",
       box_incline},
      {"box-stack", "a stack of 5 cubes on the ground (--set n=)", box_stack},
      {"sphere-pile", "n spheres falling into a box-shaped container (--set n=300)", sphere_pile},
      {"ball-stack",
       "Todorov Fig. 6: 5 touching balls land together, stopped in one ngn step (--set v=1, mu=)",
       ball_stack},
      {"balls-in-cube",
       "Todorov Table 1: n random balls in a closed cube, ngn, h = 5 ms (--set n=10, mu=0.2, "
       "seed=1)",
       balls_in_cube},
      {"painleve",
       "Schindler et al. Painleve rod sliding on a plane, lemke (--set case=1|2|3: unique, two, "
       "no solution)",
       painleve},
      {"point-mass",
       "Schindler et al. point mass on a frictional plane, prox-fp (--set m=1, mu=0.5, v=0)",
       point_mass},
      {"spring-cylinder",
       "Castro et al. SAP: a cylinder on a spring, sap-midpoint, dt = 20 ms (--set mu=0|1: "
       "frictionless or rolling, x0=0.1)",
       spring_cylinder},
      {"clutter",
       "Castro et al. SAP: spheres and boxes dropped in 4 columns into an 80 cm box, sap, dt = "
       "10 ms (--set n=40, walls=1)",
       clutter},
      {"arm7d", "suite: fixed-base 7-DoF arm, 8 bodies, 41 rows, ratio 19.54, PD sinusoids", arm7d},
      {"quadruped",
       "suite: free quadruped, 13 bodies, 12 hinges, ratio 29.07, trotting on the ground",
       quadruped},
      {"bdx", "suite: free small biped, 15 bodies, 14 hinges, ratio 42.49", bdx},
      {"lima", "suite: free humanoid, 21 bodies, 20 hinges, ratio 321.39", lima},
      {"misha",
       "suite: fixed-base animatronic bust, 22 bodies, 24 joints, 121 rows (12 redundant), ratio "
       "90.67",
       misha},
      {"walker",
       "suite: free animatronic biped, 31 bodies, 36 joints, 180 rows (36 redundant), ratio 99.55",
       walker},
      {"gazelle",
       "suite: fixed-base animatronic quadruped, 38 bodies, 45 joints, 214 rows (46 redundant), "
       "ratio 1012.54",
       gazelle},
      {"ironman",
       "suite: fixed-base armoured figure, 54 bodies, 67 joints, 304 rows (80 redundant), ratio "
       "25544.44",
       ironman},
  };
  return table;
}
}  // namespace builtin

std::vector<std::string> builtin_scene_names() {
  std::vector<std::string> names;
  for (const auto& s : builtin::builtin_table()) names.push_back(s.name);
  return names;
}

bool is_builtin_scene(const std::string& name) {
  for (const auto& s : builtin::builtin_table())
    if (name == s.name) return true;
  return false;
}

namespace {
// Keys read through param_double() while a built-in scene is being made: any other key given on
// the command line is a typo, reported instead of silently ignored.
thread_local std::set<std::string>* g_read_keys = nullptr;
}  // namespace

Result<Scene> make_builtin_scene(const std::string& name, const SceneParams& params) {
  for (const auto& s : builtin::builtin_table())
    if (name == s.name) {
      std::set<std::string> read;
      g_read_keys = &read;
      Result<Scene> r = s.make(params);
      g_read_keys = nullptr;
      if (r) {
        for (const auto& [key, value] : params)
          if (!read.count(key)) {
            std::string known;
            for (const std::string& k : read) known += (known.empty() ? "" : ", ") + k;
            return Error{"", 0, "scene '" + name + "' parameter '" + key + "'",
                         known.empty() ? "no parameters (this scene has none)" : "one of: " + known,
                         "an unknown key"};
          }
      }
      if (r) {
        r->name = name;
        r->source = "builtin:" + name;
      }
      return r;
    }
  std::string all;
  for (const auto& n : builtin_scene_names()) all += (all.empty() ? "" : ", ") + n;
  return Error{"", 0, "scene '" + name + "'", "a scene file or one of the built-in scenes: " + all,
               "neither"};
}

Result<double> param_double(const SceneParams& p, const std::string& scene, const std::string& key,
                            double fallback) {
  if (g_read_keys) g_read_keys->insert(key);
  auto it = p.find(key);
  if (it == p.end()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str() || *end != '\0' || !std::isfinite(v))
    return Error{"", 0, "scene '" + scene + "' parameter '" + key + "'", "a finite number",
                 "'" + it->second + "'"};
  return v;
}

Result<std::string> param_choice(const SceneParams& p, const std::string& scene,
                                 const std::string& key, const std::vector<std::string>& choices,
                                 const std::string& fallback) {
  if (g_read_keys) g_read_keys->insert(key);
  auto it = p.find(key);
  if (it == p.end()) return fallback;
  std::string list;
  for (const std::string& c : choices) {
    if (it->second == c) return c;
    list += (list.empty() ? "" : ", ") + c;
  }
  return Error{"", 0, "scene '" + scene + "' parameter '" + key + "'", "one of " + list,
               "'" + it->second + "'"};
}

}  // namespace moreau
