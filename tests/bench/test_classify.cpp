// Sample categories (report Sec. VII-C): ranks of the report's primitives (Table II), densities,
// the first-matching-rule order, conditioning of D, FCLib problems without bodies.
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>

#include "bench/bench_problems.hpp"
#include "moreau/bench/bench.hpp"
#include "moreau/bench/core_spectrum.hpp"
#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/scenes/builtin.hpp"

using namespace moreau;
using namespace moreau::bench;
using moreau::bench_problems::with_bodies;
using moreau::testing_problems::block;
using moreau::testing_problems::from_dense;

namespace {

// Problem of a built-in scene at its initial state.
SampleInfo classify_initial(const std::string& name) {
  Result<Scene> sc = load_scene(name);
  EXPECT_TRUE(sc) << sc.error().message();
  CollisionDetector cd(sc->model);
  const std::vector<Contact>& c = cd.detect(sc->initial, sc->settings.collision);
  ProblemBuilder pb(sc->model);
  return classify(pb.build(sc->initial, c, sc->settings.dt, sc->settings.dynamics));
}

// n contacts at the centre of body 0 (rows = its linear velocity), plus `joint_rows` joint rows
// welding body 0 to body 1 along the first joint_rows twist coordinates.
Problem contacts_on_one_body(int n, int joint_rows, int bodies) {
  std::vector<ConstraintBlock> blocks;
  if (joint_rows > 0) {
    ConstraintBlock j = block(ConeKind::Free, joint_rows);
    j.body[0] = 0;
    j.body[1] = 1;
    for (int r = 0; r < joint_rows; ++r) {
      j.J[0](r, r) = 1.0;
      j.J[1](r, r) = -1.0;
    }
    blocks.push_back(j);
  }
  for (int k = 0; k < n; ++k) blocks.push_back(bench_problems::ground_contact(0.5));
  const std::vector<double> m(bodies, 1.0);
  int nl = joint_rows + 3 * n;
  return with_bodies(blocks, m, m, VecX::Zero(6 * bodies), VecX::Zero(nl), 1e-3);
}

// Independent reference for SampleInfo::cond_D: singular values of the dense Delassus (+ R when
// softened) by Jacobi SVD, condition number over those above 10 n eps sigma_max (the classifier's
// "non-zero spectrum"). For a symmetric PSD D the singular values are its eigenvalues.
double svd_condition(const Problem& p) {
  MatX D;
  p.D.to_dense(D);
  if (p.R.size() == p.nl) D.diagonal() += p.R;
  const VecX s = Eigen::JacobiSVD<MatX>(D).singularValues();  // descending
  const double tol = 10.0 * p.nl * std::numeric_limits<double>::epsilon() * s[0];
  double lo = s[0];
  for (int i = 0; i < s.size(); ++i)
    if (s[i] > tol) lo = s[i];
  return s[0] / lo;
}

// n / 3 contacts over a Delassus Q diag(ev) Q^T, Q a fixed random rotation of R^n.
Problem contacts_with_spectrum(const VecX& ev) {
  const int n = static_cast<int>(ev.size());
  std::mt19937 rng(3);
  std::normal_distribution<double> g;
  MatX A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = g(rng);
  const MatX Q = Eigen::HouseholderQR<MatX>(A).householderQ();
  std::vector<ConstraintBlock> blocks(n / 3, block(ConeKind::Coulomb, 3, 0.5));
  return from_dense(blocks, Q * ev.asDiagonal() * Q.transpose(), VecX::Zero(n));
}

}  // namespace

TEST(BenchClassify, CategoryNamesAreDistinct) {
  std::set<std::string> names;
  for (int c = 0; c < kNumCategories; ++c) names.insert(category_name(static_cast<Category>(c)));
  EXPECT_EQ(names.size(), static_cast<size_t>(kNumCategories));
  EXPECT_STREQ(category_name(Category::DenseContacts), "dense-contacts");
}

