#pragma once
// ngn internals shared by its translation units (not part of the solver's interface).
#include <Eigen/QR>

#include "moreau/solvers/ngn.hpp"

namespace moreau::ngn {

// out = F'(x) u with the region Jacobian of each block at x (off-edge formulas).
void region_jacobian_times(const Problem& p, const VecX& x, const VecX& u, VecX& out);
// out = J(x) u = (A - I) F'(x) u - u; uses s.w.
void jacobian_times(const Problem& p, const VecX& x, const VecX& u, Scratch& s, VecX& out);

// Per-block state of one Gauss-Newton pass: the chosen dF/dx block (blended on active edges,
// A.7) and the orthonormal basis of the block's part of B (A.8): ncols = 3 (or the joint's
// size) off edges and on inactive edges, 2 on an active plane or cone edge, 0 on an active
// limit edge.
struct BlockState {
  Mat3 F = Mat3::Zero();
  Mat3 basis = Mat3::Identity();
  int ncols = 3;
  int col = 0;               // first column of the block in B
  bool cone_active = false;  // project x_C, x_N onto the cone edge (A.8 curvature fix)
  bool edge = false;         // on an edge (active or not)
};

struct Workspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Ngn;
  MatX Am;         // A - I, A = D + R (dense)
  MatX J, JB, HB;  // J (n x n), J B (n x m), B^T H B (m x m, top-left)
  VecX x, xN, xC, xbest, rx, q, gB, stepB, dx, eps, Jeps;
  std::vector<BlockState> blocks;
  Eigen::CompleteOrthogonalDecomposition<MatX> cod;  // all-stick initialisation A^+
  Scratch s;
};

// Fills w.blocks for the point x with residual r and q = (A - I) r; returns m = sum ncols.
int classify_blocks(const Problem& p, const VecX& x, const VecX& r, const VecX& q, double eps,
                    Workspace& w);

}  // namespace moreau::ngn
