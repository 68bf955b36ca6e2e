#pragma once
// Internal to the JSON scene format: the readers and writers of joints and settings, shared by
// scene_json_read.cpp and scene_json_write.cpp.
#include <string>
#include <unordered_map>

#include "moreau/io/scene_json_util.hpp"
#include "moreau/model/state.hpp"
#include "moreau/sim/settings.hpp"

namespace moreau::scene_json {

// Body index by name (O(1) lookups: scenes may have 1e5 bodies).
using BodyNames = std::unordered_map<std::string, int>;

// Index of the body named by the string j (-1 for "world" when world_ok).
int body_ref(const Reader& r, const json& j, const Loc& at, const ModelBuilder& mb,
             const BodyNames& names, bool world_ok);

// A joint; with "anchor" its frames are derived from the initial state s (scene_json_joints.cpp).
Joint read_joint(const Reader& r, const json& j, const Loc& at, int index, const ModelBuilder& mb,
                 const BodyNames& names, const State& s);
// The "limits", "damping" and "actuators" keys of a joint (only when not all default).
void write_joint_dofs(const Joint& jt, nlohmann::ordered_json& out);

// The "settings" object (scene_json_settings.cpp).
SimSettings read_settings(const Reader& r, const json& j, const Loc& at);
nlohmann::ordered_json write_settings(const SimSettings& s);

}  // namespace moreau::scene_json
