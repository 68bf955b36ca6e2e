// SAP (Castro, Permenter & Han 2023): the R-metric projection against a brute-force search,
// G and the cost derivatives against finite differences, 0 <= G <= R^-1, monotone cost,
// quadratic convergence, warm start, the single-contact stiction and penetration laws, and the
// optimum against an independent solver of the regularized dual (eq. 22).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>
#include <random>

#include "moreau/solvers/sap.hpp"
#include "moreau/solvers/solver_params.hpp"
#include "solvers/sap_problems.hpp"

using namespace moreau;
using namespace moreau::testing_problems;

namespace {
constexpr double kPi = std::numbers::pi;

// Brute force: min over the cone {|g_t| <= mu g_n} of 1/2 (g - y)^T R (g - y), R = diag(Rt,
// Rt, Rn). Candidates: y itself (if inside), 0, and on the wall g = s (mu cos th, mu sin th,
// 1), s >= 0, the optimal s in closed form for each th of a fine grid refined by golden search.
Vec3 brute_projection(double mu, double Rt, double Rn, const Vec3& y) {
  const Vec3 Rd(Rt, Rt, Rn);
  auto f = [&](const Vec3& g) { return 0.5 * (g - y).cwiseProduct(Rd).dot(g - y); };
  if (y[2] >= 0.0 && std::hypot(y[0], y[1]) <= mu * y[2]) return y;
  Vec3 best = Vec3::Zero();
  double fb = f(best);
  auto on_wall = [&](double th) {
    const Vec3 d(mu * std::cos(th), mu * std::sin(th), 1.0);
    const double s = std::max(0.0, d.cwiseProduct(Rd).dot(y) / d.cwiseProduct(Rd).dot(d));
    return Vec3(s * d);
  };
  const int N = 720;
  double th_best = 0.0;
  for (int i = 0; i < N; ++i) {
    const double th = 2.0 * kPi * i / N;
    const Vec3 g = on_wall(th);
    if (f(g) < fb) fb = f(g), best = g, th_best = th;
  }
  double a = th_best - 2.0 * kPi / N, b = th_best + 2.0 * kPi / N;
  for (int it = 0; it < 200; ++it) {
    const double c = b - (b - a) / std::numbers::phi, d = a + (b - a) / std::numbers::phi;
    if (f(on_wall(c)) < f(on_wall(d)))
      b = d;
    else
      a = c;
  }
  const Vec3 g = on_wall(0.5 * (a + b));
  return f(g) < fb ? g : best;
}

SolverSettings tight(double tol = 1e-12) {
  SolverSettings s;
  s.tol = tol;
  s.max_iters = 100;
  s.sap.cost_stop = false;
  return s;
}
}  // namespace

TEST(Sap, ProjectionMatchesBruteForceInTheScaledMetric) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
  int regions[3] = {0, 0, 0};
  for (int trial = 0; trial < 400; ++trial) {
    const double mu = 0.05 + 1.5 * P(rng), Rt = std::pow(10.0, -3.0 * P(rng)),
                 Rn = std::pow(10.0, -1.0 - 2.0 * P(rng));
    const Vec3 y(U(rng), U(rng), U(rng));
    Vec3 g;
    sap::project_coulomb(mu, Rt, Rn, y, g, nullptr);
    const Vec3 ref = brute_projection(mu, Rt, Rn, y);
    EXPECT_LE((g - ref).norm(), 1e-6 * (1.0 + y.norm())) << "y = " << y.transpose() << " mu " << mu;
    // In the cone, and Moreau's orthogonality <gamma, y - gamma>_R = 0 (App. C).
    EXPECT_LE(std::hypot(g[0], g[1]), mu * g[2] * (1.0 + 1e-12) + 1e-15);
    const Vec3 Rd(Rt, Rt, Rn);
    EXPECT_NEAR(g.cwiseProduct(Rd).dot(y - g), 0.0, 1e-12 * (1.0 + y.cwiseProduct(Rd).dot(y)));
    regions[g.isZero() ? 2 : (g == y ? 0 : 1)]++;
  }
  for (int r = 0; r < 3; ++r) EXPECT_GT(regions[r], 20) << "region " << r;
}

