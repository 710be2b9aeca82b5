/* isa_avx512_f32.c -- the avx512 build of every kernel, single precision. CMake compiles this file alone with
 * the instruction-set flags; everything it includes is static, so no avx512 code leaks elsewhere. */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#define CN_PREC 32
#include "../simd/vec_avx512.h"
#include "../kernels/kernels.inc"
#define CN_ISA_PART cn__avx512_f32
#include "../kernels/entries.inc"
