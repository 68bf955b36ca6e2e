// PGS family on the FCLib LMGC problem (60 contacts, 1064 stored 3x3 blocks): time per sweep,
// time to r <= 1e-6 from a cold start, and bare loops over the same rows for comparison
// (a PGS sweep = one pass over D's block rows + the local solves). Reads
// $MOREAU_SHARED_DIR/fclib/... or <source dir>/../shared/fclib/...
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>

#include "moreau/io/fclib.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

namespace {

const Problem* lmgc() {
  static const std::unique_ptr<FclibProblem> p = [] {
    const char* env = std::getenv("MOREAU_SHARED_DIR");
    // Default: ../shared next to the source tree (this file is benchmarks/bench_solvers.cpp).
    const std::string here = __FILE__;
    const std::string dir = env ? env : here.substr(0, here.rfind('/')) + "/../../shared";
    auto r = load_fclib(dir + "/fclib/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5");
    return r ? std::make_unique<FclibProblem>(std::move(*r)) : nullptr;
  }();
  return p ? &p->problem : nullptr;
}

// Sweeps only: tol 0 never stops early, the residual check runs once every 1000 sweeps.
void BM_Sweep(benchmark::State& bs, const char* solver) {
  const Problem* p = lmgc();
  if (!p) return bs.SkipWithError("LMGC FCLib file not found (MOREAU_SHARED_DIR) or no HDF5");
  SolverSettings s;
  s.tol = 0.0;
  s.max_iters = 200;
  s.pgs.check_every = 1000;
  SolverWorkspace ws;
  Solution sol;
  int64_t sweeps = 0;
  for (auto _ : bs) {
    solve(solver, *p, s, {}, ws, sol);
    sweeps += sol.iterations;
  }
  bs.counters["sweep_s"] = benchmark::Counter(
      static_cast<double>(sweeps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Cold start to r <= 1e-6 (the solver's own stopping test).
void BM_ToTol(benchmark::State& bs, const char* solver) {
  const Problem* p = lmgc();
  if (!p) return bs.SkipWithError("LMGC FCLib file not found (MOREAU_SHARED_DIR) or no HDF5");
  SolverSettings s;
  s.tol = 1e-6;
  s.max_iters = 20000;
  SolverWorkspace ws;
  Solution sol;
  for (auto _ : bs) solve(solver, *p, s, {}, ws, sol);
  bs.counters["iterations"] = sol.iterations;
  bs.counters["converged"] = sol.converged();
}

// The bare row loop of a sweep: v_i = v_f,i + sum_j D_ij lambda_j for every block row, with a
// trivial in-place update so that the Gauss-Seidel data dependence is kept.
void BM_BareRowLoop(benchmark::State& bs) {
  const Problem* p = lmgc();
  if (!p) return bs.SkipWithError("LMGC FCLib file not found (MOREAU_SHARED_DIR) or no HDF5");
  const BlockSparse& D = p->D;
  VecX lam = VecX::Zero(p->nl);
  for (auto _ : bs) {
    for (int i = 0; i < D.num_blocks(); ++i) {
      double y[3] = {p->v_f[3 * i], p->v_f[3 * i + 1], p->v_f[3 * i + 2]};
      for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
        const double* B = D.entry(e).data();
        const double* x = lam.data() + 3 * D.entry_col(e);
        y[0] += B[0] * x[0] + B[1] * x[1] + B[2] * x[2];
        y[1] += B[3] * x[0] + B[4] * x[1] + B[5] * x[2];
        y[2] += B[6] * x[0] + B[7] * x[1] + B[8] * x[2];
      }
      const double* G = D.diagonal(i).data();
      for (int a = 0; a < 3; ++a) lam[3 * i + a] -= 1e-3 * y[a] / G[4 * a];
    }
    benchmark::DoNotOptimize(lam.data());
  }
}

// BlockSparse::multiply (D lambda), the cost of one residual evaluation's product.
void BM_Multiply(benchmark::State& bs) {
  const Problem* p = lmgc();
  if (!p) return bs.SkipWithError("LMGC FCLib file not found (MOREAU_SHARED_DIR) or no HDF5");
  VecX lam = VecX::Ones(p->nl), y(p->nl);
  for (auto _ : bs) {
    p->D.multiply(lam.data(), y.data());
    benchmark::DoNotOptimize(y.data());
  }
}

// Matrix-free Gauss-Seidel pass over the Jacobian rows of a scene Problem (box-stack after 50
// steps): v_i = J_i u + v_f,i, then u += M^-1 J_i^T dlambda: the sparse realization of Alg. 5.
void BM_BareJacobianLoop(benchmark::State& bs) {
  Scene sc = std::move(*make_builtin_scene("box-stack"));
  State s = sc.initial;
  Simulator sim(sc.model, sc.settings);
  for (int k = 0; k < 50; ++k) sim.step(s);
  const Problem& p = sim.problem();
  VecX u = VecX::Zero(6 * p.num_bodies), lam = VecX::Zero(p.nl);
  for (auto _ : bs) {
    for (const ConstraintBlock& b : p.blocks) {
      Vec6 v = Vec6::Zero();
      for (int k = 0; k < 2; ++k)
        if (b.body[k] >= 0) v.head(b.size) += b.J[k].topRows(b.size) * u.segment<6>(6 * b.body[k]);
      v.head(b.size) += p.v_f.segment(b.offset, b.size);
      const Vec6 dl = -1e-3 * v;
      lam.segment(b.offset, b.size) += dl.head(b.size);
      for (int k = 0; k < 2; ++k)
        if (b.body[k] >= 0)
          u.segment<6>(6 * b.body[k]) +=
              p.Minv[b.body[k]] * (b.J[k].topRows(b.size).transpose() * dl.head(b.size));
    }
    benchmark::DoNotOptimize(u.data());
  }
  bs.counters["rows"] = p.nl;
}

// The PGS sweep on the same box-stack Problem (D block rows).
void BM_SweepBoxStack(benchmark::State& bs, const char* solver) {
  Scene sc = std::move(*make_builtin_scene("box-stack"));
  State s = sc.initial;
  Simulator sim(sc.model, sc.settings);
  for (int k = 0; k < 50; ++k) sim.step(s);
  const Problem p = sim.problem();
  SolverSettings st;
  st.tol = 0.0;
  st.max_iters = 200;
  st.pgs.check_every = 1000;
  SolverWorkspace ws;
  Solution sol;
  int64_t sweeps = 0;
  for (auto _ : bs) {
    solve(solver, p, st, {}, ws, sol);
    sweeps += sol.iterations;
  }
  bs.counters["sweep_s"] = benchmark::Counter(
      static_cast<double>(sweeps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  bs.counters["rows"] = p.nl;
}

}  // namespace

BENCHMARK_CAPTURE(BM_Sweep, pgs_ccp, "pgs-ccp");
BENCHMARK_CAPTURE(BM_Sweep, pgs_ncp, "pgs-ncp");
BENCHMARK_CAPTURE(BM_Sweep, nbgs, "nbgs");
BENCHMARK_CAPTURE(BM_Sweep, nbgs_exact, "nbgs-exact");
BENCHMARK_CAPTURE(BM_Sweep, raisim, "raisim");
BENCHMARK_CAPTURE(BM_Sweep, raisim_ds, "raisim-ds");
BENCHMARK(BM_BareRowLoop);
BENCHMARK(BM_Multiply);
BENCHMARK_CAPTURE(BM_ToTol, pgs_ccp, "pgs-ccp");
BENCHMARK_CAPTURE(BM_ToTol, pgs_ncp, "pgs-ncp");
BENCHMARK_CAPTURE(BM_ToTol, nbgs, "nbgs");
BENCHMARK_CAPTURE(BM_ToTol, nbgs_exact, "nbgs-exact");
BENCHMARK_CAPTURE(BM_ToTol, raisim, "raisim");
BENCHMARK_CAPTURE(BM_ToTol, raisim_ds, "raisim-ds");
BENCHMARK_CAPTURE(BM_ToTol, raisim_ds_es, "raisim-ds-es");
BENCHMARK(BM_BareJacobianLoop);
BENCHMARK_CAPTURE(BM_SweepBoxStack, pgs_ncp, "pgs-ncp");
BENCHMARK_CAPTURE(BM_SweepBoxStack, nbgs, "nbgs");
BENCHMARK_MAIN();
