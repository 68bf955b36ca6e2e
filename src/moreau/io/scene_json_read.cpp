// Reader of the native JSON scene format (docs/scene-format.md): bodies, geometries, joints,
// materials, initial state, gravity and simulation settings. Every error names the file, the line
// when known, the element ("bodies[2] 'arm'.mass"), what was expected and what was found.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "moreau/collision/mesh_io.hpp"
#include "moreau/io/scene.hpp"
#include "moreau/io/scene_json_parts.hpp"
#include "moreau/io/scene_json_util.hpp"
#include "moreau/model/primitives.hpp"

namespace moreau {

namespace scene_json {
namespace {

class SceneReader {
 public:
  SceneReader(const Reader& r, std::string dir) : r_(r), dir_(std::move(dir)) {}
  Scene read(const json& root);

 private:
  void read_materials(const json& j, const Loc& at);
  Material material(const json& j, const Loc& at) const;
  void read_body(const json& j, const Loc& at);
  Mat3 inertia(const json& j, const Loc& at, double mass) const;
  Geometry geometry(const json& j, const Loc& at, int body, bool top_level) const;
  void shape(const json& j, const Loc& at, Geometry& g) const;
  void mesh(const json& j, const Loc& at, Geometry& g) const;
  void height_field(const json& j, const Loc& at, Geometry& g) const;

