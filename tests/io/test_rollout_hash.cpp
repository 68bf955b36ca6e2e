// Determinism across builds (docs/reliability.md, "Determinism"): the rollout hash of built-in
// scenes (moreau simulate's state_hash) is the same bit for bit in the Release build and in the
// sanitizer build. A Release run writes its hashes to MOREAU_BINARY_DIR/rollout_hashes.txt; a run
// given MOREAU_REFERENCE_HASHES (scripts/dev.sh sanitize names the Release build's file) compares
// with it. In the io room because CI's sanitizer subset runs the io and fuzz tests.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/sim/state_hash.hpp"

namespace moreau {
namespace {

// Every state of a 300-step rollout folded into one hash, as `moreau simulate` does.
std::string rollout_hashes() {
  std::string out;
  for (const char* name : {"box-stack", "nunchuk", "fourbar-fixed"}) {
    Result<Scene> sc = make_builtin_scene(name);
    EXPECT_TRUE(sc) << name;
    if (!sc) continue;
    State s = sc->initial;
    Simulator sim(sc->model, sc->settings);
    uint64_t h = state_hash(s);
    for (int k = 0; k < 300; ++k) {
      EXPECT_TRUE(sim.step(s)) << name << " step " << k << ": " << sim.error();
      h = state_hash(s, h);
    }
    char line[64];
    std::snprintf(line, sizeof line, "%s %016llx\n", name, static_cast<unsigned long long>(h));
    out += line;
  }
  return out;
}

TEST(RolloutHash, SameBitsInThisBuildAndInTheReference) {
  const std::string hashes = rollout_hashes();
  EXPECT_EQ(hashes, rollout_hashes());  // repeats within the build
#ifndef MOREAU_SANITIZED
  std::ofstream(std::string(MOREAU_BINARY_DIR) + "/rollout_hashes.txt") << hashes;
#endif
  const char* ref = std::getenv("MOREAU_REFERENCE_HASHES");
  if (!ref || !*ref) return;
  std::ifstream in(ref);
  ASSERT_TRUE(in) << "MOREAU_REFERENCE_HASHES names " << ref << ", which cannot be read";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(hashes, text.str()) << "this build's rollouts differ from those of " << ref;
}

}  // namespace
}  // namespace moreau
