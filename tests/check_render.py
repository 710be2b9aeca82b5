"""check_render.py -- checks a file written by "cnoise render" or "cnoise map" against noise values
printed by "cnoise sample" at the same points, using the formulas documented in --help
(written again here, independently of the C code).

Usage: python3 check_render.py KIND FILE SAMPLES W H [params...]
  SAMPLES holds W*H values, row by row (pixel centres i + 0.5, j + 0.5), or for the kinds that
  need neighbours (normal, slope, shade, map) (W+2)*(H+2) values: the same grid grown by one pixel on
  every side (x from -0.5 to W + 0.5).
  gray8  FILE SAMPLES W H MID HALF         8-bit gray PNG, round(t * 255)
  gray16 FILE SAMPLES W H MID HALF         16-bit gray PNG, round(t * 65535)
  r16    FILE SAMPLES W H MID HALF         raw little-endian uint16
  minmax FILE SAMPLES W H                  8-bit gray PNG normalised by the image's min and max
  rgb    FILE SAMPLES W H MID HALF RAMP    RGB PNG through RAMP ("POS:#RRGGBB,...")
  f32    FILE SAMPLES W H                  raw little-endian float32
  pfm    FILE SAMPLES W H                  PFM, "Pf", scale -1, rows bottom to top
  npy    FILE SAMPLES W H                  .npy float32 (header parsed here; numpy.load too if present)
  normal FILE SAMPLES W H MID HALF K       normal map, heights t, gradient scale K
  slope  FILE SAMPLES W H MID HALF K       slope map (8-bit gray), heights t, gradient scale K
  shade  FILE SAMPLES W H MID HALF K AZ EL [RAMP]  hillshade (gray) or shaded colours (RAMP)
  normal-a, slope-a, shade-a: the same with "render --gradient analytic": SAMPLES holds W*H lines
         "v dv/dx dv/dy" ("cnoise sample --gradient", no halo), and the gradient of the heights is
         K * (dv/dx, -dv/dy) / (2 HALF) (y grows down the image, the normal's green up it)
  map    FILE SAMPLES W H SEA K AZ EL RAMP        "cnoise map" colours
Prints nothing and exits 0 on success; prints the first mismatches and exits 1 otherwise.
Shaded kinds, normal and slope maps allow a difference of 1 per channel (the gradient may round
differently); the others must match exactly.
"""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngread import read_png  # noqa: E402


def rnd(x):
    """round half up, clamped to what a byte or a 16-bit sample holds is done by callers"""
    return int(math.floor(x + 0.5))


def byte(c):
    if not c > 0:
        return 0
    if c >= 255:
        return 255
    return rnd(c)


def tval(v, mid, half):
    if half > 0:
        return ((v - mid) / half + 1.0) / 2.0
    return 0.0 if v < mid else 1.0 if v > mid else 0.5


def clamp01(t):
    return 0.0 if t < 0 else 1.0 if t > 1 else t


def parse_ramp(text):
    stops = []
    for item in text.split(","):
        p, c = item.split(":")
        c = c.lstrip("#")
        stops.append((float(p), [int(c[k:k + 2], 16) for k in (0, 2, 4)]))
    return stops


def ramp_eval(stops, t):
    if not t > stops[0][0]:
        k, t = 0, stops[0][0]
    elif t >= stops[-1][0]:
        k, t = len(stops) - 2, stops[-1][0]
    else:
        k = 0
        while k + 2 < len(stops) and t >= stops[k + 1][0]:
            k += 1
    f = (t - stops[k][0]) / (stops[k + 1][0] - stops[k][0])
    return [stops[k][1][ch] + (stops[k + 1][1][ch] - stops[k][1][ch]) * f for ch in range(3)]


def light(az, el):
    a, e = math.radians(math.fmod(az, 360.0)), math.radians(el)
    if el == 90:
        return (0.0, 0.0, 1.0)
    return (math.cos(e) * math.sin(a), math.cos(e) * math.cos(a), math.sin(e))


def shade_i(L, gx, gy):
    d = (-gx * L[0] - gy * L[1] + L[2]) / math.sqrt(gx * gx + gy * gy + 1.0)
    return d if d > 0 else 0.0


