// Bad JSON scenes: every error names the file, the line, the element and what was expected, and
// nothing is silently ignored (unknown keys, typos) or crashes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "moreau/io/scene.hpp"

using namespace moreau;

namespace {

// Line 4: the body, line 7: the joint.
const std::string kBase = R"({
  "name": "t",
  "bodies": [
    {"name": "arm", "mass": 1.0, "inertia": [0.1, 0.1, 0.1], "position": [0, 0, -1]}
  ],
  "joints": [
    {"name": "hinge", "type": "revolute", "follower": "arm", "anchor": [0, 0, 0], "axis": [0, 1, 0]}
  ]
})";

struct BadCase {
  const char* from;      // substring of kBase
  const char* to;        // its replacement
  std::string element;   // expected Error::element (exact)
  int line;              // expected Error::line
  const char* expected;  // substring of Error::expected
};

std::string replaced(const std::string& from, const std::string& to) {
  std::string s = kBase;
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST(SceneJsonErrors, BaseSceneLoads) {
  Result<Scene> sc = parse_scene_json(kBase, "bad.json");
  ASSERT_TRUE(sc) << sc.error().message();
  EXPECT_EQ(sc->model.num_joints(), 1);
}

TEST(SceneJsonErrors, EachBadInputNamesItsElement) {
  const std::string kArm = "bodies[0] 'arm'";
  const std::string kHinge = "joints[0] 'hinge'";
  const std::string kGeom = kArm + ".geometries[0]";
  const std::string sphere =
      R"("position": [0, 0, -1], "geometries": [{"type": "sphere", "radius": 0.1}])";
  const std::vector<BadCase> cases = {
      {R"("mass": 1.0)", R"("mass": -1.0)", "bodies[0] 'arm'.mass", 4, "> 0"},
      {R"("mass": 1.0)", R"("mass": 0)", "bodies[0] 'arm'.mass", 4, "> 0"},
      {R"("mass": 1.0)", R"("mass": "heavy")", "bodies[0] 'arm'.mass", 4, "a number"},
      {R"("mass": 1.0, )", "", "bodies[0] 'arm'", 4, "\"mass\""},
      {R"([0.1, 0.1, 0.1])", R"([0.1, 0.1, -0.1])", "bodies[0] 'arm'.inertia", 4,
       "positive definite"},
      {R"([0.1, 0.1, 0.1])", R"([[0.1, 0.05, 0], [0, 0.1, 0], [0, 0, 0.1]])",
       "bodies[0] 'arm'.inertia", 4, "symmetric"},
      {R"([0.1, 0.1, 0.1])", R"([0.1, 0.1, 0.5])", "bodies[0] 'arm'.inertia", 4,
       "triangle inequality"},
      {R"([0.1, 0.1, 0.1])", R"([0.1, 0.1])", "bodies[0] 'arm'.inertia", 4, "3 principal moments"},
      {R"([0.1, 0.1, 0.1])", R"({"box": [0.1, -0.1, 0.1]})", "bodies[0] 'arm'.inertia.box[1]", 4,
       "> 0"},
      {R"("position": [0, 0, -1])", R"("position": [0, -1])", "bodies[0] 'arm'.position", 4,
       "3 elements"},
      {R"("position": [0, 0, -1])", R"("position": [0, 0, -1], "orientation": [1, 0, 0.1, 0])",
       "bodies[0] 'arm'.orientation", 4, "unit quaternion"},
      {R"("position": [0, 0, -1])", R"("position": [0, 0, -1], "orientation": [1, 0, 0])",
       "bodies[0] 'arm'.orientation", 4, "unit quaternion"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "orientation": {"axis": [0, 0, 0], "angle": 1})",
       "bodies[0] 'arm'.orientation.axis", 4, "non-zero"},
      {R"("position": [0, 0, -1])", R"("position": [0, 0, -1], "masss": 2)",
       "bodies[0] 'arm'.masss", 4, "one of the keys"},
      {R"("name": "arm",)", R"("name": "world",)", "bodies[0].name", 4, "other than \"world\""},
      {R"("follower": "arm")", R"("follower": "arm2")", "joints[0] 'hinge'.follower", 7,
       "the name of a body"},
      {R"("follower": "arm")", R"("follower": "arm", "base": "nobody")", "joints[0] 'hinge'.base",
       7, "the name of a body"},
      {R"("follower": "arm")", R"("follower": "arm", "base": "arm")", "joints[0] 'hinge'.follower",
       7, "other than the base"},
      {R"("type": "revolute")", R"("type": "hinge")", "joints[0] 'hinge'.type", 7,
       "one of free, revolute"},
      {R"("type": "revolute")", R"("type": 3)", "joints[0] 'hinge'.type", 7, "a non-empty string"},
      {R"("axis": [0, 1, 0])", R"("axis": [0, 1, 0], "limits": [{"lower": 1, "upper": -1}])",
       "joints[0] 'hinge'.limits[0]", 7, "lower <= upper"},
      {R"("axis": [0, 1, 0])", R"("axis": [0, 1, 0], "limits": [null, null])",
       "joints[0] 'hinge'.limits", 7, "an array of 1 entries"},
      {R"("axis": [0, 1, 0])", R"("axis": [0, 0, 0])", "joints[0] 'hinge'.axis", 7, "non-zero"},
      {R"("axis": [0, 1, 0])", R"("axis": [1, 0, 0], "axis2": [1, 1, 0])",
       "joints[0] 'hinge'.axis2", 7, "perpendicular"},
      {R"(, "anchor": [0, 0, 0], "axis": [0, 1, 0])", "", "joints[0] 'hinge'", 7,
       "either \"anchor\""},
      {R"("anchor": [0, 0, 0], )", "", "joints[0] 'hinge'.axis", 7,
       "only together with \"anchor\""},
      {R"("anchor": [0, 0, 0])", R"("anchor": [0, 0, 0], "frame_base": {})", "joints[0] 'hinge'", 7,
       "either \"anchor\""},
      {R"("axis": [0, 1, 0])", R"("axis": [0, 1, 0], "damping": -1)", "joints[0] 'hinge'.damping",
       7, ">= 0"},
      {R"("axis": [0, 1, 0])", R"("axis": [0, 1, 0], "armature": [-0.1])",
       "joints[0] 'hinge'.armature[0]", 7, ">= 0"},
      {R"("axis": [0, 1, 0])", R"("axis": [0, 1, 0], "collide_connected": 1)",
       "joints[0] 'hinge'.collide_connected", 7, "true or false"},
      {R"("axis": [0, 1, 0])", R"("axis": [0, 1, 0], "actuators": [{"mode": "torque"}])",
       "joints[0] 'hinge'.actuators[0].mode", 7, "one of passive"},
      {R"("axis": [0, 1, 0])",
       R"("axis": [0, 1, 0], "actuators": [{"mode": "force", "effort_limit": 0}])",
       "joints[0] 'hinge'.actuators[0].effort_limit", 7, "> 0"},
      {R"("axis": [0, 1, 0])",
       R"("axis": [0, 1, 0], "actuators": [{"mode": "position", "kp": -5}])",
       "joints[0] 'hinge'.actuators[0].kp", 7, ">= 0"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "sphere", "radius": -0.1}])",
       kGeom + ".radius", 4, "> 0"},
      {R"("position": [0, 0, -1])", R"("position": [0, 0, -1], "geometries": [{"type": "sphere"}])",
       kGeom, 4, "\"radius\""},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "sphere", "half_extents": [1, 1, 1]}])",
       kGeom + ".half_extents", 4, "one of the keys"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "cone", "radius": 1}])", kGeom + ".type",
       4, "one of plane, sphere"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "sphere", "radius": 0.1, "material": {"friction": -0.1}}])",
       kGeom + ".material.friction", 4, ">= 0"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "sphere", "radius": 0.1, "material": {"restitution": 1.5}}])",
       kGeom + ".material.restitution", 4, "[0, 1]"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "sphere", "radius": 0.1, "material": {"stiffness": -1e4}}])",
       kGeom + ".material.stiffness", 4, "> 0"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "sphere", "radius": 0.1, "material": {"tau_d": -0.02}}])",
       kGeom + ".material.tau_d", 4, ">= 0"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "sphere", "radius": 0.1, "material": "steel"}])",
       kGeom + ".material", 4, "a material defined"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "box", "half_extents": [1, 1, 1], "group": -1}])",
       kGeom + ".group", 4, "an integer in [0, 4294967295]"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "convex_mesh", "file": "no-such-mesh.obj"}])",
       kGeom + ".file", 4, "a readable mesh file"},
      {R"("position": [0, 0, -1])",
       R"("position": [0, 0, -1], "geometries": [{"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,3]]}])",
       kGeom + ".triangles[0][2]", 4, "an integer in [0, 2]"},
      {R"("name": "t",)", R"("name": "t", "gravitty": [0, 0, -1],)", "gravitty", 2,
       "one of the keys"},
      {R"("name": "t",)", R"("name": "t", "gravity": [0, 0],)", "gravity", 2, "3 elements"},
      {R"("name": "t",)", R"("name": "t", "duration": 0,)", "duration", 2, "> 0"},
      {R"("name": "t",)", R"("name": "t", "version": 2,)", "version", 2, "an integer in [1, 1]"},
      {R"("name": "t",)", R"("name": "t", "settings": {"dt": -0.001},)", "settings.dt", 2, "> 0"},
      {R"("name": "t",)", R"("name": "t", "settings": {"solver": "magic"},)", "settings.solver", 2,
       "a registered solver"},
      {R"("name": "t",)", R"("name": "t", "settings": {"integrator": "rk4"},)",
       "settings.integrator", 2, "semi-implicit-euler"},
      {R"("name": "t",)", R"("name": "t", "settings": {"integrator": "sap-midpoint"},)",
       "settings.integrator", 2, "solver \"sap\""},
      {R"("name": "t",)",
       R"("name": "t", "settings": {"solver": "sap", "solver_settings": {"params": {"sigma": -1}}},)",
       "settings.solver_settings.params.sigma", 2, "a number in"},
      {R"("name": "t",)",
       R"("name": "t", "settings": {"solver": "sap", "solver_settings": {"params": {"beta": -1}}},)",
       "settings.solver_settings.params.beta", 2, "a number in"},
      {R"("name": "t",)",
       R"("name": "t", "settings": {"solver": "sap", "solver_settings": {"params": {"stiffness": -5}}},)",
       "settings.solver_settings.params.stiffness", 2, "a number in"},
      {R"("name": "t",)",
       R"("name": "t", "settings": {"solver": "sap", "solver_settings": {"params": {"tau_d": -0.1}}},)",
       "settings.solver_settings.params.tau_d", 2, "a number in"},
      {R"("name": "t",)", R"("name": "t", "settings": {"stabilization": {"beta_joint": 2}},)",
       "settings.stabilization.beta_joint", 2, "[0, 1]"},
      {R"("name": "t",)", R"("name": "t", "settings": {"collision": {"mesh_mesh": "exact"}},)",
       "settings.collision.mesh_mesh", 2, "\"hull\" or \"triangles\""},
      {R"("name": "t",)", R"("name": "t", "settings": {"nmdp": {"objective": "energy"}},)",
       "settings.nmdp.objective", 2, "\"kinetic\" or \"dissipation\""},
      {R"("name": "t",)", R"("name": "t", "settings": {"solver_settings": {"max_iter": 5}},)",
       "settings.solver_settings.max_iter", 2, "one of the keys"},
      {R"("name": "t",)", R"("name": "t", "settings": {"softening": {"contact": {"d0": 1.5}}},)",
       "settings.softening.contact.d0", 2, "(0, 1)"},
      {R"("name": "t",)",
       R"("name": "t", "materials": {"rubber": {"friction": 0.5, "bounce": 1}},)",
       "materials.rubber.bounce", 2, "one of the keys"},
  };
  for (const BadCase& c : cases) {
    const std::string text = replaced(c.from, c.to);
    SCOPED_TRACE(text);
    Result<Scene> sc = parse_scene_json(text, "bad.json");
    ASSERT_FALSE(sc) << "accepted: " << c.to;
    const Error& e = sc.error();
    EXPECT_EQ(e.file, "bad.json");
    EXPECT_EQ(e.element, c.element) << e.message();
    EXPECT_EQ(e.line, c.line) << e.message();
    EXPECT_NE(e.expected.find(c.expected), std::string::npos) << e.message();
    EXPECT_FALSE(e.got.empty()) << e.message();
    EXPECT_EQ(e.message().rfind(
                  "bad.json:" + std::to_string(c.line) + ": " + c.element + ": expected ", 0),
              0u)
        << e.message();
  }
}

