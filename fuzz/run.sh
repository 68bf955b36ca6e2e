#!/usr/bin/env bash
# Runs fuzz targets one after the other for SECONDS each (default 600) at the lowest CPU priority,
# from the seed corpora and the real files of fuzz/seed.sh, growing fuzz/work/<target>; from the
# repository root (paths in seeds resolve against tests/data):
#   fuzz/run.sh [SECONDS] [TARGET...]        (default: every target)
# RUNS=N ends each target after N inputs instead (the time stays a cap). Crashes land in
# fuzz/findings/<target>-crash-*, logs in fuzz/findings/<target>.log; its last lines give the run
# count ("Done N runs").
set -euo pipefail
source fuzz/common.sh
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${FUZZ_TARGETS[@]}")
mkdir -p fuzz/findings
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# A request the system cannot satisfy returns null, as glibc's malloc does (libhdf5 sizes some
# metadata allocations from the file and reports the null as an error; fuzz/README.md).
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
for t in "${targets[@]}"; do
  mkdir -p "fuzz/work/$t"
  mapfile -t dirs < <(corpus_dirs "$t" "fuzz/work/$t")
  status=0
  nice -n 19 "fuzz/bin/fuzz_$t" -max_total_time="$secs" ${RUNS:+-runs=$RUNS} \
    -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="fuzz/findings/$t-" $(dict_args "$t") -close_fd_mask=3 \
    "fuzz/work/$t" "${dirs[@]}" > "fuzz/findings/$t.log" 2>&1 || status=$?
  echo "$t: exit $status, $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "fuzz/findings/$t.log" || echo 'no summary')"
done
