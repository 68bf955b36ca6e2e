// `moreau solve`: JSON fields, warm start round trip, exit codes (0 / 1 diverged / 2 bad input).
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moreau/io/problem_io.hpp"

using namespace moreau;
using test::run_moreau;

namespace {
// One block of the given cone over a dense D (all blocks stored).
Problem hand_problem(ConeKind cone, const MatX& D, const VecX& vf, double mu) {
  Problem p;
  const int n = static_cast<int>(vf.size());
  ConstraintBlock b;
  b.J[0].setZero();
  b.J[1].setZero();
  b.cone = cone;
  b.kind = cone == ConeKind::Coulomb ? RowKind::Contact : RowKind::Joint;
  b.size = n;
  b.mu = mu;
  p.blocks.push_back(b);
  p.nl = n;
  const int sizes[1] = {n};
  p.D.begin(sizes, 1);
  p.D.push_entry(0, 0);
  p.D.finalize();
  p.D.entry(0) = D;
  p.v_f = vf;
  p.v_minus = VecX::Zero(n);
  p.f = VecX::Zero(n);
  return p;
}
}  // namespace

TEST(CliSolve, SlidingContactJsonAndWarmStart) {
  test::require_binary();
  test::TempDir dir;
  const std::string file = dir / "slide.mprob";
  ASSERT_FALSE(
      save_problem(hand_problem(ConeKind::Coulomb, Vec3(2, 2, 1).asDiagonal().toDenseMatrix(),
                                Vec3(4, 0, -1), 0.5),
                   file));
  const std::string lam = dir / "lambda.json";
  auto r = run_moreau("solve '" + file + "' --solver raisim --tol 1e-12 --json --lambda-out '" +
                      lam + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "converged");
  EXPECT_EQ(j["solver"], "raisim");
  EXPECT_EQ(j["format"], "moreau-dump");
  EXPECT_EQ(j["contacts"], 1);
  EXPECT_EQ(j["nl"], 3);
  EXPECT_EQ(j["asymmetry"], 0.0);
  EXPECT_LE(j["r_natmap"].get<double>(), 1e-10);
  for (const char* k : {"iterations", "solve_time_s", "r_primal", "r_dual", "r_compl"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["fallbacks"], 0);  // raisim's bisection has no fallback
  // Analytic answer [-0.5, 0, 1]; the warm start from it converges in one sweep.
  const auto l = nlohmann::json::parse(test::read_file(lam))["lambda"].get<std::vector<double>>();
  ASSERT_EQ(l.size(), 3u);
  EXPECT_NEAR(l[0], -0.5, 1e-10);
  EXPECT_NEAR(l[2], 1.0, 1e-10);
  r = run_moreau("solve '" + file + "' --solver raisim --tol 1e-12 --json --warm '" + lam + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["iterations"], 1);
}

TEST(CliSolve, ExitCodes) {
  test::require_binary();
  test::TempDir dir;
  const std::string file = dir / "joint.mprob";
  MatX D(2, 2);
  D << 2, 1, 1, 2;
  ASSERT_FALSE(save_problem(hand_problem(ConeKind::Free, D, VecX::Constant(2, 0.5), 0.0), file));
  auto r = run_moreau("solve '" + file + "' --solver no-such-solver");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nbgs"), std::string::npos) << r.err;  // lists the available solvers
  EXPECT_EQ(run_moreau("solve '" + dir / "missing.mprob" + "'").code, 2);
  EXPECT_EQ(run_moreau("solve '" + file + "' --param omega").code, 2);
  EXPECT_EQ(run_moreau("solve '" + file + "' --warm '" + file + "'").code, 2);  // not JSON
  // SOR with omega = 3 diverges on a bilateral block: exit 1, reported as diverged.
  r = run_moreau("solve '" + file + "' --solver pgs-ncp --param omega=3 --json");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["status"], "diverged");
  EXPECT_EQ(run_moreau("solve '" + file + "' --solver pgs-ncp").code, 0);
}

TEST(CliSolve, FclibFile) {
  test::require_binary();
  const char* env = std::getenv("MOREAU_SHARED_DIR");
  const std::string path =
      (env ? std::string(env) : std::string(MOREAU_SOURCE_DIR) + "/../shared") +
      "/fclib/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path;
  const auto r = run_moreau("solve '" + path + "' --solver nbgs --max-iter 3000 --json");
  if (r.code == 2 && r.err.find("without HDF5") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "fclib-local");
  EXPECT_EQ(j["contacts"], 60);
  EXPECT_EQ(j["status"], "converged");
  EXPECT_LE(j["r_natmap"].get<double>(), 1e-8);
}

