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
# No real OBJ file fits the obj target (MuJoCo's mug is 2.2 MB): the STL meshes kept above are
# written again as OBJ (their triangles over joined vertices), real robot geometry in that format.
for f in fuzz/seeds/stl/*; do
  [ -e "$f" ] || continue
  /usr/bin/python3 - "$f" "fuzz/seeds/obj/$(basename "${f%.*}").obj" <<'PY' || continue
import re, struct, sys
data = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", data, 80)[0] if len(data) >= 84 else -1
if len(data) == 84 + 50 * n:  # binary STL: 80-byte header, count, 50 bytes per triangle
    pts = [struct.unpack_from("<3f", data, 84 + 50 * t + 12 + 12 * k) for t in range(n) for k in range(3)]
else:  # ASCII STL
    num = rb"([-+0-9.eE]+)"
    pts = [tuple(map(float, m)) for m in re.findall(rb"vertex\s+" + (num + rb"\s+") * 2 + num, data)]
index, lines = {}, []
for p in pts:
    if p not in index:
        index[p] = len(index) + 1
        lines.append("v %.9g %.9g %.9g" % p)
for t in range(len(pts) // 3):
    lines.append("f %d %d %d" % tuple(index[p] for p in pts[3 * t:3 * t + 3]))
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
  if [ "$(stat -c %s "fuzz/seeds/obj/$(basename "${f%.*}").obj")" -gt "$(max_len obj)" ]; then
    rm "fuzz/seeds/obj/$(basename "${f%.*}").obj"
  else
    kept=$((kept + 1))
  fi
done
for t in "${FUZZ_TARGETS[@]}"; do
  printf '%s: %d real seeds (at most %d bytes)\n' "$t" "$(ls "fuzz/seeds/$t" | wc -l)" "$(max_len "$t")"
done
echo "fuzz/seed.sh: $kept files kept, $skipped over their target's maximum length, from ${dirs[*]}"
