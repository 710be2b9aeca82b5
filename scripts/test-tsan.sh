#!/usr/bin/env bash
# ThreadSanitizer run: builds the library and the tests that evaluate many configurations from
# many threads at once (tests/test_threads.c: 8 threads on every configuration, shared and own
# generators; tests/test_batch.c: the threaded batch API, the instruction-set cap changed while
# batches run; tests/test_image.c: the PNG writer's compressing thread pool, 1 to 64 threads)
# with -fsanitize=thread -O1 -g in build-tsan/ (kernels: scalar and one SIMD build, CNOISE_ISAS;
# the threading code is the same for every instruction set), then runs them with
# halt_on_error=1: any data race reported fails the script.
#
#   scripts/test-tsan.sh            gcc (CC=clang to use clang)
#   CNOISE_TSAN_DIR=dir             another build folder
#
# TSan needs its runtime (gcc: libtsan2; clang: libclang-rt-<version>-dev), installed here with
# apt-get when missing and running as root. Kernels whose address-space randomisation conflicts
# with TSan's fixed memory layout make it stop with "unexpected memory mapping"; the tests are then
# run again with randomisation off (setarch -R).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh"
dir=${CNOISE_TSAN_DIR:-$root/build-tsan}
cc=${CC:-gcc}
jobs=${CNOISE_JOBS:-$(nproc)}
start=$(date +%s)

# The TSan runtime for the chosen compiler (clang itself first, then its runtime).
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
install() {
  [ $# -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-tsan: missing packages: $* (sudo apt-get install $*)" >&2
    exit 1
  fi
  echo "test-tsan: installing $*" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if command -v dpkg-query >/dev/null 2>&1; then
  case "$cc" in
    *clang*)
      command -v "$cc" >/dev/null 2>&1 || install clang
      ver=$("$cc" -dumpversion | cut -d. -f1)
      have_pkg "libclang-rt-$ver-dev" || install "libclang-rt-$ver-dev" ;;
    *)
      have_pkg libtsan2 || install libtsan2 ;;
  esac
fi

tsan="-fsanitize=thread -fno-omit-frame-pointer"
echo "== $(basename "$dir"): $cc -O1 -g $tsan"
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="-O1 $tsan" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" \
  -DCNOISE_BUILD_CLI=ON -DCNOISE_BUILD_BENCH=OFF -DCNOISE_BUILD_TESTS=ON "-DCNOISE_ISAS=avx2;neon" >/dev/null
cmake --build "$dir" -j"$jobs" --target test_threads test_batch test_image >/dev/null
built=$(date +%s)

# halt_on_error: the first report stops the process with exitcode (66), so a race cannot pass.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
norandom=()
run() { # name, command...
  local name=$1 log="$dir/tsan-$1.log" t0 rc
  shift
  t0=$(date +%s)
  set +e
  "${norandom[@]}" "$@" >"$log" 2>&1
  rc=$?
  set -e
  if [ $rc -ne 0 ] && [ ${#norandom[@]} -eq 0 ] && grep -q "unexpected memory mapping" "$log"; then
    echo "test-tsan: TSan cannot map its shadow memory here; running with address randomisation off" >&2
    norandom=(setarch "$(uname -m)" -R)
    set +e
    "${norandom[@]}" "$@" >"$log" 2>&1
    rc=$?
    set -e
  fi
  if [ $rc -ne 0 ] || grep -q "WARNING: ThreadSanitizer" "$log"; then
    cat "$log" >&2
    echo "test-tsan: $name FAILED (exit $rc; log $log)" >&2
    exit 1
  fi
  grep -E "passed|failed" "$log" | tail -n1
  echo "test-tsan: $name passed under ThreadSanitizer in $(($(date +%s) - t0)) s"
}

# Full sizes: 8 threads x 54 configurations in test_threads, 137k-152k point jobs on up to 8
# threads in test_batch (its peak-RSS check is skipped under TSan, whose shadow memory grows).
run test_threads "$dir/tests/test_threads"
run test_batch "$dir/tests/test_batch"
# the PNG writer's compressing threads (1 to 64); its peak-RSS checks would measure TSan itself
CNOISE_TEST_SKIP_RSS=1 run test_image "$dir/tests/test_image"
echo "== ThreadSanitizer: no data race (build $((built - start)) s, total $(($(date +%s) - start)) s)"
