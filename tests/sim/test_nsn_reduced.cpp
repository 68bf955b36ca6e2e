// nsn on a reduced problem of the fast path (docs/performance.md), read from tests/data: the
// nonmonotone line search against the monotone one.
#include <gtest/gtest.h>

#include <string>

#include "moreau/io/problem_io.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

TEST(Nsn, NonmonotoneSearchPassesKinksThatCapTheMonotoneOne) {
  // A reduced problem of the humanoid's fast path (humanoid.xml, docs/performance.md: its joint
  // rows eliminated, so D is the Schur complement; the file's M and J are placeholders): 2 limit
  // rows and 4 contacts of a foot, from the previous step's impulses. The monotone Armijo search
  // stops at the same short step iteration after iteration; the nonmonotone one (ls_memory) lets
  // the full step through and converges, at the velocities admm-ncp-sa reaches independently.
  const Result<Problem> loaded = load_problem(std::string(MOREAU_SOURCE_DIR) +
                                              "/tests/data/problems/humanoid_feet_reduced.mprob");
  ASSERT_TRUE(loaded) << loaded.error().message();
  const Problem& p = *loaded;
  ASSERT_EQ(p.nl, 14);
  WarmStart warm;
  warm.lambda.resize(14);
  warm.lambda << 0x0.0p+0, 0x1.2dd9e924ef057p-8, 0x1.993f5570ef77dp-4, 0x1.c988632032410p-4,
      0x1.6ed96f6ce6ca3p-3, -0x1.1e4e1efab0778p-5, -0x1.319be690e390cp-3, 0x1.8dbc68376c355p-1,
      0x1.658bff9ae074ep-6, -0x1.0bbc93a05c8e3p-4, 0x1.515eadd6fcbb8p-4, 0x1.bbaa549d94665p-5,
      0x1.0d0ccaeee903ep-4, 0x1.1878c7fbac082p-3;
  SolverSettings s;
  s.tol = 1e-8;
  s.max_iters = 50;
  SolverWorkspace ws;
  Solution mono, nonmono, admm;
  SolverSettings m = s;
  m.nsn.ls_memory = 1;
  ASSERT_TRUE(solve("nsn", p, m, warm, ws, mono));
  EXPECT_FALSE(mono.converged()) << mono.residual;
  ASSERT_TRUE(solve("nsn", p, s, warm, ws, nonmono));
  ASSERT_TRUE(nonmono.converged()) << nonmono.residual << " " << nonmono.message;
  EXPECT_LE(nonmono.iterations, 25);
  SolverSettings a;
  a.tol = 1e-10;
  a.max_iters = 100000;
  ASSERT_TRUE(solve("admm-ncp-sa", p, a, {}, ws, admm));
  ASSERT_TRUE(admm.converged()) << admm.residual;
  EXPECT_LT((nonmono.v_plus - admm.v_plus).cwiseAbs().maxCoeff(), 1e-8);
}
