// ADMM family, APGD and SOR-prox on hand-built problems with analytic answers; softening.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "moreau/dynamics/softening.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/admm_linear.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

namespace {

// One block of the given cone with Delassus block Dm and free velocity vf.
Problem one_block(ConeKind cone, const MatX& Dm, const VecX& vf, double mu = 0.0) {
  Problem p;
  p.dt = 1e-3;
  const int n = static_cast<int>(vf.size());
  ConstraintBlock b;
  b.kind = cone == ConeKind::Coulomb
               ? RowKind::Contact
               : (cone == ConeKind::Orthant ? RowKind::Limit : RowKind::Joint);
  b.cone = cone;
  b.size = n;
  b.mu = mu;
  p.blocks.push_back(b);
  p.nl = n;
  const int sizes[1] = {n};
  p.D.begin(sizes, 1);
  p.D.push_entry(0, 0);
  p.D.finalize();
  p.D.entry(0) = Dm;
  p.D.to_dense(p.D_dense);
  p.has_dense = true;
  p.v_f = vf;
  p.v_minus = VecX::Zero(n);
  p.f = VecX::Zero(n);
  return p;
}

Problem contact(const Vec3& vf, double mu) {
  return one_block(ConeKind::Coulomb, Vec3(2.0, 2.0, 1.0).asDiagonal().toDenseMatrix(), vf, mu);
}

struct Named {
  const char* name;
  bool ccp;  // solves the CCP (eq. 18) rather than the NCP (eq. 15)
};
const Named kSolvers[] = {{"admm-ccp", true},     {"admm-ncp-fp", false}, {"admm-ncp-la", false},
                          {"admm-ncp-sa", false}, {"apgd", true},         {"prox", false}};

Solution run_admm(const std::string& name, const Problem& p, double tol = 1e-12) {
  SolverSettings s;
  s.tol = tol;
  s.max_iters = 20000;
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve(name, p, s, {}, ws, sol)) << sol.message;
  return sol;
}

class FirstOrder : public ::testing::TestWithParam<Named> {};

// Checks lambda against the expected answer and the solver's own natural map.
void expect_answer(const Named& sv, const Problem& p, const Vec3& expected) {
  const Solution sol = run_admm(sv.name, p);
  EXPECT_TRUE(sol.converged()) << sv.name << ": " << status_name(sol.status);
  EXPECT_LE((sol.lambda - expected).cwiseAbs().maxCoeff(), 1e-8)
      << sv.name << " got " << sol.lambda.transpose();
  EXPECT_LE(ncp_residuals(p, sol.lambda, sol.v_plus, !sv.ccp).natmap, 1e-8) << sv.name;
}
}  // namespace

TEST_P(FirstOrder, SingleContactSticking) {
  // lambda^0 = -D^-1 v_f = [-0.1, 0.05, 1] lies inside K_0.8: sticking, v+ = 0 (NCP = CCP).
  const Problem p = contact(Vec3(0.2, -0.1, -1.0), 0.8);
  expect_answer(GetParam(), p, Vec3(-0.1, 0.05, 1.0));
}

TEST_P(FirstOrder, SingleContactSliding) {
  // v_f,T = 3 e, e = (0.6, 0.8), D = diag(2, 2, 1), mu = 0.5.
  // NCP: v_n = 0 -> lambda_n = 1, lambda_T = -mu e; v+_T = (3 - 1) e keeps its direction.
  // CCP (eq. 18): lambda = a [-mu e; 1] with v . lambda = 0 -> a (1 + 2 mu^2) = 1 + 3 mu,
  // a = 5/3: the CCP pushes 5/3 instead of 1 and separates at v_n = mu |v_T| = 2/3.
  const double mu = 0.5;
  const Problem p = contact(Vec3(1.8, 2.4, -1.0), mu);
  const Vec3 ncp(-0.3, -0.4, 1.0);
  const double a = 5.0 / 3.0;
  const Vec3 ccp(-mu * a * 0.6, -mu * a * 0.8, a);
  EXPECT_GT((ncp - ccp).cwiseAbs().maxCoeff(), 0.6);  // the two models differ here
  expect_answer(GetParam(), p, GetParam().ccp ? ccp : ncp);
}

