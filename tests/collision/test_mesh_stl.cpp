// moreau's STL reader: binary and ASCII agree on the same solid, joined corners, dropped slivers,
// errors that name the facet or the size, and the same geometry as assimp's STL importer on the
// G1's meshes (the hulls: the same vertex set).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "moreau/collision/mesh_io.hpp"
#include "moreau/collision/mesh_stl.hpp"

#ifdef MOREAU_HAVE_ASSIMP
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#endif

namespace moreau {
namespace {

using Tri = std::array<Vec3, 3>;

// The unit cube's 12 outward triangles, each with its own three corners (36 in all, as STL
// writes them).
std::vector<Tri> cube_triangles() {
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  auto corner = [](int c) { return Vec3(c & 1, (c >> 1) & 1, (c >> 2) & 1); };
  std::vector<Tri> t;
  for (const auto& q : quads) {
    t.push_back({corner(q[0]), corner(q[1]), corner(q[2])});
    t.push_back({corner(q[0]), corner(q[2]), corner(q[3])});
  }
  return t;
}

void put_u32(std::string& s, uint32_t v) {
  for (int k = 0; k < 4; ++k) s.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

// Binary STL: an 80-byte header (here starting with "solid", as many exporters write it), the
// count, then per triangle a normal, three corners (float32, little-endian) and 2 attribute bytes.
std::string binary_stl(const std::vector<Tri>& tris, const std::string& header = "solid cube") {
  std::string s = header;
  s.resize(80, ' ');
  put_u32(s, static_cast<uint32_t>(tris.size()));
  for (const Tri& t : tris) {
    for (int k = 0; k < 3; ++k) put_u32(s, 0);  // normal: not read
    for (const Vec3& p : t)
      for (int c = 0; c < 3; ++c) put_u32(s, std::bit_cast<uint32_t>(static_cast<float>(p[c])));
    s += std::string(2, '\0');
  }
  return s;
}

std::string ascii_stl(const std::vector<Tri>& tris) {
  std::ostringstream s;
  s << "solid cube\n";
  for (const Tri& t : tris) {
    s << "  facet normal 0 0 0\n    outer loop\n";
    for (const Vec3& p : t) s << "      vertex " << p.x() << ' ' << p.y() << ' ' << p.z() << "\n";
    s << "    endloop\n  endfacet\n";
  }
  s << "endsolid cube\n";
  return s.str();
}

double enclosed_volume_of(const MeshData& m) {
  double v = 0.0;
  for (const auto& t : m.triangles)
    v += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])) / 6.0;
  return v;
}

TEST(MeshStl, BinaryAndAsciiReadTheSameJoinedCube) {
  for (const std::string& bytes : {binary_stl(cube_triangles()), ascii_stl(cube_triangles())}) {
    auto m = parse_stl(bytes, "cube.stl");
    ASSERT_TRUE(m) << m.error().message();
    EXPECT_EQ((*m)->vertices.size(), 8u);  // 36 corners joined
    EXPECT_EQ((*m)->triangles.size(), 12u);
    EXPECT_DOUBLE_EQ(enclosed_volume_of(**m), 1.0);  // the corner order (orientation) kept
    // Vertices in the order the triangles first use them: (0,0,0), (0,1,0), (1,1,0), ...
    EXPECT_EQ((*m)->vertices[0], Vec3(0, 0, 0));
    EXPECT_EQ((*m)->vertices[1], Vec3(0, 1, 0));
    EXPECT_EQ((*m)->vertices[2], Vec3(1, 1, 0));
  }
  // The binary header may say anything, "solid" included: the size decides.
  auto m = parse_stl(binary_stl(cube_triangles(), "exported by a CAD tool"), "cube.stl");
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ((*m)->triangles.size(), 12u);
}

TEST(MeshStl, TheSolidsNameIsNotAKeyword) {
  std::string text = ascii_stl(cube_triangles());
  text.replace(0, std::string("solid cube").size(), "solid vertex facet");
  text.replace(text.rfind("endsolid cube"), std::string("endsolid cube").size(), "endsolid facet");
  auto m = parse_stl(text, "named.stl");
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ((*m)->triangles.size(), 12u);
}

TEST(MeshStl, SliversWithCoincidentCornersAreDropped) {
  std::vector<Tri> t = cube_triangles();
  // Two corners at one point; the third, far from the cube, is on no other triangle and must not
  // be left behind as a vertex (a point contact where there is no surface).
  t.push_back({Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(5, 5, 5)});
  auto m = parse_stl(binary_stl(t), "sliver.stl");
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ((*m)->triangles.size(), 12u);
  EXPECT_EQ((*m)->vertices.size(), 8u);
  for (const Vec3& v : (*m)->vertices) EXPECT_LE(v.maxCoeff(), 1.0);
  auto only = parse_stl(binary_stl({{Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(1, 1, 1)}}), "s.stl");
  ASSERT_FALSE(only);
  EXPECT_NE(only.error().message().find("at least one triangle"), std::string::npos);
}

