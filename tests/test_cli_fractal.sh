#!/usr/bin/env bash
# test_cli_fractal.sh -- shell tests of the fractal, domain, signal, layer and tiling options of
# "cnoise sample" and "cnoise render".
#
# Usage: bash tests/test_cli_fractal.sh path/to/cnoise
# Run by ctest as test_cli_fractal. Prints one line per failure, notes for skipped checks, and
# ends with "test_cli_fractal: N passed, M failed"; exits 1 if anything failed.
# Needs bash, coreutils and awk; python3 (no extra modules) enables the PNG checks, which are
# skipped with a note without it.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
cd "$T" || exit 1

# close A B [REL]: the numbers (one per line) in A and B agree within REL relative (default 1e-15,
# measured against max(|a|, |b|, 1e-300)), and both have the same, nonzero, count.
close() {
    awk -v a="$1" -v b="$2" -v rel="${3:-1e-15}" 'BEGIN {
        n = split(a, x, "\n"); m = split(b, y, "\n"); if (n != m || n == 0) exit 1
        for (i = 1; i <= n; i++) {
            if (x[i] == "" || y[i] == "") exit 1
            d = x[i] - y[i]; if (d < 0) d = -d
            s = x[i] < 0 ? -x[i] : x[i]; t = y[i] < 0 ? -y[i] : y[i]; if (t > s) s = t; if (s < 1e-300) s = 1e-300
            if (d > rel * s) exit 1
        }
    }'
}

# lines TEXT: the number of lines in TEXT.
lines() { printf '%s\n' "$1" | wc -l; }

PTS2='0.375,1.625\n-2.875,0.5\n3.3125,-7.75\n10.0625,2.25\n'
PTS3='0.375,1.625,2.125\n-2.875,0.5,-1.25\n3.3125,-7.75,0.0625\n'

# ---------------------------------------------------------------------------------------------
# --help: every new option is documented in both commands
# ---------------------------------------------------------------------------------------------
for cmd in sample render; do
    run $cmd --help
    check "$cmd --help exits 0" [ "$rc" -eq 0 ]
    for opt in --fractal --octaves --lacunarity --gain --ridge-offset --ridge-gain --period --offset \
               --axis-frequency --rotate --amplitude --bias --weight --layer turbulence billow ridged \
               pingpong --weighted-strength --pingpong-strength \
               16777216 "--layer 'frequency=4; amplitude=0.5; offset=10.5,3; weight=0.25'" \
               "even in 2D, multiples of 3 in 3D and multiples of 4 in 4D" "16 layers at most"; do
        check "$cmd --help mentions '$opt'" grep -q -- "$opt" "$T/stdout"
    done
done
run render --help
for text in --tile clamped 'round((v + 1) / 2 * 255)' '[0, 1] for turbulence and ridged' 'gray 128'; do
    check "render --help mentions '$text'" grep -q -F -- "$text" "$T/stdout"
done
run sample --help
check "sample --help says where dimension checks happen" grep -q 'checked there and reported as a bad input line' "$T/stdout"