TEST_P(FirstOrder, SingleContactSeparating) {
  expect_answer(GetParam(), contact(Vec3(0.3, 0.1, 0.5), 0.5), Vec3::Zero());
}

TEST_P(FirstOrder, FrictionlessContactAndLimit) {
  // mu = 0: lambda = [0, 0, -v_n / D_nn] when approaching.
  expect_answer(GetParam(), contact(Vec3(0.7, -0.2, -0.5), 0.0), Vec3(0.0, 0.0, 0.5));
  MatX D1(1, 1);
  D1(0, 0) = 4.0;
  VecX vf(1);
  vf[0] = -2.0;
  const Solution sol = run_admm(GetParam().name, one_block(ConeKind::Orthant, D1, vf));
  EXPECT_NEAR(sol.lambda[0], 0.5, 1e-8);
}

TEST_P(FirstOrder, RankDeficientJointBlockGivesZeroVelocity) {
  // D = a a^T + b b^T (rank 2 in R^3), v_f in range(D): any solution has v+ = 0.
  Eigen::Matrix3d A;
  A << 1, 2, 0, 0, 1, 1, 1, 3, 1;  // third row = first + second
  const MatX D = A * A.transpose();
  const VecX vf = D * Vec3(0.3, -0.2, 0.5);
  const Solution sol = run_admm(GetParam().name, one_block(ConeKind::Free, D, vf));
  EXPECT_TRUE(sol.converged()) << GetParam().name;
  EXPECT_LE(sol.v_plus.cwiseAbs().maxCoeff(), 1e-10) << GetParam().name;
}

TEST_P(FirstOrder, DeterministicAndWorkspaceIndependent) {
  const Problem p = contact(Vec3(1.8, 2.4, -1.0), 0.5);
  SolverSettings s;
  s.tol = 1e-9;
  SolverWorkspace ws;
  Solution a, b, c;
  ASSERT_TRUE(solve(GetParam().name, p, s, {}, ws, a));
  ASSERT_TRUE(solve(GetParam().name, contact(Vec3(-5, 1, -3), 0.2), s, {}, ws, b));  // dirty ws
  ASSERT_TRUE(solve(GetParam().name, p, s, {}, ws, c));
  EXPECT_EQ(a.iterations, c.iterations);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(a.lambda[k], c.lambda[k]);
}

