// The parameter table of every solver: name, unit, meaning, default, range and the field of
// SolverSettings it sets. Defaults equal the struct defaults in solver_settings.hpp (checked by
// tests/solvers/test_solver_params.cpp, which also checks docs/solvers.md against these tables).
#include "moreau/solvers/solver_params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>

namespace moreau {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPos = std::numeric_limits<double>::min();  // lower bound of an open (0, ...)
constexpr double kBig = 1e9;                                 // upper bound of counts

std::optional<double> value_of(double v) {
  return v;
}
std::optional<double> value_of(int v) {
  return v;
}
std::optional<double> value_of(bool v) {
  return v ? 1.0 : 0.0;
}
std::optional<double> value_of(const std::optional<double>& v) {
  return v;
}
void assign(double& f, double v) {
  f = v;
}
void assign(int& f, double v) {
  f = static_cast<int>(v);
}
void assign(bool& f, double v) {
  f = v != 0.0;
}
void assign(std::optional<double>& f, double v) {
  f = v;
}

}  // namespace

// The accessor pair of one field of SolverSettings, e.g. FIELD(pgs.omega).
#define FIELD(member)                                                                  \
  [](const SolverSettings& s) -> std::optional<double> { return value_of(s.member); }, \
      [](SolverSettings& s, double v) { assign(s.member, v); }

// clang-format off
#define P_OMEGA {"omega", "1", "SOR relaxation factor (eq. 145); diverges outside (0, 2)", 1.0, "", 0.0, 10.0, false, FIELD(pgs.omega)}
#define P_OMEGA_MIN {"omega_min", "1", "limit of the decaying omega (Alg. 5 line 25)", 1.0, "omega", 0.0, 10.0, false, FIELD(pgs.omega_min)}
#define P_OMEGA_DECAY {"omega_decay", "1", "omega <- omega_min + omega_decay (omega - omega_min) per sweep", 1.0, "", 0.0, 1.0, false, FIELD(pgs.omega_decay)}
#define P_CHECK_EVERY {"check_every", "sweeps", "full residual evaluated every this many sweeps", 10.0, "", 1.0, kBig, true, FIELD(pgs.check_every)}
#define P_BLOWUP {"blowup", "1", "diverged when the residual exceeds blowup * max(first residual, tol)", 1e10, "", 1.0, kInf, false, FIELD(pgs.blowup)}
#define P_PGS_REG {"regularization", "1", "relative eps added to the diagonal of each block before inverting", 1e-12, "", 0.0, 1.0, false, FIELD(pgs.regularization)}
#define P_DE_SAXCE {"de_saxce", "flag", "De Saxce term (Table I): 1 solves the NCP, 0 the CCP", 1.0, "", 0.0, 1.0, true, FIELD(pgs.de_saxce)}
#define P_ES_TOL {"es_tol", "m/s", "raisim-ds-es: stop when r_f (eq. 160) <= es_tol^2 / (2 L I_total): no block velocity changed by more than es_tol", 1e-8, "tol", 0.0, kInf, false, FIELD(pgs.es_tol)}

