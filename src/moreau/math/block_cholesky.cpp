#include "moreau/math/block_cholesky.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moreau {

namespace {

// X <- X L^-T for X (m x n, column-major, leading dimension ld) and L lower (n x n), inv the
// inverses of L's diagonal (0 for a dropped pivot: X's column k becomes 0).
void solve_right_transpose(const double* L, const double* inv, int n, double* X, int m, int ld) {
  for (int k = 0; k < n; ++k) {
    double* xk = X + k * ld;
    for (int p = 0; p < k; ++p) {
      const double l = L[k + p * n];
      const double* xp = X + p * ld;
      for (int r = 0; r < m; ++r) xk[r] -= xp[r] * l;
    }
    for (int r = 0; r < m; ++r) xk[r] *= inv[k];
  }
}

// In-place Cholesky of a diagonal block A (n x n, lower triangle, column-major) that drops a pivot
// d <= drop a0[k] (a0: the matrix's diagonal before the factorization): the row is a linear
// combination of earlier ones to that precision (positive semidefinite A: its column below the
// pivot is then as small), so L's column k is set to 0 and inv[k] = 0. The solves then give the
// solution with 0 in the dropped rows. drop = 0: a pivot that is not positive fails. The count of
// dropped pivots is added to dropped.
bool cholesky_dropping(double* A, int n, const double* a0, double drop, double* inv, int& dropped) {
  for (int k = 0; k < n; ++k) {
    double d = A[k + k * n];
    for (int p = 0; p < k; ++p) d -= A[k + p * n] * A[k + p * n];
    if (drop > 0.0 && d <= drop * a0[k]) {
      for (int i = k; i < n; ++i) A[i + k * n] = 0.0;
      inv[k] = 0.0;
      ++dropped;
      continue;
    }
    if (!(d > 0.0)) return false;
    const double l = std::sqrt(d);
    A[k + k * n] = l;
    inv[k] = 1.0 / l;
    for (int i = k + 1; i < n; ++i) {
      double s = A[i + k * n];
      for (int p = 0; p < k; ++p) s -= A[i + p * n] * A[k + p * n];
      A[i + k * n] = s / l;
    }
  }
  return true;
}

// x <- L^-1 x (L lower n x n, inv its diagonal's inverses), x with stride 1.
void solve_lower(const double* L, const double* inv, int n, double* x) {
  for (int k = 0; k < n; ++k) {
    double s = x[k];
    for (int p = 0; p < k; ++p) s -= L[k + p * n] * x[p];
    x[k] = s * inv[k];
  }
}

// x <- L^-T x.
void solve_lower_transpose(const double* L, const double* inv, int n, double* x) {
  for (int k = n - 1; k >= 0; --k) {
    double s = x[k];
    for (int p = k + 1; p < n; ++p) s -= L[p + k * n] * x[p];
    x[k] = s * inv[k];
  }
}

}  // namespace

