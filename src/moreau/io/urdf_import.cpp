// URDF through urdfdom: links (inertial, collision), joints, the root fixed or floating, and the
// <loop_joint> extension. Structure errors come from urdf_check.cpp (with lines).
#include <urdf_parser/urdf_parser.h>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include "moreau/io/urdf_internal.hpp"
#include "moreau/io/urdf_mjcf.hpp"

namespace moreau {

namespace {

using urdf_detail::Prescan;

Vec3 v3(const urdf::Vector3& v) {
  return {v.x, v.y, v.z};
}
Pose pose_of(const urdf::Pose& p) {
  double x, y, z, w;
  p.rotation.getQuaternion(x, y, z, w);
  Quat q(w, x, y, z);
  if (!(q.norm() > 0.0) || !q.coeffs().allFinite()) q = Quat(NAN, NAN, NAN, NAN);
  return {v3(p.position), q.normalized()};
}

struct Context {
  std::string file, dir;
  const ImportOptions* opt = nullptr;
  const Prescan* scan = nullptr;
  std::vector<std::string>* warnings = nullptr;
  int link_line(const std::string& n) const {
    auto it = scan->link_line.find(n);
    return it == scan->link_line.end() ? 0 : it->second;
  }
  int joint_line(const std::string& n) const {
    auto it = scan->joint_line.find(n);
    return it == scan->joint_line.end() ? 0 : it->second;
  }
  [[noreturn]] void fail(int line, const std::string& element, const std::string& expected,
                         const std::string& got) const {
    throw ErrorException(Error{file, line, element, expected, got});
  }
};

bool readable(const std::string& path) {
  return static_cast<bool>(std::ifstream(path));
}

// package://PKG/REST against the search path (ROOT/PKG/REST, or ROOT/REST when ROOT is PKG),
// file://PATH, else relative to the URDF file.
std::string resolve_mesh(const Context& c, const std::string& uri, const std::string& element,
                         int line) {
  const std::string pkg = "package://", fil = "file://";
  if (uri.rfind(fil, 0) == 0) return uri.substr(fil.size());
  if (uri.rfind(pkg, 0) != 0) return join_path(c.dir, uri);
  const std::string rest = uri.substr(pkg.size());
  const size_t slash = rest.find('/');
  const std::string name = rest.substr(0, slash),
                    tail = slash == std::string::npos ? "" : rest.substr(slash + 1);
  std::vector<std::string> roots = c.opt->package_paths;
  if (!c.dir.empty()) roots.push_back(c.dir);
  std::string tried;
  for (const std::string& r : roots) {
    std::string root = r;
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    for (const std::string& cand :
         {join_path(root, name + "/" + tail), root.substr(root.find_last_of('/') + 1) == name
                                                  ? join_path(root, tail)
                                                  : std::string()}) {
      if (cand.empty()) continue;
      if (readable(cand)) return cand;
      tried += (tried.empty() ? "" : ", ") + cand;
    }
  }
  c.fail(line, element, "a mesh found on the package path (--set package_path=DIR)",
         "'" + uri + "' not found" + (tried.empty() ? "" : " (tried " + tried + ")"));
}

Geometry collision_geometry(const Context& c, const urdf::Collision& col, const std::string& link,
                            int line) {
  const std::string element = "link '" + link + "' <collision" +
                              (col.name.empty() ? std::string() : " '" + col.name + "'") + ">";
  if (!col.geometry) c.fail(line, element, "a <geometry>", "none");
  Geometry g;
  g.name = col.name.empty() ? link : col.name;
  g.pose = pose_of(col.origin);
  switch (col.geometry->type) {
    case urdf::Geometry::SPHERE:
      g.type = ShapeType::Sphere;
      g.radius = static_cast<const urdf::Sphere&>(*col.geometry).radius;
      break;
    case urdf::Geometry::BOX:
      g.type = ShapeType::Box;
      g.half_extents = 0.5 * v3(static_cast<const urdf::Box&>(*col.geometry).dim);
      break;
    case urdf::Geometry::CYLINDER: {
      const auto& cy = static_cast<const urdf::Cylinder&>(*col.geometry);
      g.type = ShapeType::Cylinder;
      g.radius = cy.radius;
      g.half_length = 0.5 * cy.length;
      break;
    }
    case urdf::Geometry::MESH: {
      const auto& m = static_cast<const urdf::Mesh&>(*col.geometry);
      const std::string path = resolve_mesh(c, m.filename, element, line);
      Result<std::shared_ptr<const MeshData>> hull = load_mesh_hull(path, v3(m.scale));
      if (!hull)
        c.fail(line, element + " mesh", "a readable mesh with a 3-D hull", hull.error().message());
      g.type = ShapeType::ConvexMesh;
      g.mesh = *hull;
      break;
    }
  }
  if (auto e = validate_geometry(g, 0, element)) c.fail(line, e->element, e->expected, e->got);
  return g;
}

// Fills the link's mass properties and collision geometry.
void fill_link(const Context& c, const urdf::Link& ul, TreeLink& l) {
  if (const urdf::InertialSharedPtr& in = ul.inertial) {
    const Pose o = pose_of(in->origin);
    Mat3 I;
    I << in->ixx, in->ixy, in->ixz, in->ixy, in->iyy, in->iyz, in->ixz, in->iyz, in->izz;
    const Mat3 R = o.R();
    l.mass = in->mass;
    l.com = o.p;
    l.inertia = R * I * R.transpose();
    if (!o.p.allFinite() || !o.q.coeffs().allFinite())
      c.fail(l.line, l.element + " <inertial><origin>", "finite numbers", "non-finite");
  }
  for (const urdf::CollisionSharedPtr& col : ul.collision_array)
    if (col) l.geoms.push_back(collision_geometry(c, *col, ul.name, l.line));
}

// Sets the link's joint from the URDF joint that makes it a child.
void fill_joint(const Context& c, const urdf::Joint& uj, TreeLink& l) {
  const int line = c.joint_line(uj.name);
  const std::string element = "joint '" + uj.name + "'";
  l.in_parent = pose_of(uj.parent_to_joint_origin_transform);
  if (!l.in_parent.p.allFinite() || !l.in_parent.q.coeffs().allFinite())
    c.fail(line, element + " <origin>", "finite numbers", "non-finite");
  l.joint_name = uj.name;
  const Vec3 axis = v3(uj.axis);
  auto hinge_or_slide = [&](JointType t, SourceKind k) {
    if (!(axis.norm() > 1e-12) || !axis.allFinite())
      c.fail(line, element + " <axis>", "a finite non-zero axis", "0 0 0");
    l.joint = t;
    l.joint_frame.q = Quat::FromTwoVectors(Vec3::UnitX(), axis.normalized());
    l.sources.push_back({uj.name, k, Vec3::Zero(), axis.normalized(), 0.0, line});
  };
  switch (uj.type) {
    case urdf::Joint::FIXED:
      l.joint = JointType::Fixed;
      break;
    case urdf::Joint::FLOATING:
      l.joint = JointType::Free;
      break;
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      hinge_or_slide(JointType::Revolute, SourceKind::Hinge);
      break;
    case urdf::Joint::PRISMATIC:
      hinge_or_slide(JointType::Prismatic, SourceKind::Slide);
      break;
    case urdf::Joint::PLANAR:
      c.fail(line, element,
             "a joint type moreau has (revolute, continuous, prismatic, fixed, floating)",
             "'planar' (moreau has no planar joint type)");
    default:
      c.fail(line, element, "a known joint type", "unknown");
  }
  if (uj.limits && (uj.type == urdf::Joint::REVOLUTE || uj.type == urdf::Joint::PRISMATIC)) {
    l.limits[0] = {uj.limits->lower, uj.limits->upper};
    if (uj.limits->lower > uj.limits->upper)
      c.fail(line, element + " <limit>", "lower <= upper",
             std::to_string(uj.limits->lower) + " > " + std::to_string(uj.limits->upper));
  }
  if (uj.limits && l.joint != JointType::Fixed && l.joint != JointType::Free) {
    if (uj.limits->effort > 0.0) l.actuators[0].effort_limit = uj.limits->effort;
    if (uj.limits->velocity > 0.0) l.max_velocity[0] = uj.limits->velocity;
  }
  if (uj.dynamics && l.joint != JointType::Fixed && l.joint != JointType::Free) {
    l.damping[0] = uj.dynamics->damping;
    if (!std::isfinite(uj.dynamics->damping) || uj.dynamics->damping < 0.0)
      c.fail(line, element + " <dynamics> damping", "a finite number >= 0",
             std::to_string(uj.dynamics->damping));
    l.friction[0] = uj.dynamics->friction;
    if (!std::isfinite(uj.dynamics->friction) || uj.dynamics->friction < 0.0)
      c.fail(line, element + " <dynamics> friction", "a finite number >= 0",
             std::to_string(uj.dynamics->friction));
  }
}

LoopJoint make_loop(const Context& c, const urdf_detail::LoopSpec& s,
                    const std::map<std::string, int>& index) {
  LoopJoint L;
  L.name = s.name;
  L.element = s.element;
  L.line = s.line;
  L.type = s.type;
  const Quat axis = Quat::FromTwoVectors(Vec3::UnitX(), s.axis.normalized());
  for (int k = 0; k < 2; ++k) {
    auto it = index.find(s.link[k]);
    const int link = it == index.end() ? -1 : it->second;  // "world" or the fixed root: -1 below
    (k == 0 ? L.link_a : L.link_b) = link;
    (k == 0 ? L.frame_a : L.frame_b) =
        Pose{s.xyz[k], (urdf_detail::rpy_quat(s.rpy[k]) * axis).normalized()};
  }
  L.frame_b_from_reference = !s.given[1];
  L.limits[0] = {s.lower, s.upper};
  if (s.lower > s.upper) c.fail(s.line, s.element + " <limit>", "lower <= upper", "lower > upper");
  return L;
}

Result<ImportedModel> import_urdf_impl(const std::string& xml, const std::string& file,
                                       const ImportOptions& opt) {
  ImportedModel out;
  try {
    const Prescan scan = urdf_detail::prescan_urdf(xml, file);
    out.warnings = scan.warnings;
    const urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(xml);
    if (!model || !model->getRoot())
      return Error{file, 0, "<robot>", "a URDF model urdfdom accepts",
                   "urdfdom rejected it (its message is printed above)"};
    Context c{file, directory_of(file), &opt, &scan, &out.warnings};
    LinkTree& t = out.tree;
    t.name = scan.robot_name.empty() ? "robot" : scan.robot_name;
    t.source = file;
    std::map<std::string, int> index;  // link name -> tree link
    // Depth-first from the root, children in file order: parents precede children.
    std::function<void(const urdf::LinkConstSharedPtr&, int)> visit =
        [&](const urdf::LinkConstSharedPtr& ul, int parent) {
          const bool world = parent < 0 && ul->name == "world" && !ul->inertial;
          int self = -1;
          if (!world) {
            TreeLink l;
            l.name = ul->name;
            l.element = "link '" + ul->name + "'";
            l.line = c.link_line(ul->name);
            l.parent = parent;
            if (ul->parent_joint)
              fill_joint(c, *ul->parent_joint, l);
            else
              l.joint = opt.floating_base ? JointType::Free : JointType::Fixed;
            fill_link(c, *ul, l);
            self = static_cast<int>(t.links.size());
            index[ul->name] = self;
            t.links.push_back(std::move(l));
          } else if (!ul->collision_array.empty()) {
            for (const urdf::CollisionSharedPtr& col : ul->collision_array)
              if (col)
                t.world_geoms.push_back(
                    collision_geometry(c, *col, ul->name, c.link_line(ul->name)));
          }
          std::vector<urdf::LinkConstSharedPtr> kids(ul->child_links.begin(),
                                                     ul->child_links.end());
          std::sort(kids.begin(), kids.end(), [&](const auto& a, const auto& b) {
            return c.link_line(a->name) < c.link_line(b->name);
          });
          for (const auto& k : kids) visit(k, self);
        };
    visit(model->getRoot(), -1);
    for (const urdf_detail::LoopSpec& s : scan.loops) t.loops.push_back(make_loop(c, s, index));
    Result<Scene> sc = build_tree_scene(t, {}, &out.build);
    if (!sc) return sc.error();
    for (const std::string& w : initial_state_warnings(*sc)) c.warnings->push_back(file + ": " + w);
    out.scene = std::move(*sc);
    return out;
  } catch (const ErrorException& e) {
    return e.error;
  } catch (const std::exception& e) {  // urdfdom throws on some malformed numbers
    return Error{file, 0, "<robot>", "a URDF model urdfdom accepts", e.what()};
  }
}

}  // namespace

Result<ImportedModel> import_urdf_string(const std::string& xml, const std::string& source,
                                         const ImportOptions& opt) {
  return import_urdf_impl(xml, source, opt);
}

Result<ImportedModel> import_urdf_file(const std::string& path, const ImportOptions& opt) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path, 0, "URDF file", "a readable file", "cannot open it"};
  std::ostringstream ss;
  ss << in.rdbuf();
  return import_urdf_impl(ss.str(), path, opt);
}

}  // namespace moreau
