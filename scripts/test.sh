#!/usr/bin/env bash
# Sets up, then builds and runs the whole test suite three ways:
#   1. gcc, Release, warnings as errors;
#   2. gcc with AddressSanitizer + UndefinedBehaviorSanitizer;
#   3. clang, Release, warnings as errors (without the OpenCL tests: the device program does not
#      depend on the host compiler, and 1 ran them);
# (after 1: the Python package built against that build and its pytest suite,
#  scripts/test-python.sh)
# (each also replays the fuzz targets' seed corpora and regression inputs, fuzz/), then
#   4. ThreadSanitizer on the tests that evaluate many configurations from many threads at once
#      (scripts/test-tsan.sh);
#   5. every shell test of the command-line tool with the tool under valgrind memcheck
#      (scripts/valgrind.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
CNOISE_WITH_CLANG=1 CNOISE_WITH_OPENCL=1 "$root/scripts/setup-deps.sh"
jobs=$(nproc)

run() { # name, cmake args...
  local dir="$root/build-test-$1"; shift
  echo "== $(basename "$dir"): cmake $*"
  cmake -S "$root" -B "$dir" "$@" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  ctest --test-dir "$dir" --output-on-failure -j"$jobs"
}

run gcc -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCNOISE_WERROR=ON
"$root/scripts/test-python.sh" "$root/build-test-gcc"
run asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCNOISE_SANITIZE=ON
run clang -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCNOISE_WERROR=ON -DCNOISE_TEST_OPENCL=OFF
"$root/scripts/test-tsan.sh"
CNOISE_WITH_VALGRIND=1 "$root/scripts/valgrind.sh"
echo "== all test builds passed"
