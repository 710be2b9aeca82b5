#!/usr/bin/env bash
# test_cli_warp.sh -- domain warp from the command line (--warp and the --warp-* options): a
# rendered image holds the values "cnoise sample" prints at the pixel centres (one layer and a sum
# of layers, double and float, every --warp-fractal); the warp changes the image; --tile with a
# warp repeats exactly one tile away (and so does --loop in "animate"); a recipe keeps the warp;
# bad values and combinations are refused with the option's name.
#
# Usage: bash tests/test_cli_warp.sh path/to/cnoise
# Run by ctest as test_cli_warp. Needs bash, coreutils, cmp, awk and python3.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
cd "$T" || exit 1

N='--dims 2 --frequency 0.03125 --fractal fbm --octaves 3'

# same_as_sample NAME PRECISION OPTIONS...: a 24x16 f32 render equals "sample" at the pixel centres
# (the double render's f32 file holds the double values rounded to float, as sample's are compared).
same_as_sample() {
    local name=$1 prec=$2; shift 2
    # shellcheck disable=SC2086
    "$CNOISE" render $N --precision "$prec" --size 24x16 --format f32 -o r.f32 "$@" >/dev/null 2>err ||
        { fail "$name: render failed: $(head -c 300 err)"; return; }
    awk 'BEGIN { for (j = 0; j < 16; j++) for (i = 0; i < 24; i++) printf "%d.5 %d.5\n", i, j }' >pts
    # shellcheck disable=SC2086
    "$CNOISE" sample $N --precision "$prec" "$@" <pts >vals 2>err ||
        { fail "$name: sample failed: $(head -c 300 err)"; return; }
    if python3 - r.f32 vals <<'EOF'; then pass; else fail "$name: the render differs from sample"; fi
import struct, sys
raw = open(sys.argv[1], "rb").read()
got = struct.unpack("<%df" % (len(raw) // 4), raw)
want = [struct.unpack("<f", struct.pack("<f", float(v)))[0] for v in open(sys.argv[2]).read().split()]
sys.exit(0 if len(got) == len(want) == 384 and all(a == b for a, b in zip(got, want)) else 1)
EOF
}
for prec in double float; do
    same_as_sample "warp none, $prec" "$prec" --warp 12
    same_as_sample "warp independent, $prec" "$prec" --warp 9 --warp-fractal independent --warp-noise perlin
    same_as_sample "warp progressive, $prec" "$prec" --warp 10 --warp-fractal progressive --warp-octaves 4 \
        --warp-frequency 0.05 --warp-seed 77
    same_as_sample "warp of a sum of layers, $prec" "$prec" --warp 8 --warp-noise value --layer 'frequency=0.1; weight=0.5'
done

# The warp moves the image; --warp 0 is no warp.
"$CNOISE" render --size 64x64 --format f32 -o plain.f32 >/dev/null 2>&1
"$CNOISE" render --size 64x64 --format f32 --warp 0 -o zero.f32 >/dev/null 2>&1
"$CNOISE" render --size 64x64 --format f32 --warp 20 -o warped.f32 >/dev/null 2>&1
check "--warp 0 is the plain image" cmp -s plain.f32 zero.f32
check "--warp 20 changes the image" differ plain.f32 warped.f32
"$CNOISE" render --size 64x64 --format f32 --warp 20 --warp-seed 5 -o seed5.f32 >/dev/null 2>&1
check "--warp-seed changes the warp" differ warped.f32 seed5.f32

# --tile: the tile equals itself one and several tiles away, for every warp fractal.
for wf in none independent progressive; do
    "$CNOISE" render --size 64x64 --fractal fbm --tile --format f32 --warp 15 --warp-fractal "$wf" -o a.f32 >/dev/null 2>err
    "$CNOISE" render --size 64x64 --fractal fbm --tile --format f32 --warp 15 --warp-fractal "$wf" --origin 64,-128 \
        -o b.f32 >/dev/null 2>&1
    check "--tile --warp-fractal $wf: written ($(head -c 200 err))" [ -s a.f32 ]
    check "--tile --warp-fractal $wf repeats exactly" cmp -s a.f32 b.f32
done
# An engine size (2^n + 1): the last column repeats the first.
"$CNOISE" render --size 65x65 --tile --format f32 --warp 15 --warp-fractal progressive -o e.f32 >/dev/null 2>&1
if python3 - e.f32 <<'EOF'; then pass; else fail "--tile 65x65 with a warp: the last row and column repeat the first"; fi
import struct, sys
raw = open(sys.argv[1], "rb").read()
v = struct.unpack("<%df" % (len(raw) // 4), raw)
rows = [v[j * 65:(j + 1) * 65] for j in range(65)]
sys.exit(0 if len(v) == 65 * 65 and rows[0] == rows[64] and all(r[0] == r[64] for r in rows) else 1)
EOF

# animate --loop with a warp: the fields get the time period too, so the frames one loop later
# (--time-start frames * time-step) are the same frames; without --loop they are not.
A='animate --size 32x32 --frames 8 --time-step 24 --warp 6'
# shellcheck disable=SC2086
"$CNOISE" $A --loop --png 'f%d.png' -o f.gif >/dev/null 2>err
# shellcheck disable=SC2086
"$CNOISE" $A --loop --time-start 192 --png 'g%d.png' -o g.gif >/dev/null 2>&1
# shellcheck disable=SC2086
"$CNOISE" $A --time-start 192 --png 'h%d.png' -o h.gif >/dev/null 2>&1
check "animate --loop --warp: frames written ($(head -c 200 err))" [ -s f0.png ] && [ -s f7.png ]
check "animate --loop --warp: frame 0 one loop later is frame 0" cmp -s f0.png g0.png
check "animate --loop --warp: frame 5 one loop later is frame 5" cmp -s f5.png g5.png
check "animate without --loop: the frames one loop later differ" differ f0.png h0.png
# shellcheck disable=SC2086
"$CNOISE" $A --loop --warp-frequency 0.01 -o x.gif >/dev/null 2>err
check "animate --loop with a warp frequency that does not loop is refused" \
    grep -qF "the warp's fields: the z period would be frames * time-step * --warp-frequency 0.01 = 1.92 cells" err

# A recipe keeps the warp: --recipe makes the same file.
"$CNOISE" render --size 48x48 --warp 11 --warp-fractal progressive --warp-octaves 2 --warp-lacunarity 3 \
    --warp-gain 0.25 --warp-noise value --format f32 -o r1.f32 --save-recipe warp.yaml >/dev/null 2>&1
"$CNOISE" render --recipe warp.yaml -o r2.f32 >/dev/null 2>&1
check "the recipe holds the warp options" grep -q 'warp-lacunarity: 3' warp.yaml
check "the recipe renders the same warp" cmp -s r1.f32 r2.f32

# Refusals: exit status 2 and the option's name.
refuse() {
    local name=$1 want=$2; shift 2
    "$CNOISE" render --size 64x64 -o x.png "$@" </dev/null >out 2>err
    local rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" err; then pass; else fail "$name: status $rc, stderr: $(head -c 300 err)"; fi
}
refuse "--warp nan" "--warp: 'nan'" --warp nan
refuse "--warp-octaves 17" "--warp-octaves: '17'" --warp 1 --warp-octaves 17
refuse "--warp-fractal bogus" "--warp-fractal: 'bogus' is not one of none, independent, progressive" --warp 1 --warp-fractal bogus
refuse "--warp-noise bogus" "--warp-noise: 'bogus'" --warp 1 --warp-noise bogus
refuse "--warp-frequency 0" "--warp-frequency: '0'" --warp 1 --warp-frequency 0
refuse "--warp-gain 5" "--warp-gain: '5'" --warp 1 --warp-gain 5
refuse "--warp-lacunarity 0.5" "--warp-lacunarity: '0.5'" --warp 1 --warp-lacunarity 0.5
refuse "--tile with a fractional warp lacunarity" "--tile: --warp-lacunarity 2.5 is not a whole number" \
    --tile --warp 3 --warp-fractal progressive --warp-lacunarity 2.5
refuse "--tile with a warp frequency that does not tile" \
    "--tile: the warp's fields: along x, 64 pixels * frequency 0.01 * axis-frequency 1 = 0.64 cells" \
    --tile --warp 3 --warp-frequency 0.01
refuse "--warp 1e308 overflows" "--warp 1e+308" --warp 1e308
refuse "1D cellular warp field" "--warp: a warp field (--warp-noise cellular" --dims 1 --warp 3 --warp-noise cellular
if "$CNOISE" info 2>/dev/null | grep -q 'OpenCL.*device'; then
    refuse "--device opencl with a warp" "warped noise (--warp) is evaluated on the CPU only" --warp 3 --device opencl
fi

t_end test_cli_warp
