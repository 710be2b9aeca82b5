#!/usr/bin/env bash
# test_cli_volume.sh -- shell tests of "cnoise volume": .npy and raw float32 volumes checked
# against "cnoise sample" at the same points, the contact sheet against the volume, option
# errors (exit 2, nothing created), and failures (missing folder, full disk, file size limit,
# SIGTERM) that leave no partial or temporary file and existing files untouched.
#
# Usage: bash tests/test_cli_volume.sh path/to/cnoise
# Needs python3 with numpy (scripts/setup-deps.sh installs python3-numpy); without it the value
# checks are skipped and the test exits 77 (skipped) when the rest passed. Ends with
# "test_cli_volume: N passed, M failed".
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
ERR_PREFIX='cnoise volume: '
# The first python3 with numpy (the system's when PATH leads to another one without it).
PY=$(numpy_python)

# ---------------------------------------------------------------------------------------------
mkdir "$T/v" && cd "$T/v" || exit 1

run volume --help
check "--help exits 0 quietly" [ "$rc" -eq 0 -a -z "$err" ]
for opt in --size --dims --w --format --output --sheet --sheet-columns --threads --quiet --precision --fractal \
    --period --layer "Exit status" "shape (D, H, W)" "x fastest"; do
    check "--help mentions $opt" grep -q -- "$opt" "$T/stdout"
done
"$CNOISE" --help >"$T/main_help"
check "cnoise --help lists volume" grep -q '^  volume ' "$T/main_help"

run volume
expect_ok "default volume" "wrote volume.npy (64x64x64 float32, NumPy shape (64, 64, 64))"
check "default volume: no temporary file" no_temp_files .
check "default volume size: 64^3 floats and a 128-byte header" [ "$(stat -c %s volume.npy)" -eq $((64 * 64 * 64 * 4 + 128)) ]

# values: voxel (i, j, k) = cnoise sample at (i + 0.5, j + 0.5, k + 0.5), rounded to float32
# check_points NPY "SAMPLE OPTIONS" "i j k [w]"...: compares the .npy with cnoise sample.
check_points() {
    local npy=$1 opts=$2; shift 2
    local p pts=""
    for p in "$@"; do
        set -- $p
        pts+="$1.5 $2.5 $3.5${4:+ $4}"$'\n'
    done
    printf '%s' "$pts" | "$CNOISE" sample $opts >"$T/sampled" 2>&1 || { echo "sample failed: $(cat "$T/sampled")"; return 1; }
    "$PY" - "$npy" "$T/sampled" "$pts" <<'EOF'
import sys, numpy as np
a = np.load(sys.argv[1])
vals = [float(x) for x in open(sys.argv[2]).read().split()]
pts = [l.split() for l in sys.argv[3].strip().split('\n')]
ok = True
for p, v in zip(pts, vals):
    i, j, k = (int(float(c)) for c in p[:3])
    if a[k, j, i] != np.float32(v):
        print("voxel", i, j, k, a[k, j, i], "sample", v); ok = False
sys.exit(0 if ok and len(vals) == len(pts) else 1)
EOF
}
if [ -n "$PY" ]; then
    check "default volume: shape, dtype" "$PY" -c 'import numpy as np, sys; a = np.load("volume.npy"); sys.exit(not (a.shape == (64, 64, 64) and a.dtype == np.dtype("<f4") and -1 <= a.min() < -0.3 and 0.3 < a.max() <= 1))'
    check "default volume equals cnoise sample (double, rounded to float32)" \
        check_points volume.npy "--dims 3 --frequency 0.0625" "0 0 0" "3 2 1" "63 10 40" "17 63 0" "5 6 63"
    run volume --size 9x7x5 --precision float --noise simplex --seed 11 --fractal fbm --octaves 3 -o f.npy
    check "float precision volume written" [ "$rc" -eq 0 ]
    check "float volume equals cnoise sample --precision float" \
        check_points f.npy "--dims 3 --frequency 0.0625 --precision float --noise simplex --seed 11 --fractal fbm --octaves 3" \
        "0 0 0" "8 6 4" "4 3 2" "1 5 3"
    run volume --dims 4 --w 7.25 --size 6x5x4 --frequency 0.2 -o w.npy
    check "4D volume written" [ "$rc" -eq 0 ]
    check "4D volume equals cnoise sample at w = --w" \
        check_points w.npy "--dims 4 --frequency 0.2" "0 0 0 7.25" "5 4 3 7.25" "2 1 3 7.25"
    run volume --size 8x8x8 --layer 'frequency=0.25; weight=0.5; seed=3' -o l.npy
    check "layered volume equals cnoise sample" \
        check_points l.npy "--dims 3 --frequency 0.0625 --layer frequency=0.25;weight=0.5;seed=3" "0 0 0" "7 7 7" "3 1 4"
