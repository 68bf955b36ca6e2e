// SAP's Hessian H = M + J^T G J (Castro et al. 2023, eq. 39): dense LLT or CHOLMOD's supernodal
// sparse Cholesky on the block pattern of the contact graph (Sec. IV-D).
#include "moreau/solvers/sap_linear.hpp"

#include <algorithm>

#ifdef MOREAU_HAVE_CHOLMOD
#include <cholmod.h>
#endif

namespace moreau::sap {

const char* linear_solver_name(LinearSolver s) {
  return s == LinearSolver::Dense ? "dense" : "sparse";
}

bool sparse_available() {
#ifdef MOREAU_HAVE_CHOLMOD
  return true;
#else
  return false;
#endif
}

// CHOLMOD's state: its Common (settings, workspace), the matrix A (lower triangle of H, its
// pattern fixed between analyses), the symbolic-and-numeric factor L, and solve2's reusable
// dense workspaces.
struct HessianSolver::Cholmod {
#ifdef MOREAU_HAVE_CHOLMOD
  cholmod_common c;
  cholmod_sparse* A = nullptr;
  cholmod_factor* L = nullptr;
  cholmod_dense *X = nullptr, *Y = nullptr, *E = nullptr;
  Cholmod() {
    cholmod_start(&c);
    c.supernodal = CHOLMOD_SUPERNODAL;  // supernodal LL^T (dense BLAS kernels on supernodes)
    c.nmethods = 1;                     // one fill-reducing ordering: AMD, postordered
    c.method[0].ordering = CHOLMOD_AMD;
    c.postorder = 1;
    c.print = 0;  // failures are reported through c.status, not printed
    c.quick_return_if_not_posdef = 1;
  }
  ~Cholmod() {
    cholmod_free_dense(&X, &c);
    cholmod_free_dense(&Y, &c);
    cholmod_free_dense(&E, &c);
    cholmod_free_factor(&L, &c);
    cholmod_free_sparse(&A, &c);
    cholmod_finish(&c);
  }
#endif
};

HessianSolver::HessianSolver() = default;
HessianSolver::~HessianSolver() = default;

namespace {
// H = M + J^T G J assembled body block by body block (eq. 39) into a dense matrix.
void assemble_dense(const Problem& p, const std::vector<Mat6R>& G, MatX& H) {
  H.setZero();
  for (int i = 0; i < p.num_bodies; ++i) H.block<6, 6>(6 * i, 6 * i) = p.M[i];
  Mat6R GJ;
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    const int s = b.size;
    for (int c = 0; c < 2; ++c) {
      if (b.body[c] < 0) continue;
      GJ.topRows(s).noalias() = G[i].topLeftCorner(s, s) * b.J[c].topRows(s);
      for (int a = 0; a < 2; ++a)
        if (b.body[a] >= 0)
          H.block<6, 6>(6 * b.body[a], 6 * b.body[c]).noalias() +=
              b.J[a].topRows(s).transpose() * GJ.topRows(s);
    }
  }
}
}  // namespace

void HessianSolver::setup(const Problem& p, int force, int dense_max) {
  const int nb = p.num_bodies;
  n_ = 6 * nb;
  backend_ = LinearSolver::Dense;
  if (sparse_available() && force != 0 && nb > 0) {
    // The strictly-lower body pairs (j < i) coupled by a constraint: the off-diagonal blocks.
    new_pairs_.clear();
    for (const ConstraintBlock& b : p.blocks)
      if (b.body[0] >= 0 && b.body[1] >= 0 && b.body[0] != b.body[1])
        new_pairs_.emplace_back(std::min(b.body[0], b.body[1]), std::max(b.body[0], b.body[1]));
    std::sort(new_pairs_.begin(), new_pairs_.end());
    new_pairs_.erase(std::unique(new_pairs_.begin(), new_pairs_.end()), new_pairs_.end());
    // Auto: dense for small H, or when a quarter of the lower body blocks are non-zero.
    const double lower_blocks = 0.5 * nb * (nb + 1.0);
    const bool dense = n_ <= dense_max || 4.0 * (nb + new_pairs_.size()) > lower_blocks;
    if (force == 1 || !dense) backend_ = LinearSolver::Sparse;
  }
  if (backend_ == LinearSolver::Dense) {
    if (H_.rows() != n_) H_.resize(n_, n_);
    return;
  }
  build_pattern(p);
  locate_blocks(p);
}

bool HessianSolver::factor(const Problem& p, const std::vector<Mat6R>& G) {
  ++factorizations_;
  if (backend_ == LinearSolver::Sparse) return factor_sparse(p, G);
  assemble_dense(p, G, H_);
  llt_.compute(H_);
  return llt_.info() == Eigen::Success;
}

#ifdef MOREAU_HAVE_CHOLMOD

