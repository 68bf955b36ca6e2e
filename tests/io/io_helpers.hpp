#pragma once
// What the import tests share: where their files are, and poses written as MuJoCo and URDF do.
#include <Eigen/Geometry>
#include <string>

#include "moreau/io/urdf_mjcf.hpp"

namespace moreau::io_test {

inline const std::string kData = std::string(MOREAU_SOURCE_DIR) + "/tests/data/";
inline const std::string kBin = std::string(MOREAU_BINARY_DIR) + "/moreau";

// Rotation by a about axis (any length).
inline Quat rot(double a, const Vec3& axis) {
  return Quat(Eigen::AngleAxisd(a, axis.normalized()));
}
inline Pose tr(double x, double y, double z) {
  return {Vec3(x, y, z), Quat::Identity()};
}
inline Pose rt(const Quat& q) {
  return {Vec3::Zero(), q};
}

// Index of the link named `name` in the imported tree, -1 if none.
inline int link(const ImportedModel& m, const std::string& name) {
  for (size_t i = 0; i < m.tree.links.size(); ++i)
    if (m.tree.links[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace moreau::io_test
