// D's dense copy (Problem::D_dense) is built only for the solvers that read it
// (SolverInfo::reads_dense), and it equals the block-sparse D it copies.
#include <gtest/gtest.h>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

TEST(DenseCopy, BuiltOnlyForSolversThatReadIt) {
  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc) << sc.error().message();
  int readers = 0;
  for (const SolverInfo& info : solver_registry()) {
    if (info.contacts_only) continue;  // a joint scene: declined (siconos-*)
    SimSettings st = sc->settings;
    st.solver = std::string(info.name);
    st.fast_path = false;  // the step's solver on the full Problem
    Simulator sim(sc->model, st);
    State s = sc->initial;
    ASSERT_TRUE(sim.step(s)) << info.name << ": " << sim.error();
    const Problem& p = sim.problem();
    ASSERT_LE(p.nl, st.dynamics.dense_limit);
    EXPECT_EQ(p.has_dense, info.reads_dense) << info.name;
    if (p.has_dense) {
      ++readers;
      MatX D;
      p.D.to_dense(D);
      EXPECT_EQ(p.D_dense, D) << info.name;
    }
  }
  EXPECT_GE(readers, 4);  // direct, the ADMM family, ngn, lemke
}
