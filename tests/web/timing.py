#!/usr/bin/python3
"""timing.py -- how long the preview takes to redraw a 512x512 fBm-6 picture in headless Chromium,
with the SIMD128 build and with the scalar build (a measurement, not a test).

Usage: timing.py WEB_DIR [ROUNDS]   (WEB_DIR from scripts/build-wasm.sh --web; ROUNDS default 15)

The page's defaults are that picture: Perlin fBm, 6 octaves, 512x512, the terrain ramp,
hillshaded. Each round changes the seed (so the worker draws anew) and waits for the canvas.
Reported per build, as medians over the rounds: "render" (cnw_render in the worker: the noise,
the colours, the histogram) and "redraw" (from the page's request to the picture on the canvas).
Both builds are measured in the same run, and their ratio is given.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_page import browser, serve, wait_render  # noqa: E402


def measure(d, url, rounds):
    d.get(url)
    n = wait_render(d, 0)
    render, redraw, isa = [], [], None
    for k in range(rounds + 1):
        d.execute_script("const e = document.getElementById('seed'); e.value = arguments[0];"
                         "e.dispatchEvent(new Event('input', {bubbles: true}));", str(1000 + k))
        n = wait_render(d, n)
        r = d.execute_script("const r = cnoisePage.result(); return [r.ms, r.redraw, r.isa, r.width, r.height];")
        if k == 0:
            continue  # the first redraw warms the engine's tiers up
        render.append(r[0])
        redraw.append(r[1])
        isa = r[2]
        assert (r[3], r[4]) == (512, 512), r
    return isa, statistics.median(render), statistics.median(redraw)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    rounds = int(sys.argv[2]) if len(sys.argv) == 3 else 15
    server = serve(sys.argv[1])
    base = "http://127.0.0.1:%d/" % server.server_address[1]
    d = browser()
    try:
        res = {}
        for kind in ("simd128", "scalar"):
            res[kind] = measure(d, base + "?wasm=" + kind, rounds)
            isa, render, redraw = res[kind]
            print("timing: %-7s (active %s): render %.1f ms, redraw %.1f ms (medians of %d)"
                  % (kind, isa, render, redraw, rounds))
        print("timing: scalar / simd128: render %.2fx, redraw %.2fx" % (
            res["scalar"][1] / res["simd128"][1], res["scalar"][2] / res["simd128"][2]))
    finally:
        d.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