# ---------------------------------------------------------------------------------------------
# Bad values: exit 2, the option named, for both commands (render writes no file)
# ---------------------------------------------------------------------------------------------
mkdir "$T/bad" && cd "$T/bad" || exit 1
# Each case: option|value|text the message must contain
bad_cases=(
    "--fractal|foo|--fractal: 'foo' is not one of none, fbm, turbulence, billow, ridged"
    "--fractal||--fractal: ''"
    "--fractal|FBM|--fractal: 'FBM'"
    "--octaves|0|--octaves: '0' is not a whole number in 1..32"
    "--octaves|33|--octaves: '33' is not a whole number in 1..32"
    "--octaves|-1|--octaves: '-1'"
    "--octaves|2.5|--octaves: '2.5'"
    "--octaves|nan|--octaves: 'nan'"
    "--lacunarity|0.5|--lacunarity: '0.5' is not a finite number in [1, 64]"
    "--lacunarity|65|--lacunarity: '65' is not a finite number in [1, 64]"
    "--lacunarity|nan|--lacunarity: 'nan'"
    "--lacunarity|inf|--lacunarity: 'inf'"
    "--lacunarity|-2|--lacunarity: '-2'"
    "--lacunarity|0|--lacunarity: '0'"
    "--gain|0|--gain: '0' is not a finite number in (0, 4]"
    "--gain|5|--gain: '5' is not a finite number in (0, 4]"
    "--gain|-0.5|--gain: '-0.5'"
    "--gain|nan|--gain: 'nan'"
    "--gain|inf|--gain: 'inf'"
    "--gain|4.000001|--gain: '4.000001'"
    "--ridge-offset|-0.1|--ridge-offset: '-0.1' is not a finite number in [0, 2]"
    "--ridge-offset|2.1|--ridge-offset: '2.1'"
    "--ridge-offset|nan|--ridge-offset: 'nan'"
    "--ridge-gain|16.5|--ridge-gain: '16.5' is not a finite number in [0, 16]"
    "--ridge-gain|-1|--ridge-gain: '-1'"
    "--ridge-gain|inf|--ridge-gain: 'inf'"
    "--period|16777217|--period: '16777217' is not a whole number in 0..16777216"
    "--period|-4|--period: '-4'"
    "--period|4.5|--period: '4.5'"
    "--period|nan|--period: 'nan'"
    "--period||--period: ''"
    "--period|4,,4|--period: '4,,4': number 2, '', is not a whole number"
    "--period|4,|--period: '4,': number 2"
    "--period|4, 4|--period: '4, 4': number 2, ' 4'"
    "--period|1,2,3,4,5|--period: '1,2,3,4,5' has 5 numbers; at most 4"
    "--period|4,99999999999|--period: '4,99999999999'"
    "--offset|nan|--offset: 'nan' is not a finite number"
    "--offset|inf|--offset: 'inf' is not a finite number"
    "--offset|-inf|--offset: '-inf'"
    "--offset|1e400|--offset: '1e400'"
    "--offset|1,x|--offset: '1,x': number 2, 'x', is not a finite number"
    "--offset|1,2,3,4,5|--offset: '1,2,3,4,5' has 5 numbers"
    "--axis-frequency|0|--axis-frequency: '0' is not a finite number greater than 0"
    "--axis-frequency|-1|--axis-frequency: '-1'"
    "--axis-frequency|1,0|--axis-frequency: '1,0': number 2, '0', is not a finite number greater than 0"
    "--axis-frequency|nan|--axis-frequency: 'nan'"
    "--axis-frequency|inf|--axis-frequency: 'inf'"
    "--axis-frequency|1,1,1,1,1|--axis-frequency: '1,1,1,1,1' has 5 numbers"
    "--rotate|nan|--rotate: 'nan' is not a finite number"
    "--rotate|inf|--rotate: 'inf'"
    "--rotate|1,2|--rotate: '1,2' has 2 numbers; expected 1 (2D: an angle in degrees), 4 (3D"
    "--rotate|1,2,3|--rotate: '1,2,3' has 3 numbers"
    "--rotate|1,2,3,4,5|--rotate: '1,2,3,4,5' has 5 numbers"
    "--rotate|1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1,0|--rotate: '1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1,0' has 17 numbers; at most 16"
    "--rotate|1,0,0,nan|--rotate: '1,0,0,nan': number 4, 'nan'"
    "--amplitude|nan|--amplitude: 'nan' is not a finite number"
    "--amplitude|inf|--amplitude: 'inf'"
    "--amplitude|1e400|--amplitude: '1e400'"
    "--amplitude|x|--amplitude: 'x'"
    "--bias|nan|--bias: 'nan' is not a finite number"
    "--bias|-inf|--bias: '-inf'"
    "--bias||--bias: ''"
    "--weight|nan|--weight: 'nan' is not a finite number"
    "--weight|inf|--weight: 'inf'"
    "--layer|seed=+1|--layer 1: seed: '+1' is not a whole number"
    "--layer|foo=1|--layer 1: unknown key 'foo'"
    "--layer|seed|--layer 1: 'seed' is not key=value"
    "--layer|=3|--layer 1: '=3' is not key=value"
    "--layer|seed=2,frequency=4|--layer 1: seed: '2,frequency=4' contains '=': separate key=value pairs with ';' or spaces"
    "--layer|seed=2:frequency=4|--layer 1: seed: '2:frequency=4' contains '='"
    "--layer|seed=2/frequency=4|--layer 1: seed: '2/frequency=4' contains '='"
    "--layer|octaves=0|--layer 1: octaves: '0' is not a whole number in 1..32"
    "--layer|gain=5|--layer 1: gain: '5' is not a finite number in (0, 4]"
    "--layer|fractal=fbm; lacunarity=0.5|--layer 1: lacunarity: '0.5'"
    "--layer|classic=2|--layer 1: classic: '2' is not 0 or 1"
    "--layer|noise=worley|--layer 1: noise: 'worley' is not one of perlin, simplex, value"
    "--layer|period=16777217|--layer 1: period: '16777217'"
    "--layer|offset=1,nan|--layer 1: offset: '1,nan': number 2, 'nan'"
    "--layer|axis-frequency=0|--layer 1: axis-frequency: '0'"
    "--layer|rotate=1,2|--layer 1: rotate: '1,2' has 2 numbers"
    "--layer|amplitude=inf|--layer 1: amplitude: 'inf'"
    "--layer|bias=nan|--layer 1: bias: 'nan'"
    "--layer|weight=nan|--layer 1: weight: 'nan'"
    "--layer|frequency=0|--layer 1: frequency: '0' is not a finite number greater than 0"
    "--layer|dims=3|--layer 1: 'dims' is not a layer key: --dims applies to all layers"
    "--layer|precision=float|--layer 1: 'precision' is not a layer key"
    "--layer|seed=1 Seed=2|--layer 1: unknown key 'Seed'"
)
for c in "${bad_cases[@]}"; do
    opt=${c%%|*}; rest=${c#*|}; val=${rest%|*}; text=${rest##*|}
    for cmd in sample render; do
        run $cmd "$opt" "$val"
        expect_err "$cmd $opt '$val'" 2 "$text"
    done
done
# The second --layer is named as such.
run sample --layer 'seed=1' --layer 'seed=x'
expect_err "second --layer named" 2 "--layer 2: seed: 'x'"
# At most 15 --layer options (16 layers).
args=(); for k in $(seq 15); do args+=(--layer "seed=$k"); done
feed '0.3,0.7\n' sample "${args[@]}"
check "15 --layer options accepted" [ "$rc" -eq 0 -a "$(lines "$out")" -eq 1 ]
run sample "${args[@]}" --layer 'seed=16'
expect_err "16 --layer options refused" 2 "--layer: at most 15 --layer options (16 layers with the main one)"
# Combinations that hold in every dimension: exit 2 before any input is read.
feed '0.3,0.7\n' sample --period 4 --rotate 30
expect_err "--period with --rotate" 2 "--rotate cannot be combined with --period"
feed '0.3,0.7\n' sample --period 4 --fractal fbm --lacunarity 2.5
expect_err "--period with a fractional lacunarity" 2 "--lacunarity 2.5 is not a whole number" "--fractal none or --octaves 1"
feed '0.3,0.7\n' sample --layer 'period=4; fractal=ridged; lacunarity=1.5'
expect_err "--layer period with a fractional lacunarity" 2 "--layer 1: lacunarity 1.5 is not a whole number"
feed '0.3,0.7\n' sample --period 4 --layer 'rotate=30'
expect_err "--layer rotate with the main period" 2 "--layer 1: rotate cannot be combined with period"
feed '0.3,0.7\n' sample --layer 'noise=value; classic=1'
expect_err "--layer classic value noise" 2 "--layer 1: noise=value classic=1: value noise has no classic mode"
feed '0.3,0.7\n' sample --fractal fbm --octaves 32 --lacunarity 64
expect_err "octave frequency beyond 2^40" 2 "--octaves: the last octave's frequency" "exceeds 2^40"
run render --fractal fbm --octaves 32 --lacunarity 64
expect_err "render: octave frequency beyond 2^40" 2 "--octaves: the last octave's frequency"
check "bad values create no file" [ -z "$(ls -A)" ]

# Options that depend on the dimension: with --dims (or in render) exit 2 before any work.
for cmd in sample render; do
    run $cmd --dims 2 --period 4,4,4
    expect_err "$cmd --dims 2 --period with 3 numbers" 2 "--period: 3 numbers, but the noise is 2D"
    run $cmd --dims 2 --offset 1,2,3
    expect_err "$cmd --dims 2 --offset with 3 numbers" 2 "--offset: 3 numbers, but the noise is 2D"
    run $cmd --dims 3 --axis-frequency 1,2,3,4
    expect_err "$cmd --dims 3 --axis-frequency with 4 numbers" 2 "--axis-frequency: 4 numbers, but the noise is 3D"
    run $cmd --noise simplex --dims 2 --period 3
    expect_err "$cmd simplex 2D period 3" 2 "--period: 3 (axis x) does not suit simplex noise in 2D" "even in 2D"
    run $cmd --noise simplex --dims 2 --period 4,5
    expect_err "$cmd simplex 2D period 4,5" 2 "--period: 5 (axis y)"
    run $cmd --noise simplex --dims 3 --period 4
    expect_err "$cmd simplex 3D period 4" 2 "--period: 4 (axis x) does not suit simplex noise in 3D" "multiples of 3 in 3D"
    run $cmd --noise simplex --dims 4 --period 6
    expect_err "$cmd simplex 4D period 6" 2 "--period: 6 (axis x) does not suit simplex noise in 4D" "multiples of 4 in 4D"
    run $cmd --dims 2 --rotate 1,0,0,90
    expect_err "$cmd 2D with a 3D rotation" 2 "--rotate: 4 numbers, but the noise is 2D: 2D rotations take 1 number, an angle in degrees"
    run $cmd --dims 3 --rotate 30
    expect_err "$cmd 3D with one angle" 2 "--rotate: 1 number, but the noise is 3D: 3D rotations take 4 numbers"
    run $cmd --dims 4 --rotate 0,0,1,30
    expect_err "$cmd 4D with axis and angle" 2 "--rotate: 4 numbers, but the noise is 4D: 4D rotations take 16 numbers"
    run $cmd --dims 1 --rotate 30
    expect_err "$cmd 1D with a rotation" 2 "--rotate: 1D noise has no rotation"
    run $cmd --dims 3 --rotate 0,0,0,30
    expect_err "$cmd 3D rotation about no axis" 2 "--rotate: the axis (0,0,0) has no direction"
    run $cmd --dims 2 --layer 'period=4,4,4'
    expect_err "$cmd --layer period too long" 2 "--layer 1: period: 3 numbers, but the noise is 2D"
    run $cmd --dims 3 --noise simplex --layer 'period=3; noise=perlin' --layer 'period=4'
    expect_err "$cmd second layer simplex period" 2 "--layer 2: period: 4 (axis x) does not suit simplex noise in 3D"
    run $cmd --dims 2 --layer 'rotate=1,0,0,90'
    expect_err "$cmd --layer rotate count" 2 "--layer 1: rotate: 4 numbers, but the noise is 2D"
done
feed '0.3,0.7\n' sample --dims 2 --period 4,4,4
expect_err "sample --dims: checked before reading" 2 "--period: 3 numbers"
cd "$T" || exit 1

# Without --dims, sample checks them at the first data line: exit 1, with the line number.
feed '# comment\n0.3,0.7\n' sample --period 4,4,4
expect_err "inferred 2D, --period with 3 numbers" 1 "line 2: --period: 3 numbers, but the noise is 2D" "(the first data line has 2 coordinates)"
feed '0.3,0.7\n' sample --rotate 1,0,0,90
expect_err "inferred 2D, 3D rotation" 1 "line 1: --rotate: 4 numbers, but the noise is 2D"
feed '0.3,0.7,0.1\n' sample --rotate 30
expect_err "inferred 3D, 2D rotation" 1 "line 1: --rotate: 1 number, but the noise is 3D"
feed '0.3,0.7\n' sample --noise simplex --period 3
expect_err "inferred 2D simplex period 3" 1 "line 1: --period: 3 (axis x) does not suit simplex noise in 2D"
feed '0.3,0.7,0.1\n' sample --noise simplex --period 4
expect_err "inferred 3D simplex period 4" 1 "line 1: --period: 4 (axis x) does not suit simplex noise in 3D"
feed '0.3,0.7,0.1\n' sample --noise simplex --period 6,3,9
check "inferred 3D simplex period 6,3,9 accepted" [ "$rc" -eq 0 -a "$(lines "$out")" -eq 1 ]

# ---------------------------------------------------------------------------------------------
# Good values are accepted in both commands
# ---------------------------------------------------------------------------------------------
good_cases=(
    "--fractal none" "--fractal fbm" "--fractal turbulence" "--fractal billow" "--fractal ridged"
    "--fractal fbm --octaves 1" "--fractal fbm --octaves 32" "--fractal fbm --lacunarity 1"
    "--fractal fbm --lacunarity 2.5 --octaves 3" "--fractal billow --gain 4 --octaves 3"
    "--fractal fbm --gain 0x1p-30" "--fractal ridged --ridge-offset 0 --ridge-gain 0"
    "--fractal ridged --ridge-offset 2 --ridge-gain 16" "--period 0" "--period 16777216"
    "--period 4,8" "--offset 0.5" "--offset -3,2.5" "--axis-frequency 2,0.5" "--axis-frequency 3"
    "--rotate 30" "--rotate -720.5" "--amplitude 2 --bias -1" "--amplitude 0" "--amplitude -1e300"
    "--weight 0.5" "--weight 0" "--layer seed=3" "--layer ''" "--layer ' ;; seed=3 ;frequency=2 '"
    "--layer classic=0" "--layer fractal=ridged;octaves=2;rotate=45;weight=-1"
    "--noise simplex --period 4,6" "--precision float --fractal fbm --amplitude 3 --layer seed=2"
)
for args in "${good_cases[@]}"; do
    eval "set -- $args"
    feed "$PTS2" sample "$@"
    check "sample $args" [ "$rc" -eq 0 -a "$(lines "$out")" -eq 4 -a -z "$err" ]
    run render --size 16x8 -o good.png "$@"
    check "render $args" [ "$rc" -eq 0 -a "$out" = "wrote good.png (16x8)" -a -z "$err" ]
done
for args in "--dims 3 --rotate 0,0,1,45" "--dims 3 --rotate 1e300,2e300,0,45" \
            "--dims 4 --rotate 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1" "--dims 3 --noise simplex --period 3,6,9" \
            "--dims 4 --noise simplex --period 4,8,12,16" "--dims 3 --offset 1,2,3 --axis-frequency 1,2,3"; do
    # shellcheck disable=SC2086
    run render --size 16x8 -o good.png $args
    check "render $args" [ "$rc" -eq 0 -a "$out" = "wrote good.png (16x8)" ]
done

# ---------------------------------------------------------------------------------------------
# Semantics in sample
# ---------------------------------------------------------------------------------------------
# Fractal: values in the documented ranges; fbm differs from the plain noise; one octave of fbm
# is the plain noise.
awk 'BEGIN { for (i = 0; i < 200; i++) printf "%.6f %.6f\n", i * 0.731 - 70, i * 0.377 + 3 }' >"$T/many"
for f in fbm billow turbulence ridged; do
    IN=$T/many run sample --fractal $f
    lo=-1; case $f in turbulence | ridged) lo=0 ;; esac
    check "$f: 200 values in [$lo, 1]" awk -v lo=$lo 'NF { n++; if ($1 < lo || $1 > 1) bad = 1 } END { exit bad || n != 200 }' "$T/stdout"
    check "$f: values vary" [ "$(sort -u "$T/stdout" | wc -l)" -gt 150 ]
