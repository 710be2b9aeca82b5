/*
 * cnoise.h -- coherent noise: Perlin, simplex and value noise in 1D-4D.
 *
 * The one public header of libcnoise. C99-clean, usable from C++, needs no <stdio.h>.
 *
 * Quick start
 * -----------
 *     cn_config cfg;
 *     cn_noise  gen;                     // opaque storage, no heap (see cn_noise below)
 *     cn_config_init(&cfg);              // Perlin, 2D, default mode, seed 0, frequency 1/64
 *     cfg.seed = 1234;
 *     if (cn_noise_build(&gen, &cfg) != CN_OK) { ... }
 *     static float img[256 * 256];       // one cell every 64 pixels: visible noise at once
 *     cn_grid2f(&gen, 0, 0, 1, 256, 256, img);   // img[y * 256 + x] = noise at pixel (x, y)
 *     double v = cn_eval2(&gen, 10.0, 20.5);     // one point, in [-1, 1]
 *
 * The defaults suit a pixel loop: frequency 1/64 puts a lattice cell every 64 units, so integer
 * pixel coordinates land inside cells (gradient noise is 0 at every lattice point, so frequency 1
 * over integers would give 0 everywhere) and a 256-pixel image shows four cells across. Change
 * cfg.dims for 1D, 3D (volumes, animation through z) or 4D; the cn_evalN call must match it.
 * Misuse is never silent: every call that takes a generator refuses a NULL, unbuilt or zeroed
 * one (CN_E_UNBUILT; NaN from the single-point calls), cn_noise_check says which misuse a NaN
 * came from, and a debug build of the library stops with a message naming it (cn_evalN on a
 * generator of another dimension, for instance).
 *
 * Two modes
 * ---------
 * CN_MODE_DEFAULT (what a new user should want):
 *   - any 64-bit seed, hashed into the lattice with an unsigned 32-bit integer hash; the lattice
 *     index along each axis is floor(coordinate) modulo 2^32, so nothing repeats within 2^32 cells;
 *   - proper gradient sets per dimension (1D: 16 slopes +-k/8; 2D: 8 unit vectors at 22.5 + 45k
 *     degrees; 3D: the 12 cube edges; 4D: the 32 hypercube edges), chosen without bias;
 *   - simplex noise uses radius^2 0.5 in every dimension, so it is continuous everywhere;
 *   - every noise is scaled into [-1, 1] (see "Output range" below);
 *   - values are the same on every instruction set and thread count for a given version, seed and
 *     configuration; before 1.0 a minor version may change them (0.3 did: a cheaper lattice hash),
 *     and CHANGELOG.md says so. Classic-mode values never change.
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
 * gives NaN. Every finite coordinate otherwise gives a finite value, except that a float result
 * whose documented range (cn_noise_range: amplitude and bias) reaches beyond the float range
 * (about +-3.4e38) may round to +-Inf.
 *
 * Threads: there is no global mutable state. A built cn_noise is read-only during evaluation and
 * may be shared by any number of threads.
 */
#ifndef CNOISE_H
#define CNOISE_H

#include <stddef.h>
#include <stdint.h>

/* CN_API marks every public function. The library is built with hidden visibility, so the shared
 * library exports these functions and nothing else. CNOISE_BUILDING is defined while the library
 * itself is compiled (by its CMake targets); consumers define nothing, except that on Windows a
 * program linking the static library defines CNOISE_STATIC (the installed CMake target
 * cnoise::cnoise_static and pkg-config --static --cflags add it), so that no function is declared
 * __declspec(dllimport). */
#if defined(_WIN32) || defined(__CYGWIN__)
#  if defined(CNOISE_STATIC)
#    define CN_API
#  elif defined(CNOISE_BUILDING)
#    define CN_API __declspec(dllexport)
#  else
#    define CN_API __declspec(dllimport)
#  endif
#elif defined(CNOISE_BUILDING) && defined(__GNUC__) && __GNUC__ >= 4
#  define CN_API __attribute__((visibility("default")))
#else
#  define CN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define CN_VERSION_MAJOR 0
#define CN_VERSION_MINOR 5
#define CN_VERSION_PATCH 0
#define CN_VERSION_STRING "0.5.0"

/* Status codes returned by every function that can fail. CN_OK is 0. A function that fails
 * writes nothing through its output pointers, except cn_noise_build (which leaves *out unusable). */
typedef enum cn_status {
    CN_OK = 0,
    CN_E_NULL,        /* a required pointer argument was NULL */
    CN_E_TYPE,        /* cn_config.type is not a cn_noise_type value */
    CN_E_MODE,        /* cn_config.mode is not a cn_mode value */
    CN_E_DIMS,        /* cn_config.dims is not 1..4 */
    CN_E_UNSUPPORTED, /* a valid but unsupported combination (simplex or cellular 1D, classic value noise) */
    CN_E_FREQUENCY,   /* cn_config.frequency is not finite or not > 0 */
    CN_E_RANGE,       /* another numeric argument is out of its documented range */
    CN_E_OVERFLOW,    /* a size computation would overflow */
    CN_E_FRACTAL,     /* cn_config.fractal is not a cn_fractal value */
    CN_E_OCTAVES,     /* cn_config.octaves is not 1..32 */
    CN_E_LACUNARITY,  /* cn_config.lacunarity is not finite in [1, 64] */
    CN_E_GAIN,        /* cn_config.gain is not finite in (0, 4] */
    CN_E_RIDGE,       /* ridge_offset not in [0, 2] or ridge_gain not in [0, 16] */
    CN_E_PERIOD,      /* a period is over 2^24, not a multiple of the simplex constraint, or set
                         on an axis the noise does not have */
    CN_E_DOMAIN,      /* axis_frequency not finite > 0 (or its product with frequency overflows), or an
                         offset or rotation entry not finite */
    CN_E_SIGNAL,      /* amplitude or bias not finite, or 2|amplitude| + |bias| overflows */
    CN_E_CONFLICT,    /* a period combined with a rotation */
    CN_E_LAYERS,      /* layers of a sum have different dimensions, or a count of 0 */
    CN_E_PERIOD_LACUNARITY, /* a period with a non-integer lacunarity (and more than one octave) */
    CN_E_PERIOD_OVERFLOW,   /* the last octave's period (period * lacunarity^i) exceeds 2^32 - 1 */
    CN_E_OCTAVE_FREQUENCY,  /* the last octave's frequency exceeds 2^40 */
    CN_E_OVERLAP,     /* an output buffer overlaps an input buffer */
    CN_E_THREADS,     /* threads is negative or above CN_MAX_THREADS (a thread that cannot start is
                         not an error: the other threads, the calling one included, take its work) */
    CN_E_ISA,         /* an unknown instruction set */
    CN_E_UNBUILT,     /* the generator was not built by a successful cn_noise_build, or has been
                         overwritten since (evaluation refuses it rather than read garbage) */
    CN_E_DEVICE,      /* OpenCL (cn_opencl_*): no runtime, no such device, or the runtime failed
                         (cn_opencl_message and the why buffers say what happened) */
    CN_E_CELLULAR,    /* cell_distance or cell_return not a value of its enum, jitter not in [0, 1],
                         minkowski_p not in [1, 32] with the Minkowski distance, or the edge return
                         with a distance other than Euclidean */
    CN_E_STRENGTH,    /* weighted_strength not in [0, 1] or pingpong_strength not in (0, 16] */
    CN_E_WARP         /* a domain warp (cn_warp): no stage or more than CN_MAX_WARP_STAGES, an unknown
                         mode, an amplitude that is not finite, or a field of another dimension */
} cn_status;

