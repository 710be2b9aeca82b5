"""The Dask front end (cnoise.dask): lazy block grids computed on a dask.distributed cluster of 2
worker processes, compared bit for bit with one in-process Noise.grid of the whole shape.

One LocalCluster (2 worker processes, 1 thread each, no dashboards, 127.0.0.1 only) is started
for the whole module. Without Dask (python3-dask, python3-distributed) these tests are skipped
with that reason, except the one that checks the package works without Dask."""
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cnoise
from conftest import same_bits

try:
    import dask
    import dask.array as da
    from distributed import Client, get_task_stream
    import cnoise.dask as cdask
    HAVE_DASK = None
except ImportError as e:
    HAVE_DASK = f"Dask is not installed ({e}): apt-get install python3-dask python3-distributed"

needs_dask = pytest.mark.skipif(HAVE_DASK is not None, reason=str(HAVE_DASK))


@pytest.fixture(scope="module")
def client():
    if HAVE_DASK is not None:
        pytest.skip(HAVE_DASK)
    cluster = cdask.local_cluster(n_workers=2, threads_per_worker=1, silence_logs=40)
    c = Client(cluster, set_as_default=False)
    yield c
    c.close()
    cluster.close()


def compute(client, *arrays):
    """The arrays computed on the cluster (one graph), and the workers that ran cnoise blocks."""
    with get_task_stream(client) as ts:
        out = client.compute(list(arrays), sync=True)
    workers = {t["worker"] for t in ts.data if str(t["key"]).find("cnoise-grid") >= 0}
    return out, workers


def _listening(pids):
    """(pid, address, port) of every listening TCP socket of these processes, from /proc."""
    inodes = {}
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes[link[8:-1]] = pid
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                field = line.split()
                local, state, inode = field[1], field[3], field[9]
                if state == "0A" and inode in inodes:  # 0A: LISTEN
                    addr, port = local.split(":")
                    found.append((inodes[inode], addr, int(port, 16)))
    return found


@needs_dask
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc to list the cluster's sockets")
def test_cluster_listens_on_loopback_only(client):
    pids = [os.getpid()] + list(client.run(os.getpid).values())  # scheduler and nannies here, workers
    found = _listening(pids)
    assert {pid for pid, _, _ in found} == set(pids), found  # every process listens somewhere
    loopback = ("0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000")
    assert all(addr in loopback for _, addr, _ in found), found  # 127.0.0.1 (or ::1), not 0.0.0.0


@needs_dask
def test_fbm6_4096_in_512_chunks_on_two_workers(client):
    n = cnoise.Noise("perlin", dims=2, seed=2026, fractal="fbm", octaves=6)
    a = n.dask_grid((4096, 4096), 512)
    assert a.chunks == ((512,) * 8, (512,) * 8) and a.dtype == np.float32
    (got,), workers = compute(client, a)
    assert len(workers) == 2  # both worker processes computed blocks
    same_bits(got, n.grid((4096, 4096)))


@needs_dask
def test_volume_periodic_uneven_one_row_and_oversized_chunks(client):
    vol = cnoise.Noise("simplex", dims=3, seed=5, fractal="ridged", octaves=4, frequency=1 / 32)
    # Period 5 x 3 cells of 64 samples: 320 x 192 samples, crossed by the 100-sample chunk borders.
    tile = cnoise.Noise("perlin", dims=2, seed=8, fractal="fbm", octaves=5, period=(5, 3))
    flat = cnoise.Noise("value-cubic", dims=2, seed=3, fractal="billow", octaves=3)
    cases = [
        (vol, (96, 160, 144), (40, 64, 50), dict(origin=(-1000, 7, 123456))),
        (tile, (400, 700), 100, {}),
        (flat, (64, 300), (1, 300), dict(origin=-64.5)),                # one-row chunks
        (flat, (257, 300), ((100, 57, 100), (7, 293)), dict(dtype=np.float64)),  # uneven, explicit
        (flat, (257, 300), (1000, 10**6), dict(step=0.25)),              # chunks larger than the array
    ]
    arrays = [g.dask_grid(shape, chunks, **kw) for g, shape, chunks, kw in cases]
    assert arrays[2].numblocks == (64, 1) and arrays[4].numblocks == (1, 1)
    got, workers = compute(client, *arrays)
    assert len(workers) == 2
    for (g, shape, _, kw), x in zip(cases, got):
        same_bits(x, g.grid(shape, **kw))
    t = got[1]
    same_bits(t[:, :320], t[:, 320:640])  # the period really is 320 samples, across chunk borders
    same_bits(t[:192], t[192:384])


