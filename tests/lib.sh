# tests/lib.sh -- what the shell tests share: the argument check, the temporary folder and its
# cleanup, the checks and their counts, skips and the final summary; and the helpers of the CLI
# tests that run the tool once and look at what it did. Sourced by tests/*.sh, never run:
#
#     set -u
#     . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#     t_begin 1 'path/to/cnoise' "$@"      # at least one non-empty argument, else usage, exit 2
#     CNOISE=$(t_abs "$1")
#     check "the tool prints its version" "$CNOISE" --version
#     t_end                                   # "NAME: P passed, F failed" and the exit status
#
# Set here:
#   TEST     the script's name without .sh (test_cli): the summary's name, the folder's prefix
#   HERE     the folder of the tests (golden/, check_render.py, ...)
#   T        (t_begin) a new temporary folder, removed on exit
#   MOUNTS   mount points a test adds (MOUNTS+=("$T/tiny") after mounting there): unmounted on
#            exit, before T is removed, when they still are mounted
#   PASS, FAIL, SKIPS   the counts of passed and failed checks and of skipped parts
#   HAVE_PY  1 when a python3 is on PATH (the standard library is enough), else 0
#
# Exit status (t_end): 0 when every check passed (and there was at least one: a test that
# asserts nothing is a defect); 1 when a check failed or none ran; TEST_SKIP (77, which
# tests/CMakeLists.txt gives ctest as SKIP_RETURN_CODE) when none failed but a part of the test
# could not run here (skip), so that ctest shows the test as skipped rather than passed. A
# failure always wins over a skip.

TEST=$(basename "${BASH_SOURCE[1]:-$0}" .sh)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TEST_SKIP=77
PASS=0
FAIL=0
SKIPS=0
MOUNTS=()
T=
unset IN # run's standard input: only what a test sets, never the environment's

HAVE_PY=0
if command -v python3 >/dev/null 2>&1; then HAVE_PY=1; fi

