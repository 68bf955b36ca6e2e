#include "moreau/ncp/blocks.hpp"

#include <algorithm>

#include <Eigen/Cholesky>

namespace moreau {

Mat6 regularized_diagonal_block(const Problem& p, int i, bool softening) {
  const ConstraintBlock& b = p.blocks[i];
  Mat6 A = Mat6::Zero();
  A.topLeftCorner(b.size, b.size) = p.D.diagonal(i);
  if (softening && p.R.size() == p.nl)
    for (int k = 0; k < b.size; ++k) A(k, k) += p.R[b.offset + k];  // eq. 95
  return A;
}

Mat6 block_diagonal_inverse(const Problem& p, int i, const BlockRegularization& reg) {
  const int n = p.blocks[i].size;
  Mat6 A = regularized_diagonal_block(p, i, reg.softening);
  const double s = std::max(reg.scale_floor, A.diagonal().head(n).cwiseAbs().maxCoeff());
  if (!(s > 0.0)) return Mat6::Zero();  // an inert row
  for (int k = 0; k < n; ++k) A(k, k) += reg.regularization * s;
  A.bottomRightCorner(6 - n, 6 - n).setIdentity();
  Mat6 inv = Eigen::LDLT<Mat6>(A).solve(Mat6::Identity());
  inv.bottomRightCorner(6 - n, 6 - n).setZero();
  return inv;
}

void block_diagonal_inverses(const Problem& p, const BlockRegularization& reg,
                             std::vector<double>& out, std::vector<int>& start) {
  const int nbk = p.num_blocks();
  start.resize(nbk + 1);
  int total = 0;
  for (int i = 0; i < nbk; ++i) {
    start[i] = total;
    total += p.blocks[i].size * p.blocks[i].size;
  }
  start[nbk] = total;
  out.resize(total);
  for (int i = 0; i < nbk; ++i) {
    const int n = p.blocks[i].size;
    const Mat6 inv = block_diagonal_inverse(p, i, reg);
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < n; ++c) out[start[i] + a * n + c] = inv(a, c);
  }
}

}  // namespace moreau
