#pragma once
// The diagonal blocks (D + R)_ii of the (possibly softened) Delassus operator and their inverses,
// the local operators of every block Gauss-Seidel solver (report Sec. 3.3, eq. 95-96 for R).
#include <vector>

#include "moreau/dynamics/problem.hpp"

namespace moreau {

// (D + R)_ii for block i in the top-left size x size corner, zero elsewhere. R (Problem::R, the
// softening compliance) is added only when present and `softening` is true.
Mat6 regularized_diagonal_block(const Problem& p, int i, bool softening = true);

// How a diagonal block is regularized before it is inverted. With A = (D [+ R])_ii and
// s = max(scale_floor, max_k |A_kk|), the inverse is that of A + regularization * s * I: the
// regularization is relative to the block's largest diagonal entry (floored by scale_floor, so
// scale_floor = 1 makes it absolute for blocks with entries below 1). A block with s = 0 (only
// possible with scale_floor = 0) is inert and gets a zero inverse.
struct BlockRegularization {
  double regularization = 1e-12;
  double scale_floor = 1e-300;
  bool softening = true;  // include R
};

// ((D [+ R])_ii + eps I)^-1 in the top-left size x size corner of the result (LDLT of the block
// padded to 6 x 6 with the identity).
Mat6 block_diagonal_inverse(const Problem& p, int i, const BlockRegularization& reg);

// The inverses of every diagonal block, row-major and packed: block i occupies
// out[start[i] .. start[i] + size_i^2); start has num_blocks + 1 entries. Allocates only when the
// problem grows.
void block_diagonal_inverses(const Problem& p, const BlockRegularization& reg,
                             std::vector<double>& out, std::vector<int>& start);

}  // namespace moreau
