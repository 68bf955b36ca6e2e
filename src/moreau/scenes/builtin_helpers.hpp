#pragma once
// Small builders shared by the built-in scenes, on top of the model primitives
// (moreau/model/primitives.hpp): the hanging chain, the last step of every builder and scene
// parameters.
#include <vector>

#include "moreau/io/scene.hpp"
#include "moreau/model/primitives.hpp"
#include "moreau/scenes/builtin.hpp"

namespace moreau::builtin {

constexpr double kPi = 3.14159265358979323846;

// A chain of 0.1 m box links (masses[i] kg) hanging from the world on revolute joints about
// world y, laid out horizontally along +x (the `chain` scene; the softening experiment's heavy
// chain). With `geometry`, each link also gets its box as collision geometry.
void add_hanging_chain(ModelBuilder& mb, State& s, const std::vector<double>& masses,
                       bool geometry);

// A Scene from a builder and an initial state (the last step of every builder).
Result<Scene> finish_scene(ModelBuilder& mb, State s, double duration, SimSettings settings = {});

// `double var` = the scene parameter `key` (or `fallback`); returns the Error from the enclosing
// scene builder, which must have `params` and `scene_name` in scope, when it is not a number.
#define MOREAU_SCENE_PARAM(var, key, fallback)                           \
  double var;                                                            \
  {                                                                      \
    Result<double> r_ = param_double(params, scene_name, key, fallback); \
    if (!r_) return r_.error();                                          \
    var = *r_;                                                           \
  }

}  // namespace moreau::builtin
