// libFuzzer target: arbitrary bytes as a moreau Problem dump (.mprob: magic line, JSON header,
// binary arrays). The entry point is shared with the corpus replay test (fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::fuzz::problem(data, size);
  return 0;
}
