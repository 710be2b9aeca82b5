#!/usr/bin/env bash
# test_cli_render.sh -- "cnoise render" formats, ramps, normalisation, shading, normal maps,
# format inference, tiling seams, failures that leave the file system as it was, the progress
# bar (only on terminals) and the memory bound of streaming.
#
# Usage: bash tests/test_cli_render.sh path/to/cnoise
# Run by ctest as test_cli_render. Prints one line per failure, notes for skipped checks, and
# ends with "test_cli_render: N passed, M failed"; exits 1 if anything failed.
# Needs bash, coreutils, cmp; python3 (standard library; numpy is used for numpy.load when that
# python has it) for the decoding checks, skipped with a note without it; script(1) from
# util-linux for the terminal checks.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
cd "$T" || exit 1

# A python3 with numpy if there is one (numpy.load check), else any python3.
if ! PY=$(numpy_python) && [ "$HAVE_PY" -eq 1 ]; then
    PY=python3
    skip "numpy not found: numpy.load check (scripts/setup-deps.sh installs python3-numpy)"
fi

# samples W H [halo] OPTIONS...: writes the noise at the pixel centres (with a one-pixel halo
# when halo is 1) as printed by "cnoise sample --dims 2 OPTIONS" to $T/samples.
samples() {
    local W=$1 H=$2 halo=$3; shift 3
    awk -v W="$W" -v H="$H" -v h="$halo" 'BEGIN {
        for (j = -h; j < H + h; j++) for (i = -h; i < W + h; i++) printf "%.1f %.1f\n", i + 0.5, j + 0.5 }' >"$T/pts"
    "$CNOISE" sample --dims 2 "$@" <"$T/pts" >"$T/samples"
}
# verify NAME KIND FILE W H ARGS...: check_render.py passes.
verify() {
    local name=$1; shift
    if [ -z "$PY" ]; then return; fi
    if "$PY" "$HERE/check_render.py" "$@" >"$T/pyout" 2>&1; then pass; else fail "$name: $(head -c 600 "$T/pyout")"; fi
}

# ---------------------------------------------------------------------------------------------
# help
run render --help
for text in --format png16 rgb r16 f32 pfm npy normal slope --ramp terrain --normalize minmax --shade \
            --light-azimuth --light-elevation --relief --normal-strength --threads --quiet '17179869184'; do
    check "render --help mentions '$text'" grep -q -- "$text" "$T/stdout"
done

