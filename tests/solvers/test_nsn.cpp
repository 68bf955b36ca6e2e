// nsn (semismooth Newton on the natural map): the cone projection's Jacobian against finite
// differences, the point mass's stick and slip answers, agreement with nbgs-exact on random
// contact problems with joint and limit rows, local quadratic convergence (on every kind of row,
// and with an asymmetric D),
// redundant contacts, the proximal term's decay, and the sparse Newton system against the dense
// one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/nsn.hpp"
#include "moreau/solvers/solver.hpp"
#include "solvers/implicit_problems.hpp"

using namespace moreau;
using namespace moreau::testing_problems;

namespace {
Solution run_nsn(const char* name, const Problem& p, double tol = 1e-10, int max_iters = 100,
                 const WarmStart& warm = {}) {
  SolverSettings s;
  s.tol = tol;
  s.max_iters = max_iters;
  s.trace = true;
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve(name, p, s, warm, ws, sol)) << sol.message;
  return sol;
}
// Trial k of the random problems with joint and limit rows (4 bodies, 6 contacts, mu from 0.2
// to 0.9) and nbgs-exact's answer at 1e-10, the reference.
struct RandomTrial {
  Problem p;
  Solution reference;
};
RandomTrial random_trial(std::mt19937& rng, int k) {
  const double mu = 0.2 + 0.1 * (k % 8);
  const int joints = k % 3, limits = k % 4;
  RandomTrial t{random_contacts(rng, 4, 6, mu, 1.0, joints, limits), {}};
  t.reference = run_nsn("nbgs-exact", t.p, 1e-10, 20000);
  return t;
}
}  // namespace

TEST(Nsn, ConeProjectionJacobianMatchesFiniteDifferences) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  int inside = 0, polar = 0, surface = 0;
  for (const double mu : {0.0, 0.3, 1.0, 2.5}) {
    for (int k = 0; k < 200; ++k) {
      const Vec3 y(U(rng), U(rng), U(rng));
      const double r = std::hypot(y[0], y[1]);
      // Off the region boundaries, where P is smooth.
      if (std::abs(r - mu * y[2]) < 1e-3 || std::abs(mu * r + y[2]) < 1e-3 || r < 1e-3) continue;
      const Mat3 J = nsn::coulomb_projection_jacobian(y, mu);
      Mat3 fd;
      const double h = 1e-7;
      for (int c = 0; c < 3; ++c) {
        Vec3 a = y, b = y;
        a[c] += h;
        b[c] -= h;
        fd.col(c) = (project_coulomb(a, mu) - project_coulomb(b, mu)) / (2.0 * h);
      }
      EXPECT_LT((J - fd).cwiseAbs().maxCoeff(), 1e-6) << "mu " << mu << " y " << y.transpose();
      if (J.isIdentity())
        ++inside;
      else if (J.isZero())
        ++polar;
      else
        ++surface;
    }
  }
  EXPECT_GT(inside, 20);
  EXPECT_GT(polar, 20);
  EXPECT_GT(surface, 20);
}

TEST(Nsn, PointMassSticksAndSlipsAsCoulombSays) {
  // D = I / m, v_f = (h_x, 0, h_y) / m (dt = 1): holds when |h_x| <= mu |h_y|, else slides with
  // lambda_t = -mu lambda_n sign(h_x), lambda_n = -h_y.
  const double m = 2.0, mu = 0.5;
  for (const double hx : {0.0, 2.0, 4.9, 5.1, 8.0, -12.0}) {
    const Problem p = point_mass(m, hx, -9.81 * m / 2.0, mu);
    const Solution sol = run_nsn("nsn", p);
    ASSERT_TRUE(sol.converged()) << hx << ": " << sol.message;
    const double ln = 9.81 * m / 2.0;
    EXPECT_NEAR(sol.lambda[2], ln, 1e-9) << hx;
    const double lt = std::abs(hx) <= mu * ln ? -hx : -mu * ln * (hx > 0 ? 1.0 : -1.0);
    EXPECT_NEAR(sol.lambda[0], lt, 1e-9) << hx;
    EXPECT_NEAR(sol.lambda[1], 0.0, 1e-12) << hx;
    EXPECT_LE(sol.iterations, 5) << hx;  // piecewise linear in one contact: a few Newton steps
  }
  // Pulled off the plane: no impulse.
  const Solution off = run_nsn("nsn", point_mass(m, 3.0, 9.81, mu));
  ASSERT_TRUE(off.converged());
  EXPECT_LT(off.lambda.cwiseAbs().maxCoeff(), 1e-12);
}

