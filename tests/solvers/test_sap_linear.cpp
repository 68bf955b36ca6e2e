// SAP's Hessian solver (src/moreau/solvers/sap_linear.hpp): both backends solve
// H x = b for H = M + J^T G J (Castro et al. 2023, eq. 39) as assembled by sap::cost, the
// automatic choice follows size and block density, and the sparse path's symbolic analysis is
// made once per body-pair pattern.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <random>

#include "moreau/solvers/sap.hpp"
#include "moreau/solvers/sap_linear.hpp"
#include "solvers/sap_problems.hpp"

using namespace moreau;
using namespace moreau::testing_problems;

namespace {
// G per block at v, as sap_minimize evaluates it.
std::vector<sap::Mat6R> g_blocks(const Problem& p, const SapModel& m, const VecX& v) {
  VecX vc(p.nl), gamma(p.nl);
  p.apply_J(v, vc);
  std::vector<sap::Mat6R> G(p.blocks.size());
  for (int i = 0; i < p.num_blocks(); ++i)
    sap::eval_block(p.blocks[i], m, vc.data() + p.blocks[i].offset,
                    gamma.data() + p.blocks[i].offset, &G[i]);
  return G;
}
}  // namespace

TEST(SapLinear, BothBackendsSolveTheHessianOfTheCost) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    // Contacts with the world and between consecutive bodies, a ball joint and limits.
    const Problem p = random_primal(rng, 7, 16, 0.5, 1, 3, 1e-2, 1.0, 1e-2);
    SapModel m;
    sap_model(p, SapParameters{}, m);
    VecX v = p.u_free;
    for (int k = 0; k < v.size(); ++k) v[k] += 0.1 * std::sin(3.0 * k + seed);
    MatX H;
    sap::cost(p, m, v, nullptr, &H, nullptr);
    const std::vector<sap::Mat6R> G = g_blocks(p, m, v);
    const VecX b = VecX::LinSpaced(v.size(), -1.0, 2.0);
    const VecX x_ref = H.llt().solve(b);
    for (int force : {0, 1}) {
      sap::HessianSolver hs;
      hs.setup(p, force, 120);
      const bool sparse = force == 1 && sap::sparse_available();
      EXPECT_EQ(hs.backend() == sap::LinearSolver::Sparse, sparse);
      ASSERT_TRUE(hs.factor(p, G));
      VecX x = b;
      ASSERT_TRUE(hs.solve_in_place(x));
      EXPECT_LE((x - x_ref).norm(), 1e-11 * x_ref.norm()) << "seed " << seed << " force " << force;
      EXPECT_LE((H * x - b).norm(), 1e-10 * b.norm());
    }
  }
}

TEST(SapLinear, AutoPicksDenseForSmallOrDenseHessians) {
  if (!sap::sparse_available()) GTEST_SKIP() << "built without CHOLMOD";
  std::mt19937 rng(3);
  // 30 bodies, contacts with the world and between neighbours: 15% of the lower body blocks.
  const Problem p = random_primal(rng, 30, 60, 0.5);
  sap::HessianSolver hs;
  hs.setup(p, -1, 120);  // 180 rows > 120, sparse pattern
  EXPECT_EQ(hs.backend(), sap::LinearSolver::Sparse);
  hs.setup(p, -1, 180);  // at the threshold
  EXPECT_EQ(hs.backend(), sap::LinearSolver::Dense);
  hs.setup(p, 0, 0);
  EXPECT_EQ(hs.backend(), sap::LinearSolver::Dense);
  // Every pair of bodies coupled: the lower triangle is full, dense wins at any size.
  Problem q = random_primal(rng, 24, 0, 0.5);
  for (int a = 0; a < q.num_bodies; ++a)
    for (int b = a + 1; b < q.num_bodies; ++b) {
      ConstraintBlock c =
          contact_block(a, Vec3(0.1, 0, 0), b, Vec3(-0.1, 0, 0), Vec3::UnitZ(), 0.5);
      c.offset = q.nl;
      q.nl += 3;
      q.blocks.push_back(c);
    }
  hs.setup(q, -1, 0);
  EXPECT_EQ(hs.backend(), sap::LinearSolver::Dense);
}

TEST(SapLinear, SymbolicAnalysisIsReusedWhileThePatternHolds) {
  if (!sap::sparse_available()) GTEST_SKIP() << "built without CHOLMOD";
  std::mt19937 rng(9);
  Problem p = random_primal(rng, 12, 20, 0.5);
  SapModel m;
  sap_model(p, SapParameters{}, m);
  const std::vector<sap::Mat6R> G = g_blocks(p, m, p.u_free);
  sap::HessianSolver hs;
  for (int step = 0; step < 3; ++step) {
    hs.setup(p, 1, 0);
    for (int it = 0; it < 2; ++it) ASSERT_TRUE(hs.factor(p, G));
  }
  EXPECT_EQ(hs.analyses(), 1);
  EXPECT_EQ(hs.factorizations(), 6);
  // The same body pairs in another block order (contacts listed in reverse): same pattern.
  Problem r = p;
  std::reverse(r.blocks.begin(), r.blocks.end());
  std::vector<sap::Mat6R> Gr(G.rbegin(), G.rend());
  int offset = 0;
  for (ConstraintBlock& b : r.blocks) b.offset = offset, offset += b.size;
  hs.setup(r, 1, 0);
  ASSERT_TRUE(hs.factor(r, Gr));
  EXPECT_EQ(hs.analyses(), 1);
  // A new coupling (bodies 0 and 7): a new analysis, and the solve still matches the dense one.
  Problem s = p;
  ConstraintBlock c = contact_block(0, Vec3(0.1, 0, 0), 7, Vec3(-0.1, 0, 0), Vec3::UnitZ(), 0.5);
  c.offset = s.nl;
  s.nl += 3;
  s.blocks.push_back(c);
  std::vector<sap::Mat6R> Gs = G;
  Gs.push_back(sap::Mat6R::Identity());
  hs.setup(s, 1, 0);
  ASSERT_TRUE(hs.factor(s, Gs));
  EXPECT_EQ(hs.analyses(), 2);
  sap::HessianSolver dense;
  dense.setup(s, 0, 0);
  ASSERT_TRUE(dense.factor(s, Gs));
  VecX x = VecX::Ones(6 * s.num_bodies), y = x;
  ASSERT_TRUE(hs.solve_in_place(x));
  ASSERT_TRUE(dense.solve_in_place(y));
  EXPECT_LE((x - y).norm(), 1e-12 * y.norm());
}
