// Entry points of the fuzz targets (fuzz/targets.hpp). Paths in the inputs (meshes, included
// files, model files of a scene) resolve against tests/data and the current directory: run from
// the repository root.
#include "targets.hpp"

#include <unistd.h>
#include <cstdio>
#include <string>

#include "moreau/collision/mesh_io.hpp"
#include "moreau/io/fclib.hpp"
#include "moreau/io/png_gray.hpp"
#include "moreau/io/problem_io.hpp"
#include "moreau/io/scene.hpp"
#include "moreau/io/urdf_mjcf.hpp"

namespace moreau::fuzz {

namespace {

std::string bytes(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// The file loaders read paths: the input goes to a file of this process (one per extension).
class TempFile {
 public:
  TempFile(const uint8_t* data, size_t size, const char* ext)
      : path_("/tmp/moreau-fuzz-" + std::to_string(::getpid()) + ext) {
    if (std::FILE* f = std::fopen(path_.c_str(), "wb")) {
      if (size) std::fwrite(data, 1, size, f);
      std::fclose(f);
    }
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void check_scene(const Scene& s) {
  if (s.model.num_bodies() != s.initial.num_bodies()) __builtin_trap();
}

void check_problem(const Problem& p) {
  if (!p.validate().empty()) __builtin_trap();  // the loaders promise a validated Problem
}

// A loaded mesh's promises: finite vertices, every triangle's indices among them; the same of its
// hull, which must hold at least a tetrahedron.
void check_mesh(const MeshData& m, size_t min_triangles) {
  if (m.triangles.size() < min_triangles) __builtin_trap();
  for (const Vec3& v : m.vertices)
    if (!v.allFinite()) __builtin_trap();
  for (const auto& t : m.triangles)
    for (int i : t)
      if (i < 0 || static_cast<size_t>(i) >= m.vertices.size()) __builtin_trap();
}

bool mesh(const uint8_t* data, size_t size, const char* ext) {
  const TempFile f(data, size, ext);
  Result<std::shared_ptr<const MeshData>> r = load_mesh(f.path());
  if (!r) return false;
  check_mesh(**r, 1);
  Result<std::shared_ptr<const MeshData>> hull = convex_hull(**r);
  if (hull) check_mesh(**hull, 4);
  return hull.ok();
}

}  // namespace

bool urdf(const uint8_t* data, size_t size) {
  ImportOptions opt;
  opt.package_paths = {"tests/data"};
  Result<ImportedModel> r = import_urdf_string(bytes(data, size), "fuzz.urdf", opt);
  if (r) check_scene(r->scene);
  return r.ok();
}

bool mjcf(const uint8_t* data, size_t size) {
  Result<ImportedModel> r = import_mjcf_string(bytes(data, size), "fuzz.xml", "tests/data/", {});
  if (r) check_scene(r->scene);
  return r.ok();
}

bool scene(const uint8_t* data, size_t size) {
  Result<Scene> r = parse_scene_json(bytes(data, size), "fuzz.json");
  if (r) check_scene(*r);
  return r.ok();
}

bool fclib(const uint8_t* data, size_t size) {
  const TempFile f(data, size, ".hdf5");
  Result<FclibProblem> r = load_fclib(f.path());
  if (r) check_problem(r->problem);
  return r.ok();
}

bool fclib_in_process(const uint8_t* data, size_t size) {
  const TempFile f(data, size, ".hdf5");
  Result<FclibProblem> r = load_fclib_in_process(f.path());
  if (r) check_problem(r->problem);
  return r.ok();
}

bool problem(const uint8_t* data, size_t size) {
  const TempFile f(data, size, ".mprob");
  Result<Problem> r = load_problem(f.path());
  if (r) check_problem(*r);
  return r.ok();
}

bool stl(const uint8_t* data, size_t size) {
  return mesh(data, size, ".stl");
}

bool obj(const uint8_t* data, size_t size) {
  return mesh(data, size, ".obj");
}

bool png(const uint8_t* data, size_t size) {
  const TempFile f(data, size, ".png");
  Result<GrayImage> r = read_png_gray(f.path());
  if (r && (r->width < 1 || r->height < 1 ||
            r->pixels.size() != static_cast<size_t>(r->width) * static_cast<size_t>(r->height)))
    __builtin_trap();
  return r.ok();
}

}  // namespace moreau::fuzz
