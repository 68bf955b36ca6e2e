#pragma once
// Hand-built Problems with a primal view (bodies, M, J, u_free, f) for the bench tests:
// D = J M^-1 J^T and v_f = J u_free computed densely here, independently of the builder.
#include <vector>

#include "moreau/dynamics/problem.hpp"
#include "solvers/implicit_problems.hpp"

namespace moreau::bench_problems {

// Dense J (nl x 6 nb) of a Problem's blocks.
inline MatX dense_J(const Problem& p) {
  MatX J = MatX::Zero(p.nl, 6 * p.num_bodies);
  for (const ConstraintBlock& b : p.blocks)
    for (int s = 0; s < 2; ++s)
      if (b.body[s] >= 0) J.block(b.offset, 6 * b.body[s], b.size, 6) += b.J[s].topRows(b.size);
  return J;
}

// Blocks with J rows and bodies set; bodies of mass m_i and inertia diag(I_i); u_free and f given.
inline Problem with_bodies(const std::vector<ConstraintBlock>& blocks,
                           const std::vector<double>& mass, const std::vector<double>& inertia,
                           const VecX& u_free, const VecX& f, double dt) {
  const int nb = static_cast<int>(mass.size());
  Problem tmp;
  tmp.blocks = blocks;
  tmp.num_bodies = nb;
  int off = 0;
  for (ConstraintBlock& b : tmp.blocks) {
    b.offset = off;
    off += b.size;
  }
  tmp.nl = off;
  MatX Minv = MatX::Zero(6 * nb, 6 * nb);
  for (int i = 0; i < nb; ++i) {
    Mat6 M = Mat6::Zero();
    M.diagonal() << mass[i], mass[i], mass[i], inertia[i], inertia[i], inertia[i];
    tmp.M.push_back(M);
    tmp.Minv.push_back(M.inverse());
    Minv.block<6, 6>(6 * i, 6 * i) = M.inverse();
  }
  const MatX J = dense_J(tmp);
  Problem p = testing_problems::from_dense(tmp.blocks, J * Minv * J.transpose(), J * u_free);
  p.num_bodies = nb;
  p.M = tmp.M;
  p.Minv = tmp.Minv;
  p.dt = dt;
  p.u_free = u_free;
  p.u_minus = u_free;
  p.generalized_force = VecX::Zero(6 * nb);
  p.f = f;
  return p;
}

// A contact block on body 0 at its centre of mass, normal +z: rows [t, o, n] = [x, y, z] velocity.
inline ConstraintBlock ground_contact(double mu) {
  ConstraintBlock b = testing_problems::block(ConeKind::Coulomb, 3, mu);
  b.body[0] = 0;
  b.J[0].topLeftCorner<3, 3>().setIdentity();
  return b;
}

}  // namespace moreau::bench_problems
