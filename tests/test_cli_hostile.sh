#!/usr/bin/env bash
# test_cli_hostile.sh -- a catalogue of hostile invocations of the cnoise command-line tool.
#
# Usage: bash tests/test_cli_hostile.sh path/to/cnoise
# Run by ctest as test_cli_hostile. Prints one FAIL line per failed check, notes for skipped
# cases, the number of cases, and ends with "test_cli_hostile: N passed, M failed"; exits 1 if
# anything failed.
#
# Every case of the table below runs the tool once and asserts:
#   (a) the exact exit status: 2 for a usage error (bad or missing value, unknown option,
#       unsupported combination), 1 for a runtime failure (I/O error, bad input line), as
#       "cnoise --help" and each command's --help promise;
#   (b) stderr matches an extended regular expression that names the problem (the option, the
#       bad value, the line or the path), in the C locale, bytes as they are;
#   (c) no crash: status below 128 and no "Sanitizer" / "runtime error" in stderr;
#   (d) nothing was created, changed or left behind anywhere in the arena: the working folder
#       (where the default outputs noise.png, map.png, volume.npy, animation.gif would go), the
#       files the cases target that exist already (keep.*, compared byte for byte), and the
#       mounted folders; so no temporary file (*.tmp.*) is left either.
# Then interrupted runs: a long render, map and volume killed by SIGINT, SIGTERM and SIGHUP
# must die of that signal (128 + n) and leave no output and no temporary file, and an existing
# target unchanged.
#
# Unwritable targets: tests run as root, for whom permission bits do not block anything, so a
# path under a regular file (ENOTDIR), /proc and /dev/null are used, and, when mount works
# (root with CAP_SYS_ADMIN), a read-only tmpfs (EROFS) and a 64 KiB tmpfs (a full disk, ENOSPC);
# without mount those cases are skipped with a note.
#
# CNOISE_UNDER_VALGRIND=1 (scripts/valgrind.sh) allows more time for a killed run to start, and
# leaves out the SIGKILL cases: memcheck writes no summary for a process killed by SIGKILL, so
# under valgrind those runs checked nothing the other builds do not, at some 20 s each.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
export LC_ALL=C

CASES=0
SKIPPED=0

# ---------------------------------------------------------------------------------------------
# The arena: everything a case may touch, with its state recorded before the cases.
A=$T/arena
W=$A/cwd            # working folder of every case
mkdir -p "$W/adir" "$W/f0.png" "$T/in"
for f in keep.png keep.npy keep.gif keep.f32 keep.r16; do
    printf 'precious %s contents\n' "$f" >"$W/$f"
done
printf 'a regular file\n' >"$W/afile"

RO=
TINY=
if [ "$(id -u)" -eq 0 ]; then
    mkdir "$A/ro" "$A/tiny"
    if mount -t tmpfs -o size=64k tmpfs "$A/ro" 2>/dev/null; then
        MOUNTS+=("$A/ro")
        printf 'precious ro contents\n' >"$A/ro/keep.png"
        if mount -o remount,ro "$A/ro" 2>/dev/null && ! : 2>/dev/null >"$A/ro/probe"; then
            RO=$A/ro
        else
            note "cannot remount a tmpfs read-only: read-only cases skipped"
        fi
    fi
    if mount -t tmpfs -o size=64k tmpfs "$A/tiny" 2>/dev/null; then
        MOUNTS+=("$A/tiny")
        for f in keep.png keep.npy keep.gif; do printf 'precious tiny %s\n' "$f" >"$A/tiny/$f"; done
        TINY=$A/tiny
    else
        note "cannot mount a tmpfs: read-only and disk-full cases skipped"
    fi
else
    note "not root: read-only and disk-full cases (tmpfs mounts) skipped"
fi

# state: every path in the arena with its type, size and contents (md5 of regular files).
state() {
    (cd "$A" && find . -printf '%y %s %p\n' | sort && find . -type f -print0 | sort -z | xargs -0 md5sum)
}
state >"$T/state.before"
# restore: puts the arena back as it was after a case that changed it (removes every path that
# was not there, rewrites the kept files), so that one failure does not hide the next ones.
declare -A ORIG=()
while IFS= read -r -d '' p; do ORIG[$p]=1; done < <(cd "$A" && find . -print0)
fill_keep() {
    local f
    for f in keep.png keep.npy keep.gif keep.f32 keep.r16; do printf 'precious %s contents\n' "$f" >"$W/$f"; done
    [ -n "$TINY" ] && for f in keep.png keep.npy keep.gif; do printf 'precious tiny %s\n' "$f" >"$TINY/$f"; done
}
restore() {
    local p
    while IFS= read -r -d '' p; do
        [ -n "${ORIG[$p]+x}" ] || rm -rf "${A:?}/$p"
    done < <(cd "$A" && find . -depth -print0)
    fill_keep
    state >"$T/state.after"
    cmp -s "$T/state.before" "$T/state.after" || { note "cannot restore the arena; later cases compare with its new state"; cp "$T/state.after" "$T/state.before"; }
}

# Hostile standard inputs for "cnoise sample" (file names used in the table's STDIN column).
printf '1 2\0 3\n' >"$T/in/nul"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "%d ", i; print "" }' >"$T/in/many"
printf '1e400 2\n' >"$T/in/huge"
printf '0x1p99999\n' >"$T/in/hexhuge"
printf '1e39 1\n' >"$T/in/floatbig"
printf '1 2 3 4 5\n' >"$T/in/five"
printf '1 2\n3 4\n1 2 3\n' >"$T/in/mixed"
printf '# comment\n\n   \n1 2 3 4 5 6\n' >"$T/in/comment5"
printf '1,,2\n' >"$T/in/commas"
printf ',1\n' >"$T/in/leadcomma"
printf '1, 2,\n' >"$T/in/trailcomma"
printf 'abc\n' >"$T/in/word"
printf '1 2x\n' >"$T/in/junk"
printf '1 \001\n' >"$T/in/ctrl"
printf '\377\376 1\n' >"$T/in/binary"
printf '1 2\n' >"$T/in/two"
printf '1\n' >"$T/in/one"
printf '0.5 0.25 1e-5\n+1 -2 3\n-\n' >"$T/in/dash"
printf '1 2 3\n' >"$T/in/three"
head -c 100000 /dev/zero | tr '\0' '9' >"$T/in/long9"
printf '\n' >>"$T/in/long9"

