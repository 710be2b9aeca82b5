"""Domain warp from Python (cnoise.Warp, Noise.warped, warped_grid, warped_points): the values
and gradients are the C library's (the composition of plain evaluations, checked bit for bit
here), every call agrees with the others, and misuse raises."""
import numpy as np
import pytest

import cnoise


def fields(dims, seed, **kw):
    return tuple(cnoise.Noise("simplex", dims=dims, seed=seed + k, frequency=0.05, **kw) for k in range(dims))


def test_single_stage_is_the_composition():
    n = cnoise.Noise("perlin", dims=2, seed=3, frequency=0.03, fractal="fbm", octaves=3)
    f = fields(2, 10)
    w = cnoise.Warp(f, 7.5)
    for x, y in [(0.25, 3.5), (-40.0, 17.125), (123.5, -8.75)]:
        dx, dy = f[0](x, y), f[1](x, y)
        want = n(x + 7.5 * dx, y + 7.5 * dy)
        assert n.warped(w, x, y) == want


def test_progressive_is_the_composition():
    n = cnoise.Noise("value", dims=3, seed=1, frequency=0.04)
    f1, f2 = fields(3, 20), fields(3, 30)
    w = cnoise.Warp(f1, 5.0).then(f2, -2.5)
    assert len(w) == 2
    p = [1.5, -2.25, 9.0]
    q = [p[k] + 5.0 * f1[k](*p) for k in range(3)]
    r = [q[k] - 2.5 * f2[k](*q) for k in range(3)]
    assert n.warped(w, *p) == n(*r)


def test_calls_agree():
    n = cnoise.Noise("simplex", dims=2, seed=5, frequency=0.02, fractal="fbm", octaves=4)
    w = cnoise.Warp(fields(2, 40), 12.0).then(fields(2, 50), 3.0)
    for dt in (np.float32, np.float64):
        grid = n.warped_grid(w, (6, 9), origin=(0.5, -3.0), step=0.75, dtype=dt)
        assert grid.dtype == dt and grid.shape == (6, 9)
        xs = 0.5 + 0.75 * np.arange(9)
        ys = -3.0 + 0.75 * np.arange(6)
        pts = n.warped_points(w, xs[None, :], ys[:, None], dtype=dt)
        assert np.array_equal(grid, pts)
        assert float(grid[4, 7]) == n.warped(w, float(xs[7]), float(ys[4]), dtype=dt)
        v, g = n.warped_grid(w, (6, 9), origin=(0.5, -3.0), step=0.75, dtype=dt, grad=True)
        assert np.array_equal(v, grid) and g.shape == (2, 6, 9)
        vp, gp = n.warped_points(w, xs[None, :], ys[:, None], dtype=dt, grad=True)
        assert np.array_equal(g, gp)
        v1, g1 = n.warped(w, float(xs[2]), float(ys[5]), dtype=dt, grad=True)
        assert v1 == float(v[5, 2]) and g1 == (float(g[0, 5, 2]), float(g[1, 5, 2]))


def test_gradient_matches_differences():
    n = cnoise.Noise("perlin", dims=2, seed=8, frequency=0.05)
    w = cnoise.Warp(fields(2, 60), 4.0)
    x, y, h = 3.3, 7.9, 1e-6
    _, (gx, gy) = n.warped(w, x, y, grad=True)
    fx = (n.warped(w, x + h, y) - n.warped(w, x - h, y)) / (2 * h)
    fy = (n.warped(w, x, y + h) - n.warped(w, x, y - h)) / (2 * h)
    assert abs(gx - fx) < 1e-6 and abs(gy - fy) < 1e-6


def test_periodic_tiles_repeat():
    n = cnoise.Noise("perlin", dims=2, seed=2, frequency=1 / 64, period=(4, 4), fractal="fbm", octaves=3)
    f = tuple(cnoise.Noise("perlin", dims=2, seed=s, frequency=1 / 32, period=(8, 8)) for s in (1, 2))
    w = cnoise.Warp(f, 20.0)
    a = n.warped_grid(w, (32, 32), step=8.0)
    b = n.warped_grid(w, (32, 32), origin=(256.0, -512.0), step=8.0)
    assert np.array_equal(a, b)


