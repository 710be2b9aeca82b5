"""cnoise: coherent noise as numpy arrays, over the cnoise C library.

Perlin ("improved", 2002), simplex and value noise in 1D-4D, fractal sums (fBm, turbulence,
billow, ridged), exact tiling (periods), domain transforms (per-axis frequency, rotation,
offset), amplitude/bias, the published reference code bit for bit (mode="classic"), and
weighted sums of several noises (Layers). Every value is computed by the C library's batch API
(SIMD, threads) with the GIL released, and is bit-identical to what a C program gets.

    >>> import numpy as np, cnoise
    >>> n = cnoise.Noise("perlin", dims=2, seed=42, fractal="fbm", octaves=6, period=(8, 8))
    >>> img = n.grid((512, 512))              # float32, img[j, i] = noise at (i, j)
    >>> v = n.points(np.arange(10), 3.5)      # arrays in, array out, numpy broadcasting
    >>> x = n(0.25, 10.5)                     # one point, a float

Configuration errors are validated by the library and raised as cnoise.ConfigError (a
ValueError) naming the parameter, with the library's explanation.
"""
import operator as _operator

import numpy as _np

try:
    from . import _cnoise
except ImportError as _e:  # the source folder (python/cnoise) imported instead of the installed package
    raise ImportError(f"cnoise: the compiled module is missing next to {__file__} ({_e}); install the "
                      "package (scripts/install-python.sh, or python3 -m pip install --no-build-isolation "
                      "python/) and import it from outside the python/ folder") from None
from ._cnoise import ConfigError, Error

__all__ = ["Noise", "Layers", "Error", "ConfigError", "noise_types", "modes", "fractals",
           "cell_distances", "cell_returns", "period_multiple", "isa", "set_isa_cap", "curl", "curl_grid",
           "Warp", "__version__"]

__version__ = _cnoise.version

_PER_AXIS = ("axis_frequency", "offset", "period")
_FIELDS = ("type", "mode", "dims", "seed", "frequency", "axis_frequency", "rotation", "offset",
           "fractal", "octaves", "lacunarity", "gain", "ridge_offset", "ridge_gain",
           "weighted_strength", "pingpong_strength", "period",
           "amplitude", "bias", "cell_distance", "cell_return", "jitter", "minkowski_p")


def noise_types():
    """The noise type names the library knows, e.g. ['perlin', 'simplex', 'value']."""
    return _cnoise.names("type")


def cell_distances():
    """Cellular noise's distance names: ['euclidean', 'euclidean-squared', 'manhattan', 'chebyshev',
    'minkowski']."""
    return _cnoise.names("cell_distance")


def cell_returns():
    """Cellular noise's return names, e.g. ['f1', 'f2', 'f2-f1', ...] (see cnoise.h)."""
    return _cnoise.names("cell_return")


def modes():
    """The mode names the library knows: ['default', 'classic']."""
    return _cnoise.names("mode")


def fractals():
    """The fractal names the library knows, e.g. ['none', 'fbm', 'turbulence', 'billow', 'ridged']."""
    return _cnoise.names("fractal")


def period_multiple(type, dims):
    """Periods of this noise type and dimension must be multiples of this (cn_period_multiple)."""
    return _cnoise.period_multiple(type, _operator.index(dims))


def isa():
    """Instruction sets: {'name': (compiled, supported)}, and 'active': the one batch calls use."""
    d = _cnoise.isa()
    d["active"] = _cnoise.isa_active()
    return d


def set_isa_cap(cap):
    """Caps the instruction set batch calls use ('scalar', 'sse2', 'avx2', 'avx512', 'neon'), or
    removes the cap (None). Every choice gives the same bits (cn_isa_set_cap)."""
    _cnoise.isa_set_cap(cap)


def _potentials(potentials):
    pots = tuple(potentials)
    if len(pots) not in (1, 3) or not all(isinstance(p, Noise) for p in pots):
        raise TypeError("potentials: one 2D Noise or three 3D Noise objects")
    return pots, (2 if len(pots) == 1 else 3)


