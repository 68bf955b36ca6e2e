// Open contacts set aside by the fast path (SimSettings::fast_path_set_aside_open,
// sim/open_contacts.hpp): the rest's answer stands where the whole NCP's natural map meets tol,
// and a set-aside contact that answer drives closed is taken back.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/model/primitives.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

// A rod 1 m long (a box of half extents 0.5, 0.05, 0.05, 1 kg) on the ground plane, tilted about y
// so that its end at x = +0.5 (A) touches the plane and its end at x = -0.5 (B) lies 0.5 mm above
// it, within the 1 mm collision margin; each end's two lower edges' vertices are contacts. Twist u.
struct Rod {
  Model model;
  State state;
};

Rod tilted_rod(const Vec6& u) {
  ModelBuilder mb("rod");
  State s;
  const double theta = 5e-4;  // B's gap: 1 m x sin(theta)
  const Quat q(Eigen::AngleAxisd(theta, Vec3::UnitY()));
  const double z = 0.5 * std::sin(theta) + 0.05 * std::cos(theta);
  const int b = add_body(mb, s, box_body("rod", 1.0, Vec3(0.5, 0.05, 0.05)), Vec3(0, 0, z), q, u);
  mb.add_geometry(box_geom(b, Vec3(0.5, 0.05, 0.05)));
  // A light block welded to its middle, with no geometry: a mechanism (joint rows), whose open
  // contacts the fast path sets aside; the fast path solves an island without joints whole.
  const Vec3 d = q * Vec3(0, 0, 0.07);  // the weight's centre from the rod's
  Vec6 uw = u;
  uw.head<3>() += u.tail<3>().cross(d);  // the same rigid motion
  const int w =
      add_body(mb, s, box_body("weight", 0.1, Vec3(0.02, 0.02, 0.02)), Vec3(0, 0, z) + d, q, uw);
  mb.add_joint(joint_at("weld", JointType::Fixed, b, w, {s.r[b], q}, s));
  mb.add_geometry(ground_plane(0.5));
  return {*mb.build(), s};
}

// The full problem's natural map (eq. 163) of lambda.
double natural_map(const Problem& p, const VecX& lambda) {
  GrowVec v(p.nl), scratch;
  p.D.multiply(lambda.data(), v.data());
  v += p.v_f;
  return ncp_residuals(p, lambda, v, true, scratch).natmap;
}

struct StepResult {
  State state;
  Problem problem;
  std::vector<Contact> contacts;
  VecX lambda;
  int set_aside = 0, taken_back = 0;
  bool converged = false;
};

StepResult one_step(const Vec6& u, bool set_aside) {
  Rod rod = tilted_rod(u);
  SimSettings st;
  st.dt = 1e-3;
  st.fast_path_set_aside_open = set_aside;
  Simulator sim(rod.model, st);
  EXPECT_TRUE(sim.step(rod.state)) << sim.error();
  return {rod.state,
          sim.problem(),
          sim.contacts(),
          sim.solution().lambda,
          sim.fast_path_set_aside(),
          sim.fast_path_taken_back(),
          sim.solution().converged()};
}

// Normal impulse on the contacts at end B (x < 0), or at end A.
double normal_impulse(const StepResult& r, bool end_b) {
  double sum = 0.0;
  for (const ConstraintBlock& b : r.problem.blocks)
    if (b.kind == RowKind::Contact && (r.contacts[b.source].point.x() < 0.0) == end_b)
      sum += r.lambda[b.offset + 2];
  return sum;
}

}  // namespace

// At rest, end B's contacts open (their gap's bias 0.5 m/s against gravity's 1 cm/s): set aside,
// with the same step as the whole problem's.
TEST(OpenContacts, ARestingRodsOpenEndIsSetAsideWithTheSameStep) {
  const StepResult with = one_step(Vec6::Zero(), true), without = one_step(Vec6::Zero(), false);
  ASSERT_TRUE(with.converged && without.converged);
  EXPECT_EQ(with.set_aside, 2);
  EXPECT_EQ(without.set_aside, 0);
  EXPECT_LE(natural_map(with.problem, with.lambda), 1e-8);
  EXPECT_LT((with.state.u[0] - without.state.u[0]).lpNorm<Eigen::Infinity>(), 1e-9);
  EXPECT_LT((with.state.r[0] - without.state.r[0]).lpNorm<Eigen::Infinity>(), 1e-12);
}

// End A falling at 2 m/s while B is at rest: B's contacts are open at the start (set aside), but
// the impulse that stops A swings B down at 1 m/s, twice its gap's 0.5 m/s: taken back, they
// carry an impulse, and the step is the whole problem's.
TEST(OpenContacts, AnOpenContactTheAnswerClosesIsTakenBack) {
  Vec6 u;
  u << 0, 0, -1, 0, 2, 0;  // A (x = +0.5) at -2 m/s, B (x = -0.5) at rest
  const StepResult with = one_step(u, true), without = one_step(u, false);
  ASSERT_TRUE(with.converged && without.converged);
  EXPECT_EQ(with.taken_back, 2);
  EXPECT_EQ(with.set_aside, 0) << "both taken back";
  EXPECT_GT(normal_impulse(with, true), 1e-3) << "B carries an impulse";
  EXPECT_GT(normal_impulse(with, false), 1e-3);
  EXPECT_LE(natural_map(with.problem, with.lambda), 1e-8);
  EXPECT_LT((with.state.u[0] - without.state.u[0]).lpNorm<Eigen::Infinity>(), 1e-9);
}
