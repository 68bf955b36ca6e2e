// `moreau simulate`: the summary and the trajectory against the analytic pendulum and against
// each other, failure handling (exit codes, no output file left behind) and determinism.
#include <nlohmann/json.hpp>

#include <cmath>

#include "cli/cli_run.hpp"
#include "moreau/math/types.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/solvers/solver.hpp"

namespace moreau::test {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}

std::vector<double> csv_numbers(const std::string& line) {
  std::vector<double> v;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ',');) v.push_back(std::stod(cell));
  return v;
}

nlohmann::json simulate_json(const std::string& args) {
  require_binary();
  const CliResult r = run_moreau("simulate " + args + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // stderr is not a terminal: no progress bar
  return nlohmann::json::parse(r.out);
}

TEST(CliSimulate, PendulumSummaryMatchesAnalyticInitialEnergy) {
  // The full solve: the fast path eliminates a pendulum's joint rows and leaves no iteration.
  const nlohmann::json j = simulate_json("pendulum --steps 2000 --no-fast-path");
  EXPECT_TRUE(j["completed"].get<bool>());
  EXPECT_TRUE(j["error"].is_null());
  EXPECT_FALSE(j["nan_detected"].get<bool>());
  EXPECT_EQ(j["steps"], 2000);
  EXPECT_EQ(j["steps_completed"], 2000);
  EXPECT_EQ(j["bodies"], 1);
  EXPECT_EQ(j["solver"], "admm-ncp-sa");  // SimSettings default
  EXPECT_DOUBLE_EQ(j["dt"].get<double>(), 1e-3);
  // Bob CoM at 0.5 m below the hinge, released at 0.3 rad: E0 = -m g l cos(theta0).
  const double e0 = -1.0 * 9.81 * 0.5 * std::cos(0.3);
  EXPECT_NEAR(j["initial_energy"].get<double>(), e0, 1e-12);
  const double drift = j["max_energy_drift"].get<double>();
  EXPECT_GE(drift, std::abs(j["final_energy"].get<double>() - e0) - 1e-15);
  EXPECT_LT(drift, 1e-2 * std::abs(e0));  // symplectic-like Euler with a 1 ms step: small, bounded
  EXPECT_LT(j["max_constraint_violation"].get<double>(), 1e-6);
  EXPECT_GE(j["solver_iterations_max"].get<int>(), 1);
  EXPECT_GE(j["solver_iterations_mean"].get<double>(), 1.0);
  for (const char* key : {"wall_time_s", "solver_time_s", "nonconverged_steps", "max_penetration",
                          "max_contacts", "mean_contacts", "integrator", "scene"})
    EXPECT_TRUE(j.contains(key)) << key;
}

TEST(CliSimulate, CsvHasOneRowPerStepAndAgreesWithTheSummary) {
  require_binary();
  TempDir dir;
  const std::string out = dir / "p.csv";
  const CliResult r =
      run_moreau("simulate pendulum --steps 300 --every 1 --json --out '" + out + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["samples_written"], 301);
  const std::vector<std::string> lines = split_lines(read_file(out));
  ASSERT_EQ(lines.size(), 1u + 300u + 1u);  // header + steps 0..300
  EXPECT_EQ(lines[0].rfind("step,t,bob.x,bob.y,bob.z,bob.qw", 0), 0u) << lines[0];
  const std::vector<double> first = csv_numbers(lines[1]), last = csv_numbers(lines.back());
  ASSERT_EQ(first.size(), 2u + 13u + 1u);
  EXPECT_EQ(first[0], 0.0);
  EXPECT_NEAR(first[2], -0.5 * std::sin(0.3), 1e-15);  // x of the bob's CoM
  EXPECT_NEAR(first[4], -0.5 * std::cos(0.3), 1e-15);  // z
  EXPECT_EQ(last[0], 300.0);
  EXPECT_NEAR(last[1], 0.3, 1e-12);
  // Energy of the last row, from the CSV and the bob's inertia (box 0.05 x 0.05 x 1 m, 1 kg),
  // equals the summary's final energy: two independent paths through the output code.
  const Vec3 half(0.025, 0.025, 0.5);
  const Vec3 I = (1.0 / 3.0) * Vec3(half.y() * half.y() + half.z() * half.z(),
                                    half.x() * half.x() + half.z() * half.z(),
                                    half.x() * half.x() + half.y() * half.y());
  const Quat q(last[5], last[6], last[7], last[8]);
  const Vec3 v(last[9], last[10], last[11]), w(last[12], last[13], last[14]);
  const Vec3 wb = q.conjugate() * w;  // body-frame angular velocity
  const double e = 0.5 * v.squaredNorm() + 0.5 * wb.dot(I.asDiagonal() * wb) + 9.81 * last[4];
  EXPECT_NEAR(e, j["final_energy"].get<double>(), 1e-12);
  double worst = 0.0;
  for (size_t i = 1; i < lines.size(); ++i) worst = std::max(worst, csv_numbers(lines[i]).back());
  EXPECT_EQ(worst, j["max_constraint_violation"].get<double>());  // every step is a row here
}

TEST(CliSimulate, EveryThinsButKeepsFirstAndLastStep) {
  require_binary();
  TempDir dir;
  const std::string out = dir / "p.csv";
  ASSERT_EQ(run_moreau("simulate pendulum --steps 50 --every 7 -q --out '" + out + "'").code, 0);
  const std::vector<std::string> lines = split_lines(read_file(out));
  std::vector<double> steps;
  for (size_t i = 1; i < lines.size(); ++i) steps.push_back(csv_numbers(lines[i])[0]);
  EXPECT_EQ(steps, (std::vector<double>{0, 7, 14, 21, 28, 35, 42, 49, 50}));
}

TEST(CliSimulate, JsonTrajectoryParses) {
  require_binary();
  TempDir dir;
  const std::string out = dir / "n.json";
  ASSERT_EQ(run_moreau("simulate nunchuk --steps 20 --every 5 -q --out '" + out + "'").code, 0);
  const nlohmann::json t = nlohmann::json::parse(read_file(out));
  EXPECT_EQ(t["scene"], "nunchuk");
  ASSERT_EQ(t["bodies"].size(), 3u);
  ASSERT_EQ(t["samples"].size(), 5u);  // steps 0, 5, 10, 15, 20
  const nlohmann::json& s = t["samples"][4];
  EXPECT_EQ(s["step"], 20);
  EXPECT_EQ(s["position"].size(), 3u);
  EXPECT_EQ(s["quaternion"][0].size(), 4u);
  EXPECT_EQ(s["twist"][2].size(), 6u);
  const nlohmann::json& q = s["quaternion"][1];
  double norm2 = 0.0;
  for (int k = 0; k < 4; ++k) norm2 += q[k].get<double>() * q[k].get<double>();
  EXPECT_NEAR(norm2, 1.0, 1e-12);  // unit quaternion
}

TEST(CliSimulate, SameCommandTwiceGivesIdenticalFiles) {
  require_binary();
  TempDir dir;
  for (const char* ext : {"csv", "json"}) {
    std::string text[2];
    for (int k = 0; k < 2; ++k) {
      const std::string out = dir / ("run" + std::to_string(k) + "." + ext);
      ASSERT_EQ(run_moreau("simulate chain --set n=5 --steps 200 --integrator midpoint -q --out '" +
                           out + "'")
                    .code,
                0);
      text[k] = read_file(out);
    }
    EXPECT_FALSE(text[0].empty());
    EXPECT_TRUE(text[0] == text[1]) << ext << " trajectories differ";
  }
}

TEST(CliSimulate, DivergingRunExitsOneAndLeavesNoFile) {
  require_binary();
  TempDir dir;
  const std::string out = dir / "blowup.csv";
  // The blow-up check stops the first step (the hinge pulled apart by 2e60 m: the Baumgarte term
  // is bounded by stabilization.max_joint_correction, the free motion is not), names it, and
  // writes no file either.
  const CliResult b = run_moreau("simulate pendulum --dt 1e30 --steps 100 --out '" + out + "'");
  EXPECT_EQ(b.code, 1);
  EXPECT_NE(b.err.find("step 1 (t = 1e+30 s): the run blew up: "), std::string::npos) << b.err;
  EXPECT_TRUE(dir.entries().empty());
  const CliResult r = run_moreau("simulate pendulum --dt 1e30 --steps 100 --json --out '" + out +
                                 "' --no-blowup-check");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("non-finite"), std::string::npos) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["completed"].get<bool>());
  EXPECT_TRUE(j["nan_detected"].get<bool>());
  EXPECT_TRUE(j["error"].is_string());
  EXPECT_LT(j["steps_completed"].get<int>(), 100);
  EXPECT_TRUE(j["output"].is_null());
  EXPECT_TRUE(dir.entries().empty());  // neither the file nor its temporary
}

