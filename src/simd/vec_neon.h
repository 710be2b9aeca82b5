/*
 * vec_neon.h -- the vector layer on AArch64 Advanced SIMD (NEON, part of every 64-bit ARM CPU).
 * Same types, operations and bits as vec_scalar.h: every operation is one exactly rounded IEEE
 * operation, a comparison, a bitwise select or integer arithmetic. No fused multiply-add: products
 * and sums are separate vmulq/vaddq (GCC and Clang write these intrinsics as plain C operators,
 * so the build's -ffp-contract=off is what keeps them apart), and no vmla/vfma intrinsics.
 * Conversions are the ones a scalar AArch64 build uses (FRINTM, FCVTZU, UCVTF, FCVTN), under the
 * default FPCR: round to nearest even, no flush to zero, NaNs propagated rather than defaulted.
 *
 * One precision per translation unit (CN_PREC, set before including):
 *   CN_PREC 64: 2 lanes. vd = float64x2_t, vdm = uint64x2_t (all-ones lanes), vu = uint32x2_t.
 *   CN_PREC 32: 4 lanes. vs = float32x4_t, vsm = vu = uint32x4_t; the double-precision lattice
 *               set-up runs on vd = a pair of float64x2_t (lanes 0-1, 2-3).
 */
#ifndef CN_VEC_NEON_H
#define CN_VEC_NEON_H

#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "vec_neon.h needs AArch64 with Advanced SIMD (CMake compiles src/isa/isa_neon_*.c only there)"
#endif

#include <arm_neon.h>
#include <stdint.h>

#define CN_VEC_NAME "neon"

/* ---- two double lanes (d2) and their masks (m2), used by both precisions ---- */
typedef float64x2_t d2;
typedef uint64x2_t m2;
static inline d2 d2_set(double a) { return vdupq_n_f64(a); }
static inline d2 d2_add(d2 a, d2 b) { return vaddq_f64(a, b); }
static inline d2 d2_sub(d2 a, d2 b) { return vsubq_f64(a, b); }
static inline d2 d2_mul(d2 a, d2 b) { return vmulq_f64(a, b); }
static inline d2 d2_div(d2 a, d2 b) { return vdivq_f64(a, b); }
/* FNEG and FABS flip or clear the sign bit only, NaN included, as the scalar bit operations do. */
static inline d2 d2_neg(d2 a) { return vnegq_f64(a); }
static inline d2 d2_abs(d2 a) { return vabsq_f64(a); }
static inline m2 d2_lt(d2 a, d2 b) { return vcltq_f64(a, b); }
static inline m2 d2_gt(d2 a, d2 b) { return vcgtq_f64(a, b); }
static inline m2 d2_ge(d2 a, d2 b) { return vcgeq_f64(a, b); }
static inline m2 d2_eq(d2 a, d2 b) { return vceqq_f64(a, b); }
static inline d2 d2_sel(m2 m, d2 a, d2 b) { return vbslq_f64(m, a, b); }
static inline m2 m2_and(m2 a, m2 b) { return vandq_u64(a, b); }
static inline m2 m2_or(m2 a, m2 b) { return vorrq_u64(a, b); }
static inline m2 m2_not(m2 a) { return vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(a))); }
/* Whether every lane of the mask is set (the smallest 32-bit half is all ones). */
static inline int m2_all(m2 a) { return vminvq_u32(vreinterpretq_u32_u64(a)) == UINT32_MAX; }
/* x - x is 0 for finite x, NaN for NaN and +-Inf. */
static inline m2 d2_finite(d2 a) { return vceqq_f64(vsubq_f64(a, a), vdupq_n_f64(0.0)); }
static inline d2 d2_finite_or0(d2 a)
{
    return vreinterpretq_f64_u64(vandq_u64(vreinterpretq_u64_f64(a), d2_finite(a)));
}
/* Exact floor: FRINTM rounds toward -inf; whole numbers (|a| >= 2^52 included), +-0, +-Inf and
 * NaN come back as they are, as in vec_scalar.h. */
static inline d2 d2_floor(d2 a) { return vrndmq_f64(a); }
/* An integral double reduced modulo 2^32: r = a - 2^32 floor(a / 2^32) is exact and in [0, 2^32),
 * so the truncating FCVTZU to uint64 is exact and its low half is the result (as the scalar
 * (uint32_t)(uint64_t)r). */
