#!/usr/bin/env bash
# Runs every shell test of the cnoise command-line tool (tests/test_cli*.sh) with the tool under
# valgrind memcheck, and fails on any memcheck error: invalid reads or writes, uses of
# uninitialised values, bad frees, fd/syscall parameter errors and definite leaks.
#
# It builds the tool (gcc, RelWithDebInfo, its own build folder) and generates a wrapper that the
# tests get as their "cnoise" binary:
#     exec valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
#                   --show-leak-kinds=definite --log-file=LOGS/vg.XXXXXX REAL_CNOISE "$@"
# (one log per run, made by mktemp; exec, so that the signal tests' kill reaches the process
# that runs the tool). After the tests every log whose ERROR SUMMARY is not 0 is a finding: the
# script prints it and fails; except a run killed by a signal (the tests' SIGINT/SIGTERM/SIGHUP
# checks) whose only errors are "definitely lost" blocks, which is printed as a note: valgrind
# sometimes cannot find the pointer to a buffer the killed function was using at that moment.
# Before the tests a self-test proves the check can fail: the same valgrind options on a small
# program with an invalid read and a leak must exit 99 with both in the log. A run that exited 99 (valgrind's error exit
# code) also shows up in the test that made it, as a wrong exit status.
#
# Checks that cannot work under valgrind are skipped by the test scripts themselves when the
# environment variable CNOISE_UNDER_VALGRIND=1 is set (this script sets it); each prints a note:
#   - test_cli_render.sh: the peak-resident-memory comparison (it would measure valgrind);
#   - test_cli_man.sh: run without its build folder argument, so its "cmake --install" check
#     (which does not run the tool) is skipped with the rest of it still run.
#
# Needs valgrind (Debian/Ubuntu package "valgrind"; installed with apt-get when running as root
# and it is missing, like scripts/setup-deps.sh does for the other packages) and what
# scripts/setup-deps.sh installs.
#
# Usage: scripts/valgrind.sh [TEST...]   (TEST: names like test_cli_map; default: every
# tests/test_cli*.sh)
# Environment:
#   CNOISE_VALGRIND_BUILD    build folder (default build-valgrind);
#   CNOISE_VALGRIND_CNOISE   an already built cnoise to check instead of building one (the README's
#                            test command passes its gcc stage's tool, built with -g and kernels
#                            -g0); next to it its manual page (cnoise.1) and the decoders
#                            test_cli_png and test_cli_float need (tests/test_image, test_image_float);
#   CNOISE_VALGRIND_SAMPLE=N run 1 in N of the tool's runs under memcheck and the others natively
#                            (default 1: every run). Which runs is decided by a hash of the run's
#                            arguments and CNOISE_VALGRIND_SALT (default: the checkout's commit), so
#                            a given commit always checks the same runs and the next commit
#                            another share of them; every test still runs in full. The README's test
#                            command samples 1 in 3 (the AddressSanitizer stage already runs every
#                            one of these tests with every run checked for invalid accesses and
#                            leaks; memcheck adds uses of uninitialised values); run this script
#                            without it for the complete check (about 25 min on 2 cores);
#   CNOISE_JOBS              tests at a time (default nproc).
# Slow: valgrind runs the tool some 20-50 times slower; the time of each test and of the whole run
# is printed, with the number of runs checked and run natively.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CNOISE_VALGRIND_BUILD:-$root/build-valgrind}
jobs=${CNOISE_JOBS:-$(nproc)}
start=$SECONDS

"$root/scripts/setup-deps.sh"
if ! command -v valgrind >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "valgrind.sh: valgrind is not installed; install it with: sudo apt-get install valgrind" >&2
    exit 1
  fi
  echo "valgrind.sh: installing valgrind" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends valgrind >/dev/null
fi

sample=${CNOISE_VALGRIND_SAMPLE:-1}
case $sample in ''|*[!0-9]*|0) echo "valgrind.sh: CNOISE_VALGRIND_SAMPLE must be a positive integer, not '$sample'" >&2; exit 1 ;; esac
salt=${CNOISE_VALGRIND_SALT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo 0)}
if [ -n "${CNOISE_VALGRIND_CNOISE:-}" ]; then
  real=$(cd "$(dirname "$CNOISE_VALGRIND_CNOISE")" && pwd)/$(basename "$CNOISE_VALGRIND_CNOISE")
  [ -x "$real" ] || { echo "valgrind.sh: CNOISE_VALGRIND_CNOISE=$CNOISE_VALGRIND_CNOISE is not an executable" >&2; exit 1; }
  man=$(dirname "$real")/cnoise.1
  mkdir -p "$build"
  echo "== tool: $real (already built)"
