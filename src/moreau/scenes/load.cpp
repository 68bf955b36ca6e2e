#include <fstream>

#include "moreau/io/scene.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/scenes/builtin.hpp"

namespace moreau {

namespace {
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

Result<Scene> load_scene(const std::string& name, const SceneParams& params) {
  if (is_builtin_scene(name)) return make_builtin_scene(name, params);
  std::ifstream probe(name);
  if (!probe) {
    if (name.find('/') == std::string::npos && name.find('.') == std::string::npos)
      return make_builtin_scene(name, params);  // lists the built-in names
    return Error{name, 0, "scene file", "a readable file", "cannot open it"};
  }
  if (ends_with(name, ".json")) {
    if (!params.empty())
      return Error{name, 0, "--set", "no parameters (they apply to built-in scenes only)",
                   std::to_string(params.size()) + " given"};
    return load_scene_json_file(name);
  }
  if (ends_with(name, ".urdf") || ends_with(name, ".xml") || ends_with(name, ".mjcf"))
    return load_model_file(name, params);  // URDF / MJCF (docs/model-import.md)
  return Error{name, 0, "scene file",
               "a .json scene, .urdf or MJCF .xml file (or a built-in scene name)",
               "an unknown extension"};
}

}  // namespace moreau
