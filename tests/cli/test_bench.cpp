// `moreau bench`: bad input is refused before any work, and a small run writes every file with
// one results.csv row per sample, solver and start.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_run.hpp"

using namespace moreau;
using test::read_file;
using test::run_moreau;

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line))
    if (!line.empty()) out.push_back(line);
  return out;
}
}  // namespace

TEST(CliBench, UnknownSystemListsTheSuite) {
  test::require_binary();
  test::TempDir tmp;
  const auto r = run_moreau("bench --out '" + (tmp / "out") + "' --systems fourbar-fixed,nosuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown system 'nosuch'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ironman"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "out"));  // refused before any work
}

TEST(CliBench, UnknownSolverListsTheRegistry) {
  test::require_binary();
  test::TempDir tmp;
  const auto r = run_moreau("bench --out '" + (tmp / "out") + "' --solvers nbgs,gauss-magic");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown solver 'gauss-magic'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("admm-ncp-sa"), std::string::npos) << r.err;
}

TEST(CliBench, UnwritableOutFailsBeforeAnyWork) {
  test::require_binary();
  test::TempDir tmp;
  const std::string file = tmp / "a-file";
  std::ofstream(file) << "x";
  const auto r = run_moreau("bench --out '" + file + "/sub' --systems box-on-plane");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");  // no work was reported
}

TEST(CliBench, SmallRunWritesEveryFileWithOneRowPerSampleSolverAndStart) {
  test::require_binary();
  test::TempDir tmp;
  const std::string out = tmp / "out";
  const auto r = run_moreau("bench --out '" + out +
                            "' --systems box-on-plane,fourbar-fixed --solvers nbgs,admm-ncp-sa,"
                            "direct --max-samples 2 --duration 0.05 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"results.csv", "summary.json", "report.md"})
    EXPECT_TRUE(std::filesystem::exists(out + "/" + f)) << f;
  EXPECT_TRUE(std::filesystem::is_directory(out + "/plots"));

  const auto rows = lines_of(read_file(out + "/results.csv"));
  ASSERT_GE(rows.size(), 2u);
  // Count the (system, step) samples and the starts from the rows themselves.
  std::set<std::string> samples;
  int warm_rows = 0, direct_failed = 0, direct_rows = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    std::stringstream ss(rows[i]);
    std::string index, system, step;  // columns: sample, system, step, ...
    std::getline(ss, index, ',');
    std::getline(ss, system, ',');
    std::getline(ss, step, ',');
    samples.insert(system + "#" + step);
    if (rows[i].find(",warm,") != std::string::npos) ++warm_rows;
    if (rows[i].find(",direct,") != std::string::npos) {
      ++direct_rows;
      // `direct` does not handle contacts: on box-on-plane it is a failed row, not a crash.
      if (system == "box-on-plane" && rows[i].find(",failed,") != std::string::npos)
        ++direct_failed;
    }
  }
  EXPECT_GE(samples.size(), 2u);
  const size_t solvers = 3;
  const size_t cold_rows = samples.size() * solvers;
  EXPECT_EQ(rows.size() - 1, cold_rows + static_cast<size_t>(warm_rows));
  EXPECT_EQ(warm_rows % solvers, 0u);
  EXPECT_GT(direct_failed, 0) << "direct should fail (as a row) on the contact samples";
  EXPECT_GT(direct_rows, direct_failed);

  const auto summary = nlohmann::json::parse(read_file(out + "/summary.json"));
  EXPECT_TRUE(summary.contains("aggregates"));
  const std::string report = read_file(out + "/report.md");
  EXPECT_NE(report.find("admm-ncp-sa"), std::string::npos);
}

// bench --param sets the key on every selected solver that has it; a key none of them has exits
// 2 before any work and lists each solver's keys.
TEST(CliBench, ParamNoSelectedSolverHasIsRefused) {
  test::require_binary();
  test::TempDir tmp;
  auto r = run_moreau("bench --out '" + (tmp / "out") +
                      "' --systems box-on-plane --solvers nbgs,pgs-ncp --param rho=2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no selected solver has parameter 'rho'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nbgs: omega [0, 10]"), std::string::npos) << r.err;
  r = run_moreau("bench --out '" + (tmp / "out") +
                 "' --systems box-on-plane --solvers nbgs,admm-ncp-fp --param rho=0");
  EXPECT_EQ(r.code, 2);  // admm-ncp-fp has rho, in (0, inf)
  EXPECT_NE(r.err.find("(0, inf)"), std::string::npos) << r.err;
}
