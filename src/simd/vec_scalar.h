/*
 * vec_scalar.h -- the vector layer, one lane wide. Every kernel in src/kernels/ is written against
 * these operations only; an instruction set adds a header of its own (vec_sse2.h, vec_avx2.h, ...)
 * that defines the same types and operations over wider registers.
 *
 * Types
 *   vd   double lanes  (coordinates, lattice cell and offsets)
 *   vs   float lanes   (float kernels)
 *   vu   uint32 lanes, as many as vd/vs has (lattice indices and hashes; wrap-around arithmetic)
 *   vdm, vsm  lane masks for vd and vs: all bits set or all clear, as SIMD compares give; selects
 *             are bitwise, so the scalar build has no data-dependent branches (random gradient
 *             choices would mispredict)
 * Rules: IEEE-754 results with no contraction (the build uses -ffp-contract=off), no libm calls,
 * all integer arithmetic unsigned. Selects never evaluate a trap.
 */
#ifndef CN_VEC_SCALAR_H
#define CN_VEC_SCALAR_H

#include <stdint.h>
#include <string.h>

#define CN_VEC_LANES_F64 1 /* lanes of the double-precision kernels */
#define CN_VEC_LANES_F32 1 /* lanes of the single-precision kernels */
#define CN_VEC_NAME "scalar"

typedef double vd;
typedef float vs;
typedef uint32_t vu;
typedef uint64_t vdm;
typedef uint32_t vsm;

static inline uint64_t cn_bits_d(double a) { uint64_t u; memcpy(&u, &a, sizeof u); return u; }
static inline double cn_from_bits_d(uint64_t u) { double a; memcpy(&a, &u, sizeof a); return a; }
static inline uint32_t cn_bits_s(float a) { uint32_t u; memcpy(&u, &a, sizeof u); return u; }
static inline float cn_from_bits_s(uint32_t u) { float a; memcpy(&a, &u, sizeof a); return a; }
#define CN_MASK64(c) ((uint64_t)0 - (uint64_t)(c))
#define CN_MASK32(c) ((uint32_t)0 - (uint32_t)(c))

/* ---- double lanes ---- */
static inline vd vd_set(double a) { return a; }
static inline vd vd_loadu(const double *a) { return a[0]; }
static inline void vd_storeu(double *out, vd a) { out[0] = a; }
static inline vd vd_add(vd a, vd b) { return a + b; }
static inline vd vd_sub(vd a, vd b) { return a - b; }
static inline vd vd_mul(vd a, vd b) { return a * b; }
static inline vd vd_div(vd a, vd b) { return a / b; }
static inline vd vd_neg(vd a) { return -a; }
/* |a| by clearing the sign bit (so -0 gives +0, as a SIMD and-not does). */
#if defined(__GNUC__) || defined(__clang__)
static inline vd vd_abs(vd a) { return __builtin_fabs(a); } /* one and-not, no libm call */
#else
static inline vd vd_abs(vd a) { return cn_from_bits_d(cn_bits_d(a) & ~(UINT64_C(1) << 63)); }
#endif
static inline vdm vd_lt(vd a, vd b) { return CN_MASK64(a < b); }
static inline vdm vd_gt(vd a, vd b) { return CN_MASK64(a > b); }
static inline vdm vd_eq(vd a, vd b) { return CN_MASK64(a == b); }
static inline vdm vd_ge(vd a, vd b) { return CN_MASK64(a >= b); }
static inline vd vd_sel(vdm m, vd a, vd b) { return cn_from_bits_d((cn_bits_d(a) & m) | (cn_bits_d(b) & ~m)); }
/* a > b ? a : b and a < b ? a : b: b where a and b are equal or unordered (as x86 maxsd/minsd,
 * which the compiler emits for them). Used for clamps, not for data-dependent choices. */
