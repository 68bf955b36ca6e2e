#include "model_summary_print.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace moreau {

nlohmann::ordered_json to_json(const ModelSummary& s) {
  nlohmann::ordered_json j;
  j["name"] = s.name;
  j["bodies"] = s.bodies;
  j["joints"] = s.joints;
  j["dofs"] = s.dofs;
  j["constraint_rows"] = s.constraint_rows;
  j["rank_J"] = s.rank_J;
  j["redundant_rows"] = s.redundant_rows;
  j["joint_dofs"] = s.joint_dofs;
  j["mass_ratio"] = s.mass_ratio;
  j["total_mass"] = s.total_mass;
  nlohmann::ordered_json types = nlohmann::ordered_json::object();
  for (int t = 0; t < kNumJointTypes; ++t)
    types[joint_type_name(static_cast<JointType>(t))] = s.joint_types[t];
  j["joint_types"] = types;
  j["unary_joints"] = s.unary_joints;
  j["binary_joints"] = s.binary_joints;
  j["actuated_dofs"] = s.actuated_dofs;
  j["passive_dofs"] = s.passive_dofs;
  j["limited_dofs"] = s.limited_dofs;
  j["geometries"] = s.geometries;
  nlohmann::ordered_json shapes = nlohmann::ordered_json::object();
  for (int t = 0; t < kNumShapeTypes; ++t)
    shapes[shape_name(static_cast<ShapeType>(t))] = s.geometry_types[t];
  j["geometry_types"] = shapes;
  nlohmann::ordered_json bodies = nlohmann::ordered_json::array();
  for (const BodySummary& b : s.body_list)
    bodies.push_back(
        {{"name", b.name},
         {"mass", b.mass},
         {"inertia_diag", {b.inertia_diag.x(), b.inertia_diag.y(), b.inertia_diag.z()}},
         {"geometries", b.geometries}});
  j["body_list"] = bodies;
  nlohmann::ordered_json joints = nlohmann::ordered_json::array();
  for (const JointSummary& js : s.joint_list)
    joints.push_back({{"name", js.name},
                      {"type", js.type},
                      {"base", js.base},
                      {"follower", js.follower},
                      {"rows", js.rows},
                      {"dofs", js.dofs},
                      {"actuated_dofs", js.actuated_dofs},
                      {"limited_dofs", js.limited_dofs}});
  j["joint_list"] = joints;
  return j;
}

namespace {
void appendf(std::string& out, const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  out += buf;
}

std::string type_counts(const ModelSummary& s) {
  std::string out;
  for (int t = 0; t < kNumJointTypes; ++t)
    if (s.joint_types[t] > 0)
      appendf(out, "%s%s %d", out.empty() ? "" : ", ", joint_type_name(static_cast<JointType>(t)),
              s.joint_types[t]);
  return out.empty() ? "none" : out;
}

std::string shape_counts(const ModelSummary& s) {
  std::string out;
  for (int t = 0; t < kNumShapeTypes; ++t)
    if (s.geometry_types[t] > 0)
      appendf(out, "%s%s %d", out.empty() ? "" : ", ", shape_name(static_cast<ShapeType>(t)),
              s.geometry_types[t]);
  return out.empty() ? "none" : out;
}
}  // namespace

nlohmann::ordered_json inspect_json(const Scene& scene) {
  nlohmann::ordered_json j = to_json(summarize_model(scene.model, scene.initial));
  const SimSettings& st = scene.settings;
  j["scene"] = {{"name", scene.name},
                {"source", scene.source},
                {"dt", st.dt},
                {"solver", st.solver},
                {"integrator", integrator_name(st.integrator)},
                {"duration", scene.duration}};
  return j;
}

std::string format_model_summary(const ModelSummary& s) {
  std::string out;
  appendf(out, "model %s\n", s.name.c_str());
  appendf(out, "  bodies           %d (total mass %.6g kg, mass ratio %.6g)\n", s.bodies,
          s.total_mass, s.mass_ratio);
  appendf(out, "  joints           %d (%d unary, %d binary): %s\n", s.joints, s.unary_joints,
          s.binary_joints, type_counts(s).c_str());
  appendf(out, "  constraint rows  %d, rank of J %d, redundant rows %d\n", s.constraint_rows,
          s.rank_J, s.redundant_rows);
  appendf(out, "  mechanism DoFs   %d (= 6 x %d bodies - rank J)\n", s.dofs, s.bodies);
  appendf(out, "  joint DoFs       %d (%d actuated, %d passive, %d limited)\n", s.joint_dofs,
          s.actuated_dofs, s.passive_dofs, s.limited_dofs);
  appendf(out, "  geometries       %d: %s\n", s.geometries, shape_counts(s).c_str());
  out += "\nbodies\n";
  appendf(out, "  %4s  %-20s %12s  %38s %6s\n", "#", "name", "mass [kg]",
          "inertia diagonal [kg m^2]", "geoms");
  for (size_t i = 0; i < s.body_list.size(); ++i) {
    const BodySummary& b = s.body_list[i];
    appendf(out, "  %4zu  %-20s %12.6g  %12.6g %12.6g %12.6g %6d\n", i, b.name.c_str(), b.mass,
            b.inertia_diag.x(), b.inertia_diag.y(), b.inertia_diag.z(), b.geometries);
  }
  if (s.joint_list.empty()) return out;
  out += "\njoints\n";
  appendf(out, "  %4s  %-20s %-12s %-20s %-20s %4s %4s %8s %7s\n", "#", "name", "type", "base",
          "follower", "rows", "dofs", "actuated", "limited");
  for (size_t i = 0; i < s.joint_list.size(); ++i) {
    const JointSummary& j = s.joint_list[i];
    appendf(out, "  %4zu  %-20s %-12s %-20s %-20s %4d %4d %8d %7d\n", i, j.name.c_str(),
            j.type.c_str(), j.base.c_str(), j.follower.c_str(), j.rows, j.dofs, j.actuated_dofs,
            j.limited_dofs);
  }
  return out;
}

}  // namespace moreau
