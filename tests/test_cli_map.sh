#!/usr/bin/env bash
# test_cli_map.sh -- "cnoise map": the default map, colours and relief against "cnoise sample",
# --tile, option errors, failures that leave the file system as it was, progress on terminals.
#
# Usage: bash tests/test_cli_map.sh path/to/cnoise
# Run by ctest as test_cli_map. Prints one line per failure, notes for skipped checks, and ends
# with "test_cli_map: N passed, M failed"; exits 1 if anything failed.
# Needs bash, coreutils; python3 (standard library) for the decoding checks.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
cd "$T" || exit 1

PY=
if [ "$HAVE_PY" -eq 1 ]; then PY=python3; else note "python3 not found: decoding checks skipped"; fi

verify() {
    local name=$1; shift
    if [ -z "$PY" ]; then return; fi
    if "$PY" "$HERE/check_render.py" "$@" >"$T/pyout" 2>&1; then pass; else fail "$name: $(head -c 600 "$T/pyout")"; fi
}
# samples W H OPTIONS...: "cnoise sample --dims 2 --fractal fbm OPTIONS" at the pixel centres
# of a W x H image grown by one pixel on each side, into $T/samples.
samples() {
    local W=$1 H=$2; shift 2
    awk -v W="$W" -v H="$H" 'BEGIN {
        for (j = -1; j <= H; j++) for (i = -1; i <= W; i++) printf "%.1f %.1f\n", i + 0.5, j + 0.5 }' >"$T/pts"
    "$CNOISE" sample --dims 2 --fractal fbm "$@" <"$T/pts" >"$T/samples"
}

# ---------------------------------------------------------------------------------------------
# help and the command list
run map --help
for text in --seed --size --scale --frequency --octaves --lacunarity --gain --sea-level --ramp \
            --light-azimuth --light-elevation --relief --tile --threads --quiet --output 'default 1024x512' map.png; do
    check "map --help mentions '$text'" grep -q -- "$text" "$T/stdout"
done
run --help
check "cnoise --help lists map" grep -q '^  map ' "$T/stdout"

# ---------------------------------------------------------------------------------------------
# The default map: map.png, 1024x512 RGB, with sea and land.
mkdir d && cd d || exit 1
run map
expect_ok "default map" "wrote map.png (1024x512)"
check "default map is the only file" [ "$(ls -A)" = "map.png" ]
if [ -n "$PY" ]; then
    check "default map: RGB PNG 1024x512 with sea, land and snow" "$PY" -c '
import sys; sys.path.insert(0, sys.argv[1])
from pngread import read_png
w, h, depth, ctype, rows = read_png("map.png")
assert (w, h, depth, ctype) == (1024, 512, 8, 2), (w, h, depth, ctype)
sea = land = snow = 0
for r in rows:
    for i in range(0, len(r), 3):
        R, G, B = r[i], r[i + 1], r[i + 2]
        if B > R + 40 and B > G:
            sea += 1
        elif G > B and G >= R:
            land += 1
        if min(R, G, B) > 200:
            snow += 1
n = w * h
assert 0.2 * n < sea < 0.8 * n, "sea %d of %d" % (sea, n)
assert 0.2 * n < land < 0.8 * n, "land %d of %d" % (land, n)
assert snow > 0, "no snow"
' "$HERE"
fi
cd "$T" || exit 1

# ---------------------------------------------------------------------------------------------
# Colours and relief against "cnoise sample" with the documented formulas.
RAMP='0:#001040,0.45:#2060a0,0.5:#d0c090,0.7:#408030,1:#ffffff'
samples 24 16 --octaves 3 --seed 2 --frequency 0.125 --gain 0.45
run map --size 24x16 --scale 8 --octaves 3 --seed 2 --sea-level 0.1 --ramp "$RAMP" \
    --light-azimuth 200 --light-elevation 35 --relief 0.3 -o small.png
