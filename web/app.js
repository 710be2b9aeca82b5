// app.js -- the preview page: the controls become the options of a "cnoise render" command line,
// the worker (worker.js) draws them with the library compiled to WebAssembly, and the page shows
// the pixels, the value range, a histogram and the value under the cursor. The same option list
// is the command line to copy and the recipe file to export (the format of the tool's
// --save-recipe, read by its --recipe); an imported recipe sets the controls.
"use strict";

const $ = (id) => document.getElementById(id);
const DEFAULT_FREQUENCY = "0.015625";

// --- the controls as options ---------------------------------------------------------------

// Splits "--a 1 --b 'x y'" like a shell: whitespace separates, quotes group.
function splitWords(text) {
  const out = [];
  let cur = null, quote = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      cur = cur ?? "";
    } else if (/\s/.test(ch)) {
      if (cur !== null) out.push(cur);
      cur = null;
    } else {
      cur = (cur ?? "") + ch;
    }
  }
  if (quote) throw new Error("an unclosed quote in the options");
  if (cur !== null) out.push(cur);
  return out;
}

// The options as [name, value] pairs (value null for a flag), in a fixed order; defaults left out.
function pairs() {
  const p = [];
  const v = (id) => $(id).value.trim();
  const dims = Number(v("dims"));
  if (v("noise") !== "perlin") p.push(["noise", v("noise")]);
  if ($("classic").checked) p.push(["classic", null]);
  if (v("seed") !== "0") p.push(["seed", v("seed")]);
  if (v("precision") !== "double") p.push(["precision", v("precision")]);
  if (v("frequency") !== DEFAULT_FREQUENCY) p.push(["frequency", v("frequency")]);
  if (dims !== 2) p.push(["dims", String(dims)]);
  if (v("fractal") !== "none") {
    p.push(["fractal", v("fractal")]);
    p.push(["octaves", v("octaves")]);
    if (v("lacunarity") !== "2") p.push(["lacunarity", v("lacunarity")]);
    if (v("gain") !== "0.5") p.push(["gain", v("gain")]);
  }
  if (v("amplitude") !== "1") p.push(["amplitude", v("amplitude")]);
  if (v("bias") !== "0") p.push(["bias", v("bias")]);
  if (v("noise") === "cellular") {
    if (v("cdistance") !== "euclidean") p.push(["cellular-distance", v("cdistance")]);
    if (v("creturn") !== "f1") p.push(["cellular-return", v("creturn")]);
    if (v("jitter") !== "1") p.push(["jitter", v("jitter")]);
    if (v("cdistance") === "minkowski" && v("mp") !== "1.5") p.push(["minkowski-p", v("mp")]);
  }
  if (v("warp") !== "0" && v("warp") !== "") {
    p.push(["warp", v("warp")]);
    if (v("wnoise") !== "perlin") p.push(["warp-noise", v("wnoise")]);
    if (v("wfrequency") !== "") p.push(["warp-frequency", v("wfrequency")]);
    if (v("wfractal") !== "none") {
      p.push(["warp-fractal", v("wfractal")]);
      if (v("woctaves") !== "3") p.push(["warp-octaves", v("woctaves")]);
    }
  }
  const extra = splitWords($("extra").value);
  for (let i = 0; i < extra.length; i++) {
    const w = extra[i];
    if (!w.startsWith("--")) throw new Error(`more options: '${w}' is not an option (--name value)`);
    const eq = w.indexOf("=");
    if (eq > 0) p.push([w.slice(2, eq), w.slice(eq + 1)]);
    else if (i + 1 < extra.length && !extra[i + 1].startsWith("--")) p.push([w.slice(2), extra[++i]]);
    else p.push([w.slice(2), null]);
  }
  if (v("size") !== "512x512") p.push(["size", v("size")]);
  if (dims >= 3 && v("z") !== "0") p.push(["z", v("z")]);
  if (dims >= 4 && v("w") !== "0") p.push(["w", v("w")]);
  if ($("tile").checked) p.push(["tile", null]);
  if (v("colour") === "rgb") p.push(["ramp", v("ramp") === "custom" ? v("stops") : v("ramp")]);
  if (v("colour") === "normal") {
    p.push(["format", "normal"]);
    if (v("strength") !== "0.5") p.push(["normal-strength", v("strength")]);
  }
  if (v("normalize") !== "range") p.push(["normalize", v("normalize")]);
  if ($("shade").checked && v("colour") !== "normal") {
    p.push(["shade", null]);
    if (v("azimuth") !== "315") p.push(["light-azimuth", v("azimuth")]);
    if (v("elevation") !== "45") p.push(["light-elevation", v("elevation")]);
    if (v("relief") !== "0.5") p.push(["relief", v("relief")]);
  }
  return p;
}

function args() {
  const a = [];
  for (const [k, val] of pairs()) {
    a.push("--" + k);
    if (val !== null) a.push(val);
  }
  return a;
}

