#!/usr/bin/env bash
# Builds tdoku the ways its authors benchmark it, linked into scripts/tdoku_once.c, for
# scripts/bench.sh. tdoku stays outside this repository.
#
#   scripts/build_peers.sh TDOKU_DIR [OUT_DIR]
#
#   TDOKU_DIR  a checkout of https://github.com/t-dillon/tdoku (its data.zip is not needed)
#   OUT_DIR    where the programs go (default TDOKU_DIR/build-peers); it holds afterwards
#                tdoku_once_O3_native      clang -O3 -march=native
#                tdoku_once_O3_native_pgo  the same, profile-guided
#
# The flags are those of tdoku's BENCH.sh configurations clang_O3_native and
# clang_O3_native_pgo, through its CMakeLists.txt (which sets no build type): the sources of its
# tdoku_static target (src/solver_dpll_triad_simd.cc, src/util.cc) with -std=gnu++14 -O3
# -march=native -fno-exceptions -fno-rtti -fpic. For the profile-guided build BENCH.sh compiles
# with -fprofile-generate, runs its benchmark on data/puzzles2_17_clue (the corpus as published,
# counting to 2), merges the profile with llvm-profdata and compiles again with -fprofile-use;
# here the training run is tdoku_once on that corpus, taken from CORPORA (default
# ../shared/corpora/tdoku beside the repository), at limits 2 and 1.
#
# CC and CXX choose the compilers (default clang and clang++; tdoku's results name clang 8 to
# 11, Debian 12 has 14), PROFDATA the profile merger (default llvm-profdata).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 TDOKU_DIR [OUT_DIR]" >&2
  exit 2
fi
tdoku=$(realpath "$1")
out=$(realpath -m "${2:-$tdoku/build-peers}")
corpora=$(realpath -m "${CORPORA:-$(dirname "$0")/../../shared/corpora/tdoku}")
cc=${CC:-clang}
cxx=${CXX:-clang++}
profdata=${PROFDATA:-llvm-profdata}
once=$(realpath "$(dirname "$0")/tdoku_once.c")
for f in src/solver_dpll_triad_simd.cc src/util.cc; do
  if [ ! -f "$tdoku/$f" ]; then
    echo "error: $tdoku/$f not found: TDOKU_DIR must be a checkout of tdoku" >&2
    exit 2
  fi
done
if [ ! -f "$corpora/puzzles2_17_clue" ]; then
  echo "error: $corpora/puzzles2_17_clue not found (set CORPORA)" >&2
  exit 2
fi
mkdir -p "$out"

flags=(-O3 -march=native)
# Compiles tdoku's two sources and links them with tdoku_once.c into $out/$1; the rest of the
# arguments are added to every step.
build() {
  local name=$1 obj=$out/obj-$1
  shift
  mkdir -p "$obj"
  for f in solver_dpll_triad_simd util; do
    "$cxx" -std=gnu++14 "${flags[@]}" "$@" -fno-exceptions -fno-rtti -fpic \
      -c "$tdoku/src/$f.cc" -o "$obj/$f.o"
  done
  "$cc" "${flags[@]}" "$@" -o "$out/$name" "$once" "$obj/solver_dpll_triad_simd.o" "$obj/util.o" \
    -static-libgcc -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic -lm
}

build tdoku_once_O3_native

rm -rf "$out/pgodata.gen" "$out/pgodata.profdata"
build tdoku_once_pgo_gen -fprofile-generate="$out/pgodata.gen"
for limit in 2 1; do
  "$out/tdoku_once_pgo_gen" "$corpora/puzzles2_17_clue" "$limit" >/dev/null
done
"$profdata" merge "$out/pgodata.gen" -output "$out/pgodata.profdata"
build tdoku_once_O3_native_pgo -fprofile-use="$out/pgodata.profdata"
rm -rf "$out/tdoku_once_pgo_gen" "$out/obj-tdoku_once_pgo_gen"

echo "tdoku $(git -C "$tdoku" rev-parse --short HEAD 2>/dev/null || echo "(not a git checkout)")," \
  "$("$cxx" --version | head -n 1): $out/tdoku_once_O3_native, $out/tdoku_once_O3_native_pgo"
