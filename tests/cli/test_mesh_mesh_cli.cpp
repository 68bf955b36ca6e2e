// `moreau simulate` with settings.collision.mesh_mesh = "triangles": a triangle mesh that is not
// closed is named in a warning when the scene is loaded, and the run goes on through the hulls;
// with closed meshes there is no warning and the cube rests on the floor mesh.
#include <nlohmann/json.hpp>

#include <fstream>

#include "cli/cli_run.hpp"

namespace moreau::test {
namespace {

// A scene: a floor box mesh (world) and a falling cube mesh; `open` drops the cube's last
// triangle.
std::string mesh_scene(bool open) {
  const std::string v = R"([[-0.5,-0.5,-0.5],[0.5,-0.5,-0.5],[-0.5,0.5,-0.5],[0.5,0.5,-0.5],
                            [-0.5,-0.5,0.5],[0.5,-0.5,0.5],[-0.5,0.5,0.5],[0.5,0.5,0.5]])";
  const std::string closed_tris = R"([0,1,3],[0,3,2],[4,5,7],[4,7,6],[0,1,5],[0,5,4],
                            [2,3,7],[2,7,6],[0,2,6],[0,6,4],[1,3,7])";
  const std::string last = open ? "" : ",[1,7,5]";
  return R"({"name": "mesh on mesh",
    "settings": {"solver": "pgs", "collision": {"mesh_mesh": "triangles"}},
    "bodies": [{"name": "cube", "mass": 1, "inertia": [0.17, 0.17, 0.17], "position": [0, 0, 1.001],
                "geometries": [{"name": "lid", "type": "mesh", "vertices": )" +
         v + R"(, "triangles": [)" + closed_tris + last + R"(]}]}],
    "geometries": [{"name": "floor", "type": "mesh", "vertices": )" +
         v + R"(, "triangles": [)" + closed_tris + R"(,[1,7,5]]}]
  })";
}

TEST(CliMeshMesh, OpenMeshWarnsAtLoadAndClosedMeshesRest) {
  require_binary();
  TempDir dir;
  for (const bool open : {true, false}) {
    const std::string path = dir / (open ? "open.json" : "closed.json");
    std::ofstream(path) << mesh_scene(open);
    const CliResult r = run_moreau("simulate '" + path + "' --steps 500 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    if (open) {
      EXPECT_NE(r.err.find("warning: geometry 'lid' (triangle mesh)"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("convex hulls"), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(r.err, "");
    }
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["completed"].get<bool>());
    EXPECT_EQ(j["max_contacts"].get<int>(), 4);  // the cube's bottom corners
    EXPECT_LT(j["max_penetration"].get<double>(), 1e-3);
  }
}

}  // namespace
}  // namespace moreau::test
