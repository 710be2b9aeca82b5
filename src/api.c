/* api.c -- configuration, generator building and the single-point entry points. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cnoise.h"
#include "core/core.h"
#include "dispatch.h"
#include "misuse.h"

const char *cn_version(void) { return CN_VERSION_STRING; }

/* Names of the noise types, modes and fractals (registry.h): value to name, name to value. */
#define CN_NAME_CASE(VALUE, NAME) \
    case VALUE:                   \
        return NAME;
#define CN_NAME_MATCH(VALUE, NAME) \
    if (strcmp(name, NAME) == 0) { \
        *out = VALUE;              \
        return CN_OK;              \
    }
#define CN_NAME_FUNCTIONS(T, LIST, STATUS)                     \
    const char *T##_name(T value)                              \
    {                                                          \
        switch ((int)value) {                                  \
            LIST(CN_NAME_CASE)                                 \
        }                                                      \
        return NULL;                                           \
    }                                                          \
    cn_status T##_from_name(const char *name, T *out)          \
    {                                                          \
        if (!name || !out)                                     \
            return CN_E_NULL;                                  \
        LIST(CN_NAME_MATCH)                                    \
        return STATUS;                                         \
    }
CN_NAME_FUNCTIONS(cn_noise_type, CN_NOISE_TYPE_NAMES, CN_E_TYPE)
CN_NAME_FUNCTIONS(cn_mode, CN_MODE_NAMES, CN_E_MODE)
CN_NAME_FUNCTIONS(cn_fractal, CN_FRACTAL_NAMES, CN_E_FRACTAL)
CN_NAME_FUNCTIONS(cn_cell_distance, CN_CELL_DISTANCE_NAMES, CN_E_CELLULAR)
CN_NAME_FUNCTIONS(cn_cell_return, CN_CELL_RETURN_NAMES, CN_E_CELLULAR)
#undef CN_NAME_FUNCTIONS
#undef CN_NAME_MATCH
#undef CN_NAME_CASE

const char *cn_strerror(cn_status status)
{
    switch (status) {
    case CN_OK: return "success";
    case CN_E_NULL: return "a required pointer argument is NULL";
    case CN_E_TYPE: return "unknown noise type";
    case CN_E_MODE: return "unknown mode";
    case CN_E_DIMS: return "dimension must be 1 to 4";
    case CN_E_UNSUPPORTED: return "unsupported combination of noise type, mode and dimension (simplex and cellular noise need 2 to 4 dimensions, OpenSimplex2 and 2S 2 or 3; only Perlin and simplex have a classic mode), or a gradient that is not there (cellular noise has none)";
    case CN_E_FREQUENCY: return "frequency must be finite and greater than 0";
    case CN_E_RANGE: return "argument out of range";
    case CN_E_OVERFLOW: return "size computation overflows";
    case CN_E_FRACTAL: return "unknown fractal type";
    case CN_E_OCTAVES: return "octaves must be 1 to 32";
    case CN_E_LACUNARITY: return "lacunarity must be finite, from 1 to 64";
    case CN_E_GAIN: return "gain must be finite, greater than 0 and at most 4";
    case CN_E_RIDGE: return "ridge offset must be in [0, 2] and ridge gain in [0, 16]";
    case CN_E_PERIOD: return "period must be 0 (none) or 1 to 2^24 cells, only on the noise's axes; simplex periods must be even in 2D, multiples of 3 in 3D, of 4 in 4D";
    case CN_E_DOMAIN: return "axis frequencies must be finite and greater than 0 (times the frequency too); offsets and rotation entries finite";
    case CN_E_SIGNAL: return "amplitude, bias and weights must be finite, and 2 |amplitude| + |bias| too";
    case CN_E_CONFLICT: return "a period cannot be combined with a rotation";
    case CN_E_LAYERS: return "layers must be at least one, all of the same dimension";
    case CN_E_PERIOD_LACUNARITY: return "a period needs a whole-number lacunarity when there is more than one octave";
    case CN_E_PERIOD_OVERFLOW: return "the last octave's period (period * lacunarity^(octaves-1)) exceeds 2^32 - 1 cells";
    case CN_E_OCTAVE_FREQUENCY: return "the last octave's frequency (frequency * axis frequency * lacunarity^(octaves-1)) exceeds 2^40";
    case CN_E_OVERLAP: return "an output buffer overlaps an input buffer";
    case CN_E_THREADS: return "threads must be 0 (all cores) to 256";
    case CN_E_ISA: return "unknown instruction set";
    case CN_E_UNBUILT: return "the generator was not built (or was overwritten since)";
    case CN_E_DEVICE: return "no usable OpenCL runtime or device, or the device failed";
    case CN_E_CELLULAR: return "unknown cellular distance or return, jitter not in [0, 1], Minkowski exponent not in [1, 32], or the edge return without the Euclidean distance";
    case CN_E_STRENGTH: return "weighted strength must be in [0, 1] and ping-pong strength in (0, 16]";
    case CN_E_WARP: return "a domain warp needs 1 to 16 stages, each of a known mode, a finite amplitude and fields of the warped generator's dimension";
    }
    return "unknown status code";
}