#define A_RHO {"rho", "1/kg", "initial penalty rho_0", 1.0, "", kPos, kInf, false, FIELD(admm.rho)}
#define A_ETA_CCP {"eta", "1/kg", "proximal weight (eq. 166); admm-ccp default 0 (Sec. 3.8)", 0.0, "", 0.0, kInf, false, FIELD(admm.eta)}
#define A_ETA_NCP {"eta", "1/kg", "proximal weight (eq. 166)", 1e-6, "", 0.0, kInf, false, FIELD(admm.eta)}
#define A_RELAX {"relaxation", "1", "over-relaxation alpha_r (Alg. 6 line 7)", 1.0, "", kPos, 2.0, false, FIELD(admm.relaxation)}
#define A_ALPHA {"alpha", "1", "primal/dual residual ratio that triggers a penalty update (eq. 171, 172)", 10.0, "", 1.0, kInf, false, FIELD(admm.alpha)}
#define A_TAU_INC {"tau_inc", "1", "penalty increase factor (eq. 171)", 1.5, "", 1.0, kInf, false, FIELD(admm.tau_inc)}
#define A_TAU_DEC {"tau_dec", "1", "penalty decrease factor (eq. 171)", 1.5, "", 1.0, kInf, false, FIELD(admm.tau_dec)}
#define A_SA_INIT {"sa_init_exponent", "1", "exponent p_0 of the spectral initial penalty (eq. 172a)", 0.2, "", 0.0, kInf, false, FIELD(admm.sa_init_exponent)}
#define A_SA_EXP {"sa_exponent", "1", "exponent of the spectral penalty update (eq. 172b)", 0.05, "", 0.0, kInf, false, FIELD(admm.sa_exponent)}
#define A_RHO_MIN {"rho_min", "1/kg", "lower clamp of the adapted penalty", 1e-8, "", kPos, kInf, false, FIELD(admm.rho_min)}
#define A_RHO_MAX {"rho_max", "1/kg", "upper clamp of the adapted penalty", 1e8, "", kPos, kInf, false, FIELD(admm.rho_max)}
#define A_UPDATE {"update_every", "iterations", "penalty update period", 1.0, "", 1.0, kBig, true, FIELD(admm.update_every)}
#define A_ACCEL {"accel", "flag", "Nesterov momentum with restart (Goldstein et al. 2014)", 0.0, "", 0.0, 1.0, true, FIELD(admm.accel)}
#define A_RESTART {"restart_tol", "1", "momentum restart when the combined residual exceeds restart_tol * previous", 0.999, "", 0.0, kInf, false, FIELD(admm.restart_tol)}
#define A_BACKEND {"backend", "-", "linear solve: -1 auto, 0 dense LLT, 1 sparse LDLT", -1.0, "", -1.0, 1.0, true, FIELD(admm.backend)}
#define A_DENSE_MAX {"dense_max", "rows", "auto backend: dense LLT up to this many rows", 128.0, "", 0.0, kBig, true, FIELD(admm.dense_max)}
#define A_POWER {"power_iters", "-", "power iterations estimating lambda_max of D (eq. 172a)", 30.0, "", 1.0, kBig, true, FIELD(admm.power_iters)}
// clang-format on

