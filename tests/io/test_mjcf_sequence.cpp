// MJCF joint sequences (docs/model-import.md, "Joints"; docs/dynamics.md, "Joint sequences"):
// several joints in one body imported exactly as the product of their motions. Forward kinematics
// against MuJoCo's mj_kinematics for random joint values (optional: skips without Debian's
// libmujoco-dev, loaded with dlopen), coordinates recovered from body poses, the singular
// sequence refused, and the constraint rows' derivative.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "moreau/dynamics/builder.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/math/so3.hpp"
#include "moreau/sim/simulator.hpp"

#include "support/mujoco_dl.hpp"

namespace moreau {
namespace {

const std::string kModels = "/usr/share/mujoco/model/";

// Per-link source values from a qpos vector laid out as MuJoCo's: links in document order,
// each link's joints in order.
LinkValues values_of(const LinkTree& t, const double* qpos) {
  LinkValues v(t.links.size());
  int o = 0;
  for (size_t i = 0; i < t.links.size(); ++i)
    for (const SourceJoint& s : t.links[i].sources)
      for (int k = 0; k < s.width(); ++k) v[i].push_back(qpos[o++]);
  return v;
}

int qpos_size(const LinkTree& t) {
  int n = 0;
  for (const TreeLink& l : t.links)
    for (const SourceJoint& s : l.sources) n += s.width();
  return n;
}

// Random joint values: hinges and slides ref + U(-1, 1), balls and free rotations random unit
// quaternions, free positions U(-1, 1).
std::vector<double> random_qpos(const LinkTree& t, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> q;
  for (const TreeLink& l : t.links)
    for (const SourceJoint& s : l.sources) {
      if (s.kind == SourceKind::Free)
        for (int k = 0; k < 3; ++k) q.push_back(u(rng));
      if (s.kind == SourceKind::Free || s.kind == SourceKind::Ball) {
        double c[4];
        for (double& x : c) x = u(rng);
        const Quat r = Quat(c[0], c[1], c[2], c[3]).normalized();
        q.insert(q.end(), {r.w(), r.x(), r.y(), r.z()});
      } else {
        q.push_back(s.ref + u(rng));
      }
    }
  return q;
}

TEST(MjcfSequence, HumanoidImportsExactly) {
  Result<ImportedModel> r = import_mjcf_file(kModels + "humanoid/humanoid.xml");
  if (!r.ok() && r.error().message().find("humanoid.xml") != std::string::npos &&
      r.error().message().find("open") != std::string::npos)
    GTEST_SKIP() << "MuJoCo's sample models are not installed";
  ASSERT_TRUE(r.ok()) << r.error().message();
  for (const std::string& w : r->warnings) EXPECT_EQ(w.find("approximat"), std::string::npos) << w;
  const Model& m = r->scene.model;
  EXPECT_EQ(6 * m.num_bodies() - m.joint_rows(), 27);  // MuJoCo's nv
  int sequences = 0;
  for (const Joint& j : m.joints()) sequences += j.type == JointType::Sequence;
  EXPECT_EQ(sequences, 4);  // the hips (three hinges) and the ankles (offset hinges)
}

// The state of random joint values: every joint's residual vanishes, and its DoF values, recovered
// from the body poses alone (cold Newton), are the values given.
TEST(MjcfSequence, CoordinatesRecoveredFromPoses) {
  Result<ImportedModel> r = import_mjcf_file(kModels + "humanoid/humanoid.xml");
  if (!r.ok()) GTEST_SKIP() << r.error().message();
  const Model& m = r->scene.model;
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<double> q = random_qpos(r->tree, rng);
    const LinkValues v = values_of(r->tree, q.data());
    const State s = tree_state(r->tree, r->build, m, v);
    EXPECT_LT(joint_residual(m, s).lpNorm<Eigen::Infinity>(), 1e-12);
    for (size_t i = 0; i < r->tree.links.size(); ++i) {
      const int jn = r->build.joint_of_link[i];
      if (jn < 0) continue;
      const std::vector<double> want = link_dof_coordinates(r->tree.links[i], v[i]);
      const Joint& j = m.joints()[jn];
      for (int k = 0; k < j.dofs(); ++k) {
        double qk, qd;
        joint_dof_state(j, s, k, &qk, &qd);
        EXPECT_NEAR(qk, want[k], 1e-10) << j.name << " dof " << k << " trial " << trial;
      }
    }
  }
}

// A warm evaluation (the axes of a pose 1e-3 rad away, as from the step before; its last
// Gauss-Newton step is taken to first order) agrees with a cold one from the reference
// coordinates: values to 1e-12, rows to 1e-6; on the manifold and 1e-4 m off it.
TEST(MjcfSequence, WarmEvaluationsAgreeWithColdOnes) {
  Result<ImportedModel> r = import_mjcf_file(kModels + "humanoid/humanoid.xml");
  if (!r.ok()) GTEST_SKIP() << r.error().message();
  const Model& m = r->scene.model;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1e-3, 1e-3);
  int sequences = 0;
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<double> q = random_qpos(r->tree, rng);
    const State s0 = tree_state(r->tree, r->build, m, values_of(r->tree, q.data()));
    for (size_t i = 7; i < q.size(); ++i) q[i] += u(rng);  // the hinges, not the free root
    State s1 = tree_state(r->tree, r->build, m, values_of(r->tree, q.data()));
    for (const bool off : {false, true}) {
      if (off)
        for (int b = 1; b < s1.num_bodies(); ++b) s1.r[b] += Vec3(u(rng), u(rng), u(rng)) * 0.1;
      for (const Joint& j : m.joints()) {
        if (j.type != JointType::Sequence) continue;
        JointAxes warm, cold;
        joint_axes(j, s0, warm);
        joint_axes(j, s1, warm);
        joint_axes(j, s1, cold);
        // The DoF rows and values; the constraint rows' basis is transported from the last
        // evaluation, so only the constraint values' norm is compared.
        for (int k = 0; k < warm.d; ++k) {
          const int a = warm.dof[k];
          EXPECT_NEAR(warm.value[a], cold.value[a], 1e-12) << j.name;
          EXPECT_LT((warm.Jf.row(a) - cold.Jf.row(a)).cwiseAbs().maxCoeff(), 1e-6) << j.name;
          EXPECT_LT((warm.Jb.row(a) - cold.Jb.row(a)).cwiseAbs().maxCoeff(), 1e-6) << j.name;
        }
        double cw = 0.0, cc = 0.0;
        for (int k = 0; k < warm.m; ++k) {
          cw += std::pow(warm.value[warm.constrained[k]], 2);
          cc += std::pow(cold.value[cold.constrained[k]], 2);
        }
        EXPECT_NEAR(std::sqrt(cw), std::sqrt(cc), 1e-12) << j.name;
        if (off) EXPECT_GT(std::sqrt(cc), 1e-6) << j.name;  // off the manifold indeed
        ++sequences;
      }
    }
  }
  EXPECT_GT(sequences, 50);
}

