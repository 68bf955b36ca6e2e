// Pair dispatch: analytic routines where they exist, GJK/EPA otherwise, meshes through a BVH,
// mesh-mesh pairs through their convex hulls or triangle by triangle, height fields prism by prism.
#include "moreau/collision/narrowphase.hpp"

#include "moreau/collision/polyhedron.hpp"

namespace moreau {

namespace {
// Strict order on poses so that same-type pairs are always computed in the same roles.
bool pose_less(const Pose& x, const Pose& y) {
  for (int k = 0; k < 3; ++k)
    if (x.p[k] != y.p[k]) return x.p[k] < y.p[k];
  for (int k = 0; k < 4; ++k)
    if (x.q.coeffs()[k] != y.q.coeffs()[k]) return x.q.coeffs()[k] < y.q.coeffs()[k];
  return false;
}
}  // namespace

void flip_contacts(std::vector<ContactPoint>& out, size_t first) {
  for (size_t i = first; i < out.size(); ++i) {
    ContactPoint& c = out[i];
    c.point += c.gap * c.normal;
    c.normal = -c.normal;
  }
}

void collide(const PairInput& a, const PairInput& b, double margin, std::vector<ContactPoint>& out,
             const Vec3* hint, Vec3* separation, HullPairCache* cache) {
  const ShapeType ta = a.g->type, tb = b.g->type;
  // Triangle-level mesh-mesh pairs keep the detector's roles: the feature ids name A's and B's
  // vertices, which must not swap when the poses' order does.
  if (a.closed && b.closed && a.bvh && b.bvh)
    return collide_closed_meshes(*a.closed, *a.bvh, a.X, *b.closed, *b.bvh, b.X, margin, out);
  if (ta > tb ||
      (ta == tb && pose_less(b.X, a.X))) {  // canonical order (type, pose), then flip back
    const size_t first = out.size();
    const Vec3 flipped = hint ? Vec3(-*hint) : Vec3::Zero();
    Vec3 sep = Vec3::Zero();
    collide(b, a, margin, out, hint ? &flipped : nullptr, separation ? &sep : nullptr, cache);
    flip_contacts(out, first);
    if (separation && sep.squaredNorm() > 0.0) *separation = -sep;
    return;
  }
  const PlacedShape sa{a.g, a.X, a.R ? *a.R : a.X.R(), nullptr, 3},
      sb{b.g, b.X, b.R ? *b.R : b.X.R(), nullptr, 3};
  if (ta == ShapeType::Plane) {
    if (tb == ShapeType::Plane) return;
    if (cache) sb.climb = cache->plane_climb;
    collide_plane(sa, sb, margin, out);
    if (cache) cache->plane_climb = sb.climb;
    return;
  }
  if (tb == ShapeType::HeightField) {  // every shape but planes and height fields
    if (ta != ShapeType::HeightField) collide_height_field(sb, sa, false, margin, out);
    return;
  }
  if (tb == ShapeType::TriangleMesh) {
    if (ta != ShapeType::TriangleMesh) return collide_mesh(sb, b.bvh, sa, false, margin, out);
    // Mesh-mesh: the convex hulls of both (docs/collision.md); without a hull, no contacts (the
    // detector's warnings() says so at construction).
    if (a.hull && b.hull) collide_polyhedra(*a.hull, a.X, *b.hull, b.X, margin, out);
    return;
  }
  if (ta == ShapeType::Sphere && tb == ShapeType::Sphere)
    return collide_sphere_sphere(sa, sb, margin, out);
  if (ta == ShapeType::Sphere && tb == ShapeType::Capsule)
    return collide_sphere_capsule(sa, sb, margin, out);
  if (ta == ShapeType::Capsule && tb == ShapeType::Capsule)
    return collide_capsule_capsule(sa, sb, margin, out);
  if (ta == ShapeType::Sphere && tb == ShapeType::Box)
    return collide_sphere_box(sa, sb, margin, out);
  if (ta == ShapeType::Box && tb == ShapeType::Box) return collide_box_box(sa, sb, margin, out);
  if (ta == ShapeType::Capsule && tb == ShapeType::Box)
    return collide_capsule_box(sa, sb, margin, out);
  ContactPoint c;
  if (!convex_distance(sa, sb, &c, margin, hint, separation, cache)) return;
  if (c.gap < margin)
    out.push_back(c);
  else if (separation)
    *separation = c.normal;  // gap = -psi(normal) >= margin
}

}  // namespace moreau
