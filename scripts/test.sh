#!/usr/bin/env bash
# Sets up, then builds and runs the whole test suite three ways:
#   1. gcc, Release, warnings as errors;
#   2. clang with AddressSanitizer + UndefinedBehaviorSanitizer (UBSan in the scalar kernels only,
#      CMakeLists.txt; no debug information in the kernel files: a finding there names the
#      function, not the line, and their build takes a third less time). clang, because it builds
#      the instrumented kernels three times as fast as gcc (isa_avx2_f32.c: 61 s against 180 s);
#      gcc's warnings are stage 1's;
#   3. clang, Release, warnings as errors (without the OpenCL tests: the device program does not
#      depend on the host compiler, and 1 ran them);
# (after 1: the Python package built against that build and its pytest suite,
#  scripts/test-python.sh; and the WebAssembly tests against that build's library and tool,
#  scripts/test-wasm.sh: the identity of the native and WebAssembly builds, the browser preview's
#  pixels against the tool under Node and in headless Chromium; each part skips, saying why,
#  where emscripten or chromium cannot be installed)
# (each also replays the fuzz targets' seed corpora and regression inputs, fuzz/), then
#   4. ThreadSanitizer (clang, for the same reason) on the tests that evaluate many
#      configurations from many threads at once (scripts/test-tsan.sh);
#   5. every shell test of the command-line tool with the tool under valgrind memcheck
#      (scripts/valgrind.sh): the gcc stage's tool (built with -g, kernels without debug
#      information), 1 in 3 of its runs under memcheck (CNOISE_VALGRIND_SAMPLE; the share changes
#      with the commit; stage 2 already checks every run for invalid accesses and leaks);
#      `scripts/valgrind.sh` alone checks every run (about 25 min).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# CNOISE_WITH_FUZZ: clang with its sanitizer runtimes (libclang-rt-dev), for stages 2 and 4.
CNOISE_WITH_CLANG=1 CNOISE_WITH_FUZZ=1 CNOISE_WITH_OPENCL=1 "$root/scripts/setup-deps.sh"
jobs=$(nproc)

# Each stage's time is printed (build and tests apart for the CMake stages), and all of them at
# the end, to see where the suite's time goes.
times=()
t_all=$SECONDS
stage() { # name, command...: runs a stage and records its time
  local name=$1 t0=$SECONDS; shift
  "$@"
  times+=("$name $((SECONDS - t0)) s")
  echo "== $name: $((SECONDS - t0)) s"
}
run() { # name, cmake args...
  local name=$1 dir="$root/build-test-$1" t0=$SECONDS; shift
  echo "== $(basename "$dir"): cmake $*"
  cmake -S "$root" -B "$dir" "$@" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  times+=("$name build $((SECONDS - t0)) s")
  t0=$SECONDS
  ctest --test-dir "$dir" --output-on-failure -j"$jobs"
  times+=("$name tests $((SECONDS - t0)) s")
}

# -g (not the kernels: CNOISE_KERNEL_DEBUG_INFO) for stage 5's memcheck reports; -g changes no code.
run gcc -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCNOISE_WERROR=ON \
  -DCMAKE_C_FLAGS=-g -DCNOISE_KERNEL_DEBUG_INFO=OFF
stage python "$root/scripts/test-python.sh" "$root/build-test-gcc"
stage wasm "$root/scripts/test-wasm.sh" "$root/build-test-gcc"
run asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCNOISE_SANITIZE=ON \
  -DCNOISE_KERNEL_DEBUG_INFO=OFF
run clang -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCNOISE_WERROR=ON -DCNOISE_TEST_OPENCL=OFF
stage tsan env CC=clang "$root/scripts/test-tsan.sh"
stage valgrind env CNOISE_WITH_VALGRIND=1 CNOISE_VALGRIND_CNOISE="$root/build-test-gcc/cnoise" \
  CNOISE_VALGRIND_SAMPLE=3 "$root/scripts/valgrind.sh"
echo "== stage times: $(IFS=,; echo "${times[*]}" | sed 's/,/, /g'); total $((SECONDS - t_all)) s"
echo "== all test builds passed"
