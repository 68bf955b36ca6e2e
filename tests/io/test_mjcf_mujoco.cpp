// Optional: the same MJCF file in MuJoCo (Debian's libmujoco-dev, loaded at run time with dlopen)
// and in moreau: body count, total mass, DoFs and a contact-free trajectory. Skips cleanly when
// MuJoCo's header or library is absent.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include <Eigen/Eigenvalues>

#include "io/io_helpers.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/sim/simulator.hpp"

#include "support/mujoco_dl.hpp"

namespace moreau {
namespace {

#ifdef MOREAU_TEST_MUJOCO

using io_test::kData;

using test::MuJoCo;

// qpos of the chain (ja, jb1, jb2, jc) at t = 0.1, 0.2, ..., 0.5 s.
using Samples = std::vector<std::array<double, 4>>;

Samples moreau_run(Scene sc, double dt, Integrator integ) {
  sc.settings.dt = dt;
  sc.settings.solver = "direct";
  sc.settings.integrator = integ;
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  Samples out;
  const int per = static_cast<int>(std::lround(0.1 / dt));
  for (int i = 1; i <= 5 * per; ++i) {
    EXPECT_TRUE(sim.step(s)) << sim.error();
    if (i % per) continue;
    std::array<double, 4> q{};
    double qd;
    joint_dof_state(sc.model.joints()[0], s, 0, &q[0], &qd);
    joint_dof_state(sc.model.joints()[1], s, 0, &q[1], &qd);
    joint_dof_state(sc.model.joints()[1], s, 1, &q[2], &qd);
    joint_dof_state(sc.model.joints()[2], s, 0, &q[3], &qd);
    out.push_back(q);
  }
  return out;
}

double max_diff(const Samples& a, const Samples& b) {
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    for (int k = 0; k < 4; ++k)
      d = std::max(d, std::abs(a[i][k] - b[i][k]) / std::max(1.0, std::abs(b[i][k])));
  return d;
}

TEST(MjcfMuJoCo, SameModelSameMotion) {
  MuJoCo mj;
  if (!mj.open()) GTEST_SKIP() << "libmujoco (Debian libmujoco-dev) is not installed";
  const std::string path = kData + "chain.xml";
  char err[1000] = "";
  mjModel* m = mj.load(path.c_str(), nullptr, err, sizeof err);
  ASSERT_NE(m, nullptr) << err;
  Result<ImportedModel> r = import_mjcf_file(path);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& mm = r->scene.model;
  EXPECT_EQ(mm.num_bodies(), m->nbody - 1);  // MuJoCo counts the world body
  double mass = 0.0;
  for (int i = 1; i < m->nbody; ++i) mass += m->body_mass[i];
  EXPECT_NEAR(mm.total_mass(), mass, 1e-12 * mass);
  EXPECT_EQ(6 * mm.num_bodies() - mm.joint_rows(), m->nv);
  for (int i = 1; i < m->nbody; ++i)  // principal moments agree
    for (int k = 0; k < 3; ++k) {
      Eigen::SelfAdjointEigenSolver<Mat3> es(mm.bodies()[i - 1].inertia);
      std::array<double, 3> a{m->body_inertia[3 * i], m->body_inertia[3 * i + 1],
                              m->body_inertia[3 * i + 2]};
      std::sort(a.begin(), a.end());
      EXPECT_NEAR(es.eigenvalues()[k], a[k], 1e-12 * a[2]) << "body " << i;
    }
  // MuJoCo with RK4 at dt = 1e-4 is the reference (its error is far below 1e-9 here).
  m->opt.integrator = mjINT_RK4;
  m->opt.timestep = 1e-4;
  mjData* d = mj.make_data(m);
  mj.reset_key(m, d, 0);
  Samples ref;
  for (int i = 1; i <= 5000; ++i) {
    mj.step(m, d);
    if (i % 1000 == 0) ref.push_back({d->qpos[0], d->qpos[1], d->qpos[2], d->qpos[3]});
  }
  mj.delete_data(d);
  mj.delete_model(m);
  // moreau's time stepping is first order in dt with a smooth error expansion: Richardson
  // extrapolation over dt, dt/2, dt/4 cancels the O(dt) and O(dt^2) terms, leaving both programs'
  // solutions of the same ODE (same masses, inertias, frames and gravity) to compare.
  auto richardson = [](const Samples& a, const Samples& b) {  // 2 b - a (first order), per entry
    Samples x = b;
    for (size_t i = 0; i < b.size(); ++i)
      for (int k = 0; k < 4; ++k) x[i][k] = 2.0 * b[i][k] - a[i][k];
    return x;
  };
  const double h = 4e-4;
  const Samples s1 = moreau_run(r->scene, h, Integrator::SemiImplicitEuler);
  const Samples s2 = moreau_run(r->scene, h / 2, Integrator::SemiImplicitEuler);
  const Samples s4 = moreau_run(r->scene, h / 4, Integrator::SemiImplicitEuler);
  const Samples r12 = richardson(s1, s2), r24 = richardson(s2, s4);
  Samples r3 = r24;  // second level: (4 r24 - r12) / 3
  for (size_t i = 0; i < r3.size(); ++i)
    for (int k = 0; k < 4; ++k) r3[i][k] = (4.0 * r24[i][k] - r12[i][k]) / 3.0;
  const double e1 = max_diff(s4, ref), e2 = max_diff(r24, ref), e3 = max_diff(r3, ref);
  std::printf(
      "moreau vs MuJoCo (max relative joint-angle difference over 0.5 s): dt/4 %.3e, "
      "first Richardson %.3e, second %.3e\n",
      e1, e2, e3);
  EXPECT_LT(e2, e1 / 10.0);  // the difference is the O(dt) discretization error, nothing else
  EXPECT_LT(e3, 1e-6);
}

// The knee, ankle pitch and ankle roll angles of damped_ankle.xml after `steps` steps of moreau.
std::array<double, 3> ankle_angles(const ImportOptions& opt, int steps) {
  Result<ImportedModel> r = import_mjcf_file(kData + "damped_ankle.xml", opt);
  if (!r.ok()) {
    ADD_FAILURE() << r.error().message();
    return {};
  }
  const Scene& sc = r->scene;
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int i = 0; i < steps; ++i) EXPECT_TRUE(sim.step(s)) << sim.error();
  std::array<double, 3> q{};
  double qd;
  for (int k = 0; k < 3; ++k) joint_dof_state(sc.model.joints()[k], s, 0, &q[k], &qd);
  return q;
}

// A G1-like ankle (a 0.074 kg link between two hinges, armature 0.01 and damping 0.05 on each) in
// MuJoCo's semi-implicit Euler, which integrates the damping implicitly in joint space: moreau's
// armature rows (the default) hold the rotors' joint-space inertia and the damping exactly and
// follow it at the same dt; armature=inertia (the armature as body inertia, the damping per DoF
// with free bodies) does not (docs/model-import.md, "Armature").
TEST(MjcfMuJoCo, ArmatureRowsFollowMuJoCosJointSpaceRotorInertiaAndDamping) {
  MuJoCo mj;
  if (!mj.open()) GTEST_SKIP() << "libmujoco (Debian libmujoco-dev) is not installed";
  const std::string path = kData + "damped_ankle.xml";
  char err[1000] = "";
  mjModel* m = mj.load(path.c_str(), nullptr, err, sizeof err);
  ASSERT_NE(m, nullptr) << err;
  mjData* d = mj.make_data(m);
  mj.reset_key(m, d, 0);
  const int steps = 50;  // 0.1 s at the file's 2 ms
  for (int i = 0; i < steps; ++i) mj.step(m, d);
  const std::array<double, 3> ref{d->qpos[0], d->qpos[1], d->qpos[2]};
  const std::array<double, 3> start{0.4, -0.3, 0.25};  // the file's keyframe
  mj.delete_data(d);
  mj.delete_model(m);
  ImportOptions folding;
  folding.armature_rows = false;
  const std::array<double, 3> exact = ankle_angles(ImportOptions{}, steps);
  const std::array<double, 3> folded = ankle_angles(folding, steps);
  double err_rows = 0.0, err_folded = 0.0, moved = 0.0;
  for (int k = 0; k < 3; ++k) {
    err_rows = std::max(err_rows, std::abs(exact[k] - ref[k]));
    err_folded = std::max(err_folded, std::abs(folded[k] - ref[k]));
    moved = std::max(moved, std::abs(ref[k] - start[k]));
  }
  std::printf(
      "after 0.1 s: MuJoCo moved up to %.3f rad; moreau off by %.2e (rows), %.2e (folded)\n", moved,
      err_rows, err_folded);
  EXPECT_GT(moved, 0.05);
  EXPECT_LT(err_rows, 1e-4);
  EXPECT_GT(err_folded, 20.0 * err_rows);
}

// The ball's orientation (w, x, y, z) in damped_ball.xml after `steps` steps of moreau (the link
// is the world's child: its quaternion is MuJoCo's qpos).
Eigen::Vector4d ball_quat(const ImportOptions& opt, int steps) {
  Result<ImportedModel> r = import_mjcf_file(kData + "damped_ball.xml", opt);
  if (!r.ok()) {
    ADD_FAILURE() << r.error().message();
    return Eigen::Vector4d::Zero();
  }
  const Scene& sc = r->scene;
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int i = 0; i < steps; ++i) EXPECT_TRUE(sim.step(s)) << sim.error();
  const Quat& q = s.q[0];
  return q.w() >= 0.0 ? Eigen::Vector4d(q.w(), q.x(), q.y(), q.z())
                      : Eigen::Vector4d(-q.w(), -q.x(), -q.y(), -q.z());
}

