/*
 * cnoise.h -- coherent noise: Perlin, simplex and value noise in 1D-4D.
 *
 * The one public header of libcnoise. C99-clean, usable from C++, needs no <stdio.h>.
 *
 * Quick start
 * -----------
 *     cn_config cfg;
 *     cn_noise  gen;
 *     cn_config_init(&cfg);              // Perlin, 3D, default mode, seed 0, frequency 1
 *     cfg.type = CN_NOISE_SIMPLEX;
 *     cfg.dims = 2;
 *     cfg.seed = 1234;
 *     if (cn_noise_build(&gen, &cfg) != CN_OK) { ... }
 *     double v = cn_eval2(&gen, 0.25, 10.5);   // in [-1, 1]
 *
 * Two modes
 * ---------
 * CN_MODE_DEFAULT (what a new user should want):
 *   - any 64-bit seed, hashed into the lattice with an unsigned 32-bit integer hash; the lattice
 *     index along each axis is floor(coordinate) modulo 2^32, so nothing repeats within 2^32 cells;
 *   - proper gradient sets per dimension (1D: 16 slopes +-k/8; 2D: 8 unit vectors at 22.5 + 45k
 *     degrees; 3D: the 12 cube edges; 4D: the 32 hypercube edges), chosen without bias;
 *   - simplex noise uses radius^2 0.5 in every dimension, so it is continuous everywhere;
 *   - every noise is scaled into [-1, 1] (see "Output range" below).
 * CN_MODE_CLASSIC (reproduces published reference code bit for bit in double precision):
 *   - Perlin 3D is Ken Perlin's ImprovedNoise (2002), Perlin 4D his ImprovedNoise4D with its own
 *     grad() as printed; classic Perlin 1D/2D is that 3D function with the missing coordinates 0;
 *   - simplex 2D/3D/4D is Stefan Gustavson's SimplexNoise.java of 2012-03-09 (radius^2 0.5 in 2D,
 *     0.6 in 3D/4D, scale factors 70, 32, 27; 3D/4D can jump by about 0.004 at some faces);
 *   - seed 0 is Perlin's reference permutation. Any other seed s shuffles 0..255 with a
 *     Fisher-Yates shuffle (i from 255 down to 1, j uniform in 0..i by rejection sampling) driven by
 *     the SplitMix64 generator started at state s;
 *   - classic value noise does not exist (CN_E_UNSUPPORTED); classic output is not clamped
 *     (Perlin 3D reaches about +-1.04, Perlin 4D about +-1.5, as the reference does).
 *
 * Output range (default mode)
 * ---------------------------
 * Every default-mode noise returns a value in [-1, 1]. Each scale constant is 1 / M, where M is the
 * largest value the unscaled kernel can take for any gradient assignment, found by maximising the
 * per-corner best-case sum over the cell (docs/RANGE.md derives each one; tests/test_range.c
 * recomputes M independently and checks 10^6 samples). Results are clamped to [-1, 1] as a last
 * guard against rounding and against precision loss at |coordinates| near 2^52.
 *
 * Floating point
 * --------------
 * Double entry points compute in double precision. Float entry points take float coordinates,
 * compute the lattice cell and the offsets inside it in double precision (so large coordinates
 * do not lose the cell) and the interpolation/kernel sums in float; for |coordinates| <= 1000 the
 * float result is within 1e-5 of the double result at the same point.
 * NaN or +-Inf in any coordinate, or a coordinate whose product with the frequency overflows,
 * gives NaN. Every finite coordinate otherwise gives a finite value.
 *
 * Threads: there is no global mutable state. A built cn_noise is read-only during evaluation and
 * may be shared by any number of threads.
 */
#ifndef CNOISE_H
#define CNOISE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CN_VERSION_MAJOR 0
#define CN_VERSION_MINOR 1
#define CN_VERSION_PATCH 0
#define CN_VERSION_STRING "0.1.0"

