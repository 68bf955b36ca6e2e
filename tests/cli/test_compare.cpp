// `moreau compare`: MuJoCo and moreau on the same MJCF model (tests/data/pendulums.xml). Skips
// when moreau was built without MuJoCo.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
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
