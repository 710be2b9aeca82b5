"""The package's grids and points are the C library's bits: compared with ref.c (the batch API
called from C, one thread) and with the cnoise tool's float32 output, exactly."""
import subprocess

import numpy as np
import pytest

import cnoise
from conftest import same_bits

# (keyword arguments for cnoise.Noise, the same configuration in ref.c's spec syntax)
CONFIGS = [
    (dict(dims=1, seed=7), "dims=1 seed=7"),
    (dict(type="value", dims=1, fractal="fbm", octaves=4, frequency=0.1), "type=value dims=1 fractal=fbm octaves=4 frequency=0.1"),
    (dict(dims=2, seed=42, fractal="fbm", octaves=6, frequency=1 / 64, period=(8, 8)),
     "dims=2 seed=42 fractal=fbm octaves=6 frequency=0.015625 period=8,8"),
    (dict(type="simplex", dims=2, seed=3, fractal="ridged", octaves=5, ridge_offset=0.9, ridge_gain=1.5),
     "type=simplex dims=2 seed=3 fractal=ridged octaves=5 ridge_offset=0.9 ridge_gain=1.5"),
    (dict(type="value", dims=2, seed=2**64 - 1, offset=(0.25, -3.5), axis_frequency=(1.0, 2.5), amplitude=0.5, bias=0.5),
     "type=value dims=2 seed=18446744073709551615 offset=0.25,-3.5 axis_frequency=1,2.5 amplitude=0.5 bias=0.5"),
    (dict(dims=2, seed=-1, rotation=0.6, fractal="billow", octaves=3),
     "dims=2 seed=18446744073709551615 rotate2=0.6 fractal=billow octaves=3"),
    (dict(type="simplex", dims=3, seed=11, period=(6, 6, 6), fractal="turbulence", octaves=4, frequency=0.05),
     "type=simplex dims=3 seed=11 period=6,6,6 fractal=turbulence octaves=4 frequency=0.05"),
    (dict(dims=3, seed=5, rotation=(1, 2, 3, 0.7), lacunarity=2.5, gain=0.6, fractal="fbm"),
     "dims=3 seed=5 rotate3=1,2,3,0.7 lacunarity=2.5 gain=0.6 fractal=fbm"),
    (dict(dims=3, mode="classic", frequency=0.13), "dims=3 mode=classic frequency=0.13"),
    (dict(type="simplex", dims=4, seed=9, frequency=0.07, period=(4, 8, 4, 12)),
     "type=simplex dims=4 seed=9 frequency=0.07 period=4,8,4,12"),
    (dict(dims=4, seed=1, fractal="fbm", octaves=3, rotation=np.eye(4)[::-1] * 0.5 + np.eye(4) * 0.25),
     "dims=4 seed=1 fractal=fbm octaves=3 rotation=" + ",".join(str(v) for v in (np.eye(4)[::-1] * 0.5 + np.eye(4) * 0.25).ravel())),
    (dict(type="value", dims=4, mode="default", octaves=2, fractal="ridged", frequency=0.2),
     "type=value dims=4 octaves=2 fractal=ridged frequency=0.2"),
    (dict(type="value-cubic", dims=2, seed=4, fractal="fbm", octaves=3, period=(5, 7), frequency=0.3),
     "type=value-cubic dims=2 seed=4 fractal=fbm octaves=3 period=5,7 frequency=0.3"),
    (dict(type="value-cubic", dims=3, seed=8, frequency=0.4), "type=value-cubic dims=3 seed=8 frequency=0.4"),
    (dict(type="opensimplex2", dims=2, seed=5, fractal="fbm", octaves=3, period=(4, 6), frequency=0.3),
     "type=opensimplex2 dims=2 seed=5 fractal=fbm octaves=3 period=4,6 frequency=0.3"),
    (dict(type="opensimplex2", dims=3, seed=9, fractal="ridged", octaves=2, frequency=0.2),
     "type=opensimplex2 dims=3 seed=9 fractal=ridged octaves=2 frequency=0.2"),
    (dict(type="opensimplex2s", dims=2, seed=6, fractal="billow", octaves=3, period=(6, 4), frequency=0.3),
     "type=opensimplex2s dims=2 seed=6 fractal=billow octaves=3 period=6,4 frequency=0.3"),
    (dict(type="opensimplex2s", dims=3, seed=11, fractal="fbm", octaves=2, frequency=0.2),
     "type=opensimplex2s dims=3 seed=11 fractal=fbm octaves=2 frequency=0.2"),
    (dict(type="opensimplex2", dims=4, seed=12, fractal="fbm", octaves=2, period=(4, 8, 0, 4), frequency=0.3),
     "type=opensimplex2 dims=4 seed=12 fractal=fbm octaves=2 period=4,8,0,4 frequency=0.3"),
    (dict(type="opensimplex2s", dims=4, seed=13, fractal="turbulence", octaves=2, frequency=0.25),
     "type=opensimplex2s dims=4 seed=13 fractal=turbulence octaves=2 frequency=0.25"),
    (dict(type="cellular", dims=2, seed=5, cell_distance="manhattan", cell_return="f2-f1", jitter=0.7, frequency=0.2,
          period=(6, 4)),
     "type=cellular dims=2 seed=5 cell_distance=manhattan cell_return=f2-f1 jitter=0.7 frequency=0.2 period=6,4"),
    (dict(type="cellular", dims=3, seed=6, fractal="fbm", octaves=3, frequency=0.3),
     "type=cellular dims=3 seed=6 fractal=fbm octaves=3 frequency=0.3"),
    (dict(type="cellular", dims=4, seed=7, cell_return="cell-value", cell_distance="chebyshev", frequency=0.5),
     "type=cellular dims=4 seed=7 cell_return=cell-value cell_distance=chebyshev frequency=0.5"),
    (dict(type="cellular", dims=3, seed=8, cell_return="f2", cell_distance="minkowski", minkowski_p=3.5, frequency=0.4),
     "type=cellular dims=3 seed=8 cell_return=f2 cell_distance=minkowski minkowski_p=3.5 frequency=0.4"),
    (dict(dims=2, seed=9, fractal="pingpong", octaves=4, pingpong_strength=3.5, weighted_strength=0.4, frequency=0.05),
     "dims=2 seed=9 fractal=pingpong octaves=4 pingpong_strength=3.5 weighted_strength=0.4 frequency=0.05"),
    (dict(type="simplex", dims=3, seed=2, fractal="ridged", octaves=3, weighted_strength=0.9, frequency=0.1),
     "type=simplex dims=3 seed=2 fractal=ridged octaves=3 weighted_strength=0.9 frequency=0.1"),
]
IDS = [s.replace(" ", ",") for _, s in CONFIGS]
SHAPES = {1: (37,), 2: (19, 23), 3: (5, 7, 9), 4: (3, 4, 5, 6)}


