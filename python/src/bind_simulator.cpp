// Simulator(model, solver=..., dt=..., **settings): step(), rollout(n) into numpy arrays, and the
// last step's Problem and Solution. The C++ Simulator does the work; the loop of rollout() runs
// in C++ with the GIL released.
#include <memory>

#include "common.hpp"
#include "moreau/nmdp/stepper.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"
#include "scene_handle.hpp"

namespace moreau::python {

namespace {

struct PySimulator {
  std::shared_ptr<const Scene> scene;  // keeps the Model alive
  std::unique_ptr<Simulator> sim;
  State state;
};

}  // namespace

// Shared with Batch (bind_batch.cpp).
SimSettings simulator_settings(const Scene& scene, const py::object& solver, const py::object& dt,
                               const py::object& integrator, const py::object& warm_start,
                               const py::object& fast_path, const py::kwargs& kwargs) {
  SimSettings st = scene.settings;
  if (!dt.is_none()) {
    st.dt = dt.cast<double>();
    if (!(st.dt > 0.0) || !std::isfinite(st.dt)) throw InputError("dt must be finite and > 0");
  }
  if (!solver.is_none()) st.solver = solver.cast<std::string>();
  // The messages of `moreau simulate`.
  if (!find_solver(st.solver))
    throw InputError("unknown solver '" + st.solver + "'; available solvers: " + solver_names());
  if (!integrator.is_none()) {
    const std::string name = integrator.cast<std::string>();
    if (!parse_integrator(name, &st.integrator))
      throw InputError("--integrator '" + name + "': expected one of " + integrator_names());
  }
  if (const std::string bad = integrator_solver_error(st.integrator, st.solver); !bad.empty())
    throw InputError(bad);
  if (is_nmdp(st.integrator)) {
    Result<nmdp::Stepper> check = nmdp::Stepper::create(scene.model, st.nmdp);
    if (!check)
      throw InputError(std::string(integrator_name(st.integrator)) + ": " +
                       check.error().message());
  }
  if (!warm_start.is_none()) st.warm_start = warm_start.cast<bool>();
  if (!fast_path.is_none()) st.fast_path = fast_path.cast<bool>();
  apply_settings(st.solver_settings, {st.solver}, kwargs);
  return st;
}

namespace {

void step_n(PySimulator& s, int n) {
  for (int k = 0; k < n; ++k)
    if (!s.sim->step(s.state)) throw SimulationError(s.sim->error());
}

// n steps; every `every`-th state after a step is recorded (the initial one first):
// t (k,), r (k, nb, 3), q (k, nb, 4) as (w, x, y, z), u (k, nb, 6).
py::dict rollout(PySimulator& s, int n, int every) {
  if (n < 0) throw InputError("rollout: n must be >= 0");
  if (every < 1) throw InputError("rollout: every must be >= 1");
  const int nb = s.state.num_bodies();
  const py::ssize_t k = 1 + n / every;
  py::array_t<double> t(k), r({k, py::ssize_t(nb), py::ssize_t(3)}),
      q({k, py::ssize_t(nb), py::ssize_t(4)}), u({k, py::ssize_t(nb), py::ssize_t(6)});
  double *pt = t.mutable_data(), *pr = r.mutable_data(), *pq = q.mutable_data(),
         *pu = u.mutable_data();
  std::string error;
  int done = 0;
  {
    py::gil_scoped_release release;
    auto record = [&](py::ssize_t i) {
      const State& st = s.state;
      pt[i] = st.t;
      for (int b = 0; b < nb; ++b) {
        std::copy(st.r[b].data(), st.r[b].data() + 3, pr + (i * nb + b) * 3);
        double* qq = pq + (i * nb + b) * 4;
        qq[0] = st.q[b].w();
        qq[1] = st.q[b].x();
        qq[2] = st.q[b].y();
        qq[3] = st.q[b].z();
        std::copy(st.u[b].data(), st.u[b].data() + 6, pu + (i * nb + b) * 6);
      }
    };
    record(0);
    for (; done < n; ++done) {
      if (!s.sim->step(s.state)) {
        error = s.sim->error();
        break;
      }
      if ((done + 1) % every == 0) record((done + 1) / every);
    }
  }
  if (!error.empty()) throw SimulationError("step " + std::to_string(done) + ": " + error);
  py::dict d;
  d["t"] = t;
  d["r"] = r;
  d["q"] = q;
  d["u"] = u;
  return d;
}

}  // namespace

void bind_simulator(py::module_& m) {
  py::class_<PySimulator>(m, "Simulator",
                          "Steps a Model's state. Defaults come from the scene (solver, dt, "
                          "integrator, solver settings); keyword arguments tol, max_iters and "
                          "the solver's parameters (`moreau solvers NAME`) override them.")
      .def(py::init([](const SceneHandle& model, const py::object& solver, const py::object& dt,
                       const py::object& integrator, const py::object& warm_start,
                       const py::object& fast_path, const py::object& state,
                       const py::kwargs& kwargs) {
             auto s = std::make_unique<PySimulator>();
             s->scene = model.scene;
             const SimSettings st = simulator_settings(*model.scene, solver, dt, integrator,
                                                       warm_start, fast_path, kwargs);
             s->sim = std::make_unique<Simulator>(model.scene->model, st);
             s->state = model.scene->initial;
             if (!state.is_none()) {
               const State& given = state.cast<const State&>();
               if (given.num_bodies() != model.scene->model.num_bodies())
                 throw InputError("state has " + std::to_string(given.num_bodies()) +
                                  " bodies, the model " +
                                  std::to_string(model.scene->model.num_bodies()));
               s->state = given;
             }
             return s;
           }),
           py::arg("model"), py::arg("solver") = py::none(), py::arg("dt") = py::none(),
           py::arg("integrator") = py::none(), py::arg("warm_start") = py::none(),
           py::arg("fast_path") = py::none(), py::arg("state") = py::none())
      .def_property(
          "state", [](PySimulator& s) -> State& { return s.state; },
          [](PySimulator& s, const State& st) {
            if (st.num_bodies() != s.state.num_bodies())
              throw InputError("state has " + std::to_string(st.num_bodies()) +
                               " bodies, the model " + std::to_string(s.state.num_bodies()));
            s.state = st;
          },
          py::return_value_policy::reference_internal,
          "the current state (a live object: its arrays are views into the simulator)")
      .def_property_readonly("dt", [](const PySimulator& s) { return s.sim->settings().dt; })
      .def_property_readonly("fast_path",
                             [](const PySimulator& s) { return s.sim->settings().fast_path; })
      .def_property_readonly("solver",
                             [](const PySimulator& s) { return s.sim->settings().solver; })
      .def_property_readonly(
          "integrator",
          [](const PySimulator& s) { return integrator_name(s.sim->settings().integrator); })
      .def_property_readonly(
          "tol", [](const PySimulator& s) { return s.sim->settings().solver_settings.tol; })
      .def("step", &step_n, py::arg("n") = 1,
           "Advances the state by n steps; raises SimulationError with the simulator's message "
           "on failure.")
      .def("rollout", &rollout, py::arg("n"), py::arg("every") = 1,
           "Runs n steps; returns a dict of arrays t (k,), r (k, nb, 3), q (k, nb, 4) (w, x, y, "
           "z), u (k, nb, 6) with the initial state first and every `every`-th one after.")
      .def(
          "problem", [](const PySimulator& s) { return Problem(s.sim->problem()); },
          "A copy of the last step's Problem.")
      .def(
          "warm_start", [](const PySimulator& s) { return to_numpy(s.sim->warm_start().lambda); },
          "the warm start the last step's solve used (empty: cold)")
      .def(
          "solution",
          [](const PySimulator& s) {
            const Solution& sol = s.sim->solution();
            py::dict d;
            d["lambda"] = to_numpy(sol.lambda);
            d["v_plus"] = to_numpy(sol.v_plus);
            d["status"] = status_name(sol.status);
            d["iterations"] = sol.iterations;
            d["residual"] = sol.residual;
            d["solve_time_s"] = sol.solve_time_s;
            return d;
          },
          "The last step's Solution as a dict.")
      .def_property_readonly("num_contacts", [](const PySimulator& s) {
        return static_cast<int>(s.sim->contacts().size());
      });
}

}  // namespace moreau::python