else
    skip "python3 with numpy not found: the value, raw-layout and contact-sheet checks (scripts/setup-deps.sh installs python3-numpy)"
fi

# raw float32: same values as the .npy, x fastest; the message states the layout
run volume --size 5x4x3 -o v.f32
expect_ok "raw f32 volume" "wrote v.f32 (W x H x D = 5 x 4 x 3 float32 little-endian, x fastest, then y, then z)
wrote v.f32.json (sidecar: size, sample type, range, options)"
check "raw f32 size is 5*4*3*4 bytes" [ "$(stat -c %s v.f32)" -eq 240 ]
run volume --size 5x4x3 -o v.npy --quiet
check "--quiet prints nothing" [ "$rc" -eq 0 -a -z "$out" -a -z "$err" ]
if [ -n "$PY" ]; then
    check "raw f32 equals the .npy, reshaped (D, H, W)" "$PY" -c 'import numpy as np, sys; sys.exit(not np.array_equal(np.fromfile("v.f32", "<f4").reshape(3, 4, 5), np.load("v.npy")))'
fi
run volume --size 2x2x2 -o v.RAW
check ".RAW is raw float32" [ "$rc" -eq 0 -a "$(stat -c %s v.RAW)" -eq 32 ]
run volume --size 2x2x2 -o noext
check "a name without an extension is npy" [ "$rc" -eq 0 -a "$(head -c 6 noext | od -An -c | tr -d ' ')" = "223NUMPY" ]
run volume --size 2x2x2 --format f32 -o data.bin
check "--format f32 accepts another extension" [ "$rc" -eq 0 -a "$(stat -c %s data.bin)" -eq 32 ]

# contact sheet: 7 slices of 6x5, 3 per row (ceil(sqrt(7))), 3 rows: 18x15, two black tiles
run volume --size 6x5x7 -o s.npy --sheet s.png
expect_ok "volume with a sheet" "wrote s.npy (6x5x7 float32, NumPy shape (7, 5, 6))
wrote s.png (18x15 contact sheet: 7 slices of 6x5, 3 per row)"
run volume --size 6x5x7 -o s2.npy --sheet s2.png --sheet-columns 7
check "--sheet-columns 7: one row" [ "$rc" -eq 0 ] && case $out in *"wrote s2.png (42x5 contact sheet"*) pass ;; *) fail "sheet columns: $out" ;; esac
if [ -n "$PY" ]; then
    # decode the 8-bit gray PNG with zlib and compare every tile with the volume's gray levels
    check_sheet() {
        "$PY" - "$1" "$2" "$3" <<'EOF'
import sys, struct, zlib, numpy as np
d = open(sys.argv[2], 'rb').read()
pos, idat = 8, b''
while pos < len(d):
    n, t = struct.unpack('>I4s', d[pos:pos + 8])
    if t == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', d[pos + 8:pos + 18])
    if t == b'IDAT': idat += d[pos + 8:pos + 8 + n]
    pos += 12 + n
assert (depth, ctype) == (8, 0)
raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, w + 1).astype(np.int32)
img = np.zeros((h, w), np.int32)
prev = np.zeros(w, np.int32)
for j in range(h):
    f, line = raw[j, 0], raw[j, 1:].copy()
    for i in range(w):
        a = line[i - 1] if i else 0; b = prev[i]; c = prev[i - 1] if i else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    img[j] = line; prev = line
