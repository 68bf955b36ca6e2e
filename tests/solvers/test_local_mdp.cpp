// The local maximum-dissipation problem of NBGS / RAISIM (report eq. 152-155): the quartic alone
// on polynomials with known roots, the QCP against a brute-force minimum, agreement of the quartic
// (P_MDP) and the bisection (P_BS), and the defect under normal-tangent coupling that RAISIM-DS's
// De Saxce estimate removes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/local_mdp.hpp"
#include "moreau/solvers/local_solvers.hpp"
#include "moreau/solvers/solver.hpp"
#include "pgs_test_util.hpp"

using namespace moreau;
using local::Qcp;

namespace {

// Coefficients (lowest first) of lead * prod (x - r_i) * (x^2 + px + q)^[quad].
std::vector<double> from_roots(const std::vector<double>& r, double lead, bool quad = false,
                               double pq = 0.0, double qq = 0.0) {
  std::vector<double> c{lead};
  auto times = [&](const std::vector<double>& f) {
    std::vector<double> out(c.size() + f.size() - 1, 0.0);
    for (size_t i = 0; i < c.size(); ++i)
      for (size_t j = 0; j < f.size(); ++j) out[i + j] += c[i] * f[j];
    c = out;
  };
  for (double x : r) times({-x, 1.0});
  if (quad) times({qq, pq, 1.0});
  c.resize(5, 0.0);
  return c;
}

void expect_roots(const std::vector<double>& coeffs, std::vector<double> want, double rel) {
  double roots[4];
  const int n = local::quartic_real_roots(coeffs.data(), roots);
  std::sort(want.begin(), want.end());
  ASSERT_EQ(n, static_cast<int>(want.size()));
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(roots[i], want[i], rel * std::max(1.0, std::abs(want[i]))) << i;
}

// Minimum of f = 1/2 x^T G x + x^T (b + s) over the conic section {x in K, n^T (G x + b) = 0}
// by dense sampling of the boundary angle and golden-section refinement (no quartic, no KKT).
double brute_force_min(const Mat3& G, const Vec3& b, const Vec3& s, double mu) {
  auto f_at = [&](double t) {
    const Vec3 u(mu * std::cos(t), mu * std::sin(t), 1.0);
    const double den = G.row(2).dot(u);
    if (!(den > 0.0)) return std::numeric_limits<double>::infinity();
    const Vec3 x = (-b[2] / den) * u;
    return 0.5 * x.dot(G * x) + x.dot(b + s);
  };
  const int n = 20000;
  const double h = 2 * std::numbers::pi / n;
  std::vector<double> f(n);
  for (int k = 0; k < n; ++k) f[k] = f_at(h * k);
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < n; ++k) {  // refine every discrete local minimum by golden section
    if (!(f[k] <= f[(k + n - 1) % n] && f[k] <= f[(k + 1) % n])) continue;
    double lo = h * (k - 1), hi = h * (k + 1);
    for (int it = 0; it < 100; ++it) {
      const double a = hi - 0.618 * (hi - lo), c = lo + 0.618 * (hi - lo);
      if (f_at(a) < f_at(c))
        hi = c;
      else
        lo = a;
    }
    best = std::min({best, f[k], f_at(0.5 * (lo + hi))});
  }
  return best;
}

double objective(const Vec3& x, const Mat3& G, const Vec3& b, const Vec3& s) {
  return 0.5 * x.dot(G * x) + x.dot(b + s);
}

Mat3 random_spd(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat3 A;
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 3; ++c) A(a, c) = u(rng);
  return A * A.transpose() + 0.05 * Mat3::Identity();
}

// A corner-contact-like block: normal-tangent coupling G_tn = 0.6, G_on = 0.
Mat3 corner_G() {
  Mat3 G;
  G << 2.0, 0.0, 0.6, 0.0, 2.0, 0.0, 0.6, 0.0, 1.0;
  return G;
}

}  // namespace

TEST(Quartic, RootsFromChosenRoots) {
  expect_roots(from_roots({-3.0, -1.0, 0.5, 2.0}, 1.0), {-3.0, -1.0, 0.5, 2.0}, 1e-13);
  expect_roots(from_roots({-3.0, -1.0, 0.5, 2.0}, -7.5), {-3.0, -1.0, 0.5, 2.0}, 1e-13);
  expect_roots(from_roots({1e-3, 1.0, 10.0, 1e3}, 2.0), {1e-3, 1.0, 10.0, 1e3}, 1e-12);
  expect_roots(from_roots({-0.2, 0.0, 0.3, 4.0}, 1e-6), {-0.2, 0.0, 0.3, 4.0}, 1e-12);
  // A complex pair (x^2 + 2x + 5 has roots -1 +- 2i) leaves two real roots.
  expect_roots(from_roots({-4.0, 1.0}, 3.0, true, 2.0, 5.0), {-4.0, 1.0}, 1e-13);
  // No real root at all.
  {
    std::vector<double> c = from_roots({}, 1.0, true, 0.0, 1.0);  // (x^2 + 1)
    std::vector<double> e(5, 0.0);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (i + j < 5) e[i + j] += c[i] * c[j];  // (x^2 + 1)^2
    double roots[4];
    EXPECT_EQ(local::quartic_real_roots(e.data(), roots), 0);
  }
  // Leading coefficient zero: a cubic, then a quadratic.
  expect_roots(from_roots({-2.0, 0.5, 3.0}, 1.5), {-2.0, 0.5, 3.0}, 1e-13);
  expect_roots(from_roots({-1.0, 6.0}, 1.0), {-1.0, 6.0}, 1e-13);
  // A double root is found to about sqrt(eps).
  expect_roots(from_roots({1.0, 1.0, 2.0, -5.0}, 1.0), {-5.0, 1.0, 1.0, 2.0}, 1e-7);
}

