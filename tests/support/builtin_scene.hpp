#pragma once
// A built-in scene a test needs: failing to build it fails the test with the error and gives an
// empty scene (never a dereference of the error).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "moreau/scenes/builtin.hpp"

namespace moreau::test {

inline Scene scene(const std::string& name, const SceneParams& p = {}) {
  Result<Scene> s = make_builtin_scene(name, p);
  EXPECT_TRUE(s.ok()) << name << ": " << (s.ok() ? "" : s.error().message());
  if (!s.ok()) return Scene{};
  return std::move(*s);
}

}  // namespace moreau::test