def ref_grid(ref, prec, spec, dims, shape, origin, step):
    count = list(reversed(shape))
    raw = ref("grid", prec, spec, *origin, *step, *count)
    return np.frombuffer(raw, dtype=np.float32 if prec == "f32" else np.float64).reshape(shape)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("kw,spec", CONFIGS, ids=IDS)
def test_grid_bits(ref, kw, spec, dtype):
    n = cnoise.Noise(**kw)
    dims = n.dims
    origin = [-3.25, 100.5, 7.0, -0.125][:dims]
    step = [0.75, 1.5, 2.0, 0.5][:dims]
    got = n.grid(SHAPES[dims], origin=origin, step=step, dtype=dtype, threads=0)
    want = ref_grid(ref, "f32" if dtype == np.float32 else "f64", spec, dims, SHAPES[dims], origin, step)
    same_bits(got, want)
    assert np.isfinite(got).all()
    assert np.ptp(got) > 0  # a grid that is one value everywhere would compare equal too easily


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("kw,spec", CONFIGS, ids=IDS)
def test_points_bits(ref, kw, spec, dtype):
    n = cnoise.Noise(**kw)
    rng = np.random.default_rng(1)
    coords = [rng.uniform(-300, 300, size=501).astype(dtype) for _ in range(n.dims)]
    coords[0][7] = np.nan  # NaN in -> NaN out, as the library defines
    got = n.points(*coords, dtype=dtype)
    raw = ref("points", "f32" if dtype == np.float32 else "f64", spec, 501, stdin=b"".join(c.tobytes() for c in coords))
    same_bits(got, np.frombuffer(raw, dtype=dtype))
    assert np.isnan(got[7]) and np.isfinite(np.delete(got, 7)).all()


@pytest.mark.parametrize("kw,spec", CONFIGS[::3], ids=IDS[::3])
def test_one_point_is_the_batch_value(ref, kw, spec):
    n = cnoise.Noise(**kw)
    p = [1.3, -2.7, 5.1, 0.4][:n.dims]
    want = ref("points", "f64", spec, 1, stdin=np.array(p).tobytes())
    assert n(*p) == np.frombuffer(want, dtype=np.float64)[0]
    wantf = ref("points", "f32", spec, 1, stdin=np.array(p, dtype=np.float32).tobytes())
    assert n(*p, dtype=np.float32) == float(np.frombuffer(wantf, dtype=np.float32)[0])