TEST(SceneJsonErrors, DuplicateBodyNameIsReportedOnItsLine) {
  const std::string text = replaced(R"("position": [0, 0, -1]}
  ],)",
                                    R"("position": [0, 0, -1]},
    {"name": "arm", "mass": 1.0, "inertia": [0.1, 0.1, 0.1]}
  ],)");
  Result<Scene> sc = parse_scene_json(text, "bad.json");
  ASSERT_FALSE(sc);
  EXPECT_EQ(sc.error().element, "bodies[1].name");
  EXPECT_EQ(sc.error().line, 5);
  EXPECT_NE(sc.error().got.find("bodies[0]"), std::string::npos) << sc.error().message();
}

TEST(SceneJsonErrors, MalformedJsonReportsTheLine) {
  // A missing comma at the end of line 4.
  const std::string text = replaced(R"("position": [0, 0, -1]}
  ],)",
                                    R"("position": [0, 0, -1]}
    {"name": "b", "mass": 1.0, "inertia": [0.1, 0.1, 0.1]}
  ],)");
  Result<Scene> sc = parse_scene_json(text, "bad.json");
  ASSERT_FALSE(sc);
  EXPECT_EQ(sc.error().line, 5) << sc.error().message();
  EXPECT_EQ(sc.error().element, "JSON syntax");
  EXPECT_NE(sc.error().got.find("line 5"), std::string::npos) << sc.error().message();

  Result<Scene> trunc = parse_scene_json(kBase.substr(0, 60), "cut.json");
  ASSERT_FALSE(trunc);
  EXPECT_EQ(trunc.error().file, "cut.json");
  EXPECT_GT(trunc.error().line, 0);

  Result<Scene> nonjson = parse_scene_json("", "empty.json");
  ASSERT_FALSE(nonjson);
  EXPECT_EQ(nonjson.error().element, "JSON syntax");
}

