#include "moreau/solvers/local_mdp.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "moreau/ncp/cones.hpp"

namespace moreau::local {

namespace {
constexpr double kPi = std::numbers::pi;
constexpr double kAccept = 1e-9;  // mdp_slip_defect of an accepted slip impulse

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;

// The slip problem in the plane of maximum compression (eq. 153b): y = x_t, x_n = alpha - beta.y,
// q(y) = 1/2 y^T A y + c^T y (+ const) = f(x(y)), section S = {|y| <= mu (alpha - beta . y)}.
struct Plane {
  Mat2 A;
  Vec2 c, beta;
  double alpha = 0.0, mu = 0.0;

  Plane(const Mat3& G, const Vec3& b, const Vec3& s, double mu_) : mu(mu_) {
    const double gnn = G(2, 2);
    beta = Vec2(G(0, 2), G(1, 2)) / gnn;
    alpha = -b[2] / gnn;
    A = G.topLeftCorner<2, 2>() - Vec2(G(0, 2), G(1, 2)) * Vec2(G(2, 0), G(2, 1)).transpose() / gnn;
    A = 0.5 * (A + A.transpose());
    // c = P^T (G x(0) + b + s), P = [I; -beta^T], x(0) = [0, 0, alpha].
    const Vec3 w = alpha * G.col(2) + b + s;
    c = Vec2(w[0], w[1]) - beta * w[2];
  }
  double normal(const Vec2& y) const { return alpha - beta.dot(y); }
  Vec3 lift(const Vec2& y) const { return {y[0], y[1], normal(y)}; }
  double q(const Vec2& y) const { return 0.5 * y.dot(A * y) + c.dot(y); }
  Vec2 grad(const Vec2& y) const { return A * y + c; }
  double phi(const Vec2& y) const { return y.norm() - mu * normal(y); }
};

// Keeps the slip candidate with the smallest objective.
struct Best {
  Vec2 y = Vec2::Zero();
  double q = INFINITY;
  bool found = false;
  void offer(const Plane& P, const Vec2& y_) {
    if (!y_.allFinite() || !(P.normal(y_) > 0.0)) return;
    if (!(std::abs(P.phi(y_)) <= 1e-9 * P.mu * P.alpha)) return;  // not on the section's boundary
    const double v = P.q(y_);
    if (v < q) {
      q = v;
      y = y_;
      found = true;
    }
  }
};

// The in-plane stationarity defect of a boundary point (see mdp_slip_defect).
double stationarity(const Plane& P, const Vec2& y) {
  const double ny = y.norm();
  if (!(P.normal(y) > 0.0) || ny == 0.0) return INFINITY;
  // Relative to |A y| + |c|: grad q = A y + c loses its leading digits when the unconstrained
  // minimizer lies near the boundary.
  const Vec2 Ay = P.A * y, g = Ay + P.c, n = y / ny + P.mu * P.beta;
  const double gn = (Ay.norm() + P.c.norm()) * n.norm();
  if (gn == 0.0) return 0.0;
  if (g.dot(n) > 1e-12 * gn) return INFINITY;  // nu < 0: the objective decreases outward
  return std::max(std::abs(g[0] * n[1] - g[1] * n[0]) / gn, std::abs(P.phi(y)) / (P.mu * P.alpha));
}

// Newton on the KKT system of min q s.t. h(y) = y^T C y + 2 k^T y + m = 0 (the conic as a quadric,
// C = I - mu^2 beta beta^T, k = mu^2 alpha beta, m = -mu^2 alpha^2): grad q + nu (C y + k) = 0.
Vec2 kkt_newton(const Plane& P, const Mat2& C, const Vec2& k, double m, Vec2 y, double nu,
                int iters) {
  for (int it = 0; it < iters; ++it) {
    const Vec2 hk = C * y + k;
    Eigen::Vector3d F;
    F.head<2>() = P.grad(y) + nu * hk;
    F[2] = 0.5 * (y.dot(C * y) + 2.0 * k.dot(y) + m);
    Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
    J.topLeftCorner<2, 2>() = P.A + nu * C;
    J.block<2, 1>(0, 2) = hk;
    J.block<1, 2>(2, 0) = hk.transpose();
    const Eigen::Vector3d d = J.partialPivLu().solve(F);
    if (!d.allFinite()) break;
    y -= d.head<2>();
    nu -= d[2];
    if (d.head<2>().cwiseAbs().maxCoeff() <= 1e-15 * (P.mu * P.alpha + y.cwiseAbs().maxCoeff()))
      break;
  }
  return y;
}

// Polynomials in nu of degree <= 4, lowest coefficient first.
using Poly = std::array<double, 5>;
Poly mul(const Poly& a, const Poly& b) {
  Poly r{};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; i + j < 5; ++j) r[i + j] += a[i] * b[j];
  return r;
}
Poly axpy(double s, const Poly& a, const Poly& b) {  // s a + b
  Poly r;
  for (int i = 0; i < 5; ++i) r[i] = s * a[i] + b[i];
  return r;
}

// P_MDP: the Lagrange multiplier nu of the conic. (A + nu C) y = -(c + nu k) gives
// y = -adj(A + nu C)(c + nu k) / det(A + nu C); substituted into h(y) = 0 and multiplied by det^2
// this is a quartic in nu (Preclik's single-variable QCP; report Sec. 3.5). Computed in the units
// y / (mu alpha), nu / a (a = tr A / 2); every real root is polished by Newton on the KKT system.
void slip_quartic(const Plane& P, Best& best) {
  const double L = P.mu * P.alpha, a = std::max(0.5 * P.A.trace(), 1e-300);
  const Mat2 At = P.A / a;
  const Vec2 ct = P.c / (a * L), kt = P.mu * P.beta;  // m = -1 in these units
  const Mat2 C = Mat2::Identity() - P.mu * P.mu * P.beta * P.beta.transpose();
  const Poly m00{At(0, 0), C(0, 0)}, m01{At(0, 1), C(0, 1)}, m11{At(1, 1), C(1, 1)};
  const Poly r0{ct[0], kt[0]}, r1{ct[1], kt[1]};
  const Poly N0 = axpy(-1.0, mul(m01, r1), mul(m11, r0));  // adj(M) r
  const Poly N1 = axpy(-1.0, mul(m01, r0), mul(m00, r1));
  const Poly det = axpy(-1.0, mul(m01, m01), mul(m00, m11));
  Poly Q = axpy(C(0, 0), mul(N0, N0), axpy(2.0 * C(0, 1), mul(N0, N1), Poly{}));
  Q = axpy(C(1, 1), mul(N1, N1), Q);
  Q = axpy(-2.0, mul(det, axpy(kt[0], N0, axpy(kt[1], N1, Poly{}))), Q);
  Q = axpy(-1.0, mul(det, det), Q);
  double roots[4];
  const int n = quartic_real_roots(Q.data(), roots);
  const Vec2 k = P.mu * P.mu * P.alpha * P.beta;
  const double m = -L * L;
  for (int i = 0; i < n; ++i) {
    const double nu = roots[i];
    const Mat2 M = At + nu * C;
    const double d = M.determinant();
    if (!(std::abs(d) > 1e-14 * (1.0 + M.cwiseAbs().maxCoeff() * M.cwiseAbs().maxCoeff())))
      continue;  // the adjugate formula fails here (hard case)
    const Vec2 yt = -M.inverse() * (ct + nu * kt);
    best.offer(P, kkt_newton(P, C, k, m, L * yt, a * nu, 3));
  }
}

// d q(y(theta)) / d theta on the section's boundary in polar form y = r e(theta),
// r = mu alpha / (1 + mu beta . e); `valid` is false where the ray misses the section.
struct PolarEval {
  Vec2 y = Vec2::Constant(NAN);
  double slope = 0.0;
  bool valid = false;
};
PolarEval polar(const Plane& P, double theta) {
  const Vec2 e(std::cos(theta), std::sin(theta)), ep(-e[1], e[0]);
  const double den = 1.0 + P.mu * P.beta.dot(e);
  PolarEval r;
  if (!(den > 1e-12)) return r;
  const double rad = P.mu * P.alpha / den;
  const double drad = -rad * P.mu * P.beta.dot(ep) / den;
  r.y = rad * e;
  r.slope = P.grad(r.y).dot(drad * e + rad * ep);
  r.valid = true;
  return r;
}

// Bisection of the slope from negative (lo) to non-negative (hi) down to 1e-14 rad: a local
// minimum of q along the boundary.
Vec2 bisect(const Plane& P, double lo, double hi) {
  while (hi - lo > 1e-14) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    const PolarEval e = polar(P, mid);
    if (!e.valid) break;
    (e.slope < 0.0 ? lo : hi) = mid;
  }
  return polar(P, 0.5 * (lo + hi)).y;
}