# ---------------------------------------------------------------------------------------------
# Every format against "cnoise sample" at the same points.
W=9 H=6
OPTS=(--fractal fbm --octaves 4 --seed 11 --frequency 0.13)
samples $W $H 0 "${OPTS[@]}"
run render "${OPTS[@]}" --size ${W}x$H -o g.png
expect_ok "png" "wrote g.png (${W}x$H)"
verify "png pixels" gray8 g.png "$T/samples" $W $H 0 1
run render "${OPTS[@]}" --size ${W}x$H --format png16 -o g16.png
expect_ok "png16" "wrote g16.png (${W}x$H png16)"
verify "png16 pixels" gray16 g16.png "$T/samples" $W $H 0 1
run render "${OPTS[@]}" --size ${W}x$H -o h.r16
expect_ok "r16 from the extension" "wrote h.r16 (${W}x$H r16)
wrote h.r16.json (sidecar: size, sample type, range, options)"
verify "r16 samples" r16 h.r16 "$T/samples" $W $H 0 1
run render "${OPTS[@]}" --size ${W}x$H -o h.f32
expect_ok "f32 from the extension" "wrote h.f32 (${W}x$H f32)
wrote h.f32.json (sidecar: size, sample type, range, options)"
verify "f32 values" f32 h.f32 "$T/samples" $W $H
run render "${OPTS[@]}" --size ${W}x$H -o h.PFM
expect_ok "pfm from the extension (upper case)" "wrote h.PFM (${W}x$H pfm)"
verify "pfm values" pfm h.PFM "$T/samples" $W $H
run render "${OPTS[@]}" --size ${W}x$H -o h.npy
expect_ok "npy from the extension" "wrote h.npy (${W}x$H npy)"
verify "npy values" npy h.npy "$T/samples" $W $H
RAMP='0:#00224e,0.5:#7a7f3a,0.75:#c08040,1:#ffffff'
run render "${OPTS[@]}" --size ${W}x$H --ramp "$RAMP" -o c.png
expect_ok "--ramp implies rgb for .png" "wrote c.png (${W}x$H rgb)"
verify "rgb pixels (user ramp)" rgb c.png "$T/samples" $W $H 0 1 "$RAMP"
run render "${OPTS[@]}" --size ${W}x$H --format rgb --ramp gray -o cg.png
verify "rgb pixels (gray preset)" rgb cg.png "$T/samples" $W $H 0 1 '0:#000000,1:#ffffff'
# Explicit formats with other extensions (or none) are accepted.
run render "${OPTS[@]}" --size ${W}x$H --format r16 -o h.raw
expect_ok "--format r16 -o h.raw" "wrote h.raw (${W}x$H r16)
wrote h.raw.json (sidecar: size, sample type, range, options)"
check "h.raw is h.r16" cmp -s h.raw h.r16
run render "${OPTS[@]}" --size ${W}x$H --format f32 -o noext
check "--format f32 without an extension" cmp -s noext h.f32
run render "${OPTS[@]}" --size ${W}x$H -o noext2
check "no extension is png" [ "$rc" -eq 0 -a "$(head -c 4 noext2 | od -An -c | tr -d ' ')" = '211PNG' ]
# The widest image the tool allows is a valid PNG: libpng's own default limit is 1000000 pixels
# per side (found by fuzz/fuzz_image.c). IHDR width: bytes 16..19, big-endian.
run render --size 1048576x1 --quiet -o wide.png
check "1048576 pixels wide (rc=$rc: $err)" [ "$rc" -eq 0 -a "$(od -An -tx1 -j16 -N4 wide.png | tr -d ' ')" = 00100000 ]
rm -f wide.png

# Float precision, 3D slice, layers, a turbulence range [0, 1], classic Perlin's range.
samples 7 5 0 --precision float --noise simplex --seed 5 --frequency 0.3
run render --precision float --noise simplex --seed 5 --frequency 0.3 --size 7x5 -o fl.npy
verify "float precision npy" npy fl.npy "$T/samples" 7 5
samples 7 5 0 --fractal turbulence --frequency 0.2 --layer 'seed=4;weight=-0.5;frequency=0.1'
run render --fractal turbulence --frequency 0.2 --layer 'seed=4;weight=-0.5;frequency=0.1' --size 7x5 --format png16 -o tl.png
# turbulence [0, 1] (mid 0.5, half 0.5) plus -0.5 times [0, 1] (mid -0.25, half 0.25)
verify "layer sum range" gray16 tl.png "$T/samples" 7 5 0.25 0.75
samples 7 5 0 --classic --frequency 0.21
run render --classic --frequency 0.21 --size 7x5 --format png16 -o cl.png
verify "classic Perlin range +-1.0363538112118029" gray16 cl.png "$T/samples" 7 5 0 1.0363538112118029

# ---------------------------------------------------------------------------------------------
# Normalisation: minmax, LO,HI with the clipping note.
samples 12 8 0 --frequency 0.05 --seed 2
run render --frequency 0.05 --seed 2 --size 12x8 --normalize minmax -o mm.png
expect_ok "minmax" "wrote mm.png (12x8)"
verify "minmax pixels" minmax mm.png "$T/samples" 12 8
run render --frequency 0.05 --seed 2 --size 12x8 --normalize -0.2,0.2 -o clip.png
check "LO,HI clips and says how many (rc=$rc)" [ "$rc" -eq 0 -a "$out" = "wrote clip.png (12x8)" ]
if [ -n "$PY" ]; then
    nclip=$("$PY" -c 'import sys; v=[float(x) for x in open(sys.argv[1]).read().split()]; print(sum(1 for x in v if x < -0.2 or x > 0.2))' "$T/samples")
    check "clipping note counts the samples ($nclip)" grep -q "note: $nclip of 96 samples" "$T/stderr"
    check "there was something to clip" [ "$nclip" -gt 0 ]
