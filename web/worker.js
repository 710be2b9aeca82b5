// worker.js -- the preview's renderer, off the page's thread: loads the library's WebAssembly
// module (cnoise-simd128.js where the browser runs SIMD128, else cnoise-scalar.js; "?wasm=scalar"
// on the page's address forces the scalar one) and answers each {id, args} message with the
// pixels web/page.c draws for that "cnoise render" command line, or with its error message.
"use strict";

// The smallest module with one SIMD128 instruction (v128.const, drop): valid only where the
// engine has SIMD128.
const simdProbe = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 23, 1, 21, 0, 253, 12,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 26, 11,
]);
const wanted = new URL(self.location.href).searchParams.get("wasm");
const kind = wanted === "scalar" || !WebAssembly.validate(simdProbe) ? "scalar" : "simd128";
importScripts(`cnoise-${kind}.js`);

importScripts("cnw.js");

const messages = [];
const ready = cnoiseModule({ printErr: (t) => messages.push(t), print: (t) => messages.push(t) });

self.onmessage = (e) => {
  const { id, args } = e.data;
  ready.then((m) => {
    const r = cnwRender(m, args, messages);
    r.id = id;
    r.kind = kind;
    self.postMessage(r, r.ok ? [r.rgba.buffer, r.values.buffer, r.hist.buffer] : []);
  });
};
