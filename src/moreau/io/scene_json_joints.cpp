// Joints of the JSON scene format: type, bodies, frames (by a world anchor in the initial state, or
// explicit body-frame poses), per-DoF limits, damping and actuators (docs/scene-format.md).
#include <cmath>
#include <limits>

#include "moreau/io/scene_json_parts.hpp"
#include "moreau/model/primitives.hpp"

namespace moreau::scene_json {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

std::string type_list() {
  std::string s;
  for (int i = 0; i < kNumJointTypes; ++i)
    s += (i ? ", " : "") + std::string(joint_type_name(static_cast<JointType>(i)));
  return s;
}

// The joint frame in the world: at "anchor", x along "axis" (and y along "axis2"), or
// "orientation".
Pose anchor_frame(const Reader& r, const json& j, const Loc& at) {
  Pose w;
  w.p = r.vec3(j["anchor"], at.key("anchor"));
  const json* axis = Reader::get(j, "axis");
  const json* axis2 = Reader::get(j, "axis2");
  const json* orient = Reader::get(j, "orientation");
  if (orient && (axis || axis2))
    r.fail(at.key("orientation"), "either \"orientation\" or \"axis\" (and \"axis2\")", "both");
  if (axis2 && !axis) r.fail(at.key("axis2"), "\"axis2\" together with \"axis\"", "no \"axis\"");
  if (orient) w.q = r.quat(*orient, at.key("orientation"));
  if (axis && !axis2) w.q = axis_frame(r.direction(*axis, at.key("axis")));
  if (axis2) {
    const Vec3 x = r.direction(*axis, at.key("axis"));
    const Vec3 y = r.direction(*axis2, at.key("axis2"));
    if (std::abs(x.dot(y)) > 1e-6)
      r.fail(at.key("axis2"), "a direction perpendicular to \"axis\" (|cos| <= 1e-6)",
             "cos " + fmt_number(x.dot(y)));
    Mat3 R;
    R.col(0) = x;
    R.col(1) = (y - x.dot(y) * x).normalized();
    R.col(2) = x.cross(R.col(1));
    w.q = Quat(R).normalized();
  }
  return w;
}

void read_frames(const Reader& r, const json& j, const Loc& at, Joint& jt, const State& s) {
  const bool anchor = Reader::get(j, "anchor") != nullptr;
  const bool fb = Reader::get(j, "frame_base") != nullptr,
             ff = Reader::get(j, "frame_follower") != nullptr;
  if (anchor && (fb || ff))
    r.fail(at, "either \"anchor\" or \"frame_base\" and \"frame_follower\"", "both kinds");
  if (!anchor) {
    for (const char* k : {"axis", "axis2", "orientation"})
      if (Reader::get(j, k))
        r.fail(at.key(k), std::string("\"") + k + "\" only together with \"anchor\"",
               "no \"anchor\"");
    if (!fb || !ff)
      r.fail(at, "either \"anchor\" (a world point) or both \"frame_base\" and \"frame_follower\"",
             fb ? "no \"frame_follower\"" : (ff ? "no \"frame_base\"" : "neither"));
    jt.frame_base = r.pose(j["frame_base"], at.key("frame_base"));
    jt.frame_follower = r.pose(j["frame_follower"], at.key("frame_follower"));
    return;
  }
  const Pose w = anchor_frame(r, j, at);
  const Joint placed = joint_at(jt.name, jt.type, jt.base, jt.follower, w, s);
  jt.frame_base = placed.frame_base;
  jt.frame_follower = placed.frame_follower;
}

// A per-DoF array: exactly d entries.
const json& dof_array(const Reader& r, const json& j, const Loc& at, const Joint& jt) {
  if (!j.is_array() || static_cast<int>(j.size()) != jt.dofs())
    r.fail(at,
           "an array of " + std::to_string(jt.dofs()) + " entries (one per DoF of a " +
               joint_type_name(jt.type) + " joint)",
           describe(j));
  return j;
}

// j[key], if present: one number >= 0 for every DoF, or an array of one per DoF, into out.
void non_negative_per_dof(const Reader& r, const json& j, const char* key, const Loc& at,
                          const Joint& jt, std::array<double, 6>& out) {
  const json* v = Reader::get(j, key);
  if (!v) return;
  const Loc kat = at.key(key);
  if (v->is_number()) {
    const double c = r.number(*v, kat, Range::NonNegative);
    for (int k = 0; k < jt.dofs(); ++k) out[k] = c;
    return;
  }
  dof_array(r, *v, kat, jt);
  for (int k = 0; k < jt.dofs(); ++k) out[k] = r.number((*v)[k], kat.at(k), Range::NonNegative);
}

DofActuator read_actuator(const Reader& r, const json& j, const Loc& at) {
  DofActuator a;
  if (j.is_null()) return a;
  r.keys(j, at,
         {"mode", "force", "kp", "kd", "target", "amplitude", "frequency", "phase", "effort_limit",
          "keyframes", "period"});
  const json* mode = Reader::get(j, "mode");
  if (!mode) r.fail(at, "a \"mode\" (passive, force, position, velocity, stable-pd)", "none");
  const std::string m = r.string(*mode, at.key("mode"));
  bool known = false;
  for (ActuationMode am : {ActuationMode::Passive, ActuationMode::Force, ActuationMode::Position,
                           ActuationMode::Velocity, ActuationMode::StablePd})
    if (m == actuation_mode_name(am)) {
      a.mode = am;
      known = true;
    }
  if (!known)
    r.fail(at.key("mode"), "one of passive, force, position, velocity, stable-pd", "\"" + m + "\"");
  if (const json* v = Reader::get(j, "force")) a.force = r.number(*v, at.key("force"));
  if (const json* v = Reader::get(j, "kp")) a.kp = r.number(*v, at.key("kp"), Range::NonNegative);
  if (const json* v = Reader::get(j, "kd")) a.kd = r.number(*v, at.key("kd"), Range::NonNegative);
  if (const json* v = Reader::get(j, "target")) a.target = r.number(*v, at.key("target"));
  if (const json* v = Reader::get(j, "amplitude")) a.amplitude = r.number(*v, at.key("amplitude"));
  if (const json* v = Reader::get(j, "frequency")) a.frequency = r.number(*v, at.key("frequency"));
  if (const json* v = Reader::get(j, "phase")) a.phase = r.number(*v, at.key("phase"));
  if (const json* v = Reader::get(j, "effort_limit"))
    a.effort_limit = r.number(*v, at.key("effort_limit"), Range::Positive);
  // Keyframed reference: "keyframes": [[t, q], ...] with ascending t in [0, period).
  const json* kf = Reader::get(j, "keyframes");
  const json* period = Reader::get(j, "period");
  if (kf || period) {
    if (!kf || !period) r.fail(at, "\"keyframes\" and \"period\" together", "only one of them");
    a.period = r.number(*period, at.key("period"), Range::Positive);
    const Loc kat = at.key("keyframes");
    if (!kf->is_array() || kf->empty()) r.fail(kat, "a non-empty array of [t, q] pairs", "other");
    for (std::size_t i = 0; i < kf->size(); ++i) {
      const json& e = (*kf)[i];
      const Loc eat = kat.at(static_cast<int>(i));
      if (!e.is_array() || e.size() != 2) r.fail(eat, "a pair [t, q]", "other");
      const double t = r.number(e[0], eat.at(0), Range::NonNegative);
      const double q = r.number(e[1], eat.at(1));
      if (t >= a.period || (!a.keyframes.empty() && t <= a.keyframes.back()[0]))
        r.fail(eat.at(0), "ascending times below the period " + fmt_number(a.period),
               fmt_number(t));
      a.keyframes.push_back({t, q});
    }
  }
  return a;
}

void read_dofs(const Reader& r, const json& j, const Loc& at, Joint& jt) {
  if (const json* v = Reader::get(j, "limits")) {
    const Loc lat = at.key("limits");
    dof_array(r, *v, lat, jt);
    for (int k = 0; k < jt.dofs(); ++k) {
      const json& e = (*v)[k];
      if (e.is_null()) continue;
      r.keys(e, lat.at(k), {"lower", "upper"});
      DofLimit& l = jt.limits[k];
      if (const json* x = Reader::get(e, "lower")) l.lower = r.number(*x, lat.at(k).key("lower"));
      if (const json* x = Reader::get(e, "upper")) l.upper = r.number(*x, lat.at(k).key("upper"));
      if (l.lower > l.upper)
        r.fail(lat.at(k), "lower <= upper", fmt_number(l.lower) + " > " + fmt_number(l.upper));
    }
  }
  non_negative_per_dof(r, j, "damping", at, jt, jt.damping);
  non_negative_per_dof(r, j, "armature", at, jt, jt.armature);  // rotor inertia [kg m^2 or kg]
  non_negative_per_dof(r, j, "friction", at, jt, jt.friction);  // dry friction [N m or N]
  if (const json* v = Reader::get(j, "actuators")) {
    const Loc aat = at.key("actuators");
    dof_array(r, *v, aat, jt);
    for (int k = 0; k < jt.dofs(); ++k) jt.actuators[k] = read_actuator(r, (*v)[k], aat.at(k));
  }
}

nlohmann::ordered_json write_actuator(const DofActuator& a) {
  const DofActuator d;
  nlohmann::ordered_json o;
  o["mode"] = actuation_mode_name(a.mode);
  if (a.force != d.force) o["force"] = a.force;
  if (a.kp != d.kp) o["kp"] = a.kp;
  if (a.kd != d.kd) o["kd"] = a.kd;
  if (a.target != d.target) o["target"] = a.target;
  if (a.amplitude != d.amplitude) o["amplitude"] = a.amplitude;
  if (a.frequency != d.frequency) o["frequency"] = a.frequency;
  if (a.phase != d.phase) o["phase"] = a.phase;
  if (a.effort_limit != kInf) o["effort_limit"] = a.effort_limit;
  if (!a.keyframes.empty()) {
    o["keyframes"] = a.keyframes;
    o["period"] = a.period;
  }
  return o;
}

bool is_default(const DofActuator& a) {
  const DofActuator d;
  return a.mode == d.mode && a.force == d.force && a.kp == d.kp && a.kd == d.kd &&
         a.target == d.target && a.amplitude == d.amplitude && a.frequency == d.frequency &&
         a.phase == d.phase && a.effort_limit == d.effort_limit && a.keyframes.empty();
}
}  // namespace

