"""cnoise.dask: noise grids as lazy Dask arrays, for grids larger than one machine.

    >>> import cnoise, cnoise.dask
    >>> n = cnoise.Noise("perlin", dims=2, seed=42, fractal="fbm", octaves=6)
    >>> a = cnoise.dask.grid(n, (65536, 65536), chunks=2048)   # lazy: nothing computed yet
    >>> a.to_zarr("world.zarr")                                 # every block computed where it runs

Every block is one task, one call of the C library (Noise.grid or Layers.grid) at that block's own
place in the grid, independent of every other task (a Dask graph of one layer, as from_array makes), so the assembled array is Noise.grid of the whole shape bit for bit, whatever the chunks
and wherever the blocks run. The generator travels to the workers by value: a Noise pickles as its
configuration and a Layers as its noises' configurations and weights, and both rebuild there.

Coordinates. Noise.grid computes each point as origin + i * step (in double, per point, as
cn_grid_eval does). A block that starts at index s along an axis is evaluated with the origin
origin + s * step and its own indices i - s. The two agree bit for bit when every origin + k * step
of the axis is exact in double: the origin and the step are multiples of one power of two 2^e
(origin = m_o 2^e, step = m_h 2^e) with |m_o| + (n - 1) |m_h| <= 2^53, which holds for whole or
dyadic origins and steps (1, 0.5, 1/1024, ...) at any practical size. On an axis where it does not
hold (a step of 0.1, say), a block that does not start at index 0 is evaluated one slice (one row,
one plane, or along x one column) at a time, each at the grid's own coordinate origin + k * step: still
bit-identical, only slower; exact steps (a power of two, or a whole number) keep it fast.

Threads. Dask runs one task per worker thread, so by default each block uses one library thread
(threads=1): a worker started with --nthreads N then keeps N cores busy, without
oversubscription. threads=0 (one per core) or a count suits a cluster with one task per machine
(dask worker --nthreads 1), where the library's threads then share each block.

Needs Dask (Debian: python3-dask; clusters: python3-distributed; to_zarr: python3-zarr;
xarray_grid: python3-xarray). The rest of cnoise works without them.
"""
import itertools as _itertools
import math as _math
import operator as _operator
from fractions import Fraction as _Fraction

import numpy as _np

try:
    import dask.array as _da
    from dask.base import tokenize as _tokenize
    from dask.highlevelgraph import HighLevelGraph as _HighLevelGraph
except ImportError as _e:
    raise ImportError(f"cnoise.dask needs Dask ({_e}): install it with apt-get install python3-dask "
                      "(python3-distributed for clusters, python3-zarr for to_zarr), or "
                      "python3 -m pip install 'dask[array]' distributed zarr") from None

from . import Layers, Noise, _cnoise, _dtype, _index_tuple, _per_axis

__all__ = ["grid", "xarray_grid", "exact_axes", "local_cluster"]

# A guard against graphs that would take longer to describe than to compute (chunks=1 on a
# million-sample axis): far more blocks than any cluster has cores to run.
MAX_BLOCKS = 10**8

_AXIS_NAMES = ("x", "y", "z", "w")


def exact_axes(shape, origin=0.0, step=1.0):
    """For each coordinate axis (x, y, z, w order), whether every origin + k * step, 0 <= k < n,
    is provably exact in double (the condition in the module's documentation): then blocks along
    that axis are evaluated whole at their own origin; otherwise slice by slice. shape is in
    numpy order, origin and step in coordinate order."""
    ndim = len(shape)
    origin = _per_axis("origin", origin, ndim)
    step = _per_axis("step", step, ndim)
    return tuple(_exact(float(origin[a]), float(step[a]), shape[ndim - 1 - a]) for a in range(ndim))


def _exact(o, h, n):
    fo, fh = _Fraction(o), _Fraction(h)  # exact: a double is a dyadic rational
    d = max(fo.denominator, fh.denominator)  # both powers of two: the larger is a multiple of the other
    mo, mh = fo * d, fh * d                  # whole numbers: origin = mo / d, step = mh / d
    return abs(mo) + (n - 1) * abs(mh) <= 2**53


