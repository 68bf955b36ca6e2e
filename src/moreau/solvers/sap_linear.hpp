#pragma once
// The Newton linear algebra of SAP (Castro et al. 2023, Sec. IV-A and IV-D): the Hessian
// H = M + J^T G J (eq. 39) factored once per Newton iteration and solved for the search
// direction. Two backends with the same result to round-off:
//   dense   H assembled as a dense 6 nb x 6 nb matrix, Eigen's LLT;
//   sparse  H assembled directly from its 6x6 body blocks in compressed-column form (M is block
//           diagonal, J^T G J couples the two bodies a constraint touches, so the pattern is the
//           contact graph between bodies) and factored by CHOLMOD's supernodal Cholesky. The
//           symbolic analysis (fill-reducing AMD ordering, supernodes) is made once per step
//           and reused while the body-pair pattern equals the previous step's; the numeric
//           factorization runs once per Newton iteration.
// Without CHOLMOD (MOREAU_HAVE_CHOLMOD undefined) every request takes the dense path.
// docs/solvers.md (section `sap`) documents the choice and its threshold.
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>

#include "moreau/solvers/sap.hpp"

namespace moreau::sap {

enum class LinearSolver { Dense, Sparse };
const char* linear_solver_name(LinearSolver s);

// True when moreau was built with CHOLMOD (the sparse backend exists).
bool sparse_available();

class HessianSolver {
 public:
  HessianSolver();
  ~HessianSolver();
  HessianSolver(const HessianSolver&) = delete;
  HessianSolver& operator=(const HessianSolver&) = delete;

  // Picks the backend for p (force: -1 auto, 0 dense, 1 sparse; sparse without CHOLMOD is
  // dense). Auto takes dense when 6 nb <= dense_max or when more than a quarter of the body
  // blocks of the lower triangle of H are non-zero. On the sparse path, builds the pattern of H
  // and its symbolic analysis unless the body-pair pattern equals the previous one.
  void setup(const Problem& p, int force, int dense_max);
  // Assembles H = M + J^T G J (G per constraint block, top-left size x size used) and factors
  // it. Returns false when H is not numerically positive definite.
  bool factor(const Problem& p, const std::vector<Mat6R>& G);
  // x <- H^-1 x for the last factor(). Returns false on a CHOLMOD failure.
  bool solve_in_place(VecRef x);

  LinearSolver backend() const { return backend_; }
  int analyses() const { return analyses_; }  // symbolic analyses so far (sparse path)
  int factorizations() const { return factorizations_; }

 private:
  LinearSolver backend_ = LinearSolver::Dense;
  int n_ = 0;
  int analyses_ = 0, factorizations_ = 0;
  // Dense path.
  MatX H_;
  Eigen::LLT<MatX> llt_;
  // Sparse path: the strictly-lower body pairs (column body j, row body i > j), sorted, that
  // define the pattern; where each body's diagonal block and each constraint block's coupling
  // block start in the value array, and the column stride of each body column.
  std::vector<std::pair<int, int>> pairs_, new_pairs_;
  std::vector<int> col_start_, col_stride_;  // per body j: value index of H(6j, 6j), 6 |rows|
  std::vector<int> coupling_;                // per constraint block: start of its lower block
  int pattern_bodies_ = -1;
  struct Cholmod;
  std::unique_ptr<Cholmod> cm_;
  void build_pattern(const Problem& p);
  void locate_blocks(const Problem& p);
  bool factor_sparse(const Problem& p, const std::vector<Mat6R>& G);
};

}  // namespace moreau::sap
