// Islands (sim/islands.hpp): bodies joined by rows form an island, D couples no two islands, and
// the fast path solving each island on its own answers the full NCP (docs/performance.md,
// "Islands").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/islands.hpp"
#include "moreau/sim/simulator.hpp"
#include "sim/fast_path_check.hpp"

using namespace moreau;

namespace {

Scene pile(int n) {
  Result<Scene> sc = make_builtin_scene("sphere-pile", {{"n", std::to_string(n)}});
  EXPECT_TRUE(sc) << sc.error().message();
  return std::move(*sc);
}

}  // namespace

TEST(Islands, EachIslandIsItsOwnBlockOfD) {
  // 20 spheres falling into a box: after 60 steps some rest on the floor alone, some touch.
  Scene sc = pile(20);
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 60; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  const Problem& p = sim.problem();
  ASSERT_GT(p.nl, 0);
  Islands isl;
  isl.split(p);
  const int ni = isl.count();
  ASSERT_GT(ni, 1);
  ASSERT_LE(ni, p.num_blocks());
  // Every row lands in exactly one island.
  const VecX x = VecX::LinSpaced(p.nl, -1.0, 2.0);
  VecX back = VecX::Constant(p.nl, std::nan(""));
  GrowVec xk, yk;
  int rows = 0;
  VecX Dx(p.nl);
  p.D.multiply(x.data(), Dx.data());
  Problem q;
  std::map<int, int> island_of_body;
  for (int k = 0; k < ni; ++k) {
    isl.extract(p, k, q);
    isl.gather(p, k, x, xk);
    ASSERT_EQ(xk.size(), q.nl);
    rows += q.nl;
    // D x restricted to the island is the island's D times the island's x: no coupling out.
    yk.resize(q.nl);
    q.D.multiply(xk.data(), yk.data());
    GrowVec want;
    isl.gather(p, k, Dx, want);
    EXPECT_LE((VecX(yk) - VecX(want)).cwiseAbs().maxCoeff(),
              1e-12 * (1.0 + Dx.cwiseAbs().maxCoeff()))
        << "island " << k;
    // Each island block is one of p's (same id, rows and free velocity), and no two islands
    // share a body.
    for (const ConstraintBlock& b : q.blocks) {
      const auto it = std::find_if(p.blocks.begin(), p.blocks.end(),
                                   [&](const ConstraintBlock& c) { return c.id == b.id; });
      ASSERT_NE(it, p.blocks.end());
      ASSERT_EQ(it->size, b.size);
      EXPECT_EQ(VecX(q.v_f.segment(b.offset, b.size)), VecX(p.v_f.segment(it->offset, b.size)));
      for (int body : b.body)
        if (body >= 0) {
          const auto [at, fresh] = island_of_body.emplace(body, k);
          EXPECT_EQ(at->second, k) << "body " << body << " in islands " << at->second << ", " << k;
        }
    }
    isl.scatter(p, k, xk, back);
  }
  EXPECT_EQ(rows, p.nl);
  EXPECT_EQ(back, x);  // gather and scatter are inverse
}

TEST(Islands, OneChainIsOneIsland) {
  Result<Scene> made = make_builtin_scene("chain", {{"n", "6"}});
  ASSERT_TRUE(made) << made.error().message();
  Simulator sim(made->model, made->settings);
  State s = made->initial;
  ASSERT_TRUE(sim.step(s)) << sim.error();
  Islands isl;
  isl.split(sim.problem());
  EXPECT_EQ(isl.count(), 1);
}

TEST(FastPath, IslandsSolvedApartMeetTheFullNaturalMap) {
  // The pile with the fast path: steps split into several islands, every answer is judged on the
  // full problem, and the run follows the full solve's (both solve the NCP to tol; the spheres'
  // contacts are not redundant, so the answers agree closely).
  Scene sc = pile(20);
  SimSettings fast = sc.settings, full = sc.settings;
  fast.fast_path = true;
  full.fast_path = false;
  Simulator a(sc.model, fast), b(sc.model, full);
  State sa = sc.initial, sb = sc.initial;
  int split = 0, converged_a = 0, converged_b = 0;
  const int steps = 150;
  for (int k = 0; k < steps; ++k) {
    ASSERT_TRUE(a.step(sa)) << a.error();
    ASSERT_TRUE(b.step(sb)) << b.error();
    split += a.fast_path_islands() > 1;
    converged_a += test::check_full_natural_map(a, k);
    converged_b += b.solution().converged();
  }
  EXPECT_GT(split, steps / 2);
  EXPECT_GE(converged_a, converged_b);
  double dq = 0.0;
  for (int i = 0; i < sc.model.num_bodies(); ++i) dq = std::max(dq, (sa.r[i] - sb.r[i]).norm());
  EXPECT_LE(dq, 1e-3);
}