TEST(CliSimulate, FailedRunKeepsAnExistingFileUntouched) {
  require_binary();
  TempDir dir;
  const std::string out = dir / "keep.csv";
  std::ofstream(out) << "previous\n";
  EXPECT_EQ(run_moreau("simulate pendulum --dt 1e30 --steps 100 -q --out '" + out + "'").code, 1);
  EXPECT_EQ(read_file(out), "previous\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.csv"});
}

TEST(CliSimulate, UnknownSceneListsTheBuiltins) {
  require_binary();
  const CliResult r = run_moreau("simulate no-such-scene");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  for (const std::string& name : builtin_scene_names())
    EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
}

TEST(CliSimulate, UnknownSceneParameterListsTheScenesKeys) {
  require_binary();
  const CliResult r = run_moreau("simulate pendulum --set lenght=2 --steps 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("parameter 'lenght'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("theta0"), std::string::npos) << r.err;
  EXPECT_EQ(run_moreau("simulate pendulum --set theta0=0.2 --steps 1 --quiet").code, 0);
}

// SAP's theta-method integrators with another solver: a clear error, exit 2 (docs/cli.md).
TEST(CliSimulate, ThetaMethodIntegratorNeedsSap) {
  require_binary();
  CliResult r = run_moreau("simulate spring-cylinder --solver pgs --steps 1 --quiet");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("needs solver 'sap'"), std::string::npos) << r.err;
  r = run_moreau("simulate pendulum --integrator sap-midpoint --steps 1 --quiet");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("sap-midpoint"), std::string::npos) << r.err;
  r = run_moreau("simulate box-on-plane --solver sap --integrator sap-implicit --steps 5 --quiet");
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_moreau("simulate pendulum --integrator rk4 --steps 1 --quiet");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("sap-symplectic"), std::string::npos) << r.err;
}

