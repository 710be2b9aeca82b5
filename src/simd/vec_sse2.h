/*
 * vec_sse2.h -- the vector layer on plain SSE2 (every x86-64 CPU). Same types, operations and bits
 * as vec_scalar.h. SSE2 has no blend, no floor, no 32-bit multiply-low and no gathers: selects are
 * and/andnot/or, floor is rounding by the 2^52 trick and a correction, the multiply is two
 * 32x32->64 products, lookups go lane by lane.
 *
 * One precision per translation unit (CN_PREC, set before including):
 *   CN_PREC 64: 2 lanes. vd = __m128d, vdm = __m128d, vu = __m128i (lanes 0-1 used; lanes 2-3
 *               hold whatever the arithmetic leaves there and are never used as indices).
 *   CN_PREC 32: 4 lanes. vs = __m128, vsm = __m128, vu = __m128i; vd = a pair of __m128d.
 */
#ifndef CN_VEC_SSE2_H
#define CN_VEC_SSE2_H

#if !defined(__SSE2__)
#error "vec_sse2.h needs SSE2"
#endif

#include <emmintrin.h>
#include <stdint.h>

#define CN_VEC_NAME "sse2"

/* ---- two double lanes (d2) and their masks ---- */
typedef __m128d d2;
static inline d2 d2_set(double a) { return _mm_set1_pd(a); }
static inline d2 d2_add(d2 a, d2 b) { return _mm_add_pd(a, b); }
static inline d2 d2_sub(d2 a, d2 b) { return _mm_sub_pd(a, b); }
static inline d2 d2_mul(d2 a, d2 b) { return _mm_mul_pd(a, b); }
static inline d2 d2_div(d2 a, d2 b) { return _mm_div_pd(a, b); }
static inline d2 d2_neg(d2 a) { return _mm_xor_pd(a, _mm_set1_pd(-0.0)); }
static inline d2 d2_abs(d2 a) { return _mm_andnot_pd(_mm_set1_pd(-0.0), a); }
static inline d2 d2_lt(d2 a, d2 b) { return _mm_cmplt_pd(a, b); }
static inline d2 d2_gt(d2 a, d2 b) { return _mm_cmpgt_pd(a, b); }
static inline d2 d2_ge(d2 a, d2 b) { return _mm_cmpge_pd(a, b); }
static inline d2 d2_eq(d2 a, d2 b) { return _mm_cmpeq_pd(a, b); }
static inline d2 d2_sel(d2 m, d2 a, d2 b) { return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b)); }
static inline d2 d2_mand(d2 a, d2 b) { return _mm_and_pd(a, b); }
static inline d2 d2_mor(d2 a, d2 b) { return _mm_or_pd(a, b); }
static inline d2 d2_mnot(d2 a) { return _mm_xor_pd(a, _mm_castsi128_pd(_mm_set1_epi32(-1))); }
static inline d2 d2_finite(d2 a) { return _mm_cmpeq_pd(_mm_sub_pd(a, a), _mm_setzero_pd()); }
static inline d2 d2_finite_or0(d2 a) { return _mm_and_pd(a, d2_finite(a)); }
/*
 * Exact floor. For 0 < |a| < 2^52, t = (a + c) - c with c = 2^52 carrying a's sign rounds a to
 * the nearest integer (all of a's fraction bits fall off, round-to-nearest); subtract 1 where
 * that rounded up. |a| >= 2^52 (already whole) and +-0 are returned as they are.
 */
