#include "moreau/scenes/builtin_helpers.hpp"

namespace moreau::builtin {

void add_hanging_chain(ModelBuilder& mb, State& s, const std::vector<double>& masses,
                       bool geometry) {
  const double l = 0.05;
  const Vec3 half(0.01, 0.01, l);
  const Quat ax = axis_frame(Vec3::UnitY());
  const Quat tilt(Eigen::AngleAxisd(0.5 * kPi, Vec3::UnitY()));  // body z along world x
  for (size_t i = 0; i < masses.size(); ++i) {
    const int b = add_body(mb, s, box_body("link" + std::to_string(i), masses[i], half),
                           Vec3((2 * i + 1) * l, 0, 0), tilt);
    if (geometry) mb.add_geometry(box_geom(b, half));
    mb.add_joint(joint_at("hinge" + std::to_string(i), JointType::Revolute, b - 1, b,
                          {Vec3(2 * i * l, 0, 0), ax}, s));
  }
}

Result<Scene> finish_scene(ModelBuilder& mb, State s, double duration, SimSettings settings) {
  Result<Model> m = mb.build();
  if (!m) return m.error();
  Scene sc;
  sc.model = std::move(*m);
  sc.initial = std::move(s);
  sc.duration = duration;
  sc.settings = std::move(settings);
  return sc;
}

}  // namespace moreau::builtin
