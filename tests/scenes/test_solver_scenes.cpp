// First-order solvers (ADMM family, APGD, SOR-prox) on Problems built from the built-in scenes:
// agreement with the foundation "direct" / "pgs", rank-deficient loops, mass-ratio stress.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/first_order.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

namespace {
const char* kFirstOrder[] = {"admm-ccp",    "admm-ncp-fp", "admm-ncp-la",
                             "admm-ncp-sa", "apgd",        "prox"};

// The Problem of the scene's first step (collision included), kept alive with its builder.
struct SceneProblem {
  Scene scene;
  std::unique_ptr<ProblemBuilder> builder;
  const Problem* p = nullptr;
};

// `perturb` (optional) edits the scene's initial state before collision and assembly.
SceneProblem build(const std::string& name, bool soft = false, void (*perturb)(State&) = nullptr) {
  SceneProblem sp;
  Result<Scene> sc = load_scene(name);
  EXPECT_TRUE(sc) << sc.error().message();
  sp.scene = std::move(*sc);
  if (perturb) perturb(sp.scene.initial);
  CollisionDetector cd(sp.scene.model);
  const std::vector<Contact> contacts = cd.detect(sp.scene.initial, sp.scene.settings.collision);
  sp.builder = std::make_unique<ProblemBuilder>(sp.scene.model);
  DynamicsSettings ds = sp.scene.settings.dynamics;
  ds.softening.enabled = soft;
  sp.p = &sp.builder->build(sp.scene.initial, contacts, sp.scene.settings.dt, ds);
  return sp;
}

Solution run(const std::string& solver, const Problem& p, double tol, int max_iters = 20000) {
  SolverSettings s;
  s.tol = tol;
  s.max_iters = max_iters;
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve(solver, p, s, {}, ws, sol)) << sol.message;
  return sol;
}

double joint_velocity(const Problem& p, const VecX& v_plus) {
  double worst = 0.0;
  for (const ConstraintBlock& b : p.blocks)
    if (b.kind == RowKind::Joint)
      worst = std::max(worst, v_plus.segment(b.offset, b.size).cwiseAbs().maxCoeff());
  return worst;
}
}  // namespace

TEST(SolverScenes, FourbarFixedLoopClosesForEverySolver) {
  // 20 revolute rows, 3 redundant (planar loop): D is singular, lambda not unique, v+ and u+ are.
  const SceneProblem sp = build("fourbar-fixed");
  const Problem& p = *sp.p;
  ASSERT_GT(p.nl, 0);
  const Solution ref = run("direct", p, 1e-12);
  ASSERT_TRUE(ref.converged());
  VecX u_ref(6 * p.num_bodies), u(6 * p.num_bodies);
  p.velocity_from_impulse(ref.lambda, u_ref);
  for (const char* name : kFirstOrder) {
    const Solution sol = run(name, p, 1e-11);
    EXPECT_TRUE(sol.converged()) << name << " " << status_name(sol.status);
    EXPECT_LE(joint_velocity(p, sol.v_plus), 1e-10) << name;
    p.velocity_from_impulse(sol.lambda, u);
    EXPECT_LE((u - u_ref).cwiseAbs().maxCoeff(), 1e-8) << name;  // u+ is unique
    std::printf("  fourbar-fixed %-12s iterations %6d  |v+_J| %.1e\n", name, sol.iterations,
                joint_velocity(p, sol.v_plus));
  }
}

