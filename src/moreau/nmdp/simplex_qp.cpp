#include "moreau/nmdp/simplex_qp.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

namespace moreau::nmdp {

void project_simplex_groups(std::span<const int> group_sizes, VecX& w,
                            std::vector<double>& scratch) {
  int begin = 0;
  for (const int size : group_sizes) {
    auto wg = w.segment(begin, size);
    begin += size;
    double clamped_sum = 0.0;
    for (int i = 0; i < size; ++i) clamped_sum += std::max(wg[i], 0.0);
    // A sum above 1 by rounding only (as a saturated group of a previous solution may have) is
    // feasible: projecting it would move the warm start.
    if (clamped_sum <= 1.0 + 4.0 * std::numeric_limits<double>::epsilon() * size) {
      wg = wg.cwiseMax(0.0);
      continue;
    }
    // Projection onto {w >= 0, 1^T w = 1}: w_i <- max(w_i - theta, 0) with theta from the sorted
    // weights u_1 >= u_2 >= ...: rho = max{j : u_j > (sum_{k<=j} u_k - 1) / j},
    // theta = (sum_{k<=rho} u_k - 1) / rho   (Held, Wolfe & Crowder 1974).
    if (static_cast<int>(scratch.size()) < size) scratch.resize(size);
    std::copy(wg.data(), wg.data() + size, scratch.begin());
    std::sort(scratch.begin(), scratch.begin() + size, std::greater<>());
    double cumsum = 0.0, theta = 0.0;
    for (int j = 0; j < size; ++j) {
      cumsum += scratch[j];
      const double t = (cumsum - 1.0) / (j + 1);
      if (scratch[j] > t) theta = t;
    }
    wg = (wg.array() - theta).cwiseMax(0.0).matrix();
  }
}

void SimplexQp::resize(int n, int groups) {
  group_of_.resize(n);
  at_bound_.resize(n);
  group_begin_.resize(groups);
  group_size_.resize(groups);
  group_active_.resize(groups);
  free_.resize(n);
  pivot_.resize(n);
  perm_.resize(n);
  if (H_.rows() != n) H_.resize(n, n);
  g_.resize(n);
  p_.resize(n);
  gr_.resize(n);
  y_.resize(n);
}

void SimplexQp::init_working_set(std::span<const int> group_sizes, const VecX& w, double tol) {
  int begin = 0;
  for (std::size_t k = 0; k < group_sizes.size(); ++k) {
    const int size = group_sizes[k];
    group_begin_[k] = begin;
    group_size_[k] = size;
    double sum = 0.0;
    bool any_positive = false;
    for (int i = begin; i < begin + size; ++i) {
      group_of_[i] = static_cast<int>(k);
      at_bound_[i] = w[i] <= 0.0;
      any_positive = any_positive || w[i] > 0.0;
      sum += w[i];
    }
    // A saturated sum needs a free weight to carry it (else the working set is dependent).
    group_active_[k] = any_positive && sum >= 1.0 - tol;
    begin += size;
  }
}

bool SimplexQp::eqp_step(const MatX& Q, double rank_tol, double ray_tol) {
  // Reduced variables: in an inactive group every free weight is one; in an active group the
  // last free weight is eliminated by the sum constraint 1^T p_g = 0 (null-space basis Z with
  // columns e_free - e_pivot, Nocedal & Wright Sec. 16.2).
  int m = 0;
  for (std::size_t k = 0; k < group_begin_.size(); ++k) {
    const int b = group_begin_[k], e = b + group_size_[k];
    int pivot = -1;
    if (group_active_[k])
      for (int i = e - 1; i >= b && pivot < 0; --i)
        if (!at_bound_[i]) pivot = i;
    for (int i = b; i < e; ++i) {
      if (at_bound_[i] || i == pivot) continue;
      free_[m] = i;
      pivot_[m] = pivot;
      ++m;
    }
  }
  // Reduced Hessian Z^T Q Z and reduced gradient Z^T g.
  double max_diag = 0.0;
  for (int a = 0; a < m; ++a) {
    const int fa = free_[a], pa = pivot_[a];
    for (int b = 0; b <= a; ++b) {
      const int fb = free_[b], pb = pivot_[b];
      double h = Q(fa, fb);
      if (pa >= 0) h -= Q(pa, fb);
      if (pb >= 0) h -= Q(fa, pb);
      if (pa >= 0 && pb >= 0) h += Q(pa, pb);
      H_(a, b) = h;
      H_(b, a) = h;
    }
    max_diag = std::max(max_diag, H_(a, a));
    gr_[a] = g_[fa] - (pa >= 0 ? g_[pa] : 0.0);
    perm_[a] = a;
  }
  // Cholesky factorization with diagonal pivoting, P H P^T = [L11; L21] [L11^T L21^T], of rank k
  // (pivots below rank_tol * max_diag count as zero). The trailing Schur complement is kept
  // symmetric so that rows and columns can be swapped.
  const double pivot_floor = rank_tol * max_diag;
  int k = 0;
  for (; k < m; ++k) {
    int q = k;
    for (int i = k + 1; i < m; ++i)
      if (H_(i, i) > H_(q, q)) q = i;
    if (!(H_(q, q) > pivot_floor) || H_(q, q) <= 0.0) break;
    if (q != k) {
      std::swap(perm_[k], perm_[q]);
      H_.topLeftCorner(m, m).row(k).swap(H_.topLeftCorner(m, m).row(q));
      H_.topLeftCorner(m, m).col(k).swap(H_.topLeftCorner(m, m).col(q));
    }
    const double d = std::sqrt(H_(k, k));
    H_(k, k) = d;
    for (int i = k + 1; i < m; ++i) H_(i, k) /= d;
    for (int c = k + 1; c < m; ++c)
      for (int i = k + 1; i < m; ++i) H_(i, c) -= H_(i, k) * H_(c, k);
  }
  // Permuted reduced gradient; z = L11^-1 g1 (forward substitution), s = g2 - L21 z: s is the
  // reduced gradient's component along the null space N = P^T [-L11^-T L21^T; I] of H.
  for (int a = 0; a < m; ++a) y_[a] = gr_[perm_[a]];
  for (int i = 0; i < k; ++i) {
    double t = y_[i];
    for (int j = 0; j < i; ++j) t -= H_(i, j) * y_[j];
    y_[i] = t / H_(i, i);
  }
  double s_norm = 0.0;
  for (int i = k; i < m; ++i) {
    double t = y_[i];
    for (int j = 0; j < k; ++j) t -= H_(i, j) * y_[j];
    y_[i] = t;
    s_norm = std::max(s_norm, std::abs(t));
  }
  const bool bounded = k == m || s_norm <= ray_tol;
  if (bounded) {
    // Minimizer on the working set: y1 = -L11^-T z, y2 = 0 (exact when k = m).
    for (int i = 0; i < k; ++i) y_[i] = -y_[i];
    for (int i = k; i < m; ++i) y_[i] = 0.0;
  } else {
    // Zero-curvature descent ray d = -N s: d2 = -s, d1 = L11^-T L21^T s; g^T d = -|s|^2.
    for (int j = 0; j < k; ++j) {
      double t = 0.0;
      for (int i = k; i < m; ++i) t += H_(i, j) * y_[i];
      y_[j] = t;
    }
    for (int i = k; i < m; ++i) y_[i] = -y_[i];
  }
  // Back substitution with L11^T on the head (both branches).
  for (int i = k - 1; i >= 0; --i) {
    double t = y_[i];
    for (int j = i + 1; j < k; ++j) t -= H_(j, i) * y_[j];
    y_[i] = t / H_(i, i);
  }
  // Undo the permutation and expand p = Z y.
  p_.setZero();
  for (int a = 0; a < m; ++a) {
    const int r = perm_[a];
    p_[free_[r]] += y_[a];
    if (pivot_[r] >= 0) p_[pivot_[r]] -= y_[a];
  }
  return bounded;
}

SimplexQpResult SimplexQp::solve(const MatX& Q, const VecX& c, std::span<const int> group_sizes,
                                 VecX& w, const SimplexQpSettings& s) {
  const int n = static_cast<int>(c.size());
  if (Q.rows() != n || Q.cols() != n)
    throw std::invalid_argument("SimplexQp: Q is " + std::to_string(Q.rows()) + "x" +
                                std::to_string(Q.cols()) + ", expected " + std::to_string(n) + "x" +
                                std::to_string(n) + " (the size of c)");
  long total = 0;
  for (const int size : group_sizes) {
    if (size < 1) throw std::invalid_argument("SimplexQp: a group has size < 1");
    total += size;
  }
  if (total != n)
    throw std::invalid_argument("SimplexQp: group sizes sum to " + std::to_string(total) +
                                ", expected " + std::to_string(n) + " (the size of c)");

  resize(n, static_cast<int>(group_sizes.size()));
  if (w.size() != n || !w.allFinite()) w.setZero(n);
  project_simplex_groups(group_sizes, w, scratch_);
  init_working_set(group_sizes, w, s.tolerance);

  // Multipliers are compared with the size of the data (Q w + c is at most that large on the
  // feasible set, where |w_i| <= 1).
  const double dual_scale =
      std::max({1.0, n > 0 ? Q.cwiseAbs().maxCoeff() : 0.0, n > 0 ? c.cwiseAbs().maxCoeff() : 0.0});
  const double dual_tol = s.tolerance * dual_scale;
  const double ray_tol = 100.0 * dual_tol;

  SimplexQpResult result;
  // After a full unblocked step w is the minimizer on the working set: skip the (zero) step.
  bool at_minimizer = false;
  for (int it = 1; it <= s.max_iterations; ++it) {
    result.iterations = it;
    g_.noalias() = Q * w;
    g_ += c;
    const bool bounded = at_minimizer || eqp_step(Q, s.rank_tolerance, ray_tol);

    if (at_minimizer || (bounded && (n == 0 || p_.cwiseAbs().maxCoeff() <= s.tolerance))) {
      at_minimizer = false;
      // w minimizes on the working set. KKT multipliers (Nocedal & Wright eq. 16.42): for a free
      // weight g_i + mu_g = 0, for a weight at its bound lambda_i = g_i + mu_g; both must be >= 0.
      // Drop the most negative one, or stop.
      double worst = -dual_tol;
      int drop_bound = -1, drop_group = -1;
      for (std::size_t k = 0; k < group_begin_.size(); ++k) {
        if (!group_active_[k]) continue;
        const int b = group_begin_[k], e = b + group_size_[k];
        double sum = 0.0;
        int count = 0;
        for (int i = b; i < e; ++i)
          if (!at_bound_[i]) sum += g_[i], ++count;
        const double mu = -sum / count;
        if (mu < worst) worst = mu, drop_group = static_cast<int>(k), drop_bound = -1;
        for (int i = b; i < e; ++i)
          if (at_bound_[i] && g_[i] + mu < worst)
            worst = g_[i] + mu, drop_bound = i, drop_group = -1;
      }
      for (int i = 0; i < n; ++i)
        if (at_bound_[i] && !group_active_[group_of_[i]] && g_[i] < worst)
          worst = g_[i], drop_bound = i, drop_group = -1;
      if (drop_bound < 0 && drop_group < 0) {
        result.converged = true;
        break;
      }
      if (drop_bound >= 0) at_bound_[drop_bound] = 0;
      if (drop_group >= 0) group_active_[drop_group] = 0;
      continue;
    }

    // Ratio test: the longest step alpha <= 1 (unbounded along a ray) keeping w feasible.
    double alpha = bounded ? 1.0 : std::numeric_limits<double>::infinity();
    int block_bound = -1, block_group = -1;
    for (int i = 0; i < n; ++i)
      if (!at_bound_[i] && p_[i] < 0.0 && w[i] / -p_[i] < alpha)
        alpha = w[i] / -p_[i], block_bound = i, block_group = -1;
    for (std::size_t k = 0; k < group_begin_.size(); ++k) {
      if (group_active_[k]) continue;
      const double dp = p_.segment(group_begin_[k], group_size_[k]).sum();
      if (dp <= 0.0) continue;
      const double slack = std::max(0.0, 1.0 - w.segment(group_begin_[k], group_size_[k]).sum());
      if (slack / dp < alpha)
        alpha = slack / dp, block_group = static_cast<int>(k), block_bound = -1;
    }
    if (!std::isfinite(alpha)) break;  // cannot happen on a bounded feasible set
    w += alpha * p_;
    if (block_bound >= 0) {
      w[block_bound] = 0.0;
      at_bound_[block_bound] = 1;
    }
    if (block_group >= 0) group_active_[block_group] = 1;
    at_minimizer = bounded && block_bound < 0 && block_group < 0;
  }

  // Clean rounding below zero and report.
  w = w.cwiseMax(0.0);
  g_.noalias() = Q * w;
  result.objective = 0.5 * w.dot(g_) + c.dot(w);
  for (int i = 0; i < n; ++i) result.active_bounds += at_bound_[i] ? 1 : 0;
  for (const char a : group_active_) result.active_groups += a ? 1 : 0;
  return result;
}

}  // namespace moreau::nmdp
