#!/usr/bin/env bash
# The README's two commands:
#   bash scripts/dev.sh run      set up, build `moreau`, run the main job on built-in defaults
#   bash scripts/dev.sh test     set up, build the tests, run them (the fast tier; MOREAU_SLOW=1 adds the slow one)
# and two more:
#   bash scripts/dev.sh build    set up, build everything (tests and micro-benchmarks too)
#   bash scripts/dev.sh figures  set up, build `moreau`, run every experiment (full size) into a
#                                temporary directory and copy its figures into docs/figures
#   bash scripts/dev.sh sanitize set up, build the libraries and CLI with ASan + UBSan and the tests
#                                with ASan into build-asan
#                                (-DMOREAU_SANITIZE=address,undefined), run the fast tier there;
#                                MOREAU_SANITIZE_SUBSET=1: only the loaders' tests (labels io and
#                                fuzz: test_io, test_fuzz), for a quick local check
#   bash scripts/dev.sh soak     set up, build the tests, run the soak tier (label soak,
#                                MOREAU_SOAK=1; docs/reliability.md)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"
case "$mode" in
  run | test | build | figures | sanitize | soak) ;;
  *) echo "usage: scripts/dev.sh run|test|build|figures|sanitize|soak" >&2; exit 2 ;;
esac
bash scripts/setup.sh
BUILD_DIR="${MOREAU_BUILD_DIR:-build}"
if [ "$mode" = sanitize ]; then
  # docs/reliability.md: every finding is fatal (-fno-sanitize-recover), leaks included.
  BUILD_DIR="${MOREAU_ASAN_BUILD_DIR:-build-asan}"
  # No Python module: an instrumented extension needs the sanitizer runtime preloaded into
  # python3; the Release tier tests the bindings.
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMOREAU_SANITIZE=address,undefined -DMOREAU_BUILD_BENCHMARKS=OFF \
    -DMOREAU_BUILD_PYTHON=OFF >/dev/null
  targets=(moreau_tests) labels=(-LE 'slow|soak')
  [ "${MOREAU_SANITIZE_SUBSET:-0}" = 1 ] && targets=(test_io test_fuzz) labels=(-L 'io|fuzz')
  cmake --build "$BUILD_DIR" -j "$(nproc)" --target "${targets[@]}"
  # allocator_may_return_null: an impossible request returns null as glibc's malloc does
  # (fuzz/README.md, libhdf5's metadata cache).
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/fuzz/lsan.supp}"
  # Determinism across builds: the Release build's rollout hashes, when its tests ran
  # (tests/io/test_rollout_hash.cpp).
  ref="$PWD/${MOREAU_BUILD_DIR:-build}/rollout_hashes.txt"
  [ -f "$ref" ] && export MOREAU_REFERENCE_HASHES="$ref"
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" "${labels[@]}"
  exit 0
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
case "$mode" in
  run)
    cmake --build "$BUILD_DIR" -j "$(nproc)" --target moreau
    # The main job: the quick benchmark of every suite system and solver (report in bench-out/).
    "$BUILD_DIR/moreau" bench --quick --out "${MOREAU_BENCH_OUT:-bench-out}"
    ;;
  test)
    # moreau_tests: every test executable and the `moreau` binary the CLI tests run.
    cmake --build "$BUILD_DIR" -j "$(nproc)" --target moreau_tests
    if [ "${MOREAU_SLOW:-0}" = "1" ]; then
      ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" -LE soak
    else
      ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" -LE 'slow|soak'
    fi
    ;;
  soak)
    cmake --build "$BUILD_DIR" -j "$(nproc)" --target moreau_tests
    MOREAU_SOAK=1 ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" -L soak
    ;;
  build)
    cmake --build "$BUILD_DIR" -j "$(nproc)"
    ;;
  figures)
    # docs/figures changes only here: `moreau experiment --out DIR` writes into DIR alone.
    cmake --build "$BUILD_DIR" -j "$(nproc)" --target moreau
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    "$BUILD_DIR/moreau" experiment all --out "$tmp"
    mkdir -p docs/figures
    cp "$tmp"/*.svg docs/figures/
    echo "figures: copied $(cd "$tmp" && ls *.svg | tr '\n' ' ')into docs/figures/"
    ;;
esac
