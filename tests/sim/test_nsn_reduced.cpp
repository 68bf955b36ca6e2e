// nsn on reduced problems of the fast path (docs/performance.md), read from tests/data: the
// nonmonotone line search against the monotone one, and a start from zero against a misleading
// warm start.
#include <gtest/gtest.h>

#include <string>

#include "moreau/io/problem_io.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

namespace {
// tests/data/problems/NAME.mprob: a reduced problem of the fast path (humanoid.xml's, or the G1
// 29's where named; docs/performance.md: its joint rows eliminated, so D is the Schur complement;
// the file's M and J are placeholders).
Problem reduced_problem(const char* name) {
  const Result<Problem> loaded =
      load_problem(std::string(MOREAU_SOURCE_DIR) + "/tests/data/problems/" + name + ".mprob");
  EXPECT_TRUE(loaded) << loaded.error().message();
  return loaded ? *loaded : Problem{};
}

// nsn's answer against admm-ncp-sa's, solved independently to 1e-10: the velocities to 1e-8.
void expect_admm_velocities(const Problem& p, const Solution& nsn) {
  SolverSettings a;
  a.tol = 1e-10;
  a.max_iters = 100000;
  SolverWorkspace ws;
  Solution admm;
  ASSERT_TRUE(solve("admm-ncp-sa", p, a, {}, ws, admm));
  ASSERT_TRUE(admm.converged()) << admm.residual;
  EXPECT_LT((nsn.v_plus - admm.v_plus).cwiseAbs().maxCoeff(), 1e-8);
}
// nsn from `warm` with `without` (a feature off) does not converge in 50 iterations; with `with`
// it converges in at most 25, at admm-ncp-sa's velocities (admm = false: where admm-ncp-sa stalls,
// the answer's natural map from its own velocity D lambda + v_f instead).
void expect_converges_only_with(const Problem& p, const WarmStart& warm, const SolverSettings& with,
                                const SolverSettings& without, bool admm = true) {
  SolverWorkspace ws;
  Solution off, on;
  ASSERT_TRUE(solve("nsn", p, without, warm, ws, off));
  EXPECT_FALSE(off.converged()) << off.residual;
  ASSERT_TRUE(solve("nsn", p, with, warm, ws, on));
  ASSERT_TRUE(on.converged()) << on.residual << " " << on.message;
  EXPECT_LE(on.iterations, 25);
  if (admm) {
    expect_admm_velocities(p, on);
    return;
  }
  VecX v(p.nl);
  p.D.multiply(on.lambda.data(), v.data());
  v += p.v_f;
  EXPECT_LE(ncp_residuals(p, on.lambda, v).natmap, with.tol);
}
}  // namespace

TEST(Nsn, NonmonotoneSearchPassesKinksThatCapTheMonotoneOne) {
  // 2 limit rows and 4 contacts of a foot, from the previous step's impulses. The monotone Armijo
  // search stops at the same short step iteration after iteration; the nonmonotone one
  // (ls_memory) lets the full step through and converges, at admm-ncp-sa's velocities.
  const Problem p = reduced_problem("humanoid_feet_reduced");
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
  s.nsn.stall_window = 0;  // the line search alone (the stall rule: the test below)
  SolverSettings m = s;
  m.nsn.ls_memory = 1;
  expect_converges_only_with(p, warm, s, m);
}