void cn_config_init(cn_config *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->type = CN_NOISE_PERLIN;
    cfg->mode = CN_MODE_DEFAULT;
    cfg->dims = 2;
    cfg->seed = 0;
    cfg->frequency = 1.0 / 64; /* exact in binary: pixel coordinates stay exact in lattice units */
    for (int a = 0; a < 4; a++) {
        cfg->axis_frequency[a] = 1.0;
        cfg->rotation[a * 4 + a] = 1.0; /* 4x4 identity; a dims x dims matrix uses the first entries */
    }
    cfg->rotate = 0;
    cfg->fractal = CN_FRACTAL_NONE;
    cfg->octaves = 5;
    cfg->lacunarity = 2.0;
    cfg->gain = 0.5;
    cfg->ridge_offset = 1.0;
    cfg->ridge_gain = 2.0;
    cfg->weighted_strength = 0.0;
    cfg->pingpong_strength = 2.0;
    cfg->amplitude = 1.0;
    cfg->bias = 0.0;
    cfg->cell_distance = CN_CELL_EUCLIDEAN;
    cfg->cell_return = CN_CELL_F1;
    cfg->jitter = 1.0;
    cfg->minkowski_p = 1.5;
}

static int finite_in(double v, double lo, double hi) { return isfinite(v) && v >= lo && v <= hi; }

/* lacunarity^i by repeated multiplication (exact for whole numbers while below 2^53). */
static double octave_mult(double lacunarity, int i)
{
    double m = 1.0;
    while (i-- > 0)
        m *= lacunarity;
    return m;
}

/* The octaves actually evaluated: those whose amplitude gain^i is at least 2^-24. */
static int effective_octaves(const cn_config *cfg)
{
    if (cfg->fractal == CN_FRACTAL_NONE)
        return 1;
    int n = 1;
    if (!(cfg->gain > 0) || cfg->octaves < 1)
        return 1;
    double amp = 1.0;
    /* gain >= 1 never drops an octave: no need to count up to an unchecked octaves field. */
    if (cfg->gain >= 1)
        return cfg->octaves;
    while (n < cfg->octaves) {
        amp *= cfg->gain;
        if (amp < 0x1p-24)
            break;
        n++;
    }
    return n;
}

/* OpenSimplex2 and 2S share their lattices: simplex's in 2D and 4D (tiling lattice and all), a
 * turned one without periods in 3D. */
static int is_opensimplex(cn_noise_type type) { return type == CN_NOISE_OPENSIMPLEX2 || type == CN_NOISE_OPENSIMPLEX2S; }

uint32_t cn_period_multiple(cn_noise_type type, int dims)
{
    if ((int)type < 0 || (int)type >= CN__TYPES || dims < 1 || dims > 4)
        return 0;
    /* Simplex periods run on the tiling lattice, F = 1/D: a shift by P is a lattice translation
     * when D divides P (src/kernels/simplex.inc). */
    return type == CN_NOISE_SIMPLEX || (is_opensimplex(type) && dims != 3) ? (uint32_t)dims : 1u;
}