def curl(potentials, *coords, dtype=None):
    """Curl noise at one point: (vx, vy) = (d psi/dy, -d psi/dx) of one 2D potential, or the curl
    (vx, vy, vz) of three 3D potentials (say, one configuration with three seeds); a
    divergence-free field (cn_curl; cn_curlf with dtype=float32)."""
    pots, dims = _potentials(potentials)
    if len(coords) != dims:
        raise TypeError(f"curl of {dims}D potentials takes {dims} coordinates, got {len(coords)}")
    single = dtype is not None and _dtype(dtype, None) == _np.float32
    return _cnoise.curl(tuple(p._c for p in pots), tuple(float(c) for c in coords), single)


def curl_grid(potentials, shape, origin=0.0, step=1.0, *, dtype=None, threads=0):
    """Curl noise on a grid (cn_grid_curl[f]): an array of shape (dims,) + shape, [a] the
    field's component along coordinate a (x first), shape and origin/step as in Noise.grid."""
    pots, dims = _potentials(potentials)
    shape = _index_tuple("shape", shape, dims)
    dt = _dtype(dtype, None)
    out = _np.empty((dims,) + shape, dtype=dt)
    _cnoise.curl_grid(tuple(p._c for p in pots), _per_axis("origin", origin, dims), _per_axis("step", step, dims),
                      out, _threads(threads))
    return out


def _index_tuple(name, values, n=None):
    """A tuple of Python ints from an int or a sequence (TypeError/ValueError naming `name`)."""
    try:
        t = (_operator.index(values),)
    except TypeError:
        try:
            t = tuple(_operator.index(v) for v in values)
        except TypeError:
            raise TypeError(f"{name}: expected whole numbers, got {values!r}") from None
    if n is not None and len(t) != n:
        raise ValueError(f"{name}: expected {n} entries (one per dimension), got {len(t)}")
    return t


def _per_axis(name, value, dims):
    """origin/step (and per-axis settings): a number for every axis, or one number per axis."""
    arr = _np.asarray(value)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected numbers, got {value!r}")
    if arr.ndim == 0:
        return (arr.item(),) * dims
    if arr.ndim != 1 or arr.shape[0] != dims:
        raise ValueError(f"{name}: expected one number or {dims} (one per dimension), got shape {arr.shape}")
    return tuple(arr.tolist())


def _as_coords(coords, dtype):
    """The coordinate arrays of a points call: numeric, broadcast together, converted once to
    C-contiguous `dtype` arrays of the broadcast shape."""
    arrays = []
    for k, c in enumerate(coords):
        a = _np.asarray(c)
        if a.dtype.kind not in "biuf":
            raise TypeError(f"coordinate {k}: expected a real numeric array, got dtype {a.dtype}")
        arrays.append(a)
    try:
        shape = _np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        raise ValueError("coordinates: shapes " + ", ".join(str(a.shape) for a in arrays)
                         + " do not broadcast together") from None
    out = []
    for a in arrays:
        if a.shape != shape:
            a = _np.broadcast_to(a, shape)
        out.append(_np.ascontiguousarray(a, dtype=dtype))
    return shape, tuple(out)


def _dtype(dtype, out):
    if dtype is None:
        dtype = out.dtype if isinstance(out, _np.ndarray) else _np.float32
    dt = _np.dtype(dtype)
    if dt not in (_np.dtype(_np.float32), _np.dtype(_np.float64)):
        raise TypeError(f"dtype: float32 (the library's float kernels) or float64, got {dt}")
    if out is not None and isinstance(out, _np.ndarray) and out.dtype != dt:
        raise TypeError(f"out: dtype {out.dtype} does not match dtype={dt}")
    return dt


def _check_out(out, shape, dt):
    if not isinstance(out, _np.ndarray):
        raise TypeError(f"out: expected a numpy.ndarray, got {type(out).__name__}")
    if out.shape != tuple(shape):
        raise ValueError(f"out: shape {out.shape}, expected {tuple(shape)}")
    # The C side refuses other dtypes, byte orders, strides and read-only arrays with a message.
    return out


def _threads(threads):
    try:
        return max(min(_operator.index(threads), 2**31 - 1), -2**31)
    except TypeError:
        raise TypeError(f"threads: expected an int (0 = all cores), got {threads!r}") from None


