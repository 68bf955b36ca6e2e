// Animatronic stand-ins of the benchmark suite (Table II): misha, walker, gazelle, ironman.
// Trees of revolute, universal and spherical joints closed by the loops that make Table II's
// redundant rows: multi-point shell mounts (a second weld between rigidly joined bodies: 6
// redundant rows), two-bearing hinges (a second coaxial hinge: 5) and planar four-bars (3).
// With Table II's joint counts these are the only ways to reach its redundancy (see
// docs/benchmark.md): e.g. Walker has 36 - 31 + 1 = 6 independent loops for 36 redundant rows.
// A free prop (one body, no joint) gives the fixed-base gazelle and ironman the extra loop
// their counts need. Hollow shells of plates enclose the mechanisms.
#include "moreau/scenes/builtin_list.hpp"
#include "moreau/scenes/suite_rig.hpp"

namespace moreau::builtin {

namespace {

constexpr JointType kRev = JointType::Revolute, kUni = JointType::Universal,
                    kSph = JointType::Spherical, kFix = JointType::Fixed;
const Vec3 X = Vec3::UnitX(), Y = Vec3::UnitY(), Z = Vec3::UnitZ();

// A box link joined to `parent` at `anchor` (axes a1, a2), with a PD servo on every DoF of
// revolute/universal/spherical joints when kp > 0, damping otherwise. Returns the body.
struct Linker {
  Rig& r;
  double freq = 0.5;
  int operator()(const std::string& n, JointType t, int parent, double mass, const Vec3& half,
                 const Vec3& center, const Vec3& anchor, const Vec3& a1 = X, const Vec3& a2 = Y,
                 double kp = 0.0, double amp = 0.0, double phase = 0.0) {
    const int b = r.box(n, mass, half, center);
    const int j = r.joint(n + "_joint", t, parent, b, anchor, a1, a2);
    if (kp > 0.0) {
      // kd = 0.02 kp: the PD force is explicit (eq. 72), and kd = 0.05 kp made the light neck
      // links of gazelle unstable at dt = 1 ms (growth within 13 steps with every solver).
      r.pd(j, kp, 0.02 * kp, 0.0, amp, freq, phase);
      if (t != kSph) r.limit(j, -1.2, 1.2);
    } else {
      r.damping(j, 0.05 * mass);
    }
    last_joint = j;
    return b;
  }
  int last_joint = -1;
};

// A shell welded to `carrier` at `at`, plus extra mounts (redundant welds) at `extra`.
int mounted_shell(Rig& r, const std::string& n, int carrier, double mass, const Vec3& inner,
                  const Vec3& pos, int plates, const std::vector<Vec3>& extra) {
  const int s = r.shell(n, mass, inner, 0.01, pos, plates);
  r.joint(n + "_mount0", kFix, carrier, s, pos);
  for (size_t k = 0; k < extra.size(); ++k)
    r.joint(n + "_mount" + std::to_string(k + 1), kFix, carrier, s, extra[k]);
  return s;
}

}  // namespace

// Misha: fixed-base bust. 22 bodies, 24 joints (2 double mounts, 1 + 2 universal, 17 hinges),
// 121 rows, rank 109, 23 DoF, ratio 27.201 / 0.3 = 90.67. Arms drum on a world block.
Result<Scene> misha(const SceneParams&) {
  Rig r("misha");
  Linker L{r, 0.5};
  const int torso = r.box("torso", 27.201, v3(0.15, 0.1, 0.25), v3(0, 0, 1.0));
  r.joint("base_mount0", kFix, -1, torso, v3(0, 0, 0.75));
  r.joint("base_mount1", kFix, -1, torso, v3(0.1, 0, 0.75));  // redundant (6 rows)
  r.world_box(v3(0.1, 0.1, 0.37), v3(0, 0, 0.37));            // pedestal
  const double zh = 1.4;
  const int head =
      L("head", kUni, torso, 3.0, v3(0.08, 0.08, 0.1), v3(0, 0, zh), v3(0, 0, 1.25), Z, Y, 30, 0.2);
  // Shell rim 4 cm above the torso's top: at the neck pivot's height (the first version) the rim
  // rubbed the torso where no head rotation can separate it (a jam, infeasible once penetrated).
  mounted_shell(r, "head_shell", head, 1.5, v3(0.16, 0.16, 0.15), v3(0, 0, zh + 0.05), 31,
                {v3(0, 0, zh + 0.1)});
  L("jaw", kRev, head, 0.5, v3(0.06, 0.05, 0.015), v3(0.09, 0, zh - 0.09), v3(0.05, 0, zh - 0.08),
    Y, Z, 2, 0.2);
  for (int k = 0; k < 2; ++k) {
    const double y = k == 0 ? 0.04 : -0.04;
    const std::string s = k == 0 ? "l_" : "r_";
    L(s + "lid", kRev, head, 0.3, v3(0.01, 0.02, 0.01), v3(0.11, y, zh + 0.04),
      v3(0.1, y, zh + 0.04), Y, Z, 0.5, 0.4);
    L(s + "brow", kRev, head, 0.35, v3(0.01, 0.03, 0.01), v3(0.1, y, zh + 0.08),
      v3(0.1, y, zh + 0.08), X, Y, 0.5, 0.2);
    L(s + "mouth", kRev, head, 0.35, v3(0.01, 0.02, 0.01), v3(0.1, 1.25 * y, zh - 0.06),
      v3(0.1, y, zh - 0.06), Z, X, 0.5, 0.2);
    L(s + "eye", kUni, head, 0.4, v3(0.02, 0.02, 0.02), v3(0.08, y, zh + 0.02),
      v3(0.08, y, zh + 0.02), Z, Y, 0.5, 0.3);
  }
  for (int k = 0; k < 2; ++k) {
    const double y = k == 0 ? 0.22 : -0.22, ph = k * kPi;
    const std::string s = k == 0 ? "l_" : "r_";
    int b = L(s + "shoulder", kRev, torso, 2.0, v3(0.04, 0.04, 0.05), v3(0, y, 1.15), v3(0, y, 1.2),
              Y, Z, 150, 0.3, ph);
    b = L(s + "upper_arm", kRev, b, 1.5, v3(0.03, 0.03, 0.15), v3(0, y, 0.95), v3(0, y, 1.1), X, Y,
          80, 0.1, ph);
    b = L(s + "forearm", kRev, b, 1.0, v3(0.03, 0.03, 0.15), v3(0, y, 0.65), v3(0, y, 0.8), Y, Z,
          40, 0.3, ph);
    b = L(s + "hand", kRev, b, 0.5, v3(0.04, 0.02, 0.05), v3(0, y, 0.45), v3(0, y, 0.5), Y, Z, 5,
          0.2, ph);
    L(s + "finger", kRev, b, 0.3, v3(0.01, 0.01, 0.04), v3(0, y, 0.36), v3(0, y, 0.4), Y, Z, 1, 0.3,
      ph);
    r.world_box(v3(0.15, 0.1, 0.155), v3(0, y, 0.155));  // drum: top at 0.31, fingertips at 0.32
  }
  return r.finish(4.0);
}

// Walker: free-floating biped character. 31 bodies, 36 joints (3 shells on triple mounts = 9
// welds, 5 universal, 2 spherical hips, 20 hinges), 180 rows, rank 144, 42 DoF, ratio 99.55.
Result<Scene> walker(const SceneParams&) {
  Rig r("walker");
  Linker L{r, 0.8};
  const double hz = 0.79;
  const int pelvis = r.box("pelvis", 9.955, v3(0.1, 0.12, 0.06), v3(0, 0, hz));
  mounted_shell(r, "pelvis_shell", pelvis, 1.0, v3(0.14, 0.17, 0.08), v3(0, 0, hz), 15,
                {v3(0.1, 0, hz), v3(-0.1, 0, hz)});
  // Torso narrower than the head shell (inner half 0.11) and the shell's lower edge 2 cm above
  // the torso's top: the first version overlapped them by 1 cm, an infeasible start.
  const int torso = L("torso", kUni, pelvis, 4.0, v3(0.1, 0.1, 0.15), v3(0, 0, hz + 0.21),
                      v3(0, 0, hz + 0.06), X, Y, 100, 0.1);
  mounted_shell(r, "torso_shell", torso, 1.0, v3(0.13, 0.14, 0.17), v3(0, 0, hz + 0.21), 15,
                {v3(0, 0.1, hz + 0.21), v3(0, -0.1, hz + 0.21)});
  const int head = L("head", kUni, torso, 2.0, v3(0.08, 0.08, 0.08), v3(0, 0, hz + 0.46),
                     v3(0, 0, hz + 0.36), Z, Y, 20, 0.3);
  const double zh = hz + 0.46;
  mounted_shell(r, "head_shell", head, 0.8, v3(0.11, 0.11, 0.09), v3(0, 0, zh + 0.02), 31,
                {v3(0, 0, zh + 0.05), v3(0.05, 0, zh)});
  L("jaw", kRev, head, 0.3, v3(0.05, 0.05, 0.01), v3(0.05, 0, zh - 0.07), v3(0.04, 0, zh - 0.06), Y,
    Z, 1, 0.2);
  for (int k = 0; k < 2; ++k) {
    const double s = k == 0 ? 1.0 : -1.0, ph = k * kPi;
    const std::string n = k == 0 ? "l_" : "r_";
    L(n + "ear", kRev, head, 0.12, v3(0.01, 0.01, 0.02), v3(0, s * 0.09, zh + 0.06),
      v3(0, s * 0.08, zh + 0.05), X, Y, 0.3, 0.3);
    L(n + "lid", kRev, head, 0.1, v3(0.01, 0.02, 0.01), v3(0.09, s * 0.03, zh + 0.03),
      v3(0.08, s * 0.03, zh + 0.03), Y, Z, 0.2, 0.4);
    // Leg: spherical hip (passive, damped), knee, universal ankle, toe.
    const double y = s * 0.08;
    int b = L(n + "thigh", kSph, pelvis, 2.5, v3(0.04, 0.04, 0.17), v3(0, y, hz - 0.23),
              v3(0, y, hz - 0.06));
    r.damping(L.last_joint, 2.0);
    b = L(n + "shin", kRev, b, 1.5, v3(0.035, 0.035, 0.17), v3(0, y, hz - 0.57),
          v3(0, y, hz - 0.40), Y, Z, 60, 0.3, ph);
    b = L(n + "foot", kUni, b, 0.5, v3(0.1, 0.05, 0.02), v3(0.03, y, hz - 0.765),
          v3(0, y, hz - 0.74), Y, X, 20, 0.1, ph);
    L(n + "toe", kRev, b, 0.15, v3(0.03, 0.05, 0.02), v3(0.16, y, hz - 0.765),
      v3(0.13, y, hz - 0.765), Y, Z, 1, 0.1, ph);
    // Arm: 4 hinges.
    const double ya = s * 0.24;
    b = L(n + "clavicle", kRev, torso, 0.8, v3(0.03, 0.03, 0.03), v3(0, ya, hz + 0.33),
          v3(0, ya, hz + 0.33), Y, Z, 20, 0.3, ph);
    b = L(n + "upper_arm", kRev, b, 1.2, v3(0.03, 0.03, 0.12), v3(0, ya, hz + 0.18),
          v3(0, ya, hz + 0.30), X, Y, 15, 0.1, ph);
    b = L(n + "forearm", kRev, b, 0.8, v3(0.03, 0.03, 0.12), v3(0, ya, hz - 0.06),
          v3(0, ya, hz + 0.06), Y, Z, 5, 0.3, ph);
    L(n + "hand", kRev, b, 0.3, v3(0.03, 0.02, 0.05), v3(0, ya, hz - 0.23), v3(0, ya, hz - 0.18), Y,
      Z, 1, 0.2, ph);
  }
  // Tail hanging behind the pelvis: universal root, 3 hinges.
  int b = L("tail1", kUni, pelvis, 0.2, v3(0.02, 0.02, 0.05), v3(-0.08, 0, hz - 0.11),
            v3(-0.08, 0, hz - 0.06), X, Y, 2, 0.3);
  for (int k = 2; k <= 4; ++k) {
    const double z = hz - 0.06 - 0.1 * (k - 1);
    b = L("tail" + std::to_string(k), kRev, b, 0.2, v3(0.02, 0.02, 0.05), v3(-0.08, 0, z - 0.05),
          v3(-0.08, 0, z), Y, Z, 1, 0.3, k);
  }
  return r.finish(4.0);
}

// Gazelle: fixed-base quadruped character. 38 bodies (37 + a free prop ball), 45 joints (3 shells
// on triple mounts = 9 welds, 2 two-bearing hinges = 4 hinges, 12 universal, 4 spherical hips,
// 16 more hinges), 214 rows, rank 168, 60 DoF, ratio 101.254 / 0.1 = 1012.54.
Result<Scene> gazelle(const SceneParams&) {
  Rig r("gazelle");
  Linker L{r, 0.6};
  // Hooves 0.5 mm above the ground (inside the contact margin). Not into it: with straight legs
  // on a fixed base a hoof cannot rise at first order, and the penetration bias would ask it
  // to (an infeasible NCP at the first step).
  const double hz = 0.8705;
  const int base = r.box("body", 101.254, v3(0.35, 0.15, 0.15), v3(0, 0, hz));
  r.joint("base_mount0", kFix, -1, base, v3(0, 0, hz));
  r.joint("base_mount1", kFix, -1, base, v3(0.2, 0, hz));
  r.joint("base_mount2", kFix, -1, base, v3(-0.2, 0, hz));
  mounted_shell(r, "body_shell", base, 10.0, v3(0.38, 0.18, 0.18), v3(0, 0, hz), 15,
                {v3(0.3, 0, hz), v3(-0.3, 0, hz)});
  // Neck: 4 universal segments up from the front of the body; a shell on the second.
  int b = base;
  std::vector<int> neck;
  for (int k = 0; k < 4; ++k) {
    const double z0 = hz + 0.15 + 0.12 * k;
    b = L("neck" + std::to_string(k + 1), kUni, b, 2.0 - 0.3 * k, v3(0.04, 0.04, 0.06),
          v3(0.3, 0, z0 + 0.06), v3(0.3, 0, z0), X, Y, 200 - 40 * k, 0.05, 0.4 * k);
    neck.push_back(b);
  }
  const double zn2 = hz + 0.15 + 0.12 + 0.06;
  mounted_shell(r, "neck_shell", neck[1], 1.0, v3(0.06, 0.06, 0.06), v3(0.3, 0, zn2), 15,
                {v3(0.3, 0, zn2 + 0.03), v3(0.3, 0, zn2 - 0.03)});
  const double zh = hz + 0.15 + 0.48 + 0.05;
  const int head = L("head", kUni, b, 1.5, v3(0.12, 0.05, 0.05), v3(0.38, 0, zh),
                     v3(0.3, 0, zh - 0.05), Y, Z, 20, 0.2);
  const int jaw = L("jaw", kRev, head, 0.3, v3(0.08, 0.03, 0.01), v3(0.42, 0, zh - 0.06),
                    v3(0.34, 0, zh - 0.06), Y, Z, 1, 0.2);
  r.hinge("jaw_bearing", head, jaw, v3(0.34, 0.03, zh - 0.06),
          Y);  // second bearing: 5 redundant rows
  for (int k = 0; k < 2; ++k) {
    const double s = k == 0 ? 1.0 : -1.0;
    const std::string n = k == 0 ? "l_" : "r_";
    L(n + "ear", kRev, head, 0.15, v3(0.01, 0.02, 0.04), v3(0.32, s * 0.06, zh + 0.08),
      v3(0.32, s * 0.05, zh + 0.05), X, Y, 0.3, 0.4);
    L(n + "eye", kUni, head, 0.12, v3(0.015, 0.015, 0.015), v3(0.44, s * 0.04, zh + 0.02),
      v3(0.44, s * 0.04, zh + 0.02), Z, Y, 0.2, 0.3);
    L(n + "lid", kRev, head, 0.1, v3(0.01, 0.015, 0.01), v3(0.46, s * 0.04, zh + 0.035),
      v3(0.45, s * 0.04, zh + 0.035), Y, Z, 0.1, 0.4);
    L(n + "mouth", kRev, head, 0.12, v3(0.01, 0.01, 0.01), v3(0.48, s * 0.03, zh - 0.03),
      v3(0.47, s * 0.03, zh - 0.03), Z, X, 0.1, 0.2);
  }
  for (int k = 0; k < 4; ++k) {
    const double x = k < 2 ? 0.25 : -0.25, y = k % 2 == 0 ? 0.1 : -0.1,
                 ph = (k == 0 || k == 3) ? 0.0 : kPi;
    const std::string n = std::string(k < 2 ? "f" : "h") + (k % 2 == 0 ? "l_" : "r_");
    b = L(n + "upper", kSph, base, 3.0, v3(0.04, 0.04, 0.12), v3(x, y, hz - 0.27),
          v3(x, y, hz - 0.15));
    r.damping(L.last_joint, 5.0);
    const int lower = L(n + "lower", kRev, b, 1.5, v3(0.03, 0.03, 0.12), v3(x, y, hz - 0.51),
                        v3(x, y, hz - 0.39), Y, Z, 40, 0.3, ph);
    if (k == 0)
      r.hinge(n + "knee_bearing", b, lower, v3(x, y + 0.03, hz - 0.39), Y);  // second bearing
    b = L(n + "cannon", kRev, lower, 0.6, v3(0.02, 0.02, 0.1), v3(x, y, hz - 0.73),
          v3(x, y, hz - 0.63), Y, Z, 10, 0.3, ph);
    L(n + "hoof", kUni, b, 0.2, v3(0.03, 0.03, 0.02), v3(x, y, hz - 0.85), v3(x, y, hz - 0.83), Y,
      X, 1, 0.1, ph);
  }
  b = L("tail1", kUni, base, 0.3, v3(0.02, 0.02, 0.05), v3(-0.3, 0, hz - 0.2),
        v3(-0.3, 0, hz - 0.15), X, Y, 2, 0.3);
  for (int k = 2; k <= 4; ++k) {
    const double z = hz - 0.15 - 0.1 * (k - 1);
    b = L("tail" + std::to_string(k), kRev, b, 0.2, v3(0.02, 0.02, 0.05), v3(-0.3, 0, z - 0.05),
          v3(-0.3, 0, z), Y, Z, 1, 0.3, k);
  }
  r.ball("prop", 1.0, 0.1, v3(1.0, 0, 0.1), kGroupProp);
  return r.finish(4.0);
}

// IronMan: fixed-base armoured figure. 54 bodies (53 + a free prop), 67 joints (7 shells and a
// triple base mount = 20 welds, a two-bearing jaw, a four-bar visor, 20 spherical, 11 universal,
// 13 more hinges), 304 rows, rank 224, 100 DoF, ratio 2554.444 / 0.1 = 25544.44.
Result<Scene> ironman(const SceneParams&) {
  Rig r("ironman");
  Linker L{r, 0.5};
  const double hz = 0.9605;  // feet 0.5 mm above the ground (see gazelle)
  const int pelvis = r.box("pelvis", 2554.444, v3(0.15, 0.18, 0.1), v3(0, 0, hz));
  r.joint("base_mount0", kFix, -1, pelvis, v3(0, 0, hz));
  r.joint("base_mount1", kFix, -1, pelvis, v3(0.1, 0, hz));
  r.joint("base_mount2", kFix, -1, pelvis, v3(-0.1, 0, hz));
  int b = L("spine1", kSph, pelvis, 20, v3(0.1, 0.12, 0.05), v3(0, 0, hz + 0.15),
            v3(0, 0, hz + 0.1), X, Y, 3000, 0.02);
  b = L("spine2", kSph, b, 20, v3(0.1, 0.12, 0.05), v3(0, 0, hz + 0.25), v3(0, 0, hz + 0.2), X, Y,
        2000, 0.02, 1);
  const double zc = hz + 0.42;
  const int chest = L("chest", kSph, b, 30, v3(0.12, 0.17, 0.12), v3(0, 0, zc), v3(0, 0, hz + 0.3),
                      X, Y, 1000, 0.02, 2);
  mounted_shell(r, "chest_shell", chest, 8, v3(0.14, 0.19, 0.14), v3(0, 0, zc), 3,
                {v3(0, 0.1, zc), v3(0, -0.1, zc)});
  mounted_shell(r, "back_shell", chest, 5, v3(0.16, 0.17, 0.12), v3(0, 0, zc), 2,
                {v3(-0.1, 0, zc), v3(-0.1, 0, zc + 0.1)});
  b = L("neck", kSph, chest, 3, v3(0.04, 0.04, 0.04), v3(0, 0, hz + 0.58), v3(0, 0, hz + 0.54), X,
        Y, 100, 0.1);
  const double zh = hz + 0.71;
  const int head =
      L("head", kSph, b, 5, v3(0.08, 0.08, 0.09), v3(0, 0, zh), v3(0, 0, hz + 0.62), X, Y, 60, 0.2);
  mounted_shell(r, "helmet", head, 4, v3(0.16, 0.16, 0.14), v3(0, 0, zh), 31,
                {v3(0, 0, zh + 0.05), v3(0.05, 0, zh)});
  const int visor = r.fourbar("visor", head, v3(0.09, -0.04, zh + 0.05), v3(0.09, 0.04, zh + 0.05),
                              -Z, 0.06, 0.15);
  r.pd(visor, 0.2, 0.005, 0.0, 0.4, 0.5, 0.0);
  const int jaw = L("jaw", kRev, head, 0.4, v3(0.05, 0.05, 0.01), v3(0.08, 0, zh - 0.1),
                    v3(0.05, 0, zh - 0.09), Y, Z, 1, 0.2);
  r.hinge("jaw_bearing", head, jaw, v3(0.05, 0.04, zh - 0.09), Y);  // second bearing
  for (int k = 0; k < 2; ++k) {
    const double s = k == 0 ? 1.0 : -1.0, ph = k * kPi;
    const std::string n = k == 0 ? "l_" : "r_";
    L(n + "eye", kUni, head, 0.2, v3(0.015, 0.015, 0.015), v3(0.07, s * 0.03, zh + 0.03),
      v3(0.07, s * 0.03, zh + 0.03), Z, Y, 0.2, 0.3);
    // Arm: universal clavicle, spherical shoulder (shell on the upper arm), elbow, universal
    // wrist, five spherical fingers.
    const double y = s * 0.26;
    b = L(n + "clavicle", kUni, chest, 2, v3(0.03, 0.04, 0.03), v3(0, s * 0.22, hz + 0.5),
          v3(0, s * 0.2, hz + 0.5), X, Y, 400, 0.1, ph);
    const int upper = L(n + "upper_arm", kSph, b, 6, v3(0.04, 0.04, 0.12), v3(0, y, hz + 0.36),
                        v3(0, y, hz + 0.48), X, Y, 300, 0.2, ph);
    // Shell top 5 mm below the clavicle (touching at the start jams the shoulder).
    mounted_shell(r, n + "arm_shell", upper, 2, v3(0.06, 0.06, 0.1), v3(0, y, hz + 0.355), 15,
                  {v3(0, y, hz + 0.3)});
    b = L(n + "forearm", kRev, upper, 4, v3(0.035, 0.035, 0.12), v3(0, y, hz + 0.12),
          v3(0, y, hz + 0.24), Y, Z, 100, 0.4, ph);
    const int hand = L(n + "hand", kUni, b, 1, v3(0.04, 0.02, 0.05), v3(0, y, hz - 0.05),
                       v3(0, y, hz), Y, X, 5, 0.2, ph);
    for (int f = 0; f < 5; ++f) {
      const double dx = 0.016 * (f - 2);
      L(n + "finger" + std::to_string(f), kSph, hand, 0.1, v3(0.006, 0.008, 0.03),
        v3(dx, y, hz - 0.13), v3(dx, y, hz - 0.1));
    }
    // Leg: spherical hip (shell on the thigh), knee, universal ankle, toe.
    const double yl = s * 0.1;
    const int thigh = L(n + "thigh", kSph, pelvis, 15, v3(0.05, 0.05, 0.2), v3(0, yl, hz - 0.3),
                        v3(0, yl, hz - 0.1), X, Y, 2000, 0.05, ph);
    mounted_shell(r, n + "leg_shell", thigh, 3, v3(0.07, 0.07, 0.12), v3(0, yl, hz - 0.3), 15,
                  {v3(0, yl, hz - 0.2)});
    b = L(n + "shin", kRev, thigh, 10, v3(0.045, 0.045, 0.2), v3(0, yl, hz - 0.7),
          v3(0, yl, hz - 0.5), Y, Z, 800, 0.2, ph);
    b = L(n + "foot", kUni, b, 3, v3(0.1, 0.05, 0.03), v3(0.03, yl, hz - 0.93), v3(0, yl, hz - 0.9),
          Y, X, 100, 0.05, ph);
    L(n + "toe", kRev, b, 0.5, v3(0.03, 0.05, 0.02), v3(0.16, yl, hz - 0.94),
      v3(0.13, yl, hz - 0.93), Y, Z, 5, 0.1, ph);
  }
  // Shoulder flaps (universal), thruster flaps (hinges), reactor gimbal (spherical).
  const Vec3 flaps[3] = {v3(0.08, 0.1, hz + 0.55), v3(0.08, -0.1, hz + 0.55),
                         v3(-0.08, 0, hz + 0.55)};
  for (int k = 0; k < 3; ++k)
    L("flap" + std::to_string(k), kUni, chest, 0.3, v3(0.03, 0.03, 0.01), flaps[k] + v3(0, 0, 0.01),
      flaps[k], X, Y, 0.5, 0.3, k);
  for (int k = 0; k < 4; ++k) {
    const Vec3 a(k < 2 ? 0.06 : -0.06, k % 2 == 0 ? 0.1 : -0.1, hz + 0.3);
    L("thruster" + std::to_string(k), kRev, chest, 0.3, v3(0.03, 0.03, 0.01), a - v3(0, 0, 0.01), a,
      Y, Z, 0.5, 0.4, k);
  }
  L("reactor", kSph, chest, 0.5, v3(0.02, 0.02, 0.02), v3(0.08, 0, zc), v3(0.08, 0, zc), X, Y, 0.2,
    0.2);
  r.ball("prop", 1.0, 0.1, v3(0.8, 0.5, 0.1), kGroupProp);
  Result<Scene> sc = r.finish(4.0);
  // The simulation's solver: admm-ncp-sa (the default elsewhere) diverges here within 25 steps
  // (mass ratio 25544); nbgs-exact runs the 4 s (docs/benchmark.md).
  if (sc) sc->settings.solver = "nbgs-exact";
  return sc;
}

}  // namespace moreau::builtin
