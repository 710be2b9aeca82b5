#!/usr/bin/env bash
# The WebAssembly identity test: tests/wasm/identity.c evaluates every noise type x mode x
# dimension x fractal x domain (plain, tiled, transformed) through the double and float grids,
# point arrays and single-point calls, and prints a hash of every case's samples. It runs three
# times, and the three outputs must agree line for line (bit for bit, NaN's payload aside):
#   native   the library built natively, batch calls capped to its scalar build (CNOISE_ISA=scalar)
#   scalar   the library built to WebAssembly with emcc (scripts/build-wasm.sh), under Node
#   simd128  the same with the SIMD128 build of the kernels (src/simd/vec_wasm.h), which each
#            run must report as the active instruction set
#
#   scripts/test-wasm.sh [NATIVE_BUILD]
#
# NATIVE_BUILD: a native CMake build folder whose libcnoise.a to use (scripts/test.sh passes its
# gcc build, so nothing native is compiled again); without it the library's scalar sources are
# compiled here with cc. The WebAssembly objects go to CNOISE_WASM_BUILD (default build-wasm/).
# Needs emscripten and node-acorn (Debian), and node (Debian's nodejs, unless a node is on PATH):
# installed here as root when missing. Where they cannot be installed the test is skipped, and
# says why, rather than failing: "test-wasm: SKIPPED: ...".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
native=${1:-}
dir=${CNOISE_WASM_BUILD:-$root/build-wasm}
start=$(date +%s)

skip() { echo "test-wasm: SKIPPED: $*"; exit 0; }
. "$root/scripts/packages.sh"
pkgs=(emscripten node-acorn)
command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
(cn_ensure_packages test-wasm "${pkgs[@]}") ||
  skip "could not install ${pkgs[*]} (run as root on Debian, or install them)"
command -v emcc >/dev/null 2>&1 || skip "emcc not found (Debian package emscripten)"
command -v node >/dev/null 2>&1 || skip "node not found (Debian package nodejs)"

echo "== WebAssembly identity: native scalar vs emcc scalar vs emcc SIMD128 (emcc $(emcc -dumpversion), node $(node --version))"
"$root/scripts/build-wasm.sh" --tests "$dir"
built=$(date +%s)

# The native reference.
if [ -n "$native" ]; then
  [ -e "$native/libcnoise.a" ] || { echo "test-wasm: no libcnoise.a in $native" >&2; exit 1; }
  cc -std=c11 -O1 -I"$root/include" -DCNOISE_STATIC "$root/tests/wasm/identity.c" "$native/libcnoise.a" \
    -lm -lpthread -o "$dir/identity-native"
else
  sources=$(sed -n 's/^set(CN_LIB_SOURCES \(.*\))$/\1/p' "$root/CMakeLists.txt")
  (cd "$root" && cc -std=c11 -O2 -ffp-contract=off -fno-fast-math -DCNOISE_BUILDING -DCNOISE_STATIC -Iinclude \
    tests/wasm/identity.c $sources -lm -lpthread -o "$dir/identity-native")
fi

CNOISE_ISA=scalar "$dir/identity-native" >"$dir/identity-native.txt"
for kind in scalar simd128; do
  node "$dir/identity-$kind.js" >"$dir/identity-$kind.txt"
done

fail=0
for kind in native scalar simd128; do
  want=$kind
  [ $kind = native ] && want=scalar
  got=$(head -n1 "$dir/identity-$kind.txt")
  if [ "$got" != "isa $want" ]; then
    echo "test-wasm: the $kind run used '${got#isa }', not $want" >&2
    fail=1
  fi
  if ! tail -n1 "$dir/identity-$kind.txt" | grep -q '^total kernels=22 '; then
    echo "test-wasm: the $kind run did not finish (last line: $(tail -n1 "$dir/identity-$kind.txt"))" >&2
    fail=1
  fi
done
# Statuses other than 0 would mean a case was refused: every case must have been evaluated.
if grep -q ' st=[1-9]' "$dir/identity-native.txt"; then
  echo "test-wasm: cases the library refused:" >&2
  grep ' st=[1-9]' "$dir/identity-native.txt" | head >&2
  fail=1
fi
for kind in scalar simd128; do
  if ! diff <(tail -n +2 "$dir/identity-native.txt") <(tail -n +2 "$dir/identity-$kind.txt") >"$dir/identity-$kind.diff"; then
    echo "test-wasm: the $kind WebAssembly build differs from the native scalar build:" >&2
    head -n 20 "$dir/identity-$kind.diff" >&2
    fail=1
  fi
done
[ $fail = 0 ] || { echo "test-wasm: FAILED" >&2; exit 1; }
lines=$(($(wc -l <"$dir/identity-native.txt") - 2))
echo "test-wasm: $lines case hashes equal in all three builds; $(tail -n1 "$dir/identity-native.txt" | sed 's/^total //')"

echo "== WebAssembly tests passed (build $((built - start)) s, total $(($(date +%s) - start)) s)"