TEST(Sap, GMatchesFiniteDifferencesAndIsBetweenZeroAndRinv) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
  for (int trial = 0; trial < 300; ++trial) {
    const double mu = 0.1 + P(rng), Rt = 1e-3 * (0.1 + P(rng)), Rn = 0.1 * (0.1 + P(rng));
    // v_c with vhat = 0: y = -R^-1 v_c; G = -d gamma / d v_c.
    const Vec3 Rinv(1.0 / Rt, 1.0 / Rt, 1.0 / Rn);
    const Vec3 vc(1e-3 * U(rng), 1e-3 * U(rng), 0.1 * U(rng));
    auto gamma_of = [&](const Vec3& v, Mat3* G) {
      Vec3 g;
      sap::project_coulomb(mu, Rt, Rn, -Rinv.cwiseProduct(v), g, G);
      return g;
    };
    Mat3 G;
    gamma_of(vc, &G);
    Mat3 fd;
    const double h = 1e-9;
    for (int k = 0; k < 3; ++k) {
      Vec3 e = Vec3::Zero();
      e[k] = h * (k == 2 ? 100.0 : 1.0);
      fd.col(k) = -(gamma_of(vc + e, nullptr) - gamma_of(vc - e, nullptr)) / (2.0 * e[k]);
    }
    const double scale = Rinv.maxCoeff();
    EXPECT_LE((G - fd).norm(), 1e-5 * scale) << "G\n" << G << "\nfd\n" << fd;
    EXPECT_LE((G - G.transpose()).norm(), 1e-12 * scale);
    // 0 <= G <= R^-1  <=>  eigenvalues of R^1/2 G R^1/2 in [0, 1].
    const Vec3 Rh(std::sqrt(Rt), std::sqrt(Rt), std::sqrt(Rn));
    const Mat3 S = Rh.asDiagonal() * G * Rh.asDiagonal();
    const Vec3 ev = Eigen::SelfAdjointEigenSolver<Mat3>(0.5 * (S + S.transpose())).eigenvalues();
    EXPECT_GE(ev.minCoeff(), -1e-12);
    EXPECT_LE(ev.maxCoeff(), 1.0 + 1e-12);
  }
}

TEST(Sap, GradientAndHessianMatchFiniteDifferences) {
  std::mt19937 rng(3);
  const Problem p = random_primal(rng, 3, 5, 0.6, 1, 2, 1e-2, 0.3);
  SapModel m;
  sap_model(p, SapParameters{}, m);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    VecX v = p.u_free;
    for (int k = 0; k < v.size(); ++k) v[k] += 0.05 * U(rng);
    VecX g;
    MatX H;
    sap::cost(p, m, v, &g, &H, nullptr);
    const int n = static_cast<int>(v.size());
    VecX gfd(n);
    MatX Hfd(n, n);
    const double h = 1e-7;
    for (int k = 0; k < n; ++k) {
      VecX vp = v, vm = v;
      vp[k] += h;
      vm[k] -= h;
      VecX gp, gm;
      gfd[k] = (sap::cost(p, m, vp, &gp, nullptr, nullptr) -
                sap::cost(p, m, vm, &gm, nullptr, nullptr)) /
               (2.0 * h);
      Hfd.col(k) = (gp - gm) / (2.0 * h);
    }
    EXPECT_LE((g - gfd).norm(), 1e-6 * (1.0 + g.norm())) << trial;
    EXPECT_LE((H - Hfd).norm(), 1e-5 * H.norm()) << trial;
    EXPECT_LE((H - H.transpose()).norm(), 1e-12 * H.norm());
  }
}

TEST(Sap, CostDecreasesMonotonicallyAndConverges) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    std::mt19937 rng(seed);
    const Problem p = random_primal(rng, 4, 10, 0.5, 1, 2, 1e-2, 1.0);
    const SapParameters prm = sap_parameters(tight());
    SapModel m;
    sap_model(p, prm, m);
    VecX v = p.u_minus;
    GrowVec gamma;
    SolverWorkspace ws;
    std::vector<double> em, cost;
    const SapResult r = sap_minimize(p, prm, m, v, gamma, ws, &em, &cost);
    EXPECT_EQ(r.status, SolveStatus::Converged) << seed << " " << r.message;
    EXPECT_LE(r.em, 1e-12);
    ASSERT_EQ(cost.size(), static_cast<size_t>(r.iterations + 1));
    for (size_t k = 1; k < cost.size(); ++k)
      EXPECT_LE(cost[k], cost[k - 1] + 1e-14 * std::abs(cost[k - 1])) << seed << " it " << k;
    // The optimum satisfies the momentum balance M (v - v*) = J^T gamma (eq. 21a).
    VecX grad;
    sap::cost(p, m, v, &grad, nullptr, nullptr);
    EXPECT_LE(grad.norm(), 1e-9 * (1.0 + (VecX(p.u_free)).norm()));
  }
}