/* A short English description of a status code; never NULL (unknown codes get a generic text). */
CN_API const char *cn_strerror(cn_status status);

/* The library version string, e.g. "0.1.0". */
CN_API const char *cn_version(void);

typedef enum cn_noise_type {
    CN_NOISE_PERLIN = 0,  /* improved gradient noise (quintic fade), 1D-4D */
    CN_NOISE_SIMPLEX = 1, /* simplex noise, 2D-4D */
    CN_NOISE_VALUE = 2,   /* value noise (quintic-faded lattice values), 1D-4D, default mode only */
    CN_NOISE_VALUE_CUBIC = 3, /* cubic value noise (Catmull-Rom through the lattice values of the
                                4^D surrounding points, C1), 1D-4D, default mode only; range [-1, 1] */
    CN_NOISE_CELLULAR = 4, /* cellular (Worley) noise: distances to one jittered feature point per
                              cell (cell_distance, cell_return, jitter), 2D-4D, default mode only;
                              range [-1, 1] */
    CN_NOISE_OPENSIMPLEX2 = 5, /* OpenSimplex2: 2D simplex with 12 lattice-symmetric gradients, 3D
                                  on a rotated body-centred cubic lattice, 4D simplex with 30
                                  lattice-symmetric gradients; 2D-4D, default mode only; range
                                  [-1, 1]; periods in 2D and 4D as simplex's (none in 3D: the 3D
                                  lattice is turned, so no shift along an axis maps it onto itself) */
    CN_NOISE_OPENSIMPLEX2S = 6 /* OpenSimplex2S: OpenSimplex2's lattices and gradients with larger,
                                  smoother kernels (radius^2 2/3 in 2D and 4D, 3/4 in 3D: four,
                                  ten and ten lattice points evaluated per sample); 2D-4D, default
                                  mode only; range [-1, 1]; periods as OpenSimplex2 */
} cn_noise_type;

typedef enum cn_mode {
    CN_MODE_DEFAULT = 0, /* seeded integer-hash lattice, continuous, range [-1, 1] */
    CN_MODE_CLASSIC = 1  /* the published reference code, bit for bit in double precision */
} cn_mode;

typedef enum cn_fractal {
    CN_FRACTAL_NONE = 0,       /* one octave of the base noise */
    CN_FRACTAL_FBM = 1,        /* sum a_i n_i / sum a_i                        range [-1, 1] */
    CN_FRACTAL_TURBULENCE = 2, /* sum a_i |n_i| / sum a_i (Perlin)             range [ 0, 1] */
    CN_FRACTAL_BILLOW = 3,     /* sum a_i (2|n_i| - 1) / sum a_i               range [-1, 1] */
    CN_FRACTAL_RIDGED = 4,     /* Musgrave's ridged multifractal, normalised   range [ 0, 1] */
    CN_FRACTAL_PINGPONG = 5,   /* sum a_i (2 pp((n_i + 1) s) - 1) / sum a_i    range [-1, 1]
                                  (FastNoiseLite's ping-pong: pp(t) = t mod 2 folded into [0, 1],
                                  s = pingpong_strength) */
    CN_FRACTAL_EROSION = 6     /* sum a_i n_i / (1 + |d_i|^2) / sum a_i         range [-1, 1]
                                  (derivative-damped fBm, after Inigo Quilez: d_i = the sum of the
                                  gradients of octaves 0..i, each in its own lattice's units, so
                                  octaves after a steep stretch are damped: smooth valleys, rough
                                  ridges); needs a type with a gradient (not cellular); its own
                                  gradient (cn_eval_grad) takes the octaves' second derivatives */
} cn_fractal;

/* Cellular noise: the distance from a point to the feature points. */
typedef enum cn_cell_distance {
    CN_CELL_EUCLIDEAN = 0,    /* sqrt(sum d_a^2) */
    CN_CELL_EUCLIDEAN_SQ = 1, /* sum d_a^2 */
    CN_CELL_MANHATTAN = 2,    /* sum |d_a| */
    CN_CELL_CHEBYSHEV = 3,    /* max |d_a| */
    CN_CELL_MINKOWSKI = 4     /* (sum |d_a|^p)^(1/p), p = minkowski_p in [1, 32]: 1 is Manhattan's,
                                 2 Euclidean's, and it nears Chebyshev's as p grows; the powers
                                 are evaluated by the library's own exp2/log2 (about 1e-6
                                 relative in float, 1e-14 in double), the same bits everywhere */
} cn_cell_distance;

/* Cellular noise: what it returns, from the nearest (F1) and second-nearest (F2) distances, each
 * mapped into [-1, 1] as 2 v / max - 1 by its bound over every point and jitter (docs/RANGE.md). */
typedef enum cn_cell_return {
    CN_CELL_F1 = 0,          /* distance to the nearest feature point */
    CN_CELL_F2 = 1,          /* distance to the second-nearest */
    CN_CELL_F2_MINUS_F1 = 2, /* F2 - F1: 0 on the borders between cells */
    CN_CELL_F1_PLUS_F2 = 3,  /* F1 + F2 */
    CN_CELL_F1_TIMES_F2 = 4, /* F1 * F2 */
    CN_CELL_VALUE = 5,       /* the nearest cell's own random value, in (-1, 1): flat patches */
    CN_CELL_EDGE = 6         /* distance to the nearest edge of the point's cell (the nearest
                                bisector between its feature point and another): 0 on the edges,
                                unlike F2 - F1 growing at the same rate everywhere; Euclidean
                                distance only (another distance is CN_E_CELLULAR) */
} cn_cell_return;

/* The names of noise types, modes, fractals and the cellular settings, as the command-line tool
 * and the documentation spell them: "perlin", "simplex", "value", "value-cubic", "cellular";
 * "default", "classic"; "none", "fbm", "turbulence", "billow", "ridged", "pingpong"; "euclidean",
 * "euclidean-squared", "manhattan", "chebyshev", "minkowski"; "f1", "f2", "f2-f1", "f1+f2", "f1*f2",
 * "cell-value", "edge". *_name returns NULL for a value outside its enum; the values 0, 1, 2, ...
 * have names up to the first NULL, so a caller can list them. *_from_name matches a name exactly
 * (case-sensitive) and returns CN_E_NULL, or CN_E_TYPE / CN_E_MODE / CN_E_FRACTAL for an unknown
 * name (writing nothing). */