done
IN=$T/many run sample --fractal turbulence
check "turbulence has no negative value" [ "$rc" -eq 0 ] && ! grep -q '^-' "$T/stdout"
feed "$PTS2" sample
plain=$out
feed "$PTS2" sample --fractal fbm
check "fbm differs from plain noise" [ -n "$out" -a "$out" != "$plain" ]
feed "$PTS2" sample --fractal fbm --octaves 1
check "fbm with one octave equals plain noise" close "$out" "$plain"
feed "$PTS2" sample --fractal fbm --octaves 3 --gain 0.7
g7=$out
feed "$PTS2" sample --fractal fbm --octaves 3 --gain 0.5
check "--gain changes fbm" [ -n "$g7" -a "$g7" != "$out" ]
feed "$PTS2" sample --fractal fbm --octaves 3 --lacunarity 3
check "--lacunarity changes fbm" [ -n "$out" -a "$g7" != "$out" ]
feed "$PTS2" sample --fractal ridged --ridge-offset 0.8
r8=$out
feed "$PTS2" sample --fractal ridged
check "--ridge-offset changes ridged" [ -n "$r8" -a "$r8" != "$out" ]
feed "$PTS2" sample --fractal ridged --ridge-gain 0.5
check "--ridge-gain changes ridged" [ -n "$out" -a "$r8" != "$out" ]

