// General convex pairs: libccd's GJK/EPA through FCL's libccd extension (signed distance with
// witness points), then a Newton refinement of the support-function optimality condition
//   d = max_{|n| = 1} -(h_A(n) + h_B(-n)),   n* = normal from A to B,
// which every direction bounds from below (so refinement only accepts improvements).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fcl/narrowphase/detail/convexity_based_algorithm/gjk_libccd-inl.h>

#include "moreau/collision/narrowphase.hpp"

namespace moreau {

namespace {
// Any orthonormal completion [t, o, n] of a unit normal.
Mat3 frame_from_normal_local(const Vec3& n) {
  const Vec3 helper = std::abs(n.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 t = n.cross(helper).normalized();
  Mat3 F;
  F.col(0) = t;
  F.col(1) = n.cross(t);
  F.col(2) = n;
  return F;
}

void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* v) {
  const auto* s = static_cast<const PlacedShape*>(obj);
  const Vec3 x = support(*s, Vec3(dir->v[0], dir->v[1], dir->v[2]));
  for (int k = 0; k < 3; ++k) v->v[k] = x[k];
}

void ccd_center(const void* obj, ccd_vec3_t* c) {
  const auto* s = static_cast<const PlacedShape*>(obj);
  const Vec3 x = s->tri ? s->tri_center() : s->X.p;
  for (int k = 0; k < 3; ++k) c->v[k] = x[k];
}

// libccd on two PlacedShapes: their supports and centres, 500 iterations, GJK's distance to 1e-12.
ccd_t ccd_settings() {
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccd_support;
  ccd.support2 = ccd_support;
  ccd.center1 = ccd_center;
  ccd.center2 = ccd_center;
  ccd.max_iterations = 500;
  ccd.dist_tolerance = 1e-12;
  return ccd;
}

// psi(n) = h_A(n) + h_B(-n); the signed distance estimate of direction n is -psi(n).
double psi(const PlacedShape& a, const PlacedShape& b, const Vec3& n) {
  return n.dot(support(a, n)) - n.dot(support(b, -n));
}

// Tangent-plane gradient of psi at unit n: P (s_A(n) - s_B(-n)).
Eigen::Vector2d grad(const PlacedShape& a, const PlacedShape& b, const Vec3& n, const Vec3& t,
                     const Vec3& o) {
  const Vec3 w = support(a, n) - support(b, -n);
  return {t.dot(w), o.dot(w)};
}

// Newton's method on the sphere, n(x) = normalize(n + x0 t + x1 o), Hessian by differences of
// the support gradient. Converges quadratically where both supports are smooth.
Vec3 refine(const PlacedShape& a, const PlacedShape& b, Vec3 n, double scale) {
  double f = psi(a, b, n);
  double radius = 0.5;  // [rad]
  for (int it = 0; it < 40; ++it) {
    const Mat3 F = frame_from_normal_local(n);
    const Vec3 t = F.col(0), o = F.col(1);
    const Eigen::Vector2d g = grad(a, b, n, t, o);
    if (g.norm() <= 1e-15 * scale) break;
    const double h = 1e-7;
    Eigen::Matrix2d H;
    for (int k = 0; k < 2; ++k) {
      const Vec3 nk = (n + h * (k == 0 ? t : o)).normalized();
      const Vec3 w = support(a, nk) - support(b, -nk);
      // gradient at nk expressed in (t, o), corrected for the moving normal: d/dx of P(x) w(x)
      H.col(k) = (Eigen::Vector2d(t.dot(w), o.dot(w)) - g) / h;
    }
    H = 0.5 * (H + H.transpose());
    H -= f *
         Eigen::Matrix2d::Identity();  // curvature of the sphere: psi(n(x)) ~ psi - |x|^2 psi / 2
    Eigen::Vector2d step;
    Eigen::LLT<Eigen::Matrix2d> llt(H);
    if (llt.info() == Eigen::Success)
      step = -llt.solve(g);
    else
      step = -g / std::max(scale, 1e-300);
    // A trust region on the sphere: across a kink the differenced Hessian is nearly singular and
    // the Newton step far too long (humanoid100: 15 halvings per iteration without it).
    if (const double len = step.norm(); len > radius) step *= radius / len;
    bool improved = false;
    for (int ls = 0; ls < 30 && !improved && step.norm() > 1e-15; ++ls, step *= 0.5) {
      const Vec3 m = (n + step.x() * t + step.y() * o).normalized();
      const double fm = psi(a, b, m);
      if (fm < f) {
        n = m;
        f = fm;
        improved = true;
        radius = 2.0 * step.norm();
      }
    }
    if (!improved) break;
  }
  return n;
}

// Min-norm element of the convex hull of k points in R^2 (brute force over points, segments and
// triangles; k <= 9).
Eigen::Vector2d min_norm_hull(const Eigen::Vector2d* g, int k) {
  Eigen::Vector2d best = g[0];
  for (int i = 0; i < k; ++i) {
    if (g[i].squaredNorm() < best.squaredNorm()) best = g[i];
    for (int j = i + 1; j < k; ++j) {
      const Eigen::Vector2d e = g[j] - g[i];
      const double L = e.squaredNorm();
      if (L <= 0.0) continue;
      const double t = std::clamp(-g[i].dot(e) / L, 0.0, 1.0);
      const Eigen::Vector2d p = g[i] + t * e;
      if (p.squaredNorm() < best.squaredNorm()) best = p;
      for (int m = j + 1; m < k; ++m) {  // origin inside the triangle: 0 is in the hull
        auto cr = [](const Eigen::Vector2d& u, const Eigen::Vector2d& v) {
          return u.x() * v.y() - u.y() * v.x();
        };
        const double c1 = cr(g[j] - g[i], -g[i]), c2 = cr(g[m] - g[j], -g[j]),
                     c3 = cr(g[i] - g[m], -g[m]);
        if ((c1 >= 0 && c2 >= 0 && c3 >= 0) || (c1 <= 0 && c2 <= 0 && c3 <= 0))
          return Eigen::Vector2d::Zero();
      }
    }
  }
  return best;
}

// Gradient sampling on the sphere (Burke, Lewis, Overton): descent along the min-norm element of
// the gradients sampled within radius eps; shrinks eps when it is stationary at that radius, or
// after kMaxAtRadius steps at it (steps are at most 4 eps long: without the cap a descent along a
// ridge took hundreds of steps per radius, 0.3-1.7 ms per cylinder-cylinder or capsule-box pair,
// for the same distance to 1e-12). Handles the kinks (ridges) of box, cylinder and capsule
// support functions.
Vec3 gradient_sampling(const PlacedShape& a, const PlacedShape& b, Vec3 n) {
  constexpr int kMaxAtRadius = 25;
  double f = psi(a, b, n);
  double eps = 1e-3;
  int at_radius = 0;
  auto shrink = [&]() {
    eps *= 0.1;
    at_radius = 0;
  };
  for (int it = 0; it < 2000 && eps > 1e-11; ++it) {
    if (++at_radius > kMaxAtRadius) shrink();
    const Mat3 F = frame_from_normal_local(n);
    const Vec3 t = F.col(0), o = F.col(1);
    auto at = [&](const Eigen::Vector2d& x) {
      return Vec3((n + x.x() * t + x.y() * o).normalized());
    };
    Eigen::Vector2d g[9];
    for (int k = 0; k < 9; ++k) {
      const Eigen::Vector2d x = k == 0 ? Eigen::Vector2d::Zero()
                                       : Eigen::Vector2d(eps * std::cos(k * 0.7853981633974483),
                                                         eps * std::sin(k * 0.7853981633974483));
      const Vec3 m = at(x);
      Vec3 w = support(a, m) - support(b, -m);
      w -= m.dot(w) * m;  // tangent part at m
      g[k] = Eigen::Vector2d(t.dot(w), o.dot(w)) / (n + x.x() * t + x.y() * o).norm();
    }
    const Eigen::Vector2d d = min_norm_hull(g, 9);
    const double dn = d.norm();
    if (dn <= 1e-14) {
      shrink();
      continue;
    }
    bool moved = false;
    // Down to a tenth of the radius: a descent that needs a shorter step is the next radius's
    // (halving to 1e-16 cost 45 support evaluations per failed search, a third of the sampling).
    for (double alpha = 4.0 * eps; alpha > 0.1 * eps; alpha *= 0.5) {
      const Vec3 m = at(-alpha * d / dn);
      const double fm = psi(a, b, m);
      if (fm <= f - 1e-4 * alpha * dn) {
        n = m;
        f = fm;
        moved = true;
        break;
      }
    }
    if (!moved) shrink();
  }
  return n;
}
// Local axes along which a shape's support function has a ridge (kink where the direction is
// perpendicular to the axis): the 3 box axes, the axis of cylinders and capsules.
int ridge_axes(const PlacedShape& s, Vec3* axes) {
  if (s.tri) return 0;
  switch (s.g->type) {
    case ShapeType::Box:
      for (int k = 0; k < 3; ++k) axes[k] = s.R.col(k);
      return 3;
    case ShapeType::Cylinder:
    case ShapeType::Capsule:
      axes[0] = s.R.col(2);
      return 1;
    default:
      return 0;
  }
}

// When n lies on a ridge (n . axis ~ 0), minimize psi on that great circle by golden section:
// the along-ridge optimum that a sampling method approaches only slowly.
Vec3 ridge_refine(const PlacedShape& a, const PlacedShape& b, Vec3 n) {
  Vec3 axes[6];
  const int na = ridge_axes(a, axes);
  const int nb = na + ridge_axes(b, axes + na);
  double f = psi(a, b, n);
  for (int k = 0; k < nb; ++k) {
    const Vec3& ax = axes[k];
    if (std::abs(n.dot(ax)) > 1e-6) continue;
    const Vec3 u = (n - n.dot(ax) * ax).normalized(), v = ax.cross(u);
    auto g = [&](double th) { return psi(a, b, std::cos(th) * u + std::sin(th) * v); };
    double lo = -1e-2, hi = 1e-2;
    const double phi = 0.6180339887498949;
    double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo), f1 = g(x1), f2 = g(x2);
    while (hi - lo > 1e-14) {
      if (f1 < f2)
        hi = x2, x2 = x1, f2 = f1, x1 = hi - phi * (hi - lo), f1 = g(x1);
      else
        lo = x1, x1 = x2, f1 = f2, x2 = lo + phi * (hi - lo), f2 = g(x2);
    }
    const double th = 0.5 * (lo + hi);
    const Vec3 m = std::cos(th) * u + std::sin(th) * v;
    const double fm = psi(a, b, m);
    if (fm < f) n = m, f = fm;
  }
  return n;
}
// Centre and extent of s's support set along d (a vertex, edge or face of a box; a point or the
// side segment of a capsule or cylinder): the mean and spread of the supports along d tilted
// toward the four diagonals of its tangent plane.
std::pair<Vec3, double> support_set(const PlacedShape& s, const Vec3& d) {
  const Mat3 F = frame_from_normal_local(d);
  constexpr double kTilt = 1e-7;
  Vec3 p[4];
  Vec3 mean = Vec3::Zero();
  for (int k = 0; k < 4; ++k) {
    const double st = (k & 1) ? kTilt : -kTilt, so = (k & 2) ? kTilt : -kTilt;
    p[k] = support(s, (d + st * F.col(0) + so * F.col(1)).normalized());
    mean += 0.25 * p[k];
  }
  double extent = 0.0;
  for (int k = 0; k < 4; ++k) extent = std::max(extent, (p[k] - mean).norm());
  return {mean, extent};
}

// Contact point of two shapes with kinked supports, on A's supporting plane along n: the centre of
// the smaller support set (a box's corner or face against a capsule's 6 m side, a capsule's side
// on a box face), which lies in the contact region. The GJK/EPA witness used before could sit a
// metre along a long capsule from the box it touched, from EPA's direction rather than the refined
// normal, so that the contact's normal velocity had the wrong sign (humanoid100: a box sinking into
// the static capsule; docs/collision.md).
Vec3 kinked_contact_point(const PlacedShape& a, const PlacedShape& b, const Vec3& n, double gap) {
  const auto [ca, ea] = support_set(a, n);
  const auto [cb, eb] = support_set(b, -n);
  if (ea <= eb) return ca;
  return cb - gap * n;  // B's set moved onto A's supporting plane
}
// Squared distance from the segment c + t u, |t| <= h, to the box |x_k| <= e_k (all in the box's
// frame), and the minimizing t. The squared distance is convex and piecewise quadratic in t, with
// breakpoints where the segment crosses a slab's face; each piece is minimized exactly.
double segment_box_dist2(const Vec3& c, const Vec3& u, double h, const Vec3& e, double* t_min) {
  double bp[8];
  int nb = 0;
  bp[nb++] = -h;
  for (int k = 0; k < 3; ++k) {
    if (u[k] == 0.0) continue;
    for (const double face : {-e[k], e[k]}) {
      const double t = (face - c[k]) / u[k];
      if (t > -h && t < h) bp[nb++] = t;
    }
  }
  bp[nb++] = h;
  std::sort(bp, bp + nb);
  auto f = [&](double t) {
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double x = std::abs(c[k] + t * u[k]) - e[k];
      if (x > 0.0) d2 += x * x;
    }
    return d2;
  };
  double best = f(bp[0]), tb = bp[0];
  for (int i = 0; i + 1 < nb; ++i) {
    if (!(bp[i + 1] > bp[i])) continue;
    // On (bp[i], bp[i+1]) each coordinate is inside its slab or beyond one face throughout: the
    // piece is sum over the outside coordinates of (c_k + t u_k - s_k e_k)^2, a quadratic.
    const double mid = 0.5 * (bp[i] + bp[i + 1]);
    double A = 0.0, B = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double x = c[k] + mid * u[k];
      if (std::abs(x) <= e[k]) continue;
      const double off = c[k] - (x > 0.0 ? e[k] : -e[k]);
      A += u[k] * u[k];
      B += off * u[k];
    }
    double t = bp[i + 1];
    if (A > 0.0) t = std::clamp(-B / A, bp[i], bp[i + 1]);
    for (const double x : {t, bp[i + 1]})
      if (const double fx = f(x); fx < best) best = fx, tb = x;
  }
  *t_min = tb;
  return best;
}

