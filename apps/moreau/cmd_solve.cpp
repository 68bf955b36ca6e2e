// `moreau solve FILE --solver NAME`: one contact problem from a file (FCLib .hdf5, local or global,
// or a moreau Problem dump .mprob) solved by one registered solver; residuals from the common
// code (NCP-augmented, whatever the solver), as a summary or as JSON.
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include <Eigen/SparseCore>

#include "commands.hpp"
#include "moreau/io/fclib.hpp"
#include "moreau/io/problem_io.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/solver.hpp"
#include "scene_options.hpp"

namespace moreau::cli {

namespace {

struct SolveOptions {
  std::string file, solver = "nbgs-exact", warm, lambda_out;
  double tol = 1e-8;
  int max_iters = 1000, repeat = 1;
  std::vector<std::string> params;
  bool json = false;
};

struct LoadedProblem {
  Problem problem;
  std::string format;  // "fclib-local", "fclib-global", "moreau-dump"
  std::string title;
  double asymmetry = 0.0;
};

// max|D - D^T| / max|D| over the stored blocks.
double relative_asymmetry(const BlockSparse& D) {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < D.num_blocks(); ++i)
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
      const auto B = D.entry(e);
      const int r0 = D.block_offset(i), c0 = D.block_offset(D.entry_col(e));
      for (int a = 0; a < B.rows(); ++a)
        for (int c = 0; c < B.cols(); ++c) t.emplace_back(r0 + a, c0 + c, B(a, c));
    }
  Eigen::SparseMatrix<double> A(D.rows(), D.rows());
  A.setFromTriplets(t.begin(), t.end());
  const Eigen::SparseMatrix<double> T = A.transpose(), diff = A - T;
  double dmax = 0.0, amax = 0.0;
  for (int k = 0; k < diff.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(diff, k); it; ++it)
      dmax = std::max(dmax, std::abs(it.value()));
  for (const auto& x : t) amax = std::max(amax, std::abs(x.value()));
  return amax > 0.0 ? dmax / amax : 0.0;
}

bool is_dump(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(14, '\0');
  in.read(head.data(), 14);
  return in && head == "MOREAU-PROBLEM";
}

LoadedProblem load_or_exit(const std::string& path) {
  LoadedProblem out;
  if (!std::ifstream(path)) fail("solve", path + ": cannot open the file", kExitBadInput);
  if (is_dump(path)) {
    auto r = load_problem(path);
    if (!r) fail("solve", r.error().message(), kExitBadInput);
    out.problem = std::move(*r);
    out.format = "moreau-dump";
    out.asymmetry = relative_asymmetry(out.problem.D);
    return out;
  }
  auto r = load_fclib(path);
  if (!r) fail("solve", r.error().message(), kExitBadInput);
  out.problem = std::move(r->problem);
  out.format = "fclib-" + r->kind;
  out.title = r->title;
  out.asymmetry = r->asymmetry;
  return out;
}

WarmStart read_warm_or_exit(const std::string& path, int nl) {
  WarmStart w;
  if (path.empty()) return w;
  std::ifstream in(path);
  if (!in) fail("solve", path + ": cannot open the warm start", kExitBadInput);
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    const auto v = j.at("lambda").get<std::vector<double>>();
    if (static_cast<int>(v.size()) != nl)
      fail("solve",
           path + ": lambda: expected " + std::to_string(nl) + " entries, got " +
               std::to_string(v.size()),
           kExitBadInput);
    w.lambda = Eigen::Map<const VecX>(v.data(), nl);
  } catch (const nlohmann::json::exception& e) {
    fail("solve", path + ": expected a JSON object {\"lambda\": [...]}: " + e.what(),
         kExitBadInput);
  }
  if (!w.lambda.allFinite()) fail("solve", path + ": lambda has non-finite entries", kExitBadInput);
  return w;
}

