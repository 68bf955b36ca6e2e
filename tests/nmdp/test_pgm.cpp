// The NMDP steppers (Pan & Hauser 2021): projection (9), PGM (Alg. 1), step halving (Alg. 2),
// convergence in dt without contacts, and resting contact under nmdp and mdp, in the
// Newton-Euler and the position-based (eq. 4, 12) forms.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdlib>

#include "moreau/nmdp/stepper.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "support/builtin_scene.hpp"

using namespace moreau;
using namespace moreau::nmdp;

namespace {

using moreau::test::scene;

NmdpSettings with_form(NmdpForm form) {
  NmdpSettings s;
  s.form = form;
  return s;
}

constexpr NmdpForm kForms[] = {NmdpForm::NewtonEuler, NmdpForm::PositionBased};

// The quadruped lowered so that its feet are 5 mm deep, at the start of a 20 ms step.
struct PressedQuadruped {
  Scene sc = scene("quadruped");
  CollisionDetector det{sc.model};
  Stepper st;
  explicit PressedQuadruped(Method method, double h = 0.02, NmdpForm form = NmdpForm::NewtonEuler)
      : st(*Stepper::create(sc.model, with_form(form))) {
    for (int b = 0; b < sc.initial.num_bodies(); ++b) sc.initial.r[b].z() -= 0.015;
    for (int b = 0; b < sc.initial.num_bodies(); ++b) sc.initial.u[b](2) = -0.3;
    CollisionSettings cs;
    cs.margin = 0.02;
    st.begin(method, sc.initial, det.detect(sc.initial, cs));
    st.set_substep(st.theta_minus(), st.qd_minus(), h, h);
  }
};

}  // namespace

TEST(NmdpPgm, ProjectionReachesTheManifoldGEqualsZero) {
  // The zeroth-order projection (11) converges linearly, with a rate that worsens as the dropped
  // stiffness term 3 k d^2 J^T u n^T J grows against H / h^2: a 5 ms step for it.
  for (auto [zo, form] :
       {std::pair{false, kForms[0]}, {true, kForms[0]}, {false, kForms[1]}, {true, kForms[1]}}) {
    const double h = zo ? 0.005 : 0.02;
    PressedQuadruped q(zo ? Method::NmdpZo : Method::Nmdp, h, form);
    const int n = q.st.tree().dofs(), m = q.st.contacts().weights();
    ASSERT_EQ(m, 16);
    VecX w, G, G0, theta;
    q.st.residual(q.st.theta_minus(), VecX::Zero(m), G0, nullptr, false);
    ASSERT_TRUE(q.st.pgm(zo, theta, w));  // sets the tolerance; w: realistic weights
    // Alg. 1, l. 2: the contact-free start from the explicit prediction; l. 7: after a change
    // of the weights (here: PGM's weights scaled by 0.9, from PGM's theta).
    VecX th = q.st.theta_minus() + h * q.st.qd_minus();
    const VecX zero = VecX::Zero(m);
    ASSERT_TRUE(q.st.project(th, zero, zo));
    q.st.residual(th, zero, G, nullptr, false);
    EXPECT_LE(G.lpNorm<Eigen::Infinity>(), q.st.tolerance());
    EXPECT_LT(G.lpNorm<Eigen::Infinity>(), 1e-8 * G0.lpNorm<Eigen::Infinity>());
    th = theta;
    w *= 0.9;
    ASSERT_TRUE(q.st.project(th, w, zo)) << zo << nmdp_form_name(form);
    q.st.residual(th, w, G, nullptr, false);
    EXPECT_LE(G.lpNorm<Eigen::Infinity>(), q.st.tolerance());
    EXPECT_GT((th - theta).norm(), 1e-7);  // the weights moved the manifold
    EXPECT_EQ(th.size(), n);
  }
}

