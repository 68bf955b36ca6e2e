// ngn: Todorov's implicit maps f(x), v(x), their Jacobian, the cone-edge projection and the
// edge crossings of a segment (Todorov 2010, eq. 10-15, 27, Sec. III-D), for one contact and for
// a Problem.
#include <algorithm>
#include <cmath>

#include "moreau/solvers/first_order.hpp"
#include "moreau/solvers/ngn.hpp"
#include "moreau/solvers/ngn_internal.hpp"

namespace moreau::ngn {

Vec3 contact_force(const Vec3& x, double mu, double b) {
  if (x[2] >= b) return Vec3::Zero();  // break: f = 0, v = x
  const double fn = b - x[2];          // eq. 10
  const double rho = std::hypot(x[0], x[1]);
  const double s = rho > mu * fn ? mu * fn / rho : 1.0;  // eq. 12 (s = 1 when x_T = 0)
  return Vec3(-s * x[0], -s * x[1], fn);                 // eq. 13
}

Mat3 contact_force_jacobian(const Vec3& x, double mu, double b) {
  if (x[2] >= b) return Mat3::Zero();
  if (mu <= 0.0) return Vec3(0.0, 0.0, -1.0).asDiagonal();  // frictionless: f_T = 0
  const double z = b - x[2], rho = std::hypot(x[0], x[1]);
  if (rho <= mu * z) return -Mat3::Identity();
  // slip: d f_T / d x_n = mu u, d f_T / d x_T = -s (I - u u^T), d f_n / d x_n = -1.
  const double s = mu * z / rho, u0 = x[0] / rho, u1 = x[1] / rho;
  Mat3 F;
  F << -s * (1.0 - u0 * u0), s * u0 * u1, mu * u0,  //
      s * u0 * u1, -s * (1.0 - u1 * u1), mu * u1,   //
      0.0, 0.0, -1.0;
  return F;
}

Vec3 project_cone_edge(const Vec3& x, double mu, double b) {
  const double z = b - x[2], rho = std::hypot(x[0], x[1]);
  const double tau = (z + mu * rho) / (1.0 + mu * mu);  // Todorov Sec. III-D, closed form
  if (tau <= 0.0) return Vec3(0.0, 0.0, b);             // apex
  const double c0 = rho > 0.0 ? x[0] / rho : 1.0, c1 = rho > 0.0 ? x[1] / rho : 0.0;
  return Vec3(mu * tau * c0, mu * tau * c1, b - tau);
}

int contact_crossings(const Vec3& p, const Vec3& u, double mu, double b, double out[3]) {
  int k = 0;
  auto keep = [&](double a) {
    if (a > 0.0 && a < 1.0) out[k++] = a;
  };
  if (u[2] != 0.0) keep((b - p[2]) / u[2]);  // plane x_n = b
  if (mu <= 0.0) return k;
  // Cone (eq. 27): mu^2 (t_n - b)^2 = |t_T|^2 on the nappe t_n < b.
  const double P = b - p[2];
  const double qa = mu * mu * u[2] * u[2] - u[0] * u[0] - u[1] * u[1];
  const double qb = 2.0 * (-mu * mu * P * u[2] - p[0] * u[0] - p[1] * u[1]);
  const double qc = mu * mu * P * P - p[0] * p[0] - p[1] * p[1];
  auto keep_nappe = [&](double a) {
    if (p[2] + a * u[2] < b) keep(a);
  };
  const double scale = std::max({std::abs(qa), std::abs(qb), std::abs(qc), 1e-300});
  if (std::abs(qa) <= 1e-14 * scale) {
    if (qb != 0.0) keep_nappe(-qc / qb);
    return k;
  }
  const double disc = qb * qb - 4.0 * qa * qc;
  if (disc < 0.0) return k;
  // Stable roots: q = -(b + sign(b) sqrt(disc)) / 2, roots q / a and c / q.
  const double sq = std::sqrt(disc);
  const double qq = -0.5 * (qb + (qb >= 0.0 ? sq : -sq));
  keep_nappe(qq / qa);
  if (qq != 0.0) keep_nappe(qc / qq);
  return k;
}

void force(const Problem& p, const VecCRef& x, VecRef f) {
  for (const ConstraintBlock& b : p.blocks) {
    const int o = b.offset;
    switch (b.cone) {
      case ConeKind::Free:
        f.segment(o, b.size) = -x.segment(o, b.size);
        break;
      case ConeKind::Orthant:
        f[o] = x[o] < 0.0 ? -x[o] : 0.0;
        break;
      case ConeKind::Box:  // solve() declines it (SolverInfo::handles_box)
        f[o] = 0.0;
        break;
      case ConeKind::Coulomb:
        f.segment<3>(o) = contact_force(x.segment<3>(o), b.mu);
        break;
    }
  }
}

double objective(const Problem& p, const VecX& x, Scratch& s) {
  s.f.resize(p.nl);  // no-ops once sized
  s.Af.resize(p.nl);
  force(p, x, s.f);
  first_order::multiply_regularized(p, s.f, s.Af);
  s.r = s.Af - s.f - x + p.v_f;  // eq. 15
  return 0.5 * s.r.squaredNorm();
}

void region_jacobian_times(const Problem& p, const VecX& x, const VecX& u, VecX& out) {
  for (const ConstraintBlock& b : p.blocks) {
    const int o = b.offset;
    switch (b.cone) {
      case ConeKind::Free:
        out.segment(o, b.size) = -u.segment(o, b.size);
        break;
      case ConeKind::Orthant:
        out[o] = x[o] < 0.0 ? -u[o] : 0.0;
        break;
      case ConeKind::Box:  // solve() declines it (SolverInfo::handles_box)
        out[o] = 0.0;
        break;
      case ConeKind::Coulomb:
        out.segment<3>(o) = contact_force_jacobian(x.segment<3>(o), b.mu) * u.segment<3>(o);
        break;
    }
  }
}

void jacobian_times(const Problem& p, const VecX& x, const VecX& u, Scratch& s, VecX& out) {
  s.w.resize(p.nl);
  out.resize(p.nl);
  region_jacobian_times(p, x, u, s.w);
  first_order::multiply_regularized(p, s.w, out);
  out -= s.w + u;  // J u = (A - I) F' u - u
}

}  // namespace moreau::ngn
