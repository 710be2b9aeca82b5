#!/usr/bin/env bash
# Cross-builds cnoise for 64-bit Windows with Debian's mingw-w64 toolchain and runs its C tests
# under wine (cmake/toolchain-mingw64.cmake sets wine as CTest's emulator): golden values, ranges,
# API contracts, threads (Windows threads, src/threads.c), every instruction set against the
# scalar build (test_isa), the batch API, the header as C99/C11/C++, and the README's example
# linked statically and against the DLL. Then the command-line tool, cnoise.exe, against a native
# build of the same source (tests/test_windows_cli.sh): the same bytes from every command, the
# same statuses on misuse, files replaced in place, no temporary file left. Debian has Windows
# builds of none of the tool's optional libraries but zlib, so that tool is built without GIF,
# OpenEXR, TIFF, recipes and raw formats' sidecars (CMake's CNOISE_WITH_* off; it refuses them by
# name) and deflates its PNGs with zlib (no ISA-L); the native reference is built the same way
# (zlib, and scalar kernels only: every instruction set gives the scalar build's bits), so that
# the files compare byte for byte. The other shell tests (CLI, install) need a native tool and
# are not run here. MSVC cannot be tested here.
#
# Needs (Debian/Ubuntu): gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine64, plus cmake and make.
# As root, missing packages are installed with apt-get; otherwise their names are printed and the
# script fails. It never skips silently: a missing tool, a failed test, or a test_isa run that did
# not compare every instruction set this CPU has is an error.
#
# Usage: scripts/test-windows.sh [extra ctest arguments, e.g. -R test_isa]
# Environment: CNOISE_WINDOWS_BUILD (build folder, default build-windows; the native reference in
# its native/), CNOISE_JOBS (default nproc). The tests take about two minutes on the 2-core
# development machine after the builds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CNOISE_WINDOWS_BUILD:-$root/build-windows}
jobs=${CNOISE_JOBS:-$(nproc)}
triple=x86_64-w64-mingw32

. "$root/scripts/packages.sh"
cn_ensure_packages test-windows cmake make gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine64
for tool in cmake make $triple-gcc $triple-g++ wine; do
  command -v "$tool" >/dev/null 2>&1 || { echo "test-windows: $tool not found" >&2; exit 1; }
done
export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-$build/wineprefix}

without="-DCNOISE_WITH_GIF=OFF -DCNOISE_WITH_EXR=OFF -DCNOISE_WITH_TIFF=OFF -DCNOISE_WITH_RECIPES=OFF -DCNOISE_WITH_SIDECARS=OFF -DCNOISE_WITH_ISAL=OFF"
echo "== $(basename "$build"): Windows cross build (mingw-w64 gcc, Release, warnings as errors), tests under wine"
# shellcheck disable=SC2086 # $without is a list of options
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-mingw64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCNOISE_WERROR=ON -DCNOISE_BUILD_CLI=ON -DCNOISE_BUILD_BENCH=OFF $without >/dev/null
cmake --build "$build" -j"$jobs" >/dev/null
wineboot -i >/dev/null 2>&1 || true # create the prefix once, outside the timed tests
ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@"

# test_isa must have compared every instruction set this CPU supports with the scalar build.
if [ $# -eq 0 ]; then
  out=$(wine "$build/tests/test_isa.exe" 2>&1 | tr -d '\r')
  tested=$(printf '%s\n' "$out" | sed -n 's/^test_isa: instruction sets tested: //p')
  native=$(grep -o -w -E 'sse2|avx2|avx512f' /proc/cpuinfo | sort -u | tr '\n' ' ')
  for isa in sse2 avx2 avx512; do
    want=$isa; [ "$isa" = avx512 ] && want=avx512f
    case " $native " in *" $want "*) ;; *) continue ;; esac
    case " $tested " in *" $isa"*) ;; *) echo "test-windows: test_isa did not test $isa: '$tested'" >&2; exit 1 ;; esac
  done
  echo "test_isa under wine: $tested"

  # The tool against a native one built from the same source the same way (see the top).
  "$root/scripts/setup-deps.sh" >/dev/null
  native=$build/native
  echo "== $(basename "$build")/native: the native reference tool (scalar kernels, zlib)"
  # shellcheck disable=SC2086
  cmake -S "$root" -B "$native" -DCMAKE_BUILD_TYPE=Release -DCNOISE_ISAS=none -DCNOISE_BUILD_TESTS=OFF \
    -DCNOISE_BUILD_BENCH=OFF $without >/dev/null
  cmake --build "$native" -j"$jobs" --target cnoise_cli >/dev/null
  bash "$root/tests/test_windows_cli.sh" "$native/cnoise" "$build/cnoise.exe"
fi
echo "== Windows (mingw-w64, wine) tests passed"
