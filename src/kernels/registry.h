/*
 * registry.h -- the one list of noise kernels, and what is generated from it.
 *
 * CN_KERNELS(X) calls X(TYPE, MODE, DIMS, BASE, FORM, GRAD, CACHE) once per kernel that exists:
 *   TYPE  the cn_noise_type without its prefix (PERLIN: CN_NOISE_PERLIN)
 *   MODE  the cn_mode without its prefix (DEFAULT, CLASSIC)
 *   DIMS  1..4
 *   BASE  the base kernel, a KN() name of kernels.inc (KN(perlin2) is octave oi of 2D Perlin
 *         noise at a vector of points); the entries of each build are named after it
 *   FORM  the kernel's grid-row form (row.inc): PERLIN, VALUE, SIMPLEX, OS2 / OS2S / CELL (simplex's
 *         rows with OpenSimplex2's / OpenSimplex2S's / cellular kernel), or NONE (every grid point
 *         goes through the per-point loop)
 *   GRAD  GRAD: the kernel has a value-and-gradient form, KN(BASE_d) (deriv.inc), behind the
 *         gradient calls (cn_eval_grad, cn_grid_eval_grad, ...); NONE: those calls refuse it
 *   CACHE CELLS: the kernel (and its gradient form) reuses the lattice corners of the previous
 *         vector through a batch's cell cache (common.inc, KN(cache)) and takes it as its last
 *         argument, NULL for none; NONE: it takes no cache. Callers pass it with CN__CC_##CACHE(cc)
 *         so that no kernel takes an argument it ignores. The signatures:
 *             vr KN(BASE)(g, oi, p, kf [, cc])           octave oi at the octave's coordinates p
 *             vr KN(BASE_d)(g, oi, p, kf, dv [, cc])     the same, and the gradient to dv
 * From this list come: the kernel index of each combination and whether it exists
 * (cn__kernel_sigs, so cn_config_check's CN_E_UNSUPPORTED), the entries of every instruction
 * set's build and its tables (entries.inc). Adding a kernel: its base function (and its gradient
 * form), one line here, its range constant (core/scales.h) and its tests.
 */
#ifndef CN_REGISTRY_H
#define CN_REGISTRY_H

#include "cnoise.h"
#include "../gen.h"

#define CN_KERNELS(X)                                          \
    X(PERLIN, DEFAULT, 1, perlin1, PERLIN, GRAD, CELLS)        \
    X(PERLIN, DEFAULT, 2, perlin2, PERLIN, GRAD, CELLS)        \
    X(PERLIN, DEFAULT, 3, perlin3, PERLIN, GRAD, CELLS)        \
    X(PERLIN, DEFAULT, 4, perlin4, PERLIN, GRAD, CELLS)        \
    X(SIMPLEX, DEFAULT, 2, simplex2, SIMPLEX, GRAD, NONE)      \
    X(SIMPLEX, DEFAULT, 3, simplex3, SIMPLEX, GRAD, NONE)      \
    X(SIMPLEX, DEFAULT, 4, simplex4, SIMPLEX, GRAD, NONE)      \
    X(VALUE, DEFAULT, 1, value1, VALUE, GRAD, CELLS)           \
    X(VALUE, DEFAULT, 2, value2, VALUE, GRAD, CELLS)           \
    X(VALUE, DEFAULT, 3, value3, VALUE, GRAD, CELLS)           \
    X(VALUE, DEFAULT, 4, value4, VALUE, GRAD, CELLS)           \
    X(VALUE_CUBIC, DEFAULT, 1, value_cubic1, NONE, GRAD, NONE) \
    X(VALUE_CUBIC, DEFAULT, 2, value_cubic2, NONE, GRAD, NONE) \
    X(VALUE_CUBIC, DEFAULT, 3, value_cubic3, NONE, GRAD, NONE) \
    X(VALUE_CUBIC, DEFAULT, 4, value_cubic4, NONE, GRAD, NONE) \
    X(CELLULAR, DEFAULT, 2, cellular2, CELL, NONE, NONE)       \
    X(CELLULAR, DEFAULT, 3, cellular3, CELL, NONE, NONE)       \
    X(CELLULAR, DEFAULT, 4, cellular4, CELL, NONE, NONE)       \
    X(OPENSIMPLEX2, DEFAULT, 2, os2_2, OS2, GRAD, NONE)        \
    X(OPENSIMPLEX2, DEFAULT, 3, os2_3, OS2, GRAD, NONE)        \
    X(OPENSIMPLEX2, DEFAULT, 4, os2_4, OS2, GRAD, NONE)        \
    X(OPENSIMPLEX2S, DEFAULT, 2, os2s_2, OS2S, GRAD, NONE)     \
    X(OPENSIMPLEX2S, DEFAULT, 3, os2s_3, OS2S, GRAD, NONE)     \
    X(OPENSIMPLEX2S, DEFAULT, 4, os2s_4, OS2S, GRAD, NONE)     \
    X(PERLIN, CLASSIC, 1, perlin1c, NONE, GRAD, NONE)          \
    X(PERLIN, CLASSIC, 2, perlin2c, NONE, GRAD, NONE)          \
    X(PERLIN, CLASSIC, 3, perlin3c, NONE, GRAD, NONE)          \
    X(PERLIN, CLASSIC, 4, perlin4c, NONE, GRAD, NONE)          \
    X(SIMPLEX, CLASSIC, 2, simplex2c, NONE, GRAD, NONE)        \
    X(SIMPLEX, CLASSIC, 3, simplex3c, NONE, GRAD, NONE)        \
    X(SIMPLEX, CLASSIC, 4, simplex4c, NONE, GRAD, NONE)

