#pragma once
// The structure of a model: counts, the rank of the joint Jacobian at a state (redundant rows,
// mechanism DoFs) and per-body / per-joint lists. `moreau inspect` prints it
// (apps/moreau/model_summary_print.hpp).
#include <array>
#include <string>
#include <vector>

#include "moreau/model/state.hpp"

namespace moreau {

inline constexpr int kNumShapeTypes = 9;  // ShapeType::Plane .. ShapeType::HeightField

struct BodySummary {
  std::string name;
  double mass = 0.0;   // kg
  Vec3 inertia_diag;   // diagonal of the body-frame inertia [kg m^2]
  int geometries = 0;  // geometries attached to the body
};

struct JointSummary {
  std::string name;
  std::string type;       // joint_type_name()
  std::string base;       // body name, or "world"
  std::string follower;   // body name
  int rows = 0;           // constraint rows m_j
  int dofs = 0;           // d_j = 6 - m_j
  int actuated_dofs = 0;  // DoFs whose actuator mode is not passive
  int limited_dofs = 0;   // DoFs with a finite lower or upper limit
};

struct ModelSummary {
  std::string name;
  int bodies = 0;
  int joints = 0;
  int constraint_rows = 0;  // sum m_j (Model::joint_rows)
  int rank_J = 0;           // numerical rank of the joint Jacobian at the given state
  int redundant_rows = 0;   // constraint_rows - rank_J
  int dofs = 0;             // mechanism DoFs 6 nb - rank_J
  int joint_dofs = 0;       // sum over joints of d_j (joint-local DoFs, not mechanism DoFs)
  double mass_ratio = 0.0;  // largest / smallest body mass
  double total_mass = 0.0;  // kg
  std::array<int, kNumJointTypes> joint_types{};  // count per JointType
  int unary_joints = 0;                           // base = world
  int binary_joints = 0;
  int actuated_dofs = 0;  // DoFs with a non-passive actuator
  int passive_dofs = 0;   // all DoFs of joints that have no actuator at all
  int limited_dofs = 0;   // DoFs with a finite limit
  int geometries = 0;
  std::array<int, kNumShapeTypes> geometry_types{};  // count per ShapeType
  std::vector<BodySummary> body_list;
  std::vector<JointSummary> joint_list;
};

// Summarizes `m` with the joint Jacobian evaluated at `s` (usually the scene's initial state).
ModelSummary summarize_model(const Model& m, const State& s);

}  // namespace moreau