namespace solver_params {

// clang-format off
std::span<const ParamSpec> pgs_basic() {
  static const ParamSpec t[] = {P_OMEGA};
  return t;
}
std::span<const ParamSpec> pgs_ccp() {
  static const ParamSpec t[] = {P_OMEGA, P_OMEGA_MIN, P_OMEGA_DECAY, P_CHECK_EVERY, P_BLOWUP, P_PGS_REG, P_DE_SAXCE};
  return t;
}
std::span<const ParamSpec> pgs_sweep() {
  static const ParamSpec t[] = {P_OMEGA, P_OMEGA_MIN, P_OMEGA_DECAY, P_CHECK_EVERY, P_BLOWUP, P_PGS_REG};
  return t;
}
std::span<const ParamSpec> raisim_ds_es() {
  static const ParamSpec t[] = {P_OMEGA, P_OMEGA_MIN, P_OMEGA_DECAY, P_ES_TOL, P_PGS_REG};
  return t;
}
std::span<const ParamSpec> admm_ccp() {
  static const ParamSpec t[] = {A_RHO, A_ETA_CCP, A_RELAX, A_ACCEL, A_RESTART, A_BACKEND, A_DENSE_MAX};
  return t;
}
std::span<const ParamSpec> admm_ncp_fp() {
  static const ParamSpec t[] = {A_RHO, A_ETA_NCP, A_RELAX, A_ACCEL, A_RESTART, A_BACKEND, A_DENSE_MAX};
  return t;
}
std::span<const ParamSpec> admm_ncp_la() {
  static const ParamSpec t[] = {A_RHO, A_ETA_NCP, A_RELAX, A_ALPHA, A_TAU_INC, A_TAU_DEC, A_RHO_MIN, A_RHO_MAX, A_UPDATE, A_ACCEL, A_RESTART, A_BACKEND, A_DENSE_MAX};
  return t;
}
std::span<const ParamSpec> admm_ncp_sa() {
  static const ParamSpec t[] = {A_ETA_NCP, A_RELAX, A_ALPHA, A_SA_INIT, A_SA_EXP, A_RHO_MIN, A_RHO_MAX, A_UPDATE, A_POWER, A_ACCEL, A_RESTART, A_BACKEND, A_DENSE_MAX};
  return t;
}
std::span<const ParamSpec> apgd() {
  static const ParamSpec t[] = {
      {"ncp", "flag", "De Saxce term: 1 solves the NCP fixed point, 0 the CCP", 0.0, "", 0.0, 1.0, true, FIELD(apgd.ncp)},
      {"lipschitz_decay", "1", "Lipschitz estimate L <- lipschitz_decay L after each step", 0.9, "", kPos, 1.0, false, FIELD(apgd.lipschitz_decay)},
      {"precondition", "flag", "Jacobi scaling of the gradient", 1.0, "", 0.0, 1.0, true, FIELD(apgd.precondition)},
  };
  return t;
}
std::span<const ParamSpec> prox() {
  static const ParamSpec t[] = {
      {"alpha", "1", "initial relaxation of the r-factors (eq. 145)", 1.0, "", kPos, kInf, false, FIELD(prox.alpha)},
      {"alpha_min", "1", "smallest relaxation", 1e-3, "", kPos, kInf, false, FIELD(prox.alpha_min)},
      {"alpha_max", "1", "largest relaxation", 1.0, "", kPos, kInf, false, FIELD(prox.alpha_max)},
      {"shrink", "1", "alpha <- shrink alpha when converging slowly or diverging", 0.5, "", kPos, 1.0, false, FIELD(prox.shrink)},
      {"grow", "1", "alpha <- grow alpha when converging", 1.1, "", 1.0, kInf, false, FIELD(prox.grow)},
      {"slow_ratio", "1", "converging slowly when res_k > slow_ratio res_(k-1)", 0.9, "", kPos, kInf, false, FIELD(prox.slow_ratio)},
      {"diverge_ratio", "1", "diverging when res_k > diverge_ratio * best residual", 10.0, "", 1.0, kInf, false, FIELD(prox.diverge_ratio)},
  };
  return t;
}
std::span<const ParamSpec> ngn() {
  static const ParamSpec t[] = {
      {"edge_tol", "1", "tolerance of the region-edge tests", 1e-10, "", 0.0, kInf, false, FIELD(ngn.edge_tol)},
      {"lm_factor", "1", "Levenberg-Marquardt lambda growth factor", 10.0, "", 1.0, kInf, false, FIELD(ngn.lm_factor)},
      {"accept_ratio", "1", "accept a step whose actual/predicted reduction exceeds this", 0.5, "", 0.0, 1.0, false, FIELD(ngn.accept_ratio)},
      {"ls_refine", "-", "line-search refinements along the step", 1.0, "", 0.0, 1000.0, true, FIELD(ngn.ls_refine)},
      {"restarts", "-", "restarts from the best point; 0 keeps the last iterate", 5.0, "", 0.0, kBig, true, FIELD(ngn.restarts)},
      {"warm", "flag", "start from the warm start when one is given", 1.0, "", 0.0, 1.0, true, FIELD(ngn.warm)},
  };
  return t;
}
std::span<const ParamSpec> nsn() {
  static const ParamSpec t[] = {
      {"rho_scale", "1", "block scale rho_b = rho_scale / mean diagonal of (D + R)_bb", 1.0, "", kPos, kBig, false, FIELD(nsn.rho_scale)},
      {"dense_rows", "rows", "at most: the dense Newton system (LU); above, where D is sparse (under a quarter of its entries stored): the sparse one from D's blocks (KLU, else SparseLU)", 96.0, "", 0.0, kBig, true, FIELD(nsn.dense_rows)},
      {"prox", "1", "proximal term eps = prox max_i A_ii in the Newton matrix; 0: Gauss-Newton steps (dense system; the sparse one has none)", 1e-8, "", 0.0, 1.0, false, FIELD(nsn.prox)},
      {"prox_max", "1", "where the line search fails, eps grows 100x up to prox_max max_i A_ii; a full step shrinks it 10x", 1.0, "", 0.0, 1e6, false, FIELD(nsn.prox_max)},
      {"prox_decay", "1", "full steps shrink eps below prox max_i A_ii, down to that times (natural map / the start's)^prox_decay (Levenberg-Marquardt's term proportional to a power of the residual); 0: eps stays at least prox max_i A_ii", 0.0, "", 0.0, 4.0, false, FIELD(nsn.prox_decay)},
      {"stall_window", "-", "iterations without a 10x lower natural map before eps grows stall_factor-fold (Newton steps cycling between stick and slip); 0: off", 4.0, "", 0.0, 1000.0, true, FIELD(nsn.stall_window)},
      {"stall_factor", "1", "eps's growth at a stall (stall_window), up to prox_max max_i A_ii", 1e3, "", 1.0, 1e12, false, FIELD(nsn.stall_factor)},
      {"stall_step", "1", "an accepted step length (the line search's alpha) below this is a stall at once: eps grows stall_factor-fold; 0: off; off with stall_window 0", 0.0, "", 0.0, 1.0, false, FIELD(nsn.stall_step)},
      {"ls_steps", "-", "Armijo step halvings before the line search gives up", 30.0, "", 0.0, 60.0, true, FIELD(nsn.ls_steps)},
      {"ls_memory", "-", "nonmonotone Armijo: the reference is the largest merit of the last ls_memory iterates; 1: monotone", 10.0, "", 1.0, 1000.0, true, FIELD(nsn.ls_memory)},
  };
  return t;
}
std::span<const ParamSpec> sap() {
  static const ParamSpec t[] = {
      {"stiffness", "N/m", "contact stiffness k where the materials set none; inf: near-rigid (eq. 29)", kInf, "", kPos, kInf, false, FIELD(sap.stiffness)},
      {"tau_d", "s", "contact dissipation time scale where the materials set none (Sec. V)", std::numeric_limits<double>::quiet_NaN(), "(beta / pi) dt", 0.0, kInf, false, FIELD(sap.tau_d)},
      {"beta", "1", "near-rigid parameter: R = beta^2 / (4 pi^2) w (eq. 29)", 1.0, "", kPos, kBig, false, FIELD(sap.beta)},
      {"sigma", "1", "friction regularization R_t = sigma w (eq. 30)", 1e-3, "", kPos, kBig, false, FIELD(sap.sigma)},
      {"abs_tol", "sqrt(kg) m/s", "eps_a of the stopping test (eq. 26); eps_r is tol", 1e-16, "", 0.0, kInf, false, FIELD(sap.abs_tol)},
      {"alpha_max", "1", "exact line search bracket [0, alpha_max]", 1.5, "", 1.0, kBig, false, FIELD(sap.alpha_max)},
      {"ls_max_iters", "-", "line-search (rtsafe) iterations", 100.0, "", 1.0, kBig, true, FIELD(sap.ls_max_iters)},
      {"ls_tol", "1", "the line search ends when dl/dalpha shrinks below ls_tol times its magnitude at 0", 1e-10, "", kPos, 1.0, false, FIELD(sap.ls_tol)},
      {"cost_stop", "flag", "also stop when the cost stalls at round-off", 1.0, "", 0.0, 1.0, true, FIELD(sap.cost_stop)},
      {"warm_velocity", "flag", "start Newton from the previous velocity u^- (Sec. IV; the default) instead of u_free + M^-1 J^T lambda_warm (0)", 1.0, "", 0.0, 1.0, true, FIELD(sap.warm_velocity)},
      {"linear_solver", "-", "Newton system: -1 auto, 0 dense LLT, 1 sparse supernodal Cholesky (CHOLMOD; dense when built without it)", -1.0, "", -1.0, 1.0, true, FIELD(sap.linear_solver)},
      {"dense_max", "rows", "auto linear_solver: dense while 6 nb <= dense_max or the Hessian's body blocks are over 25% non-zero", 90.0, "", 0.0, kBig, true, FIELD(sap.dense_max)},
  };
  return t;
}

std::span<const ParamSpec> lemke() {
  static const ParamSpec t[] = {
      {"directions", "-", "friction-pyramid edges n_d", 8.0, "", 3.0, 1024.0, true, FIELD(lemke.directions)},
      {"pivot_tol", "1", "pivot candidates: entries above pivot_tol times the entering column's largest magnitude", 1e-6, "", 0.0, 1.0, false, FIELD(lemke.pivot_tol)},
      {"pivot_factor", "1", "at most pivot_factor * n pivots for an LCP of size n", 10.0, "", kPos, 1e6, false, FIELD(lemke.pivot_factor)},
  };
  return t;
}
std::span<const ParamSpec> prox_fp() {
  static const ParamSpec t[] = {
      {"omega", "1", "r = omega / G_ii per block", 1.0, "", kPos, 10.0, false, FIELD(prox_fp.omega)},
      {"r", "kg", "one fixed r for every block; 0: r = omega / G_ii", 0.0, "", 0.0, kInf, false, FIELD(prox_fp.r)},
      {"jacobi", "flag", "Jacobi sweep instead of Gauss-Seidel", 0.0, "", 0.0, 1.0, true, FIELD(prox_fp.jacobi)},
      {"diverge_factor", "1", "diverged when the residual grows by this factor", 1e8, "", 1.0, kInf, false, FIELD(prox_fp.diverge_factor)},
  };
  return t;
}
std::span<const ParamSpec> direct() {
  static const ParamSpec t[] = {
      {"regularization", "1", "eps of D + R + eps I relative to the largest diagonal entry of D", 1e-10, "", 0.0, 1.0, false, FIELD(direct.regularization)},
  };
  return t;
}
std::span<const ParamSpec> siconos() {
  static const ParamSpec t[] = {
      {"siconos_tol", "1", "Siconos's tolerance on its relative error ||natural map||_2 / ||q||_2", std::numeric_limits<double>::quiet_NaN(), "tol / max(1, ||q||_2)", 0.0, 1.0, false, FIELD(siconos.tol)},
  };
  return t;
}
// clang-format on

}  // namespace solver_params

