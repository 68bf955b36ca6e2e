#pragma once
// The position-based (PBD) form of the NMDP integrators (Pan & Hauser 2021, eq. 4 and 12): the
// inertial part of G is the gradient of an integral over the robot,
//   E(theta) = 1/2 integral rho |X(x, theta) - Y(x)|^2 dx,
// where X(x, theta) is the world position of the body-local point x and Y a per-body affine
// target Y_b(x) = A_b x + t_b: Y = 2 X(theta_-) - X(theta_--) for I_alpha (eq. 4) and
// Y = X(theta_-) for the objective K (eq. 12). For a rigid body X = R x + p in its CoM frame
// (moreau's body frame is the CoM frame, so the first moment integral rho x vanishes):
//   integral rho |D x + e|^2 dx = tr(D Sigma D^T) + m e^T e,   D = R - A, e = p - t,
// exact for any rigid mass distribution, with the second moment about the CoM
//   Sigma = integral rho x x^T dx = 1/2 tr(I_c) 1 - I_c   (I_c = tr(Sigma) 1 - Sigma).
// The gradient is a backward pass over the tree like RNEA's (Featherstone 2008, ch. 5.3), with
// spatial forces at the world origin [n_O; f] as in dynamics.hpp. Templated on the scalar, so
// that forward-mode AD of the analytic gradient gives the exact Hessian.
#include <vector>

#include "moreau/nmdp/dynamics.hpp"

namespace moreau::nmdp {

// Per-body affine targets Y_b(x) = A_b x + t_b of the body-local point x (A_b need not be a
// rotation).
struct AffineTargets {
  std::vector<Mat3> A;
  std::vector<Vec3> t;
};

// Sigma = integral rho x x^T dx of a body about its CoM, in the body frame.
inline Mat3 second_moment(const Body& b) {
  return 0.5 * b.inertia.trace() * Mat3::Identity() - b.inertia;
}

// integral rho |D x + e|^2 dx of one rigid body (mass m, second moment Sigma about the CoM).
template <class T>
T body_integral(const M3<T>& D, const V3<T>& e, double mass, const Mat3& sigma) {
  return (D * sigma.cast<T>() * D.transpose()).trace() + mass * e.squaredNorm();
}

// Y = X(theta_a) (1 + c) - c X(theta_b) from two kinematics, per body: c = 0 gives the poses at
// a (K's target), c = 1 the extrapolation 2 X(theta_-) - X(theta_--) (I_alpha's target).
inline void affine_targets(const Kinematics<double>& a, const Kinematics<double>& b, double c,
                           AffineTargets& y) {
  const size_t nb = a.R.size();
  y.A.resize(nb);
  y.t.resize(nb);
  for (size_t i = 0; i < nb; ++i) {
    y.A[i] = (1.0 + c) * a.R[i] - c * b.R[i];
    y.t[i] = (1.0 + c) * a.p[i] - c * b.p[i];
  }
}

// E = 1/2 sum_b integral rho |X_b - Y_b|^2 over the bodies that move with theta (bodies welded
// to the world contribute a constant, left out).
template <class T>
T pbd_energy(const Tree& tree, const Kinematics<T>& kin, const std::vector<Mat3>& sigma,
             const AffineTargets& y) {
  const Model& m = tree.model();
  T e = T(0.0);
  for (int b = 0; b < m.num_bodies(); ++b) {
    if (tree.link_of_body()[b] < 0) continue;
    const M3<T> D = kin.R[b] - y.A[b].cast<T>();
    const V3<T> d = kin.p[b] - y.t[b].cast<T>();
    e += 0.5 * body_integral<T>(D, d, m.bodies()[b].mass, sigma[b]);
  }
  return e;
}

// G = scale dE/dtheta - sum_b J_b^T m_b g - (f_ext mapped to theta), with f_ext[b] the spatial
// force on body b as in inverse_dynamics. Per body, the variation of E along a motion [w; v_O]
// is w . tau(M) + m e . (v_O + w x p) with M = R Sigma D^T and tr([w]x M) = w . tau(M), so its
// spatial force is [tau(M) + p x (m e); m e].
template <class T>
void pbd_gradient(const Tree& tree, const Kinematics<T>& kin, const std::vector<Mat3>& sigma,
                  const AffineTargets& y, double scale, const Vec3& gravity,
                  const std::vector<V6<T>>& f_ext, VX<T>& G) {
  const Model& m = tree.model();
  const int n = tree.dofs();
  std::vector<V6<T>> f(n, V6<T>::Zero());
  for (int b = 0; b < m.num_bodies(); ++b) {
    const int l = tree.link_of_body()[b];
    if (l < 0) continue;  // welded to the world
    const double mass = m.bodies()[b].mass;
    const M3<T> D = kin.R[b] - y.A[b].cast<T>();
    const V3<T> e = kin.p[b] - y.t[b].cast<T>();
    const M3<T> M = kin.R[b] * sigma[b].cast<T>() * D.transpose();
    const V3<T> tau(M(1, 2) - M(2, 1), M(2, 0) - M(0, 2), M(0, 1) - M(1, 0));
    const V3<T> F = (scale * mass) * e - (mass * gravity).cast<T>();
    f[l].template head<3>() += scale * tau + kin.p[b].cross(F);
    f[l].template tail<3>() += F;
    f[l] -= f_ext[b];
  }
  G.resize(n);
  for (int i = n - 1; i >= 0; --i) {
    G[i] = kin.S[i].dot(f[i]);
    const int pa = tree.parent_dof()[i];
    if (pa >= 0) f[pa] += f[i];
  }
}

}  // namespace moreau::nmdp