/* Status codes returned by every function that can fail. CN_OK is 0. */
typedef enum cn_status {
    CN_OK = 0,
    CN_E_NULL,        /* a required pointer argument was NULL */
    CN_E_TYPE,        /* cn_config.type is not a cn_noise_type value */
    CN_E_MODE,        /* cn_config.mode is not a cn_mode value */
    CN_E_DIMS,        /* cn_config.dims is not 1..4 */
    CN_E_UNSUPPORTED, /* a valid but unsupported combination (simplex 1D, classic value noise) */
    CN_E_FREQUENCY,   /* cn_config.frequency is not finite or not > 0 */
    CN_E_RANGE,       /* another numeric argument is out of its documented range */
    CN_E_OVERFLOW     /* a size computation would overflow */
} cn_status;

/* A short English description of a status code; never NULL (unknown codes get a generic text). */
const char *cn_strerror(cn_status status);

/* The library version string, e.g. "0.1.0". */
const char *cn_version(void);

typedef enum cn_noise_type {
    CN_NOISE_PERLIN = 0,  /* improved gradient noise (quintic fade), 1D-4D */
    CN_NOISE_SIMPLEX = 1, /* simplex noise, 2D-4D */
    CN_NOISE_VALUE = 2    /* value noise (quintic-faded lattice values), 1D-4D, default mode only */
} cn_noise_type;

typedef enum cn_mode {
    CN_MODE_DEFAULT = 0, /* seeded integer-hash lattice, continuous, range [-1, 1] */
    CN_MODE_CLASSIC = 1  /* the published reference code, bit for bit in double precision */
} cn_mode;

/*
 * Configuration of one noise generator. Fill it with cn_config_init(), change fields, then
 * cn_noise_build(). Fields, defaults and ranges:
 *   type       CN_NOISE_PERLIN   any cn_noise_type
 *   mode       CN_MODE_DEFAULT   any cn_mode
 *   dims       3                 1..4 (simplex: 2..4)
 *   seed       0                 any 64-bit value
 *   frequency  1.0               finite, > 0; coordinates are multiplied by it before lattice lookup
 */
typedef struct cn_config {
    cn_noise_type type;
    cn_mode mode;
    int dims;
    uint64_t seed;
    double frequency;
} cn_config;

/* Fills *cfg with the defaults listed above. NULL is ignored. */
void cn_config_init(cn_config *cfg);

/* Checks every field of *cfg; returns CN_OK or the status naming the first bad field. */
cn_status cn_config_check(const cn_config *cfg);

/*
 * A built generator: the configuration plus everything derived from it (lattice keys, the classic
 * permutation). Plain data owned by the caller (about 1.2 KiB, no heap); copy it freely. The
 * fields after `cfg` are internal and may change between versions.
 */
typedef struct cn_noise {
    cn_config cfg;
    uint32_t key[5];          /* default mode: per-axis lattice keys and an offset key */
    uint8_t perm[512];        /* classic mode: the permutation, repeated twice */
    uint8_t perm_mod12[512];  /* classic mode: perm[i] % 12 (Gustavson's permMod12) */
    int kernel;               /* internal kernel selector */
} cn_noise;

/* Validates *cfg (as cn_config_check) and builds *out from it. On error *out is left unusable. */
cn_status cn_noise_build(cn_noise *out, const cn_config *cfg);

/*
 * Evaluates the noise at one point. p holds gen->cfg.dims coordinates.
 * Returns NaN if gen or p is NULL, if gen was not built, or for non-finite input (see above).
 */
double cn_eval(const cn_noise *gen, const double *p);
float cn_evalf(const cn_noise *gen, const float *p);

/* Fixed-dimension conveniences: return NaN if gen is NULL or gen->cfg.dims differs. */
double cn_eval1(const cn_noise *gen, double x);
double cn_eval2(const cn_noise *gen, double x, double y);
double cn_eval3(const cn_noise *gen, double x, double y, double z);
double cn_eval4(const cn_noise *gen, double x, double y, double z, double w);
float cn_eval1f(const cn_noise *gen, float x);
float cn_eval2f(const cn_noise *gen, float x, float y);
float cn_eval3f(const cn_noise *gen, float x, float y, float z);
float cn_eval4f(const cn_noise *gen, float x, float y, float z, float w);

#ifdef __cplusplus
}
#endif

#endif /* CNOISE_H */