int body_ref(const Reader& r, const json& j, const Loc& at, const ModelBuilder& mb,
             const BodyNames& names, bool world_ok) {
  const std::string name = r.string(j, at);
  if (world_ok && name == "world") return -1;
  auto it = names.find(name);
  if (it == names.end()) {
    std::string list = world_ok ? "world" : "";
    for (int i = 0; i < mb.num_bodies() && i < 20; ++i)
      list += (list.empty() ? "" : ", ") + mb.body(i).name;
    if (mb.num_bodies() > 20) list += ", ...";
    r.fail(at, "the name of a body (" + list + ")", "\"" + name + "\"");
  }
  return it->second;
}

// "sequence": [{"type": "hinge"|"slide"|"ball", "anchor": [x,y,z], "axis": [x,y,z], "name"}]
// (model/joint_sequence.hpp), on a joint of type "sequence".
void read_sequence(const Reader& r, const json& v, const Loc& at, Joint& jt) {
  const json& a = r.array(v, at);
  for (size_t i = 0; i < a.size(); ++i) {
    const Loc e = at.at(static_cast<int>(i));
    r.keys(a[i], e, {"type", "anchor", "axis", "name"});
    SequenceJoint sj;
    const json* t = Reader::get(a[i], "type");
    if (!t) r.fail(e, "a \"type\" (hinge, slide or ball)", "none");
    const std::string ts = r.string(*t, e.key("type"));
    if (ts == "hinge")
      sj.kind = SequenceKind::Hinge;
    else if (ts == "slide")
      sj.kind = SequenceKind::Slide;
    else if (ts == "ball")
      sj.kind = SequenceKind::Ball;
    else
      r.fail(e.key("type"), "hinge, slide or ball", "\"" + ts + "\"");
    if (const json* x = Reader::get(a[i], "anchor")) sj.anchor = r.vec3(*x, e.key("anchor"));
    if (const json* x = Reader::get(a[i], "axis")) sj.axis = r.direction(*x, e.key("axis"));
    sj.name = "joint" + std::to_string(i);
    if (const json* x = Reader::get(a[i], "name")) sj.name = r.string(*x, e.key("name"));
    jt.sequence.push_back(sj);
  }
}

