#pragma once
// A small builder for the benchmark-suite stand-ins (suite_*.cpp): boxes laid out in the
// initial configuration, joints placed by world anchors and axes, PD actuators with scripted
// sinusoids, enclosing shells made of plates, and the loop modules that produce the redundant
// rows of Table II (planar four-bars, double mounts, two-bearing hinges). docs/benchmark.md.
#include <string>

#include "moreau/scenes/builtin_helpers.hpp"

namespace moreau::builtin {

// Collision groups of the suite: mechanism parts collide with the ground, shells and props but
// not with each other (no spurious contacts between overlapping links); shells collide with
// the mechanism they enclose (world-shell-internal combinations).
constexpr uint32_t kGroupGround = 1, kGroupMech = 2, kGroupShell = 4, kGroupProp = 8;

class Rig {
 public:
  explicit Rig(const std::string& name) : mb_(name) {}
  // A box body with its box geometry (mechanism group).
  int box(const std::string& name, double mass, const Vec3& half, const Vec3& pos);
  // A sphere body (foot, prop, eye) with its sphere geometry.
  int ball(const std::string& name, double mass, double radius, const Vec3& pos,
           uint32_t group = kGroupMech);
  // A hollow shell: one body whose geometry is up to five plates (never a bottom) around a box
  // of half extents `inner` centred at pos, plates of thickness t. plates: bits +x, -x, +y, -y,
  // top.
  int shell(const std::string& name, double mass, const Vec3& inner, double t, const Vec3& pos,
            int plates = 31);
  // A world geometry box (table, pedestal).
  void world_box(const Vec3& half, const Vec3& pos);

  // A joint at the world point `anchor` with its x axis along a1 (and y along a2, orthogonalized:
  // the second universal axis). Base -1 = world.
  int joint(const std::string& name, JointType t, int base, int follower, const Vec3& anchor,
            const Vec3& a1 = Vec3::UnitX(), const Vec3& a2 = Vec3::UnitY());
  int hinge(const std::string& name, int base, int follower, const Vec3& anchor, const Vec3& axis) {
    return joint(name, JointType::Revolute, base, follower, anchor, axis, axis.unitOrthogonal());
  }
  // PD servo on every DoF of joint j: q*(t) = target + amp sin(2 pi freq t + phase + k pi/2).
  void pd(int j, double kp, double kd, double target, double amp, double freq, double phase);
  void limit(int j, double lower, double upper);
  void damping(int j, double c);
  // Planar parallelogram four-bar hanging from `parent` at A and B (world), links of length L
  // along `down`, hinge axes normal to the plane: 3 bodies, 3 tree hinges and one closing hinge
  // (5 rows, 3 of them redundant). Returns the crank hinge.
  int fourbar(const std::string& prefix, int parent, const Vec3& A, const Vec3& B, const Vec3& down,
              double L, double mass);

  Result<Scene> finish(double duration, double dt = 1e-3);
  ModelBuilder& builder() { return mb_; }
  State& state() { return s_; }

 private:
  ModelBuilder mb_;
  State s_;
};

// Vec3 shorthand for the layouts.
inline Vec3 v3(double x, double y, double z) {
  return Vec3(x, y, z);
}

}  // namespace moreau::builtin
