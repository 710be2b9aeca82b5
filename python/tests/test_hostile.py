"""Hostile input: clear exceptions or correct results, never a crash."""
import threading

import numpy as np
import pytest

import cnoise
from conftest import same_bits

N2 = cnoise.Noise(seed=5, fractal="fbm", octaves=3)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float16,
                                   np.float32, np.float64, np.longdouble, np.bool_])
def test_any_real_dtype_is_converted_once(dtype):
    xs = np.arange(-20, 20).astype(dtype)
    ys = np.full(40, 3).astype(dtype)
    got = N2.points(xs, ys)
    want = N2.points(xs.astype(np.float64), ys.astype(np.float64))
    same_bits(got, want)


@pytest.mark.parametrize("bad", [np.array([1 + 2j]), np.array(["1.5"]), np.array([object()], dtype=object),
                                 ["a", "b"], np.array([b"x"])])
def test_non_real_coordinates_are_refused(bad):
    with pytest.raises(TypeError, match="coordinate"):
        N2.points(bad, 1.0)
    with pytest.raises(TypeError):
        N2.grid((3, 3), origin=bad)


def test_non_contiguous_and_strided_inputs():
    base = np.random.default_rng(0).uniform(-50, 50, size=(42, 30))
    xs = base[::3, ::-2]                        # negative and non-unit strides, (14, 15)
    ys = np.asfortranarray(base)[1::3, 1::2]    # Fortran order, (14, 15)
    assert xs.shape == ys.shape and not xs.flags.c_contiguous and not ys.flags.c_contiguous
    same_bits(N2.points(xs, ys), N2.points(np.ascontiguousarray(xs), np.ascontiguousarray(ys)))
    zs = np.broadcast_to(ys[:, :1], xs.shape)   # zero stride
    same_bits(N2.points(xs, zs), N2.points(np.ascontiguousarray(xs), np.ascontiguousarray(zs)))
    be = xs.astype(">f8")         # big-endian input
    same_bits(N2.points(be, ys), N2.points(xs, ys))


def test_nan_and_inf_give_nan():
    v = N2.points([np.nan, np.inf, -np.inf, 1.0], [0.0, 0.0, 0.0, np.nan])
    assert np.isnan(v).all()
    assert np.isnan(N2(np.nan, 1.0))
    assert np.isnan(N2.points(np.float32(np.nan), 2.0, dtype=np.float32))[()]
    with pytest.raises(cnoise.Error, match="cn_grid_eval"):
        N2.grid((4, 4), origin=(np.nan, 0.0))  # the library refuses a non-finite origin
    with pytest.raises(cnoise.Error):
        N2.grid((4, 4), step=np.inf)


def test_mismatched_shapes_and_counts():
    with pytest.raises(ValueError, match="broadcast"):
        N2.points(np.zeros(3), np.zeros(4))
    with pytest.raises(TypeError, match="2 coordinate"):
        N2.points(np.zeros(3))
    with pytest.raises(TypeError, match="2 coordinates"):
        N2(1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="shape"):
        N2.grid((3, 3, 3))
    with pytest.raises(ValueError, match="origin"):
        N2.grid((3, 3), origin=(1.0, 2.0, 3.0))
    with pytest.raises(TypeError, match="shape"):
        N2.grid((3.5, 2))


@pytest.mark.parametrize("shape,exc", [
    ((2**62, 2**62), (ValueError, MemoryError)),
    ((2**40, 2**40), (ValueError, MemoryError)),
    ((2**31, 2**31), (ValueError, MemoryError)),
    ((-1, 5), ValueError),
    ((5, -(2**70)), (ValueError, OverflowError)),
    ((2**70, 1), (ValueError, OverflowError, MemoryError)),
])
def test_huge_and_negative_shapes(shape, exc):
    with pytest.raises(exc):
        N2.grid(shape)


def test_zero_sizes():
    with pytest.raises(cnoise.Error, match="cn_grid_evalf"):  # the library refuses a count of 0
        N2.grid((0, 5))
    assert N2.points(np.zeros(0), np.zeros(0)).shape == (0,)  # n = 0 is allowed for points


