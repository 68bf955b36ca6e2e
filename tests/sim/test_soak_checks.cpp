// The soak tier's checks (tests/soak/soak.hpp) each fail on a run broken on purpose, and only that
// check: a fault applied to the state after every step stands for the bug the check is there to
// catch (docs/reliability.md, "Soak"). The same short run without the fault passes every check.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "soak/soak.hpp"
#include "support/builtin_scene.hpp"

using namespace moreau;

namespace {

constexpr int64_t kSteps = 400, kWarmUp = 100;

using moreau::test::scene;

// The failures of a run of `name`, with `fault`; the run without it must pass.
std::vector<std::string> broken(const char* name, const soak::Bounds& b, const soak::Fault& fault) {
  const Scene sc = scene(name);
  const std::vector<std::string> clean = soak::failures(soak::run(sc, kSteps, kWarmUp), b);
  EXPECT_TRUE(clean.empty()) << name << " without the fault: " << clean.front();
  return soak::failures(soak::run(sc, kSteps, kWarmUp, fault), b);
}

// Whether the single failure starts with `what`.
::testing::AssertionResult only(const std::vector<std::string>& f, const std::string& what) {
  if (f.size() == 1 && f[0].rfind(what, 0) == 0) return ::testing::AssertionSuccess();
  ::testing::AssertionResult r = ::testing::AssertionFailure();
  r << f.size() << " failures, expected one \"" << what << "...\":";
  for (const std::string& s : f) r << " [" << s << "]";
  return r;
}

const soak::Bounds kBox{1e-4, 2e-3};  // box-on-plane's row

}  // namespace

TEST(SoakChecks, AStateThatTurnsNonFiniteFailsTheRow) {
  // A NaN in a twist: the next step refuses the state.
  const auto f = broken("box-on-plane", kBox, [](State& s, int64_t k) {
    if (k == 200) s.u[0][0] = std::numeric_limits<double>::quiet_NaN();
  });
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f[0].rfind("failed at step 201", 0), 0u) << f[0];
}

TEST(SoakChecks, AJointThatDriftsFailsTheViolationCheck) {
  // The four-bar's coupler moved 0.3 mm off its joints once, as a projection that stopped early
  // would leave it.
  const auto f = broken("fourbar-free", {1e-4, 2e-3}, [](State& s, int64_t k) {
    if (k == 300) s.r[1].x() += 3e-4;
  });
  EXPECT_TRUE(only(f, "violation"));
}

TEST(SoakChecks, ABodySunkIntoTheFloorFailsThePenetrationCheck) {
  // The box pushed 5 mm into the plane once: the next step's contacts see it. (The contacts'
  // positional bias then pushes it out, which the energy check sees as energy gained.)
  const auto f = broken("box-on-plane", kBox, [](State& s, int64_t k) {
    if (k == 300) s.r[0].z() -= 5e-3;
  });
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f[0].rfind("penetration", 0), 0u) << f[0];
}

TEST(SoakChecks, AStepThatGainsEnergyFailsAPassiveRow) {
  // 10 mm/s upward per step, a little more than gravity takes: the resting box rises, gaining
  // energy that a passive system never gains (max |E - E0| would also count what friction and
  // impacts take away).
  const auto f = broken("box-on-plane", kBox, [](State& s, int64_t) { s.u[0][2] += 0.01; });
  EXPECT_TRUE(only(f, "energy gained"));
}

TEST(SoakChecks, StepsAtTheIterationCapFailTheRow) {
  // The four-bar on the full solve with 3 iterations a step: every step stops at the cap, and the
  // position projection still holds the loop, so nothing else fails.
  const soak::Bounds b{1e-4, 2e-3};
  Scene sc = scene("fourbar-fixed");
  const std::vector<std::string> clean = soak::failures(soak::run(sc, kSteps, kWarmUp), b);
  EXPECT_TRUE(clean.empty()) << clean.front();
  sc.settings.fast_path = false;
  sc.settings.solver_settings.max_iters = 3;
  EXPECT_TRUE(only(soak::failures(soak::run(sc, kSteps, kWarmUp), b), "unconverged"));
}

TEST(SoakChecks, MemoryGrownEveryStepFailsTheResidentSetCheck) {
  // 64 KiB kept, and touched, per step after the warm-up: 19 MiB over 300 steps, as a buffer
  // allocated per step and never freed would grow.
  std::vector<std::unique_ptr<char[]>> kept;
  const auto f = broken("box-on-plane", kBox, [&kept](State&, int64_t k) {
    if (k <= kWarmUp) return;
    kept.emplace_back(new char[64 << 10]);
    std::memset(kept.back().get(), 1, 64 << 10);
  });
  EXPECT_TRUE(only(f, "resident set"));
}
