// MJCF document level: <compiler>, <option>, <default>, <asset>, <worldbody>, <equality>,
// <actuator>, <keyframe>; everything else is reported as ignored (docs/model-import.md).
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "moreau/dynamics/builder.hpp"
#include "moreau/dynamics/joint_kinematics.hpp"
#include "moreau/io/mjcf_internal.hpp"

namespace moreau::mjcf {

namespace {

void parse_compiler(Context& c, const Element* e) {
  // Several <compiler> elements (e.g. one per included file) each change only what they set.
  Attrs a(c, e, "main", "<compiler>");
  const std::string angle = a.str("angle", c.degrees ? "degree" : "radian");
  if (angle != "degree" && angle != "radian")
    c.fail(e, "<compiler> angle", "degree or radian", "'" + angle + "'");
  c.degrees = angle == "degree";
  c.eulerseq = a.str("eulerseq", c.eulerseq);
  if (c.eulerseq.size() != 3 || c.eulerseq.find_first_not_of("xyzXYZ") != std::string::npos)
    c.fail(e, "<compiler> eulerseq", "three of xyzXYZ", "'" + c.eulerseq + "'");
  // MuJoCo: meshdir and texturedir, when given, take precedence over assetdir; all are relative
  // to the main model file's directory.
  if (a.has("assetdir")) {
    if (!c.meshdir_set) c.meshdir = a.str("assetdir", "");
    if (!c.texturedir_set) c.texturedir = a.str("assetdir", "");
  }
  if (a.has("meshdir")) {
    c.meshdir = a.str("meshdir", "");
    c.meshdir_set = true;
  }
  if (a.has("texturedir")) {  // textures are ignored; the directory is kept for completeness
    c.texturedir = a.str("texturedir", "");
    c.texturedir_set = true;
  }
  c.inertiafromgeom = a.tristate("inertiafromgeom", c.inertiafromgeom);
  c.autolimits = a.boolean("autolimits", c.autolimits);
  if (a.str("coordinate", "local") != "local")
    c.fail(e, "<compiler> coordinate", "local", "'" + a.str("coordinate", "") + "'");
  a.ignore_attrs({"boundmass", "boundinertia", "settotalmass", "balanceinertia", "fusestatic",
                  "discardvisual", "strippath"});
}

void parse_option(Context& c, const Element* e) {
  Attrs a(c, e, "main", "<option>");
  c.tree.dt = a.num("timestep", 0.002);
  if (!(c.tree.dt > 0.0))
    c.fail(e, "<option> timestep", "a time step > 0", std::to_string(c.tree.dt));
  c.tree.gravity = a.vec3("gravity", Vec3(0, 0, -9.81));
  a.ignore_attrs({"integrator", "solver", "iterations", "tolerance", "cone", "impratio",
                  "noslip_iterations", "wind", "density", "viscosity", "o_margin", "jacobian"});
  for (const Element* ch = e->FirstChildElement(); ch; ch = ch->NextSiblingElement())
    c.ignore("<option><" + std::string(ch->Name()) + ">", ch->GetLineNum());
}

void parse_asset(Context& c, const Element* e) {
  for (const Element* ch = e->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
    if (std::strcmp(ch->Name(), "hfield") == 0) {
      parse_hfield(c, ch);
      continue;
    }
    if (std::strcmp(ch->Name(), "mesh") != 0) {
      c.ignore("<asset><" + std::string(ch->Name()) + ">", ch->GetLineNum());
      continue;
    }
    Attrs a(c, ch, class_of(ch, ""), "<mesh>");
    const std::string file = a.str("file", "");
    if (file.empty())
      c.fail(ch, "<mesh>", "a file attribute (vertex lists are not supported)", "none");
    std::string name = a.str("name", "");
    if (name.empty()) {  // MuJoCo: the file name without directory and extension
      name = file.substr(file.find_last_of('/') + 1);
      name = name.substr(0, name.find_last_of('.'));
    }
    MeshAsset m;
    m.file = join_path(c.meshdir.empty() ? c.dir : join_path(c.dir, c.meshdir), file);
    m.scale = a.vec3("scale", Vec3::Ones());
    m.line = ch->GetLineNum();
    if (!std::ifstream(m.file))
      c.fail(ch, "mesh '" + name + "'", "a readable mesh file", "'" + m.file + "' is missing");
    c.meshes[name] = m;
  }
}

int link_of_body(Context& c, const Element* e, const char* attr, bool optional) {
  const char* v = e->Attribute(attr);
  if (!v) {
    if (optional) return -1;
    c.fail(e, "<" + std::string(e->Name()) + ">", std::string("a ") + attr + " attribute", "none");
  }
  if (std::string(v) == "world") return -1;
  auto it = c.body_link.find(v);
  if (it == c.body_link.end())
    c.fail(e, "<" + std::string(e->Name()) + "> " + attr, "the name of a body",
           "'" + std::string(v) + "'");
  return it->second;
}

void parse_equality(Context& c, const Element* eq) {
  for (const Element* e = eq->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag != "connect" && tag != "weld") {
      c.ignore("<equality><" + tag + ">", e->GetLineNum());
      continue;
    }
    Attrs a(c, e, class_of(e, ""), "<" + tag + ">");
    if (!a.boolean("active", true)) {
      c.warn(e->GetLineNum(), "<" + tag + "> with active=\"false\" is ignored");
      continue;
    }
    a.ignore_attrs({"solref", "solimp"});
    LoopJoint L;
    L.name = a.str("name", tag + std::to_string(c.tree.loops.size()));
    L.element = "<" + tag + "> '" + L.name + "'";
    L.line = e->GetLineNum();
    L.link_a = link_of_body(c, e, "body1", false);
    L.link_b = link_of_body(c, e, "body2", true);
    if (L.link_a == L.link_b) c.fail(e, L.element, "two different bodies", "the same body twice");
    L.frame_b_from_reference = true;
    if (tag == "connect") {
      L.type = JointType::Spherical;
      L.frame_a.p = a.vec3("anchor", Vec3::Zero());
    } else {
      L.type = JointType::Fixed;
      const std::vector<double> rp = a.nums("relpose", 7, 7, {0, 0, 0, 0, 0, 0, 0});
      const Quat q(rp[3], rp[4], rp[5], rp[6]);
      if (q.norm() > 1e-12) {  // body2's pose in body1 given: the weld holds it there
        L.frame_a = {Vec3(rp[0], rp[1], rp[2]), q.normalized()};
        L.frame_b = Pose{};
        L.frame_b_from_reference = false;
      } else {
        L.frame_a.p = a.vec3("anchor", Vec3::Zero());
      }
    }
    c.tree.loops.push_back(L);
  }
}

// <contact>: <exclude body1 body2> (no geometry of one collides with one of the other, MuJoCo's
// rule besides contype/conaffinity); <pair> (explicit geom pairs with their own parameters) is not
// read.
void parse_contact(Context& c, const Element* ct) {
  for (const Element* e = ct->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (std::string(e->Name()) != "exclude") {
      c.ignore("<contact><" + std::string(e->Name()) + ">", e->GetLineNum());
      continue;
    }
    const int a = link_of_body(c, e, "body1", false), b = link_of_body(c, e, "body2", false);
    if (a == b) continue;
    c.tree.excluded.emplace_back(a, b);
  }
}

void parse_actuators(Context& c, const Element* act) {
  // One entry per <actuator> child, as a keyframe's ctrl has (MuJoCo's order); one that is skipped
  // keeps its place with link -1, which it has until its DoF is set below.
  for (const Element* e = act->FirstChildElement(); e; e = e->NextSiblingElement()) {
    Actuator& u = c.actuators.emplace_back();  // nothing else is added in this loop
    u.line = e->GetLineNum();
    const std::string tag = e->Name();
    if (tag != "motor" && tag != "position" && tag != "velocity" && tag != "general") {
      c.ignore("<actuator><" + tag + ">", e->GetLineNum());
      continue;
    }
    Attrs a(c, e, class_of(e, ""), "<" + tag + ">");
    u.name = a.str("name", tag + std::to_string(c.actuators.size() - 1));
    u.kind = tag;
    if (tag == "general") {
      // MuJoCo's general actuator as a PD servo, a velocity servo or a force: gaintype "fixed",
      // biastype "none" or "affine" with a restoring (b1 <= 0) and dissipating (b2 <= 0) bias, no
      // activation dynamics. Others are reported and skipped.
      const std::string gt = a.str("gaintype", "fixed"), bt = a.str("biastype", "none"),
                        dt = a.str("dyntype", "none");
      const std::vector<double> g = a.nums("gainprm", 1, 10, {1.0}),
                                b = a.nums("biasprm", 1, 10, {0.0});
      for (size_t k = 0; k < 3; ++k) u.bias[k] = bt == "affine" && k < b.size() ? b[k] : 0.0;
      u.gain = g[0];
      if (gt != "fixed" || (bt != "none" && bt != "affine") || dt != "none" || u.bias[1] > 0.0 ||
          u.bias[2] > 0.0) {
        c.ignore(
            "<actuator><general> other than gaintype=\"fixed\", biastype=\"none\" or "
            "\"affine\" (biasprm[1], biasprm[2] <= 0), dyntype=\"none\"",
            e->GetLineNum());
        continue;
      }
    }
    const std::string jn = a.str("joint", "");
    if (jn.empty()) {
      c.ignore("<actuator> without joint (tendon, site, body transmissions)", e->GetLineNum());
      continue;
    }
    auto it = c.joints.find(jn);
    if (it == c.joints.end())
      c.fail(e, "actuator '" + u.name + "' joint", "the name of a joint", "'" + jn + "'");
    if (it->second.dof < 0) {
      c.warn(e->GetLineNum(),
             "actuator '" + u.name + "' on ball/free joint '" + jn + "' is ignored");
      continue;
    }
    u.offset = it->second.sign * c.tree.links[it->second.link].sources[it->second.source].ref;
    u.link = it->second.link;
    u.dof = it->second.dof;
    u.gear = a.nums("gear", 1, 6, {1.0})[0] * it->second.sign;
    u.kp = a.num("kp", 1.0);
    u.kv = a.num("kv", tag == "position" ? 0.0 : 1.0);  // a position servo's damping (MuJoCo 3)
    const std::vector<double> cr = a.nums("ctrlrange", 2, 2, {0.0, 0.0}),
                              fr = a.nums("forcerange", 2, 2, {0.0, 0.0});
    const int cl = a.tristate("ctrllimited", c.autolimits ? -1 : 0),
              fl = a.tristate("forcelimited", c.autolimits ? -1 : 0);
    u.ctrllimited = cl == 1 || (cl == -1 && a.has("ctrlrange"));
    u.forcelimited = fl == 1 || (fl == -1 && a.has("forcerange"));
    u.ctrl_lo = cr[0], u.ctrl_hi = cr[1], u.force_lo = fr[0], u.force_hi = fr[1];
    if ((u.ctrllimited && !(u.ctrl_lo <= u.ctrl_hi)) ||
        (u.forcelimited && !(u.force_lo <= u.force_hi)))
      c.fail(e, "actuator '" + u.name + "'", "ranges with lower <= upper", "lower > upper");
  }
}

// Applies an actuator with control value ctrl to its DoF (docs/model-import.md, "Actuators").
void apply_actuator(Context& c, const Actuator& u, double ctrl) {
  DofActuator& d = c.tree.links[u.link].actuators[u.dof];
  if (u.ctrllimited) ctrl = std::clamp(ctrl, u.ctrl_lo, u.ctrl_hi);
  const double g = u.gear;
  const bool spring = d.mode == ActuationMode::StablePd && d.kp > 0.0;  // a joint stiffness
  if (u.kind == "motor") {
    d.force += g * ctrl;
    if (!spring) d.mode = ActuationMode::Force;
  } else if (u.kind == "position" || (u.kind == "general" && u.bias[1] < 0.0)) {
    // position: tau = kp g^2 (ctrl/g - q) - kv g^2 qdot; general, its affine bias:
    // tau = g (gain ctrl + b0) + g^2 b1 q + g^2 b2 qdot = kp (target - q) - kd qdot.
    // MuJoCo's length is gear qpos, moreau's q = sign (qpos - ref): the target less sign ref.
    const bool general = u.kind == "general";
    const double kp = (general ? -u.bias[1] : u.kp) * g * g;
    if (!(kp > 0.0)) return;  // no gain (gear or kp 0): no force
    const double target = (general ? g * (u.gain * ctrl + u.bias[0]) / kp : ctrl / g) - u.offset;
    d.target = (d.kp * d.target + kp * target) / (d.kp + kp);
    d.kp += kp;
    d.kd += (general ? -u.bias[2] : u.kv) * g * g;
    // On a joint spring the sum stays implicit (stable PD); alone, an explicit PD force as MuJoCo.
    d.mode = spring ? ActuationMode::StablePd : ActuationMode::Position;
  } else if (u.kind == "general" && u.bias[2] == 0.0) {  // a force: tau = g (gain ctrl + b0)
    d.force += g * (u.gain * ctrl + u.bias[0]);
    if (!spring) d.mode = ActuationMode::Force;
  } else {
    // A velocity servo: velocity, tau = kv g^2 (ctrl/g - qdot); general with b2 < 0,
    // tau = g (gain ctrl + b0) + g^2 b2 qdot = kd (target - qdot).
    const bool general = u.kind == "general";
    const double kd = (general ? -u.bias[2] : u.kv) * g * g;
    const double target = general    ? (kd > 0.0 ? g * (u.gain * ctrl + u.bias[0]) / kd : 0.0)
                          : g != 0.0 ? ctrl / g
                                     : 0.0;
    d.kd += kd;
    if (!spring) {
      d.mode = ActuationMode::Velocity;
      d.target = target;
    } else if (target != 0.0) {
      c.warn(u.line,
             "actuator '" + u.name + "': velocity target on a joint with stiffness is taken as 0");
    }
  }
  const double lim = u.forcelimited
                         ? std::abs(g) * std::max(std::abs(u.force_lo), std::abs(u.force_hi))
                         : INFINITY;
  if (lim < d.effort_limit && !spring) d.effort_limit = lim > 0.0 ? lim : INFINITY;
}

// First keyframe (or the one named in the options): qpos -> link values, ctrl -> actuators.
LinkValues apply_keyframe(Context& c, const Element* root) {
  LinkValues values(c.tree.links.size());
  std::vector<double> ctrl(c.actuators.size(), 0.0);
  const Element* key = nullptr;
  for (const Element* kf = root->FirstChildElement("keyframe"); kf && !key;
       kf = kf->NextSiblingElement("keyframe"))
    for (const Element* k = kf->FirstChildElement("key"); k; k = k->NextSiblingElement("key")) {
      const char* nm = k->Attribute("name");
      if (c.opt->keyframe.empty() || (nm && c.opt->keyframe == nm)) {
        key = k;
        break;
      }
    }
  if (!c.opt->keyframe.empty() && !key)
    throw ErrorException(
        Error{c.file, 0, "keyframe '" + c.opt->keyframe + "'", "a <key> of that name", "none"});
  if (key) {
    Attrs a(c, key, "main", "<key>");
    int nq = 0;
    for (const JointRef& r : c.qpos_order) nq += c.tree.links[r.link].sources[r.source].width();
    if (a.has("qpos")) {
      const std::vector<double> q = a.nums("qpos", nq, nq, {});
      size_t off = 0;
      for (const JointRef& r : c.qpos_order) {
        const int w = c.tree.links[r.link].sources[r.source].width();
        for (int k = 0; k < w; ++k) values[r.link].push_back(q[off + k]);
        off += w;
      }
    }
    if (a.has("qvel")) {
      for (double v : a.nums("qvel", 0, 1 << 20, {}))
        if (v != 0.0) {
          c.warn(key->GetLineNum(), "<key> qvel is ignored (the initial state starts at rest)");
          break;
        }
    }
    if (a.has("ctrl"))
      ctrl = a.nums("ctrl", static_cast<int>(ctrl.size()), static_cast<int>(ctrl.size()), {});
    a.ignore_attrs({"act", "mpos", "mquat"});
  }
  for (size_t i = 0; i < c.actuators.size(); ++i)
    if (c.actuators[i].link >= 0) apply_actuator(c, c.actuators[i], ctrl[i]);
  return values;
}

// The scene's model with its joints replaced (actuators changed after the build; the same joints,
// in order).
void replace_joints(Scene& sc, const std::vector<Joint>& joints) {
  ModelBuilder mb(sc.model);
  for (size_t i = 0; i < joints.size(); ++i) mb.joint(static_cast<int>(i)) = joints[i];
  Result<Model> rebuilt = mb.build();
  if (rebuilt) sc.model = std::move(*rebuilt);
}

// Position actuators' gains are explicit forces in moreau, as in MuJoCo (joint springs are
// implicit, stable PD, and damping is implicit per DoF): a DoF with inverse effective inertia w is
// stable only for dt^2 k w < 4. Larger values are capped at dt^2 k w = 1, with a warning
// (docs/model-import.md).
void cap_explicit_springs(Context& c, const TreeBuild& tb, Scene& sc) {
  const Model& m = sc.model;
  std::vector<int> line(m.num_joints(), 0);  // the body element that defines each joint
  for (size_t i = 0; i < tb.joint_of_link.size(); ++i)
    if (tb.joint_of_link[i] >= 0) line[tb.joint_of_link[i]] = c.tree.links[i].line;
  const double dt = sc.settings.dt;
  std::vector<Joint> joints = m.joints();
  JointAxes ax;
  bool changed = false;
  for (size_t jn = 0; jn < joints.size(); ++jn) {
    Joint& j = joints[jn];
    joint_axes(j, sc.initial, ax);
    for (int k = 0; k < ax.d; ++k) {
      const int a = ax.dof[k];
      auto winv = [&](int body, const auto& row) {
        if (body < 0) return 0.0;
        const Body& b = m.bodies()[body];
        const Mat3 R = sc.initial.q[body].toRotationMatrix();
        const Mat3 Iw_inv = R * b.inertia.inverse() * R.transpose();
        const Vec3 lin = row.template head<3>().transpose(),
                   ang = row.template tail<3>().transpose();
        return lin.squaredNorm() / b.mass + ang.dot(Iw_inv * ang);
      };
      const double w_free = winv(j.follower, ax.Jf.row(a)) + winv(j.base, ax.Jb.row(a));
      if (!(w_free > 0.0)) continue;
      // The armature adds its inertia to the DoF's (its row, docs/dynamics.md).
      const double w = 1.0 / (1.0 / w_free + j.armature[k]);
      DofActuator& u = j.actuators[k];
      if (u.mode == ActuationMode::Position && dt * dt * u.kp * w > 1.0) {
        c.warn(line[jn], "joint '" + j.name + "' DoF " + std::to_string(k) + ": stiffness/kp " +
                             std::to_string(u.kp) + " capped at " +
                             std::to_string(1.0 / (dt * dt * w)) +
                             " (explicit springs are unstable beyond dt^2 k w = 4)");
        u.kp = 1.0 / (dt * dt * w);
        changed = true;
      }
    }
  }
  if (changed) replace_joints(sc, joints);
}

// --set servo_kp=KP [servo_kd=KD]: every DoF an actuator drives holds its angle of the initial
// state by a PD servo (ActuationMode::Position: kp explicit, kd implicit, as MuJoCo runs a PD
// law through ctrl; a stable PD servo lets a floating robot's hip yaw saturate), its torque within
// what the actuator can give (|gear| max|ctrlrange|, |gear| max|forcerange|), the keyframe's ctrl
// kept as a feed-forward (docs/model-import.md, "Standing").
void servo_actuated(Context& c, const TreeBuild& tb, Scene& sc) {
  const double kp = c.opt->servo_kp, kd = c.opt->servo_kd;
  if (!(kp > 0.0)) return;
  std::vector<Joint> joints = sc.model.joints();
  for (const Actuator& u : c.actuators) {
    if (u.link < 0) continue;  // skipped (parse_actuators)
    const int jn = tb.joint_of_link[u.link];
    if (jn < 0) continue;
    Joint& j = joints[jn];
    DofActuator& d = j.actuators[u.dof];
    double q, qd;
    joint_dof_state(j, sc.initial, u.dof, &q, &qd);
    double limit = d.effort_limit;
    const double g = std::abs(u.gear);
    if (u.ctrllimited)
      limit = std::min(limit, g * std::max(std::abs(u.ctrl_lo), std::abs(u.ctrl_hi)));
    if (u.forcelimited)
      limit = std::min(limit, g * std::max(std::abs(u.force_lo), std::abs(u.force_hi)));
    d.mode = ActuationMode::Position;
    d.kp = kp;
    d.kd = kd;
    d.target = q;
    d.amplitude = 0.0;
    d.effort_limit = limit;
  }
  replace_joints(sc, joints);
}

void report_ignored(Context& c) {
  for (const auto& [what, cl] : c.ignored)
    c.warnings.push_back(
        c.where(cl.second).first + ":" + std::to_string(c.where(cl.second).second) + ": " + what +
        " ignored (" + std::to_string(cl.first) + (cl.first > 1 ? " occurrences" : " occurrence") +
        ", outside the supported MJCF subset)");
}

}  // namespace

