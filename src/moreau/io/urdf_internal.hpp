#pragma once
// Internals of the URDF importer shared by urdf_check.cpp and urdf_import.cpp.
#include <map>
#include <string>
#include <vector>

#include "moreau/io/urdf_mjcf_tree.hpp"

namespace moreau::urdf_detail {

// <loop_joint> as written (names resolved later).
struct LoopSpec {
  std::string name, element;
  int line = 0;
  JointType type = JointType::Spherical;
  std::string link[2];
  Vec3 xyz[2] = {Vec3::Zero(), Vec3::Zero()}, rpy[2] = {Vec3::Zero(), Vec3::Zero()};
  bool given[2] = {false, false};  // link2 without xyz/rpy: where link1's frame is at reference
  Vec3 axis = Vec3::UnitX();
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};

struct Prescan {
  struct Edge {
    std::string joint, parent, child;
    int line = 0;
  };
  std::string robot_name, root;
  std::map<std::string, int> link_line, joint_line;
  std::vector<Edge> edges;
  std::vector<LoopSpec> loops;
  std::vector<std::string> warnings;
};

// Throws ErrorException naming the file, line and element on malformed XML, a root other than
// <robot>, duplicate names, unknown links, a link with two parents, cycles, several roots.
Prescan prescan_urdf(const std::string& xml, const std::string& file);

// URDF roll-pitch-yaw (fixed axes x, y, z): R = Rz(yaw) Ry(pitch) Rx(roll).
inline Quat rpy_quat(const Vec3& rpy) {
  return Quat(Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) *
              Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
              Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()));
}

}  // namespace moreau::urdf_detail
