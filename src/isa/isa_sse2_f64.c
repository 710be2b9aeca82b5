/* isa_sse2_f64.c -- the sse2 build of every kernel, double precision. CMake compiles this file alone with
 * the instruction-set flags; everything it includes is static, so no sse2 code leaks elsewhere. */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#define CN_PREC 64
#include "../simd/vec_sse2.h"
#include "../kernels/kernels.inc"
#define CN_ISA_PART cn__sse2_f64
#include "../kernels/entries.inc"