// A hull with its vertex graph and the triangles at each vertex (mesh_io.cpp): a polytope whose
// supporting vertex the climb names.
bool graph_polytope(const PlacedShape& s) {
  if (s.tri || s.g->type != ShapeType::ConvexMesh || !s.g->mesh) return false;
  const MeshData& m = *s.g->mesh;
  return m.neighbor_start.size() == m.vertices.size() + 1 &&
         m.triangle_start.size() == m.vertices.size() + 1;
}

// The supporting vertex of a graph polytope along d (the vertex the climb ended on).
int support_vertex(const PlacedShape& s, const Vec3& d) {
  support(s, d);
  return s.climb;
}

// psi(m) for two graph polytopes, climbing from the vertices va of A and vb of B, where it is below
// `cutoff`; otherwise a value >= cutoff: each climb step raises a lower bound of psi(m) (h_A(m) >=
// m . x for every vertex x of A), and the climbs stop once it reaches the cutoff.
double psi_below(const PlacedShape& a, const PlacedShape& b, const Vec3& m, int va, int vb,
                 double cutoff) {
  const MeshData &ma = *a.g->mesh, &mb = *b.g->mesh;
  const Vec3 da = a.R.transpose() * m, db = -(b.R.transpose() * m);
  double ha = da.dot(ma.vertices[va]), hb = db.dot(mb.vertices[vb]);
  const double offset = m.dot(a.X.p) - m.dot(b.X.p);
  auto climb = [&](const MeshData& g, const Vec3& d, int& best, double& h, double other) {
    for (int at = -1; at != best;) {
      if (offset + h + other >= cutoff) return false;
      at = best;
      for (int k = g.neighbor_start[at]; k < g.neighbor_start[at + 1]; ++k) {
        const int n = g.neighbors[k];
        if (const double x = g.vertices[n].dot(d); x > h) h = x, best = n;
      }
    }
    return true;
  };
  if (!climb(ma, da, va, ha, hb) || !climb(mb, db, vb, hb, ha)) return cutoff;
  return offset + ha + hb;
}

