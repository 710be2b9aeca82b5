#!/usr/bin/env bash
# test_cli.sh -- shell tests of the cnoise command-line tool.
#
# Usage: bash tests/test_cli.sh path/to/cnoise
# Run by ctest as test_cli. Prints one line per failure, notes for skipped checks, and ends with
# "test_cli: N passed, M failed"; exits 1 if anything failed.
# Needs bash, coreutils, od and awk; python3 (no extra modules) enables the PNG decoding checks
# and the full golden-file comparison, which are skipped with a note without it.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
GOLDEN=$HERE/golden
HEADER=$HERE/../include/cnoise.h

# ---------------------------------------------------------------------------------------------
# main: help, version, unknown command
# ---------------------------------------------------------------------------------------------
cd "$T" || exit 1

run --help
check "cnoise --help exits 0" [ "$rc" -eq 0 ]
check "cnoise --help lists commands" grep -q '^  sample' "$T/stdout"
check "cnoise --help lists render" grep -q '^  render' "$T/stdout"
check "cnoise --help documents exit status 2" grep -q '^  2  usage error' "$T/stdout"
check "cnoise --help documents exit status 1" grep -q '^  1  runtime failure' "$T/stdout"
check "cnoise --help is quiet on stderr" [ -z "$err" ]
help_main=$out
run -h
check "cnoise -h equals --help" [ "$rc" -eq 0 -a "$out" = "$help_main" ]

run --version
want_version=$(sed -n 's/^#define CN_VERSION_STRING "\(.*\)"$/\1/p' "$HEADER")
check "version string found in cnoise.h" [ -n "$want_version" ]
expect_ok "cnoise --version" "cnoise $want_version"

run
expect_err "no command" 2 "cnoise: missing command" "Usage: cnoise"
run frobnicate
expect_err "unknown command" 2 "unknown command 'frobnicate'"
run --frobnicate
expect_err "unknown top-level option" 2 "unknown option '--frobnicate'"
run --version extra
expect_err "--version with an argument" 2 "takes no arguments"

"$CNOISE" --help >/dev/full 2>"$T/stderr"; rc=$?; err=$(cat "$T/stderr")
expect_err "--help to a full disk" 1 "error writing standard output"

for cmd in sample render; do
    run $cmd --help
    check "$cmd --help exits 0" [ "$rc" -eq 0 ]
    check "$cmd --help shows usage" grep -q "^Usage: cnoise $cmd" "$T/stdout"
    check "$cmd --help documents exit status" grep -q '^  2  usage error' "$T/stdout"
    check "$cmd --help is quiet on stderr" [ -z "$err" ]
    for opt in --noise --seed --classic --precision --frequency --dims --help; do
        check "$cmd --help mentions $opt" grep -q -- "$opt" "$T/stdout"
    done
    h=$out
    run $cmd -h
    check "$cmd -h equals --help" [ "$rc" -eq 0 -a "$out" = "$h" ]
done
run render --help
for text in 'default 512x512' '1..1048576' '17179869184' 'default noise.png' '0.015625' 'clamped' '--output' '--size' '--z' '--w'; do
    check "render --help mentions '$text'" grep -q -- "$text" "$T/stdout"
done

# ---------------------------------------------------------------------------------------------
# sample: the reference value, separators, comments, dims, precision, frequency
# ---------------------------------------------------------------------------------------------
feed '3.14,42,7\n' sample --classic
expect_ok "classic Perlin at (3.14, 42, 7)" "0.13691995878400012"
feed '3.14 42 7' sample --classic --seed 0 --noise perlin --precision double --frequency 1
expect_ok "explicit defaults, no final newline" "0.13691995878400012"
feed '3.14,42,7\n' sample --classic --seed=0 --noise=perlin --frequency=1 --dims=3
expect_ok "--opt=value forms" "0.13691995878400012"

