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

/*
 * Point entry: domain transform, then non-finite coordinates go through as 0 (so no NaN or
 * infinity reaches an integer conversion) and come out as NaN; fractal loop around the base
 * kernel IDX (inlined into each entry); signal transform.
 */
#define CN_POINT_ENTRY(T, SUF, IDX)                                                       \
    static T point_##SUF##_##IDX(const cn_noise *g, const double *in)                     \
    {                                                                                     \
        vd p[4] = {vd_set(0), vd_set(0), vd_set(0), vd_set(0)};                           \
        vd q[4] = {vd_set(0), vd_set(0), vd_set(0), vd_set(0)};                           \
        vdm ok = vd_finite(vd_set(0));                                                    \
        for (int a = 0; a < g->cfg.dims; a++)                                             \
            p[a] = vd_set(in[a]);                                                         \
        domain_##SUF(g, p, q);                                                            \
        for (int a = 0; a < g->cfg.dims; a++) {                                           \
            ok = vdm_and(ok, vd_finite(q[a]));                                            \
            q[a] = vd_finite_or0(q[a]);                                                   \
        }                                                                                 \
        T r = signal_##SUF(g, fractal_##SUF(g, kernels_##SUF[IDX], q));                   \
        return vdm_all(ok) ? r : (T)NAN;                                                  \
    }

#define CN_ALL_ENTRIES(T, SUF)                                                            \
    CN_POINT_ENTRY(T, SUF, 0) CN_POINT_ENTRY(T, SUF, 1) CN_POINT_ENTRY(T, SUF, 2)          \
    CN_POINT_ENTRY(T, SUF, 3) CN_POINT_ENTRY(T, SUF, 5) CN_POINT_ENTRY(T, SUF, 6)          \
    CN_POINT_ENTRY(T, SUF, 7) CN_POINT_ENTRY(T, SUF, 8) CN_POINT_ENTRY(T, SUF, 9)          \
    CN_POINT_ENTRY(T, SUF, 10) CN_POINT_ENTRY(T, SUF, 11) CN_POINT_ENTRY(T, SUF, 12)       \
    CN_POINT_ENTRY(T, SUF, 13) CN_POINT_ENTRY(T, SUF, 14) CN_POINT_ENTRY(T, SUF, 15)       \
    CN_POINT_ENTRY(T, SUF, 17) CN_POINT_ENTRY(T, SUF, 18) CN_POINT_ENTRY(T, SUF, 19)

CN_ALL_ENTRIES(double, f64)
CN_ALL_ENTRIES(float, f32)

#define CN_ROW(SUF)                                                                       \
    {point_##SUF##_0, point_##SUF##_1, point_##SUF##_2, point_##SUF##_3, NULL,            \
     point_##SUF##_5, point_##SUF##_6, point_##SUF##_7, point_##SUF##_8, point_##SUF##_9, \
     point_##SUF##_10, point_##SUF##_11, point_##SUF##_12, point_##SUF##_13,              \
     point_##SUF##_14, point_##SUF##_15, NULL, point_##SUF##_17, point_##SUF##_18,        \
     point_##SUF##_19, NULL, NULL, NULL, NULL}

const cn__isa_table cn__isa_scalar = {
    CN_VEC_NAME,
    CN_ROW(f64),
    CN_ROW(f32),
};