expect_ok "small map" "wrote small.png (24x16)"
verify "map colours and relief" map small.png "$T/samples" 24 16 0.1 2.4 200 35 "$RAMP"
samples 24 16 --octaves 2 --seed 3 --frequency 0.0625 --lacunarity 3 --gain 0.7 --noise simplex
run map --size 24x16 --frequency 0.0625 --octaves 2 --seed 3 --lacunarity 3 --gain 0.7 --noise simplex \
    --sea-level -0.2 -o small2.png
verify "map defaults: terrain ramp, light 315/45, relief 0.5" map small2.png "$T/samples" 24 16 -0.2 8 315 45 \
    '0:#081a40,0.3:#113876,0.42:#1b5f9e,0.485:#3a89bd,0.5:#8fc9d8,0.502:#e3d8a6,0.512:#b3c57a,0.54:#74a651,0.58:#4d8640,0.62:#5f7a3e,0.65:#8a7a4e,0.68:#8b6b4d,0.715:#8d8780,0.75:#e4e4e2,1:#ffffff'
# --tile: the noise gets periods W/scale and H/scale cells; the edges take their neighbours from
# the other side, so the map equals the colours of the periodic noise with a wrapped halo.
samples 32 16 --octaves 3 --seed 5 --frequency 0.125 --gain 0.45 --period 4,2
run map --size 32x16 --scale 8 --octaves 3 --seed 5 --tile -o tile.png
expect_ok "map --tile" "wrote tile.png (32x16)"
verify "map --tile colours" map tile.png "$T/samples" 32 16 0 4 315 45 \
    '0:#081a40,0.3:#113876,0.42:#1b5f9e,0.485:#3a89bd,0.5:#8fc9d8,0.502:#e3d8a6,0.512:#b3c57a,0.54:#74a651,0.58:#4d8640,0.62:#5f7a3e,0.65:#8a7a4e,0.68:#8b6b4d,0.715:#8d8780,0.75:#e4e4e2,1:#ffffff'
if [ -n "$PY" ]; then
    check "map --tile: the halo wraps (first and last columns use each other)" "$PY" -c '
import sys
v = [float(x) for x in open(sys.argv[1]).read().split()]
W, H = 34, 18
g = [v[j * W:(j + 1) * W] for j in range(H)]
assert all(g[j][0] == g[j][32] and g[j][1] == g[j][33] for j in range(H))
assert g[0] == g[16] and g[1] == g[17]
' "$T/samples"
fi
# Any thread count, the same map.
"$CNOISE" map --size 200x100 --threads 1 -o th1.png >/dev/null
"$CNOISE" map --size 200x100 --threads 3 -o th3.png >/dev/null
check "--threads 1 and 3 give the same map" cmp -s th1.png th3.png
run map --size 20x10 --quiet -o q.png
check "--quiet prints nothing" [ "$rc" -eq 0 -a -z "$out" -a -z "$err" -a -s q.png ]

