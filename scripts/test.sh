#!/usr/bin/env bash
# Sets up, then builds and runs the whole test suite three ways:
#   1. gcc, Release, warnings as errors;
#   2. gcc with AddressSanitizer + UndefinedBehaviorSanitizer;
#   3. clang, Release, warnings as errors.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
CNOISE_WITH_CLANG=1 "$root/scripts/setup-deps.sh"
jobs=$(nproc)

run() { # name, cmake args...
  local dir="$root/build-test-$1"; shift
  echo "== $(basename "$dir"): cmake $*"
  cmake -S "$root" -B "$dir" "$@" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  ctest --test-dir "$dir" --output-on-failure -j"$jobs"
}

run gcc -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCNOISE_WERROR=ON
run asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCNOISE_SANITIZE=ON
run clang -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCNOISE_WERROR=ON
echo "== all test builds passed"