static inline uint64x2_t d2_wrap_u64(d2 a)
{
    d2 q = d2_floor(vmulq_f64(a, vdupq_n_f64(1.0 / 4294967296.0)));
    d2 r = vsubq_f64(a, vmulq_f64(q, vdupq_n_f64(4294967296.0)));
    return vcvtq_u64_f64(r);
}
/* 2 x u32 to doubles, exactly (widened to u64 first). */
static inline d2 d2_from_u(uint32x2_t a) { return vcvtq_f64_u64(vmovl_u32(a)); }
/* A 2-lane double mask as 2 x u32 (each half of an all-ones or all-zeros lane is the same). */
static inline uint32x2_t m2_u32(m2 m) { return vmovn_u64(m); }
/* 2 x u32 mask (all-ones lanes) widened, sign-extended, to a double mask. */
static inline m2 u32_m2(uint32x2_t m) { return vreinterpretq_u64_s64(vmovl_s32(vreinterpret_s32_u32(m))); }

#if CN_PREC == 64
/* ===================================== 2 lanes, double ===================================== */
#define CN_VEC_LANES_F64 2
#define CN_VEC_LANES_F32 0

typedef float64x2_t vd;
typedef uint64x2_t vdm;
typedef uint32x2_t vu;

static inline vd vd_set(double a) { return d2_set(a); }
static inline vd vd_loadu(const double *a) { return vld1q_f64(a); }
static inline void vd_storeu(double *out, vd a) { vst1q_f64(out, a); }
static inline vd vd_add(vd a, vd b) { return d2_add(a, b); }
static inline vd vd_sub(vd a, vd b) { return d2_sub(a, b); }
static inline vd vd_mul(vd a, vd b) { return d2_mul(a, b); }
static inline vd vd_div(vd a, vd b) { return d2_div(a, b); }
static inline vd vd_neg(vd a) { return d2_neg(a); }
static inline vd vd_abs(vd a) { return d2_abs(a); }
static inline vdm vd_lt(vd a, vd b) { return d2_lt(a, b); }
static inline vdm vd_gt(vd a, vd b) { return d2_gt(a, b); }
static inline vdm vd_ge(vd a, vd b) { return d2_ge(a, b); }
static inline vdm vd_eq(vd a, vd b) { return d2_eq(a, b); }
static inline vd vd_sel(vdm m, vd a, vd b) { return d2_sel(m, a, b); }
/* a > b ? a : b and a < b ? a : b, lane by lane: b where the lanes are equal or unordered. */
static inline vd vd_max(vd a, vd b) { return vd_sel(vd_gt(a, b), a, b); }
static inline vd vd_min(vd a, vd b) { return vd_sel(vd_lt(a, b), a, b); }
static inline vd vd_sqrt(vd a) { return vsqrtq_f64(a); }
static inline int vdm_any(vdm a) { return vmaxvq_u32(vreinterpretq_u32_u64(a)) != 0; }
static inline vdm vdm_and(vdm a, vdm b) { return m2_and(a, b); }
static inline vdm vdm_or(vdm a, vdm b) { return m2_or(a, b); }
static inline vdm vdm_not(vdm a) { return m2_not(a); }
static inline int vdm_all(vdm a) { return m2_all(a); }
static inline vdm vd_finite(vd a) { return d2_finite(a); }
static inline vd vd_finite_or0(vd a) { return d2_finite_or0(a); }
static inline vd vd_floor(vd a) { return d2_floor(a); }
static inline vu vd_wrap_u32(vd a) { return vmovn_u64(d2_wrap_u64(a)); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return vmovn_u64(vreinterpretq_u64_s64(vcvtq_s64_f64(a))); }
static inline vd vd_from_u(vu a) { return d2_from_u(a); }
static inline vd vd_gather(const double *table, vu idx)
{
    const double t[2] = {table[vget_lane_u32(idx, 0)], table[vget_lane_u32(idx, 1)]};
    return vld1q_f64(t);
}

static inline uint32_t vu_first(vu a) { return vget_lane_u32(a, 0); }
static inline vu vu_set(uint32_t a) { return vdup_n_u32(a); }
static inline vu vu_add(vu a, vu b) { return vadd_u32(a, b); }
static inline vu vu_sub(vu a, vu b) { return vsub_u32(a, b); }
static inline vu vu_mul(vu a, vu b) { return vmul_u32(a, b); } /* low 32 bits, as C's wrap */
static inline vu vu_xor(vu a, vu b) { return veor_u32(a, b); }
static inline vu vu_and(vu a, vu b) { return vand_u32(a, b); }
static inline vu vu_or(vu a, vu b) { return vorr_u32(a, b); }
/* USHL by a register count (negative: right); n need not be a compile-time constant. */
static inline vu vu_shr(vu a, int n) { return vshl_u32(a, vdup_n_s32(-n)); }
static inline vu vu_shl(vu a, int n) { return vshl_u32(a, vdup_n_s32(n)); }
static inline vd vd_perm16(const double *table, vu idx) { return vd_gather(table, idx); }
static inline vd vd_perm8(const double *table, vu idx) { return vd_perm16(table, idx); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    const uint32_t t[2] = {table[vget_lane_u32(idx, 0)], table[vget_lane_u32(idx, 1)]};
    return vld1_u32(t);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return vbsl_u32(m2_u32(m), a, b); }
