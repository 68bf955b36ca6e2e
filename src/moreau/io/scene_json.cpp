// Placeholder for the native JSON scene format (docs/scene-format.md).
#include "moreau/io/scene.hpp"

namespace moreau {

Result<Scene> load_scene_json_file(const std::string& path) {
  return Error{path, 0, "scene", "a supported format", "JSON scenes are not implemented yet"};
}
Result<Scene> parse_scene_json(const std::string&, const std::string& source) {
  return Error{source, 0, "scene", "a supported format", "JSON scenes are not implemented yet"};
}
std::string scene_to_json(const Scene&) { return "{}"; }

}  // namespace moreau