TEST(NmdpPgm, EndsAtAMinimumOfKOverTheFeasibleWeights) {
  // Alg. 1 minimizes K(theta(w)) over the weights w (each contact's in the simplex, eq. 8),
  // theta(w) the projection onto G(., w) = 0: no feasible move of PGM's final weights,
  // re-projected, lowers K by more than a hair. A wrong gradient (sign, dropped term, wrong dG/dw)
  // ends elsewhere, and one of these moves finds a lower K.
  for (NmdpForm form : kForms) {
    PressedQuadruped q(Method::Nmdp, 0.02, form);
    VecX theta, w;
    ASSERT_TRUE(q.st.pgm(false, theta, w));
    const double K = q.st.kinetic(theta, nullptr);
    ASSERT_GT(K, 0.0);
    const int m = q.st.contacts().weights(), nc = q.st.contacts().size(), d = m / nc;
    std::srand(7);
    int moved = 0;
    for (int trial = 0; trial < 24; ++trial) {
      // A random move of 0.02, projected back into each contact's simplex {w >= 0, sum <= 1}.
      VecX w2 = w + 0.02 * VecX::Random(m);
      for (int c = 0; c < nc; ++c) {
        auto seg = w2.segment(c * d, d);
        seg = seg.cwiseMax(0.0);
        if (seg.sum() > 1.0) seg /= seg.sum();
      }
      VecX th = theta;
      if (!q.st.project(th, w2, false)) continue;
      ++moved;
      EXPECT_GE(q.st.kinetic(th, nullptr), K * (1.0 - 1e-4))
          << "trial " << trial << nmdp_form_name(form);
    }
    // The projection reaches the manifold from most moves (19 and 24 of 24 measured); each raised
    // K by 0.09 to 0.9 %.
    EXPECT_GE(moved, 16);
    // The contacts did work: K is well below the free fall's (weights zero).
    VecX th0 = theta;
    ASSERT_TRUE(q.st.project(th0, VecX::Zero(m), false));
    EXPECT_LT(K, 0.5 * q.st.kinetic(th0, nullptr)) << nmdp_form_name(form);
    // The final iterate is on the manifold with feasible weights.
    VecX G;
    q.st.residual(theta, w, G, nullptr, false);
    EXPECT_LE(G.lpNorm<Eigen::Infinity>(), q.st.tolerance());
    EXPECT_GE(w.minCoeff(), -1e-12);
    for (int c = 0; c < q.st.contacts().size(); ++c)
      EXPECT_LE(w.segment(c * d, d).sum(), 1.0 + 1e-9);
  }
}

TEST(NmdpAlgorithm2, HalvesAlphaOnAForcedDivergenceAndStillReachesTheStepEnd) {
  // A projection capped at one Newton step cannot reach tol_G on a 0.2 s step of a swinging
  // pendulum; the halvings of Alg. 2 shrink the sub-steps until one Newton step suffices.
  Scene sc = scene("pendulum", {{"theta0", "1.2"}});
  SimSettings st = sc.settings;
  st.integrator = Integrator::Nmdp;
  st.dt = 0.2;
  st.nmdp.max_projection = 1;
  Simulator sim(sc.model, st);
  State s = sc.initial;
  ASSERT_TRUE(sim.step(s)) << sim.error();
  const StepStats& stats = *sim.nmdp_stats();
  EXPECT_GT(stats.alpha_cuts, 0);
  EXPECT_LT(stats.min_step, 0.2);
  EXPECT_EQ(stats.substeps, stats.alpha_cuts + 1);  // a binary tree of halvings
  EXPECT_DOUBLE_EQ(s.t, 0.2);
  EXPECT_EQ(sim.solution().fallbacks, stats.alpha_cuts);
  // The same end time with the default cap takes one step of 0.2 s, without halving.
  SimSettings big = st;
  big.nmdp.max_projection = 20;
  Simulator sim2(sc.model, big);
  State s2 = sc.initial;
  ASSERT_TRUE(sim2.step(s2));
  EXPECT_EQ(sim2.nmdp_stats()->alpha_cuts, 0);
  // The halved sub-steps are backward-Euler steps of at least min_step: their end state is within
  // a tenth of the big step's first-order error of uniform steps of min_step (measured 1.1e-3 m
  // against 7e-2 m); a halving that only shrank alpha without integrating the halves in turn
  // would not be.
  SimSettings fine = big;
  fine.dt = stats.min_step;
  Simulator sim_fine(sc.model, fine);
  State sf = sc.initial;
  for (int k = 0; k < static_cast<int>(std::lround(0.2 / fine.dt)); ++k)
    ASSERT_TRUE(sim_fine.step(sf)) << sim_fine.error();
  EXPECT_NEAR(sf.t, 0.2, 1e-12);
  EXPECT_LT((s.r[0] - sf.r[0]).norm(), 0.1 * (s2.r[0] - sf.r[0]).norm());
  // Below the minimum alpha dt the run fails with the time and the reason.
  st.nmdp.min_step = 0.15;
  Simulator sim3(sc.model, st);
  State s3 = sc.initial;
  EXPECT_FALSE(sim3.step(s3));
  EXPECT_NE(sim3.error().find("diverged at t = 0"), std::string::npos) << sim3.error();
}