TEST(SolverScenes, JointScenesAgreeWithPgsAndDirect) {
  for (const char* scene : {"pendulum", "nunchuk", "chain", "fourbar-free"}) {
    const SceneProblem sp = build(scene);
    const Problem& p = *sp.p;
    if (p.rows_of(RowKind::Contact) + p.rows_of(RowKind::Limit) > 0) continue;  // direct: joints
    const Solution ref = run("direct", p, 1e-12);
    const Solution pgs = run("pgs", p, 1e-12, 200000);
    ASSERT_TRUE(ref.converged()) << scene;
    VecX u_ref(6 * p.num_bodies), u(6 * p.num_bodies);
    p.velocity_from_impulse(ref.lambda, u_ref);
    p.velocity_from_impulse(pgs.lambda, u);
    EXPECT_LE((u - u_ref).cwiseAbs().maxCoeff(), 1e-7) << scene << " pgs";
    for (const char* name : kFirstOrder) {
      const Solution sol = run(name, p, 1e-11);
      EXPECT_TRUE(sol.converged()) << scene << " " << name;
      p.velocity_from_impulse(sol.lambda, u);
      EXPECT_LE((u - u_ref).cwiseAbs().maxCoeff(), 1e-8) << scene << " " << name;
    }
  }
}

TEST(SolverScenes, BoxesFixedMassRatio1000) {
  // Heavy box (1000 kg) resting on the ground, light box (1 kg) welded on top: contacts + weld.
  const SceneProblem sp = build("boxes-fixed");
  const Problem& p = *sp.p;
  ASSERT_GT(p.rows_of(RowKind::Contact), 0);
  ASSERT_GT(p.rows_of(RowKind::Joint), 0);
  std::vector<VecX> u_ncp;
  std::vector<int> iters;
  for (const char* name : {"admm-ncp-fp", "admm-ncp-la", "admm-ncp-sa"}) {
    const Solution sol = run(name, p, 1e-8);
    iters.push_back(sol.iterations);
    EXPECT_TRUE(sol.converged()) << name << " " << status_name(sol.status);
    const NcpResiduals r = ncp_residuals(p, sol.lambda, sol.v_plus, true);
    EXPECT_LE(r.natmap, 1e-8) << name;
    std::printf("  boxes-fixed %-12s iterations %6d  natmap %.1e\n", name, sol.iterations,
                r.natmap);
    u_ncp.emplace_back(6 * p.num_bodies);
    p.velocity_from_impulse(sol.lambda, u_ncp.back());
  }
  // rho = 1 is far from the scale of the heavy box's rows (D ~ 1e-3): the adaptive penalties
  // (eq. 171, 172) must pay off by more than an order of magnitude (measured: 3460, 23, 12).
  EXPECT_LT(10 * iters[1], iters[0]);
  EXPECT_LT(10 * iters[2], iters[0]);
  // The resting solution has no sliding: the NCP velocities agree across the three penalties.
  EXPECT_LE((u_ncp[0] - u_ncp[1]).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LE((u_ncp[0] - u_ncp[2]).cwiseAbs().maxCoeff(), 1e-6);
  // pgs, prox (NCP) and apgd, admm-ccp (CCP) at the same tolerance: each converges, meets its own
  // problem's natural map (eq. 163 / 164) evaluated here, and (no contact slides at rest, so the
  // CCP and the NCP agree) gives the NCP solvers' velocities.
  for (const char* name : {"pgs", "prox", "apgd", "admm-ccp"}) {
    const Solution sol = run(name, p, 1e-8, 20000);
    const bool ncp = std::string(name) == "pgs" || std::string(name) == "prox";
    const double natmap = ncp_residuals(p, sol.lambda, sol.v_plus, ncp).natmap;
    std::printf("  boxes-fixed %-12s iterations %6d  status %s  natmap %.1e\n", name,
                sol.iterations, status_name(sol.status), natmap);
    EXPECT_TRUE(sol.converged()) << name << " " << status_name(sol.status);
    EXPECT_LE(natmap, 1e-8) << name;
    VecX u(6 * p.num_bodies);
    p.velocity_from_impulse(sol.lambda, u);
    EXPECT_LE((u - u_ncp[1]).cwiseAbs().maxCoeff(), 1e-6) << name;
  }
}

TEST(SolverScenes, BitIdenticalTwice) {
  const SceneProblem sp = build("boxes-fixed");
  for (const char* name : kFirstOrder) {
    const Solution a = run(name, *sp.p, 1e-8, 3000), b = run(name, *sp.p, 1e-8, 3000);
    EXPECT_EQ(a.iterations, b.iterations) << name;
    for (int k = 0; k < sp.p->nl; ++k) ASSERT_EQ(a.lambda[k], b.lambda[k]) << name;
  }
}

namespace {
// boxes-fixed off its rest state: the light box (body 1) 0.2 mm off its weld and spinning, the
// heavy box sinking 1 mm into the ground and moving: the weld's residual f_J, the contact gaps
// and J u^- are non-zero, so is the softening bias v_r (eq. 106).
void boxes_off_rest(State& s) {
  s.r[1] += Vec3(2e-4, -1e-4, 1e-4);
  s.u[1] << 0.01, 0.0, -0.02, 0.1, 0.05, 0.0;
  s.r[0][2] -= 1e-3;
  s.u[0] << 0.02, 0.01, -0.05, 0.0, 0.0, 0.01;
}
// fourbar-free with its loop broken by 1 mm and its links moving: joints only, f_J != 0.
void fourbar_off_rest(State& s) {
  s.r[1] += Vec3(1e-3, -2e-3, 0.5e-3);
  for (size_t b = 0; b < s.u.size(); ++b) s.u[b] << 0.0, 0.01 * b, 0.0, 0.1, -0.05 * b, 0.02;
}
// The softened velocity the solvers complement: w = (D + R) lambda + v_f with v_r folded into
// v_f (eq. 95, 106). Solution::v_plus = D lambda + v_f - v_r (the physical velocity).
VecX softened_velocity(const Problem& p, const Solution& sol) {
  return sol.v_plus + p.v_r + p.R.cwiseProduct(sol.lambda);
}
}  // namespace

TEST(SolverScenes, SoftenedJointProblemMatchesTheClosedForm) {
  // Joints only: the softened problem is linear, (D + R) lambda + v_f = 0, with D + R SPD although
  // the loop makes D singular: lambda = -(D + R)^-1 v_f, by a dense Cholesky here.
  const SceneProblem sp = build("fourbar-free", true, fourbar_off_rest);
  const Problem& p = *sp.p;
  ASSERT_EQ(p.R.size(), p.nl);
  ASSERT_EQ(p.count(RowKind::Contact) + p.count(RowKind::Limit), 0);
  ASSERT_GT(p.v_r.cwiseAbs().maxCoeff(), 1e-3);  // the bias is there
  MatX A;
  p.D.to_dense(A);
  A.diagonal() += p.R;
  const VecX exact = -A.llt().solve(p.v_f);
  const double scale = exact.cwiseAbs().maxCoeff();
  // Every solver that says it handles softening (SolverInfo::handles_softening) solves it; the
  // others refuse the Problem.
  int solved = 0;
  for (const SolverInfo& info : solver_registry()) {
    const std::string name(info.name);
    if (!info.handles_softening) {
      SolverWorkspace ws;
      Solution sol;
      ASSERT_TRUE(solve(name, p, SolverSettings{}, {}, ws, sol));
      EXPECT_EQ(sol.status, SolveStatus::Failed) << name;
      EXPECT_NE(sol.message.find("softening"), std::string::npos) << name << ": " << sol.message;
      continue;
    }
    const Solution sol = run(name, p, 1e-11, 200000);
    EXPECT_TRUE(sol.converged()) << name << ": " << sol.message;
    EXPECT_LE((sol.lambda - exact).cwiseAbs().maxCoeff(), 1e-6 * scale) << name;
    // The physical velocity is v+ = D lambda + v_f - v_r = -R lambda - v_r (eq. 113).
    // raisim-ds-es stops on the objective's plateau (eq. 160), not on this residual: 1.8e-6 here.
    const double vtol = name == "raisim-ds-es" ? 1e-5 : 1e-9;
    EXPECT_LE((sol.v_plus + p.R.cwiseProduct(sol.lambda) + p.v_r).cwiseAbs().maxCoeff(), vtol)
        << name;
    ++solved;
  }
  EXPECT_GE(solved, 17);  // all but sap, which brings its own regularization
}

TEST(SolverScenes, SoftenedProblemsAreSolvedWithDPlusR) {
  // Contacts and a weld off their rest state: v_r != 0. Every solver's answer satisfies the
  // regularized NCP in (D + R) lambda + v_f (v_r included) to its tolerance, and agrees with an
  // independent solve: nbgs (the PGS family sweeps D + R) at a tighter tolerance.
  const SceneProblem sp = build("boxes-fixed", true, boxes_off_rest);
  const Problem& p = *sp.p;
  ASSERT_EQ(p.R.size(), p.nl);
  ASSERT_GT(p.count(RowKind::Contact), 0);
  ASSERT_GT(p.v_r.cwiseAbs().maxCoeff(), 1e-3);
  const Solution ref = run("nbgs", p, 1e-12, 200000);
  ASSERT_TRUE(ref.converged());
  ASSERT_LE(ncp_residuals(p, ref.lambda, softened_velocity(p, ref), true).natmap, 1e-12);
  // Without v_r the same lambda is far from a solution: the check below can fail.
  ASSERT_GT(ncp_residuals(p, ref.lambda, ref.v_plus + p.R.cwiseProduct(ref.lambda), true).natmap,
            1e-4);
  const double scale = ref.lambda.cwiseAbs().maxCoeff();
  for (const char* name : {"admm-ncp-fp", "admm-ncp-la", "admm-ncp-sa", "prox"}) {
    const Solution sol = run(name, p, 1e-9);
    EXPECT_TRUE(sol.converged()) << name;
    EXPECT_LE(ncp_residuals(p, sol.lambda, softened_velocity(p, sol), true).natmap, 1e-9) << name;
    // D + R is SPD: one solution (the contacts' friction cones are uncoupled enough here).
    EXPECT_LE((sol.lambda - ref.lambda).cwiseAbs().maxCoeff(), 1e-6 * scale) << name;
  }
}

TEST(SolverScenes, InclineSticksOrSlidesAsCoulombSays) {
  // 20 degree incline: mu = 0.5 > tan 20 = 0.364 sticks; mu = 0.2 slides with
  // a = g (sin 20 - mu cos 20) along the slope. NCP solvers only: the CCP hovers when sliding.
  const double th = 20.0 * 3.14159265358979323846 / 180.0, T = 0.3;
  for (const char* name : {"admm-ncp-fp", "admm-ncp-la", "admm-ncp-sa", "prox"})
    for (double mu : {0.5, 0.2}) {
      Result<Scene> sc = load_scene("box-incline", {{"mu", std::to_string(mu)}});
      ASSERT_TRUE(sc) << sc.error().message();
      SimSettings st = sc->settings;
      st.solver = name;
      st.solver_settings.tol = 1e-9;
      st.solver_settings.max_iters = 5000;
      const double g = sc->model.gravity().norm();
      Simulator sim(sc->model, st);
      State s = sc->initial;
      const int n = static_cast<int>(T / st.dt + 0.5);
      for (int k = 0; k < n; ++k) ASSERT_TRUE(sim.step(s)) << name << ": " << sim.error();
      const double speed = s.u[0].head<3>().norm();
      const double a = std::max(0.0, g * (std::sin(th) - mu * std::cos(th)));
      EXPECT_NEAR(speed, a * n * st.dt, 0.02 * a * n * st.dt + 1e-4) << name << " mu " << mu;
    }
}

TEST(SolverScenes, AdmmSparseAndDenseBackendsAgree) {
  // chain n = 40: 200 rows, auto picks the sparse LDLT; one workspace reused across structures.
  const SceneProblem chain = build("chain"), boxes = build("boxes-fixed");
  SolverWorkspace ws;
  for (const char* name : {"admm-ncp-fp", "admm-ncp-sa"}) {
    Solution sol[2];
    for (int backend : {0, 1}) {
      SolverSettings s;
      s.tol = 1e-10;
      s.max_iters = 5000;
      s.admm.backend = backend;
      Solution other;
      ASSERT_TRUE(solve(name, *boxes.p, s, {}, ws, other));  // a different pattern in between
      ASSERT_TRUE(solve(name, *chain.p, s, {}, ws, sol[backend]));
      EXPECT_TRUE(sol[backend].converged()) << name << " backend " << backend;
    }
    // A fresh workspace gives the same bits as the reused one (pattern cache is speed only).
    SolverSettings s;
    s.tol = 1e-10;
    s.max_iters = 5000;
    s.admm.backend = 1;
    SolverWorkspace fresh;
    Solution again;
    ASSERT_TRUE(solve(name, *chain.p, s, {}, fresh, again));
    EXPECT_EQ(again.iterations, sol[1].iterations);
    for (int k = 0; k < chain.p->nl; ++k) ASSERT_EQ(again.lambda[k], sol[1].lambda[k]) << name;
    const Problem& p = *chain.p;
    VecX u0(6 * p.num_bodies), u1(6 * p.num_bodies);
    p.velocity_from_impulse(sol[0].lambda, u0);
    p.velocity_from_impulse(sol[1].lambda, u1);
    EXPECT_LE((u0 - u1).cwiseAbs().maxCoeff(), 1e-8) << name;
  }
}

TEST(SolverScenes, SoftContactRestsAtTheImpedancePenetration) {
  // A ball at rest on soft ground (Baumgarte off): (D + R) lambda + v_f + v_r = 0 and
  // D lambda + v_f = 0 give R lambda = -v_r, lambda = m g dt, R = c D = c / m, so
  // r = -(1 - d) g / (d k) with d = d(r) (eq. 104-106): a fixed point in r.
  for (bool mujoco : {false, true}) {
    Result<Scene> sc = load_scene("ball-drop", {{"height", "0.1"}, {"restitution", "0"}});
    ASSERT_TRUE(sc) << sc.error().message();
    SimSettings st = sc->settings;
    st.solver = "admm-ncp-fp";
    st.solver_settings.tol = 1e-10;
    st.dynamics.beta_contact = 0.0;
    st.dynamics.softening.enabled = true;
    st.dynamics.softening.mujoco_reference = mujoco;
    Simulator sim(sc->model, st);
    State s = sc->initial;
    // Eq. 106 as written relaxes r at the rate d dt k ~ 2.4 / s (over-damped; docs/solvers.md),
    // MuJoCo's reference with the time constant T = 0.02 s: settle 6 s and 2 s.
    const int steps = mujoco ? 2000 : 6000;
    for (int k = 0; k < steps; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
    ASSERT_EQ(sim.problem().count(RowKind::Contact), 1);
    const double gap = sim.problem().f[2];
    const ImpedanceParams& ip = st.dynamics.softening.contact;
    const double g = sc->model.gravity().norm();
    double r = 0.0;
    for (int it = 0; it < 200; ++it) {
      const double d = impedance(ip, r);
      const double k = d / std::pow(ip.timeconst * ip.dampratio * ip.dwidth, 2);
      r = -(1.0 - d) * g / (d * k);
    }
    EXPECT_NEAR(gap, r, 1e-3 * std::abs(r)) << (mujoco ? "mujoco reference" : "eq. 106");
    EXPECT_LE(std::abs(s.u[0][2]), 1e-6);
  }
}

TEST(SolverScenes, PowerIterationFindsTheLargestEigenvalue) {
  // lambda_max(D) for the spectral penalty (eq. 172): fourbar-fixed's top eigenvalues are
  // 12851 and 8993, so 30 iterations converge to ~1e-9 relative; compare with a dense solver.
  const SceneProblem sp = build("fourbar-fixed");
  MatX D;
  sp.p->D.to_dense(D);
  Eigen::SelfAdjointEigenSolver<MatX> es(D, Eigen::EigenvaluesOnly);
  const double exact = es.eigenvalues().maxCoeff();
  GrowVec a, b;
  EXPECT_NEAR(first_order::largest_eigenvalue(*sp.p, 30, a, b), exact, 1e-6 * exact);
}