static inline vd vd_max(vd a, vd b) { return a > b ? a : b; }
static inline vd vd_min(vd a, vd b) { return a < b ? a : b; }
/* Square root, correctly rounded (IEEE 754), and whether any lane of a mask is set. */
static inline vd vd_sqrt(vd a) { return __builtin_sqrt(a); }
static inline int vdm_any(vdm a) { return a != 0; }
static inline vdm vdm_and(vdm a, vdm b) { return a & b; }
static inline vdm vdm_or(vdm a, vdm b) { return a | b; }
static inline vdm vdm_not(vdm a) { return ~a; }
/* Whether every lane of the mask is set (for a final, well-predicted branch). */
static inline int vdm_all(vdm a) { return a == UINT64_MAX; }
/* Lanes that are finite (x - x is 0 for finite x, NaN for NaN and +-Inf). */
static inline vdm vd_finite(vd a) { return CN_MASK64((a - a) == 0.0); }
/* a if finite, otherwise 0: keeps NaN/Inf away from integer conversions. */
static inline vd vd_finite_or0(vd a) { return vd_sel(vd_finite(a), a, 0.0); }

/*
 * True floor for every finite double. Where the target has a rounding instruction (SSE4.1 roundsd,
 * AArch64 frintm) that is one instruction. Otherwise without libm: doubles with |a| >= 2^52 are
 * integers already; below that, truncation through int64 is exact and defined, then step down if
 * it rounded up. floor(-0) is -0 either way, as in every SIMD build.
 */
static inline vd vd_floor(vd a)
{
#if defined(__SSE4_1__) || defined(__aarch64__)
    return __builtin_floor(a);
#else
    if (!(a > -4503599627370496.0 && a < 4503599627370496.0) || a == 0)
        return a; /* integers already; and +-0 keeps its sign, as the SIMD rounding does */
    double t = (double)(int64_t)a;
    return t - (double)(t > a);
#endif
}

/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return (vu)(uint32_t)(int32_t)a; }

/*
 * An integer-valued finite double reduced modulo 2^32: a - 2^32 * floor(a / 2^32) is exact for
 * every integral double (scaling by a power of two is exact) and lies in [0, 2^32). Cells below
 * 2^31 in magnitude (nearly all of them) take one conversion instead; the branch is predictable.
 */
static inline vu vd_wrap_u32(vd a)
{
    if (a > -2147483649.0 && a < 2147483648.0)
        return vd_wrap_u32_small(a);
    double q = vd_floor(a * (1.0 / 4294967296.0));
    double r = a - q * 4294967296.0;
    return (vu)(uint64_t)r;
}
/*
 * A value the compiler must not reason about. Where it can prove a lane is 0 or 1 (simplex ranks),
 * clang turns the conversion below into a select between two constants, and a floating-point
 * select on x86 into a branch: a data-dependent one (callgrind's branch simulation: two of three
 * single-point simplex calls on scattered points mispredicted it). The empty asm hides the range;
 * it emits nothing.
 */
#if defined(__GNUC__)
static inline vu cn_opaque_u(vu a) { __asm__("" : "+r"(a)); return a; }
#else
static inline vu cn_opaque_u(vu a) { return a; }
#endif
/* uint32 lanes to doubles (exact). */
static inline vd vd_from_u(vu a) { return (double)cn_opaque_u(a); }
/* Table lookup of doubles: lanes of idx index table (the caller guarantees bounds). */
static inline vd vd_gather(const double *table, vu idx) { return table[idx]; }
/* A lookup in a table of 16 entries (idx in 0..15): permutes where the instruction set has them. */
static inline vd vd_perm16(const double *table, vu idx) { return table[idx]; }
static inline vd vd_perm8(const double *table, vu idx) { return vd_perm16(table, idx); }

