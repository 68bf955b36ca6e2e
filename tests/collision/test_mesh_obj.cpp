// moreau's OBJ reader: the format's index forms, polygons, joined vertices, errors with their line,
// and agreement with assimp's OBJ importer on MuJoCo's mug.
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>

#include "moreau/collision/mesh_io.hpp"
#include "moreau/collision/mesh_obj.hpp"

#ifdef MOREAU_HAVE_ASSIMP
#include <assimp/cimport.h>
#include <assimp/scene.h>
#endif

namespace moreau {
namespace {

// Volume enclosed by outward triangles (divergence theorem).
double enclosed_volume(const MeshData& m) {
  double v = 0.0;
  for (const auto& t : m.triangles)
    v += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])) / 6.0;
  return v;
}

// The unit cube's six faces as quads, each with its own four vertices (24 in all, as an exporter
// that splits vertices per face normal writes them), normals and texture coordinates.
std::string cube_of_quads() {
  std::ostringstream s;
  s << "# cube\nmtllib cube.mtl\no cube\n";
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads)
    for (int c : q) s << "v " << (c & 1) << ' ' << ((c >> 1) & 1) << ' ' << ((c >> 2) & 1) << "\n";
  s << "vt 0 0\nvn 0 0 1\nusemtl steel\ns off\n";
  for (int f = 0; f < 6; ++f) {
    const int a = 4 * f + 1;
    if (f % 3 == 0)
      s << "f " << a << ' ' << a + 1 << ' ' << a + 2 << ' ' << a + 3 << "\n";
    else if (f % 3 == 1)
      s << "f " << a << "/1 " << a + 1 << "/1 " << a + 2 << "/1 " << a + 3 << "/1\n";
    else
      s << "f " << a << "/1/1\t" << a + 1 << "//1 " << a + 2 << "/1/1 " << a + 3 << "//1\r\n";
  }
  return s.str();
}

TEST(MeshObj, QuadsAreFannedAndIdenticalVerticesJoined) {
  auto m = parse_obj(cube_of_quads(), "cube.obj");
  ASSERT_TRUE(m.ok()) << m.error().message();
  EXPECT_EQ((*m)->vertices.size(), 8u);
  EXPECT_EQ((*m)->triangles.size(), 12u);
  EXPECT_NEAR(enclosed_volume(**m), 1.0, 1e-15);  // the winding kept: outward, closed
}

TEST(MeshObj, NegativeIndicesCountBackFromTheLastVertex) {
  const std::string absolute =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n"
      "f 2 3 4\n";
  const std::string relative =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -1 -2\nv 0 0 1\nf -4 -3 -1\n"
      "f 1 -1 -2\nf -3 -2 -1\n";
  auto a = parse_obj(absolute, "a.obj");
  auto r = parse_obj(relative, "r.obj");
  ASSERT_TRUE(a.ok() && r.ok());
  EXPECT_EQ((*a)->triangles, (*r)->triangles);
  EXPECT_EQ((*a)->vertices, (*r)->vertices);
  EXPECT_NEAR(enclosed_volume(**a), 1.0 / 6.0, 1e-15);
}

TEST(MeshObj, CommentsAByteOrderMarkAndLaterVerticesAreRead) {
  auto m = parse_obj(
      "\xEF\xBB\xBFv 0 0 0 # origin\nf 1 2 3 # ahead of its vertices\nv 1 0 0\n"
      "v 0 1 0\n",
      "t.obj");
  ASSERT_TRUE(m.ok()) << m.error().message();
  EXPECT_EQ((*m)->vertices.size(), 3u);
  EXPECT_EQ((*m)->triangles, (std::vector<std::array<int, 3>>{{0, 1, 2}}));
}