CN_API const char *cn_noise_type_name(cn_noise_type type);
CN_API const char *cn_mode_name(cn_mode mode);
CN_API const char *cn_fractal_name(cn_fractal fractal);
CN_API cn_status cn_noise_type_from_name(const char *name, cn_noise_type *out);
CN_API cn_status cn_mode_from_name(const char *name, cn_mode *out);
CN_API cn_status cn_fractal_from_name(const char *name, cn_fractal *out);
CN_API const char *cn_cell_distance_name(cn_cell_distance distance);
CN_API const char *cn_cell_return_name(cn_cell_return ret);
CN_API cn_status cn_cell_distance_from_name(const char *name, cn_cell_distance *out);
CN_API cn_status cn_cell_return_from_name(const char *name, cn_cell_return *out);

#define CN_MAX_OCTAVES 32
#define CN_MAX_PERIOD 16777216u /* 2^24 cells */

/*
 * Configuration of one noise generator. Fill it with cn_config_init(), change fields, then
 * cn_noise_build(). Fields, defaults and ranges:
 *
 *   type        CN_NOISE_PERLIN   any cn_noise_type
 *   mode        CN_MODE_DEFAULT   any cn_mode
 *   dims        2                 1..4 (simplex: 2..4)
 *   seed        0                 any 64-bit value
 *   frequency   1/64 (0.015625)   finite, > 0: lattice cells per unit of the coordinates
 *
 * Domain (applied to the coordinates p before any lattice lookup, in this order):
 *   axis_frequency[4]  1.0 each   finite, > 0: per-axis frequency, multiplied with `frequency`
 *                                 (the product must be finite too, else CN_E_DOMAIN)
 *   rotate             0          nonzero: apply `rotation` (see cn_config_rotate2/3)
 *   rotation[16]       identity   row-major dims x dims matrix (the first dims*dims entries),
 *                                 finite entries; any linear map is accepted
 *   offset[4]          0.0 each   finite: translation in lattice cells (the "phase")
 *     q = rotation * (p * frequency * axis_frequency) + offset
 *
 * Fractal sum over octaves i = 0 .. octaves-1 (fractal != CN_FRACTAL_NONE); these fields are
 * checked whatever the fractal, also where they are not used:
 *   fractal      CN_FRACTAL_NONE  any cn_fractal
 *   octaves      5                1..32 (not used for CN_FRACTAL_NONE)
 *   lacunarity   2.0              finite, 1..64: octave i samples at q * lacunarity^i
 *   gain         0.5              finite, (0, 4]: octave i has amplitude a_i = gain^i
 *   ridge_offset 1.0              0..2, ridged only: signal = (ridge_offset - |n|)^2
 *   ridge_gain   2.0              0..16, ridged only: weight of the next octave =
 *                                 clamp(signal * ridge_gain, 0, 1) (Musgrave's spectral weighting)
 *   weighted_strength 0.0         0..1, every fractal: octave i + 1's amplitude is also
 *                                 multiplied by 1 + weighted_strength (v_i - 1) for each earlier
 *                                 octave, v_i its value in [0, 1]: (n_i + 1) / 2 for fbm, |n_i|
 *                                 for turbulence and billow, 1 - |n_i| for ridged, the ping-pong
 *                                 value for pingpong (FastNoiseLite's weighted strength). 0 leaves
 *                                 the sums as above; the ranges hold for every value
 *   pingpong_strength 2.0         finite, (0, 16], pingpong only: s above
 *   Octave i uses its own seed, seed + i * 0xD1B54A32D192ED03 (mod 2^64). Octaves whose
 *   amplitude is below 2^-24 of the first are skipped (they cannot change a float result); a
 *   configuration whose last octave's frequency (frequency * axis_frequency * lacunarity^i)
 *   exceeds 2^40 is rejected (CN_E_OCTAVE_FREQUENCY): beyond that, coordinates lose their
 *   position in the cell.
 *
 * Tiling:
 *   period[4]    0 each           0 = not periodic; else a whole number of lattice cells
 *                                 (at the base frequency) after which the noise repeats along
 *                                 that axis, 1..2^24: noise(p + (period[a] / (frequency *
 *                                 axis_frequency[a])) e_a) == noise(p), exactly whenever both
 *                                 points are exactly representable and their scaled coordinates
 *                                 are below 2^53 in magnitude. Octave i repeats after
 *                                 period * lacunarity^i cells, so periods need a whole-number
 *                                 lacunarity (else CN_E_PERIOD_LACUNARITY) and the last octave's
 *                                 period must stay below 2^32 (CN_E_PERIOD_OVERFLOW); periods
 *                                 cannot be combined with a rotation (CN_E_CONFLICT).
 *                                 Simplex noise with any period uses a lattice that tiles along
 *                                 the axes: skew F = 1/dims, unskew G = 1/(2 dims) (3D: the usual
 *                                 1/3, 1/6); the period must then be even in 2D, a multiple of 3
 *                                 in 3D and of 4 in 4D (CN_E_PERIOD otherwise).
 *                                 Classic Perlin wraps the cell index before hashing, as the
 *                                 `repeat` of the seed article does.
 *
 * Signal: the result is amplitude * noise + bias.
 *   amplitude    1.0              finite
 *   bias         0.0              finite; also 2 |amplitude| + |bias| must be finite (at most
 *                                 DBL_MAX), so that every value and the range stay finite
 *
 * Cellular noise (CN_NOISE_CELLULAR; checked whatever the type):
 *   cell_distance  CN_CELL_EUCLIDEAN  any cn_cell_distance
 *   cell_return    CN_CELL_F1         any cn_cell_return
 *   jitter         1.0                0..1: each cell's feature point lies within jitter / 2 of the
 *                                     cell's centre on every axis (0: the centre, a regular grid;
 *                                     1: anywhere in the cell). The search is exact for every
 *                                     jitter: it widens past the 3^D neighbouring cells where a
 *                                     nearer point could lie beyond them.
 *   minkowski_p    1.5                1..32: the exponent of CN_CELL_MINKOWSKI (checked only with
 *                                     that distance, so a zeroed configuration stays valid)
 */
typedef struct cn_config {
    cn_noise_type type;
    cn_mode mode;
    int dims;
    uint64_t seed;
    double frequency;

    double axis_frequency[4];
    int rotate;
    double rotation[16];
    double offset[4];

    cn_fractal fractal;
    int octaves;
    double lacunarity;
    double gain;
    double ridge_offset;
    double ridge_gain;
    double weighted_strength;
    double pingpong_strength;

    uint32_t period[4];

    double amplitude;
    double bias;

    cn_cell_distance cell_distance;
    cn_cell_return cell_return;
    double jitter;
    double minkowski_p;
} cn_config;

/* Fills *cfg with the defaults listed above. NULL is ignored. */
CN_API void cn_config_init(cn_config *cfg);

/* Checks every field of *cfg; returns CN_OK or the status naming the first bad field. */
CN_API cn_status cn_config_check(const cn_config *cfg);