/* ---- float lanes ---- */
static inline vs vs_set(float a) { return a; }
static inline void vs_storeu(float *out, vs a) { out[0] = a; }
static inline vs vs_from_d(vd a) { return (float)a; }
static inline vd vd_from_s(vs a) { return (double)a; }
static inline vs vs_add(vs a, vs b) { return a + b; }
static inline vs vs_sub(vs a, vs b) { return a - b; }
static inline vs vs_mul(vs a, vs b) { return a * b; }
static inline vs vs_neg(vs a) { return -a; }
#if defined(__GNUC__) || defined(__clang__)
static inline vs vs_abs(vs a) { return __builtin_fabsf(a); }
#else
static inline vs vs_abs(vs a) { return cn_from_bits_s(cn_bits_s(a) & ~(UINT32_C(1) << 31)); }
#endif
static inline vsm vs_lt(vs a, vs b) { return CN_MASK32(a < b); }
static inline vsm vs_eq(vs a, vs b) { return CN_MASK32(a == b); }
static inline vsm vs_gt(vs a, vs b) { return CN_MASK32(a > b); }
static inline vs vs_sel(vsm m, vs a, vs b) { return cn_from_bits_s((cn_bits_s(a) & m) | (cn_bits_s(b) & ~m)); }
static inline vs vs_max(vs a, vs b) { return a > b ? a : b; }
static inline vs vs_min(vs a, vs b) { return a < b ? a : b; }
static inline vs vs_sqrt(vs a) { return __builtin_sqrtf(a); }
static inline vs vs_div(vs a, vs b) { return a / b; }
static inline int vsm_any(vsm a) { return a != 0; }
static inline vsm vsm_not(vsm a) { return ~a; }
static inline vsm vsm_and(vsm a, vsm b) { return a & b; }
static inline vsm vsm_or(vsm a, vsm b) { return a | b; }
static inline vsm vsm_from_d(vdm m) { return (vsm)m; }
/* uint32 lanes below 2^31 to floats, as the SSE2 and AVX2 layers convert them (signed: every
 * kernel converts small whole numbers only); as int32, without the zero extension a uint32 takes. */
static inline vs vs_from_u(vu a) { return (float)(int32_t)cn_opaque_u(a); }
static inline vs vs_gather(const float *table, vu idx) { return table[idx]; }
static inline vs vs_perm16(const float *table, vu idx) { return table[idx]; }
static inline vs vs_perm8(const float *table, vu idx) { return vs_perm16(table, idx); }

/* ---- uint32 lanes ---- */
/* Lane 0 of a uint32 vector. */
static inline uint32_t vu_first(vu a) { return a; }
static inline vu vu_set(uint32_t a) { return a; }
static inline vu vu_add(vu a, vu b) { return a + b; }
static inline vu vu_sub(vu a, vu b) { return a - b; }
static inline vu vu_mul(vu a, vu b) { return a * b; }
static inline vu vu_xor(vu a, vu b) { return a ^ b; }
static inline vu vu_and(vu a, vu b) { return a & b; }
static inline vu vu_or(vu a, vu b) { return a | b; }
static inline vu vu_shr(vu a, int n) { return a >> n; }
static inline vu vu_shl(vu a, int n) { return a << n; }
/* Table lookup: lanes of idx index a byte table (the caller guarantees idx is in bounds). */
static inline vu vu_gather8(const uint8_t *table, vu idx) { return table[idx]; }
/* Lane masks from integer tests, for double and for float lanes. */
/* Select uint32 lanes by a double-lane mask. */
static inline vu vu_sel_d(vdm m, vu a, vu b) { return (a & (vu)m) | (b & ~(vu)m); }
static inline vdm vu_nz_d(vu a) { return CN_MASK64(a != 0); }
static inline vu vu_sel_s(vsm m, vu a, vu b) { return (a & m) | (b & ~m); }
static inline vsm vu_nz_s(vu a) { return CN_MASK32(a != 0); }
static inline vdm vu_eq_d(vu a, vu b) { return CN_MASK64(a == b); }
static inline vsm vu_eq_s(vu a, vu b) { return CN_MASK32(a == b); }

#endif