namespace {
std::string number(double v) {
  if (v == kInf) return "inf";
  std::ostringstream o;
  o << v;
  return o.str();
}
}  // namespace

const ParamSpec* find_param(const SolverInfo& solver, std::string_view key) {
  for (const ParamSpec& p : solver.params)
    if (p.name == key) return &p;
  return nullptr;
}

std::string param_range(const ParamSpec& p) {
  if (p.integer && p.min == 0.0 && p.max == 1.0) return "{0, 1}";
  return (p.min == kPos ? std::string("(0") : "[" + number(p.min)) + ", " + number(p.max) +
         (p.max == kInf ? ")" : "]");
}

std::string param_default(const ParamSpec& p) {
  return p.follows.empty() ? number(p.default_value) : "= " + std::string(p.follows);
}

std::string valid_params(const SolverInfo& solver) {
  if (solver.params.empty()) return "(none)";
  std::string s;
  for (const ParamSpec& p : solver.params) {
    if (!s.empty()) s += ", ";
    s += std::string(p.name) + " " + param_range(p);
  }
  return s;
}

std::string set_solver_param(SolverSettings& s, const SolverInfo& solver, std::string_view key,
                             double value) {
  const std::string valid =
      "; valid parameters of '" + std::string(solver.name) + "': " + valid_params(solver);
  const ParamSpec* p = find_param(solver, key);
  if (!p)
    return "solver '" + std::string(solver.name) + "' has no parameter '" + std::string(key) + "'" +
           valid;
  const bool whole = std::isfinite(value) && value == std::floor(value);
  if (!(value >= p->min && value <= p->max) || (p->integer && !whole))
    return "parameter '" + std::string(key) + "' of solver '" + std::string(solver.name) +
           "' must be " + (p->integer ? "a whole number in " : "in ") + param_range(*p) + ", got " +
           number(value) + valid;
  p->set(s, value);
  return "";
}

