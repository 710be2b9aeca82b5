"""Configuration, names, errors, repr, pickling, out=, threads, the GIL."""
import pickle
import threading
import time

import numpy as np
import pytest

import cnoise
from conftest import same_bits


def test_names_come_from_the_library():
    assert cnoise.noise_types() == ["perlin", "simplex", "value", "value-cubic", "cellular", "opensimplex2",
                                    "opensimplex2s"]
    assert cnoise.fractals() == ["none", "fbm", "turbulence", "billow", "ridged", "pingpong", "erosion"]
    assert cnoise.modes() == ["default", "classic"]
    assert cnoise.cell_distances() == ["euclidean", "euclidean-squared", "manhattan", "chebyshev", "minkowski"]
    assert cnoise.cell_returns() == ["f1", "f2", "f2-f1", "f1+f2", "f1*f2", "cell-value", "edge"]
    for t in cnoise.noise_types():  # every name builds (simplex has no 1D: 2D here)
        cnoise.Noise(t, dims=2)
    for f in cnoise.fractals():
        cnoise.Noise(fractal=f)


def test_defaults_are_the_librarys():
    n = cnoise.Noise()
    cfg = n.config
    assert (cfg["type"], cfg["dims"], cfg["frequency"], cfg["octaves"]) == ("perlin", 2, 1 / 64, 5)
    assert "frequency = 0.015625" in cnoise.Noise.__doc__


@pytest.mark.parametrize("kw,field,status_text", [
    (dict(type="simplex", dims=1), "dims", "unsupported"),
    (dict(frequency=0.0), "frequency", "frequency"),
    (dict(frequency=float("nan")), "frequency", "frequency"),
    (dict(octaves=0), "octaves", "octaves"),
    (dict(octaves=10**30), "octaves", "octaves"),
    (dict(lacunarity=100.0), "lacunarity", "lacunarity"),
    (dict(gain=0.0), "gain", "gain"),
    (dict(ridge_offset=3.0), "ridge_offset", "ridge"),
    (dict(type="cellular", dims=1), "dims", "unsupported"),
    (dict(type="opensimplex2", dims=1), "dims", "unsupported"),
    (dict(type="opensimplex2", dims=3, period=(6, 0, 0)), "period", "does not tile"),
    (dict(type="opensimplex2s", dims=1), "dims", "unsupported"),
    (dict(type="opensimplex2s", dims=2, period=(3, 0)), "period", "multiples"),
    (dict(type="cellular", jitter=1.5), "jitter", "jitter"),
    (dict(type="cellular", jitter=float("nan")), "jitter", "jitter"),
    (dict(type="cellular", cell_distance="taxicab"), "cell_distance", "cellular"),
    (dict(type="cellular", cell_distance="minkowski", minkowski_p=0.5), "minkowski_p", "minkowski"),
    (dict(type="cellular", cell_return="F1"), "cell_return", "cellular"),
    (dict(weighted_strength=1.5), "weighted_strength", "strength"),
    (dict(fractal="pingpong", pingpong_strength=0.0), "pingpong_strength", "strength"),
    (dict(type="simplex", period=(3, 4)), "period", "period"),
    (dict(period=2**24 + 1), "period", "period"),
    (dict(period=2**40), "period", "period"),
    (dict(period=(4, 4), rotation=0.3), "period", "rotation"),
    (dict(amplitude=float("inf")), "amplitude", "amplitude"),
    (dict(mode="classic", type="value"), "mode", "unsupported"),
    (dict(dims=5), "dims", "dims"),
    (dict(offset=(0.0, float("nan"))), "offset", ""),
])
def test_config_errors_name_the_field(kw, field, status_text):
    with pytest.raises(cnoise.ConfigError) as e:
        cnoise.Noise(**kw)
    err = e.value
    assert isinstance(err, ValueError)
    assert err.field == field or err.field2 == field, (err.field, err.field2, str(err))
    assert str(err).startswith(err.field + ": ")
    assert err.strerror and err.strerror in str(err)
    assert status_text in str(err).lower()


