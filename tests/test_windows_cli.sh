#!/usr/bin/env bash
# test_windows_cli.sh -- the Windows build of the tool (mingw-w64, run under wine) against a native
# build of the same source: every command writes the same bytes and prints the same lines (the
# Windows console's "\r\n" line ends taken as "\n"), exits with the same status on the same
# misuse, replaces an existing file in place (MoveFileEx, src/image/portable.h), refuses a folder
# as the target, and leaves no temporary file behind. The formats that build goes without (its
# `info` "files:" line; CMake's CNOISE_WITH_* options) are refused by name, creating nothing.
# Run by scripts/test-windows.sh, not by ctest; named outside tests/test_cli*.sh, the tests that
# scripts/valgrind.sh runs with one tool.
#
# Usage: bash tests/test_windows_cli.sh path/to/native/cnoise path/to/cnoise.exe
# Environment: WINE (default wine), and the caller's WINEPREFIX and WINEDEBUG.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 2 'path/to/native/cnoise path/to/cnoise.exe' "$@"
NATIVE=$(t_abs "$1")
EXE=$(t_abs "$2")
WINE=${WINE:-wine}
mkdir "$T/n" "$T/w" || exit 1

# both NAME ARGS...: the command in $T/n (native) and in $T/w (Windows), standard input from
# $IN when set; their exit statuses in $NRC / $WRC, outputs in $T/{n,w}.{out,err}.
both() {
    local name=$1; shift
    (cd "$T/n" && "$NATIVE" "$@" <"${IN:-/dev/null}" >"$T/n.out" 2>"$T/n.err"); NRC=$?
    (cd "$T/w" && "$WINE" "$EXE" "$@" <"${IN:-/dev/null}" 2>"$T/w.err" | tr -d '\r' >"$T/w.out"; exit "${PIPESTATUS[0]}"); WRC=$?
    tr -d '\r' <"$T/w.err" >"$T/w.err2" && mv "$T/w.err2" "$T/w.err"
    check "$name: exit status $NRC on both (Windows: $WRC)" [ "$NRC" -eq "$WRC" ]
    check "$name: the same standard output" cmp -s "$T/n.out" "$T/w.out"
}

# same NAME FILE... -- ARGS...: both succeed and every FILE is the same bytes.
same() {
    local name=$1 f files=(); shift
    while [ "$1" != -- ]; do files+=("$1"); shift; done
    shift
    both "$name" "$@"
    check "$name: succeeded" [ "$NRC" -eq 0 ]
    for f in "${files[@]}"; do
        check "$name: $f identical" cmp -s "$T/n/$f" "$T/w/$f"
    done
}

same "render fBm PNG" a.png -- render --size 300x200 --fractal fbm --octaves 5 -o a.png
same "render simplex tile" t.png -- render --size 256x256 --noise simplex --tile -o t.png
same "render png16" h.png -- render --size 200x100 --format png16 -o h.png
same "render colour ramp, hillshade" r.png -- render --size 200x120 --fractal ridged --ramp terrain --shade -o r.png
same "render normal map" nm.png -- render --size 160x100 --format normal -o nm.png
same "render slope" sl.png -- render --size 160x100 --format slope -o sl.png
same "render cellular edge .npy" c.npy -- render --size 128x96 --noise cellular --cellular-return edge -o c.npy
same "render warped .pfm" wp.pfm -- render --size 160x90 --warp 20 -o wp.pfm
same "render 2048x1024 PNG on 2 threads" big.png -- render --size 2048x1024 --fractal fbm --threads 2 -o big.png
same "volume .npy" v.npy -- volume --size 32x32x16 -o v.npy
same "volume 4D" v4.npy -- volume --size 16x16x8 --dims 4 --w 3.5 -o v4.npy
same "animate PNG frames" f00.png f01.png f02.png f03.png -- animate --size 48x32 --frames 4 --png f%02d.png
same "map" m.png -- map --size 256x128 -o m.png
same "flow .npy" fl.npy -- flow --size 64x64 --format npy -o fl.npy
printf '0.5,1.5\n2 3\n# a comment\n\n-7.25, 1e3\n' >"$T/pts"
IN=$T/pts same "sample from standard input" -- sample --fractal fbm
IN=
# info: the instruction sets and OpenCL devices differ between the builds, the names do not.
"$NATIVE" info >"$T/n.info" 2>&1
(cd "$T/w" && "$WINE" "$EXE" info 2>&1 | tr -d '\r' >"$T/w.info")
check "info: the same noise and fractal lines" eval \
    '[ "$(grep -E "^(noise|fractals):" "$T/n.info")" = "$(grep -E "^(noise|fractals):" "$T/w.info")" ]'

# A target that exists is replaced (rename over it; C's rename on Windows would refuse).
cp "$T/w/a.png" "$T/a-before.png"
same "render over an existing file" a.png -- render --size 300x200 --seed 7 -o a.png
check "the existing file was replaced" differ "$T/a-before.png" "$T/w/a.png"

# Misuse: the same status and nothing created.
mkdir "$T/n/d" "$T/w/d"
both "a folder as the target" render --size 8x8 -o d
check "a folder as the target: refused" [ "$NRC" -ne 0 ]
check "a folder as the target: named" grep -q "is a directory" "$T/w.err"
both "an unknown option" render --frobnicate
check "an unknown option: usage status 2" [ "$WRC" -eq 2 ]
both "a bad size" render --size 0x8 -o bad.png
check "a bad size: refused" [ "$WRC" -ne 0 ]
check "a bad size: nothing created" [ ! -e "$T/w/bad.png" ]
IN=$T/pts
printf '1,2\n1,2,3\n' >"$T/pts"
both "sample: a line with another dimension" sample
IN=

# The formats this Windows build goes without: refused by name, nothing created.
files=$(sed -n 's/^files: //p' "$T/w.info")
check "info lists the files the build writes" [ -n "$files" ]
for f in exr:x.exr tiff:x.tif gif:x.gif f32:x.f32 recipe:x.yaml; do
    kind=${f%%:*} out=${f#*:}
    case " $files " in *" $kind "*) continue ;; esac
    case $kind in
    gif) args=(animate --size 8x8 --frames 2 -o "$out") ;;
    recipe) args=(render --size 8x8 --save-recipe "$out" -o y.png) ;;
    *) args=(render --size 8x8 -o "$out") ;;
    esac
    (cd "$T/w" && "$WINE" "$EXE" "${args[@]}" >/dev/null 2>"$T/w.err"); rc=$?
    check "without $kind: refused ($rc)" [ "$rc" -ne 0 ]
    check "without $kind: the message names the CMake option" grep -q "CMake option CNOISE_WITH_" "$T/w.err"
    check "without $kind: nothing created" eval '[ ! -e "$T/w/$out" ] && [ ! -e "$T/w/y.png" ]'
done

check "no temporary file left by the Windows tool" no_temp_files "$T/w"
t_end
