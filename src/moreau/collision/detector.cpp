// CollisionDetector: world poses and boxes, broadphase (uniform grid, broadphase.hpp; half-spaces
// tested against every box), filtering, narrowphase, persistent ids.
#include <algorithm>
#include <array>
#include <cmath>

#include "moreau/collision/broadphase.hpp"
#include "moreau/collision/closed_mesh.hpp"
#include "moreau/collision/contact.hpp"
#include "moreau/collision/material.hpp"
#include "moreau/collision/mesh_bvh.hpp"
#include "moreau/collision/narrowphase.hpp"
#include "moreau/collision/polyhedron.hpp"
#include "moreau/math/so3.hpp"

namespace moreau {

struct GeomFilter {
  int body;
  uint32_t group, mask;
  bool either;  // Geometry::filter_either
};

struct CollisionWorkspace {
  std::vector<GeomFilter> filter;  // per geometry: body, group, mask
  std::vector<Vec3> center, half;  // local bounds per geometry
  std::vector<MeshBvh> bvh;        // per geometry (empty unless a triangle mesh)
  std::vector<Polyhedron> hull;    // per geometry: convex hull of a triangle mesh (mesh-mesh)
  std::vector<char> has_hull;
  std::vector<ClosedMesh> closed;  // per geometry: closed triangle mesh (mesh_mesh "triangles")
  std::vector<char> has_closed;
  std::vector<std::string> warnings;
  std::vector<uint64_t> excluded;        // sorted body-pair keys that never collide (joints)
  std::vector<uint64_t> excluded_geoms;  // sorted geometry-pair keys (Model::collision_exclusions)
  std::vector<int> bounded, planes;
  std::vector<Pose> X;
  std::vector<Mat3> R;   // X[i].R()
  std::vector<Vec3> bc;  // bounding sphere centre (world) and radius (+ margin / 2)
  std::vector<double> br;
  std::vector<double> radius;  // bounding radius about the bounds' centre (local, fixed)
  std::vector<Vec3> lo, hi;
  GridBroadphase grid;
  std::vector<std::pair<int, int>> pairs, sorted_pairs;
  std::vector<int> pair_start, pair_fill;  // counting sort of the pairs by their first geometry
  std::vector<ContactPoint> pts;
  std::vector<Contact> contacts;
  // Temporal coherence: each pair's first contact normal of the last step, sorted by pair key
  // (the pairs' order), and this step's, swapped after the narrowphase.
  std::vector<uint64_t> hint_key, next_key;
  std::vector<Vec3> hint_normal, next_normal;
  std::vector<HullPairCache> hint_cache, next_cache;  // convex pairs' last answers, beside them
  // Each convex pair without contacts: the direction that proved it separated (collide's
  // separation), sorted by pair key; a pair it still separates by the margin skips the
  // narrowphase (robot links near each other: GJK on most of the broad phase's pairs otherwise).
  std::vector<uint64_t> sep_key, next_sep_key;
  std::vector<Vec3> sep_dir, next_sep_dir;
  // Beside them, the hull vertices the two support evaluations ended on (PlacedShape::climb),
  // where the next step's climbs start: one or two steps on a hull of thousands of vertices.
  std::vector<std::array<int, 2>> sep_climb, next_sep_climb;
};

namespace {
// Unordered pair of bodies (-1: the world) or geometries as one sortable key.
uint64_t pair_key(int a, int b) {
  if (a > b) std::swap(a, b);
  return (static_cast<uint64_t>(a + 1) << 32) | static_cast<uint64_t>(b + 1);
}
}  // namespace

uint64_t contact_id(int geom_a, int geom_b, uint32_t feature) {
  return (static_cast<uint64_t>(geom_a) << 42) | (static_cast<uint64_t>(geom_b) << 20) |
         (feature & 0xFFFFFu);
}

const char* mesh_mesh_name(MeshMeshMode m) {
  return m == MeshMeshMode::Triangles ? "triangles" : "hull";
}

bool parse_mesh_mesh(const std::string& name, MeshMeshMode* out) {
  if (name == "hull") return *out = MeshMeshMode::Hull, true;
  if (name == "triangles") return *out = MeshMeshMode::Triangles, true;
  return false;
}

CollisionDetector::CollisionDetector(const Model& model, const CollisionSettings& settings)
    : model_(&model), ws_(std::make_unique<CollisionWorkspace>()) {
  const auto& geoms = model.geometries();
  const int ng = static_cast<int>(geoms.size());
  CollisionWorkspace& w = *ws_;
  w.center.resize(ng);
  w.half.resize(ng);
  w.bvh.resize(ng);
  w.X.resize(ng);
  w.R.resize(ng);
  w.bc.resize(ng);
  w.br.resize(ng);
  w.radius.assign(ng, 0.0);
  w.lo.resize(ng);
  w.hi.resize(ng);
  for (int i = 0; i < ng; ++i) {
    const Geometry& g = geoms[i];
    w.filter.push_back({g.body, g.group, g.mask, g.filter_either});
    if (g.type == ShapeType::Plane) {
      w.planes.push_back(i);
      continue;
    }
    local_bounds(g, &w.center[i], &w.half[i]);
    w.radius[i] = bounding_radius(g, w.half[i]);
    if (g.type == ShapeType::TriangleMesh && g.mesh) w.bvh[i] = MeshBvh(*g.mesh);
    w.bounded.push_back(i);
  }
  // Mesh-mesh pairs collide through the convex hulls (qhull), computed once here.
  w.hull.resize(ng);
  w.has_hull.assign(ng, 0);
  int meshes = 0;
  for (const Geometry& g : geoms) meshes += g.type == ShapeType::TriangleMesh && g.mesh;
  for (int i = 0; i < ng && meshes > 1; ++i) {
    const Geometry& g = geoms[i];
    if (g.type != ShapeType::TriangleMesh || !g.mesh) continue;
    Result<Polyhedron> h = hull_polyhedron(*g.mesh);
    if (h) {
      w.hull[i] = std::move(*h);
      w.has_hull[i] = 1;
    } else {
      w.warnings.push_back("geometry '" + g.name + "' (triangle mesh): no convex hull (" +
                           h.error().message() +
                           "); its pairs with other triangle meshes produce no contacts");
    }
  }
  // Triangle-level mesh-mesh contacts need closed, orientable meshes (closed_mesh.hpp).
  w.closed.resize(ng);
  w.has_closed.assign(ng, 0);
  for (int i = 0; i < ng && meshes > 1; ++i) {
    const Geometry& g = geoms[i];
    if (g.type != ShapeType::TriangleMesh || !g.mesh) continue;
    Result<ClosedMesh> c = make_closed_mesh(*g.mesh, "geometry '" + g.name + "' (triangle mesh)");
    if (c) {
      w.closed[i] = std::move(*c);
      w.has_closed[i] = 1;
    } else if (settings.mesh_mesh == MeshMeshMode::Triangles) {
      w.warnings.push_back(c.error().message() +
                           "; its mesh-mesh pairs collide through the convex hulls, not triangle "
                           "by triangle (collision.mesh_mesh = \"triangles\")");
    }
  }
  for (const Joint& j : model.joints())
    if (!j.collide_connected) w.excluded.push_back(pair_key(j.base, j.follower));
  std::sort(w.excluded.begin(), w.excluded.end());
  for (const auto& [a, b] : model.collision_exclusions())  // sorted by Model: so are the keys
    w.excluded_geoms.push_back(pair_key(a, b));
}

const std::vector<std::string>& CollisionDetector::warnings() const {
  return ws_->warnings;
}

CollisionDetector::~CollisionDetector() = default;
CollisionDetector::CollisionDetector(CollisionDetector&&) noexcept = default;
CollisionDetector& CollisionDetector::operator=(CollisionDetector&&) noexcept = default;

// Filtering: different bodies (not both the world), group/mask both ways (either way where both
// geometries take MuJoCo's rule, Geometry::filter_either), not an excluded pair
// (Model::collision_exclusions), no joint between them
// unless Joint::collide_connected. Reads the compact per-geometry copies (cache friendly).
static bool may_collide(const CollisionWorkspace& w, int i, int j) {
  const GeomFilter& a = w.filter[i];
  const GeomFilter& b = w.filter[j];
  if (a.body == b.body) return false;
  const bool ab = a.group & b.mask, ba = b.group & a.mask;
  if (a.either && b.either ? !(ab || ba) : !(ab && ba)) return false;
  if (!w.excluded_geoms.empty() &&
      std::binary_search(w.excluded_geoms.begin(), w.excluded_geoms.end(), pair_key(i, j)))
    return false;
  return w.excluded.empty() ||
         !std::binary_search(w.excluded.begin(), w.excluded.end(), pair_key(a.body, b.body));
}

// A is the world geometry if there is one, else the lower index.
static std::pair<int, int> canonical(const CollisionWorkspace& w, int i, int j) {
  const int bi = w.filter[i].body, bj = w.filter[j].body;
  if (bj < 0 && bi >= 0) return {j, i};
  if (bi < 0 && bj >= 0) return {i, j};
  return {std::min(i, j), std::max(i, j)};
}

// Sorts the pairs (a, b) lexicographically in O(pairs + geometries): a counting sort on a, then
// each a's few partners sorted by b. Same order as std::sort, without its log factor.
static void sort_pairs(CollisionWorkspace& w) {
  const size_t ng = w.filter.size();
  w.pair_start.assign(ng + 1, 0);
  for (const auto& pr : w.pairs) ++w.pair_start[pr.first + 1];
  for (size_t a = 0; a < ng; ++a) w.pair_start[a + 1] += w.pair_start[a];
  w.pair_fill.assign(w.pair_start.begin(), w.pair_start.end() - 1);
  w.sorted_pairs.resize(w.pairs.size());
  for (const auto& pr : w.pairs) w.sorted_pairs[w.pair_fill[pr.first]++] = pr;
  for (size_t a = 0; a < ng; ++a)
    if (w.pair_start[a + 1] - w.pair_start[a] > 1)
      std::sort(w.sorted_pairs.begin() + w.pair_start[a],
                w.sorted_pairs.begin() + w.pair_start[a + 1]);
  w.pairs.swap(w.sorted_pairs);
}

static void broadphase(const Model& m, CollisionWorkspace& w, double margin) {
  w.pairs.clear();
  w.grid.overlaps(w.bounded, w.lo, w.hi, [&](int i, int j) {
    if ((w.bc[i] - w.bc[j]).squaredNorm() > (w.br[i] + w.br[j]) * (w.br[i] + w.br[j]))
      return;  // bounding spheres
    if (may_collide(w, i, j)) w.pairs.push_back(canonical(w, i, j));
  });
  for (int p : w.planes) {
    const Vec3 n = w.R[p].col(2);
    const double off = n.dot(w.X[p].p);
    for (int j : w.bounded) {
      const Vec3 c = 0.5 * (w.lo[j] + w.hi[j]), h = 0.5 * (w.hi[j] - w.lo[j]);
      if (n.dot(c) - off - n.cwiseAbs().dot(h) >= margin) continue;
      if (may_collide(w, p, j)) w.pairs.push_back(canonical(w, p, j));
    }
  }
  sort_pairs(w);
  // Cells beyond the grid's key range share keys, where a pair can be found twice.
  w.pairs.erase(std::unique(w.pairs.begin(), w.pairs.end()), w.pairs.end());
}

const std::vector<Contact>& CollisionDetector::detect(const State& s,
                                                      const CollisionSettings& settings) {
  const Model& m = *model_;
  CollisionWorkspace& w = *ws_;
  const auto& geoms = m.geometries();
  const double margin = settings.margin;
  const bool triangles = settings.mesh_mesh == MeshMeshMode::Triangles;
  for (size_t i = 0; i < geoms.size(); ++i) {
    const Geometry& g = geoms[i];
    w.X[i] = g.body < 0 ? g.pose : s.pose(g.body) * g.pose;
    w.R[i] = w.X[i].R();
  }
  for (int i : w.bounded) {
    tight_world_aabb(geoms[i], w.center[i], w.half[i], w.X[i], w.R[i], &w.lo[i], &w.hi[i]);
    w.bc[i] = w.X[i].p + w.R[i] * w.center[i];
    w.br[i] = w.radius[i] + 0.5 * margin;
    w.lo[i].array() -= 0.5 * margin;
    w.hi[i].array() += 0.5 * margin;
  }
  broadphase(m, w, margin);
  w.contacts.clear();
  w.next_key.clear();
  w.next_normal.clear();
  w.next_cache.clear();
  w.next_sep_key.clear();
  w.next_sep_dir.clear();
  w.next_sep_climb.clear();
  size_t h = 0, sp = 0;  // walk the last step's hints and separations alongside the pairs (sorted)
  for (const auto& [ga, gb] : w.pairs) {
    w.pts.clear();
    const uint64_t key = (static_cast<uint64_t>(ga) << 32) | static_cast<uint64_t>(gb);
    while (sp < w.sep_key.size() && w.sep_key[sp] < key) ++sp;
    if (sp < w.sep_key.size() && w.sep_key[sp] == key) {
      const PlacedShape sa{&geoms[ga], w.X[ga], w.R[ga], nullptr, 3, w.sep_climb[sp][0]},
          sb{&geoms[gb], w.X[gb], w.R[gb], nullptr, 3, w.sep_climb[sp][1]};
      if (separated_along(sa, sb, w.sep_dir[sp], margin)) {
        w.next_sep_key.push_back(key);
        w.next_sep_dir.push_back(w.sep_dir[sp]);
        w.next_sep_climb.push_back({sa.climb, sb.climb});
        continue;
      }
    }
    while (h < w.hint_key.size() && w.hint_key[h] < key) ++h;
    const bool hinted = h < w.hint_key.size() && w.hint_key[h] == key;
    Vec3 sep = Vec3::Zero();
    HullPairCache cache = hinted ? w.hint_cache[h] : HullPairCache{};
    collide({&geoms[ga], w.X[ga], &w.bvh[ga], &w.R[ga], w.has_hull[ga] ? &w.hull[ga] : nullptr,
             triangles && w.has_closed[ga] ? &w.closed[ga] : nullptr},
            {&geoms[gb], w.X[gb], &w.bvh[gb], &w.R[gb], w.has_hull[gb] ? &w.hull[gb] : nullptr,
             triangles && w.has_closed[gb] ? &w.closed[gb] : nullptr},
            margin, w.pts, hinted ? &w.hint_normal[h] : nullptr, &sep, &cache);
    if (w.pts.empty() && sep.squaredNorm() > 0.0) {
      w.next_sep_key.push_back(key);
      w.next_sep_dir.push_back(sep);
      w.next_sep_climb.push_back({-1, -1});
    }
    if (!w.pts.empty()) {
      w.next_key.push_back(key);
      w.next_normal.push_back(w.pts.front().normal);
      w.next_cache.push_back(cache);
    }
    std::sort(w.pts.begin(), w.pts.end(),
              [](const ContactPoint& a, const ContactPoint& b) { return a.feature < b.feature; });
    const double mu = combine_friction(geoms[ga].material, geoms[gb].material);
    const double e = combine_restitution(geoms[ga].material, geoms[gb].material);
    const double k = combine_stiffness(geoms[ga].material, geoms[gb].material);
    const double tau = combine_tau_d(geoms[ga].material, geoms[gb].material);
    for (const ContactPoint& p : w.pts) {
      Contact& c = w.contacts.emplace_back();
      c.geom[0] = ga;
      c.geom[1] = gb;
      c.body[0] = geoms[ga].body;
      c.body[1] = geoms[gb].body;
      c.point = p.point;
      c.normal = p.normal;
      c.gap = p.gap;
      c.frame = frame_from_normal(p.normal);
      c.mu = mu;
      c.restitution = e;
      c.stiffness = k;
      c.tau_d = tau;
      c.id = contact_id(ga, gb, p.feature);
    }
  }
  w.hint_key.swap(w.next_key);
  w.hint_normal.swap(w.next_normal);
  w.hint_cache.swap(w.next_cache);
  w.sep_key.swap(w.next_sep_key);
  w.sep_dir.swap(w.next_sep_dir);
  w.sep_climb.swap(w.next_sep_climb);
  return w.contacts;
}

}  // namespace moreau
