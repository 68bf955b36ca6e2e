// Batch(model, num_worlds, threads=1, ...): many worlds of one model stepped over threads
// (sim/batch.hpp). Its arrays t, r, q, u, ctrl and unconverged are numpy views into the batch
// (no copies): write a state or controls into them, step(), read the new states from them.
#include <memory>

#include "common.hpp"
#include "moreau/sim/batch.hpp"
#include "scene_handle.hpp"

namespace moreau::python {

SimSettings simulator_settings(const Scene& scene, const py::object& solver, const py::object& dt,
                               const py::object& integrator, const py::object& warm_start,
                               const py::object& fast_path, const py::kwargs& kwargs);

namespace {

struct PyBatch {
  std::shared_ptr<const Scene> scene;  // keeps the Model alive
  std::unique_ptr<Batch> batch;
};

// A view of `n` doubles of the batch as an array of `shape`; the array keeps `self` alive.
py::array view(const py::object& self, double* data, std::vector<py::ssize_t> shape) {
  return py::array_t<double>(shape, data, self);
}

// A per-body state array (N, nb, width) of the batch held by `self`, as a view.
py::array per_body(const py::object& self, double* (Batch::*get)(), py::ssize_t width) {
  Batch& b = *self.cast<PyBatch&>().batch;
  return view(self, (b.*get)(), {b.num_worlds(), b.num_bodies(), width});
}

void check_world(const PyBatch& b, int w) {
  if (w < 0 || w >= b.batch->num_worlds())
    throw InputError("world " + std::to_string(w) + " is out of range [0, " +
                     std::to_string(b.batch->num_worlds()) + ")");
}

}  // namespace

void bind_batch(py::module_& m) {
  py::class_<PyBatch>(
      m, "Batch",
      "num_worlds copies of one Model stepped over `threads` threads (docs/python.md, 'Batches "
      "of worlds'). Settings as for Simulator. The arrays t (N,), r (N, nb, 3), q (N, nb, 4) (w, "
      "x, y, z), u (N, nb, 6), ctrl (N, nu) and unconverged (N,) are live views: write states "
      "and controls into them, call step(), read the new states. A world steps bit-identically "
      "to a lone Simulator with the same controls, whatever `threads` is.")
      .def(py::init([](const SceneHandle& model, int num_worlds, int threads,
                       const py::object& solver, const py::object& dt, const py::object& integrator,
                       const py::object& warm_start, const py::object& fast_path,
                       const py::kwargs& kwargs) {
             if (num_worlds < 1) throw InputError("num_worlds must be >= 1");
             if (threads < 1) throw InputError("threads must be >= 1");
             auto b = std::make_unique<PyBatch>();
             b->scene = model.scene;
             const SimSettings st = simulator_settings(*model.scene, solver, dt, integrator,
                                                       warm_start, fast_path, kwargs);
             b->batch = std::make_unique<Batch>(model.scene->model, st, model.scene->initial,
                                                num_worlds, threads);
             if (!b->batch->ok()) throw InputError(b->batch->error());
             return b;
           }),
           py::arg("model"), py::arg("num_worlds"), py::arg("threads") = 1,
           py::arg("solver") = py::none(), py::arg("dt") = py::none(),
           py::arg("integrator") = py::none(), py::arg("warm_start") = py::none(),
           py::arg("fast_path") = py::none())
      .def_property_readonly("num_worlds", [](const PyBatch& b) { return b.batch->num_worlds(); })
      .def_property(
          "threads", [](const PyBatch& b) { return b.batch->threads(); },
          [](PyBatch& b, int t) {
            if (t < 1) throw InputError("threads must be >= 1");
            b.batch->set_threads(t);
          })
      .def_property_readonly(
          "controls",
          [](const PyBatch& b) {
            std::vector<std::string> names;
            for (const ActuatedDof& a : b.batch->controls())
              names.push_back(b.scene->model.joints()[a.joint].name + ":" + std::to_string(a.dof));
            return names;
          },
          "the names 'joint:dof' of the ctrl columns (the actuated DoFs, in model order)")
      .def_property_readonly("t",
                             [](py::object self) {
                               PyBatch& b = self.cast<PyBatch&>();
                               return view(self, b.batch->t(), {b.batch->num_worlds()});
                             })
      .def_property_readonly("r", [](py::object self) { return per_body(self, &Batch::r, 3); })
      .def_property_readonly("q", [](py::object self) { return per_body(self, &Batch::q, 4); })
      .def_property_readonly("u", [](py::object self) { return per_body(self, &Batch::u, 6); })
      .def_property_readonly(
          "ctrl",
          [](py::object self) {
            PyBatch& b = self.cast<PyBatch&>();
            return view(self, b.batch->ctrl(), {b.batch->num_worlds(), b.batch->num_controls()});
          },
          "controls (N, nu): each actuated DoF's set point, a torque or force (motor) or a target "
          "angle, position or velocity (servos)")
      .def_property_readonly(
          "unconverged",
          [](py::object self) {
            PyBatch& b = self.cast<PyBatch&>();
            return py::array_t<long long>({py::ssize_t(b.batch->num_worlds())},
                                          b.batch->unconverged(), self);
          },
          "steps per world whose solve did not converge (since made or reset)")
      .def(
          "step",
          [](PyBatch& b, int n) {
            if (n < 0) throw InputError("step: n must be >= 0");
            int failed = 0;
            {
              py::gil_scoped_release release;
              failed = b.batch->step(n);
            }
            if (failed > 0) {
              int w = 0;
              while (b.batch->world_error(w).empty()) ++w;
              throw SimulationError(
                  std::to_string(failed) + " of " + std::to_string(b.batch->num_worlds()) +
                  " worlds failed; world " + std::to_string(w) + ": " + b.batch->world_error(w));
            }
          },
          py::arg("n") = 1,
          "Advances every world n steps (the GIL released). A world that fails keeps its last "
          "good state and is not stepped again until reset; SimulationError names the first.")
      .def(
          "errors",
          [](const PyBatch& b) {
            std::vector<std::string> e;
            for (int w = 0; w < b.batch->num_worlds(); ++w) e.push_back(b.batch->world_error(w));
            return e;
          },
          "per world: why it failed ('' when it did not)")
      .def(
          "reset",
          [](PyBatch& b, const py::object& worlds) {
            if (worlds.is_none()) {
              for (int w = 0; w < b.batch->num_worlds(); ++w) b.batch->reset(w);
              return;
            }
            for (const py::handle& h : worlds) {
              const int w = h.cast<int>();
              check_world(b, w);
              b.batch->reset(w);
            }
          },
          py::arg("worlds") = py::none(),
          "Back to the model's initial state and controls with a fresh simulator (no warm start): "
          "the given worlds, or all.")
      .def(
          "state",
          [](const PyBatch& b, int w) {
            check_world(b, w);
            return b.batch->state(w);
          },
          py::arg("world"), "a copy of world w's state as a State");
}

}  // namespace moreau::python