else
  echo "== build: $build (gcc, RelWithDebInfo)"
  # No debug information in the kernels (CMakeLists.txt, CNOISE_KERNEL_DEBUG_INFO): memcheck reads
  # it at every one of the ~1700 starts, 1.4 s each for the 110 MB of it.
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=gcc \
    -DCNOISE_BUILD_TESTS=ON -DCNOISE_BUILD_CLI=ON -DCNOISE_KERNEL_DEBUG_INFO=OFF >/dev/null
  # The tool, its manual page, and the decoders test_cli_png and test_cli_float read files with.
  cmake --build "$build" -j"$jobs" --target cnoise_cli cnoise_man test_image test_image_float >/dev/null
  real=$build/cnoise
  man=$build/cnoise.1
  [ -x "$real" ] || { echo "valgrind.sh: no $real after the build" >&2; exit 1; }
fi

logs=$build/valgrind-logs
rm -rf "$logs"
mkdir -p "$logs"
# verdict LOG: clean, finding, or killed-leak (a run that died of a signal, e.g. the signal
# tests' SIGINT/SIGTERM, whose only errors are blocks "definitely lost": the memory a function
# was using when the process was killed, which valgrind may not find a pointer to at that moment;
# reported as a note, not a failure), or incomplete (no summary: killed by SIGKILL).
verdict() {
  local n leaks
  n=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$1" | tail -1)
  leaks=$(grep -c 'are definitely lost in loss record' "$1")
  if [ -z "$n" ]; then echo incomplete
  elif [ "$n" -eq 0 ]; then echo clean
  elif grep -q 'Process terminating with default action of signal' "$1" && [ "$n" -eq "$leaks" ]; then echo killed-leak
  else echo finding; fi
}
wrapper=$build/cnoise-valgrind
vgopts="--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
# One log per run (mktemp: a reused process id cannot overwrite an earlier log). With
# CNOISE_VALGRIND_SAMPLE=N (read when the wrapper runs), a run whose hash of salt and arguments is
# not 0 modulo N runs the tool natively and leaves an empty native.* file, to be counted.
cat >"$wrapper" <<EOF
#!/bin/sh
# Generated by scripts/valgrind.sh: runs cnoise under valgrind memcheck.
n=\${CNOISE_VALGRIND_SAMPLE:-1}
if [ "\$n" -gt 1 ]; then
  h=\$( { echo '$salt'; printf '%s\\n' "\$@"; } | cksum | cut -d' ' -f1)
  if [ \$((h % n)) -ne 0 ]; then
    mktemp '$logs/native.XXXXXX' >/dev/null || exit 98
    exec '$real' "\$@"
  fi
fi
log=\$(mktemp '$logs/vg.XXXXXX') || exit 98
exec valgrind $vgopts --log-file="\$log" '$real' "\$@"
EOF
chmod +x "$wrapper"

# The check can fail: the same options on a small program with an invalid read and a definite
# leak must give exit status 99 and a non-empty log; and cnoise --version under the wrapper
# must print what the tool itself prints.
selftest=$build/valgrind-selftest
mkdir -p "$selftest"
cat >"$selftest/bad.c" <<'EOF'
#include <stdlib.h>
int main(void)
{
    volatile int *p = malloc(4 * sizeof *p);
    int v = p[4]; /* one past the end */
    p = malloc(8); /* the first block is lost */
    return v == 12345 && p;
}
EOF
cc -g -O0 -o "$selftest/bad" "$selftest/bad.c"
set +e
valgrind $vgopts --log-file="$selftest/log" "$selftest/bad"
src=$?
set -e
if [ "$src" -ne 99 ] || ! grep -q 'Invalid read' "$selftest/log" || ! grep -q 'definitely lost' "$selftest/log"; then
  echo "valgrind.sh: self-test: valgrind did not report the deliberate errors (exit $src):" >&2
  cat "$selftest/log" >&2
  exit 1
fi
if ! out=$(CNOISE_VALGRIND_SAMPLE=1 "$wrapper" --version 2>&1) || [ "$out" != "$("$real" --version)" ]; then
  echo "valgrind.sh: the wrapper does not run cnoise under valgrind: $out" >&2
  exit 1
