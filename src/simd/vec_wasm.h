/*
 * vec_wasm.h -- the vector layer on WebAssembly SIMD128 (one 128-bit type, v128_t, for every lane
 * shape). Same types, operations and bits as vec_scalar.h: every operation is one IEEE operation
 * with round to nearest even (the only rounding mode WebAssembly has), a comparison, a bitwise
 * select or integer arithmetic. SIMD128 has no fused multiply-add (that is the relaxed-SIMD
 * proposal, not enabled here), and the build's -ffp-contract=off keeps products and sums apart.
 * It has no denormal flushing either. Conversions are the ones a scalar WebAssembly build uses:
 * f64x2.floor (exact), saturating truncations on values the caller keeps in range (so saturation
 * never happens), f64x2.convert_low_i32x4_u, f32x4.convert_i32x4_u and f32x4.demote_f64x2_zero,
 * each exact or rounded to nearest as the scalar casts are.
 *
 * NaN: WebAssembly leaves the sign and payload of a NaN produced by arithmetic nondeterministic
 * (the scalar build has the same freedom), so only NaN-ness, not the NaN's bits, is the same
 * across builds; neg, abs and the bitwise selects act on the sign bit alone, as in vec_scalar.h.
 *
 * One precision per translation unit (CN_PREC, set before including):
 *   CN_PREC 64: 2 lanes. vd = f64x2, vdm = 64-bit masks, vu = u32 lanes 0-1 (lanes 2-3 hold
 *               whatever the arithmetic leaves there and are never used as indices).
 *   CN_PREC 32: 4 lanes. vs = f32x4, vsm = vu = u32x4; the double-precision lattice set-up runs on
 *               vd = a pair of f64x2 (lanes 0-1, 2-3).
 */
#ifndef CN_VEC_WASM_H
#define CN_VEC_WASM_H

#if !defined(__wasm_simd128__)
#error "vec_wasm.h needs WebAssembly SIMD128 (emcc -msimd128; scripts/build-wasm.sh compiles src/isa/isa_wasm_*.c so)"
#endif

#include <stdint.h>
#include <wasm_simd128.h>

#define CN_VEC_NAME "simd128"

/* ---- two double lanes (d2) and their masks (m2), used by both precisions ---- */
typedef v128_t d2;
typedef v128_t m2;
static inline d2 d2_set(double a) { return wasm_f64x2_splat(a); }
static inline d2 d2_add(d2 a, d2 b) { return wasm_f64x2_add(a, b); }
static inline d2 d2_sub(d2 a, d2 b) { return wasm_f64x2_sub(a, b); }
static inline d2 d2_mul(d2 a, d2 b) { return wasm_f64x2_mul(a, b); }
static inline d2 d2_div(d2 a, d2 b) { return wasm_f64x2_div(a, b); }
/* f64x2.neg and f64x2.abs flip or clear the sign bit only, NaN included. */
static inline d2 d2_neg(d2 a) { return wasm_f64x2_neg(a); }
static inline d2 d2_abs(d2 a) { return wasm_f64x2_abs(a); }
static inline m2 d2_lt(d2 a, d2 b) { return wasm_f64x2_lt(a, b); }
static inline m2 d2_gt(d2 a, d2 b) { return wasm_f64x2_gt(a, b); }
static inline m2 d2_ge(d2 a, d2 b) { return wasm_f64x2_ge(a, b); }
static inline m2 d2_eq(d2 a, d2 b) { return wasm_f64x2_eq(a, b); }
/* v128.bitselect: bits of a where m is set, of b elsewhere. */
static inline d2 d2_sel(m2 m, d2 a, d2 b) { return wasm_v128_bitselect(a, b, m); }
static inline m2 m2_and(m2 a, m2 b) { return wasm_v128_and(a, b); }
static inline m2 m2_or(m2 a, m2 b) { return wasm_v128_or(a, b); }
static inline m2 m2_not(m2 a) { return wasm_v128_not(a); }
/* Whether every lane of the mask is set (its lanes are all ones or all zeros). */
static inline int m2_all(m2 a) { return wasm_i64x2_all_true(a); }
/* x - x is 0 for finite x, NaN for NaN and +-Inf. */
static inline m2 d2_finite(d2 a) { return wasm_f64x2_eq(wasm_f64x2_sub(a, a), wasm_f64x2_splat(0.0)); }
static inline d2 d2_finite_or0(d2 a) { return wasm_v128_and(a, d2_finite(a)); }
/* Exact floor (f64x2.floor rounds toward -inf); whole numbers (|a| >= 2^52 included), +-0 and
 * +-Inf come back as they are, as in vec_scalar.h. */
