// The "settings" object of the JSON scene format: time step, integrator, solver and its settings,
// stabilization, collision and softening (docs/scene-format.md).
#include "moreau/io/scene_json_parts.hpp"
#include "moreau/solvers/solver_params.hpp"

namespace moreau::scene_json {

namespace {
using ojson = nlohmann::ordered_json;

void read_impedance(const Reader& r, const json& j, const Loc& at, ImpedanceParams& p) {
  r.keys(j, at, {"d0", "dwidth", "width", "midpoint", "power", "timeconst", "dampratio"});
  if (const json* v = Reader::get(j, "d0")) p.d0 = r.number(*v, at.key("d0"), Range::OpenUnit);
  if (const json* v = Reader::get(j, "dwidth"))
    p.dwidth = r.number(*v, at.key("dwidth"), Range::OpenUnit);
  if (const json* v = Reader::get(j, "width"))
    p.width = r.number(*v, at.key("width"), Range::Positive);
  if (const json* v = Reader::get(j, "midpoint"))
    p.midpoint = r.number(*v, at.key("midpoint"), Range::OpenUnit);
  if (const json* v = Reader::get(j, "power"))
    p.power = r.number(*v, at.key("power"), Range::AtLeastOne);
  if (const json* v = Reader::get(j, "timeconst"))
    p.timeconst = r.number(*v, at.key("timeconst"), Range::Positive);
  if (const json* v = Reader::get(j, "dampratio"))
    p.dampratio = r.number(*v, at.key("dampratio"), Range::Positive);
}

void read_solver_settings(const Reader& r, const json& j, const Loc& at, const SolverInfo& solver,
                          SolverSettings& s) {
  r.keys(j, at, {"max_iters", "tol", "trace", "params"});
  if (const json* v = Reader::get(j, "max_iters"))
    s.max_iters = r.integer(*v, at.key("max_iters"), 1, 1000000000);
  if (const json* v = Reader::get(j, "tol")) s.tol = r.number(*v, at.key("tol"), Range::Positive);
  if (const json* v = Reader::get(j, "trace")) s.trace = r.boolean(*v, at.key("trace"));
  if (const json* v = Reader::get(j, "params")) {
    if (!v->is_object()) r.fail(at.key("params"), "an object of named numbers", describe(*v));
    for (auto it = v->begin(); it != v->end(); ++it) {
      const Loc pat = at.key("params").key(it.key());
      const ParamSpec* spec = find_param(solver, it.key());
      if (!spec)
        r.fail(pat,
               "a parameter of solver '" + std::string(solver.name) + "' (" + valid_params(solver) +
                   ")",
               "\"" + it.key() + "\"");
      const double x = r.number(it.value(), pat);
      if (!set_solver_param(s, solver, it.key(), x).empty())
        r.fail(
            pat,
            std::string(spec->integer ? "a whole number in " : "a number in ") + param_range(*spec),
            describe(it.value()));
    }
  }
}

void read_stabilization(const Reader& r, const json& j, const Loc& at, DynamicsSettings& d) {
  r.keys(j, at,
         {"beta_joint", "beta_limit", "beta_contact", "drift_compensation", "penetration_margin",
          "limit_margin"});
  if (const json* v = Reader::get(j, "beta_joint"))
    d.beta_joint = r.number(*v, at.key("beta_joint"), Range::Unit);
  if (const json* v = Reader::get(j, "beta_limit"))
    d.beta_limit = r.number(*v, at.key("beta_limit"), Range::Unit);
  if (const json* v = Reader::get(j, "beta_contact"))
    d.beta_contact = r.number(*v, at.key("beta_contact"), Range::Unit);
  if (const json* v = Reader::get(j, "drift_compensation"))
    d.drift_compensation = r.boolean(*v, at.key("drift_compensation"));
  if (const json* v = Reader::get(j, "penetration_margin"))
    d.penetration_margin = r.number(*v, at.key("penetration_margin"), Range::NonNegative);
  if (const json* v = Reader::get(j, "limit_margin"))
    d.limit_margin = r.number(*v, at.key("limit_margin"), Range::NonNegative);
}

void read_softening(const Reader& r, const json& j, const Loc& at, SofteningSettings& s) {
  r.keys(j, at, {"enabled", "mujoco_reference", "joint", "limit", "contact"});
  if (const json* v = Reader::get(j, "enabled")) s.enabled = r.boolean(*v, at.key("enabled"));
  if (const json* v = Reader::get(j, "mujoco_reference"))
    s.mujoco_reference = r.boolean(*v, at.key("mujoco_reference"));
  if (const json* v = Reader::get(j, "joint")) read_impedance(r, *v, at.key("joint"), s.joint);
  if (const json* v = Reader::get(j, "limit")) read_impedance(r, *v, at.key("limit"), s.limit);
  if (const json* v = Reader::get(j, "contact"))
    read_impedance(r, *v, at.key("contact"), s.contact);
  const std::string bad = softening_error(s);
  if (!bad.empty()) r.fail(at, "valid impedance parameters", bad);
}

ojson write_impedance(const ImpedanceParams& p) {
  ojson o;
  o["d0"] = p.d0;
  o["dwidth"] = p.dwidth;
  o["width"] = p.width;
  o["midpoint"] = p.midpoint;
  o["power"] = p.power;
  o["timeconst"] = p.timeconst;
  o["dampratio"] = p.dampratio;
  return o;
}
}  // namespace

SimSettings read_settings(const Reader& r, const json& j, const Loc& at) {
  r.keys(
      j, at,
      {"dt", "solver", "integrator", "warm_start", "solver_settings", "stabilization",
       "restitution_threshold", "implicit_joint_forces", "dense_limit", "collision", "softening"});
  SimSettings s;
  if (const json* v = Reader::get(j, "dt")) s.dt = r.number(*v, at.key("dt"), Range::Positive);
  if (const json* v = Reader::get(j, "solver")) {
    s.solver = r.string(*v, at.key("solver"));
    if (!find_solver(s.solver))
      r.fail(at.key("solver"), "a registered solver (" + solver_names() + ")",
             "\"" + s.solver + "\"");
  }
  if (const json* v = Reader::get(j, "integrator")) {
    const std::string name = r.string(*v, at.key("integrator"));
    if (!parse_integrator(name, &s.integrator))
      r.fail(at.key("integrator"), "semi-implicit-euler or moreau-midpoint", "\"" + name + "\"");
  }
  if (const json* v = Reader::get(j, "warm_start"))
    s.warm_start = r.boolean(*v, at.key("warm_start"));
  if (const json* v = Reader::get(j, "solver_settings"))
    read_solver_settings(r, *v, at.key("solver_settings"), *find_solver(s.solver),
                         s.solver_settings);
  if (const json* v = Reader::get(j, "stabilization"))
    read_stabilization(r, *v, at.key("stabilization"), s.dynamics);
  if (const json* v = Reader::get(j, "implicit_joint_forces"))
    s.dynamics.implicit_joint_forces = r.boolean(*v, at.key("implicit_joint_forces"));
  if (const json* v = Reader::get(j, "restitution_threshold"))
    s.dynamics.restitution_threshold =
        r.number(*v, at.key("restitution_threshold"), Range::NonNegative);
  if (const json* v = Reader::get(j, "dense_limit"))
    s.dynamics.dense_limit = r.integer(*v, at.key("dense_limit"), 0, 1000000);
  if (const json* v = Reader::get(j, "collision")) {
    r.keys(*v, at.key("collision"), {"margin"});
    if (const json* m = Reader::get(*v, "margin"))
      s.collision.margin = r.number(*m, at.key("collision").key("margin"), Range::NonNegative);
  }
  if (const json* v = Reader::get(j, "softening"))
    read_softening(r, *v, at.key("softening"), s.dynamics.softening);
  return s;
}

ojson write_settings(const SimSettings& s) {
  ojson o;
  o["dt"] = s.dt;
  o["solver"] = s.solver;
  o["integrator"] = integrator_name(s.integrator);
  o["warm_start"] = s.warm_start;
  ojson& ss = o["solver_settings"];
  ss["max_iters"] = s.solver_settings.max_iters;
  ss["tol"] = s.solver_settings.tol;
  ss["trace"] = s.solver_settings.trace;
  ss["params"] = ojson::object();
  if (const SolverInfo* info = find_solver(s.solver))
    for (const auto& [k, v] : changed_params(s.solver_settings, *info))
      ss["params"][std::string(k)] = v;
  const DynamicsSettings& d = s.dynamics;
  ojson& st = o["stabilization"];
  st["beta_joint"] = d.beta_joint;
  st["beta_limit"] = d.beta_limit;
  st["beta_contact"] = d.beta_contact;
  st["drift_compensation"] = d.drift_compensation;
  st["penetration_margin"] = d.penetration_margin;
  st["limit_margin"] = d.limit_margin;
  o["restitution_threshold"] = d.restitution_threshold;
  o["implicit_joint_forces"] = d.implicit_joint_forces;
  o["dense_limit"] = d.dense_limit;
  o["collision"]["margin"] = s.collision.margin;
  ojson& sf = o["softening"];
  sf["enabled"] = d.softening.enabled;
  sf["mujoco_reference"] = d.softening.mujoco_reference;
  sf["joint"] = write_impedance(d.softening.joint);
  sf["limit"] = write_impedance(d.softening.limit);
  sf["contact"] = write_impedance(d.softening.contact);
  return o;
}

}  // namespace moreau::scene_json
