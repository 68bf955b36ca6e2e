#include "moreau/model/joint.hpp"

#include <cmath>

namespace moreau {

namespace {
constexpr const char* kJointNames[kNumJointTypes] = {"free",        "revolute",  "prismatic",
                                                     "cylindrical", "universal", "spherical",
                                                     "cartesian",   "fixed",     "sequence"};
}

const char* joint_type_name(JointType t) {
  return kJointNames[static_cast<int>(t)];
}

bool parse_joint_type(const std::string& s, JointType* out) {
  for (int i = 0; i < kNumJointTypes; ++i)
    if (s == kJointNames[i]) {
      *out = static_cast<JointType>(i);
      return true;
    }
  return false;
}

int joint_constraint_rows(JointType t) {
  switch (t) {
    case JointType::Free:
      return 0;
    case JointType::Revolute:
      return 5;
    case JointType::Prismatic:
      return 5;
    case JointType::Cylindrical:
      return 4;
    case JointType::Universal:
      return 4;
    case JointType::Spherical:
      return 3;
    case JointType::Cartesian:
      return 3;
    case JointType::Fixed:
      return 6;
    case JointType::Sequence:
      return 6;  // per joint: Joint::rows()
  }
  return 0;
}

const char* actuation_mode_name(ActuationMode m) {
  switch (m) {
    case ActuationMode::Passive:
      return "passive";
    case ActuationMode::Force:
      return "force";
    case ActuationMode::Position:
      return "position";
    case ActuationMode::Velocity:
      return "velocity";
    case ActuationMode::StablePd:
      return "stable-pd";
  }
  return "?";
}

ActuatorReference actuator_reference(const DofActuator& a, double t) {
  constexpr double kPi = 3.14159265358979323846;
  ActuatorReference r;
  if (a.keyframes.empty()) {
    if (a.amplitude == 0.0) {  // a fixed target (no sine to evaluate)
      r.q = a.target;
      r.qd = 0.0;
      return r;
    }
    const double phase = 2.0 * kPi * a.frequency * t + a.phase;
    r.q = a.target + a.amplitude * std::sin(phase);
    r.qd = a.amplitude * 2.0 * kPi * a.frequency * std::cos(phase);
    return r;
  }
  // Periodic cubic Hermite interpolation with Catmull-Rom tangents m_k = (q_k+1 - q_k-1) /
  // (t_k+1 - t_k-1), indices and times wrapped over the period.
  const auto& kf = a.keyframes;
  const int n = static_cast<int>(kf.size());
  const double T = a.period;
  double tau = std::fmod(t, T);
  if (tau < 0.0) tau += T;
  int k = n - 1;  // the segment [t_k, t_k+1) holding tau (wrapping after the last keyframe)
  for (int i = 0; i + 1 < n; ++i)
    if (tau >= kf[i][0] && tau < kf[i + 1][0]) k = i;
  auto time = [&](int i) {  // t_i unwrapped around the period
    const int wraps = (i >= 0 ? i / n : -((-i + n - 1) / n));
    return kf[((i % n) + n) % n][0] + wraps * T;
  };
  auto value = [&](int i) { return kf[((i % n) + n) % n][1]; };
  if (k == n - 1 && tau < kf[0][0]) tau += T;  // before the first keyframe: the wrapped segment
  const double t0 = time(k), t1 = time(k + 1), h = t1 - t0;
  const double m0 = n == 1 ? 0.0 : (value(k + 1) - value(k - 1)) / (t1 - time(k - 1));
  const double m1 = n == 1 ? 0.0 : (value(k + 2) - value(k)) / (time(k + 2) - t0);
  const double s = (tau - t0) / h, s2 = s * s, s3 = s2 * s;
  const double y0 = value(k), y1 = value(k + 1);
  r.q = a.target + (2 * s3 - 3 * s2 + 1) * y0 + (s3 - 2 * s2 + s) * h * m0 +
        (-2 * s3 + 3 * s2) * y1 + (s3 - s2) * h * m1;
  r.qd = ((6 * s2 - 6 * s) * y0 + (3 * s2 - 4 * s + 1) * h * m0 + (-6 * s2 + 6 * s) * y1 +
          (3 * s2 - 2 * s) * h * m1) /
         h;
  return r;
}

}  // namespace moreau
