#pragma once
// Shared by the binding files of the `moreau` Python module (docs/python.md): the exception types
// the module raises and the numpy conversions, all with shape checks (bad input raises, never
// crashes the interpreter).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "moreau/math/growable.hpp"
#include "moreau/math/types.hpp"
#include "moreau/solvers/solver_settings.hpp"

namespace moreau::python {

namespace py = pybind11;

// Raised as moreau.InputError (a ValueError): bad file, scene, solver name, setting or array. The
// message is the one the command line prints after "error: ".
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Raised as moreau.SimulationError (a RuntimeError): a step failed (the simulator's message).
struct SimulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A copy of v as a 1-D float64 array.
py::array_t<double> to_numpy(const double* data, py::ssize_t n);
inline py::array_t<double> to_numpy(const VecX& v) {
  return to_numpy(v.data(), v.size());
}
inline py::array_t<double> to_numpy(const GrowVec& v) {
  return to_numpy(v.data(), v.size());
}
inline py::array_t<double> to_numpy(const std::vector<double>& v) {
  return to_numpy(v.data(), static_cast<py::ssize_t>(v.size()));
}

// A 1-D array of exactly n entries (n < 0: any length) as a VecX; InputError naming `what`
// otherwise.
VecX vector_from(const py::handle& a, py::ssize_t n, const std::string& what);
// Checks that `a` is a float64-convertible array of `shape`; InputError naming `what` otherwise.
Array array_of_shape(const py::handle& a, const std::vector<py::ssize_t>& shape,
                     const std::string& what);

// Solver settings from keyword arguments: tol, max_iters, trace, and any parameter of the
// solvers' tables (solver_params.hpp); errors carry the command line's --param message.
void apply_settings(SolverSettings& s, const std::vector<std::string>& solvers,
                    const py::dict& kwargs);

void bind_model(py::module_& m);
void bind_simulator(py::module_& m);
void bind_batch(py::module_& m);
void bind_problem(py::module_& m);
void bind_solve(py::module_& m);
void bind_bench(py::module_& m);

}  // namespace moreau::python