static inline vdm vu_nz_d(vu a) { return u32_m2(vtst_u32(a, a)); }
static inline vdm vu_eq_d(vu a, vu b) { return u32_m2(vceq_u32(a, b)); }

#elif CN_PREC == 32
/* ===================================== 4 lanes, float ====================================== */
#define CN_VEC_LANES_F64 0
#define CN_VEC_LANES_F32 4

typedef struct { d2 lo, hi; } vd; /* lanes 0-1, 2-3 */
typedef struct { m2 lo, hi; } vdm;
typedef float32x4_t vs;
typedef uint32x4_t vsm;
typedef uint32x4_t vu;

#define CN_D2(expr_lo, expr_hi) { vd r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
#define CN_M2(expr_lo, expr_hi) { vdm r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
static inline vd vd_set(double a) CN_D2(d2_set(a), d2_set(a))
static inline vd vd_loadu(const double *a) CN_D2(vld1q_f64(a), vld1q_f64(a + 2))
static inline vd vd_add(vd a, vd b) CN_D2(d2_add(a.lo, b.lo), d2_add(a.hi, b.hi))
static inline vd vd_sub(vd a, vd b) CN_D2(d2_sub(a.lo, b.lo), d2_sub(a.hi, b.hi))
static inline vd vd_mul(vd a, vd b) CN_D2(d2_mul(a.lo, b.lo), d2_mul(a.hi, b.hi))
static inline vd vd_div(vd a, vd b) CN_D2(d2_div(a.lo, b.lo), d2_div(a.hi, b.hi))
static inline vd vd_neg(vd a) CN_D2(d2_neg(a.lo), d2_neg(a.hi))
static inline vd vd_abs(vd a) CN_D2(d2_abs(a.lo), d2_abs(a.hi))
static inline vdm vd_lt(vd a, vd b) CN_M2(d2_lt(a.lo, b.lo), d2_lt(a.hi, b.hi))
static inline vdm vd_gt(vd a, vd b) CN_M2(d2_gt(a.lo, b.lo), d2_gt(a.hi, b.hi))
static inline vdm vd_ge(vd a, vd b) CN_M2(d2_ge(a.lo, b.lo), d2_ge(a.hi, b.hi))
static inline vdm vd_eq(vd a, vd b) CN_M2(d2_eq(a.lo, b.lo), d2_eq(a.hi, b.hi))
static inline vd vd_sel(vdm m, vd a, vd b) CN_D2(d2_sel(m.lo, a.lo, b.lo), d2_sel(m.hi, a.hi, b.hi))
static inline vdm vdm_and(vdm a, vdm b) CN_M2(m2_and(a.lo, b.lo), m2_and(a.hi, b.hi))
static inline vdm vdm_or(vdm a, vdm b) CN_M2(m2_or(a.lo, b.lo), m2_or(a.hi, b.hi))
static inline vdm vdm_not(vdm a) CN_M2(m2_not(a.lo), m2_not(a.hi))
static inline vdm vd_finite(vd a) CN_M2(d2_finite(a.lo), d2_finite(a.hi))
static inline vd vd_finite_or0(vd a) CN_D2(d2_finite_or0(a.lo), d2_finite_or0(a.hi))
static inline vd vd_floor(vd a) CN_D2(d2_floor(a.lo), d2_floor(a.hi))
#undef CN_D2
#undef CN_M2
static inline void vd_storeu(double *out, vd a)
{
    vst1q_f64(out, a.lo);
    vst1q_f64(out + 2, a.hi);
}
static inline int vdm_all(vdm a) { return m2_all(vandq_u64(a.lo, a.hi)); }

static inline vu vd_wrap_u32(vd a) { return vmovn_high_u64(vmovn_u64(d2_wrap_u64(a.lo)), d2_wrap_u64(a.hi)); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a)
{
    return vmovn_high_u64(vmovn_u64(vreinterpretq_u64_s64(vcvtq_s64_f64(a.lo))), vreinterpretq_u64_s64(vcvtq_s64_f64(a.hi)));
}
static inline vd vd_from_u(vu a)
{
    vd r;
    r.lo = d2_from_u(vget_low_u32(a));
    r.hi = d2_from_u(vget_high_u32(a));
    return r;
}
/* A pair of double masks as 4 x u32 mask lanes. */
static inline uint32x4_t cn_dmask_u32(vdm m) { return vcombine_u32(m2_u32(m.lo), m2_u32(m.hi)); }