namespace {

// No contacts: nmdp is backward Euler in theta (Newton-Euler form) or its variational twin
// (position-based form, Pan & Hauser 2021 eq. 4: converges to eq. 1 as dt -> 0). Reference:
// RK4 on H qdd + C = 0 at 1e-5 s.
void check_pendulum_converges_at_first_order(NmdpForm form) {
  Scene sc = scene("pendulum", {{"theta0", "0.8"}});
  Result<Tree> tr = Tree::build(sc.model);
  VecX q, qd;
  tr->from_state(sc.initial, q, qd);
  const double T = 0.48;
  auto accel = [&](const VecX& x, const VecX& v) {
    Kinematics<double> k;
    forward_kinematics<double>(*tr, x, k);
    MatX H;
    mass_matrix<double>(*tr, k, H);
    std::vector<V6<double>> f(1, V6<double>::Zero());
    VecX C;
    inverse_dynamics<double>(*tr, k, v, VecX::Zero(x.size()), f, C);
    return VecX(-H.ldlt().solve(C));
  };
  VecX x = q, v = qd;
  const double hr = 1e-5;
  for (int i = 0; i < static_cast<int>(std::lround(T / hr)); ++i) {
    const VecX a1 = accel(x, v), v1 = v;
    const VecX a2 = accel(x + 0.5 * hr * v1, v + 0.5 * hr * a1), v2 = v + 0.5 * hr * a1;
    const VecX a3 = accel(x + 0.5 * hr * v2, v + 0.5 * hr * a2), v3 = v + 0.5 * hr * a2;
    const VecX a4 = accel(x + hr * v3, v + hr * a3), v4 = v + hr * a3;
    x += hr / 6 * (v1 + 2 * v2 + 2 * v3 + v4);
    v += hr / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
  }
  std::vector<double> err;
  for (double dt : {8e-3, 4e-3, 2e-3, 1e-3}) {
    SimSettings st = sc.settings;
    st.integrator = Integrator::Nmdp;
    st.nmdp.form = form;
    st.dt = dt;
    Simulator sim(sc.model, st);
    State s = sc.initial;
    for (int i = 0; i < static_cast<int>(std::lround(T / dt)); ++i) ASSERT_TRUE(sim.step(s));
    VecX qe, qde;
    tr->from_state(s, qe, qde);
    err.push_back(std::abs(qe[0] - x[0]));
  }
  for (size_t i = 1; i < err.size(); ++i) {
    const double order = std::log2(err[i - 1] / err[i]);
    std::printf("nmdp (%s) pendulum: dt %.0e -> %.0e, error %.3e -> %.3e, order %.3f\n",
                nmdp_form_name(form), 8e-3 / (1 << (i - 1)), 8e-3 / (1 << i), err[i - 1], err[i],
                order);
    EXPECT_NEAR(order, 1.0, 0.15);
  }
  EXPECT_LT(err.back(), 1e-2);
}

}  // namespace

TEST(NmdpConvergence, PendulumConvergesToTheExactTrajectoryAtFirstOrder) {
  check_pendulum_converges_at_first_order(NmdpForm::NewtonEuler);
}

TEST(NmdpConvergence, PositionBasedPendulumConvergesToTheExactTrajectoryAtFirstOrder) {
  check_pendulum_converges_at_first_order(NmdpForm::PositionBased);
}

TEST(NmdpContact, BoxRestsOnTheGroundAtPenetrationDeltaWithoutDrift) {
  for (auto [integ, form] : {std::pair{Integrator::Nmdp, kForms[0]},
                             {Integrator::Mdp, kForms[0]},
                             {Integrator::Nmdp, kForms[1]}}) {
    // Placed touching the ground, at rest. The polytope force is bounded by k d^3 and only
    // dissipates (MDP), so the box sinks until 4 k d^3 >= m g, i.e. d >= delta, with a small
    // overshoot from the velocity it has gathered by then; then it stays.
    Scene sc = scene("box-on-plane", {{"drop", "0"}});
    SimSettings st = sc.settings;
    st.integrator = integ;
    st.nmdp.form = form;
    st.dt = 0.01;
    Simulator sim(sc.model, st);
    State s = sc.initial;
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(sim.step(s)) << sim.error();
    const State mid = s;
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(sim.step(s)) << sim.error();
    const double delta = st.nmdp.delta, half = 0.1;
    const double pen = half - s.r[0].z();
    EXPECT_GE(pen, 0.99 * delta) << integrator_name(integ);
    // nmdp: the force at the new depth; mdp: at the old one, so it sinks one step further.
    EXPECT_LE(pen, (integ == Integrator::Nmdp ? 1.4 : 1.8) * delta) << integrator_name(integ);
    EXPECT_LT(s.u[0].norm(), 1e-3) << integrator_name(integ);
    EXPECT_LT((s.r[0] - mid.r[0]).norm(), 1e-4) << integrator_name(integ);
    EXPECT_LT(s.q[0].angularDistance(mid.q[0]), 1e-4) << integrator_name(integ);
    std::printf(
        "%s (%s) box at rest: penetration %.4f m (delta %.4f), |u| %.2e, drift %.2e m in 1 s\n",
        integrator_name(integ), nmdp_form_name(form), pen, delta, s.u[0].norm(),
        (s.r[0] - mid.r[0]).norm());
  }
}

