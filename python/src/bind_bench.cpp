// The bench API (report Sec. VII, docs/benchmark.md): samples recorded from a scene or read from
// files, solves of samples, and the report writer of `moreau bench` (one code path). Samples and
// run results pickle exactly (moreau.sweep ships them to Dask workers).
#include "common.hpp"
#include "moreau/bench/bench.hpp"
#include "moreau/io/problem_io.hpp"
#include "moreau/solvers/solver_params.hpp"

namespace moreau::python {

namespace {

using bench::RunResult;
using bench::Sample;

py::tuple sample_state(const Sample& s) {
  const bench::SampleInfo& i = s.info;
  return py::make_tuple(s.system, s.step, s.time, s.reason, py::bytes(problem_to_bytes(s.problem)),
                        to_numpy(s.warm_lambda),
                        py::make_tuple(i.bodies, i.joint_blocks, i.limit_rows, i.contacts, i.nl,
                                       i.joint_rows, i.d_J, i.d_C, i.d_JC, i.rank_J, i.cond_D,
                                       i.mass_ratio, static_cast<int>(i.category)));
}

Sample sample_from(const py::tuple& t) {
  if (t.size() != 7) throw InputError("pickled Sample: expected 7 fields");
  Sample s;
  s.system = t[0].cast<std::string>();
  s.step = t[1].cast<int>();
  s.time = t[2].cast<double>();
  s.reason = t[3].cast<std::string>();
  Result<Problem> p = problem_from_bytes(t[4].cast<std::string>(), "pickled Sample");
  if (!p) throw InputError(p.error().message());
  s.problem = std::move(*p);
  s.warm_lambda = vector_from(t[5], -1, "pickled Sample warm_lambda");
  const py::tuple i = t[6];
  bench::SampleInfo& f = s.info;
  f.bodies = i[0].cast<int>();
  f.joint_blocks = i[1].cast<int>();
  f.limit_rows = i[2].cast<int>();
  f.contacts = i[3].cast<int>();
  f.nl = i[4].cast<int>();
  f.joint_rows = i[5].cast<int>();
  f.d_J = i[6].cast<double>();
  f.d_C = i[7].cast<double>();
  f.d_JC = i[8].cast<double>();
  f.rank_J = i[9].cast<int>();
  f.cond_D = i[10].cast<double>();
  f.mass_ratio = i[11].cast<double>();
  f.category = static_cast<bench::Category>(i[12].cast<int>());
  return s;
}

py::tuple run_state(const RunResult& r) {
  const bench::Metrics& m = r.metrics;
  return py::make_tuple(r.sample, r.solver, r.warm, static_cast<int>(r.status), r.iterations,
                        r.fallbacks, r.solve_time_s,
                        py::make_tuple(m.r_pen, m.r_dual, m.r_compl, m.r_natmap, m.r_primal),
                        r.success, r.message, to_numpy(r.trace));
}

RunResult run_from(const py::tuple& t) {
  if (t.size() != 11) throw InputError("pickled RunResult: expected 11 fields");
  RunResult r;
  r.sample = t[0].cast<int>();
  r.solver = t[1].cast<std::string>();
  r.warm = t[2].cast<bool>();
  r.status = static_cast<SolveStatus>(t[3].cast<int>());
  r.iterations = t[4].cast<int>();
  r.fallbacks = t[5].cast<int>();
  r.solve_time_s = t[6].cast<double>();
  const py::tuple m = t[7];
  r.metrics = {m[0].cast<double>(), m[1].cast<double>(), m[2].cast<double>(), m[3].cast<double>(),
               m[4].cast<double>()};
  r.success = t[8].cast<bool>();
  r.message = t[9].cast<std::string>();
  const VecX tr = vector_from(t[10], -1, "pickled RunResult trace");
  r.trace.assign(tr.data(), tr.data() + tr.size());
  return r;
}

py::dict run_dict(const RunResult& r) {
  py::dict d;
  d["sample"] = r.sample;
  d["solver"] = r.solver;
  d["warm"] = r.warm;
  d["status"] = status_name(r.status);
  d["iterations"] = r.iterations;
  d["fallbacks"] = r.fallbacks;
  d["solve_time_s"] = r.solve_time_s;
  d["r_pen"] = r.metrics.r_pen;
  d["r_dual"] = r.metrics.r_dual;
  d["r_compl"] = r.metrics.r_compl;
  d["r_natmap"] = r.metrics.r_natmap;
  d["r_primal"] = r.metrics.r_primal;
  d["success"] = r.success;
  d["message"] = r.message;
  d["trace"] = to_numpy(r.trace);
  return d;
}

std::vector<Sample> collect(const std::string& scene, double dt, double duration, int max_samples,
                            int every, const std::string& sim_solver, bool impacts) {
  bench::CollectSettings cs;
  cs.dt = dt;
  cs.duration = duration;
  cs.max_samples = max_samples;
  cs.every = every;
  cs.sim_solver = sim_solver;
  cs.impacts = impacts;
  Result<std::vector<Sample>> r = [&] {
    py::gil_scoped_release release;
    return bench::collect_samples(scene, cs);
  }();
  if (!r) throw SimulationError(r.error().message());
  return std::move(*r);
}

std::vector<RunResult> run(const std::vector<Sample>& samples,
                           const std::vector<std::string>& solvers, double tol, int max_iters,
                           const py::dict& params, bool cold, bool warm, int jobs, bool traces) {
  for (const std::string& s : solvers)
    if (!find_solver(s))  // `moreau bench`'s message
      throw InputError("unknown solver '" + s + "'; available: " + solver_names());
  bench::RunSettings rs;
  rs.solvers = solvers;
  rs.solver.tol = tol;
  rs.solver.max_iters = max_iters;
  if (!(tol > 0.0) || max_iters < 1) throw InputError("--tol must be > 0 and --max-iter >= 1");
  apply_settings(rs.solver, solvers, params);
  rs.cold = cold;
  rs.warm = warm;
  rs.jobs = jobs;
  rs.traces = traces;
  py::gil_scoped_release release;
  return bench::run_solves(samples, rs);
}

void write_report(const std::string& out_dir, const std::vector<Sample>& samples,
                  const std::vector<RunResult>& runs, const std::vector<std::string>& solvers,
                  const std::vector<std::string>& systems, double tol,
                  const std::string& command_line, double wall_s,
                  const std::vector<std::string>& notes) {
  bench::ReportInput in;
  in.out_dir = out_dir;
  in.samples = &samples;
  in.runs = &runs;
  in.solvers = solvers;
  in.systems = systems;
  in.tol = tol;
  in.command_line = command_line;
  in.wall_s = wall_s;
  for (const RunResult& r : runs) in.solve_s += r.solve_time_s;
  in.notes = notes;
  py::gil_scoped_release release;
  if (auto e = bench::write_report(in)) throw InputError(e->message());
}

}  // namespace

void bind_bench(py::module_& m) {
  py::module_ b = m.def_submodule("bench", "the benchmark's C++ core (docs/benchmark.md)");
  py::class_<Sample>(b, "Sample", "A Problem recorded from a scene (or read from a file).")
      .def_readonly("system", &Sample::system)
      .def_readonly("step", &Sample::step)
      .def_readonly("time", &Sample::time)
      .def_readonly("reason", &Sample::reason)
      .def_readonly("problem", &Sample::problem)
      .def_property_readonly("warm_lambda", [](const Sample& s) { return to_numpy(s.warm_lambda); })
      .def_property_readonly("category",
                             [](const Sample& s) { return bench::category_name(s.info.category); })
      .def_property_readonly("info",
                             [](const Sample& s) {
                               const bench::SampleInfo& i = s.info;
                               py::dict d;
                               d["bodies"] = i.bodies;
                               d["joint_blocks"] = i.joint_blocks;
                               d["limit_rows"] = i.limit_rows;
                               d["contacts"] = i.contacts;
                               d["nl"] = i.nl;
                               d["joint_rows"] = i.joint_rows;
                               d["rank_J"] = i.rank_J;
                               d["cond_D"] = i.cond_D;
                               d["mass_ratio"] = i.mass_ratio;
                               d["category"] = bench::category_name(i.category);
                               return d;
                             })
      .def(py::pickle(&sample_state, &sample_from))
      .def("__repr__", [](const Sample& s) {
        return "<moreau.bench.Sample " + s.system + " step " + std::to_string(s.step) + " nl " +
               std::to_string(s.problem.nl) + ">";
      });
  py::class_<RunResult>(b, "RunResult", "One solve of one sample (a row of results.csv).")
      .def_readwrite("sample", &RunResult::sample)
      .def_readwrite("solver", &RunResult::solver)
      .def_readonly("warm", &RunResult::warm)
      .def_readonly("iterations", &RunResult::iterations)
      .def_readonly("success", &RunResult::success)
      .def_readonly("solve_time_s", &RunResult::solve_time_s)
      .def("to_dict", &run_dict)
      .def(py::pickle(&run_state, &run_from));

  b.def("collect_samples", &collect, py::arg("scene"), py::arg("dt") = 0.0,
        py::arg("duration") = 0.0, py::arg("max_samples") = 12, py::arg("every") = 0,
        py::arg("sim_solver") = "", py::arg("impacts") = true,
        "Runs a scene and records its Problems (bench::collect_samples): the first constrained "
        "step, impacts, periodic steps. Raises SimulationError naming the scene on failure.");
  b.def(
      "load_samples",
      [](const std::string& path) {
        Result<std::vector<Sample>> r = bench::load_samples(path);
        if (!r) throw InputError(r.error().message());
        return std::move(*r);
      },
      py::arg("path"), "Samples from a .mprob dump or an FCLib .hdf5 file.");
  b.def("run_solves", &run, py::arg("samples"), py::arg("solvers"), py::arg("tol") = 1e-6,
        py::arg("max_iters") = 1000, py::arg("params") = py::dict(), py::arg("cold") = true,
        py::arg("warm") = true, py::arg("jobs") = 1, py::arg("traces") = true,
        "Solves every (sample, solver, start) as `moreau bench` does (bench::run_solves); rows "
        "in the order sample, solver, cold before warm. params: solver parameters set on every "
        "solver that has them (--param).");
  b.def("write_report", &write_report, py::arg("out_dir"), py::arg("samples"), py::arg("runs"),
        py::arg("solvers"), py::arg("systems"), py::arg("tol"), py::arg("command_line") = "",
        py::arg("wall_s") = 0.0, py::arg("notes") = std::vector<std::string>{},
        "Writes results.csv, summary.json, plots/ and report.md into out_dir (which exists): "
        "`moreau bench`'s writer.");
  b.def("suite_systems", &bench::suite_systems, "the report's Table II suite, in table order");
  b.def("default_solvers", [] {
    // `moreau bench`'s default set (solvers/solver.hpp, in_bench_default_set).
    std::vector<std::string> out;
    for (const SolverInfo& s : solver_registry())
      if (in_bench_default_set(s)) out.emplace_back(s.name);
    return out;
  });
}

}  // namespace moreau::python
