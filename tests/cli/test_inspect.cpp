// `moreau inspect`: structure counts of the built-in scenes against Table II of the report and
// hand counts (rows: revolute 5, spherical 3, fixed 6; rank of planar loops).
#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "moreau/model/joint.hpp"

namespace moreau::test {
namespace {

nlohmann::json inspect_json(const std::string& args) {
  require_binary();
  const CliResult r = run_moreau("inspect " + args + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return nlohmann::json::parse(r.out);
}

TEST(CliInspect, FourbarFixedHasOneDofAndThreeRedundantRows) {
  const nlohmann::json j = inspect_json("fourbar-fixed");
  EXPECT_EQ(j["name"], "fourbar-fixed");
  EXPECT_EQ(j["bodies"], 4);
  EXPECT_EQ(j["joints"], 5);
  EXPECT_EQ(j["constraint_rows"], 26);  // 4 revolute x 5 + 1 fixed x 6
  EXPECT_EQ(j["rank_J"], 23);           // a planar loop: 3 out-of-plane rows repeat
  EXPECT_EQ(j["redundant_rows"], 3);
  EXPECT_EQ(j["dofs"], 1);  // 24 - 23
  EXPECT_EQ(j["unary_joints"], 1);
  EXPECT_EQ(j["binary_joints"], 4);
  EXPECT_EQ(j["joint_types"]["revolute"], 4);
  EXPECT_EQ(j["joint_types"]["fixed"], 1);
  EXPECT_EQ(j["joint_types"].size(), static_cast<size_t>(kNumJointTypes));
  for (int t = 0; t < kNumJointTypes; ++t)
    EXPECT_TRUE(j["joint_types"].contains(joint_type_name(static_cast<JointType>(t))));
  EXPECT_EQ(j["actuated_dofs"], 1);  // the crank hinge
  EXPECT_EQ(j["passive_dofs"], 3);   // the other three hinges
  EXPECT_EQ(j["limited_dofs"], 0);
  EXPECT_EQ(j["geometries"], 4);
  EXPECT_EQ(j["geometry_types"]["box"], 4);
  ASSERT_EQ(j["joint_list"].size(), 5u);
  EXPECT_EQ(j["joint_list"][0]["base"], "world");
  EXPECT_EQ(j["joint_list"][0]["type"], "fixed");
  EXPECT_EQ(j["joint_list"][1]["follower"], "crank");
  ASSERT_EQ(j["body_list"].size(), 4u);
  EXPECT_EQ(j["body_list"][0]["name"], "ground");
}

TEST(CliInspect, FourbarFreeHasSevenDofs) {
  const nlohmann::json j = inspect_json("fourbar-free");
  EXPECT_EQ(j["bodies"], 4);
  EXPECT_EQ(j["joints"], 4);
  EXPECT_EQ(j["constraint_rows"], 20);
  EXPECT_EQ(j["rank_J"], 17);
  EXPECT_EQ(j["redundant_rows"], 3);
  EXPECT_EQ(j["dofs"], 7);  // 6 rigid-body DoFs + 1 mechanism DoF
  EXPECT_EQ(j["unary_joints"], 0);
}

TEST(CliInspect, BoxesFixedMassRatioAndSceneParameter) {
  const nlohmann::json j = inspect_json("boxes-fixed");
  EXPECT_DOUBLE_EQ(j["mass_ratio"].get<double>(), 1000.0);
  EXPECT_DOUBLE_EQ(j["total_mass"].get<double>(), 1001.0);
  EXPECT_EQ(j["constraint_rows"], 6);
  EXPECT_EQ(j["rank_J"], 6);
  EXPECT_EQ(j["dofs"], 6);  // two welded bodies float as one
  // --set reaches the scene builder.
  const nlohmann::json k = inspect_json("boxes-fixed --set mass_ratio=10");
  EXPECT_DOUBLE_EQ(k["mass_ratio"].get<double>(), 10.0);
}

TEST(CliInspect, NunchukThreeBodiesTwoSphericals) {
  const nlohmann::json j = inspect_json("nunchuk");
  EXPECT_EQ(j["bodies"], 3);
  EXPECT_EQ(j["joints"], 2);
  EXPECT_EQ(j["constraint_rows"], 6);
  EXPECT_EQ(j["rank_J"], 6);
  EXPECT_EQ(j["dofs"], 12);
  EXPECT_EQ(j["joint_types"]["spherical"], 2);
  EXPECT_EQ(j["passive_dofs"], 6);
}

TEST(CliInspect, ChainSizeFollowsParameter) {
  const nlohmann::json j = inspect_json("chain --set n=7");
  EXPECT_EQ(j["bodies"], 7);
  EXPECT_EQ(j["constraint_rows"], 35);
  EXPECT_EQ(j["rank_J"], 35);  // an open chain has no redundant rows
  EXPECT_EQ(j["dofs"], 7);
}

TEST(CliInspect, HumanTableNamesTheCounts) {
  require_binary();
  const CliResult r = run_moreau("inspect fourbar-fixed");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("rank of J 23"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("crank_hinge"), std::string::npos) << r.out;
}

TEST(CliInspect, BadInputExitsTwo) {
  require_binary();
  const CliResult unknown = run_moreau("inspect no-such-scene --json");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.out, "");
  EXPECT_NE(unknown.err.find("fourbar-fixed"), std::string::npos) << unknown.err;
  EXPECT_EQ(run_moreau("inspect chain --set n=-1").code, 2);
  EXPECT_EQ(run_moreau("inspect chain --set n").code, 2);
  EXPECT_EQ(run_moreau("inspect").code, 2);  // SCENE is required
}

}  // namespace
}  // namespace moreau::test
