// libFuzzer target: arbitrary bytes as a moreau JSON scene (bodies, shapes, joints, settings,
// keyframes, model files it names). The entry point is shared with the corpus replay test
// (fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::fuzz::scene(data, size);
  return 0;
}
