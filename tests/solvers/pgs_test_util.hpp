#pragma once
// Hand-built Problems for the PGS-family tests: blocks of given cones over a dense Delassus.
#include <random>
#include <vector>

#include "moreau/dynamics/problem.hpp"

namespace moreau::test {

struct BlockSpec {
  ConeKind cone;
  int size;
  double mu = 0.0;
};

// Problem with the given blocks (joints, limits, contacts in that order), Delassus D (dense,
// stored block-sparse: blocks that are exactly zero are left out) and free velocity vf.
inline Problem dense_problem(const std::vector<BlockSpec>& specs, const MatX& D, const VecX& vf) {
  Problem p;
  p.dt = 1e-3;
  std::vector<int> sizes;
  int off = 0;
  for (const BlockSpec& s : specs) {
    ConstraintBlock b;
    b.J[0].setZero();
    b.J[1].setZero();
    b.cone = s.cone;
    b.kind = s.cone == ConeKind::Coulomb
                 ? RowKind::Contact
                 : (s.cone == ConeKind::Orthant ? RowKind::Limit : RowKind::Joint);
    b.size = s.size;
    b.offset = off;
    b.mu = s.mu;
    off += s.size;
    sizes.push_back(s.size);
    p.blocks.push_back(b);
  }
  p.nl = off;
  const int nbk = static_cast<int>(specs.size());
  p.D.begin(sizes.data(), nbk);
  for (int i = 0; i < nbk; ++i)
    for (int j = 0; j < nbk; ++j) {
      const auto B = D.block(p.blocks[i].offset, p.blocks[j].offset, sizes[i], sizes[j]);
      if (i == j || !B.isZero(0.0)) p.D.push_entry(i, j);
    }
  p.D.finalize();
  for (int i = 0; i < nbk; ++i)
    for (int e = p.D.row_start(i); e < p.D.row_start(i + 1); ++e) {
      const int j = p.D.entry_col(e);
      p.D.entry(e) = D.block(p.blocks[i].offset, p.blocks[j].offset, sizes[i], sizes[j]);
    }
  p.v_f = vf;
  p.v_minus = VecX::Zero(p.nl);
  p.f = VecX::Zero(p.nl);
  return p;
}

inline Problem single_contact(const Mat3& G, const Vec3& vf, double mu) {
  return dense_problem({{ConeKind::Coulomb, 3, mu}}, G, vf);
}

// A random SPD Delassus J M^-1 J^T with J (nl x 6 nb) dense in blocks of two bodies: coupled
// contacts, the structure of a small pile. Deterministic for a given seed.
inline MatX random_delassus(int nl, int nb, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatX J = MatX::Zero(nl, 6 * nb);
  for (int r = 0; r < nl; ++r) {
    const int a = (r / 3) % nb, b = (r / 3 + 1) % nb;
    for (int c = 0; c < 6; ++c) {
      J(r, 6 * a + c) = u(rng);
      J(r, 6 * b + c) = u(rng);
    }
  }
  return J * J.transpose() + 1e-3 * MatX::Identity(nl, nl);
}

}  // namespace moreau::test