class _Evaluator:
    """What Noise and Layers share: grid, points, one point; subclasses hold self._c."""

    @property
    def dims(self):
        """The number of dimensions (1..4): coordinates per point, axes of a grid."""
        return self._c.dims

    def grid(self, shape, origin=0.0, step=1.0, *, dtype=None, threads=0, out=None):
        """Evaluates a regular grid and returns it as an array of `shape`.

        shape   one int per dimension, numpy order: (rows, cols) in 2D, (depth, rows, cols) in
                3D, (n4, depth, rows, cols) in 4D; the last axis is x, the first coordinate.
        origin, step
                the coordinates of element [0, ..., 0] and the spacing, in coordinate order
                (x, y, z, w): one number for every axis or one per axis. Element [j, i] of a 2D
                grid is the noise at (origin[0] + i * step[0], origin[1] + j * step[1]),
                computed per element (never accumulated), as cn_grid_eval does.
        dtype   float32 (default, the library's float kernels: cn_grid_evalf) or float64
                (cn_grid_eval); with out= it defaults to out's dtype.
        threads 0 = one per core (default), 1 = the calling thread only, or that many.
        out     an existing C-contiguous, writeable array of `shape` and dtype to fill and return.

        The GIL is released during the evaluation. A shape with a 0 is refused by the library
        (cnoise.Error), a negative or too large one by numpy (ValueError, MemoryError).
        """
        shape = _index_tuple("shape", shape, self.dims)
        dt = _dtype(dtype, out)
        if out is None:
            out = _np.empty(shape, dtype=dt)
        else:
            _check_out(out, shape, dt)
        self._c.grid(_per_axis("origin", origin, self.dims), _per_axis("step", step, self.dims),
                     out, _threads(threads))
        return out

    def dask_grid(self, shape, chunks, origin=0.0, step=1.0, *, dtype=None, threads=1):
        """The same grid as a lazy dask.array.Array in blocks of `chunks`, each block computed by
        the library where Dask runs it, the whole bit-identical to grid(shape, origin, step,
        dtype=dtype). Library threads per block: 1 by default (Dask runs one task per worker
        thread). See cnoise.dask.grid; needs Dask (Debian: python3-dask)."""
        from . import dask as cnoise_dask  # Dask is imported only when asked for
        return cnoise_dask.grid(self, shape, chunks, origin, step, dtype=dtype, threads=threads)

    def __dask_tokenize__(self):
        """Dask's key for this generator: its repr, which evaluates back to an equal one."""
        return (type(self).__name__, repr(self))

    def __call__(self, *coords, dtype=None):
        """n(x, y, ...): the value at one point as a float (cn_eval; cn_evalf with
        dtype=float32, the coordinates rounded to float). With array arguments, n.points(...)."""
        if len(coords) != self.dims:
            raise TypeError(f"a {self.dims}D noise takes {self.dims} coordinates, got {len(coords)}")
        if all(_np.ndim(c) == 0 for c in coords):
            for k, c in enumerate(coords):
                if _np.asarray(c).dtype.kind not in "biuf":
                    raise TypeError(f"coordinate {k}: expected a real number, got {c!r}")
            single = dtype is not None and _np.dtype(dtype) == _np.float32
            if dtype is not None:
                _dtype(dtype, None)
            return self._c.eval(tuple(float(c) for c in coords), single)
        return self.points(*coords, dtype=dtype)

    def _stages(self, warp):
        if not isinstance(warp, Warp):
            raise TypeError(f"warp: expected a cnoise.Warp, got {type(warp).__name__}")
        for i, (fields, _, _) in enumerate(warp._stages):
            if len(fields) != self.dims:
                raise ValueError(f"warp stage {i}: {len(fields)} fields, but the noise is {self.dims}D "
                                 "(one field per axis)")
        return tuple((tuple(f._c for f in fields), a, m) for fields, a, m in warp._stages)

    def warped(self, warp, *coords, dtype=None, grad=False):
        """The value at one point displaced by `warp` (a cnoise.Warp): cn_warp_eval, or
        cn_warp_evalf with dtype=float32 (Layers: cn_warp_layers_eval[f], each layer warped by the
        same stages, then summed). grad=True: (value, (d/dx, ...)), the derivatives by the
        original coordinates through every stage (not for cellular noise)."""
        if len(coords) != self.dims:
            raise TypeError(f"a {self.dims}D noise takes {self.dims} coordinates, got {len(coords)}")
        single = dtype is not None and _dtype(dtype, None) == _np.float32
        return _cnoise.warp_eval(self._c, self._stages(warp), tuple(float(c) for c in coords), single, bool(grad))

    def warped_grid(self, warp, shape, origin=0.0, step=1.0, *, dtype=None, threads=0, grad=False):
        """A grid (as grid()) of the noise displaced by `warp`: cn_warp_grid_eval[f] (Layers:
        cn_warp_layers_grid_eval[f]); float32 by default. grad=True: (values, gradient), gradient
        of shape (dims,) + shape as grid_grad's."""
        stages = self._stages(warp)
        shape = _index_tuple("shape", shape, self.dims)
        dt = _dtype(dtype, None)
        out = _np.empty(shape, dtype=dt)
        g = _np.empty((self.dims,) + shape, dtype=dt) if grad else None
        _cnoise.warp_grid(self._c, stages, _per_axis("origin", origin, self.dims), _per_axis("step", step, self.dims),
                          out, g, _threads(threads))
        return (out, g) if grad else out

    def warped_points(self, warp, *coords, dtype=None, threads=0, grad=False):
        """Many points (as points()) displaced by `warp`: cn_warp_points_eval[f] (Layers:
        cn_warp_layers_points_eval[f]); float64 by default. grad=True: (values, gradient) as
        points_grad gives them."""
        stages = self._stages(warp)
        arrays, out = _points_args(coords, self.dims, "noise", dtype, None)
        g = _np.empty((self.dims,) + out.shape, dtype=out.dtype) if grad else None
        _cnoise.warp_points(self._c, stages, arrays, out, g, _threads(threads))
        return (out, g) if grad else out