def _matrix():
    """Every noise type and dimension, the fractals, periods, classic mode, rotation, layers,
    float32 and float64, exact and inexact steps, in small grids of odd chunks."""
    shapes = {1: ((1000,), (300,)), 2: ((61, 83), (32, 30)), 3: ((13, 17, 19), (7, 9, 10)),
              4: ((5, 6, 7, 9), (3, 4, 4, 5))}
    fractals = ["none", "fbm", "turbulence", "billow", "ridged"]
    cases = []
    k = 0
    for t in cnoise.noise_types():
        for dims in range(1, 5):
            os2 = t in ("opensimplex2", "opensimplex2s")
            if (t in ("simplex", "cellular") or os2) and dims == 1:
                continue
            shape, chunks = shapes[dims]
            kw = dict(dims=dims, seed=k * 7919 + 1, fractal=fractals[k % 5], octaves=3, frequency=1 / 8)
            cases.append((cnoise.Noise(t, **kw), shape, chunks, dict(origin=-37.5, dtype=np.float32)))
            if not (os2 and dims == 3):  # no periods there
                cases.append((cnoise.Noise(t, period=cnoise.period_multiple(t, dims) * 2, **kw), shape, chunks,
                              dict(origin=3, dtype=np.float64)))
            k += 1
    for t, dims in [("perlin", 3), ("perlin", 4), ("simplex", 2), ("simplex", 4)]:
        shape, chunks = shapes[dims]
        cases.append((cnoise.Noise(t, dims=dims, mode="classic", frequency=1 / 8), shape, chunks,
                      dict(origin=0.5, dtype=np.float64)))
    rot = cnoise.Noise(dims=3, rotation=(1, 2, 3, 0.7), fractal="fbm", offset=(0.25, 0, 0))
    cases.append((rot, shapes[3][0], shapes[3][1], {}))
    layers = cnoise.Layers([(cnoise.Noise(seed=1, fractal="fbm"), 0.75),
                            (cnoise.Noise("simplex", seed=2, frequency=1 / 16, period=(4, 6)), 0.25)])
    cases.append((layers, (61, 83), (16, 20), dict(origin=(-5, 9))))
    cases.append((layers, (61, 83), 16, dict(dtype=np.float64, step=(0.5, 2))))
    layers3 = cnoise.Layers(cnoise.Noise("value", dims=3), cnoise.Noise("perlin", dims=3, seed=9))
    cases.append((layers3, (13, 17, 19), (5, 4, 7), {}))
    # Inexact steps: blocks that do not start at index 0 are evaluated slice by slice.
    n2 = cnoise.Noise("perlin", dims=2, seed=4, fractal="fbm", octaves=4)
    cases.append((n2, (61, 83), (16, 20), dict(origin=(1e3 / 7, -7.3), step=(1 / 3, 0.1), dtype=np.float64)))
    cases.append((n2, (61, 83), (16, 20), dict(origin=(0, 0.5), step=(1, 0.1), dtype=np.float64)))
    cases.append((layers3, (13, 17, 19), (5, 4, 7), dict(step=0.3)))
    return cases


@needs_dask
def test_every_type_dimension_fractal_period_and_layers(client):
    cases = _matrix()
    assert len(cases) > 40
    got, _ = compute(client, *[g.dask_grid(shape, chunks, **kw) for g, shape, chunks, kw in cases])
    for (g, shape, _, kw), x in zip(cases, got):
        same_bits(x, g.grid(shape, **kw))


