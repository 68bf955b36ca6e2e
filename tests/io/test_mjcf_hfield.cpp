// MJCF height fields (docs/model-import.md): a PNG image and the same inline data give the same
// elevations (normalized to [0, 1], the image's top row at +y); nrow/ncol alone give a flat field
// on which a ball comes to rest; the JSON scene format writes and reads them back; bad input is a
// clear error naming the file or element, and exit code 2 from the CLI.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <utility>

#include "io/io_helpers.hpp"
#include "moreau/io/png_gray.hpp"
#include "moreau/io/scene.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {
namespace {

using io_test::kBin;
using io_test::kData;

const HeightFieldData* field(const Model& m, const std::string& name) {
  for (const Geometry& g : m.geometries())
    if (g.name == name && g.type == ShapeType::HeightField) return g.hfield.get();
  return nullptr;
}

TEST(MjcfHeightField, PngAndInlineDataGiveTheSameElevations) {
  if (!have_png()) GTEST_SKIP() << "moreau built without libpng";
  Result<ImportedModel> r = import_mjcf_file(kData + "hfield.xml");
  ASSERT_TRUE(r.ok()) << r.error().message();
  const HeightFieldData* png = field(r->scene.model, "png");
  const HeightFieldData* inl = field(r->scene.model, "inline");
  ASSERT_TRUE(png && inl);
  ASSERT_EQ(png->nrow, 4);
  ASSERT_EQ(png->ncol, 5);
  ASSERT_EQ(inl->nrow, 4);
  ASSERT_EQ(inl->ncol, 5);
  EXPECT_EQ(png->elevation, inl->elevation);
  // Row 0 (y = -ry) is the image's bottom row 5 15 25 35 45; the 255 pixel is row 2, column 2.
  EXPECT_DOUBLE_EQ(png->elevation[0], 5.0 / 255.0);
  EXPECT_DOUBLE_EQ(png->elevation[2 * 5 + 2], 1.0);
  EXPECT_DOUBLE_EQ(png->elevation[3 * 5 + 0], 0.0);
  EXPECT_LE((png->point(2, 2) - Vec3(0.0, 1.5 / 3.0, 0.4)).norm(), 1e-15);
  EXPECT_LE((png->point(0, 4) - Vec3(2.0, -1.5, 0.4 * 45.0 / 255.0)).norm(), 1e-15);
  EXPECT_EQ(png->base, 0.1);
}

TEST(MjcfHeightField, FlatFieldHoldsABallAndSurvivesJson) {
  // Without libpng the PNG field is an error: use the inline and flat fields only.
  std::ifstream in(kData + "hfield.xml");
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!have_png()) {
    xml.replace(
        xml.find("<hfield name=\"terrain_png\""),
        xml.find("/>", xml.find("terrain_png")) + 2 - xml.find("<hfield name=\"terrain_png\""), "");
    xml.replace(xml.find("<geom name=\"png\""),
                xml.find("/>", xml.find("<geom name=\"png\"")) + 2 - xml.find("<geom name=\"png\""),
                "");
  }
  Result<ImportedModel> r = import_mjcf_string(xml, kData + "hfield.xml", kData);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const HeightFieldData* flat = field(r->scene.model, "flat");
  ASSERT_TRUE(flat);
  EXPECT_EQ(flat->elevation, std::vector<double>(9, 0.0));
  State s = r->scene.initial;
  Simulator sim(r->scene.model, r->scene.settings);
  for (int k = 0; k < 1000; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  const int ball = r->scene.model.body_index("ball");
  EXPECT_NEAR(s.r[ball].z(), 0.1, 2e-3);  // resting on the field's z = 0 surface
  EXPECT_LE(s.u[ball].norm(), 1e-2);
  // JSON: written and read back with the same elevations (normalized values stay as they are).
  Result<Scene> back = parse_scene_json(scene_to_json(r->scene), "hfield.json");
  ASSERT_TRUE(back.ok()) << back.error().message();
  const HeightFieldData* b = field(back->model, "inline");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->elevation, field(r->scene.model, "inline")->elevation);
  EXPECT_EQ(b->nrow, 4);
  EXPECT_EQ(b->ncol, 5);
  EXPECT_EQ(b->rx, 2.0);
}

std::string import_error(const std::string& asset, const std::string& geom) {
  const std::string xml = "<mujoco>\n<asset>\n" + asset + "\n</asset>\n<worldbody>\n" + geom +
                          "\n</worldbody>\n</mujoco>\n";
  Result<ImportedModel> r = import_mjcf_string(xml, "bad.xml", kData);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message();
}

