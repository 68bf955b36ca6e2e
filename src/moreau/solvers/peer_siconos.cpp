// Siconos 4.4's fc3d solvers (Acary, Brémond and Huber 2018, "On solving contact problems with
// Coulomb friction: formulations and numerical comparisons") on moreau's contact-only Problem:
// Siconos solves u = W r + q, (r, u) in the Coulomb complementarity set, with W = D and q = v_f
// in its local frame order [n, t1, t2] (moreau's is [t, o, n], as FCLib's files are read in
// src/moreau/io/fclib_convert.cpp). Linked directly (no dlopen): the headers and
// libsiconos_numerics come with Debian's libsiconos-numerics-dev.
#include "moreau/solvers/peer_siconos.hpp"

#ifdef MOREAU_HAVE_SICONOS

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace moreau {

namespace {

// Siconos's row of moreau's row a: [t, o, n] -> [n, t1, t2] within each contact.
int siconos_row(int a) {
  const int k = a % 3;
  return 3 * (a / 3) + (k == 2 ? 0 : k + 1);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Builds Siconos's problem from p (set-up), runs fc3d_driver with `solver_id` (iterations) and
// maps the reaction back to moreau's order.
void solve_fc3d(int solver_id, const Problem& p, const SolverSettings& s, const WarmStart& w,
                Solution& sol) {
  const auto t0 = std::chrono::steady_clock::now();
  const int m = p.nl, nc = p.num_blocks();
  if (m == 0) {
    sol.status = SolveStatus::Converged;
    return;
  }
  NumericsMatrix* W = NM_create(NM_SPARSE, m, m);
  NM_triplet_alloc(W, p.D.nnz());
  for (int i = 0; i < p.D.num_blocks(); ++i)
    for (int e = p.D.row_start(i); e < p.D.row_start(i + 1); ++e) {
      const auto B = p.D.entry(e);
      const int r0 = p.D.block_offset(i), c0 = p.D.block_offset(p.D.entry_col(e));
      for (int a = 0; a < B.rows(); ++a)
        for (int b = 0; b < B.cols(); ++b)
          if (B(a, b) != 0.0) NM_entry(W, siconos_row(r0 + a), siconos_row(c0 + b), B(a, b));
    }
  // frictionContactProblem_free releases q and mu with free(): allocate them with malloc.
  double* q = static_cast<double*>(std::malloc(sizeof(double) * m));
  double* mu = static_cast<double*>(std::malloc(sizeof(double) * nc));
  double q2 = 0.0;
  for (int a = 0; a < m; ++a) {
    q[siconos_row(a)] = p.v_f[a];
    q2 += p.v_f[a] * p.v_f[a];
  }
  for (int c = 0; c < nc; ++c) mu[c] = p.blocks[c].mu;
  FrictionContactProblem* fcp = frictionContactProblem_new_with_data(3, nc, W, q, mu);
  SolverOptions* opt = solver_options_create(solver_id);
  opt->iparam[SICONOS_IPARAM_MAX_ITER] = s.max_iters;
  // Siconos stops on ||natural map||_2 / ||q||_2 <= tol: with tol / max(1, ||q||_2) the absolute
  // natural map (moreau's measure, in m/s) is below moreau's tol too.
  opt->dparam[SICONOS_DPARAM_TOL] =
      s.siconos.tol ? *s.siconos.tol : s.tol / std::max(1.0, std::sqrt(q2));
  std::vector<double> r(m, 0.0), u(m, 0.0);
  if (!w.empty())
    for (int a = 0; a < m; ++a) r[siconos_row(a)] = w.lambda[a];
  sol.setup_time_s = seconds_since(t0);  // iteration_time_s: the rest (solve() in solver.cpp)
  const int info = fc3d_driver(fcp, r.data(), u.data(), opt);
  sol.iterations = opt->iparam[SICONOS_IPARAM_ITER_DONE];
  sol.residual = opt->dparam[SICONOS_DPARAM_RESIDU];
  for (int a = 0; a < m; ++a) sol.lambda[a] = r[siconos_row(a)];
  sol.status = info == 0 ? SolveStatus::Converged : SolveStatus::MaxIterations;
  if (info != 0)
    sol.message = "Siconos fc3d_driver returned info " + std::to_string(info) + " (error " +
                  std::to_string(sol.residual) + ")";
  solver_options_delete(opt);
  frictionContactProblem_free(fcp);
}

}  // namespace

void solve_siconos_nsgs(const Problem& p, const SolverSettings& s, const WarmStart& w,
                        SolverWorkspace&, Solution& sol) {
  solve_fc3d(SICONOS_FRICTION_3D_NSGS, p, s, w, sol);
}
void solve_siconos_prox(const Problem& p, const SolverSettings& s, const WarmStart& w,
                        SolverWorkspace&, Solution& sol) {
  solve_fc3d(SICONOS_FRICTION_3D_PROX, p, s, w, sol);
}
void solve_siconos_admm(const Problem& p, const SolverSettings& s, const WarmStart& w,
                        SolverWorkspace&, Solution& sol) {
  solve_fc3d(SICONOS_FRICTION_3D_ADMM, p, s, w, sol);
}
void solve_siconos_nsn_ac(const Problem& p, const SolverSettings& s, const WarmStart& w,
                          SolverWorkspace&, Solution& sol) {
  solve_fc3d(SICONOS_FRICTION_3D_NSN_AC, p, s, w, sol);
}
void solve_siconos_nsn_fb(const Problem& p, const SolverSettings& s, const WarmStart& w,
                          SolverWorkspace&, Solution& sol) {
  solve_fc3d(SICONOS_FRICTION_3D_NSN_FB, p, s, w, sol);
}

}  // namespace moreau

#endif  // MOREAU_HAVE_SICONOS