/* The settings of a cn_config, as cn_config_explain names them. */
typedef enum cn_field {
    CN_FIELD_NONE = 0,
    CN_FIELD_TYPE, CN_FIELD_MODE, CN_FIELD_DIMS, CN_FIELD_FREQUENCY, CN_FIELD_AXIS_FREQUENCY,
    CN_FIELD_OFFSET, CN_FIELD_ROTATION, CN_FIELD_FRACTAL, CN_FIELD_OCTAVES, CN_FIELD_LACUNARITY,
    CN_FIELD_GAIN, CN_FIELD_RIDGE_OFFSET, CN_FIELD_RIDGE_GAIN, CN_FIELD_PERIOD, CN_FIELD_AMPLITUDE,
    CN_FIELD_BIAS, CN_FIELD_CELL_DISTANCE, CN_FIELD_CELL_RETURN, CN_FIELD_JITTER, CN_FIELD_WEIGHTED_STRENGTH,
    CN_FIELD_PINGPONG_STRENGTH, CN_FIELD_MINKOWSKI_P
} cn_field;

/* What cn_config_explain found: the status cn_config_check returns, the setting at fault (and a
 * second one it conflicts with), the axis of a per-axis setting, and why, in English. */
typedef struct cn_check {
    cn_status status;
    cn_field field;   /* CN_FIELD_NONE when status is CN_OK or CN_E_NULL */
    cn_field field2;  /* the other setting of a conflict or combination, else CN_FIELD_NONE */
    int axis;         /* 0..3 for axis_frequency, offset and period faults, else -1 */
    char reason[256]; /* e.g. "3 (axis x) does not suit simplex noise in 2D: simplex periods must
                         be even in 2D, multiples of 3 in 3D and multiples of 4 in 4D"; it does
                         not name field, so a caller can put its own name for it in front
                         ("--period: ..."); "" when status is CN_OK */
} cn_check;

/* cn_config_check, telling where and why: fills *out and returns out->status. cfg NULL: status
 * CN_E_NULL in *out; out NULL: returns CN_E_NULL and writes nothing. */
CN_API cn_status cn_config_explain(const cn_config *cfg, cn_check *out);

/* Periods of this noise type and dimension must be multiples of the returned number: dims for
 * simplex noise (its tiling lattice) and for OpenSimplex2 and 2S in 2D and 4D (the same lattices),
 * 1 otherwise; 0 for a type or dimension out of range. (OpenSimplex2 and 2S in 3D take no period:
 * cn_config_check refuses one with CN_E_PERIOD: its lattice is turned, no shift along
 * an axis maps it onto itself.) */
CN_API uint32_t cn_period_multiple(cn_noise_type type, int dims);

/* Sets a 2D rotation by `angle` radians (counter-clockwise) and rotate = 1. Needs dims 2.
 * Returns CN_E_NULL, CN_E_DIMS (dims is not 2) or CN_E_DOMAIN (angle not finite). */
CN_API cn_status cn_config_rotate2(cn_config *cfg, double angle);

/* Sets a 3D rotation by `angle` radians about the axis (ax, ay, az) (normalised here; right-hand
 * rule) and rotate = 1. Needs dims 3. CN_E_DOMAIN for a zero or non-finite axis or angle. */
CN_API cn_status cn_config_rotate3(cn_config *cfg, double ax, double ay, double az, double angle);

/*
 * A built generator: the configuration plus everything derived from it (per-octave lattice keys
 * and permutations, the combined domain transform, normalisation). Opaque storage of
 * CN_NOISE_SIZE bytes owned by the caller: declare one on the stack, in a struct or in an array,
 * build it with cn_noise_build, copy it freely (a copy is a built generator too); no heap. Its
 * contents are private to the library and may change between versions; its size and alignment
 * are part of the ABI (a change of either changes the SOVERSION). A cn_noise that was never
 * built, was zeroed, or whose build failed is refused by every call that takes one
 * (CN_E_UNBUILT, or NaN from the single-point calls).
 */
#define CN_NOISE_SIZE 16384
typedef struct cn_noise {
    union {
        unsigned char bytes[CN_NOISE_SIZE];
        double align_double;
        uint64_t align_u64;
        void *align_pointer;
    } opaque;
} cn_noise;

/* Validates *cfg (as cn_config_check) and builds *out from it. On error *out is left unbuilt
 * (refused by every call). cfg may point into *out (cn_noise_config's copy). */
CN_API cn_status cn_noise_build(cn_noise *out, const cn_config *cfg);

/* The configuration a generator was built from; NULL for NULL or a generator that is not built. */
CN_API const cn_config *cn_noise_config(const cn_noise *gen);

/* Checks that gen is a built generator of dimension dims (0: any dimension): CN_OK, CN_E_NULL,
 * CN_E_UNBUILT, or CN_E_DIMS when its dimension is another. The evaluation calls run the same
 * check; this one says which misuse it was. */
CN_API cn_status cn_noise_check(const cn_noise *gen, int dims);

/*
 * Evaluates the noise at one point. p holds as many coordinates as the generator has dimensions.
 * Returns NaN if gen or p is NULL, if gen was not built, or for non-finite input (see above).
 */
CN_API double cn_eval(const cn_noise *gen, const double *p);
CN_API float cn_evalf(const cn_noise *gen, const float *p);

/* Fixed-dimension conveniences: return NaN if gen is NULL, not built, or of another dimension
 * (cn_noise_check tells which). */
CN_API double cn_eval1(const cn_noise *gen, double x);
CN_API double cn_eval2(const cn_noise *gen, double x, double y);
CN_API double cn_eval3(const cn_noise *gen, double x, double y, double z);
CN_API double cn_eval4(const cn_noise *gen, double x, double y, double z, double w);
CN_API float cn_eval1f(const cn_noise *gen, float x);
CN_API float cn_eval2f(const cn_noise *gen, float x, float y);
CN_API float cn_eval3f(const cn_noise *gen, float x, float y, float z);
CN_API float cn_eval4f(const cn_noise *gen, float x, float y, float z, float w);

/*
 * Superposition (a weighted sum of configured noises, as a sum of waves):
 *   value(p) = sum over k of layers[k].weight * cn_eval(layers[k].noise, p)
 * Every layer's noise must be built with the same dims. Writes the sum to *out.
 * Returns CN_E_NULL (layers, p or out NULL, or a layer's noise NULL), CN_E_UNBUILT (a layer's
 * noise was not built), CN_E_LAYERS (count 0 or dims differ), CN_E_SIGNAL (a weight not finite); NaN
 * coordinates give a NaN sum.
 */
typedef struct cn_layer {
    const cn_noise *noise;
    double weight;
} cn_layer;
CN_API cn_status cn_layers_eval(const cn_layer *layers, size_t count, const double *p, double *out);
/* The same with float coordinates and result: each layer's cn_evalf value, weighted and summed in
 * double in layer order from 0, the sum rounded to float (beyond the largest float: an infinity). */