LONG=$(head -c 100000 /dev/zero | tr '\0' '7')         # a 100 KB number
LONGNAME=$(head -c 100000 /dev/zero | tr '\0' 'n').png # a 100 KB file name
N256=$(head -c 252 /dev/zero | tr '\0' 'n')              # with .png: 256 bytes, past NAME_MAX (255)
N246=$(head -c 246 /dev/zero | tr '\0' 'n')              # with .png: 250 bytes; its .tmp.XXXXXX name is not
awk 'BEGIN { for (i = 0; i < 100000; i++) print i, i }' >"$T/in/lines" # a megabyte of output
LAYERS16=()
for i in $(seq 16); do LAYERS16+=(--layer "seed=$i"); done

# ---------------------------------------------------------------------------------------------
# The table: EXIT ;; STDIN ;; REGEX ;; ARGUMENTS
#   STDIN: '-' for /dev/null, else a file of $T/in; ",fsize=K" after it runs the case under
#          "ulimit -f K" (K KiB; writes past it fail with EFBIG, or raise SIGXFSZ where not ignored);
#   REGEX: extended regular expression stderr must match (grep -E, C locale);
#   ARGUMENTS: bash words (quotes, $'...' and the variables above are expanded by eval).
# Lines that are empty or start with '#' are skipped.
CASE_TABLE=$(cat <<'EOF'
# --- the dispatcher
2 ;; - ;; missing command ;;
2 ;; - ;; unknown command 'bogus' ;; bogus
2 ;; - ;; unknown command 'RENDER' ;; RENDER
2 ;; - ;; unknown command '' ;; ''
2 ;; - ;; unknown option '--bogus' ;; --bogus
2 ;; - ;; unknown option '-x' ;; -x
2 ;; - ;; unknown option '-' ;; -
2 ;; - ;; --help takes no arguments \(got 'extra'\) ;; --help extra
2 ;; - ;; --version takes no arguments \(got '--help'\) ;; --version --help
2 ;; - ;; unknown command 'render\\x0a' ;; $'render\n'
2 ;; - ;; unknown command '\\x1b\[31mred' ;; $'\e[31mred'
2 ;; - ;; unknown command '..' ;; $'\xff\xfe'
2 ;; - ;; unknown command '7+\.\.\.' ;; "$LONG"
# --- sample: numbers
2 ;; - ;; --seed: '-9223372036854775809' is out of range ;; sample --seed -9223372036854775809
2 ;; - ;; --seed: '\+1' is not a whole number ;; sample --seed +1
2 ;; - ;; --seed: '0x1g' is not a whole number ;; sample --seed 0x1g
2 ;; - ;; --seed: '' is not a whole number ;; sample --seed ''
2 ;; - ;; --seed: '' is not a whole number ;; sample --seed=
2 ;; - ;; --seed: '18446744073709551616' is out of range ;; sample --seed 18446744073709551616
2 ;; - ;; --seed: '1 ' is not a whole number ;; sample --seed '1 '
2 ;; - ;; --seed: ' 1' is not a whole number ;; sample --seed ' 1'
2 ;; - ;; --seed: '1\.0' is not a whole number ;; sample --seed 1.0
2 ;; - ;; --seed: '1e3' is not a whole number ;; sample --seed 1e3
2 ;; - ;; --seed: '7+\.\.\.' is out of range ;; sample --seed "$LONG"
2 ;; - ;; --frequency: 'nan' is not a finite number ;; sample --frequency nan
2 ;; - ;; --frequency: 'inf' is not a finite number ;; sample --frequency inf
2 ;; - ;; --frequency: '-infinity' is not a finite number ;; sample --frequency -infinity
2 ;; - ;; --frequency: '1e400' is not a finite number ;; sample --frequency 1e400
2 ;; - ;; --frequency: '-0' is not a finite number greater than 0 ;; sample --frequency -0
2 ;; - ;; --frequency: '0' is not a finite number greater than 0 ;; sample --frequency 0
2 ;; - ;; --frequency: '-1' is not a finite number greater than 0 ;; sample --frequency=-1
2 ;; - ;; --frequency: '1x' is not a finite number ;; sample --frequency 1x
2 ;; - ;; --frequency: ' 1' is not a finite number ;; sample --frequency ' 1'
2 ;; - ;; --frequency: '1,5' is not a finite number ;; sample --frequency 1,5
2 ;; - ;; --frequency: '0x' is not a finite number ;; sample --frequency 0x
2 ;; - ;; --frequency: '' is not a finite number ;; sample --frequency ''
2 ;; - ;; --octaves: '0' is not a whole number in 1\.\.32 ;; sample --octaves 0
2 ;; - ;; --octaves: '33' is not a whole number in 1\.\.32 ;; sample --octaves 33
2 ;; - ;; --octaves: '-5' is not a whole number ;; sample --octaves -5
2 ;; - ;; --octaves: '4294967301' is not a whole number ;; sample --octaves 4294967301
2 ;; - ;; --lacunarity: '0\.5' is not a finite number in \[1, 64\] ;; sample --lacunarity 0.5
2 ;; - ;; --lacunarity: '65' ;; sample --lacunarity 65
2 ;; - ;; --lacunarity: 'nan' ;; sample --lacunarity nan
2 ;; - ;; --gain: '0' is not a finite number in \(0, 4\] ;; sample --gain 0
2 ;; - ;; --gain: '4\.0000001' ;; sample --gain 4.0000001
2 ;; - ;; --ridge-offset: '-0\.1' ;; sample --ridge-offset -0.1
2 ;; - ;; --ridge-gain: '17' ;; sample --ridge-gain 17
2 ;; - ;; --dims: '0' is not a whole number in 1\.\.4 ;; sample --dims 0
2 ;; - ;; --dims: '5' ;; sample --dims 5
2 ;; - ;; --dims: '2\.0' ;; sample --dims 2.0
2 ;; - ;; --amplitude: 'inf' is not a finite number ;; sample --amplitude inf
2 ;; - ;; --bias: '1e400' is not a finite number ;; sample --bias 1e400
2 ;; - ;; --weight: 'nan' is not a finite number ;; sample --weight nan
# --- sample: names, flags, stray arguments
2 ;; - ;; --noise: 'Perlin' is not one of perlin, simplex, value ;; sample --noise Perlin
2 ;; - ;; --noise: 'a\\x0ab' is not one of ;; sample --noise $'a\nb'
2 ;; - ;; --noise: '..' is not one of ;; sample --noise $'\xff\xfe'
2 ;; - ;; --fractal: 'fBm' is not one of ;; sample --fractal fBm
2 ;; - ;; --precision: 'single' is not one of double, float ;; sample --precision single
2 ;; - ;; --classic takes no value ;; sample --classic=1
2 ;; - ;; --help takes no value ;; sample --help=yes
2 ;; - ;; --seed: missing value ;; sample --seed
2 ;; - ;; --layer: missing value ;; sample --layer
2 ;; - ;; unknown option '-h5' ;; sample -h5
2 ;; - ;; unknown option '--see' ;; sample --see 1
2 ;; - ;; unknown option '--seed-' ;; sample --seed- 1
2 ;; - ;; unknown option '--size' ;; sample --size 4x4
2 ;; - ;; unexpected argument 'foo' ;; sample foo
2 ;; - ;; unexpected argument '--seed' ;; sample -- --seed 1
2 ;; - ;; unknown option '--n+\.\.\.' ;; sample "--$LONGNAME"
# --- sample: combinations
2 ;; - ;; simplex noise needs 2 to 4 dimensions ;; sample --noise simplex --dims 1
2 ;; - ;; value noise has no classic mode ;; sample --noise value --classic
2 ;; - ;; --rotate cannot be combined with --period ;; sample --period 4 --rotate 30
2 ;; - ;; --period: '16777217' is not a whole number in 0\.\.16777216 ;; sample --period 16777217
2 ;; - ;; --period: '1,2,3,4,5' has 5 numbers; at most 4 ;; sample --period 1,2,3,4,5
2 ;; - ;; --period: '1,,2': number 2, '', is not ;; sample --period 1,,2
2 ;; - ;; --period: '-4' is not a whole number ;; sample --period -4
2 ;; - ;; --period: 3 .*simplex ;; sample --dims 2 --noise simplex --period 3
2 ;; - ;; --offset: 'nan' is not a finite number ;; sample --offset nan
2 ;; - ;; --offset: '1,': number 2, '', is not a finite number ;; sample --offset 1,
2 ;; - ;; --axis-frequency: '0' is not a finite number greater than 0 ;; sample --axis-frequency 0
2 ;; - ;; --axis-frequency: '1,-1': number 2 ;; sample --axis-frequency 1,-1
2 ;; - ;; --rotate: '1,2' has 2 numbers; expected 1 ;; sample --rotate 1,2
2 ;; - ;; --rotate: '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17' has 17 numbers ;; sample --rotate 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17
2 ;; - ;; --rotate: the axis \(0,0,0\) has no direction ;; sample --dims 3 --rotate 0,0,0,30
2 ;; - ;; --rotate: 4 numbers, but the noise is 2D ;; sample --dims 2 --rotate 0,0,1,30
2 ;; - ;; --rotate: 1D noise has no rotation ;; sample --dims 1 --rotate 30
2 ;; - ;; --rotate: 'inf' is not a finite number ;; sample --rotate inf
2 ;; - ;; --period: 3 numbers, but the noise is 2D ;; sample --dims 2 --period 4,4,4
2 ;; - ;; --lacunarity 2\.5 is not a whole number ;; sample --period 8 --fractal fbm --lacunarity 2.5
2 ;; - ;; --octaves: the last octave's frequency ;; sample --fractal fbm --octaves 32 --lacunarity 64 --frequency 1e6
# --- sample: --layer
2 ;; - ;; --layer 1: 'seed' is not key=value ;; sample --layer seed
2 ;; - ;; --layer 1: '=5' is not key=value ;; sample --layer =5
2 ;; - ;; --layer 1: unknown key 'bogus' ;; sample --layer bogus=1
2 ;; - ;; --layer 1: 'dims' is not a layer key ;; sample --layer dims=3
2 ;; - ;; --layer 1: 'precision' is not a layer key ;; sample --layer precision=float
2 ;; - ;; --layer 1: seed: '1=2' contains '=' ;; sample --layer seed=1=2
2 ;; - ;; --layer 1: octaves: '0' is not a whole number ;; sample --layer octaves=0
2 ;; - ;; --layer 1: frequency: '-1' is not a finite number greater than 0 ;; sample --layer frequency=-1
2 ;; - ;; --layer 1: classic: '2' is not 0 or 1 ;; sample --layer classic=2
2 ;; - ;; --layer 2: noise: 'cubic' is not one of ;; sample --layer seed=1 --layer 'seed=2; noise=cubic'
2 ;; - ;; --layer 1: noise=value classic=1: value noise has no classic mode ;; sample --layer 'noise=value classic=1'
2 ;; - ;; --layer 1: rotate cannot be combined with period ;; sample --layer 'rotate=30;period=4'
2 ;; - ;; --layer 1: unknown key 'se\\x01ed' ;; sample --layer $'se\x01ed=1'
2 ;; - ;; --layer 1: 'seed' is not key=value ;; sample --layer $'seed\n=1'
2 ;; - ;; --layer: at most 15 --layer options ;; sample "${LAYERS16[@]}"
2 ;; - ;; --layer 1: weight: 'inf' is not a finite number ;; sample --layer weight=inf
# --- sample: hostile standard input (bad input lines are runtime errors, exit 1)
1 ;; nul ;; line 1: contains a NUL byte ;; sample
1 ;; many ;; line 1: expected 1 to 4 coordinates, got 100000 ;; sample
1 ;; many ;; line 1: expected 2 coordinates, got 100000 ;; sample --dims 2
1 ;; huge ;; line 1: '1e400' is out of range for double precision ;; sample
1 ;; hexhuge ;; line 1: '0x1p99999' is out of range for double precision ;; sample
1 ;; floatbig ;; line 1: '1e39' is out of range for float precision ;; sample --precision float
1 ;; five ;; line 1: expected 1 to 4 coordinates, got 5 ;; sample
1 ;; mixed ;; line 3: expected 2 coordinates, got 3 ;; sample
1 ;; two ;; line 1: expected 3 coordinates, got 2 ;; sample --dims 3
1 ;; comment5 ;; line 4: expected 1 to 4 coordinates, got 6 ;; sample
1 ;; commas ;; line 1: two commas with no number between them ;; sample
1 ;; leadcomma ;; line 1: comma before the first number ;; sample
1 ;; trailcomma ;; line 1: comma after the last number ;; sample
1 ;; word ;; line 1: 'abc' is not a number ;; sample
1 ;; junk ;; line 1: '2x' is not a number ;; sample
1 ;; ctrl ;; line 1: '\\x01' is not a number ;; sample
1 ;; binary ;; line 1: '..' is not a number ;; sample
1 ;; dash ;; line 3: '-' is not a number ;; sample
1 ;; long9 ;; line 1: '9+\.\.\.' is out of range for float precision ;; sample --dims 1 --precision float
1 ;; one ;; line 1: --noise simplex: simplex noise needs 2 to 4 dimensions ;; sample --noise simplex
1 ;; two ;; line 1: --rotate: 4 numbers, but the noise is 2D ;; sample --rotate 0,0,1,30
1 ;; two ;; line 1: --period: 3 numbers, but the noise is 2D ;; sample --period 2,2,2
1 ;; three ;; line 1: --period: 2 .*simplex ;; sample --noise simplex --period 2
# --- render: size
2 ;; - ;; --size: '0x5': width and height must be at least 1 ;; render --size 0x5 -o keep.png
2 ;; - ;; --size: '5x0': width and height must be at least 1 ;; render --size 5x0
2 ;; - ;; --size: '1048577x1': width and height must be at most 1048576 ;; render --size 1048577x1
2 ;; - ;; --size: '1048576x16385': 17180917760 pixels is more than the limit ;; render --size 1048576x16385
2 ;; - ;; --size: '1048576x1048576': .* is more than the limit ;; render --size 1048576x1048576
2 ;; - ;; --size: '99999999999999999999x1': width and height must be at most ;; render --size 99999999999999999999x1
2 ;; - ;; --size: '512': expected WIDTHxHEIGHT ;; render --size 512
2 ;; - ;; --size: '512X512': expected WIDTHxHEIGHT ;; render --size 512X512
2 ;; - ;; --size: '-5x5': expected WIDTHxHEIGHT ;; render --size -5x5
2 ;; - ;; --size: '\+5x5': expected WIDTHxHEIGHT ;; render --size +5x5
2 ;; - ;; --size: '5x5x5': expected WIDTHxHEIGHT ;; render --size 5x5x5
2 ;; - ;; --size: ' 5x5': expected WIDTHxHEIGHT ;; render --size ' 5x5'
2 ;; - ;; --size: '': expected WIDTHxHEIGHT ;; render --size ''
2 ;; - ;; --size: '0x10x10': expected WIDTHxHEIGHT ;; render --size 0x10x10
2 ;; - ;; --z needs --dims 3 or 4 \(the slice is 2D\) ;; render --dims 3 --dims 2 --z 5 -o keep.png
2 ;; - ;; --normalize: '1,1' is not range ;; render --normalize minmax --normalize 1,1
# --- render: formats and file names
2 ;; - ;; --format: 'jpg' is not one of png, png16 ;; render --format jpg
2 ;; - ;; --format: 'PNG' is not one of ;; render --format PNG
2 ;; - ;; --format: '' is not one of ;; render --format=
2 ;; - ;; cannot tell the format of 'x\.jpg' ;; render -o x.jpg
2 ;; - ;; cannot tell the format of 'keep\.png\.bak' ;; render -o keep.png.bak
2 ;; - ;; --format f32 does not match the file name 'keep\.png' ;; render --format f32 -o keep.png
2 ;; - ;; --format png16 does not match the file name 'keep\.npy' ;; render --format png16 -o keep.npy
2 ;; - ;; --output: the file name is empty ;; render -o ''
2 ;; - ;; --output: missing value ;; render -o
2 ;; - ;; cannot tell the format of '\\x0a\.\\x01' ;; render -o $'\n.\x01'
# --- render: colour, shading, normalisation
2 ;; - ;; --ramp colours an rgb image; the format here is r16 ;; render --ramp gray -o keep.r16
2 ;; - ;; --ramp colours an rgb image; the format here is png16 ;; render --ramp gray --format png16
2 ;; - ;; --ramp: 'bogus' is not a preset ;; render --ramp bogus
2 ;; - ;; --ramp: empty ;; render --ramp ''
2 ;; - ;; --ramp: 1 stop: a ramp needs 2 to ;; render --ramp '0:#000000'
2 ;; - ;; --ramp: stop 1 .*the colour must be ;; render --ramp '0:#00000g,1:#ffffff'
2 ;; - ;; --ramp: stop 2 .*positions must increase ;; render --ramp '0:#000000,0:#ffffff,1:#ffffff'
2 ;; - ;; --ramp: stop 2 .*must be in \[0, 1\] ;; render --ramp '0:#000000,1.5:#ffffff'
2 ;; - ;; --ramp: stop 1 .*not a finite number ;; render --ramp 'nan:#000000,1:#ffffff'
2 ;; - ;; --ramp: stop 1 .*the first position must be 0 ;; render --ramp '0.1:#000000,1:#ffffff'
2 ;; - ;; --ramp: 1 stop: a ramp needs 2 ;; render --ramp '0:#000000;1:#ffffff'
2 ;; - ;; --ramp: stop 2 .*the last position must be 1 ;; render --ramp '0:#000000,0.5:#ffffff'
2 ;; - ;; --ramp: stop 1 .*too long ;; render --ramp "0:#000000$LONG,1:#ffffff"
2 ;; - ;; --shade makes a png .* not f32 ;; render --shade --format f32 -o keep.f32
2 ;; - ;; --light-azimuth needs --shade ;; render --light-azimuth 10
2 ;; - ;; --relief needs --shade ;; render --relief 1
2 ;; - ;; --light-elevation: '0' is not a finite number in \(0, 90\] ;; render --shade --light-elevation 0
2 ;; - ;; --light-elevation: '90\.5' ;; render --shade --light-elevation 90.5
2 ;; - ;; --light-azimuth: 'nan' is not a finite number ;; render --shade --light-azimuth nan
2 ;; - ;; --relief: '-1' is not a finite number greater than 0 ;; render --shade --relief -1
2 ;; - ;; --normal-strength needs --format normal or slope ;; render --normal-strength 1
2 ;; - ;; --normal-strength: '0' is not a finite number greater than 0 ;; render --format normal --normal-strength 0
2 ;; - ;; --normalize: '1,1' is not range, minmax, nor LO,HI ;; render --normalize 1,1
2 ;; - ;; --normalize: '2,1' is not range ;; render --normalize 2,1
2 ;; - ;; --normalize: 'nan,1' is not range ;; render --normalize nan,1
2 ;; - ;; --normalize: '-1\.7e308,1\.7e308' is not range ;; render --normalize -1.7e308,1.7e308
2 ;; - ;; --normalize: 'bogus' is not range ;; render --normalize bogus
2 ;; - ;; --normalize: '1,2,3' is not range ;; render --normalize 1,2,3
2 ;; - ;; --normalize: npy files hold the noise values ;; render --normalize minmax -o keep.npy
# --- render: slice, tiling, threads, flags
2 ;; - ;; --z needs --dims 3 or 4 ;; render --z 5
2 ;; - ;; --w needs --dims 4 ;; render --dims 3 --w 1
2 ;; - ;; --z: 'nan' is not a finite number ;; render --dims 3 --z nan
2 ;; - ;; --z: '1e400' is not a finite number ;; render --dims 3 --z 1e400
2 ;; - ;; --z: '1e39' is not a finite number in float range ;; render --dims 3 --precision float --z 1e39
2 ;; - ;; --dims: '5' ;; render --dims 5
2 ;; - ;; --tile.*cannot be combined with --rotate ;; render --tile --rotate 30
2 ;; - ;; --tile ;; render --tile --size 100x100
2 ;; - ;; --period ;; render --tile --period 3 --size 64x64
2 ;; - ;; --threads: '257' is not a whole number 0\.\.256 ;; render --threads 257
2 ;; - ;; --threads: '-1' is not a whole number ;; render --threads -1
2 ;; - ;; --quiet takes no value ;; render --quiet=1
2 ;; - ;; --tile takes no value ;; render --tile=yes
2 ;; - ;; --frequency: 1e\+?308 is too large ;; render --frequency 1e308 --size 16x16
2 ;; - ;; --layer 1: frequency: 1e\+?308 is too large ;; render --layer frequency=1e308 --size 16x16
2 ;; - ;; unexpected argument 'out\.png' ;; render out.png
2 ;; - ;; simplex noise needs 2 to 4 dimensions ;; render --noise simplex --dims 1 -o keep.png
# --- render: unwritable targets (runtime errors, exit 1)
1 ;; - ;; nodir/x\.png.*No such file or directory ;; render --size 4x4 -o $A/nodir/x.png
1 ;; - ;; afile/x\.png.*Not a directory ;; render --size 4x4 -o $W/afile/x.png
1 ;; - ;; 'adir'.*directory ;; render --size 4x4 -o adir
1 ;; - ;; /dev/null.*not a regular file ;; render --size 4x4 -o /dev/null
1 ;; - ;; /proc/self/x\.png ;; render --size 4x4 -o /proc/self/x.png
1 ;; - ;; /proc/version ;; render --size 4x4 -o /proc/version
1 ;; - ;; ro/keep\.png.*Read-only file system ;; render --size 4x4 -o $RO/keep.png
1 ;; - ;; tiny/keep\.png.*No space left on device ;; render --size 1024x1024 -o $TINY/keep.png
1 ;; - ;; tiny/keep\.npy.*No space left on device ;; render --size 1024x1024 -o $TINY/keep.npy
1 ;; - ;; nodir/..\.png ;; render --size 4x4 -o $A/nodir/$'\xff\xfe.png'
1 ;; - ;; (a\\x0ab|^b)/x\.png ;; render --size 4x4 -o $'a\nb/x.png'
1 ;; - ;; (File name too long|nnnn) ;; render --size 4x4 -o "$LONGNAME"
# --- names too long: the system refuses them, a runtime failure (exit 1) like any refused path
1 ;; - ;; 'n{252}\.png': File name too long ;; render --size 4x4 -o "$N256.png"
1 ;; - ;; 'n{246}\.png\.tmp\.XXXXXX': File name too long ;; render --size 4x4 -o "$N246.png"
1 ;; - ;; 'n{252}\.png': File name too long ;; map --size 8x8 -o "$N256.png"
1 ;; - ;; 'n{252}\.png': File name too long ;; volume --size 4x4x4 -o new.npy --sheet "$N256.png"
1 ;; - ;; 'n{252}\.png': File name too long ;; animate --size 8x8 --frames 2 -o "$N256.png"
1 ;; - ;; frame 0: .*'n{252}0\.png': File name too long ;; animate --size 8x8 --frames 2 --png "$N256%d.png"
1 ;; - ;; --png: the frame names are longer than 4095 bytes ;; animate --size 8x8 --frames 2 --png "$LONGNAME%d.png"
# --- the file-size limit (ulimit -f): EFBIG, reported like a full disk
1 ;; -,fsize=64 ;; keep\.png.*File too large \(the file-size limit ;; render --size 1024x1024 --format png16 -o keep.png
1 ;; -,fsize=64 ;; keep\.npy.*File too large ;; render --size 1024x1024 -o keep.npy
1 ;; -,fsize=64 ;; keep\.png.*File too large ;; map --size 1024x512 -o keep.png
1 ;; -,fsize=64 ;; keep\.npy.*File too large ;; volume --size 64x64x64 -o keep.npy --sheet new.png
1 ;; -,fsize=64 ;; keep\.gif.*File too large ;; animate --size 256x256 --frames 32 -o keep.gif
1 ;; -,fsize=64 ;; frame 0: .*fr0\.png.*File too large ;; animate --size 1024x1024 --frames 2 --png fr%d.png
1 ;; lines,fsize=64 ;; error writing standard output: File too large ;; sample
# --- map
2 ;; - ;; --scale: '0' is not a finite number greater than 0 ;; map --scale 0
2 ;; - ;; --scale: 'nan' ;; map --scale nan
2 ;; - ;; --scale: '-256' ;; map --scale -256
2 ;; - ;; --scale: '1e-320' is too small ;; map --scale 1e-320
2 ;; - ;; --frequency: 'inf' ;; map --frequency inf
2 ;; - ;; --sea-level: '1\.5' is not a finite number in \[-1, 1\] ;; map --sea-level 1.5
2 ;; - ;; --sea-level: 'nan' ;; map --sea-level nan
2 ;; - ;; --octaves: '33' ;; map --octaves 33
2 ;; - ;; --octaves: '0' ;; map --octaves 0
2 ;; - ;; --size: '0x0' ;; map --size 0x0
2 ;; - ;; --size: '2000000x2' ;; map --size 2000000x2
2 ;; - ;; --ramp: 'x' is not a preset ;; map --ramp x
2 ;; - ;; --light-elevation: '0' ;; map --light-elevation 0
2 ;; - ;; --relief: '0' ;; map --relief 0
2 ;; - ;; --lacunarity ;; map --tile --lacunarity 2.5
2 ;; - ;; --tile ;; map --tile --size 100x100
2 ;; - ;; unknown option '--dims' ;; map --dims 3
2 ;; - ;; unknown option '--layer' ;; map --layer seed=1
2 ;; - ;; --threads: '1000' ;; map --threads 1000
2 ;; - ;; unexpected argument 'extra' ;; map extra
2 ;; - ;; --output: the file name is empty ;; map --output=
1 ;; - ;; nodir/m\.png.*No such file or directory ;; map --size 8x8 -o $A/nodir/m.png
1 ;; - ;; afile/m\.png.*Not a directory ;; map --size 8x8 -o $W/afile/m.png
1 ;; - ;; ro/keep\.png.*Read-only file system ;; map --size 8x8 -o $RO/keep.png
1 ;; - ;; tiny/keep\.png.*No space left on device ;; map --size 2048x1024 -o $TINY/keep.png
# --- volume
2 ;; - ;; --size: '64x64' is not WxHxD ;; volume --size 64x64
2 ;; - ;; --size: '1x1x1x1' is not WxHxD ;; volume --size 1x1x1x1
2 ;; - ;; --size: '0x1x1': each side must be 1\.\.1048576 ;; volume --size 0x1x1
2 ;; - ;; --size: '1048577x1x1': each side must be ;; volume --size 1048577x1x1
2 ;; - ;; --size: '4096x4096x2048' is 34359738368 voxels; at most ;; volume --size 4096x4096x2048
2 ;; - ;; --size: '8x-8x8' is not WxHxD ;; volume --size 8x-8x8
2 ;; - ;; --dims: a volume needs 3D or 4D noise ;; volume --dims 2
2 ;; - ;; --dims: '5' ;; volume --dims 5
2 ;; - ;; --w needs --dims 4 ;; volume --w 1
2 ;; - ;; --w: '1e39' ;; volume --dims 4 --precision float --w 1e39
2 ;; - ;; --format: 'png' is not one of npy, f32, tiff ;; volume --format png
2 ;; - ;; --output 'x\.png': unknown extension ;; volume -o x.png
2 ;; - ;; --format npy contradicts the extension of --output ;; volume --format npy -o keep.f32
2 ;; - ;; --sheet-columns needs --sheet ;; volume --sheet-columns 3
2 ;; - ;; --sheet-columns: '0' ;; volume --sheet s.png --sheet-columns 0
2 ;; - ;; --sheet-columns ;; volume --size 8x8x8 --sheet s.png --sheet-columns 9
2 ;; - ;; --sheet: the file name is empty ;; volume --sheet ''
2 ;; - ;; --sheet and --output name the same file ;; volume -o same.npy --sheet same.npy
2 ;; - ;; --noise value --classic: value noise has no classic mode ;; volume --noise value --classic
1 ;; - ;; nodir/v\.npy.*No such file or directory ;; volume --size 4x4x4 -o $A/nodir/v.npy
1 ;; - ;; nodir/s\.png.*No such file or directory ;; volume --size 4x4x4 -o new.npy --sheet $A/nodir/s.png
1 ;; - ;; tiny/keep\.npy.*No space left on device ;; volume --size 64x64x64 -o $TINY/keep.npy
1 ;; - ;; ro/v\.npy.*Read-only file system ;; volume --size 4x4x4 -o $RO/v.npy --sheet new.png
# --- animate
2 ;; - ;; --frames: '0' is not a whole number in 1\.\.100000 ;; animate --frames 0
2 ;; - ;; --frames: '100001' ;; animate --frames 100001
2 ;; - ;; --frames: '-1' ;; animate --frames -1
2 ;; - ;; --delay: '65536' is not a whole number in 0\.\.65535 ;; animate --delay 65536
2 ;; - ;; --size: a GIF is at most 65535x65535 ;; animate --size 65536x1
2 ;; - ;; --size: 20000x20000 is more than 268435456 pixels ;; animate --size 20000x20000 --png f%d.png
2 ;; - ;; --dims: frames along time need 3D or 4D ;; animate --dims 2
2 ;; - ;; --time-step: 'inf' ;; animate --time-step inf
2 ;; - ;; --time-step: 'nan' ;; animate --time-step nan
2 ;; - ;; --time-start: '1e400' ;; animate --time-start 1e400
2 ;; - ;; the time of the last frame overflows ;; animate --time-start 1e308 --time-step 1e308 --frames 3
2 ;; - ;; --z needs --dims 4 ;; animate --z 1
2 ;; - ;; --loop needs a nonzero --time-step ;; animate --loop --time-step 0
2 ;; - ;; --loop.*cannot be combined with --rotate ;; animate --loop --rotate 0,0,1,30
2 ;; - ;; --png: 'f\.png' has no %d conversion ;; animate --png f.png
2 ;; - ;; --png: 'f%d%d\.png' has more than one %d ;; animate --png f%d%d.png
2 ;; - ;; --png: 'f%s\.png' ;; animate --png f%s.png
2 ;; - ;; --png: 'f%99d\.png': the field width is at most 32 ;; animate --png f%99d.png
2 ;; - ;; --png: 'f%n\.png' ;; animate --png f%n.png
2 ;; - ;; --png: '%' ;; animate --png %
2 ;; - ;; --once takes no value ;; animate --once=1
2 ;; - ;; --once applies to the GIF ;; animate --once --png f%d.png
2 ;; - ;; --output: the file name is empty ;; animate -o ''
2 ;; - ;; --png: frame 0 would overwrite the GIF ;; animate --frames 2 -o f0.gif --png f%d.gif
1 ;; - ;; nodir/a\.gif.*No such file or directory ;; animate --size 8x8 --frames 2 -o $A/nodir/a.gif
1 ;; - ;; nodir/f0\.png.*No such file or directory ;; animate --size 8x8 --frames 2 --png $A/nodir/f%d.png
1 ;; - ;; frame 0 .*'f0\.png'.*directory ;; animate --size 8x8 --frames 2 --png f%d.png
1 ;; - ;; tiny/keep\.gif.*No space left on device ;; animate --size 256x256 --frames 32 -o $TINY/keep.gif
1 ;; - ;; ro/a\.gif.*Read-only file system ;; animate --size 8x8 --frames 2 -o $RO/a.gif
# --- info
2 ;; - ;; unexpected argument 'extra' ;; info extra
2 ;; - ;; unknown option '--bogus' ;; info --bogus
2 ;; - ;; --help takes no value ;; info --help=1
2 ;; - ;; unknown option '-x' ;; info -x
2 ;; - ;; unknown option '--seed' ;; info --seed 1
EOF
)

# run_case EXIT STDIN REGEX ARGS_TEXT (STDIN as in the table, with ",fsize=K")
# $DISPOSITIONS: "harness" runs the tool with the signal dispositions this script got (those of
# ctest, a shell, nohup...), "default" with every signal at its default action (env
# --default-signal): SIGXFSZ then kills unless the tool ignores it itself.
run_case() {
    local want=$1 stdin=$2 re=$3 text=$4 args=() desc rc err fsize=unlimited
    desc="cnoise ${text:0:120}"
    [ "$DISPOSITIONS" = default ] && desc="$desc (default signal dispositions)"
    case $stdin in *,fsize=*) fsize=${stdin#*,fsize=}; stdin=${stdin%%,*}; desc="$desc (ulimit -f $fsize)" ;; esac
    if { [ -z "$RO" ] && [[ $text == *'$RO'* ]]; } || { [ -z "$TINY" ] && [[ $text == *'$TINY'* ]]; }; then
        SKIPPED=$((SKIPPED + 1))
        return
    fi
    CASES=$((CASES + 1))
    eval "args=($text)" || { fail "$desc: bad table line"; return; }
    local in=/dev/null
    [ "$stdin" = - ] || in=$T/in/$stdin
    local envcmd=()
    [ "$DISPOSITIONS" = default ] && envcmd=(env --default-signal)
    (cd "$W" && ulimit -f "$fsize" && exec "${envcmd[@]}" "$CNOISE" "${args[@]}") <"$in" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    err=$(head -c 2000 "$T/stderr" | tr '\0' '@')
    local ok=1
    if [ "$rc" -ne "$want" ]; then fail "$desc: exit $rc, want $want; stderr: $err"; ok=0; fi
    if ! grep -qaE -e "$re" "$T/stderr"; then fail "$desc: stderr does not match /$re/: $err"; ok=0; fi
    if [ "$rc" -ge 128 ] || grep -qaE 'Sanitizer|runtime error' "$T/stderr"; then
        fail "$desc: crashed (exit $rc): $err"; ok=0
    fi
    state >"$T/state.after"
    if ! cmp -s "$T/state.before" "$T/state.after"; then
        fail "$desc: the arena changed: $(diff "$T/state.before" "$T/state.after" | grep '^[<>]' | head -5 | tr '\n' ' ')"
        ok=0
        restore
    fi
    [ $ok -eq 1 ] && pass
}

# The whole table twice: under this script's signal dispositions and under the defaults.
for DISPOSITIONS in harness default; do
    while IFS= read -r line; do
        case $line in '' | '#'*) continue ;; esac
        want=${line%% ;; *}; rest=${line#* ;; }
        stdin=${rest%% ;; *}; rest=${rest#* ;; }
        re=${rest%% ;;*}; rest=${rest#"$re" ;;}
        rest=${rest# }
        run_case "$want" "$stdin" "$re" "$rest"
    done <<<"$CASE_TABLE"
done

# ---------------------------------------------------------------------------------------------
# Interrupted runs. The tool writes into an unnamed temporary file (O_TMPFILE) where the file
# system has it, and into a named one, "<target>.tmp.XXXXXX", elsewhere or under the test hook
# CNOISE_TEST_NAMED_TEMP=1. Every run starts with every signal at its default action (env
# --default-signal: the tool must not depend on what this script inherited; a background job
# ignores SIGINT, nohup SIGHUP, which a shell's own "trap -" cannot undo) and no core files
# (ulimit -c 0: SIGQUIT would otherwise write one into the arena).
WAIT_STEPS=200
[ "${CNOISE_UNDER_VALGRIND:-0}" = 1 ] && WAIT_STEPS=1200

# Whether the arena's file system makes unnamed files; unknown (assumed yes) without python3.
TMPFILE_OK=1
if command -v python3 >/dev/null 2>&1 &&
    ! python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_RDWR, 0o600))' "$W" 2>/dev/null; then
    TMPFILE_OK=0
    note "no O_TMPFILE in $W: the unnamed temporary file is not tested"
fi

# start_tool HOOK ARGS...: starts cnoise ARGS in $W in the background (pid in $pid); HOOK 1 sets
# CNOISE_TEST_NAMED_TEMP=1.
start_tool() {
    local hook=$1; shift
    (cd "$W" && ulimit -c 0 && exec env --default-signal CNOISE_TEST_NAMED_TEMP="$hook" "$CNOISE" "$@" \
        >/dev/null 2>"$T/stderr") &
    pid=$!
}

# wait_temp KIND TARGET BYTES: waits until the running tool ($pid) has its temporary file for
# TARGET (a find -name pattern) open with at least BYTES bytes in it; KIND "named" looks for
# $W/TARGET.tmp.*, "unnamed" for a descriptor of the process on "$W/#<inode> (deleted)". Sets
# $found to the file (a /proc/PID/fd/N path for an unnamed one); empty if none came, or the
# process ended first.
wait_temp() {
    local kind=$1 target=$2 bytes=$3 i f l size
    found=
    for ((i = 0; i < WAIT_STEPS; i++)); do
        f=
        if [ "$kind" = named ]; then
            f=$(find "$W" -name "$target.tmp.*" -print -quit)
        else
            for l in /proc/$pid/fd/*; do
                case $(readlink "$l" 2>/dev/null) in "$W/#"*" (deleted)") f=$l; break ;; esac
            done
        fi
        if [ -n "$f" ]; then
            size=$(stat -L -c %s "$f" 2>/dev/null || echo -1)
            [ "$size" -ge "$bytes" ] && { found=$f; return; }
        fi
        kill -0 $pid 2>/dev/null || return
        sleep 0.02
    done
}

# check_state DESC: the arena is as it was before the cases (restored if not).
check_state() {
    state >"$T/state.after"
    cmp -s "$T/state.before" "$T/state.after" && return 0
    fail "$1: left files behind or changed one: $(diff "$T/state.before" "$T/state.after" | grep '^[<>]' | head -5 | tr '\n' ' ')"
    restore
    return 1
}

# interrupt KIND SIGNAL CODE TARGET ARGS...: starts cnoise ARGS, waits for TARGET's temporary file
# (KIND named: under the test hook, which the signal guard must remove; unnamed: O_TMPFILE), sends
# SIGNAL; the tool must die of it (exit CODE) and leave the arena as it was.
interrupt() {
    local kind=$1 sig=$2 code=$3 target=$4 rc ok=1; shift 4
    local desc="SIG$sig during cnoise $* ($kind temporary file)"
    [ "$kind" = unnamed ] && [ $TMPFILE_OK = 0 ] && return
    CASES=$((CASES + 1))
    start_tool $([ "$kind" = named ] && echo 1 || echo 0) "$@"
    wait_temp "$kind" "$target" 0
    if [ -z "$found" ]; then
        fail "$desc: no $kind temporary file for $target appeared"
        kill -KILL $pid 2>/dev/null
        wait $pid 2>/dev/null
        restore
        return
    fi
    kill -s "$sig" $pid
    { wait $pid; } 2>/dev/null
    rc=$?
    [ "$rc" -eq "$code" ] || { fail "$desc: exit $rc, want $code"; ok=0; }
    grep -qaE 'Sanitizer|runtime error' "$T/stderr" && { fail "$desc: $(head -c 500 "$T/stderr")"; ok=0; }
    # animate --png renames each frame into place when it is done (documented): with
    # FRAMES_DONE=PREFIX, frames PREFIX<n>.png finished before the signal came may stay, each a
    # whole PNG (ending with the IEND chunk); they are removed before the arena is compared. Only
    # the temporary file of the frame being written must go.
    local f
    for f in ${FRAMES_DONE:+"$W/$FRAMES_DONE"[0-9]*.png}; do
        [ -e "$f" ] || continue
        if [ "$(tail -c 12 "$f" | od -An -tx1 | tr -d ' \n')" = 0000000049454e44ae426082 ]; then
            rm -f "$f"
        else
            fail "$desc: $f, left by the interrupted run, is not a whole PNG"
            ok=0
        fi
    done
    check_state "$desc" || ok=0
    [ $ok -eq 1 ] && pass
}
interrupt named INT 130 new.png render --size 16384x16384 --quiet -o new.png
interrupt named TERM 143 keep.png render --size 16384x16384 --format normal --quiet -o keep.png
interrupt named HUP 129 keep.png map --size 16384x8192 --quiet -o keep.png
interrupt named INT 130 new.npy volume --size 1024x1024x1024 --quiet -o new.npy --sheet new-sheet.png
interrupt named TERM 143 keep.gif animate --size 2048x2048 --frames 1000 --quiet -o keep.gif
interrupt named QUIT 131 keep.png render --size 16384x16384 --format png16 --quiet -o keep.png
interrupt named USR1 138 keep.npy render --size 16384x16384 --quiet -o keep.npy
# (A frame takes tens of milliseconds: wait for any frame's temporary file, not frame 0's, which
# may have come and gone before the first look.)
FRAMES_DONE=new interrupt named ALRM 142 'new*.png' animate --size 2048x2048 --frames 1000 --quiet --png new%d.png
interrupt named XCPU 152 new.npy volume --size 1024x1024x1024 --quiet -o new.npy
interrupt unnamed INT 130 new.png render --size 16384x16384 --quiet -o new.png
interrupt unnamed QUIT 131 keep.png map --size 16384x8192 --quiet -o keep.png
interrupt unnamed TERM 143 keep.npy volume --size 1024x1024x1024 --quiet -o keep.npy --sheet new-sheet.png
interrupt unnamed HUP 129 keep.gif animate --size 2048x2048 --frames 1000 --quiet -o keep.gif

# SIGKILL, which no handler sees, at 10 points of a long png16 render over keep.png: when its
# temporary file has 0, 64 KiB, ..., 576 KiB in it. With the unnamed file the arena must be
# exactly as before (the file dies with the process). With the named fallback (forced by the test
# hook; 3 points) SIGKILL leaves that file behind: the fallback promises only that keep.png is
# intact and that nothing but one keep.png.tmp.XXXXXX was added, which is then removed.
sigkill() {
    local kind=$1 point=$2 ok=1 left
    local desc="SIGKILL at $((point * 64)) KiB of a png16 render ($kind temporary file)"
    CASES=$((CASES + 1))
    start_tool $([ "$kind" = named ] && echo 1 || echo 0) render --size 16384x16384 --format png16 --quiet -o keep.png
    wait_temp "$kind" keep.png $((point * 65536))
    [ -n "$found" ] || { fail "$desc: no $kind temporary file of $((point * 64)) KiB appeared"; ok=0; }
    kill -KILL $pid 2>/dev/null
    { wait $pid; } 2>/dev/null
    if [ "$kind" = named ]; then
        left=$(find "$W" -name 'keep.png.tmp.??????' | wc -l)
        [ "$left" -le 1 ] || { fail "$desc: $left temporary files"; ok=0; }
        find "$W" -name 'keep.png.tmp.??????' -delete
    fi
    check_state "$desc" || ok=0
    [ $ok -eq 1 ] && pass
}
if [ "${CNOISE_UNDER_VALGRIND:-0}" = 1 ]; then
    note "the 13 SIGKILL cases are left out under valgrind (no memcheck summary for a SIGKILL)"
else
    if [ $TMPFILE_OK = 1 ]; then
        for p in 0 1 2 3 4 5 6 7 8 9; do sigkill unnamed $p; done
    fi
    for p in 0 4 9; do sigkill named $p; done
fi

# ---------------------------------------------------------------------------------------------
# Success messages print the names escaped, as the error messages do: a newline or an escape
# sequence in a file name cannot break or forge a line of output.
E=$T/esc
mkdir -p "$E"
# wrote_line WANT ARGS...: cnoise ARGS in $E succeeds and prints exactly WANT.
wrote_line() {
    local want=$1 out rc; shift
    CASES=$((CASES + 1))
    out=$(cd "$E" && "$CNOISE" "$@" 2>"$T/stderr")
    rc=$?
    if [ $rc -eq 0 ] && [ "$out" = "$want" ] && ! LC_ALL=C grep -q '[[:cntrl:]]' <<<"$out"; then
        pass
    else
        fail "cnoise ${*@Q}: exit $rc, printed $(printf '%q' "$out"), want $(printf '%q' "$want")"
    fi
}
wrote_line 'wrote new\x0aline.png (4x4)' render --size 4x4 -o $'new\nline.png'
wrote_line 'wrote \x1b[31mred.npy (4x4 npy)' render --size 4x4 -o $'\e[31mred.npy'
wrote_line 'wrote m\x0d.png (8x8)' map --size 8x8 -o $'m\r.png'
wrote_line 'wrote v\x07.npy (4x4x4 float32, NumPy shape (4, 4, 4))
wrote s\x1b.png (8x8 contact sheet: 4 slices of 4x4, 2 per row)' volume --size 4x4x4 -o $'v\a.npy' --sheet $'s\e.png'
wrote_line 'wrote a\x0a.gif (4x4, 2 frames, 4/100 s each, loops)
wrote 2 frames f\x7f0.png .. f\x7f1.png (4x4)' animate --size 4x4 --frames 2 -o $'a\n.gif' --png $'f\x7f%d.png'
[ "$(find "$E" -type f -printf x | wc -c)" -eq 8 ] || fail "the escaped names are not the files' names: $(ls -b "$E" | tr '\n' ' ')"

[ "$SKIPPED" -gt 0 ] && note "$SKIPPED cases skipped (no read-only or tiny tmpfs mount)"
echo "test_cli_hostile: $CASES cases"
t_end
