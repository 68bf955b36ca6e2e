#pragma once
// How `moreau inspect` prints a ModelSummary (moreau/dynamics/analysis.hpp).
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "moreau/dynamics/analysis.hpp"
#include "moreau/io/scene.hpp"

namespace moreau {

// The summary as a JSON object (keys in the order of ModelSummary; joint_types and geometry_types
// list every type, with zeros).
nlohmann::ordered_json to_json(const ModelSummary& s);

// What `moreau inspect --json` prints: to_json(summarize_model(...)) and a "scene" object (name,
// source, dt, solver, integrator, duration). The Python module's Model.inspect() returns it too.
nlohmann::ordered_json inspect_json(const Scene& scene);

// A human-readable report: counts, then a body table and a joint table.
std::string format_model_summary(const ModelSummary& s);

}  // namespace moreau