// At the hip's gimbal lock (hip_z = 90 degrees: the y axis turned onto the x axis) the sequence's
// motion subspace loses rank; its evaluation stays finite and on the manifold, and the hinge angles
// it recovers reproduce the pose.
TEST(MjcfSequence, GimbalLockEvaluatesFinite) {
  Result<ImportedModel> r = import_mjcf_file(kModels + "humanoid/humanoid.xml");
  if (!r.ok()) GTEST_SKIP() << r.error().message();
  const Model& m = r->scene.model;
  std::mt19937 rng(11);
  const std::vector<double> q0 = random_qpos(r->tree, rng);
  LinkValues v = values_of(r->tree, q0.data());
  int hip = -1;
  for (size_t i = 0; i < r->tree.links.size(); ++i)
    if (r->tree.links[i].sources.size() == 3 && r->tree.links[i].sources[1].name == "right_hip_z")
      hip = static_cast<int>(i);
  ASSERT_GE(hip, 0);
  v[hip] = {0.3, M_PI / 2, -0.4};  // hip_x, hip_z at the lock, hip_y
  const State s = tree_state(r->tree, r->build, m, v);
  const Joint& j = m.joints()[r->build.joint_of_link[hip]];
  JointAxes ax;
  joint_axes(j, s, ax);
  EXPECT_TRUE(ax.Jf.allFinite() && ax.Jb.allFinite() && ax.value.allFinite());
  for (int k = 0; k < ax.m; ++k) EXPECT_LT(std::abs(ax.value[ax.constrained[k]]), 1e-9) << k;
  // At the lock the y axis is turned onto -x: only hip_x - hip_y and hip_z are determined.
  EXPECT_NEAR(ax.value[ax.dof[1]], M_PI / 2, 1e-6);
  EXPECT_NEAR(ax.value[ax.dof[0]] - ax.value[ax.dof[2]], 0.3 + 0.4, 1e-6)
      << ax.value[ax.dof[0]] << " " << ax.value[ax.dof[2]];
}

