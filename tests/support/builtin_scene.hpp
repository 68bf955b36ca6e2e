#pragma once
// A built-in scene a test needs: failing to build it fails the test with the error (thrown, so the
// test stops there rather than going on with an empty scene).
#include <stdexcept>
#include <string>
#include <utility>

#include "moreau/scenes/builtin.hpp"

namespace moreau::test {

inline Scene scene(const std::string& name, const SceneParams& p = {}) {
  Result<Scene> s = make_builtin_scene(name, p);
  if (!s.ok()) throw std::runtime_error("scene " + name + ": " + s.error().message());
  return std::move(*s);
}

}  // namespace moreau::test