TEST(MeshObj, UnusedVerticesAreDroppedAndExtraCoordinatesIgnored) {
  auto m = parse_obj("v 9 9 9\nv 0 0 0 1\nv 1 0 0 0.5 0.5 0.5\nv 0 1 0\nf 2 3 4\n", "t.obj");
  ASSERT_TRUE(m.ok()) << m.error().message();
  ASSERT_EQ((*m)->vertices.size(), 3u);
  EXPECT_EQ((*m)->vertices[0], Vec3(0, 0, 0));
  EXPECT_EQ((*m)->triangles, (std::vector<std::array<int, 3>>{{0, 1, 2}}));
}

TEST(MeshObj, ErrorsNameTheLineAndWhatWasExpected) {
  struct Case {
    const char* text;
    const char* where;
    const char* what;
  };
  const Case cases[] = {
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "t.obj:4: OBJ face 1", "within the 3 vertices"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", "t.obj:4: OBJ face 1", "got -4"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 +-3\n", "t.obj:4: OBJ face 1", "nonzero integer"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\n# f 1 2 3\n", "t.obj: OBJ", "3 vertices, no face"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 0 2\n", "t.obj:4: OBJ face 1", "nonzero integer"},
      {"v 0 0 0\nv 1 0 0\nf 1 2\n", "t.obj:3: OBJ face 1", "3 or more vertices"},
      {"v 0 0 0\nv 1 0\n", "t.obj:2: OBJ vertex 2", "got fewer"},
      {"v 0 0 0\nv 1 0 x\n", "t.obj:2: OBJ vertex 2", "got 'x'"},
      {"v 0 0 0\nv 1 0 inf\n", "t.obj:2: OBJ vertex 2", "finite"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3x\n", "t.obj:4: OBJ face 1", "'3x'"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n", "t.obj:4",
       "within the 3 vertices, got '99999999999999999999'"},
  };
  for (const Case& c : cases) {
    auto m = parse_obj(c.text, "t.obj");
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_NE(m.error().message().find(c.where), std::string::npos) << m.error().message();
    EXPECT_NE(m.error().message().find(c.what), std::string::npos) << m.error().message();
  }
}

TEST(MeshObj, AgreesWithAssimpOnMuJoCosMug) {
#ifndef MOREAU_HAVE_ASSIMP
  GTEST_SKIP() << "built without assimp";
#else
  const std::string path = "/usr/share/mujoco/model/mug/mug.obj";
  if (!std::ifstream(path)) GTEST_SKIP() << path << " not installed (libmujoco-dev)";
  auto ours = load_mesh(path);
  ASSERT_TRUE(ours.ok()) << ours.error().message();
  const aiScene* sc = aiImportFile(path.c_str(), 0);
  ASSERT_NE(sc, nullptr);
  std::vector<std::array<Vec3, 3>> theirs;
  for (unsigned m = 0; m < sc->mNumMeshes; ++m)
    for (unsigned f = 0; f < sc->mMeshes[m]->mNumFaces; ++f) {
      const aiFace& face = sc->mMeshes[m]->mFaces[f];
      ASSERT_EQ(face.mNumIndices, 3u);
      std::array<Vec3, 3> t;
      for (int k = 0; k < 3; ++k) {
        const aiVector3D& p = sc->mMeshes[m]->mVertices[face.mIndices[k]];
        t[k] = Vec3(p.x, p.y, p.z);
      }
      theirs.push_back(t);
    }
  aiReleaseImport(sc);
  const MeshData& mesh = **ours;
  ASSERT_EQ(mesh.triangles.size(), theirs.size());
  ASSERT_GT(theirs.size(), 20000u);
  size_t differ = 0;
  for (size_t f = 0; f < theirs.size(); ++f)
    for (int k = 0; k < 3; ++k)  // assimp reads single precision: equal to float rounding
      if ((mesh.vertices[mesh.triangles[f][k]] - theirs[f][k]).lpNorm<Eigen::Infinity>() >
          1e-6 * (1.0 + theirs[f][k].lpNorm<Eigen::Infinity>()))
        ++differ;
  EXPECT_EQ(differ, 0u);
#endif
}

}  // namespace
}  // namespace moreau