def test_config_error_axis_and_unknown_names():
    with pytest.raises(cnoise.ConfigError) as e:
        cnoise.Noise("simplex", period=(4, 3))
    assert e.value.axis == 1
    with pytest.raises(cnoise.ConfigError, match="type: 'blue' is not one of perlin, simplex, value"):
        cnoise.Noise("blue")
    with pytest.raises(cnoise.ConfigError, match="fractal"):
        cnoise.Noise(fractal="FBM")
    with pytest.raises(cnoise.ConfigError, match="rotation"):
        cnoise.Noise(dims=3, rotation=0.5)  # a bare angle is 2D only (cn_config_rotate2)
    with pytest.raises(cnoise.ConfigError, match="rotation"):
        cnoise.Noise(dims=3, rotation=(0, 0, 0, 1.0))  # zero axis (cn_config_rotate3)
    with pytest.raises(ValueError, match="seed"):
        cnoise.Noise(seed=2**64)
    with pytest.raises(ValueError, match="period"):
        cnoise.Noise(period=-1)
    with pytest.raises(TypeError, match="frequency"):
        cnoise.Noise(frequency="high")


def test_seed_is_64_bit_two_complement():
    a = cnoise.Noise(seed=-1).grid((8, 8), dtype=np.float64)
    b = cnoise.Noise(seed=2**64 - 1).grid((8, 8), dtype=np.float64)
    same_bits(a, b)
    assert not np.array_equal(a, cnoise.Noise(seed=2**64 - 2).grid((8, 8), dtype=np.float64))


def test_period_tiles_exactly():
    n = cnoise.Noise(seed=4, frequency=1 / 16, period=(4, 2), fractal="fbm", octaves=4)
    g = n.grid((64, 128), dtype=np.float64)  # x period 64 units, y period 32
    same_bits(g[:, :64], g[:, 64:])
    same_bits(g[:32], g[32:])


def test_repr_round_trips_and_pickle_is_the_config():
    for n in [cnoise.Noise("simplex", dims=3, seed=2**63 + 5, fractal="ridged", period=(3, 6, 9)),
              cnoise.Noise(dims=2, rotation=0.25, offset=(1.5, 0), amplitude=3.0),
              cnoise.Noise(dims=4, mode="classic"),
              cnoise.Noise("cellular", dims=3, cell_distance="chebyshev", cell_return="f1*f2", jitter=0.25)]:
        again = eval(repr(n), {"cnoise": cnoise})
        assert again == n
        data = pickle.dumps(n)
        assert b"cn_noise" not in data and len(data) < 2000  # the configuration, not 16 KiB of state
        p = pickle.loads(data)
        assert p.config == n.config
        shape = (4,) * n.dims
        same_bits(p.grid(shape, origin=0.3, step=1.7), n.grid(shape, origin=0.3, step=1.7))
    layers = cnoise.Layers([(cnoise.Noise(seed=1), 0.5), (cnoise.Noise(seed=2), 0.25)])
    same_bits(pickle.loads(pickle.dumps(layers)).grid((9, 9)), layers.grid((9, 9)))
    assert "Layers" in repr(layers)


def test_replace():
    n = cnoise.Noise(seed=3, fractal="fbm")
    m = n.replace(octaves=2)
    assert m.config["octaves"] == 2 and m.config["seed"] == 3 and m.config["fractal"] == "fbm"
    assert n.config["octaves"] == 5
    assert n.replace(dims=3).dims == 3


def test_out_is_filled_and_returned():
    n = cnoise.Noise(seed=8)
    out = np.empty((10, 12), dtype=np.float64)
    assert n.grid((10, 12), out=out) is out  # dtype follows out
    same_bits(out, n.grid((10, 12), dtype=np.float64))
    xs = np.linspace(0, 50, 12)
    pout = np.empty(12, dtype=np.float32)
    assert n.points(xs, 3.0, out=pout) is pout
    same_bits(pout, n.points(xs.astype(np.float32), np.float32(3.0), dtype=np.float32))


