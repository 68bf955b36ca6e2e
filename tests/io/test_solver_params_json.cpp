// Scene JSON and the solver parameter tables: parameters off their defaults are written and read
// back exactly; an unknown key or an out-of-range value is an error naming the file and the key.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "moreau/io/scene.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/solvers/solver_params.hpp"
#include "solvers/param_values.hpp"

using namespace moreau;
using testing_params::other_value;

// Scene JSON writes the parameters off their defaults and reads them back exactly, for every
// solver and every parameter of its table.
TEST(SolverParams, SceneJsonRoundTripOfNonDefaultParams) {
  Result<Scene> base = make_builtin_scene("pendulum");
  ASSERT_TRUE(base) << base.error().message();
  for (const SolverInfo& info : solver_registry()) {
    SCOPED_TRACE(std::string(info.name));
    Scene a = *base;
    a.settings.solver = std::string(info.name);
    reset_solver_params(a.settings.solver_settings);
    for (const ParamSpec& spec : info.params)
      ASSERT_EQ(set_solver_param(a.settings.solver_settings, info, spec.name, other_value(spec)),
                "");
    const std::string text = scene_to_json(a);
    Result<Scene> b = parse_scene_json(text, "roundtrip.json");
    ASSERT_TRUE(b) << b.error().message();
    for (const ParamSpec& spec : info.params)
      EXPECT_EQ(spec.get(b->settings.solver_settings), spec.get(a.settings.solver_settings))
          << spec.name;
    EXPECT_EQ(changed_params(b->settings.solver_settings, info).size(), info.params.size());
    EXPECT_EQ(scene_to_json(*b), text);
  }
}

TEST(SolverParams, SceneJsonRejectsUnknownAndOutOfRangeKeys) {
  Result<Scene> base = make_builtin_scene("pendulum");
  ASSERT_TRUE(base);
  Scene a = *base;
  a.settings.solver = "pgs-ncp";
  std::string text = scene_to_json(a);
  const std::string marker = "\"params\": {}";
  const size_t at = text.find(marker);
  ASSERT_NE(at, std::string::npos) << text;
  std::string bad = text;
  bad.replace(at, marker.size(), "\"params\": {\"omgea\": 1.2}");
  Result<Scene> b = parse_scene_json(bad, "typo.json");
  ASSERT_FALSE(b);
  const std::string msg = b.error().message();
  EXPECT_NE(msg.find("typo.json"), std::string::npos) << msg;
  EXPECT_NE(msg.find("omgea"), std::string::npos) << msg;
  EXPECT_NE(msg.find("omega_decay [0, 1]"), std::string::npos) << msg;  // the valid keys
  bad = text;
  bad.replace(at, marker.size(), "\"params\": {\"omega_decay\": 2}");
  b = parse_scene_json(bad, "range.json");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message().find("[0, 1]"), std::string::npos) << b.error().message();
}