@pytest.mark.parametrize("kw,spec", CONFIGS, ids=IDS)
def test_range(ref, kw, spec):
    assert cnoise.Noise(**kw).range() == tuple(np.frombuffer(ref("range", "f64", spec), dtype=np.float64))


LAYERS = (
    [(dict(seed=1, fractal="fbm", octaves=4), 0.75), (dict(type="simplex", seed=2, frequency=0.05), -0.5),
     (dict(type="value", seed=3, period=(4, 4), amplitude=2.0, bias=0.25), 0.125)],
    "seed=1 fractal=fbm octaves=4 weight=0.75|type=simplex seed=2 frequency=0.05 weight=-0.5|"
    "type=value seed=3 period=4,4 amplitude=2 bias=0.25 weight=0.125",
)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
def test_layers_bits(ref, dtype):
    layers = cnoise.Layers([(cnoise.Noise(**kw), w) for kw, w in LAYERS[0]])
    prec = "f32" if dtype == np.float32 else "f64"
    got = layers.grid((31, 17), origin=(2.5, -8.0), step=(1.25, 0.5), dtype=dtype)
    same_bits(got, ref_grid(ref, prec, LAYERS[1], 2, (31, 17), (2.5, -8.0), (1.25, 0.5)))
    rng = np.random.default_rng(2)
    xs, ys = (rng.uniform(-100, 100, 64).astype(dtype) for _ in range(2))
    raw = ref("points", prec, LAYERS[1], 64, stdin=xs.tobytes() + ys.tobytes())
    same_bits(layers.points(xs, ys, dtype=dtype), np.frombuffer(raw, dtype=dtype))
    assert layers.range() == tuple(np.frombuffer(ref("range", "f64", LAYERS[1]), dtype=np.float64))
    assert layers(xs[3], ys[3]) == layers.points(xs[3:4].astype(np.float64), ys[3:4].astype(np.float64))[0]


# --- the cnoise tool: render --format f32 (cn_grid_evalf), volume (npy), sample (%.17g) -----------

def test_cli_render_f32(cli, tmp_path):
    out = tmp_path / "r.f32"
    subprocess.run([cli, "render", "--fractal", "fbm", "--octaves", "6", "--seed", "42", "--period", "8,8",
                    "--size", "96x64", "--precision", "float", "--format", "f32", "-o", str(out)],
                   check=True, capture_output=True)
    want = np.fromfile(out, dtype="<f4").reshape(64, 96)
    n = cnoise.Noise(seed=42, fractal="fbm", octaves=6, period=8)
    same_bits(n.grid((64, 96), origin=0.5, step=1.0), want)  # pixel centres (i + 0.5, j + 0.5)


def test_cli_render_4d_slice(cli, tmp_path):
    out = tmp_path / "r.npy"
    subprocess.run([cli, "render", "--noise", "simplex", "--dims", "4", "--z", "3.5", "--w", "-7.25", "--seed", "5",
                    "--size", "40x30", "--precision", "float", "--format", "npy", "-o", str(out)],
                   check=True, capture_output=True)
    want = np.load(out)
    n = cnoise.Noise("simplex", dims=4, seed=5)
    got = n.grid((1, 1, 30, 40), origin=(0.5, 0.5, 3.5, -7.25), step=1.0)
    same_bits(got[0, 0], want)


def test_cli_volume(cli, tmp_path):
    out = tmp_path / "v.npy"
    subprocess.run([cli, "volume", "--seed", "7", "--size", "24x20x6", "--frequency", "0.08", "--precision", "float",
                    "--fractal", "billow", "--octaves", "3", "-o", str(out)], check=True, capture_output=True)
    want = np.load(out)
    n = cnoise.Noise(dims=3, seed=7, frequency=0.08, fractal="billow", octaves=3)
    same_bits(n.grid((6, 20, 24), origin=0.5, step=1.0), want)


def test_cli_sample_double(cli):
    rng = np.random.default_rng(3)
    pts = rng.uniform(-1000, 1000, size=(200, 3))
    text = "".join(f"{x!r},{y!r},{z!r}\n" for x, y, z in pts)
    r = subprocess.run([cli, "sample", "--classic", "--frequency", "0.37", "--fractal", "fbm", "--octaves", "3"],
                       input=text, capture_output=True, text=True, check=True)
    want = np.array([float(v) for v in r.stdout.split()])
    n = cnoise.Noise(dims=3, mode="classic", frequency=0.37, fractal="fbm", octaves=3)
    same_bits(n.points(pts[:, 0], pts[:, 1], pts[:, 2]), want)
