// MJCF <include> (recursive, relative to the including file, cycles and missing files refused
// naming the including file), several <compiler> elements, welded massless bodies merged, and
// MuJoCo's humanoid100 (a model that includes its humanoid).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "io/io_helpers.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/io/urdf_mjcf.hpp"

namespace moreau {
namespace {

using io_test::kData;

TEST(MjcfInclude, NestedIncludesCompilerAndMasslessFrame) {
  Result<ImportedModel> r = import_mjcf_file(kData + "include_main.xml");
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  // upper, lower (with the massless wrist_frame merged into it), hand.
  ASSERT_EQ(m.num_bodies(), 3);
  EXPECT_EQ(m.body_index("wrist_frame"), -1);
  const int hand = m.body_index("hand");
  ASSERT_GE(hand, 0);
  ASSERT_EQ(m.num_joints(), 3);
  EXPECT_EQ(6 * m.num_bodies() - m.joint_rows(), 3);
  // angle="radian" from the included compiler: the elbow range is +-1.5 rad.
  const int elbow = m.joint_index("elbow");
  ASSERT_GE(elbow, 0);
  EXPECT_DOUBLE_EQ(m.joints()[elbow].limits[0].lower, -1.5);
  EXPECT_DOUBLE_EQ(m.joints()[elbow].limits[0].upper, 1.5);
  // The hand's frame: wrist_frame at (0.8, 0, 1) turned 90 deg about y, hand 0.05 along its z,
  // i.e. along world x (euler in radians).
  EXPECT_LT((r->scene.initial.r[hand] - Vec3(0.85, 0, 1)).norm(), 1e-12);
  EXPECT_EQ(r->scene.settings.dt, 0.002);
  for (const std::string& w : r->warnings) {
    EXPECT_EQ(w.find("include"), std::string::npos) << w;
    EXPECT_EQ(w.find("texturedir"), std::string::npos) << w;
  }
}

TEST(MjcfInclude, CycleIsRefusedNamingTheIncludingFile) {
  Result<ImportedModel> r = import_mjcf_file(kData + "include_cycle_a.xml");
  ASSERT_FALSE(r.ok());
  const std::string msg = r.error().message();
  EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;
  EXPECT_NE(r.error().file.find("include/cycle_b.xml"), std::string::npos) << msg;
  EXPECT_EQ(r.error().line, 2) << msg;
}

TEST(MjcfInclude, MissingFileNamesTheIncludingFileAndLine) {
  Result<ImportedModel> r =
      import_mjcf_string("<mujoco>\n  <include file=\"nope.xml\"/>\n</mujoco>\n", "mem.xml", kData);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "mem.xml");
  EXPECT_EQ(r.error().line, 2);
  EXPECT_NE(r.error().message().find("nope.xml"), std::string::npos) << r.error().message();
}

TEST(MjcfInclude, ErrorInsideAnIncludedFileNamesThatFile) {
  Result<ImportedModel> r = import_mjcf_string(
      "<mujoco>\n<worldbody>\n<include file=\"include/bad_joint.xml\"/>\n</worldbody>\n</mujoco>\n",
      "mem.xml", kData);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().file.find("include/bad_joint.xml"), std::string::npos) << r.error().message();
  EXPECT_EQ(r.error().line, 3) << r.error().message();
}

TEST(MjcfInclude, Humanoid100LoadsTheIncludedHumanoid) {
  const std::string path = "/usr/share/mujoco/model/humanoid100/humanoid100.xml";
  if (!std::ifstream(path)) GTEST_SKIP() << "libmujoco-samples is not installed (" << path << ")";
  Result<ImportedModel> r = import_mjcf_file(path);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  const int dofs = 6 * m.num_bodies() - numerical_rank(joint_jacobian(m, r->scene.initial));
  std::printf("humanoid100: %d bodies, %d joints, %d DoFs (MuJoCo nv 627)\n", m.num_bodies(),
              m.num_joints(), dofs);
  // Without <include> only the 100 free objects loaded (100 bodies, 600 DoFs). The humanoid adds
  // 13 bodies (head and hands welded, merged) and its 27 DoFs.
  EXPECT_EQ(m.num_bodies(), 113);
  EXPECT_EQ(dofs, 627);
  EXPECT_GE(m.body_index("torso"), 0);
}

}  // namespace
}  // namespace moreau
