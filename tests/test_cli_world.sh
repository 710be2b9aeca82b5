#!/usr/bin/env bash
# test_cli_world.sh -- placing renders in a larger world: seeds as engines write them (negative,
# hexadecimal), chunks placed with --origin that equal the same pixels of one large render
# (render, map, volume), and --tile on the engine sizes 2^n + 1.
#
# Usage: bash tests/test_cli_world.sh path/to/cnoise
# Run by ctest as test_cli_world. Prints one line per failure, notes for skipped parts, and ends
# with "test_cli_world: N passed, M failed"; exits 1 if anything failed.
# Needs bash, coreutils; python3 with numpy for the pixel comparisons (skipped without it).

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
cd "$T" || exit 1
PY=$(numpy_python) || PY=

if [ -z "$PY" ]; then skip "python3 with numpy not found: pixel comparisons skipped"; fi

# ---------------------------------------------------------------------------------------------
# Seeds: decimal, hexadecimal, negative (two's complement of the signed 64-bit number).
sample_at() { # SEED: the noise at (0.5, 0.25) with that seed, into $out
    feed '0.5 0.25\n' sample --seed "$1"
}
sample_at 18446744073709551615; max=$out
sample_at 0xffffffffffffffff
check "--seed 0xffffffffffffffff is 2^64-1" [ "$rc" -eq 0 ] && check "hex seed value" [ "$out" = "$max" ]
sample_at -1
check "--seed -1 is 2^64-1" [ "$rc" -eq 0 ] && check "negative seed value" [ "$out" = "$max" ]
sample_at 9223372036854775808; min=$out
for s in -9223372036854775808 -0x8000000000000000 0x8000000000000000; do
    sample_at "$s"
    check "--seed $s is 2^63" [ "$rc" -eq 0 ] && check "--seed $s value" [ "$out" = "$min" ]
done
sample_at 171; dec=$out
for s in 0xab 0XAB 0x00000000000000aB; do
    sample_at "$s"
    check "--seed $s is 171" [ "$rc" -eq 0 ] && check "--seed $s value" [ "$out" = "$dec" ]
done
sample_at 0; zero=$out
sample_at -0
check "--seed -0 is 0" [ "$out" = "$zero" ]
check "seeds differ" [ "$dec" != "$zero" ]
for s in -9223372036854775809 18446744073709551616 0x10000000000000000 -0x8000000000000001; do
    sample_at "$s"
    expect_err "--seed $s out of range" 2 "--seed" "out of range"
done
for s in +1 0x "" - 1.5 0x1g ' 1' 1e3 --1; do
    sample_at "$s"
    expect_err "--seed '$s' refused" 2 "--seed" "is not a whole number"
done
# the same rule in a --layer and in render
run render --size 8x8 --format f32 -o a.f32 --seed -1 --layer 'seed=-2; weight=0.5' --quiet
check "render --seed -1 with a layer seed=-2" [ "$rc" -eq 0 ]
run render --size 8x8 --format f32 -o b.f32 --seed 0xffffffffffffffff --layer 'seed=18446744073709551614; weight=0.5' --quiet
check "render: negative seeds equal their unsigned spelling" cmp -s a.f32 b.f32

# ---------------------------------------------------------------------------------------------
# --origin: four 513x513 chunks sharing their edges equal a 1025x1025 render.

opts=(--fractal fbm --octaves 5 --frequency 0.01)
run render "${opts[@]}" --size 1025x1025 --format f32 -o big.f32 --quiet
check "render the 1025x1025 world" [ "$rc" -eq 0 ]
for i in 0 1; do
    for j in 0 1; do
        run render "${opts[@]}" --size 513x513 --origin $((i * 512)),$((j * 512)) --format f32 -o "c$i$j.f32" --quiet
        check "render chunk ($i, $j)" [ "$rc" -eq 0 ]
    done
done
pycheck "four 513x513 chunks equal the 1025x1025 render" '
b = np.fromfile("big.f32", "<f4").reshape(1025, 1025)
for i in (0, 1):
    for j in (0, 1):
        c = np.fromfile("c%d%d.f32" % (i, j), "<f4").reshape(513, 513)
        assert np.array_equal(c, b[j * 512:j * 512 + 513, i * 512:i * 512 + 513]), (i, j)
'
# negative origins and shading: a chunk left of and above the origin, against a render that
# covers it (its gradients use the neighbours beyond the chunk, which the big render has too)
run render "${opts[@]}" --size 40x30 --origin -20,-10 --shade -o shade_big.png --quiet
run render "${opts[@]}" --size 15x12 --origin -7,-4 --shade -o shade_chunk.png --quiet
check "render a shaded chunk" [ "$rc" -eq 0 ]
pycheck "a shaded chunk at a negative origin equals its pixels of a larger shaded render" '
from pngread import read_png
def gray(p):
    w, h, depth, ct, rows = read_png(p)
    return np.array(rows, dtype=np.int64).reshape(h, w)
