#!/usr/bin/env bash
# Runs fuzz targets one after the other for SECONDS each (default 600) at the lowest CPU priority,
# on working copies of the seed corpora, from the repository root (mesh paths in seeds resolve
# against tests/data): fuzz/run.sh [SECONDS] [TARGET...] (default: every target). Crashes land in
# fuzz/findings/<target>-crash-*, logs in fuzz/findings/<target>.log; the last lines of each log
# give the run count ("Done N runs").
set -euo pipefail
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(urdf mjcf scene fclib problem)
mkdir -p fuzz/findings
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# A request the system cannot satisfy returns null, as glibc's malloc does (libhdf5 sizes some
# metadata allocations from the file and reports the null as an error; fuzz/README.md).
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
for t in "${targets[@]}"; do
  mkdir -p "fuzz/work/$t"
  cp -n "fuzz/corpus/$t"/* "fuzz/work/$t/" 2>/dev/null || true
  dict=()
  case $t in
    urdf | mjcf) dict=(-dict=fuzz/xml.dict) ;;
    scene) dict=(-dict=fuzz/json.dict) ;;
  esac
  status=0
  nice -n 19 "fuzz/bin/fuzz_$t" -max_total_time="$secs" -max_len=16384 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="fuzz/findings/$t-" "${dict[@]}" -close_fd_mask=3 \
    "fuzz/work/$t" > "fuzz/findings/$t.log" 2>&1 || status=$?
  echo "$t: exit $status, $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "fuzz/findings/$t.log" || echo 'no summary')"
done