feed '1.5,2.25,3.75\n' sample
ref=$out
check "default Perlin at a non-lattice point is not 0" [ "$rc" -eq 0 -a -n "$ref" -a "$ref" != "0" ]
check "double output parses as a number" awk -v v="$ref" 'BEGIN { exit !(v + 0 == v && v >= -1 && v <= 1) }'
for text in '1.5 2.25 3.75' '1.5, 2.25, 3.75' '  1.5\t2.25  ,3.75\r' '1.5 ,2.25 , 3.75  ' '\t1.5,2.25\t3.75'; do
    feed "$text\n" sample
    expect_ok "separators '$text'" "$ref"
done
feed '# a comment\n\n   \n  \t# indented comment\n1.5,2.25,3.75\n\n#1,2\n1.5 2.25 3.75\n' sample
expect_ok "comments and blank lines are skipped" "$ref
$ref"
feed '' sample
expect_ok "empty input prints nothing" ""
feed '1.5,2.25,3.75\n' sample --dims 3
expect_ok "--dims 3 agrees with the inferred dimension" "$ref"
feed '0x1.8p0,2.25,3.75\n' sample
expect_ok "hexadecimal floating point input" "$ref"
feed 'nan,1,2\n1,inf,2\n' sample
expect_ok "nan and inf coordinates give nan" "nan
nan"
# sample --gradient: the value column is sample's, the derivatives agree with central differences
# of sample's values (steps of 2^-20, exact at these coordinates: the difference's error is about
# 1e-10 here, the tolerance 1e-6), for one noise and for a sum of layers; float precision's value
# column is float sample's; a type without a gradient is refused.
grad_check() { # label, sample options...
    local label=$1 p='1.5 2.25 3.75' h=0.00000095367431640625 a line vals=()
    shift
    feed "$p\n" sample "$@"
    local v=$out
    feed "$p\n" sample --gradient "$@"
    read -r -a line <<<"$out"
    check "$label: --gradient prints the value and 3 derivatives" [ "$rc" -eq 0 -a "${#line[@]}" -eq 4 ]
    check "$label: --gradient's value is sample's" [ "${line[0]}" = "$v" ]
    for a in 0 1 2; do
        local q=(1.5 2.25 3.75) r=(1.5 2.25 3.75)
        q[$a]=$(awk -v x="${q[$a]}" -v h=$h 'BEGIN { printf "%.17g", x + h }')
        r[$a]=$(awk -v x="${r[$a]}" -v h=$h 'BEGIN { printf "%.17g", x - h }')
        feed "${q[*]}\n${r[*]}\n" sample "$@"
        vals=($out)
        check "$label: d/dx$a ${line[$a + 1]} against the central difference" \
            awk -v g="${line[$a + 1]}" -v fp="${vals[0]}" -v fm="${vals[1]}" -v h=$h \
            'BEGIN { d = (fp - fm) / (2 * h) - g; exit !(d < 1e-6 && d > -1e-6) }'
    done
}
grad_check "perlin fbm" --fractal fbm --octaves 4 --frequency 0.3
grad_check "simplex, rotated" --noise simplex --rotate 1,1,0,0.5 --frequency 0.7
grad_check "two layers" --layer 'seed=3' --layer 'noise=value-cubic; weight=0.5'
feed '1.5 2.25 3.75\n' sample --precision float --noise simplex
v=$out
feed '1.5 2.25 3.75\n' sample --gradient --precision float --noise simplex
check "float --gradient's value is float sample's" [ "$rc" -eq 0 -a "${out%% *}" = "$v" ]
feed '0.5 0.5\n' sample --gradient --noise cellular --dims 2
check "--gradient with cellular noise and --dims: usage error" \
    eval '[ "$rc" -eq 2 ] && grep -q "cellular noise with --fractal none has no gradient" "$T/stderr"'
feed '0.5 0.5\n' sample --gradient --noise cellular
check "--gradient with cellular noise: the first line fails" \
    eval '[ "$rc" -eq 1 ] && grep -q "line 1: --gradient: cellular noise with --fractal none has no gradient" "$T/stderr"'
feed '0.5 0.5\n' sample --fractal erosion
v=$out
feed '0.5 0.5\n' sample --gradient --fractal erosion
check "--gradient with the erosion fractal: its value and two derivatives" \
    eval '[ "$rc" -eq 0 ] && [ "${out%% *}" = "$v" ] && [ $(echo "$out" | wc -w) -eq 3 ]'