b, c = gray("shade_big.png"), gray("shade_chunk.png")
assert np.array_equal(c, b[6:18, 13:28])
'
# map (colours, hillshade) and volume bricks
run map --size 64x48 -o map_big.png --quiet
run map --size 32x16 --origin 16,24 -o map_chunk.png --quiet
check "map chunk" [ "$rc" -eq 0 ]
pycheck "a map chunk equals its pixels of the larger map" '
from pngread import read_png
def rgb(p):
    w, h, depth, ct, rows = read_png(p)
    return np.array(rows, dtype=np.int64).reshape(h, w, 3)
assert np.array_equal(rgb("map_chunk.png"), rgb("map_big.png")[24:40, 16:48])
'
run volume --size 12x10x8 -o vol_big.npy --quiet
run volume --size 5x4x3 --origin 6,5,4 -o vol_brick.npy --quiet
check "volume brick" [ "$rc" -eq 0 ]
pycheck "a volume brick equals its voxels of the larger volume" '
b, c = np.load("vol_big.npy"), np.load("vol_brick.npy")
assert np.array_equal(c, b[4:7, 5:9, 6:11])
'
# far from zero: a chunk at 2^40 pixels equals the same pixels of a render there
run render --size 16x8 --origin 1099511627776,-1099511627776 --format f32 -o far_big.f32 --quiet
run render --size 8x4 --origin 1099511627780,-1099511627774 --format f32 -o far_chunk.f32 --quiet
check "far chunk" [ "$rc" -eq 0 ]
pycheck "a chunk at 2^40 pixels equals its pixels of a larger render there" '
b = np.fromfile("far_big.f32", "<f4").reshape(8, 16)
c = np.fromfile("far_chunk.f32", "<f4").reshape(4, 8)
assert np.array_equal(c, b[2:6, 4:12])
assert np.isfinite(c).all() and np.ptp(c) > 0
'
for bad in 1 1,2,3 1.5,2 1,2.0 x,1 ',' '1,' ',1' 281474976710657,0 0,-281474976710657 '1 ,2' 0x10,1; do
    run render --size 4x4 --origin "$bad" -o bad.png
    expect_err "--origin '$bad' refused" 2 "--origin" "whole numbers"
done
check "no file from a refused --origin" [ ! -e bad.png ]
run volume --size 4x4x4 --origin 1,2 -o bad.npy
expect_err "volume --origin needs X,Y,Z" 2 "--origin" "3 whole numbers X,Y,Z"
run render --size 4x4 --origin 281474976710656,-281474976710656 --frequency 1e300 -o bad.png
expect_err "a huge origin times the frequency overflows" 2 "--frequency" "too large"

# ---------------------------------------------------------------------------------------------
# --tile on 2^n + 1 sides: the last row and column equal the first, and the tile repeats every
# 2^n pixels (a render placed one period further along equals it).
run render --tile --size 513x257 --format f32 -o tile.f32 --quiet
check "--tile 513x257" [ "$rc" -eq 0 ]
run render --tile --size 513x257 --origin 512,256 --format f32 -o tile_next.f32 --quiet
run render --tile --size 513x257 --origin -512,0 --format f32 -o tile_prev.f32 --quiet
pycheck "a 2^n+1 tile shares its edges and repeats every 2^n pixels" '
t = np.fromfile("tile.f32", "<f4").reshape(257, 513)
assert np.array_equal(t[0], t[256]) and np.array_equal(t[:, 0], t[:, 512])
assert not np.array_equal(t[0], t[1])
for f in ("tile_next.f32", "tile_prev.f32"):
    assert np.array_equal(np.fromfile(f, "<f4").reshape(257, 513), t), f
'
run render --tile --size 512x512 --format f32 -o tile512.f32 --quiet
run render --tile --size 512x512 --origin 512,0 --format f32 -o tile512_next.f32 --quiet
check "a 2^n tile still repeats every 2^n pixels" cmp -s tile512.f32 tile512_next.f32
run map --tile --size 129x65 --frequency 0.03125 -o map_tile.png --quiet
check "map --tile 129x65" [ "$rc" -eq 0 ]
pycheck "a 2^n+1 map tile shares its edges" '
from pngread import read_png
w, h, depth, ct, rows = read_png("map_tile.png")
m = np.array(rows, dtype=np.int64).reshape(h, w, 3)
assert np.array_equal(m[0], m[64]) and np.array_equal(m[:, 0], m[:, 128])
'
run render --tile --size 513x513 --frequency 0.01 -o bad.png
expect_err "--tile 513 at frequency 0.01 names the 512 pixels" 2 "--tile" "512 pixels"

t_end