TEST(Sap, ConvergesQuadraticallyNearTheOptimumOnASlidingContact) {
  // One body sliding fast on the ground and pressed into it: the contact stays in the sliding
  // region (smooth, non-quadratic cost), so Newton's tail is quadratic (Theorem 3 ii).
  Problem p;
  p.dt = 1e-2;
  add_body(p, 2.0, Vec3(0.1, 0.2, 0.15), Mat3::Identity());
  p.u_minus.resize(6);
  p.u_minus << 1.0, 0.4, -0.2, 0.3, -0.5, 0.2;
  p.u_free = p.u_minus;
  p.u_free[2] -= 9.81 * p.dt;
  p.blocks.push_back(
      contact_block(-1, Vec3::Zero(), 0, Vec3(0.05, 0.02, -0.1), Vec3::UnitZ(), 0.4));
  finish_primal(p);
  p.f[2] = -1e-4;
  const SapParameters prm = sap_parameters(tight(1e-15));
  SapModel m;
  sap_model(p, prm, m);
  VecX v = p.u_free;
  GrowVec gamma;
  v[0] += 0.3;
  SolverWorkspace ws;
  std::vector<double> em;
  const SapResult r = sap_minimize(p, prm, m, v, gamma, ws, &em, nullptr);
  ASSERT_EQ(r.status, SolveStatus::Converged);
  const double gt = std::hypot(gamma[0], gamma[1]);
  EXPECT_NEAR(gt, 0.4 * gamma[2], 1e-9 * gamma[2]) << "the contact must slide";
  int quadratic = 0;
  for (size_t k = 0; k + 1 < em.size(); ++k)
    if (em[k] < 1e-2 && em[k + 1] > 1e-14) {
      EXPECT_LE(em[k + 1], 50.0 * em[k] * em[k]) << "iteration " << k;
      ++quadratic;
    }
  EXPECT_GE(quadratic, 1);
}

TEST(Sap, WarmStartAtTheOptimumTakesNoNewtonStep) {
  std::mt19937 rng(5);
  const Problem p = random_primal(rng, 3, 6, 0.5, 1, 1);
  SolverSettings s = tight(1e-10);
  SolverWorkspace ws;
  Solution a, b;
  ASSERT_TRUE(solve("sap", p, s, {}, ws, a));
  ASSERT_TRUE(a.converged()) << a.message;
  EXPECT_GT(a.iterations, 0);
  // v = u_free + M^-1 J^T gamma* is the optimum (eq. 21a): the impulse warm start, not the
  // default u^- (the paper's).
  s.sap.warm_velocity = false;
  ASSERT_TRUE(solve("sap", p, s, WarmStart{a.lambda}, ws, b));
  EXPECT_TRUE(b.converged());
  EXPECT_EQ(b.iterations, 0);
  EXPECT_LE((b.lambda - a.lambda).norm(), 1e-9 * a.lambda.norm());
}

TEST(Sap, OptimumIsTheRegularizedDualSolvedByIndependentCcpSolvers) {
  // eq. 22: gamma* = argmin_{gamma in F} 1/2 gamma^T (D + R) gamma + gamma^T (J v* - vhat):
  // the same Problem with softening R = R_sap and v_f = J u_free - vhat, solved by the CCP
  // solvers admm-ccp and apgd.
  for (unsigned seed = 1; seed <= 4; ++seed) {
    std::mt19937 rng(100 + seed);
    const Problem p = random_primal(rng, 3, 5, 0.4, 1, 2, 1e-2, 0.5);
    SolverWorkspace ws;
    Solution sap_sol;
    ASSERT_TRUE(solve("sap", p, tight(1e-13), {}, ws, sap_sol));
    ASSERT_TRUE(sap_sol.converged()) << sap_sol.message;
    SapModel m;
    sap_model(p, SapParameters{}, m);
    Problem dual = p;
    dual.R = m.R;
    dual.v_f = p.v_f - m.vhat;
    const double scale = sap_sol.lambda.cwiseAbs().maxCoeff();
    for (const char* name : {"admm-ccp", "apgd"}) {
      SolverSettings s;
      s.tol = 1e-13;
      s.max_iters = 20000;  // apgd stops at the cap within 1e-10 of the optimum
      Solution ref;
      ASSERT_TRUE(solve(name, dual, s, {}, ws, ref)) << ref.message;
      EXPECT_LE((ref.lambda - sap_sol.lambda).cwiseAbs().maxCoeff(), 1e-6 * scale)
          << name << " seed " << seed << " (" << status_name(ref.status) << ")\nsap "
          << sap_sol.lambda.transpose() << "\nref " << ref.lambda.transpose();
    }
  }
}