const shellWord = (s) => (/^[A-Za-z0-9_@%+=:,./#-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'");
function commandLine() {
  return ["cnoise", "render", ...args(), "-o", "noise.png"].map(shellWord).join(" ");
}

// A recipe (cli/recipe.h): one YAML mapping of option names to their text, flags true, layer a
// list. Values are written double-quoted (JSON strings are YAML double-quoted scalars), so YAML's
// own typing never touches them.
function recipe() {
  const lines = [
    "# cnoise recipe (cnoise preview): 'cnoise render --recipe FILE' renders it again;",
    "# options given on the command line override it.",
    "cnoise-recipe: 1",
    "command: render",
  ];
  const layers = [];
  for (const [k, val] of pairs()) {
    if (k === "layer") layers.push(val);
    else lines.push(`${k}: ${val === null ? "true" : JSON.stringify(val)}`);
  }
  if (layers.length) {
    lines.push("layer:");
    for (const l of layers) lines.push("- " + JSON.stringify(l));
  }
  return lines.join("\n") + "\n";
}

// Reads the recipes the tool writes (and this page): "key: value" lines, plain, 'single' or
// "double" quoted values, "- item" lists under "layer:", comments. Returns [name, value] pairs.
function parseRecipe(text) {
  const out = [];
  let list = null;
  const scalar = (s, n) => {
    s = s.trim();
    if (s.startsWith('"')) {
      try { return JSON.parse(s); } catch (e) { throw new Error(`line ${n}: a double-quoted value this page cannot read`); }
    }
    if (s.startsWith("'")) {
      if (!s.endsWith("'") || s.length < 2) throw new Error(`line ${n}: an unclosed single quote`);
      return s.slice(1, -1).replace(/''/g, "'");
    }
    return s.replace(/\s+#.*$/, "");
  };
  text.split(/\r?\n/).forEach((raw, i) => {
    const n = i + 1;
    if (/^\s*(#.*)?$/.test(raw) || raw === "---") return;
    const item = raw.match(/^\s*-\s+(.*)$/);
    if (item) {
      if (!list) throw new Error(`line ${n}: a list item outside a list`);
      out.push([list, scalar(item[1], n)]);
      return;
    }
    const kv = raw.match(/^([A-Za-z0-9-]+):(?:\s+(.*))?$/);
    if (!kv) throw new Error(`line ${n}: not 'key: value'`);
    const [, key, rest] = kv;
    list = null;
    if (rest === undefined || rest.trim() === "") {
      list = key;
      return;
    }
    const val = scalar(rest, n);
    if (key === "cnoise-recipe") {
      if (val !== "1") throw new Error(`line ${n}: cnoise-recipe ${val}: this page reads format 1`);
    } else if (key === "command") {
      if (val !== "render") throw new Error(`line ${n}: a recipe of 'cnoise ${val}', not of render`);
    } else if (val === "true" || val === "false") {
      if (val === "true") out.push([key, null]);
    } else {
      out.push([key, val]);
    }
  });
  return out;
}

// Sets the controls from [name, value] pairs; options without a control go to "more options".
function applyPairs(list) {
  const form = $("controls");
  form.reset();
  $("fractal").value = "none";
  $("colour").value = "png";
  $("shade").checked = false;
  const extra = [];
  const direct = {
    noise: "noise", seed: "seed", precision: "precision", frequency: "frequency", dims: "dims", fractal: "fractal",
    octaves: "octaves", lacunarity: "lacunarity", gain: "gain", amplitude: "amplitude", bias: "bias", size: "size",
    z: "z", w: "w", normalize: "normalize", "light-azimuth": "azimuth", "light-elevation": "elevation",
    relief: "relief", "normal-strength": "strength", "cellular-distance": "cdistance", "cellular-return": "creturn", jitter: "jitter", "minkowski-p": "mp", warp: "warp",
    "warp-noise": "wnoise", "warp-frequency": "wfrequency", "warp-fractal": "wfractal", "warp-octaves": "woctaves",
  };
  for (const [k, val] of list) {
    if (k === "classic" || k === "tile" || k === "shade") $(k).checked = true;
    else if (k === "ramp") {
      $("colour").value = "rgb";
      const preset = [...$("ramp").options].some((o) => o.value === val);
      $("ramp").value = preset ? val : "custom";
      if (!preset) $("stops").value = val;
    } else if (k === "format" && (val === "rgb" || val === "png" || val === "normal")) $("colour").value = val;
    else if (direct[k] && val !== null) {
      const el = $(direct[k]);
      el.value = val;
      if (el.value !== val) extra.push("--" + k, val); // a value the control cannot show
    } else extra.push("--" + k, ...(val === null ? [] : [val]));
  }
  if ($("colour").value === "rgb" && !list.some(([k]) => k === "ramp")) $("ramp").value = "terrain";
  $("extra").value = extra.map(shellWord).join(" ");
}

// --- rendering in the worker --------------------------------------------------------------

const worker = new Worker("worker.js" + location.search);
let busy = false, dirty = false, seq = 0, last = null, renders = 0, sentAt = 0;
const animation = { on: false };

// The sliders' values in their labels ("Octaves: 6").
const rangeLabels = [...document.querySelectorAll("input[type=range]")].map((r) => {
  const l = document.querySelector(`label[for="${r.id}"]`);
  return [r, l, l.textContent];
});
function showRanges() {
  for (const [r, l, base] of rangeLabels) l.textContent = `${base}: ${r.value}`;
}

function request() {
  showRanges();
  let a;
  try {
    a = args();
  } catch (e) {
    showError(e.message);
    return;
  }
  $("command").value = commandLine();
  if (busy) {
    dirty = true;
    return;
  }
  busy = true;
  dirty = false;
  sentAt = performance.now();
  worker.postMessage({ id: ++seq, args: a });
}

worker.onerror = (e) => showError(`the renderer could not start: ${e.message || "worker error"}`);

function showError(text) {
  $("status").textContent = text;
  $("status").className = "error";
}

worker.onmessage = (e) => {
  const r = e.data;
  busy = false;
  renders++;
  if (!r.ok) {
    showError(r.message);
    last = r;
  } else {
    last = r;
    draw(r);
    r.redraw = performance.now() - sentAt; // request to picture on the canvas, worker included
  }
  if (animation.on && r.ok && !dirty) {
    $("z").value = String(Number($("z").value) + 2);
    dirty = true;
  }
  if (dirty) request();
};

function draw(r) {
  const c = $("canvas");
  c.width = r.width;
  c.height = r.height;
  c.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(r.rgba.buffer), r.width, r.height), 0, 0);
  const t = $("tileview");
  if ($("tiles").checked) {
    t.width = 3 * r.width;
    t.height = 3 * r.height;
    const g = t.getContext("2d");
    for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) g.drawImage(c, i * r.width, j * r.height);
  }
  t.hidden = !$("tiles").checked;
  c.hidden = $("tiles").checked;
  const [lo, hi, rlo, rhi, clipped, n] = r.stats;
  $("range").textContent = `values ${lo.toPrecision(6)} .. ${hi.toPrecision(6)}; mapped range [${rlo.toPrecision(6)}, ` +
    `${rhi.toPrecision(6)}]` + (clipped ? `; ${clipped} of ${n} samples clipped` : "");
  const h = $("histogram"), g = h.getContext("2d");
  g.clearRect(0, 0, h.width, h.height);
  const top = Math.max(...r.hist);
  g.fillStyle = "#345";
  r.hist.forEach((k, i) => {
    const bar = top ? Math.round((k / top) * h.height) : 0;
    g.fillRect(i, h.height - bar, 1, bar);
  });
  $("status").className = "";
  $("status").textContent = `${r.width}x${r.height} drawn in ${r.ms.toFixed(1)} ms (${r.isa})`;
}

function showCursor(ev, canvas) {
  if (!last || !last.ok) return;
  const rect = canvas.getBoundingClientRect();
  const px = Math.floor(((ev.clientX - rect.left) / rect.width) * canvas.width);
  const py = Math.floor(((ev.clientY - rect.top) / rect.height) * canvas.height);
  const i = ((px % last.width) + last.width) % last.width, j = ((py % last.height) + last.height) % last.height;
  if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height) return;
  const v = last.values[j * last.width + i];
  $("cursor").textContent = `pixel (${i}, ${j}): x = ${i + 0.5}, y = ${j + 0.5}, value ${v}`;
}

// --- the buttons -----------------------------------------------------------------------------

function save(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

$("controls").addEventListener("input", request);
$("controls").addEventListener("change", request);
$("controls").addEventListener("submit", (e) => e.preventDefault());
$("canvas").addEventListener("mousemove", (e) => showCursor(e, $("canvas")));
$("tileview").addEventListener("mousemove", (e) => showCursor(e, $("tileview")));
$("copy").addEventListener("click", () => {
  const text = commandLine();
  $("command").value = text;
  (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject()).catch(() => {
    $("command").select();
    document.execCommand("copy");
  });
});
$("download").addEventListener("click", () => $("canvas").toBlob((b) => save("noise.png", b), "image/png"));
$("export").addEventListener("click", () => save("noise.yaml", new Blob([recipe()], { type: "text/yaml" })));
$("import").addEventListener("change", () => {
  const f = $("import").files[0];
  if (!f) return;
  f.text().then((text) => {
    try {
      applyPairs(parseRecipe(text));
      request();
    } catch (e) {
      showError(`${f.name}: ${e.message}`);
    }
  });
});
$("animate").addEventListener("click", () => {
  animation.on = !animation.on;
  $("animate").setAttribute("aria-pressed", String(animation.on));
  $("animate").textContent = animation.on ? "Stop" : "Animate through z";
  if (animation.on && Number($("dims").value) < 3) $("dims").value = "3";
  request();
});

// For scripts (tests/web/): the state of the page.
window.cnoisePage = { args, commandLine, recipe, parseRecipe, applyPairs, result: () => last, renders: () => renders };
request();
