// `moreau experiment NAME --out DIR --quick`: the tables and the figures land in DIR, and nothing
// is written into the source tree (docs/figures changes only through `scripts/dev.sh figures`).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "cli_run.hpp"

using namespace moreau;
using test::read_file;
using test::run_moreau;

namespace {

namespace fs = std::filesystem;

// Every file of the source tree with its size and modification time, build directories and git
// metadata left out.
std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> source_tree() {
  std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> out;
  const fs::path root = MOREAU_SOURCE_DIR, binary = fs::weakly_canonical(MOREAU_BINARY_DIR);
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string name = it->path().filename().string();
    // A fuzzer running beside the tests grows fuzz/'s ignored folders (fuzz/README.md).
    const bool fuzz_output =
        it->path().parent_path().filename() == "fuzz" &&
        (name == "work" || name == "findings" || name == "seeds" || name == "bin" || name == "obj");
    if (it->is_directory() && (name.rfind("build", 0) == 0 || name == ".git" || fuzz_output ||
                               fs::weakly_canonical(it->path()) == binary)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) out[it->path().string()] = {it->file_size(), it->last_write_time()};
  }
  return out;
}

bool is_svg(const std::string& s) {
  return s.rfind("<svg", 0) == 0 && s.size() > 7 && s.substr(s.size() - 7) == "</svg>\n";
}

}  // namespace

TEST(CliExperiment, QuickRunWritesTablesAndFiguresIntoOutOnly) {
  test::require_binary();
  test::TempDir tmp;
  const std::string out = tmp / "out";
  const auto before = source_tree();
  ASSERT_FALSE(before.empty());
  const auto r = run_moreau("experiment all --quick --out '" + out + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  const std::vector<std::string> expected = {"ccp-vs-ncp-trace.csv",
                                             "ccp-vs-ncp.csv",
                                             "ccp-vs-ncp.svg",
                                             "nmdp-stability-outer.csv",
                                             "nmdp-stability-series.csv",
                                             "nmdp-stability.csv",
                                             "nmdp-stability.svg",
                                             "sap-clutter-scaling.csv",
                                             "sap-clutter.csv",
                                             "sap-clutter.svg",
                                             "sap-spring-cylinder-order.csv",
                                             "sap-spring-cylinder.csv",
                                             "sap-spring-cylinder.svg",
                                             "softening-vs-proximal-trace.csv",
                                             "softening-vs-proximal.csv",
                                             "softening-vs-proximal.svg",
                                             "sor-sensitivity.csv",
                                             "sor-sensitivity.svg",
                                             "summary.json",
                                             "timestep-sweep.csv",
                                             "timestep-sweep.svg"};
  EXPECT_EQ(names, expected);
  for (const char* stem :
       {"ccp-vs-ncp", "softening-vs-proximal", "timestep-sweep", "sor-sensitivity",
        "sap-spring-cylinder", "sap-clutter", "nmdp-stability"}) {
    const std::string svg = read_file(out + "/" + stem + ".svg");
    EXPECT_TRUE(is_svg(svg)) << stem;
    EXPECT_NE(svg.find(std::string(stem) + ":"), std::string::npos) << stem;  // the title
    EXPECT_NE(r.out.find(out + "/" + stem + ".svg"), std::string::npos) << r.out;
  }
  EXPECT_TRUE(before == source_tree()) << "the run wrote into " << MOREAU_SOURCE_DIR;
}

// The SAP experiments' summary.json: one JSON object with the headline numbers.
TEST(CliExperiment, SapSpringCylinderWritesItsSummary) {
  test::require_binary();
  test::TempDir tmp;
  const std::string out = tmp / "out";
  const auto r = run_moreau("experiment sap-spring-cylinder --quick --out '" + out + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string json = read_file(out + "/summary.json");
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json.front(), '{');
  for (const char* key : {"energy_band_midpoint_rolling", "energy_band_symplectic_frictionless",
                          "order_midpoint", "order_symplectic"})
    EXPECT_NE(json.find(std::string("\"") + key + "\": "), std::string::npos) << key << json;
  EXPECT_EQ(json.find("null"), std::string::npos) << json;
}

TEST(CliExperiment, UnknownNameIsRefused) {
  test::require_binary();
  test::TempDir tmp;
  const auto r = run_moreau("experiment nosuch --quick --out '" + (tmp / "out") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("sor-sensitivity"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out"));
}
