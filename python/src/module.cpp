// The `moreau` Python module's extension `_moreau` (docs/python.md); moreau/__init__.py
// re-exports it. One binding file per room: model and state, simulator, batch, problem, solve,
// bench.
#include "common.hpp"

namespace moreau::python {

PYBIND11_MODULE(_moreau, m) {
  m.doc() = "moreau: rigid multibody dynamics with frictional contact and its solvers";
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<SimulationError>(m, "SimulationError", PyExc_RuntimeError);
  bind_model(m);
  bind_problem(m);
  bind_solve(m);
  bind_simulator(m);
  bind_batch(m);
  bind_bench(m);
}

}  // namespace moreau::python
