#pragma once
// Problems with the primal view (M, J blocks, u^-, u_free, f, dt) for the SAP tests: random
// rigid bodies with ball joints, limit rows and contacts against the world or another body.
#include <random>
#include <vector>

#include "moreau/dynamics/problem.hpp"
#include "moreau/math/so3.hpp"

namespace moreau::testing_problems {

// Fills D (every block pair stored), v_f = J u_free and v^- = J u^- from the blocks and bodies.
inline void finish_primal(Problem& p) {
  const int nb = p.num_bodies;
  int off = 0;
  std::vector<int> sizes;
  for (ConstraintBlock& b : p.blocks) {
    b.offset = off;
    off += b.size;
    sizes.push_back(b.size);
  }
  p.nl = off;
  MatX J = MatX::Zero(p.nl, 6 * nb), Minv = MatX::Zero(6 * nb, 6 * nb);
  for (int i = 0; i < nb; ++i) Minv.block<6, 6>(6 * i, 6 * i) = p.Minv[i];
  for (const ConstraintBlock& b : p.blocks)
    for (int s = 0; s < 2; ++s)
      if (b.body[s] >= 0) J.block(b.offset, 6 * b.body[s], b.size, 6) += b.J[s].topRows(b.size);
  const MatX D = J * Minv * J.transpose();
  const int nbk = static_cast<int>(sizes.size());
  p.D.begin(sizes.data(), nbk);
  for (int i = 0; i < nbk; ++i)
    for (int j = 0; j < nbk; ++j) p.D.push_entry(i, j);
  p.D.finalize();
  int e = 0;
  for (int i = 0; i < nbk; ++i)
    for (int j = 0; j < nbk; ++j, ++e)
      p.D.entry(e) = D.block(p.blocks[i].offset, p.blocks[j].offset, sizes[i], sizes[j]);
  p.D.to_dense(p.D_dense);
  p.has_dense = true;
  p.v_f = J * p.u_free;
  p.v_minus = J * p.u_minus;
  if (p.f.size() != p.nl) p.f = VecX::Zero(p.nl);
}

// A rigid body of mass m with a rotated diagonal inertia, in the Problem's world-frame form.
inline void add_body(Problem& p, double m, const Vec3& inertia, const Mat3& rot) {
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = m * Mat3::Identity();
  M.bottomRightCorner<3, 3>() = rot * inertia.asDiagonal() * rot.transpose();
  p.M.push_back(M);
  p.Minv.push_back(M.inverse());
  ++p.num_bodies;
}

// Contact block between body a (-1: world) and body b at a point with normal n (rows [t, o, n]),
// relative velocity of b's point with respect to a's (arms from the body centres).
inline ConstraintBlock contact_block(int a, const Vec3& arm_a, int b, const Vec3& arm_b,
                                     const Vec3& n, double mu) {
  ConstraintBlock c;
  c.kind = RowKind::Contact;
  c.cone = ConeKind::Coulomb;
  c.size = 3;
  c.mu = mu;
  const Mat3 RcT = frame_from_normal(n).transpose();
  c.J[0].setZero();
  c.J[1].setZero();
  c.body[0] = a;
  c.body[1] = b;
  if (a >= 0) {
    c.J[0].topLeftCorner<3, 3>() = -RcT;
    c.J[0].block<3, 3>(0, 3) = RcT * skew(arm_a);
  }
  c.J[1].topLeftCorner<3, 3>() = RcT;
  c.J[1].block<3, 3>(0, 3) = -RcT * skew(arm_b);
  return c;
}

// nb bodies (gravity along -z, time step dt), a ball joint between bodies 0 and 1 for each
// `joints`, `limits` angular-rate rows, nc contacts (even: against the world, odd: between
// consecutive bodies). Random u^-, gaps in [-gap, gap], joint errors in [-gap, gap].
inline Problem random_primal(std::mt19937& rng, int nb, int nc, double mu, int joints = 0,
                             int limits = 0, double dt = 1e-2, double vscale = 1.0,
                             double gap = 1e-3) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Problem p;
  p.dt = dt;
  for (int i = 0; i < nb; ++i) {
    const double m = 1.0 + U(rng) + 0.5;
    const Mat3 rot = Eigen::AngleAxisd(U(rng) * 3.0, Vec3(U(rng), U(rng), U(rng)).normalized())
                         .toRotationMatrix();
    add_body(p, m, 0.05 * m * Vec3(1.0 + 0.5 * U(rng), 1.0 + 0.5 * U(rng), 1.0 + 0.5 * U(rng)),
             rot);
  }
  p.u_minus.resize(6 * nb);
  p.generalized_force.resize(6 * nb);
  for (int k = 0; k < 6 * nb; ++k) p.u_minus[k] = vscale * U(rng);
  for (int i = 0; i < nb; ++i)
    p.generalized_force.segment<6>(6 * i) << 0, 0, -9.81 * p.M[i](0, 0), 0, 0, 0;
  p.u_free.resize(6 * nb);
  for (int i = 0; i < nb; ++i)
    p.u_free.segment<6>(6 * i) =
        p.u_minus.segment<6>(6 * i) + dt * p.Minv[i] * p.generalized_force.segment<6>(6 * i);
  std::vector<double> f;
  for (int j = 0; j < joints; ++j) {
    const Vec3 a(U(rng), U(rng), U(rng)), b(U(rng), U(rng), U(rng));
    ConstraintBlock c;
    c.kind = RowKind::Joint;
    c.cone = ConeKind::Free;
    c.size = 3;
    c.body[0] = 0;
    c.body[1] = nb > 1 ? 1 : -1;
    c.J[0].setZero();
    c.J[1].setZero();
    c.J[0].topLeftCorner<3, 3>() = Mat3::Identity();
    c.J[0].block<3, 3>(0, 3) = -skew(a);
    if (nb > 1) {
      c.J[1].topLeftCorner<3, 3>() = -Mat3::Identity();
      c.J[1].block<3, 3>(0, 3) = skew(b);
    }
    p.blocks.push_back(c);
    for (int k = 0; k < 3; ++k) f.push_back(gap * U(rng));
  }
  for (int l = 0; l < limits; ++l) {
    ConstraintBlock c;
    c.kind = RowKind::Limit;
    c.cone = ConeKind::Orthant;
    c.size = 1;
    c.body[0] = l % nb;
    c.J[0].setZero();
    c.J[1].setZero();
    c.J[0](0, 3 + l % 3) = 1.0;
    p.blocks.push_back(c);
    f.push_back(gap * U(rng));
  }
  for (int k = 0; k < nc; ++k) {
    const Vec3 n = Vec3(0.3 * U(rng), 0.3 * U(rng), 1.0).normalized();
    const int b = k % nb;
    const int a = (k % 2 == 1 && nb > 1) ? (b + 1) % nb : -1;
    p.blocks.push_back(
        contact_block(a, Vec3(U(rng), U(rng), U(rng)), b, Vec3(U(rng), U(rng), U(rng)), n, mu));
    f.push_back(0.0);
    f.push_back(0.0);
    f.push_back(gap * U(rng));
  }
  finish_primal(p);
  p.f = Eigen::Map<VecX>(f.data(), static_cast<Eigen::Index>(f.size()));
  return p;
}

}  // namespace moreau::testing_problems