/* The cell-cache argument of a call to a kernel with the registry's CACHE column (see above). */
#define CN__CC_CELLS(cc) , cc
#define CN__CC_NONE(cc)
/* The same as the last parameter of the functions around such a kernel (its fractal sum, its
 * vector entry, ...): present for CELLS only. */
#define CN__CC_PARAM_CELLS , KN(cache) *cc
#define CN__CC_PARAM_NONE
/* A batch's cell cache, declared and emptied (CELLS) or none. The per-point loop (entries.inc,
 * KN(span_BASE)) is passed to the row loops by pointer, so it has one signature for every kernel:
 * it takes a cache that a NONE kernel leaves alone (CN__CC_UNUSED). */
#define CN__CC_DECL_CELLS                      \
    KN(cache) cc;                              \
    for (int o = 0; o < CN_CACHE_OCTAVES; o++) \
        cc.oct[o].valid = cc.oct[o].tries = cc.oct[o].hits = 0;
#define CN__CC_DECL_NONE
#define CN__CC_UNUSED_CELLS(cc)
#define CN__CC_UNUSED_NONE(cc) (void)(cc);

/* The names of the noise types, modes and fractals (cn_noise_type_name and friends; the CLI
 * parses and lists them): X(enum value, name). */
#define CN_NOISE_TYPE_NAMES(X) \
    X(CN_NOISE_PERLIN, "perlin") X(CN_NOISE_SIMPLEX, "simplex") X(CN_NOISE_VALUE, "value") X(CN_NOISE_VALUE_CUBIC, "value-cubic") \
    X(CN_NOISE_CELLULAR, "cellular") X(CN_NOISE_OPENSIMPLEX2, "opensimplex2") \
    X(CN_NOISE_OPENSIMPLEX2S, "opensimplex2s")
#define CN_CELL_DISTANCE_NAMES(X)                                                          \
    X(CN_CELL_EUCLIDEAN, "euclidean") X(CN_CELL_EUCLIDEAN_SQ, "euclidean-squared")         \
    X(CN_CELL_MANHATTAN, "manhattan") X(CN_CELL_CHEBYSHEV, "chebyshev") X(CN_CELL_MINKOWSKI, "minkowski")
#define CN_CELL_RETURN_NAMES(X)                                                                  \
    X(CN_CELL_F1, "f1") X(CN_CELL_F2, "f2") X(CN_CELL_F2_MINUS_F1, "f2-f1") X(CN_CELL_F1_PLUS_F2, "f1+f2") \
    X(CN_CELL_F1_TIMES_F2, "f1*f2") X(CN_CELL_VALUE, "cell-value") X(CN_CELL_EDGE, "edge")
#define CN_MODE_NAMES(X) X(CN_MODE_DEFAULT, "default") X(CN_MODE_CLASSIC, "classic")
#define CN_FRACTAL_NAMES(X)                                                                \
    X(CN_FRACTAL_NONE, "none") X(CN_FRACTAL_FBM, "fbm") X(CN_FRACTAL_TURBULENCE, "turbulence") \
    X(CN_FRACTAL_BILLOW, "billow") X(CN_FRACTAL_RIDGED, "ridged") X(CN_FRACTAL_PINGPONG, "pingpong") \
    X(CN_FRACTAL_EROSION, "erosion")

/* Every (type, mode, dims) has a slot; the registry's kernels fill some. */
#define CN__TYPES 7
#define CN__MODES 2
#define CN__KERNEL_COUNT (CN__MODES * CN__TYPES * 4)
#define CN__KID(type, mode, dims) ((int)(mode) * (CN__TYPES * 4) + (int)(type) * 4 + (dims) - 1)
/* The slot of a registry line. */
#define CN__KID_OF(TYPE, MODE, DIMS) CN__KID(CN_NOISE_##TYPE, CN_MODE_##MODE, DIMS)

/* The slot of a configuration whose type, mode and dims are in range (cn_config_check). */
static inline int cn__kernel_index(const cn_config *c)
{
    return CN__KID(c->type, c->mode, c->dims);
}

#ifndef __OPENCL_VERSION__ /* host-side checks; the OpenCL C build (src/opencl/noise.cl) needs none */
/* What each slot holds: dims 0 for a combination without a kernel (src/api.c, from CN_KERNELS). */
typedef struct cn__kernel_sig {
    int dims, type, mode;
    int grad; /* the registry's GRAD column: the kernel has a gradient form */
} cn__kernel_sig;
extern const cn__kernel_sig cn__kernel_sigs[CN__KERNEL_COUNT];

/* Whether g looks like the result of a successful cn_noise_build: its kernel tag, dimension,
 * type, mode and octave count in range and the kernel its configuration implies, so that a
 * zeroed, garbage or edited generator is refused before any table is indexed. Every evaluation
 * checks it, so it is a handful of compares: a kernel index in range names exactly one (dims,
 * type, mode), and the configuration must hold those. */
static inline int cn__generator_ok(const cn__gen *g)
{
    if (!g || cn__gen_kernel(g) >= CN__KERNEL_COUNT || (unsigned)g->octaves - 1u >= CN_MAX_OCTAVES)
        return 0;
    const cn__kernel_sig *s = &cn__kernel_sigs[cn__gen_kernel(g)];
    return g->cfg.dims == s->dims && (int)g->cfg.type == s->type && (int)g->cfg.mode == s->mode;
}

#endif

#endif
