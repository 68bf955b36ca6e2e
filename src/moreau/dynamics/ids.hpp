#pragma once
// Persistent constraint ids, used to carry a solution over to the next step (warm start).
#include <cstdint>

namespace moreau {

inline uint64_t joint_block_id(int joint) {
  return (uint64_t{0} << 62) | static_cast<uint64_t>(joint);
}
// side: 0 lower, 1 upper
inline uint64_t limit_block_id(int joint, int dof, int side) {
  return (uint64_t{1} << 62) | (static_cast<uint64_t>(joint) << 8) |
         (static_cast<uint64_t>(dof) << 1) | side;
}
// A joint DoF's dry-friction row: dof codes 8..13 beside the limits' 0..5.
inline uint64_t friction_block_id(int joint, int dof) {
  return limit_block_id(joint, 8 + dof, 0);
}
inline uint64_t contact_block_id(uint64_t contact_id) {
  return (uint64_t{2} << 62) | (contact_id & ((uint64_t{1} << 62) - 1));
}

}  // namespace moreau
