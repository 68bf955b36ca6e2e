// A kinematic loop's redundant joint rows (dynamics/builder.cpp, make_redundant_rows_consistent):
// their biases are made the combination of the other rows' that the rows themselves are, so the
// joint equations D_jj lambda_j = -(v_j + D_jc lambda_c) have a solution at every step. Without
// it the drift compensation's curvature breaks that relation on ironman (mass ratio 2.6e4, 80
// redundant rows) by a growing amount, and every step past the first few stalled above tol.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "moreau/dynamics/analysis.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

TEST(RedundantRows, IronmansJointBiasesStayInTheDelassusRangeAndEveryStepConverges) {
  Result<Scene> made = make_builtin_scene("ironman");
  ASSERT_TRUE(made) << made.error().message();
  Scene sc = std::move(*made);
  ASSERT_EQ(summarize_model(sc.model, sc.initial).redundant_rows, 80);
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  int unconverged = 0;
  for (int k = 0; k < 120; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    unconverged += !sim.solution().converged();
  }
  EXPECT_EQ(unconverged, 0);
  // The last step's joint rows: v_j's least-squares residual in D_jj's range is round-off (it was
  // 1e-8 m/s here before the biases were made consistent).
  const Problem& p = sim.problem();
  const int nj = p.rows_of(RowKind::Joint);
  MatX D;
  p.D.to_dense(D);
  const MatX Djj = D.topLeftCorner(nj, nj);
  const VecX vj = p.v_f.head(nj);
  const Eigen::CompleteOrthogonalDecomposition<MatX> cod(Djj);
  EXPECT_EQ(cod.rank(), nj - 80);
  EXPECT_LE((Djj * cod.solve(vj) - vj).cwiseAbs().maxCoeff(),
            1e-12 * (1.0 + vj.cwiseAbs().maxCoeff()));
}
