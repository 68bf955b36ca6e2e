// Stable PD actuators with keyframed references (docs/scene-format.md) through the native JSON
// format: the quadruped's gaits round-trip, and malformed keyframes are rejected.
#include <gtest/gtest.h>

#include "moreau/io/scene.hpp"
#include "moreau/scenes/builtin.hpp"

using namespace moreau;

TEST(SceneJsonKeyframes, GaitRoundTrips) {
  Result<Scene> a = make_builtin_scene("quadruped", {{"gait", "walk"}});
  ASSERT_TRUE(a.ok());
  const std::string text = scene_to_json(*a);
  Result<Scene> b = parse_scene_json(text, "walk.json");
  ASSERT_TRUE(b.ok()) << b.error().message();
  ASSERT_EQ(a->model.num_joints(), b->model.num_joints());
  int keyed = 0;
  for (int j = 0; j < a->model.num_joints(); ++j) {
    const DofActuator& x = a->model.joints()[j].actuators[0];
    const DofActuator& y = b->model.joints()[j].actuators[0];
    EXPECT_EQ(x.mode, y.mode);
    EXPECT_EQ(x.period, y.period);
    EXPECT_EQ(x.keyframes, y.keyframes);
    keyed += !y.keyframes.empty() && y.mode == ActuationMode::StablePd;
    // The reference is the same function of time.
    for (double t : {0.0, 0.13, 0.37, 1.91}) {
      EXPECT_EQ(actuator_reference(x, t).q, actuator_reference(y, t).q);
      EXPECT_EQ(actuator_reference(x, t).qd, actuator_reference(y, t).qd);
    }
  }
  EXPECT_EQ(keyed, 12);
  EXPECT_EQ(scene_to_json(*b), text);
}

TEST(SceneJsonKeyframes, ReferenceInterpolatesTheKeyframesPeriodically) {
  DofActuator a;
  a.mode = ActuationMode::StablePd;
  a.target = 0.1;
  a.keyframes = {{0.0, 0.0}, {0.5, 1.0}, {1.0, 0.0}, {1.5, -1.0}};
  a.period = 2.0;
  for (const auto& [t, q] : a.keyframes) {
    EXPECT_NEAR(actuator_reference(a, t).q, 0.1 + q, 1e-15);
    EXPECT_NEAR(actuator_reference(a, t + 2.0 * a.period).q, 0.1 + q, 1e-12);
  }
  // Catmull-Rom tangents (q_k+1 - q_k-1) / (t_k+1 - t_k-1): 2 at t = 0 (-1 at -0.5, 1 at 0.5).
  EXPECT_NEAR(actuator_reference(a, 0.0).qd, 2.0, 1e-12);
  EXPECT_NEAR(actuator_reference(a, 0.5).qd, 0.0, 1e-12);
  // The rate is the derivative of the position.
  const double h = 1e-6, t = 0.8;
  EXPECT_NEAR(actuator_reference(a, t).qd,
              (actuator_reference(a, t + h).q - actuator_reference(a, t - h).q) / (2 * h), 1e-6);
}

TEST(SceneJsonKeyframes, MalformedKeyframesAreRejected) {
  const std::string head =
      R"({"bodies": [{"name": "b", "mass": 1, "inertia": [0.01, 0.01, 0.01]}],
          "joints": [{"name": "j", "type": "revolute", "base": "world", "follower": "b", "anchor": [0, 0, 0], "axis": [1, 0, 0],
                      "actuators": [{"mode": "stable-pd", "kp": 10, )";
  for (const char* bad : {R"("keyframes": [[0, 0], [0.5, 1]]}]}]})",
                          R"("keyframes": [[0.5, 0], [0.2, 1]], "period": 1}]}]})",
                          R"("keyframes": [[0, 0], [1.5, 1]], "period": 1}]}]})",
                          R"("keyframes": [[0, 0, 3]], "period": 1}]}]})"}) {
    const Result<Scene> r = parse_scene_json(head + bad, "bad.json");
    EXPECT_FALSE(r.ok()) << bad;
  }
  const Result<Scene> good =
      parse_scene_json(head + R"("keyframes": [[0, 0], [0.5, 1]], "period": 1}]}]})", "ok.json");
  EXPECT_TRUE(good.ok()) << good.error().message();
}