std::string param_table(const SolverInfo& solver) {
  std::ostringstream o;
  o << solver.name << " (" << solver.problem << "): " << solver.description << '\n';
  if (solver.params.empty()) {
    o << "  no parameters\n";
    return o.str();
  }
  size_t wn = 4, wd = 7, wr = 5, wu = 4;
  for (const ParamSpec& p : solver.params) {
    wn = std::max(wn, p.name.size());
    wd = std::max(wd, param_default(p).size());
    wr = std::max(wr, param_range(p).size());
    wu = std::max(wu, p.unit.size());
  }
  auto row = [&](std::string_view a, std::string_view b, std::string_view c, std::string_view d,
                 std::string_view e) {
    o << "  " << a << std::string(wn - a.size() + 2, ' ') << b
      << std::string(wd - b.size() + 2, ' ') << c << std::string(wr - c.size() + 2, ' ') << d
      << std::string(wu - d.size() + 2, ' ') << e << '\n';
  };
  row("name", "default", "range", "unit", "meaning");
  for (const ParamSpec& p : solver.params)
    row(p.name, param_default(p), param_range(p), p.unit, p.meaning);
  return o.str();
}

std::string param_tables_markdown() {
  std::ostringstream o;
  for (const SolverInfo& s : solver_registry()) {
    if (s.peer) continue;
    o << "\n### `" << s.name << "`\n\n";
    if (s.params.empty()) {
      o << "No parameters.\n";
      continue;
    }
    o << "| name | default | range | unit | meaning |\n|---|---|---|---|---|\n";
    for (const ParamSpec& p : s.params)
      o << "| `" << p.name << "` | " << param_default(p) << " | " << param_range(p) << " | "
        << p.unit << " | " << p.meaning << " |\n";
  }
  return o.str();
}