// Two penetrating polytopes: the depth min psi(n) is attained at a facet normal of the Minkowski
// difference A - B (a face normal of A, the negated face normal of B, or the cross product of an
// edge of each). From n, the facets through the supporting vertices s_A(n) and s_B(-n) are
// enumerated and the best taken, until none improves: a descent over the facets that ends on
// an exact facet normal. Every direction bounds the depth (psi(n) >= min psi), so it only accepts
// improvements. A candidate m is evaluated (two support climbs) only where its lower bound
// m . (s_A - s_B) <= psi(m) is below the best so far, in the order of those bounds. *complete:
// false where a vertex pair had more than kMaxCandidates facets (the rest not enumerated).
Vec3 facet_walk(const PlacedShape& a, const PlacedShape& b, Vec3 n, bool* complete) {
  const MeshData &ma = *a.g->mesh, &mb = *b.g->mesh;
  constexpr int kMaxCandidates = 1024;
  struct Candidate {
    double bound;
    Vec3 m;
  };
  std::array<Candidate, kMaxCandidates> cand;
  double f = psi(a, b, n);
  for (int it = 0; it < 64; ++it) {
    const int va = support_vertex(a, n), vb = support_vertex(b, -n);
    const Vec3 w = a.X.p + a.R * ma.vertices[va] - (b.X.p + b.R * mb.vertices[vb]);
    int count = 0;
    auto add = [&](Vec3 m, bool orient) {
      const double len = m.norm();
      if (!(len > 0.0)) return;
      if (count == kMaxCandidates) {
        *complete = false;
        return;
      }
      m /= len;
      if (orient && m.dot(n) < 0.0) m = -m;
      cand[count++] = {m.dot(w), m};
    };
    auto face_normal = [](const MeshData& m, int t) {
      const auto& tr = m.triangles[t];
      const Vec3& x0 = m.vertices[tr[0]];
      return Vec3((m.vertices[tr[1]] - x0).cross(m.vertices[tr[2]] - x0));
    };
    for (int k = ma.triangle_start[va]; k < ma.triangle_start[va + 1]; ++k)
      add(a.R * face_normal(ma, ma.vertex_triangles[k]), false);
    for (int k = mb.triangle_start[vb]; k < mb.triangle_start[vb + 1]; ++k)
      add(-(b.R * face_normal(mb, mb.vertex_triangles[k])), false);
    for (int i = ma.neighbor_start[va]; i < ma.neighbor_start[va + 1]; ++i) {
      const Vec3 ea = a.R * (ma.vertices[ma.neighbors[i]] - ma.vertices[va]);
      for (int j = mb.neighbor_start[vb]; j < mb.neighbor_start[vb + 1]; ++j) {
        const Vec3 eb = b.R * (mb.vertices[mb.neighbors[j]] - mb.vertices[vb]);
        const Vec3 L = ea.cross(eb);
        if (L.squaredNorm() > 1e-18 * ea.squaredNorm() * eb.squaredNorm()) add(L, true);
      }
    }
    std::sort(cand.begin(), cand.begin() + count,
              [](const Candidate& x, const Candidate& y) { return x.bound < y.bound; });
    Vec3 best = n;
    double fb = f;
    for (int k = 0; k < count && cand[k].bound < fb; ++k)  // supports at or next to s_A, s_B
      if (const double fm = psi_below(a, b, cand[k].m, va, vb, fb); fm < fb)
        fb = fm, best = cand[k].m;
    if (!(fb < f)) break;
    n = best;
    f = fb;
  }
  return n;
}

