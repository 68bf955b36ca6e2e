// `moreau convert` / `inspect` / `simulate` on URDF and MJCF files through the binary (skipped when
// build/moreau has not been built): bad input exits 2 and writes nothing; a converted scene loads
// back with the same model.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "io/io_helpers.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/scenes/builtin.hpp"

namespace moreau {
namespace {

using io_test::kBin;
using io_test::kData;

int run_cli(const std::string& args) {
  const int st = std::system((kBin + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

bool exists(const std::string& p) {
  return static_cast<bool>(std::ifstream(p));
}

TEST(ModelImportCli, ConvertWritesNativeSceneOrNothing) {
  if (!exists(kBin)) GTEST_SKIP() << "build/moreau is not built";
  const std::string out = testing::TempDir() + "moreau_convert_test.json";
  std::remove(out.c_str());
  const std::string bad = testing::TempDir() + "moreau_bad.xml";
  std::ofstream(bad) << "<mujoco><worldbody><body name=\"b\"><joint/></body></worldbody></mujoco>";
  EXPECT_EQ(run_cli("convert " + bad + " --to " + out), 2);
  EXPECT_FALSE(exists(out));
  EXPECT_EQ(run_cli("convert " + kData + "arm.urdf --set package_path=" + kData +
                    " --set floating=2 --to " + out),
            2);
  EXPECT_FALSE(exists(out));
  EXPECT_EQ(run_cli("inspect " + bad), 2);
  ASSERT_EQ(run_cli("convert " + kData + "pendulums.xml --to " + out), 0);
  Result<Scene> back = load_scene(out);
  ASSERT_TRUE(back.ok()) << back.error().message();
  Result<ImportedModel> orig = import_mjcf_file(kData + "pendulums.xml");
  ASSERT_TRUE(orig.ok());
  EXPECT_EQ(back->model.num_bodies(), orig->scene.model.num_bodies());
  EXPECT_EQ(back->model.num_joints(), orig->scene.model.num_joints());
  EXPECT_DOUBLE_EQ(back->model.total_mass(), orig->scene.model.total_mass());
  for (int b = 0; b < back->model.num_bodies(); ++b)
    EXPECT_EQ(back->initial.r[b], orig->scene.initial.r[b]);
  std::remove(out.c_str());
  EXPECT_EQ(run_cli("inspect " + kData + "arm.urdf --set package_path=" + kData), 0);
  EXPECT_EQ(run_cli("simulate " + kData + "fourbar.urdf --steps 100 --quiet"), 0);
}

}  // namespace
}  // namespace moreau
