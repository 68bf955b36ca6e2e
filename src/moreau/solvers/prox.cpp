// "prox": block SOR-prox (Studer 2009, Schindler/Studer/Glocker SORProx; report Sec. 3.3 eq.
// 143-145) on the NCP. Block Gauss-Seidel proximal iteration
//   lambda_j <- prox_{K_j}(lambda_j - alpha r_j v_hat_j),  v_hat_j = ((D+R) lambda + v_f)_j +
//   Gamma_j
// with per-block r-factors from the conditioning of the diagonal blocks:
//   joints  r_j = ((D+R)_jj)^-1 (the exact block solve; prox on R^m is the identity),
//   limits  r_j = 1 / (D+R)_jj,   contacts  r_j = 1 / lambda_max((D+R)_jj)  (3-D Coulomb prox),
// and the global relaxation alpha adapted: a sweep whose natural map exceeds 10x the best one is
// undone (restart from the best iterate) and alpha shrinks by 0.5; a slowly converging sweep
// (residual above 0.9x the previous one) grows alpha by 1.1, up to alpha_max = 1 by default
// (over-relaxation, alpha_max > 1, made fourbar-fixed and chain simulations fail: see docs).
// The best iterate is returned.
#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

#include "moreau/ncp/blocks.hpp"
#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/first_order.hpp"
#include "moreau/solvers/stop.hpp"

namespace moreau {

namespace {
using namespace first_order;
using RowMajorX = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct ProxWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Prox;
  std::vector<double> inv;     // joints: ((D+R)_jj)^-1 row-major; others: one entry r_j
  std::vector<int> inv_start;  // per block
  GrowVec lam_good, v, scratch;
  Eigen::Matrix<double, 6, 1> vb;
};

// r-factors of every block from its diagonal block of D + R.
void compute_r_factors(const Problem& p, ProxWorkspace& w) {
  const int nbk = p.num_blocks();
  w.inv_start.resize(nbk + 1);
  int total = 0;
  for (int i = 0; i < nbk; ++i) {
    w.inv_start[i] = total;
    total += p.blocks[i].cone == ConeKind::Free ? p.blocks[i].size * p.blocks[i].size : 1;
  }
  w.inv_start[nbk] = total;
  w.inv.resize(total);
  for (int i = 0; i < nbk; ++i) {
    const ConstraintBlock& b = p.blocks[i];
    const int n = b.size;
    Mat6 A = regularized_diagonal_block(p, i);
    const double scale = std::max(1e-300, A.diagonal().head(n).maxCoeff());
    if (b.cone == ConeKind::Free) {  // regularized by 1e-12 scale: rank-deficient joint blocks
      Eigen::Map<RowMajorX>(w.inv.data() + w.inv_start[i], n, n) =
          block_diagonal_inverse(p, i, {1e-12, 1e-300, true}).topLeftCorner(n, n);
    } else if (b.cone == ConeKind::Orthant || b.cone == ConeKind::Box) {
      w.inv[w.inv_start[i]] = 1.0 / scale;
    } else {
      Eigen::SelfAdjointEigenSolver<Mat3> es;
      es.computeDirect(A.topLeftCorner<3, 3>(), Eigen::EigenvaluesOnly);
      w.inv[w.inv_start[i]] = 1.0 / std::max(es.eigenvalues()[2], 1e-300);
    }
  }
}

// One Gauss-Seidel sweep over all blocks (joints, limits, contacts: the problem's order).
void sweep(const Problem& p, double alpha, ProxWorkspace& w, GrowVec& lam) {
  const bool has_r = p.R.size() == p.nl;
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    const int n = b.size, o = b.offset;
    // v_i = v_f,i + sum_j D_ij lambda_j + R_i lambda_i   (eq. 13, 95), block row i only
    auto v = w.vb.head(n);
    v = p.v_f.segment(o, n);
    p.D.multiply_row_add(i, lam.data(), w.vb.data());
    if (has_r) v.array() += p.R.segment(o, n).array() * lam.segment(o, n).array();
    const double* r = w.inv.data() + w.inv_start[i];
    switch (b.cone) {
      case ConeKind::Free:
        lam.segment(o, n).noalias() -= alpha * (Eigen::Map<const RowMajorX>(r, n, n) * v);
        break;
      case ConeKind::Orthant:
        lam[o] = project_orthant(lam[o] - alpha * r[0] * v[0]);
        break;
      case ConeKind::Box:
        lam[o] = project_box(lam[o] - alpha * r[0] * v[0], b.bound);
        break;
      case ConeKind::Coulomb: {
        const Vec3 vh = Vec3(v[0], v[1], v[2]) + de_saxce(Vec3(v[0], v[1], v[2]), b.mu);
        lam.segment<3>(o) = project_coulomb(lam.segment<3>(o) - alpha * r[0] * vh, b.mu);
        break;
      }
    }
  }
}
}  // namespace

void solve_prox(const Problem& p, const SolverSettings& st, const WarmStart& warm,
                SolverWorkspace& ws, Solution& sol) {
  auto& w = ws.get<ProxWorkspace>();
  double alpha = st.prox.alpha;  // relaxation of the r-factors, (0, 2)
  const double alpha_min = st.prox.alpha_min, alpha_max = st.prox.alpha_max;
  const double shrink = st.prox.shrink, grow = st.prox.grow;
  const double slow = st.prox.slow_ratio;        // res_k > slow res_{k-1}: converging slowly
  const double diverge = st.prox.diverge_ratio;  // res_k > this * best: diverging
  compute_r_factors(p, w);
  GrowVec& lam = sol.lambda;
  if (warm.empty())
    lam.setZero();
  else
    lam = warm.lambda;
  w.v.resize(p.nl);
  w.lam_good = lam;
  multiply_regularized(p, lam, w.v);
  w.v += p.v_f;
  double good = ncp_residuals(p, lam, w.v, true, w.scratch).natmap;
  sol.status = SolveStatus::MaxIterations;
  sol.residual = good;
  if (good <= st.tol) sol.status = SolveStatus::Converged;
  double prev = good;
  for (int it = 0; it < st.max_iters && sol.status != SolveStatus::Converged; ++it) {
    if (should_stop()) break;  // a signal or the step's time budget (solvers/stop.hpp)
    sweep(p, alpha, w, lam);
    // Natural map (eq. 163) after the sweep: stopping test and adaptation signal.
    multiply_regularized(p, lam, w.v);
    w.v += p.v_f;
    const double res = ncp_residuals(p, lam, w.v, true, w.scratch).natmap;
    sol.iterations = it + 1;
    if (st.trace) sol.trace.push_back(res);
    if (!(res <= diverge * good)) {
      // Diverging (or non-finite): back to the best iterate with smaller r-factors.
      lam = w.lam_good;
      alpha = std::max(alpha_min, alpha * shrink);
      prev = good;
      continue;
    }
    if (res > slow * prev) alpha = std::min(alpha_max, alpha * grow);  // slow: larger steps
    prev = res;
    if (res < good) {
      good = res;
      w.lam_good = lam;
      sol.residual = res;
    }
    if (res <= st.tol) sol.status = SolveStatus::Converged;
  }
  lam = w.lam_good;
}

}  // namespace moreau
