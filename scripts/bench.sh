#!/usr/bin/env bash
# Sets up (with the benchmark's peer libraries), builds Release in build-bench/, and runs the full
# benchmark: prints the table, writes docs/bench.json and docs/BENCH.md (the table in markdown
# with this machine's CPU model and the date). Takes several minutes.
#   scripts/bench.sh                    the full run
#   scripts/bench.sh --only perlin2d    any cnoise_bench options are passed on (see --help)
#   FNL_DIR=/tmp/FastNoiseLite/C scripts/bench.sh
#                                       FastNoiseLite too (not packaged: the C/ folder of a checkout
#                                       kept outside this tree; bench/peer_fnl.c)
#   FN2_SRC=/tmp/FastNoise2 FASTSIMD_SRC=/tmp/FastSIMD scripts/bench.sh
#                                       FastNoise2 too, AVX-512 and AVX2 (checkouts kept outside
#                                       this tree: FastNoise2 and the FastSIMD commit it pins; built
#                                       here with clang, Release, into build-bench-fn2/;
#                                       bench/peer_fn2.cpp)
# The documents are replaced only when the run succeeds (exit status 0: every output finite and
# every instruction set bit-identical to the scalar build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
CNOISE_WITH_BENCH=1 "$root/scripts/setup-deps.sh"
dir="$root/build-bench"
fn2_inc="" fn2_lib=""
if [ -n "${FN2_SRC:-}" ]; then
  [ -n "${FASTSIMD_SRC:-}" ] || { echo "bench.sh: FN2_SRC needs FASTSIMD_SRC (the FastSIMD checkout it pins)" >&2; exit 1; }
  fn2="$root/build-bench-fn2"
  # FastNoise2's own CMake; CPM takes FastSIMD from the given folder (nothing is downloaded).
  CC=clang CXX=clang++ cmake -S "$FN2_SRC" -B "$fn2" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_C_FLAGS=-march=native -DCMAKE_CXX_FLAGS=-march=native \
    -DFASTNOISE2_TOOLS=OFF -DFASTNOISE2_TESTS=OFF -DFASTNOISE2_UTILITY=OFF \
    -DCPM_FastSIMD_SOURCE="$FASTSIMD_SRC" >/dev/null
  cmake --build "$fn2" -j"$(nproc)" >/dev/null
  fn2_lib=$(find "$fn2" -name libFastNoise.a | head -n 1)
  fn2_gen=$(find "$fn2" -type d -path '*FastSIMD_FastNoise/include' | head -n 1)
  [ -n "$fn2_lib" ] && [ -n "$fn2_gen" ] || { echo "bench.sh: the FastNoise2 build made no libFastNoise.a" >&2; exit 1; }
  fn2_inc="$FN2_SRC/include;$FASTSIMD_SRC/include;$fn2_gen"
fi
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCNOISE_BUILD_BENCH=ON \
  -DCNOISE_BENCH_FNL_DIR="${FNL_DIR:-}" -DCNOISE_BENCH_FN2_INCLUDE_DIRS="$fn2_inc" \
  -DCNOISE_BENCH_FN2_LIBRARY="$fn2_lib" >/dev/null
cmake --build "$dir" -j"$(nproc)" --target cnoise_bench >/dev/null

mkdir -p "$root/docs"
json_tmp=$(mktemp "$root/docs/.bench.json.XXXXXX")
table_tmp=$(mktemp "$root/docs/.bench-table.XXXXXX")
md_tmp=$(mktemp "$root/docs/.BENCH.md.XXXXXX")
trap 'rm -f "$json_tmp" "$table_tmp" "$md_tmp"' EXIT

args=""
for a in "$@"; do args+=" $a"; done
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
"$dir/bench/cnoise_bench" --json "$json_tmp" --markdown "$table_tmp" "$@"

cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt")
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain -- src include CMakeLists.txt 2>/dev/null)" ]; then
  commit="$commit (with uncommitted changes)"
fi
{
  echo "# cnoise benchmark"
  echo
  echo "Measured on $started: ${cpu:-unknown CPU}, $(nproc) CPUs,"
  echo "$("${cc:-cc}" --version | head -n 1), Release build, cnoise $commit."
  echo "Load average (1, 5, 15 min) before the run: $load_before; after: $load_after (other work on the"
  echo "machine inflates the times)."
  echo "Produced by \`scripts/bench.sh$args\`; the same data is in [bench.json](bench.json)."
  echo
  cat "$table_tmp"
  # the OpenCL section (scripts/bench-opencl.sh), kept as it is
  if [ -f "$root/docs/BENCH.md" ] && grep -q '^<!-- opencl-bench -->$' "$root/docs/BENCH.md"; then
    echo
    sed -n '/^<!-- opencl-bench -->$/,$p' "$root/docs/BENCH.md"
  fi
} >"$md_tmp"
chmod 644 "$json_tmp" "$md_tmp"
mv -f "$json_tmp" "$root/docs/bench.json"
mv -f "$md_tmp" "$root/docs/BENCH.md"
echo "wrote docs/bench.json and docs/BENCH.md"
