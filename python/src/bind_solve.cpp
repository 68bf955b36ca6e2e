// solve(problem, solver, settings, warm_start) for every registered solver, the solver registry
// with its parameter tables, and the NCP metrics (report eq. 156-158, 163, 173-176).
#include "common.hpp"
#include "moreau/bench/metrics.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/solver.hpp"
#include "moreau/solvers/solver_params.hpp"

namespace moreau::python {

namespace {

const SolverInfo& solver_or_raise(const std::string& name) {
  const SolverInfo* info = find_solver(name);
  // The command line's message (moreau solve, moreau bench).
  if (!info) throw InputError("unknown solver '" + name + "'; available: " + solver_names());
  return *info;
}

py::dict solution_dict(const Solution& sol, int nl) {
  py::dict d;
  d["lambda"] = to_numpy(sol.lambda.data(), nl);
  d["v_plus"] = to_numpy(sol.v_plus.data(), nl);
  d["status"] = status_name(sol.status);
  d["converged"] = sol.converged();
  d["iterations"] = sol.iterations;
  d["residual"] = sol.residual;
  d["trace"] = to_numpy(sol.trace);
  d["solve_time_s"] = sol.solve_time_s;
  d["setup_time_s"] = sol.setup_time_s;
  d["message"] = sol.message;
  d["fallbacks"] = sol.fallbacks;
  return d;
}

py::dict solve_py(const Problem& p, const std::string& solver, const py::object& settings,
                  const py::object& warm_start, const py::kwargs& kwargs) {
  solver_or_raise(solver);
  SolverSettings s;
  s.trace = true;
  if (!settings.is_none()) apply_settings(s, {solver}, settings.cast<py::dict>());
  apply_settings(s, {solver}, kwargs);
  WarmStart w;
  if (!warm_start.is_none()) w.lambda = vector_from(warm_start, p.nl, "warm_start");
  SolverWorkspace ws;
  Solution sol;
  {
    py::gil_scoped_release release;
    if (!solve(solver, p, s, w, ws, sol)) throw InputError(sol.message);
  }
  return solution_dict(sol, p.nl);
}

py::dict metrics_py(const Problem& p, const py::handle& lam, const py::handle& vplus) {
  const VecX l = vector_from(lam, p.nl, "lambda");
  const VecX v = vector_from(vplus, p.nl, "v_plus");
  const NcpResiduals r = ncp_residuals(p, l, v, true);  // eq. 156-158, 163
  const bench::Metrics mt = bench::evaluate_metrics(p, l, v);
  py::dict d;
  d["r_primal"] = r.primal;
  d["r_dual"] = r.dual;
  d["r_compl"] = r.compl_;
  d["r_natmap"] = r.natmap;
  d["r_pen"] = mt.r_pen;  // eq. 173
  return d;
}

py::list solvers_py() {
  py::list out;
  for (const SolverInfo& s : solver_registry()) {
    py::dict d;
    d["name"] = std::string(s.name);
    d["problem"] = std::string(s.problem);
    d["description"] = std::string(s.description);
    d["handles_contacts"] = s.handles_contacts;
    d["peer"] = s.peer;
    py::list params;
    for (const ParamSpec& p : s.params) {
      py::dict q;
      q["name"] = std::string(p.name);
      q["unit"] = std::string(p.unit);
      q["meaning"] = std::string(p.meaning);
      q["default"] = param_default(p);
      q["range"] = param_range(p);
      q["integer"] = p.integer;
      params.append(q);
    }
    d["params"] = params;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_solve(py::module_& m) {
  m.def("solve", &solve_py, py::arg("problem"), py::arg("solver"), py::arg("settings") = py::none(),
        py::arg("warm_start") = py::none(),
        "Solves `problem` with the named solver (moreau.solvers()). settings: a dict (and/or "
        "keyword arguments) of tol, max_iters, trace (default True here) and the solver's "
        "parameters (`moreau solvers NAME`); warm_start: lambda (nl,). Returns a dict: lambda, "
        "v_plus, status, converged, iterations, residual, trace, solve_time_s, setup_time_s, "
        "message, fallbacks. Raises InputError for an unknown solver, setting or bad array.");
  m.def("metrics", &metrics_py, py::arg("problem"), py::arg("lambda_"), py::arg("v_plus"),
        "The solver-agnostic residuals of (lambda, v_plus): r_primal, r_dual, r_compl, r_natmap "
        "(eq. 156-158, 163; L-inf, NCP) and r_pen (eq. 173).");
  m.def("solvers", &solvers_py,
        "Every registered solver: name, problem, description, handles_contacts, peer, params "
        "(name, unit, meaning, default, range, integer).");
  m.def("solver_names", [] {
    std::vector<std::string> n;
    for (const SolverInfo& s : solver_registry()) n.emplace_back(s.name);
    return n;
  });
  m.def(
      "solver_params", [](const std::string& name) { return param_table(solver_or_raise(name)); },
      py::arg("solver"), "The parameter table `moreau solvers NAME` prints.");
}

}  // namespace moreau::python
