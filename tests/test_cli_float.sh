#!/usr/bin/env bash
# test_cli_float.sh -- the float image formats of "cnoise render" and "cnoise volume": OpenEXR
# (exr float32, exr16 half), 32-bit float TIFF and GeoTIFF (--geo), and .raw as r16.
#   - every render decoded by its own library (test_image_float compare: OpenEXRCore, libtiff,
#     libgeotiff) equals the f32 render of the same noise bit for bit, or within half rounding;
#   - independent readers: tifffile (pure Python, not libtiff) reads the GeoTIFF's values and its
#     ModelTiepoint, ModelPixelScale and GeoKey directory; exrheader (OpenEXR's C++ library, not
#     OpenEXRCore) reads the EXR headers;
#   - format inference and its errors, --geo's errors, the half-range note, and failures (a
#     folder at the path, a missing folder, the file-size limit) that leave nothing behind.
#
# Usage: bash tests/test_cli_float.sh path/to/cnoise path/to/test_image_float

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 2 'path/to/cnoise path/to/test_image_float' "$@"
CNOISE=$(t_abs "$1")
READ=$(t_abs "$2")
mkdir "$T/w" && cd "$T/w" || exit 1

# 67x35: neither side a multiple of a 16-row EXR chunk or of a strip
OPTS=(--fractal fbm --octaves 5 --seed 11 --frequency 0.05 --size 67x35)
run render "${OPTS[@]}" -o ref.f32
expect_ok "the f32 reference" "wrote ref.f32 (67x35 f32)
wrote ref.f32.json (sidecar: size, sample type, range, options)"

# compare NAME FILE [half]: FILE decoded equals ref.f32 (bits, or half rounding)
compare() {
    local name=$1 file=$2; shift 2
    if "$READ" compare "$file" ref.f32 "$@" >"$T/cmp" 2>&1; then pass; else fail "$name: $(cat "$T/cmp")"; fi
}

run render "${OPTS[@]}" -o h.exr
expect_ok ".exr is exr (float32)" "wrote h.exr (67x35 exr)"
compare "exr decoded by OpenEXRCore equals the f32 render bit for bit" h.exr
run render "${OPTS[@]}" --format exr16 -o h16.exr
expect_ok "--format exr16" "wrote h16.exr (67x35 exr16)"
compare "exr16 decoded by OpenEXRCore is the f32 render rounded to half" h16.exr half
fails() { ! "$@" >/dev/null 2>&1; }
check "exr16 is not float32 (the comparison above is not an exact one)" fails "$READ" compare h16.exr ref.f32
run render "${OPTS[@]}" --seed 12 -o other.exr
check "the comparison catches another seed's render" fails "$READ" compare other.exr ref.f32
run render "${OPTS[@]}" -o h.tif
expect_ok ".tif is tiff" "wrote h.tif (67x35 tiff)"
compare "tiff decoded by libtiff equals the f32 render bit for bit" h.tif
run render "${OPTS[@]}" -o H.TIFF
expect_ok ".TIFF is tiff" "wrote H.TIFF (67x35 tiff)"
check ".tiff and .tif are the same file" cmp -s h.tif H.TIFF
run render "${OPTS[@]}" --format tiff -o h.data
expect_ok "--format tiff with another extension" "wrote h.data (67x35 tiff)"

# GeoTIFF
run render "${OPTS[@]}" --geo EPSG:32633,500000,4650000,30 -o g.tif
expect_ok "--geo UTM 33N" "wrote g.tif (67x35 tiff, EPSG:32633 WGS 84 / UTM zone 33N)"
compare "the GeoTIFF's values" g.tif
check "libgeotiff reads the tags back" grep -qx \
    "geo: tiepoint 500000 4650000 pixel 30 30 model 1 raster 1 projected 32633 geographic 0 'WGS 84 / UTM zone 33N'" "$T/cmp"