TEST(Nsn, AgreesWithNbgsExactOnRandomProblemsWithJointsAndLimits) {
  // nsn is a local method (nsn.hpp): from a cold start on contact rows only, and on every problem
  // from a warm start 1e-3 away from nbgs-exact's answer (the fast path's use: the previous
  // step's impulses). D is SPD (3 nc + rows <= 6 nb), so the velocities are unique.
  std::mt19937 rng(11);
  int compared = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const RandomTrial t = random_trial(rng, trial);
    const Problem& p = t.p;
    const Solution& b = t.reference;
    const bool joints = p.rows_of(RowKind::Joint) > 0, limits = p.rows_of(RowKind::Limit) > 0;
    if (!b.converged()) continue;
    WarmStart warm;
    warm.lambda = b.lambda;
    for (int i = 0; i < p.nl; ++i) warm.lambda[i] += 1e-3 * std::sin(1.0 + i);
    for (const bool cold : {true, false}) {
      if (cold && (joints || limits)) continue;
      const Solution a = run_nsn("nsn", p, 1e-10, 200, cold ? WarmStart{} : warm);
      ASSERT_TRUE(a.converged()) << trial << (cold ? " cold: " : " warm: ") << a.message;
      GrowVec v(p.nl);
      p.D.multiply(a.lambda.data(), v.data());
      v += p.v_f;
      EXPECT_LE(ncp_residuals(p, a.lambda, v).natmap, 1e-10) << trial;
      EXPECT_LT((a.v_plus - b.v_plus).cwiseAbs().maxCoeff(), 1e-7) << trial;
      ++compared;
    }
  }
  EXPECT_GE(compared, 15);
}

TEST(Nsn, ConvergesQuadraticallyFromNearTheSolution) {
  std::mt19937 rng(3);
  const Problem p = random_contacts(rng, 4, 6, 0.5, 1.0);
  const Solution ref = run_nsn("nsn", p, 1e-13, 200);
  ASSERT_TRUE(ref.converged()) << ref.message;
  WarmStart warm;
  warm.lambda = ref.lambda;
  warm.lambda += VecX::Constant(p.nl, 1e-4);
  const Solution sol = run_nsn("nsn", p, 1e-12, 200, warm);
  ASSERT_TRUE(sol.converged()) << sol.message;
  // From 1e-4 away: the natural map falls at least quadratically, so 1e-12 within 4 steps.
  EXPECT_LE(sol.iterations, 4);
  ASSERT_GE(sol.trace.size(), 2u);
  EXPECT_LT(sol.trace[1], 1e-6);
}

TEST(Nsn, ConvergesQuadraticallyOnEveryKindOfRow) {
  // The Newton system is assembled on the rows that are not unit rows (separating contacts,
  // inactive limits), the unit rows' columns moved to the right-hand side: an error in any kind
  // of row (joint, active limit, sticking or sliding contact with the De Saxce term) or in that
  // right-hand side leaves a step that is not Newton's, which no longer squares the error. From
  // 1e-7 away from the answer (the active set fixed), below 1e-10 after one step and 1e-13 within
  // 3 on each problem, and every kind of row met.
  std::mt19937 rng(17);
  int joints = 0, active_limits = 0, unit_rows = 0, sliding = 0, sticking = 0, trials = 0;
  for (int k = 0; k < 30; ++k) {
    const Problem p = random_contacts(rng, 4, 6, 0.3 + 0.05 * (k % 8), 1.0, k % 3, k % 4);
    const Solution ref = run_nsn("nsn", p, 1e-14, 300);
    if (!ref.converged()) continue;
    ++trials;
    for (const ConstraintBlock& b : p.blocks) {
      const double l = ref.lambda[b.offset], vn = ref.v_plus[b.offset + b.size - 1];
      if (b.kind == RowKind::Joint) ++joints;
      if (b.cone == ConeKind::Orthant) (l > 1e-9 ? active_limits : unit_rows) += 1;
      if (b.cone != ConeKind::Coulomb) continue;
      const double lt = ref.lambda.segment<2>(b.offset).norm(), ln = ref.lambda[b.offset + 2];
      const double vt = ref.v_plus.segment<2>(b.offset).norm();
      if (ln <= 1e-9 && vn > 1e-9) ++unit_rows;
      if (ln > 1e-9 && vt > 1e-9 && lt > (1.0 - 1e-9) * b.mu * ln) ++sliding;
      if (ln > 1e-9 && vt <= 1e-9 && lt < (1.0 - 1e-6) * b.mu * ln) ++sticking;
    }
    WarmStart warm;
    warm.lambda = ref.lambda;
    for (int i = 0; i < p.nl; ++i) warm.lambda[i] += 1e-7 * std::cos(2.0 + i);
    const Solution sol = run_nsn("nsn", p, 1e-13, 50, warm);
    ASSERT_TRUE(sol.converged()) << k << ": " << sol.message;
    EXPECT_LE(sol.iterations, 3) << k;
    ASSERT_GE(sol.trace.size(), 2u) << k;
    EXPECT_LT(sol.trace[1], 1e-10) << k;  // a Newton step: (1e-7)^2 up to the curvature
  }
  EXPECT_GE(trials, 20);
  EXPECT_GT(joints, 0);
  EXPECT_GT(active_limits, 0);
  EXPECT_GT(unit_rows, 0);
  EXPECT_GT(sliding, 0);
  EXPECT_GT(sticking, 0);
}