void BlockCholesky::analyze(const std::vector<int>& sizes, const Pairs& pairs) {
  sizes_ = sizes;
  pairs_ = pairs;
  const int nb = static_cast<int>(sizes.size());
  // The block graph, then greedy minimum degree: fewest neighbours (a tree's leaves first, as a
  // rule), then fewest neighbouring rows, then the lower index (a deterministic order).
  // Eliminating a block joins its remaining neighbours into a clique: they are L's column.
  std::vector<std::vector<int>> adj(nb);
  for (const auto& [i, j] : pairs) {
    if (i == j) continue;
    adj[i].push_back(j);
    adj[j].push_back(i);
  }
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  std::vector<char> done(nb, 0);
  std::vector<std::vector<int>> column(nb);  // by position: the neighbours' original indices
  order_.assign(nb, -1);
  pos_.assign(nb, -1);
  for (int b = 0; b < nb; ++b) {
    int best = -1, best_count = 0, best_rows = 0;
    for (int i = 0; i < nb; ++i) {
      if (done[i]) continue;
      const int count = static_cast<int>(adj[i].size());
      int rows = 0;
      for (int k : adj[i]) rows += sizes[k];
      if (best < 0 || count < best_count || (count == best_count && rows < best_rows)) {
        best = i;
        best_count = count;
        best_rows = rows;
      }
    }
    done[best] = 1;
    order_[b] = best;
    pos_[best] = b;
    column[b] = adj[best];
    for (int x : adj[best]) {  // the clique, without `best`
      std::vector<int>& ax = adj[x];
      ax.erase(std::find(ax.begin(), ax.end(), best));
      for (int y : adj[best])
        if (y != x && !std::binary_search(ax.begin(), ax.end(), y))
          ax.insert(std::lower_bound(ax.begin(), ax.end(), y), y);
    }
  }
  psize_.resize(nb);
  off_.resize(nb + 1);
  n_ = 0;
  for (int b = 0; b < nb; ++b) {
    psize_[b] = sizes[order_[b]];
    off_[b] = n_;
    n_ += psize_[b];
  }
  off_[nb] = n_;
  // Storage: the diagonal blocks, then the columns' blocks.
  diag_.resize(nb);
  col_ptr_.assign(nb + 1, 0);
  row_.clear();
  val_.clear();
  int storage = 0;
  for (int b = 0; b < nb; ++b) {
    diag_[b] = storage;
    storage += psize_[b] * psize_[b];
  }
  for (int b = 0; b < nb; ++b) {
    std::vector<int> rows;
    for (int x : column[b]) rows.push_back(pos_[x]);
    std::sort(rows.begin(), rows.end());
    for (int a : rows) {
      row_.push_back(a);
      val_.push_back(storage);
      storage += psize_[a] * psize_[b];
    }
    col_ptr_[b + 1] = static_cast<int>(row_.size());
  }
  values_.assign(storage, 0.0);
  inv_.assign(n_, 0.0);
  a0_.assign(n_, 0.0);
  upd_ptr_.assign(nb + 1, 0);
  upd_x_.clear();
  upd_y_.clear();
  upd_tgt_.clear();
  for (int b = 0; b < nb; ++b) {
    for (int ex = col_ptr_[b]; ex < col_ptr_[b + 1]; ++ex) {
      for (int ey = col_ptr_[b]; ey <= ex; ++ey) {
        const int x = row_[ex], y = row_[ey];
        const double* tgt = x == y ? values_.data() + diag_[x] : block_at(x, y);
        upd_x_.push_back(ex);
        upd_y_.push_back(ey);
        upd_tgt_.push_back(static_cast<int>(tgt - values_.data()));
      }
    }
    upd_ptr_[b + 1] = static_cast<int>(upd_x_.size());
  }
  analyzed_ = true;
}

double* BlockCholesky::block_at(int a, int b) {
  if (a == b) return values_.data() + diag_[a];
  const auto first = row_.begin() + col_ptr_[b], last = row_.begin() + col_ptr_[b + 1];
  const auto it = std::lower_bound(first, last, a);
  if (it == last || *it != a) return nullptr;
  return values_.data() + val_[it - row_.begin()];
}

void BlockCholesky::zero() {
  std::fill(values_.begin(), values_.end(), 0.0);
}

double BlockCholesky::max_diagonal() const {
  double m = 0.0;
  for (int b = 0; b < num_blocks(); ++b)
    for (int k = 0; k < psize_[b]; ++k) m = std::max(m, values_[diag_[b] + k + k * psize_[b]]);
  return m;
}

bool BlockCholesky::factor(double drop) {
  const int nb = num_blocks();
  min_pivot_ = std::numeric_limits<double>::infinity();
  max_pivot_ = 0.0;
  dropped_ = 0;
  double* v = values_.data();
  for (int b = 0; b < nb; ++b)
    for (int k = 0; k < psize_[b]; ++k) a0_[off_[b] + k] = v[diag_[b] + k + k * psize_[b]];
  for (int b = 0; b < nb; ++b) {
    const int sb = psize_[b];
    double* Lbb = v + diag_[b];
    double* inv = inv_.data() + off_[b];
    if (!cholesky_dropping(Lbb, sb, a0_.data() + off_[b], drop, inv, dropped_)) return false;
    for (int k = 0; k < sb; ++k) {
      if (inv[k] == 0.0) continue;  // dropped
      min_pivot_ = std::min(min_pivot_, Lbb[k + k * sb]);
      max_pivot_ = std::max(max_pivot_, Lbb[k + k * sb]);
    }
    for (int e = col_ptr_[b]; e < col_ptr_[b + 1]; ++e)
      solve_right_transpose(Lbb, inv, sb, v + val_[e], psize_[row_[e]], psize_[row_[e]]);
    // L_xy -= L_xb L_yb^T (eq. of the right-looking block Cholesky)
    for (int u = upd_ptr_[b]; u < upd_ptr_[b + 1]; ++u) {
      const int ex = upd_x_[u], ey = upd_y_[u];
      const int sx = psize_[row_[ex]], sy = psize_[row_[ey]];
      const double* Lx = v + val_[ex];
      const double* Ly = v + val_[ey];
      double* T = v + upd_tgt_[u];
      if (sx == 6 && sy == 6 && sb == 6) {  // 6-row blocks (the position projection's): unrolled
        using M6 = Eigen::Matrix<double, 6, 6>;
        Eigen::Map<M6>(T).noalias() -=
            Eigen::Map<const M6>(Lx) * Eigen::Map<const M6>(Ly).transpose();
        continue;
      }
      for (int c = 0; c < sy; ++c)
        for (int r = 0; r < sx; ++r) {
          double s = 0.0;
          for (int k = 0; k < sb; ++k) s += Lx[r + k * sx] * Ly[c + k * sy];
          T[r + c * sx] -= s;
        }
    }
  }
  return true;
}