static inline d2 d2_floor(d2 a) { return wasm_f64x2_floor(a); }
/* An integral double reduced modulo 2^32: r = a - 2^32 floor(a / 2^32) is exact and in [0, 2^32),
 * so the truncation to u32 (lanes 0-1; lanes 2-3 zero) is exact and never saturates. */
static inline v128_t d2_wrap_u32(d2 a)
{
    d2 q = d2_floor(wasm_f64x2_mul(a, wasm_f64x2_splat(1.0 / 4294967296.0)));
    d2 r = wasm_f64x2_sub(a, wasm_f64x2_mul(q, wasm_f64x2_splat(4294967296.0)));
    return wasm_u32x4_trunc_sat_f64x2_zero(r);
}
/* An integral double with |a| < 2^31 as u32 (the two's complement of its int32), lanes 0-1. */
static inline v128_t d2_wrap_u32_small(d2 a) { return wasm_i32x4_trunc_sat_f64x2_zero(a); }
/* u32 lanes 0-1 to doubles, exactly. */
static inline d2 d2_from_u(v128_t a) { return wasm_f64x2_convert_low_u32x4(a); }
/* A 2-lane double mask as u32 mask lanes 0-1 (each half of a mask lane is the same), and a u32
 * mask in lanes 0-1 widened (sign-extended) to a double mask. */
static inline v128_t m2_u32(m2 m) { return wasm_i32x4_shuffle(m, m, 0, 2, 0, 2); }
static inline m2 u32_m2(v128_t m) { return wasm_i64x2_extend_low_i32x4(m); }

/* ---- u32 lanes: one v128_t in both precisions (lanes 0-1 used with CN_PREC 64) ---- */
typedef v128_t vu;
static inline uint32_t vu_first(vu a) { return wasm_u32x4_extract_lane(a, 0); }
static inline vu vu_set(uint32_t a) { return wasm_u32x4_splat(a); }
static inline vu vu_add(vu a, vu b) { return wasm_i32x4_add(a, b); }
static inline vu vu_sub(vu a, vu b) { return wasm_i32x4_sub(a, b); }
static inline vu vu_mul(vu a, vu b) { return wasm_i32x4_mul(a, b); } /* low 32 bits, as C's wrap */
static inline vu vu_xor(vu a, vu b) { return wasm_v128_xor(a, b); }
static inline vu vu_and(vu a, vu b) { return wasm_v128_and(a, b); }
static inline vu vu_or(vu a, vu b) { return wasm_v128_or(a, b); }
/* Shift counts are taken modulo 32, as the kernels' counts (below 32) need no care. */
static inline vu vu_shr(vu a, int n) { return wasm_u32x4_shr(a, (uint32_t)n); }
static inline vu vu_shl(vu a, int n) { return wasm_i32x4_shl(a, (uint32_t)n); }

#if CN_PREC == 64
/* ===================================== 2 lanes, double ===================================== */
#define CN_VEC_LANES_F64 2
#define CN_VEC_LANES_F32 0

typedef v128_t vd;
typedef v128_t vdm;

