#include "moreau/nmdp/contact_model.hpp"

#include <cmath>

#include "moreau/math/so3.hpp"

namespace moreau::nmdp {

Vec3 ContactModel::direction(int c, int i) const {
  const PointContact& p = points[c];
  const double phi = 2.0 * M_PI * i / directions;
  return p.normal + p.mu * (std::cos(phi) * p.t1 + std::sin(phi) * p.t2);
}

void ContactModel::set(const std::vector<Contact>& contacts, const State& s) {
  points.clear();
  for (const Contact& c : contacts) {
    if (c.body[0] < 0 && c.body[1] < 0) continue;
    PointContact p;
    // moreau's normal points from A to B, r_B = r_A + gap n (collision/contact.hpp). The point
    // X sits on B when B is a body (normal n toward B), else on A (normal -n toward A).
    const Vec3 rA = c.point, rB = c.point + c.gap * c.normal;
    int on = 1;
    if (c.body[1] < 0) on = 0;
    p.body = c.body[on];
    p.other = c.body[1 - on];
    p.normal = on == 1 ? c.normal : Vec3(-c.normal);
    const Vec3 X = on == 1 ? rB : rA, R = on == 1 ? rA : rB;
    p.local = s.pose(p.body).inverse() * X;
    p.ref = p.other >= 0 ? s.pose(p.other).inverse() * R : R;
    const Mat3 F = frame_from_normal(p.normal);
    p.t1 = F.col(0);
    p.t2 = F.col(1);
    p.mu = c.mu;
    points.push_back(p);
  }
}

double automatic_stiffness(const Model& m, double delta, int expected_contacts) {
  double g = m.gravity().norm();
  if (!(g > 0.0)) g = 9.81;
  return m.total_mass() * g / (expected_contacts * delta * delta * delta);
}

}  // namespace moreau::nmdp