// Constraint rows: along a velocity the joint allows (q moving at rate qd), the DoF rows read qd
// and the constraint rows zero; a finite difference of the DoF values agrees.
TEST(MjcfSequence, RowsAreTheMotionSubspaceAndItsComplement) {
  const std::string xml = R"(<mujoco><worldbody><body name="a" pos="0 0 1">
      <geom type="box" size=".1 .2 .3" mass="1"/>
      <joint name="s" type="slide" axis="0 1 1"/>
      <joint name="h1" type="hinge" axis="1 0 0" pos="0 .1 0"/>
      <joint name="h2" type="hinge" axis="0 1 0" pos=".2 0 .05"/>
      <body name="b" pos="0 0 -.5"><geom type="sphere" size=".1" mass="1"/>
        <joint name="x" type="slide" axis="1 0 0"/><joint name="y" type="slide" axis="0 1 0"/>
        <joint name="ball" type="ball" pos="0 0 .1"/></body>
      </body></worldbody></mujoco>)";
  Result<ImportedModel> r = import_mjcf_string(xml, "seq.xml", "");
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  ASSERT_EQ(m.num_joints(), 2);
  EXPECT_EQ(6 * m.num_bodies() - m.joint_rows(), 8);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<double> q = random_qpos(r->tree, rng), qd(8), q2 = q;
    for (double& x : qd) x = u(rng);
    // Advance the values along qd by h (the ball's rate in its moved frame).
    const double h = 1e-7;
    for (int k = 0; k < 5; ++k) q2[k] += h * qd[k];
    const Quat b0(q[5], q[6], q[7], q[8]);
    const Quat b1 = (b0 * Quat(Eigen::AngleAxisd(h * Vec3(qd[5], qd[6], qd[7]).norm(),
                                                 Vec3(qd[5], qd[6], qd[7]).normalized())))
                        .normalized();
    q2[5] = b1.w(), q2[6] = b1.x(), q2[7] = b1.y(), q2[8] = b1.z();
    const State s0 = tree_state(r->tree, r->build, m, values_of(r->tree, q.data()));
    const State s1 = tree_state(r->tree, r->build, m, values_of(r->tree, q2.data()));
    State s = s0;  // body twists by finite differences of the poses
    for (int b = 0; b < m.num_bodies(); ++b) {
      s.u[b].head<3>() = (s1.r[b] - s0.r[b]) / h;
      s.u[b].tail<3>() = quat_log((s1.q[b] * s0.q[b].conjugate()).normalized()) / h;
    }
    int dof = 0;
    for (const Joint& j : m.joints()) {
      JointAxes ax;
      joint_axes(j, s, ax);
      auto rate = [&](int axis) {
        return ax.Jf.row(axis).dot(s.u[j.follower]) +
               (j.base >= 0 ? ax.Jb.row(axis).dot(s.u[j.base]) : 0.0);
      };
      for (int k = 0; k < ax.d; ++k) EXPECT_NEAR(rate(ax.dof[k]), qd[dof + k], 1e-5) << j.name;
      for (int c = 0; c < ax.m; ++c) EXPECT_NEAR(rate(ax.constrained[c]), 0.0, 1e-5) << j.name;
      dof += ax.d;
    }
  }
}

TEST(MjcfSequence, SingularSequenceIsAClearError) {
  const std::string xml = R"(<mujoco><worldbody><body name="arm">
      <geom type="sphere" size=".1" mass="1"/>
      <joint name="h1" axis="0 0 1" pos="0 0 0"/><joint name="h2" axis="0 0 1" pos="0 0 .5"/>
      <joint name="h3" axis="1 0 0"/></body></worldbody></mujoco>)";
  Result<ImportedModel> r = import_mjcf_string(xml, "bad.xml", "");
  ASSERT_FALSE(r.ok());
  const std::string msg = r.error().message();
  for (const char* w : {"bad.xml:1", "body 'arm'", "h1", "h2", "h3", "singular"})
    EXPECT_NE(msg.find(w), std::string::npos) << w << " in " << msg;
}

