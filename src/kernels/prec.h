/*
 * prec.h -- maps the kernels' precision-neutral names (vr, vrm, vr_*) onto the double (vd) or
 * float (vs) lanes of the vector layer. Include after a vec_<isa>.h with CN_PREC set to 64 or 32;
 * may be included again after #undef CN_PREC_H to switch precision.
 */
/* Forced inlining of the kernel pieces into each entry: the fractal loop then sees its base
 * kernel and the dimension as constants. */
#ifndef CN_INLINE
#if defined(__GNUC__) || defined(__clang__)
#define CN_INLINE inline __attribute__((always_inline))
#else
#define CN_INLINE inline
#endif
#endif

/*
 * Address spaces, for the OpenCL C build of these sources (src/opencl/noise.cl, vec_opencl.h):
 *   CN_GLOBAL       the generator and what points into it (device memory there)
 *   CN_TABLE        a constant table at file scope (OpenCL's __constant space there)
 *   CN_LOCAL_TABLE  a constant table inside a function (a private array there: OpenCL C 1.2 has
 *                   no static variables in functions)
 * In C they are empty, `static const` and `static const`.
 */
#ifndef CN_GLOBAL
#define CN_GLOBAL
#define CN_TABLE static const
#define CN_LOCAL_TABLE static const
#endif

#undef vr
#undef vrm
#undef cn_real
#undef vr_set
#undef vr_add
#undef vr_sub
#undef vr_mul
#undef vr_neg
#undef vr_abs
#undef vr_lt
#undef vr_gt
#undef vr_eq
#undef vr_sel
#undef vr_max
#undef vr_min
#undef vr_sqrt
#undef vrm_any
#undef vrm_and
#undef vrm_or
#undef vrm_not
#undef vrm_from_d
#undef vr_from_d
#undef vr_from_u
#undef vr_gather
#undef vr_perm16
#undef vr_perm8
#undef vu_nz_r
#undef vu_sel_r
#undef vu_eq_r
#undef KN
#undef CN_LANES
#undef vr_storeu
#undef KN_
#undef KN__

#if CN_PREC == 64
#define vr vd
#define vrm vdm
#define cn_real double
#define vr_set vd_set
#define vr_add vd_add
#define vr_sub vd_sub
#define vr_mul vd_mul
#define vr_neg vd_neg
#define vr_abs vd_abs
#define vr_lt vd_lt
#define vr_gt vd_gt
#define vr_eq vd_eq
#define vr_sel vd_sel
#define vr_max vd_max
#define vr_min vd_min
#define vr_sqrt vd_sqrt
#define vr_div vd_div
#define vrm_any vdm_any
#define vrm_and vdm_and
#define vrm_or vdm_or
#define vrm_not vdm_not
#define vrm_from_d(m) (m)
#define vr_from_d(a) (a)
#define vr_from_u vd_from_u
#define vr_gather vd_gather
#define vr_perm16 vd_perm16
#define vr_perm8 vd_perm8
#define vu_nz_r vu_nz_d
#define vu_sel_r vu_sel_d
#define vu_eq_r vu_eq_d
#define KN__(name, suffix) name##_##suffix
#define KN_(name, suffix) KN__(name, suffix)
#define KN(name) KN_(name, f64)
#define CN_LANES CN_VEC_LANES_F64
#define vr_storeu vd_storeu
#elif CN_PREC == 32
#define vr vs
#define vrm vsm
#define cn_real float
#define vr_set vs_set
#define vr_add vs_add
#define vr_sub vs_sub
#define vr_mul vs_mul
#define vr_neg vs_neg
#define vr_abs vs_abs
#define vr_lt vs_lt
#define vr_gt vs_gt
#define vr_eq vs_eq
#define vr_sel vs_sel
#define vr_max vs_max
#define vr_min vs_min
#define vr_sqrt vs_sqrt
#define vr_div vs_div
#define vrm_any vsm_any
#define vrm_and vsm_and
#define vrm_or vsm_or
#define vrm_not vsm_not
#define vrm_from_d vsm_from_d
#define vr_from_d vs_from_d
#define vr_from_u vs_from_u
#define vr_gather vs_gather
#define vr_perm16 vs_perm16
#define vr_perm8 vs_perm8
#define vu_nz_r vu_nz_s
#define vu_sel_r vu_sel_s
#define vu_eq_r vu_eq_s
#define KN__(name, suffix) name##_##suffix
#define KN_(name, suffix) KN__(name, suffix)
#define KN(name) KN_(name, f32)
#define CN_LANES CN_VEC_LANES_F32
#define vr_storeu vs_storeu
#else
#error "set CN_PREC to 64 or 32 before including prec.h"
#endif
