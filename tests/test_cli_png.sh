#!/usr/bin/env bash
# test_cli_png.sh -- the PNG files of "cnoise render" (8-bit and 16-bit gray, RGB), whose rows
# are deflated in independent blocks on --threads threads and joined into one zlib stream:
#   - at 1x1, odd widths, one strip and many strips (of the CLI's ~262144 pixels) and many
#     deflate blocks (of the writer's ~256 KiB), with --threads 1 and 0 (one per core; 2 too for
#     the largest), the
#     decoded samples equal the raw data of the same run: png16 the r16 file exactly, png the f32
#     values through round(t * 255) (t = (v + 1) / 2), rgb with the gray ramp three times png;
#   - the file is the same bytes whatever --threads is;
#   - an independent decoder accepts the joined streams: python's zlib inflates the IDAT data
#     (several IDAT chunks, one zlib stream, its Adler-32 checked at the end, nothing left over),
#     every chunk's CRC is checked here, libpng decodes the samples (test_image --decode), and
#     libpng's pngfix finds nothing to fix where it is installed (Debian libpng-tools).
#
# Usage: bash tests/test_cli_png.sh path/to/cnoise path/to/test_image
# Run by ctest as test_cli_png. Skipped (exit 77) without a python3 that has numpy.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 2 'path/to/cnoise path/to/test_image' "$@"
CNOISE=$(t_abs "$1")
TEST_IMAGE=$(t_abs "$2")
cd "$T" || exit 1
PY=$(numpy_python) || t_skip_all "python3 with numpy not found (scripts/setup-deps.sh installs python3-numpy)"
PNGFIX=$(command -v pngfix || true)
[ -n "$PNGFIX" ] || skip "pngfix not found (Debian libpng-tools): the PNGs are checked by zlib and libpng only"

OPTS=(--fractal fbm --octaves 5 --seed 7 --frequency 0.03 --quiet)
# 1x1; odd sizes; 1001x3: one strip, one block; 1031x600: 3 strips, 5 png16 blocks; 140000x3:
# 3 strips, png16 and rgb rows longer than a block (one row per block).
SIZES="1x1 7x5 1001x3 1031x600 140000x3"
threads_of() { if [ "$1" = 1031x600 ]; then echo 1 2 0; else echo 1 0; fi; }
for size in $SIZES; do
    for th in $(threads_of "$size"); do
        for fmt in f32 r16 png png16; do
            run render "${OPTS[@]}" --size "$size" --threads $th --format $fmt -o "$size.$th.$fmt"
            check "render $size --threads $th --format $fmt (rc=$rc: $err)" [ "$rc" -eq 0 -a -z "$err" ]
        done
        run render "${OPTS[@]}" --size "$size" --threads $th --format rgb --ramp gray -o "$size.$th.rgb"
        check "render $size --threads $th --format rgb (rc=$rc: $err)" [ "$rc" -eq 0 -a -z "$err" ]
        if [ $th != 1 ]; then
            for fmt in png png16 rgb; do
                check "$size $fmt: --threads $th writes the bytes of --threads 1" cmp "$size.$th.$fmt" "$size.1.$fmt"
            done
        fi
        if [ -n "$PNGFIX" ]; then
            for fmt in png png16 rgb; do
                check "pngfix accepts $size.$th.$fmt" "$PNGFIX" --strip=none --quiet "$size.$th.$fmt"
            done
        fi
    done
done

check "the samples decode to the raw data of the same run" "$PY" - "$TEST_IMAGE" "$SIZES" <<'EOF'
import os, struct, subprocess, sys, zlib
import numpy as np

test_image, sizes = sys.argv[1], sys.argv[2].split()
fails = 0


def bad(msg):
    global fails
    fails += 1
    print("FAIL:", msg)