v = np.load(sys.argv[1]).astype(np.float64)
D, H, W = v.shape
cols = int(sys.argv[3])
x = (v + 1.0) / 2.0 * 255.0          # documented range [-1, 1]
g = np.floor(x); g += (x - g) >= 0.5  # C round() for x >= 0
g = np.clip(g, 0, 255)
bands = (D + cols - 1) // cols
assert (w, h) == (cols * W, bands * H), (w, h)
for k in range(bands * cols):
    r, c = divmod(k, cols)
    tile = img[r * H:(r + 1) * H, c * W:(c + 1) * W]
    want = g[k] if k < D else np.zeros((H, W))
    assert np.array_equal(tile, want), "tile %d" % k
EOF
    }
    check "contact sheet tiles equal the volume's gray levels, black after the last" check_sheet s.npy s.png 3
    check "contact sheet with 7 columns" check_sheet s2.npy s2.png 7
fi

# ---------------------------------------------------------------------------------------------
# usage errors: exit 2, the option named, nothing created
mkdir "$T/u" && cd "$T/u" || exit 1
bad() { # bad NAME TEXT ARGS...
    local name=$1 text=$2; shift 2
    run volume "$@"
    expect_err "$name" 2 "$text"
    check "$name creates nothing" empty_dir .
}
bad "size 0" "--size" --size 0x4x4
bad "size WxH" "--size: '4x4' is not WxHxD" --size 4x4
bad "size junk" "--size" --size 4x4x4x
bad "size negative" "--size" --size 4x-4x4
bad "size side too large" "each side must be 1..1048576" --size 1048577x1x1
bad "size too many voxels" "at most 17179869184" --size 1048576x1048576x1048576
bad "dims 2" "--dims: a volume needs 3D or 4D" --dims 2
bad "--w in 3D" "--w needs --dims 4" --w 1
bad "--w not finite" "--w" --dims 4 --w nan
bad "format png" "--format: 'png' is not one of npy, f32, tiff" --format png
bad "format contradicts" "--format f32 contradicts" --format f32 -o x.npy
bad "unknown extension" "unknown extension" -o x.png
bad "empty output" "--output: the file name is empty" -o ''
bad "columns without sheet" "--sheet-columns needs --sheet" --sheet-columns 2
bad "columns 0" "--sheet-columns" --sheet s.png --sheet-columns 0
bad "columns beyond depth" "--sheet-columns" --size 4x4x3 --sheet s.png --sheet-columns 4
bad "sheet same as output" "--sheet and --output name the same file" --sheet volume.npy
bad "sheet band too big" "--sheet: one row of" --size 65536x65536x2 --sheet s.png
bad "frequency overflow" "--frequency" --frequency 1e308 --size 2x2x2
bad "unknown option" "unknown option" --bogus
bad "bad noise option" "--octaves" --fractal fbm --octaves 99
bad "threads" "--threads" --threads 999

