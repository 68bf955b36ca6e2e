// write_report on a small synthetic run: every file, its shape, well-formed SVG, errors as values.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "moreau/bench/bench.hpp"
#include "moreau/bench/svg_plot.hpp"

namespace moreau::bench {
namespace {

namespace fs = std::filesystem;
const double kNoMetric = std::numeric_limits<double>::quiet_NaN();

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        rows.back().back() += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        rows.back().back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().emplace_back();
    } else if (c == '\n') {
      rows.emplace_back(1);
    } else {
      rows.back().back() += c;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

// Well-formed enough: one root <svg>, every start tag closed in order, no stray '&'.
bool balanced_svg(const std::string& s, std::string* why) {
  if (s.rfind("<svg", 0) != 0) return *why = "does not start with <svg", false;
  if (s.size() < 7 || s.substr(s.size() - 7) != "</svg>\n")
    return *why = "does not end with </svg>", false;
  std::vector<std::string> stack;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&') {
      const size_t semi = s.find(';', i);
      const std::string ent = s.substr(i, semi == std::string::npos ? 1 : semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;")
        return *why = "bad entity " + ent, false;
    }
    if (s[i] != '<') continue;
    const size_t end = s.find('>', i);
    if (end == std::string::npos) return *why = "unterminated tag", false;
    const std::string tag = s.substr(i + 1, end - i - 1);
    i = end;
    if (tag.empty()) return *why = "empty tag", false;
    if (tag[0] == '/') {
      if (stack.empty() || stack.back() != tag.substr(1))
        return *why = "mismatched </" + tag.substr(1) + ">", false;
      stack.pop_back();
    } else if (tag.back() != '/') {
      stack.push_back(tag.substr(0, tag.find_first_of(" \n")));
      if (stack.size() == 1 && stack[0] != "svg") return *why = "root is not svg", false;
    }
    if (stack.empty() && end + 2 < s.size()) return *why = "content after the root", false;
  }
  if (!stack.empty()) return *why = "unclosed <" + stack.back() + ">", false;
  return true;
}

struct Fixture {
  std::vector<Sample> samples;
  std::vector<RunResult> runs;
  ReportInput in;
};

Sample sample(const std::string& system, int step, Category cat, int nl) {
  Sample s;
  s.system = system;
  s.step = step;
  s.time = 0.01 * step;
  s.reason = step == 0 ? "first" : "periodic";
  s.info.category = cat;
  s.info.nl = nl;
  s.info.bodies = 2;
  s.info.contacts = cat == Category::SparseContacts ? 4 : 0;
  s.info.cond_D = 1e3 + step;
  s.info.mass_ratio = 10.0;
  return s;
}

void make_fixture(Fixture& f, const fs::path& dir) {
  f.samples = {sample("box-on-plane", 0, Category::SparseContacts, 12),
               sample("box-on-plane", 5, Category::SparseContacts, 12),
               sample("arm7d", 0, Category::IndependentJoints, 41),
               sample("fclib:Capsules", -1, Category::DenseContacts, 90)};
  const std::vector<std::string> solvers = {"pgs", "admm-ncp-sa", "ngn"};
  for (int s = 0; s < int(f.samples.size()); ++s)
    for (int k = 0; k < 3; ++k)
      for (const bool warm : {false, true}) {
        if (warm && s != 0) continue;
        RunResult r;
        r.sample = s;
        r.solver = solvers[k];
        r.warm = warm;
        r.success = !(k == 2 && s == 3);  // ngn fails the FCLib problem
        r.status = r.success ? SolveStatus::Converged : SolveStatus::Diverged;
        r.iterations = 10 * (k + 1) + s;
        r.solve_time_s = 1e-4 * (k + 1) * (s + 1) + 1.0 / 3.0 * 1e-6;
        r.metrics = {1e-9, 2e-9, 3e-9, r.success ? 1e-8 / (k + 1) : kNoMetric, 1e-10};
        r.message = r.success ? "" : "diverged, \"lambda\" non-finite";
        for (int i = 0; i < r.iterations; ++i) r.trace.push_back(std::pow(0.5 + 0.1 * k, i));
        f.runs.push_back(r);
      }
  f.in.out_dir = dir.string();
  f.in.samples = &f.samples;
  f.in.runs = &f.runs;
  f.in.solvers = solvers;
  f.in.systems = {"box-on-plane", "arm7d"};
  f.in.tol = 1e-6;
  f.in.command_line = "moreau bench --systems box-on-plane,arm7d";
  f.in.wall_s = 2.0;
  f.in.solve_s = 0.01;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("moreau_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(BenchReport, WritesEveryFile) {
  const fs::path dir = fresh_dir("report");
  Fixture f;
  make_fixture(f, dir);
  const auto err = write_report(f.in);
  ASSERT_FALSE(err.has_value()) << err->message();

  // results.csv: header + one row per run, 29 columns, numbers that round-trip.
  const auto csv = parse_csv(read(dir / "results.csv"));
  ASSERT_EQ(csv.size(), f.runs.size() + 1);
  const std::vector<std::string>& head = csv[0];
  ASSERT_EQ(head.size(), 29u);
  EXPECT_EQ(head[1], "system");
  EXPECT_EQ(head[27], "message");
  EXPECT_EQ(head.back(), "fallbacks");
  auto col = [&](const std::string& name) {
    return size_t(std::find(head.begin(), head.end(), name) - head.begin());
  };
  for (size_t i = 0; i < f.runs.size(); ++i) {
    const auto& row = csv[i + 1];
    ASSERT_EQ(row.size(), head.size()) << "row " << i;
    const RunResult& r = f.runs[i];
    EXPECT_EQ(row[col("solver")], r.solver);
    EXPECT_EQ(row[col("start")], r.warm ? "warm" : "cold");
    EXPECT_EQ(row[col("system")], f.samples[r.sample].system);
    EXPECT_EQ(std::strtod(row[col("solve_time_s")].c_str(), nullptr), r.solve_time_s);
    EXPECT_EQ(row[col("status")], status_name(r.status));
    EXPECT_EQ(row[col("message")], r.message);
    if (std::isnan(r.metrics.r_natmap)) {
      EXPECT_EQ(row[col("r_natmap")], "nan");
    }
  }

  // summary.json: settings, every aggregate, profiles per solver, rankings.
  const auto j = nlohmann::json::parse(read(dir / "summary.json"));
  EXPECT_DOUBLE_EQ(j["settings"]["tol"].get<double>(), 1e-6);
  EXPECT_EQ(j["aggregates"].size(), aggregate(f.samples, f.runs).size());
  const auto& prof = j["profiles"]["time_to_tolerance"]["cold"];
  ASSERT_EQ(prof.size(), 3u);
  // pgs is fastest on every sample; ngn solves 3 of 4.
  EXPECT_DOUBLE_EQ(prof[0]["rho"][0].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(prof[2]["rho"].back().get<double>(), 0.75);
  EXPECT_EQ(j["ranking"]["per_system"]["arm7d"][0]["solver"], "pgs");
  EXPECT_EQ(j["ranking"]["per_category"]["dense-contacts"].back()["solver"], "ngn");
  EXPECT_TRUE(j["ranking"]["per_group"].contains("fclib"));

  // Plots: well formed, referenced from report.md; no temporaries left behind.
  const std::string md = read(dir / "report.md");
  EXPECT_NE(md.find("Which solver wins where"), std::string::npos);
  int n_svg = 0;
  for (const auto& e : fs::directory_iterator(dir / "plots")) {
    ++n_svg;
    const std::string name = e.path().filename().string();
    EXPECT_EQ(e.path().extension(), ".svg") << name;
    std::string why;
    EXPECT_TRUE(balanced_svg(read(e.path()), &why)) << name << ": " << why;
    EXPECT_NE(md.find("(plots/" + name + ")"), std::string::npos) << name;
  }
  for (const char* name :
       {"profile_time_all.svg", "profile_time_primitives.svg", "profile_time_robotics.svg",
        "profile_time_fclib.svg", "accuracy_vs_time.svg", "median_time_per_system.svg",
        "success_rate_category.svg", "trace_sparse-contacts.svg"})
    EXPECT_TRUE(fs::exists(dir / "plots" / name)) << name;
  EXPECT_FALSE(fs::exists(dir / "plots" / "profile_time_animatronics.svg"));  // empty group
  EXPECT_GE(n_svg, 8);
  for (const auto& e : fs::recursive_directory_iterator(dir))
    EXPECT_NE(e.path().extension(), ".tmp");
  fs::remove_all(dir);
}

// The default path's table: one row per run, its counts as given; summary.json's default_path.
TEST(BenchReport, DefaultPathTableListsEverySystemsUnconvergedSteps) {
  const fs::path dir = fresh_dir("report_default_path");
  Fixture f;
  make_fixture(f, dir);
  std::vector<DefaultPathRun> runs(2);
  runs[0] = {"box-on-plane", "admm-ncp-sa", true, 500, 0, -1, 0.01, ""};
  runs[1] = {"arm7d", "nbgs-exact", false, 300, 7, 42, 0.3, "step 300: diverged"};
  f.in.default_runs = &runs;
  const auto err = write_report(f.in);
  ASSERT_FALSE(err.has_value()) << err->message();
  const std::string md = read(dir / "report.md");
  EXPECT_NE(md.find("## Steps unconverged on the default path"), std::string::npos);
  EXPECT_NE(md.find("| box-on-plane | admm-ncp-sa | on | 500 | 0 | - | 20.0 us |"),
            std::string::npos);
  EXPECT_NE(md.find("| arm7d | nbgs-exact | off | 300 | 7 | 42 | 1000.0 us |"), std::string::npos);
  EXPECT_NE(md.find("ended early: step 300: diverged"), std::string::npos);
  const auto j = nlohmann::json::parse(read(dir / "summary.json"));
  ASSERT_EQ(j["default_path"].size(), 2u);
  EXPECT_EQ(j["default_path"][1]["unconverged"], 7);
  EXPECT_EQ(j["default_path"][1]["first_unconverged"], 42);
  EXPECT_EQ(j["default_path"][0]["fast_path"], true);
  // Without runs, no table.
  Fixture g;
  make_fixture(g, fresh_dir("report_no_default_path"));
  ASSERT_FALSE(write_report(g.in).has_value());
  EXPECT_EQ(read(fs::path(g.in.out_dir) / "report.md").find("default path"), std::string::npos);
}

TEST(BenchReport, UnwritableDirectoryIsAnError) {
  const fs::path dir = fresh_dir("report_err");
  std::ofstream(dir / "file") << "x";
  Fixture f;
  make_fixture(f, dir / "file" / "sub");  // below a regular file: cannot exist
  std::optional<Error> err;
  EXPECT_NO_THROW(err = write_report(f.in));
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->message().find("file/sub"), std::string::npos) << err->message();

  // A directory where results.csv should go: the rename fails, the error names that file.
  Fixture g;
  make_fixture(g, dir / "out");
  fs::create_directories(dir / "out" / "results.csv" / "occupied");
  EXPECT_NO_THROW(err = write_report(g.in));
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->file.find("results.csv"), std::string::npos) << err->message();
  EXPECT_FALSE(fs::exists(dir / "out" / "results.csv.tmp"));
  fs::remove_all(dir);
}

// Text with XML specials, non-finite and non-positive points on log axes, a categorical axis.
TEST(BenchReport, SvgEscapesTextAndSkipsUnplottablePoints) {
  svg::Plot p;
  p.title = "a <b> & \"c\"";
  p.x = {"x [s]", svg::Scale::Log10, NAN, NAN, {}, {}};
  p.y = {"y", svg::Scale::Log2, NAN, NAN, {}, {}};
  svg::Series s;
  s.label = "<&>";
  s.x = {1e-3, 0.0, -1.0, kNoMetric, 1e-1, 10.0};
  s.y = {1.0, 2.0, 4.0, 8.0, std::numeric_limits<double>::infinity(), 16.0};
  p.series.push_back(s);
  std::string why;
  const std::string out = svg::render(p);
  EXPECT_TRUE(balanced_svg(out, &why)) << why;
  EXPECT_EQ(out.find("nan"), std::string::npos);
  EXPECT_EQ(out.find("inf"), std::string::npos);
  EXPECT_NE(out.find("a &lt;b&gt; &amp; &quot;c&quot;"), std::string::npos);
  svg::Plot c;
  c.x.categories = {"box-on-plane", "fclib:a&b"};
  s.x = {0.0, 1.0};
  s.y = {1.0, 2.0};
  s.mark = svg::Mark::Bars;
  c.series = {s};
  EXPECT_TRUE(balanced_svg(svg::render(c), &why)) << why;
  svg::HeatMap h;
  h.rows = {"pgs"};
  h.cols = {"a&b"};
  h.value = {{0.5}};
  h.text = {{"50% <1>"}};
  EXPECT_TRUE(balanced_svg(svg::render(h), &why)) << why;
}

TEST(BenchReport, BadSampleIndexIsAnError) {
  const fs::path dir = fresh_dir("report_idx");
  Fixture f;
  make_fixture(f, dir);
  f.runs[0].sample = 99;
  const auto err = write_report(f.in);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->message().find("99"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace moreau::bench
