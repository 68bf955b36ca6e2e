#pragma once
// Solver interface and registry: a solver is looked up by name and is a function of a Problem,
// settings and an optional warm start (design rule "a solver is a function of a Problem").
#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "moreau/dynamics/problem.hpp"
#include "moreau/solvers/solution.hpp"
#include "moreau/solvers/solver_settings.hpp"

namespace moreau {

// Initial guess: lambda of length nl, or empty for a cold start (lambda = 0).
struct WarmStart {
  GrowVec lambda;  // keeps its capacity (math/growable.hpp)
  bool empty() const { return lambda.size() == 0; }
};

// Scratch memory a solver may keep between calls for speed only: whatever it holds on entry
// never changes the result. One slot per solver family, indexed by the workspace type's
// `static constexpr WorkspaceSlot slot`; the type is checked on access, so a slot never hands out
// memory of another type (a mismatch replaces the slot's content).
enum class WorkspaceSlot {
  PgsBasic,
  Direct,
  Pgs,
  Admm,
  Apgd,
  Prox,
  Ngn,
  Lemke,
  ProxFp,
  Sap,
  Nsn,
  Count
};

class SolverWorkspace {
 public:
  template <class T>
  T& get() {
    Slot& s = slots_[static_cast<int>(T::slot)];
    if (s.tag != &type_tag<T>)
      s = Slot{new T(), [](void* q) { delete static_cast<T*>(q); }, &type_tag<T>};
    return *static_cast<T*>(s.ptr.get());
  }

 private:
  template <class T>
  static constexpr char type_tag = 0;
  struct Slot {
    Slot() = default;
    Slot(void* p, void (*del)(void*), const char* t) : ptr(p, del), tag(t) {}
    std::unique_ptr<void, void (*)(void*)> ptr{nullptr, [](void*) {}};
    const char* tag = nullptr;
  };
  std::array<Slot, static_cast<int>(WorkspaceSlot::Count)> slots_;
};

using SolveFn = void (*)(const Problem&, const SolverSettings&, const WarmStart&, SolverWorkspace&,
                         Solution&);

struct SolverInfo {
  std::string_view name;         // command-line id, e.g. "pgs-ncp"
  std::string_view problem;      // "NCP", "CCP", "LCP", "bilateral"
  std::string_view description;  // one line
  SolveFn fn;
  bool handles_contacts = true;            // false: bilateral-only (e.g. "direct")
  bool reads_dense = false;                // reads Problem::D_dense when present (else builds none)
  std::span<const ParamSpec> params = {};  // the parameters it reads (solver_params.hpp)
  // true: solves the softened problem (D + R) lambda + v_f when Problem::R is set (eq. 95);
  // false: solve() refuses a Problem with R (status Failed, message says why).
  bool handles_softening = true;
  // true: an external library's solver (a peer, docs/performance.md): not in `moreau bench`'s
  // default set nor in docs/solvers.md's parameter tables; run it by name.
  bool peer = false;
  // true: contact rows only (W r + q, Siconos's fc3d); solve() declines joint and limit rows
  // (status Failed, message says why).
  bool contacts_only = false;
  // false: left out of `moreau bench`'s default solver set (run it by name), e.g. nsn, which is not
  // one of the report's solvers (it is the fast path's first attempt).
  bool bench_default = true;
  // false: declines a Problem with joint dry-friction rows (ConeKind::Box; status Failed, message
  // says why): Lemke's LCP, Todorov's force map and SAP have no interval row.
  bool handles_box = true;
};

// `moreau bench`'s default set: every registered solver except the foundation's plain `pgs`, the
// bilateral-only `direct`, `sap` (a regularized problem: its natural map on the hard problem
// measures the regularization; docs/solvers.md), the peers, and those marked !bench_default.
bool in_bench_default_set(const SolverInfo& s);

// Whether `solver` with settings `s` solves the CCP (Anitescu's cone complementarity problem)
// rather than the NCP: the CCP solvers, and pgs-ccp without De Saxce's term, apgd without ncp.
bool solves_ccp(std::string_view solver, const SolverSettings& s);

// All registered solvers in a fixed order.
const std::vector<SolverInfo>& solver_registry();
const SolverInfo* find_solver(std::string_view name);
std::string solver_names(std::string_view sep = ", ");

// Runs the named solver, times it, fills v_plus = D lambda + v_f - v_r (the physical velocity; v_r
// = 0 without softening) and guards against NaN being reported as converged. Returns false (and
// sets sol.message) for an unknown name or a warm start of the wrong size; an invalid problem
// (non-finite, inconsistent sizes, negative mu) returns true with status Failed and the reason in
// sol.message.
bool solve(std::string_view name, const Problem& p, const SolverSettings& s, const WarmStart& w,
           SolverWorkspace& ws, Solution& sol);

}  // namespace moreau
