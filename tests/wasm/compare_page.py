#!/usr/bin/env python3
"""compare_page.py -- the preview's pixels against the tool's PNG of the same options.

Usage: compare_page.py CLI.png PAGE.rgba LABEL

PAGE.rgba holds width x height RGBA bytes (tests/wasm/page_render.js, or a canvas read back by
tests/web/test_page.py); CLI.png is "cnoise render"'s 8-bit gray or RGB PNG (read by
tests/pngread.py). Every pixel must be equal: gray g as (g, g, g), RGB as it is, alpha 255.
Prints "LABEL: WxH equal" or the first differing pixels and exits 1.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pngread import read_png  # noqa: E402


def compare(png_path, rgba, label):
    w, h, depth, ctype, rows = read_png(png_path)
    if depth != 8 or ctype not in (0, 2):
        return ["%s: %s is not an 8-bit gray or RGB PNG" % (label, png_path)]
    if len(rgba) != w * h * 4:
        return ["%s: the page drew %d bytes, the PNG is %dx%d (%d RGBA bytes)" % (label, len(rgba), w, h, w * h * 4)]
    ch = 1 if ctype == 0 else 3
    bad = []
    for y in range(h):
        row = rows[y]
        for x in range(w):
            want = [row[x * ch]] * 3 if ch == 1 else row[x * 3:x * 3 + 3]
            got = list(rgba[(y * w + x) * 4:(y * w + x) * 4 + 4])
            if got[:3] != list(want) or got[3] != 255:
                bad.append("%s: pixel (%d, %d): page %s, cnoise render %s" % (label, x, y, got, list(want)))
                if len(bad) >= 5:
                    return bad
    return bad


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    png_path, rgba_path, label = sys.argv[1:]
    bad = compare(png_path, open(rgba_path, "rb").read(), label)
    if bad:
        print("\n".join(bad), file=sys.stderr)
        sys.exit(1)
    w, h = read_png(png_path)[:2]
    print("%s: %dx%d equal" % (label, w, h))


if __name__ == "__main__":
    main()
