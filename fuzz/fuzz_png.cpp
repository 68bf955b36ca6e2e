// libFuzzer target: arbitrary bytes as a PNG image read as 8-bit gray (libpng), as an MJCF height
// field is. The entry point is shared with the corpus replay test (fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::fuzz::png(data, size);
  return 0;
}