CN_API cn_status cn_layers_evalf(const cn_layer *layers, size_t count, const float *p, float *out);
/* The documented range of the sum: the sum of the weighted layer ranges (cn_noise_range), as
 * midpoint sum(w * mid) and half-width sum(|w| * half). The statuses of cn_layers_eval, and
 * CN_E_SIGNAL when the range is not finite. */
CN_API cn_status cn_layers_range(const cn_layer *layers, size_t count, double range[2]);

/*
 * The documented output range of a built generator, [range[0], range[1]]: the base noise's
 * range (default mode [-1, 1]; classic: Perlin 1D-3D +-1.0363538112118029 (the supremum of
 * improved noise), Perlin 4D +-1.5365823340468201 (a bound: Perlin's printed 4D gradients are a
 * subset of the 32 edges), simplex [-1, 1]), or the fractal's ([-1, 1] for fbm and billow, [0, 1]
 * for turbulence and ridged), mapped through amplitude * v + bias. Values never leave it except
 * classic-mode simplex, whose measured maxima are 0.998 (2D), 0.979 (3D), 0.992 (4D).
 * Returns CN_E_NULL for NULL arguments, CN_E_UNBUILT for a generator that was not built.
 */
CN_API cn_status cn_noise_range(const cn_noise *gen, double range[2]);

/*
 * How far into the lattice a region reaches: for points with |p[a]| <= extent[a] (one entry per
 * dimension), the largest |lattice coordinate| of any octave, that is of
 * lacunarity^i * (rotation * (p * frequency * axis_frequency) + offset), bounded axis by axis with
 * the absolute values of the rotation's entries. CN_OK with *reach finite; CN_E_DOMAIN when it is
 * not (points that far give NaN: a caller can refuse such a region before evaluating it), with
 * *reach = +Inf; CN_E_RANGE for an extent that is negative or NaN; CN_E_NULL, CN_E_UNBUILT.
 */
CN_API cn_status cn_noise_reach(const cn_noise *gen, const double *extent, double *reach);

/* The number of octaves a configuration evaluates: 1 without a fractal, otherwise `octaves` less
 * those whose amplitude gain^i is below 2^-24 (skipped). 0 for NULL. The fields it reads (fractal,
 * octaves, gain) are not validated here. */
CN_API int cn_config_octaves(const cn_config *cfg);

/* ---------------------------------------------------------------------------------------------
 * Batch evaluation
 *
 * Grids and arrays of points, evaluated by the best instruction set the CPU supports (see
 * cn_isa_*) on any number of threads. Every instruction set and every thread count returns the
 * same bits as the scalar build (the default build has no FMA contraction and no approximations).
 * The float variants run the float kernels on double coordinates: grid coordinates are computed
 * in double, float point arrays are widened to double, exactly as cn_evalf widens its input.
 *
 * threads: 0 = one per online CPU core, 1 = only the calling thread, otherwise that many
 * (at most CN_MAX_THREADS). Small jobs use fewer threads. No memory is allocated in proportion
 * to the output; the caller owns every buffer. A call needs at most 160 KiB of the calling
 * thread's stack (grid rows keep a 32 KiB table of a block of columns there; at most 139 KiB
 * measured with gcc 12 and clang 14 on every x86 instruction set, gradient, curl and warp calls
 * included, tests/test_stack.c), and so does each
 * thread it starts: those ask for a stack of at least 1 MiB.
 * range: if not NULL, receives the smallest and largest non-NaN output (NaN, NaN if there is
 * none).
 * --------------------------------------------------------------------------------------------- */

#define CN_MAX_THREADS 256

/*
 * A grid of count[0] x count[1] x ... points (one axis per dimension of gen), x fastest: the
 * point with indices (i0, i1, i2, i3) is at origin[a] + ia * step[a] (computed per point, never
 * accumulated) and its result goes to out[i0 + count[0] * (i1 + count[1] * (i2 + count[2] * i3))].
 * out_len is the number of elements in out; it must be at least the product of the counts.
 * Returns CN_E_NULL, CN_E_UNBUILT (a generator that was not built), CN_E_RANGE (a count of 0,
 * out_len too small, a non-finite origin or step), CN_E_OVERFLOW (the product of the counts, or its size in bytes,
 * overflows size_t), CN_E_OVERLAP (out overlaps *gen), CN_E_THREADS. origin, step and count are
 * read before anything is written, so out may overlap them.
 */
CN_API cn_status cn_grid_eval(const cn_noise *gen, const double *origin, const double *step,
                              const size_t *count, double *out, size_t out_len, int threads,
                              double range[2]);
CN_API cn_status cn_grid_evalf(const cn_noise *gen, const double *origin, const double *step,
                               const size_t *count, float *out, size_t out_len, int threads,
                               float range[2]);

/*
 * The common case in one call: a width x height float image of a 2D generator, row by row
 * (pixel (x, y) at out[y * width + x], sampled at (x0 + x * step, y0 + y * step)); and an
 * nx x ny x nz float volume of a 3D generator (out[(z * ny + y) * nx + x]). out must hold the
 * product of the sizes. Exactly cn_grid_evalf with origin {x0, y0(, z0)}, the same step on every
 * axis, one thread per core and no range, after checking the generator's dimension: its
 * statuses, and CN_E_DIMS for a generator of another dimension (cn_noise_check).
 */
CN_API cn_status cn_grid2f(const cn_noise *gen, double x0, double y0, double step, size_t width, size_t height,
                           float *out);
CN_API cn_status cn_grid3f(const cn_noise *gen, double x0, double y0, double z0, double step, size_t nx, size_t ny,
                           size_t nz, float *out);

/*
 * Grids of a superposition: every point is what cn_layers_eval (double) or cn_layers_evalf
 * (float: each layer's float value) gives there, on the grid of cn_grid_eval. The statuses of
 * cn_layers_eval and cn_grid_eval; CN_E_OVERLAP also when out overlaps the layers array. No
 * memory is allocated: the layers are evaluated block by block into buffers on the stack.
 */
CN_API cn_status cn_layers_grid_eval(const cn_layer *layers, size_t nlayers, const double *origin,
                                     const double *step, const size_t *count, double *out,
                                     size_t out_len, int threads, double range[2]);
CN_API cn_status cn_layers_grid_evalf(const cn_layer *layers, size_t nlayers, const double *origin,
                                      const double *step, const size_t *count, float *out,
                                      size_t out_len, int threads, float range[2]);

/*
 * n points whose coordinates are coords[0][i], coords[1][i], ... (one array per axis, dims
 * arrays); result i goes to out[i]. n = 0 is allowed and does nothing. Returns CN_E_NULL,
 * CN_E_UNBUILT (not built), CN_E_OVERLAP (out overlaps a coordinate array or *gen),
 * CN_E_OVERFLOW (n too large for the buffers' byte size), CN_E_THREADS.
 */
CN_API cn_status cn_points_eval(const cn_noise *gen, size_t n, const double *const *coords,
                                double *out, int threads, double range[2]);
