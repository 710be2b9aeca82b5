#!/usr/bin/python3
"""test_page.py -- the preview page in headless Chromium against the tool.

Usage: test_page.py WEB_DIR CNOISE OUT_DIR

Serves WEB_DIR (scripts/build-wasm.sh --web) on 127.0.0.1, opens it in Debian's chromium through
chromedriver (python3-selenium), sets controls the way a user does (selects, text fields, a
slider, check boxes), waits for the worker's picture, reads the canvas back (getImageData), and
compares it pixel for pixel with "CNOISE render --recipe R" of the recipe the page exports, and
with the page's "copy as command line" run through the shell. An imported recipe must set the
controls so that the page draws the same picture again. Keeps screenshots in OUT_DIR
(page-*.png). Prints one line per check; exits 1 on a difference.
"""
import functools
import http.server
import os
import shlex
import subprocess
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "wasm"))
from compare_page import compare  # noqa: E402


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(web_dir):
    handler = functools.partial(Quiet, directory=web_dir)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1400"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def wait_render(d, before, timeout=120):
    """Waits until the page has drawn more than `before` pictures and none is pending."""
    end = time.time() + timeout
    while time.time() < end:
        n = d.execute_script("return window.cnoisePage ? cnoisePage.renders() : 0")
        busy = d.execute_script("return document.getElementById('status').textContent.startsWith('loading')")
        if n > before and not busy:
            time.sleep(0.3)  # a queued redraw starts at once; settle on the last one
            if d.execute_script("return cnoisePage.renders()") == n:
                return n
        time.sleep(0.2)
    raise SystemExit("test_page: the page drew nothing in %d s (status: %s)" % (
        timeout, d.find_element(By.ID, "status").text))


def canvas_rgba(d):
    data = d.execute_script(
        "const c = document.getElementById('canvas');"
        "return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data);")
    return bytes(data)


def set_text(d, el_id, text):
    el = d.find_element(By.ID, el_id)
    el.clear()
    el.send_keys(text)


def set_range(d, el_id, value):
    # A slider: keyboard steps would be slow; set it and fire input as a drag does.
    d.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                     "e.dispatchEvent(new Event('input', {bubbles: true}));", el_id, str(value))