def _points_args(coords, dims, noun, dtype, out):
    """The coordinate arrays (broadcast, converted once to the output dtype) and the output array
    (new, or out checked) of a points() call of a dims-D noun ("noise", "sum")."""
    if len(coords) != dims:
        raise TypeError(f"points: a {dims}D {noun} takes {dims} coordinate arrays, got {len(coords)}")
    dt = _dtype(dtype if dtype is not None or out is not None else _np.float64, out)
    shape, arrays = _as_coords(coords, dt)
    if out is None:
        out = _np.empty(shape, dtype=dt)
    else:
        _check_out(out, shape, dt)
    return arrays, out


class Noise(_Evaluator):
    """A configured noise generator (a built cn_config of the C library).

    Noise(type="perlin", *, dims, seed, mode, frequency, axis_frequency, rotation, offset,
          fractal, octaves, lacunarity, gain, ridge_offset, ridge_gain, weighted_strength,
          pingpong_strength, period, amplitude, bias, cell_distance, cell_return, jitter,
          minkowski_p)

    Every argument left out keeps the library's default (cn_config_init; listed below). The
    library validates the configuration: a value it refuses raises cnoise.ConfigError naming
    the parameter and saying why (cn_config_explain).

    type        noise type name: see cnoise.noise_types()
    mode        "default" (seeded, continuous, every noise in [-1, 1]) or "classic" (the
                published reference code bit for bit in double precision)
    dims        1..4 (simplex: 2..4)
    seed        any integer in -2**63 .. 2**64-1 (a negative -n is 2**64 - n)
    frequency   lattice cells per unit of the coordinates
    axis_frequency, offset, period
                one value for every axis, or a sequence of one per axis (x, y, z, w).
                axis_frequency multiplies frequency; offset translates, in lattice cells;
                period (whole number of cells, 0 = none) makes the noise repeat exactly.
    rotation    a 2D angle in radians (cn_config_rotate2), (ax, ay, az, angle) in 3D
                (cn_config_rotate3), or a dims x dims matrix (nested sequences, row-major)
    fractal     fractal name: see cnoise.fractals(); octaves, lacunarity, gain, ridge_offset,
                ridge_gain, weighted_strength, pingpong_strength as in cnoise.h
    amplitude, bias
                the result is amplitude * noise + bias
    cell_distance, cell_return, jitter
                cellular noise (type="cellular"): the distance name (cnoise.cell_distances()),
                what it returns (cnoise.cell_returns()) and how far, 0..1, each cell's feature
                point may stray from the cell's centre
    minkowski_p the exponent p, 1..32, of cell_distance="minkowski": (sum |d|^p)^(1/p)

    Evaluate with n.grid(shape, ...), n.points(xs, ys, ...) or n(x, y). n.range() is the
    documented output range. A Noise is immutable; n.replace(**changes) makes a new one. It
    pickles as its configuration (n.config), never as a pointer, so it travels to other
    processes (multiprocessing, Dask) and rebuilds identically there.
    """

    __slots__ = ("_c",)

    def __init__(self, type=None, *, dims=None, seed=None, mode=None, frequency=None,
                 axis_frequency=None, rotation=None, offset=None, fractal=None, octaves=None,
                 lacunarity=None, gain=None, ridge_offset=None, ridge_gain=None, weighted_strength=None,
                 pingpong_strength=None, period=None, amplitude=None, bias=None, cell_distance=None,
                 cell_return=None, jitter=None, minkowski_p=None):
        given = {k: v for k, v in dict(
            type=type, dims=dims, seed=seed, mode=mode, frequency=frequency,
            axis_frequency=axis_frequency, rotation=rotation, offset=offset, fractal=fractal,
            octaves=octaves, lacunarity=lacunarity, gain=gain, ridge_offset=ridge_offset,
            ridge_gain=ridge_gain, weighted_strength=weighted_strength, pingpong_strength=pingpong_strength,
            period=period, amplitude=amplitude, bias=bias,
            cell_distance=cell_distance, cell_return=cell_return, jitter=jitter,
            minkowski_p=minkowski_p).items()
            if v is not None}
        self._c = _cnoise.Generator(_config_from_kwargs(given))

    @classmethod
    def from_config(cls, config):
        """Rebuilds a Noise from a configuration dict (n.config): every cn_config field."""
        self = cls.__new__(cls)
        self._c = _cnoise.Generator(dict(config))
        return self

    @property
    def config(self):
        """The full configuration (every cn_config field) as a dict, enums by their names."""
        return self._c.config()

    def replace(self, **changes):
        """A new Noise with this configuration and `changes` (the constructor's keywords)."""
        cfg = self.config
        if "rotation" not in changes and cfg["rotate"]:
            d = cfg["dims"]
            changes.setdefault("rotation", [cfg["rotation"][r * d:(r + 1) * d] for r in range(d)])
        kw = {k: cfg[k] for k in _FIELDS if k != "rotation"}
        if "dims" in changes:  # per-axis settings were made for the old dimension
            kw = {k: v for k, v in kw.items() if k not in _PER_AXIS}
        kw.update(changes)
        return Noise(**kw)

    def range(self):
        """The documented output range (low, high) (cn_noise_range): values never leave it
        (except classic simplex, whose measured maxima stay just inside [-1, 1])."""
        return self._c.range()

    def reach(self, extent):
        """cn_noise_reach: the largest |lattice coordinate| any octave reaches for points with
        |p[a]| <= extent[a]; inf where points that far would give NaN."""
        return self._c.reach(_per_axis("extent", extent, self.dims))

    def points(self, *coords, dtype=None, threads=0, out=None):
        """Evaluates the noise at many points: one array (or number) per coordinate, broadcast
        together like numpy arrays; returns an array of the broadcast shape.

        coords  dims array-likes of any real numeric dtype and any strides (converted once to
                contiguous arrays of the output dtype). NaN or inf in a coordinate gives NaN.
        dtype   float64 (default; cn_points_eval) or float32 (cn_points_evalf: the float API,
                coordinates rounded to float32 first); with out= it defaults to out's dtype.
        threads 0 = one per core (default), 1 = the calling thread only, or that many.
        out     an existing C-contiguous writeable array of the broadcast shape to fill and return.
        """
        arrays, out = _points_args(coords, self.dims, "noise", dtype, out)
        self._c.points(arrays, out, _threads(threads))
        return out

    def grad(self, *coords, dtype=None):
        """n.grad(x, y, ...) -> (value, (d/dx, d/dy, ...)): the value at one point (cn_eval's)
        and its analytic partial derivatives by the coordinates (cn_eval_grad; cn_evalf_grad with
        dtype=float32). Every type but cellular (else cnoise.Error), every fractal."""
        if len(coords) != self.dims:
            raise TypeError(f"a {self.dims}D noise takes {self.dims} coordinates, got {len(coords)}")
        single = dtype is not None and _dtype(dtype, None) == _np.float32
        return self._c.eval_grad(tuple(float(c) for c in coords), single)

    def grid_grad(self, shape, origin=0.0, step=1.0, *, dtype=None, threads=0):
        """(values, gradient) of a grid: values as grid() gives them, gradient an array of shape
        (dims,) + shape whose [a] is the derivative along coordinate a (x first: [0] is d/dx,
        along the last axis of values). cn_grid_eval[f]_grad; float32 by default."""
        shape = _index_tuple("shape", shape, self.dims)
        dt = _dtype(dtype, None)
        out = _np.empty(shape, dtype=dt)
        grad = _np.empty((self.dims,) + shape, dtype=dt)
        self._c.grid_grad(_per_axis("origin", origin, self.dims), _per_axis("step", step, self.dims),
                          out, grad, _threads(threads))
        return out, grad

    def points_grad(self, *coords, dtype=None, threads=0):
        """(values, gradient) at many points (as points()): gradient has shape (dims,) + the
        broadcast shape. cn_points_eval[f]_grad; float64 by default."""
        arrays, out = _points_args(coords, self.dims, "noise", dtype, None)
        grad = _np.empty((self.dims,) + out.shape, dtype=out.dtype)
        self._c.points_grad(arrays, out, grad, _threads(threads))
        return out, grad

    def __repr__(self):
        cfg = self.config
        default = _cnoise.default_config()
        parts = [repr(cfg["type"])]
        dims = cfg["dims"]
        for k in _FIELDS[1:]:
            if k == "rotation":
                if cfg["rotate"]:
                    m = cfg["rotation"]
                    parts.append("rotation=" + repr(tuple(tuple(m[r * dims:(r + 1) * dims]) for r in range(dims))))
                continue
            v = cfg[k]
            if v != default[k] or k == "dims":
                if k in _PER_AXIS:
                    v = tuple(v[:dims]) if v[dims:] == default[k][dims:] else tuple(v)
                parts.append(f"{k}={v!r}")
        return "cnoise.Noise(" + ", ".join(parts) + ")"

    def __reduce__(self):
        return (Noise.from_config, (self.config,))

    def __eq__(self, other):
        return isinstance(other, Noise) and self.config == other.config

    def __hash__(self):
        return hash(repr(self))


