#pragma once
// The Python `Model`: a loaded Scene (model, initial state, settings) shared with the Simulators
// made from it, so that a Simulator keeps its model alive.
#include <memory>

#include "moreau/io/scene.hpp"

namespace moreau::python {

struct SceneHandle {
  std::shared_ptr<const Scene> scene;
};

}  // namespace moreau::python
