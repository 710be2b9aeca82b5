#!/usr/bin/env bash
# test_cli_animate.sh -- shell tests of "cnoise animate": the GIF (decoded here, LZW included)
# and the PNG frames hold the same gray levels, which match "cnoise sample" at the same points;
# seamless loops (frame N equals frame 0 with a periodic time axis, --loop sets that period);
# pattern and option errors (exit 2, nothing created); failures leave no partial or temporary
# file and existing files untouched.
#
# Usage: bash tests/test_cli_animate.sh path/to/cnoise
# Needs python3 (standard library only). Ends with "test_cli_animate: N passed, M failed".
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
ERR_PREFIX='cnoise animate: '

# A GIF and PNG decoder (python3 standard library): "gif FILE" prints "W H FRAMES LOOP DELAYS",
# "gifpix FILE" the pixel indices of every frame (one frame per line) and checks the palette is
# the 256 grays, "png FILE" an 8-bit gray PNG's pixels (one line), "pngpix FILE X Y" one pixel.
cat >"$T/dec.py" <<'EOF'
import struct, sys, zlib

def gif(path, decode):
    d = open(path, 'rb').read()
    assert d[:6] == b'GIF89a', 'signature'
    w, h, packed = struct.unpack('<HHB', d[6:11])
    pos, gct = 13, None
    if packed & 0x80:
        n = 2 << (packed & 7)
        gct = d[pos:pos + 3 * n]
        pos += 3 * n
    frames, delays, loop, delay = [], [], None, None
    while True:
        b = d[pos]; pos += 1
        if b == 0x3b:
            break
        if b == 0x21:
            label = d[pos]; pos += 1
            blocks = []
            while d[pos]:
                blocks.append(d[pos + 1:pos + 1 + d[pos]]); pos += 1 + d[pos]
            pos += 1
            if label == 0xff and blocks[0] == b'NETSCAPE2.0':
                loop = struct.unpack('<H', blocks[1][1:3])[0]
            elif label == 0xf9:
                delay = struct.unpack('<H', blocks[0][1:3])[0]
        elif b == 0x2c:
            x, y, fw, fh, fp = struct.unpack('<HHHHB', d[pos:pos + 9]); pos += 9
            assert (x, y, fw, fh) == (0, 0, w, h) and not fp & 0xc0, 'full frames, no local table'
            mcs = d[pos]; pos += 1
            data = bytearray()
            while d[pos]:
                data += d[pos + 1:pos + 1 + d[pos]]; pos += 1 + d[pos]
            pos += 1
            frames.append(lzw(bytes(data), mcs, w * h) if decode else None)
            delays.append(delay)
        else:
            raise AssertionError('block %#x' % b)
    assert pos == len(d), 'trailer at the end'
    return w, h, gct, frames, delays, loop

def lzw(data, mcs, npix):
    clear, eoi = 1 << mcs, (1 << mcs) + 1
    size, table, prev = mcs + 1, None, None
    out = bytearray()
    buf = bl = i = 0
    while True:
        while bl < size and i < len(data):
            buf |= data[i] << bl; bl += 8; i += 1
        if bl < size:
            break
        code = buf & ((1 << size) - 1); buf >>= size; bl -= size
        if code == clear:
            table = [bytes([k]) for k in range(clear)] + [b'', b'']
            size, prev = mcs + 1, None
            continue
        if code == eoi:
            break
        if code < len(table):
            entry = table[code]
            if prev is not None and len(table) < 4096:
                table.append(prev + entry[:1])
        else:
            assert prev is not None and code == len(table), 'bad code'
            entry = prev + prev[:1]
            table.append(entry)
        out += entry
        prev = entry
        if len(table) == (1 << size) and size < 12:
            size += 1
    assert len(out) == npix, 'pixel count %d != %d' % (len(out), npix)
    return bytes(out)

