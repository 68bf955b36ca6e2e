#include "moreau/solvers/local_solvers.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Eigenvalues>

#include "moreau/ncp/cones.hpp"

namespace moreau::local {

namespace {
constexpr double kPi = std::numbers::pi;
constexpr double kAccept = 1e-9;  // local residual accepted from the coarse bracketing

// The slip family of Alg. 4 for one angle theta: lambda = lambda_n u, u = [mu e, 1],
// e = [cos, sin]; the normal condition w_n . v = 0 with w_n = [kappa mu e, 1] fixes lambda_n
// (kappa = 0: v_n = 0, Coulomb; kappa = 1: v on dK*, cone complementarity).
struct SlipEval {
  double num = 0.0, den = 0.0;  // lambda_n = num / den
  double F = 0.0;               // den * (e_perp . v_t): zero at a slip solution
  Vec3 lambda = Vec3::Zero();
};

SlipEval eval_slip(const Mat3& G, const Vec3& b, double mu, double kappa, double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  const Vec3 u(mu * c, mu * s, 1.0);
  const Vec3 wn(kappa * mu * c, kappa * mu * s, 1.0);
  const Vec3 Gu = G * u;
  SlipEval r;
  r.num = -wn.dot(b);
  r.den = wn.dot(Gu);
  // den * e_perp . (lambda_n (G u)_t + b_t) with lambda_n = num / den, free of the division.
  r.F = r.num * (-s * Gu[0] + c * Gu[1]) + r.den * (-s * b[0] + c * b[1]);
  r.lambda = (r.den != 0.0 ? r.num / r.den : 0.0) * u;
  return r;
}

// Trigonometric polynomial of degree 2: a0 + a1 cos + b1 sin + a2 cos 2t + b2 sin 2t.
struct Trig2 {
  double a0, a1, b1, a2, b2;
  double value(double t) const {
    return a0 + a1 * std::cos(t) + b1 * std::sin(t) + a2 * std::cos(2 * t) + b2 * std::sin(2 * t);
  }
  double slope(double t) const {
    return -a1 * std::sin(t) + b1 * std::cos(t) - 2 * a2 * std::sin(2 * t) +
           2 * b2 * std::cos(2 * t);
  }
};

// Keeps the best candidate by the local natural map.
struct Best {
  Vec3 lambda = Vec3::Zero();
  double res = INFINITY;
  bool found = false;
  void offer(const Vec3& l, const Mat3& G, const Vec3& b, double mu, Law law) {
    if (!l.allFinite() || !(l[2] > 0.0)) return;
    const double r = local_natmap(l, G, b, mu, law);
    if (r < res) {
      res = r;
      lambda = l;
      found = true;
    }
  }
};

// P_MDP: the Coulomb slip condition F(theta) = 0 is a degree-2 trigonometric polynomial; its
// five coefficients come exactly from five samples, and t = tan((theta - theta0) / 2) turns it
// into a quartic whose real roots are polished by Newton on F.
void slip_quartic(const Mat3& G, const Vec3& b, double mu, const Vec3& prev, Best& best) {
  double f[5];
  for (int k = 0; k < 5; ++k) f[k] = eval_slip(G, b, mu, 0.0, 2 * kPi * k / 5).F;
  Trig2 T{0, 0, 0, 0, 0};
  for (int k = 0; k < 5; ++k) {
    const double t = 2 * kPi * k / 5;
    T.a0 += f[k] / 5;
    T.a1 += 2 * f[k] * std::cos(t) / 5;
    T.b1 += 2 * f[k] * std::sin(t) / 5;
    T.a2 += 2 * f[k] * std::cos(2 * t) / 5;
    T.b2 += 2 * f[k] * std::sin(2 * t) / 5;
  }
  auto newton = [&](double th) {  // Newton polish on F (quadratic convergence)
    for (int it = 0; it < 8; ++it) {
      const double d = T.slope(th);
      if (d == 0.0) break;
      const double step = T.value(th) / d;
      th -= step;
      if (std::abs(step) < 1e-16) break;
    }
    best.offer(eval_slip(G, b, mu, 0.0, th).lambda, G, b, mu, Law::Coulomb);
  };
  // Warm start: Newton from the angle of a previous slip impulse; accepted if it solves the law.
  const double tp = norm2(prev[0], prev[1]);
  if (prev[2] > 0.0 && std::abs(tp - mu * prev[2]) <= 1e-6 * mu * prev[2]) {
    newton(std::atan2(prev[1], prev[0]));
    if (best.res <= kAccept * (1.0 + best.lambda.cwiseAbs().maxCoeff())) return;
  }
  // Rotate so that theta0 + pi (t = infinity) is far from a root: the leading coefficient is
  // F(theta0 + pi).
  double theta0 = 0.0, lead = 0.0;
  for (int k = 0; k < 8; ++k) {
    const double t0 = kPi * k / 4;
    if (std::abs(T.value(t0 + kPi)) > std::abs(lead)) {
      lead = T.value(t0 + kPi);
      theta0 = t0;
    }
  }
  if (lead == 0.0) return;  // F == 0: degenerate, every angle satisfies the cross condition
  const double c1 = std::cos(theta0), s1 = std::sin(theta0);
  const double c2 = std::cos(2 * theta0), s2 = std::sin(2 * theta0);
  const double a1 = T.a1 * c1 + T.b1 * s1, b1 = -T.a1 * s1 + T.b1 * c1;
  const double a2 = T.a2 * c2 + T.b2 * s2, b2 = -T.a2 * s2 + T.b2 * c2;
  // (1 + t^2)^2 F in powers of t (cos = (1-t^2)/(1+t^2), sin = 2t/(1+t^2)).
  const double p4 = T.a0 - a1 + a2, p3 = 2 * b1 - 4 * b2, p2 = 2 * T.a0 - 6 * a2,
               p1 = 2 * b1 + 4 * b2, p0 = T.a0 + a1 + a2;
  Eigen::Matrix4d C = Eigen::Matrix4d::Zero();  // companion matrix of the monic quartic
  C(1, 0) = C(2, 1) = C(3, 2) = 1.0;
  C(0, 3) = -p0 / p4;
  C(1, 3) = -p1 / p4;
  C(2, 3) = -p2 / p4;
  C(3, 3) = -p3 / p4;
  Eigen::EigenSolver<Eigen::Matrix4d> es(C, false);
  if (es.info() != Eigen::Success) return;
  for (int k = 0; k < 4; ++k) {
    const std::complex<double> z = es.eigenvalues()[k];
    if (std::abs(z.imag()) > 1e-6 * (1.0 + std::abs(z.real()))) continue;
    newton(theta0 + 2 * std::atan(z.real()));
  }
}

// Bisection of F on [lo, hi] (sign change, F(lo) = flo) down to 1e-14 rad; the slip lambda.
Vec3 bisect(const Mat3& G, const Vec3& b, double mu, double kappa, double lo, double hi,
            double flo) {
  while (hi - lo > 1e-14) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    const double fm = eval_slip(G, b, mu, kappa, mid).F;
    if ((fm < 0.0) == (flo < 0.0)) {
      lo = mid;
      flo = fm;
    } else {
      hi = mid;
    }
  }
  return eval_slip(G, b, mu, kappa, 0.5 * (lo + hi)).lambda;
}

// Warm bracket: +-0.05 rad around the angle of a previous slip impulse (on the cone boundary).
void slip_bisection_warm(const Mat3& G, const Vec3& b, double mu, double kappa, Law law,
                         const Vec3& prev, Best& best) {
  const double t = norm2(prev[0], prev[1]);
  if (!(prev[2] > 0.0) || std::abs(t - mu * prev[2]) > 1e-6 * mu * prev[2]) return;
  const double th = std::atan2(prev[1], prev[0]), lo = th - 0.05, hi = th + 0.05;
  const double flo = eval_slip(G, b, mu, kappa, lo).F, fhi = eval_slip(G, b, mu, kappa, hi).F;
  if ((flo < 0.0) != (fhi < 0.0) && flo != 0.0 && fhi != 0.0)
    best.offer(bisect(G, b, mu, kappa, lo, hi, flo), G, b, mu, law);
}

// P_BS: sign changes of F on `samples` angles, each bracket bisected to machine precision.
void slip_bisection(const Mat3& G, const Vec3& b, double mu, double kappa, Law law, int kSamples,
                    Best& best) {
  // Start the grid at the direction opposite to b_t, where the decoupled answer lies.
  const double base = std::atan2(-b[1], -b[0]) - kPi / kSamples;
  double ta = base, fa = eval_slip(G, b, mu, kappa, ta).F;
  for (int k = 1; k <= kSamples; ++k) {
    const double tb = base + 2 * kPi * k / kSamples;
    const double fb = eval_slip(G, b, mu, kappa, tb).F;
    if (fa == 0.0) best.offer(eval_slip(G, b, mu, kappa, ta).lambda, G, b, mu, law);
    if ((fa < 0.0) != (fb < 0.0) && fa != 0.0 && fb != 0.0)
      best.offer(bisect(G, b, mu, kappa, ta, tb, fa), G, b, mu, law);
    ta = tb;
    fa = fb;
  }
}
}  // namespace