fi
if [ "$(verdict "$(ls "$logs"/vg.* | head -1)")" != clean ]; then
  echo "valgrind.sh: cnoise --version under valgrind already reports errors:" >&2
  cat "$logs"/vg.* >&2
  exit 1
fi
rm -f "$logs"/vg.*

if [ $# -gt 0 ]; then
  tests=("$@")
else
  # Every tests/test_cli*.sh, the longest first, so that CNOISE_JOBS at a time finish together.
  tests=(test_cli_hostile test_cli_fractal test_cli test_cli_render test_cli_animate test_cli_volume)
  for f in "$root"/tests/test_cli*.sh; do
    t=$(basename "$f" .sh)
    case " ${tests[*]} " in *" $t "*) ;; *) tests+=("$t") ;; esac
  done
fi

export CNOISE_UNDER_VALGRIND=1 CNOISE_VALGRIND_SAMPLE=$sample
[ "$sample" -gt 1 ] && echo "== 1 in $sample runs under memcheck (salt $salt), the others native"
export CNOISE_UNDER_VALGRIND=1
# No OpenCL device under valgrind: the loader is pointed at an empty vendor folder, so "cnoise
# info" lists none and no OpenCL runtime (PoCL's LLVM) is loaded into the tool under memcheck.
# --device is tested without valgrind (tests/test_cli_device.sh).
mkdir -p "$build/no-opencl-vendors"
export OCL_ICD_VENDORS=$build/no-opencl-vendors
# The tests run CNOISE_JOBS at a time (each runs the tool one process after another); each one's
# output is printed when it ends.
out=$build/valgrind-out
rm -rf "$out"
mkdir -p "$out"
run_test() { # name
  local t=$1 script=$root/tests/$1.sh t0=$SECONDS rc
  local args=("$wrapper")
  case $t in # the tests' other arguments (tests/CMakeLists.txt), from the tool's build folder
    test_cli_man) args+=("$man") ;; # no build folder: see the top
    test_cli_png) args+=("$(dirname "$real")/tests/test_image") ;;
    test_cli_float) args+=("$(dirname "$real")/tests/test_image_float") ;;
  esac
  set +e
  # A background job starts with SIGINT and SIGQUIT ignored (and nohup adds SIGHUP); the tests
  # send those signals, so each starts with them at their defaults, as under ctest.
  env --default-signal=INT,QUIT,HUP,TERM bash "$script" "${args[@]}" >"$out/$t.log" 2>&1
  rc=$?
  set -e
  echo "$rc $((SECONDS - t0))" >"$out/$t.rc"
}
for t in "${tests[@]}"; do
  [ -f "$root/tests/$t.sh" ] || { echo "valgrind.sh: no $root/tests/$t.sh" >&2; exit 1; }
done
for t in "${tests[@]}"; do
  run_test "$t" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
wait
failed=()
for t in "${tests[@]}"; do
  read -r rc secs <"$out/$t.rc"
  echo "== $t (cnoise under valgrind)"
  sed 's/^/   /' "$out/$t.log"
  echo "   ($t: exit $rc, $secs s)"
  # 77: every check passed but a part could not run here (tests/lib.sh), said in its "skip:" lines.
  [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || failed+=("$t")
done

# Every log with an error is a finding (see verdict above).
nlogs=$(find "$logs" -type f -name 'vg.*' | wc -l)
bad=
for f in $(find "$logs" -type f -name 'vg.*' | sort); do
  v=$(verdict "$f")
  case $v in
    clean) ;;
    finding) bad="$bad $f"; echo "== memcheck finding: $f"; grep -v '^==[0-9]*== *$' "$f" ;;
    *) echo "== note: $v (not counted): $f: $(grep -m1 -E 'Command:' "$f")" ;;
  esac
done
nnative=$(find "$logs" -type f -name 'native.*' | wc -l)
echo "== $nlogs cnoise runs under valgrind, $nnative run natively (1 in $sample sampled)"
echo "== total $((SECONDS - start)) s"
if [ -n "$bad" ] || [ ${#failed[@]} -gt 0 ]; then
  [ -n "$bad" ] && echo "valgrind.sh: memcheck reported errors in $(echo $bad | wc -w) run(s) (logs above, in $logs)"
  [ ${#failed[@]} -gt 0 ] && echo "valgrind.sh: failed under valgrind: ${failed[*]}"
  exit 1
fi
echo "valgrind.sh: no memcheck errors"
