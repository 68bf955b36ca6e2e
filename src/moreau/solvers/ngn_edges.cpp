// ngn: edge handling of the semi-smooth Jacobian (Todorov 2010, Sec. III-B and III-D). On an
// edge with one-sided Jacobians J1 (the side d points into) and J2, the directional derivatives
// delta1 = r^T J1 d and delta2 = -r^T J2 d decide: if one is negative the objective decreases
// off the edge (inactive: use that side); otherwise the edge is active, J is the blend (eq. 26)
// and the step is restricted to the edge's tangent space.
#include <cmath>

#include "moreau/solvers/ngn_internal.hpp"

namespace moreau::ngn {

namespace {
// r^T J_side d for d supported on one block: q_k . (F d) - r_k . d, with q = (A - I) r.
template <int N>
double directional(const Eigen::Matrix<double, N, 1>& qk, const Eigen::Matrix<double, N, 1>& rk,
                   const Eigen::Matrix<double, N, N>& F, const Eigen::Matrix<double, N, 1>& d) {
  return qk.dot(F * d) - rk.dot(d);
}

// Blend (eq. 26) or pick a side; returns true when the edge is active.
bool resolve_edge(double d1, double d2, const Mat3& F1, const Mat3& F2, Mat3& F) {
  if (d1 < 0.0 || d2 < 0.0) {  // inactive: the side with the steeper descent
    F = d1 < d2 ? F1 : F2;
    return false;
  }
  F = d1 + d2 > 0.0 ? Mat3((d2 * F1 + d1 * F2) / (d1 + d2)) : Mat3(0.5 * (F1 + F2));
  return true;
}

void classify_contact(const Vec3& x, const Vec3& r, const Vec3& q, double mu, double eps,
                      BlockState& bs) {
  const double tol = eps * std::max(1.0, x.norm());
  const double rho = std::hypot(x[0], x[1]), z = -x[2];
  bs.basis.setIdentity();
  bs.ncols = 3;
  bs.cone_active = bs.edge = false;
  const Vec3 en = Vec3::UnitZ();
  if (std::abs(x[2]) <= tol && rho <= tol) {  // apex: inactive, steepest of break / stick
    bs.edge = true;
    const double d_break = directional<3>(q, r, Mat3::Zero(), en);
    const double d_stick = directional<3>(q, r, -Mat3::Identity(), -en);
    bs.F = d_break <= d_stick ? Mat3::Zero() : Mat3(-Mat3::Identity());
    return;
  }
  if (std::abs(x[2]) <= tol) {  // plane edge: break (J1, d = e_n) | slip with s = 0 (J2)
    bs.edge = true;
    const double u0 = x[0] / rho, u1 = x[1] / rho;
    Mat3 F2 = Mat3::Zero();
    F2(0, 2) = mu * u0;
    F2(1, 2) = mu * u1;
    F2(2, 2) = -1.0;
    const double d1 = directional<3>(q, r, Mat3::Zero(), en), d2 = -directional<3>(q, r, F2, en);
    if (resolve_edge(d1, d2, Mat3::Zero(), F2, bs.F)) bs.ncols = 2;  // B_plane = [e_t, e_o]
    return;
  }
  if (mu > 0.0 && z > 0.0 && rho > 0.0 && std::abs(rho - mu * z) <= tol) {
    // cone edge: slip (J1, d outward) | stick (J2)
    bs.edge = true;
    const double u0 = x[0] / rho, u1 = x[1] / rho;
    const Vec3 d = Vec3(u0, u1, mu) / std::sqrt(1.0 + mu * mu);
    const double s = mu * z / rho;
    Mat3 F1;
    F1 << -s * (1.0 - u0 * u0), s * u0 * u1, mu * u0,  //
        s * u0 * u1, -s * (1.0 - u1 * u1), mu * u1,    //
        0.0, 0.0, -1.0;
    const Mat3 F2 = -Mat3::Identity();
    const double d1 = directional<3>(q, r, F1, d), d2 = -directional<3>(q, r, F2, d);
    if (resolve_edge(d1, d2, F1, F2, bs.F)) {
      bs.ncols = 2;
      bs.cone_active = true;
      bs.basis.col(0) = Vec3(x[0], x[1], x[2]).normalized();  // generator through x (b = 0)
      bs.basis.col(1) = Vec3(-u1, u0, 0.0);                   // circumferential
    }
    return;
  }
  bs.F = contact_force_jacobian(x, mu);
}

// A limit row: f = max(0, -x); the edge x = 0 between break (J1, d = +1) and stick (J2).
void classify_limit(double x, double r, double q, double eps, BlockState& bs) {
  bs.ncols = 1;
  bs.basis.setIdentity();
  bs.cone_active = false;
  bs.edge = std::abs(x) <= eps;
  if (!bs.edge) {
    bs.F(0, 0) = x < 0.0 ? -1.0 : 0.0;
    return;
  }
  const double d1 = -r, d2 = q + r;  // delta1 = r^T J1 e, delta2 = -r^T J2 e
  Mat3 F1 = Mat3::Zero(), F2 = Mat3::Zero(), F;
  F2(0, 0) = -1.0;
  if (resolve_edge(d1, d2, F1, F2, F)) bs.ncols = 0;
  bs.F(0, 0) = F(0, 0);
}
}  // namespace

int classify_blocks(const Problem& p, const VecX& x, const VecX& r, const VecX& q, double eps,
                    Workspace& w) {
  w.blocks.resize(p.blocks.size());
  int m = 0;
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    BlockState& bs = w.blocks[k];
    const int o = b.offset;
    if (b.cone == ConeKind::Coulomb)
      classify_contact(x.segment<3>(o), r.segment<3>(o), q.segment<3>(o), b.mu, eps, bs);
    else if (b.cone == ConeKind::Orthant)
      classify_limit(x[o], r[o], q[o], eps, bs);
    else {
      bs.ncols = b.size;  // joints: F = -I, B = I
      bs.cone_active = bs.edge = false;
    }
    bs.col = m;
    m += bs.ncols;
  }
  return m;
}

}  // namespace moreau::ngn
