// MJCF <geom>: shapes, fromto frames, materials, collision filters and mass properties.
#include <cmath>
#include <cstring>

#include <Eigen/Eigenvalues>

#include "moreau/io/mjcf_internal.hpp"

namespace moreau::mjcf {

GeomMass geom_mass(const Geometry& g) {
  GeomMass m;
  const double r = g.radius, h = 2.0 * g.half_length;
  const Vec3 a = g.half_extents;
  switch (g.type) {
    case ShapeType::Sphere:
      m.volume = 4.0 / 3.0 * M_PI * r * r * r;
      m.inertia_per_density = Mat3::Identity() * (0.4 * m.volume * r * r);
      break;
    case ShapeType::Capsule: {
      // Cylinder plus two hemispheres: exact (the hemispheres' CoMs sit 3r/8 beyond the caps).
      const double vs = 4.0 / 3.0 * M_PI * r * r * r, vc = M_PI * r * r * h;
      m.volume = vs + vc;
      const double ixx =
          vc * (3.0 * r * r + h * h) / 12.0 + vs * (0.4 * r * r + 0.25 * h * h + 0.375 * h * r);
      m.inertia_per_density = Vec3(ixx, ixx, 0.5 * vc * r * r + 0.4 * vs * r * r).asDiagonal();
      break;
    }
    case ShapeType::Cylinder: {
      m.volume = M_PI * r * r * h;
      const double ixx = m.volume * (3.0 * r * r + h * h) / 12.0;
      m.inertia_per_density = Vec3(ixx, ixx, 0.5 * m.volume * r * r).asDiagonal();
      break;
    }
    case ShapeType::Box: {
      m.volume = 8.0 * a.x() * a.y() * a.z();
      const Vec3 s = a.cwiseProduct(a);
      m.inertia_per_density =
          (m.volume / 3.0 * Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y())).asDiagonal();
      break;
    }
    case ShapeType::Ellipsoid: {
      m.volume = 4.0 / 3.0 * M_PI * a.x() * a.y() * a.z();
      const Vec3 s = a.cwiseProduct(a);
      m.inertia_per_density =
          (m.volume / 5.0 * Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y())).asDiagonal();
      break;
    }
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh: {
      // Closed triangle surface: signed tetrahedra from the origin (divergence theorem).
      Mat3 second = Mat3::Zero();  // integral of x x^T
      double vol = 0.0;
      Vec3 first = Vec3::Zero();
      for (const auto& t : g.mesh->triangles) {
        const Vec3 &p0 = g.mesh->vertices[t[0]], &p1 = g.mesh->vertices[t[1]],
                   &p2 = g.mesh->vertices[t[2]];
        const double v = p0.dot(p1.cross(p2)) / 6.0;
        vol += v;
        first += v * (p0 + p1 + p2) / 4.0;
        const Vec3 s = p0 + p1 + p2;
        second +=
            v / 20.0 *
            (p0 * p0.transpose() + p1 * p1.transpose() + p2 * p2.transpose() + s * s.transpose());
      }
      if (!(vol > 0.0)) break;
      m.volume = vol;
      m.com = first / vol;
      const Mat3 C = second - vol * m.com * m.com.transpose();  // about the CoM
      m.inertia_per_density = C.trace() * Mat3::Identity() - C;
      break;
    }
    case ShapeType::Plane:
    case ShapeType::HeightField:  // no volume: massless, like planes (docs/model-import.md)
      break;
  }
  return m;
}

