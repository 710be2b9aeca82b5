#!/usr/bin/env python3
"""Benchmark: a 2048x2048 fBm grid (Perlin 2D, 6 octaves, float32) from Python, against the same
call made from C, and against two other ways of getting Perlin noise into numpy.

    python3 python/bench.py [--rounds 7] [--threads 0] [--library build/libcnoise.a]

Measured in the same run, each as the median of --rounds rounds:
  C          cn_grid_evalf from a small C program compiled here against libcnoise.a (the time
             of the call alone, buffer allocated once);
  Python     cnoise.Noise(...).grid(shape, out=buf, threads=T) (buffer reused, as in C) and
             .grid(shape) (a new array each time);
  noise      noise.pnoise2(x, y, octaves=6) in a Python loop (Debian's python3-noise), timed on a
             256x256 part of the grid and scaled to 2048x2048 (per-sample time x 4194304);
  numpy      a vectorised numpy improved-Perlin fBm written for this benchmark (float32, the
             same 6 octaves, lacunarity 2, gain 0.5), 2 rounds.
The C and Python rounds alternate, so both see the same machine load.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
# This script lives beside the package's source folder, which has no built extension: import the
# installed package instead.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
import cnoise  # noqa: E402

REPO = HERE.parent
SIZE = 2048
CFG = dict(type="perlin", dims=2, seed=1, fractal="fbm", octaves=6, frequency=1 / 64)

C_PROGRAM = r"""
#define _POSIX_C_SOURCE 200809L
#include <cnoise.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
/* cbench ROUNDS THREADS: times cn_grid_evalf on a 2048x2048 fBm-6 grid, one line per round. */
int main(int argc, char **argv)
{
    int rounds = atoi(argv[1]), threads = atoi(argv[2]);
    cn_config cfg;
    cn_noise gen;
    cn_config_init(&cfg);
    cfg.seed = 1;
    cfg.fractal = CN_FRACTAL_FBM;
    cfg.octaves = 6;
    if (cn_noise_build(&gen, &cfg) != CN_OK)
        return 1;
    size_t count[2] = {2048, 2048};
    double origin[2] = {0, 0}, step[2] = {1, 1};
    float *out = malloc(2048 * 2048 * sizeof *out);
    cn_grid_evalf(&gen, origin, step, count, out, 2048 * 2048, threads, NULL); /* warm up */
    for (int r = 0; r < rounds; r++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        cn_status st = cn_grid_evalf(&gen, origin, step, count, out, 2048 * 2048, threads, NULL);
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (st != CN_OK)
            return 1;
        printf("%.9f %.9g\n", (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec), out[2048 * 1000 + 77]);
    }
    free(out);
    return 0;
}
"""


def find_library(given):
    for p in ([given] if given else []) + [os.environ.get("CNOISE_LIBRARY"), REPO / "build-python" / "libcnoise.a",
                                            REPO / "build" / "libcnoise.a"]:
        if p and Path(p).is_file():
            return Path(p)
    sys.exit("bench: no libcnoise.a: pass --library (a build of this checkout)")


def build_c(lib, folder):
    src = Path(folder) / "cbench.c"
    exe = Path(folder) / "cbench"
    src.write_text(C_PROGRAM)
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-std=c11", "-I", str(REPO / "include"), str(src), str(lib),
                    "-lm", "-lpthread", "-o", str(exe)], check=True)
    return exe


def numpy_fbm(x, y, perm, octaves=6):
    """Improved Perlin noise 2D (quintic fade, 8 gradient directions from a 256-entry
    permutation) summed over octaves, vectorised over whole arrays in float32."""
    gx = np.array([1, -1, 1, -1, 1, -1, 0, 0], dtype=np.float32)
    gy = np.array([1, 1, -1, -1, 0, 0, 1, -1], dtype=np.float32)
    total = np.zeros(x.shape, dtype=np.float32)
    amp, norm, f = np.float32(1), np.float32(0), np.float32(1)
    for _ in range(octaves):
        px, py = x * f, y * f
        fx, fy = np.floor(px), np.floor(py)
        dx, dy = px - fx, py - fy
        ix = fx.astype(np.int32) & 255
        iy = fy.astype(np.int32) & 255
        u = dx * dx * dx * (dx * (dx * 6 - 15) + 10)
        v = dy * dy * dy * (dy * (dy * 6 - 15) + 10)
        a, b = perm[ix], perm[ix + 1]

        def corner(h, ox, oy):
            g = h & 7
            return gx[g] * (dx - ox) + gy[g] * (dy - oy)

        n00 = corner(perm[a + iy], 0, 0)
        n10 = corner(perm[b + iy], 1, 0)
        n01 = corner(perm[a + iy + 1], 0, 1)
        n11 = corner(perm[b + iy + 1], 1, 1)
        nx0 = n00 + u * (n10 - n00)
        nx1 = n01 + u * (n11 - n01)
        total += amp * (nx0 + v * (nx1 - nx0))
        norm += amp
        amp *= np.float32(0.5)
        f *= np.float32(2)
    return total / norm


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--threads", type=int, default=0, help="0 = all cores (default), 1 = one thread")
    ap.add_argument("--library", help="libcnoise.a for the C program (default: build-python/ or build/)")
    args = ap.parse_args()

    lib = find_library(args.library)
    n = cnoise.Noise(**CFG)
    shape = (SIZE, SIZE)
    buf = np.empty(shape, dtype=np.float32)
    n.grid(shape, out=buf, threads=args.threads)  # warm up
    c_times, py_out_times, py_new_times = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_c(lib, tmp)
        for _ in range(args.rounds):
            r = subprocess.run([str(exe), "1", str(args.threads)], capture_output=True, text=True, check=True)
            t, sample = r.stdout.split()
            c_times.append(float(t))
            assert np.float32(sample) == buf[1000, 77], "C and Python disagree"
            t0 = time.perf_counter()
            n.grid(shape, out=buf, threads=args.threads)
            py_out_times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            n.grid(shape, threads=args.threads)
            py_new_times.append(time.perf_counter() - t0)

    c = statistics.median(c_times)
    po = statistics.median(py_out_times)
    pn = statistics.median(py_new_times)
    print(f"machine: {os.cpu_count()} CPUs, instruction set {cnoise.isa()['active']}, threads={args.threads}, "
          f"{args.rounds} rounds (medians)")
    print(f"{'C cn_grid_evalf':38s} {c * 1e3:9.2f} ms   1.00x")
    print(f"{'Python grid(out=buf)':38s} {po * 1e3:9.2f} ms   {po / c:.2f}x")
    print(f"{'Python grid() (new array)':38s} {pn * 1e3:9.2f} ms   {pn / c:.2f}x")

    try:
        import noise  # Debian: python3-noise
    except ImportError:
        print("noise.pnoise2: not installed (Debian package python3-noise)")
    else:
        part = 256
        t0 = time.perf_counter()
        for j in range(part):
            for i in range(part):
                noise.pnoise2(i / 64.0, j / 64.0, octaves=6)
        t = (time.perf_counter() - t0) * (SIZE * SIZE) / (part * part)
        print(f"{'noise.pnoise2 loop (scaled from 256^2)':38s} {t * 1e3:9.0f} ms   {t / c:.0f}x")

    perm = np.random.default_rng(0).permutation(256).astype(np.int32)
    perm = np.concatenate([perm, perm, perm[:2]])
    x = (np.arange(SIZE, dtype=np.float32) / np.float32(64))[None, :]
    y = (np.arange(SIZE, dtype=np.float32) / np.float32(64))[:, None]
    xs, ys = np.broadcast_to(x, shape), np.broadcast_to(y, shape)
    times = []
    for _ in range(2):
        t0 = time.perf_counter()
        img = numpy_fbm(xs, ys, perm)
        times.append(time.perf_counter() - t0)
    assert img.shape == shape and np.isfinite(img).all()
    t = statistics.median(times)
    print(f"{'numpy vectorised Perlin fBm-6':38s} {t * 1e3:9.0f} ms   {t / c:.0f}x")


if __name__ == "__main__":
    main()