static inline d2 d2_floor(d2 a)
{
    const d2 two52 = _mm_set1_pd(4503599627370496.0);
    d2 c = _mm_or_pd(_mm_and_pd(a, _mm_set1_pd(-0.0)), two52);
    d2 t = _mm_sub_pd(_mm_add_pd(a, c), c);
    t = _mm_sub_pd(t, _mm_and_pd(_mm_cmpgt_pd(t, a), _mm_set1_pd(1.0)));
    d2 keep = _mm_or_pd(_mm_cmpge_pd(d2_abs(a), two52), _mm_cmpeq_pd(a, _mm_setzero_pd()));
    return d2_sel(keep, a, t);
}
/* An integral double reduced modulo 2^32, as u32 in lanes 0-1. */
static inline __m128i d2_wrap_u32(d2 a)
{
    d2 q = d2_floor(_mm_mul_pd(a, _mm_set1_pd(1.0 / 4294967296.0)));
    d2 r = _mm_sub_pd(a, _mm_mul_pd(q, _mm_set1_pd(4294967296.0)));
    __m128i s = _mm_cvttpd_epi32(_mm_sub_pd(r, _mm_set1_pd(2147483648.0)));
    return _mm_xor_si128(s, _mm_set1_epi32((int)0x80000000u));
}
/* u32 lanes 0-1 to doubles, exactly. */
static inline d2 d2_from_u(__m128i a)
{
    d2 s = _mm_cvtepi32_pd(_mm_xor_si128(a, _mm_set1_epi32((int)0x80000000u)));
    return _mm_add_pd(s, _mm_set1_pd(2147483648.0));
}
/* A 2-lane double mask as u32 lanes 0-1, and back. */
static inline __m128i d2_mask_u32(d2 m) { return _mm_shuffle_epi32(_mm_castpd_si128(m), _MM_SHUFFLE(3, 3, 2, 0)); }
static inline d2 u32_mask_d2(__m128i m) { return _mm_castsi128_pd(_mm_shuffle_epi32(m, _MM_SHUFFLE(1, 1, 0, 0))); }

/* ---- u32 lanes ---- */
static inline __m128i u4_sel(__m128i m, __m128i a, __m128i b) { return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b)); }
/* Low 32 bits of the lane products: even and odd lanes through 32x32->64 multiplies. */
static inline __m128i u4_mul(__m128i a, __m128i b)
{
    __m128i even = _mm_mul_epu32(a, b);
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)), _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
}

#if CN_PREC == 64
/* ===================================== 2 lanes, double ===================================== */
#define CN_VEC_LANES_F64 2
#define CN_VEC_LANES_F32 0

typedef __m128d vd;
typedef __m128d vdm;
typedef __m128i vu;

static inline vd vd_set(double a) { return d2_set(a); }
static inline vd vd_loadu(const double *a) { return _mm_loadu_pd(a); }
static inline void vd_storeu(double *out, vd a) { _mm_storeu_pd(out, a); }
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
static inline vd vd_sqrt(vd a) { return _mm_sqrt_pd(a); }
static inline int vdm_any(vdm a) { return _mm_movemask_pd(a) != 0; }
static inline vdm vdm_and(vdm a, vdm b) { return d2_mand(a, b); }
static inline int vdm_all(vdm a) { return _mm_movemask_pd(a) == 3; }
static inline vdm vdm_or(vdm a, vdm b) { return d2_mor(a, b); }
static inline vdm vdm_not(vdm a) { return d2_mnot(a); }
static inline vdm vd_finite(vd a) { return d2_finite(a); }
static inline vd vd_finite_or0(vd a) { return d2_finite_or0(a); }
static inline vd vd_floor(vd a) { return d2_floor(a); }
static inline vu vd_wrap_u32(vd a) { return d2_wrap_u32(a); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return _mm_cvttpd_epi32(a); }
static inline vd vd_from_u(vu a) { return d2_from_u(a); }
static inline vd vd_gather(const double *table, vu idx)
{
    uint32_t i[4];
    _mm_storeu_si128((__m128i *)i, idx);
    return _mm_setr_pd(table[i[0]], table[i[1]]);
}

