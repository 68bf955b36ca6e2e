#!/usr/bin/env bash
# Installs the Debian packages moreau needs (as root). Idempotent: installs only what is missing.
set -euo pipefail
PACKAGES=(
  g++ cmake ninja-build ccache pkg-config
  libeigen3-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libhdf5-dev libfcl-dev libccd-dev libqhull-dev libassimp-dev
  libtinyxml2-dev liburdfdom-dev
  libmujoco-dev libmujoco-samples
  libsiconos-numerics-dev
  libsuitesparse-dev
  libpng-dev  # optional: MJCF height fields from PNG images (src/moreau/io/png_gray.cpp)
  python3-cvxopt  # reference QP solutions in tests/nmdp (run with /usr/bin/python3)
  pybind11-dev  # the moreau Python module (python/, docs/python.md)
  python3-dev  # Python.h for the moreau Python module
  python3-numpy  # the moreau Python module's arrays
  python3-distributed  # python3 -m moreau.sweep (Dask), tests/python/test_sweep.py
  python3-pytest  # tests/python, run by ctest
  python3-matplotlib  # examples/*.py
  libjs-three  # three.js, inlined into `moreau view`'s HTML files (docs/viewer.md)
  chromium  # headless: bench's pictures of the systems and the viewer's browser test (docs/viewer.md)
)
# MuJoCo 3 (WebAssembly, npm mujoco-js pinned by tools/mujoco3/package-lock.json): the reference
# for model files Debian's MuJoCo 2.2.2 cannot load (tools/mujoco3/README.md). Node >= 18: the
# machine's own, else Debian's nodejs and npm.
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || PACKAGES+=(nodejs npm)
mujoco3() {
  [ -d tools/mujoco3/node_modules/mujoco-js ] && return 0
  echo "setup: installing tools/mujoco3 (npm ci)"
  # Optional: without it the MuJoCo 3 comparisons skip (tests/io/test_mjcf_mujoco3.cpp).
  npm ci --prefix tools/mujoco3 --no-audit --no-fund --loglevel=error ||
    echo "setup: tools/mujoco3 not installed; the MuJoCo 3 comparisons will skip" >&2
}
cd "$(dirname "$0")/.."
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  mujoco3
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}; run as root (or with sudo) to install them" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y --no-install-recommends "${missing[@]}"
mujoco3
