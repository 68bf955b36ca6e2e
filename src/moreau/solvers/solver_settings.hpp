#pragma once
// Typed solver settings: the common stopping rule plus one struct per solver family, in the manner
// of MuJoCo's mjOption. Every field has its default here; the per-solver parameter tables
// (solver_params.hpp, printed by `moreau solvers NAME`, documented in docs/solvers.md) name the
// fields each solver reads, with units, meaning and valid range. Units: "1" is dimensionless.
#include <limits>
#include <optional>
#include <string_view>

namespace moreau {

// PGS family (Alg. 5): pgs, pgs-ccp, pgs-ncp, nbgs, raisim, raisim-ds, raisim-ds-es.
struct PgsSettings {
  double omega = 1.0;               // [1] SOR relaxation factor (eq. 145)
  std::optional<double> omega_min;  // [1] limit of the decaying omega; unset: = omega (no decay)
  double omega_decay = 1.0;         // [1] omega <- omega_min + decay (omega - omega_min) per sweep
  int check_every = 10;             // [sweeps] full residual evaluated every this many sweeps
  double blowup = 1e10;             // [1] diverged when residual > blowup * max(first, tol)
  std::optional<double> es_tol;     // [m/s] raisim-ds-es: plateau of r_f (eq. 160) bounding the
                                    // sweep's velocity change by es_tol; unset: tol
  double regularization = 1e-12;  // [1] relative eps added to each diagonal block before inverting
  bool de_saxce = true;           // pgs-ccp only: De Saxce term (Table I); false: solve the CCP
};

// ADMM (Alg. 6, eq. 165-172): admm-ccp, admm-ncp-fp, admm-ncp-la, admm-ncp-sa.
struct AdmmSettings {
  double rho = 1.0;           // [1/kg] initial penalty (fixed and linear)
  std::optional<double> eta;  // [1/kg] proximal weight (eq. 166); unset: 0 for admm-ccp, 1e-6 else
  double relaxation = 1.0;    // [1] over-relaxation alpha_r (Alg. 6 line 7)
  double alpha = 10.0;        // [1] residual-ratio threshold (eq. 171, 172)
  double tau_inc = 1.5;       // [1] penalty increase factor (eq. 171)
  double tau_dec = 1.5;       // [1] penalty decrease factor (eq. 171)
  double sa_init_exponent = 0.2;  // [1] p0 of the spectral initial penalty (eq. 172a)
  double sa_exponent = 0.05;      // [1] tau of the spectral update (eq. 172b)
  double rho_min = 1e-8;          // [1/kg] lower clamp of the adapted penalty
  double rho_max = 1e8;           // [1/kg] upper clamp of the adapted penalty
  int update_every = 1;           // [iterations] penalty update period
  bool accel = false;             // Nesterov momentum with restart (Goldstein et al. 2014)
  double restart_tol = 0.999;     // [1] restart when the combined residual grows by this
  int backend = -1;               // linear solve: -1 auto, 0 dense LLT, 1 sparse LDLT
  int dense_max = 128;            // [rows] auto picks dense LLT up to this many rows
  int power_iters = 30;           // power iterations for lambda_max (spectral adaptation)
};

// apgd (Mazhar et al. 2015).
struct ApgdSettings {
  bool ncp = false;              // add the De Saxce term: NCP fixed point instead of the CCP
  double lipschitz_decay = 0.9;  // [1] L <- decay L after each accepted step
  bool precondition = true;      // Jacobi scaling of the gradient
};

// prox (Studer; eq. 143-145).
struct ProxSettings {
  double alpha = 1.0;           // [1] initial relaxation of the r-factors
  double alpha_min = 1e-3;      // [1] smallest alpha
  double alpha_max = 1.0;       // [1] largest alpha
  double shrink = 0.5;          // [1] alpha <- shrink alpha when diverging or slow
  double grow = 1.1;            // [1] alpha <- grow alpha when converging fast
  double slow_ratio = 0.9;      // [1] res_k > slow_ratio res_{k-1}: converging slowly
  double diverge_ratio = 10.0;  // [1] res_k > diverge_ratio * best: diverging
};

// ngn (Todorov 2010).
struct NgnSettings {
  double edge_tol = 1e-10;    // [1] tolerance of the region-edge tests
  double lm_factor = 10.0;    // [1] Levenberg-Marquardt lambda growth factor
  double accept_ratio = 0.5;  // [1] accept a step reducing the merit by this fraction
  int ls_refine = 1;          // line-search refinements
  int restarts = 5;           // restarts from the best point; 0: keep the last iterate
  bool warm = true;           // start from the warm start when given
};

// nsn (semismooth Newton on the natural map; nsn.hpp).
struct NsnSettings {
  double rho_scale = 1.0;  // [1] rho_b = rho_scale / mean diagonal of A_bb
  int dense_rows = 96;     // [rows] at most: the dense Newton system (LU); above: the sparse one
  int ls_steps = 30;       // Armijo halvings before the line search gives up
  int ls_memory = 10;      // nonmonotone Armijo: the largest merit of the last ls_memory iterates
                           // is the reference (Grippo et al. 1986); 1: monotone
  double prox = 1e-8;      // [1] proximal term eps = prox * max diagonal of A; 0: Gauss-Newton
  double prox_max = 1.0;   // [1] where the line search fails, eps grows 100x up to prox_max * max
                           // diagonal of A; a full step shrinks it 10x back toward prox
  int stall_window = 4;    // iterations without a 10x lower natural map before eps grows
                           // stall_factor-fold (cycling Newton steps); 0: off
  double stall_factor = 1e3;  // [1]
  double stall_step = 0.0;  // [1] an accepted step length below this is a stall at once (eps grows
                            // stall_factor-fold); 0: off, the default (docs/solvers.md, "nsn")
  double prox_decay = 0.0;  // [1] full steps shrink eps below prox max A_ii, down to that times
                            // (res / res_0)^prox_decay (res_0: the start's natural map); 0: not
};
// lemke (Stewart and Trinkle friction-pyramid LCP).
struct LemkeSettings {
  int directions = 8;        // friction-pyramid edges n_d, in [3, 1024]
  double pivot_tol = 1e-6;   // [1] pivot candidates: entries above pivot_tol * max |column|
  double pivot_factor = 10;  // [1] at most pivot_factor * n pivots for an LCP of size n
};

// prox-fp (Schindler et al. 2011).
struct ProxFpSettings {
  double omega = 1.0;           // [1] r = omega / G_ii
  double r = 0.0;               // [kg] fixed r for every block; 0: r = omega / G_ii
  bool jacobi = false;          // Jacobi sweep instead of Gauss-Seidel
  double diverge_factor = 1e8;  // [1] diverged when the residual grows by this factor
};

// direct (bilateral LDLT).
// SAP (Castro et al. 2023): sap. tol is eps_r and max_iters caps the Newton iterations.
struct SapSettings {
  double stiffness = std::numeric_limits<double>::infinity();  // [N/m] contact k; inf: near-rigid
  std::optional<double> tau_d;  // [s] dissipation time scale; unset: near-rigid (beta / pi) dt
  double beta = 1.0;            // [1] near-rigid parameter (Sec. V-B, eq. 29)
  double sigma = 1e-3;          // [1] friction regularization R_t = sigma w (eq. 30)
  double abs_tol = 1e-16;       // [1] eps_a of the stopping test (eq. 26)
  double alpha_max = 1.5;       // [1] exact line search bracket [0, alpha_max]
  int ls_max_iters = 100;       // line-search (rtsafe) iterations
  double ls_tol = 1e-10;        // [1] |dl/dalpha| <= ls_tol |dl/dalpha(0)| ends the line search
  bool cost_stop = true;        // also stop when the cost stalls at round-off
  bool warm_velocity = true;    // start from u^- (Sec. IV) even when impulses are given
  int linear_solver = -1;       // Newton system: -1 auto, 0 dense LLT, 1 sparse (CHOLMOD)
  int dense_max = 90;           // [rows] auto: dense LLT while 6 nb <= dense_max
};

// Siconos's fc3d solvers (siconos-*, peer_siconos.cpp; docs/performance.md). max_iters is
// Siconos's iteration cap; tol is moreau's absolute tolerance, turned into Siconos's relative one.
struct SiconosSettings {
  std::optional<double> tol;  // [1] Siconos's tolerance on its relative error (fc3d_compute_error,
                              // ||natural map||_2 / ||q||_2); unset: tol / max(1, ||q||_2)
};

struct DirectSettings {
  double regularization = 1e-10;  // [1] relative eps of D + eps I
};

struct SolverSettings {
  int max_iters = 1000;
  double tol = 1e-8;   // L-infinity stopping tolerance (units of velocity: m/s, rad/s)
  bool trace = false;  // record the residual per iteration in Solution::trace
  PgsSettings pgs;
  AdmmSettings admm;
  ApgdSettings apgd;
  ProxSettings prox;
  NgnSettings ngn;
  NsnSettings nsn;
  LemkeSettings lemke;
  ProxFpSettings prox_fp;
  DirectSettings direct;
  SapSettings sap;
  SiconosSettings siconos;
};

// Back to every family's defaults, keeping max_iters, tol and trace.
inline void reset_solver_params(SolverSettings& s) {
  SolverSettings fresh;
  fresh.max_iters = s.max_iters;
  fresh.tol = s.tol;
  fresh.trace = s.trace;
  s = fresh;
}

// One solver parameter: a row of a solver's table (SolverInfo::params), the single source for the
// command line (--param), scene JSON (solver_settings.params) and docs/solvers.md.
struct ParamSpec {
  std::string_view name;
  std::string_view unit;     // "1": dimensionless, "-": a count, "flag": 0 or 1, else SI
  std::string_view meaning;  // one line
  double default_value;      // what the solver uses when unset, other settings at their defaults
  std::string_view follows;  // non-empty: the default is this other setting (e.g. "tol")
  double min, max;           // accepted range, inclusive
  bool integer;              // whole numbers only (flags: 0 or 1)
  // The stored value; nullopt for an optional field left unset (the solver's default applies).
  std::optional<double> (*get)(const SolverSettings&);
  void (*set)(SolverSettings&, double);
};

}  // namespace moreau
