// Closed loops in the nmdp integrators: the spanning tree and its loop joints, c(theta) and its
// Jacobian, the reaction as C^T lambda for every joint type, the projection onto G = 0 and
// c = 0, and the four-bars against moreau's maximal-coordinate simulator as dt -> 0.
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unsupported/Eigen/AutoDiff>

#include "moreau/nmdp/loops.hpp"
#include "moreau/nmdp/stepper.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "support/builtin_scene.hpp"

using namespace moreau;
using namespace moreau::nmdp;

namespace {

using moreau::test::scene;

// The model with joint j's type (and optionally its first DoF's damping) replaced.
Model with_joint(const Model& m, int j, JointType type, double damping = 0.0) {
  ModelBuilder mb(m.name());
  for (const Body& b : m.bodies()) mb.add_body(b);
  for (const Joint& J : m.joints()) mb.add_joint(J);
  for (const Geometry& g : m.geometries()) mb.add_geometry(g);
  mb.joint(j).type = type;
  mb.joint(j).damping[0] = damping;
  Result<Model> r = mb.build();
  EXPECT_TRUE(r.ok()) << r.error().message();
  return *r;
}

using AD = Eigen::AutoDiffScalar<VecX>;

// c(theta) and C = dc/dtheta by automatic differentiation.
void loop_jacobian(const Tree& t, const VecX& theta, VecX& c, MatX& C) {
  const int n = t.dofs();
  VX<AD> th(n), ca;
  for (int i = 0; i < n; ++i) th[i] = AD(theta[i], n, i);
  Kinematics<AD> k;
  forward_kinematics<AD>(t, th, k);
  loop_residual<AD>(t, k, ca);
  c.resize(ca.size());
  C.setZero(ca.size(), n);
  for (int r = 0; r < ca.size(); ++r) {
    c[r] = ca[r].value();
    if (ca[r].derivatives().size() == n) C.row(r) = ca[r].derivatives().transpose();
  }
}

VecX loop_c(const Tree& t, const VecX& theta) {
  Kinematics<double> k;
  forward_kinematics<double>(t, theta, k);
  VecX c;
  loop_residual<double>(t, k, c);
  return c;
}

// The generalized force of the loop reactions at theta: ID(f = 0) - ID(f = loop forces).
VecX reaction(const Tree& t, const VecX& theta, const VecX& lambda) {
  const int n = t.dofs(), nb = t.model().num_bodies();
  Kinematics<double> k;
  forward_kinematics<double>(t, theta, k);
  const VecX zero = VecX::Zero(n);
  std::vector<V6<double>> none(nb, V6<double>::Zero()), f = none;
  const std::vector<bool> all(t.loop_rows(), true);
  VecX c;
  loop_terms<double>(t, k, c, &all, lambda.data(), &f);
  VecX tau0, tau1;
  inverse_dynamics<double>(t, k, zero, zero, none, tau0);
  inverse_dynamics<double>(t, k, zero, zero, f, tau1);
  return tau0 - tau1;
}

constexpr int kGroundHinge = 4;  // fourbar-fixed's joint from the rocker to the ground link

}  // namespace

TEST(NmdpLoops, TheSpanningTreeLeavesTheClosingJointsOut) {
  // fourbar-fixed: the ground link hangs from the world (anchor); ground_hinge makes it the
  // follower a second time and closes the loop. 3 hinge coordinates, 5 loop rows.
  const Scene fixed = scene("fourbar-fixed");
  Result<Tree> t = Tree::build(fixed.model);
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(t->dofs(), 3);
  ASSERT_EQ(t->loops().size(), 1u);
  EXPECT_EQ(fixed.model.joints()[t->loops()[0]].name, "ground_hinge");
  EXPECT_EQ(t->loop_rows(), 5);
  // fourbar-free: a cycle of base/follower relations that never reaches the world, cut at its
  // first body (ground), which gets the implicit free joint: 6 + 3 coordinates.
  const Scene free = scene("fourbar-free");
  Result<Tree> tf = Tree::build(free.model);
  ASSERT_TRUE(tf.ok()) << tf.error().message();
  EXPECT_EQ(tf->dofs(), 9);
  ASSERT_EQ(tf->loops().size(), 1u);
  EXPECT_EQ(free.model.joints()[tf->loops()[0]].name, "ground_hinge");
  EXPECT_EQ(tf->segments().front().body, 0);
  EXPECT_EQ(tf->segments().front().joint, -1);
}