Joint read_joint(const Reader& r, const json& j, const Loc& at0, int index, const ModelBuilder& mb,
                 const BodyNames& names, const State& s) {
  r.keys(j, at0.named_by(j),
         {"name", "type", "base", "follower", "anchor", "axis", "axis2", "orientation",
          "frame_base", "frame_follower", "limits", "damping", "armature", "friction", "actuators",
          "collide_connected", "sequence"});
  Joint jt;
  jt.name = "joint" + std::to_string(index);
  if (const json* v = Reader::get(j, "name")) jt.name = r.string(*v, at0.key("name"));
  const Loc at = at0.named(jt.name);
  const json* type = Reader::get(j, "type");
  if (!type) r.fail(at, "a joint \"type\" (" + type_list() + ")", "none");
  const std::string t = r.string(*type, at.key("type"));
  if (!parse_joint_type(t, &jt.type))
    r.fail(at.key("type"), "one of " + type_list(), "\"" + t + "\"");
  jt.base = -1;
  if (const json* v = Reader::get(j, "base"))
    jt.base = body_ref(r, *v, at.key("base"), mb, names, true);
  const json* follower = Reader::get(j, "follower");
  if (!follower) r.fail(at, "a \"follower\" body", "none");
  jt.follower = body_ref(r, *follower, at.key("follower"), mb, names, false);
  if (jt.follower == jt.base)
    r.fail(at.key("follower"), "a body other than the base", "the base body");
  if (const json* v = Reader::get(j, "sequence")) read_sequence(r, *v, at.key("sequence"), jt);
  read_frames(r, j, at, jt, s);
  read_dofs(r, j, at, jt);
  if (const json* v = Reader::get(j, "collide_connected"))
    jt.collide_connected = r.boolean(*v, at.key("collide_connected"));
  if (auto e = validate_joint(jt, mb.num_bodies(), at.label)) r.fail(at, *e);
  return jt;
}

