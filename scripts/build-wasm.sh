#!/usr/bin/env bash
# Builds the library to WebAssembly with emcc (Debian's emscripten; scripts/setup-deps.sh installs
# it with CNOISE_WITH_WASM=1) into DIR (default build-wasm/):
#   DIR/identity-scalar.js, DIR/identity-simd128.js   tests/wasm/identity.c as two Node programs
#       (the WebAssembly embedded, -sSINGLE_FILE): the library's scalar build alone, and with the
#       SIMD128 build of the kernels (src/simd/vec_wasm.h, src/isa/isa_wasm_*.c) beside it
#   DIR/web/                                          the preview page's module (web/, --web)
#
#   scripts/build-wasm.sh [--tests] [--web] [DIR]     (neither flag: both)
#
# The library's sources are the portable ones CMakeLists.txt lists first (CN_LIB_SOURCES), read
# from there so the two builds cannot drift apart. Every object is compiled once: the scalar
# objects serve both modules, only src/dispatch.c is compiled twice (with and without the SIMD128
# table). Compiled at -O2: the kernels are one large translation unit per precision and instruction set, and
# -O3 costs compile time without a measured gain here. The determinism flags are the native
# build's (-ffp-contract=off -fno-fast-math); warnings are errors. CNOISE_JOBS: parallel compiles
# (default 2).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
want_tests=0
want_web=0
dir=""
for a in "$@"; do
  case "$a" in
    --tests) want_tests=1 ;;
    --web) want_web=1 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build-wasm: unknown option $a (see --help)" >&2; exit 2 ;;
    *) [ -z "$dir" ] || { echo "build-wasm: one build folder only" >&2; exit 2; }; dir=$a ;;
  esac
done
[ $want_tests = 1 ] || [ $want_web = 1 ] || { want_tests=1; want_web=1; }
dir=${dir:-$root/build-wasm}
jobs=${CNOISE_JOBS:-2}
command -v emcc >/dev/null 2>&1 || {
  echo "build-wasm: emcc not found (Debian: apt-get install emscripten node-acorn; or CNOISE_WITH_WASM=1 scripts/setup-deps.sh as root)" >&2
  exit 1
}
# Debian's emcc runs its JavaScript optimiser with acorn from Debian's module folder, which a Node
# that is not Debian's own does not search.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

sources=$(sed -n 's/^set(CN_LIB_SOURCES \(.*\))$/\1/p' "$root/CMakeLists.txt")
[ -n "$sources" ] || { echo "build-wasm: no set(CN_LIB_SOURCES ...) line in CMakeLists.txt" >&2; exit 1; }
mkdir -p "$dir/obj"
# The OpenCL backend (CMakeLists.txt appends it to that line), so that the library's API is whole:
# its OpenCL C program embedded as the CMake build does it. Under Node or in a browser it finds no
# OpenCL runtime (dlopen fails) and reports the backend unavailable, like a machine without one.
cmake -DSRC="$root/src/opencl/noise.cl" -DINCLUDE="$root/include" -DOUT="$dir/cn_opencl_program.c" \
  -P "$root/cmake/embed_opencl.cmake" >/dev/null
sources="$sources src/opencl.c $dir/cn_opencl_program.c"
cflags=(-std=c11 -O2 -ffp-contract=off -fno-fast-math -Wall -Wextra -Wvla -Werror
        -DCNOISE_BUILDING -DCNOISE_STATIC -I"$root/include")

