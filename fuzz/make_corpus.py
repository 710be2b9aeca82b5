#!/usr/bin/env python3
"""make_corpus.py -- writes the seed corpora in fuzz/corpus/<target>/ and the option dictionary
fuzz/args.dict. Seeds are hand-written valid and near-valid inputs in each target's input format
(see the comment at the top of each fuzz_<target>.c); run it again after changing that format.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
COMMANDS = ["sample", "render", "map", "volume", "animate", "info", "flow"]


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def args_seed(cmd, *argv):
    return bytes([COMMANDS.index(cmd)]) + b"\0".join(a.encode() if isinstance(a, str) else a for a in argv)


ARGS = [
    ("sample", ["--noise", "simplex", "--dims", "2", "--seed", "42"]),
    ("sample", ["--fractal", "fbm", "--octaves", "6", "--lacunarity", "2.5", "--gain", "0.4", "--dims", "3"]),
    ("sample", ["--classic", "--noise", "perlin", "--precision", "float", "--period", "4,4,4", "--dims", "3"]),
    ("sample", ["--layer", "frequency=4; amplitude=0.5; offset=10.5,3; weight=0.25", "--rotate", "30", "--dims", "2"]),
    ("sample", ["--rotate", "0,0,1,45", "--axis-frequency", "1,2,3", "--offset", "1,2,3", "--dims", "3"]),
    ("sample", ["--fractal=ridged", "--ridge-offset=0.9", "--ridge-gain=3", "--bias", "1", "--amplitude", "-2"]),
    ("sample", ["--dims", "4", "--rotate", ",".join(["1", "0", "0", "0"] * 4)]),
    ("sample", ["--frequency", "nan"]),
    ("sample", ["-h"]),
    ("render", ["--size", "64x32", "-o", "x.png", "--noise", "value", "--frequency", "0.1"]),
    ("render", ["--size", "16x16", "--format", "rgb", "--ramp", "terrain", "--shade", "-o", "a.png"]),
    ("render", ["--size", "8x8", "--ramp", "0:#000000,0.5:#7a7f3a,1:#ffffff", "--light-azimuth", "300",
                "--light-elevation", "30", "-o", "b.png"]),
    ("render", ["--size", "32x32", "--tile", "--fractal", "fbm", "--octaves", "3", "-o", "t.png"]),
    ("render", ["--size", "4x4", "--format", "normal", "--normal-strength", "2", "-o", "n.png"]),
    ("render", ["--size", "4x4", "--normalize", "minmax", "--z", "3.5", "--dims", "3", "-o", "x.npy"]),
    ("render", ["--size", "1048577x1", "-o", "big.png"]),
    ("render", ["--size", "4x4", "--format", "f32", "-o", "x.png"]),
    ("render", ["--size", "3x3", "--dims", "4", "--w", "1e300", "--threads", "2", "--quiet", "-o", "w.pfm"]),
    ("map", ["--size", "128x64", "--seed", "7", "--sea-level", "0.4", "--relief", "2", "-o", "m.png"]),
    ("map", ["--size", "64x64", "--tile", "--octaves", "8", "--scale", "200", "-o", "m.png"]),
    ("map", ["--size", "0x5"]),
    ("volume", ["--size", "8x8", "--frames", "4", "-o", "v.npy", "--sheet", "s.png", "--sheet-columns", "2"]),
    ("volume", ["--size", "8x8x8", "-o", "v.f32", "--noise", "simplex", "--dims", "4", "--w", "2"]),
    ("animate", ["--size", "16x16", "--frames", "8", "--loop", "--delay", "5", "-o", "a.gif"]),
    ("animate", ["--size", "16x16", "--frames", "3", "--png", "f%03d.png", "--time-start", "1", "--time-step", "0.5"]),
    ("animate", ["--size", "16x16", "--frames", "3", "--once", "--dims", "4", "--z", "2", "-o", "a.gif"]),
    ("info", []),
    ("info", ["--help"]),
    ("render", ["--size", "16x16", "--warp", "8", "--warp-fractal", "progressive", "--warp-octaves", "3", "--tile",
                "-o", "w.png"]),
    ("sample", ["--dims", "3", "--warp", "2.5", "--warp-noise", "value", "--warp-frequency", "0.2", "--warp-seed", "-1",
                "--warp-lacunarity", "3", "--warp-gain", "0.25", "--warp-fractal", "independent"]),
    ("flow", ["--size", "8x8", "--dims", "3", "--z", "2", "--fractal", "fbm", "-o", "f.npy"]),
    ("flow", ["--size", "8x8", "--format", "png", "--origin", "-5,7", "-o", "f.png"]),
]


def main():
    for i, (cmd, argv) in enumerate(ARGS):
        write("args", "seed%02d" % i, args_seed(cmd, *argv))
    names = set()
    for _, argv in ARGS:
        for a in argv:
            if a.startswith("--"):
                names.add(a.split("=")[0])
    with open(os.path.join(HERE, "args.dict"), "w") as f:
        f.write("# Option names and value words for fuzz_args (libFuzzer -dict=fuzz/args.dict).\n")
        for n in sorted(names) + ["--layer", "--period", "--classic", "--help", "--"]:
            f.write('"%s"\n' % n)
        for w in ["perlin", "simplex", "value", "fbm", "turbulence", "billow", "ridged", "none", "float",
                  "double", "png16", "rgb", "r16", "f32", "pfm", "npy", "normal", "minmax", "range", "inf",
                  "nan", "1e400", "0x1p-1074", "\\x00", "=", ";", ",", "frequency=", "weight=", "noise="]:
            f.write('"%s"\n' % w)

    samples = [
        (0x01 | (2 << 2), b"0.5 0.5\n1 2\n-3.25,4.5\n# comment\n\n1e300 1e300\n"),
        (0x00 | (3 << 2) | 32, b"0.5 0.5 0.5\nnan 0 0\ninf 1 1\n"),
        (0x02 | (0 << 2), b"1.5 2.5 3.5 4.5\n1 2 3 4\n"),
        (0x03 | (1 << 2) | (1 << 6), b"0.25\n100000\n-7\n"),
        (0x01 | (0 << 2) | (2 << 6), b"1 2\n1 2 3\n"),
        (0x00 | (4 << 2) | (3 << 6), b"1,2,3,4\n1 , 2 , 3 , 4\n1,,2,3,4\n"),
        (0x00, b"0x1.8p1 2\n\t1\t2\r\n1 2,\n"),
        (0x02 | 32, b"1 2 3 4 5\n"),
        (0x00, b"1 2\x003\n"),
    ]
    for i, (sel, text) in enumerate(samples):
        write("sample", "seed%02d" % i, bytes([sel]) + text)

    ramps = [b"terrain", b"gray", b"0:#000000,1:#ffffff", b"0:#00224e,0.5:#7a7f3a,1:#FFFFFF",
             b"0:#000000,0.25:#ff0000,0.25:#00ff00,1:#ffffff", b"0:#00000,1:#ffffff", b"0.1:#000000,1:#ffffff",
             b"0:#000000,1e-300:#010101,1:#ffffff", b"0:#000000, 1:#ffffff", b"123x456", b"18446744073709551616",
             b"1048576x16384", b"0x1p-1074", b"-0", b"nan", b"\xff\xfe\x01"]
    for i, t in enumerate(ramps):
        write("ramp", "seed%02d" % i, t)

    # fuzz_batch: cap, type, mode, dims, seed(8), flags, then per flag the fields (see the source).
    def batch(cap, typ, mode, dims, seed, flags, rest):
        return bytes([cap, typ, mode, dims]) + struct.pack("<Q", seed) + bytes([flags]) + rest
    pts = bytes(range(7, 7 + 120))
    batches = [
        batch(5, 0, 0, 3, 1, 0, bytes([3]) + bytes([8, 1]) + pts),
        batch(5, 1, 0, 2, 2, 1 | 16, bytes([0x4c]) + bytes([1, 6, 0, 0]) + bytes([12, 2]) + pts),
        batch(2, 2, 0, 1, 3, 0, bytes([1]) + bytes([20, 3]) + pts),
        batch(1, 0, 2, 3, 0, 0, bytes([0]) + bytes([16, 1]) + pts),
        batch(0, 1, 2, 4, 9, 32, bytes([4, 0, 8, 0, 8, 0, 8, 0, 8]) + bytes([10, 2]) + pts),
        batch(3, 0, 0, 2, 5, 8 | 64, bytes([0]) + bytes([0] * 32) + bytes([2, 1, 2, 9]) + pts),
        batch(5, 0, 0, 4, 6, 2 | 4 | 16, bytes([3]) + bytes([1, 16] * 4) + bytes([2, 16] * 4) +
              bytes([4, 31, 1, 3, 1, 0x03]) + struct.pack("<d", 1.5) + bytes([6, 2]) + pts),
        batch(5, 3, 0, 0, 0, 0, b""),
        batch(5, 0, 0, 2, 0, 1, bytes([3]) + struct.pack("<d", 1e300) + bytes([6, 1]) + pts),
    ]
    for i, b in enumerate(batches):
        write("batch", "seed%02d" % i, b)

    # fuzz_image: format, w, h, depth selector, then write ops (rows | padding << 3), values, end.
    def image(*args):
        # image(fmt, w, h, dsel, ops, end), or without fmt after a format prefix of its own
        *head, ops, end = args
        return bytes(head) + ops + bytes([end])
    vals = bytes((i * 37) & 255 for i in range(2048))
    imgs = [
        image(0, 5, 3, 0, bytes([3]) + vals[:60] + bytes([0xc0]), 1),
        image(1, 4, 2, 0, bytes([2]) + vals[:64] + bytes([0xc0]), 1),
        image(2, 3, 3, 0, bytes([3]) + vals[:108] + bytes([0xc0]), 2),
        image(3, 6, 2, 3, bytes([2]) + bytes([4 + 0]) + vals[:128] + bytes([0xc0]), 1),
        image(4, 2, 2, 0, bytes([0x0a]) + vals[:64] + bytes([0xc0]), 1),
        image(5, 3, 4, 0, bytes([4]) + vals[:192] + bytes([0xc0]), 1),
        image(6, 2, 2, 3, bytes([2]) + bytes([1]) + bytes([4]) + vals[:128] + bytes([0xc0]), 2),
        image(0, 4, 4, 0, bytes([2]) + vals[:32] + bytes([0xc0]), 1),
        image(7, 4, 4, 0, b"", 1),
        bytes([0, 250]) + struct.pack("<I", 0x7fffffff) + bytes([250]) + struct.pack("<I", 0x7fffffff) + bytes([0]),
        bytes([8, 4, 3]) + vals[:768] + bytes([10, 1, 2, 0]) + vals[:24] + vals[:24] + bytes([0]),
        # the float formats: format byte 7, then 1 exr, 2 exr16, 3 tiff (0 stays invalid)
        bytes([7, 1]) + image(5, 20, 0, bytes([7]) + vals[:140] + bytes([7]) + vals[:140] + bytes([6]) + vals[:120]
                              + bytes([0xc0]), 1),
        bytes([7, 2]) + image(3, 17, 0, (bytes([0x0d]) + vals[:80]) * 3 + bytes([0x0a]) + vals[:32] + bytes([0xc0]), 2)
        + bytes([0]),
        bytes([7, 3]) + image(6, 2, 3, bytes([3]) + bytes([6]) + vals[:144] + bytes([0xc0]), 1),
        bytes([7, 3]) + image(6, 9, 0, bytes([3]) + vals[:72] + bytes([0xc0]), 0),
    ]
    for i, b in enumerate(imgs):
        write("image", "seed%02d" % i, b)


if __name__ == "__main__":
    main()
