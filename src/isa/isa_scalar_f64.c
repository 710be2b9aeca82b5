/* isa_scalar_f64.c -- the scalar build, double precision: the reference every SIMD build must
 * match bit for bit, and the engine of the single-point API. */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#include "../simd/vec_scalar.h"
#define CN_PREC 64
#include "../kernels/kernels.inc"
#define CN_ISA_PART cn__scalar_f64
#define CN_ISA_POINT_ENTRIES 1
#define CN_POINT_TABLE cn__point_f64_table
#include "../kernels/entries.inc"