  const Reader& r_;
  std::string dir_;  // mesh files are relative to the scene file's folder
  ModelBuilder mb_;
  State s_;
  std::map<std::string, Material> materials_;
  BodyNames names_;
};

Scene SceneReader::read(const json& root) {
  const Loc top;
  r_.keys(root, top,
          {"version", "name", "description", "gravity", "duration", "start_time", "settings",
           "materials", "bodies", "geometries", "joints", "collision_exclusions"});
  Scene sc;
  sc.source = r_.file();
  if (const json* v = Reader::get(root, "version")) r_.integer(*v, top.key("version"), 1, 1);
  sc.name = "scene";
  if (!r_.file().empty()) sc.name = std::filesystem::path(r_.file()).stem().string();
  if (const json* v = Reader::get(root, "name")) sc.name = r_.string(*v, top.key("name"));
  if (const json* v = Reader::get(root, "description"))
    r_.string(*v, top.key("description"), false);
  mb_ = ModelBuilder(sc.name);
  if (const json* v = Reader::get(root, "gravity"))
    mb_.set_gravity(r_.vec3(*v, top.key("gravity")));
  if (const json* v = Reader::get(root, "duration"))
    sc.duration = r_.number(*v, top.key("duration"), Range::Positive);
  if (const json* v = Reader::get(root, "start_time")) s_.t = r_.number(*v, top.key("start_time"));
  if (const json* v = Reader::get(root, "settings"))
    sc.settings = read_settings(r_, *v, top.key("settings"));
  if (const json* v = Reader::get(root, "materials")) read_materials(*v, top.key("materials"));
  const json* bodies = Reader::get(root, "bodies");
  if (!bodies) r_.fail(top, "a \"bodies\" array", "none");
  r_.array(*bodies, top.key("bodies"));
  for (size_t i = 0; i < bodies->size(); ++i)
    read_body((*bodies)[i], top.key("bodies").at(static_cast<int>(i)));
  if (const json* v = Reader::get(root, "geometries")) {
    r_.array(*v, top.key("geometries"));
    for (size_t i = 0; i < v->size(); ++i)
      mb_.add_geometry(geometry((*v)[i], top.key("geometries").at(static_cast<int>(i)), -1, true));
  }
  if (const json* v = Reader::get(root, "joints")) {
    r_.array(*v, top.key("joints"));
    for (size_t i = 0; i < v->size(); ++i)
      mb_.add_joint(read_joint(r_, (*v)[i], top.key("joints").at(static_cast<int>(i)),
                               static_cast<int>(i), mb_, names_, s_));
  }
  if (const json* v = Reader::get(root, "collision_exclusions")) {
    const Loc at = top.key("collision_exclusions");
    r_.array(*v, at);
    for (size_t i = 0; i < v->size(); ++i) {
      const json& pair = (*v)[i];
      const Loc pi = at.at(static_cast<int>(i));
      if (!pair.is_array() || pair.size() != 2)
        r_.fail(pi, "a pair of geometry indices [a, b]", describe(pair));
      const int last = static_cast<int>(mb_.num_geometries()) - 1;
      const int a = r_.integer(pair[0], pi.at(0), 0, last);
      const int b = r_.integer(pair[1], pi.at(1), 0, last);
      if (a == b) r_.fail(pi, "two different geometries", "the same one twice");
      mb_.exclude_collisions(a, b);
    }
  }
  Result<Model> m = mb_.build();  // backstop: every element was validated on the way
  if (!m) r_.fail(top, m.error());
  sc.model = std::move(*m);
  sc.initial = std::move(s_);
  return sc;
}

void SceneReader::read_materials(const json& j, const Loc& at) {
  if (!j.is_object()) r_.fail(at, "an object of named materials", describe(j));
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key().empty()) r_.fail(at, "non-empty material names", "\"\"");
    materials_[it.key()] = material(it.value(), at.key(it.key()));
  }
}

Material SceneReader::material(const json& j, const Loc& at) const {
  if (j.is_string()) {
    const std::string name = j.get<std::string>();
    auto it = materials_.find(name);
    if (it == materials_.end()) {
      std::string names;
      for (const auto& [n, m] : materials_) names += (names.empty() ? "" : ", ") + n;
      r_.fail(at,
              "a material defined in \"materials\"" +
                  (names.empty() ? std::string(" (none defined)") : " (" + names + ")"),
              "\"" + name + "\"");
    }
    return it->second;
  }
  r_.keys(j, at, {"friction", "restitution", "stiffness", "tau_d"});
  Material m;
  if (const json* v = Reader::get(j, "friction"))
    m.friction = r_.number(*v, at.key("friction"), Range::NonNegative);
  if (const json* v = Reader::get(j, "restitution"))
    m.restitution = r_.number(*v, at.key("restitution"), Range::Unit);
  // SAP's compliant contact (docs/scene-format.md): k [N/m] > 0, tau_d [s] >= 0.
  if (const json* v = Reader::get(j, "stiffness"))
    m.stiffness = r_.number(*v, at.key("stiffness"), Range::Positive);
  if (const json* v = Reader::get(j, "tau_d"))
    m.tau_d = r_.number(*v, at.key("tau_d"), Range::NonNegative);
  return m;
}

void SceneReader::read_body(const json& j, const Loc& at0) {
  r_.keys(j, at0.named_by(j),
          {"name", "mass", "inertia", "position", "orientation", "linear_velocity",
           "angular_velocity", "geometries"});
  const json* nm = Reader::get(j, "name");
  if (!nm) r_.fail(at0, "a \"name\"", "none");
  Body b;
  b.name = r_.string(*nm, at0.key("name"));
  if (b.name == "world")
    r_.fail(at0.key("name"), "a body name other than \"world\" (it names the world)", "\"world\"");
  if (auto it = names_.find(b.name); it != names_.end())
    r_.fail(at0.key("name"), "a unique body name",
            "\"" + b.name + "\" again (also bodies[" + std::to_string(it->second) + "])");
  const Loc at = at0.named(b.name);
  const json* mass = Reader::get(j, "mass");
  if (!mass) r_.fail(at, "a \"mass\" [kg]", "none");
  b.mass = r_.number(*mass, at.key("mass"), Range::Positive);
  const json* in = Reader::get(j, "inertia");
  if (!in)
    r_.fail(at,
            "an \"inertia\" (3 principal moments, a 3x3 matrix, or "
            "{\"box\"|\"sphere\"|\"cylinder\": ...})",
            "none");
  b.inertia = inertia(*in, at.key("inertia"), b.mass);
  if (auto e = validate_body(b, at.label)) {
    e->element = at.key("inertia").label;  // the mass was checked above
    r_.fail(at.key("inertia"), *e);
  }
  Vec3 r = Vec3::Zero();
  Quat q = Quat::Identity();
  Vec6 u = Vec6::Zero();
  if (const json* v = Reader::get(j, "position")) r = r_.vec3(*v, at.key("position"));
  if (const json* v = Reader::get(j, "orientation")) q = r_.quat(*v, at.key("orientation"));
  if (const json* v = Reader::get(j, "linear_velocity"))
    u.head<3>() = r_.vec3(*v, at.key("linear_velocity"));
  if (const json* v = Reader::get(j, "angular_velocity"))
    u.tail<3>() = r_.vec3(*v, at.key("angular_velocity"));
  const int index = add_body(mb_, s_, std::move(b), r, q, u);
  names_.emplace(mb_.body(index).name, index);
  if (const json* v = Reader::get(j, "geometries")) {
    r_.array(*v, at.key("geometries"));
    for (size_t i = 0; i < v->size(); ++i)
      mb_.add_geometry(
          geometry((*v)[i], at.key("geometries").at(static_cast<int>(i)), index, false));
  }
}

Mat3 SceneReader::inertia(const json& j, const Loc& at, double mass) const {
  if (j.is_object()) {
    r_.keys(j, at, {"box", "sphere", "cylinder"});
    if (j.size() != 1) r_.fail(at, "exactly one of \"box\", \"sphere\", \"cylinder\"", describe(j));
    if (const json* v = Reader::get(j, "box")) {
      const Vec3 h = r_.vec3(*v, at.key("box"));
      for (int k = 0; k < 3; ++k) r_.number((*v)[k], at.key("box").at(k), Range::Positive);
      return box_body("", mass, h).inertia;
    }
    if (const json* v = Reader::get(j, "sphere"))
      return sphere_body("", mass, r_.number(*v, at.key("sphere"), Range::Positive)).inertia;
    const json& c = r_.array(j["cylinder"], at.key("cylinder"), 2);
    const double rad = r_.number(c[0], at.key("cylinder").at(0), Range::Positive);
    const double hl = r_.number(c[1], at.key("cylinder").at(1), Range::Positive);
    return cylinder_body("", mass, rad, hl).inertia;
  }
  if (!j.is_array() || j.size() != 3)
    r_.fail(at,
            "3 principal moments [Ixx, Iyy, Izz], a 3x3 matrix or "
            "{\"box\"|\"sphere\"|\"cylinder\": ...}",
            describe(j));
  if (!j[0].is_array()) {
    const Vec3 d = r_.vec3(j, at);
    return d.asDiagonal();
  }
  Mat3 I;
  for (int row = 0; row < 3; ++row) {
    const Vec3 v = r_.vec3(j[row], at.at(row));
    I.row(row) = v.transpose();
  }
  return I;
}

Geometry SceneReader::geometry(const json& j, const Loc& at0, int body, bool top_level) const {
  if (!j.is_object()) r_.fail(at0, "a geometry object", describe(j));
  Geometry g;
  g.body = body;
  const Loc at = at0.named_by(j);
  const json* type = Reader::get(j, "type");
  if (!type) r_.fail(at, "a geometry \"type\"", "none");
  const std::string t = r_.string(*type, at.key("type"));
  static const std::vector<std::pair<const char*, ShapeType>> kTypes = {
      {"plane", ShapeType::Plane},
      {"sphere", ShapeType::Sphere},
      {"capsule", ShapeType::Capsule},
      {"cylinder", ShapeType::Cylinder},
      {"box", ShapeType::Box},
      {"ellipsoid", ShapeType::Ellipsoid},
      {"convex_mesh", ShapeType::ConvexMesh},
      {"mesh", ShapeType::TriangleMesh},
      {"height_field", ShapeType::HeightField}};
  bool known = false;
  for (const auto& [n, st] : kTypes)
    if (t == n) {
      g.type = st;
      known = true;
    }
  if (!known)
    r_.fail(at.key("type"),
            "one of plane, sphere, capsule, cylinder, box, ellipsoid, convex_mesh, mesh, "
            "height_field",
            "\"" + t + "\"");
  std::vector<std::string> allowed = {"name",     "type",  "position", "orientation",
                                      "material", "group", "mask",     "filter"};
  if (top_level) allowed.push_back("body");
  switch (g.type) {
    case ShapeType::Plane:
      break;
    case ShapeType::Sphere:
      allowed.push_back("radius");
      break;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
      allowed.insert(allowed.end(), {"radius", "half_length"});
      break;
    case ShapeType::Box:
    case ShapeType::Ellipsoid:
      allowed.push_back("half_extents");
      break;
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh:
      allowed.insert(allowed.end(), {"file", "vertices", "triangles"});
      break;
    case ShapeType::HeightField:
      allowed.insert(allowed.end(), {"rows", "cols", "size", "elevation"});
      break;
  }
  r_.keys(j, at, allowed);
  if (const json* v = Reader::get(j, "name")) g.name = r_.string(*v, at0.key("name"), false);
  if (const json* v = Reader::get(j, "body"))
    g.body = body_ref(r_, *v, at.key("body"), mb_, names_, true);
  if (const json* v = Reader::get(j, "position")) g.pose.p = r_.vec3(*v, at.key("position"));
  if (const json* v = Reader::get(j, "orientation")) g.pose.q = r_.quat(*v, at.key("orientation"));
  if (const json* v = Reader::get(j, "material")) g.material = material(*v, at.key("material"));
  if (const json* v = Reader::get(j, "group"))
    g.group = static_cast<uint32_t>(r_.integer64(*v, at.key("group"), 0, 0xffffffffLL));
  if (const json* v = Reader::get(j, "mask"))
    g.mask = static_cast<uint32_t>(r_.integer64(*v, at.key("mask"), 0, 0xffffffffLL));
  if (const json* v = Reader::get(j, "filter")) {
    const std::string f = v->is_string() ? v->get<std::string>() : "";
    if (f != "both" && f != "either")
      r_.fail(at.key("filter"), "\"both\" or \"either\"", v->dump());
    g.filter_either = f == "either";
  }
  shape(j, at, g);
  if (auto e = validate_geometry(g, mb_.num_bodies(), at.label)) r_.fail(at, *e);
  return g;
}

void SceneReader::shape(const json& j, const Loc& at, Geometry& g) const {
  auto need = [&](const char* key) -> const json& {
    const json* v = Reader::get(j, key);
    if (!v) r_.fail(at, std::string("a \"") + key + "\" for a " + shape_name(g.type), "none");
    return *v;
  };
  switch (g.type) {
    case ShapeType::Plane:
      return;
    case ShapeType::Sphere:
      g.radius = r_.number(need("radius"), at.key("radius"), Range::Positive);
      return;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
      g.radius = r_.number(need("radius"), at.key("radius"), Range::Positive);
      g.half_length = r_.number(need("half_length"), at.key("half_length"), Range::Positive);
      return;
    case ShapeType::Box:
    case ShapeType::Ellipsoid: {
      const json& h = need("half_extents");
      g.half_extents = r_.vec3(h, at.key("half_extents"));
      for (int k = 0; k < 3; ++k) r_.number(h[k], at.key("half_extents").at(k), Range::Positive);
      return;
    }
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh:
      mesh(j, at, g);
      return;
    case ShapeType::HeightField:
      height_field(j, at, g);
      return;
  }
}

// A height field (MJCF's hfield): rows x cols points, size [rx, ry, elevation, base], elevation
// row-major (first row at -y), normalized to [0, 1] on reading; all zeros when absent.
void SceneReader::height_field(const json& j, const Loc& at, Geometry& g) const {
  auto need = [&](const char* key) -> const json& {
    const json* v = Reader::get(j, key);
    if (!v) r_.fail(at, std::string("a \"") + key + "\" for a height_field", "none");
    return *v;
  };
  const int rows = r_.integer(need("rows"), at.key("rows"), 2, 1 << 15);
  const int cols = r_.integer(need("cols"), at.key("cols"), 2, 1 << 15);
  const json& sz = r_.array(need("size"), at.key("size"), 4);
  std::array<double, 4> size{};
  for (int k = 0; k < 4; ++k) size[k] = r_.number(sz[k], at.key("size").at(k), Range::Positive);
  std::vector<double> elevation;
  if (const json* e = Reader::get(j, "elevation")) {
    const Loc eat = at.key("elevation");
    r_.array(*e, eat);
    for (size_t i = 0; i < e->size(); ++i)
      elevation.push_back(r_.number((*e)[i], eat.at(static_cast<int>(i))));
  }
  Result<std::shared_ptr<const HeightFieldData>> h =
      make_height_field(rows, cols, size, std::move(elevation), at.label);
  if (!h) r_.fail(at, h.error());
  g.hfield = *h;
}

// A mesh from a file (OBJ/STL, relative to the scene file) or inline vertices/triangles. A convex
// mesh is the hull of the points unless its triangles are given (then they must be that hull).
void SceneReader::mesh(const json& j, const Loc& at, Geometry& g) const {
  const bool convex = g.type == ShapeType::ConvexMesh;
  const json* file = Reader::get(j, "file");
  const json* verts = Reader::get(j, "vertices");
  const json* tris = Reader::get(j, "triangles");
  if ((file != nullptr) == (verts != nullptr))
    r_.fail(at, "either \"file\" or \"vertices\"", file ? "both" : "neither");
  if (file && tris) r_.fail(at.key("triangles"), "no \"triangles\" with a \"file\"", "both");
  if (file) {
    std::string path = r_.string(*file, at.key("file"));
    if (std::filesystem::path(path).is_relative() && !dir_.empty())
      path = (std::filesystem::path(dir_) / path).string();
    Result<std::shared_ptr<const MeshData>> m = load_mesh(path);
    if (m && convex) m = convex_hull(**m);
    if (!m) r_.fail(at.key("file"), "a readable mesh file (OBJ or STL)", m.error().message());
    g.mesh = *m;
    return;
  }
  const Loc vat = at.key("vertices");
  r_.array(*verts, vat);
  std::vector<Vec3> pts;
  for (size_t i = 0; i < verts->size(); ++i)
    pts.push_back(r_.vec3((*verts)[i], vat.at(static_cast<int>(i))));
  if (!tris && !convex) r_.fail(at, "\"triangles\" for a mesh given by \"vertices\"", "none");
  if (!tris) {
    Result<std::shared_ptr<const MeshData>> m = convex_hull(pts, at.label);
    if (!m) r_.fail(vat, "points spanning a convex hull", m.error().message());
    g.mesh = *m;
    return;
  }
  auto md = std::make_shared<MeshData>();
  md->source = at.label;
  md->vertices = std::move(pts);
  const Loc tat = at.key("triangles");
  r_.array(*tris, tat);
  const long long nv = static_cast<long long>(md->vertices.size());
  for (size_t i = 0; i < tris->size(); ++i) {
    const json& t = r_.array((*tris)[i], tat.at(static_cast<int>(i)), 3);
    std::array<int, 3> tri{};
    for (int k = 0; k < 3; ++k)
      tri[k] = r_.integer(t[k], tat.at(static_cast<int>(i)).at(k), 0, nv - 1);
    md->triangles.push_back(tri);
  }
  if (md->triangles.empty()) r_.fail(tat, "at least one triangle", "none");
  g.mesh = std::move(md);
}

}  // namespace
}  // namespace scene_json

