#!/usr/bin/env bash
# test_cli_smoke.sh -- a few seconds' worth of the command-line tool for the fast set (ctest -L
# fast): the version, one golden sample, a usage error, a PNG and a .npy render with their "wrote"
# lines and headers, and "info". The full checks are in the other tests/test_cli*.sh.
#
# Usage: bash tests/test_cli_smoke.sh path/to/cnoise
# Run by ctest as test_cli_smoke; ends with "test_cli_smoke: N passed, M failed" and exits 1 if
# anything failed.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
mkdir "$T/w" && cd "$T/w" || exit 1

run --version
want_version=$(sed -n 's/^#define CN_VERSION_STRING "\(.*\)"$/\1/p' "$HERE/../include/cnoise.h")
check "version string found in cnoise.h" [ -n "$want_version" ]
expect_ok "cnoise --version" "cnoise $want_version"

feed '3.14,42,7\n' sample --classic
expect_ok "classic Perlin at (3.14, 42, 7), the reference value" "0.13691995878400012"
feed '1,2,3\n-4,5,6\n' sample --classic
expect_ok "lattice points give 0" "0
0"

run frobnicate
expect_err "unknown command" 2 "unknown command 'frobnicate'"
check "a usage error creates nothing" empty_dir .

run render --size 16x8 -o s.png
expect_ok "render a PNG" "wrote s.png (16x8)"
check "the PNG signature" [ "$(head -c 8 s.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
check "the PNG is 16x8 (IHDR)" [ "$(od -An -tu1 -j16 -N8 s.png | tr -s ' ' | sed 's/^ //; s/ $//')" = "0 0 0 16 0 0 0 8" ]
run render --size 16x8 -o s.npy
expect_ok "render a .npy" "wrote s.npy (16x8 npy)"
check "the .npy magic" [ "$(head -c 6 s.npy | od -An -c | tr -d ' ')" = "223NUMPY" ]
size=$(stat -c %s s.npy)
check "the .npy is a 64-byte aligned header and 16x8 float32 ($size bytes)" \
    [ "$size" -gt $((16 * 8 * 4)) -a $(((size - 16 * 8 * 4) % 64)) -eq 0 ]
check "no temporary file left" no_temp_files .

run info
check "info succeeds quietly" [ "$rc" -eq 0 -a -z "$err" ]
check "info names the active instruction set" grep -q '^active: ' "$T/stdout"

t_end
