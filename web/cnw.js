// cnw.js -- one call of the page's renderer (web/page.c) on a module instance m: the options of a
// "cnoise render" command line in, the picture out. Shared by the page's worker (worker.js) and
// the Node test (tests/wasm/page_render.js), so both pass the options the same way.
// Returns {ok: true, width, height, rgba, values, hist, stats, ms, isa} with copies of the
// module's buffers (its memory may grow and move at the next call), or {ok: false, message}
// with what the renderer printed (the tool's message); messages is the array m's printErr fills.
"use strict";
function cnwRender(m, args, messages) {
  const ptrs = args.map((s) => {
    const n = m.lengthBytesUTF8(s) + 1;
    const p = m._malloc(n);
    m.stringToUTF8(s, p, n);
    return p;
  });
  const argv = m._malloc(4 * Math.max(1, ptrs.length));
  ptrs.forEach((p, i) => { m.HEAPU32[argv / 4 + i] = p; });
  messages.length = 0;
  const t0 = performance.now();
  const rc = m._cnw_render(ptrs.length, argv);
  const ms = performance.now() - t0;
  ptrs.forEach((p) => m._free(p));
  m._free(argv);
  if (rc !== 0) return { ok: false, message: messages.join("\n") || "the renderer refused these options" };
  const w = m._cnw_width(), h = m._cnw_height();
  const rgba = m.HEAPU8.slice(m._cnw_rgba(), m._cnw_rgba() + w * h * 4);
  const values = m.HEAPF32.slice(m._cnw_values() / 4, m._cnw_values() / 4 + w * h);
  const hist = m.HEAPU32.slice(m._cnw_histogram() / 4, m._cnw_histogram() / 4 + 256);
  const stats = [0, 1, 2, 3, 4, 5].map((i) => m._cnw_stat(i));
  return { ok: true, width: w, height: h, rgba, values, hist, stats, ms, isa: m.UTF8ToString(m._cnw_isa()) };
}
if (typeof module !== "undefined") module.exports = cnwRender;
