// The benchmark suite's groups are data of each entry (bench.hpp, suite_table): Table II's
// sections in table order, every system a built-in scene, and the groups of other names.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "moreau/bench/bench.hpp"
#include "moreau/scenes/builtin.hpp"

namespace moreau::bench {
namespace {

TEST(BenchSuite, GroupsAreTableTwoSections) {
  // Table II's sections, in the table's order.
  const std::map<std::string, std::vector<std::string>> sections = {
      {"primitives", {"box-on-plane", "boxes-fixed", "nunchuk", "fourbar-fixed", "fourbar-free"}},
      {"robotics", {"arm7d", "quadruped", "bdx", "lima"}},
      {"animatronics", {"misha", "walker", "gazelle", "ironman"}}};
  std::map<std::string, std::string> expected;
  for (const auto& [group, names] : sections)
    for (const std::string& n : names) expected[n] = group;
  ASSERT_EQ(suite_table().size(), expected.size());
  ASSERT_EQ(suite_systems().size(), expected.size());
  for (size_t i = 0; i < suite_table().size(); ++i) {
    const SuiteSystem& s = suite_table()[i];
    EXPECT_EQ(suite_systems()[i], s.name);
    EXPECT_EQ(system_group(s.name), expected.at(s.name)) << s.name;
    EXPECT_EQ(system_group(s.name), s.group) << s.name;
    EXPECT_TRUE(is_builtin_scene(s.name)) << s.name;
  }
}

TEST(BenchSuite, GroupsAreContiguousInTableOrder) {
  // Each group, once left, never comes back: the report's sections.
  std::string last;
  std::map<std::string, int> seen;
  for (const SuiteSystem& s : suite_table()) {
    if (s.group != last) {
      EXPECT_EQ(seen[s.group]++, 0) << s.group << " appears in two runs";
      last = s.group;
    }
  }
  EXPECT_EQ(seen.size(), 3u);
}

TEST(BenchSuite, NonSuiteNamesGetFclibOrOther) {
  EXPECT_EQ(system_group("fclib:LMGC_Example"), "fclib");
  EXPECT_EQ(system_group("pendulum"), "other");
  EXPECT_EQ(system_group("chain"), "other");
}

}  // namespace
}  // namespace moreau::bench