TEST(CliSimulate, UnknownSolverListsTheSolvers) {
  require_binary();
  const CliResult r = run_moreau("simulate pendulum --solver no-such-solver --json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(solver_names()), std::string::npos) << r.err;
}

TEST(CliSimulate, OutputIntoMissingDirectoryFailsBeforeRunning) {
  require_binary();
  TempDir dir;
  const std::string out = dir / "missing/sub/p.csv";
  const CliResult r = run_moreau("simulate pendulum --json --out '" + out + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CliSimulate, BadOptionsExitTwo) {
  require_binary();
  TempDir dir;
  for (const std::string& args : std::vector<std::string>{
           "--dt 0", "--dt -1e-3", "--dt nan", "--steps -1", "--every 0", "--tol 0", "--max-iter 0",
           "--integrator rk4", "--set theta0", "--set theta0=abc", "--steps 3 --duration 1",
           "--bogus", "--out '" + dir / "p.txt" + "'"}) {
    const CliResult r = run_moreau("simulate pendulum " + args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_FALSE(r.err.empty()) << args;
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CliSimulate, DurationSetsTheStepCount) {
  const nlohmann::json j = simulate_json("pendulum --duration 0.25 --dt 0.01");
  EXPECT_EQ(j["steps"], 25);
  const nlohmann::json k = simulate_json("pendulum --steps 0");
  EXPECT_EQ(k["steps_completed"], 0);
  EXPECT_EQ(k["max_energy_drift"], 0.0);
}

TEST(CliSimulate, HumanSummaryAndQuiet) {
  require_binary();
  const CliResult human = run_moreau("simulate pendulum --steps 10");
  EXPECT_EQ(human.code, 0);
  EXPECT_NE(human.out.find("constraint violation"), std::string::npos) << human.out;
  EXPECT_EQ(human.err, "");
  const CliResult quiet = run_moreau("simulate pendulum --steps 10 --quiet");
  EXPECT_EQ(quiet.code, 0);
  EXPECT_EQ(quiet.out, "");
  EXPECT_EQ(quiet.err, "");
}

TEST(CliSimulate, HelpDescribesTheOptions) {
  require_binary();
  const CliResult r = run_moreau("simulate --help");
  EXPECT_EQ(r.code, 0);
  for (const char* opt :
       {"--steps", "--dt", "--solver", "--out", "--every", "--json", "--set", "--integrator",
        "--no-warm-start", "--quiet", "--tol", "--max-iter", "--duration"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

// Solver parameters from --param or the scene file's solver_settings.params are checked against
// the solver's table: an unknown key exits 2 naming the key (and, for a file, the file) and
// listing the valid keys.
TEST(CliSimulate, UnknownSolverParamIsRefused) {
  require_binary();
  CliResult r = run_moreau("simulate pendulum --solver nbgs --param omgea=1.2 --steps 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'omgea'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("check_every"), std::string::npos) << r.err;
  EXPECT_EQ(run_moreau("simulate pendulum --solver nbgs --param omega=1.2 --steps 5 -q").code, 0);

  TempDir dir;
  const std::string scene = dir / "p.json";
  ASSERT_EQ(run_moreau("convert pendulum --to '" + scene + "'").code, 0);
  nlohmann::json j = nlohmann::json::parse(read_file(scene));
  j["settings"]["solver"] = "nbgs";
  j["settings"]["solver_settings"]["params"] = {{"omgea", 1.2}};
  std::ofstream(scene) << j.dump(1);
  r = run_moreau("simulate '" + scene + "' --steps 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("p.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("omgea"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("omega_decay [0, 1]"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace moreau::test