feed '0.5 0.5\n' sample --fractal erosion --noise cellular
check "the erosion fractal of cellular noise is refused" eval '[ "$rc" -eq 2 ] && grep -q "cellular noise has no gradient" "$T/stderr"'

comma_locale=$(locale -a 2>/dev/null | grep -E -m1 '^(de_DE|fr_FR|es_ES|it_IT|nl_NL|ru_RU|pt_BR)')
if [ -n "$comma_locale" ]; then
    LC_ALL=$comma_locale feed '1.5,2.25,3.75\n' sample
    expect_ok "input and output ignore the locale ($comma_locale)" "$ref"
else
    note "no locale with a decimal comma installed: locale check skipped"
fi

# 1D, 2D and 4D inferred from the line, and forced with --dims.
feed '0.3\n0.7\n' sample
check "1D sample gives two values" [ "$rc" -eq 0 -a "$(printf '%s\n' "$out" | wc -l)" -eq 2 ]
feed '0.3,0.7\n' sample --dims 2
d2=$out
feed '0.3 0.7\n' sample
expect_ok "--dims 2 equals inferred 2D" "$d2"
feed '0.3,0.7,0.2,0.9\n' sample --noise simplex
check "4D simplex sample" [ "$rc" -eq 0 -a -n "$out" ]
feed '0.3,0.7\n' sample --dims 3
expect_err "--dims 3 with 2 numbers" 1 "line 1: expected 3 coordinates, got 2"

# Float precision: at most 9 significant digits, close to double (the header promises 1e-5).
feed '1.5,2.25,3.75\n0.1,0.2,0.3\n' sample --precision float
fl=$out
feed '1.5,2.25,3.75\n0.1,0.2,0.3\n' sample
db=$out
check "float precision runs" [ "$rc" -eq 0 -a "$(printf '%s\n' "$fl" | wc -l)" -eq 2 ]
check "float output has at most 9 significant digits" awk '{
    s = $0; sub(/^-/, "", s); sub(/[eE].*$/, "", s); sub(/\./, "", s); sub(/^0+/, "", s)
    if (length(s) > 9 || length(s) < 1) bad = 1 } END { exit bad }' <<<"$fl"
check "double output has up to 17 significant digits" awk '{
    s = $0; sub(/^-/, "", s); sub(/[eE].*$/, "", s); sub(/\./, "", s); sub(/^0+/, "", s)
    if (length(s) > 17) bad = 1; if (length(s) > 9) long = 1 } END { exit bad || !long }' <<<"$db"
check "float output differs in form from double" [ "$fl" != "$db" ]
check "float within 1e-5 of double" awk -v a="$fl" -v b="$db" 'BEGIN {
    n = split(a, x, "\n"); split(b, y, "\n"); for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < 0) d = -d; if (d > 1e-5) exit 1 } }'

# Frequency: noise(x) at frequency 2 is noise(2x) at frequency 1 (doubling is exact in binary).
for prec in double float; do
    for noise in perlin simplex value; do
        feed '0.3,0.7,1.1\n-5.125,3.3,9.9\n' sample --noise $noise --frequency 2 --precision $prec
        f2=$out
        feed '0.6,1.4,2.2\n-10.25,6.6,19.8\n' sample --noise $noise --precision $prec
        check "frequency 2 equals doubled coordinates ($noise, $prec)" [ "$rc" -eq 0 -a -n "$f2" -a "$f2" = "$out" ]
        feed '0.3,0.7,1.1\n-5.125,3.3,9.9\n' sample --noise $noise --precision $prec
        check "frequency 2 differs from frequency 1 ($noise, $prec)" [ "$f2" != "$out" ]
    done
done
feed '1.2,3.4\n' sample --frequency 0.5
fh=$out
feed '0.6,1.7\n' sample
expect_ok "frequency 0.5 equals halved coordinates" "$fh"