TEST(Nsn, StallRuleDampsStickSlipCycles) {
  // 9 contacts of humanoid100's objects (mu = 1) from the previous step's impulses: a box on 4
  // contacts slides at 1e-6 m/s at its cones' boundary, D is singular, and the Newton steps cycle
  // between stick and slip (natural map 2e-5 <-> 3e-4) for 50 iterations. After stall_window
  // iterations without a 10x decrease, eps grows and the damped steps converge, at
  // admm-ncp-sa's velocities.
  const Problem p = reduced_problem("humanoid100_degenerate_island");
  ASSERT_EQ(p.nl, 27);
  WarmStart warm;
  warm.lambda.resize(27);
  warm.lambda << -0x1.7821989fb8e6cp-6, -0x1.26436ae86e66cp-4, 0x1.2e1860d854ea5p-2, 0x0.0p+0,
      0x0.0p+0, 0x0.0p+0, -0x1.084d60dd93507p-3, -0x1.8fb64555beed8p-4, 0x1.40a0d703f8a69p-2,
      0x1.1506a3a56a755p-5, 0x1.d2dc02b879513p-8, 0x1.1b1b1d134311cp-5, 0x0.0p+0, 0x0.0p+0,
      0x0.0p+0, 0x1.41f89d0979113p-5, 0x1.94f42fff29e66p-4, 0x1.3f4557f6d0da9p-3,
      0x1.5a0934a3d36afp-5, 0x1.337790a18e60ap-5, 0x1.cee68722df970p-5, -0x1.70a7422d039eep-5,
      0x1.671afeaf7a6aap-6, 0x1.9a0de25d1e250p-5, -0x1.b0fd7e4174ab6p-4, -0x1.543801483708bp-4,
      0x1.1354d10875084p-3;
  SolverSettings s;
  s.tol = 1e-10;  // to compare velocities with admm-ncp-sa's at 1e-8
  s.max_iters = 50;
  SolverSettings o = s;
  o.nsn.stall_window = 0;
  expect_converges_only_with(p, warm, s, o);
}

TEST(Nsn, AShortStepGrowsTheProximalTermAtOnce) {
  // The G1 29's fall at 0.222 s (MJCF, dt 2 ms): 8 contacts, 3 limit rows and 29 joint-friction
  // rows once the joint rows are eliminated, from the previous step's impulses. Without the
  // short-step test (the default) nsn cycles between stick-slip patterns (natural map 4.8e-3,
  // 1.2e-4, 3.3e-4, 7.7e-8, 6.3e-4, 1.9e-5, then again) and ends above tol after 50 iterations;
  // with stall_step 1e-3 the cut steps grow eps at once, and it converges in 17.
  const Problem p = reduced_problem("g1_short_steps");
  ASSERT_EQ(p.nl, 56);
  WarmStart warm;
  warm.lambda.resize(56);
  warm.lambda << -0x1.a36e2eb1c432dp-12, -0x1.a36e2eb1c432dp-12, -0x1.22ab38efb77a8p-16,
      0x1.9857636a2e203p-6, 0x1.a36e2eb1c432dp-12, 0x1.a36e2eb1c432dp-12, -0x1.26443bd519638p-13,
      -0x1.a36e2eb1c432dp-12, -0x1.a36e2eb1c432dp-12, 0x1.a36e2eb1c432dp-12, 0x1.99324f853edeap-6,
      0x1.a36e2eb1c432dp-12, 0x1.a36e2eb1c432dp-12, -0x1.7c34509a73d2dp-12, -0x1.8b668da3feda4p-12,
      0x1.a36e2eb1c432dp-12, 0x1.756c4a7f600c3p-2, -0x1.a36e2eb1c432dp-12, 0x1.a36e2eb1c432dp-12,
      0x1.a36e2eb1c432dp-12, 0x1.a36e2eb1c432dp-12, -0x1.a36e2eb1c432dp-12, -0x1.d2f63a943c906p-14,
      -0x1.a36e2eb1c432dp-13, 0x1.a36e2eb1c432dp-13, 0x1.a36e2eb1c432dp-12, -0x1.a36e2eb1c432dp-12,
      -0x1.a36e2eb1c432dp-12, -0x1.a36e2eb1c432dp-12, 0x1.d258437dda5dfp-14, -0x1.a36e2eb1c432dp-13,
      -0x1.a36e2eb1c432dp-13, -0x1.f71783cf19233p-8, 0x1.5d28444bb8a59p-10, 0x1.86ba4e26614bp-1,
      0x1.8ac93606b27edp-6, 0x1.5d27ed05a751p-10, 0x1.581be635fa4p-1, 0x1.007e2148f5db9p-7,
      -0x1.5e24142ee7331p-9, 0x1.0909f075cec3p-2, 0x1.5ca42e86f2986p-7, -0x1.a4dd5840d9565p-8,
      0x1.4a445523951fcp-2, 0x1.5051e036e11f2p-5, -0x1.a59f33c7d6757p-9, 0x1.5b9a17870c2d4p-1,
      -0x1.b3487c4f76ad7p-6, -0x1.a22a28865d3f6p-9, 0x1.849b419e6f673p-1, 0x1.a85bf1225b447p-7,
      0x1.753d5ad10076bp-7, 0x1.4e655fd75f06fp-2, 0x1.ee49cf2deeed5p-8, 0x1.04f624056e6cbp-9,
      0x1.0602b61ba4aa3p-2;
  SolverSettings o;  // the default: no short-step test
  o.tol = 1e-8;
  o.max_iters = 50;
  ASSERT_EQ(o.nsn.stall_step, 0.0);
  SolverSettings s = o;
  s.nsn.stall_step = 1e-3;
  expect_converges_only_with(p, warm, s, o, false);  // admm-ncp-sa stalls near 1e-6 here
}