TEST(BenchClassify, PrimitivesHaveTheRanksOfTableII) {
  // Table II, derived columns: rank J_J = 6 n_b - DoFs.
  const SampleInfo fixed = classify_initial("fourbar-fixed");
  EXPECT_EQ(fixed.joint_rows, 26);
  EXPECT_EQ(fixed.rank_J, 23);
  EXPECT_DOUBLE_EQ(fixed.d_J, 26.0 / 24.0);
  EXPECT_EQ(fixed.category, Category::DenseJoints);  // rank deficient, d_J >= 1
  const SampleInfo free = classify_initial("fourbar-free");
  EXPECT_EQ(free.joint_rows, 20);
  EXPECT_EQ(free.rank_J, 17);
  EXPECT_EQ(free.category, Category::RedundantJoints);  // rank deficient, d_J < 1
  // The loop's 3 redundant rows are dropped from the spectrum: cond_D is the SVD's, finite.
  ASSERT_TRUE(std::isfinite(free.cond_D));
  Result<Scene> free_scene = load_scene("fourbar-free");
  ASSERT_TRUE(free_scene);
  ProblemBuilder free_builder(free_scene->model);
  const Problem& free_p = free_builder.build(free_scene->initial, {}, free_scene->settings.dt,
                                             free_scene->settings.dynamics);
  EXPECT_NEAR(free.cond_D, svd_condition(free_p), 1e-6 * free.cond_D);
  const SampleInfo nunchuk = classify_initial("nunchuk");
  EXPECT_EQ(nunchuk.rank_J, 6);
  EXPECT_EQ(nunchuk.category, Category::IndependentJoints);
  // boxes-fixed rests on the ground: 6 joint rows + 4 contacts on 2 bodies, d_JC = 18 / 12.
  const SampleInfo boxes = classify_initial("boxes-fixed");
  EXPECT_EQ(boxes.joint_rows, 6);
  EXPECT_EQ(boxes.contacts, 4);
  EXPECT_DOUBLE_EQ(boxes.d_JC, 1.5);
  EXPECT_EQ(boxes.rank_J, 12);  // both bodies fully held
  EXPECT_EQ(boxes.category, Category::DenseConstraints);
  EXPECT_NEAR(boxes.mass_ratio, 1000.0, 1e-9);
  EXPECT_GT(boxes.cond_D, 1000.0);  // inertial disparity shows in D (report Sec. VII-B)
}

TEST(BenchClassify, ContactCountsAgainstBodiesPickTheCategory) {
  EXPECT_EQ(classify(contacts_on_one_body(1, 0, 1)).category, Category::SingleContact);
  EXPECT_EQ(classify(contacts_on_one_body(2, 0, 1)).category,
            Category::SparseContacts);                               // 2 <= 2 n_b
  const SampleInfo dense = classify(contacts_on_one_body(3, 0, 1));  // 3 > 2 n_b
  EXPECT_EQ(dense.category, Category::DenseContacts);
  EXPECT_EQ(dense.rank_J, 3);  // every contact pushes the same point: rank of one contact
  EXPECT_DOUBLE_EQ(dense.d_C, 9.0 / 6.0);
  // Joints + contacts with d_JC = (6 + 3 n_c) / 12 > 1: dense constraints before the contact rules.
  const SampleInfo dc = classify(contacts_on_one_body(3, 6, 2));
  EXPECT_DOUBLE_EQ(dc.d_JC, 15.0 / 12.0);
  EXPECT_EQ(dc.category, Category::DenseConstraints);
  // d_JC = 9 / 12 <= 1 with one contact: single contact.
  EXPECT_EQ(classify(contacts_on_one_body(1, 6, 2)).category, Category::SingleContact);
  Problem none;
  EXPECT_EQ(classify(none).category, Category::Unconstrained);
}

TEST(BenchClassify, RankAndConditionOfAKnownSpectrum) {
  // D = Q diag(4, 1, 0) Q^T for a rotation Q: rank 2, cond 4; softened by R = 1: cond 5 / 1.
  const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Mat3 D = Q * Vec3(4.0, 1.0, 0.0).asDiagonal() * Q.transpose();
  const Spectrum sp = delassus_spectrum(D, VecX());
  EXPECT_EQ(sp.rank, 2);
  EXPECT_NEAR(sp.cond, 4.0, 1e-12);
  const Spectrum soft = delassus_spectrum(D, VecX::Ones(3));
  EXPECT_EQ(soft.rank, 2);
  EXPECT_NEAR(soft.cond, 5.0, 1e-12);
}

TEST(BenchClassify, LargeProblemsUseTheLdltEstimateWithTheSameRank) {
  // n > kSpectrumDenseLimit: rank of J J^T for a random J (n x m), m < n, is m.
  const int n = kSpectrumDenseLimit + 30, m = 700;
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  MatX J(n, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) J(i, j) = g(rng);
  const Spectrum sp = delassus_spectrum(J * J.transpose(), VecX());
  EXPECT_TRUE(sp.estimate);
  EXPECT_EQ(sp.rank, m);
  // The estimate is the pivoted LDLT diagonal: exact for a diagonal matrix. Eigenvalues
  // 1 .. 250 (each repeated) and a null space of 30 rows: rank n - 30, cond 250.
  VecX d(n);
  for (int i = 0; i < n; ++i) d[i] = i < 30 ? 0.0 : 1.0 + (i * 37) % 250;
  const Spectrum diag = delassus_spectrum(MatX(d.asDiagonal()), VecX());
  EXPECT_TRUE(diag.estimate);
  EXPECT_EQ(diag.rank, n - 30);
  EXPECT_DOUBLE_EQ(diag.cond, 250.0);
  // Softened by R = 2: every eigenvalue shifts by 2, the null space included: cond 252 / 2.
  EXPECT_DOUBLE_EQ(delassus_spectrum(MatX(d.asDiagonal()), VecX::Constant(n, 2.0)).cond, 126.0);
}

