#!/usr/bin/env python3
"""Benchmark of the Dask front end (cnoise.dask): a 16384 x 16384 fBm grid (Perlin 2D, 6 octaves,
float32) computed on a local dask.distributed cluster, against one in-process Noise.grid call.

    /usr/bin/python3 python/bench_dask.py [--size 16384] [--chunks 2048,512] [--rounds 5]

Measured in one run, each figure the median of --rounds rounds, the rounds alternating between
the ways so that all see the same machine load:
  grid       Noise.grid(shape, threads=2): one call, 2 library threads, a new array;
  dask 2w    cnoise.dask.grid(..., chunks) on a LocalCluster of 2 worker processes with 1 thread
             each (the library's threads=1 per task), persisted: every block computed and held in
             the workers' memory (where to_zarr would write it from), timed from building the
             graph to the last block; for each --chunks size;
  dask 1w    the same with the first chunk size on a LocalCluster of 1 worker process (scaling);
  CPU time   of each way: this process's (its threads; it also hosts the Dask schedulers, nannies
             and client) plus, for Dask, the worker processes' user + system time: a figure that
             other users' load on the machine changes far less than the wall time;
  per core   Noise.grid of a --core-size square grid with threads=1: ns per sample on one core,
             the rate behind the paper estimate for 10^12 samples.
Each round uses another seed (the same work), so no round finds blocks of an earlier one. After the
rounds, one Dask result is gathered and compared bit for bit with Noise.grid (not timed).
It prints a markdown section: docs/BENCH.md holds it below the marker line that scripts/bench.sh
keeps when it rewrites the rest.
"""
import argparse
import os
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
# This script lives beside the package's source folder, which has no built extension: import the
# installed package instead.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
import cnoise  # noqa: E402
import cnoise.dask  # noqa: E402
from distributed import Client, futures_of, wait  # noqa: E402

CFG = dict(type="perlin", dims=2, fractal="fbm", octaves=6, frequency=1 / 64)


def cluster(workers):
    c = cnoise.dask.local_cluster(n_workers=workers, threads_per_worker=1, silence_logs=40)
    return c, Client(c, set_as_default=False)


def cpu_seconds():
    """User + system CPU time of this process (all its threads) so far."""
    t = os.times()
    return t[0] + t[1]


