#include "moreau/viewer/viewer_html.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

// The embedded assets (cmake/viewer_assets.cmake): three.js and the viewer's own files.
extern const char moreau_asset_three_js[];
extern const std::size_t moreau_asset_three_js_size;
extern const char moreau_asset_viewer_js[];
extern const std::size_t moreau_asset_viewer_js_size;
extern const char moreau_asset_viewer_html[];
extern const std::size_t moreau_asset_viewer_html_size;

namespace moreau::viewer {

namespace {

using ojson = nlohmann::ordered_json;

std::string_view asset(const char* data, std::size_t size) {
  return {data, size};
}

ojson vec(const Vec3& v) {
  return ojson::array({v.x(), v.y(), v.z()});
}
ojson quat(const Quat& q) {
  return ojson::array({q.w(), q.x(), q.y(), q.z()});
}

template <class T>
std::string base64_of(const std::vector<T>& v) {
  return base64(v.data(), v.size() * sizeof(T));
}

// Half extents of the uniform box with the body's mass and principal moments (the inertia
// ellipsoid's stand-in, as MuJoCo draws bodies without geometry): I_xx = m (b^2 + c^2) / 3 ...
Vec3 inertia_box(const Body& b) {
  const Vec3 I = b.inertia.diagonal();
  const double m = b.mass > 0.0 ? b.mass : 1.0;
  Vec3 h;
  for (int k = 0; k < 3; ++k) {
    const double s = 1.5 * (I.sum() - 2.0 * I[k]) / m;  // a_k^2
    h[k] = std::sqrt(std::max(s, 1e-6));
  }
  return h;
}

// The model as the viewer draws it: bodies, geometries (with their meshes, each once),
// joint frames.
ojson model_json(const Model& m) {
  ojson j;
  ojson bodies = ojson::array();
  for (int b = 0; b < m.num_bodies(); ++b) {
    ojson o;
    o["name"] = m.bodies()[b].name;
    if (m.body_geometries(b).empty()) o["box"] = vec(inertia_box(m.bodies()[b]));
    bodies.push_back(o);
  }
  j["bodies"] = bodies;
  ojson geoms = ojson::array(), meshes = ojson::array();
  std::map<const MeshData*, int> mesh_index;
  for (const Geometry& g : m.geometries()) {
    ojson o;
    o["name"] = g.name;
    o["body"] = g.body;
    o["type"] = shape_name(g.type);
    o["p"] = vec(g.pose.p);
    o["q"] = quat(g.pose.q);
    switch (g.type) {
      case ShapeType::Sphere:
        o["radius"] = g.radius;
        break;
      case ShapeType::Capsule:
      case ShapeType::Cylinder:
        o["radius"] = g.radius;
        o["half_length"] = g.half_length;
        break;
      case ShapeType::Box:
      case ShapeType::Ellipsoid:
        o["half_extents"] = vec(g.half_extents);
        break;
      case ShapeType::ConvexMesh:
      case ShapeType::TriangleMesh: {
        if (!g.mesh) break;
        auto [it, added] = mesh_index.emplace(g.mesh.get(), int(meshes.size()));
        if (added) {
          std::vector<float> v;
          std::vector<uint32_t> t;
          for (const Vec3& x : g.mesh->vertices)
            v.insert(v.end(), {float(x.x()), float(x.y()), float(x.z())});
          for (const auto& tri : g.mesh->triangles)
            t.insert(t.end(), {uint32_t(tri[0]), uint32_t(tri[1]), uint32_t(tri[2])});
          meshes.push_back({{"vertices", base64_of(v)}, {"triangles", base64_of(t)}});
        }
        o["mesh"] = it->second;
        break;
      }
      case ShapeType::HeightField: {
        // The terrain's top surface, two triangles per cell (docs/collision.md), as a mesh.
        if (!g.hfield) break;
        const HeightFieldData& hf = *g.hfield;
        std::vector<float> v;
        std::vector<uint32_t> t;
        for (int r = 0; r < hf.nrow; ++r)
          for (int c = 0; c < hf.ncol; ++c) {
            const Vec3 x = hf.point(r, c);
            v.insert(v.end(), {float(x.x()), float(x.y()), float(x.z())});
          }
        for (int r = 0; r + 1 < hf.nrow; ++r)
          for (int c = 0; c + 1 < hf.ncol; ++c) {
            const uint32_t a = r * hf.ncol + c, b = a + 1, d = a + hf.ncol, e = d + 1;
            t.insert(t.end(), {a, b, e, a, e, d});
          }
        o["mesh"] = int(meshes.size());
        meshes.push_back({{"vertices", base64_of(v)}, {"triangles", base64_of(t)}});
        break;
      }
      case ShapeType::Plane:
        break;
    }
    geoms.push_back(o);
  }
  j["geoms"] = geoms;
  j["meshes"] = meshes;
  ojson joints = ojson::array();
  for (const Joint& jt : m.joints())
    joints.push_back({{"name", jt.name},
                      {"type", joint_type_name(jt.type)},
                      {"base", jt.base},
                      {"follower", jt.follower},
                      {"p", vec(jt.frame_follower.p)},
                      {"q", quat(jt.frame_follower.q)}});
  j["joints"] = joints;
  return j;
}

// JSON inside <script>: "</" would end the element early.
std::string script_safe(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    out += json[i];
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') out += "\\";
  }
  return out;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void replace_once(std::string& s, std::string_view key, std::string_view value) {
  const size_t at = s.find(key);
  if (at != std::string::npos) s.replace(at, key.size(), value);
}

std::string page(const std::string& title, const ojson& data) {
  std::string html(asset(moreau_asset_viewer_html, moreau_asset_viewer_html_size));
  replace_once(html, "<!--MOREAU_TITLE-->", html_escape(title));
  // The data first: the scripts are large and must not be searched for the placeholders.
  replace_once(html, "/*MOREAU_DATA*/", script_safe(data.dump()));
  const size_t three = html.find("/*MOREAU_THREE_JS*/");
  const std::string_view js = asset(moreau_asset_viewer_js, moreau_asset_viewer_js_size);
  replace_once(html, "/*MOREAU_VIEWER_JS*/", js);
  if (three != std::string::npos)
    html.replace(three, std::string_view("/*MOREAU_THREE_JS*/").size(),
                 asset(moreau_asset_three_js, moreau_asset_three_js_size));
  return html;
}

}  // namespace

bool available() {
  return moreau_asset_three_js_size > 0;
}

std::string base64(const void* data, size_t bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto* p = static_cast<const unsigned char*>(data);
  std::string out;
  out.reserve((bytes + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes; i += 3) {
    const uint32_t v = (uint32_t(p[i]) << 16) | (uint32_t(p[i + 1]) << 8) | p[i + 2];
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < bytes) {
    uint32_t v = uint32_t(p[i]) << 16;
    if (i + 1 < bytes) v |= uint32_t(p[i + 1]) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::vector<int> kept_frames(int n, int max_frames) {
  std::vector<int> out;
  if (n <= 0) return out;
  const int cap = std::max(max_frames, 2);
  const int stride = n <= cap ? 1 : (n - 1 + cap - 2) / (cap - 1);  // ceil((n - 1) / (cap - 1))
  for (int f = 0; f < n; f += stride) out.push_back(f);
  if (out.back() != n - 1) out.push_back(n - 1);
  return out;
}

std::string viewer_html(const Model& model, const RunInfo& info, const Recording& rec,
                        const HtmlOptions& options) {
  const int nb = rec.num_bodies;
  const std::vector<int> keep = kept_frames(rec.frames(), options.max_frames);
  std::vector<double> t;
  std::vector<float> pose;
  std::vector<uint32_t> begin{0};
  std::vector<float> contacts;
  t.reserve(keep.size());
  pose.reserve(keep.size() * 7 * size_t(nb));
  for (int f : keep) {
    t.push_back(rec.t[f]);
    pose.insert(pose.end(), rec.pose.begin() + size_t(f) * 7 * nb,
                rec.pose.begin() + size_t(f + 1) * 7 * nb);
    if (rec.has_contacts) {
      contacts.insert(contacts.end(), rec.contacts.begin() + 6 * size_t(rec.contact_begin[f]),
                      rec.contacts.begin() + 6 * size_t(rec.contact_begin[f + 1]));
      begin.push_back(uint32_t(contacts.size() / 6));
    }
  }
  ojson data;
  data["format"] = "moreau-viewer-1";
  data["scene"] = info.scene;
  data["solver"] = info.solver;
  data["integrator"] = info.integrator;
  data["dt"] = info.dt;
  data["model"] = model_json(model);
  ojson frames;
  frames["count"] = keep.size();
  frames["recorded"] = rec.frames();
  frames["t"] = base64_of(t);
  frames["pose"] = base64_of(pose);
  if (rec.has_contacts) {
    frames["contact_begin"] = base64_of(begin);
    frames["contacts"] = base64_of(contacts);
  }
  data["frames"] = frames;
  std::string title = "moreau: " + info.scene;
  if (!info.solver.empty()) title += " (" + info.solver + ")";
  return page(title, data);
}

std::string gallery_html(const std::vector<GallerySystem>& systems, int columns, int tile_width,
                         int tile_height) {
  ojson gallery = ojson::array();
  for (const GallerySystem& s : systems) {
    Recording rec(s.model->num_bodies(), false);
    rec.add_frame(*s.state);
    ojson o;
    o["scene"] = s.name;
    o["model"] = model_json(*s.model);
    o["frames"] = {
        {"count", 1}, {"recorded", 1}, {"t", base64_of(rec.t)}, {"pose", base64_of(rec.pose)}};
    gallery.push_back(o);
  }
  ojson data;
  data["format"] = "moreau-viewer-1";
  data["gallery"] = gallery;
  data["columns"] = columns;
  data["tile"] = {tile_width, tile_height};
  return page("moreau: the systems", data);
}

}  // namespace moreau::viewer
