// The position-based form of the NMDP integrators (Pan & Hauser 2021, eq. 4 and 12): the
// per-body closed form of the integral over the robot, and the gradient and Hessian of I_alpha.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unsupported/Eigen/AutoDiff>

#include "moreau/model/primitives.hpp"
#include "moreau/nmdp/pbd.hpp"
#include "moreau/scenes/builtin.hpp"
#include "support/builtin_scene.hpp"

using namespace moreau;
using namespace moreau::nmdp;

namespace {

using moreau::test::scene;

// Point masses (m_i, x_i) with their CoM at the origin; the inertia about the CoM.
struct PointCloud {
  std::vector<double> m;
  std::vector<Vec3> x;
  Mat3 inertia() const {
    Mat3 I = Mat3::Zero();
    for (size_t i = 0; i < m.size(); ++i)
      I += m[i] * (x[i].squaredNorm() * Mat3::Identity() - x[i] * x[i].transpose());
    return I;
  }
  Mat3 second_moment() const {
    Mat3 S = Mat3::Zero();
    for (size_t i = 0; i < m.size(); ++i) S += m[i] * x[i] * x[i].transpose();
    return S;
  }
  double sum(const Mat3& D, const Vec3& e) const {
    double s = 0.0;
    for (size_t i = 0; i < m.size(); ++i) s += m[i] * (D * x[i] + e).squaredNorm();
    return s;
  }
};

// The 8 points (+-s a_x, +-s a_y, +-s a_z), each of mass total / 8.
PointCloud box_points(double total, const Vec3& a, double s) {
  PointCloud c;
  for (int k = 0; k < 8; ++k) {
    c.m.push_back(total / 8.0);
    c.x.push_back(
        s * Vec3((k & 1 ? 1 : -1) * a.x(), (k & 2 ? 1 : -1) * a.y(), (k & 4 ? 1 : -1) * a.z()));
  }
  return c;
}

}  // namespace

TEST(NmdpPbd, PerBodyIntegralEqualsPointMassSumsWithTheBodysSecondMoment) {
  // integral rho |D x + e|^2 = tr(D Sigma D^T) + m |e|^2 with Sigma = 1/2 tr(I_c) 1 - I_c about
  // the CoM, for any 3x3 D (I_alpha's D = R - 2 R_- + R_-- is no rotation). Exact for any rigid
  // mass distribution, so it must equal the sum over point masses with the same inertia:
  //  - 8 equal masses at a box's corners (Sigma = m diag(a^2));
  //  - moreau's solid box (box_body): the 2-point Gauss-Legendre rule per axis (points at
  //    +-a / sqrt(3), equal weights) integrates the quadratic integrand exactly;
  //  - 20 random masses about their centroid.
  const Vec3 a(0.3, 0.12, 0.05);
  const double m = 2.5;
  std::vector<std::pair<std::string, PointCloud>> cases;
  cases.push_back({"corners", box_points(m, a, 1.0)});
  cases.push_back({"solid box", box_points(m, a, 1.0 / std::sqrt(3.0))});
  std::srand(13);
  PointCloud cloud;
  Vec3 centroid = Vec3::Zero();
  double total = 0.0;
  for (int i = 0; i < 20; ++i) {
    cloud.m.push_back(0.1 + 0.05 * (i % 7));
    cloud.x.push_back(Vec3::Random().cwiseProduct(Vec3(0.4, 0.2, 0.1)));
    centroid += cloud.m.back() * cloud.x.back();
    total += cloud.m.back();
  }
  for (Vec3& x : cloud.x) x -= centroid / total;
  cases.push_back({"random cloud", cloud});
  double worst = 0.0;
  for (const auto& [name, pts] : cases) {
    Body b;
    b.mass = 0.0;
    for (double mi : pts.m) b.mass += mi;
    b.inertia = name == "solid box" ? box_body("box", m, a).inertia : pts.inertia();
    const Mat3 sigma = second_moment(b);
    EXPECT_LT((sigma - pts.second_moment()).norm(), 1e-14 * sigma.norm()) << name;
    for (int r = 0; r < 5; ++r) {
      const Mat3 D = Mat3::Random();
      const Vec3 e = Vec3::Random();
      const double closed = body_integral<double>(D, e, b.mass, sigma), sum = pts.sum(D, e);
      worst = std::max(worst, std::abs(closed - sum) / sum);
      EXPECT_NEAR(closed, sum, 1e-13 * sum) << name;
    }
  }
  std::printf("per-body integral vs point-mass sums: worst relative difference %.2e\n", worst);
}