// P_BS: sign changes (- to +) of the slope on `samples` angles, each bisected; with `around`
// finite only the bracket [around - 0.05, around + 0.05] (warm start).
void slip_bisection(const Plane& P, int samples, double around, Best& best) {
  const bool warm = std::isfinite(around);
  const int n = warm ? 1 : samples;
  // Start the grid at the direction of steepest descent of q at the apex plane's origin.
  const double base = warm ? around - 0.05 : std::atan2(-P.c[1], -P.c[0]) - kPi / samples;
  const double h = warm ? 0.1 : 2 * kPi / samples;
  double ta = base;
  PolarEval fa = polar(P, ta);
  for (int k = 1; k <= n; ++k) {
    const double tb = base + h * k;
    const PolarEval fb = polar(P, tb);
    if (fa.valid && fb.valid && fa.slope < 0.0 && fb.slope >= 0.0) best.offer(P, bisect(P, ta, tb));
    ta = tb;
    fa = fb;
  }
}

bool accepted(const Plane& P, const Best& best) {
  return best.found && stationarity(P, best.y) <= kAccept;
}
}  // namespace

int quartic_real_roots(const double p[5], double roots[4]) {
  double scale = 0.0;
  for (int i = 0; i < 5; ++i) scale = std::max(scale, std::abs(p[i]));
  if (!(scale > 0.0)) return 0;
  int deg = 4;
  while (deg > 0 && std::abs(p[deg]) <= 1e-14 * scale) --deg;
  if (deg == 0) return 0;
  using Comp = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 4>;
  Comp C = Comp::Zero(deg, deg);  // companion matrix of the monic polynomial
  for (int i = 1; i < deg; ++i) C(i, i - 1) = 1.0;
  for (int i = 0; i < deg; ++i) C(i, deg - 1) = -p[i] / p[deg];
  Eigen::EigenSolver<Comp> es(C, false);
  if (es.info() != Eigen::Success) return 0;
  int n = 0;
  for (int k = 0; k < deg; ++k) {
    const std::complex<double> z = es.eigenvalues()[k];
    if (std::abs(z.imag()) > 1e-6 * (1.0 + std::abs(z.real()))) continue;
    double x = z.real();
    for (int it = 0; it < 8; ++it) {  // Newton on the polynomial (Horner)
      double f = p[deg], df = 0.0;
      for (int i = deg - 1; i >= 0; --i) {
        df = df * x + f;
        f = f * x + p[i];
      }
      if (df == 0.0) break;
      const double step = f / df;
      if (!std::isfinite(step)) break;
      x -= step;
      if (std::abs(step) <= 1e-16 * std::abs(x)) break;
    }
    roots[n++] = x;
  }
  std::sort(roots, roots + n);
  return n;
}