TEST(BenchClassify, ConditionOfAConstructedDelassusMatchesTheSvd) {
  // Full rank: eigenvalues chosen over 4 decades, cond 1e4 exactly.
  VecX ev(6);
  ev << 1e3, 50.0, 2.0, 1.0, 0.5, 0.1;
  const Problem full = contacts_with_spectrum(ev);
  const SampleInfo a = classify(full);
  EXPECT_EQ(a.rank_J, 6);
  EXPECT_NEAR(a.cond_D, 1e4, 1e-8 * 1e4);
  EXPECT_NEAR(a.cond_D, svd_condition(full), 1e-8 * 1e4);
  // Rank deficient: three zero eigenvalues leave the spectrum, cond 8 / 0.25 on the rest.
  ev << 8.0, 3.0, 0.25, 0.0, 0.0, 0.0;
  const Problem deficient = contacts_with_spectrum(ev);
  const SampleInfo b = classify(deficient);
  EXPECT_EQ(b.rank_J, 3);
  EXPECT_EQ(b.category, Category::DenseContacts);
  EXPECT_NEAR(b.cond_D, 32.0, 1e-9 * 32.0);
  EXPECT_NEAR(b.cond_D, svd_condition(deficient), 1e-9 * 32.0);
  // Softened (R = 0.5 I): D + R has eigenvalues ev + 0.5, full rank, cond 8.5 / 0.5; the rank
  // stays that of D.
  Problem soft = deficient;
  soft.R = VecX::Constant(6, 0.5);
  const SampleInfo c = classify(soft);
  EXPECT_EQ(c.rank_J, 3);
  EXPECT_NEAR(c.cond_D, 17.0, 1e-9 * 17.0);
  EXPECT_NEAR(c.cond_D, svd_condition(soft), 1e-9 * 17.0);
  // A diagonal D needs no rotation: cond of diag(5, 5, 5, 0.05, 0.05, 0.05) is 100.
  std::vector<ConstraintBlock> two(2, block(ConeKind::Coulomb, 3, 0.5));
  VecX d(6);
  d << 5.0, 5.0, 5.0, 0.05, 0.05, 0.05;
  const SampleInfo diag = classify(from_dense(two, MatX(d.asDiagonal()), VecX::Zero(6)));
  EXPECT_NEAR(diag.cond_D, 100.0, 1e-12 * 100.0);
}

TEST(BenchClassify, BoxesFixedConditionMatchesTheSvd) {
  Result<Scene> sc = load_scene("boxes-fixed");
  ASSERT_TRUE(sc) << sc.error().message();
  CollisionDetector cd(sc->model);
  const std::vector<Contact>& c = cd.detect(sc->initial, sc->settings.collision);
  ProblemBuilder pb(sc->model);
  const Problem& p = pb.build(sc->initial, c, sc->settings.dt, sc->settings.dynamics);
  const SampleInfo s = classify(p);
  EXPECT_NEAR(s.cond_D, svd_condition(p), 1e-6 * s.cond_D);
}

TEST(BenchClassify, WithoutBodiesOnlyContactsClassify) {
  // FCLib: num_bodies = 0, densities unknown; rank deficiency stands in for d_C > 1.
  std::vector<ConstraintBlock> two = {block(ConeKind::Coulomb, 3, 0.3),
                                      block(ConeKind::Coulomb, 3, 0.3)};
  const SampleInfo full = classify(from_dense(two, MatX::Identity(6, 6), VecX::Zero(6)));
  EXPECT_EQ(full.bodies, 0);
  EXPECT_TRUE(std::isnan(full.d_C));
  EXPECT_EQ(full.rank_J, 6);
  EXPECT_EQ(full.category, Category::SparseContacts);
  MatX D = MatX::Zero(6, 6);  // both contacts see the same point: D = [I I; I I]
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) D.block<3, 3>(3 * a, 3 * b).setIdentity();
  const SampleInfo deficient = classify(from_dense(two, D, VecX::Zero(6)));
  EXPECT_EQ(deficient.rank_J, 3);
  EXPECT_EQ(deficient.category, Category::DenseContacts);
  EXPECT_EQ(classify(testing_problems::one_contact(Mat3::Identity(), Vec3::Zero(), 0.3)).category,
            Category::SingleContact);
}

// A joint's armature rows (ConstraintBlock::rotor_rows, compliant) are not constraints of the
// report's densities: m_J and n_lambda count the holonomic rows only.
TEST(BenchClassify, ArmatureRowsAreNotCountedAsJointRows) {
  Problem p = contacts_on_one_body(1, 5, 2);
  const SampleInfo all = classify(p);
  EXPECT_EQ(all.joint_rows, 5);
  p.blocks[0].rotor_rows = 1;  // the joint block's last row is a rotor's
  const SampleInfo geared = classify(p);
  EXPECT_EQ(geared.joint_rows, 4);
  EXPECT_DOUBLE_EQ(geared.d_J, 4.0 / 12.0);
  EXPECT_DOUBLE_EQ(geared.d_JC, (p.nl - 1) / 12.0);
  EXPECT_EQ(geared.nl, p.nl);
}