// The contact of two convex shapes (no triangle of a mesh) along their normal n: a strictly convex
// shape's unique support point, else the centre of the smaller support set (docs/collision.md).
ContactPoint pair_contact(const PlacedShape& a, const PlacedShape& b, const Vec3& n, double gap) {
  ContactPoint c;
  c.normal = n;
  c.gap = gap;
  if (strictly_convex(a.g->type))
    c.point = support(a, n);
  else if (strictly_convex(b.g->type))
    c.point = support(b, -n) - gap * n;
  else
    c.point = kinked_contact_point(a, b, n, gap);
  c.feature = 0;
  return c;
}

// A sphere or capsule A against a hull B whose core (A's centre or segment) lies outside B: the
// signed distance is the core's distance to B less A's radius, and GJK, exact on a polytope in
// finitely many steps, gives the normal by its closest points, a direction no kink of B's support
// leaves in doubt (no EPA, refinement or sampling: the G1's sphere-hull pairs took 20-70 us each).
// The gap reported is -psi(n), the distance's lower bound along that normal, as elsewhere. Returns
// false where the core touches B to within 1e-6 of the shapes' size (its witnesses no longer give
// the direction) or GJK fails: the general path decides. Else sets *found: a contact in *out, or a
// separation proof (-(h_A(n) + h_B(-n)) = gap >= max_gap for n from A to B) in *separation.
bool swept_core_distance(const PlacedShape& a, const PlacedShape& b, ContactPoint* out,
                         double max_gap, Vec3* separation, bool* found) {
  Geometry core;
  core.type = a.g->type;
  core.radius = 0.0;
  core.half_length = a.g->type == ShapeType::Capsule ? a.g->half_length : 0.0;
  const PlacedShape c{&core, a.X, a.R, nullptr, 3};
  ccd_t ccd = ccd_settings();
  ccd_vec3_t p1, p2;
  const double dist = fcl::detail::libccd_extension::ccdGJKDist2(&c, &b, &ccd, &p1, &p2);
  const Vec3 wa(p1.v[0], p1.v[1], p1.v[2]), wb(p2.v[0], p2.v[1], p2.v[2]);
  if (!(dist >= 0.0) || !wa.allFinite() || !wb.allFinite()) return false;
  const double size = (support(b, Vec3::UnitX()) - support(b, -Vec3::UnitX())).norm() +
                      (support(b, Vec3::UnitZ()) - support(b, -Vec3::UnitZ())).norm() +
                      2.0 * (a.g->radius + core.half_length);
  const Vec3 d = wb - wa;
  const double len = d.norm();
  if (len < 1e-6 * size) return false;
  const Vec3 n = d / len;
  const double gap = -psi(a, b, n);
  if (gap >= max_gap) {
    if (separation) *separation = n;
    *found = false;
    return true;
  }
  // GJK's closest point on the core, moved out by the radius: exact for a sphere, and for a
  // capsule wherever its closest points are unique. A capsule parallel to a face (the closest
  // points a segment) gets one point of that segment, where pair_contact's centre of the smaller
  // support set is no better: GJK's normal is a face's to rounding only, so the face's tilted
  // supports give one corner, a point outside the contact.
  *out = ContactPoint{wa + a.g->radius * n, n, gap, 0};
  *found = true;
  return true;
}

}  // namespace

