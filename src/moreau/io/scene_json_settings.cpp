// The "settings" object of the JSON scene format: time step, integrator, solver and its settings,
// stabilization, collision and softening (docs/scene-format.md).
#include "moreau/io/scene_json_parts.hpp"
#include "moreau/solvers/solver_params.hpp"

#include <utility>
#include <variant>
#include <vector>

namespace moreau::scene_json {

namespace {
using ojson = nlohmann::ordered_json;

// One key of a settings object: the member it fills and, for numbers, the accepted range. Each
// settings struct below is read and written through one table of these, so the key list, the
// reader and the writer cannot drift apart.
template <class S>
struct Field {
  const char* key;
  std::variant<double S::*, bool S::*> member;
  Range range = Range::Any;
};

template <class S, size_t N>
std::vector<std::string> field_keys(const Field<S> (&fields)[N]) {
  std::vector<std::string> keys;
  for (const Field<S>& f : fields) keys.emplace_back(f.key);
  return keys;
}

template <class S, size_t N>
void read_fields(const Reader& r, const json& j, const Loc& at, const Field<S> (&fields)[N], S& s) {
  for (const Field<S>& f : fields) {
    const json* v = Reader::get(j, f.key);
    if (!v) continue;
    if (const auto* number = std::get_if<double S::*>(&f.member))
      s.** number = r.number(*v, at.key(f.key), f.range);
    else
      s.*std::get<bool S::*>(f.member) = r.boolean(*v, at.key(f.key));
  }
}

template <class S, size_t N>
void write_fields(ojson& o, const Field<S> (&fields)[N], const S& s) {
  for (const Field<S>& f : fields) std::visit([&](auto member) { o[f.key] = s.*member; }, f.member);
}

using IP = ImpedanceParams;
const Field<IP> kImpedanceFields[] = {
    {"d0", &IP::d0, Range::OpenUnit},
    {"dwidth", &IP::dwidth, Range::OpenUnit},
    {"width", &IP::width, Range::Positive},
    {"midpoint", &IP::midpoint, Range::OpenUnit},
    {"power", &IP::power, Range::AtLeastOne},
    {"timeconst", &IP::timeconst, Range::Positive},
    {"dampratio", &IP::dampratio, Range::Positive},
};

using DS = DynamicsSettings;
const Field<DS> kStabilizationFields[] = {
    {"beta_joint", &DS::beta_joint, Range::Unit},
    {"beta_limit", &DS::beta_limit, Range::Unit},
    {"beta_contact", &DS::beta_contact, Range::Unit},
    {"drift_compensation", &DS::drift_compensation},
    {"position_projection", &DS::position_projection},
    {"penetration_margin", &DS::penetration_margin, Range::NonNegative},
    {"limit_margin", &DS::limit_margin, Range::NonNegative},
    {"max_limit_correction", &DS::max_limit_correction, Range::Positive},
    {"max_joint_correction", &DS::max_joint_correction, Range::Positive},
    {"bias_dead_band", &DS::bias_dead_band, Range::NonNegative},
};

using SS = SofteningSettings;
const Field<SS> kSofteningFlags[] = {
    {"enabled", &SS::enabled},
    {"mujoco_reference", &SS::mujoco_reference},
};
// The three impedance objects of "softening", in file order.
const std::pair<const char*, ImpedanceParams SS::*> kSofteningImpedances[] = {
    {"joint", &SS::joint}, {"limit", &SS::limit}, {"contact", &SS::contact}};

void read_impedance(const Reader& r, const json& j, const Loc& at, ImpedanceParams& p) {
  r.keys(j, at, field_keys(kImpedanceFields));
  read_fields(r, j, at, kImpedanceFields, p);
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
  r.keys(j, at, field_keys(kStabilizationFields));
  read_fields(r, j, at, kStabilizationFields, d);
}

void read_softening(const Reader& r, const json& j, const Loc& at, SofteningSettings& s) {
  std::vector<std::string> keys = field_keys(kSofteningFlags);
  for (const auto& [key, member] : kSofteningImpedances) keys.emplace_back(key);
  r.keys(j, at, keys);
  read_fields(r, j, at, kSofteningFlags, s);
  for (const auto& [key, member] : kSofteningImpedances)
    if (const json* v = Reader::get(j, key)) read_impedance(r, *v, at.key(key), s.*member);
  const std::string bad = softening_error(s);
  if (!bad.empty()) r.fail(at, "valid impedance parameters", bad);
}

// The "nmdp" object: the contact model and PGM settings of mdp, nmdp, nmdp-zo
// (nmdp/settings.hpp, docs/integrators.md).
constexpr std::pair<const char*, double nmdp::NmdpSettings::*> kNmdpNumbers[] = {
    {"k", &nmdp::NmdpSettings::k},
    {"delta", &nmdp::NmdpSettings::delta},
    {"zeta", &nmdp::NmdpSettings::zeta},
    {"tol_G", &nmdp::NmdpSettings::tol_G},
    {"tol_loop", &nmdp::NmdpSettings::tol_loop},
    {"epsilon", &nmdp::NmdpSettings::epsilon},
    {"eta", &nmdp::NmdpSettings::eta},
    {"gamma0", &nmdp::NmdpSettings::gamma0},
    {"min_step", &nmdp::NmdpSettings::min_step},
    {"contact_margin", &nmdp::NmdpSettings::contact_margin}};
constexpr std::pair<const char*, int nmdp::NmdpSettings::*> kNmdpIntegers[] = {
    {"expected_contacts", &nmdp::NmdpSettings::expected_contacts},
    {"directions", &nmdp::NmdpSettings::directions},
    {"max_outer", &nmdp::NmdpSettings::max_outer},
    {"max_projection", &nmdp::NmdpSettings::max_projection}};

void read_nmdp(const Reader& r, const json& j, const Loc& at, nmdp::NmdpSettings& s) {
  std::vector<std::string> keys;
  for (const auto& [k, m] : kNmdpNumbers) keys.push_back(k);
  for (const auto& [k, m] : kNmdpIntegers) keys.push_back(k);
  keys.push_back("form");
  keys.push_back("servo");
  keys.push_back("objective");
  r.keys(j, at, keys);
  if (const json* v = Reader::get(j, "form")) {
    const std::string name = r.string(*v, at.key("form"));
    if (!nmdp::parse_nmdp_form(name, &s.form))
      r.fail(at.key("form"), "\"ne\" or \"pbd\"", "\"" + name + "\"");
  }
  if (const json* v = Reader::get(j, "servo")) {
    const std::string name = r.string(*v, at.key("servo"));
    if (!nmdp::parse_servo_form(name, &s.servo))
      r.fail(at.key("servo"), "\"implicit\" or \"tan\"", "\"" + name + "\"");
  }
  if (const json* v = Reader::get(j, "objective")) {
    const std::string name = r.string(*v, at.key("objective"));
    if (!nmdp::parse_nmdp_objective(name, &s.objective))
      r.fail(at.key("objective"), "\"kinetic\" or \"dissipation\"", "\"" + name + "\"");
  }
  for (const auto& [k, m] : kNmdpNumbers)
    if (const json* v = Reader::get(j, k)) s.*m = r.number(*v, at.key(k), Range::Any);
  for (const auto& [k, m] : kNmdpIntegers)
    if (const json* v = Reader::get(j, k)) s.*m = r.integer(*v, at.key(k), -1000000, 1000000);
  if (auto e = nmdp::validate(s)) r.fail(at, e->element + ": " + e->expected, e->got);
}

}  // namespace

SimSettings read_settings(const Reader& r, const json& j, const Loc& at) {
  r.keys(j, at,
         {"dt", "solver", "integrator", "warm_start", "fast_path", "solver_settings",
          "stabilization", "restitution_threshold", "implicit_joint_forces", "dense_limit",
          "collision", "softening", "nmdp"});
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
      r.fail(at.key("integrator"), std::string("one of ") + integrator_names(), "\"" + name + "\"");
    const std::string bad = integrator_solver_error(s.integrator, s.solver);
    if (!bad.empty())
      r.fail(at.key("integrator"), "solver \"sap\" for a theta-method integrator", bad);
  }
  if (const json* v = Reader::get(j, "warm_start"))
    s.warm_start = r.boolean(*v, at.key("warm_start"));
  if (const json* v = Reader::get(j, "fast_path")) s.fast_path = r.boolean(*v, at.key("fast_path"));
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
    r.keys(*v, at.key("collision"), {"margin", "mesh_mesh"});
    if (const json* m = Reader::get(*v, "margin"))
      s.collision.margin = r.number(*m, at.key("collision").key("margin"), Range::NonNegative);
    if (const json* m = Reader::get(*v, "mesh_mesh")) {
      const std::string name = r.string(*m, at.key("collision").key("mesh_mesh"));
      if (!parse_mesh_mesh(name, &s.collision.mesh_mesh))
        r.fail(at.key("collision").key("mesh_mesh"), "\"hull\" or \"triangles\"",
               "\"" + name + "\"");
    }
  }
  if (const json* v = Reader::get(j, "softening"))
    read_softening(r, *v, at.key("softening"), s.dynamics.softening);
  if (const json* v = Reader::get(j, "nmdp")) read_nmdp(r, *v, at.key("nmdp"), s.nmdp);
  if (s.integrator == Integrator::Mdp && s.nmdp.form == nmdp::NmdpForm::PositionBased)
    r.fail(at.key("nmdp").key("form"),
           "\"ne\" with integrator mdp (forward Euler: the position-based form is for nmdp and "
           "nmdp-zo)",
           "\"pbd\"");
  return s;
}