TEST(Nsn, ZeroStartsWhereAMisleadingWarmStartCycles) {
  // 5 limit rows and 8 contacts of the humanoid lying down, with the previous step's impulses,
  // whose natural map (1.2) is worse than zero's (0.09). From them Newton cycles between two
  // iterates for 50 iterations; from zero it converges: the fast path's retry from zero
  // (SimSettings::fast_path_cold_rows).
  const Problem p = reduced_problem("humanoid_misleading_warm_start");
  ASSERT_EQ(p.nl, 29);
  WarmStart warm;
  warm.lambda.resize(29);
  warm.lambda << 0x1.4190a98fb233bp+0, 0x1.6d2ccdbd48411p+0, 0x1.6d2d35dab1eb2p+0, 0x0.0p+0,
      0x0.0p+0, -0x1.d6f527c747b37p-1, -0x1.9406a78e884cap-9, 0x1.1973ddb679a09p+0,
      -0x1.3c1b9d4b73fc8p+0, -0x1.29d0518e7efd4p-5, 0x1.037674f7c8b3bp+2, -0x1.d736f458dc60cp-1,
      0x1.94891c6c6de4fp-9, 0x1.199b306aefa6fp+0, -0x1.3bfcf6ff437a8p+0, 0x1.295a12f5e78b4p-5,
      0x1.036d7f8777227p+2, 0x1.bf5f622e99e91p-6, 0x1.8a56ed400420cp-4, 0x1.e9ea91a8cf2fap-4,
      0x1.bd45ddfeac244p-6, -0x1.885600e2604e1p-4, 0x1.e770f2827633ap-4, -0x1.c58a6ca86c6e0p+1,
      -0x1.7fbfcb95b6c46p-1, 0x1.4b20452c6ba28p+2, -0x1.c58ce558495f0p+1, 0x1.7fb72f3c98202p-1,
      0x1.4b21adda20d10p+2;
  SolverSettings s;
  s.tol = 1e-8;
  s.max_iters = 50;
  SolverWorkspace ws;
  Solution from_warm, from_zero;
  ASSERT_TRUE(solve("nsn", p, s, warm, ws, from_warm));
  EXPECT_FALSE(from_warm.converged()) << from_warm.residual;
  ASSERT_TRUE(solve("nsn", p, s, {}, ws, from_zero));
  ASSERT_TRUE(from_zero.converged()) << from_zero.residual << " " << from_zero.message;
  EXPECT_LE(from_zero.iterations, 10);
  expect_admm_velocities(p, from_zero);
}
