/*
 * isa_scalar.c -- the scalar build of every kernel: the reference the SIMD builds must match bit
 * for bit, and the engine behind the single-point API.
 */
#include <math.h>
#include "../core/core.h"
#include "../kernels/dispatch.h"
#include "../simd/vec_scalar.h"
#include "../kernels/lattice.inc"

#define CN_PREC 64
#include "../kernels/kernels.inc"
#undef CN_PREC
#define CN_PREC 32
#include "../kernels/kernels.inc"
#undef CN_PREC

#define CN_ISA_TABLE cn__isa_scalar
#define CN_ISA_POINT_ENTRIES 1
#include "../kernels/entries.inc"