// simulate --dump-problems writes one Problem per K steps; solve reads each back and the common
// residuals of a tight solve are small (the dump carries everything the solver needs).
TEST(CliSolve, SimulateDumpsProblemsThatSolveReads) {
  using namespace moreau::test;
  require_binary();
  TempDir dir;
  const std::string dump = dir / "dumps";
  const CliResult sim = run_moreau("simulate box-stack --steps 20 --dump-problems '" + dump +
                                   "' --dump-every 10 --json");
  ASSERT_EQ(sim.code, 0) << sim.err;
  EXPECT_EQ(nlohmann::json::parse(sim.out)["problems_dumped"], 2);
  for (const char* step : {"step_000010.mprob", "step_000020.mprob"}) {
    const CliResult r =
        run_moreau("solve '" + dump + "/" + step + "' --solver admm-ncp-sa --tol 1e-10 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["contacts"], 20) << step;  // five boxes, four contacts each
    EXPECT_LE(j["r_natmap"].get<double>(), 1e-9) << step;
  }
  // --dump-problems into a path that cannot be a directory is bad input.
  const CliResult bad = run_moreau("simulate pendulum --steps 2 --dump-problems /dev/null/x");
  EXPECT_EQ(bad.code, 2);
}

// --param keys come from the solver's table: a typo or a value out of range exits 2 and lists
// the solver's keys with their ranges; `moreau solvers NAME` prints that table.
TEST(CliSolve, ParamKeysAndRangesComeFromTheSolversTable) {
  test::require_binary();
  test::TempDir dir;
  const std::string file = dir / "contact.mprob";
  ASSERT_FALSE(save_problem(
      hand_problem(ConeKind::Coulomb, Vec3(2, 2, 1).asDiagonal(), Vec3(1.8, 2.4, -1.0), 0.5),
      file));
  auto r = run_moreau("solve '" + file + "' --solver pgs-ncp --param omgea=1.2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'omgea'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("omega_decay [0, 1]"), std::string::npos) << r.err;
  r = run_moreau("solve '" + file + "' --solver pgs-ncp --param omega_decay=2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("[0, 1], got 2"), std::string::npos) << r.err;
  EXPECT_EQ(run_moreau("solve '" + file + "' --solver pgs-ncp --param check_every=2.5").code, 2);
  EXPECT_EQ(run_moreau("solve '" + file + "' --solver admm-ccp --param de_saxce=0").code, 2);
  r = run_moreau("solve '" + file + "' --solver pgs-ccp --param de_saxce=0 --param omega=1.2");
  EXPECT_EQ(r.code, 0) << r.err;

  r = run_moreau("solvers pgs-ccp");
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* s : {"de_saxce", "{0, 1}", "omega_min", "= omega", "check_every", "sweeps"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  r = run_moreau("solvers");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("admm-ncp-sa"), std::string::npos) << r.out;
  r = run_moreau("solvers no-such-solver");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nbgs"), std::string::npos) << r.err;
}

// --repeat N: N solves of the same problem give the same answer; the fastest is solve_time_s,
// the first solve_time_first_s, and set-up + iterations add up to the solve time.
TEST(CliSolve, RepeatReportsTheFastestAndTheFirstSolve) {
  test::require_binary();
  test::TempDir dir;
  const std::string file = dir / "slide.mprob";
  ASSERT_FALSE(
      save_problem(hand_problem(ConeKind::Coulomb, Vec3(2, 2, 1).asDiagonal().toDenseMatrix(),
                                Vec3(4, 0, -1), 0.5),
                   file));
  for (const char* solver : {"nbgs-exact", "admm-ncp-sa", "apgd"}) {
    auto one = run_moreau("solve '" + file + "' --solver " + solver + " --tol 1e-12 --json");
    auto r =
        run_moreau("solve '" + file + "' --solver " + solver + " --tol 1e-12 --json --repeat 4");
    ASSERT_EQ(r.code, one.code) << r.err;
    const auto j = nlohmann::json::parse(r.out), j1 = nlohmann::json::parse(one.out);
    EXPECT_EQ(j["repeat"], 4);
    EXPECT_EQ(j["iterations"], j1["iterations"]) << solver;
    EXPECT_EQ(j["r_natmap"], j1["r_natmap"]) << solver;
    const double best = j["solve_time_s"], first = j["solve_time_first_s"];
    const double setup = j["setup_time_s"], iters = j["iteration_time_s"];
    EXPECT_LE(best, first) << solver;
    EXPECT_GE(setup, 0.0) << solver;
    EXPECT_NEAR(setup + iters, best, 1e-12 + 1e-9 * best) << solver;
  }
  EXPECT_EQ(run_moreau("solve '" + file + "' --repeat 0").code, 2);
}