TEST(SceneJsonErrors, NonFiniteNumberIsReported) {
  // JSON has no NaN/Inf; an overflowing literal is the only way to write one.
  const std::string text = replaced(R"("mass": 1.0)", R"("mass": 1e400)");
  Result<Scene> sc = parse_scene_json(text, "bad.json");
  ASSERT_FALSE(sc);
  EXPECT_EQ(sc.error().line, 4) << sc.error().message();
  EXPECT_NE(sc.error().message().find("1e400"), std::string::npos) << sc.error().message();
}

TEST(SceneJsonErrors, WrongRootAndMissingParts) {
  Result<Scene> a = parse_scene_json("[1, 2]", "bad.json");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().element, "scene");
  Result<Scene> b = parse_scene_json(R"({"name": "x"})", "bad.json");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().expected.find("\"bodies\""), std::string::npos);
  Result<Scene> c = load_scene_json_file("/nonexistent/dir/scene.json");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().file, "/nonexistent/dir/scene.json");
}

TEST(SceneJsonErrors, LineLookupSkipsTrickyStrings) {
  // Brackets, braces, commas and escaped quotes inside strings do not confuse the line lookup.
  const std::string text =
      "{\"description\": \"a [b] {c}, \\\"d\\\"\",\n"
      " \"bodies\": [\n"
      "  {\"name\": \"x\\\"]}\", \"mass\": 1, \"inertia\": [1, 1, 1]},\n"
      "  {\"name\": \"y\",\n"
      "   \"mass\": 1,\n"
      "   \"inertia\": [1, 1, 1], \"position\": [0, 0, \"z\"]}]}";
  Result<Scene> sc = parse_scene_json(text, "tricky.json");
  ASSERT_FALSE(sc);
  EXPECT_EQ(sc.error().element, "bodies[1] 'y'.position[2]");
  EXPECT_EQ(sc.error().line, 6) << sc.error().message();
}