static inline vd vd_set(double a) { return d2_set(a); }
static inline vd vd_loadu(const double *a) { return wasm_v128_load(a); }
static inline void vd_storeu(double *out, vd a) { wasm_v128_store(out, a); }
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
/* a > b ? a : b and a < b ? a : b, lane by lane: b where the lanes are equal or unordered
 * (not f64x2.max/min, which propagate NaN and order -0 below +0 differently). */
static inline vd vd_max(vd a, vd b) { return vd_sel(vd_gt(a, b), a, b); }
static inline vd vd_min(vd a, vd b) { return vd_sel(vd_lt(a, b), a, b); }
static inline vd vd_sqrt(vd a) { return wasm_f64x2_sqrt(a); }
static inline int vdm_any(vdm a) { return wasm_v128_any_true(a); }
static inline vdm vdm_and(vdm a, vdm b) { return m2_and(a, b); }
static inline vdm vdm_or(vdm a, vdm b) { return m2_or(a, b); }
static inline vdm vdm_not(vdm a) { return m2_not(a); }
static inline int vdm_all(vdm a) { return m2_all(a); }
static inline vdm vd_finite(vd a) { return d2_finite(a); }
static inline vd vd_finite_or0(vd a) { return d2_finite_or0(a); }
static inline vd vd_floor(vd a) { return d2_floor(a); }
static inline vu vd_wrap_u32(vd a) { return d2_wrap_u32(a); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return d2_wrap_u32_small(a); }
static inline vd vd_from_u(vu a) { return d2_from_u(a); }
static inline vd vd_gather(const double *table, vu idx)
{
    return wasm_f64x2_make(table[wasm_u32x4_extract_lane(idx, 0)], table[wasm_u32x4_extract_lane(idx, 1)]);
}

static inline vd vd_perm16(const double *table, vu idx) { return vd_gather(table, idx); }
static inline vd vd_perm8(const double *table, vu idx) { return vd_perm16(table, idx); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    return wasm_u32x4_make(table[wasm_u32x4_extract_lane(idx, 0)], table[wasm_u32x4_extract_lane(idx, 1)], 0, 0);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return wasm_v128_bitselect(a, b, m2_u32(m)); }
static inline vdm vu_nz_d(vu a) { return u32_m2(wasm_i32x4_ne(a, wasm_i32x4_splat(0))); }
static inline vdm vu_eq_d(vu a, vu b) { return u32_m2(wasm_i32x4_eq(a, b)); }

#elif CN_PREC == 32
/* ===================================== 4 lanes, float ====================================== */
#define CN_VEC_LANES_F64 0
#define CN_VEC_LANES_F32 4

typedef struct { d2 lo, hi; } vd; /* lanes 0-1, 2-3 */
typedef struct { m2 lo, hi; } vdm;
typedef v128_t vs;
typedef v128_t vsm;

#define CN_D2(expr_lo, expr_hi) { vd r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
#define CN_M2(expr_lo, expr_hi) { vdm r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
static inline vd vd_set(double a) CN_D2(d2_set(a), d2_set(a))
static inline vd vd_loadu(const double *a) CN_D2(wasm_v128_load(a), wasm_v128_load(a + 2))
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
    wasm_v128_store(out, a.lo);
    wasm_v128_store(out + 2, a.hi);
}
static inline int vdm_all(vdm a) { return m2_all(wasm_v128_and(a.lo, a.hi)); }

/* Lanes 0-1 of each half, joined. */
static inline v128_t cn_join_lo(v128_t lo, v128_t hi) { return wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5); }
static inline vu vd_wrap_u32(vd a) { return cn_join_lo(d2_wrap_u32(a.lo), d2_wrap_u32(a.hi)); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return cn_join_lo(d2_wrap_u32_small(a.lo), d2_wrap_u32_small(a.hi)); }
static inline vd vd_from_u(vu a)
{
    vd r;
    r.lo = d2_from_u(a);
    r.hi = d2_from_u(wasm_i32x4_shuffle(a, a, 2, 3, 2, 3));
    return r;
}
/* A pair of double masks as 4 x u32 mask lanes (the low half of each 64-bit mask lane). */
static inline v128_t cn_dmask_u32(vdm m) { return wasm_i32x4_shuffle(m.lo, m.hi, 0, 2, 4, 6); }