def _config_from_kwargs(given):
    """A cn_config dict from the constructor's keywords: the library's defaults, with per-axis
    shorthand (one number for every axis) and rotation forms turned into cn_config fields.
    Validation is the library's (the Generator raises ConfigError)."""
    cfg = {k: v for k, v in given.items() if k not in _PER_AXIS and k != "rotation"}
    dims = given.get("dims", _cnoise.default_config()["dims"])
    try:
        dims_n = _operator.index(dims)
    except TypeError:
        dims_n = None  # the Generator refuses it with its message
    for k in _PER_AXIS:
        if k not in given:
            continue
        v = given[k]
        if _np.ndim(v) == 0 and dims_n is not None:
            v = [v] * max(0, min(dims_n, 4))
        cfg[k] = list(v) if _np.ndim(v) == 1 else v
    if "rotation" in given:
        rot = given["rotation"]
        nd = _np.ndim(rot)
        if nd == 2:
            m = _np.asarray(rot, dtype=float)
            if dims_n is None or m.shape != (dims_n, dims_n):
                raise ConfigError(f"rotation: a {dims}D noise needs a {dims}x{dims} matrix, got shape {m.shape}")
            cfg["rotation"] = m.ravel().tolist()
        else:
            cfg["rotation"] = _cnoise.rotation(dims_n if dims_n is not None else 0, rot)
        cfg["rotate"] = True
    return cfg