void HessianSolver::build_pattern(const Problem& p) {
  const int nb = p.num_bodies;
  if (nb == pattern_bodies_ && new_pairs_ == pairs_ && cm_ && cm_->L) return;  // reuse analysis
  pairs_.swap(new_pairs_);
  pattern_bodies_ = nb;
  if (!cm_) cm_ = std::make_unique<Cholmod>();
  cholmod_common& c = cm_->c;
  // Body column j holds the rows of body j (the full 6x6 diagonal block; CHOLMOD reads only its
  // lower triangle, stype = -1) and of every body i > j coupled to j, in increasing i.
  col_start_.assign(nb, 0);
  col_stride_.assign(nb, 6);
  for (const auto& [j, i] : pairs_) col_stride_[j] += 6;
  int nnz = 0;
  for (int j = 0; j < nb; ++j) {
    col_start_[j] = nnz;
    nnz += 6 * col_stride_[j];
  }
  cholmod_sparse*& A = cm_->A;
  if (A && (static_cast<int>(A->ncol) != n_ || static_cast<int>(A->nzmax) < nnz))
    cholmod_free_sparse(&A, &c);
  if (!A) A = cholmod_allocate_sparse(n_, n_, nnz, 1, 1, -1, CHOLMOD_REAL, &c);
  int* Ap = static_cast<int*>(A->p);
  int* Ai = static_cast<int*>(A->i);
  size_t q = 0;
  for (int j = 0; j < nb; ++j) {
    const auto first = std::lower_bound(pairs_.begin(), pairs_.end(), std::make_pair(j, -1));
    for (int col = 0; col < 6; ++col) {
      Ap[6 * j + col] = col_start_[j] + col * col_stride_[j];
      for (int r = 0; r < 6; ++r) Ai[q++] = 6 * j + r;
      for (auto it = first; it != pairs_.end() && it->first == j; ++it)
        for (int r = 0; r < 6; ++r) Ai[q++] = 6 * it->second + r;
    }
  }
  Ap[n_] = nnz;
  cholmod_free_factor(&cm_->L, &c);
  cm_->L = cholmod_analyze(A, &c);
  ++analyses_;
}

void HessianSolver::locate_blocks(const Problem& p) {
  coupling_.resize(p.blocks.size());
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    coupling_[k] = -1;
    if (b.body[0] < 0 || b.body[1] < 0 || b.body[0] == b.body[1]) continue;
    const int j = std::min(b.body[0], b.body[1]), i = std::max(b.body[0], b.body[1]);
    const auto first = std::lower_bound(pairs_.begin(), pairs_.end(), std::make_pair(j, -1));
    const auto at = std::lower_bound(first, pairs_.end(), std::make_pair(j, i));
    coupling_[k] = col_start_[j] + 6 * static_cast<int>(1 + (at - first));
  }
}

bool HessianSolver::factor_sparse(const Problem& p, const std::vector<Mat6R>& G) {
  cholmod_sparse* A = cm_->A;
  cholmod_factor* L = cm_->L;
  if (!A || !L) return false;
  double* x = static_cast<double*>(A->x);
  std::fill(x, x + static_cast<int*>(A->p)[n_], 0.0);
  // Adds a 6x6 block at value index `start` of a body column with column stride `stride`.
  auto add = [x](int start, int stride, const Mat6R& B) {
    for (int col = 0; col < 6; ++col)
      for (int r = 0; r < 6; ++r) x[start + col * stride + r] += B(r, col);
  };
  for (int j = 0; j < p.num_bodies; ++j) add(col_start_[j], col_stride_[j], p.M[j]);
  Mat6R GJ, B;
  for (int k = 0; k < p.num_blocks(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    const int s = b.size;
    for (int c = 0; c < 2; ++c) {
      const int bc = b.body[c];
      if (bc < 0) continue;
      GJ.topRows(s).noalias() = G[k].topLeftCorner(s, s) * b.J[c].topRows(s);
      for (int a = 0; a < 2; ++a) {
        const int ba = b.body[a];
        if (ba < bc) continue;  // the upper block (ba < bc) is the transpose of a lower one
        B.noalias() = b.J[a].topRows(s).transpose() * GJ.topRows(s);
        if (ba == bc)
          add(col_start_[ba], col_stride_[ba], B);
        else
          add(coupling_[k], col_stride_[bc], B);
      }
    }
  }
  cholmod_factorize(A, L, &cm_->c);
  return cm_->c.status == CHOLMOD_OK && L->minor == static_cast<size_t>(n_);
}

bool HessianSolver::solve_in_place(VecRef x) {
  if (backend_ == LinearSolver::Dense) {
    llt_.solveInPlace(x);
    return true;
  }
  cholmod_dense b{static_cast<size_t>(n_),
                  1,
                  static_cast<size_t>(n_),
                  static_cast<size_t>(n_),
                  x.data(),
                  nullptr,
                  CHOLMOD_REAL,
                  CHOLMOD_DOUBLE};
  if (!cholmod_solve2(CHOLMOD_A, cm_->L, &b, nullptr, &cm_->X, nullptr, &cm_->Y, &cm_->E, &cm_->c))
    return false;
  const double* s = static_cast<const double*>(cm_->X->x);
  std::copy(s, s + n_, x.data());
  return true;
}

#else  // no CHOLMOD: setup() never picks the sparse backend

void HessianSolver::build_pattern(const Problem&) {}
void HessianSolver::locate_blocks(const Problem&) {}
bool HessianSolver::factor_sparse(const Problem&, const std::vector<Mat6R>&) {
  return false;
}
bool HessianSolver::solve_in_place(VecRef x) {
  llt_.solveInPlace(x);
  return true;
}

#endif

}  // namespace moreau::sap