def factor(L, gx, gy):
    return 0.4 + 0.6 * shade_i(L, gx, gy) / L[2]


class Mismatch(Exception):
    pass


errors = []


def expect(got, want, where, tol=0):
    if abs(got - want) > tol:
        errors.append("%s: got %r, want %r" % (where, got, want))


def main():
    kind, path, samples, W, H = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    args = sys.argv[6:]
    vals = [float(x) for x in open(samples).read().split()]
    analytic = kind.endswith("-a")
    kind = kind[:-2] if analytic else kind
    if analytic:  # value, d/dx, d/dy per pixel
        if len(vals) != 3 * W * H:
            print("%s: %d numbers, expected %d" % (samples, len(vals), 3 * W * H))
            return 1
        dvx = [vals[3 * (j * W) + 1:3 * (j + 1) * W:3] for j in range(H)]
        dvy = [vals[3 * (j * W) + 2:3 * (j + 1) * W:3] for j in range(H)]
        vals = vals[0::3]
    halo = kind in ("normal", "slope", "shade", "map") and not analytic
    cw, ch = (W + 2, H + 2) if halo else (W, H)
    if len(vals) != cw * ch:
        print("%s: %d samples, expected %d" % (samples, len(vals), cw * ch))
        return 1
    grid = [vals[j * cw:(j + 1) * cw] for j in range(ch)]
    if analytic:  # the lookups below as with a halo: the value at [j + 1][i + 1]
        grid = [[0.0] * (W + 2)] + [[0.0] + r + [0.0] for r in grid] + [[0.0] * (W + 2)]

    if kind in ("f32", "pfm", "npy"):
        data = open(path, "rb").read()
        if kind == "f32":
            body = data
        elif kind == "pfm":
            head = b"Pf\n%d %d\n-1.0\n" % (W, H)
            if not data.startswith(head):
                print("PFM header %r, expected %r" % (data[:len(head)], head))
                return 1
            body = data[len(head):]
        else:
            if data[:8] != b"\x93NUMPY\x01\x00":
                print("not an .npy version 1.0 file")
                return 1
            (hlen,) = struct.unpack("<H", data[8:10])
            header = data[10:10 + hlen].decode("latin1")
            want = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (H, W)
            if header.rstrip() != want or (10 + hlen) % 64 != 0 or not header.endswith("\n"):
                print("npy header %r, expected %r padded to 64 bytes" % (header, want))
                return 1
            body = data[10 + hlen:]
            try:
                import numpy
                arr = numpy.load(path)
                if arr.dtype != numpy.float32 or arr.shape != (H, W):
                    print("numpy.load: dtype %s shape %s" % (arr.dtype, arr.shape))
                    return 1
            except ImportError:
                pass
        if len(body) != W * H * 4:
            print("%d bytes of floats, expected %d" % (len(body), W * H * 4))
            return 1
        floats = struct.unpack("<%df" % (W * H), body)
        for j in range(H):
            src = H - 1 - j if kind == "pfm" else j
            for i in range(W):
                want = struct.unpack("<f", struct.pack("<f", grid[j][i]))[0]
                expect(floats[src * W + i], want, "pixel (%d, %d)" % (i, j))
    elif kind == "r16":
        mid, half = float(args[0]), float(args[1])
        data = open(path, "rb").read()
        if len(data) != W * H * 2:
            print("%d bytes, expected %d" % (len(data), W * H * 2))
            return 1
        got = struct.unpack("<%dH" % (W * H), data)
        for j in range(H):
            for i in range(W):
                expect(got[j * W + i], rnd(clamp01(tval(grid[j][i], mid, half)) * 65535), "pixel (%d, %d)" % (i, j))
    else:
        w, h, depth, ctype, rows = read_png(path)
        want_fmt = {"gray8": (8, 0), "minmax": (8, 0), "gray16": (16, 0), "rgb": (8, 2), "normal": (8, 2), "slope": (8, 0),
                    "map": (8, 2), "shade": (8, 2 if len(args) > 5 else 0)}[kind]
        if (w, h, depth, ctype) != (W, H) + want_fmt:
            print("PNG %dx%d depth %d colour type %d, expected %dx%d depth %d type %d" %
                  ((w, h, depth, ctype, W, H) + want_fmt))
            return 1
        if kind == "minmax":
            lo, hi = min(vals), max(vals)
            for j in range(H):
                for i in range(W):
                    t = (grid[j][i] - lo) / (hi - lo) if hi > lo else 0.5
                    expect(rows[j][i], rnd(t * 255), "pixel (%d, %d)" % (i, j))
        elif kind in ("gray8", "gray16", "rgb"):
            mid, half = float(args[0]), float(args[1])
            stops = parse_ramp(args[2]) if kind == "rgb" else None
            for j in range(H):
                for i in range(W):
                    t = clamp01(tval(grid[j][i], mid, half))
                    if kind == "gray8":
                        expect(rows[j][i], rnd(t * 255), "pixel (%d, %d)" % (i, j))
                    elif kind == "gray16":
                        expect(rows[j][i], rnd(t * 65535), "pixel (%d, %d)" % (i, j))
                    else:
                        c = ramp_eval(stops, t)
                        for k in range(3):
                            expect(rows[j][3 * i + k], byte(c[k]), "pixel (%d, %d) channel %d" % (i, j, k))
        else:
            if kind == "map":
                sea, K, az, el, stops = float(args[0]), float(args[1]), float(args[2]), float(args[3]), \
                    parse_ramp(args[4])
                height = lambda v: v  # noqa: E731
            else:
                mid, half, K = float(args[0]), float(args[1]), float(args[2])
                height = lambda v: tval(v, mid, half)  # noqa: E731
            for j in range(H):
                for i in range(W):
                    if analytic:  # t = ((v - mid) / half + 1) / 2: dt/dv = 1 / (2 half)
                        gx = K * (0.5 / half) * dvx[j][i]
                        gy = -(K * (0.5 / half) * dvy[j][i])
                    else:
                        gx = K * (height(grid[j + 1][i + 2]) - height(grid[j + 1][i])) * 0.5
                        gy = K * (height(grid[j][i + 1]) - height(grid[j + 2][i + 1])) * 0.5
                    v = grid[j + 1][i + 1]
                    where = "pixel (%d, %d)" % (i, j)
                    if kind == "slope":  # the angle from the horizontal over 90 degrees
                        angle = math.degrees(math.atan(math.hypot(gx, gy)))
                        expect(rows[j][i], byte(angle / 90.0 * 255.0), where, 1)
                    elif kind == "normal":
                        inv = 1.0 / math.sqrt(gx * gx + gy * gy + 1.0)
                        n = (-gx * inv, -gy * inv, inv)
                        for k in range(3):
                            expect(rows[j][3 * i + k], byte((n[k] + 1.0) * 0.5 * 255.0), where, 1)
                    elif kind == "shade":
                        L = light(float(args[3]), float(args[4]))
                        if len(args) > 5:
                            f = factor(L, gx, gy)
                            c = ramp_eval(parse_ramp(args[5]), clamp01(tval(v, mid, half)))
                            for k in range(3):
                                expect(rows[j][3 * i + k], byte(c[k] * f), where, 1)
                        else:
                            expect(rows[j][i], byte(shade_i(L, gx, gy) * 255.0), where, 1)
                    else:  # map
                        L = light(az, el)
                        f = factor(L, gx, gy)
                        if v < sea:
                            f = 1.0 + (f - 1.0) * 0.1
                        vc = min(1.0, max(-1.0, v))
                        p = 0.5 * (vc + 1.0) / (sea + 1.0) if vc < sea else \
                            (1.0 if sea >= 1 else 0.5 + 0.5 * (vc - sea) / (1.0 - sea))
                        c = ramp_eval(stops, p)
                        for k in range(3):
                            expect(rows[j][3 * i + k], byte(c[k] * f), where, 1)
    if errors:
        print("%d mismatches, e.g.:" % len(errors))
        for e in errors[:5]:
            print("  " + e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
