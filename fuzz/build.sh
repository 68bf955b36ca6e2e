#!/usr/bin/env bash
# Builds the libFuzzer targets fuzz/bin/fuzz_{urdf,mjcf,scene,fclib,problem,stl,obj,png} (clang +
# libFuzzer, ASan, UBSan). The loaders (src/moreau/io/*.cpp, the mesh loaders
# src/moreau/collision/mesh_io.cpp, mesh_obj.cpp and mesh_stl.cpp) and the entry points
# (fuzz/targets.cpp) are compiled instrumented, with the defines and include paths of the Release
# build's compile_commands.json; the rest of moreau is linked from that build (build/libmoreau_*.a, built
# first with `cmake --build build --target moreau`). Run from the repository root:
#   fuzz/build.sh && fuzz/run.sh 600
# BUILD_DIR (default build) names the Release build. Exits 3 when no clang is found.
set -euo pipefail
source fuzz/common.sh
BUILD_DIR=${BUILD_DIR:-build}
CXX=${CXX:-$(command -v clang++-19 || command -v clang++-14 || command -v clang++ || true)}
if [ -z "$CXX" ]; then
  echo "fuzz/build.sh: no clang++ (Debian: clang-14 and libclang-rt-14-dev)" >&2
  exit 3
fi
out=fuzz/bin
obj=fuzz/obj
mkdir -p "$out" "$obj"
san=(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
# -D, -I and -isystem flags of each io source in the Release build.
flags_of() {
  /usr/bin/python3 - "$BUILD_DIR/compile_commands.json" "$1" <<'PY'
import json, shlex, sys
cmds, src = json.load(open(sys.argv[1])), sys.argv[2]
for e in cmds:
    if e["file"].endswith(src):
        a = shlex.split(e["command"])
        keep = []
        for i, x in enumerate(a):
            if x.startswith(("-D", "-I")): keep.append(x)
            elif x == "-isystem": keep += [x, a[i + 1]]
        print("\n".join(keep))  # one flag a line: defines may hold quotes and spaces
        break
PY
}
mapfile -t common < <(flags_of src/moreau/io/fclib_hdf5.cpp)
[ ${#common[@]} -gt 0 ] || { echo "fuzz/build.sh: $BUILD_DIR/compile_commands.json lacks io" >&2; exit 1; }
objs=()
for src in src/moreau/io/*.cpp src/moreau/collision/mesh_io.cpp src/moreau/collision/mesh_obj.cpp \
  src/moreau/collision/mesh_stl.cpp \
  fuzz/targets.cpp; do
  o="$obj/$(basename "${src%.cpp}").o"
  mapfile -t f < <(flags_of "$src")
  [ ${#f[@]} -gt 0 ] || f=("${common[@]}")
  # Rebuilt when its source, this script or any header is newer: a header that changes a struct's
  # layout under a stale object overflows the stack at run time (ASan: stack-buffer-overflow).
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ "$0" -nt "$o" ] ||
    [ -n "$(find src fuzz -name '*.hpp' -newer "$o" -print -quit)" ]; then
    "$CXX" -std=c++20 -O1 -g -DNDEBUG "${f[@]}" -Isrc -Ifuzz -fsanitize=fuzzer-no-link "${san[@]}" \
      -c "$src" -o "$o"
  fi
  objs+=("$o")
done
libs=()
for m in sim solvers nmdp ncp dynamics collision model math; do
  libs+=("$BUILD_DIR/libmoreau_$m.a")
done
ext=$(grep -E '^MOREAU_[A-Z0-9_]*_LIB:FILEPATH=' "$BUILD_DIR/CMakeCache.txt" | grep -v NOTFOUND |
  sed 's/.*=//' | tr '\n' ' ')
for t in "${FUZZ_TARGETS[@]}"; do
  # shellcheck disable=SC2086
  "$CXX" -std=c++20 -O1 -g -Ifuzz -fsanitize=fuzzer "${san[@]}" "fuzz/fuzz_$t.cpp" "${objs[@]}" \
    "${libs[@]}" $ext -ltinyxml -lconsole_bridge -o "$out/fuzz_$t"
done
echo "built ${FUZZ_TARGETS[*]/#/$out/fuzz_} with $CXX"
