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
# Then the preview page's renderer (web/page.c with the library, built by scripts/build-wasm.sh
# --web) draws a set of "cnoise render" command lines under Node (tests/wasm/page_render.js), and
# each picture must equal the native tool's PNG of the same options pixel for pixel
# (tests/wasm/compare_page.py); a command line the tool refuses, the page must refuse with the
# same message. And the page itself in headless Chromium (tests/web/test_page.py: controls set,
# the canvas read back against the tool's render of the page's exported recipe and command line).
#
#   scripts/test-wasm.sh [NATIVE_BUILD]
#
# NATIVE_BUILD: a native CMake build folder whose libcnoise.a and cnoise to use (scripts/test.sh
# passes its gcc build, so nothing native is compiled again); without it the library's scalar
# sources are compiled here with cc, and the page is not compared with the tool (said so). The
# WebAssembly objects go to CNOISE_WASM_BUILD (default build-wasm/). Needs emscripten and
# node-acorn (Debian), and node (Debian's nodejs, unless a node is on PATH); the browser test
# chromium, chromium-driver and python3-selenium: installed here as root when missing. Where
# they cannot be installed the test is skipped, and
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
"$root/scripts/build-wasm.sh" --tests --web "$dir"
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
# every kernel of the registry (src/kernels/registry.h, one X(TYPE, MODE, DIMS, ...) line each)
kernels=$(grep -cE '^ *X\([A-Z0-9_]+, *(DEFAULT|CLASSIC), *[1-4], ' "$root/src/kernels/registry.h")
for kind in native scalar simd128; do
  want=$kind
  [ $kind = native ] && want=scalar
  got=$(head -n1 "$dir/identity-$kind.txt")
  if [ "$got" != "isa $want" ]; then
    echo "test-wasm: the $kind run used '${got#isa }', not $want" >&2
    fail=1
  fi
  if ! tail -n1 "$dir/identity-$kind.txt" | grep -q "^total kernels=$kernels "; then
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

# The page's renderer against the tool.
cli=${native:+$native/cnoise}
if [ -z "$cli" ] || [ ! -x "$cli" ]; then
  echo "test-wasm: SKIPPED the page against the tool: no native build with the tool given (scripts/test-wasm.sh BUILD)"
  echo "== WebAssembly tests passed (build $((built - start)) s, total $(($(date +%s) - start)) s)"
  exit 0
fi
page_cases=(
  "--size 96x64"
  "--fractal fbm --octaves 6 --seed 3 --size 128x128 --tile --ramp dusk --shade"
  "--fractal ridged --octaves 7 --seed 5 --frequency 0.0078125 --size 100x80 --shade --relief 0.25"
  "--noise simplex --dims 3 --z 17.5 --ramp terrain --normalize minmax --size 90x70"
  "--noise value-cubic --dims 4 --z 3 --w 9 --precision float --size 64x48 --ramp heat"
  "--noise value --dims 1 --size 80x8"
  "--classic --dims 3 --seed 7 --format rgb --shade --light-azimuth 90 --light-elevation 30 --size 72x72"
  "--fractal billow --layer seed=2;frequency=0.03;weight=0.5 --amplitude 0.8 --bias 0.1 --size 64x64 --ramp 0:#000000,0.5:#ff0000,1:#ffffff"
  "--rotate 30 --offset 3,4 --axis-frequency 1,2 --fractal turbulence --octaves 4 --size 64x64"
  "--origin -300,1200 --fractal fbm --octaves 3 --ramp land --shade --size 64x48"
  "--format normal --fractal fbm --octaves 5 --normal-strength 2 --size 64x64"
  "--warp 20 --warp-fractal independent --warp-noise value --tile --ramp ocean --size 64x64"
  "--noise cellular --cellular-return edge --jitter 0.5 --warp 6 --size 64x48"
  "--noise opensimplex2 --dims 3 --z 12 --fractal fbm --octaves 4 --ramp terrain --shade --size 64x48"
)
n=0
for c in "${page_cases[@]}"; do
  read -r -a opts <<<"$c"
  n=$((n + 1))
  "$cli" render "${opts[@]}" --quiet -o "$dir/page-$n.png"
  node "$root/tests/wasm/page_render.js" "$dir/web/cnoise-simd128.js" "$dir/page-$n.rgba" "${opts[@]}" >/dev/null
  python3 "$root/tests/wasm/compare_page.py" "$dir/page-$n.png" "$dir/page-$n.rgba" "page $n ($c)" || fail=1
done
# Refused alike: the tool's message (exit 2) is the page's.
refused=("--ramp dusk --format png" "--relief 2" "--tile --rotate 10" "--noise simplex --dims 1" "--size 0x5" "--z 3"
         "--origin 1.5,2" "--format normal --shade" "--normal-strength 2" "--ramp dusk --format normal")
for c in "${refused[@]}"; do
  read -r -a opts <<<"$c"
  set +e
  want=$("$cli" render "${opts[@]}" -o "$dir/refused.png" 2>&1 >/dev/null)
  wrc=$?
  got=$(node "$root/tests/wasm/page_render.js" "$dir/web/cnoise-simd128.js" "$dir/refused.rgba" "${opts[@]}" 2>&1 >/dev/null)
  grc=$?
  set -e
  if [ $wrc != 2 ] || [ $grc != 2 ] || [ "$want" != "$got" ]; then
    echo "test-wasm: '$c': the tool said (exit $wrc) '$want', the page (exit $grc) '$got'" >&2
    fail=1
  fi
done
[ $fail = 0 ] || { echo "test-wasm: FAILED (the page)" >&2; exit 1; }
echo "test-wasm: the page drew ${#page_cases[@]} command lines as the tool does, and refused ${#refused[@]} with the tool's messages"

# The page in headless Chromium (Debian's chromium, chromedriver and python3-selenium; never a
# downloaded browser). Screenshots stay in $dir/web-test/.
if ! (cn_ensure_packages test-wasm chromium chromium-driver python3-selenium); then
  echo "test-wasm: SKIPPED the browser test: could not install chromium chromium-driver python3-selenium"
elif [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "test-wasm: SKIPPED the browser test: /usr/bin/chromium or /usr/bin/chromedriver missing"
else
  t0=$(date +%s)
  /usr/bin/python3 "$root/tests/web/test_page.py" "$dir/web" "$cli" "$dir/web-test"
  echo "test-wasm: the page in headless Chromium passed in $(($(date +%s) - t0)) s (screenshots in $dir/web-test/)"
fi
echo "== WebAssembly tests passed (build $((built - start)) s, total $(($(date +%s) - start)) s)"