def test_threads_give_the_same_bits_and_are_validated():
    n = cnoise.Noise("simplex", dims=3, fractal="fbm", octaves=4)
    one = n.grid((16, 64, 64), threads=1)
    for t in (0, 2, 7):
        same_bits(n.grid((16, 64, 64), threads=t), one)
    for bad in (-1, 10**6, 2**40):
        with pytest.raises(cnoise.Error, match="threads"):
            n.grid((4, 4, 4), threads=bad)
    with pytest.raises(TypeError, match="threads"):
        n.grid((4, 4, 4), threads=1.5)


def test_broadcasting_points():
    n = cnoise.Noise(dims=3, seed=1)
    xs = np.arange(5.0)[:, None]
    ys = np.arange(4.0)[None, :]
    v = n.points(xs, ys, 2.5)
    assert v.shape == (5, 4) and v.dtype == np.float64
    assert v[3, 2] == n(3.0, 2.0, 2.5)
    assert n(np.arange(3.0), 1.0, 2.0).shape == (3,)  # __call__ with arrays is points()


def test_gil_is_released_during_batch_calls():
    n = cnoise.Noise(fractal="fbm", octaves=8)
    count = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    ran = []
    try:
        time.sleep(0.05)
        # Up to 5 grids: on a machine whose cores are all busy with other work the scheduler may
        # not run the spinner during one grid; with the GIL held it could run during none.
        for _ in range(5):
            before = count[0]
            n.grid((1024, 1024), threads=1)  # tens of milliseconds of C work
            ran.append(count[0] - before)
            if ran[-1] > 1000:
                break
    finally:
        stop.set()
        t.join()
    assert ran[-1] > 1000, ran  # the spinner ran while a grid was computed


def test_isa_cap_keeps_bits():
    n = cnoise.Noise("simplex", dims=2, fractal="fbm", octaves=3)
    best = n.grid((33, 65), dtype=np.float64)
    try:
        for cap in ("scalar", "sse2", "avx2"):
            cnoise.set_isa_cap(cap)
            assert cnoise.isa()["active"] in ("scalar", "sse2", "avx2", "neon")
            same_bits(n.grid((33, 65), dtype=np.float64), best)
        with pytest.raises(cnoise.Error):
            cnoise.set_isa_cap("mmx")
    finally:
        cnoise.set_isa_cap(None)


def test_help_is_useful():
    import pydoc
    text = pydoc.render_doc(cnoise.Noise, renderer=pydoc.plaintext)
    for word in ("grid(", "points(", "range(", "period", "fractal", "ConfigError", "pickles"):
        assert word in text
    for name in cnoise.__all__:
        obj = getattr(cnoise, name)
        if callable(obj):
            assert obj.__doc__, name
    for meth in ("grid", "points", "range", "reach", "replace", "from_config"):
        assert getattr(cnoise.Noise, meth).__doc__


def test_reach():
    n = cnoise.Noise(frequency=0.5, fractal="fbm", octaves=3)
    assert n.reach(100.0) == pytest.approx(100 * 0.5 * 4)
    assert n.reach((1e308, 1.0)) == float("inf")


def test_terrain_example_writes_a_png(tmp_path):
    import struct
    import subprocess
    import sys
    import zlib
    from pathlib import Path
    script = Path(__file__).resolve().parent.parent / "examples" / "terrain.py"
    out = tmp_path / "t.png"
    subprocess.run([sys.executable, str(script), str(out)], check=True, capture_output=True)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert (w, h, depth, colour) == (1024, 512, 8, 2)
    idat_len = struct.unpack(">I", data[33:37])[0]
    rows = np.frombuffer(zlib.decompress(data[41:41 + idat_len]), dtype=np.uint8).reshape(512, 1 + 1024 * 3)
    assert (rows[:, 0] == 0).all() and rows[:, 1:].std() > 20  # filter bytes, and a picture, not a flat colour
