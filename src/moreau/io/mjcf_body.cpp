// MJCF <worldbody>/<body> trees: frames, inertia (explicit or from geoms) and the mapping of a
// body's MJCF joints onto one moreau joint (docs/model-import.md, "Joints").
#include <cmath>
#include <cstring>

#include "moreau/io/mjcf_internal.hpp"
#include "moreau/model/joint_sequence.hpp"

namespace moreau::mjcf {

namespace {

constexpr double kTol = 1e-9;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct ParsedJoint {
  SourceJoint src;
  const Element* e = nullptr;
  std::string element;
  bool limited = false;
  double lo = -kInf, hi = kInf, damping = 0.0, stiffness = 0.0, springref = 0.0, armature = 0.0;
  double frictionloss = 0.0;
};

ParsedJoint parse_joint(Context& c, const Element* e, const std::string& cls) {
  ParsedJoint j;
  j.e = e;
  const bool free = std::strcmp(e->Name(), "freejoint") == 0;
  const char* nm = e->Attribute("name");
  j.src.name = nm ? nm : "joint" + std::to_string(c.unnamed++);
  j.element = "joint '" + j.src.name + "'";
  j.src.line = e->GetLineNum();
  Attrs a(c, e, free ? "main" : cls, j.element);
  const std::string type = free ? "free" : a.str("type", "hinge");
  if (type == "hinge")
    j.src.kind = SourceKind::Hinge;
  else if (type == "slide")
    j.src.kind = SourceKind::Slide;
  else if (type == "ball")
    j.src.kind = SourceKind::Ball;
  else if (type == "free")
    j.src.kind = SourceKind::Free;
  else
    c.fail(e, j.element + " type", "hinge, slide, ball or free", "'" + type + "'");
  if (free) return j;
  const double unit =
      (j.src.kind == SourceKind::Hinge || j.src.kind == SourceKind::Ball) && c.degrees
          ? M_PI / 180.0
          : 1.0;
  j.src.anchor = a.vec3("pos", Vec3::Zero());
  const Vec3 axis = a.vec3("axis", Vec3::UnitZ());
  if (!(axis.norm() > 1e-12)) c.fail(e, j.element + " axis", "a non-zero axis", "0 0 0");
  j.src.axis = axis.normalized();
  j.src.ref = a.num("ref", 0.0) * unit;
  const std::vector<double> range = a.nums("range", 2, 2, {0.0, 0.0});
  const int limited = a.tristate("limited", c.autolimits ? -1 : 0);
  j.limited = limited == 1 || (limited == -1 && a.has("range"));
  if (j.limited) {
    j.lo = range[0] * unit;
    j.hi = range[1] * unit;
    if (!(j.lo <= j.hi))
      c.fail(e, j.element + " range", "lower <= upper",
             std::to_string(range[0]) + " > " + std::to_string(range[1]));
  }
  j.damping = a.num("damping", 0.0);
  j.stiffness = a.num("stiffness", 0.0);
  j.springref = a.num("springref", 0.0) * unit;
  if (j.damping < 0.0 || j.stiffness < 0.0)
    c.fail(e, j.element, "damping, stiffness >= 0", "a negative value");
  j.armature = a.num("armature", 0.0);
  if (!(j.armature >= 0.0) || !std::isfinite(j.armature))
    c.fail(e, j.element + " armature", "a finite number >= 0",
           std::isfinite(j.armature) ? "a negative value" : "a non-finite value");
  if (j.armature > 0.0 && j.src.kind == SourceKind::Free)
    c.ignore("joint attribute 'armature' of a free joint (a floating base has no rotor)",
             e->GetLineNum());
  else if (j.armature > 0.0 && j.src.kind != SourceKind::Hinge && !c.opt->armature_rows)
    c.ignore(
        "joint attribute 'armature' of a slide or ball joint (a hinge's only with --set "
        "armature=inertia)",
        e->GetLineNum());
  j.frictionloss = a.num("frictionloss", 0.0);
  if (!(j.frictionloss >= 0.0) || !std::isfinite(j.frictionloss))
    c.fail(e, j.element + " frictionloss", "a finite number >= 0", "a negative value");
  a.ignore_attrs({"solreflimit", "solimplimit", "solref", "solimp", "margin"});
  return j;
}

Quat frame_with_axes(const Vec3& x, const Vec3& y) {
  Mat3 R;
  R << x, y, x.cross(y);
  return Quat(R).normalized();
}

// True when the lines (p1, a1) and (p2, a2) intersect.
bool lines_meet(const Vec3& p1, const Vec3& a1, const Vec3& p2, const Vec3& a2) {
  const Vec3 n = a1.cross(a2), d = p2 - p1;
  if (n.norm() < kTol) return (d - a1 * a1.dot(d)).norm() < kTol;  // parallel: the same line
  return std::abs(d.dot(n)) / n.norm() < kTol;
}

// Records the body's joints as the link's sources (qpos order, names) and sets per-DoF limits,
// damping and springs; `dof[k]` is joint k's moreau DoF (-1: none), `sign[k]` its direction.
void register_joints(Context& c, int link, const std::vector<ParsedJoint>& js,
                     const std::vector<int>& dof, const std::vector<double>& sign) {
  TreeLink& l = c.tree.links[link];
  const int nj = static_cast<int>(js.size());
  for (int k = 0; k < nj; ++k) {
    const ParsedJoint& j = js[k];
    l.sources.push_back(j.src);
    if (c.joints.count(j.src.name))
      c.fail(j.e, j.element, "a unique joint name", "a second definition");
    JointRef ref{link, k, dof[k], sign[k]};
    c.joints[j.src.name] = ref;
    c.qpos_order.push_back(ref);
    if (dof[k] < 0) continue;
    const double s = sign[k];
    if (j.limited)
      l.limits[dof[k]] = s > 0 ? DofLimit{j.lo - j.src.ref, j.hi - j.src.ref}
                               : DofLimit{-(j.hi - j.src.ref), -(j.lo - j.src.ref)};
    l.damping[dof[k]] = j.damping;
    l.armature[dof[k]] = j.armature;
    l.friction[dof[k]] = j.frictionloss;
    if (j.stiffness > 0.0) {  // a joint spring: implicit (stable PD, kd 0) towards springref
      DofActuator& act = l.actuators[dof[k]];
      act.mode = ActuationMode::StablePd;
      act.kp = j.stiffness;
      act.target = s * (j.springref - j.src.ref);
    }
  }
  l.joint_name.clear();
  for (const ParsedJoint& j : js) l.joint_name += (l.joint_name.empty() ? "" : "+") + j.src.name;
}

// Maps the body's joints onto one moreau joint; sets l.joint, l.joint_frame, sources, per-DoF
// limits, damping and springs, and registers the joints. Combinations a fixed joint type carries
// exactly use it; every other combination of hinges, slides and balls (up to 6 DoFs) becomes a
// joint sequence (docs/model-import.md, "Joints").
void map_joints(Context& c, const Element* body, int link, std::vector<ParsedJoint>& js) {
  TreeLink& l = c.tree.links[link];
  const std::string elem = l.element;
  const int nj = static_cast<int>(js.size());
  int nh = 0, ns = 0, nb = 0, nf = 0;
  for (const ParsedJoint& j : js) {
    nh += j.src.kind == SourceKind::Hinge;
    ns += j.src.kind == SourceKind::Slide;
    nb += j.src.kind == SourceKind::Ball;
    nf += j.src.kind == SourceKind::Free;
  }
  std::vector<int> dof(nj, -1);
  std::vector<double> sign(nj, 1.0);
  const Vec3 a0 = nj ? js[0].src.axis : Vec3::UnitX(), p0 = nj ? js[0].src.anchor : Vec3::Zero();
  const Vec3 a1 = nj > 1 ? js[1].src.axis : Vec3::UnitY();
  for (const ParsedJoint& j : js)
    if (j.src.kind == SourceKind::Ball && j.limited)
      c.warn(j.src.line,
             j.element + ": the ball joint's cone range is ignored (no cone limits in moreau)");
  if (nj == 0) {
    l.joint = JointType::Fixed;
  } else if (nf > 0) {
    if (nj > 1) {
      std::string names;
      for (const ParsedJoint& j : js) names += (names.empty() ? "" : ", ") + j.src.name;
      c.fail(body, elem, "a free joint alone (as MuJoCo requires)",
             "a free joint with other joints (" + names + ")");
    }
    l.joint = JointType::Free;
  } else if (nj == 1 && nb == 1) {
    l.joint = JointType::Spherical;
    l.joint_frame = {p0, Quat::Identity()};
  } else if (nj == 1) {
    l.joint = ns ? JointType::Prismatic : JointType::Revolute;
    l.joint_frame = {p0, Quat::FromTwoVectors(Vec3::UnitX(), a0)};
    dof[0] = 0;
  } else if (nj == 2 && nh == 1 && ns == 1 && a0.dot(a1) > 1.0 - kTol) {
    const int h = js[0].src.kind == SourceKind::Hinge ? 0 : 1, s = 1 - h;
    l.joint = JointType::Cylindrical;
    l.joint_frame = {js[h].src.anchor, Quat::FromTwoVectors(Vec3::UnitX(), js[h].src.axis)};
    dof[s] = 0, dof[h] = 1;
  } else if (nj == 2 && nh == 2 && std::abs(a0.dot(a1)) < kTol &&
             lines_meet(p0, a0, js[1].src.anchor, a1)) {
    Vec3 mid = p0;  // the axes' intersection
    const Vec3 n = a0.cross(a1), d = js[1].src.anchor - p0;
    mid += a0 * (d.cross(a1).dot(n) / n.squaredNorm());
    l.joint = JointType::Universal;
    l.joint_frame = {mid, frame_with_axes(a0, a1)};
    dof[0] = 0, dof[1] = 1;
  } else if (nj == 3 && ns == 3 && std::abs(a0.dot(a1)) < kTol &&
             std::abs(a0.cross(a1).dot(js[2].src.axis) - 1.0) < kTol) {
    l.joint = JointType::Cartesian;
    l.joint_frame = {p0, frame_with_axes(a0, a1)};
    dof = {0, 1, 2};
  } else {
    // The exact product of the joints' motions (model/joint_sequence.hpp).
    l.joint = JointType::Sequence;
    l.joint_frame = Pose{};
    int next = 0;
    for (int k = 0; k < nj; ++k) {
      if (js[k].src.kind != SourceKind::Ball) dof[k] = next;
      next += js[k].src.kind == SourceKind::Ball ? 3 : 1;
    }
    std::vector<SequenceJoint> seq;
    for (const ParsedJoint& j : js) {
      SequenceJoint sj;
      sj.kind = j.src.kind == SourceKind::Hinge   ? SequenceKind::Hinge
                : j.src.kind == SourceKind::Slide ? SequenceKind::Slide
                                                  : SequenceKind::Ball;
      sj.anchor = j.src.anchor;
      sj.axis = j.src.axis;
      sj.name = j.src.name;
      seq.push_back(sj);
    }
    if (std::optional<Error> e = validate_sequence(seq, elem))
      c.fail(body, e->element, e->expected, e->got);
  }
  register_joints(c, link, js, dof, sign);
  if (l.joint == JointType::Spherical)  // a lone ball: its damping and friction on its three DoFs
    for (int i = 0; i < 3; ++i) {
      l.damping[i] = js[0].damping;
      l.armature[i] = js[0].armature;
      l.friction[i] = js[0].frictionloss;
    }
  if (l.joint != JointType::Sequence) return;
  // A ball's damping and spring act on its three velocity components (MuJoCo: on qvel, with the
  // spring torque -k log(q) about the moved axes; springref is not read for balls).
  int next = 0;
  for (const ParsedJoint& j : js) {
    if (j.src.kind == SourceKind::Ball)
      for (int i = 0; i < 3; ++i) {
        l.damping[next + i] = j.damping;
        l.armature[next + i] = j.armature;
        l.friction[next + i] = j.frictionloss;
        if (j.stiffness > 0.0) {
          l.actuators[next + i].mode = ActuationMode::StablePd;
          l.actuators[next + i].kp = j.stiffness;
        }
      }
    next += j.src.kind == SourceKind::Ball ? 3 : 1;
  }
}

struct BodyMass {
  bool explicit_inertial = false;
  double mass = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
  MassAccumulator geoms;
};

void parse_inertial(Context& c, const Element* e, const std::string& body, BodyMass& bm) {
  Attrs a(c, e, "main", body + " <inertial>");
  const Pose f = a.frame();
  bm.explicit_inertial = true;
  bm.mass = a.num("mass", NAN);
  if (!std::isfinite(bm.mass)) c.fail(e, a.element + " mass", "a mass", "none");
  Mat3 I = Mat3::Zero();
  if (a.has("fullinertia")) {
    const std::vector<double> v = a.nums("fullinertia", 6, 6, {});
    I << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
  } else if (a.has("diaginertia")) {
    I = a.vec3("diaginertia", Vec3::Zero()).asDiagonal();
  } else {
    c.fail(e, a.element, "diaginertia or fullinertia", "neither");
  }
  const Mat3 R = f.R();
  bm.com = f.p;
  bm.inertia = R * I * R.transpose();
}

void parse_body(Context& c, const Element* e, int parent, const std::string& childclass_in) {
  const char* nm = e->Attribute("name");
  TreeLink l;
  l.name = nm ? nm : "body" + std::to_string(c.unnamed++);
  l.element = "body '" + l.name + "'";
  l.line = e->GetLineNum();
  l.parent = parent;
  if (c.body_link.count(l.name)) c.fail(e, l.element, "a unique body name", "a second definition");
  Attrs ba(c, e, "main", l.element);
  l.in_parent = ba.frame();
  ba.ignore_attrs({"mocap", "gravcomp"});
  const char* cc = e->Attribute("childclass");
  const std::string childclass = cc ? cc : childclass_in;
  if (cc && !c.classes.count(cc))
    c.fail(e, l.element + " childclass", "a defined default class", "'" + std::string(cc) + "'");
  BodyMass bm;
  std::vector<ParsedJoint> js;
  for (const Element* ch = e->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
    const std::string tag = ch->Name();
    if (tag == "inertial") {
      parse_inertial(c, ch, l.element, bm);
    } else if (tag == "joint" || tag == "freejoint") {
      js.push_back(parse_joint(c, ch, class_of(ch, childclass)));
    } else if (tag == "geom") {
      double m;
      Vec3 com;
      Mat3 I;
      l.geoms.push_back(parse_geom(c, ch, class_of(ch, childclass), &m, &com, &I));
      if (l.geoms.back().type == ShapeType::Plane && parent >= 0)
        c.fail(ch, "geom in " + l.element, "planes only in the world body (static)",
               "a plane in a moving body");
      if (m > 0.0) bm.geoms.add(m, com, I);
    } else if (tag != "body") {
      c.ignore("<" + tag + ">", ch->GetLineNum());
    }
  }
  const bool from_geoms =
      c.inertiafromgeom == 1 || (c.inertiafromgeom == -1 && !bm.explicit_inertial);
  if (from_geoms) {
    l.mass = bm.geoms.mass;
    l.com = bm.geoms.com();
    l.inertia = bm.geoms.inertia_about_com();
  } else {
    l.mass = bm.mass;
    l.com = bm.com;
    l.inertia = bm.inertia;
  }
  // By default a joint's armature (a rotor's inertia) stays the joint's, held exactly by a row per
  // DoF. With --set armature=inertia a hinge's is inertia a e e^T of the body about its axis:
  // MuJoCo's a qd^2 / 2 with qd the body's spin about e, exact where the parent does not turn
  // about e, and otherwise short of MuJoCo's coupling -a (e.w_c)(e.w_p) + a (e.w_p)^2 / 2
  // (docs/model-import.md, "Armature").
  if (!c.opt->armature_rows) {
    for (ParsedJoint& j : js) {
      if (j.src.kind == SourceKind::Hinge && j.armature > 0.0)
        l.inertia +=
            j.armature * (0.5 * Mat3::Identity() + 0.5 * j.src.axis * j.src.axis.transpose());
      j.armature = 0.0;  // folded (a hinge's) or ignored (parse_joint)
    }
  }
  const int self = static_cast<int>(c.tree.links.size());
  c.body_link[l.name] = self;
  c.tree.links.push_back(std::move(l));
  map_joints(c, e, self, js);
  for (const Element* ch = e->FirstChildElement("body"); ch; ch = ch->NextSiblingElement("body"))
    parse_body(c, ch, self, childclass);
}

}  // namespace

void parse_worldbody(Context& c, const Element* wb) {
  const char* cc = wb->Attribute("childclass");
  const std::string childclass = cc ? cc : "";
  for (const Element* ch = wb->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
    const std::string tag = ch->Name();
    if (tag == "geom") {
      double m;
      Vec3 com;
      Mat3 I;
      c.tree.world_geoms.push_back(parse_geom(c, ch, class_of(ch, childclass), &m, &com, &I));
    } else if (tag == "body") {
      parse_body(c, ch, -1, childclass);
    } else {
      c.ignore("<" + tag + ">", ch->GetLineNum());
    }
  }
}

}  // namespace moreau::mjcf
