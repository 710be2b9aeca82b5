/* isa_wasm_f64.c -- the WebAssembly SIMD128 build of every kernel, double precision (emcc -msimd128
 * only: scripts/build-wasm.sh). Compiled alone, with the library's strict floating-point flags;
 * everything it includes is static. */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#define CN_PREC 64
#include "../simd/vec_wasm.h"
#include "../kernels/kernels.inc"
#define CN_ISA_PART cn__wasm_f64
#include "../kernels/entries.inc"
