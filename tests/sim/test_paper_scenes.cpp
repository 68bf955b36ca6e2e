// The papers' scenes: ball-stack and balls-in-cube (Todorov 2010, Sec. IV, ngn), painleve and
// point-mass (Schindler et al. 2011, Sec. V; lemke and prox-fp), simulated through the
// collision and dynamics rooms rather than hand-built Problems.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/ngn.hpp"
#include "support/builtin_scene.hpp"

namespace moreau {
namespace {

constexpr double kG = 9.81;

using moreau::test::scene;

// The first step's Problem, built without solving it.
struct FirstStep {
  explicit FirstStep(const Scene& sc)
      : detector(sc.model),
        builder(sc.model),
        contacts(detector.detect(sc.initial, sc.settings.collision)),
        problem(builder.build(sc.initial, contacts, sc.settings.dt, sc.settings.dynamics)) {}
  CollisionDetector detector;
  ProblemBuilder builder;
  const std::vector<Contact>& contacts;
  const Problem& problem;
};

Solution solve_with(const std::string& solver, const Problem& p, SolverSettings st = {},
                    const WarmStart& w = {}) {
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve(solver, p, st, w, ws, sol)) << sol.message;
  return sol;
}

SolverSettings tight(int max_iters = 100000, double tol = 1e-12) {
  SolverSettings s;
  s.max_iters = max_iters;
  s.tol = tol;
  return s;
}

// ---------------------------------------------------------------------------------------------
// ball-stack: Todorov Fig. 6 (Sec. IV: one step, 1 iteration).

TEST(PaperScenes, BallStackStopsInOneNgnStep) {
  const Scene sc = scene("ball-stack");
  ASSERT_EQ(sc.settings.solver, "ngn");
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  ASSERT_TRUE(sim.step(s)) << sim.error();
  ASSERT_EQ(sim.contacts().size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_LT(std::abs(s.u[i][2]), 1e-9) << "ball " << i;
  // ngn counts passes of its loop: the all-stick start is exact, the first pass finds r ~ 0.
  EXPECT_EQ(sim.solution().iterations, 1);
  EXPECT_TRUE(sim.solution().converged());
  // The shock crosses the stack: the contact under ball k carries the 5 - k balls above it,
  // lambda_n = (5 - k) m (v + g h); no friction.
  const Problem& p = sim.problem();
  const double m = sc.model.bodies()[0].mass, v = 1.0, h = sc.settings.dt;
  for (const ConstraintBlock& b : p.blocks) {
    const double ln = sim.solution().lambda[b.offset + 2];
    EXPECT_NEAR(ln, (5 - b.body[1]) * m * (v + kG * h), 1e-9 * m) << "upper ball " << b.body[1];
    EXPECT_LT(sim.solution().lambda.segment<2>(b.offset).norm(), 1e-10);
  }
}

TEST(PaperScenes, BallStackNcpSolversAgreeOnFirstStep) {
  const Scene sc = scene("ball-stack");
  FirstStep f(sc);
  const Solution ref = solve_with("ngn", f.problem, sc.settings.solver_settings);
  ASSERT_TRUE(ref.converged()) << ref.message;
  for (const char* name : {"lemke", "prox-fp", "nbgs", "admm-ncp-sa"}) {
    SCOPED_TRACE(name);
    const Solution sol = solve_with(name, f.problem, tight(20000, 1e-11));
    EXPECT_TRUE(sol.converged()) << sol.message;
    EXPECT_LT((sol.v_plus - ref.v_plus).cwiseAbs().maxCoeff(), 1e-8);
  }
}

TEST(PaperScenes, BallStackStaysAtRest) {
  const Scene sc = scene("ball-stack");
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 100; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  for (int i = 0; i < 5; ++i) {
    EXPECT_LT(s.u[i].norm(), 1e-9) << "ball " << i;
    EXPECT_NEAR(s.r[i].z(), sc.initial.r[i].z(), 1e-9) << "ball " << i;
  }
}

// ---------------------------------------------------------------------------------------------
// balls-in-cube: Todorov Table 1 (Sec. IV; sizes: docs/solvers-implicit.md).

double radius_of(const Scene& sc, int body) {
  for (const Geometry& g : sc.model.geometries())
    if (g.body == body) return g.radius;
  return 0.0;
}

bool same_state_bits(const State& a, const State& b) {
  if (a.num_bodies() != b.num_bodies()) return false;
  for (int i = 0; i < a.num_bodies(); ++i)
    if (a.r[i] != b.r[i] || a.u[i] != b.u[i] || a.q[i].coeffs() != b.q[i].coeffs()) return false;
  return true;
}

TEST(PaperScenes, BallsInCubeSeedIsDeterministic) {
  const Scene a = scene("balls-in-cube", {{"seed", "7"}, {"n", "12"}});
  const Scene b = scene("balls-in-cube", {{"seed", "7"}, {"n", "12"}});
  const Scene c = scene("balls-in-cube", {{"seed", "8"}, {"n", "12"}});
  EXPECT_TRUE(same_state_bits(a.initial, b.initial));
  EXPECT_FALSE(same_state_bits(a.initial, c.initial));
  for (int i = 0; i < 12; ++i) EXPECT_EQ(radius_of(a, i), radius_of(b, i));
  // The default seed is 1.
  EXPECT_TRUE(same_state_bits(scene("balls-in-cube").initial,
                              scene("balls-in-cube", {{"seed", "1"}}).initial));
}

// Spec A.14 reproduction defaults: radii in [0.05, 0.15], speeds in [0, 1], inside the unit
// cube and pairwise apart.
TEST(PaperScenes, BallsInCubeInitialStateIsAdmissible) {
  for (int seed = 1; seed <= 5; ++seed) {
    const Scene sc = scene("balls-in-cube", {{"seed", std::to_string(seed)}, {"n", "15"}});
    const State& s = sc.initial;
    ASSERT_EQ(s.num_bodies(), 15);
    for (int i = 0; i < 15; ++i) {
      const double r = radius_of(sc, i);
      EXPECT_GE(r, 0.05);
      EXPECT_LE(r, 0.15);
      EXPECT_LE(s.u[i].head<3>().norm(), 1.0);
      EXPECT_EQ(s.u[i].tail<3>().norm(), 0.0);
      for (int d = 0; d < 2; ++d) EXPECT_LE(std::abs(s.r[i][d]) + r, 0.5) << "ball " << i;
      EXPECT_GE(s.r[i].z() - r, 0.0);
      EXPECT_LE(s.r[i].z() + r, 1.0);
      for (int j = 0; j < i; ++j)
        EXPECT_GT((s.r[i] - s.r[j]).norm(), r + radius_of(sc, j)) << i << ", " << j;
    }
  }
}

// 200 steps of 5 ms with ngn: finite, inelastic (the energy never grows), inside the cube.
TEST(PaperScenes, BallsInCubeTwoHundredNgnSteps) {
  const Scene sc = scene("balls-in-cube");
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  const int n = s.num_bodies();
  double E = total_energy(sc.model, s);
  const double E0 = E;
  double worst_gap = 0.0, worst_growth = 0.0;
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    ASSERT_TRUE(s.all_finite());
    for (const Contact& c : sim.contacts()) worst_gap = std::min(worst_gap, c.gap);
    const double E1 = total_energy(sc.model, s);
    worst_growth = std::max(worst_growth, E1 - E);
    E = E1;
  }
  EXPECT_LE(worst_growth, 1e-9 * E0);  // measured 3.6e-14 E0 (round-off)
  EXPECT_LT(E, 0.9 * E0);
  EXPECT_GT(worst_gap, -1e-4);  // measured -9.4e-13: speculative contacts, no penetration
  for (int i = 0; i < n; ++i) {
    const double r = radius_of(sc, i), tol = 1e-3;
    for (int d = 0; d < 2; ++d) EXPECT_LE(std::abs(s.r[i][d]) + r, 0.5 + tol) << "ball " << i;
    EXPECT_GE(s.r[i].z() - r, -tol);
    EXPECT_LE(s.r[i].z() + r, 1.0 + tol);
  }
}

// Todorov Table 1 protocol (Sec. IV): mean ngn passes per step, Newton acceptance and contacts
// for mu x n over 10 seeds, with the scene's settings (restarts = 0, the paper, tol 1e-10), with
// ngn's default restarts = 5, and with tol 1e-6. Slow (~2.5 min); run with
// --gtest_also_run_disabled_tests. The numbers are in docs/solvers-implicit.md.
TEST(PaperScenes, DISABLED_BallsInCubeTodorovTable) {
  const int seeds = 10;
  const double variants[3][2] = {{0.0, 1e-10}, {5.0, 1e-10}, {0.0, 1e-6}};  // restarts, tol
  for (const auto& [restarts, tol] : variants) {
    std::printf("restarts = %g, tol = %g\n", restarts, tol);
    std::printf(
        "mu    n  | passes  median  steps  newton%%  contacts  stalled  maxit  |r| at stall\n");
    for (double mu : {0.1, 0.2, 1.0, 2.0})
      for (int n : {5, 10, 15}) {
        double passes = 0, medians = 0, newton = 0, searches = 0, contacts = 0, stall_res = 0;
        int count = 0, stalled = 0, maxit = 0;
        for (int seed = 1; seed <= seeds; ++seed) {
          char mus[32];
          std::snprintf(mus, sizeof mus, "%g", mu);
          const Scene sc =
              scene("balls-in-cube",
                    {{"mu", mus}, {"n", std::to_string(n)}, {"seed", std::to_string(seed)}});
          SimSettings settings = sc.settings;
          settings.solver_settings.ngn.restarts = static_cast<int>(restarts);
          settings.solver_settings.tol = tol;
          Simulator sim(sc.model, settings);
          State s = sc.initial;
          std::vector<int> run_passes;
          for (int k = 0; k < 200; ++k) {
            ASSERT_TRUE(sim.step(s)) << sim.error();
            if (sim.problem().nl == 0) continue;
            // Re-solve the step's Problem for the statistics (same inputs: the same solution).
            SolverWorkspace ws;
            Solution sol;
            ngn::Stats st;
            ngn::solve(sim.problem(), settings.solver_settings, {}, ws, sol, &st);
            EXPECT_EQ(sol.lambda, sim.solution().lambda);
            run_passes.push_back(st.iterations);
            passes += st.iterations;
            newton += st.newton_steps;
            searches += st.line_searches;
            contacts += sim.problem().nl / 3.0;
            stalled += st.stalled;
            if (st.stalled) stall_res = std::max(stall_res, sol.residual);
            maxit += sol.status == SolveStatus::MaxIterations && !st.stalled;
            ++count;
          }
          if (!run_passes.empty()) {
            std::sort(run_passes.begin(), run_passes.end());
            medians += run_passes[run_passes.size() / 2];
          }
        }
        std::printf("%-4g %2d  | %6.2f  %6.2f  %6.2f  %5.1f%%  %6.1f  %6d  %5d  %.1e\n", mu, n,
                    passes / count, medians / seeds, (newton + searches) / count,
                    100.0 * newton / std::max(1.0, newton + searches), contacts / count, stalled,
                    maxit, stall_res);
      }
  }
}

// ---------------------------------------------------------------------------------------------
// painleve: Schindler et al. eq. 45 (Sec. V-B). The sliding contact (lambda_T = -mu lambda_n
// s, s the slip direction) reduces the scene's first-step Problem to the one-row LCP
// 0 <= Lambda perp G Lambda + b >= 0 with G = D_nn - mu D_nT s and b = v_f,n (velocity level:
// b = -g h).

struct Reduced {
  double G, b;
};

Reduced reduce_sliding(const Problem& p) {
  EXPECT_EQ(p.num_blocks(), 1);
  const ConstraintBlock& c = p.blocks[0];
  EXPECT_EQ(c.kind, RowKind::Contact);
  const Vec3 vf = p.v_f.segment<3>(c.offset);
  const Eigen::Vector2d s = vf.head<2>().normalized();
  const Mat3 D = p.D_dense.block<3, 3>(c.offset, c.offset);
  return {D(2, 2) - c.mu * (D(2, 0) * s[0] + D(2, 1) * s[1]), vf[2]};
}

Problem one_row(double G, double b) {
  Problem p;
  p.dt = 1.0;
  ConstraintBlock blk;
  blk.kind = RowKind::Limit;
  blk.cone = ConeKind::Orthant;
  blk.size = 1;
  blk.J[0].setZero();
  blk.J[1].setZero();
  p.blocks = {blk};
  p.nl = 1;
  const int size = 1;
  p.D.begin(&size, 1);
  p.D.push_entry(0, 0);
  p.D.finalize();
  p.D.entry(0) = MatX::Constant(1, 1, G);
  p.D.to_dense(p.D_dense);
  p.has_dense = true;
  p.v_f = VecX::Constant(1, b);
  p.v_minus = VecX::Zero(1);
  p.f = VecX::Zero(1);
  return p;
}

Reduced painleve_case(int which) {
  const Scene sc = scene("painleve", {{"case", std::to_string(which)}});
  EXPECT_EQ(sc.settings.solver, "lemke");
  FirstStep f(sc);
  EXPECT_EQ(f.contacts.size(), 1u);
  return reduce_sliding(f.problem);
}

// G = (1/m)[1 + 3 cos(cos - mu sin)] at tan theta = 2 (eq. 45, J = m L^2 / 12): 1.24 and -0.2.
TEST(PaperScenes, PainleveSceneGivesTheSpecG) {
  const double h = 1e-3;
  const Reduced c1 = painleve_case(1), c2 = painleve_case(2), c3 = painleve_case(3);
  EXPECT_NEAR(c1.G, 1.24, 1e-9);
  EXPECT_NEAR(c2.G, -0.2, 1e-9);
  EXPECT_NEAR(c3.G, -0.2, 1e-9);
  EXPECT_NEAR(c1.b, -kG * h, 1e-12);
  EXPECT_NEAR(c2.b, kG * h, 1e-12);
  EXPECT_NEAR(c3.b, -kG * h, 1e-12);
}

TEST(PaperScenes, PainleveLemkeOnTheThreeCases) {
  const double h = 1e-3;
  // Case 1: unique, lambda = g / G = 7.9113 N.
  const Reduced c1 = painleve_case(1);
  const Solution s1 = solve_with("lemke", one_row(c1.G, c1.b));
  ASSERT_TRUE(s1.converged()) << s1.message;
  EXPECT_NEAR(s1.lambda[0] / h, 7.91129, 1e-4);
  // Case 2: two solutions {0, g / |G|}. Lemke stops at once at 0 (b >= 0); the other one
  // solves the same LCP (checked directly) and repels the fixed-point iteration.
  const Reduced c2 = painleve_case(2);
  const Solution s2 = solve_with("lemke", one_row(c2.G, c2.b));
  ASSERT_TRUE(s2.converged()) << s2.message;
  EXPECT_EQ(s2.lambda[0], 0.0);
  EXPECT_EQ(s2.iterations, 0);
  const double lambda2 = -c2.b / c2.G;
  EXPECT_NEAR(lambda2 / h, 49.05, 1e-6);
  EXPECT_NEAR(c2.G * lambda2 + c2.b, 0.0, 1e-15);
  // Case 3: no solution; Lemke ends on a ray.
  const Reduced c3 = painleve_case(3);
  const Solution s3 = solve_with("lemke", one_row(c3.G, c3.b));
  EXPECT_EQ(s3.status, SolveStatus::Failed);
  EXPECT_NE(s3.message.find("ray termination"), std::string::npos) << s3.message;
}

// Prox fixed point lambda <- max(0, (1 - r G) lambda - r b): converges for 0 < r < 2 / G
// (case 1); in case 2 it finds 0 from below lambda_2 and diverges from above; case 3 diverges.
TEST(PaperScenes, PainleveProxFixedPoint) {
  const Reduced c1 = painleve_case(1);
  const Problem p1 = one_row(c1.G, c1.b);
  const double exact = -c1.b / c1.G;
  for (double k : {0.2, 1.0, 1.9}) {
    SolverSettings st = tight(5000, 1e-14);
    st.prox_fp.r = k / c1.G;
    const Solution sol = solve_with("prox-fp", p1, st);
    EXPECT_TRUE(sol.converged()) << "r G = " << k << ": " << sol.message;
    EXPECT_NEAR(sol.lambda[0], exact, 1e-12);
  }
  SolverSettings st = tight(5000, 1e-14);
  st.prox_fp.r = 2.5 / c1.G;
  EXPECT_FALSE(solve_with("prox-fp", p1, st).converged());

  const Reduced c2 = painleve_case(2);
  const Problem p2 = one_row(c2.G, c2.b);
  const double lambda2 = -c2.b / c2.G;
  SolverSettings st2 = tight(5000, 1e-14);
  st2.prox_fp.r = 1.0;
  WarmStart below, above;
  below.lambda = VecX::Constant(1, 0.99 * lambda2);
  above.lambda = VecX::Constant(1, 1.01 * lambda2);
  const Solution from_below = solve_with("prox-fp", p2, st2, below);
  EXPECT_TRUE(from_below.converged()) << from_below.message;
  EXPECT_EQ(from_below.lambda[0], 0.0);
  EXPECT_EQ(solve_with("prox-fp", p2, st2, above).status, SolveStatus::Diverged);

  const Reduced c3 = painleve_case(3);
  EXPECT_EQ(solve_with("prox-fp", one_row(c3.G, c3.b), st2).status, SolveStatus::Diverged);
}

// The scene's full first-step Problem (one 3-row contact, exact cone or pyramid) at the velocity
// level. Case 1: every solver finds the sliding solution of the reduced LCP, lambda_n = g h / G
// and lambda_T = +mu lambda_n along +x (a pyramid direction, so lemke is exact too).
TEST(PaperScenes, PainleveFullProblemSlidesInCaseOne) {
  const Scene sc = scene("painleve", {{"case", "1"}});
  FirstStep f(sc);
  const Reduced c1 = reduce_sliding(f.problem);
  const double ln = -c1.b / c1.G;
  ASSERT_NEAR(f.contacts[0].frame(0, 0), 1.0, 1e-15);  // t = +x
  for (const char* name : {"lemke", "ngn", "prox-fp"}) {
    SCOPED_TRACE(name);
    const Solution sol = solve_with(name, f.problem, tight(5000, 1e-12));
    ASSERT_TRUE(sol.converged()) << sol.message;
    EXPECT_NEAR(sol.lambda[2], ln, 1e-12);
    EXPECT_NEAR(sol.lambda[0], 0.3 * ln, 1e-12);
    EXPECT_NEAR(sol.lambda[1], 0.0, 1e-12);
    EXPECT_LT(sol.v_plus[0], -0.9);  // still sliding left
    EXPECT_NEAR(sol.v_plus[2], 0.0, 1e-12);
  }
}

// Cases 2 and 3 at the velocity level: an impulse may stop the sliding within the step
// (tangential impact), so the full Problem has a solution even where eq. 45 has none (the
// velocity-level LCP always has one: Anitescu & Potra 1997). Case 3: lemke and ngn both return
// the stick solution v+ = 0 with the impulse inside the cone. Case 2: that stick solution and
// lift-off (lambda = 0, found by prox-fp from 0) are both solutions.
TEST(PaperScenes, PainleveFullProblemStopsByImpactInCasesTwoAndThree) {
  for (int which : {2, 3}) {
    SCOPED_TRACE("case " + std::to_string(which));
    const Scene sc = scene("painleve", {{"case", std::to_string(which)}});
    FirstStep f(sc);
    for (const char* name : {"lemke", "ngn"}) {
      SCOPED_TRACE(name);
      const Solution sol = solve_with(name, f.problem, tight(5000, 1e-12));
      ASSERT_TRUE(sol.converged()) << sol.message;
      EXPECT_LT(sol.v_plus.cwiseAbs().maxCoeff(), 1e-10);
      EXPECT_GT(sol.lambda[2], 0.0);
      EXPECT_LT(sol.lambda.head<2>().norm(), 1.5 * sol.lambda[2]);
    }
    if (which == 2) {
      const Solution lift = solve_with("prox-fp", f.problem, tight(5000, 1e-12));
      ASSERT_TRUE(lift.converged()) << lift.message;
      EXPECT_EQ(lift.lambda.cwiseAbs().maxCoeff(), 0.0);
      EXPECT_GT(lift.v_plus[2], 0.0);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// point-mass: Schindler et al. Sec. V-A (eq. 19-26) at the velocity level: D = I / m,
// v_f = (v, 0, -g h). Sticks iff |v| <= mu g h: lambda_T = -m v; else lambda_T = -mu m g h.

Problem point_mass_problem(double m, double v, Scene* out = nullptr) {
  char ms[32], vs[32];
  std::snprintf(ms, sizeof ms, "%.17g", m);
  std::snprintf(vs, sizeof vs, "%.17g", v);
  const Scene sc = scene("point-mass", {{"m", ms}, {"v", vs}});
  EXPECT_EQ(sc.settings.solver, "prox-fp");
  FirstStep f(sc);
  EXPECT_EQ(f.contacts.size(), 1u);
  Problem p = f.problem;
  if (out) *out = sc;
  return p;
}

TEST(PaperScenes, PointMassDelassusIsInverseMass) {
  const double m = 2.0;
  const Problem p = point_mass_problem(m, 0.3);
  EXPECT_LT((p.D_dense - MatX::Identity(3, 3) / m).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_NEAR(p.v_f[0], 0.3, 1e-15);
  EXPECT_NEAR(p.v_f[2], -kG * 1e-3, 1e-15);
}

TEST(PaperScenes, PointMassProxFpOneIterationAtRm) {
  for (double m : {1.0, 2.0, 0.25})
    for (double v : {0.0, 0.002, 1.0}) {
      SCOPED_TRACE("m = " + std::to_string(m) + ", v = " + std::to_string(v));
      const Problem p = point_mass_problem(m, v);
      SolverSettings st = tight(100, 1e-12);
      st.prox_fp.r = m;
      const Solution sol = solve_with("prox-fp", p, st);
      EXPECT_TRUE(sol.converged()) << sol.message;
      EXPECT_EQ(sol.iterations, 1);
    }
}

TEST(PaperScenes, PointMassProxFpConvergesIffRBelowTwoM) {
  const double m = 2.0;
  const Problem p = point_mass_problem(m, 0.0);
  for (double k : {0.25, 0.5, 1.5, 1.9}) {
    SolverSettings st = tight(10000, 1e-12);
    st.prox_fp.r = k * m;
    EXPECT_TRUE(solve_with("prox-fp", p, st).converged()) << "r / m = " << k;
  }
  for (double k : {2.0, 2.5}) {
    SolverSettings st = tight(10000, 1e-12);
    st.prox_fp.r = k * m;
    EXPECT_FALSE(solve_with("prox-fp", p, st).converged()) << "r / m = " << k;
  }
}

TEST(PaperScenes, PointMassStickAndSlideMatchLemke) {
  const double m = 1.5, mu = 0.5, h = 1e-3;
  // Stick: 0.002 < mu g h = 0.0049; slide: 1 m/s, 0.5 m/s backwards.
  for (double v : {0.0, 0.002, -0.004, 1.0, -0.5}) {
    SCOPED_TRACE("v = " + std::to_string(v));
    Scene sc;
    const Problem p = point_mass_problem(m, v, &sc);
    const Solution fp = solve_with("prox-fp", p, sc.settings.solver_settings);
    const Solution lk = solve_with("lemke", p);
    ASSERT_TRUE(fp.converged()) << fp.message;
    ASSERT_TRUE(lk.converged()) << lk.message;
    const bool stick = std::abs(v) <= mu * kG * h;
    const double lt = stick ? -m * v : -std::copysign(mu * m * kG * h, v);
    EXPECT_NEAR(fp.lambda[2], m * kG * h, 1e-12);
    EXPECT_NEAR(fp.lambda[0], lt, 1e-12);
    EXPECT_NEAR(fp.lambda[1], 0.0, 1e-12);
    EXPECT_LT((fp.lambda - lk.lambda).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((fp.v_plus - lk.v_plus).cwiseAbs().maxCoeff(), 1e-12);
  }
}

// The simulated point mass decelerates at mu g until it stops, then stays (one contact).
TEST(PaperScenes, PointMassSlidesToRest) {
  const double v = 1.0, mu = 0.5;
  const Scene sc = scene("point-mass", {{"v", "1"}});
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  const double h = sc.settings.dt;
  const int n = static_cast<int>(0.1 / h);
  for (int k = 0; k < n; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  EXPECT_NEAR(s.u[0][0], v - mu * kG * n * h, 1e-9);
  EXPECT_NEAR(s.u[0][2], 0.0, 1e-12);
  for (int k = 0; k < 300; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  EXPECT_NEAR(s.u[0][0], 0.0, 1e-12);
  EXPECT_NEAR(s.r[0][0], v * v / (2 * mu * kG), 2 * v * h);
}

TEST(PaperScenes, UnknownOrBadParametersAreErrors) {
  EXPECT_FALSE(make_builtin_scene("ball-stack", {{"n", "5"}}));
  EXPECT_FALSE(make_builtin_scene("balls-in-cube", {{"n", "2.5"}}));
  EXPECT_FALSE(make_builtin_scene("balls-in-cube", {{"seed", "-1"}}));
  EXPECT_FALSE(make_builtin_scene("painleve", {{"case", "4"}}));
  EXPECT_FALSE(make_builtin_scene("painleve", {{"mu", "1"}}));
  EXPECT_FALSE(make_builtin_scene("point-mass", {{"m", "0"}}));
  EXPECT_TRUE(make_builtin_scene("point-mass", {{"m", "2"}, {"mu", "0.3"}, {"v", "1"}}));
}

}  // namespace
}  // namespace moreau
