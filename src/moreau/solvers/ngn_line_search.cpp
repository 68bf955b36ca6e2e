// ngn: the edge-aware line search (Todorov 2010, Sec. III-C, eq. 27). The segment is cut at every
// analytic plane and cone crossing; on each smooth piece a Hermite cubic through the values and
// one-sided slopes at its ends (Nocedal-Wright eq. 3.59) proposes a minimiser. Candidates are
// the knots (edge points) and the cubic minimisers; the start point is a candidate, so the
// result never increases the objective.
#include <algorithm>
#include <cmath>

#include "moreau/solvers/ngn.hpp"
#include "moreau/solvers/ngn_internal.hpp"

namespace moreau::ngn {

namespace {
// Knots of the segment a + alpha u: 0, 1 and the edge crossings in (0, 1), sorted, distinct.
void collect_knots(const Problem& p, const VecX& a, const VecX& u, std::vector<double>& k) {
  k.clear();
  k.push_back(0.0);
  k.push_back(1.0);
  double c[3];
  for (const ConstraintBlock& b : p.blocks) {
    const int o = b.offset;
    if (b.cone == ConeKind::Orthant) {
      if (u[o] != 0.0) {
        const double al = -a[o] / u[o];
        if (al > 0.0 && al < 1.0) k.push_back(al);
      }
    } else if (b.cone == ConeKind::Coulomb) {
      const int m = contact_crossings(a.segment<3>(o), u.segment<3>(o), b.mu, 0.0, c);
      for (int i = 0; i < m; ++i) k.push_back(c[i]);
    }
  }
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end(), [](double x, double y) { return y - x <= 1e-15; }),
          k.end());
}

// Minimiser of the Hermite cubic through (x0, f0, g0), (x1, f1, g1) (N-W eq. 3.59), or NaN.
double cubic_minimiser(double x0, double f0, double g0, double x1, double f1, double g1) {
  const double d1 = g0 + g1 - 3.0 * (f0 - f1) / (x0 - x1);
  const double d2sq = d1 * d1 - g0 * g1;
  if (!(d2sq >= 0.0)) return NAN;
  const double d2 = std::sqrt(d2sq);
  const double den = g1 - g0 + 2.0 * d2;
  if (den == 0.0) return NAN;
  const double x = x1 - (x1 - x0) * (g1 + d2 - d1) / den;
  if (!std::isfinite(x)) return NAN;
  return std::clamp(x, x0, x1);
}
}  // namespace

double edge_aware_line_search(const Problem& p, const VecX& a, const VecX& b, double ell_a,
                              int refine, Scratch& s) {
  s.u = b - a;
  s.best = a;
  double ell_best = ell_a;
  collect_knots(p, a, s.u, s.knots);
  objective(p, a, s);
  s.ra = s.r;
  double ell_lo = ell_a;
  for (size_t i = 0; i + 1 < s.knots.size(); ++i) {
    const double alo = s.knots[i], ahi = s.knots[i + 1];
    s.t = a + ahi * s.u;
    const double ell_hi = objective(p, s.t, s);  // the knot itself (an edge point) is a candidate
    s.rb = s.r;
    if (ell_hi < ell_best) {
      ell_best = ell_hi;
      s.best = s.t;
    }
    // One-sided slopes phi' = r^T J u with the region Jacobian of the piece (its midpoint).
    s.t = a + (0.5 * (alo + ahi)) * s.u;
    jacobian_times(p, s.t, s.u, s, s.ju);
    double x0 = alo, f0 = ell_lo, g0 = s.ra.dot(s.ju);
    double x1 = ahi, f1 = ell_hi, g1 = s.rb.dot(s.ju);
    for (int pass = 0; pass <= refine; ++pass) {
      const double x = cubic_minimiser(x0, f0, g0, x1, f1, g1);
      if (!(x > x0 && x < x1)) break;
      s.t = a + x * s.u;
      const double fx = objective(p, s.t, s);
      if (fx < ell_best) {
        ell_best = fx;
        s.best = s.t;
      }
      const double gx = s.r.dot(s.ju);
      if (gx > 0.0) {
        x1 = x, f1 = fx, g1 = gx;
      } else {
        x0 = x, f0 = fx, g0 = gx;
      }
    }
    s.ra.swap(s.rb);
    ell_lo = ell_hi;
  }
  return ell_best;
}

}  // namespace moreau::ngn