def png(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat = 8, b''
    while pos < len(d):
        n, t = struct.unpack('>I4s', d[pos:pos + 8])
        body = d[pos + 8:pos + 8 + n]
        assert zlib.crc32(t + body) & 0xffffffff == struct.unpack('>I', d[pos + 8 + n:pos + 12 + n])[0]
        if t == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        if t == b'IDAT': idat += body
        pos += 12 + n
    assert (depth, ctype) == (8, 0), 'gray 8'
    raw = zlib.decompress(idat)
    prev, px = [0] * w, []
    for j in range(h):
        f, line = raw[j * (w + 1)], list(raw[j * (w + 1) + 1:(j + 1) * (w + 1)])
        for i in range(w):
            a = line[i - 1] if i else 0; b = prev[i]; c = prev[i - 1] if i else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        px += line; prev = line
    return w, h, px

cmd = sys.argv[1]
if cmd == 'gif':
    w, h, gct, frames, delays, loop = gif(sys.argv[2], False)
    print(w, h, len(frames), loop, ','.join(map(str, sorted(set(delays)))))
elif cmd == 'gifpix':
    w, h, gct, frames, delays, loop = gif(sys.argv[2], True)
    assert gct == bytes(g for g in range(256) for _ in range(3)), 'gray palette'
    for f in frames: print(' '.join(map(str, f)))
elif cmd == 'png':
    print(' '.join(map(str, png(sys.argv[2])[2])))
elif cmd == 'pngpix':
    w, h, px = png(sys.argv[2])
    print(px[int(sys.argv[4]) * w + int(sys.argv[3])])
EOF
dec() { python3 "$T/dec.py" "$@"; }

# gray level of a value v in [-1, 1] as the command computes it: C round((v + 1) / 2 * 255)
gray_of() {
    python3 -c 'import sys, math; x = (float(sys.argv[1]) + 1.0) / 2.0 * 255.0; g = math.floor(x); g += (x - g) >= 0.5; print(int(min(255, max(0, g))))' "$1"
}

# ---------------------------------------------------------------------------------------------
mkdir "$T/a" && cd "$T/a" || exit 1

run animate --help
check "--help exits 0 quietly" [ "$rc" -eq 0 -a -z "$err" ]
for opt in --size --frames --time-step --time-start --dims --z --loop --output --png --delay --once --threads \
    --quiet --period --layer "Exit status" "frame N would equal frame 0" "%04d"; do
    check "--help mentions $opt" grep -q -- "$opt" "$T/stdout"
done
"$CNOISE" --help >"$T/main_help"
check "cnoise --help lists animate" grep -q '^  animate ' "$T/main_help"

run animate
expect_ok "default animation" "wrote animation.gif (256x256, 32 frames, 4/100 s each, loops)"
check "default: no temporary file" no_temp_files .
if [ $HAVE_PY -eq 1 ]; then
    check "default GIF: 256x256, 32 frames, loops forever, delay 4" [ "$(dec gif animation.gif)" = "256 256 32 0 4" ]
fi

# GIF and PNG frames together: the same gray levels; values from cnoise sample at z = t * step
run animate --size 20x10 --frames 5 --png 'f%03d.png' -o a.gif --delay 7 --once
expect_ok "GIF and PNG frames" "wrote a.gif (20x10, 5 frames, 7/100 s each, plays once)
wrote 5 frames f000.png .. f004.png (20x10)"
check "five frame files" [ "$(ls f*.png | tr '\n' ' ')" = "f000.png f001.png f002.png f003.png f004.png " ]
if [ $HAVE_PY -eq 1 ]; then
    check "--once GIF has no loop extension, delay 7" [ "$(dec gif a.gif)" = "20 10 5 None 7" ]
    if dec gifpix a.gif >"$T/gifpix" 2>"$T/pyerr"; then
        pass
        for t in 0 1 2 3 4; do
            dec png "f00$t.png" >"$T/png$t"
            check "GIF frame $t equals PNG frame $t" [ "$(sed -n "$((t + 1))p" "$T/gifpix")" = "$(cat "$T/png$t")" ]
        done
    else
        fail "GIF decodes: $(cat "$T/pyerr")"
    fi
    # pixel (i, j) of frame t: x = i + 0.5, y = j + 0.5, z = 2 t (default --time-step 2)
    for p in "0 0 0" "19 9 4" "7 3 2" "12 0 1"; do
        set -- $p
        v=$(printf '%s.5 %s.5 %s\n' "$1" "$2" "$(( $3 * 2 ))" | "$CNOISE" sample --dims 3 --frequency 0.015625)
        check "frame $3 pixel ($1, $2) is the gray of cnoise sample ($v)" \
            [ "$(dec pngpix "f00$3.png" "$1" "$2")" = "$(gray_of "$v")" ]
    done
    # 4D: z = --z, w = --time-start + t * --time-step
    run animate --dims 4 --z 3.25 --time-start 1 --time-step 0.5 --frames 3 --size 9x8 --frequency 0.1 --png 'w%d.png'
    check "4D frames written" [ "$rc" -eq 0 -a -f w2.png -a ! -e animation.gif.x ]
    for p in "0 0 0" "8 7 2" "4 2 1"; do
        set -- $p
        w=$(python3 -c "print(1 + $3 * 0.5)")
        v=$(printf '%s.5 %s.5 3.25 %s\n' "$1" "$2" "$w" | "$CNOISE" sample --dims 4 --frequency 0.1)
        check "4D frame $3 pixel ($1, $2) is the gray of cnoise sample" [ "$(dec pngpix "w$3.png" "$1" "$2")" = "$(gray_of "$v")" ]
    done
else
    note "python3 not found: GIF and PNG decoding checks skipped"
fi
check "--png alone writes no GIF" [ ! -e animation.gif.none ] && [ "$(ls w*.png | wc -l)" -eq 3 ]

# ---------------------------------------------------------------------------------------------
# seamless loops: 8 frames * time-step 4 * frequency 1/16 = 2 cells = the z period
mkdir "$T/s" && cd "$T/s" || exit 1
run animate --size 24x16 --frequency 0.0625 --time-step 4 --frames 9 --period 0,0,2 --png 'p%d.png' --quiet
check "periodic: 9 frames" [ "$rc" -eq 0 -a -f p8.png ]
check "periodic: frame 8 equals frame 0" cmp -s p0.png p8.png
check "periodic: frame 4 differs from frame 0" differ p0.png p4.png
run animate --size 24x16 --frequency 0.0625 --time-step 4 --frames 9 --png 'n%d.png' --quiet
check "not periodic: frame 8 differs from frame 0" differ n0.png n8.png
run animate --size 24x16 --frequency 0.0625 --time-step 4 --frames 8 --loop --png 'l%d.png' -o l.gif
check "--loop: 8 frames" [ "$rc" -eq 0 -a -f l7.png -a ! -e l8.png -a -f l.gif ]
same=1
for t in 0 1 2 3 4 5 6 7; do cmp -s "l$t.png" "p$t.png" || same=0; done
check "--loop sets the period of 8 frames (frames equal the --period 0,0,2 run)" [ $same -eq 1 ]
# 4D simplex with a fractal: w period 4 (a multiple of 4), 8 frames * 8 * 1/16 = 4 cells
run animate --dims 4 --noise simplex --fractal fbm --octaves 3 --size 16x16 --frequency 0.0625 --time-step 8 \
    --frames 9 --period 0,0,0,4 --z 2 --png 'q%d.png' --quiet
check "4D simplex fbm periodic: frame 8 equals frame 0" [ "$rc" -eq 0 ] && cmp -s q0.png q8.png
run animate --dims 4 --noise simplex --fractal fbm --octaves 3 --size 16x16 --frequency 0.0625 --time-step 8 \
    --frames 8 --loop --z 2 --png 'r%d.png' --quiet
check "4D --loop equals the explicit period" [ "$rc" -eq 0 ] && cmp -s r3.png q3.png
# layers get their own period: frequency 0.125 doubles the cells
run animate --size 16x16 --frequency 0.0625 --time-step 4 --frames 9 --period 0,0,2 \
    --layer 'frequency=0.125; period=0,0,4; weight=0.5' --png 'm%d.png' --quiet
run animate --size 16x16 --frequency 0.0625 --time-step 4 --frames 8 --loop \
    --layer 'frequency=0.125; weight=0.5' --png 'k%d.png' --quiet
check "--loop with a layer of another frequency" [ "$rc" -eq 0 ] && cmp -s k5.png m5.png && cmp -s m0.png m8.png

# --loop errors name the option and suggest a step
mkdir "$T/le" && cd "$T/le" || exit 1
run animate --loop --frames 8 --time-step 4
expect_err "--loop: less than a cell" 2 "--loop" "0.5 cells" "try --time-step 8"
run animate --loop --frames 8 --time-step 8 --noise simplex
expect_err "--loop: simplex 3D needs a multiple of 3" 2 "multiple of 3" "try --time-step"
run animate --loop --time-step 0
expect_err "--loop with a zero step" 2 "--loop needs a nonzero --time-step"
run animate --loop --rotate 0,0,1,30 --frames 32 --time-step 2
expect_err "--loop with --rotate" 2 "--loop" "--rotate"
run animate --loop --period 0,0,4 --frames 32 --time-step 2
expect_err "--loop with a time period" 2 "--loop sets the z period itself"
run animate --loop --fractal fbm --lacunarity 2.5 --frames 32 --time-step 2
check "--loop with a fractional lacunarity is refused (rc=$rc: $err)" [ "$rc" -eq 2 ] && case $err in *lacunarity*) true ;; *) false ;; esac
check "--loop errors create nothing" empty_dir .