fi
verify "LO,HI pixels" gray8 clip.png "$T/samples" 12 8 0 0.2
# the note names LO,HI as given: -0.1 and 0.05 make mid -0.025 and half 0.075, and mid + half
# is 0.05000000000000001 in double
run render --frequency 0.05 --seed 2 --size 12x8 --normalize -0.1,0.05 -o clip2.png
check "the note shows LO,HI as given" grep -q "outside the range \[-0.1, 0.05\] and were clipped" "$T/stderr"
run render --frequency 0.05 --seed 2 --size 12x8 -o noclip.png
check "the documented range clips nothing (no note)" [ "$rc" -eq 0 -a -z "$err" ]
run render --size 4x4 --amplitude 0 --bias 0.25 --format png16 -o flat.png
check "a zero-width range: no note" [ "$rc" -eq 0 -a -z "$err" ]

# ---------------------------------------------------------------------------------------------
# Normal maps and hillshades, gradients from the neighbours (including outside the image).
W=10 H=7
OPTS=(--fractal fbm --octaves 3 --seed 4 --frequency 0.125)
samples $W $H 1 "${OPTS[@]}"
run render "${OPTS[@]}" --size ${W}x$H --format normal -o nm.png
expect_ok "normal" "wrote nm.png (${W}x$H normal)"
verify "normal map pixels (default strength 0.5 -> K = 4)" normal nm.png "$T/samples" $W $H 0 1 4
run render "${OPTS[@]}" --size ${W}x$H --format normal --normal-strength 3 -o nm3.png
verify "normal map pixels (strength 3)" normal nm3.png "$T/samples" $W $H 0 1 24
run render "${OPTS[@]}" --size ${W}x$H --format slope -o sl.png
expect_ok "slope" "wrote sl.png (${W}x$H slope)"
verify "slope map pixels (default strength 0.5 -> K = 4)" slope sl.png "$T/samples" $W $H 0 1 4
run render "${OPTS[@]}" --size ${W}x$H --format slope --normal-strength 6 -o sl6.png
verify "slope map pixels (strength 6)" slope sl6.png "$T/samples" $W $H 0 1 48
run render "${OPTS[@]}" --size ${W}x$H --shade -o hs.png
expect_ok "shade png" "wrote hs.png (${W}x$H png, shaded)"
verify "hillshade pixels (default relief 0.5 -> K = 4)" shade hs.png "$T/samples" $W $H 0 1 4 315 45
run render "${OPTS[@]}" --size ${W}x$H --shade --relief 2.5 --light-azimuth 100 --light-elevation 30 -o hs2.png
verify "hillshade, other light and relief" shade hs2.png "$T/samples" $W $H 0 1 20 100 30
run render "${OPTS[@]}" --size ${W}x$H --shade --ramp "$RAMP" --light-azimuth -45 -o hsc.png
expect_ok "shaded colours" "wrote hsc.png (${W}x$H rgb, shaded)"
verify "shaded colour pixels" shade hsc.png "$T/samples" $W $H 0 1 4 315 45 "$RAMP"
run render "${OPTS[@]}" --size ${W}x$H --shade --light-elevation 90 -o top.png
verify "light from straight above" shade top.png "$T/samples" $W $H 0 1 4 0 90