# Compile lines "source object extra-flags..." in parallel, each only when its object is older
# than any file of the library (a change to a header rebuilds everything: simple and safe).
stamp=$(find "$root/src" "$root/include" "$root/cli" "$root/tests/wasm" "$root/web" -newer "$dir/obj/.stamp" -type f 2>/dev/null | head -n1 || true)
if [ ! -e "$dir/obj/.stamp" ] || [ -n "$stamp" ]; then
  rm -f "$dir"/obj/*.o
fi
jobs_list=()
add() { # source object flags...
  local src=$1 obj=$2; shift 2
  [ -e "$dir/obj/$obj" ] || jobs_list+=("$src $obj $*")
}
for s in $sources; do
  add "$s" "$(basename "$s" .c).o"
done
add src/dispatch.c dispatch_simd128.o -DCN_HAVE_WASM128 -msimd128
add src/isa/isa_wasm_f64.c isa_wasm_f64.o -msimd128
add src/isa/isa_wasm_f32.c isa_wasm_f32.o -msimd128
[ $want_tests = 0 ] || add tests/wasm/identity.c identity.o
# The page's renderer: the tool's option parsing, field, colours (cli/), and web/page.c.
web_srcs="cli/args.c cli/field.c cli/colour.c cli/ramp.c cli/shade.c src/image/outfile.c web/page.c"
if [ $want_web = 1 ]; then
  for s in $web_srcs; do
    add "$s" "web_$(basename "$s" .c).o" -Icli -Isrc/image
  done
fi
if [ ${#jobs_list[@]} -gt 0 ]; then
  t0=$(date +%s)
  printf '%s\n' "${jobs_list[@]}" | (cd "$root" && CN_OBJ="$dir/obj" CN_CFLAGS="${cflags[*]}" xargs -d '\n' -n 1 -P "$jobs" sh -c \
    'set -- $1; src=$1; obj=$2; shift 2; exec emcc $CN_CFLAGS "$@" -c "$src" -o "$CN_OBJ/$obj"' sh) \
    || { echo "build-wasm: compiling failed" >&2; exit 1; }
  echo "build-wasm: compiled ${#jobs_list[@]} files in $(($(date +%s) - t0)) s"
fi
touch "$dir/obj/.stamp"
scalar_objs=()
for s in $sources; do
  o=$(basename "$s" .c).o
  [ "$o" = dispatch.o ] || scalar_objs+=("$dir/obj/$o")
done
simd_objs=("${scalar_objs[@]}" "$dir/obj/dispatch_simd128.o" "$dir/obj/isa_wasm_f64.o" "$dir/obj/isa_wasm_f32.o")
scalar_objs+=("$dir/obj/dispatch.o")

if [ $want_tests = 1 ]; then
  for kind in scalar simd128; do
    if [ $kind = scalar ]; then objs=("${scalar_objs[@]}"); else objs=("${simd_objs[@]}"); fi
    # The kernels need up to 160 KiB of stack (cnoise.h); emscripten's default stack is 5 MiB.
    # Linked at -O1: the objects are optimised already, and binaryen's -O2 pass over the linked
    # module took 29 s of a 31 s link for no gain a test needs.
    emcc -O1 -sSINGLE_FILE -sENVIRONMENT=node "$dir/obj/identity.o" "${objs[@]}" -o "$dir/identity-$kind.js"
  done
fi

if [ $want_web = 1 ]; then
  # Two modules of the same renderer: with the SIMD128 kernels (the page's choice) and without
  # them (for browsers without SIMD128, and the timing's ratio). MODULARIZE: the worker calls
  # cnoiseModule({...}) and gets the instance.
  mkdir -p "$dir/web"
  web_objs=()
  for s in $web_srcs; do web_objs+=("$dir/obj/web_$(basename "$s" .c).o"); done
  exports=_cnw_render,_cnw_rgba,_cnw_values,_cnw_width,_cnw_height,_cnw_histogram,_cnw_stat,_cnw_isa,_malloc,_free
  for kind in scalar simd128; do
    if [ $kind = scalar ]; then objs=("${scalar_objs[@]}"); else objs=("${simd_objs[@]}"); fi
    emcc -O1 -sMODULARIZE -sEXPORT_NAME=cnoiseModule -sALLOW_MEMORY_GROWTH -sENVIRONMENT=web,worker,node \
      -sEXPORTED_FUNCTIONS=$exports -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8 \
      "${web_objs[@]}" "${objs[@]}" -o "$dir/web/cnoise-$kind.js"
  done
  # The static files next to them: the page is DIR/web/index.html, for any static file host.
  for f in index.html app.js worker.js cnw.js style.css; do
    [ -e "$root/web/$f" ] && cp "$root/web/$f" "$dir/web/$f"
  done
  echo "build-wasm: the page is $dir/web/index.html (scripts/preview.sh serves it)"
fi