TEST(Nsn, NewtonRowsFollowAnAsymmetricD) {
  // FCLib's W and user problems are taken as given, not symmetrized: the Newton matrix's rows are
  // A's rows. With D made asymmetric (1e-2 of its scale), a Newton matrix built from A's columns
  // is not F's Jacobian, and the step from 1e-7 away no longer squares the error.
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int checked = 0;
  for (int k = 0; k < 10; ++k) {
    const Problem sym = random_contacts(rng, 4, 4, 0.5, 1.0);
    MatX D;
    sym.D.to_dense(D);
    const MatX S = MatX::NullaryExpr(D.rows(), D.cols(), [&] { return u(rng); });
    D += 1e-2 * D.diagonal().maxCoeff() * (S - S.transpose());
    const Problem p = from_dense(sym.blocks, D, sym.v_f);
    const Solution ref = run_nsn("nsn", p, 1e-14, 300);
    if (!ref.converged()) continue;
    WarmStart warm;
    warm.lambda = ref.lambda;
    for (int i = 0; i < p.nl; ++i) warm.lambda[i] += 1e-7 * std::cos(3.0 + i);
    const Solution sol = run_nsn("nsn", p, 1e-13, 50, warm);
    ASSERT_TRUE(sol.converged()) << k << ": " << sol.message;
    ASSERT_GE(sol.trace.size(), 2u) << k;
    EXPECT_LT(sol.trace[1], 1e-10) << k;
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(Nsn, GaussNewtonStepsWithoutTheProximalTermConverge) {
  // prox = 0: no proximal term, the step is Gauss-Newton on H^T H (the LU's fallback), with H built
  // whole. From 1e-3 away from nbgs-exact's answer on the random problems with joint and limit
  // rows: converged, at its velocities.
  std::mt19937 rng(11);
  int compared = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const RandomTrial t = random_trial(rng, trial);
    if (!t.reference.converged()) continue;
    WarmStart warm;
    warm.lambda = t.reference.lambda;
    for (int i = 0; i < t.p.nl; ++i) warm.lambda[i] += 1e-3 * std::sin(1.0 + i);
    SolverSettings s;
    s.tol = 1e-10;
    s.max_iters = 200;
    s.nsn.prox = 0.0;
    SolverWorkspace ws;
    Solution a;
    ASSERT_TRUE(solve("nsn", t.p, s, warm, ws, a)) << a.message;
    ASSERT_TRUE(a.converged()) << trial << ": " << a.message;
    EXPECT_LT((a.v_plus - t.reference.v_plus).cwiseAbs().maxCoeff(), 1e-7) << trial;
    ++compared;
  }
  EXPECT_GE(compared, 12);  // 14 of the 20 references converge
}

TEST(Nsn, RedundantContactsConverge) {
  // Four contacts under one box, pressed down and pushed sideways below the friction limit: D is
  // singular (12 rows, 6 DoFs); the impulse is not unique but the velocities are (0).
  MatX J = MatX::Zero(12, 6);
  const double m = 2.0, I = 0.1;
  MatX Minv = MatX::Zero(6, 6);
  Minv.topLeftCorner(3, 3) = Mat3::Identity() / m;
  Minv.bottomRightCorner(3, 3) = Mat3::Identity() / I;
  std::vector<ConstraintBlock> spec;
  int k = 0;
  for (const double x : {-0.5, 0.5})
    for (const double y : {-0.5, 0.5}) {
      J.block<3, 3>(3 * k, 0) = Mat3::Identity();
      J.block<3, 3>(3 * k, 3) = -skew(Vec3(x, y, -0.5));
      spec.push_back(block(ConeKind::Coulomb, 3, 0.6));
      ++k;
    }
  const MatX D = J * Minv * J.transpose();
  const Vec6 u_free = (Vec6() << 0.5, 0.2, -2.0, 0.1, -0.1, 0.3).finished();
  const VecX vf = J * u_free;
  const Problem p = from_dense(spec, D, vf);
  const Solution sol = run_nsn("nsn", p, 1e-10, 100);
  ASSERT_TRUE(sol.converged()) << sol.message;
  EXPECT_LT(sol.v_plus.cwiseAbs().maxCoeff(), 1e-9);
}

TEST(Nsn, GrowingTheProximalTermSettlesColdStartsThatStall) {
  // From a cold start with joint and limit rows the Newton step can find no decrease of |F|
  // (nsn.hpp: a local method). Growing eps where the line search fails (prox_max) is meant for
  // exactly that: on the random problems of the test above, it converges on more, with every
  // converged answer at nbgs-exact's velocities (60 problems like those above, monotone search).
  std::mt19937 rng(11);
  int fixed_ok = 0, grown_ok = 0, compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const RandomTrial t = random_trial(rng, trial);
    const Problem& p = t.p;
    const Solution& b = t.reference;
    if (!b.converged()) continue;
    ++compared;
    for (const bool grow : {false, true}) {
      SolverSettings s;
      s.tol = 1e-10;
      s.max_iters = 200;
      s.nsn.ls_memory = 1;                     // the monotone search: the growth alone
      if (!grow) s.nsn.prox_max = s.nsn.prox;  // eps fixed: the step as it was
      SolverWorkspace ws;
      Solution a;
      ASSERT_TRUE(solve("nsn", p, s, {}, ws, a)) << a.message;
      if (!a.converged()) continue;
      ++(grow ? grown_ok : fixed_ok);
      EXPECT_LT((a.v_plus - b.v_plus).cwiseAbs().maxCoeff(), 1e-7) << trial;
    }
  }
  std::printf("cold starts converged: %d of %d with eps fixed, %d grown\n", fixed_ok, compared,
              grown_ok);
  EXPECT_GE(compared, 40);
  EXPECT_GT(grown_ok, fixed_ok);
}

