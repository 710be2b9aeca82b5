#!/usr/bin/env python3
"""A terrain picture from Python, step by step (run it like a notebook, cell by cell):

    python3 python/examples/terrain.py [terrain.png]

Heights from a tileable fBm of Perlin noise plus a ridged layer for mountains, sea below 0,
colours by height, hillshading from the height gradient, and a PNG written with numpy and zlib
(no imaging library needed).
"""
import struct
import sys
import zlib

import numpy as np

import cnoise

# %% 1. Heights: a weighted sum of two noises, both repeating every 4 x 2 cells (1024 x 512 px).
W, H = 1024, 512
base = cnoise.Noise("perlin", seed=2026, fractal="fbm", octaves=8, gain=0.5, frequency=1 / 256, period=(4, 2))
ridges = cnoise.Noise("simplex", seed=7, fractal="ridged", octaves=6, frequency=1 / 256, period=(4, 2))
terrain = cnoise.Layers([(base, 0.8), (ridges, 0.35)])
height = terrain.grid((H, W), origin=0.5, dtype=np.float64)  # height[j, i] at pixel centre (i+.5, j+.5)
low, high = terrain.range()                                 # the documented range of the sum
height = height - 0.12                                      # sea level: about 40 % water
print(f"heights {height.min():.3f} .. {height.max():.3f} (documented range of the sum {low:.3f} .. {high:.3f})")

# %% 2. Colours by height: deep sea, shallow sea, beach, grass, forest, rock, snow.
stops = np.array([-0.6, -0.05, 0.0, 0.03, 0.18, 0.35, 0.5])
colours = np.array([[10, 30, 90], [40, 110, 170], [220, 210, 160], [90, 150, 60], [40, 100, 40],
                    [120, 110, 100], [250, 250, 250]], dtype=float)
rgb = np.stack([np.interp(height, stops, colours[:, c]) for c in range(3)], axis=-1)

# %% 3. Hillshade the land: Lambert's law with a light from the north-west, 45 degrees up.
land = np.maximum(height, 0) * 300.0                        # exaggerated relief in pixels
gy, gx = np.gradient(land)
normal = np.stack([-gx, -gy, np.ones_like(land)], axis=-1)
normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
light = np.array([-1.0, -1.0, np.sqrt(2)]) / 2.0
shade = np.clip(normal @ light, 0, 1) / light[2]
rgb = np.where((height > 0)[..., None], rgb * (0.45 + 0.55 * shade[..., None]), rgb)
img = np.clip(rgb, 0, 255).astype(np.uint8)


# %% 4. Write a PNG: signature, IHDR, one IDAT of filter-0 rows, IEND.
def write_png(path, pixels):
    h, w, _ = pixels.shape

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = np.hstack([np.zeros((h, 1), dtype=np.uint8), pixels.reshape(h, w * 3)]).tobytes()
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


out = sys.argv[1] if len(sys.argv) > 1 else "terrain.png"
write_png(out, img)
print(f"wrote {out} ({W}x{H}); its heights tile: the left and right, top and bottom edges meet")
