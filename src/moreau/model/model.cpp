#include "moreau/model/model.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "moreau/math/so3.hpp"
#include "moreau/model/joint_sequence.hpp"

namespace moreau {

namespace {
bool finite3(const Vec3& v) {
  return v.allFinite();
}
}  // namespace

int Model::body_index(const std::string& name) const {
  for (size_t i = 0; i < bodies_.size(); ++i)
    if (bodies_[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string Model::body_name(int b) const {
  if (b < 0) return "world";
  const std::string& n = bodies_[b].name;
  return n.empty() ? "body" + std::to_string(b) : n;
}

int Model::joint_index(const std::string& name) const {
  for (size_t i = 0; i < joints_.size(); ++i)
    if (joints_[i].name == name) return static_cast<int>(i);
  return -1;
}

double Model::mass_ratio() const {
  if (bodies_.empty()) return 1.0;
  double lo = bodies_[0].mass, hi = bodies_[0].mass;
  for (const Body& b : bodies_) {
    lo = std::min(lo, b.mass);
    hi = std::max(hi, b.mass);
  }
  return hi / lo;
}

double Model::total_mass() const {
  double m = 0.0;
  for (const Body& b : bodies_) m += b.mass;
  return m;
}

std::optional<Error> validate_body(const Body& b, const std::string& element) {
  if (!std::isfinite(b.mass) || b.mass <= 0.0)
    return Error{"", 0, element + " mass", "a finite mass > 0", error_number(b.mass)};
  if (!b.inertia.allFinite())
    return Error{"", 0, element + " inertia", "finite entries", "non-finite"};
  const double asym = (b.inertia - b.inertia.transpose()).cwiseAbs().maxCoeff();
  if (asym > 1e-9 * std::max(1.0, b.inertia.cwiseAbs().maxCoeff()))
    return Error{"", 0, element + " inertia", "a symmetric matrix",
                 "asymmetry " + error_number(asym)};
  Eigen::SelfAdjointEigenSolver<Mat3> es(b.inertia);
  const Vec3 ev = es.eigenvalues();
  if (ev.minCoeff() <= 0.0)
    return Error{"", 0, element + " inertia", "a positive definite matrix",
                 "eigenvalues " + error_number(ev[0]) + ", " + error_number(ev[1]) + ", " +
                     error_number(ev[2])};
  // Principal moments of a real body satisfy the triangle inequality I1 + I2 >= I3.
  if (ev[0] + ev[1] < ev[2] * (1.0 - 1e-9))
    return Error{"", 0, element + " inertia",
                 "principal moments satisfying the triangle inequality",
                 error_number(ev[0]) + " + " + error_number(ev[1]) + " < " + error_number(ev[2])};
  return std::nullopt;
}

static std::optional<Error> validate_pose(const Pose& p, const std::string& element) {
  if (!finite3(p.p)) return Error{"", 0, element + " position", "finite numbers", "non-finite"};
  if (!is_unit_quaternion(p.q, 1e-6))
    return Error{"", 0, element + " quaternion", "a finite unit quaternion (w, x, y, z)",
                 "norm " + error_number(p.q.norm())};
  return std::nullopt;
}

std::optional<Error> validate_joint(const Joint& j, int nb, const std::string& element) {
  if (j.follower < 0 || j.follower >= nb)
    return Error{"", 0, element + " follower", "an existing body", std::to_string(j.follower)};
  if (j.base < -1 || j.base >= nb)
    return Error{"", 0, element + " base", "an existing body or the world", std::to_string(j.base)};
  if (j.base == j.follower)
    return Error{"", 0, element, "base != follower", "both are body " + std::to_string(j.base)};
  if (auto e = validate_pose(j.frame_base, element + " base frame")) return e;
  if (auto e = validate_pose(j.frame_follower, element + " follower frame")) return e;
  if (j.type == JointType::Sequence) {
    if (auto e = validate_sequence(j.sequence, element)) return e;
  } else if (!j.sequence.empty()) {
    return Error{"", 0, element + " sequence", "a sequence only on a joint of type 'sequence'",
                 std::to_string(j.sequence.size()) + " joints"};
  }
  for (int k = 0; k < j.dofs(); ++k) {
    const DofLimit& l = j.limits[k];
    if (std::isnan(l.lower) || std::isnan(l.upper))
      return Error{"", 0, element + " limit[" + std::to_string(k) + "]", "numbers", "NaN"};
    if (l.lower > l.upper)
      return Error{"", 0, element + " limit[" + std::to_string(k) + "]", "lower <= upper",
                   error_number(l.lower) + " > " + error_number(l.upper)};
    const DofActuator& a = j.actuators[k];
    if (!std::isfinite(a.kp) || !std::isfinite(a.kd) || a.kp < 0.0 || a.kd < 0.0)
      return Error{"", 0, element + " actuator[" + std::to_string(k) + "]",
                   "finite gains kp, kd >= 0", error_number(a.kp) + ", " + error_number(a.kd)};
    if (!std::isfinite(a.force) || !std::isfinite(a.target) || !std::isfinite(a.amplitude) ||
        !std::isfinite(a.frequency) || !std::isfinite(a.phase))
      return Error{"", 0, element + " actuator[" + std::to_string(k) + "]", "finite numbers",
                   "non-finite"};
    if (!(a.effort_limit > 0.0))
      return Error{"", 0, element + " actuator[" + std::to_string(k) + "] effort_limit", "> 0",
                   error_number(a.effort_limit)};
    if (!std::isfinite(j.damping[k]) || j.damping[k] < 0.0)
      return Error{"", 0, element + " damping[" + std::to_string(k) + "]", "a finite number >= 0",
                   error_number(j.damping[k])};
    if (!std::isfinite(j.armature[k]) || j.armature[k] < 0.0)
      return Error{"", 0, element + " armature[" + std::to_string(k) + "]", "a finite number >= 0",
                   error_number(j.armature[k])};
    if (!std::isfinite(j.friction[k]) || j.friction[k] < 0.0)
      return Error{"", 0, element + " friction[" + std::to_string(k) + "]", "a finite number >= 0",
                   error_number(j.friction[k])};
  }
  return std::nullopt;
}

std::optional<Error> validate_geometry(const Geometry& g, int nb, const std::string& element) {
  if (g.body < -1 || g.body >= nb)
    return Error{"", 0, element + " body", "an existing body or the world", std::to_string(g.body)};
  if (auto e = validate_pose(g.pose, element + " pose")) return e;
  auto positive = [&](double x, const char* what) -> std::optional<Error> {
    if (!std::isfinite(x) || x <= 0.0)
      return Error{"", 0, element + " " + what, "a finite number > 0", error_number(x)};
    return std::nullopt;
  };
  switch (g.type) {
    case ShapeType::Plane:
      break;
    case ShapeType::Sphere:
      if (auto e = positive(g.radius, "radius")) return e;
      break;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
      if (auto e = positive(g.radius, "radius")) return e;
      if (auto e = positive(g.half_length, "half_length")) return e;
      break;
    case ShapeType::Box:
    case ShapeType::Ellipsoid:
      for (int k = 0; k < 3; ++k)
        if (auto e = positive(g.half_extents[k], "half_extents")) return e;
      break;
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh:
      if (!g.mesh || g.mesh->vertices.empty())
        return Error{"", 0, element + " mesh", "a mesh with vertices", "an empty mesh"};
      break;
    case ShapeType::HeightField:
      if (!g.hfield || g.hfield->nrow < 2 || g.hfield->ncol < 2 ||
          g.hfield->elevation.size() != static_cast<size_t>(g.hfield->nrow) * g.hfield->ncol)
        return Error{"", 0, element + " hfield", "a height field of at least 2 x 2 points",
                     "an empty height field"};
      break;
  }
  if (!std::isfinite(g.material.friction) || g.material.friction < 0.0)
    return Error{"", 0, element + " friction", "a finite number >= 0",
                 error_number(g.material.friction)};
  if (!(g.material.restitution >= 0.0 && g.material.restitution <= 1.0))
    return Error{"", 0, element + " restitution", "a number in [0, 1]",
                 error_number(g.material.restitution)};
  if (!(g.material.stiffness > 0.0))  // +inf: rigid
    return Error{"", 0, element + " stiffness", "a number > 0 [N/m] (inf: rigid)",
                 error_number(g.material.stiffness)};
  if (!std::isnan(g.material.tau_d) &&
      !(g.material.tau_d >= 0.0 && std::isfinite(g.material.tau_d)))
    return Error{"", 0, element + " tau_d", "a finite time >= 0 [s] (NaN: unset)",
                 error_number(g.material.tau_d)};
  return std::nullopt;
}

int ModelBuilder::add_body(Body b) {
  m_.bodies_.push_back(std::move(b));
  return static_cast<int>(m_.bodies_.size()) - 1;
}

int ModelBuilder::add_joint(Joint j) {
  m_.joints_.push_back(std::move(j));
  return static_cast<int>(m_.joints_.size()) - 1;
}

int ModelBuilder::add_geometry(Geometry g) {
  m_.geometries_.push_back(std::move(g));
  return static_cast<int>(m_.geometries_.size()) - 1;
}

Result<Model> ModelBuilder::build() const {
  Model m = m_;
  const int nb = m.num_bodies();
  if (!m.gravity_.allFinite()) return Error{"", 0, "gravity", "finite numbers", "non-finite"};
  for (int i = 0; i < nb; ++i) {
    if (auto e = validate_body(m.bodies_[i], "body '" + m.bodies_[i].name + "'")) return *e;
    for (int k = 0; k < i; ++k)
      if (!m.bodies_[i].name.empty() && m.bodies_[k].name == m.bodies_[i].name)
        return Error{"", 0, "body '" + m.bodies_[i].name + "'", "a unique name", "a duplicate"};
  }
  m.inertia_inv_.resize(nb);
  for (int i = 0; i < nb; ++i) m.inertia_inv_[i] = m.bodies_[i].inertia.inverse();
  m.joint_rows_ = 0;
  for (const Joint& j : m.joints_) {
    if (auto e = validate_joint(j, nb, "joint '" + j.name + "'")) return *e;
    m.joint_rows_ += j.rows();
  }
  const int ng = static_cast<int>(m.geometries_.size());
  for (auto& [a, b] : m.exclusions_) {
    const std::string element =
        "collision exclusion of geometries " + std::to_string(a) + " and " + std::to_string(b);
    if (a < 0 || a >= ng || b < 0 || b >= ng)
      return Error{"", 0, element, "geometry indices in [0, " + std::to_string(ng) + ")",
                   "an index out of range"};
    if (a == b) return Error{"", 0, element, "two different geometries", "the same one twice"};
    if (a > b) std::swap(a, b);
  }
  std::sort(m.exclusions_.begin(), m.exclusions_.end());
  m.exclusions_.erase(std::unique(m.exclusions_.begin(), m.exclusions_.end()), m.exclusions_.end());
  m.body_geoms_.assign(nb + 1, {});
  for (size_t i = 0; i < m.geometries_.size(); ++i) {
    const Geometry& g = m.geometries_[i];
    if (auto e = validate_geometry(g, nb, "geometry '" + g.name + "'")) return *e;
    m.body_geoms_[g.body + 1].push_back(static_cast<int>(i));
  }
  return m;
}

std::vector<ActuatedDof> actuated_dofs(const Model& m) {
  std::vector<ActuatedDof> out;
  for (int jn = 0; jn < m.num_joints(); ++jn) {
    const Joint& j = m.joints()[jn];
    for (int k = 0; k < j.dofs(); ++k)
      if (j.actuators[k].mode != ActuationMode::Passive) out.push_back({jn, k});
  }
  return out;
}

double actuator_set_point(const DofActuator& a) {
  return a.mode == ActuationMode::Force ? a.force : a.target;
}

}  // namespace moreau