TEST(Nsn, ProxDecayEndsTheCrawlAlongASmallEigenvalue) {
  // Two resting rows, D = diag(1, 1e-6), v_f = -(1, 1e-3): lambda* = (1, 1000), v = 0. With a
  // fixed proximal term eps = 1e-4 max A_ii each Newton step solves the proximal problem centred
  // at the iterate, and along the small eigenvalue sigma the error shrinks by eps / (eps + sigma)
  // = 0.99 a step (and the stall rule only grows eps). With prox_decay = 1 eps falls with the
  // natural map (Fan and Yuan 2005) and the steps become Newton's: a handful of iterations.
  MatX D = MatX::Zero(2, 2);
  D(0, 0) = 1.0;
  D(1, 1) = 1e-6;
  const Problem p = from_dense({block(ConeKind::Orthant, 1), block(ConeKind::Orthant, 1)}, D,
                               VecX(-Eigen::Vector2d(1.0, 1e-3)));
  for (const double decay : {0.0, 1.0}) {
    SolverSettings s;
    s.tol = 1e-13;
    s.max_iters = 200;
    s.nsn.prox = 1e-4;
    s.nsn.prox_decay = decay;
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve("nsn", p, s, {}, ws, sol)) << sol.message;
    if (decay == 0.0) {
      EXPECT_FALSE(sol.converged()) << sol.iterations;
      continue;
    }
    ASSERT_TRUE(sol.converged()) << sol.message;
    EXPECT_LE(sol.iterations, 20);
    EXPECT_NEAR(sol.lambda[0], 1.0, 1e-12);
    EXPECT_NEAR(sol.lambda[1], 1000.0, 1e-6);
  }
}