run render "${OPTS[@]}" --geo EPSG:4326,-10.5,55.25,0.25,0.125 -o ll.tif
expect_ok "--geo WGS 84 with its own y size" "wrote ll.tif (67x35 tiff, EPSG:4326 WGS 84)"
"$READ" compare ll.tif ref.f32 >"$T/cmp" 2>&1
check "geographic keys" grep -qx \
    "geo: tiepoint -10.5 55.25 pixel 0.25 0.125 model 2 raster 1 projected 0 geographic 4326 'WGS 84'" "$T/cmp"

# .raw is r16 (Unity)
run render "${OPTS[@]}" -o u.raw
expect_ok ".raw is r16" "wrote u.raw (67x35 r16)
wrote u.raw.json (sidecar: size, sample type, range, options)"
run render "${OPTS[@]}" -o u.r16
check ".raw holds what .r16 does" cmp -s u.raw u.r16
check ".raw is 67*35*2 bytes" [ "$(stat -c %s u.raw)" -eq $((67 * 35 * 2)) ]

# volume: a multi-page TIFF equals the f32 volume
run volume --seed 4 --size 9x7x3 -o v.f32
run volume --seed 4 --size 9x7x3 -o v.tif
expect_ok "volume .tif" "wrote v.tif (9x7x3 float32 TIFF, 3 pages of 9x7)"
if "$READ" compare v.tif v.f32 >"$T/cmp" 2>&1 && grep -q '9x7, 3 pages, float32' "$T/cmp"; then pass; else
    fail "volume tiff: $(cat "$T/cmp")"; fi

# independent readers
PY=$(command -v /usr/bin/python3 || command -v python3)
if [ -n "$PY" ] && "$PY" -c 'import numpy, tifffile' 2>/dev/null; then
    check "tifffile reads the GeoTIFF: values and georeferencing" "$PY" - <<'EOF'
import sys
import numpy as np, tifffile
want = np.fromfile('ref.f32', '<f4').reshape(35, 67)
with tifffile.TiffFile('g.tif') as t:
    p = t.pages[0]
    got = p.asarray()
    tags = {tag.name: tag.value for tag in p.tags.values()}
ok = got.dtype == np.float32 and got.shape == (35, 67) and np.array_equal(got.view('<u4'), want.view('<u4'))
ok = ok and tuple(tags['ModelTiepointTag']) == (0, 0, 0, 500000, 4650000, 0)
ok = ok and tuple(tags['ModelPixelScaleTag']) == (30, 30, 0)
# the GeoKey directory, parsed here: header (1, 1, 0, n), then n entries (key, location, count, value)
d = tags['GeoKeyDirectoryTag']
keys = {d[4 + 4 * i]: d[4 + 4 * i + 3] for i in range(d[3]) if d[4 + 4 * i + 1] == 0}
ok = ok and d[0] == 1 and keys.get(1024) == 1 and keys.get(1025) == 1 and keys.get(3072) == 32633
sys.exit(0 if ok else 1)
EOF
    check "tifffile reads the volume as 3 pages" "$PY" -c '
import sys, numpy as np, tifffile
v = tifffile.imread("v.tif")
sys.exit(0 if v.shape == (3, 7, 9) and np.array_equal(v, np.fromfile("v.f32", "<f4").reshape(3, 7, 9)) else 1)'
else
    skip "python3 with numpy and tifffile not found: the independent TIFF reader (scripts/setup-deps.sh installs python3-tifffile)"
fi
if command -v exrheader >/dev/null 2>&1; then
    exrheader h16.exr >"$T/hdr16" 2>&1
    exrheader h.exr >"$T/hdr32" 2>&1
    check "exrheader: exr16 has one channel R of half" grep -q 'R, 16-bit floating-point' "$T/hdr16"
    check "exrheader: exr has one channel R of float" grep -q 'R, 32-bit floating-point' "$T/hdr32"
    check "exrheader: exr16 is ZIP-compressed" grep -q 'compression (type compression): zip' "$T/hdr16"
    check "exrheader: exr is not compressed" grep -q 'compression (type compression): none' "$T/hdr32"
    check "exrheader: the data window" grep -q 'dataWindow (type box2i): (0 0) - (66 34)' "$T/hdr32"
    check "exrheader: one channel only" [ "$(grep -c 'floating-point' "$T/hdr32")" -eq 1 ]