# ---------------------------------------------------------------------------------------------
# frame name patterns
mkdir "$T/p" && cd "$T/p" || exit 1
run animate --frames 3 --size 4x4 --png 'x%%_%d.png' --quiet
check "%% is a literal %" [ "$rc" -eq 0 -a -f 'x%_0.png' -a -f 'x%_2.png' ]
run animate --frames 2 --size 4x4 --png 'y%-3d.png' --quiet
check "%-3d pads on the right" [ "$rc" -eq 0 -a -f 'y0  .png' -a -f 'y1  .png' ]
run animate --frames 12 --size 4x4 --png 'z%2d.png' --quiet
check "%2d pads with spaces" [ "$rc" -eq 0 -a -f 'z 0.png' -a -f 'z11.png' ]
rm -f ./*.png
badpat() { # badpat NAME TEXT PATTERN
    run animate --frames 2 --size 4x4 --png "$3"
    expect_err "pattern $1" 2 "--png" "$2"
    check "pattern $1 creates nothing" empty_dir .
}
badpat "without a conversion" "no %d conversion" 'f.png'
badpat "with only %%d" "no %d conversion" 'f%%d.png'
badpat "with two conversions" "more than one" 'f%d_%d.png'
badpat "with %s" "must start a %d conversion" 'f%s.png'
badpat "with %x" "must start a %d conversion" 'f%04x.png'
badpat "with a trailing %" "must start a %d conversion" 'f%d%'
badpat "with %.3d" "must start a %d conversion" 'f%.3d.png'
badpat "with a huge width" "field width" 'f%0999999999999d.png'

# ---------------------------------------------------------------------------------------------
# usage errors: exit 2, the option named, nothing created
mkdir "$T/u" && cd "$T/u" || exit 1
bad() { # bad NAME TEXT ARGS...
    local name=$1 text=$2; shift 2
    run animate "$@"
    expect_err "$name" 2 "$text"
    check "$name creates nothing" empty_dir .
}
bad "frames 0" "--frames" --frames 0
bad "frames too many" "--frames" --frames 100001
bad "size 0" "--size" --size 0x4
bad "GIF too wide" "a GIF is at most 65535x65535" --size 70000x1
bad "frame too large" "more than 268435456 pixels per frame" --size 20000x20000 --png 'f%d.png'
bad "delay" "--delay" --delay 65536
bad "delay without a GIF" "--delay applies to the GIF" --delay 5 --png 'f%d.png'
bad "once without a GIF" "--once applies to the GIF" --once --png 'f%d.png'
bad "--z in 3D" "--z needs --dims 4" --z 1
bad "dims 2" "--dims: frames along time need 3D or 4D" --dims 2
bad "time-step not finite" "--time-step" --time-step inf
bad "time overflow" "the time of the last frame overflows" --time-step 1e308 --frames 3 --time-start 1e308
bad "frequency overflow" "--frequency" --frequency 1e308
bad "frame overwrites the GIF" "would overwrite the GIF" --png 'a%d.gif' -o a1.gif --frames 3
bad "empty output" "--output: the file name is empty" -o ''
bad "unknown option" "unknown option" --bogus

# ---------------------------------------------------------------------------------------------
# failures: exit 1, no partial or temporary file, existing files untouched
mkdir "$T/f" && cd "$T/f" || exit 1
printf 'old gif\n' >keep.gif
printf 'old frame\n' >f001.png
before_g=$(cksum <keep.gif)
before_f=$(cksum <f001.png)
run animate --size 8x8 --frames 3 -o missing/x.gif
expect_err "GIF in a missing folder" 1 "cannot create temporary file"
run animate --size 8x8 --frames 3 -o keep.gif --png 'missing/f%d.png'
expect_err "frames in a missing folder" 1 "frame 0:" "missing/f0.png"
check "frames failure keeps the GIF" [ "$(cksum <keep.gif)" = "$before_g" ]
mkdir f002.png
run animate --size 8x8 --frames 4 -o keep.gif --png 'f%03d.png'
expect_err "a frame name that is a directory" 1 "frame 2" "f002.png" "is a directory"
check "checked before any frame is written" [ ! -e f000.png -a "$(cksum <f001.png)" = "$before_f" -a "$(cksum <keep.gif)" = "$before_g" ]
rmdir f002.png
run animate --size 8x8 --frames 2 -o /dev/null
expect_err "special file refused" 1 "not a regular file"
( trap '' XFSZ; ulimit -f 8; exec "$CNOISE" animate --size 128x128 --frames 4 -o keep.gif ) >"$T/stdout" 2>"$T/stderr"
rc=$?; out=$(cat "$T/stdout"); err=$(cat "$T/stderr")
expect_err "file size limit" 1 "File too large"
check "file size limit keeps the GIF" [ "$(cksum <keep.gif)" = "$before_g" -a -z "$out" ]
check "failures leave no temporary file" no_temp_files .
check "failures leave only what was there" [ "$(ls -A | tr '\n' ' ')" = "f001.png keep.gif " ]
if [ "$(id -u)" -eq 0 ] && mkdir "$T/tiny" && mount -t tmpfs -o size=64k tmpfs "$T/tiny" 2>/dev/null; then
    MOUNTS+=("$T/tiny")
    printf 'precious\n' >"$T/tiny/f005.png"
    # each 64x64 frame of noise is a few KiB: the disk fills part way through the frames
    run animate --size 64x64 --frames 30 --frequency 0.5 -o keep.gif --png "$T/tiny/f%03d.png"
    expect_err "disk full part way" 1 "No space left on device" "were written)"
    t=$(printf '%s' "$err" | sed -n 's/.*: frame \([0-9]*\): .*/\1/p')
    check "disk full at frame $t > 0 after complete frames" [ -n "$t" ] && [ "$t" -gt 0 ]
    check "frames before the failure are complete PNGs" [ "$(head -c 8 "$T/tiny/f000.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
    check "the frame that failed was not created" [ ! -e "$(printf '%s/tiny/f%03d.png' "$T" "$t")" ]
    if [ -n "$t" ] && [ "$t" -le 5 ]; then check "a later frame name is untouched" [ "$(cat "$T/tiny/f005.png")" = precious ]; fi
    check "disk full: no GIF written" [ "$(cksum <keep.gif)" = "$before_g" ]
    check "disk full leaves no temporary file" no_temp_files "$T/tiny"
    check "disk full leaves no temporary file here" no_temp_files .
    umount "$T/tiny"
else
    note "cannot mount a tmpfs (not root or not permitted): disk-full checks skipped"
fi

# SIGTERM while writing: temporary files removed, existing files untouched (the named temporary
# files of the test hook CNOISE_TEST_NAMED_TEMP, which exist to be removed and waited for)
CNOISE_TEST_NAMED_TEMP=1 "$CNOISE" animate --size 1024x1024 --frames 400 --fractal fbm --octaves 8 --threads 1 -o keep.gif \
    --png 'g%d.png' >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
    [ -n "$(find . -name 'keep.gif.tmp.*' -print -quit)" ] && break
    sleep 0.05
done
check "long animation created its temporary file" [ -n "$(find . -name 'keep.gif.tmp.*' -print -quit)" ]
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
check "SIGTERM ends the animation (rc=$rc)" [ "$rc" -eq 143 ]
check "SIGTERM keeps the existing GIF" [ "$(cksum <keep.gif)" = "$before_g" ]
check "SIGTERM leaves no temporary file" no_temp_files .

# progress: never into a pipe or file; on a terminal unless --quiet
run animate --size 32x32 --frames 4 -o p.gif
check "no progress on a non-terminal stderr" [ -z "$err" ]
if command -v script >/dev/null 2>&1; then
    script -qec "'$CNOISE' animate --size 32x32 --frames 4 -o p.gif" /dev/null >"$T/tty" 2>&1
    check "progress on a terminal" grep -q 'cnoise animate \[' "$T/tty"
    script -qec "'$CNOISE' animate --size 32x32 --frames 4 -o p.gif --quiet" /dev/null >"$T/tty" 2>&1
    check "--quiet: nothing on a terminal" [ ! -s "$T/tty" ]
else
    note "script(1) not found: terminal progress checks skipped"
fi

t_end
