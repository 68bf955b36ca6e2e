// Writer of the native JSON scene format: explicit joint frames, 3x3 inertias, inline materials
// and meshes, shortest round-trip decimals (so write -> read gives back the same bits).
#include <cmath>

#include "moreau/io/scene.hpp"
#include "moreau/io/scene_json_parts.hpp"

namespace moreau {

namespace scene_json {
namespace {
using ojson = nlohmann::ordered_json;

ojson vec(const Vec3& v) {
  return ojson::array({v.x(), v.y(), v.z()});
}
ojson quat(const Quat& q) {
  return ojson::array({q.w(), q.x(), q.y(), q.z()});
}
ojson pose(const Pose& p) {
  ojson o;
  o["position"] = vec(p.p);
  o["orientation"] = quat(p.q);
  return o;
}

bool scalar_array(const ojson& j) {
  for (const ojson& e : j)
    if (e.is_structured()) return false;
  return true;
}

// An object of numbers and number arrays on one line, or "" when it is nested or too long.
std::string flat_object(const ojson& j) {
  std::string line = "{";
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.value().is_object() || (it.value().is_array() && !scalar_array(it.value()))) return "";
    line += (line.size() > 1 ? ", " : "") + ojson(it.key()).dump() + ": ";
    if (!it.value().is_array()) {
      line += it.value().dump();
      continue;
    }
    line += "[";
    for (size_t i = 0; i < it.value().size(); ++i) line += (i ? ", " : "") + it.value()[i].dump();
    line += "]";
  }
  return line.size() < 90 ? line + "}" : "";
}

// Two-space indentation; arrays of numbers and short flat objects on one line.
void print(const ojson& j, int indent, std::string& out) {
  const std::string pad(indent + 2, ' ');
  const std::string flat = j.is_object() && !j.empty() ? flat_object(j) : std::string();
  if (!flat.empty()) {
    out += flat;
  } else if (j.is_object() && !j.empty()) {
    out += "{\n";
    size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
      out += pad + ojson(it.key()).dump() + ": ";
      print(it.value(), indent + 2, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + "}";
  } else if (j.is_array() && !j.empty()) {
    const bool inline_ = scalar_array(j);
    out += inline_ ? "[" : "[\n";
    for (size_t i = 0; i < j.size(); ++i) {
      if (!inline_) out += pad;
      print(j[i], indent + 2, out);
      if (i + 1 < j.size()) out += inline_ ? ", " : ",\n";
    }
    out += inline_ ? "]" : "\n" + std::string(indent, ' ') + "]";
  } else {
    out += j.dump();
  }
}

ojson write_body(const Model& m, const State& s, int b) {
  const Body& body = m.bodies()[b];
  ojson o;
  o["name"] = m.body_name(b);
  o["mass"] = body.mass;
  o["inertia"] = ojson::array();
  for (int r = 0; r < 3; ++r) o["inertia"].push_back(vec(body.inertia.row(r).transpose()));
  o["position"] = vec(s.r[b]);
  o["orientation"] = quat(s.q[b]);
  o["linear_velocity"] = vec(s.u[b].head<3>());
  o["angular_velocity"] = vec(s.u[b].tail<3>());
  return o;
}

void write_shape(const Geometry& g, ojson& o) {
  switch (g.type) {
    case ShapeType::Plane:
      return;
    case ShapeType::Sphere:
      o["radius"] = g.radius;
      return;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
      o["radius"] = g.radius;
      o["half_length"] = g.half_length;
      return;
    case ShapeType::Box:
    case ShapeType::Ellipsoid:
      o["half_extents"] = vec(g.half_extents);
      return;
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh:
      o["vertices"] = ojson::array();
      o["triangles"] = ojson::array();
      if (!g.mesh) return;
      for (const Vec3& v : g.mesh->vertices) o["vertices"].push_back(vec(v));
      for (const auto& t : g.mesh->triangles)
        o["triangles"].push_back(ojson::array({t[0], t[1], t[2]}));
      return;
    case ShapeType::HeightField: {
      if (!g.hfield) return;
      const HeightFieldData& h = *g.hfield;
      o["rows"] = h.nrow;
      o["cols"] = h.ncol;
      o["size"] = ojson::array({h.rx, h.ry, h.elevation_scale, h.base});
      o["elevation"] = ojson::array();
      for (double e : h.elevation) o["elevation"].push_back(e);
      return;
    }
  }
}

ojson write_geometry(const Model& m, const Geometry& g) {
  ojson o;
  if (!g.name.empty()) o["name"] = g.name;
  o["body"] = m.body_name(g.body);
  o["type"] = shape_name(g.type);
  o["position"] = vec(g.pose.p);
  o["orientation"] = quat(g.pose.q);
  write_shape(g, o);
  o["material"]["friction"] = g.material.friction;
  o["material"]["restitution"] = g.material.restitution;
  if (std::isfinite(g.material.stiffness)) o["material"]["stiffness"] = g.material.stiffness;
  if (!std::isnan(g.material.tau_d)) o["material"]["tau_d"] = g.material.tau_d;
  const Geometry d;
  if (g.group != d.group) o["group"] = g.group;
  if (g.mask != d.mask) o["mask"] = g.mask;
  if (g.filter_either) o["filter"] = "either";
  return o;
}

ojson write_joint(const Model& m, const Joint& j) {
  ojson o;
  o["name"] = j.name;
  o["type"] = joint_type_name(j.type);
  o["base"] = m.body_name(j.base);
  o["follower"] = m.body_name(j.follower);
  o["frame_base"] = pose(j.frame_base);
  o["frame_follower"] = pose(j.frame_follower);
  write_joint_dofs(j, o);
  if (j.collide_connected) o["collide_connected"] = true;
  return o;
}
}  // namespace
}  // namespace scene_json

std::string scene_to_json(const Scene& sc) {
  using namespace scene_json;
  const Model& m = sc.model;
  ojson o;
  o["version"] = 1;
  o["name"] = sc.name.empty() ? m.name() : sc.name;
  o["duration"] = sc.duration;
  if (sc.initial.t != 0.0) o["start_time"] = sc.initial.t;
  o["gravity"] = vec(m.gravity());
  o["settings"] = write_settings(sc.settings);
  o["bodies"] = ojson::array();
  for (int b = 0; b < m.num_bodies(); ++b) o["bodies"].push_back(write_body(m, sc.initial, b));
  o["geometries"] = ojson::array();
  for (const Geometry& g : m.geometries()) o["geometries"].push_back(write_geometry(m, g));
  o["joints"] = ojson::array();
  for (const Joint& j : m.joints()) o["joints"].push_back(write_joint(m, j));
  if (!m.collision_exclusions().empty()) {
    o["collision_exclusions"] = ojson::array();
    for (const auto& [a, b] : m.collision_exclusions()) {
      ojson pair = ojson::array();
      pair.push_back(a);
      pair.push_back(b);
      o["collision_exclusions"].push_back(pair);
    }
  }
  std::string out;
  print(o, 0, out);
  return out + "\n";
}

}  // namespace moreau