TEST(MeshStl, BadInputNamesWhatIsWrong) {
  struct Case {
    std::string bytes, expect;
  };
  std::string truncated = binary_stl(cube_triangles(), "binary");
  truncated.resize(truncated.size() - 7);
  std::string nan_corner = binary_stl(cube_triangles(), "binary");
  const uint32_t qnan = 0x7fc00000u;  // the 4th triangle's first corner's x
  for (int k = 0; k < 4; ++k) nan_corner[84 + 50 * 3 + 12 + k] = static_cast<char>(qnan >> (8 * k));
  const std::string ascii = ascii_stl(cube_triangles());
  std::string four = ascii;
  four.insert(four.find("    endloop"), "      vertex 1 1 1\n");
  std::string bad_number = ascii;
  bad_number.replace(bad_number.find("vertex 0 0 0"), 12, "vertex 0 0 x");
  const std::vector<Case> cases = {
      {"", "84 + 50 n bytes"},
      {truncated, "header counting 12"},
      {nan_corner, "STL triangle 4"},
      {four, "a fourth vertex"},
      {bad_number, "'x'"},
      {"solid empty\nendsolid empty\n", "no 'facet'"},
      // A binary file whose header starts with "solid" and whose size is wrong.
      {binary_stl(cube_triangles()) + "x", "header counting 12, no 'facet'"},
      {"solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n", "'endfacet' before the end"},
  };
  for (const Case& c : cases) {
    auto m = parse_stl(c.bytes, "bad.stl");
    ASSERT_FALSE(m) << c.expect;
    const std::string msg = m.error().message();
    EXPECT_NE(msg.find("bad.stl"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << msg;
  }
  // The ASCII errors carry their line: the fourth vertex is on line 7.
  auto m = parse_stl(four, "bad.stl");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().line, 7);
}

#ifdef MOREAU_HAVE_ASSIMP
// assimp's importer with the identical-vertex join, the loader moreau used before its own.
std::vector<Vec3> assimp_vertices(const std::string& path) {
  std::vector<Vec3> v;
  const aiScene* sc =
      aiImportFile(path.c_str(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (sc == nullptr) return v;
  for (unsigned m = 0; m < sc->mNumMeshes; ++m)
    for (unsigned k = 0; k < sc->mMeshes[m]->mNumVertices; ++k) {
      const aiVector3D& p = sc->mMeshes[m]->mVertices[k];
      v.emplace_back(p.x, p.y, p.z);
    }
  aiReleaseImport(sc);
  return v;
}

std::vector<Vec3> sorted(std::vector<Vec3> v) {
  std::sort(v.begin(), v.end(), [](const Vec3& a, const Vec3& b) {
    return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3);
  });
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

TEST(MeshStl, RealRobotMeshesGiveAssimpsPointsAndHulls) {
  const char* shared = std::getenv("MOREAU_SHARED_DIR");
  const std::filesystem::path dir =
      std::filesystem::path(shared ? shared : "../shared") / "robots/unitree/g1/meshes";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is not here";
  int files = 0;
  for (const char* name : {"pelvis.STL", "left_knee_link.STL", "left_ankle_roll_link.STL",
                           "torso_link.STL", "head_link.STL"}) {
    const std::string path = (dir / name).string();
    if (!std::filesystem::exists(path)) continue;
    SCOPED_TRACE(path);
    ++files;
    auto m = load_mesh(path);
    ASSERT_TRUE(m) << m.error().message();
    const std::vector<Vec3> theirs = assimp_vertices(path);
    ASSERT_FALSE(theirs.empty());
    // The same points (assimp keeps a point once per facet normal: more copies, no other point).
    EXPECT_EQ(sorted((*m)->vertices), sorted(theirs));
    EXPECT_EQ((*m)->vertices.size(), sorted(theirs).size());  // each point once
    auto hull = convex_hull(**m);
    auto their_hull = convex_hull(theirs, path);
    ASSERT_TRUE(hull && their_hull);
    EXPECT_EQ(sorted((*hull)->vertices), sorted((*their_hull)->vertices));
  }
  EXPECT_GT(files, 0);
}
#endif

}  // namespace
}  // namespace moreau
