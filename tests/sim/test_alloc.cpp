// A steady-state step allocates nothing. The C allocator itself is replaced (glibc: malloc and
// friends forward to __libc_*), so both operator new (which calls malloc) and Eigen's own
// allocations (std::malloc in Eigen::internal::aligned_malloc) are counted, whatever the
// translation unit that allocates and whatever its preprocessor flags.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/sap_linear.hpp"
#include "moreau/solvers/solver.hpp"

namespace {
std::atomic<long> g_allocations{0};
std::atomic<bool> g_counting{false};
inline void count_one() {
  if (g_counting.load(std::memory_order_relaxed))
    g_allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

// Under ASan (MOREAU_SANITIZED, docs/reliability.md) the sanitizer owns the allocator: the
// counting allocator is left out and the tests skip.
#ifdef MOREAU_SANITIZED
#define MOREAU_SKIP_UNDER_SANITIZERS() \
  GTEST_SKIP() << "the sanitizer replaces the allocator; allocations are not counted"
#else
#define MOREAU_SKIP_UNDER_SANITIZERS() (void)0
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) {
  count_one();
  return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n) {
  count_one();
  return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n) {
  count_one();
  return __libc_realloc(p, n);
}
void* memalign(std::size_t a, std::size_t n) {
  count_one();
  return __libc_memalign(a, n);
}
void* aligned_alloc(std::size_t a, std::size_t n) {
  count_one();
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, std::size_t a, std::size_t n) {
  count_one();
  *out = __libc_memalign(a, n);
  return *out ? 0 : ENOMEM;
}
void free(void* p) {
  __libc_free(p);
}
}
#endif

using namespace moreau;

namespace {

// Allocations of the measured steps, split by whether the step's Problem has the row count of
// the step before; the row counts seen, for checking that the scene really resizes.
struct StepCount {
  long in_same_size = 0;   // allocations in steps whose nl equals the step before's
  long in_resize = 0;      // allocations in steps whose nl differs (grows or shrinks)
  int grows = 0;           // measured steps with more rows than the step before
  int shrinks = 0;         // ... and with fewer
  int max_warm_up_nl = 0;  // the largest problem of the warm-up pass
  std::set<int> sizes;     // nl over the measured steps
};

// Runs `steps` steps of the scene twice with one Simulator, the second time again from the
// initial state: the first pass grows every workspace and container to the largest problem of
// the trajectory ("grow, never shrink", docs/design.md), the second is measured step by step.
// sap_linear: SAP's Newton system (SapSettings::linear_solver); the default checks the dense
// LLT, since CHOLMOD's factorization allocates (see SparseSapAllocatesOnlyInsideCholmod).
StepCount allocations_in_steps(const std::string& scene, const std::string& solver,
                               Integrator integ, int steps, int sap_linear = 0,
                               bool fast_path = false) {
  StepCount c;
  Result<Scene> sc = make_builtin_scene(scene);
  EXPECT_TRUE(sc) << sc.error().message();
  if (!sc) return c;
  SimSettings st = sc->settings;
  st.solver = solver;
  st.integrator = integ;
  st.solver_settings.sap.linear_solver = sap_linear;
  st.fast_path = fast_path;
  Simulator sim(sc->model, st);
  State s = sc->initial;
  for (int k = 0; k < steps; ++k) {
    EXPECT_TRUE(sim.step(s)) << scene << " " << solver << ": " << sim.error();
    c.max_warm_up_nl = std::max(c.max_warm_up_nl, sim.problem().nl);
  }
  s = sc->initial;
  sim.step(s);
  int prev = sim.problem().nl;
  for (int k = 1; k < steps; ++k) {
    g_allocations = 0;
    g_counting = true;
    sim.step(s);
    g_counting = false;
    const long a = g_allocations.load();
    const int nl = sim.problem().nl;
    (nl == prev ? c.in_same_size : c.in_resize) += a;
    c.grows += nl > prev;
    c.shrinks += nl < prev;
    c.sizes.insert(nl);
    prev = nl;
  }
  return c;
}

// The solvers that allocate nothing per step (docs/solvers.md), "direct" aside (bilateral only,
// checked on the joint scenes). Left out: "lemke" (dense tableau and pseudo-inverse temporaries
// per solve), "ngn" (its dense matrix-matrix products for the Gauss-Newton matrix make Eigen's
// GEMM heap-allocate packing buffers).
const char* const kAllocationFree[] = {"pgs",         "pgs-ccp",     "pgs-ncp",      "nbgs",
                                       "raisim",      "raisim-ds",   "raisim-ds-es", "admm-ccp",
                                       "admm-ncp-fp", "admm-ncp-la", "admm-ncp-sa",  "apgd",
                                       "prox",        "prox-fp",     "sap"};
bool is_admm(const std::string& solver) {
  return solver.rfind("admm", 0) == 0;
}

}  // namespace

