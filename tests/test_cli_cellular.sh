#!/usr/bin/env bash
# test_cli_cellular.sh -- cellular noise from the command line: the options reach the library
# (values worked out by hand at points where the answer is exact), --tile repeats exactly, a
# --layer takes the cellular keys, and bad values are refused with the option's name.
#
# Usage: bash tests/test_cli_cellular.sh path/to/cnoise
# Run by ctest as test_cli_cellular. Needs bash, coreutils, cmp and awk.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
cd "$T" || exit 1

# value NAME WANT POINT OPTIONS...: "cnoise sample OPTIONS" at POINT prints WANT (to 1e-12).
value() {
    local name=$1 want=$2 point=$3; shift 3
    local got
    got=$(printf '%s\n' "$point" | "$CNOISE" sample --noise cellular --frequency 1 "$@" 2>&1)
    if awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(g != "" && d < 1e-12 && d > -1e-12) }'; then
        pass
    else
        fail "$name: printed '$got', want $want"
    fi
}

# Jitter 0 puts every feature point at its cell's centre: at (0.25, 0.25) F1 is the distance to
# (0.5, 0.5) and F2 the distance to (-0.5, 0.5) or (0.5, -0.5); the bounds (cnoise.h, docs/RANGE.md)
# at jitter 0 are F1max = N(1/2, 1/2) and F2max = max(N(1, 0), F1max).
value "F1 euclidean, jitter 0"       0                    "0.25 0.25" --jitter 0
value "F1 chebyshev, jitter 0"       0                    "0.25 0.25" --jitter 0 --cellular-distance chebyshev
value "F1 manhattan, jitter 0"       0                    "0.25 0.25" --jitter 0 --cellular-distance manhattan
value "F1 euclidean-squared"         -0.5                 "0.25 0.25" --jitter 0 --cellular-distance euclidean-squared
value "F1 minkowski (p 1.5)"          0                    "0.25 0.25" --jitter 0 --cellular-distance minkowski
value "F1 minkowski, p 3"             0                    "0.25 0.25" --jitter 0 --cellular-distance minkowski --minkowski-p 3
# F2 with p 3: N(3/4, 1/4) = (27/64 + 1/64)^(1/3), over F2max = max(N(1, 0), F1max) = 1.
value "F2 minkowski, p 3"             0.5182944859378313   "0.25 0.25" --jitter 0 --cellular-distance minkowski --minkowski-p 3 --cellular-return f2
value "F1 at a feature point"        -1                   "2.5 -7.5" --jitter 0
value "F1 at a cell corner"          1                    "3 4" --jitter 0
# F2 at (0.25, 0.25): sqrt(0.75^2 + 0.25^2) = 0.79056941504209488, F2max = 1: 2 F2 - 1.
value "F2 euclidean, jitter 0"       0.58113883008418976  "0.25 0.25" --jitter 0 --cellular-return f2
# F2 - F1 with the same F2max: 2 (0.79056941504209488 - 0.35355339059327379) - 1.
value "F2 - F1, jitter 0"            -0.12596795110235782 "0.25 0.25" --jitter 0 --cellular-return f2-f1
# The edge: with jitter 0 the cells are the squares themselves, so at (0.25, 0.25) the nearest
# edge is 0.25 away (x = 0 or y = 0), and Emax = (F1max + F2max) / 2 = (sqrt(1/2) + 1) / 2:
# 2 * 0.25 / Emax = 1 / (sqrt(1/2) + 1) = 2 - sqrt(2), so the value is 1 - sqrt(2). On an edge: -1.
value "edge, jitter 0"               -0.41421356237309503 "0.25 0.25" --jitter 0 --cellular-return edge
value "edge on a cell's edge"        -1                   "3 0.6" --jitter 0 --cellular-return edge
# Manhattan: F1 = 0.5, F2 = 1 (0.75 + 0.25), F1max = 1, F2max = 1: 2 F1 F2 / (F1max F2max) - 1 = 0
# and 2 (F1 + F2) / (F1max + F2max) - 1 = 0.5.
value "F1 * F2 manhattan"            0                    "0.25 0.25" --jitter 0 --cellular-distance manhattan --cellular-return 'f1*f2'
value "F1 + F2 manhattan"            0.5                    "0.25 0.25" --jitter 0 --cellular-distance manhattan --cellular-return f1+f2

