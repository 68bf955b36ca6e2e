// libFuzzer target: arbitrary bytes as a URDF document (structure checks, urdfdom, the link tree
// and the model build). The entry point is shared with the corpus replay test (fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::fuzz::urdf(data, size);
  return 0;
}