# The same from the noise's own derivatives (--gradient analytic) against "cnoise sample
# --gradient" at the pixels (no halo), and fd named explicitly is the default.
awk -v W="$W" -v H="$H" 'BEGIN { for (j = 0; j < H; j++) for (i = 0; i < W; i++) printf "%.1f %.1f\n", i + 0.5, j + 0.5 }' >"$T/pts"
"$CNOISE" sample --dims 2 --gradient "${OPTS[@]}" <"$T/pts" >"$T/gsamples"
run render "${OPTS[@]}" --size ${W}x$H --format normal --gradient analytic -o nma.png
expect_ok "normal, analytic" "wrote nma.png (${W}x$H normal)"
verify "analytic normal map pixels" normal-a nma.png "$T/gsamples" $W $H 0 1 4
run render "${OPTS[@]}" --size ${W}x$H --format normal --normal-strength 3 --gradient analytic -o nma3.png
verify "analytic normal map pixels (strength 3)" normal-a nma3.png "$T/gsamples" $W $H 0 1 24
run render "${OPTS[@]}" --size ${W}x$H --format slope --gradient analytic -o sla.png
verify "analytic slope map pixels" slope-a sla.png "$T/gsamples" $W $H 0 1 4
run render "${OPTS[@]}" --size ${W}x$H --shade --relief 2.5 --light-azimuth 100 --light-elevation 30 --gradient analytic -o hsa.png
verify "analytic hillshade pixels" shade-a hsa.png "$T/gsamples" $W $H 0 1 20 100 30
run render "${OPTS[@]}" --size ${W}x$H --shade --ramp "$RAMP" --light-azimuth -45 --gradient analytic -o hsca.png
verify "analytic shaded colour pixels" shade-a hsca.png "$T/gsamples" $W $H 0 1 4 315 45 "$RAMP"
run render "${OPTS[@]}" --size ${W}x$H --format normal --gradient fd -o nmfd.png
check "--gradient fd is the default" cmp -s nm.png nmfd.png
# a sum of layers in float precision: the layers' float gradients summed in double, rounded once
# (range: perlin, simplex and value noise, each [-1, 1], weights 1, 0.75, 0.25: half 2; K = 0.5 / 0.05)
LOPTS=(--precision float --frequency 0.05 --layer "noise=simplex;frequency=0.1;weight=0.75"
       --layer "noise=value;frequency=0.3;seed=5;weight=0.25")
"$CNOISE" sample --dims 2 --gradient "${LOPTS[@]}" <"$T/pts" >"$T/gsamples"
run render "${LOPTS[@]}" --size ${W}x$H --format normal --gradient analytic -o nml.png
expect_ok "normal, analytic, layers" "wrote nml.png (${W}x$H normal)"
verify "analytic normal map of float layers" normal-a nml.png "$T/gsamples" $W $H 0 2 10
# warped: the chain rule through the warp (cn_warp_grid_eval's gradient)
WOPTS=(--fractal fbm --octaves 2 --seed 3 --frequency 0.1 --warp 4 --warp-frequency 0.05)
"$CNOISE" sample --dims 2 --gradient "${WOPTS[@]}" <"$T/pts" >"$T/gsamples"
run render "${WOPTS[@]}" --size ${W}x$H --format normal --gradient analytic -o nmw.png
expect_ok "normal, analytic, warped" "wrote nmw.png (${W}x$H normal)"
verify "analytic normal map of warped noise" normal-a nmw.png "$T/gsamples" $W $H 0 1 5
# the erosion fractal: its gradient takes the kernels' second derivatives
EOPTS=(--fractal erosion --octaves 3 --seed 4 --frequency 0.125)
"$CNOISE" sample --dims 2 --gradient "${EOPTS[@]}" <"$T/pts" >"$T/gsamples"
run render "${EOPTS[@]}" --size ${W}x$H --format normal --gradient analytic -o nme.png
expect_ok "normal, analytic, erosion" "wrote nme.png (${W}x$H normal)"
verify "analytic normal map of the erosion fractal" normal-a nme.png "$T/gsamples" $W $H 0 1 4

# ---------------------------------------------------------------------------------------------
# Seams: two tiles rendered separately (the second shifted by --offset) equal one wide render,
# for gray, 16-bit, normal maps and hillshades; frequency 1/64 keeps the shifted coordinates exact.
if [ -n "$PY" ]; then
    for fmt in "--format png16" "--format normal" "--shade" "--shade --ramp terrain"; do
        # shellcheck disable=SC2086
        "$CNOISE" render --fractal fbm --seed 9 $fmt --size 128x40 -o wide.png >/dev/null 2>&1
        # shellcheck disable=SC2086
        "$CNOISE" render --fractal fbm --seed 9 $fmt --size 64x40 -o left.png >/dev/null 2>&1
        # shellcheck disable=SC2086
        "$CNOISE" render --fractal fbm --seed 9 $fmt --size 64x40 --offset 1 -o right.png >/dev/null 2>&1
        check "tiles match the wide image at the seam ($fmt)" "$PY" -c '
import sys; sys.path.insert(0, sys.argv[1])
from pngread import read_png
w = read_png("wide.png")[4]; l = read_png("left.png")[4]; r = read_png("right.png")[4]
assert len(w) == len(l) == len(r) == 40
for j in range(40):
    assert w[j] == l[j] + r[j], "row %d differs" % j
