#include "moreau/io/urdf_mjcf_tree.hpp"

#include <tinyxml2.h>
#include <cmath>
#include <cstdio>

#include "moreau/collision/mesh_io.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/math/so3.hpp"
#include "moreau/model/error.hpp"

namespace moreau {

namespace {

double value_or(const std::vector<double>& v, size_t i, double fallback) {
  return i < v.size() ? v[i] : fallback;
}

// Source joint k's coordinate(s) start at this offset in the link's values.
size_t source_offset(const TreeLink& l, size_t k) {
  size_t off = 0;
  for (size_t i = 0; i < k; ++i) off += l.sources[i].width();
  return off;
}

// Rotation of the link frame produced by the hinge sources, in the link frame.
Quat hinge_product(const TreeLink& l, const std::vector<double>& v) {
  Quat R = Quat::Identity();
  for (size_t k = 0; k < l.sources.size(); ++k) {
    const SourceJoint& s = l.sources[k];
    if (s.kind == SourceKind::Ball) {
      const size_t o = source_offset(l, k);
      Quat qb(value_or(v, o, 1.0), value_or(v, o + 1, 0.0), value_or(v, o + 2, 0.0),
              value_or(v, o + 3, 0.0));
      if (!(qb.norm() > 0.0) || !qb.coeffs().allFinite()) qb = Quat::Identity();
      R = R * qb.normalized();
    } else if (s.kind == SourceKind::Hinge) {
      const double th = value_or(v, source_offset(l, k), s.ref) - s.ref;
      R = R * Quat(Eigen::AngleAxisd(th, s.axis));
    }
  }
  return R;
}

// A sequence link's coordinates from its source values (offsets from ref; balls as given).
SequenceCoords sequence_coords(const TreeLink& l, const std::vector<double>& v) {
  SequenceCoords q{};
  size_t o = 0;
  for (const SourceJoint& s : l.sources) {
    if (s.kind == SourceKind::Ball) {
      Quat qb(value_or(v, o, 1.0), value_or(v, o + 1, 0.0), value_or(v, o + 2, 0.0),
              value_or(v, o + 3, 0.0));
      if (!(qb.norm() > 0.0) || !qb.coeffs().allFinite()) qb = Quat::Identity();
      qb.normalize();
      q[o] = qb.w(), q[o + 1] = qb.x(), q[o + 2] = qb.y(), q[o + 3] = qb.z();
    } else {
      q[o] = value_or(v, o, s.ref) - s.ref;
    }
    o += s.width();
  }
  return q;
}

// Motion of the joint's follower frame in its base frame (both = joint_frame at the reference).
Pose joint_motion(const TreeLink& l, const std::vector<double>& v) {
  if (l.joint == JointType::Sequence) return sequence_pose(link_sequence(l), sequence_coords(l, v));
  const std::vector<double> q = link_dof_coordinates(l, v);
  Pose M;
  switch (l.joint) {
    case JointType::Revolute:
      M.q = Quat(Eigen::AngleAxisd(q[0], Vec3::UnitX()));
      break;
    case JointType::Prismatic:
      M.p = Vec3(q[0], 0, 0);
      break;
    case JointType::Cylindrical:
      M.p = Vec3(q[0], 0, 0);
      M.q = Quat(Eigen::AngleAxisd(q[1], Vec3::UnitX()));
      break;
    case JointType::Universal:
      M.q = Quat(Eigen::AngleAxisd(q[0], Vec3::UnitX())) *
            Quat(Eigen::AngleAxisd(q[1], Vec3::UnitY()));
      break;
    case JointType::Spherical: {
      const Quat Jq = l.joint_frame.q;
      M.q = (Jq.conjugate() * hinge_product(l, v) * Jq).normalized();
      break;
    }
    case JointType::Cartesian:
      M.p = Vec3(q[0], q[1], q[2]);
      break;
    default:
      break;
  }
  return M;
}

void validation_error(const LinkTree& t, const TreeLink& l, Error e) {
  // Replace the generic "body" element of validate_body by the file's element.
  e.file = t.source;
  e.line = l.line;
  throw ErrorException(std::move(e));
}

}  // namespace

Result<std::shared_ptr<const MeshData>> load_mesh_hull(const std::string& path, const Vec3& scale) {
  Result<std::shared_ptr<const MeshData>> mesh = load_mesh(path);
  if (!mesh) return mesh.error();
  if (scale == Vec3::Ones()) return convex_hull(**mesh);
  std::vector<Vec3> pts = (*mesh)->vertices;
  for (Vec3& p : pts) p = p.cwiseProduct(scale);
  return convex_hull(pts, path);
}

std::string xml_error_text(const tinyxml2::XMLDocument& doc) {
  std::string s = doc.ErrorStr() ? doc.ErrorStr() : "";
  const size_t ln = s.find("Line number=");
  const size_t colon = ln == std::string::npos ? std::string::npos : s.find(": ", ln);
  const std::string detail = colon == std::string::npos ? std::string() : s.substr(colon + 2);
  return std::string(doc.ErrorName()) + (detail.empty() ? "" : " (" + detail + ")");
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string join_path(const std::string& dir, const std::string& path) {
  if (path.empty() || path[0] == '/' || dir.empty()) return path;
  return dir.back() == '/' ? dir + path : dir + "/" + path;
}

void MassAccumulator::add(double m, const Vec3& c, const Mat3& I_c) {
  mass += m;
  first += m * c;
  second += I_c + m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
}

Mat3 MassAccumulator::inertia_about_com() const {
  const Vec3 c = com();
  Mat3 I = second - mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  return 0.5 * (I + I.transpose());
}

std::vector<SequenceJoint> link_sequence(const TreeLink& l) {
  std::vector<SequenceJoint> seq;
  for (const SourceJoint& s : l.sources) {
    SequenceJoint j;
    j.kind = s.kind == SourceKind::Hinge   ? SequenceKind::Hinge
             : s.kind == SourceKind::Slide ? SequenceKind::Slide
                                           : SequenceKind::Ball;
    j.anchor = s.anchor;
    j.axis = s.axis;
    j.name = s.name;
    seq.push_back(j);
  }
  return seq;
}

std::vector<double> link_dof_coordinates(const TreeLink& l, const std::vector<double>& v) {
  std::vector<double> q;
  if (l.joint == JointType::Sequence) {
    q.assign(6, 0.0);
    sequence_dof_values(link_sequence(l), sequence_coords(l, v), q.data());
    return q;
  }
  if (l.joint == JointType::Spherical) {
    const Quat Jq = l.joint_frame.q;
    const Vec3 w = quat_log((Jq.conjugate() * hinge_product(l, v) * Jq).normalized());
    return {w.x(), w.y(), w.z()};
  }
  // Hinge/slide sources map one to one onto DoFs: slides first (translations precede rotations
  // in moreau's DoF order), then hinges, each in file order.
  for (int pass = 0; pass < 2; ++pass)
    for (size_t k = 0; k < l.sources.size(); ++k) {
      const SourceJoint& s = l.sources[k];
      if ((pass == 0) != (s.kind == SourceKind::Slide) || s.kind == SourceKind::Ball ||
          s.kind == SourceKind::Free)
        continue;
      q.push_back(value_or(v, source_offset(l, k), s.ref) - s.ref);
    }
  q.resize(6, 0.0);
  return q;
}

std::vector<Pose> link_world_poses(const LinkTree& t, const LinkValues& values) {
  static const std::vector<double> none;
  std::vector<Pose> X(t.links.size());
  for (size_t i = 0; i < t.links.size(); ++i) {
    const TreeLink& l = t.links[i];
    const std::vector<double>& v = i < values.size() ? values[i] : none;
    const Pose P = l.parent >= 0 ? X[l.parent] : Pose{};
    if (l.joint == JointType::Free && v.size() >= 7) {
      Quat q(v[3], v[4], v[5], v[6]);
      if (!(q.norm() > 0.0) || !q.coeffs().allFinite()) q = Quat::Identity();
      X[i] = {Vec3(v[0], v[1], v[2]), q.normalized()};
    } else if (l.joint == JointType::Free || l.joint == JointType::Fixed) {
      X[i] = P * l.in_parent;
    } else {
      X[i] = P * l.in_parent * l.joint_frame * joint_motion(l, v) * l.joint_frame.inverse();
    }
  }
  return X;
}

State tree_state(const LinkTree& t, const TreeBuild& b, const Model& m, const LinkValues& values) {
  const std::vector<Pose> X = link_world_poses(t, values);
  State s = State::zeros(m.num_bodies());
  for (size_t i = 0; i < t.links.size(); ++i) {
    const int body = b.body_of_link[i];
    if (body < 0) continue;
    const Pose W = X[i] * b.link_in_body[i].inverse();  // world pose of the CoM frame
    s.r[body] = W.p;
    s.q[body] = W.q.normalized();
  }
  return s;
}

namespace {

Joint make_link_joint(const LinkTree& t, const TreeBuild& b, size_t i) {
  const TreeLink& l = t.links[i];
  Joint j;
  j.name = l.joint_name.empty() ? l.name : l.joint_name;
  j.type = l.joint;
  j.follower = b.body_of_link[i];
  j.base = l.parent >= 0 ? b.body_of_link[l.parent] : -1;
  j.collide_connected = j.base < 0 && t.world_joints_collide;
  const Pose parent_in_base = l.parent >= 0 ? b.link_in_body[l.parent] : Pose{};
  j.frame_base = parent_in_base * l.in_parent * l.joint_frame;
  j.frame_follower = b.link_in_body[i] * l.joint_frame;
  j.limits = l.limits;
  j.damping = l.damping;
  j.armature = l.armature;
  j.friction = l.friction;
  j.actuators = l.actuators;
  if (l.joint == JointType::Sequence) j.sequence = link_sequence(l);
  return j;
}

Joint make_loop_joint(const LinkTree& t, const TreeBuild& b, const LoopJoint& lj,
                      const std::vector<Pose>& Xref) {
  auto world = [&](int link, const Pose& f) { return link >= 0 ? Xref[link] * f : f; };
  int a = lj.link_a, c = lj.link_b;
  Pose fa = lj.frame_a;
  Pose fb =
      lj.frame_b_from_reference ? (c >= 0 ? Xref[c].inverse() : Pose{}) * world(a, fa) : lj.frame_b;
  auto body = [&](int link) { return link >= 0 ? b.body_of_link[link] : -1; };
  auto in_body = [&](int link, const Pose& f) {
    return link >= 0 ? b.link_in_body[link] * f : f;  // static links: link_in_body is world pose
  };
  if (body(c) < 0 && body(a) < 0)
    throw ErrorException(Error{t.source, lj.line, lj.element,
                               "two links of which at least one moves",
                               "both are fixed to the world"});
  Joint j;
  j.name = lj.name;
  j.type = lj.type;
  j.limits = lj.limits;
  j.damping = lj.damping;
  j.collide_connected = true;  // as MuJoCo: an equality constraint does not filter contacts
  if (body(c) < 0) {           // the follower must be a body: swap ends
    std::swap(a, c);
    std::swap(fa, fb);
  }
  j.base = body(a);
  j.follower = body(c);
  j.frame_base = in_body(a, fa);
  j.frame_follower = in_body(c, fb);
  return j;
}

}  // namespace

Result<Scene> build_tree_scene(const LinkTree& t, const LinkValues& values, TreeBuild* out) {
  try {
    const size_t n = t.links.size();
    TreeBuild b;
    b.body_of_link.assign(n, -1);
    b.link_in_body.assign(n, Pose{});
    b.joint_of_link.assign(n, -1);
    std::vector<int> owner(n, -1);  // link whose body carries this link, -1 = world
    std::vector<Pose> P(n);         // link frame in the owner's link frame (world frame if static)
    for (size_t i = 0; i < n; ++i) {
      const TreeLink& l = t.links[i];
      if (l.joint != JointType::Fixed) {
        owner[i] = static_cast<int>(i);
      } else if (l.parent >= 0) {
        owner[i] = owner[l.parent];
        P[i] = P[l.parent] * l.in_parent;
      } else {
        P[i] = l.in_parent;
      }
      if (!std::isfinite(l.mass) || l.mass < 0.0)
        validation_error(
            t, l, Error{"", 0, l.element + " mass", "a finite mass >= 0", error_number(l.mass)});
      if (l.mass > 0.0) {
        Body probe{l.name, l.mass, l.inertia};
        if (auto e = validate_body(probe, l.element)) validation_error(t, l, *e);
      }
    }
    std::vector<MassAccumulator> acc(n);
    for (size_t i = 0; i < n; ++i) {
      const TreeLink& l = t.links[i];
      if (owner[i] < 0 || l.mass <= 0.0) continue;
      const Mat3 R = P[i].R();
      acc[owner[i]].add(l.mass, P[i] * l.com, R * l.inertia * R.transpose());
    }
    ModelBuilder mb(t.name);
    mb.set_gravity(t.gravity);
    for (size_t i = 0; i < n; ++i) {
      if (owner[i] != static_cast<int>(i)) continue;
      const TreeLink& l = t.links[i];
      if (!(acc[i].mass > 0.0))
        throw ErrorException(Error{t.source, l.line, l.element,
                                   "a positive mass (a link that moves needs mass; welded massless "
                                   "links are merged into their parent)",
                                   "zero mass"});
      Body body{l.name, acc[i].mass, acc[i].inertia_about_com()};
      if (auto e = validate_body(body, l.element + " (with the links welded to it)"))
        validation_error(t, l, *e);
      b.body_of_link[i] = mb.add_body(std::move(body));
    }
    for (size_t i = 0; i < n; ++i) {
      if (owner[i] < 0) {
        b.link_in_body[i] = P[i];  // static: world pose at the reference configuration
        continue;
      }
      b.body_of_link[i] = b.body_of_link[owner[i]];
      const Vec3 c = acc[owner[i]].com();
      b.link_in_body[i] = Pose{P[i].p - c, P[i].q};
    }
    // Each link's geometries (index n: the world's), for the exclusions below.
    std::vector<std::vector<int>> geoms_of(n + 1);
    for (const Geometry& g0 : t.world_geoms) {
      Geometry g = g0;
      g.body = -1;
      geoms_of[n].push_back(mb.add_geometry(std::move(g)));
    }
    for (size_t i = 0; i < n; ++i)
      for (const Geometry& g0 : t.links[i].geoms) {
        Geometry g = g0;
        g.body = b.body_of_link[i];
        g.pose = b.link_in_body[i] * g0.pose;
        geoms_of[i].push_back(mb.add_geometry(std::move(g)));
      }
    for (size_t i = 0; i < n; ++i) {
      const JointType jt = t.links[i].joint;
      if (jt == JointType::Fixed || jt == JointType::Free) continue;
      b.joint_of_link[i] = mb.add_joint(make_link_joint(t, b, i));
    }
    const std::vector<Pose> Xref = link_world_poses(t, {});
    for (const LoopJoint& lj : t.loops) mb.add_joint(make_loop_joint(t, b, lj, Xref));
    // An excluded link pair: every geometry of one against every one of the other, whatever
    // bodies the links were welded into (MuJoCo excludes its bodies, the links here).
    for (const auto& [la, lb] : t.excluded)
      for (const int ga : geoms_of[la < 0 ? n : la])
        for (const int gb : geoms_of[lb < 0 ? n : lb]) mb.exclude_collisions(ga, gb);
    Result<Model> model = mb.build();
    if (!model) {
      Error e = model.error();
      e.file = t.source;
      return e;
    }
    Scene sc;
    sc.name = t.name;
    sc.source = t.source;
    sc.model = std::move(*model);
    sc.initial = tree_state(t, b, sc.model, values);
    if (!sc.initial.all_finite())
      return Error{t.source, 0, "initial state", "finite body poses",
                   "non-finite numbers (positions or joint values too large)"};
    if (t.dt > 0.0) sc.settings.dt = t.dt;
    // Robot files run on the fast path, as `moreau compare` runs them: on the real robots the full
    // solve leaves steps unconverged that the fast path converges (docs/model-import.md).
    sc.settings.fast_path = true;
    sc.duration = 5.0;
    if (out) *out = std::move(b);
    return sc;
  } catch (const ErrorException& e) {
    return e.error;
  }
}

std::vector<std::string> initial_state_warnings(const Scene& sc) {
  std::vector<std::string> out;
  const double step = sc.settings.dynamics.max_limit_correction;
  JointAxes ax;
  for (const Joint& j : sc.model.joints()) {
    joint_axes(j, sc.initial, ax);
    double open = 0.0;
    for (int r = 0; r < ax.m; ++r) open = std::max(open, std::abs(ax.value[ax.constrained[r]]));
    if (open > 1e-6) {
      char buf[512];
      std::snprintf(buf, sizeof buf,
                    "joint '%s' starts open by %.3g (m or rad; a loop its initial state does not "
                    "close): closed by at most %.3g per step (stabilization.max_joint_correction)",
                    j.name.c_str(), open, sc.settings.dynamics.max_joint_correction);
      out.push_back(buf);
    }
  }
  for (const Joint& j : sc.model.joints())
    for (int k = 0; k < j.dofs(); ++k) {
      const DofLimit& lim = j.limits[k];
      if (!lim.enabled()) continue;
      double q, qd;
      joint_dof_state(j, sc.initial, k, &q, &qd);
      if (q >= lim.lower && q <= lim.upper) continue;
      char buf[512];
      std::snprintf(buf, sizeof buf,
                    "joint '%s' DoF %d starts at %.6g, outside its limits [%.6g, %.6g]: brought "
                    "back by at most %.3g per step (2 stabilization.max_limit_correction: the "
                    "velocity bias and the position projection, docs/dynamics.md)",
                    j.name.c_str(), k, q, lim.lower, lim.upper, 2.0 * step);
      out.push_back(buf);
    }
  return out;
}

}  // namespace moreau
