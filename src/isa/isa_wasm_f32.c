/* isa_wasm_f32.c -- the WebAssembly SIMD128 build of every kernel, single precision (emcc -msimd128
 * only: scripts/build-wasm.sh). Compiled alone, with the library's strict floating-point flags;
 * everything it includes is static. */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#define CN_PREC 32
#include "../simd/vec_wasm.h"
#include "../kernels/kernels.inc"
#define CN_ISA_PART cn__wasm_f32
#include "../kernels/entries.inc"