# ---------------------------------------------------------------------------------------------
# Usage errors: exit 2, the option named, nothing created, map.png untouched.
mkdir u && cd u || exit 1
printf 'precious\n' >map.png
before=$(cksum <map.png)
bad() {
    local name=$1 text=$2; shift 2
    run map --size 16x8 "$@"
    expect_err "$name" 2 "$text"
    check "$name: map.png untouched, nothing new" [ "$(cksum <map.png)" = "$before" -a "$(ls -A)" = "map.png" ]
}
bad "--sea-level 1.5" "--sea-level: '1.5' is not a finite number in [-1, 1]" --sea-level 1.5
bad "--sea-level nan" "--sea-level: 'nan'" --sea-level nan
bad "--scale 0" "--scale: '0' is not a finite number greater than 0" --scale 0
bad "--scale -5" "--scale: '-5'" --scale -5
bad "--scale tiny" "--scale: '1e-320' is too small" --scale 1e-320
bad "--frequency 0" "--frequency: '0'" --frequency 0
bad "--frequency huge" "frequency" --frequency 1e300
bad "--octaves 0" "--octaves: '0'" --octaves 0
bad "--octaves 33" "--octaves: '33'" --octaves 33
bad "--gain 0" "--gain: '0'" --gain 0
bad "--lacunarity 0.5" "--lacunarity: '0.5'" --lacunarity 0.5
bad "--noise bogus" "--noise: 'bogus'" --noise bogus
bad "--seed -2^63-1" "--seed: '-9223372036854775809' is out of range" --seed -9223372036854775809
bad "--ramp bogus" "--ramp: 'bogus' is not a preset" --ramp bogus
bad "--ramp bad stop" "--ramp: stop 2" --ramp '0:#000000,1:#fffff'
bad "--light-elevation 0" "--light-elevation: '0'" --light-elevation 0
bad "--light-azimuth nan" "--light-azimuth: 'nan'" --light-azimuth nan
bad "--relief 0" "--relief: '0'" --relief 0
bad "--size 0x8" "--size: '0x8'" --size 0x8
bad "--size too big" "--size: '2000000x1'" --size 2000000x1
bad "--threads 300" "--threads: '300'" --threads 300
bad "--tile with a size that does not tile" "--tile: along x, 100 pixels" --tile --size 100x64
bad "--tile with a fractional lacunarity" "lacunarity" --tile --lacunarity 2.5 --size 512x256
bad "a render option" "unknown option '--fractal'" --fractal ridged
bad "a stray argument" "unexpected argument 'out.png'" out.png
bad "empty output" "--output: the file name is empty" -o ''
cd "$T" || exit 1

# ---------------------------------------------------------------------------------------------
# Runtime failures: exit 1, no partial file, existing file untouched.
mkdir f && cd f || exit 1
printf 'precious\n' >map.png
before=$(cksum <map.png)
run map --size 16x8 -o missing/map.png
expect_err "missing directory" 1 "missing/map.png"
run map --size 16x8 -o /dev/null
expect_err "special file" 1 "/dev/null" "not a regular file"
( trap '' XFSZ; ulimit -f 16; exec "$CNOISE" map --size 1024x1024 ) >"$T/stdout" 2>"$T/stderr"
rc=$?; out=$(cat "$T/stdout"); err=$(cat "$T/stderr")
expect_err "write failure part way" 1 "map.png"
check "write failure: no success line" [ -z "$out" ]
check "write failure keeps map.png" [ "$(cksum <map.png)" = "$before" ]
check "no temporary file after failures" no_temp_files .
# (the named temporary file of the test hook CNOISE_TEST_NAMED_TEMP, which exists to be removed)
CNOISE_TEST_NAMED_TEMP=1 env --default-signal=HUP,INT,TERM "$CNOISE" map --size 16384x16384 >/dev/null 2>&1 & # even if started under nohup
pid=$!
for _ in $(seq 200); do
    [ -n "$(find . -name 'map.png.tmp.*' -print -quit)" ] && break
    sleep 0.05
done
check "long map created its temporary file" [ -n "$(find . -name 'map.png.tmp.*' -print -quit)" ]
kill -HUP $pid 2>/dev/null
{ wait $pid; } 2>/dev/null
rc=$?
check "SIGHUP ends the map (rc=$rc)" [ "$rc" -eq 129 ]
check "SIGHUP keeps map.png" [ "$(cksum <map.png)" = "$before" ]
check "SIGHUP leaves no temporary file" no_temp_files .
cd "$T" || exit 1

# ---------------------------------------------------------------------------------------------
# Progress only on a terminal.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
    script -qec "'$CNOISE' map --size 256x128 -o tty.png" /dev/null >"$T/tty" 2>&1
    check "progress bar on a terminal" grep -q 'cnoise map \[.*%.*ETA' "$T/tty"
    check "bar erased before the wrote line" grep -q $'\r *\rwrote tty.png (256x128)' "$T/tty"
    "$CNOISE" map --size 256x128 -o pipe.png 2>&1 | cat >"$T/pipe"
    check "no bar in a pipe" [ "$(cat "$T/pipe")" = "wrote pipe.png (256x128)" ]
else
    note "script(1) not usable: terminal progress checks skipped"
fi

t_end
