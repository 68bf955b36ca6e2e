// The benchmark suite's groups are data of each entry (bench.hpp, suite_table): Table II's
// sections in table order, every system a built-in scene, and the groups of other names.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "moreau/bench/bench.hpp"
#include "moreau/scenes/builtin.hpp"

namespace moreau::bench {
namespace {

TEST(BenchSuite, GroupsAreTableTwoSections) {
  const std::map<std::string, std::string> expected = {
      {"box-on-plane", "primitives"}, {"boxes-fixed", "primitives"},
      {"nunchuk", "primitives"},      {"fourbar-fixed", "primitives"},
      {"fourbar-free", "primitives"}, {"arm7d", "robotics"},
      {"quadruped", "robotics"},      {"bdx", "robotics"},
      {"lima", "robotics"},           {"misha", "animatronics"},
      {"walker", "animatronics"},     {"gazelle", "animatronics"},
      {"ironman", "animatronics"}};
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
