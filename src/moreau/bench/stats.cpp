// Aggregates and Dolan-More performance profiles of the benchmark runs (named in report Sec. VII-D,
// defined in docs/benchmark.md): median and IQR per (system, category, solver), rho_s(tau).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "moreau/bench/bench.hpp"
#include "moreau/bench/report_common.hpp"

namespace moreau::bench {

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Linear interpolation between order statistics x_(lo) and x_(lo+1) at h = (n-1) p (Hyndman-Fan
// type 7, numpy's default). Equal neighbours (also +inf, +inf) return that value, not inf - inf.
double order_statistic(const std::vector<double>& x, double p) {
  const double h = (double(x.size()) - 1.0) * p;
  const size_t lo = size_t(std::floor(h));
  const double frac = h - double(lo);
  if (frac == 0.0 || lo + 1 >= x.size() || x[lo] == x[lo + 1]) return x[lo];
  return x[lo] + frac * (x[lo + 1] - x[lo]);
}

std::vector<double> finite_only(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  return v;
}

}  // namespace

// NaN values are dropped (they have no order); +-inf are kept and sorted to the ends.
Quartiles quartiles(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double x) { return std::isnan(x); }),
               values.end());
  Quartiles q;
  q.n = int(values.size());
  if (values.empty()) {
    q.q1 = q.median = q.q3 = kNaN;
    return q;
  }
  std::sort(values.begin(), values.end());
  q.q1 = order_statistic(values, 0.25);
  q.median = order_statistic(values, 0.5);
  q.q3 = order_statistic(values, 0.75);
  return q;
}

Aggregate summarize(const std::vector<const RunResult*>& runs) {
  Aggregate a;
  std::vector<double> t, it, pen, dual, compl_, nat;
  for (const RunResult* r : runs) {
    ++a.samples;
    if (r->success) ++a.successes;
    t.push_back(r->solve_time_s);
    it.push_back(double(r->iterations));
    pen.push_back(r->metrics.r_pen);
    dual.push_back(r->metrics.r_dual);
    compl_.push_back(r->metrics.r_compl);
    nat.push_back(r->metrics.r_natmap);
  }
  a.success_rate = a.samples > 0 ? double(a.successes) / double(a.samples) : 0.0;
  a.time_s = quartiles(std::move(t));
  a.iterations = quartiles(std::move(it));
  a.r_pen = quartiles(finite_only(std::move(pen)));
  a.r_dual = quartiles(finite_only(std::move(dual)));
  a.r_compl = quartiles(finite_only(std::move(compl_)));
  a.r_natmap = quartiles(finite_only(std::move(nat)));
  return a;
}

// Rows in this order: every (system, category), then (system, "all"), then ("all", category),
// then ("all", "all"); systems in order of first appearance among the samples, categories in
// enum order, solvers in order of first appearance among the runs, cold before warm. Groups with
// no run are left out. Runs whose sample index is out of range are ignored.
std::vector<Aggregate> aggregate(const std::vector<Sample>& samples,
                                 const std::vector<RunResult>& runs) {
  std::vector<std::string> systems, solvers;
  auto index_of = [](std::vector<std::string>& list, const std::string& s) {
    const auto it = std::find(list.begin(), list.end(), s);
    if (it != list.end()) return int(it - list.begin());
    list.push_back(s);
    return int(list.size()) - 1;
  };
  for (const Sample& s : samples) index_of(systems, s.system);
  const int n_sys = int(systems.size());
  // key: (system or n_sys for "all", category or kNumCategories for "all", solver, warm)
  using Key = std::tuple<int, int, int, int>;
  std::map<Key, std::vector<const RunResult*>> groups;
  for (const RunResult& r : runs) {
    if (r.sample < 0 || r.sample >= int(samples.size())) continue;
    const Sample& s = samples[r.sample];
    const int sys = index_of(systems, s.system);
    const int cat = int(s.info.category);
    const int sol = index_of(solvers, r.solver);
    const int w = r.warm ? 1 : 0;
    for (const int gs : {sys, n_sys})
      for (const int gc : {cat, kNumCategories}) groups[{gs, gc, sol, w}].push_back(&r);
  }
  auto label = [&](const Key& k, Aggregate a) {
    const auto [sys, cat, sol, w] = k;
    a.system = sys == n_sys ? "all" : systems[sys];
    a.category = cat == kNumCategories ? "all" : category_name(Category(cat));
    a.solver = solvers[sol];
    a.warm = w == 1;
    return a;
  };
  // Block order: (sys, cat), (sys, all), (all, cat), (all, all).
  auto block = [&](const Key& k) {
    const bool all_sys = std::get<0>(k) == n_sys, all_cat = std::get<1>(k) == kNumCategories;
    return (all_sys ? 2 : 0) + (all_cat ? 1 : 0);
  };
  std::vector<std::pair<Key, const std::vector<const RunResult*>*>> order;
  for (const auto& [k, v] : groups) order.push_back({k, &v});
  std::stable_sort(order.begin(), order.end(),
                   [&](const auto& a, const auto& b) { return block(a.first) < block(b.first); });
  std::vector<Aggregate> out;
  out.reserve(order.size());
  for (const auto& [k, v] : order) out.push_back(label(k, summarize(*v)));
  return out;
}

