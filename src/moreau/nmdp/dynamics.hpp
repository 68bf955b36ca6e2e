#pragma once
// Rigid-body algorithms on a Tree (Featherstone, "Rigid Body Dynamics Algorithms", 2008):
// forward kinematics, the recursive Newton-Euler algorithm (RNEA, ch. 5.3) for
// ID(theta, theta_dot, theta_ddot) = H theta_ddot + C, the composite-rigid-body algorithm (CRBA,
// ch. 6.2) for H, point Jacobians and the kinetic energy. All in world coordinates with spatial
// vectors at the world origin: motion [w; v_O], force [n_O; f] (Featherstone ch. 2).
//
// Templated on the scalar so that Eigen's forward-mode AutoDiffScalar gives the exact derivatives
// dH/dtheta, dC/dtheta, dC/dtheta_dot and d(J^T v w)/dtheta that Pan & Hauser 2021 take from
// Carpentier & Mansard's analytic derivatives (Sec. IV-B).
#include <cmath>
#include <vector>

#include "moreau/nmdp/tree.hpp"

namespace moreau::nmdp {

template <class T>
using V3 = Eigen::Matrix<T, 3, 1>;
template <class T>
using M3 = Eigen::Matrix<T, 3, 3>;
template <class T>
using V6 = Eigen::Matrix<T, 6, 1>;
template <class T>
using VX = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <class T>
struct Kinematics {
  std::vector<M3<T>> R;  // body orientations (world)
  std::vector<V3<T>> p;  // body CoM positions (world)
  std::vector<V6<T>> S;  // motion subspace of each DoF, [w; v_O] (world, at the origin)
  std::vector<V6<T>> v;  // link velocities (filled by link_velocities)
};

namespace detail {

template <class T>
M3<T> axis_rotation(int axis, const T& q) {
  using std::cos;
  using std::sin;
  const T c = cos(q), s = sin(q);
  M3<T> R = M3<T>::Identity();
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  R(i, i) = c;
  R(i, j) = -s;
  R(j, i) = s;
  R(j, j) = c;
  return R;
}

// Spatial motion cross product a x m (Featherstone eq. 2.31).
template <class T>
V6<T> cross_motion(const V6<T>& a, const V6<T>& m) {
  V6<T> out;
  const V3<T> aw = a.template head<3>(), av = a.template tail<3>();
  const V3<T> mw = m.template head<3>(), mv = m.template tail<3>();
  out.template head<3>() = aw.cross(mw);
  out.template tail<3>() = aw.cross(mv) + av.cross(mw);
  return out;
}

}  // namespace detail

// Body poses and DoF motion subspaces at theta (in the tree's current charts).
template <class T>
void forward_kinematics(const Tree& tree, const VX<T>& theta, Kinematics<T>& k) {
  const Model& m = tree.model();
  const int nb = m.num_bodies();
  k.R.resize(nb);
  k.p.resize(nb);
  k.S.resize(tree.dofs());
  for (size_t si = 0; si < tree.segments().size(); ++si) {
    const Segment& sg = tree.segments()[si];
    M3<T> R;
    V3<T> p;
    const Mat3 preR = sg.pre.R();
    if (sg.parent < 0) {
      R = preR.cast<T>();
      p = sg.pre.p.cast<T>();
    } else {
      R = k.R[sg.parent] * preR.cast<T>();
      p = k.p[sg.parent] + k.R[sg.parent] * sg.pre.p.cast<T>();
    }
    for (int i = 0; i < sg.dofs; ++i) {
      if (i == sg.chart_at) R = R * tree.charts()[si].toRotationMatrix().cast<T>();
      const Primitive& pr = sg.prims[i];
      const V3<T> a = R.col(pr.axis);
      V6<T>& S = k.S[sg.offset + i];
      const T& q = theta[sg.offset + i];
      if (pr.revolute) {
        S.template head<3>() = a;
        S.template tail<3>() = p.cross(a);
        R = R * detail::axis_rotation<T>(pr.axis, q);
      } else {
        S.template head<3>().setZero();
        S.template tail<3>() = a;
        p += a * q;
      }
    }
    const Mat3 postR = sg.post.R();
    k.p[sg.body] = p + R * sg.post.p.cast<T>();
    k.R[sg.body] = R * postR.cast<T>();
  }
}

// Link velocities v_k = v_parent + S_k theta_dot_k.
template <class T>
void link_velocities(const Tree& tree, Kinematics<T>& k, const VX<T>& qd) {
  const int n = tree.dofs();
  k.v.resize(n);
  for (int i = 0; i < n; ++i) {
    const int pa = tree.parent_dof()[i];
    k.v[i] = k.S[i] * qd[i];
    if (pa >= 0) k.v[i] += k.v[pa];
  }
}

// Spatial velocity [w; v_O] of body b (after link_velocities).
template <class T>
V6<T> body_velocity(const Tree& tree, const Kinematics<T>& k, int b) {
  const int l = tree.link_of_body()[b];
  return l >= 0 ? k.v[l] : V6<T>::Zero();
}

// World inertia R I R^T of body b.
template <class T>
M3<T> world_inertia(const Body& body, const M3<T>& R) {
  return R * body.inertia.cast<T>() * R.transpose();
}

// Kinetic energy 1/2 theta_dot^T H theta_dot as the sum of 1/2 (m |v_c|^2 + w.I w).
template <class T>
T kinetic_energy(const Tree& tree, Kinematics<T>& k, const VX<T>& qd) {
  link_velocities(tree, k, qd);
  const Model& m = tree.model();
  T e = T(0.0);
  for (int b = 0; b < m.num_bodies(); ++b) {
    const V6<T> V = body_velocity(tree, k, b);
    const V3<T> w = V.template head<3>();
    const V3<T> vc = V.template tail<3>() + w.cross(k.p[b]);
    const Body& body = m.bodies()[b];
    e += 0.5 * (body.mass * vc.squaredNorm() + w.dot(world_inertia(body, k.R[b]) * w));
  }
  return e;
}

// RNEA: tau = H(theta) qdd + C(theta, qd) - sum_b f_ext[b] mapped to theta, where C holds the
// Coriolis, centrifugal and gravity terms and f_ext[b] (spatial force at the origin, [n_O; f])
// acts on body b. Needs forward_kinematics at theta first.
template <class T>
void inverse_dynamics(const Tree& tree, Kinematics<T>& k, const VX<T>& qd, const VX<T>& qdd,
                      const std::vector<V6<T>>& f_ext, VX<T>& tau) {
  const Model& m = tree.model();
  const int n = tree.dofs();
  link_velocities(tree, k, qd);
  std::vector<V6<T>> a(n), f(n, V6<T>::Zero());
  for (int i = 0; i < n; ++i) {
    const int pa = tree.parent_dof()[i];
    a[i] = k.S[i] * qdd[i] + detail::cross_motion<T>(k.v[i], k.S[i] * qd[i]);
    if (pa >= 0) a[i] += a[pa];
  }
  const Vec3 g = m.gravity();
  for (int b = 0; b < m.num_bodies(); ++b) {
    const int l = tree.link_of_body()[b];
    if (l < 0) continue;  // welded to the world: its forces go to the world
    const Body& body = m.bodies()[b];
    const V3<T> w = k.v[l].template head<3>(), c = k.p[b];
    const V3<T> vc = k.v[l].template tail<3>() + w.cross(c);
    const V3<T> wd = a[l].template head<3>();
    const V3<T> acc = a[l].template tail<3>() + wd.cross(c) + w.cross(vc);  // CoM acceleration
    const M3<T> I = world_inertia(body, k.R[b]);
    const V3<T> F = body.mass * (acc - g.cast<T>());
    const V3<T> tc = I * wd + w.cross(I * w);
    f[l].template head<3>() += tc + c.cross(F);
    f[l].template tail<3>() += F;
    f[l] -= f_ext[b];
  }
  tau.resize(n);
  for (int i = n - 1; i >= 0; --i) {
    tau[i] = k.S[i].dot(f[i]);
    const int pa = tree.parent_dof()[i];
    if (pa >= 0) f[pa] += f[i];
  }
}

// CRBA: the joint-space mass matrix H(theta) from composite spatial inertias at the origin.
template <class T>
void mass_matrix(const Tree& tree, const Kinematics<T>& k,
                 Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>& H) {
  using M6 = Eigen::Matrix<T, 6, 6>;
  const Model& m = tree.model();
  const int n = tree.dofs();
  std::vector<M6> Ic(n, M6::Zero());
  for (int b = 0; b < m.num_bodies(); ++b) {
    const int l = tree.link_of_body()[b];
    if (l < 0) continue;
    const Body& body = m.bodies()[b];
    const V3<T> c = k.p[b];
    M3<T> C;
    C << T(0.0), -c.z(), c.y(), c.z(), T(0.0), -c.x(), -c.y(), c.x(), T(0.0);
    M6 I;
    I.template topLeftCorner<3, 3>() =
        world_inertia(body, k.R[b]) + body.mass * C * C.transpose();  // Featherstone eq. 2.63
    I.template topRightCorner<3, 3>() = body.mass * C;
    I.template bottomLeftCorner<3, 3>() = body.mass * C.transpose();
    I.template bottomRightCorner<3, 3>() = body.mass * M3<T>::Identity();
    Ic[l] += I;
  }
  for (int i = n - 1; i >= 0; --i) {
    const int pa = tree.parent_dof()[i];
    if (pa >= 0) Ic[pa] += Ic[i];
  }
  H.setZero(n, n);
  for (int i = 0; i < n; ++i) {
    const V6<T> F = Ic[i] * k.S[i];
    H(i, i) = k.S[i].dot(F);
    for (int j = tree.parent_dof()[i]; j >= 0; j = tree.parent_dof()[j]) {
      H(i, j) = k.S[j].dot(F);
      H(j, i) = H(i, j);
    }
  }
}

// World position of the body-local point x on body b.
template <class T>
V3<T> point_position(const Kinematics<T>& k, int b, const Vec3& x) {
  return k.p[b] + k.R[b] * x.cast<T>();
}

// Point Jacobian dX/dtheta (3 x n) of the world point X moving with body b (double only).
void point_jacobian(const Tree& tree, const Kinematics<double>& k, int b, const Vec3& X,
                    Eigen::Ref<MatX> J);

}  // namespace moreau::nmdp
