// libFuzzer target: arbitrary bytes as an MJCF document (defaults, bodies, joint mapping, geoms,
// equality, actuators, keyframes, the model build). Any input must give a Model or an Error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "moreau/io/urdf_mjcf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  moreau::Result<moreau::ImportedModel> r =
      moreau::import_mjcf_string(xml, "fuzz.xml", "tests/data/", {});
  if (r.ok() && r->scene.model.num_bodies() != r->scene.initial.num_bodies()) __builtin_trap();
  return 0;
}
