// Faults, interrupts and determinism of the CLI (docs/reliability.md): a run whose solver stops at
// its cap says where (step, time, residual) and leaves no partial trajectory; Ctrl-C stops
// `moreau simulate` and `moreau bench` with exit status 130 and no partial file; a rollout's state
// hash repeats bit for bit; `moreau bench` rows do not depend on --jobs.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli/cli_run.hpp"

using namespace moreau::test;

namespace {

// Starts `moreau ARGS...` with stdout and stderr to /dev/null; returns its pid.
pid_t spawn_moreau(std::vector<std::string> args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::FILE* null = std::fopen("/dev/null", "w");
    if (null) {
      ::dup2(fileno(null), 1);
      ::dup2(fileno(null), 2);
    }
    const std::string bin = moreau_binary();
    std::vector<char*> argv{const_cast<char*>(bin.c_str())};
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

// Waits (up to a minute) until `ready` holds, polling.
template <class F>
bool wait_for(F ready) {
  for (int k = 0; k < 6000; ++k) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// Sends SIGINT once `ready` holds and returns the exit status (-1 when killed by a signal).
int interrupt_when(pid_t pid, const std::function<bool()>& ready) {
  EXPECT_TRUE(wait_for(ready)) << "the command never got going";
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

nlohmann::json summary(const std::string& args) {
  const CliResult r = run_moreau("simulate " + args + " --json --quiet");
  EXPECT_EQ(r.code, 0) << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

// results.csv without the solve_time_s column (the only one that depends on the machine).
std::string rows_without_times(const std::string& csv) {
  std::stringstream in(csv), out;
  std::string line;
  int time_col = -1;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::string cell;
    std::stringstream ls(line);
    while (std::getline(ls, cell, ',')) cells.push_back(cell);
    if (time_col < 0)
      for (size_t k = 0; k < cells.size(); ++k)
        if (cells[k] == "solve_time_s") time_col = static_cast<int>(k);
    for (size_t k = 0; k < cells.size(); ++k)
      if (static_cast<int>(k) != time_col) out << cells[k] << ',';
    out << '\n';
  }
  return out.str();
}

}  // namespace

TEST(CliReliability, SigintStopsSimulateWithStatus130AndNoFile) {
  require_binary();
  TempDir dir;
  const pid_t pid = spawn_moreau(
      {"simulate", "chain", "--steps", "100000000", "--quiet", "--out", dir / "traj.csv"});
  // The temporary trajectory appears next to the destination once the run starts.
  const int code = interrupt_when(pid, [&] { return !dir.entries().empty(); });
  EXPECT_EQ(code, 130);
  EXPECT_TRUE(dir.entries().empty()) << "left behind: " << dir.entries().front();
}

TEST(CliReliability, SigtermEndsAStepWhoseSolveWouldRunForHours) {
  require_binary();
  TempDir dir;
  // tol 1e-300 and a billion iterations: one step of this solve would take hours. The signal must
  // end it inside the solver's loop (solvers/stop.hpp), not after the step.
  const pid_t pid =
      spawn_moreau({"simulate", "box-stack", "--steps", "2", "--solver", "pgs-ncp", "--tol",
                    "1e-300", "--max-iter", "1000000000", "--quiet", "--out", dir / "traj.csv"});
  ASSERT_TRUE(wait_for([&] { return !dir.entries().empty(); })) << "the run never started";
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // inside the first solve
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);  // a solver deaf to the signal hangs here until ctest's timeout
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_TRUE(dir.entries().empty()) << "left behind: " << dir.entries().front();
}

TEST(CliReliability, MaxStepTimeEndsTheRunNamingTheStep) {
  require_binary();
  TempDir dir;
  // A 1 ns budget: no step fits, so the first one ends the run.
  const CliResult r =
      run_moreau("simulate box-stack --steps 5 --max-step-time 1e-9 --quiet --out '" +
                 (dir / "traj.csv") + "'");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("step 1 of 5 (t = 0 s) took"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("over --max-step-time 1e-09 s"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.entries().empty());
  // A generous budget changes nothing: the same rollout hash as without it.
  const auto with = summary("box-stack --steps 20 --max-step-time 60");
  const auto without = summary("box-stack --steps 20");
  EXPECT_EQ(with["state_hash"], without["state_hash"]);
  EXPECT_NE(run_moreau("simulate box-stack --steps 5 --max-step-time -1 --quiet").code, 0);
}

TEST(CliReliability, SigintStopsBenchWithStatus130AndKeepsTheOldReport) {
  require_binary();
  TempDir dir;
  // An old report: interrupting the next bench into the same directory must leave it as it is.
  const CliResult first = run_moreau(
      "bench --systems box-on-plane --solvers pgs-ccp --quiet "
      "--max-samples 1 --duration 0.05 --out '" +
      dir.path() + "'");
  ASSERT_EQ(first.code, 0) << first.err;
  const std::string old_csv = read_file(dir / "results.csv");
  const std::vector<std::string> old_entries = dir.entries();
  // bench creates --samples-out after it has taken over SIGINT (run_bench's InterruptGuard): its
  // appearance says the signal will be caught, however slowly the binary started (a sanitized
  // build under load takes longer than any fixed sleep).
  TempDir samples;
  const std::string samples_out = samples / "new";
  const pid_t pid =
      spawn_moreau({"bench", "--systems", "lima,lima,lima,lima", "--duration", "1000", "--quiet",
                    "--jobs", "1", "--out", dir.path(), "--samples-out", samples_out});
  const int code = interrupt_when(pid, [&] { return std::filesystem::exists(samples_out); });
  EXPECT_EQ(code, 130);
  EXPECT_EQ(read_file(dir / "results.csv"), old_csv);
  EXPECT_EQ(dir.entries(), old_entries);
  EXPECT_TRUE(std::filesystem::is_empty(samples_out)) << "samples written by an interrupted run";
}

TEST(CliReliability, IterationCapSaysWhereAndLeavesNoTrajectory) {
  require_binary();
  TempDir dir;
  const CliResult r = run_moreau(
      "simulate box-stack --steps 20 --max-iter 1 --fail-on-cap --no-fast-path "
      "--quiet --out '" +
      (dir / "traj.csv") + "'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("step "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("t = "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("residual"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--fail-on-cap"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CliReliability, SummaryNamesTheFirstStepThatHitTheCap) {
  require_binary();
  // One iteration a step makes a box stack fly apart: the blow-up check is off to see the cap,
  // the fast path (whose Newton attempt would answer) off to see the step's solver.
  const nlohmann::json j =
      summary("box-stack --steps 20 --max-iter 1 --no-blowup-check --no-fast-path");
  ASSERT_TRUE(j.is_object());
  ASSERT_TRUE(j["first_nonconverged"].is_object()) << j.dump();
  const int step = j["first_nonconverged"]["step"].get<int>();
  EXPECT_GE(step, 1);
  EXPECT_LE(step, 20);
  EXPECT_GT(j["first_nonconverged"]["residual"].get<double>(), 0.0);
  EXPECT_GT(j["nonconverged_steps"].get<int>(), 0);
  const nlohmann::json ok = summary("pendulum --steps 20");
  EXPECT_TRUE(ok["first_nonconverged"].is_null()) << ok.dump();
}

TEST(CliReliability, RolloutHashRepeatsBitForBit) {
  require_binary();
  const nlohmann::json a = summary("box-stack --steps 300");
  const nlohmann::json b = summary("box-stack --steps 300");
  const nlohmann::json c = summary("box-stack --steps 299");
  const std::string h = a["state_hash"].get<std::string>();
  EXPECT_EQ(h.size(), 16u);
  EXPECT_EQ(h, b["state_hash"].get<std::string>());
  EXPECT_NE(h, c["state_hash"].get<std::string>());  // the hash sees every step
}

TEST(CliReliability, BenchRowsDoNotDependOnJobs) {
  require_binary();
  TempDir one, many;
  const std::string common =
      "bench --systems box-on-plane,nunchuk,fourbar-fixed --solvers pgs-ccp,apgd,admm-ncp-sa "
      "--max-samples 2 --duration 0.2 --quiet ";
  const CliResult a = run_moreau(common + "--jobs 1 --out '" + one.path() + "'");
  const CliResult b = run_moreau(common + "--jobs 4 --out '" + many.path() + "'");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const std::string ra = rows_without_times(read_file(one / "results.csv"));
  EXPECT_GT(std::count(ra.begin(), ra.end(), '\n'), 6);
  EXPECT_EQ(ra, rows_without_times(read_file(many / "results.csv")));
}
