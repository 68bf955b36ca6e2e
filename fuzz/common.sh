# Shared by fuzz/build.sh, run.sh, smoke.sh and seed.sh (sourced).

# The targets, in the order of fuzz/targets.hpp's kTargets.
FUZZ_TARGETS=(urdf mjcf scene fclib problem stl obj png)

# A target's maximum input length (libFuzzer's -max_len): large enough for the real files that
# seed it (fuzz/README.md), small enough that a target runs 1e6 inputs in minutes.
max_len() {
  case "$1" in
    mjcf) echo 65536 ;;   # the Unitree G1 and H1 models: 18 to 37 kB
    fclib) echo 262144 ;; # six of the eight FCLib problems: 58 to 176 kB
    stl) echo 65536 ;;    # the smallest robot meshes: 24 to 47 kB, 500 to 950 triangles
    obj) echo 65536 ;;    # the same meshes written as OBJ (fuzz/seed.sh)
    png) echo 65536 ;;    # height fields and textures: 5 to 38 kB
    *) echo 16384 ;;
  esac
}

# The mutator's dictionary for a target (libFuzzer's -dict), if any.
dict_args() {
  case "$1" in
    urdf | mjcf) echo -dict=fuzz/xml.dict ;;
    scene) echo -dict=fuzz/json.dict ;;
  esac
}

# Fills the working corpus directory $2 of target $1 with the seeds kept in git, the files of
# fuzz/corpus/$1 only: libFuzzer reads a directory recursively, and fuzz/corpus/$1/regressions holds
# libhdf5's crashers, which still crash fuzz_fclib (it reads in process). Then prints the other
# directories a run reads: the real files fuzz/seed.sh copied, when it ran.
corpus_dirs() {
  find "fuzz/corpus/$1" -maxdepth 1 -type f -exec cp -n {} "$2/" \;
  [ -d "fuzz/seeds/$1" ] && echo "fuzz/seeds/$1"
  return 0
}