# The cell value is constant inside a cell's region and within (-1, 1); jitter 0: the regions are
# the cells themselves.
a=$(printf '0.1 0.1\n0.9 0.2\n0.5 0.99\n' | "$CNOISE" sample --noise cellular --frequency 1 --jitter 0 --cellular-return cell-value)
check "cell value constant in a cell" [ "$(printf '%s\n' "$a" | sort -u | wc -l)" -eq 1 ]
b=$(printf '1.5 0.5\n' | "$CNOISE" sample --noise cellular --frequency 1 --jitter 0 --cellular-return cell-value)
check "cell values differ between cells" [ "$(printf '%s\n' "$a" | head -1)" != "$b" ]

# --tile repeats exactly: the tile equals itself shifted by one period (4 cells) along x and y.
for ret in f1 f2-f1 cell-value edge; do
    "$CNOISE" render --noise cellular --cellular-return "$ret" --frequency 0.0625 --size 64x64 --tile --format f32 \
        -o a.f32 >/dev/null 2>&1
    "$CNOISE" render --noise cellular --cellular-return "$ret" --frequency 0.0625 --size 64x64 --tile --format f32 \
        --offset 4,-8 -o b.f32 >/dev/null 2>&1
    check "--tile cellular $ret: exists" [ -s a.f32 ]
    check "--tile cellular $ret repeats exactly" cmp -s a.f32 b.f32
done
# ... and a periodic render twice as wide is the tile twice, row by row.
"$CNOISE" render --noise cellular --frequency 0.0625 --size 128x4 --period 4,1 --format f32 -o w.f32 >/dev/null 2>&1
"$CNOISE" render --noise cellular --frequency 0.0625 --size 64x4 --period 4,1 --format f32 -o t.f32 >/dev/null 2>&1
rows_ok=1
for j in 0 1 2 3; do
    for half in 0 1; do
        cmp -s <(dd if=w.f32 bs=256 skip=$((2 * j + half)) count=1 2>/dev/null) \
               <(dd if=t.f32 bs=256 skip=$j count=1 2>/dev/null) || rows_ok=0
    done
done
check "a double-width periodic render is the tile twice" [ "$rows_ok" -eq 1 ]

# A --layer with the cellular keys: the same as the options on the main layer.
p='0.3 0.7'
x=$(printf '%s\n' "$p" | "$CNOISE" sample --noise cellular --jitter 0.4 --cellular-distance manhattan --cellular-return f2 --weight 0 \
    --layer 'noise=cellular; jitter=0.4; cellular-distance=manhattan; cellular-return=f2; weight=1')
y=$(printf '%s\n' "$p" | "$CNOISE" sample --noise cellular --jitter 0.4 --cellular-distance manhattan --cellular-return f2)
check "--layer cellular keys ($x vs $y)" [ -n "$x" -a "$x" = "$y" ]

# Bad values: exit status 2 and the option's name.
refuse() {
    local name=$1 want=$2; shift 2
    "$CNOISE" sample --noise cellular "$@" </dev/null >out 2>err
    local rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" err; then pass; else fail "$name: status $rc, stderr: $(head -c 300 err)"; fi
}
refuse "jitter above 1" "--jitter: '1.5' is not a finite number in [0, 1]" --jitter 1.5
refuse "jitter NaN" "--jitter" --jitter nan
refuse "unknown distance" "--cellular-distance: 'taxicab' is not one of euclidean, euclidean-squared, manhattan, chebyshev, minkowski" \
    --cellular-distance taxicab
refuse "unknown return" "--cellular-return: 'F1' is not one of f1, f2, f2-f1, f1+f2, f1*f2, cell-value, edge" --cellular-return F1
refuse "edge without the Euclidean distance" "the edge distance is Euclidean: it needs cell distance euclidean, not manhattan" \
    --cellular-return edge --cellular-distance manhattan
refuse "1D cellular" "cellular noise needs 2 to 4 dimensions" --dims 1
refuse "bad layer jitter" "--layer 1: jitter" --layer 'jitter=-1'
refuse "minkowski-p below 1" "--minkowski-p: '0.5' is not a finite number in [1, 32]" --minkowski-p 0.5 --cellular-distance minkowski
refuse "minkowski-p above 32" "--minkowski-p: '33' is not a finite number in [1, 32]" --minkowski-p 33
refuse "bad layer minkowski-p" "--layer 1: minkowski-p" --layer 'minkowski-p=inf'

t_end