class Warp:
    """A domain warp for Noise.warped, warped_grid and warped_points (cn_warp_* of the C library):
    a list of stages, each moving the point by amplitude * (fields[0](x), fields[1](x), ...).

    Warp(fields, amplitude, mode="independent")   the first stage
    warp.then(fields, amplitude, mode="progressive") -> a new Warp with one more stage (16 at most)

    fields     one Noise per axis of the warped noise, each of its dimension (any type; give the
               axes different seeds)
    amplitude  finite, in the units of the coordinates
    mode       "independent": the fields at the original point (the stages' displacements add
               up); "progressive": at the point the stages before it moved

    On the warped noise's periodic axes the point is reduced first, so warped tiles repeat
    exactly (seamlessly when the fields have the same period).
    """

    _MODES = ("independent", "progressive")

    def __init__(self, fields, amplitude, mode="independent"):
        self._stages = (self._stage(fields, amplitude, mode),)

    @classmethod
    def _stage(cls, fields, amplitude, mode):
        fields = tuple(fields)
        if not 1 <= len(fields) <= 4 or not all(isinstance(f, Noise) for f in fields):
            raise TypeError("fields: one Noise per axis (1 to 4)")
        if mode not in cls._MODES:
            raise ValueError(f"mode: expected one of {', '.join(cls._MODES)}, got {mode!r}")
        return fields, float(amplitude), cls._MODES.index(mode)

    def then(self, fields, amplitude, mode="progressive"):
        """A new Warp: these stages and one more after them."""
        w = Warp.__new__(Warp)
        w._stages = self._stages + (self._stage(fields, amplitude, mode),)
        return w

    def __len__(self):
        return len(self._stages)

    def __repr__(self):
        return "cnoise.Warp(" + ", ".join(f"({len(f)} fields, {a!r}, {self._MODES[m]!r})"
                                          for f, a, m in self._stages) + ")"


