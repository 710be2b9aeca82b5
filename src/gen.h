/* gen.h -- the built generator as the library sees it. Private: the public cn_noise (cnoise.h)
 * is opaque storage of CN_NOISE_SIZE bytes that holds one cn__gen; only the library and its
 * white-box tests read these fields, so they may change between versions without an ABI change
 * as long as they fit (the static assertion below). */
#ifndef CN_GEN_H
#define CN_GEN_H

#include <stdint.h>
#include "cnoise.h"

/* A built generator's kernel_tag is CN__GEN_TAG + its kernel index (kernels/registry.h);
 * cn_noise_build writes it last and 0 on failure. One unsigned subtraction and compare then both
 * refuse a zeroed, garbage or failed cn_noise and bound the index ("cno" + a tag byte). */
#define CN__GEN_TAG UINT32_C(0x636e6f00)

/* Lattice coordinates below this in magnitude take the kernels' bounded path (kernels/lattice.inc,
 * CN_K_BOUNDED): 2^29, so that simplex cells, |x + s| < (1 + D F) 2^29, stay below 2^31. */
#define CN__K_BOUND 536870912.0

typedef struct cn__gen {
    uint32_t kernel_tag; /* CN__GEN_TAG + kernel index when built, else 0 */
    int octaves;    /* octaves actually evaluated */
    int periodic;   /* any period set */
    int plain;      /* one octave, no rotation, period or signal transform: the short point path */
    cn_config cfg;  /* at offset 16: the point path reads its offsets beside scale[] below */
    double scale[4];           /* frequency * axis_frequency */
    double norm;               /* 1 / (sum of amplitudes * bound) */
    double inner;              /* coordinates below this in magnitude after the domain transform keep
                                  every octave's below CN__K_BOUND (0: periodic, never) */
    struct cn__cell {          /* cellular noise (kernels/cellular.inc) */
        int distance, ret;     /* cfg.cell_distance, cfg.cell_return */
        double base;           /* 1/2 - jitter/2: a feature point's lowest offset in its cell */
        double step;           /* jitter / 65535: the offset per unit of its 16 hash bits */
        double out_scale;      /* 2 / (the return's bound) */
        double p, inv_p;       /* cfg.minkowski_p and its reciprocal (CN_CELL_MINKOWSKI) */
    } cell;
    struct cn__octave {
        uint32_t key[5];       /* default mode: lattice keys */
        uint32_t period[4];    /* period in cells at this octave, 0 = none */
        double mult;           /* lacunarity^i */
        double amp;            /* gain^i */
    } oct[CN_MAX_OCTAVES];
    uint8_t perm[CN_MAX_OCTAVES][256]; /* classic mode: per-octave permutation */
} cn__gen;

#ifndef __OPENCL_VERSION__ /* OpenCL C 1.2 (src/opencl/noise.cl) has no _Static_assert */
_Static_assert(sizeof(cn__gen) <= sizeof(cn_noise), "cn__gen outgrew the public cn_noise storage");
_Static_assert(_Alignof(cn__gen) <= _Alignof(cn_noise), "cn__gen needs more alignment than cn_noise gives");
#endif

/* The kernel index of a generator that passed cn__generator_ok. */
static inline uint32_t cn__gen_kernel(const cn__gen *g)
{
    return g->kernel_tag - CN__GEN_TAG;
}

/* The generator inside a public cn_noise (no check: see cn__generator_ok). */
static inline const cn__gen *cn__gen_of(const cn_noise *n)
{
    return (const cn__gen *)(const void *)n;
}
static inline cn__gen *cn__gen_mut(cn_noise *n)
{
    return (cn__gen *)(void *)n;
}

#endif
