"""Value and gradient (Noise.grad, grid_grad, points_grad) and curl noise (cnoise.curl,
cnoise.curl_grid) from Python: the library's bits through every route, checked against central
differences computed here with numpy."""
import numpy as np
import pytest

import cnoise

CASES = [
    dict(type="perlin", dims=2, seed=3, fractal="fbm", octaves=4, frequency=0.05),
    dict(type="simplex", dims=3, seed=5, frequency=0.11, rotation=(1, 2, 3, 0.7)),
    dict(type="value-cubic", dims=2, seed=8, frequency=0.2, fractal="ridged", octaves=3),
    dict(type="value", dims=4, seed=2, frequency=0.3, amplitude=-1.5, bias=0.25),
    dict(type="perlin", mode="classic", dims=1, frequency=0.4),
    dict(type="opensimplex2", dims=3, seed=6, frequency=0.07, fractal="erosion", octaves=3),
]


@pytest.mark.parametrize("kw", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grid_grad_matches_points_and_grid(kw, dtype):
    n = cnoise.Noise(**kw)
    shape = (3, 4, 5, 6)[-n.dims:]
    origin, step = 0.25, 0.5  # float-exact grid points
    v, g = n.grid_grad(shape, origin=origin, step=step, dtype=dtype)
    assert v.shape == shape and g.shape == (n.dims,) + shape and g.dtype == dtype
    assert np.array_equal(v, n.grid(shape, origin=origin, step=step, dtype=dtype), equal_nan=True)
    axes = np.meshgrid(*[origin + step * np.arange(s) for s in reversed(shape)], indexing="ij")
    coords = [a.transpose(tuple(reversed(range(n.dims)))) for a in axes]  # x varies along the last axis
    pv, pg = n.points_grad(*coords, dtype=dtype)
    assert np.array_equal(pv, v) and np.array_equal(pg, g)
    idx = (0,) * (n.dims - 1) + (1,)
    value, grad = n.grad(*[float(c[idx]) for c in coords], dtype=dtype)
    assert value == float(v[idx]) and grad == tuple(float(g[a][idx]) for a in range(n.dims))


@pytest.mark.parametrize("kw", CASES)
def test_gradient_against_central_differences(kw):
    n = cnoise.Noise(**kw)
    rng = np.random.default_rng(1)
    p = rng.uniform(-30, 30, size=(n.dims, 200))
    _, g = n.points_grad(*p)
    f = n.config["frequency"] * 2.0 ** (n.config["octaves"] - 1)
    h = 1e-6 / f
    scale = 4 * f * abs(n.config["amplitude"])
    for a in range(n.dims):
        q_plus, q_minus = p.copy(), p.copy()
        q_plus[a] += h
        q_minus[a] -= h
        cd = (n.points(*q_plus) - n.points(*q_minus)) / (q_plus[a] - q_minus[a])
        assert np.max(np.abs(g[a] - cd)) <= 1e-6 * scale


def test_curl():
    pot3 = tuple(cnoise.Noise("simplex", dims=3, seed=s, frequency=0.1) for s in (1, 2, 3))
    v = cnoise.curl_grid(pot3, (2, 3, 4), origin=0.5, step=0.25)
    assert v.shape == (3, 2, 3, 4) and v.dtype == np.float32
    assert tuple(float(c) for c in v[:, 1, 2, 3]) == cnoise.curl(pot3, 0.5 + 3 * 0.25, 0.5 + 2 * 0.25, 0.5 + 0.25,
                                                                  dtype=np.float32)
    pot2 = (cnoise.Noise("perlin", dims=2, seed=4, frequency=0.05),)
    w = cnoise.curl_grid(pot2, (5, 6), dtype=np.float64)
    _, g = pot2[0].grid_grad((5, 6), dtype=np.float64)
    assert np.array_equal(w[0], g[1]) and np.array_equal(w[1], -g[0])


def test_refusals():
    cell = cnoise.Noise("cellular", dims=2)
    with pytest.raises(cnoise.Error):
        cell.grad(0.5, 0.5)
    with pytest.raises(cnoise.Error):
        cell.grid_grad((4, 4))
    with pytest.raises(cnoise.Error):
        cnoise.curl((cell,), 0.5, 0.5)
    with pytest.raises(TypeError):
        cnoise.curl((cnoise.Noise(dims=3),) * 2, 0, 0, 0)
    with pytest.raises(cnoise.Error):  # mixed dimensions: the library's CN_E_DIMS
        cnoise.curl((cnoise.Noise(dims=3), cnoise.Noise(dims=2), cnoise.Noise(dims=3)), 0, 0, 0)
    with pytest.raises(TypeError):
        cnoise.Noise(dims=2).grad(1.0)
