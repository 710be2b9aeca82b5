/* isa_avx2_f32.c -- the avx2 build of every kernel, single precision. CMake compiles this file alone with
 * the instruction-set flags; everything it includes is static, so no avx2 code leaks elsewhere. */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#define CN_PREC 32
#include "../simd/vec_avx2.h"
#include "../kernels/kernels.inc"
#define CN_ISA_PART cn__avx2_f32
#include "../kernels/entries.inc"
