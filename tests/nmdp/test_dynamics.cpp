// Generalized-coordinate dynamics of the nmdp room: coordinates <-> State, RNEA against CRBA and
// against moreau's maximal-coordinate simulator, automatic derivatives against finite
// differences.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <cstdlib>
#include <unsupported/Eigen/AutoDiff>

#include "moreau/collision/contact.hpp"
#include "moreau/nmdp/dynamics.hpp"
#include "moreau/nmdp/stepper.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "support/builtin_scene.hpp"

using namespace moreau;
using namespace moreau::nmdp;

namespace {

using moreau::test::scene;

VecX inverse_dynamics_of(const Tree& t, const VecX& q, const VecX& qd, const VecX& qdd) {
  Kinematics<double> k;
  forward_kinematics<double>(t, q, k);
  std::vector<V6<double>> f(t.model().num_bodies(), V6<double>::Zero());
  VecX tau;
  inverse_dynamics<double>(t, k, qd, qdd, f, tau);
  return tau;
}

MatX mass_of(const Tree& t, const VecX& q) {
  Kinematics<double> k;
  forward_kinematics<double>(t, q, k);
  MatX H;
  mass_matrix<double>(t, k, H);
  return H;
}

}  // namespace

TEST(NmdpTree, CoordinatesRoundTripThroughTheState) {
  // Quadruped (free root + 12 hinges) and nunchuk (free bodies and their joints): State -> theta
  // -> State reproduces poses and twists (the charts restart at the new orientation).
  for (const char* name : {"quadruped", "nunchuk", "chain"}) {
    Scene sc = scene(name, std::string(name) == "chain" ? SceneParams{{"n", "3"}} : SceneParams{});
    Result<Tree> t = Tree::build(sc.model);
    ASSERT_TRUE(t.ok()) << t.error().message();
    VecX q, qd;
    t->from_state(sc.initial, q, qd);
    State s = sc.initial;
    std::srand(1);
    const VecX qd_set = VecX::Random(t->dofs());
    const VecX q_set = q + 0.1 * VecX::Random(t->dofs());
    t->to_state(q_set, qd_set, s);
    VecX q2, qd2;
    t->from_state(s, q2, qd2);
    // Chart angles restart at 0: compare through the state instead of theta.
    State s2 = s;
    t->to_state(q2, qd2, s2);
    for (int b = 0; b < s.num_bodies(); ++b) {
      EXPECT_LT((s.r[b] - s2.r[b]).norm(), 1e-12) << name;
      EXPECT_LT(s.q[b].angularDistance(s2.q[b]), 1e-12) << name;
    }
    for (int b = 0; b < s.num_bodies(); ++b) EXPECT_LT((s.u[b] - s2.u[b]).norm(), 1e-9) << name;
  }
}

TEST(NmdpDynamics, RneaColumnsEqualTheCrbaMassMatrix) {
  // ID(q, 0, e_i) - ID(q, 0, 0) = H e_i with H from CRBA (Featherstone ch. 5-6), and H = H^T > 0.
  Scene sc = scene("quadruped");
  Result<Tree> t = Tree::build(sc.model);
  ASSERT_TRUE(t.ok());
  const int n = t->dofs();
  ASSERT_EQ(n, 18);
  VecX q, qd;
  t->from_state(sc.initial, q, qd);
  std::srand(3);
  q += 0.3 * VecX::Random(n);
  const MatX H = mass_of(*t, q);
  const VecX z = VecX::Zero(n), g = inverse_dynamics_of(*t, q, z, z);
  for (int i = 0; i < n; ++i) {
    const VecX col = inverse_dynamics_of(*t, q, z, VecX::Unit(n, i)) - g;
    EXPECT_LT((col - H.col(i)).lpNorm<Eigen::Infinity>(), 1e-12 * H.norm()) << i;
  }
  EXPECT_LT((H - H.transpose()).norm(), 1e-12 * H.norm());
  EXPECT_GT(H.ldlt().vectorD().minCoeff(), 0.0);
  // Kinetic energy 1/2 qd^T H qd from the body sum.
  const VecX v = VecX::Random(n);
  Kinematics<double> k;
  forward_kinematics<double>(*t, q, k);
  EXPECT_NEAR(kinetic_energy<double>(*t, k, v), 0.5 * v.dot(H * v), 1e-12 * v.dot(H * v));
}