' "$HERE"
    done
    # --tile: a normal map whose edges take their neighbours from the other side. Shifted by half
    # a period (--offset in cells, with the same periods), it is the tile rolled by half its size.
    "$CNOISE" render --fractal fbm --seed 9 --format normal --tile --size 128x64 -o t1.png >/dev/null 2>&1
    "$CNOISE" render --fractal fbm --seed 9 --format normal --period 2,1 --offset 1,0.5 --size 128x64 -o t2.png >/dev/null 2>&1
    check "--tile normal map wraps at its edges" "$PY" -c '
import sys; sys.path.insert(0, sys.argv[1])
from pngread import read_png
a = read_png("t1.png")[4]; b = read_png("t2.png")[4]
assert len(a) == len(b) == 64
for j in range(64):
    src = a[(j + 32) % 64]
    assert b[j] == src[64 * 3:] + src[:64 * 3], "row %d" % j
' "$HERE"
    # --gradient analytic: a --tile image repeats exactly; its double-width render with the same
    # periods is the tile twice.
    "$CNOISE" render --fractal fbm --seed 9 --format normal --gradient analytic --tile --size 128x64 -o ta1.png >/dev/null 2>&1
    "$CNOISE" render --fractal fbm --seed 9 --format normal --gradient analytic --period 2,1 --size 256x64 -o ta2.png >/dev/null 2>&1
    check "--tile analytic normal map repeats exactly" "$PY" -c '
import sys; sys.path.insert(0, sys.argv[1])
from pngread import read_png
a = read_png("ta1.png")[4]; b = read_png("ta2.png")[4]
assert len(a) == len(b) == 64
for j in range(64):
    assert b[j] == a[j] + a[j], "row %d" % j
' "$HERE"
    # Analytic against central differences: one octave of Perlin noise, 64-pixel cells. Central
    # differences over two pixels err by h^2 / 6 |t'''| (h = 1 pixel); here the slopes (K = 32
    # pixels of height per unit of t) differ by at most 8.3e-4 ("cnoise sample --gradient" on this
    # grid and its halo, measured when the test was written), about 0.1 of a channel level (a unit
    # normal component spans 127.5 levels): so a channel may differ by 1 where rounding falls
    # differently (1437 of the 73728 did), and never by more.
    "$CNOISE" render --seed 5 --format normal --size 192x128 -o fd1.png >/dev/null 2>&1
    "$CNOISE" render --seed 5 --format normal --gradient analytic --size 192x128 -o an1.png >/dev/null 2>&1
    check "analytic and fd normal maps agree within 1 level (one octave, 64-pixel cells)" "$PY" -c '
import sys; sys.path.insert(0, sys.argv[1])
from pngread import read_png
a = read_png("fd1.png")[4]; b = read_png("an1.png")[4]
assert len(a) == len(b) == 128
d = [abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)]
assert max(d) <= 1, "largest difference %d" % max(d)
assert sum(1 for x in d if x) < len(d) // 20, "%d of %d channels differ" % (sum(1 for x in d if x), len(d))
' "$HERE"
else
    note "python3 not found: seam checks skipped"
fi

