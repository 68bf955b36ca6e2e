// Optional: moreau's NCP solvers against Siconos's fc3d NSGS (Debian libsiconos-numerics-dev,
// registered as siconos-nsgs when moreau is built with it) on FCLib problems
// (MOREAU_SHARED_DIR/fclib).
// Both answers are judged by moreau's own natural map (ncp/residuals.hpp); the contact
// velocities u = W r + q and, where the solution is unique enough, the impulses r are compared.
// Skips cleanly without HDF5, the shared files or the library.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "moreau/io/fclib.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/solver.hpp"
#include "solvers/implicit_problems.hpp"

namespace moreau {
namespace {

struct SiconosResult {
  VecX r;  // moreau order [t, o, n]
  int info = -1, iterations = 0;
  double error = 0.0, seconds = 0.0;
};

// Solves moreau's contact Problem with the registered siconos-nsgs (src/moreau/solvers/
// peer_siconos.cpp), on Siconos's own relative tolerance.
SiconosResult siconos_nsgs(const Problem& p, double tol, int max_iters) {
  SolverSettings st;
  st.max_iters = max_iters;
  st.siconos.tol = tol;
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve("siconos-nsgs", p, st, {}, ws, sol)) << sol.message;
  SiconosResult out;
  out.r = sol.lambda;
  out.info = sol.converged() ? 0 : 1;
  out.iterations = sol.iterations;
  out.error = sol.residual;
  out.seconds = sol.solve_time_s;
  return out;
}

std::string fclib_dir() {
  if (const char* e = std::getenv("MOREAU_SHARED_DIR")) return std::string(e) + "/fclib/";
  return std::string(MOREAU_SOURCE_DIR) + "/../shared/fclib/";
}

double linf(const VecX& x) {
  return x.size() ? x.lpNorm<Eigen::Infinity>() : 0.0;
}

// One FCLib file and what is asserted on it; the bounds come from the measured values below.
struct Case {
  const char* file;
  int sweeps;      // iteration budget of every solver
  bool converges;  // Siconos NSGS and nbgs-exact reach their tolerances within `sweeps`
  bool unique_r;   // the impulses are unique enough to compare (no redundant contacts)
};

// Measured (Siconos 4.4 NSGS tol 1e-14; moreau tol 1e-10; |du|, |dr| relative to max(|q|, |r|)):
//   LMGC PerioBox (60 c.): NSGS 1972 it. natmap 4e-15; nbgs-exact 1080 it. natmap 9e-11,
//     |du| 6e-16, |dr| 5e-9; admm-ncp-sa does not converge in 20000 it. (natmap 3e-4, |du| 4e-8,
//     |dr| 0.6).
//   Box_Stacks (82 c., redundant): NSGS 62 it.; nbgs-exact 30 it. |du| 1e-8 |dr| 2e-8;
//     admm-ncp-sa 79 it. |du| 3e-8 but |dr| 4e-2: r is not unique, u is.
//   spheres (256 c.): neither GS converges in 20000 sweeps (natmap 5.1e-7 for both); after the
//     same 1000 sweeps NSGS and nbgs-exact (both Gauss-Seidel with exact local solves, contacts in
//     file order) give natmap 9.738e-7 both, |du| 2e-8, |dr| 2e-9; admm-ncp-sa natmap 2e-2.
//   CubeH8 (1 c.): both GS in 2 it.; admm-ncp-sa 6 it. |du| 1e-8, |dr| 6e-7.
TEST(Siconos, NsgsAgreesWithMoreauOnFclib) {
  if (!fclib_supported()) GTEST_SKIP() << "built without HDF5: FCLib files cannot be read";
  if (!find_solver("siconos-nsgs"))
    GTEST_SKIP() << "built without libsiconos_numerics (Debian libsiconos-numerics-dev)";
  const Case cases[] = {{"LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", 5000, true, true},
                        {"Box_Stacks-i0122-82-5.hdf5", 5000, true, false},
                        {"spheres-in-a-box-98-i10000-256-10.hdf5", 1000, false, true},
                        {"CubeH8.hdf5", 5000, true, true}};
  int compared = 0;
  for (const Case& c : cases) {
    const std::string path = fclib_dir() + c.file;
    if (!std::filesystem::exists(path)) continue;
    Result<FclibProblem> f = load_fclib(path);
    ASSERT_TRUE(f.ok()) << f.error().message();
    const Problem& p = f->problem;
    const SiconosResult s = siconos_nsgs(p, 1e-14, c.sweeps);
    VecX us(p.nl);
    p.D.multiply(s.r.data(), us.data());
    us += p.v_f;
    const double nat_s = ncp_residuals(p, s.r, us, true).natmap;
    std::printf(
        "%s: %d contacts, |q| %.3e\n  siconos nsgs: info %d, %d iters, error %.2e, %.4f s, "
        "natmap %.3e, |r| %.3e\n",
        c.file, f->contacts, linf(p.v_f), s.info, s.iterations, s.error, s.seconds, nat_s,
        linf(s.r));
    if (c.converges) {
      EXPECT_EQ(s.info, 0) << c.file;
      EXPECT_LE(nat_s, 1e-9) << c.file;  // Siconos's answer passes moreau's own residual
    }
    for (const char* name : {"nbgs-exact", "admm-ncp-sa"}) {
      SolverSettings st;
      st.tol = 1e-10;
      st.max_iters = c.sweeps;
      SolverWorkspace ws;
      Solution sol;
      ASSERT_TRUE(solve(name, p, st, {}, ws, sol));
      const double nat_m = ncp_residuals(p, sol.lambda, sol.v_plus, true).natmap;
      const double scale = std::max({linf(p.v_f), linf(sol.lambda), linf(s.r), 1e-300});
      const double du = linf(sol.v_plus - us) / scale, dr = linf(sol.lambda - s.r) / scale;
      std::printf("  moreau %-12s: %s, %d iters, %.4f s, natmap %.3e; |du| %.3e, |dr| %.3e\n", name,
                  sol.converged() ? "converged" : "not converged", sol.iterations, sol.solve_time_s,
                  nat_m, du, dr);
      const bool gs = std::string(name) == "nbgs-exact";
      if (gs && c.converges) {
        EXPECT_TRUE(sol.converged()) << c.file;
      }
      if (gs && !c.converges) {  // same algorithm, same sweep order: the iterates agree
        EXPECT_NEAR(nat_m, nat_s, 1e-2 * nat_s) << c.file;
        EXPECT_LE(du, 1e-6) << c.file;
        EXPECT_LE(dr, 1e-6) << c.file;
      }
      if (!sol.converged()) continue;  // nothing to agree on
      EXPECT_LE(nat_m, 1e-9) << c.file << " " << name;
      EXPECT_LE(du, 1e-6) << c.file << " " << name;
      if (c.unique_r) {
        EXPECT_LE(dr, 1e-5) << c.file << " " << name;
      }
    }
    ++compared;
  }
  if (!compared) GTEST_SKIP() << "no FCLib files in " << fclib_dir();
}

// Every registered Siconos solver, with moreau's tolerance turned into Siconos's relative one
// (peer_siconos.cpp), is judged by moreau's own natural map: a converged answer passes it.
TEST(Siconos, PeersPassMoreausNaturalMapWhenConverged) {
  if (!fclib_supported()) GTEST_SKIP() << "built without HDF5: FCLib files cannot be read";
  if (!find_solver("siconos-nsgs"))
    GTEST_SKIP() << "built without libsiconos_numerics (Debian libsiconos-numerics-dev)";
  int converged = 0;
  for (const char* file : {"CubeH8.hdf5", "Box_Stacks-i0122-82-5.hdf5"}) {
    const std::string path = fclib_dir() + file;
    if (!std::filesystem::exists(path)) continue;
    Result<FclibProblem> f = load_fclib(path);
    ASSERT_TRUE(f.ok()) << f.error().message();
    const Problem& p = f->problem;
    for (const SolverInfo& info : solver_registry()) {
      if (!info.peer) continue;
      SolverSettings st;
      st.tol = 1e-8;
      st.max_iters = 5000;
      SolverWorkspace ws;
      Solution sol;
      ASSERT_TRUE(solve(info.name, p, st, {}, ws, sol));
      const double nat = ncp_residuals(p, sol.lambda, sol.v_plus, true).natmap;
      std::printf("%s %s: %s, %d iters, natmap %.3e\n", file, std::string(info.name).c_str(),
                  status_name(sol.status), sol.iterations, nat);
      if (!sol.converged()) continue;
      EXPECT_LE(nat, 1e-8) << file << " " << info.name;
      ++converged;
    }
  }
  if (!converged) GTEST_SKIP() << "no FCLib files in " << fclib_dir();
  EXPECT_GE(converged, 2);  // at least siconos-nsgs on both files
}

// Problems with joint or limit rows are declined with status Failed and a message that says why.
TEST(Siconos, JointRowsAreDeclined) {
  if (!find_solver("siconos-nsgs"))
    GTEST_SKIP() << "built without libsiconos_numerics (Debian libsiconos-numerics-dev)";
  std::mt19937 rng(3);
  const Problem p = testing_problems::random_contacts(rng, 3, 4, 0.5, 1.0, 1, 1);
  for (const SolverInfo& info : solver_registry()) {
    if (!info.contacts_only) continue;
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve(info.name, p, SolverSettings{}, {}, ws, sol));
    EXPECT_EQ(sol.status, SolveStatus::Failed) << info.name;
    EXPECT_NE(sol.message.find("4 joint or limit rows"), std::string::npos) << sol.message;
  }
}

}  // namespace
}  // namespace moreau