# Periodicity: with --period 4,4 the value at (x, y) equals the one at (x + 4, y), (x, y + 4)
# and (x - 8, y + 12), as exact strings.
base='0.375 1.625\n-2.875 0.5\n3.3125 -7.75\n1.0625 2.90625\n'
sx='4.375 1.625\n1.125 0.5\n7.3125 -7.75\n5.0625 2.90625\n'
sy='0.375 5.625\n-2.875 4.5\n3.3125 -3.75\n1.0625 6.90625\n'
sxy='-7.625 13.625\n-10.875 12.5\n-4.6875 4.25\n-6.9375 14.90625\n'
for args in "--noise perlin" "--noise simplex" "--noise value" "--noise perlin --fractal fbm" \
            "--noise simplex --fractal fbm" "--noise value --fractal fbm" "--noise perlin --fractal ridged --octaves 3" \
            "--noise simplex --seed 77 --fractal billow --lacunarity 3" "--noise perlin --offset 0.25,-1.75 --fractal turbulence" \
            "--noise perlin --precision float" "--classic" "--classic --noise simplex"; do
    # shellcheck disable=SC2086
    { feed "$base" sample --period 4,4 $args; v0=$out; }
    # shellcheck disable=SC2086
    { feed "$sx" sample --period 4,4 $args; v1=$out; }
    # shellcheck disable=SC2086
    { feed "$sy" sample --period 4,4 $args; v2=$out; }
    # shellcheck disable=SC2086
    { feed "$sxy" sample --period 4,4 $args; v3=$out; }
    check "period 4,4 ($args): x + 4" [ "$(lines "$v0")" -eq 4 -a "$v0" = "$v1" ]
    check "period 4,4 ($args): y + 4" [ "$v0" = "$v2" ]
    check "period 4,4 ($args): x - 8, y + 12" [ "$v0" = "$v3" ]
    # shellcheck disable=SC2086
    { feed "$base" sample $args; a0=$out; }
    # shellcheck disable=SC2086
    { feed "$sx" sample $args; a1=$out; }
    check "without --period ($args) the values differ" [ -n "$a0" -a "$a0" != "$a1" ]
done
# Only the given axes repeat; the period is in lattice cells, so frequency 0.5 doubles it in units.
feed '0.375 1.625\n' sample --period 4
p0=$out
feed '4.375 1.625\n0.375 5.625\n' sample --period 4
check "--period 4 repeats along x only" [ "$(printf '%s\n' "$out" | head -1)" = "$p0" -a "$(printf '%s\n' "$out" | tail -1)" != "$p0" ]
feed '0.375 1.625\n8.375 1.625\n4.375 1.625\n' sample --period 4 --frequency 0.5
{ read -r f0; read -r f1; read -r f2; } <<<"$out"
check "--period 4 at frequency 0.5 repeats after 8 units" [ -n "$f0" -a "$f0" = "$f1" -a "$f0" != "$f2" ]
feed '0.375 1.625 2.25\n6.375 -4.375 11.25\n' sample --noise simplex --period 6,6,9 --fractal fbm --octaves 2
{ read -r f0; read -r f1; } <<<"$out"
check "3D simplex period 6,6,9" [ -n "$f0" -a "$f0" = "$f1" ]
feed '0.375 1.625 2.25 0.75\n8.375 1.625 -9.75 4.75\n' sample --noise simplex --period 8,4,12,4
{ read -r f0; read -r f1; } <<<"$out"
check "4D simplex period 8,4,12,4" [ -n "$f0" -a "$f0" = "$f1" ]

