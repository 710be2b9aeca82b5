/* isa_neon_f32.c -- the neon build of every kernel, single precision (AArch64 only). CMake compiles this file
 * alone, with the library's strict floating-point flags; everything it includes is static. */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#define CN_PREC 32
#include "../simd/vec_neon.h"
#include "../kernels/kernels.inc"
#define CN_ISA_PART cn__neon_f32
#include "../kernels/entries.inc"
