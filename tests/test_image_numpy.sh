#!/usr/bin/env bash
# test_image_numpy.sh -- numpy reads what the writers produce: .npy (2D and 3D) with numpy.load,
# PFM and RAW float32 with numpy.fromfile, each compared exactly with values numpy computes itself.
#
# Usage: bash tests/test_image_numpy.sh path/to/test_image
# Run by ctest as test_image_numpy. Skipped (exit 77, ctest's SKIP_RETURN_CODE) when python3 or
# numpy is missing: scripts/setup-deps.sh installs python3-numpy.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/test_image "$@"
TEST_IMAGE=$1
# The first python3 that has numpy: the one on PATH, else the system's (where python3-numpy from
# scripts/setup-deps.sh lives when PATH leads to another installation, e.g. pyenv).
PY=$(numpy_python) || t_skip_all "python3 with numpy not found (scripts/setup-deps.sh installs python3-numpy)"
check "test_image --emit" "$TEST_IMAGE" --emit "$T"

# The checks run in numpy; their summary is one check here.
check "numpy reads the emitted files back exactly" "$PY" - "$T" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
fails = 0
passes = 0
def check(name, cond):
    global fails, passes
    if cond:
        passes += 1
    else:
        fails += 1
        print("FAIL:", name)

# v(x, y, z) = (x - 3 y) / 8 + 1000 z for W = 7, H = 5, D = 3 (see emit() in test_image.c)
W, H, D = 7, 5, 3
z, y, x = np.meshgrid(np.arange(D), np.arange(H), np.arange(W), indexing="ij")
want = ((x.astype(np.float32) - np.float32(3) * y.astype(np.float32)) / np.float32(8)
        + np.float32(1000) * z.astype(np.float32)).astype(np.float32)

a = np.load(d + "/image.npy")
check("image.npy shape (H, W)", a.shape == (H, W))
check("image.npy dtype float32 little-endian", a.dtype == np.dtype("<f4"))
check("image.npy C order", a.flags["C_CONTIGUOUS"])
check("image.npy values", a.shape == (H, W) and np.array_equal(a, want[0]))

v = np.load(d + "/volume.npy")
check("volume.npy shape (D, H, W)", v.shape == (D, H, W))
check("volume.npy dtype", v.dtype == np.dtype("<f4"))
check("volume.npy values", v.shape == (D, H, W) and np.array_equal(v, want))
check("volume.npy: v[z, y, x] is the point (x, y, z)", v.shape == (D, H, W) and v[2, 1, 4] == np.float32((4 - 3) / 8 + 2000))

with open(d + "/image.pfm", "rb") as f:
    raw = f.read()
head = b"Pf\n%d %d\n-1.0\n" % (W, H)
check("image.pfm header", raw.startswith(head))
p = np.frombuffer(raw[len(head):], dtype="<f4")
check("image.pfm size", p.size == W * H)
if p.size == W * H:
    # PFM stores the bottom row first: flip to compare with the top-down image
    check("image.pfm values, bottom row first", np.array_equal(np.flipud(p.reshape(H, W)), want[0]))

r = np.fromfile(d + "/volume.f32", dtype="<f4")
check("volume.f32 size W*H*D", r.size == W * H * D)
check("volume.f32 values, x fastest", r.size == W * H * D and np.array_equal(r.reshape(D, H, W), want))

print("test_image_numpy: numpy: %d passed, %d failed" % (passes, fails))
sys.exit(1 if fails or not passes else 0)
EOF
t_end