TEST(NmdpDynamics, MassMatrixDerivativeByAutoDiffMatchesFiniteDifferences) {
  // dH/dtheta from forward-mode AD through CRBA against central differences.
  using AD = Eigen::AutoDiffScalar<VecX>;
  Scene sc = scene("quadruped");
  Result<Tree> t = Tree::build(sc.model);
  const int n = t->dofs();
  VecX q, qd;
  t->from_state(sc.initial, q, qd);
  std::srand(5);
  q += 0.3 * VecX::Random(n);
  VX<AD> qa(n);
  for (int i = 0; i < n; ++i) qa[i] = AD(q[i], n, i);
  Kinematics<AD> k;
  forward_kinematics<AD>(*t, qa, k);
  Eigen::Matrix<AD, Eigen::Dynamic, Eigen::Dynamic> Ha;
  mass_matrix<AD>(*t, k, Ha);
  double worst = 0.0, scale = 0.0;
  const double h = 1e-6;
  for (int i = 0; i < n; ++i) {
    const MatX fd =
        (mass_of(*t, q + h * VecX::Unit(n, i)) - mass_of(*t, q - h * VecX::Unit(n, i))) / (2 * h);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const double ad = Ha(r, c).derivatives().size() ? Ha(r, c).derivatives()[i] : 0.0;
        worst = std::max(worst, std::abs(ad - fd(r, c)));
        scale = std::max(scale, std::abs(ad));
      }
  }
  EXPECT_GT(scale, 0.1);
  EXPECT_LT(worst, 1e-7 * scale);
}

TEST(NmdpDynamics, PendulumAccelerationMatchesMoreausSimulator) {
  // One tiny semi-implicit Euler step of moreau's maximal-coordinate NCP simulator gives the
  // angular acceleration; RNEA/CRBA gives qdd = -H^-1 C. Same within the step's O(dt) error.
  for (const char* name : {"pendulum", "chain"}) {
    Scene sc = scene(name, std::string(name) == "chain" ? SceneParams{{"n", "2"}} : SceneParams{});
    Result<Tree> t = Tree::build(sc.model);
    VecX q, qd;
    t->from_state(sc.initial, q, qd);
    const int n = t->dofs();
    const VecX qdd = -mass_of(*t, q).ldlt().solve(inverse_dynamics_of(*t, q, qd, VecX::Zero(n)));
    SimSettings st = sc.settings;
    st.dt = 1e-5;
    st.solver = "direct";
    Simulator sim(sc.model, st);
    State s = sc.initial;
    ASSERT_TRUE(sim.step(s)) << sim.error();
    VecX q1, qd1;
    t->from_state(s, q1, qd1);
    const VecX acc = (qd1 - qd) / st.dt;
    EXPECT_LT((acc - qdd).norm(), 1e-3 * qdd.norm())
        << name << " " << acc.transpose() << " vs " << qdd.transpose();
  }
}