TEST(SceneJsonErrors, MeshFileIsRelativeToTheSceneFile) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("moreau_scene_json_" + std::to_string(::getpid()));
  fs::create_directories(dir / "meshes");
  {
    std::ofstream obj(dir / "meshes" / "tetra.obj");
    obj << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.1 0.1 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 "
           "4\n";
    std::ofstream js(dir / "scene.json");
    js << R"({"bodies": [{"name": "t", "mass": 1, "inertia": [1, 1, 1],
               "geometries": [{"type": "convex_mesh", "file": "meshes/tetra.obj"},
                              {"type": "mesh", "file": "meshes/tetra.obj"}]}]})";
  }
  Result<Scene> sc = load_scene_json_file((dir / "scene.json").string());
  ASSERT_TRUE(sc) << sc.error().message();
  ASSERT_EQ(sc->model.geometries().size(), 2u);
  // The hull drops the interior point (0.1, 0.1, 0.1); the soup keeps the file's 4 triangles.
  EXPECT_EQ(sc->model.geometries()[0].mesh->vertices.size(), 4u);
  EXPECT_EQ(sc->model.geometries()[0].mesh->triangles.size(), 4u);
  EXPECT_EQ(sc->model.geometries()[1].mesh->triangles.size(), 4u);
  EXPECT_EQ(sc->name, "scene");  // no "name": the file stem
  // Relative to the scene file, not to the working directory: the same scene from a string with
  // another source folder cannot find the mesh.
  std::ifstream in(dir / "scene.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Result<Scene> moved = parse_scene_json(text, (dir / "elsewhere" / "scene.json").string());
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().element, "bodies[0] 't'.geometries[0].file");
  fs::remove_all(dir);
}

TEST(SceneJsonErrors, RepeatedKeyIsAnError) {
  const std::string text = replaced(R"("mass": 1.0)", R"("mass": 1.0, "mass": 2.0)");
  Result<Scene> sc = parse_scene_json(text, "bad.json");
  ASSERT_FALSE(sc);
  EXPECT_EQ(sc.error().element, "JSON object key \"mass\"");
  EXPECT_EQ(sc.error().line, 4) << sc.error().message();
  // The same key in different objects is fine.
  EXPECT_TRUE(parse_scene_json(kBase, "ok.json"));
}
