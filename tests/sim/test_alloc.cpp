// A steady-state step allocates nothing: global operator new is replaced by a counting one.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "moreau/io/scene.hpp"
#include "moreau/sim/simulator.hpp"

namespace {
std::atomic<long> g_allocations{0};
std::atomic<bool> g_counting{false};
}  // namespace

void* operator new(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed))
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  return operator new(n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

using namespace moreau;

namespace {
long allocations_in_steps(const std::string& scene, const std::string& solver, Integrator integ,
                          int steps) {
  Result<Scene> sc = make_builtin_scene(scene);
  EXPECT_TRUE(sc) << sc.error().message();
  SimSettings st = sc->settings;
  st.solver = solver;
  st.integrator = integ;
  State s = sc->initial;
  Simulator sim(sc->model, st);
  for (int k = 0; k < 2; ++k) EXPECT_TRUE(sim.step(s)) << sim.error();  // warm-up: workspaces grow
  g_allocations = 0;
  g_counting = true;
  for (int k = 0; k < steps; ++k) sim.step(s);
  g_counting = false;
  return g_allocations.load();
}
}  // namespace

TEST(Allocation, SteadyStepAllocatesNothing) {
  // The counter itself works.
  g_allocations = 0;
  g_counting = true;
  auto* probe = new int(3);
  g_counting = false;
  delete probe;
  ASSERT_EQ(g_allocations.load(), 1);

  for (const char* scene : {"fourbar-fixed", "chain", "nunchuk", "pendulum"}) {
    EXPECT_EQ(allocations_in_steps(scene, "pgs", Integrator::SemiImplicitEuler, 50), 0) << scene;
    EXPECT_EQ(allocations_in_steps(scene, "pgs", Integrator::MoreauMidpoint, 50), 0)
        << scene << " (midpoint)";
    EXPECT_EQ(allocations_in_steps(scene, "sap", Integrator::SemiImplicitEuler, 50), 0)
        << scene << " (sap)";
  }
}