TEST(Quartic, RandomRootSetsAreRecovered) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-5.0, 5.0);
  for (int k = 0; k < 200; ++k) {
    std::vector<double> r{u(rng), u(rng), u(rng), u(rng)};
    std::sort(r.begin(), r.end());
    bool separated = true;
    for (int i = 1; i < 4; ++i) separated &= r[i] - r[i - 1] > 0.05;
    if (!separated) continue;
    expect_roots(from_roots(r, u(rng) + 6.0), r, 1e-9);
  }
}

TEST(LocalMdp, QuarticAndBisectionSolveTheQcpOnRandomBlocks) {
  // Both slip methods reach the same point, it satisfies the QCP's optimality conditions and it
  // is the brute-force minimum on the conic section; the quartic is never rejected.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int slips = 0;
  for (int k = 0; k < 150; ++k) {
    const Mat3 G = random_spd(rng);
    const Vec3 b(2 * u(rng), 2 * u(rng), u(rng) - 0.5);
    const double mu = 0.05 + std::abs(u(rng));
    const Vec3 s = k % 2 ? Vec3(0.0, 0.0, mu * std::abs(u(rng))) : Vec3::Zero();
    const auto q = local::mdp(G, G.inverse(), b, s, mu, Qcp::Quartic);
    const auto bs = local::mdp(G, G.inverse(), b, s, mu, Qcp::Bisection);
    EXPECT_EQ(q.kind, bs.kind) << k;
    EXPECT_FALSE(q.fallback) << k;
    EXPECT_LE((q.lambda - bs.lambda).cwiseAbs().maxCoeff(), 1e-9 * (1 + q.lambda.norm())) << k;
    if (q.kind != local::ExactResult::SlipCase) continue;
    const Vec3 yq(q.lambda[0], q.lambda[1], 0.0);
    if (std::abs(yq.norm() - mu * q.lambda[2]) > 1e-9 * q.lambda.norm()) continue;  // interior
    ++slips;
    EXPECT_LE(local::mdp_slip_defect(q.lambda, G, b, s, mu), 1e-9) << k;
    EXPECT_LE(local::mdp_slip_defect(bs.lambda, G, b, s, mu), 1e-9) << k;
    const double fq = objective(q.lambda, G, b, s), fb = brute_force_min(G, b, s, mu);
    EXPECT_LE(fq, fb + 1e-12 * (1 + std::abs(fb))) << k;
    EXPECT_GE(fq, fb - 1e-9 * (1 + std::abs(fb))) << k;
  }
  EXPECT_GT(slips, 40);  // the slip branch is exercised
}

TEST(LocalMdp, WarmStartFindsTheSameSlipPoint) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 50; ++k) {
    const Mat3 G = random_spd(rng);
    const Vec3 b(2 * u(rng), 2 * u(rng), u(rng) - 0.7);
    const double mu = 0.1 + 0.5 * std::abs(u(rng));
    const auto cold = local::mdp(G, G.inverse(), b, Vec3::Zero(), mu, Qcp::Quartic);
    if (cold.kind != local::ExactResult::SlipCase) continue;
    // Previous impulse: the answer rotated by 0.03 rad on the cone.
    const double c = std::cos(0.03), sn = std::sin(0.03);
    const Vec3 prev(c * cold.lambda[0] - sn * cold.lambda[1],
                    sn * cold.lambda[0] + c * cold.lambda[1], cold.lambda[2]);
    for (Qcp m : {Qcp::Quartic, Qcp::Bisection}) {
      const auto warm = local::mdp(G, G.inverse(), b, Vec3::Zero(), mu, m, prev);
      EXPECT_LE((warm.lambda - cold.lambda).cwiseAbs().maxCoeff(), 1e-9 * cold.lambda.norm());
      EXPECT_FALSE(warm.fallback);
    }
  }
}