TEST_P(FirstOrder, WarmStartAtTheSolutionStopsEarly) {
  const Problem p = contact(Vec3(0.2, -0.1, -1.0), 0.8);
  SolverSettings s;
  s.tol = 1e-9;
  SolverWorkspace ws;
  Solution sol;
  WarmStart w;
  w.lambda = Vec3(-0.1, 0.05, 1.0);
  ASSERT_TRUE(solve(GetParam().name, p, s, w, ws, sol));
  EXPECT_TRUE(sol.converged());
  EXPECT_LE(sol.iterations, 3) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(All, FirstOrder, ::testing::ValuesIn(kSolvers), [](const auto& info) {
  std::string n = info.param.name;
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
});

TEST(AdmmOptions, AccelerationAndBackendsAgree) {
  const Problem p = contact(Vec3(1.8, 2.4, -1.0), 0.5);
  for (const char* backend : {"0", "1"})
    for (double accel : {0.0, 1.0})
      for (double relax : {1.0, 1.6}) {
        SolverSettings s;
        s.tol = 1e-12;
        s.max_iters = 5000;
        s.admm.backend = std::stoi(backend);
        s.admm.accel = accel != 0.0;
        s.admm.relaxation = relax;
        SolverWorkspace ws;
        Solution sol;
        ASSERT_TRUE(solve("admm-ncp-fp", p, s, {}, ws, sol));
        EXPECT_TRUE(sol.converged()) << backend << " " << accel << " " << relax;
        EXPECT_LE((sol.lambda - Vec3(-0.3, -0.4, 1.0)).cwiseAbs().maxCoeff(), 1e-8);
      }
}

TEST(AdmmLinear, DenseInverseSolvesAsTheFactorAndFollowsEachRefactor) {
  // After kSolvesBeforeInverse solves a dense factor is replaced by its explicit inverse: the
  // answers must stay those of the factor (to round-off of a well-conditioned system), and a new
  // shift must give the new system's answer (a stale inverse would not).
  const int n = 30;
  MatX B = MatX::NullaryExpr(n, n, [](Eigen::Index i, Eigen::Index j) {
    return std::sin(1.0 + 3.0 * double(i) + 7.0 * double(j));
  });
  const MatX D = B * B.transpose();
  Problem p = one_block(ConeKind::Free, D, VecX::Zero(n));
  const VecX b = VecX::LinSpaced(n, -1.0, 2.0);
  AdmmLinearSolver lin;
  lin.setup(p, 0, 1000);
  ASSERT_EQ(lin.backend(), AdmmLinearSolver::Backend::Dense);
  for (double shift : {0.5, 2.0}) {
    ASSERT_TRUE(lin.factor(shift));
    const VecX want = (D + shift * MatX::Identity(n, n)).llt().solve(b);
    GrowVec x;
    for (int k = 0; k < 20; ++k) {
      lin.solve(b, x);
      ASSERT_EQ(x.size(), n);
      EXPECT_LE((VecX(x) - want).cwiseAbs().maxCoeff(), 1e-10 * want.cwiseAbs().maxCoeff())
          << "shift " << shift << ", solve " << k;
    }
  }
}

TEST(Apgd, NcpOptionSolvesTheNcp) {
  const Problem p = contact(Vec3(1.8, 2.4, -1.0), 0.5);
  SolverSettings s;
  s.tol = 1e-12;
  s.max_iters = 20000;
  s.apgd.ncp = true;
  SolverWorkspace ws;
  Solution sol;
  ASSERT_TRUE(solve("apgd", p, s, {}, ws, sol));
  EXPECT_TRUE(sol.converged());
  EXPECT_LE((sol.lambda - Vec3(-0.3, -0.4, 1.0)).cwiseAbs().maxCoeff(), 1e-8);
}

// ---- Softening (eq. 103-113) ----

TEST(Softening, ImpedanceFollowsTheSigmoid) {
  ImpedanceParams ip;  // d0 0.9, dwidth 0.95, width 1e-3, midpoint 0.5, power 2
  EXPECT_DOUBLE_EQ(impedance(ip, 0.0), 0.9);
  EXPECT_DOUBLE_EQ(impedance(ip, 2e-3), 0.95);
  EXPECT_DOUBLE_EQ(impedance(ip, -1e-3), 0.95);
  // x = 0.25 <= m: f_s = x^2 / m = 0.125; x = 0.75: f_s = 1 - 0.25^2 / 0.5 = 0.875.
  EXPECT_NEAR(impedance(ip, 0.25e-3), 0.9 + 0.125 * 0.05, 1e-15);
  EXPECT_NEAR(impedance(ip, -0.75e-3), 0.9 + 0.875 * 0.05, 1e-15);
  ip.power = 1.0;
  EXPECT_NEAR(impedance(ip, 0.3e-3), 0.9 + 0.3 * 0.05, 1e-15);
}

TEST(Softening, OneBilateralRowIsTheDecoupledSpringDamper) {
  // 1 row: D (D + R)^-1 = d, R (D + R)^-1 = 1 - d, so eq. 112 reads exactly eq. 113:
  //   v+ = D lambda + v_f = (1 - d) v_f - d v_r.
  const double D = 2.0, vf = -0.3, vminus = 0.5, r = 0.5e-3, dt = 1e-3;
  MatX Dm(1, 1);
  Dm(0, 0) = D;
  VecX v(1);
  v[0] = vf;
  Problem p = one_block(ConeKind::Free, Dm, v);
  p.dt = dt;
  p.v_minus[0] = vminus;
  p.f[0] = r;
  SofteningSettings ss;
  ss.enabled = true;
  ss.mujoco_reference = false;  // eq. 106 as written
  apply_softening(p, ss);
  // d = 0.9 + f_s(0.5) 0.05 = 0.925; c = (1 - d) / d; b = 2 / (T dw); k = d / (T^2 zeta^2 dw^2).
  const double d = 0.925, T = 0.02, dw = 0.95;
  const double b = 2.0 / (T * dw), k = d / (T * T * dw * dw);
  const double vr = dt * (b * vminus + k * r);
  ASSERT_EQ(p.R.size(), 1);
  EXPECT_NEAR(p.R[0], (1.0 - d) / d * D, 1e-14);
  EXPECT_NEAR(p.v_r[0], vr, 1e-14);
  EXPECT_NEAR(p.v_f[0], vf + vr, 1e-14);
  const double expected = (1.0 - d) * vf - d * vr;  // eq. 113
  for (const Named& sv : kSolvers) {
    const Solution sol = run_admm(sv.name, p);
    EXPECT_TRUE(sol.converged()) << sv.name;
    EXPECT_NEAR(sol.lambda[0], -(vf + vr) / (D + p.R[0]), 1e-10) << sv.name;  // eq. 111
    EXPECT_NEAR(D * sol.lambda[0] + vf, expected, 1e-10) << sv.name;
  }
}

TEST(Softening, MujocoReferenceAddsTheCurrentVelocity) {
  MatX Dm(1, 1);
  Dm(0, 0) = 1.0;
  VecX v(1);
  v[0] = 0.0;
  Problem p = one_block(ConeKind::Free, Dm, v);
  p.v_minus[0] = -1.0;
  p.f[0] = 0.0;  // d = d0 = 0.9
  SofteningSettings ss;
  ss.enabled = true;
  ss.mujoco_reference = true;
  apply_softening(p, ss);
  // v+ = (1 - d) v_f + d (v^- - dt b v^-): a damped step from the current velocity.
  const double d = 0.9, b = 2.0 / (0.02 * 0.95);
  const Solution sol = run_admm("admm-ncp-fp", p);
  EXPECT_NEAR(sol.lambda[0] + 0.0, d * (-1.0 + 1e-3 * b), 1e-10);
}

TEST(Softening, DisabledLeavesTheProblemHard) {
  MatX Dm(1, 1);
  Dm(0, 0) = 1.0;
  VecX v(1);
  v[0] = -1.0;
  Problem p = one_block(ConeKind::Free, Dm, v);
  apply_softening(p, SofteningSettings{});
  EXPECT_EQ(p.R.size(), 0);
  EXPECT_EQ(p.v_f[0], -1.0);
}

TEST(Softening, SettingsAreValidated) {
  SofteningSettings s;
  EXPECT_EQ(softening_error(s), "");
  s.contact.d0 = 0.99;  // above dwidth 0.95
  EXPECT_NE(softening_error(s).find("softening.contact.d0"), std::string::npos);
  s = SofteningSettings{};
  s.joint.timeconst = 0.0;
  EXPECT_NE(softening_error(s).find("softening.joint.timeconst"), std::string::npos);
}

TEST(FirstOrderEdge, EmptyProblemConvergesAtOnce) {
  Problem p;
  p.D.begin(nullptr, 0);
  p.D.finalize();
  for (const Named& sv : kSolvers) {
    SolverSettings s;
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve(sv.name, p, s, {}, ws, sol)) << sv.name;
    EXPECT_TRUE(sol.converged()) << sv.name;
    EXPECT_EQ(sol.lambda.size(), 0);
  }
}

TEST(FirstOrderEdge, NonFiniteFreeVelocityIsNotConverged) {
  Problem p = contact(Vec3(0.2, -0.1, std::nan("")), 0.8);
  for (const Named& sv : kSolvers) {
    SolverSettings s;
    s.max_iters = 50;
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve(sv.name, p, s, {}, ws, sol)) << sv.name;
    EXPECT_FALSE(sol.converged()) << sv.name << " " << status_name(sol.status);
  }
}