TEST(Allocation, CounterSeesNewAndEigen) {
  MOREAU_SKIP_UNDER_SANITIZERS();
  // operator new (libstdc++'s calls malloc) and an Eigen temporary (aligned_malloc) both count.
  g_allocations = 0;
  g_counting = true;
  auto* probe = new int(3);
  g_counting = false;
  delete probe;
  EXPECT_EQ(g_allocations.load(), 1);
  const VecX a = VecX::Ones(50), b = VecX::Ones(50);
  g_allocations = 0;
  g_counting = true;
  const VecX tmp = a + b;
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 1);
  EXPECT_EQ(tmp[3], 2.0);
}

TEST(Allocation, JointScenesAllocateNothing) {
  MOREAU_SKIP_UNDER_SANITIZERS();
  // Constant problem size: not one allocation per step, Eigen's included, for both integrators.
  // "chain" (nl = 150 > dense_max = 128) puts ADMM on its sparse backend, which allocates inside
  // Eigen's SimplicialLDLT::factorize (docs/solvers.md): ADMM is checked on the smaller scenes.
  std::vector<std::string> solvers(std::begin(kAllocationFree), std::end(kAllocationFree));
  solvers.push_back("direct");  // bilateral only: joint scenes
  for (const char* scene : {"fourbar-fixed", "chain", "nunchuk", "pendulum"})
    for (const std::string& solver : solvers) {
      if (is_admm(solver) && std::string(scene) == "chain") continue;
      for (Integrator integ : {Integrator::SemiImplicitEuler, Integrator::MoreauMidpoint}) {
        const StepCount c = allocations_in_steps(scene, solver, integ, 30);
        EXPECT_EQ(c.grows + c.shrinks, 0) << scene;
        EXPECT_EQ(c.in_same_size, 0) << scene << " " << solver;
      }
    }
}

TEST(Allocation, FastPathAllocatesNothing) {
  // The fast path (SimSettings::fast_path): the elimination of the joint rows, the reduced solve
  // and the expansion reuse their storage too. quadruped: a floating base whose feet touch down
  // and lift off, so the reduced problem resizes while the joint block keeps its size.
  for (const char* solver : {"admm-ncp-sa", "pgs-ncp", "apgd"}) {
    const StepCount c =
        allocations_in_steps("quadruped", solver, Integrator::SemiImplicitEuler, 100, 0, true);
    EXPECT_EQ(c.in_same_size, 0) << solver;
    EXPECT_EQ(c.in_resize, 0) << solver;
  }
}