# Seeds: different seeds give different values; the same seed the same value.
feed '1.5,2.25,3.75\n' sample --seed 18446744073709551615
s1=$out
feed '1.5,2.25,3.75\n' sample --seed 18446744073709551615
check "largest seed accepted and deterministic" [ "$rc" -eq 0 -a -n "$s1" -a "$s1" = "$out" ]
check "seed changes the value" [ "$s1" != "$ref" ]
feed '1.5,2.25,3.75\n' sample --seed 007
s7=$out
feed '1.5,2.25,3.75\n' sample --seed 7
check "leading zeros in a seed" [ "$rc" -eq 0 -a "$s7" = "$out" ]

# Classic golden values: five rows of simplex3.csv, checked against fixed text.
feed '-0.69228690277664210,996.00000000000000,-82.675170727997450
45.866359898238030,-110.95355917221360,-31.999999999000000
-94.000000001000000,-80889.811602201200,-1.4893916902899962
19.334850620677667,-88.000000000000000,96.000000001000000
6.5044341457646090,92.926811263426880,-758.00000000000000\n' sample --noise simplex --classic
expect_ok "classic simplex 3D golden rows" "-0.46863462593849214
-0.44457960275002917
-0.19053190032561948
0.1633044010328458
-0.1396864518601352"

# Every row of every golden file (values normalised to %.17g by python3).
if [ $HAVE_PY -eq 1 ]; then
    for g in perlin3 perlin4 simplex2 simplex3 simplex4; do
        file=$GOLDEN/$g.csv
        if [ ! -f "$file" ]; then fail "golden file $file missing"; continue; fi
        noise=${g%[0-9]}
        python3 - "$file" "$T/g_in" "$T/g_want" <<'EOF'
import sys
rows = [l.strip().split(',') for l in open(sys.argv[1]) if l.strip()][1:]
with open(sys.argv[2], 'w') as fi, open(sys.argv[3], 'w') as fw:
    for r in rows:
        fi.write(' '.join(r[:-1]) + '\n')
        fw.write('%.17g\n' % float(r[-1]))
EOF
        IN=$T/g_in run sample --noise "$noise" --classic
        if [ "$rc" -eq 0 ] && [ -s "$T/g_want" ] && cmp -s "$T/stdout" "$T/g_want"; then
            pass
        else
            fail "classic $g: every golden row through the CLI: rc=$rc $(diff "$T/stdout" "$T/g_want" | head -3)"
        fi
    done
else
    note "python3 not found: full golden-file comparison skipped"
fi

# ---------------------------------------------------------------------------------------------
# sample: errors name the option or the line, and exit non-zero
# ---------------------------------------------------------------------------------------------
IN=/dev/null
run sample --seed +1;                     expect_err "seed with a plus sign" 2 "--seed: '+1' is not a whole number (decimal, or hexadecimal with 0x; negative with '-')"
run sample --seed 18446744073709551616;   expect_err "seed 2^64" 2 "--seed: '18446744073709551616'"
run sample --seed 99999999999999999999999; expect_err "huge seed" 2 "--seed: '99999999999999999999999'"
run sample --seed 12abc;                  expect_err "seed with junk" 2 "--seed: '12abc'"
run sample --seed '';                     expect_err "empty seed" 2 "--seed: ''"
run sample --seed=;                       expect_err "empty seed with =" 2 "--seed: ''"
run sample --seed ' 5';                   expect_err "seed with a space" 2 "--seed: ' 5'"
run sample --seed +5;                     expect_err "seed with a plus sign" 2 "--seed: '+5'"
run sample --seed 0x1p4;                  expect_err "hexadecimal float seed" 2 "--seed: '0x1p4' is not a whole number"
for f in 0 -1 nan inf -inf 1e400 '' 1x ' 1' 0x; do
    run sample --frequency "$f"
    expect_err "frequency '$f'" 2 "--frequency: '$f' is not a finite number greater than 0"
done
run sample --frequency 1e-400;            expect_err "frequency underflowing to 0" 2 "--frequency: '1e-400'"
for d in 0 5 -1 '' 2.0 3x; do
    run sample --dims "$d"
    expect_err "dims '$d'" 2 "--dims: '$d' is not a whole number in 1..4"