// A body on two crossed hinges 0.2 m apart swings without loss: the energy of the frictionless,
// undamped motion stays put, and the joint stays closed.
TEST(MjcfSequence, OffsetHingesSwingConservatively) {
  const std::string xml = R"(<mujoco><option timestep="0.001"/><worldbody>
      <body name="p" pos="0 0 2"><geom type="capsule" fromto="0 0 0 .3 0 -.6" size=".05"/>
      <joint name="a" axis="0 1 0"/><joint name="b" axis="1 0 0" pos="0 0 -.2"/>
      </body></worldbody><keyframe><key qpos="0.8 0.5"/></keyframe></mujoco>)";
  Result<ImportedModel> r = import_mjcf_string(xml, "swing.xml", "");
  ASSERT_TRUE(r.ok()) << r.error().message();
  Scene sc = r->scene;
  sc.settings.solver = "direct";
  sc.settings.integrator = Integrator::MoreauMidpoint;
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  const double e0 = total_energy(sc.model, s);
  double drift = 0.0, closure = 0.0;
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    drift = std::max(drift, std::abs(total_energy(sc.model, s) - e0));
    closure = std::max(closure, joint_residual(sc.model, s).lpNorm<Eigen::Infinity>());
  }
  EXPECT_LT(drift, 1e-2 * std::abs(e0 - potential_energy(sc.model, s)) + 1e-3);
  EXPECT_LT(closure, 1e-9);
}

#ifdef MOREAU_TEST_MUJOCO

using test::MuJoCo;

// Largest position and orientation error of moreau's body frames (the importer's forward
// kinematics and the built state) against mj_kinematics over random joint values.
void check_kinematics(MuJoCo& mj, const std::string& file, double* worst) {
  char err[1000] = "";
  mjModel* mm = mj.load(file.c_str(), nullptr, err, sizeof err);
  ASSERT_NE(mm, nullptr) << err;
  Result<ImportedModel> r = import_mjcf_file(file);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  EXPECT_EQ(6 * m.num_bodies() - m.joint_rows(), mm->nv) << file;
  ASSERT_EQ(qpos_size(r->tree), mm->nq) << file;
  mjData* d = mj.make_data(mm);
  std::mt19937 rng(11);
  *worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<double> q = random_qpos(r->tree, rng);
    for (int i = 0; i < mm->nq; ++i) d->qpos[i] = q[i];
    mj.kinematics(mm, d);
    const LinkValues v = values_of(r->tree, q.data());
    const std::vector<Pose> X = link_world_poses(r->tree, v);
    const State s = tree_state(r->tree, r->build, m, v);
    for (size_t i = 0; i < r->tree.links.size(); ++i) {
      const int id = mj.name2id(mm, mjOBJ_BODY, r->tree.links[i].name.c_str());
      if (id < 0) continue;  // unnamed bodies
      const Vec3 p(d->xpos[3 * id], d->xpos[3 * id + 1], d->xpos[3 * id + 2]);
      const Quat qm(d->xquat[4 * id], d->xquat[4 * id + 1], d->xquat[4 * id + 2],
                    d->xquat[4 * id + 3]);
      Pose W = X[i];
      if (r->build.body_of_link[i] >= 0)  // moving: the frame from the built state too
        W = s.pose(r->build.body_of_link[i]) * r->build.link_in_body[i];
      for (const Pose& P : {X[i], W})
        *worst = std::max({*worst, (P.p - p).norm(), P.q.angularDistance(qm)});
    }
  }
  mj.delete_data(d);
  mj.delete_model(mm);
}

TEST(MjcfSequence, KinematicsAgreeWithMuJoCo) {
  MuJoCo mj;
  if (!mj.open()) GTEST_SKIP() << "libmujoco (Debian libmujoco-dev) is not installed";
  // (hammock.xml and active_adhesion.xml hold composites moreau skips: other nq.)
  for (const char* f :
       {"humanoid/humanoid.xml", "humanoid/22_humanoids.xml", "humanoid100/humanoid100.xml",
        "slider_crank/slider_crank.xml", "tendon_arm/arm26.xml"}) {
    const std::string file = kModels + f;
    if (FILE* fp = std::fopen(file.c_str(), "r"))
      std::fclose(fp);
    else
      continue;
    double worst = 0.0;
    check_kinematics(mj, file, &worst);
    std::printf("kinematics vs mj_kinematics: %s max error %.3g\n", f, worst);
    EXPECT_LT(worst, 1e-9) << f;
  }
}

// Joint values (every DoF of every joint, MuJoCo's qpos order for hinge and slide joints) at
// t = 0.1, 0.2, ..., 0.5 s.
using Rows = std::vector<std::vector<double>>;