@needs_dask
def test_inexact_steps_need_the_slices():
    """The case the slicing exists for: a block's own origin + i * step would differ from the
    grid's origin + (s + i) * step, so evaluating the block whole at its origin is not the grid."""
    o, h, s = 1e3 / 7, 1 / 3, 16
    assert any((o + s * h) + i * h != o + (s + i) * h for i in range(20))
    assert cdask.exact_axes((61, 83), (o, -7.3), (h, 0.1)) == (False, False)
    assert cdask.exact_axes((4096, 4096), (-1000, 0.5), (1, 2.0**-10)) == (True, True)
    assert cdask.exact_axes((2**30,), 2.0**22, 2.0**23) == (True,)   # 2^22 + (2^30 - 1) 2^23 <= 2^53
    assert cdask.exact_axes((2**30,), 2.0**30, 2.0**23) == (False,)  # 2^30 + (2^30 - 1) 2^23 > 2^53
    assert cdask.exact_axes((2**31,), 0.5, 2.0**23) == (False,)      # 1 + (2^31 - 1) 2^24 > 2^53 (in halves)
    n = cnoise.Noise("perlin", dims=2, seed=4, fractal="fbm", octaves=4)
    # In float64 the last bit of the coordinate shows (in float32 it is mostly rounded away).
    naive = n.grid((20, 83), origin=(o + s * h, -7.3), step=(h, 0.1), dtype=np.float64)  # block 1, whole
    whole = n.grid((20, 83 + s), origin=(o, -7.3), step=(h, 0.1), dtype=np.float64)
    assert not np.array_equal(naive, whole[:, s:s + 83])
    for dt in (np.float64, np.float32):
        blocks = cdask.grid(n, (20, 83 + s), (7, s), (o, -7.3), (h, 0.1), dtype=dt).compute(scheduler="sync")
        same_bits(blocks, n.grid((20, 83 + s), origin=(o, -7.3), step=(h, 0.1), dtype=dt))


@needs_dask
def test_to_zarr_round_trip(client, tmp_path):
    zarr = pytest.importorskip("zarr", reason="Zarr is not installed: apt-get install python3-zarr")
    n = cnoise.Noise("perlin", dims=2, seed=77, fractal="fbm", octaves=6)
    a = n.dask_grid((1000, 1200), 256, origin=(4096, -2048))
    path = str(tmp_path / "world.zarr")
    client.compute(a.to_zarr(path, compute=False), sync=True)
    z = zarr.open(path, mode="r")
    assert z.chunks == (256, 256) and z.shape == (1000, 1200) and z.dtype == np.float32  # chunk-aligned
    same_bits(z[:], n.grid((1000, 1200), origin=(4096, -2048)))
    same_bits(da.from_zarr(path).compute(scheduler="sync"), z[:])


@needs_dask
def test_xarray_grid_coordinates_and_zarr(client, tmp_path):
    xr = pytest.importorskip("xarray", reason="xarray is not installed: apt-get install python3-xarray")
    n = cnoise.Noise("value", dims=3, seed=1, fractal="fbm")
    shape, origin, step = (6, 50, 70), (100, -20, 0.5), (0.25, 1, 2)
    x = cdask.xarray_grid(n, shape, (4, 32, 32), origin, step, dtype=np.float64)
    assert x.dims == ("z", "y", "x") and x.shape == shape
    assert x.x[3].item() == 100 + 3 * 0.25 and x.y[0].item() == -20 and x.z[5].item() == 0.5 + 5 * 2
    assert eval(x.attrs["cnoise"], {"cnoise": cnoise}) == n
    path = str(tmp_path / "vol.zarr")
    client.compute(x.to_dataset().to_zarr(path, compute=False), sync=True)
    back = xr.open_zarr(path)
    same_bits(back["noise"].values, n.grid(shape, origin, step, dtype=np.float64))
    same_bits(back.x.values, x.x.values)


