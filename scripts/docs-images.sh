#!/usr/bin/env bash
# Regenerates every image in docs/ with the commands the README shows for it. Run it after a change
# that alters default-mode values (the lattice hash, a gradient set, a scale constant).
#   scripts/docs-images.sh [CNOISE_BINARY]      (default: build/cnoise)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cn=$(realpath "${1:-$root/build/cnoise}")
[ -x "$cn" ] || { echo "docs-images.sh: no cnoise binary at $cn (build first, or name one)" >&2; exit 2; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
"$cn" map -o map.png
"$cn" render --fractal fbm --octaves 6 --seed 3 --size 256x256 --tile --ramp dusk --shade -o texture.png
"$cn" render --fractal ridged --octaves 7 --seed 5 --frequency 0.0078125 --size 256x256 --format png16 -o heightmap16.png
"$cn" render --fractal fbm --octaves 6 --seed 3 --size 256x256 --tile --format normal -o normal.png
"$cn" render --fractal ridged --octaves 7 --seed 5 --frequency 0.0078125 --size 256x256 --shade --relief 0.25 -o hillshade.png
"$cn" render --size 512x256 -o perlin.png
"$cn" render --noise simplex --seed 7 --size 256x256 -o simplex.png
"$cn" render --noise value --seed 7 --size 256x256 -o value.png
"$cn" render --noise value-cubic --seed 7 --size 256x256 -o value-cubic.png
"$cn" render --noise cellular --seed 7 --size 256x256 -o cellular.png
"$cn" render --noise opensimplex2 --seed 7 --size 256x256 -o opensimplex2.png
"$cn" render --noise opensimplex2 --dims 3 --z 40 --seed 7 --size 256x256 -o opensimplex2-3d.png
"$cn" render --noise opensimplex2 --fractal fbm --octaves 5 --tile --seed 7 --size 256x256 -o opensimplex2-fbm.png
"$cn" render --noise opensimplex2s --seed 7 --size 256x256 -o opensimplex2s.png
"$cn" render --noise opensimplex2s --dims 3 --z 40 --seed 7 --size 256x256 -o opensimplex2s-3d.png
"$cn" render --noise opensimplex2s --fractal ridged --octaves 5 --tile --seed 7 --size 256x256 -o opensimplex2s-ridged.png
"$cn" render --noise cellular --cellular-return f2-f1 --seed 7 --size 256x256 -o cellular-edges.png
"$cn" render --noise cellular --cellular-return cell-value --cellular-distance manhattan --seed 7 --size 256x256 --tile -o cellular-cells.png
"$cn" render --noise cellular --cellular-return edge --seed 7 --size 256x256 --normalize minmax -o cellular-edge.png
"$cn" render --noise cellular --cellular-return edge --jitter 0.5 --seed 7 --size 256x256 --normalize minmax -o cellular-edge-j05.png
"$cn" render --noise cellular --cellular-distance chebyshev --seed 7 --size 256x256 -o cellular-chebyshev.png
"$cn" render --noise cellular --cellular-distance minkowski --minkowski-p 4 --seed 7 --size 256x256 -o cellular-minkowski4.png
"$cn" render --noise cellular --cellular-distance minkowski --minkowski-p 1.5 --cellular-return f2-f1 --seed 7 --size 256x256 \
    -o cellular-minkowski-edges.png
"$cn" render --noise cellular --cellular-distance minkowski --minkowski-p 1.2 --cellular-return 'f1*f2' --jitter 0.6 --seed 7 \
    --size 256x256 -o cellular-minkowski-product.png
"$cn" render --fractal fbm --octaves 8 --seed 11 --frequency 0.0078125 --size 256x256 --ramp terrain --shade --relief 0.5 -o fbm-terrain.png
"$cn" render --fractal erosion --octaves 8 --seed 11 --frequency 0.0078125 --size 256x256 --ramp terrain --shade --relief 0.5 -o erosion.png
"$cn" render --fractal fbm --octaves 8 --seed 11 --frequency 0.0078125 --size 256x256 --ramp terrain --shade --relief 0.5 \
    --warp 40 --warp-fractal progressive --warp-octaves 2 -o warp.png
"$cn" render --fractal fbm --octaves 5 --seed 3 --frequency 0.015625 --size 256x256 --tile -o tile.png
"$cn" render --fractal fbm --octaves 5 --seed 3 --frequency 0.015625 --size 512x512 --period 4,4 -o tile-2x2.png
"$cn" animate --seed 7 --size 192x192 --frequency 0.03125 --time-step 4 --frames 24 --loop \
    -o loop.gif --png 'frame%02d.png'
cp frame00.png animate-frame.png
"$cn" volume --seed 7 --size 48x48x16 --frequency 0.08 -o volume.npy --sheet volume-sheet.png
"$cn" flow --seed 3 --size 256x256 -o flow.png
# Every image above but the animation's frames; an image is rewritten where its pixels differ
# (tests/pngread.py; byte comparison without Python), so a change of the PNG encoder alone
# rewrites nothing.
same_pixels() {
  if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from pngread import read_png
sys.exit(0 if read_png(sys.argv[2]) == read_png(sys.argv[3]) else 1)' "$root/tests" "$1" "$2" 2>/dev/null
  else
    cmp -s "$1" "$2"
  fi
}
for p in *.png; do
  f=${p%.png}
  case $f in frame[0-9]*) continue ;; esac
  if [ -f "$root/docs/$p" ] && same_pixels "$p" "$root/docs/$p"; then echo "docs/$p unchanged"; else cp "$p" "$root/docs/$p"; echo "docs/$p rewritten"; fi
done