Rows moreau_rows(Scene sc, double dt) {
  sc.settings.dt = dt;
  sc.settings.solver = "direct";
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  Rows out;
  std::vector<JointAxes> axes(sc.model.num_joints());
  const int per = static_cast<int>(std::lround(0.1 / dt));
  for (int i = 1; i <= 5 * per; ++i) {
    EXPECT_TRUE(sim.step(s)) << sim.error();
    for (int jn = 0; jn < sc.model.num_joints(); ++jn)
      joint_axes(sc.model.joints()[jn], s, axes[jn]);
    if (i % per) continue;
    std::vector<double> q;
    for (int jn = 0; jn < sc.model.num_joints(); ++jn) {
      // Evaluated every step with a warm start per joint: unwrapped angles, as MuJoCo's qpos.
      JointAxes& ax = axes[jn];
      joint_axes(sc.model.joints()[jn], s, ax);
      for (int k = 0; k < ax.d; ++k) q.push_back(ax.value[ax.dof[k]]);
    }
    out.push_back(q);
  }
  return out;
}

// The dynamics of joint sequences: the same trajectory as MuJoCo (RK4 at dt = 1e-4, the
// reference) up to moreau's O(dt) time-stepping error, which Richardson extrapolation over dt,
// dt/2, dt/4 removes (as tests/io/test_mjcf_mujoco.cpp does for fixed joint types).
TEST(MjcfSequence, SameMotionAsMuJoCo) {
  MuJoCo mj;
  if (!mj.open()) GTEST_SKIP() << "libmujoco (Debian libmujoco-dev) is not installed";
  const std::string path = std::string(MOREAU_SOURCE_DIR) + "/tests/data/sequence_chain.xml";
  char err[1000] = "";
  mjModel* m = mj.load(path.c_str(), nullptr, err, sizeof err);
  ASSERT_NE(m, nullptr) << err;
  Result<ImportedModel> r = import_mjcf_file(path);
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(6 * r->scene.model.num_bodies() - r->scene.model.joint_rows(), m->nv);
  ASSERT_EQ(m->nq, m->nv);  // hinges and slides only: qpos are the DoF values
  m->opt.integrator = mjINT_RK4;
  m->opt.timestep = 1e-4;
  mjData* d = mj.make_data(m);
  mj.reset_key(m, d, 0);
  Rows ref;
  for (int i = 1; i <= 5000; ++i) {
    mj.step(m, d);
    if (i % 1000 == 0) ref.emplace_back(d->qpos, d->qpos + m->nq);
  }
  mj.delete_data(d);
  mj.delete_model(m);
  auto combine = [](const Rows& a, const Rows& b, double ca, double cb) {
    Rows x = b;
    for (size_t i = 0; i < b.size(); ++i)
      for (size_t k = 0; k < b[i].size(); ++k) x[i][k] = ca * a[i][k] + cb * b[i][k];
    return x;
  };
  auto max_diff = [](const Rows& a, const Rows& b) {
    double e = 0.0;
    for (size_t i = 0; i < a.size(); ++i)
      for (size_t k = 0; k < a[i].size(); ++k)
        e = std::max(e, std::abs(a[i][k] - b[i][k]) / std::max(1.0, std::abs(b[i][k])));
    return e;
  };
  const double h = 4e-4;
  const Rows s1 = moreau_rows(r->scene, h), s2 = moreau_rows(r->scene, h / 2),
             s4 = moreau_rows(r->scene, h / 4);
  const Rows r12 = combine(s1, s2, -1.0, 2.0), r24 = combine(s2, s4, -1.0, 2.0);
  const Rows r3 = combine(r12, r24, -1.0 / 3.0, 4.0 / 3.0);
  const double e1 = max_diff(s4, ref), e2 = max_diff(r24, ref), e3 = max_diff(r3, ref);
  std::printf(
      "sequences, moreau vs MuJoCo (max relative joint difference over 0.5 s): dt/4 %.3e, "
      "first Richardson %.3e, second %.3e\n",
      e1, e2, e3);
  EXPECT_LT(e2, e1 / 10.0);
  EXPECT_LT(e3, 1e-6);
}

#endif

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// MuJoCo's humanoid for 5 s at dt = 5 ms: no NaN, the joints (hips and ankles are sequences)
// closed at every step.
TEST(MjcfSequence, HumanoidFiveSeconds) {
  Result<ImportedModel> r = import_mjcf_file(kModels + "humanoid/humanoid.xml");
  if (!r.ok()) GTEST_SKIP() << r.error().message();
  Scene sc = r->scene;
  sc.settings.dt = 0.005;
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  double closure = 0.0, limits = 0.0;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    closure = std::max(closure, joint_residual(sc.model, s).lpNorm<Eigen::Infinity>());
    limits = std::max(limits, limit_violation(sc.model, s));
  }
  std::printf("humanoid 5 s: max joint residual %.3g, max limit violation %.3g\n", closure, limits);
  EXPECT_TRUE(s.all_finite());
  EXPECT_LT(closure, 1e-6);
}

}  // namespace
}  // namespace moreau
