#include "moreau/ncp/residuals.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/ncp/cones.hpp"

namespace moreau {

void project_primal(const Problem& p, const VecCRef& x, GrowVec& out) {
  out.resize(x.size());
  for (const ConstraintBlock& b : p.blocks) {
    switch (b.cone) {
      case ConeKind::Free:
        if (out.data() != x.data()) out.segment(b.offset, b.size) = x.segment(b.offset, b.size);
        break;
      case ConeKind::Orthant:
        out[b.offset] = project_orthant(x[b.offset]);
        break;
      case ConeKind::Box:
        out[b.offset] = project_box(x[b.offset], b.bound);
        break;
      case ConeKind::Coulomb:
        out.segment<3>(b.offset) = project_coulomb(x.segment<3>(b.offset), b.mu);
        break;
    }
  }
}

void project_dual(const Problem& p, const VecCRef& v, GrowVec& out) {
  out.resize(v.size());
  for (const ConstraintBlock& b : p.blocks) {
    switch (b.cone) {
      case ConeKind::Free:
        out.segment(b.offset, b.size).setZero();
        break;
      case ConeKind::Orthant:
        out[b.offset] = project_orthant(v[b.offset]);
        break;
      case ConeKind::Box:  // not a cone: no condition on v alone (it is in the complementarity)
        out[b.offset] = v[b.offset];
        break;
      case ConeKind::Coulomb:
        out.segment<3>(b.offset) = project_dual_coulomb(v.segment<3>(b.offset), b.mu);
        break;
    }
  }
}

void augment_de_saxce(const Problem& p, const VecCRef& v, GrowVec& v_hat) {
  v_hat = v;
  for (const ConstraintBlock& b : p.blocks)
    if (b.cone == ConeKind::Coulomb)
      v_hat.segment<3>(b.offset) += de_saxce(v.segment<3>(b.offset), b.mu);
}

void de_saxce_term(const Problem& p, const VecCRef& v, VecRef s) {
  s.setZero();
  for (const ConstraintBlock& b : p.blocks)
    if (b.cone == ConeKind::Coulomb) s[b.offset + 2] = de_saxce(v.segment<3>(b.offset), b.mu)[2];
}

NcpResiduals ncp_residuals(const Problem& p, const VecCRef& lambda, const VecCRef& v, bool ncp,
                           GrowVec& vh) {
  NcpResiduals r;
  if (ncp)
    augment_de_saxce(p, v, vh);
  else
    vh = v;
  for (const ConstraintBlock& b : p.blocks) {
    const int o = b.offset;
    switch (b.cone) {
      case ConeKind::Free:
        for (int k = 0; k < b.size; ++k) {
          r.dual = std::max(r.dual, std::abs(vh[o + k]));
          r.natmap = std::max(r.natmap, std::abs(vh[o + k]));  // lambda - (lambda - v) = v
        }
        break;
      case ConeKind::Orthant: {
        const double l = lambda[o], w = vh[o];
        r.primal = std::max(r.primal, std::abs(l - project_orthant(l)));
        r.dual = std::max(r.dual, std::abs(w - project_orthant(w)));
        r.compl_ = std::max(r.compl_, std::abs(l * w));
        r.natmap = std::max(r.natmap, std::abs(l - project_orthant(l - w)));
        break;
      }
      case ConeKind::Box: {
        // lambda in [-b, b], v = 0 inside, v <= 0 at b and v >= 0 at -b (the impulse opposes
        // the motion): natural map lambda - P_box(lambda - v).
        const double l = lambda[o], w = vh[o], bd = b.bound;
        r.primal = std::max(r.primal, std::abs(l - project_box(l, bd)));
        r.compl_ = std::max({r.compl_, std::abs((bd - l) * std::min(0.0, w)),
                             std::abs((l + bd) * std::max(0.0, w))});
        r.natmap = std::max(r.natmap, std::abs(l - project_box(l - w, bd)));
        break;
      }
      case ConeKind::Coulomb: {
        const Vec3 l = lambda.segment<3>(o), w = vh.segment<3>(o);
        r.primal = std::max(r.primal, (l - project_coulomb(l, b.mu)).cwiseAbs().maxCoeff());
        r.dual = std::max(r.dual, (w - project_dual_coulomb(w, b.mu)).cwiseAbs().maxCoeff());
        r.compl_ = std::max(r.compl_, std::abs(l.dot(w)));
        r.natmap = std::max(r.natmap, (l - project_coulomb(l - w, b.mu)).cwiseAbs().maxCoeff());
        break;
      }
    }
  }
  // A non-finite lambda or v reads as NaN residuals, which no tolerance test passes: the maxima
  // above drop a NaN (std::max(a, NaN) is a), and the projections can map one to 0. 0 x is NaN
  // exactly where x is not finite; one vectorized sum each.
  if (!std::isfinite((0.0 * lambda.array()).sum() + (0.0 * vh.array()).sum())) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    r.primal = r.dual = r.compl_ = r.natmap = nan;
  }
  return r;
}

NcpResiduals ncp_residuals(const Problem& p, const VecCRef& lambda, const VecCRef& v, bool ncp) {
  GrowVec scratch(p.nl);
  return ncp_residuals(p, lambda, v, ncp, scratch);
}

}  // namespace moreau