static inline vs vs_set(float a) { return wasm_f32x4_splat(a); }
static inline void vs_storeu(float *out, vs a) { wasm_v128_store(out, a); }
/* f32x4.demote_f64x2_zero: each double rounded to float to nearest, as the scalar (float) cast. */
static inline vs vs_from_d(vd a) { return cn_join_lo(wasm_f32x4_demote_f64x2_zero(a.lo), wasm_f32x4_demote_f64x2_zero(a.hi)); }
static inline vs vs_add(vs a, vs b) { return wasm_f32x4_add(a, b); }
static inline vs vs_sub(vs a, vs b) { return wasm_f32x4_sub(a, b); }
static inline vs vs_mul(vs a, vs b) { return wasm_f32x4_mul(a, b); }
static inline vs vs_neg(vs a) { return wasm_f32x4_neg(a); }
static inline vs vs_abs(vs a) { return wasm_f32x4_abs(a); }
static inline vsm vs_lt(vs a, vs b) { return wasm_f32x4_lt(a, b); }
static inline vsm vs_eq(vs a, vs b) { return wasm_f32x4_eq(a, b); }
static inline vsm vs_gt(vs a, vs b) { return wasm_f32x4_gt(a, b); }
static inline vs vs_sel(vsm m, vs a, vs b) { return wasm_v128_bitselect(a, b, m); }
static inline vs vs_max(vs a, vs b) { return vs_sel(vs_gt(a, b), a, b); }
static inline vs vs_min(vs a, vs b) { return vs_sel(vs_lt(a, b), a, b); }
static inline vs vs_sqrt(vs a) { return wasm_f32x4_sqrt(a); }
static inline vs vs_div(vs a, vs b) { return wasm_f32x4_div(a, b); }
static inline int vsm_any(vsm a) { return wasm_v128_any_true(a); }
static inline vsm vsm_not(vsm a) { return wasm_v128_not(a); }
static inline vsm vsm_and(vsm a, vsm b) { return wasm_v128_and(a, b); }
static inline vsm vsm_or(vsm a, vsm b) { return wasm_v128_or(a, b); }
static inline vsm vsm_from_d(vdm m) { return cn_dmask_u32(m); }
/* f32x4.convert_i32x4_u: every u32 rounded to float to nearest, as the scalar (float) cast. */
static inline vs vs_from_u(vu a) { return wasm_f32x4_convert_u32x4(a); }
static inline vs vs_gather(const float *table, vu idx)
{
    return wasm_f32x4_make(table[wasm_u32x4_extract_lane(idx, 0)], table[wasm_u32x4_extract_lane(idx, 1)],
                           table[wasm_u32x4_extract_lane(idx, 2)], table[wasm_u32x4_extract_lane(idx, 3)]);
}

static inline vs vs_perm16(const float *table, vu idx) { return vs_gather(table, idx); }
static inline vs vs_perm8(const float *table, vu idx) { return vs_perm16(table, idx); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    return wasm_u32x4_make(table[wasm_u32x4_extract_lane(idx, 0)], table[wasm_u32x4_extract_lane(idx, 1)],
                           table[wasm_u32x4_extract_lane(idx, 2)], table[wasm_u32x4_extract_lane(idx, 3)]);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return wasm_v128_bitselect(a, b, cn_dmask_u32(m)); }
static inline vu vu_sel_s(vsm m, vu a, vu b) { return wasm_v128_bitselect(a, b, m); }
static inline vsm vu_nz_s(vu a) { return wasm_i32x4_ne(a, wasm_i32x4_splat(0)); }
static inline vsm vu_eq_s(vu a, vu b) { return wasm_i32x4_eq(a, b); }

#else
#error "set CN_PREC to 64 or 32 before including vec_wasm.h"
#endif

#endif
