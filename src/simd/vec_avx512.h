/*
 * vec_avx512.h -- the vector layer on AVX-512 (F, DQ, BW, VL). Same types, operations and bits as
 * vec_scalar.h; masks live in mask registers.
 *
 * One precision per translation unit (CN_PREC, set before including):
 *   CN_PREC 64: 8 lanes. vd = __m512d, vdm = __mmask8, vu = __m256i (8 x u32).
 *   CN_PREC 32: 16 lanes. vs = __m512, vsm = __mmask16, vu = __m512i; the double-precision
 *               lattice set-up runs on vd = a pair of __m512d (lanes 0-7, 8-15) with vdm a
 *               __mmask16 (bit k = lane k), so vsm_from_d is free.
 */
#ifndef CN_VEC_AVX512_H
#define CN_VEC_AVX512_H

#if !defined(__AVX512F__) || !defined(__AVX512DQ__) || !defined(__AVX512BW__) || !defined(__AVX512VL__)
#error "vec_avx512.h needs -mavx512f -mavx512dq -mavx512bw -mavx512vl (CMake sets them for isa_avx512_*.c)"
#endif

#include <immintrin.h>
#include <stdint.h>

#define CN_VEC_NAME "avx512"

/* ---- eight double lanes (d8), used by both precisions ---- */
typedef __m512d d8;
static inline d8 d8_set(double a) { return _mm512_set1_pd(a); }
static inline d8 d8_add(d8 a, d8 b) { return _mm512_add_pd(a, b); }
static inline d8 d8_sub(d8 a, d8 b) { return _mm512_sub_pd(a, b); }
static inline d8 d8_mul(d8 a, d8 b) { return _mm512_mul_pd(a, b); }
static inline d8 d8_div(d8 a, d8 b) { return _mm512_div_pd(a, b); }
static inline d8 d8_neg(d8 a) { return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(a), _mm512_set1_epi64((long long)0x8000000000000000ull))); }
static inline d8 d8_abs(d8 a) { return _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(a), _mm512_set1_epi64(0x7fffffffffffffffll))); }
static inline __mmask8 d8_lt(d8 a, d8 b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
static inline __mmask8 d8_gt(d8 a, d8 b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
static inline __mmask8 d8_ge(d8 a, d8 b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
static inline __mmask8 d8_eq(d8 a, d8 b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
static inline d8 d8_sel(__mmask8 m, d8 a, d8 b) { return _mm512_mask_blend_pd(m, b, a); }
static inline __mmask8 d8_finite(d8 a) { return _mm512_cmp_pd_mask(_mm512_sub_pd(a, a), _mm512_setzero_pd(), _CMP_EQ_OQ); }
static inline d8 d8_finite_or0(d8 a) { return _mm512_maskz_mov_pd(d8_finite(a), a); }
/* Exact floor (round toward -inf, exceptions suppressed); -0 stays -0. */
static inline d8 d8_floor(d8 a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
static inline __m256i d8_wrap_u32(d8 a)
{
    d8 q = d8_floor(_mm512_mul_pd(a, _mm512_set1_pd(1.0 / 4294967296.0)));
    d8 r = _mm512_sub_pd(a, _mm512_mul_pd(q, _mm512_set1_pd(4294967296.0)));
    return _mm512_cvttpd_epu32(r);
}
static inline d8 d8_from_u(__m256i a) { return _mm512_cvtepu32_pd(a); }

#if CN_PREC == 64
/* ===================================== 8 lanes, double ===================================== */
#define CN_VEC_LANES_F64 8
#define CN_VEC_LANES_F32 0

typedef __m512d vd;
typedef __mmask8 vdm;
typedef __m256i vu;

static inline vd vd_set(double a) { return d8_set(a); }
static inline vd vd_loadu(const double *a) { return _mm512_loadu_pd(a); }
static inline void vd_storeu(double *out, vd a) { _mm512_storeu_pd(out, a); }
static inline vd vd_add(vd a, vd b) { return d8_add(a, b); }
static inline vd vd_sub(vd a, vd b) { return d8_sub(a, b); }
static inline vd vd_mul(vd a, vd b) { return d8_mul(a, b); }
static inline vd vd_div(vd a, vd b) { return d8_div(a, b); }
static inline vd vd_neg(vd a) { return d8_neg(a); }
static inline vd vd_abs(vd a) { return d8_abs(a); }
static inline vdm vd_lt(vd a, vd b) { return d8_lt(a, b); }
static inline vdm vd_gt(vd a, vd b) { return d8_gt(a, b); }
static inline vdm vd_ge(vd a, vd b) { return d8_ge(a, b); }
static inline vdm vd_eq(vd a, vd b) { return d8_eq(a, b); }
static inline vd vd_sel(vdm m, vd a, vd b) { return d8_sel(m, a, b); }
/* a > b ? a : b and a < b ? a : b, lane by lane: b where the lanes are equal or unordered. */
static inline vd vd_max(vd a, vd b) { return vd_sel(vd_gt(a, b), a, b); }
static inline vd vd_min(vd a, vd b) { return vd_sel(vd_lt(a, b), a, b); }
static inline vd vd_sqrt(vd a) { return _mm512_sqrt_pd(a); }
static inline int vdm_any(vdm a) { return a != 0; }
static inline vdm vdm_and(vdm a, vdm b) { return (vdm)(a & b); }
static inline int vdm_all(vdm a) { return a == 0xFF; }
static inline vdm vdm_or(vdm a, vdm b) { return (vdm)(a | b); }
static inline vdm vdm_not(vdm a) { return (vdm)~a; }
static inline vdm vd_finite(vd a) { return d8_finite(a); }
static inline vd vd_finite_or0(vd a) { return d8_finite_or0(a); }
static inline vd vd_floor(vd a) { return d8_floor(a); }
static inline vu vd_wrap_u32(vd a) { return d8_wrap_u32(a); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return _mm512_cvttpd_epi32(a); }
static inline vd vd_from_u(vu a) { return d8_from_u(a); }
static inline vd vd_gather(const double *table, vu idx) { return _mm512_i32gather_pd(idx, table, 8); }
/* A lookup in a table of 16 entries (idx in 0..15): one two-register permute. */
static inline vd vd_perm16(const double *table, vu idx)
{
    return _mm512_permutex2var_pd(_mm512_loadu_pd(table), _mm512_cvtepu32_epi64(idx), _mm512_loadu_pd(table + 8));
}
/* A lookup in a table of 8 entries (idx in 0..7): one permute. */
static inline vd vd_perm8(const double *table, vu idx) { return _mm512_permutexvar_pd(_mm512_cvtepu32_epi64(idx), _mm512_loadu_pd(table)); }

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
static inline vu vu_sel_d(vdm m, vu a, vu b) { return _mm256_mask_blend_epi32(m, b, a); }
static inline vdm vu_nz_d(vu a) { return _mm256_test_epi32_mask(a, a); }
static inline vdm vu_eq_d(vu a, vu b) { return _mm256_cmpeq_epi32_mask(a, b); }

#elif CN_PREC == 32
/* ===================================== 16 lanes, float ===================================== */
#define CN_VEC_LANES_F64 0
#define CN_VEC_LANES_F32 16

typedef struct { d8 lo, hi; } vd; /* lanes 0-7, 8-15 */
typedef __mmask16 vdm;            /* bit k = lane k */
typedef __m512 vs;
typedef __mmask16 vsm;
typedef __m512i vu;

static inline __mmask8 cn_lo(vdm m) { return (__mmask8)(m & 0xFF); }
static inline __mmask8 cn_hi(vdm m) { return (__mmask8)(m >> 8); }
static inline vdm cn_m16(__mmask8 lo, __mmask8 hi) { return (vdm)((unsigned)lo | ((unsigned)hi << 8)); }

#define CN_D2(expr_lo, expr_hi) { vd r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
static inline vd vd_set(double a) CN_D2(d8_set(a), d8_set(a))
static inline vd vd_loadu(const double *a) CN_D2(_mm512_loadu_pd(a), _mm512_loadu_pd(a + 8))
static inline vd vd_add(vd a, vd b) CN_D2(d8_add(a.lo, b.lo), d8_add(a.hi, b.hi))
static inline vd vd_sub(vd a, vd b) CN_D2(d8_sub(a.lo, b.lo), d8_sub(a.hi, b.hi))
static inline vd vd_mul(vd a, vd b) CN_D2(d8_mul(a.lo, b.lo), d8_mul(a.hi, b.hi))
static inline vd vd_div(vd a, vd b) CN_D2(d8_div(a.lo, b.lo), d8_div(a.hi, b.hi))
static inline vd vd_neg(vd a) CN_D2(d8_neg(a.lo), d8_neg(a.hi))
static inline vd vd_abs(vd a) CN_D2(d8_abs(a.lo), d8_abs(a.hi))
static inline vd vd_sel(vdm m, vd a, vd b) CN_D2(d8_sel(cn_lo(m), a.lo, b.lo), d8_sel(cn_hi(m), a.hi, b.hi))
static inline vd vd_finite_or0(vd a) CN_D2(d8_finite_or0(a.lo), d8_finite_or0(a.hi))
static inline vd vd_floor(vd a) CN_D2(d8_floor(a.lo), d8_floor(a.hi))
#undef CN_D2
static inline void vd_storeu(double *out, vd a) { _mm512_storeu_pd(out, a.lo); _mm512_storeu_pd(out + 8, a.hi); }
static inline vdm vd_lt(vd a, vd b) { return cn_m16(d8_lt(a.lo, b.lo), d8_lt(a.hi, b.hi)); }
static inline vdm vd_gt(vd a, vd b) { return cn_m16(d8_gt(a.lo, b.lo), d8_gt(a.hi, b.hi)); }
static inline vdm vd_ge(vd a, vd b) { return cn_m16(d8_ge(a.lo, b.lo), d8_ge(a.hi, b.hi)); }
static inline vdm vd_eq(vd a, vd b) { return cn_m16(d8_eq(a.lo, b.lo), d8_eq(a.hi, b.hi)); }
static inline vdm vd_finite(vd a) { return cn_m16(d8_finite(a.lo), d8_finite(a.hi)); }
static inline vdm vdm_and(vdm a, vdm b) { return (vdm)(a & b); }
static inline int vdm_all(vdm a) { return a == 0xFFFF; }
static inline vdm vdm_or(vdm a, vdm b) { return (vdm)(a | b); }
static inline vdm vdm_not(vdm a) { return (vdm)~a; }

static inline vu vd_wrap_u32(vd a)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(d8_wrap_u32(a.lo)), d8_wrap_u32(a.hi), 1);
}
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvttpd_epi32(a.lo)), _mm512_cvttpd_epi32(a.hi), 1);
}
static inline vd vd_from_u(vu a)
{
    vd r;
    r.lo = d8_from_u(_mm512_castsi512_si256(a));
    r.hi = d8_from_u(_mm512_extracti64x4_epi64(a, 1));
    return r;
}