Vec3 ccp_step(const Vec3& lambda, const Vec3& z, const Mat3& G, double mu) {
  const double step = 3.0 / std::max(G.trace(), 1e-300);  // line 2: inverse mean diagonal
  return project_coulomb(lambda - step * z, mu);          // line 3 (eq. 150)
}

Vec3 ncp_step(const Vec3& lambda, const Vec3& z, const Mat3& G, double mu) {
  const double ln = project_orthant(lambda[2] - z[2] / std::max(G(2, 2), 1e-300));  // lines 2-3
  const double gt = std::max(std::min(G(0, 0), G(1, 1)), 1e-300);
  const Eigen::Vector2d lt =
      project_disk(Eigen::Vector2d(lambda[0] - z[0] / gt, lambda[1] - z[1] / gt), mu * ln);
  return {lt[0], lt[1], ln};  // lines 4-5 (eq. 148)
}

double local_natmap(const Vec3& lambda, const Mat3& G, const Vec3& b, double mu, Law law) {
  Vec3 w = G * lambda + b;
  if (law == Law::Coulomb) w += de_saxce(w, mu);  // eq. 163
  return (lambda - project_coulomb(lambda - w, mu)).cwiseAbs().maxCoeff();
}

ExactResult exact(const Mat3& G, const Mat3& Ginv, const Vec3& b, double mu, Law law, Slip slip,
                  const Vec3& prev) {
  ExactResult r;
  // Open (Alg. 4 line 20): lambda = 0 solves the law when b is admissible.
  const bool open = law == Law::Coulomb ? b[2] >= 0.0 : in_dual_coulomb(b, mu, 0.0);
  if (open) return r;
  if (mu == 0.0) {  // line 3: frictionless, K = normal ray, K* = half-space
    r.kind = ExactResult::Frictionless;
    r.lambda = Vec3(0.0, 0.0, -b[2] / std::max(G(2, 2), 1e-300));
    return r;
  }
  Vec3 l0 = -(Ginv * b);      // line 1: unconstrained solution, v = 0
  l0 -= Ginv * (G * l0 + b);  // one refinement step removes the regularization of Ginv
  if (norm2(l0[0], l0[1]) <= mu * l0[2]) {
    r.kind = ExactResult::Stick;
    r.lambda = l0;
    return r;
  }
  Best best;  // lines 9-15: slip on the conic section
  const double kappa = law == Law::Coulomb ? 0.0 : 1.0;
  if (slip == Slip::Quartic && law == Law::Coulomb) {
    slip_quartic(G, b, mu, prev, best);
    if (!(best.res <= kAccept * (1.0 + best.lambda.cwiseAbs().maxCoeff())))
      slip_bisection(G, b, mu, kappa, law, 512, best);
  } else {
    slip_bisection_warm(G, b, mu, kappa, law, prev, best);
    if (!(best.res <= kAccept * (1.0 + best.lambda.cwiseAbs().maxCoeff())))
      slip_bisection(G, b, mu, kappa, law, 32, best);
    // Two roots closer than the grid hide each other's sign change: refine the grid, then (for
    // the Coulomb law) take the quartic's roots.
    if (!(best.res <= kAccept * (1.0 + best.lambda.cwiseAbs().maxCoeff())))
      slip_bisection(G, b, mu, kappa, law, 512, best);
    if (!(best.res <= kAccept * (1.0 + best.lambda.cwiseAbs().maxCoeff())) && law == Law::Coulomb)
      slip_quartic(G, b, mu, Vec3::Zero(), best);
  }
  if (best.found) {
    r.kind = ExactResult::SlipCase;
    r.lambda = best.lambda;
    return r;
  }
  // No admissible slip angle (G not SPD): best of P_K(lambda^0) and 0 by the local residual.
  r.kind = ExactResult::NoRoot;
  const Vec3 pk = project_coulomb(l0, mu);
  r.lambda = local_natmap(pk, G, b, mu, law) < local_natmap(Vec3::Zero(), G, b, mu, law)
                 ? pk
                 : Vec3::Zero();
  return r;
}

}  // namespace moreau::local