# ---------------------------------------------------------------------------------------------
# failures: exit 1, no partial or temporary file, existing files untouched
mkdir "$T/f" && cd "$T/f" || exit 1
printf 'old volume\n' >keep.npy
printf 'old sheet\n' >keep.png
before_v=$(cksum <keep.npy)
before_s=$(cksum <keep.png)
run volume --size 4x4x4 -o missing/x.npy
expect_err "missing folder" 1 "cannot create temporary file"
run volume --size 4x4x4 -o keep.npy --sheet missing/s.png
expect_err "sheet in a missing folder" 1 "missing/s.png"
check "sheet failure keeps the existing volume" [ "$(cksum <keep.npy)" = "$before_v" ]
run volume --size 4x4x4 -o /dev/null
expect_err "special file refused" 1 "not a regular file"
mkdir adir
run volume --size 4x4x4 -o adir
expect_err "directory refused" 1 "is a directory"
( trap '' XFSZ; ulimit -f 64; exec "$CNOISE" volume --size 64x64x64 -o keep.npy --sheet keep.png ) >"$T/stdout" 2>"$T/stderr"
rc=$?; out=$(cat "$T/stdout"); err=$(cat "$T/stderr")
expect_err "file size limit" 1 "File too large"
check "file size limit: no success line" [ -z "$out" ]
check "file size limit keeps both files" [ "$(cksum <keep.npy)" = "$before_v" -a "$(cksum <keep.png)" = "$before_s" ]
check "failures leave no temporary file" no_temp_files .
check "failures leave only what was there" [ "$(ls -A | tr '\n' ' ')" = "adir keep.npy keep.png " ]
if [ "$(id -u)" -eq 0 ] && mkdir "$T/tiny" && mount -t tmpfs -o size=64k tmpfs "$T/tiny" 2>/dev/null; then
    MOUNTS+=("$T/tiny")
    printf 'precious\n' >"$T/tiny/keep.npy"
    printf 'precious sheet\n' >"$T/tiny/keep.png"
    run volume --size 64x64x64 -o "$T/tiny/keep.npy"
    expect_err "disk full" 1 "No space left on device"
    check "disk full keeps the existing volume" [ "$(cat "$T/tiny/keep.npy")" = precious ]
    # the volume fits elsewhere, its sheet does not: neither is renamed into place
    run volume --size 256x256x16 -o keep.npy --sheet "$T/tiny/keep.png"
    expect_err "sheet on a full disk" 1 "No space left on device"
    check "a full disk for the sheet keeps the existing volume" [ "$(cksum <keep.npy)" = "$before_v" ]
    check "a full disk for the sheet keeps the existing sheet" [ "$(cat "$T/tiny/keep.png")" = "precious sheet" ]
    check "and leaves no temporary file here" no_temp_files .
    check "disk full leaves no temporary file" no_temp_files "$T/tiny"
    umount "$T/tiny"
else
    note "cannot mount a tmpfs (not root or not permitted): disk-full checks skipped"
fi

# SIGTERM while writing: the temporary files are removed, the targets untouched
printf 'old volume\n' >keep.npy
before_v=$(cksum <keep.npy)
# the named temporary files of the test hook CNOISE_TEST_NAMED_TEMP: they exist to be removed
CNOISE_TEST_NAMED_TEMP=1 "$CNOISE" volume --size 256x256x256 --fractal fbm --octaves 12 --threads 1 -o keep.npy --sheet big.png >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
    [ -n "$(find . -name 'keep.npy.tmp.*' -print -quit)" ] && break
    sleep 0.05
done
check "long volume created its temporary file" [ -n "$(find . -name 'keep.npy.tmp.*' -print -quit)" ]
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
check "SIGTERM ends the volume (rc=$rc)" [ "$rc" -eq 143 ]
check "SIGTERM keeps the existing file" [ "$(cksum <keep.npy)" = "$before_v" ]
check "SIGTERM leaves no temporary file and no sheet" [ -z "$(find . -name '*.tmp.*' -print -quit)" -a ! -e big.png ]

# progress: never into a pipe or file; on a terminal unless --quiet
run volume --size 32x32x32 -o p.npy
check "no progress on a non-terminal stderr" [ -z "$err" ]
if command -v script >/dev/null 2>&1; then
    script -qec "'$CNOISE' volume --size 32x32x32 -o p.npy" /dev/null >"$T/tty" 2>&1
    check "progress on a terminal" grep -q 'cnoise volume \[' "$T/tty"
    script -qec "'$CNOISE' volume --size 32x32x32 -o p.npy --quiet" /dev/null >"$T/tty" 2>&1
    check "--quiet: nothing on a terminal" [ ! -s "$T/tty" ]
else
    note "script(1) not found: terminal progress checks skipped"
fi

t_end