// rho_s(t): rho at the last breakpoint tau_i <= t; 0 below tau = 1.
double Profile::at(double t) const {
  const auto it = std::upper_bound(tau.begin(), tau.end(), t);
  if (it == tau.begin()) return 0.0;
  return rho[size_t(it - tau.begin()) - 1];
}

// r_{p,s} = cost_{p,s} / min_s cost_{p,s}; rho_s(tau) = #{p : r_{p,s} <= tau} / #problems.
// A failure (+inf or NaN cost) never counts; a problem every solver fails counts in the
// denominator only. Ties give r = 1 exactly for every tied solver. When the best cost is 0 (a
// residual profile can meet an exact answer) the ratio is 1 for cost 0 and +inf otherwise.
std::vector<Profile> performance_profile(const std::vector<std::vector<double>>& cost,
                                         const std::vector<std::string>& solvers) {
  const size_t n_s = solvers.size(), n_p = cost.size();
  std::vector<std::vector<double>> ratios(n_s);
  for (const std::vector<double>& row : cost) {
    double best = kInf;
    for (size_t s = 0; s < n_s && s < row.size(); ++s)
      if (!std::isnan(row[s])) best = std::min(best, row[s]);
    for (size_t s = 0; s < n_s && s < row.size(); ++s) {
      const double c = row[s];
      if (!std::isfinite(c) || !std::isfinite(best)) continue;
      const double r = best > 0.0 ? c / best : (c <= best ? 1.0 : kInf);
      if (std::isfinite(r)) ratios[s].push_back(std::max(r, 1.0));
    }
  }
  std::vector<Profile> out(n_s);
  for (size_t s = 0; s < n_s; ++s) {
    Profile& pr = out[s];
    pr.solver = solvers[s];
    std::vector<double>& r = ratios[s];
    std::sort(r.begin(), r.end());
    const double denom = n_p > 0 ? double(n_p) : 1.0;
    pr.tau.push_back(1.0);
    pr.rho.push_back(0.0);
    for (size_t i = 0; i < r.size(); ++i) {
      if (i + 1 < r.size() && r[i + 1] == r[i]) continue;  // the last of equal ratios
      const double rho = double(i + 1) / denom;
      if (r[i] == pr.tau.back()) {
        pr.rho.back() = rho;
      } else {
        pr.tau.push_back(r[i]);
        pr.rho.push_back(rho);
      }
    }
  }
  return out;
}

const std::vector<std::string>& system_groups() {
  static const std::vector<std::string> kOrder = {"primitives", "robotics", "animatronics", "fclib",
                                                  "other"};
  return kOrder;
}

double time_cost(const RunResult& r) {
  return r.success ? r.solve_time_s : kInf;
}

std::vector<Aggregate> group_aggregates(const std::vector<Sample>& samples,
                                        const std::vector<RunResult>& runs,
                                        const std::vector<std::string>& solvers) {
  std::vector<Aggregate> out;
  for (const std::string& group : system_groups())
    for (const std::string& solver : solvers)
      for (const bool warm : {false, true}) {
        std::vector<const RunResult*> sel;
        for (const RunResult& r : runs)
          if (r.solver == solver && r.warm == warm && r.sample >= 0 &&
              r.sample < int(samples.size()) && system_group(samples[r.sample].system) == group)
            sel.push_back(&r);
        if (sel.empty()) continue;
        Aggregate a = summarize(sel);
        a.system = group;
        a.category = "all";
        a.solver = solver;
        a.warm = warm;
        out.push_back(std::move(a));
      }
  return out;
}

std::vector<Aggregate> ranked(std::vector<Aggregate> rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const Aggregate& a, const Aggregate& b) {
    if (a.success_rate != b.success_rate) return a.success_rate > b.success_rate;
    const double ta = a.time_s.median, tb = b.time_s.median;
    if (std::isnan(ta) || std::isnan(tb)) return !std::isnan(ta) && std::isnan(tb);
    return ta < tb;
  });
  return rows;
}

}  // namespace moreau::bench
