#include <algorithm>
#include <cmath>
#include <cstdio>

#include "moreau/ncp/blocks.hpp"
#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/pgs_basic_direct.hpp"
#include "moreau/solvers/stop.hpp"

namespace moreau {

namespace {
// Up to one block (6 rows) on the stack: the products below would otherwise evaluate into heap
// temporaries on every block update.
using Block6 = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

struct PgsBasicWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::PgsBasic;
  std::vector<double> inv;     // per block: D_ii^-1 (row-major, size_i^2), regularized
  std::vector<int> inv_start;  // offset of each block's inverse in inv
  GrowVec v;                   // scratch velocity of one block
  GrowVec v_full, scratch;     // D lambda + v_f and residual scratch (nl), for the final check
};

// (D + R)_ii^-1 for every block (joints need the full block; others use the diagonal only),
// regularized by 1e-12 max(1, max_k (D + R)_ii,kk); R is the softening compliance (eq. 106).
void invert_diagonal_blocks(const Problem& p, PgsBasicWorkspace& w) {
  block_diagonal_inverses(p, {1e-12, 1.0, true}, w.inv, w.inv_start);
}

// (D + R)_ii,kk: the step length of a scalar row (R = 0 without softening).
double diagonal_entry(const Problem& p, int block, int k) {
  const double d = p.D.diagonal(block)(k, k);
  return p.R.size() == p.nl ? d + p.R[p.blocks[block].offset + k] : d;
}
}  // namespace

void solve_pgs_basic(const Problem& p, const SolverSettings& s, const WarmStart& warm,
                     SolverWorkspace& ws, Solution& sol) {
  auto& w = ws.get<PgsBasicWorkspace>();
  const double omega = s.pgs.omega;
  invert_diagonal_blocks(p, w);
  GrowVec& lam = sol.lambda;
  if (warm.empty())
    lam.setZero();
  else
    lam = warm.lambda;
  w.v.resize(6);
  const bool soft = p.R.size() == p.nl;  // softened rows: v = (D + R) lambda + v_f (eq. 95)
  sol.status = SolveStatus::MaxIterations;
  for (int it = 0; it < s.max_iters; ++it) {
    if (should_stop()) break;  // a signal or the step's time budget (solvers/stop.hpp)
    double change = 0.0;       // largest velocity change D_ii dlambda_i over the sweep (L-inf)
    for (int i = 0; i < p.num_blocks(); ++i) {
      const ConstraintBlock& b = p.blocks[i];
      const int n = b.size;
      // v_i = v_f,i + sum_j D_ij lambda_j   (eq. 13), block row i only
      auto v = w.v.head(n);
      v = p.v_f.segment(b.offset, n);
      p.D.multiply_row_add(i, lam.data(), w.v.data());
      if (soft) v.array() += p.R.segment(b.offset, n).array() * lam.segment(b.offset, n).array();
      auto li = lam.segment(b.offset, n);
      Eigen::Matrix<double, 6, 1> old = Eigen::Matrix<double, 6, 1>::Zero();
      old.head(n) = li;
      switch (b.cone) {
        case ConeKind::Free: {
          Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
              inv(w.inv.data() + w.inv_start[i], n, n);
          const Block6 dl = omega * (inv * v);  // what Eigen's heap temporary held
          li -= dl;
          break;
        }
        case ConeKind::Orthant: {
          const double d = diagonal_entry(p, i, 0);
          li[0] = std::max(0.0, li[0] - omega * v[0] / std::max(d, 1e-300));
          break;
        }
        case ConeKind::Box: {
          const double d = diagonal_entry(p, i, 0);
          li[0] = project_box(li[0] - omega * v[0] / std::max(d, 1e-300), b.bound);
          break;
        }
        case ConeKind::Coulomb: {
          // Alg. 3: normal on R_+ with step 1/D_nn, tangent on the disk of radius mu lambda_n.
          const double ln =
              std::max(0.0, li[2] - omega * v[2] / std::max(diagonal_entry(p, i, 2), 1e-300));
          const double dt =
              std::max(std::min(diagonal_entry(p, i, 0), diagonal_entry(p, i, 1)), 1e-300);
          // The disk projection of cones.hpp's project_disk, with |x_T| by cones.hpp's norm2.
          double lt0 = li[0] - omega * v[0] / dt, lt1 = li[1] - omega * v[1] / dt;
          const double r = b.mu * ln, nt = norm2(lt0, lt1);
          if (nt > r) {
            const double k = nt > 0.0 ? r / nt : 0.0;
            lt0 *= k;
            lt1 *= k;
          }
          li[0] = lt0;
          li[1] = lt1;
          li[2] = ln;
          break;
        }
      }
      // Velocity change caused by this block's update.
      const auto Dii = p.D.diagonal(i);
      const Block6 dl = li - old.head(n);
      Block6 dv_i = Dii * dl;
      if (soft) dv_i.array() += p.R.segment(b.offset, n).array() * dl.array();
      const double dv = dv_i.cwiseAbs().maxCoeff();
      change = std::max(change, dv);
    }
    sol.iterations = it + 1;
    sol.residual = change;
    if (s.trace) sol.trace.push_back(change);
    if (!std::isfinite(change)) {
      sol.status = SolveStatus::Diverged;
      break;
    }
    if (change <= s.tol) {
      // A small sweep is not a solution by itself (tiny omega, slow coupling): converged only when
      // the natural map (eq. 163, De Saxce-augmented: the fixed points of Alg. 3 are NCP
      // solutions) is within tol too; otherwise the iteration stalled. Stops here either way.
      w.v_full.resize(p.nl);
      w.scratch.resize(p.nl);
      p.D.multiply(lam.data(), w.v_full.data());
      w.v_full += p.v_f;
      if (soft) w.v_full.array() += p.R.array() * lam.array();
      const double natmap = ncp_residuals(p, lam, w.v_full, true, w.scratch).natmap;
      if (natmap <= s.tol) {
        sol.status = SolveStatus::Converged;
      } else {
        sol.status = SolveStatus::MaxIterations;
        char msg[128];
        std::snprintf(msg, sizeof msg, "stalled: sweep change %.3g <= tol, natural map %.3g > tol",
                      change, natmap);
        sol.message = msg;
      }
      break;
    }
  }
}

}  // namespace moreau
