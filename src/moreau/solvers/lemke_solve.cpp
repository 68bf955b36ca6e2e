// "lemke": builds the pyramid LCP of a Problem (Stewart & Trinkle 1996) and solves it
// with lemke::solve_lcp. Velocity level, impulses: for a contact with normal impulse c_n, friction
// impulse lambda_T = sum_i beta_i d_i (d_i = (cos 2 pi i / n_d, sin 2 pi i / n_d)) and slack sigma,
//   0 <= c_n    perp  v_n                      >= 0
//   0 <= beta_i perp  d_i . v_T + sigma        >= 0
//   0 <= sigma  perp  mu c_n - sum_i beta_i    >= 0
// with v = (D + R) lambda + v_f after the joint rows are eliminated.
#include <algorithm>
#include <cmath>

#include <Eigen/QR>

#include "moreau/solvers/lemke.hpp"
#include "moreau/solvers/prox_fp.hpp"

namespace moreau {

namespace {
constexpr double kTwoPi = 6.283185307179586476925;

struct LemkeWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Lemke;
  MatX A, S, X, T, ST, M, Ms;  // M, q: the LCP; Ms, qs: scaled by diag(r) M diag(r)
  VecX vhat, q, qs, r, z, lam_u;
  std::vector<int> rows_j, rows_u;
  Eigen::CompleteOrthogonalDecomposition<MatX> cod;
  lemke::Tableau tableau;
};

// A = D + R (dense) and the joint / unilateral row index lists.
void dense_operator(const Problem& p, LemkeWorkspace& w) {
  if (p.has_dense && p.D_dense.rows() == p.nl)
    w.A = p.D_dense;
  else
    p.D.to_dense(w.A);
  if (p.R.size() == p.nl) w.A.diagonal() += p.R;
  w.rows_j.clear();
  w.rows_u.clear();
  for (const ConstraintBlock& b : p.blocks)
    for (int k = 0; k < b.size; ++k)
      (b.cone == ConeKind::Free ? w.rows_j : w.rows_u).push_back(b.offset + k);
}

// S = A_UU - A_UJ A_JJ^+ A_JU and vhat = v_fU - A_UJ A_JJ^+ v_fJ: joint rows eliminated.
// X = A_JJ^+ [A_JU, v_fJ] is kept to recover lambda_J.
void eliminate_joints(const Problem& p, LemkeWorkspace& w) {
  const int nj = static_cast<int>(w.rows_j.size()), nu = static_cast<int>(w.rows_u.size());
  w.S = w.A(w.rows_u, w.rows_u);
  w.vhat = p.v_f(w.rows_u);
  if (nj == 0) return;
  MatX rhs(nj, nu + 1);
  rhs.leftCols(nu) = w.A(w.rows_j, w.rows_u);
  rhs.col(nu) = p.v_f(w.rows_j);
  w.cod.setThreshold(1e-10);
  w.cod.compute(w.A(w.rows_j, w.rows_j));
  w.X = w.cod.solve(rhs);
  const MatX AUJ = w.A(w.rows_u, w.rows_j);
  w.S.noalias() -= AUJ * w.X.leftCols(nu);
  w.vhat.noalias() -= AUJ * w.X.col(nu);
}

// T maps LCP unknowns z to lambda_U; M = T^T S T + friction rows; q = T^T vhat.
void build_lcp(const Problem& p, int nd, LemkeWorkspace& w) {
  int nz = 0;
  for (const ConstraintBlock& b : p.blocks)
    nz += b.cone == ConeKind::Orthant ? 1 : (b.cone == ConeKind::Coulomb ? nd + 2 : 0);
  const int nu = static_cast<int>(w.rows_u.size());
  w.T.setZero(nu, nz);
  int u = 0, k = 0;
  for (const ConstraintBlock& b : p.blocks) {
    if (b.cone == ConeKind::Orthant) {
      w.T(u++, k++) = 1.0;
    } else if (b.cone == ConeKind::Coulomb) {  // rows [t, o, n]; unknowns [c_n, beta, sigma]
      w.T(u + 2, k) = 1.0;
      for (int i = 0; i < nd; ++i) {
        w.T(u, k + 1 + i) = std::cos(kTwoPi * i / nd);
        w.T(u + 1, k + 1 + i) = std::sin(kTwoPi * i / nd);
      }
      u += 3;
      k += nd + 2;
    }
  }
  w.ST.noalias() = w.S * w.T;
  w.M.noalias() = w.T.transpose() * w.ST;
  w.q.noalias() = w.T.transpose() * w.vhat;
  k = 0;
  for (const ConstraintBlock& b : p.blocks) {
    if (b.cone == ConeKind::Orthant) {
      ++k;
    } else if (b.cone == ConeKind::Coulomb) {
      const int ks = k + nd + 1;
      w.M(ks, k) = b.mu;
      for (int i = 0; i < nd; ++i) {
        w.M(k + 1 + i, ks) = 1.0;
        w.M(ks, k + 1 + i) = -1.0;
      }
      k += nd + 2;
    }
  }
}

// Per-contact diagonal scaling Ms = diag(r) M diag(r), qs = r .* q, z = r .* z_s, which keeps
// complementarity (positive diagonal factors). With s = sqrt(S_nn) of the contact (or S_ll of a
// limit): c_n and beta scale by 1/s, sigma by s, so the Schur block becomes Jacobi-scaled (unit
// normal diagonal) while the friction rows keep their entries mu, 1, -1. Without it, impulses of
// 1e5 against a Delassus of 1e-4 (FCLib's PerioBox) leave no meaningful pivot tolerance. The
// covering vector of the scaled LCP is r, so that Lemke follows the path of the unscaled LCP
// with d = 1 (the same solution where several exist, e.g. Painleve's cases).
void scale_lcp(const Problem& p, int nd, LemkeWorkspace& w) {
  const int nz = static_cast<int>(w.q.size());
  w.r.setOnes(nz);
  int u = 0, k = 0;
  for (const ConstraintBlock& b : p.blocks) {
    if (b.cone == ConeKind::Free) continue;
    const int row = b.cone == ConeKind::Orthant ? u : u + 2;
    const double d = w.S(row, row);
    const double s = d > 0.0 ? std::sqrt(d) : 1.0;
    if (b.cone == ConeKind::Orthant) {
      w.r[k++] = 1.0 / s;
      u += 1;
    } else {
      w.r.segment(k, nd + 1).setConstant(1.0 / s);
      w.r[k + nd + 1] = s;
      k += nd + 2;
      u += 3;
    }
  }
  w.Ms = w.r.asDiagonal() * w.M * w.r.asDiagonal();
  w.qs = w.r.cwiseProduct(w.q);
}

// lambda from z: lambda_U = T z, lambda_J = -A_JJ^+ (A_JU lambda_U + v_fJ).
void recover_lambda(LemkeWorkspace& w, VecRef lam) {
  const int nu = static_cast<int>(w.rows_u.size());
  w.lam_u.noalias() = w.T * w.z;
  for (int i = 0; i < nu; ++i) lam[w.rows_u[i]] = w.lam_u[i];
  if (w.rows_j.empty()) return;
  const VecX lj = -(w.X.leftCols(nu) * w.lam_u + w.X.col(nu));
  for (size_t i = 0; i < w.rows_j.size(); ++i) lam[w.rows_j[i]] = lj[i];
}
}  // namespace