CN_API cn_status cn_points_evalf(const cn_noise *gen, size_t n, const float *const *coords,
                                 float *out, int threads, float range[2]);

/* ---------------------------------------------------------------------------------------------
 * Value and gradient (analytic derivatives)
 *
 * The value together with its partial derivatives by the input coordinates (the coordinates the
 * caller passes, before frequency, axis frequencies, rotation and offset): exact derivatives of
 * the computed formula by the chain rule through the domain transform, every octave of the
 * fractal sum (lacunarity^i on octave i, periods included) and the signal transform (times
 * amplitude). Every noise type but cellular, both modes, 1D-4D, every fractal (erosion's by the
 * chain rule through its damping: each octave's second derivatives, exact to rounding like the
 * first ones). The value is the one
 * cn_eval / cn_evalf / cn_grid_eval... give, bit for bit; the gradient has the same bits on
 * every instruction set, thread count and call (single point, grid, points).
 * Where the formula has a kink the derivative is that of the piece the value was computed by:
 * |n| (turbulence, billow, ridged) has derivative sign(n) n' with sign(0) = 0; the ridged
 * weight's clamp, where it bites, has derivative 0; ping-pong takes the slope of its stretch.
 * The final clamps into the fractal's range are against rounding only and are not differentiated.
 * Classic 3D/4D simplex noise (radius^2 0.6 as published) jumps slightly where a corner's radius
 * reaches past its simplex; between the jumps its gradient is exact.
 * Float variants compute the gradient in float arithmetic (relative error a few float ulps of
 * the largest term; frequencies near 2^40 can overflow it to infinity).
 * A point with a non-finite coordinate gets NaN in the value and every component.
 * --------------------------------------------------------------------------------------------- */

/* One point: returns the value (as cn_eval) and writes its dims partial derivatives to
 * grad[0..dims) (grad may be NULL). NaN, and NaN in grad where the generator is built, when gen
 * or p is NULL, gen is not built, or it has no gradient (cellular). */
CN_API double cn_eval_grad(const cn_noise *gen, const double *p, double *grad);
CN_API float cn_evalf_grad(const cn_noise *gen, const float *p, float *grad);

/*
 * A grid as cn_grid_eval: the value of point i to out[i], its derivative along axis a to
 * grad[a][i] (one array per axis, dims arrays, each of at least as many elements as out).
 * The statuses of cn_grid_eval, and CN_E_NULL (grad or one of its arrays NULL), CN_E_UNSUPPORTED
 * (no gradient: cellular noise), CN_E_OVERLAP (an array overlaps out,
 * another one or *gen).
 */
CN_API cn_status cn_grid_eval_grad(const cn_noise *gen, const double *origin, const double *step,
                                   const size_t *count, double *out, double *const *grad,
                                   size_t out_len, int threads);
CN_API cn_status cn_grid_evalf_grad(const cn_noise *gen, const double *origin, const double *step,
                                    const size_t *count, float *out, float *const *grad,
                                    size_t out_len, int threads);

/* n points as cn_points_eval, with the gradient as in cn_grid_eval_grad (grad[a] holds n
 * elements and must not overlap a coordinate array either). */
CN_API cn_status cn_points_eval_grad(const cn_noise *gen, size_t n, const double *const *coords,
                                     double *out, double *const *grad, int threads);
CN_API cn_status cn_points_evalf_grad(const cn_noise *gen, size_t n, const float *const *coords,
                                      float *out, float *const *grad, int threads);

/* A superposition's value and gradient: cn_layers_eval's sum, and in grad[0..dims) the weighted
 * sum of the layers' cn_eval_grad derivatives in layer order (double). The float variant sums
 * each layer's cn_evalf_grad results in double and rounds value and components to float once.
 * The statuses of cn_layers_eval, and CN_E_NULL for grad NULL, CN_E_UNSUPPORTED for a layer
 * without a gradient (cellular). */
CN_API cn_status cn_layers_eval_grad(const cn_layer *layers, size_t count, const double *p, double *out,
                                     double *grad);
CN_API cn_status cn_layers_evalf_grad(const cn_layer *layers, size_t count, const float *p, float *out,
                                      float *grad);

/*
 * Curl noise: a divergence-free vector field (for particles, smoke, fluids) from potential noises
 * and their analytic derivatives.
 *   2D: psi[0] is one 2D generator, v = (d psi/dy, -d psi/dx) (the gradient turned by -90
 *       degrees: v runs along the contour lines of psi).
 *   3D: psi[0..2] are three 3D generators (decorrelated: e.g. the same configuration with three
 *       seeds), v = curl(psi1, psi2, psi3) = (d psi3/dy - d psi2/dz, d psi1/dz - d psi3/dx,
 *       d psi2/dx - d psi1/dy).
 * Exactly these differences of cn_eval_grad's (cn_evalf_grad's) derivatives. Returns CN_E_NULL
 * (psi, a potential, p or v NULL), CN_E_UNBUILT, CN_E_DIMS (psi[0] neither 2D nor 3D, or the
 * potentials' dimensions differ), CN_E_UNSUPPORTED (a potential without a gradient: cellular).
 */
CN_API cn_status cn_curl(const cn_noise *const *psi, const double *p, double *v);
CN_API cn_status cn_curlf(const cn_noise *const *psi, const float *p, float *v);
/* The curl on a grid as cn_grid_eval: component a of point i to v[a][i] (dims arrays). The
 * statuses above and cn_grid_eval's (out_len: the length of each v[a]); CN_E_OVERLAP when arrays
 * overlap each other, a potential or psi. */
CN_API cn_status cn_grid_curl(const cn_noise *const *psi, const double *origin, const double *step,
                              const size_t *count, double *const *v, size_t out_len, int threads);
CN_API cn_status cn_grid_curlf(const cn_noise *const *psi, const double *origin, const double *step,
                               const size_t *count, float *const *v, size_t out_len, int threads);