TEST(MjcfHeightField, BadInputIsAClearError) {
  const std::string geom = "<geom type=\"hfield\" hfield=\"h\"/>";
  std::string m = import_error("<hfield name=\"h\" file=\"no_such.png\" size=\"1 1 1 1\"/>", geom);
  EXPECT_NE(m.find("bad.xml:3"), std::string::npos) << m;
  EXPECT_NE(m.find("no_such.png"), std::string::npos) << m;
  m = import_error(
      "<hfield name=\"h\" nrow=\"2\" ncol=\"3\" size=\"1 1 1 1\" elevation=\"1 2 3 4 5\"/>", geom);
  EXPECT_NE(m.find("hfield 'h' elevation"), std::string::npos) << m;
  EXPECT_NE(m.find("nrow * ncol = 6 values"), std::string::npos) << m;
  EXPECT_NE(m.find("got 5 values"), std::string::npos) << m;
  m = import_error("<hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 0 1 1\"/>", geom);
  EXPECT_NE(m.find("hfield 'h' size[1]"), std::string::npos) << m;
  EXPECT_NE(m.find("> 0"), std::string::npos) << m;
  m = import_error("<hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 -0.1\"/>", geom);
  EXPECT_NE(m.find("size[3]"), std::string::npos) << m;
  m = import_error("<hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"/>",
                   "<geom name=\"ground\" type=\"hfield\" hfield=\"hh\"/>");
  EXPECT_NE(m.find("bad.xml:6"), std::string::npos) << m;
  EXPECT_NE(m.find("geom 'ground' hfield"), std::string::npos) << m;
  EXPECT_NE(m.find("'hh'"), std::string::npos) << m;
  m = import_error("<hfield name=\"h\" size=\"1 1 1 1\"/>", geom);
  EXPECT_NE(m.find("nrow and ncol"), std::string::npos) << m;
  m = import_error("<hfield name=\"h\" nrow=\"1\" ncol=\"4\" size=\"1 1 1 1\"/>", geom);
  EXPECT_NE(m.find("at least 2 rows"), std::string::npos) << m;
  m = import_error("<hfield name=\"h\" file=\"hfield_terrain.png\" nrow=\"4\" size=\"1 1 1 1\"/>",
                   geom);
  EXPECT_NE(m.find("either a file or nrow/ncol"), std::string::npos) << m;
  // Not .png: MuJoCo's binary format, whose size must match its header.
  m = import_error("<hfield name=\"h\" file=\"hfield.xml\" size=\"1 1 1 1\"/>", geom);
  EXPECT_NE(m.find("hfield 'h' file: expected MuJoCo's binary height field"), std::string::npos)
      << m;
  const std::string tmp = std::string(MOREAU_BINARY_DIR) + "/bad_hfield.bin";
  for (const auto& [bytes, what] :
       {std::pair{std::string("\x02\0\0\0", 4), "4 bytes, no header"},
        std::pair{std::string("\0\0\0\0\x03\0\0\0", 8), "nrow 0, ncol 3 (not >= 1)"},
        std::pair{std::string("\x02\0\0\0\x02\0\0\0", 8) + std::string(12, '\0'),
                  "20 bytes where nrow 2, ncol 2 need 24"}}) {
    std::ofstream(tmp, std::ios::binary) << bytes;
    m = import_error("<hfield name=\"h\" file=\"" + tmp + "\" size=\"1 1 1 1\"/>", geom);
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_NE(m.find(tmp), std::string::npos) << m;
  }
  std::remove(tmp.c_str());
}

// MuJoCo's binary format (int32 nrow, int32 ncol, float32 data, rows from -y as the inline data):
// tests/data/hfield_terrain.bin holds the inline terrain of hfield.xml.
TEST(MjcfHeightField, BinaryFileEqualsTheInlineData) {
  Result<ImportedModel> r = import_mjcf_string(
      "<mujoco><asset><hfield name=\"bin\" file=\"hfield_terrain.bin\" size=\"2 1.5 0.4 0.1\"/>"
      "<hfield name=\"inl\" nrow=\"4\" ncol=\"5\" size=\"2 1.5 0.4 0.1\" elevation=\"5 15 25 35 "
      "45 200 100 0 40 80 10 50 255 70 20 0 30 60 90 120\"/></asset><worldbody>"
      "<geom name=\"bin\" type=\"hfield\" hfield=\"bin\"/>"
      "<geom name=\"inl\" type=\"hfield\" hfield=\"inl\" pos=\"5 0 0\"/></worldbody></mujoco>",
      kData + "binary.xml", kData);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const HeightFieldData *bin = field(r->scene.model, "bin"), *inl = field(r->scene.model, "inl");
  ASSERT_TRUE(bin && inl);
  EXPECT_EQ(bin->nrow, 4);
  EXPECT_EQ(bin->ncol, 5);
  EXPECT_EQ(bin->elevation, inl->elevation);  // integers: exact in binary32
  EXPECT_DOUBLE_EQ(bin->elevation[2 * 5 + 2], 1.0);
  EXPECT_NE(bin->source.find("hfield_terrain.bin"), std::string::npos);
}

TEST(MjcfHeightField, CliExitsWithCode2OnBadInput) {
  if (!std::ifstream(kBin)) GTEST_SKIP() << "build/moreau is not built";
  const std::string bad = testing::TempDir() + "moreau_bad_hfield.xml";
  std::ofstream(bad) << "<mujoco><asset><hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\" "
                        "elevation=\"1 2 3\"/></asset><worldbody><geom type=\"hfield\" "
                        "hfield=\"h\"/></worldbody></mujoco>";
  auto run = [](const std::string& args) {
    const int st = std::system((kBin + " " + args + " >/dev/null 2>&1").c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  EXPECT_EQ(run("inspect " + bad), 2);
  EXPECT_EQ(run("simulate " + bad + " --steps 10 --quiet"), 2);
  if (have_png()) {
    EXPECT_EQ(run("simulate " + kData + "hfield.xml --steps 50 --quiet"), 0);
  }
}

}  // namespace
}  // namespace moreau
