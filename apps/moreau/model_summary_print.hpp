#pragma once
// How `moreau inspect` prints a ModelSummary (moreau/dynamics/analysis.hpp).
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "moreau/dynamics/analysis.hpp"

namespace moreau {

// The summary as a JSON object (keys in the order of ModelSummary; joint_types and geometry_types
// list every type, with zeros).
nlohmann::ordered_json to_json(const ModelSummary& s);

// A human-readable report: counts, then a body table and a joint table.
std::string format_model_summary(const ModelSummary& s);

}  // namespace moreau