done
run sample --bogus;                       expect_err "unknown option" 2 "unknown option '--bogus'"
run sample -x;                            expect_err "unknown short option" 2 "unknown option '-x'"
run sample extra;                         expect_err "stray argument" 2 "unexpected argument 'extra'"
run sample --seed;                        expect_err "missing value" 2 "--seed: missing value"
run sample --noise;                       expect_err "missing noise" 2 "--noise: missing value"
run sample --classic=yes;                 expect_err "flag with a value" 2 "--classic takes no value"
run sample --noise worley;                expect_err "bad noise name" 2 "--noise: 'worley' is not one of perlin, simplex, value"
run sample --precision half;              expect_err "bad precision" 2 "--precision: 'half'"
run sample --noise simplex --dims 1;      expect_err "simplex 1D" 2 "simplex noise needs 2 to 4 dimensions"
run sample --noise value --classic;       expect_err "classic value noise" 2 "value noise has no classic mode"
feed '1\n' sample --noise value --classic
expect_err "classic value noise fails before reading" 2 "value noise has no classic mode"
check "classic value noise prints nothing" [ -z "$out" ]
feed '# only one number\n0.5\n' sample --noise simplex
expect_err "simplex with 1 coordinate on the first data line" 1 "line 2:" "simplex noise needs 2 to 4 dimensions"

feed '1.5,2.25,3.75\n# comment\n\n1,2\n' sample
expect_err "wrong count names the physical line" 1 "line 4: expected 3 coordinates, got 2"
check "values before a bad line stay printed" [ "$out" = "$ref" ]
feed '1.5,2.25,3.75\n1,2,3,4\n' sample
expect_err "too many numbers after 3D" 1 "line 2: expected 3 coordinates, got 4"
feed '1 2 3 4 5\n' sample
expect_err "more than 4 numbers" 1 "line 1: expected 1 to 4 coordinates, got 5"
feed '1 2 3\n1 2 3 4 5 6 7\n' sample --dims 3
expect_err "more than 4 numbers with --dims" 1 "line 2: expected 3 coordinates, got 7"
feed 'hello world\n' sample
expect_err "junk line" 1 "line 1: 'hello' is not a number"
feed '1,2,3abc\n' sample
expect_err "trailing junk in a number" 1 "line 1: '3abc' is not a number"
feed '1,2,3 x\n' sample
expect_err "trailing junk after the numbers" 1 "line 1: 'x' is not a number"
feed '1,2,3 # comment\n' sample
expect_err "comment after numbers is junk" 1 "line 1: '#' is not a number"
feed '1,,2\n' sample
expect_err "empty field" 1 "line 1: two commas"
feed ',1,2\n' sample
expect_err "leading comma" 1 "line 1: comma before the first number"
feed '1,2,\n' sample
expect_err "trailing comma" 1 "line 1: comma after the last number"
feed '1,2,1e400\n' sample
expect_err "coordinate overflowing double" 1 "line 1: '1e400' is out of range for double precision"
feed '1,2,1e39\n' sample --precision float
expect_err "coordinate overflowing float" 1 "line 1: '1e39' is out of range for float precision"
feed '1,2\0,3\n' sample
expect_err "NUL byte" 1 "line 1: contains a NUL byte"

# A very long line (1 MiB of spaces) is read whole.
{ printf '1.5'; head -c 1048576 /dev/zero | tr '\0' ' '; printf '2.25 3.75\n'; } >"$T/long"
IN=$T/long run sample
expect_ok "1 MiB line" "$ref"

# Output errors.
printf '1.5,2.25,3.75\n' | "$CNOISE" sample >/dev/full 2>"$T/stderr"; rc=$?; err=$(cat "$T/stderr")
expect_err "sample to a full disk" 1 "error writing standard output"

# ---------------------------------------------------------------------------------------------
# render
# ---------------------------------------------------------------------------------------------

# png_header FILE: prints "width height bitdepth colortype" from the IHDR, or nothing if the file
# does not start with the PNG signature and an IHDR chunk.
png_header() {
    local sig ihdr
    sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
    ihdr=$(od -An -c -j12 -N4 "$1" | tr -d ' \n')
    [ "$sig" = 89504e470d0a1a0a ] && [ "$ihdr" = IHDR ] || return 1
    local b
    b=($(od -An -tu1 -j16 -N10 "$1"))
    echo "$(( (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3] )) $(( (b[4] << 24) | (b[5] << 16) | (b[6] << 8) | b[7] )) ${b[8]} ${b[9]}"
}

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