namespace {
// A unit-free body (mass m) on the ground, the contact at its centre (W = I / m), pushed along
// x by F; steps the state by hand: gap += dt v_n.
struct Particle {
  double m, mu, F, dt;
  Problem p;
  explicit Particle(double m_, double mu_, double F_, double dt_) : m(m_), mu(mu_), F(F_), dt(dt_) {
    p.dt = dt;
    add_body(p, m, Vec3(0.1, 0.1, 0.1), Mat3::Identity());
    p.u_minus = VecX::Zero(6);
    p.generalized_force = VecX::Zero(6);
    p.generalized_force[0] = F;
    p.generalized_force[2] = -9.81 * m;
    p.blocks.push_back(contact_block(-1, Vec3::Zero(), 0, Vec3::Zero(), Vec3::UnitZ(), mu));
    p.u_free = p.u_minus + dt * p.Minv[0] * p.generalized_force;
    finish_primal(p);
  }
  // Simulates `steps` steps from gap phi0; returns the last slip v_t and gap.
  void run(int steps, double phi0, double& slip, double& phi) {
    phi = phi0;
    SolverWorkspace ws;
    Solution sol;
    VecX u(6);
    SolverSettings s = tight(1e-12);
    for (int k = 0; k < steps; ++k) {
      p.f[2] = phi;
      p.u_free = p.u_minus + dt * p.Minv[0] * p.generalized_force;
      p.v_f = p.u_free.head<3>();  // J = [I 0] for the contact at the centre, frame = world
      ASSERT_TRUE(solve("sap", p, s, {}, ws, sol));
      ASSERT_TRUE(sol.converged()) << sol.message;
      p.velocity_from_impulse(sol.lambda, u);
      p.u_minus = u;
      phi += dt * u[2];
    }
    slip = std::hypot(u[0], u[1]);
  }
};
}  // namespace

TEST(Sap, StictionSlipIsSigmaWFdtAndBelowSigmaMuGdt) {
  // Eq. 28/31: in stiction gamma_t = -v_t / R_t with R_t = sigma w, w = |W|_F / 3 = 1 / (sqrt(3)
  // m); at steady state gamma_t = -F dt, so v_s = sigma w F dt <= sigma mu g dt for F < mu m g.
  const double m = 3.0, mu = 0.5, dt = 1e-2, F = 0.8 * mu * m * 9.81;
  Particle P(m, mu, F, dt);
  double slip, phi;
  P.run(400, 0.0, slip, phi);
  const double w = 1.0 / (std::sqrt(3.0) * m);
  const double vs = 1e-3 * w * F * dt;
  EXPECT_NEAR(slip, vs, 1e-6 * vs) << "slip " << slip;
  EXPECT_LE(std::abs(slip), 1e-3 * mu * 9.81 * dt);
  // Near-rigid static penetration (Sec. V-B): gamma_n = m g dt = -phi / ((dt + tau) R_n) with
  // R_n = beta^2 w / (4 pi^2), tau = beta dt / pi.
  const double Rn = w / (4.0 * kPi * kPi);
  EXPECT_NEAR(phi, -m * 9.81 * dt * (dt + dt / kPi) * Rn, 1e-6 * std::abs(phi));
}

TEST(Sap, CompliantContactFollowsTheSpringLaw) {
  // Compliant regime (eq. 29 picks 1 / (dt k (dt + tau_d))): static gap -m g / k.
  const double m = 0.5, k = 1e4, tau = 0.02, dt = 1e-3;
  Particle P(m, 0.5, 0.0, dt);
  Problem& p = P.p;
  double phi;
  SolverSettings s = tight(1e-12);
  s.sap.stiffness = k;
  s.sap.tau_d = tau;
  phi = 0.0;
  SolverWorkspace ws;
  Solution sol;
  VecX u(6);
  for (int i = 0; i < 3000; ++i) {
    p.f[2] = phi;
    p.u_free = p.u_minus + dt * p.Minv[0] * p.generalized_force;
    p.v_f = p.u_free.head<3>();
    ASSERT_TRUE(solve("sap", p, s, {}, ws, sol));
    p.velocity_from_impulse(sol.lambda, u);
    p.u_minus = u;
    phi += dt * u[2];
  }
  EXPECT_NEAR(phi, -m * 9.81 / k, 1e-6 * m * 9.81 / k);
}

TEST(Sap, RejectsBadParametersAndDualOnlyProblems) {
  std::mt19937 rng(1);
  const Problem p = random_primal(rng, 2, 2, 0.5);
  for (const char* key : {"stiffness", "tau_d", "sigma", "beta"}) {
    SolverSettings s;
    // Set the field directly (the command line's range check would refuse -1 before the solver).
    find_param(*find_solver("sap"), key)->set(s, -1.0);
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve("sap", p, s, {}, ws, sol));
    EXPECT_EQ(sol.status, SolveStatus::Failed) << key;
    EXPECT_NE(sol.message.find(key), std::string::npos) << sol.message;
  }
  Problem dual = p;
  dual.M.clear();
  SolverWorkspace ws;
  Solution sol;
  ASSERT_TRUE(solve("sap", dual, SolverSettings{}, {}, ws, sol));
  EXPECT_EQ(sol.status, SolveStatus::Failed);
  EXPECT_NE(sol.message.find("primal view"), std::string::npos) << sol.message;
}