double mdp_slip_defect(const Vec3& lambda, const Mat3& G, const Vec3& b, const Vec3& s, double mu) {
  if (!(b[2] < 0.0) || !(G(2, 2) > 0.0)) return INFINITY;
  const Plane P(G, b, s, mu);
  const Vec2 y(lambda[0], lambda[1]);
  const double plane = std::abs(G.row(2).dot(lambda) + b[2]) / std::abs(b[2]);
  return std::max(plane, stationarity(P, y));
}

MdpResult mdp(const Mat3& G, const Mat3& Ginv, const Vec3& b, const Vec3& s, double mu, Qcp method,
              const Vec3& prev) {
  MdpResult r;
  if (b[2] >= 0.0) return r;            // Alg. 4 line 20: not approaching (eq. 155, first case)
  if (mu == 0.0 || !(G(2, 2) > 0.0)) {  // line 3: frictionless
    r.kind = ExactResult::Frictionless;
    r.lambda = Vec3(0.0, 0.0, -b[2] / std::max(G(2, 2), 1e-300));
    return r;
  }
  const Vec3 bs = b + s;
  Vec3 l0 = -(Ginv * bs);      // line 1: unconstrained solution
  l0 -= Ginv * (G * l0 + bs);  // one refinement step removes the regularization of Ginv
  if (norm2(l0[0], l0[1]) <= mu * l0[2]) {  // line 5: sticking (eq. 155, second case)
    r.kind = ExactResult::Stick;
    r.lambda = l0;
    return r;
  }
  // Slip (eq. 155, third case): the QCP on the plane of maximum compression. Its unconstrained
  // minimizer there differs from lambda^0 only through s; inside the section it is the answer.
  const Plane P(G, b, s, mu);
  r.kind = ExactResult::SlipCase;
  const Vec2 yp = -P.A.ldlt().solve(P.c);
  if (yp.allFinite() && P.phi(yp) <= 0.0) {
    r.lambda = P.lift(yp);
    return r;
  }
  Best best;
  const bool on_cone =
      prev[2] > 0.0 && std::abs(norm2(prev[0], prev[1]) - mu * prev[2]) <= 1e-6 * mu * prev[2];
  if (method == Qcp::Quartic) {
    if (on_cone) {  // Newton on the KKT system from the previous slip impulse
      const Vec2 y0(prev[0], prev[1]);
      const Vec2 n = y0 / y0.norm() + mu * P.beta;
      const double nu0 = std::max(0.0, -P.grad(y0).dot(n) / std::max(n.squaredNorm(), 1e-300));
      const Mat2 C = Mat2::Identity() - mu * mu * P.beta * P.beta.transpose();
      const double scale = y0.norm();  // C y + k = |y| grad phi on the boundary
      Best warm;  // kept only when accepted: a point just outside the section has a lower q
      warm.offer(P, kkt_newton(P, C, mu * mu * P.alpha * P.beta, -mu * mu * P.alpha * P.alpha, y0,
                               nu0 / std::max(scale, 1e-300), 6));
      if (accepted(P, warm)) best = warm;
    }
    if (!accepted(P, best)) slip_quartic(P, best);
    r.fallback = !accepted(P, best);
  }
  if (method == Qcp::Bisection || r.fallback) {
    if (on_cone) slip_bisection(P, 1, std::atan2(prev[1], prev[0]), best);
    if (!accepted(P, best)) slip_bisection(P, 32, NAN, best);
    // A minimum and a maximum closer than the grid hide each other's sign change: refine.
    if (!accepted(P, best)) slip_bisection(P, 512, NAN, best);
  }
  if (best.found) {
    r.lambda = P.lift(best.y);
    return r;
  }
  // No slip point (G not SPD): the better of P_K(lambda^0) and 0 by the objective.
  r.kind = ExactResult::NoRoot;
  const Vec3 pk = project_coulomb(l0, mu);
  r.lambda = 0.5 * pk.dot(G * pk) + pk.dot(bs) < 0.0 ? pk : Vec3::Zero();
  return r;
}

}  // namespace moreau::local