# --offset: the value at x with --offset d equals the value at x + d without (frequency 1,
# dyadic coordinates and offsets, so every sum is exact).
for noise in perlin simplex value; do
    feed '0.375 1.625\n-2.875 0.5\n3.3125 -7.75\n' sample --noise $noise --offset 0.5
    o1=$out
    feed '0.875 1.625\n-2.375 0.5\n3.8125 -7.75\n' sample --noise $noise
    check "--offset 0.5 equals x + 0.5 ($noise)" [ "$(lines "$o1")" -eq 3 -a "$o1" = "$out" ]
    feed '0.375 1.625 2.125\n-2.875 0.5 -1.25\n' sample --noise $noise --offset 0.5,-1.25,3 --fractal fbm
    o1=$out
    feed '0.875 0.375 5.125\n-2.375 -0.75 1.75\n' sample --noise $noise --fractal fbm
    check "--offset 0.5,-1.25,3 equals the shifted point ($noise, fbm)" [ "$(lines "$o1")" -eq 2 -a "$o1" = "$out" ]
done
feed '0.375 1.625\n' sample --offset 0.5 --frequency 2
o1=$out
feed '1.25 3.25\n' sample
check "--offset is in cells, added after the frequency" [ -n "$o1" -a "$o1" = "$out" ]

# --axis-frequency multiplies --frequency per axis (powers of two: exact).
feed '0.375 1.625\n-2.875 0.5\n' sample --axis-frequency 2
a1=$out
feed '0.75 1.625\n-5.75 0.5\n' sample
check "--axis-frequency 2 scales x only" [ "$(lines "$a1")" -eq 2 -a "$a1" = "$out" ]
feed '0.375 1.625 2.125\n' sample --frequency 0.5 --axis-frequency 4,2,0.25
a1=$out
feed '0.75 1.625 0.265625\n' sample
check "--frequency 0.5 --axis-frequency 4,2,0.25" [ -n "$a1" -a "$a1" = "$out" ]

# --rotate: 2D by 90 degrees maps (x, y) to (-y, x); 3D about z likewise; a 4D permutation
# matrix swaps coordinates exactly; 360 degrees is (nearly) the identity.
feed '0.375 1.625\n-2.875 0.5\n3.3125 -7.75\n' sample --rotate 90
r1=$out
feed '-1.625 0.375\n-0.5 -2.875\n7.75 3.3125\n' sample
check "--rotate 90 in 2D" close "$r1" "$out" 1e-9
check "--rotate 90 is not the identity" [ "$r1" != "$(printf '%b' '0.375 1.625\n-2.875 0.5\n3.3125 -7.75\n' | "$CNOISE" sample)" ]
feed '0.375 1.625\n-2.875 0.5\n' sample --rotate 360
r1=$out
feed '0.375 1.625\n-2.875 0.5\n' sample
check "--rotate 360 in 2D" close "$r1" "$out" 1e-9
feed '0.375 1.625 2.25\n-2.875 0.5 1.5\n' sample --rotate 0,0,1,90
r1=$out
feed '-1.625 0.375 2.25\n-0.5 -2.875 1.5\n' sample
check "--rotate 0,0,1,90 in 3D" close "$r1" "$out" 1e-9
feed '0.375 1.625 2.25\n' sample --rotate 0,0,7,90
r2=$out
check "--rotate normalises the axis" close "$r2" "$(printf '%s\n' "$r1" | head -1)" 1e-12
feed '0.375 1.625 2.25\n-2.875 0.5 1.5\n' sample --rotate 1,0,0,-90
r1=$out
feed '0.375 2.25 -1.625\n-2.875 1.5 -0.5\n' sample
check "--rotate 1,0,0,-90 in 3D" close "$r1" "$out" 1e-9
feed '0.375 1.625 2.25 -0.5\n-2.875 0.5 1.5 7.125\n' sample --rotate 0,1,0,0,1,0,0,0,0,0,0,1,0,0,1,0
r1=$out
feed '1.625 0.375 -0.5 2.25\n0.5 -2.875 7.125 1.5\n' sample
check "--rotate with a 4D permutation matrix is exact" [ "$(lines "$r1")" -eq 2 -a "$r1" = "$out" ]
feed '0.375 1.625\n' sample --rotate 90 --frequency 2 --offset 0.25,0
r1=$out
feed '-3.0 0.75\n' sample
check "rotation after the frequency, offset after the rotation" close "$r1" "$out" 1e-9

# --amplitude / --bias: A * v + B, for plain and fractal noise, both precisions.
for args in "--noise perlin" "--noise simplex --fractal fbm" "--noise value --fractal turbulence" "--fractal ridged"; do
    for ab in "2 0.5" "-0.75 -3" "1e-3 100" "0 0.25"; do
        set -- $ab
        # shellcheck disable=SC2086
        { feed "$PTS3" sample $args; v=$out; }
        # shellcheck disable=SC2086
        { feed "$PTS3" sample $args --amplitude "$1" --bias "$2"; s=$out; }
        want=$(awk -v A="$1" -v B="$2" '{ printf "%.17g\n", A * $1 + B }' <<<"$v")
        check "--amplitude $1 --bias $2 ($args)" close "$s" "$want"
    done
done
feed "$PTS3" sample --precision float --fractal fbm
v=$out
feed "$PTS3" sample --precision float --fractal fbm --amplitude 2 --bias 0.5
want=$(awk '{ printf "%.17g\n", 2 * $1 + 0.5 }' <<<"$v")
check "--amplitude/--bias in float precision" close "$out" "$want" 1e-6