void run_solve(const SolveOptions& o) {
  if (o.repeat < 1)
    fail("solve", "--repeat " + std::to_string(o.repeat) + ": expected N >= 1", kExitBadInput);
  const SolverInfo* info = find_solver(o.solver);
  if (!info)
    fail("solve", "unknown solver '" + o.solver + "'; available: " + solver_names(), kExitBadInput);
  const SolverSettings s =
      solver_settings_or_exit(o.tol, o.max_iters, o.params, {o.solver}, "solve");
  const LoadedProblem lp = load_or_exit(o.file);
  const Problem& p = lp.problem;
  const WarmStart warm = read_warm_or_exit(o.warm, p.nl);
  SolverWorkspace ws;
  Solution sol;
  // --repeat N: N solves from the same start (the workspace kept, as in a simulation); the
  // fastest is reported as solve_time_s, the first as solve_time_first_s. Every solve gives the
  // same answer (solvers are deterministic), so the last one's is reported.
  double first_s = 0.0, best_s = 0.0, best_setup_s = 0.0, best_iteration_s = 0.0;
  for (int k = 0; k < o.repeat; ++k) {
    if (!solve(o.solver, p, s, warm, ws, sol)) fail("solve", sol.message, kExitBadInput);
    if (k == 0) first_s = sol.solve_time_s;
    if (k == 0 || sol.solve_time_s < best_s) {
      best_s = sol.solve_time_s;
      best_setup_s = sol.setup_time_s;
      best_iteration_s = sol.iteration_time_s;
    }
  }
  sol.solve_time_s = best_s;
  sol.setup_time_s = best_setup_s;
  sol.iteration_time_s = best_iteration_s;
  const NcpResiduals r = ncp_residuals(p, sol.lambda, sol.v_plus, true);  // eq. 156-158, 163
  const double scale = std::max({p.v_f.size() ? p.v_f.cwiseAbs().maxCoeff() : 0.0,
                                 sol.lambda.size() ? sol.lambda.cwiseAbs().maxCoeff() : 0.0,
                                 sol.v_plus.size() ? sol.v_plus.cwiseAbs().maxCoeff() : 0.0});
  if (!o.lambda_out.empty()) {
    std::ofstream out(o.lambda_out);
    out << nlohmann::json{{"lambda",
                           std::vector<double>(sol.lambda.data(), sol.lambda.data() + p.nl)}}
               .dump()
        << '\n';
    if (!out) fail("solve", o.lambda_out + ": cannot write", kExitFailure);
  }
  const bool failed = sol.status == SolveStatus::Diverged || sol.status == SolveStatus::Failed;
  if (o.json) {
    nlohmann::ordered_json j = {{"file", o.file},
                                {"format", lp.format},
                                {"solver", o.solver},
                                {"problem", info->problem},
                                {"status", status_name(sol.status)},
                                {"converged", sol.converged()},
                                {"iterations", sol.iterations},
                                {"fallbacks", sol.fallbacks},
                                {"solve_time_s", sol.solve_time_s},
                                {"solve_time_first_s", first_s},
                                {"repeat", o.repeat},
                                {"setup_time_s", sol.setup_time_s},
                                {"iteration_time_s", sol.iteration_time_s},
                                {"residual", sol.residual},
                                {"tol", s.tol},
                                {"r_primal", r.primal},
                                {"r_dual", r.dual},
                                {"r_compl", r.compl_},
                                {"r_natmap", r.natmap},
                                {"scale", scale},
                                {"q_inf", p.v_f.size() ? p.v_f.cwiseAbs().maxCoeff() : 0.0},
                                {"r_natmap_relative", scale > 0.0 ? r.natmap / scale : 0.0},
                                {"contacts", p.count(RowKind::Contact)},
                                {"nl", p.nl},
                                {"asymmetry", lp.asymmetry}};
    if (!sol.message.empty()) j["message"] = sol.message;
    std::cout << j.dump(2) << std::endl;
  } else {
    std::printf("%s: %s, %d contacts, nl %d, asymmetry %.2g%s%s\n", o.file.c_str(),
                lp.format.c_str(), p.count(RowKind::Contact), p.nl, lp.asymmetry,
                lp.title.empty() ? "" : ", ", lp.title.c_str());
    std::printf("solver %s (%.*s): %s after %d iterations, %.3g s (set-up %.3g s)",
                o.solver.c_str(), static_cast<int>(info->problem.size()), info->problem.data(),
                status_name(sol.status), sol.iterations, sol.solve_time_s, sol.setup_time_s);
    if (o.repeat > 1) std::printf(", fastest of %d; first %.3g s", o.repeat, first_s);
    std::printf("\n");
    if (info->problem == "LCP" && sol.converged())
      std::printf(
          "LCP residual max|min(z, w)| %.3g: solved on the friction pyramid; the NCP residuals "
          "on the cone below measure the pyramid's approximation, not solver error\n",
          sol.residual);
    std::printf(
        "NCP residuals (L-inf): natmap %.3g  primal %.3g  dual %.3g  compl %.3g  (scale %.3g)\n",
        r.natmap, r.primal, r.dual, r.compl_, scale);
    if (!sol.message.empty()) std::printf("message: %s\n", sol.message.c_str());
  }
  if (failed) throw Exit{kExitFailure};
}

}  // namespace

void add_solve(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  CLI::App* cmd = app.add_subcommand(
      "solve", "solve one contact problem from a file (FCLib .hdf5 or a moreau .mprob dump)");
  cmd->footer(
      "Residuals are the NCP ones (De Saxce-augmented, eq. 156-158, 163), L-inf, whatever the "
      "solver.\nExit status: 0 solved or stopped at the iteration cap; 1 the solver diverged or "
      "failed; 2 bad input. See docs/solvers.md.");
  cmd->add_option("file", o->file, "FCLib problem (.hdf5) or moreau Problem dump (.mprob)")
      ->required();
  cmd->add_option("--solver", o->solver, "solver name (default nbgs-exact)");
  cmd->add_option("--tol", o->tol, "stopping tolerance, L-inf (default 1e-8)");
  cmd->add_option("--max-iter", o->max_iters, "iteration cap (default 1000)");
  cmd->add_option("--repeat", o->repeat,
                  "solve N times from the same start; solve_time_s is the fastest, "
                  "solve_time_first_s the first (default 1)");
  cmd->add_option(
      "--param", o->params,
      "solver parameter key=value (repeatable), e.g. omega=1.2; keys: moreau solvers NAME");
  cmd->add_option("--warm", o->warm, "warm start: JSON file {\"lambda\": [...]} ([t, o, n] order)");
  cmd->add_option("--lambda-out", o->lambda_out, "write the impulses as {\"lambda\": [...]}");
  cmd->add_flag("--json", o->json, "print one JSON object on stdout");
  cmd->callback([o] { run_solve(*o); });
}

}  // namespace moreau::cli
