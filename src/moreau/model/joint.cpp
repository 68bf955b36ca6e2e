#include "moreau/model/joint.hpp"

namespace moreau {

namespace {
constexpr const char* kJointNames[kNumJointTypes] = {
    "free", "revolute", "prismatic", "cylindrical", "universal", "spherical", "cartesian", "fixed"};
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
  }
  return "?";
}

}  // namespace moreau