// A ball joint's armature a is a rotor inertia a I on its three DoFs (MuJoCo: on the diagonal of
// M), its damping implicit in joint space: the rows follow MuJoCo's swinging link at the same dt,
// and the same link without them (armature=inertia, which ignores a ball's armature) does not.
TEST(MjcfMuJoCo, BallArmatureRowsFollowMuJoCosRotorInertiaOnAllThreeDoFs) {
  MuJoCo mj;
  if (!mj.open()) GTEST_SKIP() << "libmujoco (Debian libmujoco-dev) is not installed";
  const std::string path = kData + "damped_ball.xml";
  char err[1000] = "";
  mjModel* m = mj.load(path.c_str(), nullptr, err, sizeof err);
  ASSERT_NE(m, nullptr) << err;
  mjData* d = mj.make_data(m);
  mj.reset_key(m, d, 0);
  const Eigen::Vector4d start(d->qpos[0], d->qpos[1], d->qpos[2], d->qpos[3]);
  const int steps = 100;  // 0.2 s at the file's 2 ms
  for (int i = 0; i < steps; ++i) mj.step(m, d);
  const Eigen::Vector4d ref(d->qpos[0], d->qpos[1], d->qpos[2], d->qpos[3]);
  mj.delete_data(d);
  mj.delete_model(m);
  EXPECT_LT((ball_quat(ImportOptions{}, 0) - start).lpNorm<Eigen::Infinity>(), 1e-12);
  ImportOptions without;
  without.armature_rows = false;
  const double moved = (ref - start).lpNorm<Eigen::Infinity>();
  const double err_rows = (ball_quat(ImportOptions{}, steps) - ref).lpNorm<Eigen::Infinity>();
  const double err_without = (ball_quat(without, steps) - ref).lpNorm<Eigen::Infinity>();
  std::printf(
      "after 0.2 s: MuJoCo's quaternion moved %.3f; moreau off by %.2e (rows), %.2e "
      "(no armature)\n",
      moved, err_rows, err_without);
  EXPECT_GT(moved, 0.02);
  EXPECT_LT(err_rows, 1e-4);
  EXPECT_GT(err_without, 20.0 * err_rows);
}

#else
TEST(MjcfMuJoCo, BallArmatureRowsFollowMuJoCosRotorInertiaOnAllThreeDoFs) {
  GTEST_SKIP() << "MuJoCo's header (libmujoco-dev) is not installed";
}
TEST(MjcfMuJoCo, SameModelSameMotion) {
  GTEST_SKIP() << "MuJoCo's header (libmujoco-dev) is not installed";
}
TEST(MjcfMuJoCo, ArmatureRowsFollowMuJoCosJointSpaceRotorInertiaAndDamping) {
  GTEST_SKIP() << "MuJoCo's header (libmujoco-dev) is not installed";
}
#endif

}  // namespace
}  // namespace moreau
