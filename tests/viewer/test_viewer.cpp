// The trajectory viewer (docs/viewer.md): its encoding, the `view` command's checks of its input,
// and the page itself in a headless browser (when Chromium is installed).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/viewer/browser.hpp"
#include "moreau/viewer/viewer_html.hpp"

namespace moreau {
namespace {

namespace fs = std::filesystem;
using test::run_moreau;
using test::TempDir;

TEST(ViewerEncoding, Base64MatchesRfc4648Vectors) {
  // RFC 4648, Sec. 10.
  const char* in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  const char* out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(viewer::base64(in[i], std::strlen(in[i])), out[i]);
}

TEST(ViewerEncoding, KeptFramesAreEvenlySpacedAndKeepBothEnds) {
  EXPECT_EQ(viewer::kept_frames(5, 100), (std::vector<int>{0, 1, 2, 3, 4}));
  for (int n : {2, 3, 100, 10001, 12345}) {
    const std::vector<int> k = viewer::kept_frames(n, 50);
    ASSERT_LE(int(k.size()), 50) << n;
    EXPECT_EQ(k.front(), 0);
    EXPECT_EQ(k.back(), n - 1);
    for (size_t i = 2; i + 1 < k.size(); ++i) EXPECT_EQ(k[i] - k[i - 1], k[1] - k[0]);
  }
}

TEST(ViewerHtml, IsOneFileWithThreeJsAndTheModel) {
  if (!viewer::available()) GTEST_SKIP() << "built without three.js (libjs-three)";
  Result<Scene> s = load_scene("box-on-plane");
  ASSERT_TRUE(s) << s.error().message();
  viewer::Recording rec(s->model.num_bodies(), true);
  rec.add_frame(s->initial);
  rec.add_contact(Vec3(0, 0, 0), Vec3(0, 0, 9.81));
  const std::string html =
      viewer::viewer_html(s->model, {"box</script>", "nbgs", "euler", 1e-3}, rec);
  EXPECT_NE(html.find("REVISION"), std::string::npos);     // three.js is inlined
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);   // nothing to fetch
  EXPECT_EQ(html.find("MOREAU_DATA"), std::string::npos);  // every placeholder filled
  EXPECT_EQ(html.find("MOREAU_VIEWER_JS"), std::string::npos);
  // The scene name cannot close the data's <script> element early.
  EXPECT_EQ(html.find("box</script>"), std::string::npos);
  EXPECT_NE(html.find("box<\\/script>"), std::string::npos);
}

class ViewCommand : public ::testing::Test {
 protected:
  void SetUp() override { test::require_binary(); }
  TempDir tmp;
};

TEST_F(ViewCommand, JsonTrajectoryCarriesItsScene) {
  if (!viewer::available()) GTEST_SKIP() << "built without three.js (libjs-three)";
  auto r = run_moreau("simulate fourbar-fixed --steps 50 -q --out '" + (tmp / "t.json") + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json t = nlohmann::json::parse(test::read_file(tmp / "t.json"));
  EXPECT_EQ(t["scene_definition"]["bodies"].size(), 4u);
  r = run_moreau("view '" + (tmp / "t.json") + "' --out '" + (tmp / "v.html") + "'");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "v.html"));
}