ojson write_settings(const SimSettings& s) {
  ojson o;
  o["dt"] = s.dt;
  o["solver"] = s.solver;
  o["integrator"] = integrator_name(s.integrator);
  o["warm_start"] = s.warm_start;
  o["fast_path"] = s.fast_path;
  ojson& ss = o["solver_settings"];
  ss["max_iters"] = s.solver_settings.max_iters;
  ss["tol"] = s.solver_settings.tol;
  ss["trace"] = s.solver_settings.trace;
  ss["params"] = ojson::object();
  if (const SolverInfo* info = find_solver(s.solver))
    for (const auto& [k, v] : changed_params(s.solver_settings, *info))
      ss["params"][std::string(k)] = v;
  const DynamicsSettings& d = s.dynamics;
  write_fields(o["stabilization"], kStabilizationFields, d);
  o["restitution_threshold"] = d.restitution_threshold;
  o["implicit_joint_forces"] = d.implicit_joint_forces;
  o["dense_limit"] = d.dense_limit;
  o["collision"]["margin"] = s.collision.margin;
  if (s.collision.mesh_mesh != MeshMeshMode::Hull)  // only then: other scenes' files unchanged
    o["collision"]["mesh_mesh"] = mesh_mesh_name(s.collision.mesh_mesh);
  ojson& sf = o["softening"];
  write_fields(sf, kSofteningFlags, d.softening);
  for (const auto& [key, member] : kSofteningImpedances)
    write_fields(sf[key], kImpedanceFields, d.softening.*member);
  if (is_nmdp(s.integrator)) {  // only then, so that other scenes' files are unchanged
    ojson& n = o["nmdp"];
    n["form"] = nmdp::nmdp_form_name(s.nmdp.form);
    n["servo"] = nmdp::servo_form_name(s.nmdp.servo);
    if (s.nmdp.objective != nmdp::NmdpObjective::Kinetic)  // only then: other files unchanged
      n["objective"] = nmdp::nmdp_objective_name(s.nmdp.objective);
    for (const auto& [k, m] : kNmdpNumbers) n[k] = s.nmdp.*m;
    for (const auto& [k, m] : kNmdpIntegers) n[k] = s.nmdp.*m;
  }
  return o;
}

}  // namespace moreau::scene_json