# ---------------------------------------------------------------------------------------------
# Usage errors: exit 2, a message naming the option, nothing created, an existing file kept.
mkdir u && cd u || exit 1
printf 'precious\n' >keep.png
cp keep.png keep.npy
before=$(cksum <keep.png)
bad() { # bad NAME TEXT ARGS...: usage error naming TEXT, file system unchanged
    local name=$1 text=$2; shift 2
    run render --size 8x8 "$@"
    expect_err "$name" 2 "$text"
    check "$name: keep.png untouched" [ "$(cksum <keep.png)" = "$before" ]
    check "$name: nothing new" [ "$(ls -A | tr '\n' ' ')" = "keep.npy keep.png " ]
}
bad "unknown format" "--format: 'jpeg' is not one of png, png16, rgb, r16, f32, pfm, npy, exr, exr16, tiff, normal, slope" --format jpeg -o keep.png
bad "--gradient: unknown method" "--gradient: 'exact' is neither fd nor analytic" --format normal --gradient exact -o keep.png
bad "--gradient without a gradient format" "--gradient is how --format normal" --gradient analytic -o keep.png
bad "--gradient analytic: cellular" "--gradient analytic: evaluating the noise's gradient" --noise cellular --format normal --gradient analytic -o keep.png
bad "--gradient analytic on a GPU" "--gradient analytic: the derivatives are evaluated on the CPU only" --format normal --gradient analytic --device gpu -o keep.png
bad "format names are exact" "--format: 'PNG16'" --format PNG16 -o keep.png
bad "unknown extension" "cannot tell the format of 'x.bmp'" -o x.bmp
bad "unknown extension .jpg" "give --format" -o x.jpg
bad "extension contradicts --format" "--format f32 does not match the file name 'keep.png'" --format f32 -o keep.png
bad "npy name with png16" "--format png16 does not match" --format png16 -o keep.npy
bad "r16 name with npy" "does not match" --format npy -o a.r16
bad "--ramp with png16" "--ramp colours an rgb image; the format here is png16" --ramp gray --format png16 -o keep.png
bad "--ramp with .npy" "--ramp colours an rgb image" --ramp gray -o keep.npy
bad "--shade with f32" "--shade makes a png" --shade --format f32 -o keep.png.f32
bad "--shade with normal" "--shade makes a png" --shade --format normal -o keep.png
bad "--light-azimuth without --shade" "--light-azimuth needs --shade" --light-azimuth 10 -o keep.png
bad "--light-elevation without --shade" "--light-elevation needs --shade" --light-elevation 10 -o keep.png
bad "--relief without --shade" "--relief needs --shade" --relief 2 -o keep.png
bad "--light-elevation 0" "--light-elevation: '0' is not a finite number in (0, 90]" --shade --light-elevation 0 -o keep.png
bad "--light-elevation 91" "--light-elevation: '91'" --shade --light-elevation 91 -o keep.png
bad "--light-azimuth inf" "--light-azimuth: 'inf' is not a finite number" --shade --light-azimuth inf -o keep.png
bad "--relief 0" "--relief: '0' is not a finite number greater than 0" --shade --relief 0 -o keep.png
bad "--normal-strength with png" "--normal-strength needs --format normal or slope" --normal-strength 2 -o keep.png
bad "--normal-strength -1" "--normal-strength: '-1'" --format normal --normal-strength -1 -o keep.png
bad "--normalize bogus" "--normalize: 'bogus' is not range, minmax, nor LO,HI" --normalize bogus -o keep.png
bad "--normalize reversed" "--normalize: '1,-1'" --normalize 1,-1 -o keep.png
bad "--normalize equal" "--normalize: '0,0'" --normalize 0,0 -o keep.png
bad "--normalize nan" "--normalize: '0,nan'" --normalize 0,nan -o keep.png
bad "--normalize one number" "--normalize: '0.5'" --normalize 0.5 -o keep.png
bad "--normalize overflow" "--normalize: '-1e308,1e308'" --normalize -1e308,1e308 -o keep.png
bad "--normalize with npy" "--normalize: npy files hold the noise values as they are" --normalize minmax -o keep.npy
bad "--threads 257" "--threads: '257' is not a whole number 0..256" --threads 257 -o keep.png
bad "--threads -1" "--threads: '-1'" --threads -1 -o keep.png
bad "--quiet takes no value" "--quiet takes no value" --quiet=1 -o keep.png
# Ramps
bad "ramp: empty" "--ramp: empty" --ramp '' -o keep.png
bad "ramp: unknown preset" "--ramp: 'rainbow' is not a preset (gray, terrain, land, ocean, heat, dusk)" --ramp rainbow -o keep.png
bad "ramp: one stop" "--ramp: 1 stop: a ramp needs 2 to 64 stops" --ramp '0:#000000' -o keep.png
bad "ramp: first not 0" "stop 1 '0.1:#000000': the first position must be 0" --ramp '0.1:#000000,1:#ffffff' -o keep.png
bad "ramp: last not 1" "stop 2 '0.9:#ffffff': the last position must be 1" --ramp '0:#000000,0.9:#ffffff' -o keep.png
bad "ramp: not increasing" "stop 3 '0.5:#222222': positions must increase" --ramp '0:#000000,0.5:#111111,0.5:#222222,1:#ffffff' -o keep.png
bad "ramp: decreasing" "stop 3 '0.2:#222222': positions must increase" --ramp '0:#000000,0.5:#111111,0.2:#222222,1:#ffffff' -o keep.png
bad "ramp: five hex digits" "stop 1 '0:#00000': the colour must be '#' and six hexadecimal digits" --ramp '0:#00000,1:#ffffff' -o keep.png
bad "ramp: no #" "stop 1 '0:000000': the colour must be" --ramp '0:000000,1:#ffffff' -o keep.png
bad "ramp: bad hex" "stop 1 '0:#gg0000'" --ramp '0:#gg0000,1:#ffffff' -o keep.png
bad "ramp: seven digits" "stop 2 '1:#fffffff'" --ramp '0:#000000,1:#fffffff' -o keep.png
bad "ramp: position not a number" "stop 1 'x:#000000': the position is not a finite number" --ramp 'x:#000000,1:#ffffff' -o keep.png
bad "ramp: position nan" "stop 2 'nan:#ffffff': the position is not a finite number" --ramp '0:#000000,nan:#ffffff' -o keep.png
bad "ramp: position above 1" "stop 2 '1.5:#ffffff': the position must be in [0, 1]" --ramp '0:#000000,1.5:#ffffff' -o keep.png
bad "ramp: negative position" "stop 1 '-0.5:#000000': the position must be in [0, 1]" --ramp '-0.5:#000000,1:#ffffff' -o keep.png
bad "ramp: space" "stop 2 ' 1:#ffffff': the position is not a finite number" --ramp '0:#000000, 1:#ffffff' -o keep.png
bad "ramp: trailing comma" "stop 3 '': expected POS:#RRGGBB" --ramp '0:#000000,1:#ffffff,' -o keep.png
bad "ramp: semicolons" "1 stop" --ramp '0:#000000;1:#ffffff' -o keep.png
bad "ramp: missing colon" "stop 2 '1#ffffff': expected POS:#RRGGBB" --ramp '0:#000000,1#ffffff' -o keep.png
many=$(for i in $(seq 0 64); do printf '%s%s:#000000' "$([ "$i" -gt 0 ] && echo ,)" "$(awk -v i="$i" 'BEGIN { printf "%.6f", i / 64 }')"; done)
bad "ramp: 65 stops" "65 stops: a ramp needs 2 to 64 stops" --ramp "$many" -o keep.png
many64=$(for i in $(seq 0 63); do printf '%s%s:#%02x0000' "$([ "$i" -gt 0 ] && echo ,)" "$(awk -v i="$i" 'BEGIN { printf "%.6f", i / 63 }')" "$((i * 4))"; done)
run render --size 8x2 --ramp "$many64" -o ok64.png
check "ramp: 64 stops are fine" [ "$rc" -eq 0 ]
rm -f ok64.png
# Every preset parses and renders.
for r in gray terrain land ocean heat dusk; do
    run render --size 8x2 --ramp $r -o p.png
    check "preset $r" [ "$rc" -eq 0 -a "$out" = "wrote p.png (8x2 rgb)" ]
