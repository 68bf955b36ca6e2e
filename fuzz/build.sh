#!/usr/bin/env bash
# Builds the libFuzzer targets fuzz/fuzz_urdf and fuzz/fuzz_mjcf (clang + libFuzzer, ASan, UBSan).
# The importer sources are compiled instrumented; the rest of moreau is linked from the Release
# build (build/libmoreau_*.a, built first with `ninja -C build moreau`). Run from the repo root:
#   fuzz/build.sh && fuzz/run.sh 600
set -euo pipefail
CXX=${CXX:-$(command -v clang++-19 || command -v clang++-14 || command -v clang++)}
out=fuzz/bin
mkdir -p "$out"
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -Isrc -I/usr/include/eigen3 -I/usr/include/urdfdom -I/usr/include/urdfdom_headers -DNDEBUG)
srcs=(src/moreau/io/urdf_check.cpp src/moreau/io/urdf_import.cpp src/moreau/io/urdf_mjcf.cpp
      src/moreau/io/urdf_mjcf_tree.cpp src/moreau/io/mjcf_parse.cpp src/moreau/io/mjcf_defaults.cpp
      src/moreau/io/mjcf_body.cpp src/moreau/io/mjcf_geom.cpp)
libs=(build/libmoreau_dynamics.a build/libmoreau_collision.a build/libmoreau_model.a
      build/libmoreau_math.a -lurdfdom_model -ltinyxml2 -ltinyxml -lconsole_bridge -lassimp
      -lqhull_r -lfcl -lccd)
for t in urdf mjcf; do
  "$CXX" "${flags[@]}" "fuzz/fuzz_$t.cpp" "${srcs[@]}" "${libs[@]}" -o "$out/fuzz_$t"
done
echo "built $out/fuzz_urdf $out/fuzz_mjcf with $CXX"