void write_joint_dofs(const Joint& jt, nlohmann::ordered_json& out) {
  if (!jt.sequence.empty()) {
    auto& a = out["sequence"] = nlohmann::ordered_json::array();
    for (const SequenceJoint& sj : jt.sequence) {
      nlohmann::ordered_json e;
      e["type"] = sj.kind == SequenceKind::Hinge   ? "hinge"
                  : sj.kind == SequenceKind::Slide ? "slide"
                                                   : "ball";
      e["anchor"] = {sj.anchor.x(), sj.anchor.y(), sj.anchor.z()};
      if (sj.kind != SequenceKind::Ball) e["axis"] = {sj.axis.x(), sj.axis.y(), sj.axis.z()};
      e["name"] = sj.name;
      a.push_back(e);
    }
  }
  const int d = jt.dofs();
  bool limited = false, damped = false, geared = false, rubbed = false, actuated = false;
  for (int k = 0; k < d; ++k) {
    limited = limited || jt.limits[k].enabled();
    damped = damped || jt.damping[k] != 0.0;
    geared = geared || jt.armature[k] != 0.0;
    rubbed = rubbed || jt.friction[k] != 0.0;
    actuated = actuated || !is_default(jt.actuators[k]);
  }
  if (limited) {
    auto& l = out["limits"] = nlohmann::ordered_json::array();
    for (int k = 0; k < d; ++k) {
      nlohmann::ordered_json e = nlohmann::ordered_json::object();
      if (jt.limits[k].lower != -kInf) e["lower"] = jt.limits[k].lower;
      if (jt.limits[k].upper != kInf) e["upper"] = jt.limits[k].upper;
      l.push_back(e);
    }
  }
  if (damped) {
    auto& a = out["damping"] = nlohmann::ordered_json::array();
    for (int k = 0; k < d; ++k) a.push_back(jt.damping[k]);
  }
  if (geared) {
    auto& a = out["armature"] = nlohmann::ordered_json::array();
    for (int k = 0; k < d; ++k) a.push_back(jt.armature[k]);
  }
  if (rubbed) {
    auto& a = out["friction"] = nlohmann::ordered_json::array();
    for (int k = 0; k < d; ++k) a.push_back(jt.friction[k]);
  }
  if (actuated) {
    auto& a = out["actuators"] = nlohmann::ordered_json::array();
    for (int k = 0; k < d; ++k) a.push_back(write_actuator(jt.actuators[k]));
  }
}

}  // namespace moreau::scene_json
