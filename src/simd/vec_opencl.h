/*
 * vec_opencl.h -- the vector layer in OpenCL C: one lane per work-item. The same operations as
 * vec_scalar.h on OpenCL's scalar types, so that the kernels of src/kernels/ compile as OpenCL C
 * and give the scalar build's bits (src/opencl/noise.cl includes this first).
 *
 * What makes the bits the same:
 *   - the program says `#pragma OPENCL FP_CONTRACT OFF` (no fused multiply-add, as the C build's
 *     -ffp-contract=off) and is built without -cl-fast-relaxed-math, -cl-mad-enable and the like;
 *   - +, -, * and the conversions between double, float and integers are correctly rounded in
 *     OpenCL C (casts to float and double round to nearest even, casts to integers truncate),
 *     and floor and fabs are exact; division and sqrt in double are correctly rounded under
 *     cl_khr_fp64, and in float (cellular noise) they are too: with the device's correctly rounded
 *     ones where it has them, else through double (vs_sqrt, vs_div). No native_ or half_ function
 *     and no other libm-like call is used;
 *   - selects are bitwise on the same masks as vec_scalar.h, and max/min are the same a > b ? a : b.
 * The coordinates and lattice cells are doubles, as on the CPU, so the device needs cl_khr_fp64
 * for the float kernels too.
 *
 * Address spaces (prec.h): the generator is __global, file-scope tables __constant; the lookups
 * below are macros, so one definition serves every address space.
 */
#ifndef CN_VEC_OPENCL_H
#define CN_VEC_OPENCL_H

#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* The C types and macros the kernels name. */
typedef uchar uint8_t;
typedef uint uint32_t;
typedef int int32_t;
typedef ulong uint64_t;
typedef long int64_t;
#define UINT32_C(c) c##U
#define UINT64_C(c) c##UL
#define UINT64_MAX ((ulong)0xffffffffffffffffUL)

/* The NaN of a result whose coordinates were not finite: C's NAN (the quiet NaN 0x7fc00000, and
 * 0x7ff8000000000000 widened), not OpenCL's own NAN (as_float(INT_MAX), other bits). */
#undef NAN
#define NAN as_float(0x7fc00000u)

#define CN_GLOBAL __global
#define CN_TABLE __constant
#define CN_LOCAL_TABLE const
#define CN_NOINLINE

#define CN_VEC_LANES_F64 1
#define CN_VEC_LANES_F32 1
#define CN_VEC_NAME "opencl"

typedef double vd;
typedef float vs;
typedef uint vu;
typedef ulong vdm;
typedef uint vsm;

static inline ulong cn_bits_d(double a) { return as_ulong(a); }
static inline double cn_from_bits_d(ulong u) { return as_double(u); }
static inline uint cn_bits_s(float a) { return as_uint(a); }
static inline float cn_from_bits_s(uint u) { return as_float(u); }
#define CN_MASK64(c) ((ulong)0 - (ulong)(c))
#define CN_MASK32(c) ((uint)0 - (uint)(c))

/* ---- double lanes ---- */
static inline vd vd_set(double a) { return a; }
#define vd_loadu(a) ((a)[0])
#define vd_storeu(out, a) ((out)[0] = (a))
static inline vd vd_add(vd a, vd b) { return a + b; }
static inline vd vd_sub(vd a, vd b) { return a - b; }
static inline vd vd_mul(vd a, vd b) { return a * b; }
static inline vd vd_div(vd a, vd b) { return a / b; }
static inline vd vd_neg(vd a) { return -a; }
static inline vd vd_abs(vd a) { return fabs(a); }
static inline vdm vd_lt(vd a, vd b) { return CN_MASK64(a < b); }
static inline vdm vd_gt(vd a, vd b) { return CN_MASK64(a > b); }
static inline vdm vd_eq(vd a, vd b) { return CN_MASK64(a == b); }
static inline vdm vd_ge(vd a, vd b) { return CN_MASK64(a >= b); }
static inline vd vd_sel(vdm m, vd a, vd b) { return cn_from_bits_d((cn_bits_d(a) & m) | (cn_bits_d(b) & ~m)); }
static inline vd vd_max(vd a, vd b) { return a > b ? a : b; }
static inline vd vd_min(vd a, vd b) { return a < b ? a : b; }
/* Square root (correctly rounded: the program is built with
 * -cl-fp32-correctly-rounded-divide-sqrt), and whether any lane of a mask is set. */