namespace {

// Size, frame and shape; fromto overrides pos/orientation and the length.
Geometry shape(Context& c, const Attrs& a, const std::string& type) {
  Geometry g;
  const std::vector<double> size = a.nums("size", 0, 3, {});
  auto need = [&](size_t n) {
    if (size.size() < n)
      c.fail(a.e, a.element + " size", std::to_string(n) + " numbers for a " + type,
             std::to_string(size.size()));
  };
  g.pose = a.frame();
  const bool fromto = a.has("fromto");
  double half_len = 0.0;
  if (fromto) {
    const std::vector<double> ft = a.nums("fromto", 6, 6, {});
    const Vec3 p0(ft[0], ft[1], ft[2]), p1(ft[3], ft[4], ft[5]);
    if (!((p1 - p0).norm() > 1e-12))
      c.fail(a.e, a.element + " fromto", "two distinct points", "equal points");
    g.pose = {0.5 * (p0 + p1), z_to(p1 - p0)};
    half_len = 0.5 * (p1 - p0).norm();
  }
  if (type == "plane") {
    g.type = ShapeType::Plane;
  } else if (type == "sphere") {
    need(1), g.type = ShapeType::Sphere, g.radius = size[0];
  } else if (type == "capsule" || type == "cylinder") {
    g.type = type == "capsule" ? ShapeType::Capsule : ShapeType::Cylinder;
    need(fromto ? 1 : 2);
    g.radius = size[0];
    g.half_length = fromto ? half_len : size[1];
  } else if (type == "box" || type == "ellipsoid") {
    g.type = type == "box" ? ShapeType::Box : ShapeType::Ellipsoid;
    need(fromto ? 2 : 3);
    g.half_extents = Vec3(size[0], size[1], fromto ? half_len : size[2]);
  } else if (type == "mesh") {
    const std::string name = a.str("mesh", "");
    auto it = c.meshes.find(name);
    if (it == c.meshes.end())
      c.fail(a.e, a.element + " mesh", "the name of an <asset><mesh>", "'" + name + "'");
    MeshAsset& asset = it->second;
    if (!asset.hull) {
      Result<std::shared_ptr<const MeshData>> hull = load_mesh_hull(asset.file, asset.scale);
      if (!hull)
        c.fail(a.e, a.element + " mesh '" + name + "'", "a readable mesh file with a 3-D hull",
               hull.error().message());
      // MuJoCo re-centres a mesh at its centroid and aligns it with its principal axes, and moves
      // the geom's frame by the same offset, so the hull stays where the file puts it.
      Geometry probe;
      probe.type = ShapeType::ConvexMesh;
      probe.mesh = *hull;
      const GeomMass gm = geom_mass(probe);
      Eigen::SelfAdjointEigenSolver<Mat3> es(gm.inertia_per_density);
      Mat3 R = es.eigenvectors();
      if (R.determinant() < 0.0) R.col(2) = -R.col(2);
      auto mesh = std::make_shared<MeshData>(**hull);
      for (Vec3& v : mesh->vertices) v = R.transpose() * (v - gm.com);
      asset.hull = mesh;
      asset.frame = Pose{gm.com, Quat(R).normalized()};
    }
    g.pose = g.pose * asset.frame;
    g.type = ShapeType::ConvexMesh;
    g.mesh = asset.hull;
  } else if (type == "hfield") {
    const std::string name = a.str("hfield", "");
    auto it = c.hfields.find(name);
    if (it == c.hfields.end())
      c.fail(a.e, a.element + " hfield", "the name of an <asset><hfield>", "'" + name + "'");
    g.type = ShapeType::HeightField;
    g.hfield = it->second;
  } else {
    c.fail(a.e, a.element + " type",
           "plane, sphere, capsule, cylinder, box, ellipsoid, mesh or hfield", "'" + type + "'");
  }
  return g;
}

}  // namespace

// Parses a <geom> (pose in its body frame); mass and inertia (about the geom CoM, in the body
// frame) returned through m, c_out, I (zero for planes or mass 0).
Geometry parse_geom(Context& c, const Element* e, const std::string& cls, double* mass, Vec3* com,
                    Mat3* inertia) {
  const char* nm = e->Attribute("name");
  const std::string element =
      std::string("geom '") + (nm ? nm : "#" + std::to_string(c.unnamed++)) + "'";
  Attrs a(c, e, cls, element);
  const std::string type = a.str("type", "sphere");
  Geometry g = shape(c, a, type);
  g.name = nm ? nm : "";
  const std::vector<double> fr = a.nums("friction", 1, 3, {1.0});
  g.material.friction = fr[0];
  const int contype = a.integer("contype", 1), conaffinity = a.integer("conaffinity", 1);
  g.group = static_cast<uint32_t>(contype);
  g.mask = static_cast<uint32_t>(conaffinity);
  g.filter_either = true;  // (contype1 & conaffinity2) || (contype2 & conaffinity1)
  a.ignore_attrs(
      {"condim", "solref", "solimp", "solmix", "margin", "gap", "priority", "fluidshape"});
  if (auto err = validate_geometry(g, 0, element)) c.fail(e, err->element, err->expected, err->got);
  *mass = 0.0;
  *com = g.pose.p;
  *inertia = Mat3::Zero();
  if (g.type != ShapeType::Plane) {
    const GeomMass gm = geom_mass(g);
    const double density = a.num("density", 1000.0);
    const double m = a.has("mass") ? a.num("mass", 0.0) : density * gm.volume;
    if (!(m >= 0.0)) c.fail(e, element + " mass", "a mass >= 0", std::to_string(m));
    if (gm.volume > 0.0) {
      const Mat3 R = g.pose.R();
      *mass = m;
      *com = g.pose * gm.com;
      *inertia = R * (gm.inertia_per_density * (m / gm.volume)) * R.transpose();
    }
  }
  return g;
}

}  // namespace moreau::mjcf
