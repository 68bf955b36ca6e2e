#!/usr/bin/env bash
# The README's two commands:
#   bash scripts/dev.sh run    set up, build, run the main job on built-in defaults
#   bash scripts/dev.sh test   set up, build, run all tests (the fast tier; MOREAU_SLOW=1 adds the slow one)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"
bash scripts/setup.sh
BUILD_DIR="${MOREAU_BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
case "$mode" in
  run)
    # The main job: the quick benchmark of every suite system and solver (report in bench-out/).
    "$BUILD_DIR/moreau" bench --quick --out "${MOREAU_BENCH_OUT:-bench-out}"
    ;;
  test)
    if [ "${MOREAU_SLOW:-0}" = "1" ]; then
      ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)"
    else
      ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" -LE slow
    fi
    ;;
  build) ;;
  *) echo "usage: scripts/dev.sh run|test|build" >&2; exit 2 ;;
esac