# --layer: weights and copies of the main options.
feed "$PTS2" sample --fractal fbm
plain=$out
feed "$PTS2" sample --fractal fbm --weight 0.5 --layer 'weight=0.5'
check "two identical half-weight layers equal the plain value" close "$out" "$plain"
feed "$PTS2" sample --fractal fbm --layer 'weight=0'
check "a layer of weight 0 changes nothing" close "$out" "$plain"
feed "$PTS2" sample --fractal fbm --weight 3
want=$(awk '{ printf "%.17g\n", 3 * $1 }' <<<"$plain")
check "--weight 3 triples the value" close "$out" "$want"
feed "$PTS2" sample --seed 7 --frequency 2 --noise simplex --fractal billow
other=$out
feed "$PTS2" sample --fractal fbm --layer 'seed=7; frequency=2 noise=simplex;fractal=billow; weight=-0.25'
want=$(paste -d' ' <(printf '%s\n' "$plain") <(printf '%s\n' "$other") | awk '{ printf "%.17g\n", $1 + -0.25 * $2 }')
check "a layer with its own seed, frequency, noise and fractal" close "$out" "$want"
feed "$PTS2" sample --layer 'seed=7; amplitude=2; bias=1' --fractal fbm --weight 0.5
other=$(printf '%b' "$PTS2" | "$CNOISE" sample --fractal fbm --seed 7 --amplitude 2 --bias 1)
want=$(paste -d' ' <(printf '%s\n' "$plain") <(printf '%s\n' "$other") | awk '{ printf "%.17g\n", 0.5 * $1 + $2 }')
check "a layer copies main options given after it; --weight is the main layer's own" close "$out" "$want"
feed "$PTS2" sample --offset 0.5 --layer 'offset=0,0.25; period=4; axis-frequency=2'
other=$(printf '%b' "$PTS2" | "$CNOISE" sample --offset 0,0.25 --period 4 --axis-frequency 2)
main=$(printf '%b' "$PTS2" | "$CNOISE" sample --offset 0.5)
want=$(paste -d' ' <(printf '%s\n' "$main") <(printf '%s\n' "$other") | awk '{ printf "%.17g\n", $1 + $2 }')
check "a layer's list keys replace the main lists" close "$out" "$want"
feed "$PTS2" sample --classic --noise simplex --layer 'classic=0; seed=5'
other=$(printf '%b' "$PTS2" | "$CNOISE" sample --noise simplex --seed 5)
main=$(printf '%b' "$PTS2" | "$CNOISE" sample --classic --noise simplex)
want=$(paste -d' ' <(printf '%s\n' "$main") <(printf '%s\n' "$other") | awk '{ printf "%.17g\n", $1 + $2 }')
check "classic=0 in a layer" close "$out" "$want"
feed "$PTS2" sample --precision float --layer 'seed=9'
check "float precision sum prints float digits" awk 'NF { s = $1; sub(/^-/, "", s); sub(/[eE].*$/, "", s); sub(/\./, "", s); sub(/^0+/, "", s); if (length(s) > 9) bad = 1; n++ } END { exit bad || n != 4 }' "$T/stdout"
other=$(printf '%b' "$PTS2" | "$CNOISE" sample --seed 9)
main=$(printf '%b' "$PTS2" | "$CNOISE" sample)
want=$(paste -d' ' <(printf '%s\n' "$main") <(printf '%s\n' "$other") | awk '{ printf "%.17g\n", $1 + $2 }')
check "float precision layers within 1e-5 of double" close "$out" "$want" 1e-5
feed '0.3,0.7,0.2\n' sample --layer 'seed=1' --dims 3
check "layers share --dims" [ "$rc" -eq 0 -a "$(lines "$out")" -eq 1 ]
feed '0.3,0.7\n0.1,0.2,0.3\n' sample --layer 'seed=1'
expect_err "layers: later lines keep the first line's dimension" 1 "line 2: expected 2 coordinates, got 3"

# ---------------------------------------------------------------------------------------------
# render: --tile and the gray mapping (PNG decoded with python3)
# ---------------------------------------------------------------------------------------------
mkdir "$T/r" && cd "$T/r" || exit 1
run render --tile --size 500x512 -o t.png
expect_err "--tile with 500 * 1/64 cells" 2 "--tile: along x, 500 pixels * frequency 0.015625 * axis-frequency 1 = 7.8125 cells is not a whole number" "e.g. --frequency 0.25 gives 125 cells along x and 128 along y"
run render --tile --size 300x200 -o t.png --frequency 0.011
expect_err "--tile with 300 * 0.011 cells" 2 "along x, 300 pixels * frequency 0.011 * axis-frequency 1 = 3.3 cells is not a whole number" "e.g. --frequency 0.01 gives 3 cells along x and 2 along y"
run render --tile --size 512x512 -o t.png --frequency 0.0123
expect_err "--tile with 6.2976 cells" 2 "6.2976 cells is not a whole number" "--frequency 0.01171875 gives 6 cells along x and 6 along y"
run render --tile --size 100x64 -o t.png --frequency 0.01 --noise simplex
expect_err "--tile simplex 2D with an odd count" 2 "= 1 cell is not a multiple of 2, as simplex noise in 2D needs" "e.g. --frequency 0.5 gives 50 cells along x and 32 along y"
run render --tile --size 64x64 -o t.png --frequency 0.03125 --noise simplex --dims 3
expect_err "--tile simplex 3D needs multiples of 3" 2 "= 2 cells is not a multiple of 3, as simplex noise in 3D needs" "e.g. --frequency 0.046875 gives 3 cells along x and 3 along y"
run render --tile --size 7x1 --frequency 1e-9 -o t.png
expect_err "--tile below one cell" 2 "less than one cell"
run render --tile --size 64x64 --frequency 2e6 -o t.png
expect_err "--tile beyond 2^24 cells" 2 "more than the period limit of 16777216"
run render --tile --size 64x64 --axis-frequency 1,1.5 -o t.png
expect_err "--tile with --axis-frequency" 2 "along y, 64 pixels * frequency 0.015625 * axis-frequency 1.5 = 1.5 cells"
run render --tile --rotate 30 -o t.png
expect_err "--tile with --rotate" 2 "--tile: cannot be combined with --rotate"
run render --tile --layer 'rotate=30' -o t.png
expect_err "--tile with a rotated layer" 2 "--tile: --layer 1: cannot be combined with rotate"
run render --tile --period 4 -o t.png
expect_err "--tile with --period on x" 2 "--tile: sets the x and y periods itself" "--period 0,0,6"
run render --tile --fractal fbm --lacunarity 2.5 -o t.png
expect_err "--tile with a fractional lacunarity" 2 "--lacunarity 2.5 is not a whole number" "--tile"
run render --tile --layer 'frequency=0.01' -o t.png
expect_err "--tile with a layer frequency" 2 "--tile: --layer 1: along x, 512 pixels * frequency 0.01" "frequency=0.009765625 in this --layer"
run render --tile=1 -o t.png
expect_err "--tile takes no value" 2 "--tile takes no value"
check "tile errors create no file" [ -z "$(ls -A)" ]
run render --tile --size 96x64 --frequency 0.0625 --dims 3 --z 5 --period 0,0,6 -o t.png
check "--tile with a z period" [ "$rc" -eq 0 -a "$out" = "wrote t.png (96x64)" ]
run render --tile --dims 1 --size 100x7 --frequency 0.01 -o t.png
check "--tile in 1D" [ "$rc" -eq 0 -a "$out" = "wrote t.png (100x7)" ]

