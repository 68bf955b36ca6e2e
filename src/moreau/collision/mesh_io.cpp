// Mesh files (OBJ and STL by moreau's own readers, other formats through assimp's C API), convex
// hulls through qhull's reentrant C API (libqhull_r).
#include "moreau/collision/mesh_io.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "moreau/collision/mesh_obj.hpp"
#include "moreau/collision/mesh_stl.hpp"

#ifdef MOREAU_HAVE_ASSIMP
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#endif
#ifdef MOREAU_HAVE_QHULL
extern "C" {
#include <libqhull_r/qhull_ra.h>
}
#endif

namespace moreau {

namespace {
// Largest |det| over a greedy choice of 4 points: > 0 iff the points span 3D (relative tol).
bool spans_3d(const std::vector<Vec3>& pts, double* scale) {
  if (pts.size() < 4) return false;
  Vec3 lo = pts[0], hi = pts[0];
  for (const Vec3& p : pts) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  *scale = (hi - lo).norm();
  if (!(*scale > 0.0)) return false;
  const double tol = 1e-9 * *scale;
  size_t i1 = 0;
  for (size_t i = 0; i < pts.size(); ++i)
    if ((pts[i] - pts[0]).norm() > (pts[i1] - pts[0]).norm()) i1 = i;
  const Vec3 e1 = pts[i1] - pts[0];
  if (e1.norm() <= tol) return false;
  size_t i2 = 0;
  double best = 0.0;
  for (size_t i = 0; i < pts.size(); ++i) {
    const double a = e1.cross(pts[i] - pts[0]).norm() / e1.norm();
    if (a > best) best = a, i2 = i;
  }
  if (best <= tol) return false;
  const Vec3 nrm = e1.cross(pts[i2] - pts[0]).normalized();
  for (const Vec3& p : pts)
    if (std::abs(nrm.dot(p - pts[0])) > tol) return true;
  return false;
}

// The file name's last 4 characters in lower case (".obj", ".stl").
std::string extension_of(const std::string& path) {
  if (path.size() < 4) return std::string();
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

Result<std::shared_ptr<const MeshData>> checked(std::shared_ptr<MeshData> mesh,
                                                const std::string& path) {
  for (size_t v = 0; v < mesh->vertices.size(); ++v)
    if (!mesh->vertices[v].allFinite())
      return Error{path, 0, "mesh vertex " + std::to_string(v), "finite coordinates", "non-finite"};
  if (mesh->triangles.empty())
    return Error{path, 0, "mesh", "at least one triangle",
                 std::to_string(mesh->vertices.size()) + " vertices, no triangles"};
  return std::shared_ptr<const MeshData>(std::move(mesh));
}
}  // namespace

Result<std::shared_ptr<const MeshData>> load_mesh(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error{path, 0, "mesh file", "a readable OBJ or STL file", "cannot open it"};
  const std::string ext = extension_of(path);
  if (ext == ".obj" || ext == ".stl") {  // moreau's own readers (mesh_obj.hpp, mesh_stl.hpp)
    std::ostringstream text;
    text << f.rdbuf();
    if (f.bad()) return Error{path, 0, "mesh file", "a readable OBJ or STL file", "a read error"};
    Result<std::shared_ptr<MeshData>> mesh =
        ext == ".obj" ? parse_obj(text.str(), path) : parse_stl(text.str(), path);
    if (!mesh) return mesh.error();
    return checked(std::move(*mesh), path);
  }
  f.close();
#ifdef MOREAU_HAVE_ASSIMP
  const aiScene* sc =
      aiImportFile(path.c_str(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!sc) return Error{path, 0, "mesh file", "a readable OBJ or STL file", aiGetErrorString()};
  auto mesh = std::make_shared<MeshData>();
  mesh->source = path;
  for (unsigned m = 0; m < sc->mNumMeshes; ++m) {
    const aiMesh* am = sc->mMeshes[m];
    const int base = static_cast<int>(mesh->vertices.size());
    for (unsigned v = 0; v < am->mNumVertices; ++v)
      mesh->vertices.emplace_back(am->mVertices[v].x, am->mVertices[v].y, am->mVertices[v].z);
    for (unsigned f = 0; f < am->mNumFaces; ++f) {
      const aiFace& face = am->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines are not surfaces
      for (unsigned k = 0; k < 3; ++k)
        if (face.mIndices[k] >= am->mNumVertices) {
          aiReleaseImport(sc);
          return Error{path, 0, "mesh face " + std::to_string(f),
                       "vertex indices below " + std::to_string(am->mNumVertices),
                       std::to_string(face.mIndices[k])};
        }
      mesh->triangles.push_back({base + static_cast<int>(face.mIndices[0]),
                                 base + static_cast<int>(face.mIndices[1]),
                                 base + static_cast<int>(face.mIndices[2])});
    }
  }
  aiReleaseImport(sc);
  return checked(std::move(mesh), path);
#else
  return Error{path, 0, "mesh file", "moreau built with assimp (libassimp-dev)", "no mesh loader"};
#endif
}

void build_vertex_neighbors(MeshData& mesh) {
  const size_t n = mesh.vertices.size();
  std::vector<std::vector<int>> adj(n);
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      adj[t[k]].push_back(t[(k + 1) % 3]);
      adj[t[k]].push_back(t[(k + 2) % 3]);
    }
  mesh.neighbor_start.clear();
  mesh.neighbors.clear();
  mesh.triangle_start.clear();
  mesh.vertex_triangles.clear();
  mesh.climb_starts.clear();
  // A vertex on no triangle would end the support's climb there: no graph then (every vertex).
  if (std::any_of(adj.begin(), adj.end(), [](const auto& a) { return a.empty(); })) return;
  mesh.neighbor_start.push_back(0);
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    mesh.neighbors.insert(mesh.neighbors.end(), a.begin(), a.end());
    mesh.neighbor_start.push_back(static_cast<int>(mesh.neighbors.size()));
  }
  mesh.triangle_start.assign(n + 1, 0);
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) ++mesh.triangle_start[t[k] + 1];
  for (size_t v = 0; v < n; ++v) mesh.triangle_start[v + 1] += mesh.triangle_start[v];
  mesh.vertex_triangles.resize(mesh.triangle_start[n]);
  std::vector<int> fill(mesh.triangle_start.begin(), mesh.triangle_start.end() - 1);
  for (size_t t = 0; t < mesh.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k)
      mesh.vertex_triangles[fill[mesh.triangles[t][k]]++] = static_cast<int>(t);
  for (int k = 0; k < 14; ++k) {
    const Vec3 d =
        k < 6 ? Vec3(Vec3::Unit(k % 3) * (k < 3 ? 1.0 : -1.0))
              : Vec3((k - 6) & 1 ? 1.0 : -1.0, (k - 6) & 2 ? 1.0 : -1.0, (k - 6) & 4 ? 1.0 : -1.0);
    int best = 0;
    for (size_t i = 1; i < n; ++i)
      if (mesh.vertices[i].dot(d) > mesh.vertices[best].dot(d)) best = static_cast<int>(i);
    mesh.climb_starts.push_back(best);
  }
}