# same_nonempty A B: A is not empty and equals B.
same_nonempty() { [ -s "$1" ] && cmp -s "$1" "$2"; }

mkdir "$T/r" && cd "$T/r" || exit 1
run render
expect_ok "render default" "wrote noise.png (512x512)"
check "default output is a PNG 512x512, 8-bit gray" [ "$(png_header noise.png)" = "512 512 8 0" ]
check "no temporary file after success" no_temp_files "$T/r"
check "new file gets 0666 minus umask" [ "$(stat -c %a noise.png)" = "$(printf '%o' $((0666 & ~$(umask))))" ]
if [ $HAVE_PY -eq 1 ]; then
    if png_pixels noise.png >"$T/pix" 2>"$T/pyerr"; then
        pass
        check "default render has 512 rows of 512 pixels" awk 'NF != 512 { bad = 1 } END { exit bad || NR != 512 }' "$T/pix"
        check "default render spans dark to light" awk 'BEGIN { lo = 255; hi = 0 } { for (i = 1; i <= NF; i++) { if ($i + 0 < lo) lo = $i + 0; if ($i + 0 > hi) hi = $i + 0 } } END { exit !(lo < 40 && hi > 215) }' "$T/pix"
    else
        fail "default render decodes: $(cat "$T/pyerr")"
    fi
else
    note "python3 not found: PNG pixel decoding skipped"
fi

run render --size 37x19 -o custom.png --seed 5 --noise simplex
expect_ok "render --size 37x19" "wrote custom.png (37x19)"
check "37x19 header" [ "$(png_header custom.png)" = "37 19 8 0" ]
run render --size=1x1 --output=one.png
expect_ok "render 1x1 with --opt=value" "wrote one.png (1x1)"
check "1x1 header" [ "$(png_header one.png)" = "1 1 8 0" ]
run render --size 65535x1 -o wide.png
expect_ok "render 65535x1" "wrote wide.png (65535x1)"
check "65535x1 header" [ "$(png_header wide.png)" = "65535 1 8 0" ]
run render --size 3x65535 -o tall.png --noise value
expect_ok "render 3x65535" "wrote tall.png (3x65535)"
for args in "--noise value" "--noise simplex --dims 3 --z 2.5" "--noise perlin --dims 4 --z 1 --w -3" \
            "--classic --noise simplex --dims 4" "--classic --dims 3" "--precision float --noise simplex" "--dims 1"; do
    run render --size 40x30 -o v.png $args
    expect_ok "render $args" "wrote v.png (40x30)"
    check "render $args header" [ "$(png_header v.png)" = "40 30 8 0" ]
done

# Pixel (i, j) is the noise at (i + 0.5, j + 0.5) mapped by round((v / half + 1) / 2 * 255), clamped,
# where [-half, half] is the documented range: 1, or 1.0363538112118029 for classic Perlin 2D/3D.
if [ $HAVE_PY -eq 1 ]; then
    # Each case: render options | the same noise as sample options | extra coordinates | 1 if float
    # | half.
    for case in "--noise simplex --dims 3 --z 2.5 --frequency 0.3|--noise simplex --dims 3 --frequency 0.3| 2.5|0" \
                "--classic --frequency 0.21|--classic --dims 2 --frequency 0.21||0|1.0363538112118029" \
                "--noise value --seed 9 --frequency 0.7 --precision float|--noise value --seed 9 --frequency 0.7 --precision float --dims 2||1" \
                "--dims 4 --z -1.25 --w 3 --frequency 0.4|--dims 4 --frequency 0.4| -1.25 3|0" \
                "--classic --noise simplex --dims 4 --w 7 --frequency 0.05|--classic --noise simplex --dims 4 --frequency 0.05| 0 7|0"; do
        IFS='|' read -r rargs sargs extra isfloat half <<<"$case"
        # shellcheck disable=SC2086
        run render --size 5x4 -o px.png $rargs
        png_pixels px.png >"$T/pix" 2>/dev/null
        for j in 0 1 2 3; do for i in 0 1 2 3 4; do echo "$i.5 $j.5$extra"; done; done >"$T/pts"
        # shellcheck disable=SC2086
        IN=$T/pts run sample $sargs
        python3 -c '