TEST(NmdpLoops, ResidualVanishesOnTheSceneAndItsJacobianMatchesFiniteDifferences) {
  for (const char* name : {"fourbar-fixed", "fourbar-free"}) {
    SCOPED_TRACE(name);
    const Scene sc = scene(name);
    Result<Tree> t = Tree::build(sc.model);
    ASSERT_TRUE(t.ok());
    VecX q, qd;
    t->from_state(sc.initial, q, qd);
    EXPECT_LT(loop_c(*t, q).lpNorm<Eigen::Infinity>(), 1e-14);
    std::srand(3);
    const VecX x = q + 0.3 * VecX::Random(q.size());  // off the loop: c != 0
    VecX c;
    MatX C;
    loop_jacobian(*t, x, c, C);
    EXPECT_GT(c.lpNorm<Eigen::Infinity>(), 1e-3);
    const double e = 1e-6;
    for (int i = 0; i < x.size(); ++i) {
      VecX xp = x, xm = x;
      xp[i] += e;
      xm[i] -= e;
      const VecX fd = (loop_c(*t, xp) - loop_c(*t, xm)) / (2 * e);
      EXPECT_LT((fd - C.col(i)).lpNorm<Eigen::Infinity>(), 1e-9) << "coordinate " << i;
    }
    // A planar loop: 2 of the 5 hinge rows are independent (the in-plane translations).
    Eigen::ColPivHouseholderQR<MatX> qr(C.transpose());
    qr.setThreshold(1e-9);
    MatX C0;
    loop_jacobian(*t, q, c, C0);
    Eigen::ColPivHouseholderQR<MatX> qr0(C0.transpose());
    qr0.setThreshold(1e-9);
    EXPECT_EQ(qr0.rank(), 2);
  }
}

TEST(NmdpLoops, TheReactionIsTheTransposedJacobianForEveryJointType) {
  // The loop's body wrenches (loops.hpp) do the virtual work of C^T lambda: their generalized
  // force equals C(theta)^T lambda at any theta (on or off the loop), for every joint type.
  const Scene sc = scene("fourbar-fixed");
  const JointType types[] = {JointType::Fixed,       JointType::Revolute,  JointType::Prismatic,
                             JointType::Cylindrical, JointType::Universal, JointType::Spherical,
                             JointType::Cartesian};
  const int rows[] = {6, 5, 5, 4, 4, 3, 3};
  for (int k = 0; k < 7; ++k) {
    SCOPED_TRACE(joint_type_name(types[k]));
    const Model m = with_joint(sc.model, kGroundHinge, types[k]);
    Result<Tree> t = Tree::build(m);
    ASSERT_TRUE(t.ok());
    ASSERT_EQ(t->loop_rows(), rows[k]);
    VecX q, qd;
    t->from_state(sc.initial, q, qd);
    EXPECT_LT(loop_c(*t, q).lpNorm<Eigen::Infinity>(), 1e-14);  // the joint frames coincide
    std::srand(7 + k);
    for (int trial = 0; trial < 3; ++trial) {
      const VecX x = q + 0.5 * VecX::Random(q.size());
      const VecX lambda = VecX::Random(rows[k]);
      VecX c;
      MatX C;
      loop_jacobian(*t, x, c, C);
      const VecX CtL = C.transpose() * lambda;
      EXPECT_GT(CtL.lpNorm<Eigen::Infinity>(), 1e-2);
      EXPECT_LT((reaction(*t, x, lambda) - CtL).lpNorm<Eigen::Infinity>(), 1e-13);
    }
  }
}

