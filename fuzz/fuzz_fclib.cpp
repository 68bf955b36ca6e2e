// libFuzzer target: arbitrary bytes as an FCLib HDF5 file, read through the file API (local and
// global problems) in this process, so that libhdf5's own crashes show. The entry point is shared
// with the corpus replay test (fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::fuzz::fclib_in_process(data, size);
  return 0;
}
