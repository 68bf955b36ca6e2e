// libFuzzer target: arbitrary bytes as a Wavefront OBJ file, loaded as a triangle soup (moreau's
// OBJ reader, collision/mesh_obj.hpp) and hulled (qhull), as an MJCF mesh geometry is. The entry
// point is shared with the corpus replay test (fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::fuzz::obj(data, size);
  return 0;
}
