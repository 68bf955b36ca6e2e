// libFuzzer target: arbitrary bytes as a URDF document (structure checks, urdfdom, the link tree
// and the model build). Any input must give a Model or an Error, never a crash (fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "moreau/io/urdf_mjcf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  moreau::ImportOptions opt;
  opt.package_paths = {"tests/data"};
  moreau::Result<moreau::ImportedModel> r = moreau::import_urdf_string(xml, "fuzz.urdf", opt);
  if (r.ok() && r->scene.model.num_bodies() != r->scene.initial.num_bodies()) __builtin_trap();
  return 0;
}
