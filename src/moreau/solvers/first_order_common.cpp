#include <algorithm>
#include <cmath>

#include "moreau/math/cones.hpp"
#include "moreau/solvers/first_order.hpp"

namespace moreau::first_order {

void multiply_regularized(const Problem& p, const VecX& x, VecX& y) {
  p.D.multiply(x.data(), y.data());
  if (p.R.size() == p.nl) y.array() += p.R.array() * x.array();  // + R x (eq. 95)
}

Mat6 regularized_diagonal_block(const Problem& p, int i) {
  const ConstraintBlock& b = p.blocks[i];
  Mat6 A = Mat6::Zero();
  A.topLeftCorner(b.size, b.size) = p.D.diagonal(i);
  if (p.R.size() == p.nl)
    for (int k = 0; k < b.size; ++k) A(k, k) += p.R[b.offset + k];
  return A;
}

void de_saxce_term(const Problem& p, const VecX& v, VecX& s) {
  s.setZero();
  for (const ConstraintBlock& b : p.blocks)
    if (b.cone == ConeKind::Coulomb)
      s[b.offset + 2] = b.mu * std::hypot(v[b.offset], v[b.offset + 1]);
}

void project_cones(const Problem& p, const VecX& x, VecX& out) {
  if (&out != &x) out = x;
  for (const ConstraintBlock& b : p.blocks) {
    if (b.cone == ConeKind::Orthant)
      out[b.offset] = project_orthant(out[b.offset]);
    else if (b.cone == ConeKind::Coulomb)
      out.segment<3>(b.offset) = project_coulomb(out.segment<3>(b.offset), b.mu);
  }
}

double largest_eigenvalue(const Problem& p, int iters, VecX& a, VecX& b) {
  if (p.nl == 0) return 0.0;
  a.setConstant(p.nl, 1.0 / std::sqrt(double(p.nl)));
  b.resize(p.nl);
  double lmax = 0.0;
  for (int k = 0; k < iters; ++k) {
    multiply_regularized(p, a, b);
    const double n = b.norm();
    if (!(n > 0.0)) return lmax;
    lmax = a.dot(b);  // Rayleigh quotient, a unit
    a = b / n;
  }
  return lmax;
}

}  // namespace moreau::first_order
