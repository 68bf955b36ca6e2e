#pragma once
// Hand-built Problems for the ngn / lemke / prox-fp tests (Todorov 2010, Schindler et al. 2011):
// blocks and a dense Delassus copied into BlockSparse, no collision or dynamics room needed.
#include <cmath>
#include <random>
#include <vector>

#include "moreau/dynamics/problem.hpp"
#include "moreau/math/so3.hpp"

namespace moreau::testing_problems {

// Problem from blocks (cone, size, mu) and a dense D, v_f; every block pair is stored.
inline Problem from_dense(const std::vector<ConstraintBlock>& spec, const MatX& D, const VecX& vf) {
  Problem p;
  p.dt = 1.0;
  p.blocks = spec;
  std::vector<int> sizes;
  int off = 0;
  for (ConstraintBlock& b : p.blocks) {
    b.offset = off;
    off += b.size;
    sizes.push_back(b.size);
  }
  p.nl = off;
  const int nb = static_cast<int>(sizes.size());
  p.D.begin(sizes.data(), nb);
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < nb; ++j) p.D.push_entry(i, j);
  p.D.finalize();
  int e = 0;
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < nb; ++j, ++e)
      p.D.entry(e) = D.block(p.blocks[i].offset, p.blocks[j].offset, sizes[i], sizes[j]);
  p.D.to_dense(p.D_dense);
  p.has_dense = true;
  p.v_f = vf;
  p.v_minus = VecX::Zero(p.nl);
  p.f = VecX::Zero(p.nl);
  return p;
}

inline ConstraintBlock block(ConeKind cone, int size, double mu = 0.0) {
  ConstraintBlock b;
  b.cone = cone;
  b.kind = cone == ConeKind::Coulomb
               ? RowKind::Contact
               : (cone == ConeKind::Orthant ? RowKind::Limit : RowKind::Joint);
  b.size = size;
  b.mu = mu;
  b.J[0].setZero();
  b.J[1].setZero();
  return b;
}

// One contact [t, o, n] with Delassus D and free velocity v_f.
inline Problem one_contact(const Mat3& D, const Vec3& vf, double mu) {
  return from_dense({block(ConeKind::Coulomb, 3, mu)}, D, vf);
}

// Schindler et al. Sec. V-A at the acceleration level (dt = 1, u^- = 0): a point mass m on a
// plane under the force (h_x, h_y): D = I / m, v_f = (h_x, 0, h_y) / m.
inline Problem point_mass(double m, double hx, double hy, double mu) {
  return one_contact(Mat3::Identity() / m, Vec3(hx, 0.0, hy) / m, mu);
}

// Schindler et al. eq. 45: the one-row Painleve LCP 0 <= lambda perp G lambda + b >= 0.
inline Problem painleve_lcp(double G, double b) {
  return from_dense({block(ConeKind::Orthant, 1)}, MatX::Constant(1, 1, G), VecX::Constant(1, b));
}

// G of the Painleve rod (Schindler eq. 45) for a uniform rod, J = m L^2 / 12.
inline double painleve_G(double m, double L, double theta, double mu) {
  const double J = m * L * L / 12.0, c = std::cos(theta), s = std::sin(theta);
  return 1.0 / m + L * L * c / (4.0 * J) * (c - mu * s);
}

// Random rigid bodies touched at random points: D = J M^-1 J^T for nc contacts on nb free
// bodies (contact k on body k % nb, against the world), v_f random. Full row rank when
// 3 nc <= 6 nb, hence D SPD. Extra joint (3 rows, between bodies 0 and 1) and limit rows when
// asked.
inline Problem random_contacts(std::mt19937& rng, int nb, int nc, double mu, double vscale,
                               int joints = 0, int limits = 0) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const int nl = 3 * joints + limits + 3 * nc;
  MatX J = MatX::Zero(nl, 6 * nb);
  MatX Minv = MatX::Zero(6 * nb, 6 * nb);
  for (int b = 0; b < nb; ++b) {
    const double m = 1.0 + 0.5 * (U(rng) + 1.0);
    Minv.block<3, 3>(6 * b, 6 * b) = Mat3::Identity() / m;
    Minv.block<3, 3>(6 * b + 3, 6 * b + 3) = Mat3::Identity() / (0.1 * m);
  }
  std::vector<ConstraintBlock> spec;
  int row = 0;
  for (int j = 0; j < joints; ++j, row += 3) {  // ball joint between body 0 and 1 at a point
    const Vec3 a(U(rng), U(rng), U(rng));
    J.block<3, 3>(row, 0) = Mat3::Identity();
    J.block<3, 3>(row, 3) = -skew(a);
    J.block<3, 3>(row, 6) = -Mat3::Identity();
    J.block<3, 3>(row, 9) = skew(a);
    spec.push_back(block(ConeKind::Free, 3));
  }
  for (int l = 0; l < limits; ++l, ++row) {
    J(row, 6 * (l % nb) + 3 + l % 3) = 1.0;  // an angular rate bound
    spec.push_back(block(ConeKind::Orthant, 1));
  }
  for (int c = 0; c < nc; ++c, row += 3) {
    const int b = c % nb;
    const Vec3 n = Vec3(U(rng), U(rng), U(rng) + 2.0).normalized();
    const Mat3 R = frame_from_normal(n);
    const Vec3 arm(U(rng), U(rng), U(rng));
    J.block<3, 3>(row, 6 * b) = R.transpose();
    J.block<3, 3>(row, 6 * b + 3) = -R.transpose() * skew(arm);
    spec.push_back(block(ConeKind::Coulomb, 3, mu));
  }
  const MatX D = J * Minv * J.transpose();
  VecX vf(nl);
  for (int i = 0; i < nl; ++i) vf[i] = vscale * U(rng);
  return from_dense(spec, D, vf);
}

}  // namespace moreau::testing_problems