TEST_F(ViewCommand, TrajectoryOfAnotherSceneIsBadInputAndWritesNothing) {
  auto r = run_moreau("simulate fourbar-fixed --steps 20 -q --out '" + (tmp / "t.csv") + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_moreau("view '" + (tmp / "t.csv") + "' --scene pendulum --out '" + (tmp / "v.html") +
                 "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("expected the 1 bodies of scene 'pendulum', got 4 bodies"),
            std::string::npos)
      << r.err;
  // A CSV without --scene: which scene is unknown.
  r = run_moreau("view '" + (tmp / "t.csv") + "' --out '" + (tmp / "v.html") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--scene"), std::string::npos) << r.err;
  // Same body count, another name: the CSV's "crank" becomes "lever".
  {
    std::string csv = test::read_file(tmp / "t.csv");
    for (size_t at; (at = csv.find("crank.")) != std::string::npos;) csv.replace(at, 5, "lever");
    std::ofstream(tmp / "t.csv", std::ios::binary) << csv;
  }
  r = run_moreau("view '" + (tmp / "t.csv") + "' --scene fourbar-fixed --out '" + (tmp / "v.html") +
                 "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("expected 'crank' as in scene 'fourbar-fixed', got 'lever'"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(tmp.entries(), (std::vector<std::string>{"t.csv"}));
}

// A box resting on the plane: its contact forces (R_c lambda / dt, on the box) carry its weight.
TEST_F(ViewCommand, RecordedContactForcesOfARestingBoxSumToItsWeight) {
  auto r = run_moreau("simulate box-on-plane --steps 300 --every 100 -q --contacts --out '" +
                      (tmp / "t.json") + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json t = nlohmann::json::parse(test::read_file(tmp / "t.json"));
  const double m = t["scene_definition"]["bodies"][0]["mass"].get<double>();
  const double g = -t["scene_definition"]["gravity"][2].get<double>();
  ASSERT_EQ(t["samples"].size(), 4u);
  EXPECT_TRUE(t["samples"][0]["contacts"].empty());  // the initial state: no step yet
  for (int i = 1; i < 4; ++i) {
    const nlohmann::json& c = t["samples"][i]["contacts"];
    ASSERT_FALSE(c.empty());
    double f[3] = {0, 0, 0};
    for (const auto& k : c)
      for (int a = 0; a < 3; ++a) f[a] += k[3 + a].get<double>();
    EXPECT_NEAR(f[2], m * g, 1e-3 * m * g) << "sample " << i;
    EXPECT_NEAR(f[0], 0.0, 1e-6 * m * g);  // no friction needed at rest
    EXPECT_NEAR(f[1], 0.0, 1e-6 * m * g);
  }
}

TEST_F(ViewCommand, SimulateWritesTheViewerOnlyOnSuccess) {
  if (!viewer::available()) GTEST_SKIP() << "built without three.js (libjs-three)";
  auto r = run_moreau("simulate box-on-plane --steps 30 -q --view '" + (tmp / "v.html") + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string html = test::read_file(tmp / "v.html");
  EXPECT_NE(html.find("\"contact_begin\""), std::string::npos);  // contacts recorded
  r = run_moreau("simulate box-on-plane --steps 30 -q --view '" + (tmp / "v.txt") + "'");
  EXPECT_EQ(r.code, 2);
  r = run_moreau("simulate box-on-plane --steps 30 -q --contacts --out '" + (tmp / "t.csv") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("only a .json trajectory carries contacts"), std::string::npos) << r.err;
  EXPECT_EQ(tmp.entries(), (std::vector<std::string>{"v.html"}));
}

TEST_F(ViewCommand, MalformedTrajectoryIsBadInput) {
  {
    std::ofstream f(tmp / "bad.json");
    f << R"({"bodies":["a"],"samples":[{"t":0,"position":[[0,0,0]],"quaternion":[[1,0,0]]}]})";
  }
  auto r = run_moreau("view '" + (tmp / "bad.json") + "' --scene pendulum --out '" +
                      (tmp / "v.html") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("samples[0]"), std::string::npos) << r.err;
  // Each error names the file and what was expected; nothing is written.
  auto view_fails = [&](const std::string& file, const std::string& scene,
                        const std::string& expected) {
    auto v = run_moreau("view '" + (tmp / file) + "'" + (scene.empty() ? "" : " --scene " + scene) +
                        " --out '" + (tmp / "v.html") + "'");
    EXPECT_EQ(v.code, 2) << file;
    EXPECT_NE(v.err.find(file), std::string::npos) << v.err;
    EXPECT_NE(v.err.find(expected), std::string::npos) << v.err;
  };
  view_fails("missing.json", "", "expected a readable file");
  std::ofstream(tmp / "cut.json") << R"({"bodies":["bob"],"samples":[{"t":0,)";
  view_fails("cut.json", "", "expected valid JSON");
  std::ofstream(tmp / "back.json")
      << R"({"bodies":["bob"],"samples":[{"t":1,"position":[[0,0,0]],"quaternion":[[1,0,0,0]]},)"
      << R"({"t":0.5,"position":[[0,0,0]],"quaternion":[[1,0,0,0]]}]})";
  view_fails("back.json", "pendulum", "samples[1].t: expected a time >= the previous sample's 1");
  r = run_moreau("simulate pendulum --steps 3 -q --out '" + (tmp / "p.csv") + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  std::string csv = test::read_file(tmp / "p.csv");
  {  // the last cell of the last row (constraint_violation) is not a number
    std::string bad = csv.substr(0, csv.find_last_of(',', csv.size() - 2) + 1) + "x\n";
    std::ofstream(tmp / "cell.csv", std::ios::binary) << bad;
    view_fails("cell.csv", "pendulum",
               "cell.csv:5: column constraint_violation: expected a number");
  }
  {  // a row cut short: its last three cells are missing
    size_t end = csv.size() - 1;
    for (int k = 0; k < 3; ++k) end = csv.find_last_of(',', end - 1);
    std::ofstream(tmp / "short.csv", std::ios::binary) << csv.substr(0, end) << "\n";
    view_fails("short.csv", "pendulum", "short.csv:5: CSV row: expected 16 columns");
  }
  EXPECT_FALSE(fs::exists(tmp / "v.html"));
}

// The page in a real browser: loads without console errors, draws every body, and the time
// slider moves them (docs/viewer.md, "Self-test").
TEST_F(ViewCommand, BrowserDrawsTheFourbarAndTheSliderMovesIt) {
  const std::string browser = viewer::find_browser();
  if (browser.empty()) GTEST_SKIP() << "no chromium on PATH (or MOREAU_CHROMIUM=none)";
  if (!viewer::available()) GTEST_SKIP() << "built without three.js (libjs-three)";
  auto r = run_moreau("simulate fourbar-fixed --duration 1 -q --contacts --out '" +
                      (tmp / "t.json") + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_moreau("view '" + (tmp / "t.json") + "' -q --out '" + (tmp / "v.html") + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  Result<std::string> dom = viewer::dump_dom(browser, tmp / "v.html", "selftest", 800, 600);
  ASSERT_TRUE(dom) << dom.error().message();
  const std::string open = "<pre id=\"moreau-selftest\">";
  const size_t a = dom->find(open), b = dom->find("</pre>", a);
  ASSERT_NE(a, std::string::npos) << "no self-test result in the page:\n" << dom->substr(0, 2000);
  const nlohmann::json res =
      nlohmann::json::parse(dom->substr(a + open.size(), b - a - open.size()));
  EXPECT_TRUE(res["errors"].empty()) << res.dump();
  EXPECT_EQ(res["bodies_expected"], 4);
  EXPECT_EQ(res["bodies_drawn"], 4) << res.dump();
  // Not blank: the links cover a visible share of the canvas against the background.
  const double pixels = res["width"].get<double>() * res["height"].get<double>();
  EXPECT_GT(res["drawn_pixels"].get<double>(), 0.005 * pixels) << res.dump();
  // The slider's last frame shows the mechanism elsewhere.
  EXPECT_EQ(res["frame_after_slider"], res["frames"].get<int>() - 1);
  EXPECT_GT(res["slider_changed_pixels"].get<double>(), 0.001 * pixels) << res.dump();
  EXPECT_GT(res["play_distinct_frames"].get<int>(), 1) << res.dump();  // playing moves on
}

// The report's picture of the systems (docs/viewer.md, "Pictures in the benchmark report"):
// drawn by the browser when there is one; without one the bench still runs and says so.
TEST_F(ViewCommand, BenchWithoutBrowserSkipsThePicturesAndSaysSo) {
  const char* was = std::getenv("MOREAU_CHROMIUM");
  const std::string before = was ? was : "";
  ::setenv("MOREAU_CHROMIUM", "none", 1);
  auto r = run_moreau("bench --out '" + (tmp / "out") +
                      "' --systems fourbar-fixed --solvers nbgs --max-samples 1 --duration 0.05 "
                      "--quiet");
  if (was)
    ::setenv("MOREAU_CHROMIUM", before.c_str(), 1);
  else
    ::unsetenv("MOREAU_CHROMIUM");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Pictures of the systems skipped"), std::string::npos) << r.out;
  const std::string report = test::read_file(tmp / "out/report.md");
  EXPECT_NE(report.find("Pictures of the systems skipped"), std::string::npos);
  EXPECT_FALSE(fs::exists(tmp / "out/plots/systems.png"));
  EXPECT_TRUE(fs::exists(tmp / "out/results.csv"));
}

TEST_F(ViewCommand, BenchDrawsTheSystemsIntoTheReport) {
  if (viewer::find_browser().empty())
    GTEST_SKIP() << "no chromium on PATH (or MOREAU_CHROMIUM=none)";
  if (!viewer::available()) GTEST_SKIP() << "built without three.js (libjs-three)";
  auto r = run_moreau("bench --out '" + (tmp / "out") +
                      "' --systems box-on-plane,fourbar-fixed --solvers nbgs --max-samples 1 "
                      "--duration 0.05 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string png = test::read_file(tmp / "out/plots/systems.png");
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  // IHDR: width and height (big-endian) are two 400 x 300 tiles side by side.
  auto be32 = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  EXPECT_EQ(be32(16), 800u);
  EXPECT_EQ(be32(20), 300u);
  EXPECT_NE(test::read_file(tmp / "out/report.md").find("(plots/systems.png)"), std::string::npos);
}

}  // namespace
}  // namespace moreau
