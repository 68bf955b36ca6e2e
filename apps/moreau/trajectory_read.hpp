#pragma once
// Reads the trajectory files of `moreau simulate` (trajectory.hpp) back for `moreau view`: the
// samples' poses (and contacts, when the JSON has them), the run's metadata and, from a JSON
// file, the scene itself.
#include <optional>
#include <string>
#include <vector>

#include "moreau/io/scene.hpp"
#include "moreau/viewer/recording.hpp"

namespace moreau::cli {

struct TrajectoryData {
  std::optional<Scene> scene;  // the JSON's "scene_definition"
  std::string scene_name, solver, integrator;
  double dt = 0.0;
  std::vector<std::string> bodies;  // body names, in order
  viewer::Recording rec;
};

// Errors name the file, the line (CSV) or sample (JSON) and what was expected.
Result<TrajectoryData> read_trajectory(const std::string& path);

// Checks that the trajectory's bodies are the model's (count and names, in order).
std::optional<Error> check_trajectory_matches(const TrajectoryData& t, const Model& model,
                                              const std::string& path,
                                              const std::string& scene_label);

}  // namespace moreau::cli