std::vector<std::pair<std::string_view, double>> changed_params(const SolverSettings& s,
                                                                const SolverInfo& solver) {
  static const SolverSettings defaults;
  std::vector<std::pair<std::string_view, double>> out;
  for (const ParamSpec& p : solver.params) {
    const std::optional<double> v = p.get(s);
    if (v && v != p.get(defaults)) out.emplace_back(p.name, *v);
  }
  return out;
}

std::string apply_solver_params(SolverSettings& s, const std::vector<std::string>& params,
                                const std::vector<std::string>& solvers) {
  for (const std::string& kv : params) {
    const auto eq = kv.find('=');
    char* end = nullptr;
    const double v = eq == std::string::npos ? 0.0 : std::strtod(kv.c_str() + eq + 1, &end);
    if (eq == std::string::npos || eq == 0 || end == kv.c_str() + eq + 1 || *end != '\0' ||
        !std::isfinite(v))
      return "--param '" + kv + "': expected key=number";
    const std::string key = kv.substr(0, eq);
    std::string valid;
    bool known = false;
    for (const std::string& name : solvers) {
      const SolverInfo* info = find_solver(name);
      if (!info) continue;
      if (!find_param(*info, key)) {
        valid += "\n  " + name + ": " + valid_params(*info);
        continue;
      }
      known = true;
      const std::string err = set_solver_param(s, *info, key, v);
      if (!err.empty()) return "--param '" + kv + "': " + err;
    }
    if (known) continue;
    if (solvers.size() == 1 && find_solver(solvers[0]))
      return "--param '" + kv + "': " + set_solver_param(s, *find_solver(solvers[0]), key, v);
    return "--param '" + kv + "': no selected solver has parameter '" + key +
           "'; valid parameters:" + valid;
  }
  return "";
}

}  // namespace moreau
