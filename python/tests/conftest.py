"""Shared fixtures: the C reference helper (ref.c, built here against libcnoise.a) and the
cnoise command-line tool. Both are the C library's own batch API, reached without any of the
Python package's code.

Environment: CNOISE_LIBRARY (libcnoise.a to link ref.c against; default: the archive the
package build made, <repo>/build-python/libcnoise.a, else <repo>/build/libcnoise.a),
CNOISE_CLI (the cnoise tool; default <repo>/build/cnoise; tests that need it are skipped
without it), CC (default cc), CNOISE_REF_CFLAGS (extra flags for ref.c, e.g. -fsanitize=address when the
library was built with sanitizers)."""
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def _library():
    given = os.environ.get("CNOISE_LIBRARY")
    candidates = [Path(given)] if given else [REPO / "build-python" / "libcnoise.a", REPO / "build" / "libcnoise.a"]
    for c in candidates:
        if c.is_file():
            return c
    pytest.exit("no libcnoise.a for the C reference helper: set CNOISE_LIBRARY "
                "(tried " + ", ".join(map(str, candidates)) + ")", returncode=2)


@pytest.fixture(scope="session")
def ref(tmp_path_factory):
    """ref(op, prec, spec, *args, stdin=None) -> bytes: runs the C helper."""
    exe = tmp_path_factory.mktemp("ref") / "ref"
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-I", str(REPO / "include"),
                    str(HERE / "ref.c"), str(_library()), "-lm", "-lpthread", "-o", str(exe)]
                   + os.environ.get("CNOISE_REF_CFLAGS", "").split(), check=True)

    def run(op, prec, spec, *args, stdin=None):
        r = subprocess.run([str(exe), op, prec, spec, *map(str, args)], input=stdin,
                           capture_output=True, check=False)
        assert r.returncode == 0, r.stderr.decode()
        return r.stdout
    return run


@pytest.fixture(scope="session")
def cli():
    """The cnoise tool's path (skips where there is none)."""
    given = os.environ.get("CNOISE_CLI")
    path = Path(given) if given else REPO / "build" / "cnoise"
    if not path.is_file() and not given:
        found = shutil.which("cnoise")
        path = Path(found) if found else path
    if not path.is_file():
        pytest.skip(f"no cnoise tool at {path}: set CNOISE_CLI")
    return str(path)


def same_bits(a, b):
    """Exact equality, NaN included, compared as raw bits."""
    a = np.ascontiguousarray(a)
    b = np.ascontiguousarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    view = np.uint32 if a.dtype == np.float32 else np.uint64
    diff = np.flatnonzero(a.view(view) != b.view(view))
    assert diff.size == 0, f"{diff.size} values differ, first at {diff[0]}: {a.flat[diff[0]]!r} vs {b.flat[diff[0]]!r}"