import math, struct, sys
vals = [float(v) for v in open(sys.argv[1]).read().split()]
h = float(sys.argv[3])
if sys.argv[2] == "1":  # the exact float value behind its 9-digit text
    vals = [struct.unpack("f", struct.pack("f", v))[0] for v in vals]
assert len(vals) == 20
for j in range(4):
    print(" ".join(str(min(255, max(0, int(math.floor((v / h + 1) / 2 * 255 + 0.5))))) for v in vals[j * 5:(j + 1) * 5]))
' "$T/stdout" "$isfloat" "${half:-1}" >"$T/want" 2>/dev/null
        check "render pixels equal sample values ($rargs)" same_nonempty "$T/pix" "$T/want"
    done
    run render --dims 1 --size 16x5 -o stripes.png
    png_pixels stripes.png >"$T/pix"
    check "1D render: every row equal" [ "$(sort -u "$T/pix" | wc -l)" -eq 1 ]
else
    note "python3 not found: pixel mapping checks skipped"
fi

# Bad sizes: exit 2, message naming --size, no file created.
mkdir "$T/bad" && cd "$T/bad" || exit 1
for s in 0x5 5x0 0x0 -5x5 5x-5 5x x5 x 1048577x1 1x1048577 1048576x1048576 131072x131073 200000x200000 \
         abcxdef 5x5x5 5X5 ' 5x5' '5x5 ' '+5x5' '' 99999999999999999999999x1; do
    run render --size "$s"
    expect_err "bad size '$s'" 2 "--size: '$s'"
    check "bad size '$s' creates no file" [ -z "$(ls -A)" ]
done
run render --size 131072x131073; expect_err "pixel limit named" 2 "17179869184"
run render --size 1048577x1;    expect_err "side limit named" 2 "1048576"
run render --size 0x5;          expect_err "zero side named" 2 "at least 1"
run render --size 5x;           expect_err "malformed size named" 2 "WIDTHxHEIGHT"

# Other usage errors: exit 2 and no file.
run render --noise simplex --dims 1;   expect_err "render simplex 1D" 2 "simplex noise needs 2 to 4 dimensions"
run render --noise value --classic;    expect_err "render classic value" 2 "value noise has no classic mode"
run render --z 1;                      expect_err "--z with 2D" 2 "--z needs --dims 3 or 4"
run render --dims 3 --w 1;             expect_err "--w with 3D" 2 "--w needs --dims 4"
run render --dims 3 --z nan;           expect_err "--z nan" 2 "--z: 'nan' is not a finite number"
run render --dims 4 --w 1e39 --precision float; expect_err "--w beyond float" 2 "--w: '1e39'"
run render --frequency 0;              expect_err "render frequency 0" 2 "--frequency: '0'"
run render --frequency 1e308;          expect_err "render frequency overflow" 2 "--frequency"
run render --seed -0x8000000000000001;  expect_err "render seed below -2^63" 2 "--seed: '-0x8000000000000001' is out of range"
run render -o;                         expect_err "render -o without value" 2 "--output: missing value"
run render --output '';                expect_err "render empty output" 2 "--output: the file name is empty"
run render --dims 5;                   expect_err "render dims 5" 2 "--dims: '5'"
run render --bogus;                    expect_err "render unknown option" 2 "unknown option '--bogus'"
run render out.png;                    expect_err "render stray argument" 2 "unexpected argument 'out.png'"
check "usage errors create no file" [ -z "$(ls -A)" ]

