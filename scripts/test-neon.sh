#!/usr/bin/env bash
# Cross-builds cnoise for 64-bit ARM (AArch64, with the NEON build of the kernels) using Debian's
# cross toolchain, and runs its C tests under qemu-user (cmake/toolchain-aarch64.cmake sets qemu as
# CTest's emulator). test_isa there compares the neon build with the scalar build bit for bit;
# the shell tests (CLI, install) cannot run cross-compiled and the CLI and benchmark are not built.
#
# Needs (Debian/Ubuntu): gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross
# qemu-user, plus cmake and make. As root, missing packages are installed with apt-get; otherwise
# their names are printed and the script fails. It never skips silently: a missing tool, a failed
# test, or a test_isa run that did not compare the neon build is an error.
#
# Usage: scripts/test-neon.sh [extra ctest arguments, e.g. -R test_isa]
# Environment: CNOISE_NEON_BUILD (build folder, default build-neon), CNOISE_JOBS (default nproc),
# CNOISE_RELAXED=ON for the relaxed build (FMA in the neon build; test_isa then uses its bounds).
# Under qemu the suite takes several minutes even on an idle machine (test_isa and test_range
# dominate), which is why scripts/test.sh does not run it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CNOISE_NEON_BUILD:-$root/build-neon}
jobs=${CNOISE_JOBS:-$(nproc)}
triple=aarch64-linux-gnu
sysroot=/usr/$triple

. "$root/scripts/packages.sh"
cn_ensure_packages test-neon cmake make gcc-$triple g++-$triple libc6-dev-arm64-cross qemu-user
for tool in cmake make $triple-gcc $triple-g++ qemu-aarch64; do
  command -v "$tool" >/dev/null 2>&1 || { echo "test-neon: $tool not found" >&2; exit 1; }
done
[ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] || { echo "test-neon: no AArch64 libc under $sysroot" >&2; exit 1; }

echo "== $(basename "$build"): AArch64 cross build (gcc, Release, warnings as errors), tests under qemu"
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-aarch64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCNOISE_WERROR=ON -DCNOISE_BUILD_CLI=OFF -DCNOISE_BUILD_BENCH=OFF \
  -DCNOISE_RELAXED="${CNOISE_RELAXED:-OFF}" >/dev/null
cmake --build "$build" -j"$jobs" >/dev/null
ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@"

# ctest keeps every test's output: make sure test_isa compared the neon build with the scalar one.
log="$build/Testing/Temporary/LastTest.log"
# (With a test filter given, only when test_isa ran.)
if [ $# -eq 0 ] || grep -q "test_isa: instruction sets tested:" "$log"; then
  if ! grep -q "test_isa: instruction sets tested: scalar neon" "$log"; then
    echo "test-neon: test_isa did not compare the neon build:" >&2
    grep "test_isa: instruction sets" "$log" >&2
    exit 1
  fi
  grep -E "test_isa: (relaxed )?neon" "$log" || true
fi
echo "== AArch64 (neon) tests passed"