// D with only its non-zero blocks stored (the builder's pattern: blocks coupled through a body).
void store_nonzero_blocks(Problem& p) {
  const MatX D = p.D_dense;
  std::vector<int> sizes;
  for (const ConstraintBlock& b : p.blocks) sizes.push_back(b.size);
  const int nb = static_cast<int>(sizes.size());
  auto block_of = [&](int i, int j) {
    return D.block(p.blocks[i].offset, p.blocks[j].offset, sizes[i], sizes[j]);
  };
  p.D.begin(sizes.data(), nb);
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < nb; ++j)
      if (i == j || !block_of(i, j).isZero(0.0)) p.D.push_entry(i, j);
  p.D.finalize();
  for (int i = 0; i < nb; ++i)
    for (int e = p.D.row_start(i); e < p.D.row_start(i + 1); ++e)
      p.D.entry(e) = block_of(i, p.D.entry_col(e));
}

// Two algorithms for one Newton step: the dense LU on A's gathered rows and the sparse LU (KLU or
// SparseLU) on the system assembled from D's stored blocks. Same iterates up to round-off, so the
// same iteration counts and answers, on problems with joint, limit and contact rows, with and
// without a softening R.
TEST(Nsn, SparseNewtonSystemTakesTheDenseOnesSteps) {
  std::mt19937 rng(5);
  int compared = 0;
  for (int k = 0; k < 24; ++k) {
    const double mu = 0.2 + 0.1 * (k % 8);
    Problem p = random_contacts(rng, 8, 16, mu, 1.0, k % 3, k % 4);
    store_nonzero_blocks(p);
    ASSERT_LT(4 * p.D.nnz(), p.nl * p.nl);  // sparse enough for the sparse system
    if (k % 2 == 1) p.R.setConstant(p.nl, 1e-3 * p.D_dense(0, 0));
    SolverSettings s;
    s.tol = 1e-10;
    s.max_iters = 100;
    SolverWorkspace ws_dense, ws_sparse;
    Solution dense, sparse;
    s.nsn.dense_rows = 1000;
    ASSERT_TRUE(solve("nsn", p, s, {}, ws_dense, dense));
    s.nsn.dense_rows = 0;
    ASSERT_TRUE(solve("nsn", p, s, {}, ws_sparse, sparse));
    if (dense.status != SolveStatus::Converged) continue;
    ++compared;
    EXPECT_EQ(sparse.status, SolveStatus::Converged) << "trial " << k;
    EXPECT_EQ(sparse.iterations, dense.iterations) << "trial " << k;
    const double scale = std::max(1.0, dense.lambda.cwiseAbs().maxCoeff());
    EXPECT_LT((sparse.lambda - dense.lambda).cwiseAbs().maxCoeff(), 1e-8 * scale) << "trial " << k;
  }
  EXPECT_GE(compared, 20);
}

// Every contact separating (its normal velocity far above what its impulse could cancel): from a
// warm start pressing on them, every row of the first Newton step is a unit row, and the sparse
// system has no row to factor; the step is d = -F, and nsn ends at lambda = 0.
TEST(Nsn, SparseSystemWithEveryRowSeparatingEndsAtZero) {
  std::mt19937 rng(9);
  Problem p = random_contacts(rng, 8, 16, 0.5, 1.0);
  store_nonzero_blocks(p);
  WarmStart warm;
  warm.lambda.setZero(p.nl);
  for (const ConstraintBlock& b : p.blocks) {
    p.v_f[b.offset + 2] = 1e3;
    warm.lambda[b.offset + 2] = 1e-3;
  }
  SolverSettings s;
  s.tol = 1e-10;
  s.nsn.dense_rows = 0;
  SolverWorkspace ws;
  Solution sol;
  ASSERT_TRUE(solve("nsn", p, s, warm, ws, sol));
  EXPECT_EQ(sol.status, SolveStatus::Converged) << sol.message;
  EXPECT_EQ(sol.iterations, 1);
  EXPECT_EQ(sol.lambda.cwiseAbs().maxCoeff(), 0.0);
}
