// numpy conversions with shape checks, and keyword settings (common.hpp).
#include "common.hpp"
#include "moreau/solvers/solver_params.hpp"

namespace moreau::python {

py::array_t<double> to_numpy(const double* data, py::ssize_t n) {
  py::array_t<double> out(n);
  if (n > 0) std::copy(data, data + n, out.mutable_data());
  return out;
}

namespace {

std::string shape_text(const std::vector<py::ssize_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + (shape[i] < 0 ? std::string("any") : std::to_string(shape[i]));
  return s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

Array array_of_shape(const py::handle& a, const std::vector<py::ssize_t>& shape,
                     const std::string& what) {
  Array arr;
  try {
    arr = Array::ensure(a);
  } catch (const py::error_already_set&) {
  }
  if (!arr) throw InputError(what + ": expected an array of numbers of shape " + shape_text(shape));
  bool ok = arr.ndim() == static_cast<py::ssize_t>(shape.size());
  for (size_t i = 0; ok && i < shape.size(); ++i)
    ok = shape[i] < 0 || arr.shape(static_cast<py::ssize_t>(i)) == shape[i];
  if (!ok) {
    std::vector<py::ssize_t> got(arr.shape(), arr.shape() + arr.ndim());
    throw InputError(what + ": expected shape " + shape_text(shape) + ", got " + shape_text(got));
  }
  return arr;
}

VecX vector_from(const py::handle& a, py::ssize_t n, const std::string& what) {
  const Array arr = array_of_shape(a, {n}, what);
  return Eigen::Map<const VecX>(arr.data(), arr.shape(0));
}

void apply_settings(SolverSettings& s, const std::vector<std::string>& solvers,
                    const py::dict& kwargs) {
  std::vector<std::string> params;
  for (const auto& [k, v] : kwargs) {
    const std::string key = py::str(k);
    if (key == "tol") {
      s.tol = v.cast<double>();
      if (!(s.tol > 0.0)) throw InputError("tol must be > 0");
    } else if (key == "max_iters") {
      s.max_iters = v.cast<int>();
      if (s.max_iters < 1) throw InputError("max_iters must be >= 1");
    } else if (key == "trace") {
      s.trace = v.cast<bool>();
    } else {
      // The value as the command line would spell it: repr() of a float round-trips exactly.
      // A string is taken as written (moreau.sweep passes the command line's text).
      const std::string value = py::isinstance<py::bool_>(v) ? (v.cast<bool>() ? "1" : "0")
                                : py::isinstance<py::str>(v) ? v.cast<std::string>()
                                                             : std::string(py::repr(v));
      params.push_back(key + "=" + value);
    }
  }
  if (const std::string err = apply_solver_params(s, params, solvers); !err.empty())
    throw InputError(err);
}

}  // namespace moreau::python