done
rm -f p.png
cd "$T" || exit 1

# ---------------------------------------------------------------------------------------------
# Runtime failures: exit 1, nothing left behind, existing files untouched, for the new formats.
mkdir f && cd f || exit 1
printf 'precious\n' >keep.npy
before=$(cksum <keep.npy)
run render --size 8x8 -o missing/dir/x.npy
expect_err "npy into a missing directory" 1 "missing/dir/x.npy"
mkdir adir.r16
run render --size 8x8 -o adir.r16
expect_err "r16 onto a directory" 1 "'adir.r16'" "directory"
# File size limit part way through a float file (EFBIG, SIGXFSZ ignored).
( trap '' XFSZ; ulimit -f 64; exec "$CNOISE" render --size 1024x1024 -o keep.npy ) >"$T/stdout" 2>"$T/stderr"
rc=$?; out=$(cat "$T/stdout"); err=$(cat "$T/stderr")
expect_err "npy write failure part way" 1 "keep.npy"
check "npy write failure: no success line" [ -z "$out" ]
check "npy write failure keeps the file" [ "$(cksum <keep.npy)" = "$before" ]
( trap '' XFSZ; ulimit -f 64; exec "$CNOISE" render --size 1024x1024 --shade --ramp terrain -o keep.npy.png ) >/dev/null 2>"$T/stderr"
check "shaded png write failure: exit 1" [ $? -eq 1 ]
check "no file and no temporary file after failures" [ "$(ls -A | tr '\n' ' ')" = "adir.r16 keep.npy " ]
check "no temporary files" no_temp_files .
# SIGTERM during a long normal-map render removes the temporary file (the named one of the test
# hook CNOISE_TEST_NAMED_TEMP, which exists to be removed and waited for).
CNOISE_TEST_NAMED_TEMP=1 "$CNOISE" render --size 16384x16384 --format normal -o keep.npy.png >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
    [ -n "$(find . -name 'keep.npy.png.tmp.*' -print -quit)" ] && break
    sleep 0.05
