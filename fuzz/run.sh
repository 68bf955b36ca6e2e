#!/usr/bin/env bash
# Runs both fuzz targets for SECONDS each (default 600) on copies of the seed corpora, from the
# repository root (mesh paths in seeds resolve against tests/data). Crashes land in fuzz/findings/.
set -euo pipefail
secs=${1:-600}
mkdir -p fuzz/findings fuzz/work/urdf fuzz/work/mjcf
cp -n fuzz/corpus/urdf/* fuzz/work/urdf/ 2>/dev/null || true
cp -n fuzz/corpus/mjcf/* fuzz/work/mjcf/ 2>/dev/null || true
for t in urdf mjcf; do
  fuzz/bin/fuzz_$t -max_total_time="$secs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=fuzz/findings/$t- -dict=fuzz/xml.dict -close_fd_mask=3 fuzz/work/$t \
    > fuzz/findings/$t.log 2>&1 &
done
wait
tail -n 3 fuzz/findings/urdf.log fuzz/findings/mjcf.log