/* ---------------------------------------------------------------------------------------------
 * Domain warp
 *
 * A generator sampled at displaced coordinates, gen(p + d(p)), the displacement made of other
 * noises, one per axis (FastNoiseLite's domain warp; Quilez's "warping"). A warp is a list of
 * 1..CN_MAX_WARP_STAGES stages; stage s moves the point by amplitude_s * (field_s[0](x), ...,
 * field_s[dims-1](x)), where x is
 *   CN_WARP_INDEPENDENT  the original point: the stages' displacements add up ("independent");
 *   CN_WARP_PROGRESSIVE  the point as the stages before s left it ("progressive": each stage warps
 *                        the warped coordinates).
 * A single warp is one stage; a fractal warp is one stage of fractal fields (independent), or
 * stages of rising frequency and falling amplitude (progressive: FastNoiseLite's progressive warp
 * is stage i with frequency * lacunarity^i, amplitude * gain^i and seed + i). Fields are any built
 * generators of gen's dimension (any type, fractal, period or signal; decorrelate the axes by
 * seed), amplitudes are in the units of the coordinates, so the displacement is at most
 * sum |amplitude_s| * (the fields' largest |value|, 1 for default ranges).
 * Evaluation, in double (float calls: the fields' and gen's float kernels, combined in double):
 *   1. on each periodic axis a of gen, p[a] is reduced first, to u mod P / s in [0, P / s), with
 *      s = frequency * axis_frequency[a], u = p[a] * s and P = period[a], exactly as gen reduces
 *      its own coordinates: so a warped generator repeats exactly where gen does (the same
 *      condition: both points and their scaled coordinates exact), whatever the fields. The
 *      result is seamless too when every field repeats after the same P / s on that axis (a field
 *      of frequency f_w: period P * f_w / s cells, a whole number);
 *   2. the stages in order, each field evaluated at its stage's x, x[a] + amplitude * value added
 *      to the point in double;
 *   3. gen at the final point.
 * Every instruction set, thread count and call (grid, points, one point) gives the same bits.
 * A point whose coordinates, or displaced coordinates, are not finite gives NaN.
 * Gradient (grad not NULL): the derivatives by the original coordinates, by the chain rule
 * through every stage (the fields' analytic Jacobians) and gen's own gradient; needs gen and
 * every field to have one (not cellular: CN_E_UNSUPPORTED). The reduction of step 1
 * has derivative 1.
 * --------------------------------------------------------------------------------------------- */

#define CN_MAX_WARP_STAGES 16

typedef enum cn_warp_mode {
    CN_WARP_INDEPENDENT = 0, /* the fields at the original point */
    CN_WARP_PROGRESSIVE = 1  /* the fields at the point the earlier stages displaced */
} cn_warp_mode;

/* One stage of a warp. field[0..dims) are read (the rest may be NULL). */
typedef struct cn_warp {
    const cn_noise *field[4]; /* the displacement along axis a is amplitude * field[a] */
    double amplitude;         /* finite; 0 leaves the point where it is */
    cn_warp_mode mode;
} cn_warp;

/* Checks a warp of nwarps stages for gen: CN_OK, or CN_E_NULL, CN_E_UNBUILT (gen or a field),
 * CN_E_WARP (see its comment). The evaluation calls make the same checks. */
CN_API cn_status cn_warp_check(const cn_noise *gen, const cn_warp *warps, size_t nwarps);

/*
 * One point: the warped value to *out and, when grad is not NULL, its dims derivatives to
 * grad[0..dims). The statuses of cn_warp_check, CN_E_NULL (p or out NULL) and CN_E_UNSUPPORTED
 * (grad wanted, and gen or a field has no gradient); on error nothing is written.
 */
CN_API cn_status cn_warp_eval(const cn_noise *gen, const cn_warp *warps, size_t nwarps, const double *p,
                              double *out, double *grad);
CN_API cn_status cn_warp_evalf(const cn_noise *gen, const cn_warp *warps, size_t nwarps, const float *p,
                               float *out, float *grad);

/*
 * A grid as cn_grid_eval and n points as cn_points_eval, warped; grad: NULL, or dims arrays of
 * the gradient as cn_grid_eval_grad. The statuses of those calls and of cn_warp_eval;
 * CN_E_OVERLAP also when an output overlaps warps or a field. Points go block by block through
 * buffers on the stack (no memory is allocated); grids lose their row kernels (every point is
 * displaced on its own), so a warped grid costs about the fields' and gen's point evaluations.
 */
CN_API cn_status cn_warp_grid_eval(const cn_noise *gen, const cn_warp *warps, size_t nwarps,
                                   const double *origin, const double *step, const size_t *count,
                                   double *out, double *const *grad, size_t out_len, int threads,
                                   double range[2]);
CN_API cn_status cn_warp_grid_evalf(const cn_noise *gen, const cn_warp *warps, size_t nwarps,
                                    const double *origin, const double *step, const size_t *count,
                                    float *out, float *const *grad, size_t out_len, int threads,
                                    float range[2]);
CN_API cn_status cn_warp_points_eval(const cn_noise *gen, const cn_warp *warps, size_t nwarps, size_t n,
                                     const double *const *coords, double *out, double *const *grad,
                                     int threads, double range[2]);
CN_API cn_status cn_warp_points_evalf(const cn_noise *gen, const cn_warp *warps, size_t nwarps, size_t n,
                                      const float *const *coords, float *out, float *const *grad,
                                      int threads, float range[2]);

/*
 * Warped layers: the weighted sum of layers (cn_layers_eval) each warped by the same stages, as
 * its own cn_warp_* call gives it (step 1 reduces by that layer's own periods); summed in double
 * in layer order from 0, and for the float calls of the float values and gradients those calls
 * give, rounded to float once (the command-line tool's --layer with --warp). One point, a grid and
 * a point array, with the arguments of cn_warp_eval, cn_warp_grid_eval and cn_warp_points_eval
 * after the layers; their statuses and cn_layers_eval's for the layers (CN_E_LAYERS: none, or
 * dimensions that differ; each layer is checked with the warp as cn_warp_check does);
 * CN_E_OVERLAP also when an output overlaps the layers or their generators. The stages run once
 * per block of points for consecutive layers that reduce alike (the same periods and scales).
 */
CN_API cn_status cn_warp_layers_eval(const cn_layer *layers, size_t nlayers, const cn_warp *warps, size_t nwarps,
                                     const double *p, double *out, double *grad);
CN_API cn_status cn_warp_layers_evalf(const cn_layer *layers, size_t nlayers, const cn_warp *warps, size_t nwarps,
                                      const float *p, float *out, float *grad);
CN_API cn_status cn_warp_layers_grid_eval(const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                                          size_t nwarps, const double *origin, const double *step,
                                          const size_t *count, double *out, double *const *grad,
                                          size_t out_len, int threads, double range[2]);
CN_API cn_status cn_warp_layers_grid_evalf(const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                                           size_t nwarps, const double *origin, const double *step,
                                           const size_t *count, float *out, float *const *grad,
                                           size_t out_len, int threads, float range[2]);
CN_API cn_status cn_warp_layers_points_eval(const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                                            size_t nwarps, size_t n, const double *const *coords, double *out,
                                            double *const *grad, int threads, double range[2]);
CN_API cn_status cn_warp_layers_points_evalf(const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                                             size_t nwarps, size_t n, const float *const *coords, float *out,
                                             float *const *grad, int threads, float range[2]);

/* ---------------------------------------------------------------------------------------------
 * Instruction sets. The library picks the widest one the CPU and OS support the first time it
 * evaluates a batch; the environment variable CNOISE_ISA=scalar|sse2|avx2|avx512|neon caps it,
 * and so does cn_isa_set_cap (which wins over the environment). A cap is a register width, the
 * same on every architecture: scalar, then sse2 and neon (128 bits; in a WebAssembly build SIMD128
 * takes neon's place), avx2 (256), avx512 (512); the
 * active set is the widest supported one no wider than the cap (CNOISE_ISA=neon on x86 gives sse2,
 * avx2 on ARM gives neon). The single-point functions evaluate one point at a time; on x86 they
 * use a build of their own with AVX encoding where the CPU has AVX, except under a cap of scalar.
 * Every choice gives the same bits. Thread-safe.
 * --------------------------------------------------------------------------------------------- */

