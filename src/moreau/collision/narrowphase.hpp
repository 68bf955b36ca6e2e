#pragma once
// Narrowphase: contact manifold of one geometry pair (docs/collision.md). The normal points from
// the first geometry (A) to the second (B); swapping A and B flips the normal and moves the point
// to the other witness, r_A' = r_A + gap n, and changes nothing else (same gaps, same features).
#include <cstdint>
#include <limits>
#include <vector>

#include "moreau/collision/shape.hpp"

namespace moreau {

struct ContactPoint {
  Vec3 point = Vec3::Zero();    // witness on A
  Vec3 normal = Vec3::UnitZ();  // unit, from A to B
  double gap = 0.0;             // signed distance; witness on B = point + gap normal
  uint32_t feature = 0;         // stable id of the feature pair within the geometry pair (< 2^20)
};

// A convex pair's last answer (convex_distance), kept by the detector from step to step: the unit
// normal and B's pose in A's frame. While B has moved against A by so little that the gap along
// that normal is within 1e-10 m of the distance (docs/collision.md, "Hull-hull pairs"), the answer
// is the gap along it, without GJK, the facet walks or the sampling of curved pairs.
struct HullPairCache {
  const Geometry* a = nullptr;  // the pair's A when it was computed; nullptr: none
  Vec3 normal = Vec3::Zero();   // in A's frame
  Vec3 p = Vec3::Zero();        // B's origin in A's frame
  Mat3 R = Mat3::Identity();    // B's orientation in A's frame
  double reach = 0.0;           // max |x| over B's points, in B's frame
  // A plane pair: the hull's vertex nearest the plane (PlacedShape::climb), where the next step's
  // support climb and the walk over the vertices within the margin start; -1: none.
  int plane_climb = -1;
};

class MeshBvh;      // bounding-volume tree of a triangle mesh (narrowphase_mesh.cpp)
struct ClosedMesh;  // closed, outward-oriented triangle mesh (closed_mesh.hpp)
struct Polyhedron;  // convex hull of a triangle mesh (polyhedron.hpp)

struct PairInput {
  const Geometry* g = nullptr;
  Pose X;                            // world pose of the geometry frame
  const MeshBvh* bvh = nullptr;      // triangle meshes: optional tree (else brute force)
  const Mat3* R = nullptr;           // optional X.R(), precomputed by the detector
  const Polyhedron* hull = nullptr;  // triangle meshes: convex hull, for mesh-mesh pairs
  // Triangle meshes, collision.mesh_mesh = "triangles": the closed mesh (with bvh). Mesh-mesh
  // pairs whose two sides both have one collide triangle by triangle, others through the hulls.
  const ClosedMesh* closed = nullptr;
};

// Appends the contacts of pair (a, b) with gap < margin to out (out is not cleared). hint: the
// pair's normal (from a to b) at the step before, if it had a contact (convex_distance).
// separation (optional): set, for a pair of convex shapes without contacts, to a unit direction n
// from a to b that proves it, -(h_a(n) + h_b(-n)) >= margin (separated_along); left as it is
// otherwise.
// cache (optional): a convex pair's last answer, read and updated (HullPairCache).
void collide(const PairInput& a, const PairInput& b, double margin, std::vector<ContactPoint>& out,
             const Vec3* hint = nullptr, Vec3* separation = nullptr,
             HullPairCache* cache = nullptr);

// True when the unit direction n (from a to b) separates two convex shapes by at least margin:
// every direction bounds their distance from below by -(h_a(n) + h_b(-n)). Two support
// evaluations; the detector tests the direction that separated a pair at the step before
// (docs/collision.md, "Temporal coherence").
bool separated_along(const PlacedShape& a, const PlacedShape& b, const Vec3& n, double margin);

// Signed distance of two convex shapes (GJK/EPA through libccd + FCL's extension, refined on the
// support functions): one point, normal from a to b. Exposed for tests; used for pairs without an
// analytic routine. Returns false if the solver failed.
// With max_gap: false, at the cost of GJK and two support evaluations, for a pair that is
// certainly farther apart than max_gap (every direction n bounds the distance from below by
// -(h_A(n) + h_B(-n))), so that a pair the broadphase let through costs no refinement.
// With hint (the pair's normal, from a to b, at the step before): a pair that samples directions
// (penetrating with kinked supports, or touching within 1e-6 of its size) refines it as one more
// candidate, and refines the best sampled directions only if one is better than the best
// candidate so far (docs/collision.md, "Temporal coherence").
// separation: as collide's, set when the answer is false for a pair farther apart than max_gap.
// cache: as collide's (convex pairs, not a mesh's triangle pieces).
bool convex_distance(const PlacedShape& a, const PlacedShape& b, ContactPoint* out,
                     double max_gap = std::numeric_limits<double>::infinity(),
                     const Vec3* hint = nullptr, Vec3* separation = nullptr,
                     HullPairCache* cache = nullptr);

// Per-family routines (normal from the first argument to the second); append to out.
void collide_plane(const PlacedShape& plane, const PlacedShape& b, double margin,
                   std::vector<ContactPoint>& out);
void collide_sphere_sphere(const PlacedShape& a, const PlacedShape& b, double margin,
                           std::vector<ContactPoint>& out);
void collide_sphere_capsule(const PlacedShape& a, const PlacedShape& b, double margin,
                            std::vector<ContactPoint>& out);
void collide_capsule_capsule(const PlacedShape& a, const PlacedShape& b, double margin,
                             std::vector<ContactPoint>& out);
void collide_sphere_box(const PlacedShape& a, const PlacedShape& b, double margin,
                        std::vector<ContactPoint>& out);
void collide_box_box(const PlacedShape& a, const PlacedShape& b, double margin,
                     std::vector<ContactPoint>& out);
// Capsule a against box b, exact (docs/collision.md, "Capsule-box"): one point, none for a
// non-finite pose.
void collide_capsule_box(const PlacedShape& a, const PlacedShape& b, double margin,
                         std::vector<ContactPoint>& out);
void collide_mesh(const PlacedShape& mesh, const MeshBvh* bvh, const PlacedShape& b, bool mesh_is_a,
                  double margin, std::vector<ContactPoint>& out);

// Triangle-level contacts of two closed, outward-oriented meshes (docs/collision.md, "Mesh-mesh
// pairs"): vertex-face contacts both ways, edge-edge contacts of convex edges; normal from a to b.
void collide_closed_meshes(const ClosedMesh& a, const MeshBvh& ba, const Pose& Xa,
                           const ClosedMesh& b, const MeshBvh& bb, const Pose& Xb, double margin,
                           std::vector<ContactPoint>& out);

// Height field (docs/collision.md, "Height fields"): the triangle prisms under b's bounding box,
// each against b through convex_distance; normal from the height field to b when hf_is_a.
void collide_height_field(const PlacedShape& hf, const PlacedShape& b, bool hf_is_a, double margin,
                          std::vector<ContactPoint>& out);

// Contacts of one pair kept from a mesh's vertices against a plane (docs/collision.md).
constexpr int kMaxManifold = 4;
// Reduces contacts [first, end) of out, which share the normal n, to at most max_points (at most
// kMaxManifold): the deepest, then one by one the point that most enlarges the kept points'
// polygon in the plane normal to n (the support polygon's corners), each replaced by the deepest
// point within a tenth of its distance from the first where that is deeper by more than `deeper`
// [m]. Deterministic.
void reduce_manifold(std::vector<ContactPoint>& out, size_t first, const Vec3& n, int max_points,
                     double deeper = 1e-9);

// Flips contacts [first, end) of out: A and B swapped.
void flip_contacts(std::vector<ContactPoint>& out, size_t first);

}  // namespace moreau