def _progress(dask_scheduler, name):
    """Run on the scheduler: per worker, the blocks of array `name` it holds or is computing, and
    how many blocks are finished overall (the scheduler's keys are strings: "('name', i, j)")."""
    mine = "('" + name + "',"
    per = {}
    for ws in dask_scheduler.workers.values():
        per[ws.address] = sum(1 for ts in list(ws.has_what) + list(ws.processing) if str(ts.key).startswith(mine))
    done = sum(1 for ts in dask_scheduler.tasks.values() if str(ts.key).startswith(mine) and ts.state == "memory")
    return per, done


@needs_dask
def test_worker_killed_mid_computation(client):
    # 32 octaves with gain 0.9 (none skipped): about a second of work per worker on this machine.
    n = cnoise.Noise("perlin", dims=2, seed=31, fractal="fbm", octaves=32, gain=0.9)
    shape = (4096, 2048)
    a = n.dask_grid(shape, 256)
    total = a.npartitions
    pids = client.run(os.getpid)
    fut = client.compute(a)
    deadline = time.monotonic() + 60
    while True:
        per, done = client.run_on_scheduler(_progress, name=a.name)
        busy = {w: k for w, k in per.items() if k > 0}
        if done >= 16 and len(busy) == 2:  # blocks finished (some on the victim) and both working
            break
        assert done < total and time.monotonic() < deadline, "the computation ended before a worker was killed"
        time.sleep(0.005)
    victim = max(busy, key=busy.get)
    os.kill(pids[victim], signal.SIGKILL)
    assert done < total  # it was killed in the middle, holding or computing `busy[victim]` blocks
    assert busy[victim] > 0
    print(f"killed worker pid {pids[victim]} with {done}/{total} blocks done; it held or was computing "
          f"{busy[victim]} of them")
    got = fut.result(timeout=120)
    same_bits(got, n.grid(shape))
    assert pids[victim] not in client.run(os.getpid).values()  # that process is gone
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it for the other tests


@needs_dask
def test_bad_input_raises_before_any_task():
    n = cnoise.Noise(seed=1)
    bad = [
        (dict(shape=(0, 10), chunks=5), ValueError, "shape"),
        (dict(shape=(-3, 10), chunks=5), ValueError, "shape"),
        (dict(shape=(10,), chunks=5), ValueError, "shape"),
        (dict(shape=(10, 10, 10), chunks=5), ValueError, "shape"),
        (dict(shape=(10, 10.5), chunks=5), TypeError, "shape"),
        (dict(shape=(10, 10), chunks=0), ValueError, "chunks"),
        (dict(shape=(10, 10), chunks=-1), ValueError, "chunks"),
        (dict(shape=(10, 10), chunks=(5, 0)), ValueError, "chunks"),
        (dict(shape=(10, 10), chunks=(5,)), ValueError, "chunks"),
        (dict(shape=(10, 10), chunks=(5, 5, 5)), ValueError, "chunks"),
        (dict(shape=(10, 10), chunks=((5, 4), 5)), ValueError, "add up"),
        (dict(shape=(10, 10), chunks=((5, 5, 0), 5)), ValueError, "chunks"),
        (dict(shape=(10, 10), chunks="big"), ValueError, "chunks"),
        (dict(shape=(10, 10), chunks=2.5), TypeError, "chunks"),
        (dict(shape=(10, 10), chunks=True), TypeError, "chunks"),
        (dict(shape=(10**9, 10**9), chunks=1), ValueError, "larger chunks"),
        (dict(shape=(2**40, 2**40), chunks=2**40), ValueError, "smaller chunks"),
        (dict(shape=(10, 10), chunks=5, dtype=np.int32), TypeError, "dtype"),
        (dict(shape=(10, 10), chunks=5, dtype=np.float16), TypeError, "dtype"),
        (dict(shape=(10, 10), chunks=5, dtype="complex128"), TypeError, "dtype"),
        (dict(shape=(10, 10), chunks=5, origin=float("nan")), ValueError, "origin"),
        (dict(shape=(10, 10), chunks=5, step=(1, float("inf"))), ValueError, "step"),
        (dict(shape=(10, 10), chunks=5, step=(1, 2, 3)), ValueError, "step"),
        (dict(shape=(10, 10), chunks=5, threads=-1), ValueError, "threads"),
        (dict(shape=(10, 10), chunks=5, threads=10**6), ValueError, "threads"),
        (dict(shape=(10, 10), chunks=5, threads="all"), TypeError, "threads"),
    ]
    for kw, exc, word in bad:
        with pytest.raises(exc) as e:
            cdask.grid(n, **kw)
        assert word in str(e.value), (kw, str(e.value))
    with pytest.raises(TypeError, match="gen"):
        cdask.grid("perlin", (10, 10), 5)
    # Nothing was built or submitted: the checks come before the graph (no scheduler needed).
    with dask.config.set(scheduler=lambda *a, **k: pytest.fail("a task was submitted")):
        with pytest.raises(ValueError):
            n.dask_grid((0, 5), 5)


