// libFuzzer target: arbitrary bytes as an MJCF document (defaults, bodies, joint mapping, geoms,
// equality, actuators, keyframes, the model build). The entry point is shared with the corpus
// replay test (fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::fuzz::mjcf(data, size);
  return 0;
}