class Layers(_Evaluator):
    """A weighted sum of noises (superposition): value(p) = sum of weight_k * noise_k(p).

    Layers([(noise1, weight1), (noise2, weight2), ...]), or Layers(noise1, noise2) with weight 1.
    Every noise must have the same dims (the library checks: cnoise.ConfigError otherwise).
    grid() uses cn_layers_grid_eval[f] (threads, no allocation in the library); points() and
    calls evaluate cn_layers_eval[f] point by point on the calling thread (GIL released);
    range() is cn_layers_range. Pickles as its layers' configurations and weights.
    """

    __slots__ = ("_c", "_layers")

    def __init__(self, *layers):
        if len(layers) == 1 and not isinstance(layers[0], Noise):
            layers = tuple(layers[0])
        pairs = []
        for k, item in enumerate(layers):
            if isinstance(item, Noise):
                pairs.append((item, 1.0))
                continue
            try:
                noise, weight = item
            except (TypeError, ValueError):
                raise TypeError(f"layer {k}: expected a Noise or a (Noise, weight) pair, got {item!r}") from None
            if not isinstance(noise, Noise):
                raise TypeError(f"layer {k}: expected a Noise, got {type(noise).__name__}")
            pairs.append((noise, float(weight)))
        self._layers = tuple(pairs)
        self._c = _cnoise.LayerSet([(n._c, w) for n, w in pairs])

    @property
    def layers(self):
        """The (Noise, weight) pairs, in summation order."""
        return self._layers

    def range(self):
        """The documented range of the sum (cn_layers_range): (low, high)."""
        return self._c.range()

    def points(self, *coords, dtype=None, out=None):
        """The sum at many points: coordinate arrays broadcast together as in Noise.points;
        float64 (cn_layers_eval) by default, or float32 (cn_layers_evalf)."""
        arrays, out = _points_args(coords, self.dims, "sum", dtype, out)
        self._c.points(arrays, out)
        return out

    def __repr__(self):
        return "cnoise.Layers([" + ", ".join(f"({n!r}, {w!r})" for n, w in self._layers) + "])"

    def __reduce__(self):
        return (Layers, (list(self._layers),))


def _defaults_doc():
    cfg = _cnoise.default_config()
    lines = ["", "Library defaults (cn_config_init):"]
    for k in _FIELDS:
        if k == "rotation":
            continue
        v = cfg[k]
        if k in _PER_AXIS:
            v = v[0]
            k = k + " (each axis)"
        lines.append(f"    {k} = {v!r}")
    lines.append("    rotation = none")
    return "\n".join(lines) + "\n"


Noise.__doc__ += _defaults_doc()
