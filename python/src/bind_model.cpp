// moreau.load -> Model (a scene: built-in name with parameters, .json, URDF, MJCF), Model.inspect
// (what `moreau inspect --json` prints), and State with numpy views of its arrays.
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "model_summary_print.hpp"
#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/joint_kinematics.hpp"
#include "moreau/scenes/builtin.hpp"
#include "scene_handle.hpp"

namespace moreau::python {

namespace {

// A writable (nb, k) view of a vector of fixed-size Eigen vectors (contiguous doubles), kept
// alive by `owner`.
double* data_of(Vec3& v) {
  return v.data();
}
double* data_of(Vec6& v) {
  return v.data();
}
double* data_of(Quat& q) {
  return q.coeffs().data();
}  // (x, y, z, w)

template <class V>
py::array_t<double> view(std::vector<V>& v, int k, py::handle owner) {
  static_assert(sizeof(V) == sizeof(double) * 3 || sizeof(V) == sizeof(double) * 4 ||
                sizeof(V) == sizeof(double) * 6);  // contiguous, unpadded
  const py::ssize_t nb = static_cast<py::ssize_t>(v.size());
  return py::array_t<double>(
      {nb, static_cast<py::ssize_t>(k)},
      {static_cast<py::ssize_t>(k * sizeof(double)), static_cast<py::ssize_t>(sizeof(double))},
      nb ? data_of(v[0]) : nullptr, owner);
}

// Assigns an (nb, k) array to the rows of v.
template <class V>
void assign(std::vector<V>& v, int k, const py::handle& a, const char* what) {
  const Array arr = array_of_shape(a, {static_cast<py::ssize_t>(v.size()), k}, what);
  for (size_t b = 0; b < v.size(); ++b)
    std::copy(arr.data() + b * k, arr.data() + (b + 1) * k, data_of(v[b]));
}

py::array_t<double> quats_wxyz(const State& s) {
  py::array_t<double> out({static_cast<py::ssize_t>(s.q.size()), py::ssize_t{4}});
  auto o = out.mutable_unchecked<2>();
  for (size_t b = 0; b < s.q.size(); ++b) {
    o(b, 0) = s.q[b].w();
    o(b, 1) = s.q[b].x();
    o(b, 2) = s.q[b].y();
    o(b, 3) = s.q[b].z();
  }
  return out;
}

py::object json_to_python(const nlohmann::ordered_json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

// DoF coordinates q_j of every joint at s, in joint order (joint_kinematics.hpp).
py::array_t<double> joint_positions(const Model& m, const State& s) {
  if (s.num_bodies() != m.num_bodies())
    throw InputError("state has " + std::to_string(s.num_bodies()) + " bodies, the model " +
                     std::to_string(m.num_bodies()));
  std::vector<double> q;
  JointAxes ax;  // joint_axes reads the bodies of each joint: the sizes are checked above
  for (const Joint& j : m.joints()) {
    joint_axes(j, s, ax);
    for (int k = 0; k < ax.d; ++k) q.push_back(ax.value[ax.dof[k]]);
  }
  return to_numpy(q);
}

std::vector<std::string> dof_names(const Model& m) {
  std::vector<std::string> out;
  for (const Joint& j : m.joints())
    for (int k = 0; k < j.dofs(); ++k)
      out.push_back(j.dofs() == 1 ? j.name : j.name + "[" + std::to_string(k) + "]");
  return out;
}

SceneHandle load(const std::string& name, const py::kwargs& params) {
  SceneParams sp;
  for (const auto& [k, v] : params)  // as `--set key=value` would spell it (True: 1)
    sp[py::str(k)] = py::isinstance<py::bool_>(v) ? (v.cast<bool>() ? "1" : "0")
                     : py::isinstance<py::str>(v) ? v.cast<std::string>()
                                                  : std::string(py::str(py::repr(v)));
  Result<Scene> r = load_scene(name, sp);
  if (!r) throw InputError(r.error().message());
  return SceneHandle{std::make_shared<const Scene>(std::move(*r))};
}

}  // namespace

void bind_model(py::module_& m) {
  py::class_<State>(m, "State",
                    "Per-body state: CoM positions r (nb, 3) [m], quaternions and twists u = [v; "
                    "w] (nb, 6) at the CoM in the world frame [m/s, rad/s]. r, u and q_xyzw are "
                    "writable views (no copy); q is a (w, x, y, z) copy, moreau's convention.")
      .def(py::init([](int nb) {
             if (nb < 0) throw InputError("State: num_bodies must be >= 0");
             return State::zeros(nb);
           }),
           py::arg("num_bodies"), "All bodies at the origin, at rest.")
      .def_readwrite("t", &State::t, "simulated time [s]")
      .def_property_readonly("num_bodies", &State::num_bodies)
      .def_property(
          "r", [](py::object self) { return view(self.cast<State&>().r, 3, self); },
          [](State& s, const py::handle& a) { assign(s.r, 3, a, "State.r"); })
      .def_property(
          "u", [](py::object self) { return view(self.cast<State&>().u, 6, self); },
          [](State& s, const py::handle& a) { assign(s.u, 6, a, "State.u"); })
      .def_property(
          "q_xyzw", [](py::object self) { return view(self.cast<State&>().q, 4, self); },
          [](State& s, const py::handle& a) { assign(s.q, 4, a, "State.q_xyzw"); },
          "quaternions as stored (x, y, z, w): a writable view")
      .def_property(
          "q", &quats_wxyz,
          [](State& s, const py::handle& a) {
            const Array arr = array_of_shape(a, {s.num_bodies(), 4}, "State.q");
            for (int b = 0; b < s.num_bodies(); ++b) {
              const double* w = arr.data() + 4 * b;
              s.q[b] = Quat(w[0], w[1], w[2], w[3]);
            }
          },
          "quaternions (w, x, y, z), a copy; assigning sets them (not renormalized)")
      .def("copy", [](const State& s) { return State(s); })
      .def("__copy__", [](const State& s) { return State(s); })
      .def("__deepcopy__", [](const State& s, py::dict) { return State(s); })
      .def("__repr__", [](const State& s) {
        return "<moreau.State t=" + std::to_string(s.t) +
               " bodies=" + std::to_string(s.num_bodies()) + ">";
      });

  py::class_<SceneHandle>(m, "Model",
                          "A loaded scene: the model, its initial state and the simulation "
                          "settings it asks for (moreau.load).")
      .def_property_readonly("name", [](const SceneHandle& h) { return h.scene->name; })
      .def_property_readonly("source", [](const SceneHandle& h) { return h.scene->source; })
      .def_property_readonly("num_bodies",
                             [](const SceneHandle& h) { return h.scene->model.num_bodies(); })
      .def_property_readonly("num_joints",
                             [](const SceneHandle& h) { return h.scene->model.num_joints(); })
      .def_property_readonly("dt", [](const SceneHandle& h) { return h.scene->settings.dt; })
      .def_property_readonly("solver",
                             [](const SceneHandle& h) { return h.scene->settings.solver; })
      .def_property_readonly(
          "integrator",
          [](const SceneHandle& h) { return integrator_name(h.scene->settings.integrator); })
      .def_property_readonly("duration", [](const SceneHandle& h) { return h.scene->duration; })
      .def_property_readonly("body_names",
                             [](const SceneHandle& h) {
                               std::vector<std::string> n;
                               for (const Body& b : h.scene->model.bodies()) n.push_back(b.name);
                               return n;
                             })
      .def_property_readonly("joint_names",
                             [](const SceneHandle& h) {
                               std::vector<std::string> n;
                               for (const Joint& j : h.scene->model.joints()) n.push_back(j.name);
                               return n;
                             })
      .def_property_readonly(
          "dof_names", [](const SceneHandle& h) { return dof_names(h.scene->model); },
          "one name per joint DoF, in the order of joint_positions()")
      .def_property_readonly(
          "warnings",
          [](const SceneHandle& h) { return CollisionDetector(h.scene->model).warnings(); },
          "what the collision detector cannot handle in this model")
      .def(
          "initial_state", [](const SceneHandle& h) { return State(h.scene->initial); },
          "A copy of the scene's initial state.")
      .def(
          "inspect", [](const SceneHandle& h) { return json_to_python(inspect_json(*h.scene)); },
          "The model's structure as a dict: what `moreau inspect --json` prints.")
      .def(
          "joint_positions",
          [](const SceneHandle& h, const State& s) { return joint_positions(h.scene->model, s); },
          py::arg("state"),
          "DoF coordinates of every joint at `state` [m or rad], in joint order (dof_names).")
      .def(
          "to_json", [](const SceneHandle& h) { return scene_to_json(*h.scene); },
          "The scene in moreau's JSON format (docs/scene-format.md).")
      .def("__repr__", [](const SceneHandle& h) {
        return "<moreau.Model '" + h.scene->name +
               "' bodies=" + std::to_string(h.scene->model.num_bodies()) +
               " joints=" + std::to_string(h.scene->model.num_joints()) + ">";
      });

  m.def("load", &load, py::arg("scene"),
        "Loads a scene: a built-in name (keyword arguments are its parameters, as `--set "
        "key=value`), or a .json, .urdf or MJCF .xml file. Raises InputError with the command "
        "line's message on bad input.");
  m.def("builtin_scenes", &builtin_scene_names, "The built-in scene names.");
}

}  // namespace moreau::python
