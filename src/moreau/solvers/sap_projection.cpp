// SAP's analytic constraint elimination (Castro et al. 2023, Sec. III-B, V-A, App. C-D): the
// projection gamma = P_F(y) in the R-norm, G = -d gamma / d v_c and the cost l(v) of eq. 24.
#include <cmath>

#include "moreau/solvers/sap.hpp"

namespace moreau::sap {

void project_coulomb(double mu, double Rt, double Rn, const Vec3& y, Vec3& gamma, Mat3* G) {
  const double yr = std::hypot(y[0], y[1]), yn = y[2];
  const double mu_hat = mu * Rt / Rn;    // Sec. V-A: mu_hat = mu Rt / Rn
  const double den = 1.0 + mu * mu_hat;  // 1 + mu_tilde^2, mu_tilde^2 = mu mu_hat
  if (yn >= 0.0 && yr <= mu * yn) {      // region I, stiction: gamma = y
    gamma = y;
    if (G) *G = Vec3(1.0 / Rt, 1.0 / Rt, 1.0 / Rn).asDiagonal();
    return;
  }
  if (yn <= -mu_hat * yr) {  // region III, no contact (the boundary as in Drake: G = 0)
    gamma.setZero();
    if (G) G->setZero();
    return;
  }
  // Region II, sliding: projection onto the cone's wall; yr > 0 here.
  const Eigen::Vector2d t = y.head<2>() / yr;
  const double gn = (yn + mu_hat * yr) / den;
  gamma << mu * gn * t, gn;
  if (!G) return;
  // App. D: G = (dP/dy) R^-1 with dgt/dyt = mu (gn / yr P_perp + mu_hat / den P),
  // dgt/dyn = mu / den t, dgn/dyt = mu_hat / den t^T, dgn/dyn = 1 / den.
  const Eigen::Matrix2d P = t * t.transpose();
  const Eigen::Matrix2d Pp = Eigen::Matrix2d::Identity() - P;
  G->topLeftCorner<2, 2>() = mu * (gn / yr * Pp + mu_hat / den * P) / Rt;
  G->block<2, 1>(0, 2) = mu / den * t / Rn;
  G->block<1, 2>(2, 0) = mu_hat / den * t.transpose() / Rt;
  (*G)(2, 2) = 1.0 / (den * Rn);
}

double eval_block(const ConstraintBlock& b, const SapModel& m, const double* vc, double* gamma,
                  Mat6R* G) {
  const int o = b.offset, n = b.size;
  if (G) G->topLeftCorner(n, n).setZero();
  if (b.cone == ConeKind::Coulomb) {
    if (m.Rinv[o + 2] == 0.0) {  // inactive (zero Jacobian)
      gamma[0] = gamma[1] = gamma[2] = 0.0;
      return 0.0;
    }
    Vec3 y, g;
    for (int k = 0; k < 3; ++k) y[k] = -m.Rinv[o + k] * (vc[k] - m.vhat[o + k]);
    Mat3 Gc;
    project_coulomb(b.mu, m.R[o], m.R[o + 2], y, g, G ? &Gc : nullptr);
    if (G) G->topLeftCorner<3, 3>() = Gc;
    for (int k = 0; k < 3; ++k) gamma[k] = g[k];
    return 0.5 * (m.R[o] * (g[0] * g[0] + g[1] * g[1]) + m.R[o + 2] * g[2] * g[2]);
  }
  // Joint rows (R^m: identity) and limit rows (R_+: max(0, .)); R is diagonal per row.
  double c = 0.0;
  for (int k = 0; k < n; ++k) {
    const double y = -m.Rinv[o + k] * (vc[k] - m.vhat[o + k]);
    const bool on = b.cone == ConeKind::Free || y > 0.0;
    gamma[k] = on ? y : 0.0;
    if (G && on) (*G)(k, k) = m.Rinv[o + k];
    c += 0.5 * m.R[o + k] * gamma[k] * gamma[k];
  }
  return c;
}

double cost(const Problem& p, const SapModel& m, const VecX& v, VecX* grad, MatX* H, VecX* gamma) {
  const int n = 6 * p.num_bodies;
  VecX vc(p.nl), g(p.nl);
  p.apply_J(v, vc);
  double l = 0.0;
  if (grad) grad->setZero(n);
  if (H) H->setZero(n, n);
  for (int i = 0; i < p.num_bodies; ++i) {
    const Vec6 dv = v.segment<6>(6 * i) - p.u_free.segment<6>(6 * i);
    const Vec6 Mdv = p.M[i] * dv;
    l += 0.5 * dv.dot(Mdv);
    if (grad) grad->segment<6>(6 * i) = Mdv;
    if (H) H->block<6, 6>(6 * i, 6 * i) = p.M[i];
  }
  Mat6R G;
  for (const ConstraintBlock& b : p.blocks) {
    l += eval_block(b, m, vc.data() + b.offset, g.data() + b.offset, H ? &G : nullptr);
    if (!H) continue;
    const int s = b.size;
    for (int a = 0; a < 2; ++a)
      for (int c = 0; c < 2; ++c)
        if (b.body[a] >= 0 && b.body[c] >= 0)
          H->block<6, 6>(6 * b.body[a], 6 * b.body[c]) +=
              b.J[a].topRows(s).transpose() * G.topLeftCorner(s, s) * b.J[c].topRows(s);
  }
  if (grad) {
    VecX jg = VecX::Zero(n);
    p.apply_JT_add(g, jg);
    *grad -= jg;
  }
  if (gamma) *gamma = g;
  return l;
}

}  // namespace moreau::sap