def _chunks(chunks, shape, dt):
    """Dask's normalised chunks (a tuple of block sizes per axis) from `chunks`: an int (every
    axis), "auto", or one entry per axis (an int, None for the whole axis, or explicit block
    sizes that add up to the axis). Refuses nonsense with a TypeError/ValueError naming it."""
    ndim = len(shape)
    if isinstance(chunks, str):
        if chunks != "auto":
            raise ValueError(f"chunks: expected an int, one entry per axis or 'auto', got {chunks!r}")
        return _da.core.normalize_chunks("auto", shape, dtype=dt)
    if isinstance(chunks, bool):
        raise TypeError(f"chunks: expected whole numbers, got {chunks!r}")
    try:
        per_axis = (_operator.index(chunks),) * ndim
    except TypeError:
        try:
            per_axis = tuple(chunks)
        except TypeError:
            raise TypeError(f"chunks: expected an int, one entry per axis or 'auto', got {chunks!r}") from None
        if len(per_axis) != ndim:
            raise ValueError(f"chunks: expected {ndim} entries (one per axis of shape {shape}), got {len(per_axis)}")
    out = []
    for ax, (c, n) in enumerate(zip(per_axis, shape)):
        if c is None:
            out.append((n,))
            continue
        if isinstance(c, bool):
            raise TypeError(f"chunks: axis {ax}: expected whole numbers, got {c!r}")
        try:
            c = _operator.index(c)
        except TypeError:
            try:
                sizes = tuple(_operator.index(s) for s in c)
            except TypeError:
                raise TypeError(f"chunks: axis {ax}: expected an int, None or block sizes, got {c!r}") from None
            if not sizes or min(sizes) < 1 or any(isinstance(s, bool) for s in c):
                raise ValueError(f"chunks: axis {ax}: block sizes must be at least 1, got {c!r}")
            if sum(sizes) != n:
                raise ValueError(f"chunks: axis {ax}: block sizes add up to {sum(sizes)}, not to the axis size {n}")
            out.append(sizes)
            continue
        if c < 1:
            raise ValueError(f"chunks: axis {ax}: a chunk size must be at least 1, got {c}")
        blocks = -(-n // c)
        if blocks > MAX_BLOCKS:
            raise ValueError(f"chunks: axis {ax}: {blocks} blocks of {c}; use larger chunks")
        c = min(c, n)
        out.append((c,) * (n // c) + ((n % c,) if n % c else ()))
    total = _math.prod(len(b) for b in out)
    if total > MAX_BLOCKS:
        raise ValueError(f"chunks: {total} blocks in all (at most {MAX_BLOCKS}); use larger chunks")
    block = _math.prod(max(b) for b in out) * dt.itemsize
    if block >= 2**63:  # numpy's limit for one array: a block that no worker could allocate
        raise ValueError(f"chunks: a block of {tuple(max(b) for b in out)} {dt.name} values is {block} bytes; "
                         "use smaller chunks")
    return tuple(out)


def _evaluator(gen):
    if not isinstance(gen, (Noise, Layers)):
        raise TypeError(f"gen: expected a cnoise.Noise or cnoise.Layers, got {type(gen).__name__}")
    return gen


def _args(gen, shape, chunks, origin, step, dtype, threads):
    """Every argument checked and converted, before any graph exists."""
    gen = _evaluator(gen)
    shape = _index_tuple("shape", shape, gen.dims)
    if min(shape) < 1:
        raise ValueError(f"shape: every size must be at least 1, got {shape}")
    dt = _dtype(dtype, None)
    origin = tuple(float(v) for v in _per_axis("origin", origin, gen.dims))
    step = tuple(float(v) for v in _per_axis("step", step, gen.dims))
    for name, vals in (("origin", origin), ("step", step)):
        if not all(_math.isfinite(v) for v in vals):
            raise ValueError(f"{name}: expected finite numbers, got {vals}")
    if isinstance(threads, bool):
        raise TypeError(f"threads: expected an int (1 = one per task, 0 = all cores), got {threads!r}")
    try:
        threads = _operator.index(threads)
    except TypeError:
        raise TypeError(f"threads: expected an int (1 = one per task, 0 = all cores), got {threads!r}") from None
    if not 0 <= threads <= _cnoise.MAX_THREADS:
        raise ValueError(f"threads: expected 0 (one per core) to {_cnoise.MAX_THREADS}, got {threads}")
    return gen, shape, _chunks(chunks, shape, dt), origin, step, dt, threads


def _block(gen, origin, step, exact, out_dtype, threads, loc):
    """One block, (start, stop) per array axis in loc: the C library's grid at the block's place
    (see the module's documentation)."""
    ndim = len(loc)
    shape = tuple(stop - start for start, stop in loc)
    start = tuple(loc[ndim - 1 - a][0] for a in range(ndim))  # coordinate order: x first
    out = _np.empty(shape, out_dtype)
    o = [origin[a] + float(start[a]) * step[a] for a in range(ndim)]
    sliced = [a for a in range(ndim) if start[a] > 0 and not exact[a]]
    if not sliced:
        return gen.grid(shape, o, step, threads=threads, out=out)
    # Inexact axes: one slice (count 1) per index, at the grid's own coordinate origin + k * step.
    sub = list(shape)
    for a in sliced:
        sub[ndim - 1 - a] = 1
    tmp = _np.empty(sub, out_dtype)
    for idx in _itertools.product(*(range(shape[ndim - 1 - a]) for a in sliced)):
        sel = [slice(None)] * ndim
        for a, i in zip(sliced, idx):
            o[a] = origin[a] + float(start[a] + i) * step[a]
            sel[ndim - 1 - a] = slice(i, i + 1)
        out[tuple(sel)] = gen.grid(sub, o, step, threads=threads, out=tmp)
    return out


def grid(gen, shape, chunks, origin=0.0, step=1.0, *, dtype=None, threads=1):
    """A lazy dask.array.Array of gen.grid(shape, origin, step, dtype=dtype), in blocks.

    gen     a cnoise.Noise or cnoise.Layers (it travels to the workers as its configuration)
    shape   one int per dimension, numpy order as in Noise.grid (the last axis is x)
    chunks  block size: an int for every axis, one entry per axis (an int, None for the whole
            axis, or a tuple of block sizes that add up to the axis), or "auto" (Dask's choice).
            Sizes larger than the axis mean the whole axis; the last block of an axis may be
            smaller. to_zarr needs regular chunks (every block but the last of an axis the same).
    origin, step
            in coordinate order (x, y, z, w): one number, or one per axis, as in Noise.grid
    dtype   float32 (default) or float64
    threads library threads per block: 1 (default; Dask already runs one task per worker
            thread), 0 for one per core, or a count

    The tasks are named cnoise-grid-<hash of every argument>: equal calls share their blocks.
    Raises TypeError/ValueError for bad arguments before building anything. Computing it with
    any Dask scheduler (threads, processes, a dask.distributed cluster) gives the same bits as
    gen.grid(shape, origin, step, dtype=dtype).
    """
    gen, shape, chunks, origin, step, dt, threads = _args(gen, shape, chunks, origin, step, dtype, threads)
    exact = exact_axes(shape, origin, step)
    name = "cnoise-grid-" + _tokenize(gen, shape, chunks, origin, step, dt.str, threads)
    # One task per block with its place written in: no task depends on another, so any worker can
    # run (or rerun) any block at once. (map_blocks with block_info would add a block-info task
    # per block that the block's task depends on.)
    starts = [_itertools.accumulate((0,) + c[:-1]) for c in chunks]
    starts = [tuple(s) for s in starts]
    dsk = {}
    for idx in _itertools.product(*(range(len(c)) for c in chunks)):
        loc = tuple((starts[a][i], starts[a][i] + chunks[a][i]) for a, i in enumerate(idx))
        dsk[(name,) + idx] = (_block, gen, origin, step, exact, dt, threads, loc)
    graph = _HighLevelGraph.from_collections(name, dsk, dependencies=())
    return _da.Array(graph, name, chunks, meta=_np.empty((0,) * len(shape), dt))


def xarray_grid(gen, shape, chunks, origin=0.0, step=1.0, *, dtype=None, threads=1, name="noise"):
    """grid(...) as an xarray.DataArray with world coordinates: dimensions ("y", "x") in 2D,
    ("z", "y", "x") in 3D, ("w", "z", "y", "x") in 4D, each coordinate origin + k * step (the
    same doubles the library evaluates), and attributes that say what it is (the generator's
    repr, origin, step). Needs python3-xarray; .to_zarr() on it writes the coordinates too."""
    try:
        import xarray
    except ImportError as e:
        raise ImportError(f"cnoise.dask.xarray_grid needs xarray ({e}): install it with apt-get install "
                          "python3-xarray, or python3 -m pip install xarray") from None
    gen, shape, chunks, origin, step, dt, threads = _args(gen, shape, chunks, origin, step, dtype, threads)
    data = grid(gen, shape, chunks, origin, step, dtype=dt, threads=threads)
    ndim = len(shape)
    dims = tuple(_AXIS_NAMES[a] for a in reversed(range(ndim)))
    coords = {}
    for a in range(ndim):
        n = shape[ndim - 1 - a]
        coords[_AXIS_NAMES[a]] = origin[a] + _np.arange(n, dtype=_np.float64) * step[a]
    attrs = {"cnoise": repr(gen), "cnoise_version": _cnoise.version,
             "origin": list(origin), "step": list(step)}
    return xarray.DataArray(data, dims=dims, coords=coords, name=name, attrs=attrs)


def local_cluster(n_workers=2, threads_per_worker=1, **kwargs):
    """A dask.distributed.LocalCluster of n_workers processes on this machine, reachable from
    this machine only: the scheduler, the workers and their HTTP endpoints listen on 127.0.0.1,
    and the scheduler serves no dashboard (LocalCluster's defaults listen on every interface,
    the dashboard on port 8787). kwargs go to LocalCluster. Use it as
    `with local_cluster() as cluster, distributed.Client(cluster) as client: ...`.
    Needs python3-distributed."""
    try:
        from distributed import LocalCluster
    except ImportError as e:
        raise ImportError(f"cnoise.dask.local_cluster needs dask.distributed ({e}): install it with "
                          "apt-get install python3-distributed, or python3 -m pip install distributed") from None
    opts = dict(n_workers=n_workers, threads_per_worker=threads_per_worker, processes=True, host="127.0.0.1",
                dashboard_address=None, scheduler_kwargs=dict(dashboard=False, dashboard_address="127.0.0.1:0"),
                worker_dashboard_address="127.0.0.1:0")
    opts.update(kwargs)
    return LocalCluster(**opts)