static inline vd vd_sqrt(vd a) { return sqrt(a); }
static inline int vdm_any(vdm a) { return a != 0; }
static inline vdm vdm_and(vdm a, vdm b) { return a & b; }
static inline vdm vdm_or(vdm a, vdm b) { return a | b; }
static inline vdm vdm_not(vdm a) { return ~a; }
static inline int vdm_all(vdm a) { return a == UINT64_MAX; }
static inline vdm vd_finite(vd a) { return CN_MASK64((a - a) == 0.0); }
static inline vd vd_finite_or0(vd a) { return vd_sel(vd_finite(a), a, 0.0); }
static inline vd vd_floor(vd a) { return floor(a); } /* exact (0 ulp) in OpenCL C */
static inline vu vd_wrap_u32_small(vd a) { return (uint)(int)a; }
/* An integral double modulo 2^32, as vec_scalar.h (one conversion below 2^31 in magnitude). */
static inline vu vd_wrap_u32(vd a)
{
    if (a > -2147483649.0 && a < 2147483648.0)
        return vd_wrap_u32_small(a);
    double q = vd_floor(a * (1.0 / 4294967296.0));
    double r = a - q * 4294967296.0;
    return (uint)(ulong)r;
}
static inline vu cn_opaque_u(vu a) { return a; }
static inline vd vd_from_u(vu a) { return (double)a; }
#define vd_gather(table, idx) ((table)[(idx)])
#define vd_perm16(table, idx) ((table)[(idx)])
#define vd_perm8(table, idx) ((table)[(idx)])

/* ---- float lanes ---- */
static inline vs vs_set(float a) { return a; }
#define vs_storeu(out, a) ((out)[0] = (a))
static inline vs vs_from_d(vd a) { return (float)a; }
static inline vd vd_from_s(vs a) { return (double)a; }
static inline vs vs_add(vs a, vs b) { return a + b; }
static inline vs vs_sub(vs a, vs b) { return a - b; }
static inline vs vs_mul(vs a, vs b) { return a * b; }
static inline vs vs_neg(vs a) { return -a; }
static inline vs vs_abs(vs a) { return fabs(a); }
static inline vsm vs_lt(vs a, vs b) { return CN_MASK32(a < b); }
static inline vsm vs_eq(vs a, vs b) { return CN_MASK32(a == b); }
static inline vsm vs_gt(vs a, vs b) { return CN_MASK32(a > b); }
static inline vs vs_sel(vsm m, vs a, vs b) { return cn_from_bits_s((cn_bits_s(a) & m) | (cn_bits_s(b) & ~m)); }
static inline vs vs_max(vs a, vs b) { return a > b ? a : b; }
static inline vs vs_min(vs a, vs b) { return a < b ? a : b; }
#ifdef CN_CL_CR_DIVIDE_SQRT /* the device rounds float division and sqrt correctly (src/opencl.c) */
static inline vs vs_sqrt(vs a) { return sqrt(a); }
static inline vs vs_div(vs a, vs b) { return a / b; }
#else
/* Through double, whose division and square root OpenCL requires to be correctly rounded: the
 * double result rounded to float is the correctly rounded float one (53 >= 2 * 24 + 2 bits). */
static inline vs vs_sqrt(vs a) { return (float)sqrt((double)a); }
static inline vs vs_div(vs a, vs b) { return (float)((double)a / (double)b); }
#endif
static inline int vsm_any(vsm a) { return a != 0; }
static inline vsm vsm_not(vsm a) { return ~a; }
static inline vsm vsm_and(vsm a, vsm b) { return a & b; }
static inline vsm vsm_or(vsm a, vsm b) { return a | b; }
static inline vsm vsm_from_d(vdm m) { return (vsm)m; }
static inline vs vs_from_u(vu a) { return (float)a; }
#define vs_gather(table, idx) ((table)[(idx)])
#define vs_perm16(table, idx) ((table)[(idx)])
#define vs_perm8(table, idx) ((table)[(idx)])

/* ---- uint32 lanes ---- */
static inline uint vu_first(vu a) { return a; }
static inline vu vu_set(uint a) { return a; }
static inline vu vu_add(vu a, vu b) { return a + b; }
static inline vu vu_sub(vu a, vu b) { return a - b; }
static inline vu vu_mul(vu a, vu b) { return a * b; }
static inline vu vu_xor(vu a, vu b) { return a ^ b; }
static inline vu vu_and(vu a, vu b) { return a & b; }
static inline vu vu_or(vu a, vu b) { return a | b; }
static inline vu vu_shr(vu a, int n) { return a >> n; }
static inline vu vu_shl(vu a, int n) { return a << n; }
#define vu_gather8(table, idx) ((uint)(table)[(idx)])
static inline vu vu_sel_d(vdm m, vu a, vu b) { return (a & (vu)m) | (b & ~(vu)m); }
static inline vdm vu_nz_d(vu a) { return CN_MASK64(a != 0); }
static inline vu vu_sel_s(vsm m, vu a, vu b) { return (a & m) | (b & ~m); }
static inline vsm vu_nz_s(vu a) { return CN_MASK32(a != 0); }
static inline vdm vu_eq_d(vu a, vu b) { return CN_MASK64(a == b); }
static inline vsm vu_eq_s(vu a, vu b) { return CN_MASK32(a == b); }

#endif
