#pragma once
// Position-level post-stabilization of joints (docs/dynamics.md, "Position projection"): after
// a step, Gauss-Newton iterations on the position errors phi(s) of every joint (loop closures
// included) and of every violated limit, each the minimal correction in the mass metric,
//   dq = -M^-1 J^T (J M^-1 J^T)^-1 phi,
// applied on the manifold (r += dr, q = Exp(dtheta) q). Contacts are not projected. The
// Delassus matrix J M^-1 J^T of each connected group of jointed bodies (an island) is assembled
// from 6x6 body blocks, one block row per joint, and factored block-sparse along the joint graph
// (math/block_cholesky.hpp: no fill on the humanoids' trees).
#include <array>
#include <limits>
#include <vector>

#include "moreau/dynamics/joint_kinematics.hpp"
#include "moreau/dynamics/settings.hpp"
#include "moreau/math/block_cholesky.hpp"

namespace moreau {

// Cost and effect of one projection (Simulator::projection_stats).
struct ProjectionStats {
  int iterations = 0;         // Gauss-Newton corrections applied
  int rows = 0;               // position-error rows: joint rows + violated limits
  double error_before = 0.0;  // max |phi| before the projection [m or rad]
  double error_after = 0.0;   // max |phi| after
  double time_s = 0.0;        // wall time of the projection
};

class PositionProjector {
 public:
  explicit PositionProjector(const Model& model);
  // Projects the positions of s (velocities untouched). Allocates nothing after the first call.
  const ProjectionStats& project(State& s, const DynamicsSettings& st);
  const ProjectionStats& stats() const { return stats_; }
  // Every joint's axes (joint_axes) at the positions of s, when the last projection ended at
  // exactly those positions (bitwise): the next step's ProblemBuilder::build reuses them instead
  // of evaluating the joints again. nullptr otherwise. (A joint sequence's constraint basis and
  // angle branch follow its earlier evaluations, as they would in the builder's own.)
  const std::vector<JointAxes>* axes_at(const State& s) const;

 private:
  using Rows6 = Eigen::Matrix<double, 6, 6, Eigen::RowMajor>;
  double max_limit_correction_ = std::numeric_limits<double>::infinity();  // of project()'s st
  double max_joint_correction_ = std::numeric_limits<double>::infinity();
  struct JointRows {
    Rows6 J[2];                    // rows for follower (0) and base (1)
    Vec6 phi = Vec6::Zero();       // position errors of the rows
    int n = 0;                     // rows in use: constrained axes, then violated limits
    int limits = 0;                // violated limits kept for this projection
    std::array<int, 6> dof{};      // their DoF index
    std::array<double, 6> sign{};  // +1 lower bound, -1 upper bound
    // the gap g = sign (q - bound) each is projected to: 0, or g - max_limit_correction where
    // the limit was violated by more (DynamicsSettings::max_limit_correction)
    std::array<double, 6> target{};
    // the joint rows' targets: 0, or the error less max_joint_correction where it was larger
    std::array<double, 6> joint_target{};
    int island = -1;            // island,
    int local = 0, offset = 0;  // block index and row offset inside it
    int capacity = 0;           // rows + enabled limits: the block's size
  };
  struct Island {
    std::vector<int> joints;
    int capacity = 0;
    BlockCholesky chol;  // J M^-1 J^T over the joints' capacities (unused rows: unit diagonal)
    bool factored = false;
    VecX rhs, x, res, scratch;  // phi, then the multipliers; refinement scratch
  };
  // y_i = (J M^-1 J^T x)_i over the island's active rows (matrix-free, through the bodies).
  void apply_delassus(const Island& isl, const VecX& x, VecX& y);
  double evaluate(const State& s, bool choose_limits);
  void correct(State& s, bool chord);
  void apply_correction(const Island& isl);

  const Model* model_;
  std::vector<JointRows> rows_;
  std::vector<Island> islands_;
  std::vector<std::vector<std::pair<int, int>>> incidence_;  // per body: (joint, slot)
  std::vector<Mat6> minv_;
  std::vector<Vec6> dq_, f_;  // the correction; apply_delassus's body impulses
  std::vector<char> done_;
  std::vector<Vec3> r_prev_;
  std::vector<Quat> q_prev_;
  std::vector<JointAxes> axes_;
  std::vector<Vec3> r_eval_;  // the positions axes_ were evaluated at
  std::vector<Quat> q_eval_;
  bool evaluated_ = false;
  ProjectionStats stats_;
};

}  // namespace moreau