def structure(path, w, h, depth, ctype):
    """Walks the chunks (CRCs checked), inflates the IDAT data with zlib; returns the IDAT count."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        bad(path + ": no PNG signature")
        return 0
    pos, types, idat = 8, [], b""
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        t, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if zlib.crc32(t + body) & 0xFFFFFFFF != crc:
            bad("%s: bad CRC in %r" % (path, t))
        types.append(t)
        if t == b"IDAT":
            idat += body
        elif t == b"IHDR" and struct.unpack(">IIBBBBB", body) != (w, h, depth, ctype, 0, 0, 0):
            bad("%s: IHDR %r" % (path, struct.unpack(">IIBBBBB", body)))
        pos += 12 + n
    k = types.count(b"IDAT")
    if types != [b"IHDR"] + [b"IDAT"] * k + [b"IEND"] or k < 1 or pos != len(data):
        bad("%s: chunks %r" % (path, types[:5]))
    z = zlib.decompressobj()  # checks the zlib header and, at the end, the Adler-32
    raw = z.decompress(idat)
    row = w * (depth // 8) * (3 if ctype == 2 else 1) + 1
    if not z.eof or z.unused_data or len(raw) != h * row:
        bad("%s: zlib stream: eof %s, %d bytes left over, %d bytes (want %d)" % (path, z.eof, len(z.unused_data),
                                                                               len(raw), h * row))
    elif max(raw[j * row] for j in range(h)) > 4:
        bad(path + ": a filter type beyond 4")
    return k


def decoded(path, w, h, want):
    """The samples libpng decodes (16-bit little-endian), checking its header line."""
    out = path + ".dec"
    r = subprocess.run([test_image, "--decode", path, out], capture_output=True, text=True)
    if r.returncode != 0 or r.stdout.split() != [str(x) for x in (w, h) + want]:
        bad("%s: libpng: %s %s" % (path, r.stdout.strip(), r.stderr.strip()))
        return None
    return open(out, "rb").read()


blocks = 0
for size in sizes:
    w, h = map(int, size.split("x"))
    for th in ("1", "2", "0") if size == "1031x600" else ("1", "0"):
        p = "%s.%s." % (size, th)
        v = np.fromfile(p + "f32", dtype="<f4").astype(np.float64)
        r16 = open(p + "r16", "rb").read()
        blocks = max(blocks, structure(p + "png16", w, h, 16, 0))
        structure(p + "png", w, h, 8, 0)
        structure(p + "rgb", w, h, 8, 2)
        g16 = decoded(p + "png16", w, h, (16, 0))
        g8 = decoded(p + "png", w, h, (8, 0))
        rgb = decoded(p + "rgb", w, h, (8, 2))
        if g16 is not None and g16 != r16:
            bad(p + "png16: the samples differ from the r16 file")
        if g8 is not None and v.size == w * h:
            # round(t * 255), t = (v + 1) / 2 clamped (--normalize range, fbm's [-1, 1]); the f32
            # file holds v rounded to float, so a value within 1e-4 of a rounding tie may go
            # either way, by one level.
            x = np.clip((v + 1.0) / 2.0, 0.0, 1.0) * 255.0
            want = np.floor(x + 0.5)
            got = np.frombuffer(g8, dtype=np.uint8).astype(np.float64)
            tie = np.abs(x - np.floor(x) - 0.5) < 1e-4
            wrong = (got != want) & ~(tie & (np.abs(got - want) <= 1))
            if wrong.any():
                i = int(np.argmax(wrong))
                bad("%spng: %d samples differ from the f32 values, first at %d: %d, want %d (v %r)" % (
                    p, int(wrong.sum()), i, got[i], want[i], v[i]))
        if rgb is not None and g8 is not None:
            c = np.frombuffer(rgb, dtype=np.uint8).reshape(-1, 3)
            g = np.frombuffer(g8, dtype=np.uint8)
            if c.shape[0] != g.size or not all(np.array_equal(c[:, k], g) for k in range(3)):
                bad(p + "rgb: the gray ramp's colours are not the png's gray levels")
if blocks < 2:
    bad("no png16 file had several IDAT chunks (joined deflate streams): %d" % blocks)
print("most IDAT chunks in a png16 file: %d" % blocks)
sys.exit(1 if fails else 0)
EOF
t_end
