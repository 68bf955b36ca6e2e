#pragma once
// Joints: bilateral constraints between a base (a body or the world) and a follower body.
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "moreau/math/types.hpp"

namespace moreau {

// The joint frame has the DoF axis along its x (revolute, prismatic, cylindrical) or x then the
// follower's y (universal). See docs/scene-format.md for the per-type table.
enum class JointType : uint8_t {
  Free,
  Revolute,
  Prismatic,
  Cylindrical,
  Universal,
  Spherical,
  Cartesian,
  Fixed,
  Sequence  // a MuJoCo body's joint sequence (Joint::sequence, model/joint_sequence.hpp)
};

inline constexpr int kNumJointTypes = 9;
const char* joint_type_name(JointType t);
bool parse_joint_type(const std::string& s, JointType* out);
// Number of constraint rows m_j and of DoFs d_j = 6 - m_j (Sequence: see Joint::dofs()).
int joint_constraint_rows(JointType t);
inline int joint_dofs(JointType t) {
  return 6 - joint_constraint_rows(t);
}

enum class ActuationMode : uint8_t {
  Passive,   // no actuation force
  Force,     // constant force/torque
  Position,  // PD servo to a position target, applied as an explicit force (eq. 72)
  Velocity,  // D servo to a velocity target, applied as an explicit force
  // Stable PD (Tan, Liu & Turk 2011, eq. 6): tau = kp (q*(t+dt) - q - dt qd+) + kd (qd*(t+dt) -
  // qd+), the next velocity qd+ solved implicitly for the DoF (docs/dynamics.md).
  StablePd,
};
const char* actuation_mode_name(ActuationMode m);

// Per-DoF actuator. Targets may follow a scripted sinusoid:
//   q*(t) = target + amplitude sin(2 pi frequency t + phase), qdot*(t) its derivative
// (for Velocity mode the sinusoid is applied to the velocity target; for Force mode to the force:
// tau(t) = force + amplitude sin(2 pi frequency t + phase)), or, for the position servos, a
// keyframed periodic reference (the gaits of scenes/gait.hpp):
//   q*(t) = target + K(t mod period), K the periodic cubic Hermite interpolant of the keyframes
// (t_k, q_k), 0 <= t_0 < t_1 < ... < period, with Catmull-Rom tangents; it replaces the sinusoid
// when `keyframes` is not empty.
struct DofActuator {
  ActuationMode mode = ActuationMode::Passive;
  double force = 0.0;      // N or N m (Force mode, also a feed-forward in servo modes)
  double kp = 0.0;         // N/m or N m/rad
  double kd = 0.0;         // N s/m or N m s/rad
  double target = 0.0;     // m or rad (Position) or m/s, rad/s (Velocity)
  double amplitude = 0.0;  // scripted sinusoid around target
  double frequency = 0.0;  // Hz
  double phase = 0.0;      // rad
  double effort_limit = std::numeric_limits<double>::infinity();  // |tau| clamp
  std::vector<std::array<double, 2>> keyframes;  // (t [s], q [m or rad]) over one period
  double period = 0.0;                           // s, > the last keyframe time
};

// The position reference of a Position or StablePd actuator at time t: q*(t) and qdot*(t)
// (the sinusoid or the keyframes, as documented above).
struct ActuatorReference {
  double q = 0.0, qd = 0.0;
};
ActuatorReference actuator_reference(const DofActuator& a, double t);

// Per-DoF position limit and passive viscous damping.
struct DofLimit {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool enabled() const {
    return lower > -std::numeric_limits<double>::infinity() ||
           upper < std::numeric_limits<double>::infinity();
  }
};

// One joint of a joint sequence, as MuJoCo's <joint>: a hinge about the line through `anchor`
// along `axis`, a slide along `axis`, or a ball about `anchor` (both in the follower joint frame
// at the reference configuration). docs/dynamics.md, "Joint sequences".
enum class SequenceKind : uint8_t { Hinge, Slide, Ball };
struct SequenceJoint {
  SequenceKind kind = SequenceKind::Hinge;
  Vec3 anchor = Vec3::Zero();
  Vec3 axis = Vec3::UnitX();  // unit (hinge, slide)
  std::string name;           // for messages
  int dofs() const { return kind == SequenceKind::Ball ? 3 : 1; }
  int width() const { return kind == SequenceKind::Ball ? 4 : 1; }  // coordinates (ball: w x y z)
};

struct Joint {
  std::string name;
  JointType type = JointType::Revolute;
  int base = -1;        // body index, -1 = world (unary joint)
  int follower = 0;     // body index
  Pose frame_base;      // joint frame in the base body's CoM frame (world frame if unary)
  Pose frame_follower;  // joint frame in the follower's CoM frame
  std::array<DofLimit, 6> limits{};        // indexed by DoF 0..d_j-1
  std::array<DofActuator, 6> actuators{};  // indexed by DoF 0..d_j-1
  std::array<double, 6> damping{};         // passive viscous damping per DoF (explicit force)
  // Rotor inertia per DoF [kg m^2 or kg] (MJCF armature): kinetic energy a qd^2 / 2 in the DoF's
  // own velocity qd, a joint-space inertia. A DoF with armature gets a compliant row that holds
  // it and the DoF's damping exactly (docs/dynamics.md, "Armature and damping rows").
  std::array<double, 6> armature{};
  // Dry (Coulomb) friction per DoF [N m or N]: a row whose impulse is bounded by friction dt
  // (ConeKind::Box; docs/dynamics.md, "Joint friction"). MJCF frictionloss, URDF friction.
  std::array<double, 6> friction{};
  bool collide_connected = false;  // let the two bodies collide with each other
  // Sequence: the joints in order; the follower frame in the base frame is M_1(q_1) ... M_n(q_n).
  std::vector<SequenceJoint> sequence;

  int dofs() const {
    if (type != JointType::Sequence) return joint_dofs(type);
    int d = 0;
    for (const SequenceJoint& s : sequence) d += s.dofs();
    return d;
  }
  int rows() const {
    return type == JointType::Sequence ? 6 - dofs() : joint_constraint_rows(type);
  }
  bool unary() const { return base < 0; }
  bool actuated() const {
    for (int k = 0; k < dofs(); ++k)
      if (actuators[k].mode != ActuationMode::Passive) return true;
    return false;
  }
};

}  // namespace moreau