def test_bad_out_arrays():
    good = np.empty((6, 7), dtype=np.float32)
    with pytest.raises(ValueError, match="out: shape"):
        N2.grid((7, 6), out=good)
    with pytest.raises(TypeError, match="dtype"):
        N2.grid((6, 7), out=np.empty((6, 7), dtype=np.int32))
    with pytest.raises(TypeError, match="does not match"):
        N2.grid((6, 7), out=good, dtype=np.float64)
    with pytest.raises(ValueError, match="C-contiguous"):
        N2.grid((6, 7), out=np.empty((7, 6), dtype=np.float32).T)
    with pytest.raises(ValueError, match="C-contiguous"):
        N2.grid((6, 7), out=np.empty((6, 14), dtype=np.float32)[:, ::2])
    ro = np.empty((6, 7), dtype=np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        N2.grid((6, 7), out=ro)
    with pytest.raises(TypeError, match="dtype"):
        N2.grid((6, 7), out=np.empty((6, 7), dtype=">f4"))
    with pytest.raises(TypeError, match="ndarray"):
        N2.grid((6, 7), out=[[0.0] * 7] * 6)
    with pytest.raises(TypeError, match="dtype"):
        N2.grid((6, 7), dtype=np.int16)
    xs = np.arange(10.0)
    with pytest.raises(ValueError, match="out: shape"):
        N2.points(xs, xs, out=np.empty(9))


def test_out_overlapping_an_input_is_refused():
    xs = np.arange(10.0)
    with pytest.raises(cnoise.Error, match="out"):
        N2.points(xs, 2.0, out=xs)  # xs is used as it is (already float64, contiguous)


def test_layers_hostile():
    with pytest.raises(cnoise.ConfigError, match="layers"):
        cnoise.Layers([])
    with pytest.raises(cnoise.ConfigError, match="layers"):
        cnoise.Layers([(cnoise.Noise(dims=2), 1.0), (cnoise.Noise(dims=3), 1.0)])
    with pytest.raises(cnoise.ConfigError, match="weight"):
        cnoise.Layers([(cnoise.Noise(), float("nan"))])
    with pytest.raises(TypeError, match="layer 0"):
        cnoise.Layers([("perlin", 1.0)])
    with pytest.raises(TypeError, match="layer 1"):
        cnoise.Layers([cnoise.Noise(), 3])


def test_the_generator_cannot_be_built_from_garbage():
    with pytest.raises(TypeError):
        cnoise.Noise.from_config({"no_such_field": 1})
    with pytest.raises(TypeError):
        cnoise.Noise.from_config({"rotation": "abc"})
    with pytest.raises(ValueError):
        cnoise.Noise.from_config({"offset": [0.0] * 5})
    with pytest.raises(TypeError):
        cnoise.Noise.from_config(None)


def test_many_python_threads_at_once():
    noises = [cnoise.Noise(t, dims=d, seed=s, fractal="fbm", octaves=3)
              for t, d, s in [("perlin", 2, 1), ("simplex", 3, 2), ("value", 4, 3), ("perlin", 1, 4)]]
    shapes = {1: (500,), 2: (40, 50), 3: (8, 20, 30), 4: (4, 5, 6, 7)}
    want = [n.grid(shapes[n.dims], origin=0.5, dtype=np.float64, threads=1) for n in noises]
    layers = cnoise.Layers([(noises[0], 0.5), (cnoise.Noise(seed=9), 0.5)])
    want_layers = layers.grid((30, 30), threads=1)
    errors = []

    def work(k):
        try:
            for r in range(15):
                i = (k + r) % len(noises)
                got = noises[i].grid(shapes[noises[i].dims], origin=0.5, dtype=np.float64, threads=k % 3)
                if not np.array_equal(got, want[i]):
                    errors.append(f"thread {k} round {r}: noise {i} differs")
                if not np.array_equal(layers.grid((30, 30), threads=2), want_layers):
                    errors.append(f"thread {k} round {r}: layers differ")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
