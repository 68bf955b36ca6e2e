#!/usr/bin/env bash
# The FCLib table of docs/performance.md: every moreau solver of the report and every Siconos peer
# (siconos-*) on each FCLib file, judged by one criterion, moreau's absolute natural map
# r_natmap <= c = 1e-8 max(1, |q|_inf). A solver's time is the fastest of N solves from the same
# cold start (`moreau solve --repeat N`) at the loosest --tol of c, c / 100, c / 1e4 that meets the
# criterion (a solver that stops on its own measure may need a tighter tol to meet moreau's). Each
# solve is stopped after LIMIT seconds (`timeout`), and counts as failed.
# usage: scripts/peers_fclib.sh BUILD_DIR FCLIB_DIR [REPEAT] [LIMIT]  -> CSV on stdout
set -euo pipefail
B=${1:?build dir}; D=${2:?FCLib directory}; N=${3:-5}; LIMIT=${4:-60}
solvers=$("$B/moreau" solvers | awk '{print $1}' | grep -v -x -e pgs -e direct -e sap)
echo "file,solver,peer,tol,iterations,solve_time_s,solve_time_first_s,r_natmap,q_inf,passed"
for f in "$D"/*.hdf5; do
  c=$(timeout "$LIMIT" "$B/moreau" solve "$f" --solver pgs --max-iter 1 --json 2>/dev/null |
    jq '1e-8 * ([1, .q_inf] | max)' 2>/dev/null || true)
  [ -z "$c" ] && { echo "$(basename "$f"): cannot read its q" >&2; continue; }
  tols=$(awk -v c="$c" 'BEGIN { printf "%.6g %.6g %.6g", c, c / 100, c / 1e4 }')
  for s in $solvers; do
    peer=0; [[ $s == siconos-* ]] && peer=1
    row="$(basename "$f"),$s,$peer,-,-,-,-,-,-,0"
    for tol in $tols; do
      j=$(timeout "$LIMIT" "$B/moreau" solve "$f" --solver "$s" --tol $tol --max-iter 20000 --json 2>/dev/null || true)
      [ -z "$j" ] && break
      pass=$(jq '(.r_natmap <= 1e-8 * ([1, .q_inf] | max))' <<<"$j")
      if [ "$pass" = true ]; then
        j=$(timeout $((LIMIT * N)) "$B/moreau" solve "$f" --solver "$s" --tol $tol --max-iter 20000 --json --repeat "$N" 2>/dev/null || true)
        [ -z "$j" ] && break
        row=$(jq -r --arg f "$(basename "$f")" --arg p $peer --arg t $tol \
          '[$f, .solver, $p, $t, .iterations, .solve_time_s, .solve_time_first_s, .r_natmap, .q_inf, 1] | map(tostring) | join(",")' <<<"$j")
        break
      fi
      # Stopped at the iteration cap or failed: a tighter tol will not help.
      [ "$(jq -r .status <<<"$j")" = converged ] || break
    done
    echo "$row"
  done
done
