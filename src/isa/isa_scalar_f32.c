/* isa_scalar_f32.c -- the scalar build, single precision (see isa_scalar_f64.c). */
#include <math.h>
#include "../core/core.h"
#include "../dispatch.h"
#include "../simd/vec_scalar.h"
#define CN_PREC 32
#include "../kernels/kernels.inc"
#define CN_ISA_PART cn__scalar_f32
#define CN_ISA_POINT_ENTRIES 1
#define CN_POINT_TABLE cn__point_f32_table
#include "../kernels/entries.inc"