else
    skip "exrheader not found: the independent EXR header check (scripts/setup-deps.sh installs openexr)"
fi

# the half range: a note, not silence
run render --size 8x8 --bias 100000 --format exr16 -o big.exr
check "values beyond +-65504 in exr16 get a note" [ "$rc" -eq 0 ]
case $err in *"beyond the half-float range"*"--format exr keeps them"*) pass ;; *) fail "half note: $err" ;; esac

# usage errors: exit 2, nothing created
mkdir u && cd u || exit 1
run render --geo EPSG:32633,0,0,1 -o x.png
expect_err "--geo on a png" 2 "--geo georeferences a GeoTIFF" "the format here is png"
run render --geo EPSG:32633,0,0,1 -o x.exr
expect_err "--geo on an exr" 2 "--geo georeferences a GeoTIFF"
run render --geo 32633,0,0,1 -o x.tif
expect_err "--geo without EPSG:" 2 "--geo: '32633,0,0,1' is not EPSG:CODE,X,Y,SIZE"
run render --geo EPSG:32633,0,0 -o x.tif
expect_err "--geo with too few numbers" 2 "is not EPSG:CODE,X,Y,SIZE"
run render --geo EPSG:32633,0,0,1,1,1 -o x.tif
expect_err "--geo with too many numbers" 2 "is not EPSG:CODE,X,Y,SIZE"
run render --geo EPSG:32633,0,nan,1 -o x.tif
expect_err "--geo with a NaN" 2 "is not EPSG:CODE,X,Y,SIZE"
run render --geo EPSG:32633,0,0,-30 -o x.tif
expect_err "--geo with a negative pixel size" 2 "--geo: the pixel size must be a finite number > 0"
run render --geo EPSG:4978,0,0,1 -o x.tif
expect_err "--geo with a geocentric CRS" 2 "EPSG:4978" "neither a projected nor a geographic 2D CRS"
run render --geo EPSG:9999,0,0,1 -o x.tif
expect_err "--geo with an unknown code" 2 "EPSG:9999 is not a coordinate reference system"
run render --format exr16 -o x.tif
expect_err "--format exr16 -o x.tif" 2 "--format exr16 does not match the file name 'x.tif' (a .tif file is tiff)"
run render --format tiff -o x.exr
expect_err "--format tiff -o x.exr" 2 "(a .exr file is exr or exr16)"
run render --format f32 -o x.raw
expect_err "--format f32 -o x.raw" 2 "(a .raw file is r16)"
run render --normalize minmax -o x.exr
expect_err "--normalize on exr" 2 "--normalize: exr files hold the noise values as they are"
check "usage errors created nothing" empty_dir .
cd .. || exit 1

# failures: exit 1, the target untouched, no temporary file
mkdir d.exr d.tif
run render --size 8x8 -o d.exr
expect_err "a folder at an .exr path" 1 "d.exr"
run render --size 8x8 -o d.tif
expect_err "a folder at a .tif path" 1 "d.tif"
check "the folders are still folders" [ -d d.exr -a -d d.tif ]
run render --size 8x8 -o missing/x.tif
expect_err "a missing folder" 1 "No such file or directory"
for f in keep.exr keep.tif; do
    printf 'precious\n' >"$f"
    ( ulimit -f 16; exec "$CNOISE" render --size 512x512 --quiet -o "$f" ) >"$T/stdout" 2>"$T/stderr"
    rc=$?
    err=$(cat "$T/stderr")
    expect_err "$f past the file-size limit" 1 "File too large" "ulimit -f"
    check "$f untouched" [ "$(cat "$f")" = precious ]
done
check "no temporary file left" no_temp_files .

t_end
