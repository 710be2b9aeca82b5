/*
 * vec_avx2.h -- the vector layer on AVX2 (with SSE4.1 and AVX). Same types and operations as
 * vec_scalar.h, and the same results bit for bit: every operation is an exactly rounded IEEE
 * operation, a comparison, a select or integer arithmetic; no FMA, no approximations.
 *
 * One precision per translation unit (CN_PREC, set before including):
 *   CN_PREC 64: 4 lanes. vd = __m256d, vu = __m128i (4 x u32), vdm = __m256d (all-ones lanes).
 *   CN_PREC 32: 8 lanes. vs = __m256, vu = __m256i (8 x u32), vsm = __m256; the double-precision
 *               lattice set-up runs on vd = a pair of __m256d (lanes 0-3, 4-7).
 */
#ifndef CN_VEC_AVX2_H
#define CN_VEC_AVX2_H

#if !defined(__AVX2__)
#error "vec_avx2.h needs -mavx2 (CMake sets it for src/isa/isa_avx2_*.c only)"
#endif

#include <immintrin.h>
#include <stdint.h>

#define CN_VEC_NAME "avx2"

/* ---- four double lanes (d4) and their masks, used by both precisions ---- */
typedef __m256d d4;
static inline d4 d4_set(double a) { return _mm256_set1_pd(a); }
static inline d4 d4_add(d4 a, d4 b) { return _mm256_add_pd(a, b); }
static inline d4 d4_sub(d4 a, d4 b) { return _mm256_sub_pd(a, b); }
static inline d4 d4_mul(d4 a, d4 b) { return _mm256_mul_pd(a, b); }
static inline d4 d4_div(d4 a, d4 b) { return _mm256_div_pd(a, b); }
static inline d4 d4_neg(d4 a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }
static inline d4 d4_abs(d4 a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
static inline d4 d4_lt(d4 a, d4 b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
static inline d4 d4_gt(d4 a, d4 b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline d4 d4_ge(d4 a, d4 b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
static inline d4 d4_eq(d4 a, d4 b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
static inline d4 d4_sel(d4 m, d4 a, d4 b) { return _mm256_blendv_pd(b, a, m); }
static inline d4 d4_mand(d4 a, d4 b) { return _mm256_and_pd(a, b); }
static inline d4 d4_mor(d4 a, d4 b) { return _mm256_or_pd(a, b); }
static inline d4 d4_mnot(d4 a) { return _mm256_xor_pd(a, _mm256_castsi256_pd(_mm256_set1_epi32(-1))); }
static inline d4 d4_finite(d4 a) { return _mm256_cmp_pd(_mm256_sub_pd(a, a), _mm256_setzero_pd(), _CMP_EQ_OQ); }
static inline d4 d4_finite_or0(d4 a) { return _mm256_and_pd(a, d4_finite(a)); }
/* Exact floor (round toward -inf); -0 stays -0. */
static inline d4 d4_floor(d4 a) { return _mm256_round_pd(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
/* An integral double reduced modulo 2^32, as 4 x u32: r in [0, 2^32), shifted by 2^31 into the
 * signed range for the conversion, then shifted back. */
static inline __m128i d4_wrap_u32(d4 a)
{
    d4 q = d4_floor(_mm256_mul_pd(a, _mm256_set1_pd(1.0 / 4294967296.0)));
    d4 r = _mm256_sub_pd(a, _mm256_mul_pd(q, _mm256_set1_pd(4294967296.0)));
    __m128i s = _mm256_cvttpd_epi32(_mm256_sub_pd(r, _mm256_set1_pd(2147483648.0)));
    return _mm_xor_si128(s, _mm_set1_epi32((int)0x80000000u));
}
/* 4 x u32 to doubles, exactly. */
static inline d4 d4_from_u(__m128i a)
{
    d4 s = _mm256_cvtepi32_pd(_mm_xor_si128(a, _mm_set1_epi32((int)0x80000000u)));
    return _mm256_add_pd(s, _mm256_set1_pd(2147483648.0));
}
/* A 4-lane double mask as 4 x u32 (the low half of each lane). */
static inline __m128i d4_mask_u32(d4 m)
{
    __m256i p = _mm256_permutevar8x32_epi32(_mm256_castpd_si256(m), _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
    return _mm256_castsi256_si128(p);
}
/* 4 x u32 mask (all-ones lanes) widened to a 4-lane double mask. */
static inline d4 u32_mask_d4(__m128i m) { return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(m)); }

#if CN_PREC == 64
/* ===================================== 4 lanes, double ===================================== */
#define CN_VEC_LANES_F64 4
#define CN_VEC_LANES_F32 0

typedef __m256d vd;
typedef __m256d vdm;
typedef __m128i vu;

static inline vd vd_set(double a) { return d4_set(a); }
static inline vd vd_loadu(const double *a) { return _mm256_loadu_pd(a); }
static inline void vd_storeu(double *out, vd a) { _mm256_storeu_pd(out, a); }
static inline vd vd_add(vd a, vd b) { return d4_add(a, b); }
static inline vd vd_sub(vd a, vd b) { return d4_sub(a, b); }
static inline vd vd_mul(vd a, vd b) { return d4_mul(a, b); }
static inline vd vd_div(vd a, vd b) { return d4_div(a, b); }
static inline vd vd_neg(vd a) { return d4_neg(a); }
static inline vd vd_abs(vd a) { return d4_abs(a); }
static inline vdm vd_lt(vd a, vd b) { return d4_lt(a, b); }
static inline vdm vd_gt(vd a, vd b) { return d4_gt(a, b); }
static inline vdm vd_ge(vd a, vd b) { return d4_ge(a, b); }
static inline vdm vd_eq(vd a, vd b) { return d4_eq(a, b); }
static inline vd vd_sel(vdm m, vd a, vd b) { return d4_sel(m, a, b); }
/* a > b ? a : b and a < b ? a : b, lane by lane: b where the lanes are equal or unordered. */
static inline vd vd_max(vd a, vd b) { return vd_sel(vd_gt(a, b), a, b); }
static inline vd vd_min(vd a, vd b) { return vd_sel(vd_lt(a, b), a, b); }
static inline vd vd_sqrt(vd a) { return _mm256_sqrt_pd(a); }
static inline int vdm_any(vdm a) { return _mm256_movemask_pd(a) != 0; }
static inline vdm vdm_and(vdm a, vdm b) { return d4_mand(a, b); }
static inline int vdm_all(vdm a) { return _mm256_movemask_pd(a) == 15; }
static inline vdm vdm_or(vdm a, vdm b) { return d4_mor(a, b); }
static inline vdm vdm_not(vdm a) { return d4_mnot(a); }
static inline vdm vd_finite(vd a) { return d4_finite(a); }
static inline vd vd_finite_or0(vd a) { return d4_finite_or0(a); }
static inline vd vd_floor(vd a) { return d4_floor(a); }
static inline vu vd_wrap_u32(vd a) { return d4_wrap_u32(a); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return _mm256_cvttpd_epi32(a); }
static inline vd vd_from_u(vu a) { return d4_from_u(a); }
static inline vd vd_gather(const double *table, vu idx) { return _mm256_i32gather_pd(table, idx, 8); }
static inline vd vd_perm16(const double *table, vu idx) { return vd_gather(table, idx); }
static inline vd vd_perm8(const double *table, vu idx) { return vd_perm16(table, idx); }

static inline uint32_t vu_first(vu a) { return (uint32_t)_mm_cvtsi128_si32(a); }
static inline vu vu_set(uint32_t a) { return _mm_set1_epi32((int)a); }
static inline vu vu_add(vu a, vu b) { return _mm_add_epi32(a, b); }
static inline vu vu_sub(vu a, vu b) { return _mm_sub_epi32(a, b); }
static inline vu vu_mul(vu a, vu b) { return _mm_mullo_epi32(a, b); }
static inline vu vu_xor(vu a, vu b) { return _mm_xor_si128(a, b); }
static inline vu vu_and(vu a, vu b) { return _mm_and_si128(a, b); }
static inline vu vu_or(vu a, vu b) { return _mm_or_si128(a, b); }
static inline vu vu_shr(vu a, int n) { return _mm_srl_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vu vu_shl(vu a, int n) { return _mm_sll_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    uint32_t i[4];
    _mm_storeu_si128((__m128i *)i, idx);
    return _mm_setr_epi32(table[i[0]], table[i[1]], table[i[2]], table[i[3]]);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return _mm_blendv_epi8(b, a, d4_mask_u32(m)); }
static inline vdm vu_nz_d(vu a) { return d4_mnot(u32_mask_d4(_mm_cmpeq_epi32(a, _mm_setzero_si128()))); }
static inline vdm vu_eq_d(vu a, vu b) { return u32_mask_d4(_mm_cmpeq_epi32(a, b)); }

#elif CN_PREC == 32
/* ===================================== 8 lanes, float ====================================== */
#define CN_VEC_LANES_F64 0
#define CN_VEC_LANES_F32 8

typedef struct { d4 lo, hi; } vd; /* lanes 0-3, 4-7 */
typedef struct { d4 lo, hi; } vdm;
typedef __m256 vs;
typedef __m256 vsm;
typedef __m256i vu;

#define CN_D2(expr_lo, expr_hi) { vd r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
#define CN_M2(expr_lo, expr_hi) { vdm r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
static inline vd vd_set(double a) CN_D2(d4_set(a), d4_set(a))
static inline vd vd_loadu(const double *a) CN_D2(_mm256_loadu_pd(a), _mm256_loadu_pd(a + 4))
static inline vd vd_add(vd a, vd b) CN_D2(d4_add(a.lo, b.lo), d4_add(a.hi, b.hi))
static inline vd vd_sub(vd a, vd b) CN_D2(d4_sub(a.lo, b.lo), d4_sub(a.hi, b.hi))
static inline vd vd_mul(vd a, vd b) CN_D2(d4_mul(a.lo, b.lo), d4_mul(a.hi, b.hi))
static inline vd vd_div(vd a, vd b) CN_D2(d4_div(a.lo, b.lo), d4_div(a.hi, b.hi))
static inline vd vd_neg(vd a) CN_D2(d4_neg(a.lo), d4_neg(a.hi))
static inline vd vd_abs(vd a) CN_D2(d4_abs(a.lo), d4_abs(a.hi))
static inline vdm vd_lt(vd a, vd b) CN_M2(d4_lt(a.lo, b.lo), d4_lt(a.hi, b.hi))
static inline vdm vd_gt(vd a, vd b) CN_M2(d4_gt(a.lo, b.lo), d4_gt(a.hi, b.hi))
static inline vdm vd_ge(vd a, vd b) CN_M2(d4_ge(a.lo, b.lo), d4_ge(a.hi, b.hi))
static inline vdm vd_eq(vd a, vd b) CN_M2(d4_eq(a.lo, b.lo), d4_eq(a.hi, b.hi))
static inline vd vd_sel(vdm m, vd a, vd b) CN_D2(d4_sel(m.lo, a.lo, b.lo), d4_sel(m.hi, a.hi, b.hi))
static inline vdm vdm_and(vdm a, vdm b) CN_M2(d4_mand(a.lo, b.lo), d4_mand(a.hi, b.hi))
static inline vdm vdm_or(vdm a, vdm b) CN_M2(d4_mor(a.lo, b.lo), d4_mor(a.hi, b.hi))
static inline vdm vdm_not(vdm a) CN_M2(d4_mnot(a.lo), d4_mnot(a.hi))
static inline vdm vd_finite(vd a) CN_M2(d4_finite(a.lo), d4_finite(a.hi))
static inline vd vd_finite_or0(vd a) CN_D2(d4_finite_or0(a.lo), d4_finite_or0(a.hi))
static inline vd vd_floor(vd a) CN_D2(d4_floor(a.lo), d4_floor(a.hi))
#undef CN_D2
static inline void vd_storeu(double *out, vd a) { _mm256_storeu_pd(out, a.lo); _mm256_storeu_pd(out + 4, a.hi); }
static inline int vdm_all(vdm a) { return (_mm256_movemask_pd(a.lo) & _mm256_movemask_pd(a.hi)) == 15; }
#undef CN_M2

static inline __m256i cn_join(__m128i lo, __m128i hi) { return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1); }
static inline vu vd_wrap_u32(vd a) { return cn_join(d4_wrap_u32(a.lo), d4_wrap_u32(a.hi)); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return cn_join(_mm256_cvttpd_epi32(a.lo), _mm256_cvttpd_epi32(a.hi)); }
static inline vd vd_from_u(vu a)
{
    vd r;
    r.lo = d4_from_u(_mm256_castsi256_si128(a));
    r.hi = d4_from_u(_mm256_extracti128_si256(a, 1));
    return r;
}
static inline __m256i cn_dmask_u32(vdm m) { return cn_join(d4_mask_u32(m.lo), d4_mask_u32(m.hi)); }

static inline vs vs_set(float a) { return _mm256_set1_ps(a); }
static inline void vs_storeu(float *out, vs a) { _mm256_storeu_ps(out, a); }
static inline vs vs_from_d(vd a) { return _mm256_set_m128(_mm256_cvtpd_ps(a.hi), _mm256_cvtpd_ps(a.lo)); }
static inline vs vs_add(vs a, vs b) { return _mm256_add_ps(a, b); }
static inline vs vs_sub(vs a, vs b) { return _mm256_sub_ps(a, b); }
static inline vs vs_mul(vs a, vs b) { return _mm256_mul_ps(a, b); }
static inline vs vs_neg(vs a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
static inline vs vs_abs(vs a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
static inline vsm vs_lt(vs a, vs b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline vsm vs_eq(vs a, vs b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
static inline vsm vs_gt(vs a, vs b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline vs vs_sel(vsm m, vs a, vs b) { return _mm256_blendv_ps(b, a, m); }
static inline vs vs_max(vs a, vs b) { return vs_sel(vs_gt(a, b), a, b); }
static inline vs vs_min(vs a, vs b) { return vs_sel(vs_lt(a, b), a, b); }
static inline vs vs_sqrt(vs a) { return _mm256_sqrt_ps(a); }
static inline vs vs_div(vs a, vs b) { return _mm256_div_ps(a, b); }
static inline int vsm_any(vsm a) { return _mm256_movemask_ps(a) != 0; }
static inline vsm vsm_not(vsm a) { return _mm256_xor_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(-1))); }
static inline vsm vsm_and(vsm a, vsm b) { return _mm256_and_ps(a, b); }
static inline vsm vsm_or(vsm a, vsm b) { return _mm256_or_ps(a, b); }
static inline vsm vsm_from_d(vdm m) { return _mm256_castsi256_ps(cn_dmask_u32(m)); }
/* u32 lanes below 2^31 to floats (rounded as a scalar conversion rounds). */
static inline vs vs_from_u(vu a) { return _mm256_cvtepi32_ps(a); }
static inline vs vs_gather(const float *table, vu idx) { return _mm256_i32gather_ps(table, idx, 4); }
/* A lookup in a table of 16 entries (idx in 0..15): a permute of each half, bit 3 picks one. */
static inline vs vs_perm16(const float *table, vu idx)
{
    __m256 lo = _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), idx);
    __m256 hi = _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + 8), idx);
    return _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(idx, 28)));
}
/* A lookup in a table of 8 entries (idx in 0..7): one permute. */
static inline vs vs_perm8(const float *table, vu idx) { return _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), idx); }

static inline uint32_t vu_first(vu a) { return (uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(a)); }
static inline vu vu_set(uint32_t a) { return _mm256_set1_epi32((int)a); }
static inline vu vu_add(vu a, vu b) { return _mm256_add_epi32(a, b); }
static inline vu vu_sub(vu a, vu b) { return _mm256_sub_epi32(a, b); }
static inline vu vu_mul(vu a, vu b) { return _mm256_mullo_epi32(a, b); }
static inline vu vu_xor(vu a, vu b) { return _mm256_xor_si256(a, b); }
static inline vu vu_and(vu a, vu b) { return _mm256_and_si256(a, b); }
static inline vu vu_or(vu a, vu b) { return _mm256_or_si256(a, b); }
static inline vu vu_shr(vu a, int n) { return _mm256_srl_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vu vu_shl(vu a, int n) { return _mm256_sll_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    uint32_t i[8];
    _mm256_storeu_si256((__m256i *)i, idx);
    return _mm256_setr_epi32(table[i[0]], table[i[1]], table[i[2]], table[i[3]], table[i[4]], table[i[5]],
                             table[i[6]], table[i[7]]);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return _mm256_blendv_epi8(b, a, cn_dmask_u32(m)); }
static inline vu vu_sel_s(vsm m, vu a, vu b) { return _mm256_blendv_epi8(b, a, _mm256_castps_si256(m)); }
static inline vsm vu_nz_s(vu a)
{
    __m256i z = _mm256_cmpeq_epi32(a, _mm256_setzero_si256());
    return _mm256_castsi256_ps(_mm256_xor_si256(z, _mm256_set1_epi32(-1)));
}
static inline vsm vu_eq_s(vu a, vu b) { return _mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b)); }

#else
#error "set CN_PREC to 64 or 32 before including vec_avx2.h"
#endif

#endif
