#include <algorithm>
#include <cmath>

#include "moreau/solvers/first_order.hpp"

namespace moreau::first_order {

void multiply_regularized(const Problem& p, const VecCRef& x, VecRef y) {
  p.D.multiply(x.data(), y.data());
  if (p.R.size() == p.nl) y.array() += p.R.array() * x.array();  // + R x (eq. 95)
}

double largest_eigenvalue(const Problem& p, int iters, GrowVec& a, GrowVec& b) {
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