@needs_dask
def test_threads_default_and_override_same_bits(monkeypatch):
    """Each block calls the library with threads=1 unless told otherwise (recorded in-process
    with the synchronous scheduler), and every thread count gives the same bits."""
    n = cnoise.Noise("simplex", dims=3, seed=6, fractal="fbm")
    shape, chunks = (20, 64, 300), (10, 32, 300)
    want = n.grid(shape)
    grid = cnoise.Noise.grid
    seen = []

    def spy(self, *args, **kw):
        seen.append(kw["threads"])
        return grid(self, *args, **kw)
    monkeypatch.setattr(cnoise.Noise, "grid", spy)
    for kw, threads in ((dict(), 1), (dict(threads=0), 0), (dict(threads=3), 3)):
        seen.clear()
        same_bits(n.dask_grid(shape, chunks, **kw).compute(scheduler="sync"), want)
        assert seen == [threads] * 4


@needs_dask
def test_graph_pickles_and_names_are_deterministic():
    n = cnoise.Noise("perlin", dims=2, seed=3, fractal="fbm")
    a, b = n.dask_grid((100, 100), 30), cnoise.Noise("perlin", dims=2, seed=3, fractal="fbm").dask_grid((100, 100), 30)
    assert a.name == b.name and a.name.startswith("cnoise-grid-")
    assert n.replace(seed=4).dask_grid((100, 100), 30).name != a.name
    data = pickle.dumps(a)
    assert b"cn_noise" not in data
    same_bits(pickle.loads(data).compute(scheduler="sync"), n.grid((100, 100)))


def test_package_works_without_dask(tmp_path):
    """With every dask module refusing to import: cnoise imports and evaluates, and the Dask front
    end raises an ImportError that names what to install."""
    script = tmp_path / "nodask.py"
    script.write_text(
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'dask' or name.startswith('dask.') or name == 'distributed':\n"
        "            raise ImportError('No module named ' + repr(name) + ' (blocked by the test)')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import cnoise\n"
        "n = cnoise.Noise(seed=1)\n"
        "assert n.grid((8, 8)).shape == (8, 8)\n"
        "assert 'dask' not in sys.modules\n"
        "for f in (lambda: __import__('cnoise.dask'), lambda: n.dask_grid((8, 8), 4)):\n"
        "    try:\n"
        "        f()\n"
        "    except ImportError as e:\n"
        "        print('ImportError:', e)\n"
        "    else:\n"
        "        raise SystemExit('no ImportError')\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=os.environ)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and all("python3-dask" in line for line in lines), lines


def test_readme_scale_out_example_is_the_file():
    """The README's Scale out example is python/examples/scale_out.py, word for word (the example
    itself starts a cluster: run by hand, not here)."""
    repo = Path(__file__).resolve().parent.parent.parent
    text = (repo / "README.md").read_text()
    marker = "<!-- python/examples/scale_out.py -->\n```python\n"
    assert marker in text
    block = text.split(marker, 1)[1].split("```", 1)[0]
    assert block == (repo / "python" / "examples" / "scale_out.py").read_text()
