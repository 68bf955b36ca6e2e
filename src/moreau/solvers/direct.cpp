#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>

#include "moreau/solvers/pgs_basic_direct.hpp"

namespace moreau {

namespace {
struct DirectWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Direct;
  MatX A;
  VecX r, Al;  // refinement residual and A lambda
  Eigen::LDLT<MatX> dense;
  std::vector<Eigen::Triplet<double>> triplets;
  Eigen::SparseMatrix<double> S;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> sparse;
};
}  // namespace

void solve_direct(const Problem& p, const SolverSettings& s, const WarmStart&, SolverWorkspace& ws,
                  Solution& sol) {
  for (const ConstraintBlock& b : p.blocks)
    if (b.cone != ConeKind::Free) {
      sol.status = SolveStatus::Failed;
      sol.lambda.setZero();
      sol.message = std::string("'direct' solves bilateral rows only; this problem has ") +
                    row_kind_name(b.kind) + " rows (use an NCP solver such as 'pgs')";
      return;
    }
  sol.iterations = 1;
  if (p.nl == 0) {
    sol.status = SolveStatus::Converged;
    return;
  }
  auto& w = ws.get<DirectWorkspace>();
  const double rel = s.direct.regularization;
  double dmax = 0.0;
  for (int i = 0; i < p.num_blocks(); ++i)
    dmax = std::max(dmax, p.D.diagonal(i).diagonal().maxCoeff());
  const double eps = rel * std::max(dmax, 1e-300);
  bool ok;
  if (p.nl <= 512) {
    if (p.has_dense)
      w.A = p.D_dense;
    else
      p.D.to_dense(w.A);
    if (p.R.size() == p.nl) w.A.diagonal() += p.R;  // softening: (D + R) lambda = -v_f (eq. 95)
    w.A.diagonal().array() += eps;
    w.dense.compute(w.A);
    ok = w.dense.info() == Eigen::Success;
    if (ok) {
      // Solved in place and the product into Al: no Eigen temporaries (no allocation per step).
      sol.lambda = -p.v_f;
      w.dense.solveInPlace(sol.lambda);
      // Iterative refinement on D itself: removes the bias of the regularization on the range of D.
      for (int k = 0; k < 3; ++k) {
        w.Al.noalias() = w.A * sol.lambda;
        w.r = -p.v_f - (w.Al - eps * sol.lambda);
        w.dense.solveInPlace(w.r);
        sol.lambda += w.r;
      }
    }
  } else {
    const auto R = [&p](int row) { return p.R.size() == p.nl ? p.R[row] : 0.0; };
    w.triplets.clear();
    for (int i = 0; i < p.num_blocks(); ++i)
      for (int e = p.D.row_start(i); e < p.D.row_start(i + 1); ++e) {
        const auto B = p.D.entry(e);
        const int r0 = p.D.block_offset(i), c0 = p.D.block_offset(p.D.entry_col(e));
        for (int a = 0; a < B.rows(); ++a)
          for (int c = 0; c < B.cols(); ++c)
            w.triplets.emplace_back(r0 + a, c0 + c,
                                    B(a, c) + (r0 + a == c0 + c ? eps + R(r0 + a) : 0.0));
      }
    w.S.resize(p.nl, p.nl);
    w.S.setFromTriplets(w.triplets.begin(), w.triplets.end());
    w.sparse.compute(w.S);
    ok = w.sparse.info() == Eigen::Success;
    if (ok) {
      sol.lambda = w.sparse.solve(-p.v_f);
      for (int k = 0; k < 3; ++k) {
        w.r.resize(p.nl);
        p.D.multiply(sol.lambda.data(), w.r.data());
        if (p.R.size() == p.nl) w.r.array() += p.R.array() * sol.lambda.array();
        w.r = -p.v_f - w.r;
        sol.lambda += w.sparse.solve(w.r);
      }
    }
  }
  if (!ok) {
    sol.status = SolveStatus::Failed;
    sol.message = "LDLT factorization failed";
    sol.lambda.setZero();
    return;
  }
  sol.status = SolveStatus::Converged;
}

}  // namespace moreau
