#!/usr/bin/env bash
# bench-opencl.sh -- the OpenCL backend against the CPU batch engine (bench/opencl.c): Perlin 3D
# over a 256^3 grid and Perlin 4D over 64 frames of 64^3, float, transfers included, rounds
# interleaved in one run. Prints the table and puts it in docs/BENCH.md, in the section that
# starts at the line "<!-- opencl-bench -->" (scripts/bench.sh keeps that section).
#
#   scripts/bench-opencl.sh [cnoise_bench_opencl options: --rounds N --threads N --device INDEX --more]
# (--more: simplex 3D, OpenSimplex2S 3D, cellular 3D and Perlin 3D fBm-6 on 256^3 too; minutes on PoCL)
#
# Needs an OpenCL runtime with a device that has double precision; CNOISE_WITH_OPENCL=1
# scripts/setup-deps.sh installs PoCL (a CPU device) and the ICD loader. A benchmark, not a test:
# scripts/test.sh does not run it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
CNOISE_WITH_OPENCL=1 "$root/scripts/setup-deps.sh"
dir="$root/build-bench"
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCNOISE_BUILD_TESTS=OFF -DCNOISE_BUILD_CLI=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" --target cnoise_bench_opencl >/dev/null
table=$(mktemp)
trap 'rm -f "$table"' EXIT
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
"$dir/bench/cnoise_bench_opencl" --markdown "$table" "$@"
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
md=$root/docs/BENCH.md
[ -f "$md" ] || echo "# cnoise benchmark" >"$md"
args=""
for a in "$@"; do args+=" $a"; done
# a GPU machine's section (marker "<!-- opencl-gpu -->", written there by hand from
# cnoise_bench_opencl --markdown) stays after this machine's table
gpu=$(sed -n '/^<!-- opencl-gpu -->$/,$p' "$md")
{
  sed '/^<!-- opencl-bench -->$/,$d' "$md"
  echo "<!-- opencl-bench -->"
  echo "## OpenCL backend against the CPU batch engine"
  echo
  echo "Measured on $started, cnoise $commit, host ${cpu:-unknown CPU}, $(nproc) CPUs; load average"
  echo "before: $load_before, after: $load_after. Produced by \`scripts/bench-opencl.sh$args\`."
  echo "Medians over the rounds (interleaved CPU, OpenCL); \"CPU / OpenCL\" is the median of the"
  echo "per-round ratios (above 1: OpenCL is faster). The OpenCL time is the whole call: the"
  echo "generator's upload, the kernels and the copy of the results back to host memory. \"first\""
  echo "is the first call of the context, which compiles the program (PoCL also caches it on disk)."
  echo "On a CPU device such as PoCL the kernels run one point per work-item, without the CPU"
  echo "engine's SIMD row kernels, on the same cores: such a row measures the backend's cost and"
  echo "checks its bits, not what a GPU gives."
  echo
  cat "$table"
  if [ -n "$gpu" ]; then
    echo
    printf '%s\n' "$gpu"
  fi
} >"$md.tmp"
mv -f "$md.tmp" "$md"
echo "wrote the OpenCL section of docs/BENCH.md"