Result<ImportedModel> import(const std::string& xml, const std::string& file,
                             const std::string& dir, const ImportOptions& opt) {
  ExpandedXml expanded;
  try {
    const bool includes = xml.find("<include") != std::string::npos;
    if (includes) expanded = expand_includes(xml, file, dir);
    const std::string& text = includes ? expanded.text : xml;
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS)
      return Error{file, doc.ErrorLineNum(), "XML", "well-formed XML", xml_error_text(doc)};
    const Element* root = doc.RootElement();
    if (!root || std::strcmp(root->Name(), "mujoco") != 0)
      return Error{file, root ? root->GetLineNum() : 0, "root element", "<mujoco>",
                   root ? "<" + std::string(root->Name()) + ">" : "nothing"};
    Context c;
    c.file = file;
    c.dir = dir;
    if (includes) c.expanded = &expanded;
    c.opt = &opt;
    c.tree.source = file;
    c.tree.world_joints_collide = true;
    c.tree.name = root->Attribute("model") ? root->Attribute("model") : "mjcf";
    c.tree.dt = 0.002;  // MuJoCo's default time step, also for a file without <option>
    for (const Element* e = root->FirstChildElement("compiler"); e;
         e = e->NextSiblingElement("compiler"))
      parse_compiler(c, e);
    parse_defaults(c, root);
    for (const Element* e = root->FirstChildElement("option"); e;
         e = e->NextSiblingElement("option"))
      parse_option(c, e);
    for (const Element* e = root->FirstChildElement("asset"); e; e = e->NextSiblingElement("asset"))
      parse_asset(c, e);
    for (const Element* e = root->FirstChildElement("worldbody"); e;
         e = e->NextSiblingElement("worldbody"))
      parse_worldbody(c, e);
    for (const Element* e = root->FirstChildElement("equality"); e;
         e = e->NextSiblingElement("equality"))
      parse_equality(c, e);
    for (const Element* e = root->FirstChildElement("actuator"); e;
         e = e->NextSiblingElement("actuator"))
      parse_actuators(c, e);
    for (const Element* e = root->FirstChildElement("contact"); e;
         e = e->NextSiblingElement("contact"))
      parse_contact(c, e);
    for (const Element* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      static const char* known[] = {"compiler", "default",  "option",   "asset",  "worldbody",
                                    "equality", "actuator", "keyframe", "contact"};
      if (std::none_of(std::begin(known), std::end(known),
                       [&](const char* k) { return std::strcmp(k, e->Name()) == 0; }))
        c.ignore("<" + std::string(e->Name()) + ">", e->GetLineNum());
    }
    const LinkValues values = apply_keyframe(c, root);
    ImportedModel out;
    Result<Scene> sc = build_tree_scene(c.tree, values, &out.build);
    if (!sc) {
      Error e = sc.error();
      if (e.file == file) std::tie(e.file, e.line) = c.where(e.line);
      return e;
    }
    servo_actuated(c, out.build, *sc);
    cap_explicit_springs(c, out.build, *sc);
    report_ignored(c);
    for (const std::string& w : initial_state_warnings(*sc)) c.warnings.push_back(file + ": " + w);
    out.warnings = std::move(c.warnings);
    out.scene = std::move(*sc);
    out.tree = std::move(c.tree);
    return out;
  } catch (const ErrorException& e) {
    return e.error;
  }
}

}  // namespace moreau::mjcf

namespace moreau {

Result<ImportedModel> import_mjcf_string(const std::string& xml, const std::string& source,
                                         const std::string& dir, const ImportOptions& opt) {
  return mjcf::import(xml, source, dir, opt);
}

Result<ImportedModel> import_mjcf_file(const std::string& path, const ImportOptions& opt) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path, 0, "MJCF file", "a readable file", "cannot open it"};
  std::ostringstream ss;
  ss << in.rdbuf();
  return mjcf::import(ss.str(), path, directory_of(path), opt);
}

}  // namespace moreau