void solve_lemke(const Problem& p, const SolverSettings& s, const WarmStart&, SolverWorkspace& ws,
                 Solution& sol) {
  if (reject_invalid_problem("lemke", p, sol)) return;
  const int nd = s.lemke.directions;
  const double pivot_factor = s.lemke.pivot_factor;
  if (!(pivot_factor > 0.0) || !std::isfinite(pivot_factor)) {
    sol.status = SolveStatus::Failed;
    sol.message =
        "lemke: parameter 'pivot_factor' must be positive, got " + std::to_string(pivot_factor);
    sol.lambda.setZero(p.nl);
    return;
  }
  if (nd < 3 || nd > 1024) {
    sol.status = SolveStatus::Failed;
    sol.message =
        "lemke: parameter 'directions' must be an integer in [3, 1024], got " + std::to_string(nd);
    sol.lambda.setZero(p.nl);
    return;
  }
  auto& w = ws.get<LemkeWorkspace>();
  sol.lambda.setZero(p.nl);
  dense_operator(p, w);
  eliminate_joints(p, w);
  build_lcp(p, nd, w);
  scale_lcp(p, nd, w);
  const double n = static_cast<double>(w.q.size());
  const int max_pivots =
      static_cast<int>(std::min(1e9, std::max(1.0, std::ceil(pivot_factor * n))));
  int pivots = 0;
  const lemke::Result r =
      lemke::solve_lcp(w.Ms, w.qs, w.r, max_pivots, s.lemke.pivot_tol, w.tableau, w.z, &pivots);
  sol.iterations = pivots;
  if (r != lemke::Result::Solution) {
    sol.status = SolveStatus::Failed;
    sol.message = std::string("lemke: ") + lemke::result_name(r) + " after " +
                  std::to_string(pivots) + " pivots" +
                  (r == lemke::Result::RayTermination
                       ? " (no LCP solution found: e.g. the Painleve case G < 0, b < 0)"
                       : " (raise pivot_factor)");
    sol.residual = INFINITY;
    return;
  }
  w.z.array() *= w.r.array();  // back to the unscaled unknowns
  sol.residual = lemke::lcp_residual(w.M, w.q, w.z);
  if (s.trace) sol.trace.push_back(sol.residual);
  recover_lambda(w, sol.lambda);
  sol.status = SolveStatus::Converged;
}

}  // namespace moreau
