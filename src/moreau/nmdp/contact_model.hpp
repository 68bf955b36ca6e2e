#pragma once
// The smooth polytope contact model of Pan & Hauser 2021 (eq. 5, Remarks 6-7): at each contact
// point x the feasible force is f_x = v_x w_x, w_x >= 0, 1^T w_x <= 1, with vertices
//   v_x^i(theta) = k (d(X(x, theta))^3 + zeta delta^3) (n + mu t^i),
//   d = max(0, n . (p_ref - X(x, theta))),
// where X is the contact point moving with its body, p_ref the reference point on the other
// surface (moving with the other body, or fixed in the world), n the world normal toward the
// body and t^i `directions` unit tangents. The points, normals and tangents are fixed within a
// step (the paper's contact points are known within a step, Sec. VII); only d varies with theta.
#include <vector>

#include "moreau/collision/contact.hpp"
#include "moreau/nmdp/dynamics.hpp"

namespace moreau::nmdp {

struct PointContact {
  int body = -1;   // body carrying X
  Vec3 local;      // X in that body's CoM frame
  int other = -1;  // body carrying p_ref, -1 = world
  Vec3 ref;        // p_ref in the other body's CoM frame (world frame when other = -1)
  Vec3 normal;     // world, pointing from the other surface toward `body`
  Vec3 t1, t2;     // tangent basis
  double mu = 0.0;
};

// The value of a scalar (double or an AutoDiffScalar).
inline double value_of(double x) {
  return x;
}
template <class T>
double value_of(const T& x) {
  return x.value();
}

struct ContactModel {
  std::vector<PointContact> points;
  int directions = 4;
  double k = 0.0;       // stiffness [N/m^3]
  double offset = 0.0;  // zeta delta^3 [m^3]: the off-contact force bound (nmdp-zo)

  int size() const { return static_cast<int>(points.size()); }
  int weights() const { return size() * directions; }
  // Unit-normal vertex direction u^i = n + mu t^i of contact c.
  Vec3 direction(int c, int i) const;

  // Contacts of a detection at state s (bodies' poses there); skips world-world pairs.
  void set(const std::vector<Contact>& contacts, const State& s);

  // Penetration d (not clipped) of contact c at the kinematics k.
  template <class T>
  T depth(const Kinematics<T>& kin, int c) const {
    const PointContact& p = points[c];
    const V3<T> X = point_position(kin, p.body, p.local);
    const V3<T> R = p.other >= 0 ? point_position(kin, p.other, p.ref) : V3<T>(p.ref.cast<T>());
    return p.normal.cast<T>().dot(R - X);
  }

  // Vertex scale k (max(0, d)^3 + offset). `frozen`: its theta-derivative is dropped (the
  // zeroth-order Jacobian of eq. 10-11).
  template <class T>
  T scale(const Kinematics<T>& kin, int c, bool frozen) const {
    const T d = depth(kin, c);
    const T dp = value_of(d) > 0.0 ? d : T(0.0);
    const T s = k * (dp * dp * dp + offset);
    return frozen ? T(value_of(s)) : s;
  }

  // Adds the contact forces f_x = v_x w_x as spatial forces at the origin on both bodies.
  template <class T>
  void add_forces(const Kinematics<T>& kin, const VecX& w, bool frozen,
                  std::vector<V6<T>>& f_ext) const {
    for (int c = 0; c < size(); ++c) {
      Vec3 u = Vec3::Zero();
      for (int i = 0; i < directions; ++i) u += w[c * directions + i] * direction(c, i);
      if (u.isZero(0.0)) continue;
      const PointContact& p = points[c];
      const T s = scale(kin, c, frozen);
      const V3<T> f = u.cast<T>() * s;
      const V3<T> X = point_position(kin, p.body, p.local);
      V6<T> F;
      F.template head<3>() = X.cross(f);
      F.template tail<3>() = f;
      f_ext[p.body] += F;
      if (p.other >= 0) f_ext[p.other] -= F;
    }
  }
};

// The automatic stiffness k = m |g| / (expected_contacts delta^3) (|g| = 9.81 m/s^2 without
// gravity): expected_contacts contacts at depth delta carry the weight (docs/integrators.md).
double automatic_stiffness(const Model& m, double delta, int expected_contacts);

}  // namespace moreau::nmdp
