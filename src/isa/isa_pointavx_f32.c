/* isa_pointavx_f32.c -- the scalar build's single-point entries (single precision kernels) again,
 * compiled with -mavx (x86 only): VEX-encoded, so a caller built for AVX or AVX-512 pays no
 * penalty for switching to legacy SSE code (measured: 3x slower per call without it), and floor
 * is one rounding instruction (vec_scalar.h). No FMA, every operation the same IEEE operation or
 * exact, so the bits are the scalar build's; src/dispatch.c picks these entries where AVX runs. */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#include "../simd/vec_scalar.h"
#define CN_PREC 32
#include "../kernels/kernels.inc"
#define CN_ISA_POINT_ONLY 1
#define CN_ISA_POINT_ENTRIES 1
#define CN_POINT_TABLE cn__pointavx_f32_table
#include "../kernels/entries.inc"