/* Records a fault in *out, when there is one to fill, and returns its status; without *out
 * nothing is formatted (cn_config_check, cn_noise_build). */
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static cn_status fault(cn_check *out, cn_status st, cn_field field, cn_field field2, int axis, const char *fmt, ...)
{
    if (out) {
        out->status = st;
        out->field = field;
        out->field2 = field2;
        out->axis = axis;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(out->reason, sizeof out->reason, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* The range of dimensions the registry has kernels for, for a type in a mode (lo > hi: none). */
static void kernel_dims(int type, int mode, int *lo, int *hi)
{
    *lo = 5;
    *hi = 0;
    for (int d = 1; d <= 4; d++)
        if (cn__kernel_sigs[CN__KID(type, mode, d)].dims) {
            *lo = d < *lo ? d : *lo;
            *hi = d;
        }
}

/* Every rule of a configuration, in one place; out may be NULL. */
static cn_status check_config(const cn_config *cfg, cn_check *out)
{
    static const char axis[] = "xyzw";
    /* Compare as integers: an out-of-range value stored in an enum field is still caught. */
    int type = (int)cfg->type, mode = (int)cfg->mode, fractal = (int)cfg->fractal;
    if (type < 0 || type >= CN__TYPES)
        return fault(out, CN_E_TYPE, CN_FIELD_TYPE, CN_FIELD_NONE, -1, "%d is not a noise type", type);
    if (mode < 0 || mode >= CN__MODES)
        return fault(out, CN_E_MODE, CN_FIELD_MODE, CN_FIELD_NONE, -1, "%d is not a mode", mode);
    if (cfg->dims < 1 || cfg->dims > 4)
        return fault(out, CN_E_DIMS, CN_FIELD_DIMS, CN_FIELD_NONE, -1, "must be 1 to 4, not %d", cfg->dims);
    const int dims = cfg->dims;
    if (cn__kernel_sigs[cn__kernel_index(cfg)].dims == 0) { /* no kernel in the registry */
        int lo, hi;
        kernel_dims(type, mode, &lo, &hi);
        if (lo > hi) {
            char list[64] = ""; /* the types this mode has */
            for (int t = 0, n = 0; t < CN__TYPES; t++) {
                int l, h;
                kernel_dims(t, mode, &l, &h);
                if (l <= h) {
                    size_t used = strlen(list);
                    snprintf(list + used, sizeof list - used, "%s%s", n++ ? " and " : "", cn_noise_type_name((cn_noise_type)t));
                }
            }
            return fault(out, CN_E_UNSUPPORTED, CN_FIELD_TYPE, CN_FIELD_MODE, -1, "%s noise has no %s mode (%s mode works with %s)",
                         cn_noise_type_name(cfg->type), cn_mode_name(cfg->mode), cn_mode_name(cfg->mode), list);
        }
        return fault(out, CN_E_UNSUPPORTED, CN_FIELD_TYPE, CN_FIELD_DIMS, -1, "%s noise needs %d to %d dimensions, but the noise is %dD",
                     cn_noise_type_name(cfg->type), lo, hi, dims);
    }
    if (!(cfg->frequency > 0.0) || !isfinite(cfg->frequency))
        return fault(out, CN_E_FREQUENCY, CN_FIELD_FREQUENCY, CN_FIELD_NONE, -1, "must be finite and greater than 0, not %g",
                     cfg->frequency);
    for (int a = 0; a < dims; a++) {
        if (!(cfg->axis_frequency[a] > 0.0) || !isfinite(cfg->axis_frequency[a]))
            return fault(out, CN_E_DOMAIN, CN_FIELD_AXIS_FREQUENCY, CN_FIELD_NONE, a,
                         "the %c entry must be finite and greater than 0", axis[a]);
        if (!isfinite(cfg->offset[a]))
            return fault(out, CN_E_DOMAIN, CN_FIELD_OFFSET, CN_FIELD_NONE, a, "the %c entry must be finite", axis[a]);
        if (!isfinite(cfg->frequency * cfg->axis_frequency[a])) /* else tiny coordinates give inf * p */
            return fault(out, CN_E_DOMAIN, CN_FIELD_AXIS_FREQUENCY, CN_FIELD_FREQUENCY, a,
                         "the %c entry times the frequency is not finite", axis[a]);
    }
    if (cfg->rotate)
        for (int k = 0; k < dims * dims; k++)
            if (!isfinite(cfg->rotation[k]))
                return fault(out, CN_E_DOMAIN, CN_FIELD_ROTATION, CN_FIELD_NONE, -1,
                             "the rotation matrix has an entry that is not finite");
    if (fractal < CN_FRACTAL_NONE || fractal > CN_FRACTAL_EROSION)
        return fault(out, CN_E_FRACTAL, CN_FIELD_FRACTAL, CN_FIELD_NONE, -1, "%d is not a fractal type", fractal);
    if (fractal == CN_FRACTAL_EROSION && !cn__kernel_sigs[cn__kernel_index(cfg)].grad)
        return fault(out, CN_E_UNSUPPORTED, CN_FIELD_FRACTAL, CN_FIELD_TYPE, -1,
                     "erosion damps each octave by the gradient of the octaves so far, and %s noise has no gradient",
                     cn_noise_type_name(cfg->type));
    if (cfg->octaves < 1 || cfg->octaves > CN_MAX_OCTAVES)
        return fault(out, CN_E_OCTAVES, CN_FIELD_OCTAVES, CN_FIELD_NONE, -1, "must be 1 to 32, not %d", cfg->octaves);
    if (!finite_in(cfg->lacunarity, 1.0, 64.0))
        return fault(out, CN_E_LACUNARITY, CN_FIELD_LACUNARITY, CN_FIELD_NONE, -1, "must be finite, from 1 to 64, not %g",
                     cfg->lacunarity);
    if (!finite_in(cfg->gain, 0.0, 4.0) || cfg->gain == 0.0)
        return fault(out, CN_E_GAIN, CN_FIELD_GAIN, CN_FIELD_NONE, -1, "must be finite, greater than 0 and at most 4, not %g",
                     cfg->gain);
    if (!finite_in(cfg->ridge_offset, 0.0, 2.0))
        return fault(out, CN_E_RIDGE, CN_FIELD_RIDGE_OFFSET, CN_FIELD_NONE, -1, "must be in [0, 2], not %g", cfg->ridge_offset);
    if (!finite_in(cfg->ridge_gain, 0.0, 16.0))
        return fault(out, CN_E_RIDGE, CN_FIELD_RIDGE_GAIN, CN_FIELD_NONE, -1, "must be in [0, 16], not %g", cfg->ridge_gain);
    if (!finite_in(cfg->weighted_strength, 0.0, 1.0))
        return fault(out, CN_E_STRENGTH, CN_FIELD_WEIGHTED_STRENGTH, CN_FIELD_NONE, -1, "must be in [0, 1], not %g",
                     cfg->weighted_strength);
    if (!finite_in(cfg->pingpong_strength, 0.0, 16.0) || cfg->pingpong_strength == 0.0)
        return fault(out, CN_E_STRENGTH, CN_FIELD_PINGPONG_STRENGTH, CN_FIELD_NONE, -1,
                     "must be greater than 0 and at most 16, not %g", cfg->pingpong_strength);
    /* 2 |amplitude| + |bias| finite: every value (|noise| <= 1.54 for classic Perlin 4D) and the
     * documented range stay finite (fuzz/fuzz_batch.c found 1e308 * v + 1e308 = inf). */
    if (!isfinite(cfg->amplitude))
        return fault(out, CN_E_SIGNAL, CN_FIELD_AMPLITUDE, CN_FIELD_NONE, -1, "must be finite, not %g", cfg->amplitude);
    if (!isfinite(cfg->bias))
        return fault(out, CN_E_SIGNAL, CN_FIELD_BIAS, CN_FIELD_NONE, -1, "must be finite, not %g", cfg->bias);
    if (!isfinite(2 * fabs(cfg->amplitude) + fabs(cfg->bias)))
        return fault(out, CN_E_SIGNAL, CN_FIELD_AMPLITUDE, CN_FIELD_BIAS, -1,
                     "2 |amplitude| + |bias| is not finite, so the values would overflow");
    if (!cn_cell_distance_name(cfg->cell_distance))
        return fault(out, CN_E_CELLULAR, CN_FIELD_CELL_DISTANCE, CN_FIELD_NONE, -1, "%d is not a cellular distance",
                     (int)cfg->cell_distance);
    if (!cn_cell_return_name(cfg->cell_return))
        return fault(out, CN_E_CELLULAR, CN_FIELD_CELL_RETURN, CN_FIELD_NONE, -1, "%d is not a cellular return",
                     (int)cfg->cell_return);
    if (!finite_in(cfg->jitter, 0.0, 1.0))
        return fault(out, CN_E_CELLULAR, CN_FIELD_JITTER, CN_FIELD_NONE, -1, "must be in [0, 1], not %g", cfg->jitter);
    if (cfg->cell_distance == CN_CELL_MINKOWSKI && !finite_in(cfg->minkowski_p, 1.0, 32.0))
        return fault(out, CN_E_CELLULAR, CN_FIELD_MINKOWSKI_P, CN_FIELD_CELL_DISTANCE, -1,
                     "must be in [1, 32] with the Minkowski distance, not %g", cfg->minkowski_p);
    if (cfg->type == CN_NOISE_CELLULAR && cfg->cell_return == CN_CELL_EDGE && cfg->cell_distance != CN_CELL_EUCLIDEAN)
        return fault(out, CN_E_CELLULAR, CN_FIELD_CELL_RETURN, CN_FIELD_CELL_DISTANCE, -1,
                     "the edge distance is Euclidean: it needs cell distance euclidean, not %s",
                     cn_cell_distance_name(cfg->cell_distance));

    int periodic = 0;
    const uint32_t multiple = cn_period_multiple(cfg->type, dims);
    for (int a = 0; a < 4; a++) {
        uint32_t P = cfg->period[a];
        if (P == 0)
            continue;
        if (a >= dims)
            return fault(out, CN_E_PERIOD, CN_FIELD_PERIOD, CN_FIELD_NONE, a, "a period on axis %c, but the noise is %dD",
                         axis[a], dims);
        if (P > CN_MAX_PERIOD)
            return fault(out, CN_E_PERIOD, CN_FIELD_PERIOD, CN_FIELD_NONE, a,
                         "%lu (axis %c) is more than 16777216 (2^24) cells", (unsigned long)P, axis[a]);
        if (is_opensimplex(cfg->type) && dims == 3)
            return fault(out, CN_E_PERIOD, CN_FIELD_PERIOD, CN_FIELD_NONE, a,
                         "%lu (axis %c): %s noise in 3D does not tile: its lattice is turned "
                         "(diagonal along z) so that no shift along an axis maps it onto itself; periods work "
                         "in 2D and 4D, and simplex 3D tiles", (unsigned long)P, axis[a], cn_noise_type_name(cfg->type));
        if (P % multiple != 0)
            return fault(out, CN_E_PERIOD, CN_FIELD_PERIOD, CN_FIELD_NONE, a,
                         "%lu (axis %c) does not suit %s noise in %dD: its periods must be multiples of the dimension "
                         "(even in 2D, multiples of 3 in 3D and multiples of 4 in 4D)",
                         (unsigned long)P, axis[a], cn_noise_type_name(cfg->type), dims);
        periodic = 1;
    }
    const int octaves = effective_octaves(cfg);
    if (periodic) {
        if (cfg->rotate)
            return fault(out, CN_E_CONFLICT, CN_FIELD_ROTATION, CN_FIELD_PERIOD, -1, "cannot be combined with a period");
        if (octaves > 1 && cfg->lacunarity != floor(cfg->lacunarity))
            return fault(out, CN_E_PERIOD_LACUNARITY, CN_FIELD_LACUNARITY, CN_FIELD_PERIOD, -1,
                         "%.17g is not a whole number: periodic noise needs a whole-number lacunarity, or one octave",
                         cfg->lacunarity);
        /* The last octave's period must still fit the lattice index range. */
        for (int a = 0; a < dims; a++)
            if (cfg->period[a] && (double)cfg->period[a] * octave_mult(cfg->lacunarity, octaves - 1) > 4294967295.0)
                return fault(out, CN_E_PERIOD_OVERFLOW, CN_FIELD_PERIOD, CN_FIELD_OCTAVES, a,
                             "the last octave's period, period * lacunarity^%d cells, exceeds 2^32: use fewer "
                             "octaves, a smaller lacunarity or a shorter period", octaves - 1);
    }
    if (octaves > 1) {
        double fmax = 0;
        for (int a = 0; a < dims; a++)
            fmax = fmax > cfg->axis_frequency[a] ? fmax : cfg->axis_frequency[a];
        const double last = cfg->frequency * fmax * octave_mult(cfg->lacunarity, octaves - 1);
        if (!(last <= 0x1p40))
            return fault(out, CN_E_OCTAVE_FREQUENCY, CN_FIELD_OCTAVES, CN_FIELD_NONE, -1,
                         "the last octave's frequency, frequency * axis-frequency * lacunarity^%d = %.6g, exceeds "
                         "2^40: use fewer octaves, a smaller lacunarity or a lower frequency", octaves - 1, last);
    }
    return CN_OK;
}

/* One cellular distance of a vector whose every axis is `big` but the first, which is `first`
 * (kernels/cellular.inc: the bounds F1max and F2max are such distances). */
static double cell_norm(int distance, int dims, double p, double first, double big)
{
    switch (distance) {
    case CN_CELL_EUCLIDEAN: return sqrt(first * first + (dims - 1) * big * big);
    case CN_CELL_EUCLIDEAN_SQ: return first * first + (dims - 1) * big * big;
    case CN_CELL_MANHATTAN: return first + (dims - 1) * big;
    case CN_CELL_CHEBYSHEV: return first > big ? first : big;
    default: return pow(pow(first, p) + (dims - 1) * pow(big, p), 1 / p);
    }
}

/* The cellular kernel's constants (kernels/cellular.inc derives the bounds). */
static void cell_constants(const cn_config *cfg, struct cn__cell *c)
{
    const double h = cfg->jitter / 2;
    const int d = (int)cfg->cell_distance, dims = cfg->dims;
    c->distance = d;
    c->ret = (int)cfg->cell_return;
    c->base = 0.5 - h;
    c->step = cfg->jitter / 65535.0;
    const double p = cfg->minkowski_p;
    c->p = p;
    c->inv_p = p > 0 ? 1 / p : 0; /* p is checked only with the Minkowski distance */
    const double f1max = cell_norm(d, dims, p, 0.5 + h, 0.5 + h);
    const double f2a = cell_norm(d, dims, p, 1.0 + h, h);
    const double f2max = f2a > f1max ? f2a : f1max;
    double max = f1max;
    switch (cfg->cell_return) {
    case CN_CELL_F2:
    case CN_CELL_F2_MINUS_F1: max = f2max; break;
    case CN_CELL_F1_PLUS_F2: max = f1max + f2max; break;
    case CN_CELL_F1_TIMES_F2: max = f1max * f2max; break;
    case CN_CELL_EDGE: max = (f1max + f2max) / 2; break;
    default: break;
    }
    c->out_scale = 2.0 / max;
}

cn_status cn_config_check(const cn_config *cfg)
{
    return cfg ? check_config(cfg, NULL) : CN_E_NULL;
}

cn_status cn_config_explain(const cn_config *cfg, cn_check *out)
{
    if (!out)
        return CN_E_NULL;
    out->status = CN_OK;
    out->field = out->field2 = CN_FIELD_NONE;
    out->axis = -1;
    out->reason[0] = '\0';
    if (!cfg)
        return fault(out, CN_E_NULL, CN_FIELD_NONE, CN_FIELD_NONE, -1, "%s", cn_strerror(CN_E_NULL));
    return check_config(cfg, out);
}

cn_status cn_config_rotate2(cn_config *cfg, double angle)
{
    if (!cfg)
        return CN_E_NULL;
    if (cfg->dims != 2)
        return CN_E_DIMS;
    if (!isfinite(angle))
        return CN_E_DOMAIN;
    double c = cos(angle), s = sin(angle);
    cfg->rotation[0] = c;
    cfg->rotation[1] = -s;
    cfg->rotation[2] = s;
    cfg->rotation[3] = c;
    cfg->rotate = 1;
    return CN_OK;
}

cn_status cn_config_rotate3(cn_config *cfg, double ax, double ay, double az, double angle)
{
    if (!cfg)
        return CN_E_NULL;
    if (cfg->dims != 3)
        return CN_E_DIMS;
    /* A finite nonzero axis of any length: one whose squares would overflow or underflow is
     * scaled by its largest component first (others keep their bits). */
    const double m = fmax(fabs(ax), fmax(fabs(ay), fabs(az)));
    if (!isfinite(angle) || !isfinite(m) || !(m > 0) || isnan(ax) || isnan(ay) || isnan(az))
        return CN_E_DOMAIN;
    if (m > 0x1p500 || m < 0x1p-500) {
        ax /= m;
        ay /= m;
        az /= m;
    }
    double len = sqrt(ax * ax + ay * ay + az * az);
    ax /= len;
    ay /= len;
    az /= len;
    /* Rodrigues: R = cos t I + sin t [k]x + (1 - cos t) k k^T. */
    double c = cos(angle), s = sin(angle), t = 1 - c;
    double R[9] = {
        c + ax * ax * t,      ax * ay * t - az * s, ax * az * t + ay * s,
        ay * ax * t + az * s, c + ay * ay * t,      ay * az * t - ax * s,
        az * ax * t - ay * s, az * ay * t + ax * s, c + az * az * t,
    };
    memcpy(cfg->rotation, R, sizeof R);
    cfg->rotate = 1;
    return CN_OK;
}

cn_status cn_noise_build(cn_noise *gen, const cn_config *cfg_in)
{
    if (!gen)
        return CN_E_NULL;
    cn__gen *out = cn__gen_mut(gen);
    if (!cfg_in) {
        out->kernel_tag = 0; /* "on error *out is left unbuilt" */
        return CN_E_NULL;
    }
    /* A copy first: cfg_in may point into *gen (cn_noise_config's copy). */
    const cn_config copy = *cfg_in, *cfg = &copy;
    memset(gen, 0, sizeof *gen); /* kernel_tag 0: unbuilt until the end */
    cn_status st = cn_config_check(cfg);
    if (st != CN_OK)
        return st;
    out->cfg = *cfg;
    const int dims = cfg->dims;
    for (int a = 0; a < dims; a++) {
        out->scale[a] = cfg->frequency * cfg->axis_frequency[a];
        out->periodic |= cfg->period[a] != 0;
    }
    out->octaves = effective_octaves(cfg);
    double amp_sum = 0;
    for (int i = 0; i < out->octaves; i++) {
        struct cn__octave *o = &out->oct[i];
        /* Not SplitMix64's own increment: octave seeds must not land on each other's key draws. */
        uint64_t seed = cfg->seed + (uint64_t)i * UINT64_C(0xD1B54A32D192ED03);
        o->mult = octave_mult(cfg->lacunarity, i);
        o->amp = i == 0 ? 1.0 : out->oct[i - 1].amp * cfg->gain;
        amp_sum += o->amp;
        for (int a = 0; a < dims; a++)
            o->period[a] = cfg->period[a] ? (uint32_t)(cfg->period[a] * o->mult) : 0;
        if (cfg->mode == CN_MODE_CLASSIC)
            cn__classic_perm(seed, out->perm[i]);
        else
            cn__lattice_keys(seed, o->key);
    }
    /* Normaliser: the sum of amplitudes times the largest |term| of one octave. */
    double bound = 1.0;
    if (cfg->fractal == CN_FRACTAL_RIDGED) {
        double a = cfg->ridge_offset, b = fabs(1.0 - cfg->ridge_offset);
        bound = a > b ? a * a : b * b;
        if (bound == 0)
            bound = 1.0;
    }
    out->norm = 1.0 / (amp_sum * bound);
    cell_constants(cfg, &out->cell);
    /* Every octave's coordinate is q * mult, rounded (cn_tame is the identity below 2^52):
     * |q| < CN__K_BOUND / (largest mult) keeps it at most CN__K_BOUND, give or take a rounding. */
    double mult_max = 1.0;
    for (int i = 0; i < out->octaves; i++)
        mult_max = out->oct[i].mult > mult_max ? out->oct[i].mult : mult_max;
    out->inner = out->periodic ? 0.0 : CN__K_BOUND / mult_max;
    out->plain = cfg->fractal == CN_FRACTAL_NONE && !cfg->rotate && !out->periodic && cfg->amplitude == 1.0 &&
                 cfg->bias == 0.0;
    out->kernel_tag = CN__GEN_TAG + (uint32_t)cn__kernel_index(cfg);
    return CN_OK;
}

/* What each kernel slot holds, from the registry; slots without a kernel stay {0, 0, 0}. */
#define CN_SIG_GRAD_GRAD 1
#define CN_SIG_GRAD_NONE 0
#define CN_SIG(TYPE, MODE, DIMS, BASE, FORM, GRAD, CACHE) \
    [CN__KID_OF(TYPE, MODE, DIMS)] = {DIMS, CN_NOISE_##TYPE, CN_MODE_##MODE, CN_SIG_GRAD_##GRAD},
const cn__kernel_sig cn__kernel_sigs[CN__KERNEL_COUNT] = {CN_KERNELS(CN_SIG)};
#undef CN_SIG

/* A generator is usable when it was built (cn__generator_ok) for a kernel that exists. */
static int usable(const cn__gen *g)
{
    return cn__generator_ok(g) && cn__point_f64_table[0][cn__gen_kernel(g)] != NULL;
}

/* What a single-point call checks: g is a built generator (cn__generator_ok) of dims dimensions
 * (0: any). Then its kernel index names a kernel with entries in every point set. */
static inline int point_ok(const cn__gen *g, int dims)
{
    return cn__generator_ok(g) && (!dims || g->cfg.dims == dims);
}

/*
 * One point of a generator that passed point_ok, through the point set in use (chosen with the
 * instruction set, src/dispatch.c; the first call chooses): the short entry for a plain generator
 * (same bits, see entries.inc). Every kernel of the registry has both entries in every set, so
 * the slot is never empty. Every call here is a tail call, so the public entries need no stack
 * frame.
 */
#define CN_POINT_CALL(FN, T)                                                                  \
    static CN_NOINLINE T first_##FN(const cn__gen *g, double x, double y, double z, double w) \
    {                                                                                         \
        cn__isa_choose();                                                                     \
        const cn__point_##FN##_set *t = atomic_load_explicit(&cn__point_##FN##_now,           \
                                                             memory_order_acquire);           \
        return (*t)[g->plain != 0][cn__gen_kernel(g)](g, x, y, z, w);                         \
    }                                                                                         \
    static inline T call_##FN(const cn__gen *g, double x, double y, double z, double w)       \
    {                                                                                         \
        const int plain = g->plain != 0; /* read before the acquire load: not read again */   \
        const uint32_t k = cn__gen_kernel(g);                                                 \
        const cn__point_##FN##_set *t = atomic_load_explicit(&cn__point_##FN##_now,           \
                                                             memory_order_acquire);           \
        if (!t)                                                                               \
            return first_##FN(g, x, y, z, w);                                                 \
        return (*t)[plain][k](g, x, y, z, w);                                                 \
    }
CN_POINT_CALL(f64, double)
CN_POINT_CALL(f32, float)

cn_status cn_noise_range(const cn_noise *gen, double range[2])
{
    const cn__gen *g = cn__gen_of(gen);
    if (!g || !range)
        return CN_E_NULL;
    if (!usable(g))
        return CN_E_UNBUILT;
    const cn_config *c = &g->cfg;
    double lo = -1.0, hi = 1.0;
    if (c->fractal == CN_FRACTAL_TURBULENCE || c->fractal == CN_FRACTAL_RIDGED) {
        lo = 0.0;
    } else if (c->fractal == CN_FRACTAL_NONE && c->mode == CN_MODE_CLASSIC && c->type == CN_NOISE_PERLIN) {
        /* Suprema from docs/RANGE.md (tests/test_range.c recomputes the gradient-set suprema). */
        hi = c->dims == 4 ? 1.5365823340468201 : 1.0363538112118029;
        lo = -hi;
    }
    double a = c->amplitude * lo + c->bias, b = c->amplitude * hi + c->bias;
    range[0] = a < b ? a : b;
    range[1] = a < b ? b : a;
    return CN_OK;
}

cn_status cn_noise_reach(const cn_noise *gen, const double *extent, double *reach)
{
    const cn__gen *g = cn__gen_of(gen);
    if (!g || !extent || !reach)
        return CN_E_NULL;
    if (!usable(g))
        return CN_E_UNBUILT;
    const cn_config *c = &g->cfg;
    const int dims = c->dims;
    double s[4];
    for (int a = 0; a < dims; a++) {
        if (!(extent[a] >= 0))
            return CN_E_RANGE;
        s[a] = extent[a] * fabs(g->scale[a]); /* the first step of the kernels' domain transform */
    }
    double r = 0;
    for (int a = 0; a < dims; a++) {
        double q = s[a];
        if (c->rotate) {
            q = 0;
            for (int b = 0; b < dims; b++)
                q += fabs(c->rotation[a * dims + b]) * s[b];
        }
        q = (q + fabs(c->offset[a])) * g->oct[g->octaves - 1].mult; /* the last octave's multiple */
        r = q > r ? q : r;
    }
    *reach = isfinite(r) ? r : INFINITY;
    return isfinite(r) ? CN_OK : CN_E_DOMAIN;
}

int cn_config_octaves(const cn_config *cfg)
{
    return cfg ? effective_octaves(cfg) : 0;
}

/* The superposition at one point, double (pd) or float (pf) coordinates: the weighted layer
 * values summed in double in layer order from 0. */
/* The weighted sum of the layers at pd (double) or pf (float), in double in layer order from 0;
 * with gsum, also the weighted sum of their gradients (cn_eval_grad / cn_evalf_grad, the same
 * values), component by component in the same order. */
static cn_status layers_sum(const cn_layer *layers, size_t count, const double *pd, const float *pf, double *sum,
                            double *gsum)
{
    cn_status st = cn__layers_check(layers, count);
    if (st != CN_OK)
        return st;
    const int dims = cn__gen_of(layers[0].noise)->cfg.dims;
    for (size_t k = 0; gsum && k < count; k++)
        if (!cn__gen_has_grad(cn__gen_of(layers[k].noise)))
            return CN_E_UNSUPPORTED;
    double s = 0, gs[4] = {0, 0, 0, 0};
    for (size_t k = 0; k < count; k++) {
        const double w = layers[k].weight;
        double v, g[4];
        if (!gsum) {
            v = pd ? cn_eval(layers[k].noise, pd) : (double)cn_evalf(layers[k].noise, pf);
        } else if (pd) {
            v = cn_eval_grad(layers[k].noise, pd, g);
        } else {
            float gf[4];
            v = (double)cn_evalf_grad(layers[k].noise, pf, gf);
            for (int a = 0; a < dims; a++)
                g[a] = (double)gf[a];
        }
        s += w * v;
        for (int a = 0; gsum && a < dims; a++)
            gs[a] += w * g[a];
    }
    *sum = s;
    for (int a = 0; gsum && a < dims; a++)
        gsum[a] = gs[a];
    return CN_OK;
}

cn_status cn_layers_eval(const cn_layer *layers, size_t count, const double *p, double *out)
{
    return p && out ? layers_sum(layers, count, p, NULL, out, NULL) : CN_E_NULL;
}

cn_status cn_layers_evalf(const cn_layer *layers, size_t count, const float *p, float *out)
{
    double sum;
    cn_status st = p && out ? layers_sum(layers, count, NULL, p, &sum, NULL) : CN_E_NULL;
    if (st == CN_OK)
        *out = cn__round_f32(sum);
    return st;
}

cn_status cn_layers_eval_grad(const cn_layer *layers, size_t count, const double *p, double *out, double *grad)
{
    return p && out && grad ? layers_sum(layers, count, p, NULL, out, grad) : CN_E_NULL;
}

cn_status cn_layers_evalf_grad(const cn_layer *layers, size_t count, const float *p, float *out, float *grad)
{
    double sum, gsum[4];
    cn_status st = p && out && grad ? layers_sum(layers, count, NULL, p, &sum, gsum) : CN_E_NULL;
    if (st == CN_OK) {
        *out = cn__round_f32(sum);
        for (int a = 0; a < cn__gen_of(layers[0].noise)->cfg.dims; a++)
            grad[a] = cn__round_f32(gsum[a]);
    }
    return st;
}

cn_status cn_layers_range(const cn_layer *layers, size_t count, double range[2])
{
    if (!range)
        return CN_E_NULL;
    cn_status st = cn__layers_check(layers, count);
    if (st != CN_OK)
        return st;
    double mid = 0, half = 0; /* sum of w * (lo + hi) / 2 and of |w| * (hi - lo) / 2 */
    for (size_t k = 0; k < count; k++) {
        double r[2];
        if (cn_noise_range(layers[k].noise, r) != CN_OK) /* not after cn__layers_check */
            return CN_E_UNBUILT;
        const double w = layers[k].weight;
        mid += w * ((r[0] + r[1]) * 0.5);
        half += fabs(w) * ((r[1] - r[0]) * 0.5);
    }
    const double lo = mid - half, hi = mid + half;
    if (!isfinite(lo) || !isfinite(hi))
        return CN_E_SIGNAL;
    range[0] = lo;
    range[1] = hi;
    return CN_OK;
}

const cn_config *cn_noise_config(const cn_noise *gen)
{
    const cn__gen *g = cn__gen_of(gen);
    return cn__generator_ok(g) ? &g->cfg : NULL;
}

cn_status cn_noise_check(const cn_noise *gen, int dims)
{
    const cn__gen *g = cn__gen_of(gen);
    if (!g)
        return CN_E_NULL;
    if (!usable(g))
        return CN_E_UNBUILT;
    return dims != 0 && dims != g->cfg.dims ? CN_E_DIMS : CN_OK;
}

double cn_eval(const cn_noise *gen, const double *p)
{
    const cn__gen *g = cn__gen_of(gen);
    if (!p || !point_ok(g, 0))
        return cn__point_misuse_f64(g, "cn_eval", 0, !p);
    double c[4] = {0, 0, 0, 0};
    for (int a = 0; a < g->cfg.dims; a++)
        c[a] = p[a];
    return call_f64(g, c[0], c[1], c[2], c[3]);
}

float cn_evalf(const cn_noise *gen, const float *p)
{
    const cn__gen *g = cn__gen_of(gen);
    if (!p || !point_ok(g, 0))
        return cn__point_misuse_f32(g, "cn_evalf", 0, !p);
    double c[4] = {0, 0, 0, 0};
    for (int a = 0; a < g->cfg.dims; a++)
        c[a] = p[a];
    return call_f32(g, c[0], c[1], c[2], c[3]);
}

/* cn_evalN / cn_evalNf: N coordinates for a generator of dimension N, else NaN. */
#define CN_EVAL_N(NAME, T, FN, N, X, Y, Z, W)                                             \
    T NAME(const cn_noise *gen, CN_EVAL_PARAMS_##N(T))                                    \
    {                                                                                     \
        const cn__gen *g = cn__gen_of(gen);                                               \
        if (!point_ok(g, N))                                                              \
            return cn__point_misuse_##FN(g, #NAME, N, 0);                                 \
        return call_##FN(g, X, Y, Z, W);                                                  \
    }
#define CN_EVAL_PARAMS_1(T) T x
#define CN_EVAL_PARAMS_2(T) T x, T y
#define CN_EVAL_PARAMS_3(T) T x, T y, T z
#define CN_EVAL_PARAMS_4(T) T x, T y, T z, T w
CN_EVAL_N(cn_eval1, double, f64, 1, x, 0, 0, 0)
CN_EVAL_N(cn_eval2, double, f64, 2, x, y, 0, 0)
CN_EVAL_N(cn_eval3, double, f64, 3, x, y, z, 0)
CN_EVAL_N(cn_eval4, double, f64, 4, x, y, z, w)
CN_EVAL_N(cn_eval1f, float, f32, 1, x, 0, 0, 0)
CN_EVAL_N(cn_eval2f, float, f32, 2, x, y, 0, 0)
CN_EVAL_N(cn_eval3f, float, f32, 3, x, y, z, 0)
CN_EVAL_N(cn_eval4f, float, f32, 4, x, y, z, w)
