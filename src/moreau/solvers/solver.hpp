#pragma once
// Solver interface and registry: a solver is looked up by name and is a function of a Problem,
// settings and an optional warm start (design rule "a solver is a function of a Problem").
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "moreau/dynamics/problem.hpp"
#include "moreau/solvers/solution.hpp"

namespace moreau {

struct SolverSettings {
  int max_iters = 1000;
  double tol = 1e-8;   // L-infinity stopping tolerance (units of velocity: m/s, rad/s)
  bool trace = false;  // record the residual per iteration in Solution::trace
  // Solver-specific parameters by name (documented in docs/solvers.md), e.g. "omega" for SOR.
  std::map<std::string, double, std::less<>> params;
  double param(std::string_view key, double fallback) const {
    auto it = params.find(key);
    return it == params.end() ? fallback : it->second;
  }
};

// Initial guess: lambda of length nl, or empty for a cold start (lambda = 0).
struct WarmStart {
  VecX lambda;
  bool empty() const { return lambda.size() == 0; }
};

// Scratch memory a solver may keep between calls for speed only: whatever it holds on entry
// never changes the result. Solvers hang their own state off `slots` by name.
struct SolverWorkspace {
  struct Slot {
    virtual ~Slot() = default;
  };
  std::map<std::string, std::unique_ptr<Slot>, std::less<>> slots;
  template <class T>
  T& get(std::string_view key) {
    auto it = slots.find(key);
    if (it == slots.end()) it = slots.emplace(std::string(key), std::make_unique<T>()).first;
    return static_cast<T&>(*it->second);
  }
};

using SolveFn = void (*)(const Problem&, const SolverSettings&, const WarmStart&, SolverWorkspace&,
                         Solution&);

struct SolverInfo {
  std::string_view name;         // command-line id, e.g. "pgs-ncp"
  std::string_view problem;      // "NCP", "CCP", "LCP", "bilateral"
  std::string_view description;  // one line
  SolveFn fn;
  bool handles_contacts = true;  // false: bilateral-only (e.g. "direct")
  bool reads_dense = false;      // reads Problem::D_dense when present (else builds none)
};

// All registered solvers in a fixed order.
const std::vector<SolverInfo>& solver_registry();
const SolverInfo* find_solver(std::string_view name);
std::string solver_names(std::string_view sep = ", ");

// Runs the named solver, times it, fills v_plus = D lambda + v_f and guards against NaN being
// reported as converged. Returns false (and sets sol.message) for an unknown name or a warm start
// of the wrong size; an invalid problem (non-finite, inconsistent sizes, negative mu) returns true
// with status Failed and the reason in sol.message.
bool solve(std::string_view name, const Problem& p, const SolverSettings& s, const WarmStart& w,
           SolverWorkspace& ws, Solution& sol);

}  // namespace moreau
