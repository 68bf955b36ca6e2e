#include <cmath>
#include <cstdlib>

#include "moreau/io/builtin_list.hpp"

namespace moreau {

namespace builtin {
const std::vector<BuiltinScene>& builtin_table() {
  static const std::vector<BuiltinScene> table = {
      {"pendulum", "physical pendulum: one box on a revolute joint to the world", pendulum},
      {"boxes-fixed", "two boxes joined by a fixed joint, mass ratio 1000, free-floating", boxes_fixed},
      {"nunchuk", "three bars joined by two spherical joints, free-floating", nunchuk},
      {"fourbar-fixed", "planar four-bar loop, ground link fixed to the world (26 rows, rank 23, 1 DoF)", fourbar_fixed},
      {"fourbar-free", "planar four-bar loop, free-floating (20 rows, rank 17, 7 DoF)", fourbar_free},
      {"chain", "a chain of n links on revolute joints hanging from the world (--set n=30)", chain},
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

Result<Scene> make_builtin_scene(const std::string& name, const SceneParams& params) {
  for (const auto& s : builtin::builtin_table())
    if (name == s.name) {
      Result<Scene> r = s.make(params);
      if (r) {
        r->name = name;
        r->source = "builtin:" + name;
      }
      return r;
    }
  std::string all;
  for (const auto& n : builtin_scene_names()) all += (all.empty() ? "" : ", ") + n;
  return Error{"", 0, "scene '" + name + "'", "a scene file or one of the built-in scenes: " + all, "neither"};
}

Result<double> param_double(const SceneParams& p, const std::string& scene, const std::string& key, double fallback) {
  auto it = p.find(key);
  if (it == p.end()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str() || *end != '\0' || !std::isfinite(v))
    return Error{"", 0, "scene '" + scene + "' parameter '" + key + "'", "a finite number", "'" + it->second + "'"};
  return v;
}

}  // namespace moreau
