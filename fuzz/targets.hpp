#pragma once
// The fuzz targets' entry points, shared by the libFuzzer binaries (fuzz/fuzz_<name>.cpp, clang)
// and the corpus replay test (tests/fuzz/test_corpus_replay.cpp, any compiler), so that every
// seed and every crasher ever found runs in the fast test tier. Each entry feeds arbitrary bytes
// to one loader; any input must end in a value or an Error, never a crash, a sanitizer report, a
// hang or unbounded memory (fuzz/README.md). An entry traps when a loaded value breaks an
// invariant the loader promises; it returns whether the input loaded (the seeds must).
#include <cstddef>
#include <cstdint>

namespace moreau::fuzz {

using Entry = bool (*)(const uint8_t* data, size_t size);

bool urdf(const uint8_t* data, size_t size);   // import_urdf_string
bool mjcf(const uint8_t* data, size_t size);   // import_mjcf_string
bool scene(const uint8_t* data, size_t size);  // parse_scene_json
bool fclib(const uint8_t* data, size_t size);  // load_fclib on a temporary file
// load_fclib_in_process: libFuzzer's fuzz_fclib, which must see libhdf5's own crashes (load_fclib
// reads in a child process and turns them into Errors; the replay goes through it).
bool fclib_in_process(const uint8_t* data, size_t size);
bool problem(const uint8_t* data, size_t size);  // load_problem on a temporary file
// load_mesh (assimp) on a temporary .stl (ASCII or binary) or .obj file, then its convex hull
// (qhull), as an MJCF mesh geometry is loaded.
bool stl(const uint8_t* data, size_t size);
bool obj(const uint8_t* data, size_t size);
bool png(const uint8_t* data, size_t size);  // read_png_gray (libpng), as an MJCF height field

struct Target {
  const char* name;  // fuzz/corpus/<name>/
  Entry entry;
};
inline constexpr Target kTargets[] = {{"urdf", urdf},   {"mjcf", mjcf},       {"scene", scene},
                                      {"fclib", fclib}, {"problem", problem}, {"stl", stl},
                                      {"obj", obj},     {"png", png}};

}  // namespace moreau::fuzz