static inline vs vs_set(float a) { return vdupq_n_f32(a); }
static inline void vs_storeu(float *out, vs a) { vst1q_f32(out, a); }
/* FCVTN: each double rounded to float to nearest, as the scalar (float) cast. */
static inline vs vs_from_d(vd a) { return vcvt_high_f32_f64(vcvt_f32_f64(a.lo), a.hi); }
static inline vs vs_add(vs a, vs b) { return vaddq_f32(a, b); }
static inline vs vs_sub(vs a, vs b) { return vsubq_f32(a, b); }
static inline vs vs_mul(vs a, vs b) { return vmulq_f32(a, b); }
static inline vs vs_neg(vs a) { return vnegq_f32(a); }
static inline vs vs_abs(vs a) { return vabsq_f32(a); }
static inline vsm vs_lt(vs a, vs b) { return vcltq_f32(a, b); }
static inline vsm vs_eq(vs a, vs b) { return vceqq_f32(a, b); }
static inline vsm vs_gt(vs a, vs b) { return vcgtq_f32(a, b); }
static inline vs vs_sel(vsm m, vs a, vs b) { return vbslq_f32(m, a, b); }
static inline vs vs_max(vs a, vs b) { return vs_sel(vs_gt(a, b), a, b); }
static inline vs vs_min(vs a, vs b) { return vs_sel(vs_lt(a, b), a, b); }
static inline vs vs_sqrt(vs a) { return vsqrtq_f32(a); }
static inline vs vs_div(vs a, vs b) { return vdivq_f32(a, b); }
static inline int vsm_any(vsm a) { return vmaxvq_u32(a) != 0; }
static inline vsm vsm_not(vsm a) { return vmvnq_u32(a); }
static inline vsm vsm_and(vsm a, vsm b) { return vandq_u32(a, b); }
static inline vsm vsm_or(vsm a, vsm b) { return vorrq_u32(a, b); }
static inline vsm vsm_from_d(vdm m) { return cn_dmask_u32(m); }
/* UCVTF: every u32 rounded to float to nearest, as the scalar (float) cast. */
static inline vs vs_from_u(vu a) { return vcvtq_f32_u32(a); }
static inline vs vs_gather(const float *table, vu idx)
{
    const float t[4] = {table[vgetq_lane_u32(idx, 0)], table[vgetq_lane_u32(idx, 1)], table[vgetq_lane_u32(idx, 2)],
                        table[vgetq_lane_u32(idx, 3)]};
    return vld1q_f32(t);
}

static inline uint32_t vu_first(vu a) { return vgetq_lane_u32(a, 0); }
static inline vu vu_set(uint32_t a) { return vdupq_n_u32(a); }
static inline vu vu_add(vu a, vu b) { return vaddq_u32(a, b); }
static inline vu vu_sub(vu a, vu b) { return vsubq_u32(a, b); }
static inline vu vu_mul(vu a, vu b) { return vmulq_u32(a, b); } /* low 32 bits, as C's wrap */
static inline vu vu_xor(vu a, vu b) { return veorq_u32(a, b); }
static inline vu vu_and(vu a, vu b) { return vandq_u32(a, b); }
static inline vu vu_or(vu a, vu b) { return vorrq_u32(a, b); }
static inline vu vu_shr(vu a, int n) { return vshlq_u32(a, vdupq_n_s32(-n)); }
static inline vu vu_shl(vu a, int n) { return vshlq_u32(a, vdupq_n_s32(n)); }
static inline vs vs_perm16(const float *table, vu idx) { return vs_gather(table, idx); }
static inline vs vs_perm8(const float *table, vu idx) { return vs_perm16(table, idx); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    const uint32_t t[4] = {table[vgetq_lane_u32(idx, 0)], table[vgetq_lane_u32(idx, 1)], table[vgetq_lane_u32(idx, 2)],
                           table[vgetq_lane_u32(idx, 3)]};
    return vld1q_u32(t);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return vbslq_u32(cn_dmask_u32(m), a, b); }
static inline vu vu_sel_s(vsm m, vu a, vu b) { return vbslq_u32(m, a, b); }
static inline vsm vu_nz_s(vu a) { return vtstq_u32(a, a); }
static inline vsm vu_eq_s(vu a, vu b) { return vceqq_u32(a, b); }

#else
#error "set CN_PREC to 64 or 32 before including vec_neon.h"
#endif

#endif