# png_pixels FILE: decodes an 8-bit grayscale non-interlaced PNG with python3's zlib, checking
# every chunk CRC and the row filters, and prints the pixels, one row per line.
png_pixels() {
    python3 - "$1" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
pos, idat, ihdr, seen_end = 8, b'', None, False
while pos < len(d):
    n, t = struct.unpack('>I4s', d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    crc, = struct.unpack('>I', d[pos + 8 + n:pos + 12 + n])
    assert zlib.crc32(t + body) & 0xffffffff == crc, 'crc of ' + repr(t)
    if t == b'IHDR': ihdr = struct.unpack('>IIBBBBB', body)
    elif t == b'IDAT': idat += body
    elif t == b'IEND': seen_end = True
    pos += 12 + n
assert seen_end and pos == len(d), 'IEND at the end'
w, h, depth, ctype, comp, filt, inter = ihdr
assert (depth, ctype, inter) == (8, 0, 0), 'format'
raw = zlib.decompress(idat)
assert len(raw) == h * (w + 1), 'pixel count'
prev, rows = [0] * w, []
for j in range(h):
    f, line = raw[j * (w + 1)], list(raw[j * (w + 1) + 1:(j + 1) * (w + 1)])
    for i in range(w):
        a = line[i - 1] if i else 0
        b = prev[i]
        c = prev[i - 1] if i else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        else: assert f == 0, 'filter'
    rows.append(line)
    prev = line
for r in rows: print(' '.join(map(str, r)))
EOF
}

# seamless PIXELS: the wrap-around differences (column W-1 against column 0, row H-1 against
# row 0) are no larger than the largest difference between neighbours inside the image, in
# each direction.
seamless() {
    python3 - "$1" <<'EOF'
import sys
rows = [list(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
h, w = len(rows), len(rows[0])
assert h > 2 and w > 2
inner_x = max(abs(r[i + 1] - r[i]) for r in rows for i in range(w - 1))
inner_y = max(abs(rows[j + 1][i] - rows[j][i]) for j in range(h - 1) for i in range(w))
wrap_x = max(abs(r[w - 1] - r[0]) for r in rows)
wrap_y = max(abs(rows[h - 1][i] - rows[0][i]) for i in range(w))
sys.exit(0 if wrap_x <= inner_x and wrap_y <= inner_y and inner_x > 0 and inner_y > 0 else 1)
EOF
}

# quadrants PIXELS: the image is 2x2 copies of its top-left quarter; prints that quarter.
quadrants() {
    python3 - "$1" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
h, w = len(rows) // 2, len(rows[0]) // 2
q = [r[:w] for r in rows[:h]]
ok = all(rows[j][i] == q[j % h][i % w] for j in range(2 * h) for i in range(2 * w))
for r in q: print(' '.join(r))
sys.exit(0 if ok else 1)
EOF
}

if [ $HAVE_PY -eq 1 ]; then
    for noise in perlin simplex value; do
        common="--noise $noise --fractal fbm --octaves 3 --frequency 0.0625"
        # shellcheck disable=SC2086
        run render --tile --size 96x64 $common -o tile.png
        check "render --tile ($noise fbm)" [ "$rc" -eq 0 -a "$out" = "wrote tile.png (96x64)" ]
        png_pixels tile.png >"$T/tile"
        check "--tile image is seamless ($noise fbm)" seamless "$T/tile"
        # The same periods set by hand on an image twice as large: its four quarters are
        # equal and equal to the tiled image (frequency 1/16: every coordinate is exact).
        # shellcheck disable=SC2086
        run render --period 6,4 --size 192x128 $common -o big.png
        png_pixels big.png >"$T/big"
        check "--period 6,4 repeats the image exactly ($noise fbm)" quadrants "$T/big" >"$T/quarter"
        quadrants "$T/big" >"$T/quarter"
        check "--tile sets periods 6,4 ($noise fbm)" cmp -s "$T/quarter" "$T/tile"
        # Without --tile the wrap-around is a seam for some seed (the test above can fail).
        seams=0
        for seed in 1 2 3 4 5; do
            # shellcheck disable=SC2086
            run render --size 96x64 $common --seed $seed -o plain.png
            png_pixels plain.png >"$T/plain"
            seamless "$T/plain" || seams=$((seams + 1))
        done
        check "without --tile some seed shows a seam ($noise fbm): $seams of 5" [ "$seams" -ge 1 ]
    done
    # Layers with their own frequency and axis frequency, a slice axis, float precision.
    for args in "--layer frequency=0.125;weight=0.5;seed=4 --fractal ridged --octaves 2" \
                "--axis-frequency 2,0.5 --noise simplex --layer noise=value;axis-frequency=1,1" \
                "--dims 3 --z 17.5 --fractal turbulence --octaves 4 --offset 0.3,0.1,0.2" \
                "--dims 3 --noise simplex --size 96x48 --z 2 --fractal fbm --octaves 2" \
                "--dims 4 --noise simplex --size 128x64 --z 3 --w -2 --fractal fbm --octaves 2" \
                "--dims 4 --z 3 --w -2 --precision float --fractal billow"; do
        # shellcheck disable=SC2086
        run render --tile --size 96x64 --frequency 0.0625 $args -o tile.png
        check "render --tile $args" [ "$rc" -eq 0 ]
        png_pixels tile.png >"$T/tile"
        check "--tile image is seamless ($args)" seamless "$T/tile"
    done

    # Gray mapping: pixel = round(t * 255), t = ((v - mid) / half + 1) / 2, clamped; [mid - half,
    # mid + half] is the documented range (cn_noise_range; classic Perlin 3D: +-1.0363538112118029).
    # Each case: render options | sample options | mid half.
    for case in "--fractal turbulence --seed 3|--fractal turbulence --seed 3|0.5 0.5" \
                "--fractal ridged --amplitude 2 --bias 1|--fractal ridged --amplitude 2 --bias 1|2 1" \
                "--noise simplex --amplitude -0.5 --bias 0.25|--noise simplex --amplitude -0.5 --bias 0.25|0.25 0.5" \
                "--fractal billow --amplitude 3|--fractal billow --amplitude 3|0 3" \
                "--layer seed=3;weight=0.5|--layer seed=3;weight=0.5|0 1.5" \
                "--weight -2 --layer fractal=ridged;bias=1;weight=0.5|--weight -2 --layer fractal=ridged;bias=1;weight=0.5|0.75 2.25" \
                "--amplitude 0 --bias 0.5|--amplitude 0 --bias 0.5|0.5 0" \
                "--classic --dims 3 --z 0.5|--classic --dims 3|0 1.0363538112118029"; do
        IFS='|' read -r rargs sargs range <<<"$case"
        extra=; case $rargs in *--z*) extra=' 0.5' ;; esac
        # shellcheck disable=SC2086
        run render --size 7x5 --frequency 0.29 -o px.png $rargs
        png_pixels px.png >"$T/pix" 2>/dev/null
        for j in 0 1 2 3 4; do for i in 0 1 2 3 4 5 6; do echo "$i.5 $j.5$extra"; done; done >"$T/pts"
        # shellcheck disable=SC2086
        IN=$T/pts run sample --frequency 0.29 $sargs
        python3 -c '
import math, sys
vals = [float(v) for v in open(sys.argv[1]).read().split()]
mid, half = float(sys.argv[2]), float(sys.argv[3])
assert len(vals) == 35
def g(v):
    t = ((v - mid) / half + 1) / 2 if half > 0 else (0 if v < mid else 1 if v > mid else 0.5)
    return min(255, max(0, int(math.floor(t * 255 + 0.5))))
for j in range(5):
    print(" ".join(str(g(v)) for v in vals[j * 7:(j + 1) * 7]))
' "$T/stdout" $range >"$T/want" 2>/dev/null
        check "render gray mapping ($rargs)" eval '[ -s "$T/pix" ] && cmp -s "$T/pix" "$T/want"'
    done
    run render --fractal turbulence --size 64x64 -o turb.png
    png_pixels turb.png >"$T/pix"
    check "turbulence spans more of the gray range than (v + 1) / 2 would" awk '{ for (i = 1; i <= NF; i++) if ($i + 0 < 100) low = 1 } END { exit !low }' "$T/pix"
    run render --amplitude 0 --bias 7 --size 4x4 -o flat.png
    png_pixels flat.png >"$T/pix"
    check "a zero-width range gives gray 128" [ "$(tr ' ' '\n' <"$T/pix" | sort -u)" = 128 ]
else
    note "python3 not found: PNG tiling and gray mapping checks skipped"
fi
run render --amplitude 8e307 --weight 4 --size 4x4 -o huge.png
expect_err "a range that overflows" 2 "the range of values is too large"
run render --amplitude 1e308 --bias 1e308 --size 4x4 -o huge.png
expect_err "amplitude and bias whose values overflow" 2 "--amplitude, --bias:" "2 |amplitude| + |bias|"
run render --frequency 1 --axis-frequency 1e308,1 --size 4x4 -o huge.png
expect_err "axis frequency overflowing the coordinates" 2 "--frequency: 1 is too large"
run render --layer 'frequency=1e308' --size 4x4 -o huge.png
expect_err "layer frequency overflowing the coordinates" 2 "--layer 1: frequency: 1e+308 is too large"
# ---------------------------------------------------------------------------------------------
# Ping-pong and the weighted strength
# ---------------------------------------------------------------------------------------------
# One octave of ping-pong with strength S is the base noise n folded: t = (n + 1) S mod 2,
# pp = t < 1 ? t : 2 - t, value 2 pp - 1 (worked out here from the plain noise at the same points).
for S in 1 2.5 7; do
    feed "$PTS2" sample --seed 5
    base=$out
    feed "$PTS2" sample --seed 5 --fractal pingpong --octaves 1 --pingpong-strength "$S"
    want=$(printf '%s\n' "$base" | awk -v s="$S" '{ t = ($1 + 1) * s; t -= 2 * int(t / 2); if (t >= 1) t = 2 - t; printf "%.17g\n", 2 * t - 1 }')
    check "pingpong, 1 octave, strength $S: the folded base noise" close "$out" "$want" 1e-14
done
feed "$PTS2" sample --seed 5 --fractal fbm --octaves 4
plain=$out
feed "$PTS2" sample --seed 5 --fractal fbm --octaves 4 --weighted-strength 0
expect_ok "--weighted-strength 0 is the plain sum" "$plain"
feed "$PTS2" sample --seed 5 --fractal fbm --octaves 4 --weighted-strength 0.8
check "--weighted-strength 0.8 changes fbm" [ "$rc" -eq 0 -a -n "$out" -a "$out" != "$plain" ]
run sample --weighted-strength 1.01
expect_err "--weighted-strength above 1" 2 "--weighted-strength: '1.01' is not a finite number in [0, 1]"
run sample --pingpong-strength 0
expect_err "--pingpong-strength 0" 2 "--pingpong-strength: '0'"
run sample --layer 'pingpong-strength=17'
expect_err "--layer pingpong-strength 17" 2 "--layer 1: pingpong-strength"

run render --offset 1e308 --fractal fbm --size 4x4 -o huge.png
expect_err "an offset that overflows in the octaves" 2 "--frequency: 0.015625 is too large" "offsets"
check "overflow errors create no file" [ ! -e huge.png ]

t_end