Result<std::shared_ptr<const MeshData>> convex_hull(const std::vector<Vec3>& points,
                                                    const std::string& source) {
  for (size_t v = 0; v < points.size(); ++v)
    if (!points[v].allFinite())
      return Error{source, 0, "hull point " + std::to_string(v), "finite coordinates",
                   "non-finite"};
  double scale = 0.0;
  if (!spans_3d(points, &scale))
    return Error{source, 0, "convex hull", "at least 4 non-coplanar points",
                 std::to_string(points.size()) + " points spanning less than 3 dimensions"};
#ifdef MOREAU_HAVE_QHULL
  std::vector<coordT> coords(3 * points.size());
  for (size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k) coords[3 * i + k] = points[i][k];
  qhT qh_storage;
  qhT* qh = &qh_storage;
  FILE* err = std::fopen("/dev/null", "w");
  QHULL_LIB_CHECK
  qh_zero(qh, err);
  char flags[] = "qhull Qt";
  const int code = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False, flags,
                                nullptr, err);
  auto mesh = std::make_shared<MeshData>();
  mesh->source = source;
  if (code == 0) {
    std::vector<int> index(points.size(), -1);
    facetT* facet;
    vertexT* vertex;
    vertexT** vertexp;
    FORALLfacets {
      std::array<int, 3> tri{};
      int k = 0;
      FOREACHvertex_(facet->vertices) {
        const int id = qh_pointid(qh, vertex->point);
        if (index[id] < 0) {
          index[id] = static_cast<int>(mesh->vertices.size());
          mesh->vertices.push_back(points[id]);
        }
        if (k < 3) tri[k] = index[id];
        ++k;
      }
      if (k != 3) continue;
      const Vec3 nrm(facet->normal[0], facet->normal[1], facet->normal[2]);
      const Vec3& a = mesh->vertices[tri[0]];
      if ((mesh->vertices[tri[1]] - a).cross(mesh->vertices[tri[2]] - a).dot(nrm) < 0.0)
        std::swap(tri[1], tri[2]);
      mesh->triangles.push_back(tri);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (err) std::fclose(err);
  if (code != 0 || mesh->triangles.size() < 4)
    return Error{source, 0, "convex hull", "a hull of 4 or more faces",
                 "qhull failed (code " + std::to_string(code) + ")"};
  build_vertex_neighbors(*mesh);
  return std::shared_ptr<const MeshData>(std::move(mesh));
#else
  return Error{source, 0, "convex hull", "moreau built with qhull (libqhull-dev)",
               "no hull library"};
#endif
}

Result<std::shared_ptr<const MeshData>> convex_hull(const MeshData& mesh) {
  return convex_hull(mesh.vertices, mesh.source);
}

}  // namespace moreau