bool separated_along(const PlacedShape& a, const PlacedShape& b, const Vec3& n, double margin) {
  return -psi(a, b, n) >= margin;
}

bool convex_distance(const PlacedShape& a, const PlacedShape& b, ContactPoint* out, double max_gap,
                     const Vec3* hint, Vec3* separation, HullPairCache* cache) {
  const Vec3 ca = a.tri ? a.tri_center() : a.X.p;
  const Vec3 cb = b.tri ? b.tri_center() : b.X.p;
  // Farther than max_gap along the line of centres (-psi is the gap of the two support planes
  // along a unit direction, a lower bound of the distance): no GJK (humanoid100's resting objects:
  // most of the broad phase's pairs).
  if (const Vec3 d = cb - ca; d.squaredNorm() > 0.0) {
    const Vec3 u = d.normalized();
    if (-psi(a, b, u) >= max_gap) {
      if (separation) *separation = u;
      return false;
    }
  }
  if (!a.tri && !b.tri && b.g->type == ShapeType::ConvexMesh &&
      (a.g->type == ShapeType::Sphere || a.g->type == ShapeType::Capsule)) {
    bool found = false;
    if (swept_core_distance(a, b, out, max_gap, separation, &found)) return found;
  }
  const bool polytopes = graph_polytope(a) && graph_polytope(b);
  const bool hinted = hint && hint->allFinite() && hint->squaredNorm() > 0.0;
  // B's pose in A's frame, against the cached answer's. psi_n, for a fixed n in A's frame, and its
  // minimum over n each move by at most |dp| + reach |dR| (a point of B moves by no more), so the
  // gap along the cached normal is within twice that of the distance: for any two convex shapes.
  const bool cached = cache && !a.tri && !b.tri;
  const Vec3 p_rel = cached ? Vec3(a.R.transpose() * (b.X.p - a.X.p)) : Vec3::Zero();
  const Mat3 R_rel = cached ? Mat3(a.R.transpose() * b.R) : Mat3::Identity();
  if (cached && cache->a == a.g) {
    constexpr double kCachedGapError = 1e-10;  // [m]
    const double moved = (p_rel - cache->p).norm() + cache->reach * (R_rel - cache->R).norm();
    if (2.0 * moved <= kCachedGapError) {
      const Vec3 n = a.R * cache->normal;
      const double f = psi(a, b, n);
      if (-f >= max_gap) {
        if (separation) *separation = n;
        return false;
      }
      *out = pair_contact(a, b, n, -f);
      return true;
    }
  }
  // Two hulls apart by the margin along the step before's normal: no GJK.
  if (polytopes && hinted && -psi(a, b, hint->normalized()) >= max_gap) {
    if (separation) *separation = hint->normalized();
    return false;
  }
  ccd_t ccd = ccd_settings();
  // EPA only seeds the refinement below, which settles the depth: at 1e-8 its polytope grew to
  // thousands of faces on curved shapes (humanoid100's capsule-ellipsoid pairs: 400 us each, 1.3 ms
  // per step); at 1e-6 the refined depths of that run moved by at most 2.4e-6 m on 1 pair in
  // 13,000.
  ccd.epa_tolerance = 1e-6;
  // Separated: GJK distance with witnesses (FCL's libccd extension). Penetrating: libccd's EPA
  // (exact for polytopes), MPR if EPA fails; FCL's EPA is avoided (it can crash on curved shapes).
  ccd_vec3_t p1, p2;
  const double dist = fcl::detail::libccd_extension::ccdGJKDist2(&a, &b, &ccd, &p1, &p2);
  Vec3 n, wa;
  if (dist >= 0.0) {
    wa = Vec3(p1.v[0], p1.v[1], p1.v[2]);
    n = Vec3(p2.v[0], p2.v[1], p2.v[2]) - wa;
  } else {
    ccd_real_t depth = 0.0;
    ccd_vec3_t dir, pos;
    if (ccdGJKPenetration(&a, &b, &ccd, &depth, &dir, &pos) != 0 &&
        ccdMPRPenetration(&a, &b, &ccd, &depth, &dir, &pos) != 0)
      return false;
    n = Vec3(dir.v[0], dir.v[1], dir.v[2]);  // translating B by depth * dir separates: from A to B
    wa = Vec3(pos.v[0], pos.v[1], pos.v[2]);
  }
  if (!n.allFinite() || !wa.allFinite()) return false;
  if (n.norm() > 1e-12)
    n.normalize();
  else
    n = (cb - ca).norm() > 0.0 ? Vec3((cb - ca).normalized()) : Vec3::UnitZ();
  if (psi(a, b, -n) < psi(a, b, n)) n = -n;
  if (dist >= 0.0 && -psi(a, b, n) >= max_gap) {  // certainly farther than max_gap
    if (separation) *separation = n;
    return false;
  }
  const double scale = std::max(
      (support(a, n) - support(a, -n)).norm() + (support(b, n) - support(b, -n)).norm(), 1e-12);
  const bool smooth = strictly_convex(a.g->type) && strictly_convex(b.g->type) && !a.tri && !b.tri;
  // Touching to within 1e-6 of the shapes' size, GJK's witnesses no longer give the direction (n
  // is their difference, of the order of the distance and of its error: humanoid100's cylinder
  // touching the static capsule at 3e-10 m got n 80 degrees off, and the refinement a false depth
  // of 0.42 m): such a pair takes the sampling below, as a penetrating one does.
  const bool witness_unreliable = dist >= 0.0 && dist < 1e-6 * scale;
  // Two hulls: penetrating or touching, EPA is exact on polytopes up to its tolerance, and the
  // facet walk from its direction ends on the exact facet (docs/collision.md, "Hull-hull pairs").
  // Apart, GJK's direction is exact up to its tolerance (closest vertices or edges need not give a
  // facet normal), and the walk from it only accepts improvements.
  bool sample = (dist < 0.0 && !smooth) || witness_unreliable;
  bool complete = true;  // every facet walk enumerated all its candidates
  auto polish = [&](const Vec3& m) {
    return polytopes ? facet_walk(a, b, m, &complete) : ridge_refine(a, b, refine(a, b, m, scale));
  };
  Vec3 nr = polytopes ? facet_walk(a, b, n, &complete) : refine(a, b, n, scale);
  double best = psi(a, b, nr);
  // The pair's normal of the step before, refined, is a candidate too. EPA's facet is not always
  // the deepest on hulls of thousands of vertices (the G1's: up to 0.16 mm too deep in 3% of the
  // pairs): where the walks from EPA's direction and from that normal end on the same facet, it is
  // taken; otherwise the sampling.
  if (sample && hinted) {
    const Vec3 m = polish(hint->normalized());
    const double fm = psi(a, b, m);
    if (polytopes && complete && std::abs(fm - best) <= 1e-12) sample = false;
    if (fm < best) best = fm, nr = m;
  }
  if (sample) {
    // Penetration depth may have several local minima and EPA on curved shapes is approximate:
    // sample 128 directions (Fibonacci, 0.31 rad apart), refine the 3 best by Newton and along
    // ridges, keep the best overall; gradient sampling then settles the kink of the winner (below)
    // only. On humanoid100's capsule-box, capsule-ellipsoid and cylinder-cylinder contacts, 128
    // directions give the depths of 256 to 2e-12 in 3/4 of the time.
    constexpr int kDirections = 128;
    std::array<std::pair<double, int>, kDirections> cand;
    static const std::array<Vec3, kDirections> directions = [] {
      std::array<Vec3, kDirections> d;
      for (int i = 0; i < kDirections; ++i) {
        const double z = 1.0 - 2.0 * (i + 0.5) / kDirections, ph = i * 2.399963229728653,
                     r = std::sqrt(1.0 - z * z);
        d[i] = Vec3(r * std::cos(ph), r * std::sin(ph), z);
      }
      // A nearest-neighbour tour: a hull's support climb (support_local) starts each direction
      // from the vertex of a neighbouring one.
      for (int i = 1; i < kDirections; ++i) {
        int next = i;
        for (int j = i + 1; j < kDirections; ++j)
          if (d[j].dot(d[i - 1]) > d[next].dot(d[i - 1])) next = j;
        std::swap(d[i], d[next]);
      }
      return d;
    }();
    for (int i = 0; i < kDirections; ++i) cand[i] = {psi(a, b, directions[i]), i};
    std::partial_sort(cand.begin(), cand.begin() + 3, cand.end());
    // With the step before's normal among the candidates, the sampled directions are refined only
    // if one is already better than the best refined one (humanoid100: 330 -> 120 us per step,
    // and 3 of the 4 depths that moved by more than 1e-9 m got shallower, i.e. better).
    const int refined = hinted && cand[0].first >= best ? 0 : 3;
    for (int k = 0; k < refined; ++k) {
      const Vec3 m = polish(directions[cand[k].second]);
      const double fm = psi(a, b, m);
      if (fm < best) best = fm, nr = m;
    }
  }
  if (!smooth && (!polytopes || !complete))
    nr = ridge_refine(a, b, refine(a, b, gradient_sampling(a, b, nr), scale));
  const double f = psi(a, b, nr);
  if (cached) {
    if (cache->a != a.g) cache->reach = origin_radius(*b.g);
    cache->a = a.g;
    cache->normal = a.R.transpose() * nr;
    cache->p = p_rel;
    cache->R = R_rel;
  }
  if (!a.tri && !b.tri) {
    *out = pair_contact(a, b, nr, -f);
    return true;
  }
  ContactPoint c;  // a triangle of a mesh on one side
  c.normal = nr;
  c.gap = -f;
  const Vec3 sa = support(a, nr);
  if (strictly_convex(a.g->type) && !a.tri)
    c.point = sa;  // unique support points
  else if (strictly_convex(b.g->type) && !b.tri)
    c.point = support(b, -nr) - c.gap * nr;
  else
    c.point = wa + (sa - wa).dot(nr) * nr;  // GJK/EPA witness on A, moved onto A's supporting plane
  c.feature = 0;
  *out = c;
  return true;
}

