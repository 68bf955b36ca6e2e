#pragma once
// A contact point between two geometries (eq. 33-35). Body A may be the world (-1).
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "moreau/model/model.hpp"
#include "moreau/model/state.hpp"

namespace moreau {

struct Contact {
  int geom[2] = {-1, -1};         // geometry indices of A and B
  int body[2] = {-1, -1};         // bodies of A and B; -1 = world
  Vec3 point = Vec3::Zero();      // r_A: the point on A (eq. 33); r_B = point + gap * normal
  Vec3 normal = Vec3::UnitZ();    // unit normal n, pointing from A to B
  double gap = 0.0;               // signed distance d: > 0 open, <= 0 penetration depth [m]
  Mat3 frame = Mat3::Identity();  // R_c = [t, o, n] (eq. 34)
  double mu = 0.0;                // combined Coulomb friction
  double restitution = 0.0;       // combined Newton restitution
  double stiffness = std::numeric_limits<double>::infinity();  // combined SAP k (inf: rigid)
  double tau_d = std::numeric_limits<double>::quiet_NaN();     // combined SAP tau_d (NaN: unset)
  uint64_t id = 0;  // persistent id, stable across steps while the feature persists
};

// Persistent contact id from (geometry A, geometry B, feature): bits 42.. geom A, 20..41 geom B,
// 0..19 the feature within the pair (docs/collision.md).
uint64_t contact_id(int geom_a, int geom_b, uint32_t feature);

// How mesh-mesh pairs collide (docs/collision.md, "Mesh-mesh pairs").
enum class MeshMeshMode {
  Hull,       // the convex hulls of both meshes (default)
  Triangles,  // triangle by triangle, for closed meshes (others fall back to Hull)
};

struct CollisionSettings {
  double margin = 1e-3;  // pairs closer than this produce contacts with gap > 0 [m]
  MeshMeshMode mesh_mesh = MeshMeshMode::Hull;
};

// "hull" / "triangles"; parse returns false on another name.
const char* mesh_mesh_name(MeshMeshMode m);
bool parse_mesh_mesh(const std::string& name, MeshMeshMode* out);

struct CollisionWorkspace;  // opaque, defined by the collision room

// Owns the collision scratch so that repeated detection reuses memory.
class CollisionDetector {
 public:
  // `settings` decides only which warnings the construction gives (a mesh that cannot collide
  // triangle by triangle when settings.mesh_mesh is Triangles); detect() follows its own settings.
  explicit CollisionDetector(const Model& model, const CollisionSettings& settings = {});
  ~CollisionDetector();  // out of line: CollisionWorkspace is incomplete here
  CollisionDetector(CollisionDetector&&) noexcept;
  CollisionDetector& operator=(CollisionDetector&&) noexcept;
  // All contacts of the state's configuration, in a deterministic order (by geometry pair, then
  // feature). The returned reference stays valid until the next call.
  const std::vector<Contact>& detect(const State& s, const CollisionSettings& settings);
  // Pairs the detector cannot handle, found at construction (a triangle mesh without a convex
  // hull while the model has other triangle meshes: those pairs produce no contacts; with
  // mesh_mesh = Triangles, a mesh that is not closed: its mesh-mesh pairs use the hulls).
  const std::vector<std::string>& warnings() const;

 private:
  const Model* model_;
  std::unique_ptr<CollisionWorkspace> ws_;
};

}  // namespace moreau