def timed_persist(client, noise, shape, chunks):
    """(wall seconds, CPU seconds): the CPU time of the workers and of this process (the client
    and the schedulers and nannies of the clusters), which does not depend on other users' load."""
    cpu = sum(client.run(cpu_seconds).values()) + cpu_seconds()
    t = time.perf_counter()
    a = cnoise.dask.grid(noise, shape, chunks)
    p = client.persist(a)
    futures = futures_of(p)
    with client.as_current():
        wait(futures)
    dt = time.perf_counter() - t
    cpu = sum(client.run(cpu_seconds).values()) + cpu_seconds() - cpu
    client.cancel(futures)
    del p
    return dt, cpu


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=16384, help="grid side (default 16384)")
    ap.add_argument("--chunks", default="2048,512", help="chunk sides to time, comma-separated (default 2048,512)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds; each figure is their median (default 5)")
    ap.add_argument("--core-size", type=int, default=4096, help="grid side of the per-core rate (default 4096)")
    args = ap.parse_args()
    chunk_list = [int(c) for c in args.chunks.split(",")]
    if args.size < 1 or args.rounds < 1 or args.core_size < 1 or min(chunk_list) < 1:
        ap.error("sizes, chunks and rounds must be at least 1")
    shape = (args.size, args.size)
    samples = args.size * args.size

    started = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load0 = os.getloadavg()
    c2, client2 = cluster(2)
    c1, client1 = cluster(1)
    try:
        warm = cnoise.Noise(seed=0, **CFG)
        for cl in (client2, client1):  # imports and first calls on every worker
            cl.compute(cnoise.dask.grid(warm, (1024, 1024), 256), sync=True)
        times = {"grid": [], "core": []}
        cpus = {"grid": []}
        for key in [("2w", ch) for ch in chunk_list] + [("1w", chunk_list[0])]:
            times[key], cpus[key] = [], []
        for r in range(args.rounds):
            noise = cnoise.Noise(seed=1000 + r, **CFG)
            cpu, t = cpu_seconds(), time.perf_counter()
            x = noise.grid(shape, threads=2)
            times["grid"].append(time.perf_counter() - t)
            cpus["grid"].append(cpu_seconds() - cpu)
            del x
            for key, cl in [(("2w", ch), client2) for ch in chunk_list] + [(("1w", chunk_list[0]), client1)]:
                wall, cpu = timed_persist(cl, noise, shape, key[1])
                times[key].append(wall)
                cpus[key].append(cpu)
            t = time.perf_counter()
            noise.grid((args.core_size, args.core_size), threads=1)
            times["core"].append(time.perf_counter() - t)
            print(f"round {r + 1}/{args.rounds}: grid {times['grid'][-1]:.3f} s, "
                  + ", ".join(f"dask 2w/{ch} {times[('2w', ch)][-1]:.3f} s" for ch in chunk_list)
                  + f", dask 1w/{chunk_list[0]} {times[('1w', chunk_list[0])][-1]:.3f} s", file=sys.stderr)
        # Not timed: the Dask result is the in-process grid bit for bit.
        check = cnoise.Noise(seed=1000, **CFG)
        got = client2.compute(cnoise.dask.grid(check, shape, chunk_list[0]), sync=True)
        same = np.array_equal(got.view(np.uint32), check.grid(shape, threads=2).view(np.uint32))
        del got
    finally:
        client1.close()
        c1.close()
        client2.close()
        c2.close()
    load1 = os.getloadavg()

    med = {k: statistics.median(v) for k, v in times.items()}
    cmed = {k: statistics.median(v) for k, v in cpus.items()}
    g, gc = med["grid"], cmed["grid"]
    ns_core = med["core"] / (args.core_size ** 2) * 1e9
    print(f"## Dask front end ({started})\n")
    print(f"Machine: {cpu_name()}, {os.cpu_count()} cores, cnoise ISA {cnoise.isa()['active']}, "
          f"load average {load0[0]:.1f} before and {load1[0]:.1f} after the run; dask "
          f"{__import__('dask').__version__}, distributed {__import__('distributed').__version__}. "
          f"{args.size} x {args.size} Perlin fBm-6 float32 ({samples / 2**20:.0f} Mi samples), medians of "
          f"{args.rounds} rounds; Dask result equal to Noise.grid bit for bit: {'yes' if same else 'NO'}.\n")
    print("| way | chunks | tasks | wall time | samples/s | wall vs grid | CPU time | CPU vs grid |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(f"| `Noise.grid`, 2 threads | - | 1 | {g:.3f} s | {samples / g / 1e6:.0f} M | 1.00x | {gc:.2f} s | 1.00x |")
    for (kind, ch), label in [((("2w", ch)), "2") for ch in chunk_list] + [((("1w", chunk_list[0])), "1")]:
        t, c = med[(kind, ch)], cmed[(kind, ch)]
        tasks = (-(-args.size // ch)) ** 2
        print(f"| Dask, {label} worker{'s' if label != '1' else ''} x 1 thread | {ch} x {ch} | {tasks} | "
              f"{t:.3f} s | {samples / t / 1e6:.0f} M | {t / g:.2f}x | {c:.2f} s | {c / gc:.2f}x |")
    t1, t2 = med[("1w", chunk_list[0])], med[("2w", chunk_list[0])]
    c2 = cmed[("2w", chunk_list[0])]
    print(f"\nScaling 1 -> 2 workers ({chunk_list[0]} chunks): {t1 / t2:.2f}x. "
          f"Overhead of Dask over one 2-thread call ({chunk_list[0]} chunks): {(t2 / g - 1) * 100:+.1f} % in wall "
          f"time, {(c2 / gc - 1) * 100:+.1f} % in CPU time.")
    print(f"Per core: {ns_core:.2f} ns per sample (Noise.grid {args.core_size}^2, threads=1).")
    core_hours = 1e12 * ns_core * 1e-9 / 3600
    eff = gc / c2  # CPU time of the in-process call over Dask's: the share of Dask's CPU that computes noise
    print(f"\nPaper estimate, 10^12 samples at {ns_core:.2f} ns per sample per core: {core_hours:.1f} core-hours; "
          "on N nodes of 32 cores, every core busy, at the measured Dask CPU efficiency "
          f"({eff * 100:.0f} %: in-process CPU time over Dask's, {chunk_list[0]} chunks), computing only "
          "(writing 4 TiB not included):")
    for nodes in (1, 8, 64, 512):
        sec = core_hours * 3600 / (nodes * 32) / eff
        when = f"{sec / 3600:.1f} h" if sec >= 7200 else f"{sec / 60:.1f} min" if sec >= 120 else f"{sec:.0f} s"
        print(f"- {nodes} node{'s' if nodes > 1 else ''} ({nodes * 32} cores): {when}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
