// `moreau compare`: MuJoCo and moreau on the same MJCF model (tests/data/pendulums.xml). Skips
// when moreau was built without MuJoCo.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.hpp"

using namespace moreau;
using test::run_moreau;

TEST(CliCompare, PendulumsSideBySide) {
  test::require_binary();
  test::TempDir dir;
  const std::string model = std::string(MOREAU_SOURCE_DIR) + "/tests/data/pendulums.xml";
  const std::string out = dir / "out";
  auto r =
      run_moreau("compare '" + model + "' --dt 0.005 --duration 0.2 --json --out '" + out + "'");
  if (r.code == 2 && r.err.find("without MuJoCo") != std::string::npos)
    GTEST_SKIP() << "built without MuJoCo";
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* e : {"mujoco", "moreau"}) {
    EXPECT_TRUE(j[e]["completed"].get<bool>()) << e;
    EXPECT_EQ(j[e]["steps"], 40) << e;
    EXPECT_GT(j[e]["median_step_s"].get<double>(), 0.0) << e;
  }
  // The same model in the same initial state: the same energy (kinetic + gravity, no springs).
  const double e0 = j["mujoco"]["initial_energy"], e1 = j["moreau"]["initial_energy"];
  EXPECT_NEAR(e1, e0, 1e-9 * std::abs(e0));
  // Both conserve it to a fraction of a percent over 0.2 s of swinging (semi-implicit Euler).
  const double f0 = j["mujoco"]["final_energy"], f1 = j["moreau"]["final_energy"];
  EXPECT_NEAR(f0, e0, 5e-3 * std::abs(e0));
  EXPECT_NEAR(f1, e0, 5e-3 * std::abs(e0));
  EXPECT_LE(j["moreau"]["max_violation"].get<double>(), 1e-4);  // joint drift [m or rad]
  // Where the time goes: moreau's stages are laps inside the timed step, so they sum to less
  // than it; MuJoCo's stages partition its timed step (mjTIMER_STEP of the second run).
  auto stage_sum = [&](const char* e) {
    double sum = 0.0;
    for (const char* k : {"collision", "build", "solve", "integrate", "project"}) {
      const double x = j[e]["mean_stage_s"][k];
      EXPECT_GE(x, 0.0) << e << " " << k;
      sum += x;
    }
    return sum;
  };
  const double moreau_stages = stage_sum("moreau"), mujoco_stages = stage_sum("mujoco");
  EXPECT_GT(moreau_stages, 0.0);
  EXPECT_LE(moreau_stages, j["moreau"]["mean_step_s"].get<double>());
  EXPECT_GT(j["moreau"]["mean_stage_s"]["build"].get<double>(), 0.0);
  EXPECT_EQ(j["mujoco"]["mean_stage_s"]["project"].get<double>(), 0.0);
  EXPECT_NEAR(mujoco_stages, j["mujoco"]["mean_timed_step_s"].get<double>(), 1e-9 * mujoco_stages);
  for (const char* f : {"compare.csv", "compare.md", "compare.svg"})
    EXPECT_TRUE(std::filesystem::exists(out + "/" + f)) << f;
  std::ifstream csv(out + "/compare.csv");
  int rows = 0;
  for (std::string line; std::getline(csv, line);) ++rows;
  EXPECT_EQ(rows, 1 + 2 * 40);  // header, one row per engine and step
}

TEST(CliCompare, BadInputExitsWithTwo) {
  test::require_binary();
  EXPECT_EQ(run_moreau("compare /nonexistent/model.xml").code, 2);
  const std::string model = std::string(MOREAU_SOURCE_DIR) + "/tests/data/pendulums.xml";
  EXPECT_EQ(run_moreau("compare '" + model + "' --dt -1").code, 2);
}

// A file written for MuJoCo 3 (an include, a mesh under meshdir, ranges without `limited`, a joint
// actuatorfrcrange, a jointactuatorfrc sensor), which Debian's MuJoCo 2.2.2 rejects: compare runs
// MuJoCo on a copy, says what the copy changed and writes it; both engines start from the same
// state (equal energies).
TEST(CliCompare, AMuJoCo3FileRunsOnACopy) {
  test::require_binary();
  test::TempDir dir;
  const std::string d = dir / "robot";
  std::filesystem::create_directories(d + "/meshes");
  std::ofstream(d + "/meshes/cube.obj")
      << "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
         "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\n"
         "f 3 8 7\nf 4 1 5\nf 4 5 8\n";
  std::ofstream(d + "/arm.xml")
      << "<mujoco><compiler meshdir=\"meshes\"/><asset><mesh name=\"c\" file=\"cube.obj\" "
         "scale=\"0.05 0.05 0.05\"/></asset><worldbody><body name=\"link\" pos=\"0 0 1\">"
         "<joint name=\"h\" axis=\"0 1 0\" range=\"-1 1\" actuatorfrcrange=\"-5 5\"/>"
         "<geom type=\"mesh\" mesh=\"c\" pos=\"0.3 0 0\" mass=\"1\"/></body></worldbody>"
         "<sensor><jointactuatorfrc joint=\"h\"/></sensor></mujoco>";
  std::ofstream(d + "/scene.xml") << "<mujoco><include file=\"arm.xml\"/></mujoco>";
  const std::string out = dir / "out";
  auto r = run_moreau("compare '" + d + "/scene.xml' --dt 0.005 --duration 0.2 --json --out '" +
                      out + "'");
  if (r.code == 2 && r.err.find("without MuJoCo") != std::string::npos)
    GTEST_SKIP() << "built without MuJoCo";
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["mujoco"]["completed"].get<bool>());
  EXPECT_TRUE(j["moreau"]["completed"].get<bool>());
  const std::string changes = j["mujoco_copy_changes"].dump();
  for (const char* what : {"autolimits", "<sensor>", "actuatorfrcrange"})
    EXPECT_NE(changes.find(what), std::string::npos) << changes;
  const double e0 = j["mujoco"]["initial_energy"], e1 = j["moreau"]["initial_energy"];
  EXPECT_NEAR(e1, e0, 1e-9 * std::abs(e0));
  std::ifstream copy(out + "/model_mujoco22.xml");
  std::stringstream text;
  text << copy.rdbuf();
  EXPECT_EQ(text.str().find("<sensor"), std::string::npos);
  EXPECT_NE(text.str().find(d + "/meshes"), std::string::npos);
}