TEST(Allocation, ContactScenesAllocateNothingWhenTheProblemResizes) {
  MOREAU_SKIP_UNDER_SANITIZERS();
  // The number of contacts, hence nl, goes up and down from step to step. The per-step vectors
  // and matrices (Problem, Solution, warm start, solver workspaces) keep the capacity of the
  // largest problem seen (math/growable.hpp), so once the warm-up pass has seen the largest
  // problem of the trajectory, no step allocates: neither one that keeps nl nor one that
  // changes it.
  // balls-in-cube: balls bounce and roll, nl goes up and down (9 to 54 rows); sphere-pile
  // settles, nl only grows (0 to 384 rows).
  const std::pair<const char*, bool> scenes[] = {{"balls-in-cube", true}, {"sphere-pile", false}};
  for (const auto& [scene, shrinks] : scenes)
    for (const char* solver : kAllocationFree) {
      // sphere-pile reaches nl = 576: ADMM's sparse backend (see above).
      if (is_admm(solver) && std::string(scene) == "sphere-pile") continue;
      // sap on sphere-pile: its dense Cholesky of the 6 nb x 6 nb Hessian is large enough for
      // Eigen's blocked LLT, whose matrix products heap-allocate packing buffers (as ngn's do).
      if (std::string(solver) == "sap" && std::string(scene) == "sphere-pile") continue;
      for (Integrator integ : {Integrator::SemiImplicitEuler, Integrator::MoreauMidpoint}) {
        const StepCount c = allocations_in_steps(scene, solver, integ, 100);
        const std::string what = std::string(scene) + " " + solver;
        // The measured steps really resize, both ways, within the warm-up's largest problem.
        EXPECT_GE(c.grows, 1) << what << ": nl should grow in some measured step";
        if (shrinks) {
          EXPECT_GE(c.shrinks, 1) << what << ": nl should shrink in some measured step";
        }
        EXPECT_GE(c.sizes.size(), 3u) << what;
        ASSERT_FALSE(c.sizes.empty());
        EXPECT_LE(*c.sizes.rbegin(), c.max_warm_up_nl) << what << ": larger than the warm-up";
        EXPECT_EQ(c.in_same_size, 0) << what << ": allocations in steps that keep nl";
        EXPECT_EQ(c.in_resize, 0) << what << ": allocations in steps that change nl";
        if (integ == Integrator::SemiImplicitEuler)
          std::printf("%-14s %-14s nl %d..%d, %d grows, %d shrinks: allocations %ld + %ld\n", scene,
                      solver, *c.sizes.begin(), *c.sizes.rbegin(), c.grows, c.shrinks,
                      c.in_same_size, c.in_resize);
      }
    }
}

// SAP's theta-method (Castro et al. 2023, eq. 15-18): the linearized free motion (6x6 A per
// body) and the theta_vq position update allocate nothing per step either.
TEST(Allocation, SapThetaMethodAllocatesNothing) {
  MOREAU_SKIP_UNDER_SANITIZERS();
  for (Integrator integ :
       {Integrator::SapSymplecticEuler, Integrator::SapImplicitEuler, Integrator::SapMidpoint}) {
    const StepCount c = allocations_in_steps("spring-cylinder", "sap", integ, 30);
    EXPECT_EQ(c.in_resize, 0) << integrator_name(integ);
    EXPECT_EQ(c.in_same_size, 0) << integrator_name(integ);
  }
}

TEST(Allocation, SparseSapAllocatesOnlyInsideCholmod) {
  MOREAU_SKIP_UNDER_SANITIZERS();
  // SAP's sparse path (linear_solver = 1, the auto choice above 120 rows, docs/solvers.md) is
  // excluded from the tests above: cholmod_factorize allocates its permuted copy of H and its
  // supernodal workspace on every call (the assembly into the kept matrix and cholmod_solve2
  // with its reused workspace do not). This records the count.
  if (!sap::sparse_available()) GTEST_SKIP() << "built without CHOLMOD";
  const StepCount c = allocations_in_steps("chain", "sap", Integrator::SemiImplicitEuler, 30, 1);
  EXPECT_EQ(c.grows + c.shrinks, 0);
  EXPECT_GT(c.in_same_size, 0);
  std::printf("chain sap sparse: %ld allocations in 30 steps\n", c.in_same_size);
}