# Write failures: exit 1, no temporary file, nothing created or changed.
run render -o "$T/bad/missing/dir/x.png"
expect_err "output directory missing" 1 "missing/dir/x.png" "No such file or directory"
check "missing directory not created" [ ! -e "$T/bad/missing" ]
mkdir adir
run render -o adir
expect_err "output is a directory" 1 "'adir'" "directory"
check "directory output leaves nothing" [ -z "$(ls -A adir)" ]
run render -o adir/
expect_err "output ends in a slash" 1 "adir/"
check "slash output leaves nothing" [ -z "$(ls -A adir)" ]
run render -o /dev/null --size 4x4
expect_err "special file refused" 1 "/dev/null" "not a regular file"
check "/dev/null is still a character device" [ -c /dev/null ]
check "no temporary file after failures" no_temp_files "$T/bad"
check "failures created no file here" [ "$(ls -A)" = "adir" ]

# An existing file survives failed renders byte for byte.
printf 'precious contents\n' >keep.png
chmod 640 keep.png
before=$(cksum <keep.png)
run render --size 0x5 -o keep.png
check "usage error keeps the existing file" [ "$rc" -eq 2 -a "$(cksum <keep.png)" = "$before" ]
run render --noise simplex --dims 1 -o keep.png
check "unsupported combination keeps the existing file" [ "$rc" -eq 2 -a "$(cksum <keep.png)" = "$before" ]
# File size limit: the write fails part way (EFBIG) with SIGXFSZ ignored.
( trap '' XFSZ; ulimit -f 16; exec "$CNOISE" render --size 2048x2048 -o keep.png ) >"$T/stdout" 2>"$T/stderr"
rc=$?; out=$(cat "$T/stdout"); err=$(cat "$T/stderr")
expect_err "write failure part way (file size limit)" 1 "cannot write 'keep.png'"
check "write failure prints no success line" [ -z "$out" ]
check "write failure keeps the existing file" [ "$(cksum <keep.png)" = "$before" ]
check "write failure leaves no temporary file" no_temp_files "$T/bad"
# A full disk: a 64 KiB tmpfs (needs root and mount permission; skipped otherwise).
mkdir "$T/tiny"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$T/tiny" 2>/dev/null; then
    MOUNTS+=("$T/tiny")
    printf 'precious contents\n' >"$T/tiny/keep.png"
    run render --size 1024x1024 -o "$T/tiny/keep.png"
    expect_err "disk full" 1 "No space left on device"
    check "disk full keeps the existing file" [ "$(cksum <"$T/tiny/keep.png")" = "$before" ]
    check "disk full leaves no temporary file" [ "$(ls -A "$T/tiny")" = "keep.png" ]
    umount "$T/tiny"
else
    note "cannot mount a tmpfs (not root or not permitted): disk-full check skipped"
fi
# Interrupted: SIGTERM during a long render removes the temporary file. The named temporary file
# (the test hook CNOISE_TEST_NAMED_TEMP): the one that exists to be removed, and to wait for; the
# unnamed one (O_TMPFILE) is checked by test_cli_hostile.sh.
CNOISE_TEST_NAMED_TEMP=1 "$CNOISE" render --size 16384x16384 -o keep.png >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
    [ -n "$(find "$T/bad" -name 'keep.png.tmp.*' -print -quit)" ] && break
    sleep 0.05
done
check "long render created its temporary file" [ -n "$(find "$T/bad" -name 'keep.png.tmp.*' -print -quit)" ]
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
check "SIGTERM ends the render (rc=$rc)" [ "$rc" -eq 143 ]
check "SIGTERM keeps the existing file" [ "$(cksum <keep.png)" = "$before" ]
check "SIGTERM leaves no temporary file" no_temp_files "$T/bad"

# A successful render replaces an existing file and keeps its permission bits.
run render --size 8x8 -o keep.png
expect_ok "render replaces an existing file" "wrote keep.png (8x8)"
check "replaced file is the new PNG" [ "$(png_header keep.png)" = "8 8 8 0" ]
check "replaced file keeps mode 640" [ "$(stat -c %a keep.png)" = 640 ]

# stdout full after a successful render: the file is written, the status is 1.
"$CNOISE" render --size 4x4 -o full.png >/dev/full 2>"$T/stderr"; rc=$?; err=$(cat "$T/stderr")
expect_err "render success line to a full disk" 1 "error writing standard output"

t_end