typedef enum cn_isa {
    CN_ISA_SCALAR = 0,
    CN_ISA_SSE2 = 1,
    CN_ISA_AVX2 = 2,   /* with FMA available but unused in strict builds */
    CN_ISA_AVX512 = 3, /* AVX-512 F, DQ, BW, VL */
    CN_ISA_NEON = 4,   /* 64-bit ARM; in a WebAssembly build, SIMD128 (named "simd128") */
    CN_ISA_COUNT = 5
} cn_isa;

/* "scalar", "sse2", "avx2", "avx512", "neon" ("simd128" in a WebAssembly build); "unknown"
 * otherwise. */
CN_API const char *cn_isa_name(cn_isa isa);
/* Whether this build contains code for isa (compiled) and whether this CPU and OS can run it. */
CN_API int cn_isa_compiled(cn_isa isa);
CN_API int cn_isa_supported(cn_isa isa);
/* The instruction set batch calls use now: the widest supported one no wider than the cap. */
CN_API cn_isa cn_isa_active(void);
/* Caps the instruction set (CN_ISA_COUNT removes the cap, back to the environment's or none).
 * CN_E_ISA for a value outside 0..CN_ISA_COUNT. */
CN_API cn_status cn_isa_set_cap(cn_isa cap);

/* ---------------------------------------------------------------------------------------------
 * OpenCL: the same kernels on a GPU (or any OpenCL device), the same bits as the CPU
 *
 * The kernel sources of the CPU builds are compiled as OpenCL C, one point per work-item, with
 * no contraction into fused multiply-adds and no approximate functions, so every result is
 * bit-identical to the CPU batch calls (cn_grid_eval[f], cn_points_eval[f]) on the same
 * arguments. The library links no OpenCL library: the first call loads the OpenCL ICD loader
 * (libOpenCL.so.1; OpenCL.dll on Windows) at run time, and without one every call here reports
 * CN_E_DEVICE and says why, while the rest of the library works as before.
 *
 * Devices need double precision (cl_khr_fp64), also for float results: the lattice cell of every
 * point is computed in double, as on the CPU. A device without it is listed but cannot be opened
 * (CN_E_UNSUPPORTED).
 *
 * A context (cn_opencl) holds one device, its queue, and the compiled program: the program is
 * compiled once per context and precision, at the first call that needs it (seconds: the
 * runtime's compiler; runtimes such as PoCL also keep compiled programs in a disk cache). Open
 * one context and keep it. A context may be used by one thread at a time; threads that evaluate
 * at once need a context each. Evaluation allocates device memory (and the context some host
 * memory); the caller owns every host buffer, as with the CPU calls.
 * why, why_size: optional (NULL, 0); on failure receives a sentence saying what went wrong,
 * cut to why_size bytes with a terminating NUL.
 * --------------------------------------------------------------------------------------------- */

typedef struct cn_opencl cn_opencl; /* opaque */

typedef enum cn_device_type {
    CN_DEVICE_OTHER = 0,
    CN_DEVICE_CPU = 1,
    CN_DEVICE_GPU = 2,
    CN_DEVICE_ACCELERATOR = 3
} cn_device_type;

/* What the runtime says about a device (strings cut to fit, NUL-terminated). */
typedef struct cn_opencl_device {
    char platform[64];   /* the platform's name, e.g. "NVIDIA CUDA", "Portable Computing Language" */
    char name[128];      /* the device's name */
    char version[64];    /* its CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA" */
    cn_device_type type;
    int fp64;            /* 1 when it reports cl_khr_fp64 (needed to open it) */
    unsigned compute_units;
    uint64_t memory;     /* global memory, bytes */
} cn_opencl_device;

/* Device choices for cn_opencl_open besides an index of cn_opencl_devices. */
#define CN_OPENCL_ANY (-1) /* the first usable GPU, else the first usable device of any type */
#define CN_OPENCL_GPU (-2) /* the first usable GPU; CN_E_DEVICE when there is none */

/*
 * Lists the OpenCL devices of every platform, in platform order: *count receives how many there
 * are, and the first min(count, cap) go to out (out may be NULL when cap is 0). Returns CN_OK
 * (also for 0 devices), CN_E_NULL (count NULL, or out NULL with cap > 0), or CN_E_DEVICE when no
 * OpenCL runtime can be loaded or it fails (*count = 0).
 */
CN_API cn_status cn_opencl_devices(cn_opencl_device *out, size_t cap, size_t *count, char *why,
                                   size_t why_size);

/*
 * Opens device `device` (an index of cn_opencl_devices, CN_OPENCL_ANY or CN_OPENCL_GPU): *out
 * receives a context to pass to the calls below and to cn_opencl_close. Nothing is compiled yet.
 * Returns CN_OK, CN_E_NULL (out NULL), CN_E_RANGE (another negative value, or an index past the
 * list), CN_E_UNSUPPORTED (that device has no cl_khr_fp64), CN_E_DEVICE (no runtime, no usable
 * device, or the runtime failed); on failure *out is NULL.
 */
CN_API cn_status cn_opencl_open(cn_opencl **out, int device, char *why, size_t why_size);

/* Releases a context and everything it holds on the device; NULL does nothing. */
CN_API void cn_opencl_close(cn_opencl *cl);

/* The device of a context: CN_OK, or CN_E_NULL. */
CN_API cn_status cn_opencl_info(const cn_opencl *cl, cn_opencl_device *out);

/* What went wrong in the context's last call that returned CN_E_DEVICE (the runtime's error
 * code, or the compiler's log when the program did not build); "" when nothing did. NULL: "". */
CN_API const char *cn_opencl_message(const cn_opencl *cl);

/*
 * cn_grid_eval, cn_grid_evalf, cn_points_eval and cn_points_evalf on the context's device: the
 * same arguments (less threads), the same statuses, the same bits in out and range, plus
 * CN_E_NULL for cl NULL and CN_E_DEVICE when the device fails (out may then be partly written;
 * cn_opencl_message says why). The first call of each precision compiles the program.
 */
CN_API cn_status cn_opencl_grid_eval(cn_opencl *cl, const cn_noise *gen, const double *origin,
                                     const double *step, const size_t *count, double *out,
                                     size_t out_len, double range[2]);
CN_API cn_status cn_opencl_grid_evalf(cn_opencl *cl, const cn_noise *gen, const double *origin,
                                      const double *step, const size_t *count, float *out,
                                      size_t out_len, float range[2]);
CN_API cn_status cn_opencl_points_eval(cn_opencl *cl, const cn_noise *gen, size_t n,
                                       const double *const *coords, double *out, double range[2]);
CN_API cn_status cn_opencl_points_evalf(cn_opencl *cl, const cn_noise *gen, size_t n,
                                        const float *const *coords, float *out, float range[2]);

#ifdef __cplusplus
}
#endif

#endif /* CNOISE_H */
