#!/usr/bin/env bash
# Seeds the fuzz targets with real files: every MJCF, URDF, scene JSON, FCLib HDF5, STL, OBJ and
# PNG file under the given directories (default: MuJoCo's sample models in /usr/share/mujoco/model,
# and the robots/ and fclib/ folders of MOREAU_SHARED_DIR when it is set) is copied into
# fuzz/seeds/<target>/ (ignored by git), which fuzz/run.sh and fuzz/smoke.sh read beside the
# corpus. A file larger than its target's maximum input length (fuzz/common.sh) is left out: the
# fuzzer would cut it, and a cut binary file fails its loader's first size check on every
# mutation. Names keep the file's path, so that a finding traces back to its seed.
#   fuzz/seed.sh [DIR...]
# Run from the repository root.
set -euo pipefail
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  [ -d /usr/share/mujoco/model ] && dirs+=(/usr/share/mujoco/model)
  if [ -n "${MOREAU_SHARED_DIR:-}" ]; then
    for d in robots fclib; do [ -d "$MOREAU_SHARED_DIR/$d" ] && dirs+=("$MOREAU_SHARED_DIR/$d"); done
  fi
fi
source fuzz/common.sh
rm -rf fuzz/seeds
for t in "${FUZZ_TARGETS[@]}"; do mkdir -p "fuzz/seeds/$t"; done
[ ${#dirs[@]} -gt 0 ] || { echo "fuzz/seed.sh: no directory of real files" >&2; exit 0; }
kept=0 skipped=0
while IFS= read -r -d '' f; do
  case "${f,,}" in
    *.urdf) t=urdf ;;
    *.xml) grep -q '<mujoco' "$f" && t=mjcf || continue ;;
    *.json) t=scene ;;
    *.hdf5 | *.h5) t=fclib ;;
    *.stl) t=stl ;;
    *.obj) t=obj ;;
    *.png) t=png ;;
    *) continue ;;
  esac
  if [ "$(stat -c %s "$f")" -gt "$(max_len "$t")" ]; then
    skipped=$((skipped + 1))
    continue
  fi
  name=$(realpath "$f" | sed 's|^/||; s|/|_|g')
  cp "$f" "fuzz/seeds/$t/$name"
  kept=$((kept + 1))
done < <(find "${dirs[@]}" -type f -print0 | sort -z)
for t in "${FUZZ_TARGETS[@]}"; do
  printf '%s: %d real seeds (at most %d bytes)\n' "$t" "$(ls "fuzz/seeds/$t" | wc -l)" "$(max_len "$t")"
done
echo "fuzz/seed.sh: $kept files kept, $skipped over their target's maximum length, from ${dirs[*]}"