Result<Scene> parse_scene_json(const std::string& text, const std::string& source) {
  using namespace scene_json;
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    const int line = e.byte > 0 ? line_of_offset(text, e.byte - 1) : 0;
    std::string what = e.what();
    const size_t colon = what.find("] ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    if (what.size() > 200) what = what.substr(0, 197) + "...";  // "last read: ..." can be long
    return Error{source, line, "JSON syntax", "valid JSON", what};
  } catch (const json::exception& e) {  // e.g. out_of_range 406: number overflow
    std::string what = e.what();
    const size_t colon = what.find("] ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    int line = 0;
    const size_t q0 = what.find('\''), q1 = what.rfind('\'');
    if (q0 != std::string::npos && q1 > q0) {
      const size_t at = text.find(what.substr(q0 + 1, q1 - q0 - 1));
      if (at != std::string::npos) line = line_of_offset(text, at);
    }
    return Error{source, line, "JSON number", "a finite number", what};
  }
  std::string dup;
  size_t dup_at = 0;
  if (find_duplicate_key(text, &dup, &dup_at))  // nlohmann keeps the last one silently
    return Error{source, line_of_offset(text, dup_at), "JSON object key \"" + dup + "\"",
                 "each key once per object", "a repeated key"};
  try {
    const Reader reader(text, source);
    std::string dir;
    if (!source.empty()) dir = std::filesystem::path(source).parent_path().string();
    SceneReader sr(reader, dir);
    return sr.read(root);
  } catch (const ErrorException& e) {
    return e.error;
  } catch (const json::exception& e) {  // a getter missed a type check: still an Error, not a crash
    return Error{source, 0, "scene", "a valid scene", e.what()};
  }
}

Result<Scene> load_scene_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path, 0, "scene file", "a readable file", "cannot open it"};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Error{path, 0, "scene file", "a readable file", "a read error"};
  return parse_scene_json(ss.str(), path);
}

}  // namespace moreau