done
check "long render created its temporary file" [ -n "$(find . -name 'keep.npy.png.tmp.*' -print -quit)" ]
kill -TERM $pid 2>/dev/null
{ wait $pid; } 2>/dev/null
rc=$?
check "SIGTERM ends the render (rc=$rc)" [ "$rc" -eq 143 ]
check "SIGTERM leaves no temporary file" no_temp_files .
check "SIGTERM leaves no output" [ ! -e keep.npy.png ]
cd "$T" || exit 1

# ---------------------------------------------------------------------------------------------
# Threads: any thread count gives the same file.
"$CNOISE" render --fractal fbm --size 300x200 --threads 1 -o th1.npy >/dev/null
"$CNOISE" render --fractal fbm --size 300x200 --threads 3 -o th3.npy >/dev/null
"$CNOISE" render --fractal fbm --size 300x200 -o th0.npy >/dev/null
check "--threads 1, 3 and 0 give the same values" eval 'cmp -s th1.npy th3.npy && cmp -s th1.npy th0.npy'

# ---------------------------------------------------------------------------------------------
# Progress: a bar on a terminal (script(1) gives a pseudo-terminal), nothing in a pipe or with
# --quiet, and the bar is erased before an error message.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
    script -qec "'$CNOISE' render --size 256x256 -o tty.png" /dev/null >"$T/tty" 2>&1
    check "progress bar on a terminal" grep -q 'cnoise render \[' "$T/tty"
    check "progress bar shows a percentage and ETA" grep -q '% .*ETA' "$T/tty"
    check "progress bar is erased (ends with spaces and a carriage return before the wrote line)" \
        grep -q $'\r *\rwrote tty.png (256x256)' "$T/tty"
    script -qec "'$CNOISE' render --size 256x256 --quiet -o tty.png" /dev/null >"$T/tty" 2>&1
    check "--quiet: nothing on a terminal" [ ! -s "$T/tty" ]
    script -qec "'$CNOISE' render --size 256x256 -o missing/x.png" /dev/null >"$T/tty" 2>&1
    check "the bar is erased before an error message" grep -q $'\r *\rcnoise render: .*missing/x.png' "$T/tty"
    "$CNOISE" render --size 256x256 -o pipe.png 2>&1 | cat >"$T/pipe"
    check "no bar in a pipe" [ "$(cat "$T/pipe")" = "wrote pipe.png (256x256)" ]
else
    note "script(1) not usable: terminal progress checks skipped"
fi

# ---------------------------------------------------------------------------------------------
# Streaming: peak resident memory does not grow with the image height (16x more rows).
# Skipped under valgrind (scripts/valgrind.sh), where it would measure valgrind's memory.
if [ "${CNOISE_UNDER_VALGRIND:-0}" = 1 ]; then
    note "under valgrind: peak resident memory check skipped"
elif [ -n "$PY" ]; then
    peak() {
        "$PY" -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$CNOISE" render --format png16 --threads 2 "$@"
    }
    short=$(peak --size 1024x256 -o short.png)
    tall=$(peak --size 1024x4096 -o tall.png)
    # The tall image's samples alone are 8 MiB; buffering them would show.
    check "peak RSS independent of height (${short} KiB for 1024x256, ${tall} KiB for 1024x4096)" \
        [ -n "$short" -a -n "$tall" ] && [ "$tall" -lt $((short + 3072)) ]
    rm -f short.png tall.png
fi

t_end
