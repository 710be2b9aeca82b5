/*
 * noise.cl -- the OpenCL C program: the kernels of src/kernels/ over the vector layer of
 * vec_opencl.h (one lane per work-item), and two entry kernels per registry line (grid and point
 * array). Built by src/opencl.c with -DCN_PREC=32 (float results) or 64 (double), once per
 * context and precision; the build embeds this file with its quoted includes inlined
 * (cmake/embed_opencl.cmake), and system includes are dropped (vec_opencl.h gives the types).
 *
 * Each work-item evaluates one point exactly as the scalar CPU build's per-point loop does
 * (entries.inc: KN(span_BASE) through KN(lanes_BASE)): the same coordinates (origin + i * step,
 * or a float coordinate widened to double), the same lane function, so the same bits.
 */
#include "../simd/vec_opencl.h"
#include "../core/core.h"
#include "../kernels/registry.h"
#include "../kernels/kernels.inc"
#include "../kernels/lanes.inc"

#if CN_PREC == 64
typedef double cn_coord; /* point arrays: cn_points_eval takes double coordinates */
#else
typedef float cn_coord;  /* cn_points_evalf: float coordinates */
#endif

/*
 * eval_BASE: n points, result k to out[k]. A grid (points = 0): points first .. first + n - 1 of
 * a grid of count[] points (x fastest), the point with indices (i0, i1, i2, i3) at
 * origin[a] + (double)ia * step[a]. A point array (points = 1): point k at c0[k], c1[k], ...
 * (arrays past the dimension are not read). One kernel per base kernel for both: its body is
 * compiled once (runtimes such as PoCL compile each kernel at its first launch).
 */
#define CN_CL_ENTRIES(TYPE, MODE, DIMS, BASE, FORM, GRAD, CACHE)                                  \
    CN_BOUNDED_ENTRY(BASE, DIMS, GRAD, CACHE)                                                     \
    CN_LANES_BODY(KN(lanes_##BASE), static inline, DIMS, BASE, CACHE)                             \
    __kernel void KN(eval_##BASE)(__global const cn__gen *g, int points, double4 origin,          \
                                  double4 step, ulong4 count, ulong first, ulong n,               \
                                  __global const cn_coord *c0, __global const cn_coord *c1,       \
                                  __global const cn_coord *c2, __global const cn_coord *c3,       \
                                  __global cn_real *out)                                          \
    {                                                                                             \
        const ulong k = get_global_id(0);                                                         \
        if (k >= n)                                                                               \
            return;                                                                               \
        vd p[4] = {0.0, 0.0, 0.0, 0.0};                                                           \
        if (points) {                                                                             \
            p[0] = (double)c0[k];                                                                 \
            if (DIMS > 1)                                                                         \
                p[1] = (double)c1[k];                                                             \
            if (DIMS > 2)                                                                         \
                p[2] = (double)c2[k];                                                             \
            if (DIMS > 3)                                                                         \
                p[3] = (double)c3[k];                                                             \
        } else {                                                                                  \
            const double o[4] = {origin.x, origin.y, origin.z, origin.w};                         \
            const double s[4] = {step.x, step.y, step.z, step.w};                                 \
            const ulong c[4] = {count.x, count.y, count.z, count.w};                              \
            ulong rest = first + k;                                                               \
            for (int a = 0; a < DIMS; a++) {                                                      \
                p[a] = o[a] + (double)(rest % c[a]) * s[a];                                       \
                rest /= c[a];                                                                     \
            }                                                                                     \
        }                                                                                         \
        out[k] = KN(lanes_##BASE)(g, p CN__CC_##CACHE(NULL));                                     \
    }
CN_KERNELS(CN_CL_ENTRIES)

/* The layout of the generator as this compiler sees it (layout.h), for the host to compare
 * with its own (src/opencl.c refuses a device that disagrees: the generator is copied as bytes). */
#include "layout.h"
#define CN_CL_SIZE(T) out[i++] = sizeof(T);
#define CN_CL_OFFSET(T, f) out[i++] = __builtin_offsetof(T, f);
__kernel void cn_layout(__global ulong *out)
{
    int i = 0;
    CN_CL_LAYOUT(CN_CL_SIZE, CN_CL_OFFSET)
}
