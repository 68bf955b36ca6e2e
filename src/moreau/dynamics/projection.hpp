#pragma once
// Position-level post-stabilization of joints (docs/dynamics.md, "Position projection"): after
// a step, Gauss-Newton iterations on the position errors phi(s) of every joint (loop closures
// included) and of every violated limit, each the minimal correction in the mass metric,
//   dq = -M^-1 J^T (J M^-1 J^T)^-1 phi,
// applied on the manifold (r += dr, q = Exp(dtheta) q). Contacts are not projected. The
// Delassus matrix J M^-1 J^T is assembled from 6x6 body blocks per connected group of jointed
// bodies (an island) and factored densely per island.
#include <array>
#include <vector>

#include <Eigen/Cholesky>

#include "moreau/dynamics/joint_kinematics.hpp"
#include "moreau/dynamics/settings.hpp"

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
  // Projects the positions of s (velocities untouched). Allocates nothing after construction.
  const ProjectionStats& project(State& s, const DynamicsSettings& st);
  const ProjectionStats& stats() const { return stats_; }

 private:
  using Rows6 = Eigen::Matrix<double, 6, 6, Eigen::RowMajor>;
  struct JointRows {
    Rows6 J[2];                    // rows for follower (0) and base (1)
    Vec6 phi = Vec6::Zero();       // position errors of the rows
    int n = 0;                     // rows in use: constrained axes, then violated limits
    int limits = 0;                // violated limits kept for this projection
    std::array<int, 6> dof{};      // their DoF index
    std::array<double, 6> sign{};  // +1 lower bound, -1 upper bound
    int island = -1, offset = 0;   // island and row offset inside it
  };
  struct Island {
    std::vector<int> joints;
    int capacity = 0;
    MatX A, L;         // J M^-1 J^T of the active rows (top-left corner) and its Cholesky factor
    VecX rhs, x, res;  // phi, then the multipliers; refinement scratch
  };
  double evaluate(const State& s, bool choose_limits);
  void correct(State& s);

  const Model* model_;
  std::vector<JointRows> rows_;
  std::vector<Island> islands_;
  std::vector<std::vector<std::pair<int, int>>> incidence_;  // per body: (joint, slot)
  std::vector<Mat6> minv_;
  std::vector<Vec6> dq_;
  std::vector<Vec3> r_prev_;
  std::vector<Quat> q_prev_;
  std::vector<JointAxes> axes_;
  ProjectionStats stats_;
};

}  // namespace moreau