// Capsule A against box B exactly (docs/collision.md, "Capsule-box"): a capsule is its segment
// grown by its radius r, so its signed distance to the box is the segment's minus r, and the
// segment and the box are polytopes. Separated segments: the closest points (above). Penetrating
// ones: the depth of two polytopes is attained at a facet normal of their Minkowski difference,
// here the box's 3 axes and the 3 products of the segment's axis with them (separating axes).
void collide_capsule_box(const PlacedShape& a, const PlacedShape& b, double margin,
                         std::vector<ContactPoint>& out) {
  const Geometry& cap = *a.g;
  const Vec3 e = b.g->half_extents;
  const Vec3 u = a.R.col(2);
  const Vec3 c_local = b.R.transpose() * (a.X.p - b.X.p), u_local = b.R.transpose() * u;
  double t = 0.0;
  const double d2 = segment_box_dist2(c_local, u_local, cap.half_length, e, &t);
  const double scale = cap.half_length + cap.radius + e.maxCoeff();
  Vec3 n = b.R.col(0);
  double f;  // psi(a, b, n)
  if (d2 > 1e-18 * scale * scale) {
    const Vec3 p = c_local + t * u_local;
    const Vec3 q = p.cwiseMax(-e).cwiseMin(e);
    n = b.R * (q - p).normalized();
    f = psi(a, b, n);
  } else {  // touching or penetrating segment
    f = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 6; ++k) {
      Vec3 d = k < 3 ? Vec3(b.R.col(k)) : Vec3(u.cross(b.R.col(k - 3)));
      const double len = d.norm();
      if (len < 1e-9) continue;  // the segment along a box edge: that facet is a box face
      d /= len;
      for (const Vec3& m : {d, Vec3(-d)})
        if (const double fm = psi(a, b, m); fm < f) f = fm, n = m;
    }
  }
  if (!std::isfinite(f) || !n.allFinite() || -f >= margin) return;  // non-finite pose: none
  ContactPoint c;
  c.normal = n;
  c.gap = -f;
  c.point = kinked_contact_point(a, b, n, c.gap);
  if (c.point.allFinite()) out.push_back(c);
}

}  // namespace moreau