TEST(NmdpSettingsCheck, BadValuesAreErrorsNamingTheField) {
  NmdpSettings s;
  s.delta = -1.0;
  auto e = validate(s);
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message().find("nmdp.delta"), std::string::npos);
  s = NmdpSettings{};
  s.eta = 1.0;
  EXPECT_TRUE(validate(s).has_value());
  s = NmdpSettings{};
  s.directions = 2;
  EXPECT_TRUE(validate(s).has_value());
  EXPECT_FALSE(validate(NmdpSettings{}).has_value());
  Integrator i;
  ASSERT_TRUE(parse_integrator("nmdp-zo", &i));
  EXPECT_EQ(i, Integrator::NmdpZo);
  EXPECT_STREQ(integrator_name(Integrator::Mdp), "mdp");
}

TEST(NmdpSettingsCheck, SceneJsonRoundTripsAndRejectsBadNmdpValues) {
  Scene sc = scene("pendulum");
  sc.settings.integrator = Integrator::NmdpZo;
  sc.settings.nmdp.delta = 0.002;
  sc.settings.nmdp.directions = 6;
  sc.settings.nmdp.form = NmdpForm::PositionBased;
  const std::string text = scene_to_json(sc);
  Result<Scene> back = parse_scene_json(text, "mem.json");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->settings.integrator, Integrator::NmdpZo);
  EXPECT_DOUBLE_EQ(back->settings.nmdp.delta, 0.002);
  EXPECT_EQ(back->settings.nmdp.directions, 6);
  EXPECT_EQ(back->settings.nmdp.form, NmdpForm::PositionBased);
  std::string bad = text;
  const size_t at = bad.find("\"delta\": 0.002");
  ASSERT_NE(at, std::string::npos);
  bad.replace(at, 14, "\"delta\": -1.0");
  Result<Scene> err = parse_scene_json(bad, "mem.json");
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.error().message().find("nmdp.delta"), std::string::npos) << err.error().message();
  std::string bad_form = text;
  const size_t f = bad_form.find("\"form\": \"pbd\"");
  ASSERT_NE(f, std::string::npos) << text;
  bad_form.replace(f, 13, "\"form\": \"lagrange\"");
  Result<Scene> err2 = parse_scene_json(bad_form, "mem.json");
  ASSERT_FALSE(err2.ok());
  const std::string msg = err2.error().message();
  EXPECT_NE(msg.find("nmdp.form"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"pbd\""), std::string::npos) << msg;
  NmdpForm form;
  EXPECT_TRUE(parse_nmdp_form("ne", &form));
  EXPECT_EQ(form, NmdpForm::NewtonEuler);
  EXPECT_FALSE(parse_nmdp_form("PBD", &form));
  // mdp is forward Euler: the position-based form is refused, not ignored.
  sc.settings.integrator = Integrator::Mdp;
  Result<Scene> err3 = parse_scene_json(scene_to_json(sc), "mem.json");
  ASSERT_FALSE(err3.ok());
  EXPECT_NE(err3.error().message().find("nmdp.form: expected \"ne\" with integrator mdp"),
            std::string::npos)
      << err3.error().message();
}

// A step whose PGM stopped at max_outer is kept but reported as not converged, so that `moreau
// simulate` counts it; with room to finish, the same step converges.
TEST(NmdpReport, ASubStepAcceptedAtMaxOuterIsNotConverged) {
  const Scene sc = scene("quadruped");
  for (const int max_outer : {1, 100}) {
    SimSettings st = sc.settings;
    st.integrator = Integrator::Nmdp;
    st.dt = 0.02;
    st.nmdp.max_outer = max_outer;
    Simulator sim(sc.model, st);
    State s = sc.initial;  // landing: 1 cm lower and falling at 0.3 m/s, as PressedQuadruped
    for (int b = 0; b < s.num_bodies(); ++b) s.r[b].z() -= 0.01, s.u[b](2) = -0.3;
    ASSERT_TRUE(sim.step(s)) << sim.error();
    ASSERT_GT(sim.contacts().size(), 0u);  // the feet on the ground: PGM has weights to move
    if (max_outer == 1) {
      EXPECT_EQ(sim.solution().status, SolveStatus::MaxIterations);
      EXPECT_GT(sim.nmdp_stats()->capped, 0);
      EXPECT_NE(sim.solution().message.find("accepted at max_outer"), std::string::npos)
          << sim.solution().message;
    } else {
      EXPECT_EQ(sim.solution().status, SolveStatus::Converged) << sim.solution().message;
      EXPECT_EQ(sim.nmdp_stats()->capped, 0);
    }
  }
}
