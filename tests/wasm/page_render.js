// page_render.js -- runs the preview page's renderer (web/page.c in the module scripts/build-wasm.sh
// writes) under Node, as the page's worker does: one "cnoise render" command line's options in,
// the RGBA pixels out.
//
//   node page_render.js MODULE.js OUT.rgba [OPTION...]
//
// Writes width x height x 4 bytes to OUT.rgba and prints "WIDTH HEIGHT ISA" on stdout; on a refused
// command line prints the module's message on stderr and exits 2.
"use strict";
const fs = require("fs");
const path = require("path");
const [modPath, outPath, ...opts] = process.argv.slice(2);
if (!modPath || !outPath) {
  console.error("usage: node page_render.js MODULE.js OUT.rgba [OPTION...]");
  process.exit(64);
}
const messages = [];
// The WebAssembly is handed over read (Node 18-20's fetch cannot load a file path).
const wasmBinary = fs.readFileSync(path.resolve(modPath).replace(/\.js$/, ".wasm"));
const opts0 = { wasmBinary, printErr: (t) => messages.push(t), print: (t) => messages.push(t) };
const cnwRender = require(path.join(__dirname, "..", "..", "web", "cnw.js"));
require(path.resolve(modPath))(opts0).then((m) => {
  const r = cnwRender(m, opts, messages);
  if (!r.ok) {
    console.error(r.message);
    process.exit(2);
  }
  fs.writeFileSync(outPath, r.rgba);
  console.log(`${r.width} ${r.height} ${r.isa}`);
});