static inline vs vs_set(float a) { return _mm512_set1_ps(a); }
static inline void vs_storeu(float *out, vs a) { _mm512_storeu_ps(out, a); }
static inline vs vs_from_d(vd a)
{
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(a.lo)), _mm512_cvtpd_ps(a.hi), 1);
}
static inline vs vs_add(vs a, vs b) { return _mm512_add_ps(a, b); }
static inline vs vs_sub(vs a, vs b) { return _mm512_sub_ps(a, b); }
static inline vs vs_mul(vs a, vs b) { return _mm512_mul_ps(a, b); }
static inline vs vs_neg(vs a) { return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_set1_epi32((int)0x80000000u))); }
static inline vs vs_abs(vs a) { return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32(0x7fffffff))); }
static inline vsm vs_lt(vs a, vs b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline vsm vs_eq(vs a, vs b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
static inline vsm vs_gt(vs a, vs b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
static inline vs vs_sel(vsm m, vs a, vs b) { return _mm512_mask_blend_ps(m, b, a); }
static inline vs vs_max(vs a, vs b) { return vs_sel(vs_gt(a, b), a, b); }
static inline vs vs_min(vs a, vs b) { return vs_sel(vs_lt(a, b), a, b); }
static inline vs vs_sqrt(vs a) { return _mm512_sqrt_ps(a); }
static inline vs vs_div(vs a, vs b) { return _mm512_div_ps(a, b); }
static inline int vsm_any(vsm a) { return a != 0; }
static inline vsm vsm_not(vsm a) { return (vsm)~a; }
static inline vsm vsm_and(vsm a, vsm b) { return (vsm)(a & b); }
static inline vsm vsm_or(vsm a, vsm b) { return (vsm)(a | b); }
static inline vsm vsm_from_d(vdm m) { return m; }
static inline vs vs_from_u(vu a) { return _mm512_cvtepu32_ps(a); }
static inline vs vs_gather(const float *table, vu idx) { return _mm512_i32gather_ps(idx, table, 4); }
/* A lookup in a table of 16 entries (idx in 0..15): one register permute. */
static inline vs vs_perm16(const float *table, vu idx) { return _mm512_permutexvar_ps(idx, _mm512_loadu_ps(table)); }
static inline vs vs_perm8(const float *table, vu idx) { return vs_perm16(table, idx); }

static inline uint32_t vu_first(vu a) { return (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(a)); }
static inline vu vu_set(uint32_t a) { return _mm512_set1_epi32((int)a); }
static inline vu vu_add(vu a, vu b) { return _mm512_add_epi32(a, b); }
static inline vu vu_sub(vu a, vu b) { return _mm512_sub_epi32(a, b); }
static inline vu vu_mul(vu a, vu b) { return _mm512_mullo_epi32(a, b); }
static inline vu vu_xor(vu a, vu b) { return _mm512_xor_si512(a, b); }
static inline vu vu_and(vu a, vu b) { return _mm512_and_si512(a, b); }
static inline vu vu_or(vu a, vu b) { return _mm512_or_si512(a, b); }
static inline vu vu_shr(vu a, int n) { return _mm512_srl_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vu vu_shl(vu a, int n) { return _mm512_sll_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    uint32_t i[16];
    _mm512_storeu_si512((void *)i, idx);
    for (int k = 0; k < 16; k++)
        i[k] = table[i[k]];
    return _mm512_loadu_si512((const void *)i);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return _mm512_mask_blend_epi32(m, b, a); }
static inline vu vu_sel_s(vsm m, vu a, vu b) { return _mm512_mask_blend_epi32(m, b, a); }
static inline vsm vu_nz_s(vu a) { return _mm512_test_epi32_mask(a, a); }
static inline vsm vu_eq_s(vu a, vu b) { return _mm512_cmpeq_epi32_mask(a, b); }

#else
#error "set CN_PREC to 64 or 32 before including vec_avx512.h"
#endif

#endif