TEST(LocalMdp, DecoupledBlockGivesTheCoulombLaw) {
  // G_tn = G_on = 0: the QCP's slip point has v_t opposite to lambda_t, the Coulomb law, and
  // agrees with the exact local solver.
  Mat3 G;
  G << 2.0, 0.3, 0.0, 0.3, 1.5, 0.0, 0.0, 0.0, 1.0;
  const Vec3 b(1.5, -2.0, -1.0);
  const double mu = 0.4;
  const auto ex = local::exact(G, G.inverse(), b, mu, local::Law::Coulomb, local::Slip::Quartic);
  ASSERT_EQ(ex.kind, local::ExactResult::SlipCase);
  for (Qcp m : {Qcp::Quartic, Qcp::Bisection}) {
    const auto r = local::mdp(G, G.inverse(), b, Vec3::Zero(), mu, m);
    ASSERT_EQ(r.kind, local::ExactResult::SlipCase);
    EXPECT_LE((r.lambda - ex.lambda).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LE(local::local_natmap(r.lambda, G, b, mu, local::Law::Coulomb), 1e-10);
  }
}

TEST(LocalMdp, CoupledBlockViolatesMaximumDissipation) {
  // G_tn = 0.6: the QCP keeps v_n = 0 and |lambda_t| = mu lambda_n, but its tangential velocity
  // v_t = -nu (e + mu beta) is not opposite to lambda_t = mu lambda_n e (beta = G_tn / G_nn).
  const Mat3 G = corner_G();
  const Vec3 b(0.0, 3.0, -1.0);  // sliding along o, coupling along t
  const double mu = 0.5;
  for (Qcp m : {Qcp::Quartic, Qcp::Bisection}) {
    const auto r = local::mdp(G, G.inverse(), b, Vec3::Zero(), mu, m);
    ASSERT_EQ(r.kind, local::ExactResult::SlipCase);
    const Vec3 v = G * r.lambda + b;
    EXPECT_NEAR(v[2], 0.0, 1e-12);
    EXPECT_NEAR(std::hypot(r.lambda[0], r.lambda[1]), mu * r.lambda[2], 1e-12);
    const double cross = r.lambda[0] * v[1] - r.lambda[1] * v[0];
    const double sine = cross / (std::hypot(r.lambda[0], r.lambda[1]) * std::hypot(v[0], v[1]));
    EXPECT_GT(std::abs(sine), 0.1) << "lambda_t and v_t should not be collinear";
    EXPECT_GT(local::local_natmap(r.lambda, G, b, mu, local::Law::Coulomb), 0.05);
  }
  // The Coulomb solution of the same contact is not the QCP's minimizer, but it is a fixed point
  // of the De Saxce-corrected QCP (s = Gamma(v)).
  const auto ex = local::exact(G, G.inverse(), b, mu, local::Law::Coulomb, local::Slip::Quartic);
  ASSERT_EQ(ex.kind, local::ExactResult::SlipCase);
  const Vec3 s = de_saxce(G * ex.lambda + b, mu);
  for (Qcp m : {Qcp::Quartic, Qcp::Bisection}) {
    const auto r = local::mdp(G, G.inverse(), b, s, mu, m);
    EXPECT_LE((r.lambda - ex.lambda).cwiseAbs().maxCoeff(), 1e-10) << r.lambda.transpose();
  }
}

TEST(LocalMdp, RaisimFailsTheNcpWhereRaisimDsSolvesIt) {
  // The same coupled contact through the solvers: nbgs and raisim stop on the QCP's point, which
  // is not an NCP solution (natural map eq. 163 ~ 0.1, never below tol: MaxIterations); the De
  // Saxce estimate of raisim-ds / raisim-ds-es drives them to the Coulomb solution.
  const Mat3 G = corner_G();
  const Vec3 vf(0.0, 3.0, -1.0);
  const double mu = 0.5;
  const Problem p = test::single_contact(G, vf, mu);
  const auto ex = local::exact(G, G.inverse(), vf, mu, local::Law::Coulomb, local::Slip::Quartic);
  SolverSettings s;
  s.tol = 1e-10;
  s.max_iters = 200;
  s.pgs.es_tol = 1e-10;
  Vec3 qcp = Vec3::Zero();
  for (const char* name : {"nbgs", "raisim"}) {
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve(name, p, s, {}, ws, sol)) << sol.message;
    EXPECT_EQ(sol.status, SolveStatus::MaxIterations) << name;
    EXPECT_GT(ncp_residuals(p, sol.lambda, sol.v_plus, true).natmap, 0.05) << name;
    EXPECT_EQ(sol.fallbacks, 0) << name;
    if (qcp.isZero()) qcp = sol.lambda;
    EXPECT_LE((sol.lambda - qcp).cwiseAbs().maxCoeff(), 1e-10) << name;  // the same QCP point
  }
  for (const char* name : {"raisim-ds", "raisim-ds-es", "nbgs-exact"}) {
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve(name, p, s, {}, ws, sol)) << sol.message;
    EXPECT_TRUE(sol.converged()) << name << " " << status_name(sol.status);
    EXPECT_LE(ncp_residuals(p, sol.lambda, sol.v_plus, true).natmap, 1e-9) << name;
    EXPECT_LE((sol.lambda - ex.lambda).cwiseAbs().maxCoeff(), 1e-9) << name;
  }
}