TEST(NmdpLoops, ProjectionSolvesGAndClosesTheLoop) {
  // One 20 ms step of the swinging four-bar: z = (theta, lambda) with the 2 independent rows;
  // the projection ends with |G| <= tol and |c| <= tol_loop, and the Newton Jacobian of G is
  // the finite-difference one.
  const Scene sc = scene("fourbar-fixed");
  NmdpSettings ns;
  Result<Stepper> st = Stepper::create(sc.model, ns);
  ASSERT_TRUE(st.ok()) << st.error().message();
  st->begin(Method::Nmdp, sc.initial, {});
  EXPECT_EQ(st->unknowns(), 5);
  const double h = 0.02;
  st->set_substep(st->theta_minus(), st->qd_minus(), h, h);
  VecX z, w;
  ASSERT_TRUE(st->pgm(false, z, w));
  ASSERT_EQ(z.size(), 5);
  VecX G;
  st->residual(z, w, G, nullptr, false);
  EXPECT_LE(G.head(3).lpNorm<Eigen::Infinity>(), st->tolerance());
  EXPECT_LE(G.tail(2).lpNorm<Eigen::Infinity>(), ns.tol_loop);
  EXPECT_LE(st->loop_residual_at(z.head(3)).lpNorm<Eigen::Infinity>(), ns.tol_loop);
  // The swing moved the mechanism (so the loop had to be enforced).
  EXPECT_GT((z.head(3) - st->theta_minus()).lpNorm<Eigen::Infinity>(), 1e-3);
  // dG/dz against central differences, off the solution.
  std::srand(5);
  const VecX x = z + 0.05 * VecX::Random(5);
  MatX J;
  st->residual(x, w, G, &J, false);
  const double e = 1e-6;
  for (int i = 0; i < 5; ++i) {
    VecX xp = x, xm = x, Gp, Gm;
    xp[i] += e;
    xm[i] -= e;
    st->residual(xp, w, Gp, nullptr, false);
    st->residual(xm, w, Gm, nullptr, false);
    EXPECT_LT(((Gp - Gm) / (2 * e) - J.col(i)).lpNorm<Eigen::Infinity>(),
              1e-6 * std::max(1.0, J.col(i).lpNorm<Eigen::Infinity>()))
        << "unknown " << i;
  }
}

namespace {

// Max over bodies of the distance between the CoMs of the nmdp run (integrator, form, dt) and of
// the reference at time T, relative to the ground link's.
double four_bar_error(const Scene& sc, Integrator integrator, NmdpForm form, double dt, double T,
                      const State& reference, double* closure) {
  SimSettings st = sc.settings;
  st.integrator = integrator;
  st.nmdp.form = form;
  st.dt = dt;
  Simulator sim(sc.model, st);
  State s = sc.initial;
  Result<Tree> t = Tree::build(sc.model);
  *closure = 0.0;
  for (int i = 0; i < static_cast<int>(std::lround(T / dt)); ++i) {
    EXPECT_TRUE(sim.step(s)) << sim.error();
    VecX q, qd;
    t->from_state(s, q, qd);
    *closure = std::max(*closure, loop_c(*t, q).lpNorm<Eigen::Infinity>());
  }
  // Relative to the ground link: the free four-bar's free fall (the same in every integrator,
  // 0.5 g dt T of backward or forward Euler) would hide the mechanism's motion.
  double e = 0.0;
  for (int b = 1; b < s.num_bodies(); ++b)
    e = std::max(e, ((s.r[b] - s.r[0]) - (reference.r[b] - reference.r[0])).norm());
  return e;
}

}  // namespace