# t_begin MIN USAGE ARGS...: ARGS must hold at least MIN non-empty arguments, else prints
# "usage: bash tests/TEST.sh USAGE" and exits 2. Then makes T and arranges its removal on exit.
t_begin() {
    local min=$1 usage=$2 i
    shift 2
    for ((i = 1; i <= min; i++)); do
        if [ $# -lt "$i" ] || [ -z "${!i}" ]; then
            printf 'usage: bash tests/%s.sh %s\n' "$TEST" "$usage" >&2
            exit 2
        fi
    done
    T=$(mktemp -d "${TMPDIR:-/tmp}/$TEST.XXXXXX") || exit 1
    trap t_cleanup EXIT
}

t_cleanup() {
    local m
    cd / || true # a mount point in use as the working folder cannot be unmounted
    for m in ${MOUNTS[@]+"${MOUNTS[@]}"}; do
        umount "$m" 2>/dev/null # fails quietly where the test unmounted it already
    done
    [ -n "$T" ] && rm -rf "$T"
}

# t_abs PATH: PATH made absolute (against the working folder), so that it still names the same
# file after the test changes folder.
t_abs() {
    case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac
}

pass() { PASS=$((PASS + 1)); }
fail() { FAIL=$((FAIL + 1)); printf 'FAIL: %s\n' "$*"; }
note() { printf 'note: %s\n' "$*"; }

# check NAME COMMAND...: passes if COMMAND succeeds (its standard input is the caller's).
check() {
    local name=$1; shift
    if "$@"; then pass; else fail "$name"; fi
}

# skip REASON: a part of the test cannot run here (a missing python3 module, instruction set,
# ...); printed, and the test ends with TEST_SKIP unless a check fails.
skip() {
    SKIPS=$((SKIPS + 1))
    printf 'skip: %s\n' "$*"
}

# t_skip_all REASON: nothing of the test can run here: ends it now with TEST_SKIP.
t_skip_all() {
    printf 'skip: %s\n' "$*"
    printf '%s: skipped\n' "$TEST"
    exit "$TEST_SKIP"
}

# t_end: prints "TEST: P passed, F failed" (and the skips), exits with the status above.
t_end() {
    printf '%s: %d passed, %d failed\n' "$TEST" "$PASS" "$FAIL"
    if [ "$FAIL" -eq 0 ] && [ "$PASS" -eq 0 ]; then
        printf '%s: no check ran\n' "$TEST"
        exit 1
    fi
    [ "$FAIL" -eq 0 ] || exit 1
    if [ "$SKIPS" -gt 0 ]; then
        printf '%s: %d part(s) skipped\n' "$TEST" "$SKIPS"
        exit "$TEST_SKIP"
    fi
    exit 0
}

# numpy_python: prints the first python3 that imports numpy: the one on PATH, else the system's
# (where Debian's python3-numpy, which scripts/setup-deps.sh installs, lives when PATH leads to
# another installation, e.g. pyenv); prints nothing and fails when there is none.
numpy_python() {
    local p
    for p in python3 /usr/bin/python3; do
        if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then
            printf '%s\n' "$p"
            return 0
        fi
    done
    return 1
}

# pycheck NAME SCRIPT: passes if the python script exits 0, run by $PY (a python3 with numpy, set
# by the caller from numpy_python; empty: nothing runs, the caller has said skip) with sys, json
# and numpy (as np) imported and HERE on sys.path (pngread); the failure shows its output.
pycheck() {
    local name=$1 script=$2
    if [ -z "${PY:-}" ]; then return; fi
    if "$PY" -c "import sys, json, numpy as np
sys.path.insert(0, '$HERE')
$script" >"$T/pyout" 2>&1; then pass; else fail "$name: $(head -c 600 "$T/pyout")"; fi
}

# ---------------------------------------------------------------------------------------------
# The command-line tool's tests: CNOISE is the tool, the working folder the test's.

# run ARGS...: runs the tool (standard input from $IN, default /dev/null); sets rc, out (its
# standard output) and err (its standard error).
run() {
    "$CNOISE" "$@" <"${IN:-/dev/null}" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    out=$(cat "$T/stdout")
    err=$(cat "$T/stderr")
}

# feed TEXT ARGS...: like run, with TEXT (printf %b escapes allowed) on standard input.
feed() {
    local text=$1; shift
    printf '%b' "$text" >"$T/stdin"
    IN=$T/stdin run "$@"
}

# expect_ok NAME EXPECTED_STDOUT: the last run succeeded, printed exactly that, and nothing on
# standard error.
expect_ok() {
    if [ "$rc" -eq 0 ] && [ "$out" = "$2" ] && [ -z "$err" ]; then
        pass
    else
        fail "$1: rc=$rc stdout='$out' (want '$2') stderr='$err'"
    fi
}

# expect_err NAME CODE TEXT...: the last run exited with CODE, and its standard error starts with
# ERR_PREFIX and contains every TEXT (fixed strings).
ERR_PREFIX=cnoise
expect_err() {
    local name=$1 code=$2; shift 2
    local t okay=1
    [ "$rc" -eq "$code" ] || okay=0
    case $err in "$ERR_PREFIX"*) ;; *) okay=0 ;; esac
    for t in "$@"; do
        case $err in *"$t"*) ;; *) okay=0 ;; esac
    done
    if [ $okay -eq 1 ]; then
        pass
    else
        fail "$name: rc=$rc (want $code) stdout='$out' stderr='$err' (want '$ERR_PREFIX...' with: $*)"
    fi
}

# no_temp_files [DIR]: no temporary file (*.tmp.*) under DIR (default: the working folder).
no_temp_files() { [ -z "$(find "${1:-.}" -name '*.tmp.*' -print -quit)" ]; }
# empty_dir DIR: DIR holds nothing.
empty_dir() { [ -z "$(ls -A "$1")" ]; }
# differ A B: the files A and B differ (or one is missing).
differ() { ! cmp -s "$1" "$2"; }