void BlockCholesky::forward(double* y) const {
  const double* v = values_.data();
  for (int b = 0; b < num_blocks(); ++b) {
    const int sb = psize_[b];
    double* yb = y + off_[b];
    solve_lower(v + diag_[b], inv_.data() + off_[b], sb, yb);
    for (int e = col_ptr_[b]; e < col_ptr_[b + 1]; ++e) {
      const int a = row_[e], sa = psize_[a];
      const double* L = v + val_[e];
      double* ya = y + off_[a];
      if (sa == 6 && sb == 6) {
        Eigen::Map<Vec6>(ya).noalias() -= Eigen::Map<const Mat6>(L) * Eigen::Map<const Vec6>(yb);
        continue;
      }
      for (int k = 0; k < sb; ++k)
        for (int r = 0; r < sa; ++r) ya[r] -= L[r + k * sa] * yb[k];
    }
  }
}

void BlockCholesky::backward(double* y) const {
  const double* v = values_.data();
  for (int b = num_blocks() - 1; b >= 0; --b) {
    const int sb = psize_[b];
    double* yb = y + off_[b];
    for (int e = col_ptr_[b]; e < col_ptr_[b + 1]; ++e) {
      const int a = row_[e], sa = psize_[a];
      const double* L = v + val_[e];
      const double* ya = y + off_[a];
      if (sa == 6 && sb == 6) {
        Eigen::Map<Vec6>(yb).noalias() -=
            Eigen::Map<const Mat6>(L).transpose() * Eigen::Map<const Vec6>(ya);
        continue;
      }
      for (int k = 0; k < sb; ++k) {
        double s = 0.0;
        for (int r = 0; r < sa; ++r) s += L[r + k * sa] * ya[r];
        yb[k] -= s;
      }
    }
    solve_lower_transpose(v + diag_[b], inv_.data() + off_[b], sb, yb);
  }
}

void BlockCholesky::solve(double* x, double* scratch) const {
  const int nb = num_blocks();
  int o = 0;  // block i's offset in the original order
  for (int i = 0; i < nb; ++i) {
    std::copy(x + o, x + o + sizes_[i], scratch + off_[pos_[i]]);
    o += sizes_[i];
  }
  forward(scratch);
  backward(scratch);
  o = 0;
  for (int i = 0; i < nb; ++i) {
    std::copy(scratch + off_[pos_[i]], scratch + off_[pos_[i]] + sizes_[i], x + o);
    o += sizes_[i];
  }
}

void BlockCholesky::forward_transposed(double* X, int ld, std::vector<int>& lo,
                                       std::vector<int>& hi) const {
  const double* v = values_.data();
  for (int b = 0; b < num_blocks(); ++b) {
    const int l = lo[b], h = hi[b];
    if (l >= h) continue;
    const int sb = psize_[b];
    const double* Lbb = v + diag_[b];
    // Rows of B as Eigen maps over [l, h): the axpys vectorize.
    auto row = [&](int r) { return Eigen::Map<VecX>(X + static_cast<size_t>(r) * ld + l, h - l); };
    for (int k = 0; k < sb; ++k) {  // B_b <- L_bb^-1 B_b
      auto xk = row(off_[b] + k);
      for (int p = 0; p < k; ++p) xk -= Lbb[k + p * sb] * row(off_[b] + p);
      xk *= inv_[off_[b] + k];
    }
    for (int e = col_ptr_[b]; e < col_ptr_[b + 1]; ++e) {  // B_a -= L_ab B_b
      const int a = row_[e], sa = psize_[a];
      const double* Lab = v + val_[e];
      for (int i = 0; i < sa; ++i) {
        auto xi = row(off_[a] + i);
        for (int k = 0; k < sb; ++k) xi -= Lab[i + k * sa] * row(off_[b] + k);
      }
      if (lo[a] >= hi[a]) {
        lo[a] = l;
        hi[a] = h;
      } else {
        lo[a] = std::min(lo[a], l);
        hi[a] = std::max(hi[a], h);
      }
    }
  }
}

}  // namespace moreau