TEST(NmdpPbd, GradientAndHessianOfTheInertialIntegralMatchFiniteDifferences) {
  // The quadruped (free root + 12 hinges, 18 coordinates) with random theta_-, theta_-- and
  // theta: E(theta) = 1/2 integral rho |X(theta) - 2 X(theta_-) + X(theta_--)|^2 - sum_b m_b g.p_b
  // (alpha dt^2 I_alpha plus gravity's potential). The analytic gradient against central
  // differences of E, its Hessian (AD of the analytic gradient) against central differences of
  // the gradient; the Hessian is symmetric, and equals the CRBA mass matrix where X = Y without
  // gravity (integral rho J^T J = H, the matrix of A5.2).
  using AD = Eigen::AutoDiffScalar<VecX>;
  Scene sc = scene("quadruped");
  Result<Tree> t = Tree::build(sc.model);
  ASSERT_TRUE(t.ok());
  const Model& model = sc.model;
  const int n = t->dofs(), nb = model.num_bodies();
  ASSERT_EQ(n, 18);
  std::vector<Mat3> sigma;
  for (const Body& b : model.bodies()) sigma.push_back(second_moment(b));
  VecX q0, qd0;
  t->from_state(sc.initial, q0, qd0);
  std::srand(11);
  const VecX qm = q0 + 0.3 * VecX::Random(n);
  const VecX qmm = qm - 0.05 * VecX::Random(n);
  const VecX q = qm + 0.05 * VecX::Random(n);
  Kinematics<double> km, kmm;
  forward_kinematics<double>(*t, qm, km);
  forward_kinematics<double>(*t, qmm, kmm);
  AffineTargets y;
  affine_targets(km, kmm, 1.0, y);
  const Vec3 g = model.gravity();
  const std::vector<V6<double>> none(nb, V6<double>::Zero());
  auto energy = [&](const VecX& x) {
    Kinematics<double> k;
    forward_kinematics<double>(*t, x, k);
    double e = pbd_energy<double>(*t, k, sigma, y);
    for (int b = 0; b < nb; ++b) e -= model.bodies()[b].mass * g.dot(k.p[b]);
    return e;
  };
  auto gradient = [&](const VecX& x, const Vec3& grav, const AffineTargets& tg) {
    Kinematics<double> k;
    forward_kinematics<double>(*t, x, k);
    VecX G;
    pbd_gradient<double>(*t, k, sigma, tg, 1.0, grav, none, G);
    return G;
  };
  auto hessian = [&](const VecX& x, const Vec3& grav, const AffineTargets& tg) {
    VX<AD> xa(n);
    for (int i = 0; i < n; ++i) xa[i] = AD(x[i], n, i);
    Kinematics<AD> k;
    forward_kinematics<AD>(*t, xa, k);
    VX<AD> G;
    pbd_gradient<AD>(*t, k, sigma, tg, 1.0, grav, std::vector<V6<AD>>(nb, V6<AD>::Zero()), G);
    MatX Hs = MatX::Zero(n, n);
    for (int i = 0; i < n; ++i)
      if (G[i].derivatives().size() == n) Hs.row(i) = G[i].derivatives().transpose();
    return Hs;
  };
  const double eps = 1e-6;
  const VecX G = gradient(q, g, y);
  VecX fd(n);
  for (int i = 0; i < n; ++i)
    fd[i] = (energy(q + eps * VecX::Unit(n, i)) - energy(q - eps * VecX::Unit(n, i))) / (2 * eps);
  const double gerr = (G - fd).lpNorm<Eigen::Infinity>() / G.lpNorm<Eigen::Infinity>();
  EXPECT_LT(gerr, 1e-7);

  const MatX Hs = hessian(q, g, y);
  MatX Hfd(n, n);
  for (int i = 0; i < n; ++i)
    Hfd.col(i) =
        (gradient(q + eps * VecX::Unit(n, i), g, y) - gradient(q - eps * VecX::Unit(n, i), g, y)) /
        (2 * eps);
  const double herr = (Hs - Hfd).lpNorm<Eigen::Infinity>() / Hs.lpNorm<Eigen::Infinity>();
  EXPECT_LT(herr, 1e-7);
  const double asym =
      (Hs - Hs.transpose()).lpNorm<Eigen::Infinity>() / Hs.lpNorm<Eigen::Infinity>();
  EXPECT_LT(asym, 1e-12);

  Kinematics<double> kq;
  forward_kinematics<double>(*t, q, kq);
  AffineTargets at_q;
  affine_targets(kq, kq, 0.0, at_q);
  MatX H;
  mass_matrix<double>(*t, kq, H);
  const MatX Hq = hessian(q, Vec3::Zero(), at_q);
  const double herr_mass = (Hq - H).lpNorm<Eigen::Infinity>() / H.lpNorm<Eigen::Infinity>();
  EXPECT_LT(herr_mass, 1e-12);
  EXPECT_LT(gradient(q, Vec3::Zero(), at_q).lpNorm<Eigen::Infinity>(), 1e-14);
  std::printf(
      "pbd I_alpha: gradient vs central differences %.2e, Hessian %.2e, asymmetry %.1e, "
      "Hessian at X = Y vs CRBA %.1e (relative, inf-norm)\n",
      gerr, herr, asym, herr_mass);
}
