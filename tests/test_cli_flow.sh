#!/usr/bin/env bash
# test_cli_flow.sh -- "cnoise flow", the curl-noise vector field: the .npy holds, pixel by pixel,
# the curl worked out here from the derivatives "cnoise sample --gradient" prints at the pixel
# centres (2D: (d/dy, -d/dx); 3D: the curl of the seeds s, s+1, s+2), rounded to float32; the
# PNG flow map holds the documented colours of the .npy's vectors; a recipe renders the same
# file; bad options and noises without a gradient are refused.
#
# Usage: bash tests/test_cli_flow.sh path/to/cnoise
# Run by ctest as test_cli_flow. Needs bash, coreutils, cmp, awk and python3 with numpy for the
# .npy checks (skipped with a note without numpy).

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$T" || exit 1

PY=$(numpy_python)
# pixel centres of a W x H image at origin (X, Y) (and z Z), one "x y [z]" line each, rows first
centres() {
    awk -v w="$1" -v h="$2" -v x0="$3" -v y0="$4" -v z="${5:-}" \
        'BEGIN { for (j = 0; j < h; j++) for (i = 0; i < w; i++) { printf "%.1f %.1f", x0 + i + 0.5, y0 + j + 0.5; if (z != "") printf " %s", z; printf "\n" } }'
}

if [ -n "$PY" ]; then
    # 2D: (d/dy, -d/dx)
    O='--fractal fbm --octaves 3 --seed 5 --frequency 0.03125'
    # shellcheck disable=SC2086
    "$CNOISE" flow $O --size 12x7 --origin 100,-40 -o f2.npy >/dev/null 2>err
    centres 12 7 100 -40 >pts2
    # shellcheck disable=SC2086
    "$CNOISE" sample --dims 2 $O --gradient <pts2 >g2
    check "flow 2D: the curl of sample's derivatives ($(head -c 200 err))" "$PY" - f2.npy g2 <<'EOF'
import sys, numpy as np
v = np.load(sys.argv[1])
g = np.loadtxt(sys.argv[2]).reshape(7, 12, 3)
want = np.stack([g[..., 2], -g[..., 1]], axis=-1).astype(np.float32)
sys.exit(0 if v.shape == (7, 12, 2) and v.dtype == np.float32 and np.array_equal(v, want) else 1)
EOF
    # 3D: the curl of three seeds on the slice z = 2.5
    O3='--noise simplex --seed 9 --frequency 0.05'
    # shellcheck disable=SC2086
    "$CNOISE" flow --dims 3 $O3 --z 2.5 --size 9x5 -o f3.npy >/dev/null 2>err
    centres 9 5 0 0 2.5 >pts3
    for k in 0 1 2; do
        # shellcheck disable=SC2086
        "$CNOISE" sample --dims 3 --noise simplex --frequency 0.05 --seed $((9 + k)) --gradient <pts3 >"g3_$k"
    done
    check "flow 3D: the curl of sample's derivatives of seeds s, s+1, s+2 ($(head -c 200 err))" "$PY" - f3.npy <<'EOF'
import sys, numpy as np
v = np.load(sys.argv[1])
g = [np.loadtxt(f"g3_{k}").reshape(5, 9, 4)[..., 1:] for k in range(3)]
# the library's order of operations: v0 = -d psi2/dz + d psi3/dy, v1 = d psi1/dz - d psi3/dx,
# v2 = -d psi1/dy + d psi2/dx
want = np.stack([-g[1][..., 2] + g[2][..., 1], g[0][..., 2] - g[2][..., 0], -g[0][..., 1] + g[1][..., 0]],
                axis=-1).astype(np.float32)
sys.exit(0 if v.shape == (5, 9, 3) and np.array_equal(v, want) else 1)
EOF
    # float precision: the float kernels' values; the PNG flow map from them
    "$CNOISE" flow --precision float --seed 3 --size 16x10 -o ff.npy >/dev/null 2>&1
    "$CNOISE" flow --precision float --seed 3 --size 16x10 -o ff.png >out 2>&1
    check "flow PNG: the documented colours ($(head -c 200 out))" "$PY" - ff.npy ff.png out "$HERE" <<'EOF'
import math, re, sys
import numpy as np
sys.path.insert(0, sys.argv[4])
from pngread import read_png
v = np.load(sys.argv[1]).astype(np.float64)
w, h, depth, ctype, rows = read_png(sys.argv[2])
m = float(re.search(r"largest \|v\| (\S+)\)", open(sys.argv[3]).read()).group(1))
ok = (w, h, depth, ctype) == (16, 10, 8, 2) and m == float(np.sqrt((v ** 2).sum(-1)).max())
for j in range(h):
    for i in range(w):
        want = [math.floor(255 * (v[j, i, c] / m + 1) / 2 + 0.5) for c in range(2)] + [0]
        ok = ok and list(rows[j][3 * i:3 * i + 3]) == want
sys.exit(0 if ok else 1)
EOF
else
    skip "flow .npy and PNG values: no python3 with numpy"
fi

# A recipe renders the same file.
"$CNOISE" flow --dims 3 --fractal ridged --octaves 2 --size 20x20 -o r1.npy --save-recipe flow.yaml >/dev/null 2>&1
"$CNOISE" flow --recipe flow.yaml -o r2.npy >/dev/null 2>&1
check "flow: the recipe renders the same file" cmp -s r1.npy r2.npy

# Refusals: exit status 2 and the reason.
refuse() {
    local name=$1 want=$2; shift 2
    "$CNOISE" flow --size 8x8 "$@" </dev/null >out 2>err
    local rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" err && [ ! -e x.npy ]; then pass; else fail "$name: status $rc, stderr: $(head -c 300 err)"; fi
}
refuse "cellular" "has no gradient, so no curl" --noise cellular -o x.npy
"$CNOISE" flow --size 8x8 --fractal erosion -o ero.npy >out 2>err
check "flow: the erosion fractal has a curl (its gradient by second derivatives)" test -s ero.npy
refuse "4D" "--dims: a curl field needs 2D or 3D noise" --dims 4 -o x.npy
refuse "1D" "--dims: a curl field needs 2D or 3D noise" --dims 1 -o x.npy
refuse "layers" "--layer, --weight: a curl field takes one noise" --layer 'seed=2' -o x.npy
refuse "warp" "--warp: a curl field of warped noise is not supported" --warp 3 -o x.npy
refuse "--z in 2D" "--z needs --dims 3" --z 1 -o x.npy
refuse "unknown format" "--format: 'exr' is not one of npy, png" --format exr -o x.npy
refuse "format against the name" "--format png contradicts the file name's extension" --format png -o x.npy
refuse "unknown extension" "cannot tell the format from the name" -o x.tif
refuse "size" "--size" --size 0x8 -o x.npy

t_end test_cli_flow