namespace {

// J: dG/dtheta at the test's point.
void check_residual_jacobian(NmdpForm form, MatX& J, double h_step = 0.01) {
  Scene sc = scene("quadruped");
  for (int b = 0; b < sc.initial.num_bodies(); ++b) sc.initial.r[b].z() -= 0.025;
  NmdpSettings settings;
  settings.form = form;
  Result<Stepper> st = Stepper::create(sc.model, settings);
  ASSERT_TRUE(st.ok()) << st.error().message();
  CollisionDetector det(sc.model);
  CollisionSettings cs;
  cs.margin = 0.02;
  const std::vector<Contact>& contacts = det.detect(sc.initial, cs);
  st->begin(Method::Nmdp, sc.initial, contacts);
  const ContactModel& cm = st->contacts();
  ASSERT_EQ(cm.size(), 4);
  const int n = st->tree().dofs(), m = cm.weights();
  st->set_substep(st->theta_minus(), st->qd_minus(), h_step, h_step);
  std::srand(7);
  VecX w = 0.2 * (VecX::Random(m).array() + 1.0).matrix() / cm.directions;
  // theta - theta_- = h qd with a fixed random rate qd: the state does not change with h.
  VecX theta = st->theta_minus() + h_step * VecX::Random(n);
  VecX G, Gp, Gm;
  MatX Jzo;
  st->residual(theta, w, G, &J, false);
  st->residual(theta, w, G, &Jzo, true);
  const double h = 1e-6;
  MatX fd(n, n);
  for (int i = 0; i < n; ++i) {
    st->residual(theta + h * VecX::Unit(n, i), w, Gp, nullptr, false);
    st->residual(theta - h * VecX::Unit(n, i), w, Gm, nullptr, false);
    fd.col(i) = (Gp - Gm) / (2 * h);
  }
  const double err = (J - fd).lpNorm<Eigen::Infinity>() / J.lpNorm<Eigen::Infinity>();
  EXPECT_LT(err, 1e-7) << nmdp_form_name(form);
  testing::Test::RecordProperty(std::string("fd_relative_error_") + nmdp_form_name(form),
                                std::to_string(err));
  std::printf("first-order dG/dtheta (%s) vs central differences: relative error %.3e\n",
              nmdp_form_name(form), err);

  Kinematics<double> k;
  forward_kinematics<double>(st->tree(), theta, k);
  MatX dropped = MatX::Zero(n, n), Jx(3, n);
  int active = 0;
  for (int c = 0; c < cm.size(); ++c) {
    const PointContact& p = cm.points[c];
    const double d = cm.depth<double>(k, c);
    if (d <= 0.0) continue;
    ++active;
    const Vec3 X = point_position(k, p.body, p.local);
    point_jacobian(st->tree(), k, p.body, X, Jx);
    Vec3 u = Vec3::Zero();
    for (int i = 0; i < cm.directions; ++i) u += w[c * cm.directions + i] * cm.direction(c, i);
    const VecX ds = -3.0 * cm.k * d * d * (Jx.transpose() * p.normal);
    dropped -= (Jx.transpose() * u) * ds.transpose();
  }
  EXPECT_EQ(active, 4);
  EXPECT_GT(dropped.lpNorm<Eigen::Infinity>(), 1.0);
  EXPECT_LT((J - Jzo - dropped).lpNorm<Eigen::Infinity>(),
            1e-10 * dropped.lpNorm<Eigen::Infinity>())
      << nmdp_form_name(form);
}

}  // namespace

TEST(NmdpDynamics, ResidualJacobianMatchesFiniteDifferencesAndZerothOrderDropsExactlyDvDtheta) {
  // The quadruped pressed 1 cm into the ground with random weights: dG/dtheta by AD against
  // central differences, and dG/dtheta - dGbar/dtheta = sum_x J_x^T u_x (ds_x/dtheta)^T with
  // s_x = k d^3, ds/dtheta = -3 k d^2 n^T J_x (eq. 10's dropped term). In both forms of G: the
  // position-based one's dG/dtheta holds the Hessian of I_alpha (eq. 4).
  // Distinct forms with the same leading term H / h^2 (I_alpha's Hessian is integral rho J^T J
  // / h^2 = H / h^2 plus terms that vanish with h): at the same rates, their relative difference
  // shrinks with h.
  double diff[2];
  for (int i = 0; i < 2; ++i) {
    const double h = 0.01 / (1 << i);
    MatX ne, pbd;
    check_residual_jacobian(NmdpForm::NewtonEuler, ne, h);
    check_residual_jacobian(NmdpForm::PositionBased, pbd, h);
    diff[i] = (ne - pbd).lpNorm<Eigen::Infinity>() / ne.lpNorm<Eigen::Infinity>();
    std::printf("dG/dtheta at h = %g: NE vs PBD relative difference %.3e\n", h, diff[i]);
  }
  EXPECT_GT(diff[1], 0.0);
  EXPECT_LT(diff[1], 0.7 * diff[0]);
}