def test_refusals():
    n = cnoise.Noise(dims=2)
    with pytest.raises(TypeError):
        cnoise.Warp((n, "x"), 1.0)
    with pytest.raises(ValueError):
        cnoise.Warp((n, n), 1.0, mode="sideways")
    with pytest.raises(ValueError):  # three fields for a 2D noise
        n.warped(cnoise.Warp((n, n, n), 1.0), 0.0, 0.0)
    with pytest.raises(TypeError):
        n.warped((n, n), 0.0, 0.0)
    with pytest.raises(cnoise.Error):  # a 3D field: the library's CN_E_WARP
        n.warped(cnoise.Warp((n, cnoise.Noise(dims=3)), 1.0), 0.0, 0.0)
    with pytest.raises(cnoise.Error):  # non-finite amplitude
        n.warped(cnoise.Warp((n, n), float("nan")), 0.0, 0.0)
    cell = cnoise.Noise("cellular", dims=2)
    assert np.isfinite(n.warped(cnoise.Warp((cell, cell), 2.0), 0.5, 0.5))
    with pytest.raises(cnoise.Error):  # no gradient through a cellular field
        n.warped(cnoise.Warp((cell, cell), 2.0), 0.5, 0.5, grad=True)
    w = cnoise.Warp((n, n), 1.0)
    for _ in range(15):
        w = w.then((n, n), 1.0)
    with pytest.raises(ValueError):  # 17 stages
        n.warped(w.then((n, n), 1.0), 0.0, 0.0)


def test_layers_warped_are_the_weighted_sum():
    """Layers.warped*: cn_warp_layers_*, the sum of each layer's own warped values (float:
    each layer's float value, summed in double, rounded once)."""
    a = cnoise.Noise("perlin", dims=2, seed=3, frequency=0.03, fractal="fbm", octaves=3)
    b = cnoise.Noise("value", dims=2, seed=4, frequency=0.125, period=8)
    lay = cnoise.Layers((a, 0.75), (b, -0.5))
    w = cnoise.Warp(fields(2, 70), 6.0).then(fields(2, 80), 1.5)
    xs = 0.25 + 0.5 * np.arange(7)
    ys = -2.0 + 0.75 * np.arange(5)
    for dt in (np.float64, np.float32):
        grid, g = lay.warped_grid(w, (5, 7), origin=(0.25, -2.0), step=(0.5, 0.75), dtype=dt, grad=True)
        pts, gp = lay.warped_points(w, xs[None, :], ys[:, None], dtype=dt, grad=True)
        assert np.array_equal(grid, pts) and np.array_equal(g, gp)
        va, ga = a.warped_grid(w, (5, 7), origin=(0.25, -2.0), step=(0.5, 0.75), dtype=dt, grad=True)
        vb, gb = b.warped_grid(w, (5, 7), origin=(0.25, -2.0), step=(0.5, 0.75), dtype=dt, grad=True)
        want = (0.75 * va.astype(np.float64) + -0.5 * vb.astype(np.float64)).astype(dt)
        wantg = (0.75 * ga.astype(np.float64) + -0.5 * gb.astype(np.float64)).astype(dt)
        assert np.array_equal(grid, want) and np.array_equal(g, wantg)
        v1, g1 = lay.warped(w, float(xs[3]), float(ys[2]), dtype=dt, grad=True)
        assert v1 == float(grid[2, 3]) and g1 == (float(g[0, 2, 3]), float(g[1, 2, 3]))
    with pytest.raises(cnoise.Error):
        cnoise.Layers(cnoise.Noise("cellular", dims=2), a).warped(w, 1.0, 2.0, grad=True)