TEST(NmdpLoops, FourBarsConvergeToTheMaximalCoordinateTrajectory) {
  // The four-bar (fixed to the world, and free-floating in gravity) swinging and driven by the
  // crank's torque 2 sin(pi t) N m, 0.3 s: nmdp in both forms and mdp converge at first order in dt
  // to moreau's own maximal-coordinate simulation (Moreau midpoint at 1e-5 s), and keep the loop
  // closed to tol_loop at every step (mdp, at the velocity level, to O(dt^2) per step).
  const double T = 0.3;
  for (const char* name : {"fourbar-fixed", "fourbar-free"}) {
    const Scene sc = scene(name, {{"phi", "0.9"}, {"torque_amplitude", "2"}});
    SimSettings rs = sc.settings;
    rs.integrator = Integrator::MoreauMidpoint;
    rs.dt = 1e-5;
    Simulator ref(sc.model, rs);
    State r = sc.initial;
    for (int i = 0; i < static_cast<int>(std::lround(T / rs.dt)); ++i) ASSERT_TRUE(ref.step(r));
    struct Case {
      Integrator integrator;
      NmdpForm form;
    };
    for (const Case c : {Case{Integrator::Nmdp, NmdpForm::NewtonEuler},
                         Case{Integrator::Nmdp, NmdpForm::PositionBased},
                         Case{Integrator::Mdp, NmdpForm::NewtonEuler}}) {
      SCOPED_TRACE(std::string(name) + " " + integrator_name(c.integrator) + " " +
                   nmdp_form_name(c.form));
      std::vector<double> err;
      for (double dt : {4e-3, 2e-3, 1e-3}) {
        double closure = 0.0;
        err.push_back(four_bar_error(sc, c.integrator, c.form, dt, T, r, &closure));
        EXPECT_LT(closure, c.integrator == Integrator::Mdp ? 1e-6 : 1e-10) << "dt " << dt;
      }
      for (size_t i = 1; i < err.size(); ++i) {
        const double order = std::log2(err[i - 1] / err[i]);
        EXPECT_GT(order, 0.8) << err[i - 1] << " -> " << err[i];
        EXPECT_LT(order, 1.3) << err[i - 1] << " -> " << err[i];
      }
      EXPECT_LT(err.back(), 0.02);
      std::printf("[ loops ] %s %s-%s: error at dt 4, 2, 1 ms: %.3g, %.3g, %.3g m\n", name,
                  integrator_name(c.integrator), nmdp_form_name(c.form), err[0], err[1], err[2]);
    }
  }
}

TEST(NmdpLoops, AnActuatedOrDampedLoopClosingJointIsRefused) {
  const Scene sc = scene("fourbar-fixed");
  const Model m = with_joint(sc.model, kGroundHinge, JointType::Revolute, 0.1);
  Result<Stepper> st = Stepper::create(m, NmdpSettings{});
  ASSERT_FALSE(st.ok());
  const std::string msg = st.error().message();
  EXPECT_NE(msg.find("model 'fourbar-fixed'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("joint 'ground_hinge'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("closes a loop"), std::string::npos) << msg;
}

TEST(NmdpLoops, ALoopThatDuplicatesAFixedJointAddsNoRows) {
  // Two fixed joints from the world to the ground link (as the animatronics mount their torsos):
  // the second is a loop whose rows do not depend on theta (C = 0 up to rounding). No row of it
  // is kept, and the four-bar swings as with one anchor (to 1e-12 m).
  const Scene sc = scene("fourbar-fixed");
  ModelBuilder mb(sc.model.name());
  for (const Body& b : sc.model.bodies()) mb.add_body(b);
  for (const Joint& J : sc.model.joints()) mb.add_joint(J);
  for (const Geometry& g : sc.model.geometries()) mb.add_geometry(g);
  Joint twin = sc.model.joints()[0];
  twin.name = "anchor_twin";
  mb.add_joint(twin);
  Result<Model> m = mb.build();
  ASSERT_TRUE(m.ok()) << m.error().message();
  Result<Stepper> one = Stepper::create(sc.model, NmdpSettings{});
  Result<Stepper> two = Stepper::create(*m, NmdpSettings{});
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_EQ(two->tree().loop_rows(), 11);
  State s1 = sc.initial, s2 = sc.initial;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(one->step(Method::Nmdp, s1, {}, 0.01)) << one->error();
    ASSERT_TRUE(two->step(Method::Nmdp, s2, {}, 0.01)) << two->error();
    EXPECT_EQ(two->unknowns(), 5);  // 3 coordinates, 2 rows of ground_hinge
  }
  for (int b = 0; b < s1.num_bodies(); ++b) EXPECT_LT((s1.r[b] - s2.r[b]).norm(), 1e-12);
  EXPECT_GT((s1.r[1] - sc.initial.r[1]).norm(), 1e-2);  // it swung
}
