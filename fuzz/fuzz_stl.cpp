// libFuzzer target: arbitrary bytes as an STL file (ASCII or binary: assimp decides by content),
// loaded as a triangle soup and hulled (qhull), as an MJCF mesh geometry is. The entry point is
// shared with the corpus replay test (fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::fuzz::stl(data, size);
  return 0;
}
