// Solver-agnostic accuracy metrics (eq. 173-176), L-infinity, NCP quantities for every solver.
#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/bench/metrics.hpp"
#include "moreau/ncp/residuals.hpp"

namespace moreau::bench {

namespace {

// r_pen = ||f(s+)||, f(s+) ~ f(s) + dt J u+ (eq. 173 with eq. 84, first order in dt), u+ from
// eq. 76 without any bias: joint rows |.|, limit and contact-normal rows min(0, .), friction
// rows none. NaN without a primal view (FCLib: no f, no bodies).
double penetration(const Problem& p, const VecX& lambda) {
  if (p.f.size() != p.nl || p.num_bodies <= 0 || p.u_free.size() != 6 * p.num_bodies)
    return std::numeric_limits<double>::quiet_NaN();
  if (!lambda.allFinite()) return std::numeric_limits<double>::quiet_NaN();  // max() drops NaN
  VecX u_plus(6 * p.num_bodies), v(p.nl);
  p.velocity_from_impulse(lambda, u_plus);  // u+ = u_free + M^-1 J^T lambda   (eq. 76)
  p.apply_J(u_plus, v);                     // v+ = J u+                        (eq. 75)
  double r = 0.0;
  for (const ConstraintBlock& b : p.blocks) {
    const int o = b.offset;
    switch (b.kind) {
      case RowKind::Joint:
        for (int k = 0; k < b.size - b.rotor_rows; ++k)  // armature rows have no position
          r = std::max(r, std::abs(p.f[o + k] + p.dt * v[o + k]));
        break;
      case RowKind::Limit:  // joint limits; dry-friction rows (Box) have no position
        if (b.cone != ConeKind::Box) r = std::max(r, -std::min(0.0, p.f[o] + p.dt * v[o]));
        break;
      case RowKind::Contact:  // rows [t, o, n]: the normal row only
        r = std::max(r, -std::min(0.0, p.f[o + 2] + p.dt * v[o + 2]));
        break;
    }
  }
  return r;
}

}  // namespace

Metrics evaluate_metrics(const Problem& p, const VecX& lambda, const VecX& v_plus) {
  Metrics m;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (lambda.size() != p.nl || v_plus.size() != p.nl) {
    m.r_pen = m.r_dual = m.r_compl = m.r_natmap = m.r_primal = nan;
    return m;
  }
  m.r_pen = penetration(p, lambda);
  // (174)-(176) and (156): De Saxce-augmented (ncp = true) whatever problem the solver solved.
  const NcpResiduals r = ncp_residuals(p, lambda, v_plus, true);
  m.r_dual = r.dual;
  m.r_compl = r.compl_;
  m.r_natmap = r.natmap;
  m.r_primal = r.primal;
  // std::max drops NaN; a non-finite iterate must show as NaN, not as 0.
  if (!lambda.allFinite() || !v_plus.allFinite())
    m.r_dual = m.r_compl = m.r_natmap = m.r_primal = nan;
  return m;
}

}  // namespace moreau::bench