static inline uint32_t vu_first(vu a) { return (uint32_t)_mm_cvtsi128_si32(a); }
static inline vu vu_set(uint32_t a) { return _mm_set1_epi32((int)a); }
static inline vu vu_add(vu a, vu b) { return _mm_add_epi32(a, b); }
static inline vu vu_sub(vu a, vu b) { return _mm_sub_epi32(a, b); }
static inline vu vu_mul(vu a, vu b) { return u4_mul(a, b); }
static inline vu vu_xor(vu a, vu b) { return _mm_xor_si128(a, b); }
static inline vu vu_and(vu a, vu b) { return _mm_and_si128(a, b); }
static inline vu vu_or(vu a, vu b) { return _mm_or_si128(a, b); }
static inline vu vu_shr(vu a, int n) { return _mm_srl_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vu vu_shl(vu a, int n) { return _mm_sll_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vd vd_perm16(const double *table, vu idx) { return vd_gather(table, idx); }
static inline vd vd_perm8(const double *table, vu idx) { return vd_perm16(table, idx); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    uint32_t i[4];
    _mm_storeu_si128((__m128i *)i, idx);
    return _mm_setr_epi32(table[i[0]], table[i[1]], 0, 0);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return u4_sel(d2_mask_u32(m), a, b); }
static inline vdm vu_nz_d(vu a) { return d2_mnot(u32_mask_d2(_mm_cmpeq_epi32(a, _mm_setzero_si128()))); }
static inline vdm vu_eq_d(vu a, vu b) { return u32_mask_d2(_mm_cmpeq_epi32(a, b)); }

#elif CN_PREC == 32
/* ===================================== 4 lanes, float ====================================== */
#define CN_VEC_LANES_F64 0
#define CN_VEC_LANES_F32 4

typedef struct { d2 lo, hi; } vd; /* lanes 0-1, 2-3 */
typedef struct { d2 lo, hi; } vdm;
typedef __m128 vs;
typedef __m128 vsm;
typedef __m128i vu;

#define CN_D2(expr_lo, expr_hi) { vd r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
#define CN_M2(expr_lo, expr_hi) { vdm r_; r_.lo = (expr_lo); r_.hi = (expr_hi); return r_; }
static inline vd vd_set(double a) CN_D2(d2_set(a), d2_set(a))
static inline vd vd_loadu(const double *a) CN_D2(_mm_loadu_pd(a), _mm_loadu_pd(a + 2))
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
static inline vdm vdm_and(vdm a, vdm b) CN_M2(d2_mand(a.lo, b.lo), d2_mand(a.hi, b.hi))
static inline vdm vdm_or(vdm a, vdm b) CN_M2(d2_mor(a.lo, b.lo), d2_mor(a.hi, b.hi))
static inline vdm vdm_not(vdm a) CN_M2(d2_mnot(a.lo), d2_mnot(a.hi))
static inline vdm vd_finite(vd a) CN_M2(d2_finite(a.lo), d2_finite(a.hi))
static inline vd vd_finite_or0(vd a) CN_D2(d2_finite_or0(a.lo), d2_finite_or0(a.hi))
static inline vd vd_floor(vd a) CN_D2(d2_floor(a.lo), d2_floor(a.hi))
#undef CN_D2
static inline void vd_storeu(double *out, vd a) { _mm_storeu_pd(out, a.lo); _mm_storeu_pd(out + 2, a.hi); }
static inline int vdm_all(vdm a) { return (_mm_movemask_pd(a.lo) & _mm_movemask_pd(a.hi)) == 3; }
#undef CN_M2

static inline vu vd_wrap_u32(vd a) { return _mm_unpacklo_epi64(d2_wrap_u32(a.lo), d2_wrap_u32(a.hi)); }
/* vd_wrap_u32 for integral lanes with |a| < 2^31 (the caller guarantees it): one conversion. */
static inline vu vd_wrap_u32_small(vd a) { return _mm_unpacklo_epi64(_mm_cvttpd_epi32(a.lo), _mm_cvttpd_epi32(a.hi)); }
static inline vd vd_from_u(vu a)
{
    vd r;
    r.lo = d2_from_u(a);
    r.hi = d2_from_u(_mm_srli_si128(a, 8));
    return r;
}
static inline __m128i cn_dmask_u32(vdm m) { return _mm_unpacklo_epi64(d2_mask_u32(m.lo), d2_mask_u32(m.hi)); }

static inline vs vs_set(float a) { return _mm_set1_ps(a); }
static inline void vs_storeu(float *out, vs a) { _mm_storeu_ps(out, a); }
static inline vs vs_from_d(vd a) { return _mm_movelh_ps(_mm_cvtpd_ps(a.lo), _mm_cvtpd_ps(a.hi)); }
static inline vs vs_add(vs a, vs b) { return _mm_add_ps(a, b); }
static inline vs vs_sub(vs a, vs b) { return _mm_sub_ps(a, b); }
static inline vs vs_mul(vs a, vs b) { return _mm_mul_ps(a, b); }
static inline vs vs_neg(vs a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
static inline vs vs_abs(vs a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
static inline vsm vs_lt(vs a, vs b) { return _mm_cmplt_ps(a, b); }
static inline vsm vs_eq(vs a, vs b) { return _mm_cmpeq_ps(a, b); }
static inline vsm vs_gt(vs a, vs b) { return _mm_cmpgt_ps(a, b); }
static inline vs vs_sel(vsm m, vs a, vs b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
static inline vs vs_max(vs a, vs b) { return vs_sel(vs_gt(a, b), a, b); }
static inline vs vs_min(vs a, vs b) { return vs_sel(vs_lt(a, b), a, b); }
static inline vs vs_sqrt(vs a) { return _mm_sqrt_ps(a); }
static inline vs vs_div(vs a, vs b) { return _mm_div_ps(a, b); }
static inline int vsm_any(vsm a) { return _mm_movemask_ps(a) != 0; }
static inline vsm vsm_not(vsm a) { return _mm_xor_ps(a, _mm_castsi128_ps(_mm_set1_epi32(-1))); }
static inline vsm vsm_and(vsm a, vsm b) { return _mm_and_ps(a, b); }
static inline vsm vsm_or(vsm a, vsm b) { return _mm_or_ps(a, b); }
static inline vsm vsm_from_d(vdm m) { return _mm_castsi128_ps(cn_dmask_u32(m)); }
/* u32 lanes below 2^31 to floats. */
static inline vs vs_from_u(vu a) { return _mm_cvtepi32_ps(a); }
static inline vs vs_gather(const float *table, vu idx)
{
    uint32_t i[4];
    _mm_storeu_si128((__m128i *)i, idx);
    return _mm_setr_ps(table[i[0]], table[i[1]], table[i[2]], table[i[3]]);
}

static inline uint32_t vu_first(vu a) { return (uint32_t)_mm_cvtsi128_si32(a); }
static inline vu vu_set(uint32_t a) { return _mm_set1_epi32((int)a); }
static inline vu vu_add(vu a, vu b) { return _mm_add_epi32(a, b); }
static inline vu vu_sub(vu a, vu b) { return _mm_sub_epi32(a, b); }
static inline vu vu_mul(vu a, vu b) { return u4_mul(a, b); }
static inline vu vu_xor(vu a, vu b) { return _mm_xor_si128(a, b); }
static inline vu vu_and(vu a, vu b) { return _mm_and_si128(a, b); }
static inline vu vu_or(vu a, vu b) { return _mm_or_si128(a, b); }
static inline vu vu_shr(vu a, int n) { return _mm_srl_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vu vu_shl(vu a, int n) { return _mm_sll_epi32(a, _mm_cvtsi32_si128(n)); }
static inline vs vs_perm16(const float *table, vu idx) { return vs_gather(table, idx); }
static inline vs vs_perm8(const float *table, vu idx) { return vs_perm16(table, idx); }
static inline vu vu_gather8(const uint8_t *table, vu idx)
{
    uint32_t i[4];
    _mm_storeu_si128((__m128i *)i, idx);
    return _mm_setr_epi32(table[i[0]], table[i[1]], table[i[2]], table[i[3]]);
}
static inline vu vu_sel_d(vdm m, vu a, vu b) { return u4_sel(cn_dmask_u32(m), a, b); }
static inline vu vu_sel_s(vsm m, vu a, vu b) { return u4_sel(_mm_castps_si128(m), a, b); }
static inline vsm vu_nz_s(vu a)
{
    __m128i z = _mm_cmpeq_epi32(a, _mm_setzero_si128());
    return _mm_castsi128_ps(_mm_xor_si128(z, _mm_set1_epi32(-1)));
}
static inline vsm vu_eq_s(vu a, vu b) { return _mm_castsi128_ps(_mm_cmpeq_epi32(a, b)); }

#else
#error "set CN_PREC to 64 or 32 before including vec_sse2.h"
#endif

#endif