def check(d, cnoise, out, label):
    result = d.execute_script("return cnoisePage.result()")
    if not result or not result["ok"]:
        return ["%s: the page reports %s" % (label, result and result.get("message"))]
    rgba = canvas_rgba(d)
    recipe = d.execute_script("return cnoisePage.recipe()")
    rpath = os.path.join(out, label + ".yaml")
    open(rpath, "w").write(recipe)
    png = os.path.join(out, label + "-recipe.png")
    subprocess.run([cnoise, "render", "--recipe", rpath, "--quiet", "-o", png], check=True)
    bad = compare(png, rgba, label + " (recipe)")
    cmd = shlex.split(d.execute_script("return cnoisePage.commandLine()"))
    if cmd[:2] != ["cnoise", "render"] or cmd[-2:] != ["-o", "noise.png"]:
        bad.append("%s: the command line is %r" % (label, cmd))
    else:
        png2 = os.path.join(out, label + "-command.png")
        subprocess.run([cnoise] + cmd[1:-2] + ["--quiet", "-o", png2], check=True)
        bad += compare(png2, rgba, label + " (command line)")
    d.save_screenshot(os.path.join(out, "page-%s.png" % label))
    if not bad:
        print("test_page: %s: %dx%d canvas equals cnoise render of the exported recipe and of the command line (%s)"
              % (label, result["width"], result["height"], " ".join(cmd[2:-2])))
    return bad


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    web_dir, cnoise, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    server = serve(web_dir)
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    d = browser()
    bad = []
    try:
        d.get(url)
        n = wait_render(d, 0)
        isa = d.execute_script("return cnoisePage.result().isa")
        print("test_page: first picture drawn with the %s build" % isa)
        if isa != "simd128":
            bad.append("the page ran the %s build, not simd128" % isa)
        d.save_screenshot(os.path.join(out, "page-default.png"))

        # 1. Controls as a user sets them.
        Select(d.find_element(By.ID, "noise")).select_by_visible_text("simplex")
        set_text(d, "seed", "42")
        set_text(d, "size", "160x120")
        Select(d.find_element(By.ID, "fractal")).select_by_visible_text("ridged")
        set_range(d, "octaves", 5)
        Select(d.find_element(By.ID, "ramp")).select_by_visible_text("dusk")
        set_range(d, "azimuth", 200)
        n = wait_render(d, n)
        bad += check(d, cnoise, out, "simplex-ridged")

        # 2. 3D slice, float precision, gray with minmax, no shade, tiled.
        Select(d.find_element(By.ID, "noise")).select_by_visible_text("perlin")
        Select(d.find_element(By.ID, "dims")).select_by_visible_text("3")
        set_text(d, "z", "37")
        Select(d.find_element(By.ID, "precision")).select_by_visible_text("float")
        Select(d.find_element(By.ID, "colour")).select_by_visible_text("gray")
        Select(d.find_element(By.ID, "normalize")).select_by_visible_text("minmax")
        d.find_element(By.ID, "shade").click()
        set_text(d, "size", "128x128")
        Select(d.find_element(By.ID, "fractal")).select_by_visible_text("fbm")
        d.find_element(By.ID, "tile").click()
        n = wait_render(d, n)
        bad += check(d, cnoise, out, "perlin3d-gray")

        # 3. More options typed as text: a layer and an offset.
        Select(d.find_element(By.ID, "colour")).select_by_visible_text("ramp")
        d.find_element(By.ID, "tile").click()
        set_text(d, "extra", "--offset 5,7,0 --layer 'seed=9;frequency=0.05;weight=0.3'")
        n = wait_render(d, n)
        bad += check(d, cnoise, out, "layered")

        # 4. Cellular noise warped by progressive simplex fields, then a normal map of warped Perlin.
        set_text(d, "extra", "")
        Select(d.find_element(By.ID, "noise")).select_by_visible_text("cellular")
        Select(d.find_element(By.ID, "creturn")).select_by_visible_text("f2-f1")
        set_range(d, "jitter", 0.8)
        set_text(d, "warp", "12")
        Select(d.find_element(By.ID, "wnoise")).select_by_visible_text("simplex")
        Select(d.find_element(By.ID, "wfractal")).select_by_visible_text("progressive")
        set_range(d, "woctaves", 2)
        n = wait_render(d, n)
        bad += check(d, cnoise, out, "warped-cellular")
        Select(d.find_element(By.ID, "noise")).select_by_visible_text("perlin")
        Select(d.find_element(By.ID, "colour")).select_by_visible_text("normal map")
        set_text(d, "strength", "0.8")
        set_text(d, "wfrequency", "0.03")
        n = wait_render(d, n)
        bad += check(d, cnoise, out, "normal-map")

        # 5. The recipe read back: reset the form, import the exported text, same picture.
        recipe = d.execute_script("return cnoisePage.recipe()")
        before = canvas_rgba(d)
        d.execute_script("document.getElementById('controls').reset();"
                         "document.getElementById('controls').dispatchEvent(new Event('change'));")
        n = wait_render(d, n)
        d.execute_script("cnoisePage.applyPairs(cnoisePage.parseRecipe(arguments[0]));"
                         "document.getElementById('controls').dispatchEvent(new Event('change'));", recipe)
        n = wait_render(d, n)
        if canvas_rgba(d) != before or d.execute_script("return cnoisePage.recipe()") != recipe:
            bad.append("importing the exported recipe did not restore the picture and the recipe")
        else:
            print("test_page: the exported recipe imported back gives the same recipe and picture")

        # 6. A refused option shows the tool's message.
        set_text(d, "extra", "--relief 2")
        if d.find_element(By.ID, "shade").is_selected():
            d.find_element(By.ID, "shade").click()
        n = wait_render(d, n)
        status = d.find_element(By.ID, "status").text
        if status != "cnoise render: --relief needs --shade":
            bad.append("a refused option: the status says %r" % status)
        else:
            print("test_page: a refused option shows the tool's message: %s" % status)
    finally:
        d.quit()
        server.shutdown()
    if bad:
        print("\n".join(bad), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
