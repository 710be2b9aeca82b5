/* test_abuse.c -- every public function of cnoise.h fed bad arguments, one at a time, against the
 * status (or value) the header documents; on every error the outputs must be left untouched
 * (filled with a sentinel before the call and compared after). The smallest and largest valid
 * values and the "does nothing" cases are checked to work.
 *
 * Every public function of include/cnoise.h, and what is thrown at it:
 *   cn_strerror          every status, codes outside the enum (-1, one past the last, INT_MAX, INT_MIN)
 *   cn_version           against CN_VERSION_STRING and the MAJOR.MINOR.PATCH macros
 *   cn_config_init       NULL; a struct of garbage bytes
 *   cn_config_check      NULL; each field alone out of range, non-finite, or an invalid enum
 *   cn_noise_build       the same configurations; NULL out or cfg (out left unusable); cfg inside out
 *   cn_config_rotate2    NULL, wrong dims, non-finite angles; cfg untouched on error
 *   cn_config_rotate3    NULL, wrong dims, zero/non-finite/huge/tiny axes, non-finite angles
 *   cn_config_octaves    NULL, unvalidated fields, the 2^-24 amplitude cut-off
 *   cn_noise_range       NULL arguments, generators never built; the range untouched on error
 *   cn_eval, cn_evalf    NULL generator or point, never-built generators, NaN/Inf coordinates,
 *                        coordinates whose product with the frequency overflows, denormals
 *   cn_eval1..4, cn_eval1f..4f   NULL, dims mismatch, never-built generators
 *   cn_layers_eval       NULL for each pointer and each layer's noise, count 0, mixed dims,
 *                        non-finite weights, layers never built; *out untouched on error
 *   cn_grid_eval(f)      NULL for each pointer, counts of 0, products of counts and byte sizes
 *                        overflowing size_t, out_len one short, non-finite origin/step, bad thread
 *                        counts, never-built generators, out over origin/step/count
 *   cn_points_eval(f)    NULL for each pointer, n = 0, n = SIZE_MAX, SIZE_MAX/8 + 1, exact,
 *                        partial (one element, one byte, misaligned) and huge-n overlaps of out
 *                        with a coordinate array, bad thread counts, never-built generators
 *   cn_isa_name, cn_isa_compiled, cn_isa_supported, cn_isa_active, cn_isa_set_cap
 *                        values outside the enum; the cap unchanged after a refused value
 *
 * Arrays handed to the library (points, origins, steps, counts, coordinate pointers) are
 * allocated with exactly the documented number of elements, so that AddressSanitizer reports a
 * read past them. */
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cnoise.h"
#include "gen.h" /* white-box: the generator's internals (src/gen.h) */
#include "kernels/registry.h" /* white-box: the kernel selector CN__KID */
#include "test.h"




static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) { return test_splitmix64(&rng_state); }


static cn_config config(cn_noise_type type, int dims)
{
    cn_config c;
    cn_config_init(&c);
    c.frequency = 1.0; /* the frequency these cases were written for */
    c.type = type;
    c.dims = dims;
    c.seed = 77;
    return c;
}

static cn_noise make(cn_noise_type type, int dims)
{
    cn_config c = config(type, dims);
    cn_noise g;
    cn_status st = cn_noise_build(&g, &c);
    CHECK(st == CN_OK, "building type %d, %dD: %s", (int)type, dims, cn_strerror(st));
    return g;
}

/* ---- a generator that must be refused by every entry point ---- */

static void expect_unusable(const cn_noise *g, const char *what)
{
    static const double P[4] = {0.25, 0.5, 0.75, 1.25};
    static const float PF[4] = {0.25f, 0.5f, 0.75f, 1.25f};
    CHECK(isnan(cn_eval(g, P)) && isnan(cn_evalf(g, PF)), "%s: cn_eval/cn_evalf give a number", what);
    CHECK(isnan(cn_eval1(g, 0.5)) && isnan(cn_eval2(g, 0.5, 0.5)) && isnan(cn_eval3(g, 0.5, 0.5, 0.5)) &&
              isnan(cn_eval4(g, 0.5, 0.5, 0.5, 0.5)),
          "%s: cn_evalN gives a number", what);
    CHECK(isnan(cn_eval1f(g, 0.5f)) && isnan(cn_eval2f(g, 0.5f, 0.5f)) && isnan(cn_eval3f(g, 0.5f, 0.5f, 0.5f)) &&
              isnan(cn_eval4f(g, 0.5f, 0.5f, 0.5f, 0.5f)),
          "%s: cn_evalNf gives a number", what);

    double range[2];
    memset(range, TEST_SENTINEL, sizeof range);
    cn_status st = cn_noise_range(g, range);
    CHECK(st == CN_E_UNBUILT, "%s: cn_noise_range gives %s", what, cn_strerror(st));
    CHECK(test_untouched(range, sizeof range), "%s: cn_noise_range wrote its range on error", what);

    double o[4] = {0, 0, 0, 0}, s[4] = {1, 1, 1, 1}, out[16], r[2];
    float outf[16], rf[2];
    size_t cnt[4] = {2, 2, 2, 2};
    memset(out, TEST_SENTINEL, sizeof out);
    memset(outf, TEST_SENTINEL, sizeof outf);
    memset(r, TEST_SENTINEL, sizeof r);
    memset(rf, TEST_SENTINEL, sizeof rf);
    cn_status a = cn_grid_eval(g, o, s, cnt, out, 16, 1, r), b = cn_grid_evalf(g, o, s, cnt, outf, 16, 1, rf);
    CHECK(a == CN_E_UNBUILT && b == CN_E_UNBUILT, "%s: cn_grid_eval(f) give %s / %s", what, cn_strerror(a),
          cn_strerror(b));
    const double *dc[4] = {o, o, o, o};
    const float *fc[4] = {PF, PF, PF, PF};
    a = cn_points_eval(g, 4, dc, out, 1, r);
    b = cn_points_evalf(g, 4, fc, outf, 1, rf);
    CHECK(a == CN_E_UNBUILT && b == CN_E_UNBUILT, "%s: cn_points_eval(f) give %s / %s", what, cn_strerror(a),
          cn_strerror(b));
    CHECK(test_untouched(out, sizeof out) && test_untouched(outf, sizeof outf) && test_untouched(r, sizeof r) &&
              test_untouched(rf, sizeof rf),
          "%s: a batch call wrote its output or range on error", what);

    cn_layer l = {g, 1.0};
    memset(out, TEST_SENTINEL, sizeof out);
    st = cn_layers_eval(&l, 1, P, out);
    CHECK(st == CN_E_UNBUILT, "%s: cn_layers_eval gives %s", what, cn_strerror(st));
    CHECK(test_untouched(out, sizeof out[0]), "%s: cn_layers_eval wrote *out on error", what);
}

/* ---- cn_strerror, cn_version ---- */

static void test_strings(void)
{
    const char *unknown = cn_strerror((cn_status)-1);
    CHECK(unknown != NULL, "cn_strerror(-1) is NULL");
    const int bad[] = {-1, CN_E_WARP + 1, INT_MAX, INT_MIN, 1000};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *t = cn_strerror((cn_status)bad[k]);
        CHECK(t != NULL && unknown != NULL && strcmp(t, unknown) == 0, "cn_strerror(%d) is \"%s\", not the generic text",
              bad[k], t ? t : "(null)");
    }
    for (int s = CN_OK; s <= CN_E_WARP; s++) {
        const char *t = cn_strerror((cn_status)s);
        CHECK(t != NULL && t[0] != '\0', "cn_strerror(%d) empty", s);
        CHECK(t != NULL && unknown != NULL && strcmp(t, unknown) != 0, "cn_strerror(%d) is the generic text", s);
        for (int u = CN_OK; u < s; u++)
            CHECK(t != NULL && strcmp(t, cn_strerror((cn_status)u)) != 0, "statuses %d and %d share a text", u, s);
    }
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", CN_VERSION_MAJOR, CN_VERSION_MINOR, CN_VERSION_PATCH);
    const char *v = cn_version();
    CHECK(v != NULL && strcmp(v, CN_VERSION_STRING) == 0 && strcmp(v, want) == 0, "cn_version \"%s\", header %s / %s",
          v ? v : "(null)", CN_VERSION_STRING, want);
}

/* ---- cn_config_init, cn_config_check, cn_noise_build ---- */

static void expect_cfg(const cn_config *cfg, cn_status want, const char *what)
{
    cn_config saved = *cfg;
    cn_status c = cn_config_check(cfg);
    CHECK(c == want, "%s: cn_config_check gives %s, want %s", what, cn_strerror(c), cn_strerror(want));
    cn_noise *g = test_xmalloc(sizeof *g);
    memset(g, TEST_SENTINEL, sizeof *g);
    cn_status b = cn_noise_build(g, cfg);
    CHECK(b == want, "%s: cn_noise_build gives %s, want %s", what, cn_strerror(b), cn_strerror(want));
    CHECK(memcmp(&saved, cfg, sizeof saved) == 0, "%s: the configuration was changed", what);
    if (want != CN_OK) {
        expect_unusable(g, what);
    } else if (b == CN_OK) {
        CHECK(cn_noise_config(g) && memcmp(cn_noise_config(g), cfg, sizeof *cfg) == 0, "%s: cn_noise_config is not the configuration", what);
        /* |p| < 1: no product with a valid frequency (up to DBL_MAX) overflows. */
        double p[4] = {0.3, -0.7, 0.9, 0.45}, range[2];
        double v = cn_eval(g, p);
        CHECK(isfinite(v), "%s: a built generator gives %g at a finite point", what, v);
        CHECK(cn_noise_range(g, range) == CN_OK && v >= range[0] && v <= range[1], "%s: %g outside [%g, %g]", what, v,
              range[0], range[1]);
    }
    free(g);
}

/* Runs `stmt` on a fresh copy of `base` (named c), then expects `want`. */
#define CFG(base, want, stmt)                                                                                          \
    do {                                                                                                               \
        cn_config c = (base);                                                                                          \
        stmt;                                                                                                          \
        expect_cfg(&c, (want), #stmt);                                                                                 \
    } while (0)

static void test_config(void)
{
    cn_config_init(NULL); /* ignored */
    cn_config d;
    memset(&d, TEST_SENTINEL, sizeof d);
    cn_config_init(&d);
    expect_cfg(&d, CN_OK, "defaults over garbage");
    CHECK(cn_config_check(NULL) == CN_E_NULL, "cn_config_check(NULL)");

    const cn_config P3 = config(CN_NOISE_PERLIN, 3), S2 = config(CN_NOISE_SIMPLEX, 2),
                    S3 = config(CN_NOISE_SIMPLEX, 3), S4 = config(CN_NOISE_SIMPLEX, 4);
    cn_config F3 = P3; /* fbm, 5 octaves */
    F3.fractal = CN_FRACTAL_FBM;
    cn_config R3 = P3;
    R3.fractal = CN_FRACTAL_RIDGED;

    /* Invalid enums: negative, one past the last, INT_MAX, INT_MIN. */
    const int bad_type[] = {-1, CN_NOISE_OPENSIMPLEX2S + 1, INT_MAX, INT_MIN};
    const int bad_mode[] = {-1, CN_MODE_CLASSIC + 1, INT_MAX, INT_MIN};
    const int bad_fractal[] = {-1, CN_FRACTAL_EROSION + 1, INT_MAX, INT_MIN};
    const int bad_dims[] = {0, -1, 5, INT_MAX, INT_MIN};
    for (int k = 0; k < 4; k++) {
        CFG(P3, CN_E_TYPE, c.type = (cn_noise_type)bad_type[k]);
        CFG(P3, CN_E_MODE, c.mode = (cn_mode)bad_mode[k]);
        CFG(F3, CN_E_FRACTAL, c.fractal = (cn_fractal)bad_fractal[k]);
        CFG(P3, CN_E_FRACTAL, c.fractal = (cn_fractal)bad_fractal[k]);
    }
    for (int k = 0; k < 5; k++)
        CFG(P3, CN_E_DIMS, c.dims = bad_dims[k]);
    for (int dims = 1; dims <= 4; dims++) {
        CFG(P3, CN_OK, c.dims = dims);
        CFG(P3, dims == 1 ? CN_E_UNSUPPORTED : CN_OK, (c.dims = dims, c.type = CN_NOISE_SIMPLEX));
        CFG(P3, CN_E_UNSUPPORTED, (c.dims = dims, c.type = CN_NOISE_VALUE, c.mode = CN_MODE_CLASSIC));
        CFG(P3, CN_OK, (c.dims = dims, c.mode = CN_MODE_CLASSIC));
    }

    /* frequency: finite, > 0. The smallest positive (denormal) and the largest are valid. */
    CFG(P3, CN_E_FREQUENCY, c.frequency = 0.0);
    CFG(P3, CN_E_FREQUENCY, c.frequency = -0.0);
    CFG(P3, CN_E_FREQUENCY, c.frequency = -1.0);
    CFG(P3, CN_E_FREQUENCY, c.frequency = -DBL_TRUE_MIN);
    CFG(P3, CN_E_FREQUENCY, c.frequency = NAN);
    CFG(P3, CN_E_FREQUENCY, c.frequency = INFINITY);
    CFG(P3, CN_E_FREQUENCY, c.frequency = -INFINITY);
    CFG(P3, CN_OK, c.frequency = DBL_TRUE_MIN);
    CFG(P3, CN_OK, c.frequency = DBL_MIN / 2);
    CFG(P3, CN_OK, c.frequency = DBL_MAX);

    /* Domain: axis frequencies, offsets, rotation entries of the noise's own axes. */
    for (int a = 0; a < 3; a++) {
        CFG(P3, CN_E_DOMAIN, c.axis_frequency[a] = 0.0);
        CFG(P3, CN_E_DOMAIN, c.axis_frequency[a] = -1.0);
        CFG(P3, CN_E_DOMAIN, c.axis_frequency[a] = NAN);
        CFG(P3, CN_E_DOMAIN, c.axis_frequency[a] = INFINITY);
        CFG(P3, CN_OK, c.axis_frequency[a] = DBL_TRUE_MIN);
        CFG(P3, CN_E_DOMAIN, c.offset[a] = NAN);
        CFG(P3, CN_E_DOMAIN, c.offset[a] = INFINITY);
        CFG(P3, CN_E_DOMAIN, c.offset[a] = -INFINITY);
        CFG(P3, CN_OK, c.offset[a] = -1e300);
    }
    for (int k = 0; k < 9; k++) {
        CFG(P3, CN_E_DOMAIN, (c.rotate = 1, c.rotation[k] = NAN));
        CFG(P3, CN_E_DOMAIN, (c.rotate = -1, c.rotation[k] = -INFINITY));
        CFG(P3, CN_OK, (c.rotate = 0, c.rotation[k] = NAN)); /* no rotation: the matrix is not read */
    }
    CFG(P3, CN_OK, (c.rotate = 1, c.rotation[9] = NAN)); /* beyond the 3 x 3 matrix */
    CFG(P3, CN_OK, (c.rotate = INT_MAX, c.rotation[0] = 1e300));

    /* Fractal parameters. */
    const int bad_oct[] = {0, -1, CN_MAX_OCTAVES + 1, INT_MAX, INT_MIN};
    for (int k = 0; k < 5; k++) {
        CFG(F3, CN_E_OCTAVES, c.octaves = bad_oct[k]);
        CFG(P3, CN_E_OCTAVES, c.octaves = bad_oct[k]); /* checked without a fractal too */
    }
    CFG(F3, CN_OK, c.octaves = 1);
    CFG(F3, CN_OK, c.octaves = CN_MAX_OCTAVES);
    const double bad_lac[] = {0.5, nextafter(1.0, 0.0), 0.0, -2.0, 65.0, nextafter(64.0, 65.0), NAN, INFINITY, -INFINITY};
    for (size_t k = 0; k < sizeof bad_lac / sizeof bad_lac[0]; k++)
        CFG(F3, CN_E_LACUNARITY, c.lacunarity = bad_lac[k]);
    CFG(F3, CN_OK, c.lacunarity = 1.0);
    CFG(F3, CN_OK, (c.lacunarity = 64.0, c.octaves = 7)); /* 64^6 = 2^36 <= 2^40 */
    const double bad_gain[] = {0.0, -0.0, -0.5, nextafter(4.0, 5.0), 4.0000001, NAN, INFINITY, -INFINITY};
    for (size_t k = 0; k < sizeof bad_gain / sizeof bad_gain[0]; k++)
        CFG(F3, CN_E_GAIN, c.gain = bad_gain[k]);
    CFG(F3, CN_OK, c.gain = 4.0);
    CFG(F3, CN_OK, (c.gain = 4.0, c.octaves = CN_MAX_OCTAVES));
    CFG(F3, CN_OK, c.gain = DBL_TRUE_MIN);
    const double bad_roff[] = {-1e-300, nextafter(2.0, 3.0), NAN, INFINITY, -INFINITY};
    const double bad_rgain[] = {-1e-300, nextafter(16.0, 17.0), NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 5; k++) {
        CFG(R3, CN_E_RIDGE, c.ridge_offset = bad_roff[k]);
        CFG(R3, CN_E_RIDGE, c.ridge_gain = bad_rgain[k]);
    }
    CFG(R3, CN_OK, (c.ridge_offset = 0.0, c.ridge_gain = 0.0));
    CFG(R3, CN_OK, (c.ridge_offset = 2.0, c.ridge_gain = 16.0));
    CFG(R3, CN_OK, c.ridge_offset = -0.0);
    const double bad_ws[] = {-1e-300, nextafter(1.0, 2.0), NAN, INFINITY, -INFINITY};
    const double bad_pp[] = {0.0, nextafter(16.0, 17.0), NAN, INFINITY, -1.0};
    for (int k = 0; k < 5; k++) {
        CFG(F3, CN_E_STRENGTH, c.weighted_strength = bad_ws[k]);
        CFG(F3, CN_E_STRENGTH, c.pingpong_strength = bad_pp[k]);
    }
    CFG(F3, CN_OK, (c.weighted_strength = 1.0, c.pingpong_strength = 16.0));
    CFG(F3, CN_OK, (c.weighted_strength = 0.0, c.pingpong_strength = DBL_TRUE_MIN));

    /* Octave frequency: the last evaluated octave's frequency must stay <= 2^40. */
    CFG(F3, CN_E_OCTAVE_FREQUENCY, (c.frequency = 0x1p40, c.octaves = 2));
    CFG(F3, CN_OK, (c.frequency = 0x1p40, c.octaves = 1));
    CFG(F3, CN_OK, (c.frequency = 0x1p39, c.octaves = 2));
    CFG(F3, CN_E_OCTAVE_FREQUENCY, (c.axis_frequency[2] = 0x1p39, c.octaves = 3));
    CFG(F3, CN_OK, (c.frequency = 0x1p40, c.octaves = 2, c.gain = 0x1p-25)); /* octave 1 skipped */
    CFG(P3, CN_OK, (c.frequency = 0x1p60, c.octaves = 32));                  /* no fractal: one octave */

    /* Periods. */
    for (int a = 0; a < 4; a++) {
        CFG(P3, a < 3 ? CN_OK : CN_E_PERIOD, c.period[a] = 1);
        CFG(P3, a < 3 ? CN_OK : CN_E_PERIOD, c.period[a] = CN_MAX_PERIOD);
        CFG(P3, CN_E_PERIOD, c.period[a] = CN_MAX_PERIOD + 1);
        CFG(P3, CN_E_PERIOD, c.period[a] = UINT32_MAX);
    }
    CFG(S2, CN_E_PERIOD, c.period[0] = 3);
    CFG(S2, CN_OK, c.period[1] = 2);
    CFG(S2, CN_OK, c.period[0] = CN_MAX_PERIOD);
    CFG(S2, CN_E_PERIOD, c.period[0] = CN_MAX_PERIOD + 2); /* even, but over 2^24 */
    CFG(S2, CN_E_PERIOD, c.period[2] = 2);                 /* an axis 2D noise does not have */
    CFG(S3, CN_E_PERIOD, c.period[0] = 4);
    CFG(S3, CN_OK, c.period[2] = 3);
    CFG(S3, CN_OK, c.period[1] = CN_MAX_PERIOD - 1);       /* 16777215 = 3 x 5592405 */
    CFG(S3, CN_E_PERIOD, c.period[1] = CN_MAX_PERIOD);     /* not a multiple of 3 */
    CFG(S3, CN_E_PERIOD, c.period[1] = CN_MAX_PERIOD + 2); /* a multiple of 3, over 2^24 */
    CFG(S4, CN_E_PERIOD, c.period[3] = 6);
    CFG(S4, CN_OK, c.period[3] = 4);
    CFG(S4, CN_OK, c.period[3] = CN_MAX_PERIOD);
    CFG(S4, CN_E_PERIOD, c.period[3] = CN_MAX_PERIOD + 4);
    CFG(P3, CN_E_CONFLICT, (c.period[0] = 4, c.rotate = 1));
    CFG(F3, CN_E_PERIOD_LACUNARITY, (c.period[0] = 4, c.lacunarity = 2.5));
    CFG(F3, CN_OK, (c.period[0] = 4, c.lacunarity = 2.5, c.octaves = 1));
    CFG(P3, CN_OK, (c.period[0] = 4, c.lacunarity = 2.5)); /* no fractal */
    CFG(F3, CN_E_PERIOD_OVERFLOW, (c.period[1] = CN_MAX_PERIOD, c.octaves = 9)); /* 2^24 * 2^8 = 2^32 */
    CFG(F3, CN_OK, (c.period[1] = CN_MAX_PERIOD, c.octaves = 8));
    CFG(F3, CN_E_PERIOD_OVERFLOW, (c.period[0] = 1, c.lacunarity = 64, c.octaves = 7)); /* 64^6 = 2^36 */

    /* Signal. */
    CFG(P3, CN_E_SIGNAL, c.amplitude = NAN);
    CFG(P3, CN_E_SIGNAL, c.amplitude = INFINITY);
    CFG(P3, CN_E_SIGNAL, c.amplitude = -INFINITY);
    CFG(P3, CN_E_SIGNAL, c.bias = NAN);
    CFG(P3, CN_E_SIGNAL, c.bias = INFINITY);
    CFG(P3, CN_E_SIGNAL, c.bias = -INFINITY);
    CFG(P3, CN_OK, (c.amplitude = 0.0, c.bias = -1e300));

    /* NULL arguments: "On error *out is left unusable", also when cfg is NULL. */
    cn_noise g = make(CN_NOISE_PERLIN, 3);
    CHECK(cn_noise_build(NULL, &P3) == CN_E_NULL, "cn_noise_build(NULL, cfg)");
    CHECK(cn_noise_build(NULL, NULL) == CN_E_NULL, "cn_noise_build(NULL, NULL)");
    cn_status st = cn_noise_build(&g, NULL);
    CHECK(st == CN_E_NULL, "cn_noise_build(gen, NULL): %s", cn_strerror(st));
    expect_unusable(&g, "a built generator rebuilt from a NULL configuration");

    /* A failed rebuild of a built generator leaves it unusable too. */
    g = make(CN_NOISE_PERLIN, 3);
    cn_config bad = P3;
    bad.gain = NAN;
    CHECK(cn_noise_build(&g, &bad) == CN_E_GAIN, "rebuild with gain NaN");
    expect_unusable(&g, "a built generator rebuilt from a bad configuration");

    /* cfg inside out: rebuilding a generator from its own (edited) configuration. */
    cn_noise *in_place = test_xmalloc(sizeof *in_place), *copy = test_xmalloc(sizeof *copy);
    cn_config c2 = F3;
    c2.seed = 99;
    CHECK(cn_noise_build(in_place, &F3) == CN_OK, "build fbm");
    cn__gen_mut(in_place)->cfg.seed = 99; /* edits the configuration inside the generator */
    memset(copy, TEST_SENTINEL, sizeof *copy);
    CHECK(cn_noise_build(copy, &c2) == CN_OK, "build fbm, seed 99");
    st = cn_noise_build(in_place, cn_noise_config(in_place));
    CHECK(st == CN_OK, "cn_noise_build(g, cn_noise_config(g)): %s", cn_strerror(st));
    CHECK(memcmp(in_place, copy, sizeof *copy) == 0, "cn_noise_build(g, cn_noise_config(g)) differs from a build from a copy");
    double p[3] = {0.1, 0.2, 0.3};
    CHECK(test_same_bits(cn_eval(in_place, p), cn_eval(copy, p)), "rebuilt in place: %g, from a copy: %g",
          cn_eval(in_place, p), cn_eval(copy, p));
    free(in_place);
    free(copy);
}

/* ---- cn_config_rotate2, cn_config_rotate3 ---- */

static void test_rotate(void)
{
    CHECK(cn_config_rotate2(NULL, 1.0) == CN_E_NULL, "rotate2(NULL)");
    CHECK(cn_config_rotate3(NULL, 0, 0, 1, 1.0) == CN_E_NULL, "rotate3(NULL)");
    const int dims[] = {1, 2, 3, 4, 0, -1, INT_MAX};
    for (size_t k = 0; k < sizeof dims / sizeof dims[0]; k++) {
        cn_config c = config(CN_NOISE_PERLIN, 3), s;
        c.dims = dims[k];
        s = c;
        cn_status st = cn_config_rotate2(&c, 0.5);
        if (dims[k] != 2) {
            CHECK(st == CN_E_DIMS, "rotate2 on dims %d: %s", dims[k], cn_strerror(st));
            CHECK(memcmp(&c, &s, sizeof c) == 0, "rotate2 on dims %d changed the configuration", dims[k]);
        }
        c = s;
        st = cn_config_rotate3(&c, 0, 0, 1, 0.5);
        if (dims[k] != 3) {
            CHECK(st == CN_E_DIMS, "rotate3 on dims %d: %s", dims[k], cn_strerror(st));
            CHECK(memcmp(&c, &s, sizeof c) == 0, "rotate3 on dims %d changed the configuration", dims[k]);
        }
    }
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) {
        cn_config c = config(CN_NOISE_PERLIN, 2), s = c;
        cn_status st = cn_config_rotate2(&c, bad[k]);
        CHECK(st == CN_E_DOMAIN && memcmp(&c, &s, sizeof c) == 0, "rotate2(%g): %s", bad[k], cn_strerror(st));
        c = config(CN_NOISE_PERLIN, 3);
        s = c;
        const double axes[][4] = {{bad[k], 0, 1, 0.5}, {0, bad[k], 1, 0.5}, {1, 0, bad[k], 0.5}, {0, 0, 1, bad[k]}};
        for (int j = 0; j < 4; j++) {
            st = cn_config_rotate3(&c, axes[j][0], axes[j][1], axes[j][2], axes[j][3]);
            CHECK(st == CN_E_DOMAIN && memcmp(&c, &s, sizeof c) == 0, "rotate3(%g, %g, %g, %g): %s", axes[j][0],
                  axes[j][1], axes[j][2], axes[j][3], cn_strerror(st));
        }
    }
    {
        cn_config c = config(CN_NOISE_PERLIN, 3), s = c;
        cn_status st = cn_config_rotate3(&c, 0, -0.0, 0, 0.5);
        CHECK(st == CN_E_DOMAIN && memcmp(&c, &s, sizeof c) == 0, "rotate3 about the zero axis: %s", cn_strerror(st));
    }
    /* Valid extremes: a huge finite angle; axes that are finite and nonzero however long or short
     * ("CN_E_DOMAIN for a zero or non-finite axis"): the rotation is that about the unit axis. */
    {
        cn_config c = config(CN_NOISE_PERLIN, 2);
        CHECK(cn_config_rotate2(&c, 1e300) == CN_OK && c.rotate == 1, "rotate2(1e300)");
        int fin = 1;
        for (int k = 0; k < 4; k++)
            fin &= isfinite(c.rotation[k]);
        CHECK(fin && cn_config_check(&c) == CN_OK, "rotate2(1e300) gives a bad matrix");
    }
    const double axes[][3] = {{1e200, 1e200, 1e200}, {1e-200, 1e-200, 1e-200}, {DBL_MAX, DBL_MAX, DBL_MAX},
                              {DBL_TRUE_MIN, DBL_TRUE_MIN, DBL_TRUE_MIN}, {-DBL_MAX, 0, 0}, {0, DBL_TRUE_MIN, 0}};
    const double units[][3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {-1, 0, 0}, {0, 1, 0}};
    for (int k = 0; k < 6; k++) {
        cn_config c = config(CN_NOISE_PERLIN, 3), u = c;
        cn_status st = cn_config_rotate3(&c, axes[k][0], axes[k][1], axes[k][2], 0.7);
        cn_status su = cn_config_rotate3(&u, units[k][0], units[k][1], units[k][2], 0.7);
        CHECK(st == CN_OK, "rotate3 about (%g, %g, %g): %s", axes[k][0], axes[k][1], axes[k][2], cn_strerror(st));
        double worst = 0;
        for (int j = 0; j < 9; j++)
            worst = fmax(worst, fabs(c.rotation[j] - u.rotation[j]));
        CHECK(su == CN_OK && st == CN_OK && worst <= 1e-15 && c.rotate == 1,
              "rotate3 about (%g, %g, %g) differs from the unit axis by %g", axes[k][0], axes[k][1], axes[k][2], worst);
    }
}

/* ---- cn_config_octaves ---- */

static void test_config_octaves(void)
{
    CHECK(cn_config_octaves(NULL) == 0, "cn_config_octaves(NULL)");
    cn_config c = config(CN_NOISE_PERLIN, 3);
    c.octaves = 0;
    CHECK(cn_config_octaves(&c) == 1, "no fractal: %d", cn_config_octaves(&c));
    c.fractal = CN_FRACTAL_FBM;
    c.gain = 0.5;
    c.octaves = CN_MAX_OCTAVES;
    /* 0.5^i >= 2^-24 for i = 0 .. 24. */
    CHECK(cn_config_octaves(&c) == 25, "gain 0.5, 32 octaves: %d, want 25", cn_config_octaves(&c));
    c.gain = 0x1p-24; /* octave 1 is exactly 2^-24: kept; octave 2 is not */
    CHECK(cn_config_octaves(&c) == 2, "gain 2^-24: %d, want 2", cn_config_octaves(&c));
    c.gain = nextafter(0x1p-24, 0.0);
    CHECK(cn_config_octaves(&c) == 1, "gain just below 2^-24: %d, want 1", cn_config_octaves(&c));
    c.gain = 4.0;
    CHECK(cn_config_octaves(&c) == CN_MAX_OCTAVES, "gain 4: %d", cn_config_octaves(&c));
    /* Not validated: whatever the fields say, no crash, and the documented count. */
    c.gain = 1.0;
    c.octaves = 1000;
    CHECK(cn_config_octaves(&c) == 1000, "1000 octaves of gain 1: %d", cn_config_octaves(&c));
    c.octaves = 0;
    int n0 = cn_config_octaves(&c);
    c.octaves = -5;
    int nn = cn_config_octaves(&c);
    c.octaves = 3;
    c.gain = NAN;
    int ng = cn_config_octaves(&c);
    c.fractal = (cn_fractal)99;
    c.gain = 0.5;
    int nf = cn_config_octaves(&c);
    CHECK(n0 >= 0 && n0 <= 1 && nn >= 0 && nn <= 1 && ng >= 0 && ng <= 3 && nf >= 0 && nf <= 3,
          "unvalidated fields: octaves 0 -> %d, -5 -> %d, gain NaN -> %d, fractal 99 -> %d", n0, nn, ng, nf);
}

/* ---- generators that were never built ---- */

static void test_unbuilt(void)
{
    cn_noise *g = test_xmalloc(sizeof *g);
    const unsigned char fills[] = {0x00, 0xFF, 0xA5, 0x5A, 0x01, 0x80};
    for (size_t k = 0; k < sizeof fills; k++) {
        char what[64];
        memset(g, fills[k], sizeof *g);
        snprintf(what, sizeof what, "a generator of bytes 0x%02X", fills[k]);
        expect_unusable(g, what);
    }
    for (int k = 0; k < 8; k++) {
        unsigned char *b = (unsigned char *)g;
        for (size_t i = 0; i < sizeof *g; i++)
            b[i] = (unsigned char)rng();
        expect_unusable(g, "a generator of random bytes");
    }
    /* Garbage everywhere but a plausible configuration and kernel selector: the internal octave
     * count is out of its range, and must not be trusted (it indexes oct[] and perm[]). */
    const int bad_oct[] = {0, -1, CN_MAX_OCTAVES + 1, INT_MAX, INT_MIN};
    for (int dims = 1; dims <= 4; dims++)
        for (int k = 0; k < 5; k++) {
            char what[96];
            cn_noise ok = make(CN_NOISE_PERLIN, dims);
            cn_config cf = *cn_noise_config(&ok);
            cf.fractal = CN_FRACTAL_FBM;
            CHECK(cn_noise_build(&ok, &cf) == CN_OK, "fbm build");
            *g = ok;
            cn__gen_mut(g)->octaves = bad_oct[k];
            snprintf(what, sizeof what, "a built %dD fbm generator whose octave count became %d", dims, bad_oct[k]);
            expect_unusable(g, what);
        }
    /* A built generator whose configuration was edited into an invalid type or mode that maps to
     * the same kernel selector (mode * 28 + type * 4 + dims - 1, CN__KID). */
    {
        cn_config cc = config(CN_NOISE_PERLIN, 1);
        cc.mode = CN_MODE_CLASSIC; /* selector 28 */
        cn_noise ok;
        CHECK(cn_noise_build(&ok, &cc) == CN_OK, "classic 1D build");
        CHECK(CN__KID(CN_NOISE_PERLIN, CN_MODE_CLASSIC, 1) == 28, "classic Perlin 1D is selector 28");
        *g = ok;
        cn__gen_mut(g)->cfg.mode = CN_MODE_DEFAULT;
        cn__gen_mut(g)->cfg.type = (cn_noise_type)7; /* 0 * 28 + 7 * 4 + 0 = 28 */
        expect_unusable(g, "a classic Perlin 1D generator edited to type 7, default mode");
        *g = ok;
        cn__gen_mut(g)->cfg.mode = (cn_mode)2;
        cn__gen_mut(g)->cfg.type = (cn_noise_type)-7; /* 2 * 28 - 28 + 0 = 28 */
        expect_unusable(g, "a classic Perlin 1D generator edited to type -7, mode 2");
    }
    free(g);
}

/* ---- cn_eval, cn_evalf, cn_evalN, cn_evalNf ---- */

static void test_eval(void)
{
    CHECK(isnan(cn_eval(NULL, (const double[4]){0, 0, 0, 0})) && isnan(cn_evalf(NULL, (const float[4]){0, 0, 0, 0})),
          "NULL generator gives a number");
    CHECK(isnan(cn_eval1(NULL, 0.5)) && isnan(cn_eval2(NULL, 0.5, 0.5)) && isnan(cn_eval3(NULL, 0.5, 0.5, 0.5)) &&
              isnan(cn_eval4(NULL, 0.5, 0.5, 0.5, 0.5)) && isnan(cn_eval1f(NULL, 0.5f)) &&
              isnan(cn_eval2f(NULL, 0.5f, 0.5f)) && isnan(cn_eval3f(NULL, 0.5f, 0.5f, 0.5f)) &&
              isnan(cn_eval4f(NULL, 0.5f, 0.5f, 0.5f, 0.5f)),
          "cn_evalN(NULL) gives a number");
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (int dims = 1; dims <= 4; dims++) {
        for (int t = 0; t < 3; t++) {
            if (t == CN_NOISE_SIMPLEX && dims == 1)
                continue;
            cn_noise g = make((cn_noise_type)t, dims);
            CHECK(isnan(cn_eval(&g, NULL)) && isnan(cn_evalf(&g, NULL)), "type %d %dD: NULL point gives a number", t,
                  dims);
            /* Exactly dims coordinates (AddressSanitizer reports a read past them). */
            double *p = test_xmalloc((size_t)dims * sizeof *p);
            float *pf = test_xmalloc((size_t)dims * sizeof *pf);
            for (int a = 0; a < dims; a++) {
                p[a] = 0.37 + a;
                pf[a] = 0.37f + (float)a;
            }
            CHECK(isfinite(cn_eval(&g, p)) && isfinite(cn_evalf(&g, pf)), "type %d %dD: finite point gives NaN", t,
                  dims);
            for (int a = 0; a < dims; a++)
                for (int k = 0; k < 3; k++) {
                    double s = p[a];
                    float sf = pf[a];
                    p[a] = bad[k];
                    pf[a] = (float)bad[k];
                    CHECK(isnan(cn_eval(&g, p)) && isnan(cn_evalf(&g, pf)), "type %d %dD: coordinate %d = %g", t, dims,
                          a, bad[k]);
                    p[a] = s;
                    pf[a] = sf;
                }
            /* Denormal, the largest finite: finite values ("every finite coordinate otherwise gives a
             * finite value"; frequency 1, so no product overflows). */
            for (int a = 0; a < dims; a++) {
                p[a] = a & 1 ? -DBL_TRUE_MIN : DBL_MAX;
                pf[a] = a & 1 ? -FLT_TRUE_MIN : FLT_MAX;
            }
            double v = cn_eval(&g, p);
            float vf = cn_evalf(&g, pf);
            CHECK(isfinite(v) && isfinite(vf), "type %d %dD: extreme finite coordinates give %g / %g", t, dims, v,
                  (double)vf);
            free(p);
            free(pf);
            /* The fixed-dimension calls refuse any other dimension. */
            CHECK((dims == 1) != isnan(cn_eval1(&g, 0.5)) && (dims == 2) != isnan(cn_eval2(&g, 0.5, 0.5)) &&
                      (dims == 3) != isnan(cn_eval3(&g, 0.5, 0.5, 0.5)) &&
                      (dims == 4) != isnan(cn_eval4(&g, 0.5, 0.5, 0.5, 0.5)),
                  "type %d %dD: cn_evalN and dims", t, dims);
            CHECK((dims == 1) != isnan(cn_eval1f(&g, 0.5f)) && (dims == 2) != isnan(cn_eval2f(&g, 0.5f, 0.5f)) &&
                      (dims == 3) != isnan(cn_eval3f(&g, 0.5f, 0.5f, 0.5f)) &&
                      (dims == 4) != isnan(cn_eval4f(&g, 0.5f, 0.5f, 0.5f, 0.5f)),
                  "type %d %dD: cn_evalNf and dims", t, dims);
        }
    }
    /* A coordinate whose product with the frequency overflows gives NaN; one that does not, a number. */
    cn_config c = config(CN_NOISE_PERLIN, 2);
    c.frequency = DBL_MAX;
    cn_noise g;
    CHECK(cn_noise_build(&g, &c) == CN_OK, "frequency DBL_MAX");
    CHECK(isnan(cn_eval2(&g, 2.0, 0.5)), "2 * DBL_MAX gives %g", cn_eval2(&g, 2.0, 0.5));
    CHECK(isnan(cn_eval2f(&g, 0.5f, -2.0f)), "-2 * DBL_MAX (float) gives %g", (double)cn_eval2f(&g, 0.5f, -2.0f));
    CHECK(isfinite(cn_eval2(&g, 0.5, 0.0)) && isfinite(cn_eval2f(&g, 0.5f, 0.0f)), "0.5 * DBL_MAX gives NaN");
    c.frequency = DBL_TRUE_MIN;
    CHECK(cn_noise_build(&g, &c) == CN_OK, "frequency DBL_TRUE_MIN");
    CHECK(isfinite(cn_eval2(&g, DBL_MAX, -DBL_MAX)) && isfinite(cn_eval2f(&g, FLT_MAX, -FLT_MAX)),
          "denormal frequency gives NaN");
    /* The largest valid fractal: 32 octaves of gain 4, in its range. */
    c = config(CN_NOISE_SIMPLEX, 4);
    c.fractal = CN_FRACTAL_BILLOW;
    c.octaves = CN_MAX_OCTAVES;
    c.gain = 4.0;
    CHECK(cn_noise_build(&g, &c) == CN_OK, "32 octaves of gain 4");
    double v = cn_eval4(&g, 10.3, -7.1, 3.3, 0.9);
    CHECK(isfinite(v) && v >= -1 && v <= 1, "32 octaves of gain 4: %g", v);
}

/* ---- cn_noise_range ---- */

static void test_noise_range(void)
{
    cn_noise g = make(CN_NOISE_PERLIN, 2);
    double r[2];
    memset(r, TEST_SENTINEL, sizeof r);
    CHECK(cn_noise_range(NULL, r) == CN_E_NULL && test_untouched(r, sizeof r), "cn_noise_range(NULL, range)");
    CHECK(cn_noise_range(&g, NULL) == CN_E_NULL, "cn_noise_range(gen, NULL)");
    CHECK(cn_noise_range(NULL, NULL) == CN_E_NULL, "cn_noise_range(NULL, NULL)");
    CHECK(cn_noise_range(&g, r) == CN_OK && r[0] == -1 && r[1] == 1, "default range [%g, %g]", r[0], r[1]);
    cn_config c = *cn_noise_config(&g);
    c.amplitude = -2;
    c.bias = 1;
    CHECK(cn_noise_build(&g, &c) == CN_OK && cn_noise_range(&g, r) == CN_OK && r[0] == -1 && r[1] == 3,
          "amplitude -2, bias 1: [%g, %g], want [-1, 3]", r[0], r[1]);
    c.amplitude = 0;
    c.bias = -1e300;
    CHECK(cn_noise_build(&g, &c) == CN_OK && cn_noise_range(&g, r) == CN_OK && r[0] == -1e300 && r[1] == -1e300,
          "amplitude 0, bias -1e300: [%g, %g]", r[0], r[1]);
}

/* ---- cn_layers_eval ---- */

static void test_layers(void)
{
    cn_noise a = make(CN_NOISE_PERLIN, 3), b = make(CN_NOISE_SIMPLEX, 3), c2 = make(CN_NOISE_VALUE, 2);
    double *p = test_xmalloc(3 * sizeof *p), out;
    p[0] = 0.4;
    p[1] = -1.3;
    p[2] = 7.7;
    cn_layer *two = test_xmalloc(2 * sizeof *two);
    two[0] = (cn_layer){&a, 0.5};
    two[1] = (cn_layer){&b, -1.5};
#define EXPECTL(call, want, what)                                                                           \
    do {                                                                                                    \
        memset(&out, TEST_SENTINEL, sizeof out);                                                                 \
        cn_status st_ = (call);                                                                             \
        CHECK(st_ == (want), "cn_layers_eval, %s: %s, want %s", what, cn_strerror(st_), cn_strerror(want)); \
        if ((want) != CN_OK)                                                                                \
            CHECK(test_untouched(&out, sizeof out), "cn_layers_eval, %s: *out written on error", what);          \
    } while (0)
    EXPECTL(cn_layers_eval(NULL, 2, p, &out), CN_E_NULL, "layers NULL");
    EXPECTL(cn_layers_eval(NULL, 0, p, &out), CN_E_NULL, "layers NULL, count 0");
    EXPECTL(cn_layers_eval(two, 2, NULL, &out), CN_E_NULL, "p NULL");
    EXPECTL(cn_layers_eval(two, 2, p, NULL), CN_E_NULL, "out NULL");
    EXPECTL(cn_layers_eval(two, 0, p, &out), CN_E_LAYERS, "count 0");
    for (int k = 0; k < 2; k++) {
        cn_layer s = two[k];
        two[k].noise = NULL;
        EXPECTL(cn_layers_eval(two, 2, p, &out), CN_E_NULL, k ? "layer 1's noise NULL" : "layer 0's noise NULL");
        two[k] = s;
        const double w[] = {NAN, INFINITY, -INFINITY};
        for (int j = 0; j < 3; j++) {
            two[k].weight = w[j];
            EXPECTL(cn_layers_eval(two, 2, p, &out), CN_E_SIGNAL, "a non-finite weight");
        }
        two[k] = s;
        two[k].noise = &c2;
        EXPECTL(cn_layers_eval(two, 2, p, &out), CN_E_LAYERS, k ? "layer 1 2D, layer 0 3D" : "layer 0 2D, layer 1 3D");
        two[k] = s;
        cn_noise zero;
        memset(&zero, 0, sizeof zero);
        two[k].noise = &zero;
        EXPECTL(cn_layers_eval(two, 2, p, &out), CN_E_UNBUILT, "a layer never built (zeroed)");
        two[k] = s;
    }
    /* All layers never built, all with the same (zero) dims. */
    {
        cn_noise z1, z2;
        memset(&z1, 0, sizeof z1);
        memset(&z2, 0, sizeof z2);
        cn_layer zz[2] = {{&z1, 1.0}, {&z2, 1.0}};
        EXPECTL(cn_layers_eval(zz, 2, p, &out), CN_E_UNBUILT, "two layers never built");
    }
    /* Valid: the smallest sums; out aliasing the point or a weight (read before it is written). */
    EXPECTL(cn_layers_eval(two, 1, p, &out), CN_OK, "count 1");
    CHECK(test_same_bits(out, 0.5 * cn_eval(&a, p)), "one layer: %.17g, want %.17g", out, 0.5 * cn_eval(&a, p));
    two[0].weight = 0.0;
    EXPECTL(cn_layers_eval(two, 1, p, &out), CN_OK, "weight 0");
    CHECK(out == 0.0, "weight 0 gives %g", out);
    two[0].weight = 0.5;
    const double want = 0.5 * cn_eval(&a, p) + -1.5 * cn_eval(&b, p);
    double *alias = test_xmalloc(3 * sizeof *alias);
    memcpy(alias, p, 3 * sizeof *alias);
    cn_status st = cn_layers_eval(two, 2, alias, alias + 1);
    CHECK(st == CN_OK && test_same_bits(alias[1], want), "out == &p[1]: %s, %.17g, want %.17g", cn_strerror(st), alias[1],
          want);
    cn_layer w2[2] = {two[0], two[1]};
    st = cn_layers_eval(w2, 2, p, &w2[1].weight);
    CHECK(st == CN_OK && test_same_bits(w2[1].weight, want), "out == &layers[1].weight: %s, %.17g, want %.17g",
          cn_strerror(st), w2[1].weight, want);
    p[1] = NAN;
    EXPECTL(cn_layers_eval(two, 2, p, &out), CN_OK, "a NaN coordinate");
    CHECK(isnan(out), "a NaN coordinate gives %g", out);
#undef EXPECTL
    free(alias);
    free(two);
    free(p);
}

/* ---- cn_grid_eval, cn_grid_evalf ---- */

enum { GN = 60, GX = 8 }; /* 3 x 4 x 5 points, GX sentinel elements after them */
static double gout[GN + GX];
static float goutf[GN + GX];

/* Both precisions; outputs and ranges filled with the sentinel first and left untouched on error. */
static void expect_grid(const cn_noise *g, const double *o, const double *s, const size_t *cnt, size_t out_len,
                        int threads, cn_status want, const char *what)
{
    double r[2];
    float rf[2];
    memset(gout, TEST_SENTINEL, sizeof gout);
    memset(goutf, TEST_SENTINEL, sizeof goutf);
    memset(r, TEST_SENTINEL, sizeof r);
    memset(rf, TEST_SENTINEL, sizeof rf);
    cn_status st = cn_grid_eval(g, o, s, cnt, gout, out_len, threads, r);
    cn_status stf = cn_grid_evalf(g, o, s, cnt, goutf, out_len, threads, rf);
    CHECK(st == want, "cn_grid_eval, %s: %s, want %s", what, cn_strerror(st), cn_strerror(want));
    CHECK(stf == want, "cn_grid_evalf, %s: %s, want %s", what, cn_strerror(stf), cn_strerror(want));
    if (want != CN_OK)
        CHECK(test_untouched(gout, sizeof gout) && test_untouched(goutf, sizeof goutf) && test_untouched(r, sizeof r) &&
                  test_untouched(rf, sizeof rf),
              "grid, %s: output or range written on error", what);
}

/* The float variant's widened values: the expected results of the 60-point grid. */
static void check_grid_values(const cn_noise *g, const double *o, const double *s, const char *what)
{
    int bad = 0, badf = 0;
    for (int i = 0; i < GN; i++) {
        double p[3] = {o[0] + (double)(i % 3) * s[0], o[1] + (double)(i / 3 % 4) * s[1], o[2] + (double)(i / 12) * s[2]};
        float pf[3] = {(float)p[0], (float)p[1], (float)p[2]};
        bad += !test_same_bits(gout[i], cn_eval(g, p));
        badf += !test_same_bitsf(goutf[i], cn_evalf(g, pf));
    }
    CHECK(bad == 0 && badf == 0, "grid, %s: %d double and %d float values differ from the point API", what, bad, badf);
    CHECK(test_untouched(gout + GN, GX * sizeof(double)) && test_untouched(goutf + GN, GX * sizeof(float)),
          "grid, %s: wrote past the product of the counts", what);
}

static void test_grid(void)
{
    cn_noise g = make(CN_NOISE_PERLIN, 3);
    /* Exactly dims entries each (AddressSanitizer reports a read past them). Grid coordinates are
     * exact in float, so the float grid equals cn_evalf at the same points. */
    double *o = test_xmalloc(3 * sizeof *o), *s = test_xmalloc(3 * sizeof *s);
    size_t *cnt = test_xmalloc(3 * sizeof *cnt);
    o[0] = -1.5, o[1] = 0.25, o[2] = 10.0;
    s[0] = 0.375, s[1] = -0.5, s[2] = 0.125;
    cnt[0] = 3, cnt[1] = 4, cnt[2] = 5;

    expect_grid(&g, o, s, cnt, GN, 1, CN_OK, "valid");
    check_grid_values(&g, o, s, "valid");
    expect_grid(&g, o, s, cnt, GN + GX, 1, CN_OK, "out_len longer than needed");
    check_grid_values(&g, o, s, "out_len longer than needed");
    expect_grid(&g, o, s, cnt, SIZE_MAX, 1, CN_OK, "out_len SIZE_MAX");
    check_grid_values(&g, o, s, "out_len SIZE_MAX");
    const int good_threads[] = {0, 2, CN_MAX_THREADS};
    for (int k = 0; k < 3; k++) {
        expect_grid(&g, o, s, cnt, GN, good_threads[k], CN_OK, "valid thread count");
        check_grid_values(&g, o, s, "valid thread count");
    }

    expect_grid(NULL, o, s, cnt, GN, 1, CN_E_NULL, "gen NULL");
    expect_grid(&g, NULL, s, cnt, GN, 1, CN_E_NULL, "origin NULL");
    expect_grid(&g, o, NULL, cnt, GN, 1, CN_E_NULL, "step NULL");
    expect_grid(&g, o, s, NULL, GN, 1, CN_E_NULL, "count NULL");
    {
        double r[2];
        float rf[2];
        CHECK(cn_grid_eval(&g, o, s, cnt, NULL, GN, 1, r) == CN_E_NULL &&
                  cn_grid_evalf(&g, o, s, cnt, NULL, GN, 1, rf) == CN_E_NULL,
              "grid, out NULL");
    }
    expect_grid(&g, o, s, cnt, GN - 1, 1, CN_E_RANGE, "out_len one short");
    expect_grid(&g, o, s, cnt, 0, 1, CN_E_RANGE, "out_len 0");
    for (int a = 0; a < 3; a++) {
        size_t sc = cnt[a];
        cnt[a] = 0;
        expect_grid(&g, o, s, cnt, GN, 1, CN_E_RANGE, "a count of 0");
        cnt[a] = sc;
        const double bad[] = {NAN, INFINITY, -INFINITY};
        for (int k = 0; k < 3; k++) {
            double so = o[a], ss = s[a];
            o[a] = bad[k];
            expect_grid(&g, o, s, cnt, GN, 1, CN_E_RANGE, "a non-finite origin");
            o[a] = so;
            s[a] = bad[k];
            expect_grid(&g, o, s, cnt, GN, 1, CN_E_RANGE, "a non-finite step");
            s[a] = ss;
        }
    }
    const int bad_threads[] = {-1, CN_MAX_THREADS + 1, INT_MAX, INT_MIN};
    for (int k = 0; k < 4; k++)
        expect_grid(&g, o, s, cnt, GN, bad_threads[k], CN_E_THREADS, "a bad thread count");

    /* Sizes: the 60-element output is passed with an out_len claiming it is huge, so a missed
     * overflow would write far past it (and crash or be reported by AddressSanitizer). */
    const size_t H = (size_t)1 << (sizeof(size_t) * CHAR_BIT / 2); /* 2^32 on 64-bit */
    const size_t Q = (size_t)1 << (sizeof(size_t) * CHAR_BIT / 4); /* 2^16 */
    cn_noise g1 = make(CN_NOISE_PERLIN, 1), g2 = make(CN_NOISE_PERLIN, 2), g4 = make(CN_NOISE_PERLIN, 4);
    double o4[4] = {0, 0, 0, 0}, s4[4] = {1, 1, 1, 1};
    {
        size_t c1[1] = {SIZE_MAX};
        expect_grid(&g1, o4, s4, c1, SIZE_MAX, 1, CN_E_OVERFLOW, "count SIZE_MAX");
        c1[0] = SIZE_MAX / 4 + 1; /* too many bytes for either precision */
        expect_grid(&g1, o4, s4, c1, SIZE_MAX, 1, CN_E_OVERFLOW, "count SIZE_MAX/4 + 1");
        /* SIZE_MAX/8 + 1: too many bytes of double; floats fit, and out_len one short is CN_E_RANGE. */
        c1[0] = SIZE_MAX / 8 + 1;
        double r[2];
        float rf[2];
        memset(gout, TEST_SENTINEL, sizeof gout);
        memset(goutf, TEST_SENTINEL, sizeof goutf);
        cn_status st = cn_grid_eval(&g1, o4, s4, c1, gout, SIZE_MAX, 1, r);
        cn_status stf = cn_grid_evalf(&g1, o4, s4, c1, goutf, SIZE_MAX / 8, 1, rf);
        CHECK(st == CN_E_OVERFLOW, "count SIZE_MAX/8 + 1 doubles: %s", cn_strerror(st));
        CHECK(stf == CN_E_RANGE, "count SIZE_MAX/8 + 1 floats, out_len one short: %s", cn_strerror(stf));
        CHECK(test_untouched(gout, sizeof gout) && test_untouched(goutf, sizeof goutf), "count SIZE_MAX/8 + 1: output written");
    }
    {
        size_t c2[2] = {H, H}; /* the product wraps to 0 */
        expect_grid(&g2, o4, s4, c2, SIZE_MAX, 1, CN_E_OVERFLOW, "counts 2^32 x 2^32");
        expect_grid(&g2, o4, s4, c2, 0, 1, CN_E_OVERFLOW, "counts 2^32 x 2^32, out_len 0");
        c2[0] = H + 1;
        c2[1] = H - 1; /* product SIZE_MAX: fits, its bytes do not */
        expect_grid(&g2, o4, s4, c2, SIZE_MAX, 1, CN_E_OVERFLOW, "counts (2^32 + 1) x (2^32 - 1)");
        c2[0] = SIZE_MAX;
        c2[1] = 2;
        expect_grid(&g2, o4, s4, c2, SIZE_MAX, 1, CN_E_OVERFLOW, "counts SIZE_MAX x 2");
    }
    {
        size_t c3[3] = {(size_t)1 << 21, (size_t)1 << 21, (size_t)1 << 22}; /* 2^64 wraps to 0 */
        if (sizeof(size_t) == 8)
            expect_grid(&g, o4, s4, c3, SIZE_MAX, 1, CN_E_OVERFLOW, "counts 2^21 x 2^21 x 2^22");
        size_t c4[4] = {Q, Q, Q, Q}; /* 2^64 wraps to 0 */
        expect_grid(&g4, o4, s4, c4, SIZE_MAX, 1, CN_E_OVERFLOW, "counts 2^16 x 2^16 x 2^16 x 2^16");
        c4[3] = Q - 1; /* fits, its bytes do not */
        expect_grid(&g4, o4, s4, c4, SIZE_MAX, 1, CN_E_OVERFLOW, "counts 2^16 x 2^16 x 2^16 x (2^16 - 1)");
        c4[0] = c4[1] = c4[2] = c4[3] = Q / 2; /* 2^60 points: fits in bytes; out_len one short */
        expect_grid(&g4, o4, s4, c4, ((Q / 2) * (Q / 2)) * ((Q / 2) * (Q / 2)) - 1, 1, CN_E_RANGE,
                    "counts 2^15 x 2^15 x 2^15 x 2^15, out_len one short");
        c4[0] = 0; /* a count of 0 among huge ones: the product is 0, nothing overflows */
        c4[3] = SIZE_MAX;
        expect_grid(&g4, o4, s4, c4, SIZE_MAX, 1, CN_E_RANGE, "counts 0 x 2^15 x 2^15 x SIZE_MAX");
    }
    /* Counts beyond dims are not read (origin, step and count of exactly dims entries above). */

    /* A finite origin and step whose sum overflows: that point is NaN, and left out of the range. */
    {
        double oo[1] = {1.5e308}, ss[1] = {1e308}, r[2];
        size_t c1[1] = {2};
        double out[2];
        CHECK(cn_grid_eval(&g1, oo, ss, c1, out, 2, 1, r) == CN_OK, "grid 1.5e308 + i * 1e308");
        CHECK(isfinite(out[0]) && isnan(out[1]), "grid 1.5e308 + i * 1e308: %g, %g", out[0], out[1]);
        CHECK(test_same_bits(r[0], out[0]) && test_same_bits(r[1], out[0]), "grid 1.5e308 + i * 1e308: range [%g, %g]", r[0],
              r[1]);
    }

    /* The smallest grid: one point, one thread or all cores. */
    {
        size_t one[3] = {1, 1, 1};
        double out[1], r[2];
        float outf[1], rf[2];
        CHECK(cn_grid_eval(&g, o, s, one, out, 1, 0, r) == CN_OK && test_same_bits(out[0], cn_eval(&g, o)) &&
                  test_same_bits(r[0], out[0]) && test_same_bits(r[1], out[0]),
              "one-point grid");
        float of[3] = {(float)o[0], (float)o[1], (float)o[2]};
        CHECK(cn_grid_evalf(&g, o, s, one, outf, 1, 0, rf) == CN_OK && test_same_bitsf(outf[0], cn_evalf(&g, of)),
              "one-point float grid");
    }

    /* out over its own origin, step and count: they are inputs only; the results are those of
     * separate buffers (the header does not forbid it; the library copies them first). */
    {
        expect_grid(&g, o, s, cnt, GN, 1, CN_OK, "reference");
        double ref[GN];
        float reff[GN];
        memcpy(ref, gout, sizeof ref);
        memcpy(reff, goutf, sizeof reff);
        union {
            double d[GN];
            size_t z[GN];
        } *u = test_xmalloc(sizeof *u);
        for (int f32 = 0; f32 < 2; f32++) {
            memset(u, 0, sizeof *u);
            u->d[0] = o[0], u->d[1] = o[1], u->d[2] = o[2];
            u->d[3] = s[0], u->d[4] = s[1], u->d[5] = s[2];
            u->z[6] = cnt[0], u->z[7] = cnt[1], u->z[8] = cnt[2];
            const double *uo = u->d, *us = u->d + 3;
            const size_t *uc = u->z + 6;
            cn_status st = f32 ? cn_grid_evalf(&g, uo, us, uc, (float *)u->d, GN, 1, NULL)
                               : cn_grid_eval(&g, uo, us, uc, u->d, GN, 1, NULL);
            CHECK(st == CN_OK, "grid over its own origin/step/count: %s", cn_strerror(st));
            CHECK(f32 ? memcmp(u->d, reff, sizeof reff) == 0 : memcmp(u->d, ref, sizeof ref) == 0,
                  "grid over its own origin/step/count (%s): results differ", f32 ? "float" : "double");
        }
        free(u);
    }
    free(o);
    free(s);
    free(cnt);
}

/* ---- cn_points_eval, cn_points_evalf ---- */

enum { PN = 16 };

/* Runs both precisions with out at byte offsets from the start of coordinate array 0 (in a
 * buffer where the double arrays sit at doubles [PN, 2PN) and [3PN, 4PN), the float arrays at
 * floats [PN, 2PN) and [3PN, 4PN)); want is expected for both; on error nothing is written. */
static void expect_points_at2(const cn_noise *g, size_t n, ptrdiff_t dbyte, ptrdiff_t fbyte, cn_status want,
                              cn_status wantf, const char *what)
{
    enum { SPAN = 6 * PN };
    double *db = test_xmalloc(SPAN * sizeof *db), *dsave = test_xmalloc(SPAN * sizeof *db);
    float *fb = test_xmalloc(SPAN * sizeof *fb), *fsave = test_xmalloc(SPAN * sizeof *fb);
    for (int i = 0; i < SPAN; i++) {
        db[i] = (double)i * 0.3125 - 7.0;
        fb[i] = (float)db[i];
    }
    memcpy(dsave, db, SPAN * sizeof *db);
    memcpy(fsave, fb, SPAN * sizeof *fb);
    const double **dc = test_xmalloc(2 * sizeof *dc);
    const float **fc = test_xmalloc(2 * sizeof *fc);
    dc[0] = db + PN, dc[1] = db + 3 * PN;
    fc[0] = fb + PN, fc[1] = fb + 3 * PN;
    /* The out pointers are formed by byte arithmetic on purpose; misaligned ones must be refused
     * (CN_E_OVERLAP) before anything is read or written through them. */
    double *dout = (double *)(void *)((unsigned char *)(void *)dc[0] + dbyte);
    float *fout = (float *)(void *)((unsigned char *)(void *)fc[0] + fbyte);
    double r[2];
    float rf[2];
    memset(r, TEST_SENTINEL, sizeof r);
    memset(rf, TEST_SENTINEL, sizeof rf);
    cn_status st = cn_points_eval(g, n, dc, dout, 1, r);
    cn_status stf = cn_points_evalf(g, n, fc, fout, 1, rf);
    CHECK(st == want, "cn_points_eval, %s: %s, want %s", what, cn_strerror(st), cn_strerror(want));
    CHECK(stf == wantf, "cn_points_evalf, %s: %s, want %s", what, cn_strerror(stf), cn_strerror(wantf));
    if (want != CN_OK || wantf != CN_OK) {
        CHECK(memcmp(db, dsave, SPAN * sizeof *db) == 0 && memcmp(fb, fsave, SPAN * sizeof *fb) == 0 &&
                  test_untouched(r, sizeof r) && test_untouched(rf, sizeof rf),
              "points, %s: buffers or range written on error", what);
    } else if (st == CN_OK && stf == CN_OK) {
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            double p[2] = {dsave[PN + i], dsave[3 * PN + i]};
            float pf[2] = {fsave[PN + i], fsave[3 * PN + i]};
            bad += !test_same_bits(dout[i], cn_eval(g, p)) || !test_same_bitsf(fout[i], cn_evalf(g, pf));
        }
        CHECK(bad == 0, "points, %s: %d results differ from the point API", what, bad);
        CHECK(memcmp(dc[0], dsave + PN, n * sizeof *db) == 0 && memcmp(dc[1], dsave + 3 * PN, n * sizeof *db) == 0 &&
                  memcmp(fc[0], fsave + PN, n * sizeof *fb) == 0 && memcmp(fc[1], fsave + 3 * PN, n * sizeof *fb) == 0,
              "points, %s: a coordinate array changed", what);
    }
    free(db);
    free(dsave);
    free(fb);
    free(fsave);
    free(dc);
    free(fc);
}

static void expect_points_at(const cn_noise *g, size_t n, ptrdiff_t dbyte, ptrdiff_t fbyte, cn_status want,
                             const char *what)
{
    expect_points_at2(g, n, dbyte, fbyte, want, want, what);
}

static void test_points(void)
{
    cn_noise g = make(CN_NOISE_SIMPLEX, 2);
    const ptrdiff_t D = sizeof(double), F = sizeof(float), N = PN;
    /* Not overlapping: adjacent on either side, between the arrays. */
    expect_points_at(&g, PN, -N * D, -N * F, CN_OK, "out just before coords[0]");
    expect_points_at(&g, PN, N * D, N * F, CN_OK, "out between coords[0] and coords[1]");
    expect_points_at(&g, PN, 3 * N * D, 3 * N * F, CN_OK, "out just after coords[1]");
    expect_points_at(&g, 1, (N - 1) * D, (N - 1) * F, CN_OK, "n = 1, out on coords[0]'s last element");
    /* Overlapping. */
    expect_points_at(&g, PN, 0, 0, CN_E_OVERLAP, "out == coords[0]");
    expect_points_at(&g, PN, 2 * N * D, 2 * N * F, CN_E_OVERLAP, "out == coords[1]");
    expect_points_at(&g, PN, D, F, CN_E_OVERLAP, "out one element into coords[0]");
    expect_points_at(&g, PN, (N - 1) * D, (N - 1) * F, CN_E_OVERLAP, "out's first element is coords[0]'s last");
    expect_points_at(&g, PN, -(N - 1) * D, -(N - 1) * F, CN_E_OVERLAP, "out's last element is coords[0]'s first");
    expect_points_at(&g, PN / 2, N / 4 * D, N / 4 * F, CN_E_OVERLAP, "out inside coords[0]");
    expect_points_at(&g, PN, 2 * N * D + N / 2 * D, 2 * N * F + N / 2 * F, CN_E_OVERLAP, "out half into coords[1]");
    expect_points_at(&g, PN, 1, 1, CN_E_OVERLAP, "out misaligned by +1 byte");
    expect_points_at(&g, PN, -1, -1, CN_E_OVERLAP, "out misaligned by -1 byte");
    expect_points_at(&g, PN, N * D - 1, N * F - 1, CN_E_OVERLAP, "out starts on coords[0]'s last byte");
    expect_points_at(&g, PN, -N * D + 1, -N * F + 1, CN_E_OVERLAP, "out ends on coords[0]'s first byte");
    expect_points_at(&g, PN, 3 * N * D - 1, 3 * N * F - 1, CN_E_OVERLAP, "out starts on coords[1]'s last byte");
    /* n = 0: nothing overlaps, nothing is written. */
    expect_points_at(&g, 0, 0, 0, CN_OK, "n = 0, out == coords[0]");

    /* Huge n with out over a coordinate array: refused before anything is touched, whatever the
     * address arithmetic does near the top of the address space. */
    const size_t nd = SIZE_MAX / sizeof(double), nf = SIZE_MAX / sizeof(float);
    expect_points_at(&g, SIZE_MAX, 0, 0, CN_E_OVERFLOW, "n = SIZE_MAX");
    /* SIZE_MAX/8 + 1 doubles overflow; as many floats do not, and overlap. */
    expect_points_at2(&g, nd + 1, 0, 0, CN_E_OVERFLOW, CN_E_OVERLAP, "n = SIZE_MAX/8 + 1, out == coords[0]");
    expect_points_at2(&g, nd + 1, -N * D, -N * F, CN_E_OVERFLOW, CN_E_OVERLAP, "n = SIZE_MAX/8 + 1, out before coords[0]");
    {
        char what[96];
        const size_t ns[] = {nd, nd - 1, nd / 2 + 1, (size_t)1 << (sizeof(size_t) * CHAR_BIT - 4)};
        const ptrdiff_t at[] = {0, D, -D, 1, -1, 2 * N * D, -N * D};
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
            for (size_t j = 0; j < sizeof at / sizeof at[0]; j++) {
                snprintf(what, sizeof what, "n = %zu, out at byte %td of coords[0]", ns[k], at[j]);
                /* Every such out overlaps a coordinate array of n doubles (or floats). */
                expect_points_at(&g, ns[k], at[j], at[j] % D ? at[j] : at[j] / D * F, CN_E_OVERLAP, what);
            }
        /* floats: n up to SIZE_MAX/4 does not overflow. */
        float *fb = test_xmalloc(4 * N * sizeof *fb);
        for (int i = 0; i < 4 * N; i++)
            fb[i] = (float)i;
        const float *fc[2] = {fb + N, fb + 3 * N};
        const size_t nfs[] = {nf, nf - 1, nd + 1};
        const ptrdiff_t fat[] = {0, F, -F, 1, -1, N * F};
        for (size_t k = 0; k < 3; k++)
            for (size_t j = 0; j < sizeof fat / sizeof fat[0]; j++) {
                float *out = (float *)(void *)((unsigned char *)(void *)fc[0] + fat[j]);
                cn_status st = cn_points_evalf(&g, nfs[k], fc, out, 1, NULL);
                CHECK(st == CN_E_OVERLAP, "cn_points_evalf, n = %zu, out at byte %td of coords[0]: %s", nfs[k], fat[j],
                      cn_strerror(st));
            }
        free(fb);
    }

    /* NULL pointers, one at a time; coordinate pointers past dims are not read. */
    double *d0 = test_xmalloc(PN * sizeof *d0), *d1 = test_xmalloc(PN * sizeof *d1), out[PN], r[2];
    float *f0 = test_xmalloc(PN * sizeof *f0), *f1 = test_xmalloc(PN * sizeof *f1), outf[PN], rf[2];
    for (int i = 0; i < PN; i++) {
        d0[i] = i * 0.7 - 3;
        d1[i] = i * -1.1 + 2;
        f0[i] = (float)d0[i];
        f1[i] = (float)d1[i];
    }
    const double *dc[3] = {d0, d1, out};
    const float *fc[3] = {f0, f1, outf};
#define EXPECTP(n, dcs, fcs, dout, fout, th, want, what)                                                           \
    do {                                                                                                            \
        memset(out, TEST_SENTINEL, sizeof out);                                                                         \
        memset(outf, TEST_SENTINEL, sizeof outf);                                                                       \
        memset(r, TEST_SENTINEL, sizeof r);                                                                             \
        memset(rf, TEST_SENTINEL, sizeof rf);                                                                           \
        cn_status st_ = cn_points_eval(&g, (n), (dcs), (dout), (th), r);                                            \
        cn_status stf_ = cn_points_evalf(&g, (n), (fcs), (fout), (th), rf);                                         \
        CHECK(st_ == (want), "cn_points_eval, %s: %s, want %s", what, cn_strerror(st_), cn_strerror(want));         \
        CHECK(stf_ == (want), "cn_points_evalf, %s: %s, want %s", what, cn_strerror(stf_), cn_strerror(want));      \
        if ((want) != CN_OK)                                                                                        \
            CHECK(test_untouched(out, sizeof out) && test_untouched(outf, sizeof outf) && test_untouched(r, sizeof r) &&          \
                      test_untouched(rf, sizeof rf),                                                                     \
                  "points, %s: output or range written on error", what);                                           \
    } while (0)
    EXPECTP(PN, dc, fc, out, outf, 1, CN_OK, "coords[2] == out, past dims");
    {
        int bad = 0;
        for (int i = 0; i < PN; i++) {
            double p[2] = {d0[i], d1[i]};
            float pf[2] = {f0[i], f1[i]};
            bad += !test_same_bits(out[i], cn_eval(&g, p)) || !test_same_bitsf(outf[i], cn_evalf(&g, pf));
        }
        CHECK(bad == 0, "points: %d results differ from the point API", bad);
    }
    EXPECTP(PN, NULL, NULL, out, outf, 1, CN_E_NULL, "coords NULL");
    EXPECTP(0, NULL, NULL, out, outf, 1, CN_E_NULL, "n = 0, coords NULL");
    for (int a = 0; a < 2; a++) {
        const double *dn[2] = {d0, d1};
        const float *fn[2] = {f0, f1};
        dn[a] = NULL;
        fn[a] = NULL;
        EXPECTP(PN, dn, fn, out, outf, 1, CN_E_NULL, a ? "coords[1] NULL" : "coords[0] NULL");
    }
    {
        cn_status st = cn_points_eval(NULL, PN, dc, out, 1, r), stf = cn_points_evalf(NULL, PN, fc, outf, 1, rf);
        CHECK(st == CN_E_NULL && stf == CN_E_NULL, "points, gen NULL: %s / %s", cn_strerror(st), cn_strerror(stf));
        st = cn_points_eval(&g, PN, dc, NULL, 1, r);
        stf = cn_points_evalf(&g, PN, fc, NULL, 1, rf);
        CHECK(st == CN_E_NULL && stf == CN_E_NULL, "points, out NULL: %s / %s", cn_strerror(st), cn_strerror(stf));
    }
    const int bad_threads[] = {-1, CN_MAX_THREADS + 1, INT_MAX, INT_MIN};
    for (int k = 0; k < 4; k++) {
        EXPECTP(PN, dc, fc, out, outf, bad_threads[k], CN_E_THREADS, "a bad thread count");
        EXPECTP(0, dc, fc, out, outf, bad_threads[k], CN_E_THREADS, "n = 0, a bad thread count");
    }
    /* n = 0 does nothing: the output untouched, the range NaN, NaN. */
    EXPECTP(0, dc, fc, out, outf, 0, CN_OK, "n = 0");
    CHECK(test_untouched(out, sizeof out) && test_untouched(outf, sizeof outf), "n = 0 wrote the output");
    CHECK(isnan(r[0]) && isnan(r[1]) && isnan(rf[0]) && isnan(rf[1]), "n = 0: range [%g, %g]", r[0], r[1]);
    /* n = 1 with every valid thread count. */
    const int good_threads[] = {0, 1, 2, CN_MAX_THREADS};
    for (int k = 0; k < 4; k++) {
        EXPECTP(1, dc, fc, out, outf, good_threads[k], CN_OK, "n = 1");
        double p[2] = {d0[0], d1[0]};
        CHECK(test_same_bits(out[0], cn_eval(&g, p)) && test_same_bits(r[0], out[0]) && test_same_bits(r[1], out[0]) &&
                  test_untouched(out + 1, sizeof out - sizeof out[0]),
              "n = 1, %d threads: %g, range [%g, %g]", good_threads[k], out[0], r[0], r[1]);
    }
    /* All points NaN: the outputs NaN, the range NaN, NaN. */
    for (int i = 0; i < PN; i++) {
        d1[i] = NAN;
        f1[i] = NAN;
    }
    EXPECTP(PN, dc, fc, out, outf, 1, CN_OK, "all NaN");
    int nan_out = 0;
    for (int i = 0; i < PN; i++)
        nan_out += isnan(out[i]) && isnan(outf[i]);
    CHECK(nan_out == PN && isnan(r[0]) && isnan(r[1]) && isnan(rf[0]) && isnan(rf[1]),
          "all-NaN points: %d of %d NaN, range [%g, %g]", nan_out, PN, r[0], r[1]);
    /* out over the array of coordinate pointers (not a coordinate array): the pointers are read first. */
    {
        union {
            const double *p[2];
            double d[PN];
        } *u = test_xmalloc(sizeof *u);
        for (int i = 0; i < PN; i++)
            d1[i] = i * 0.25;
        double ref[PN];
        const double *dref[2] = {d0, d1};
        CHECK(cn_points_eval(&g, PN, dref, ref, 1, NULL) == CN_OK, "points reference");
        u->p[0] = d0;
        u->p[1] = d1;
        cn_status st = cn_points_eval(&g, PN, u->p, u->d, 1, NULL);
        CHECK(st == CN_OK && memcmp(u->d, ref, sizeof ref) == 0, "out over the coordinate pointers: %s",
              cn_strerror(st));
        free(u);
    }
#undef EXPECTP
    free(d0);
    free(d1);
    free(f0);
    free(f1);
}

/* ---- out over the generator itself (the kernels read it while they write) ---- */

static void test_out_over_gen(void)
{
    enum { M = 64 };
    const size_t gbytes = sizeof(cn_noise);
    /* A generator with room after it, all in one allocation (malloc aligns for both). */
    unsigned char *buf = test_xmalloc(gbytes + M * sizeof(double)), *save = test_xmalloc(gbytes + M * sizeof(double));
    cn_noise *g = (cn_noise *)(void *)buf;
    *g = make(CN_NOISE_PERLIN, 1);
    memset(buf + gbytes, TEST_SENTINEL, M * sizeof(double));
    memcpy(save, buf, gbytes + M * sizeof(double));
    double *x = test_xmalloc(M * sizeof *x);
    float *xf = test_xmalloc(M * sizeof *xf);
    for (int i = 0; i < M; i++) {
        x[i] = i * 0.3;
        xf[i] = (float)x[i];
    }
    const double *xc[1] = {x};
    const float *xfc[1] = {xf};
    double o[1] = {0.5}, s[1] = {0.25};
    size_t cnt[1] = {M};
    /* Byte offsets of out from the generator's start: at it, inside it, its last byte. */
    const size_t at[] = {0, 8, gbytes / 2, gbytes - sizeof(double), gbytes - 1};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        void *out = buf + at[k];
        cn_status a = cn_points_eval(g, M, xc, (double *)out, 1, NULL);
        cn_status b = cn_points_evalf(g, M, xfc, (float *)out, 1, NULL);
        cn_status c = cn_grid_eval(g, o, s, cnt, (double *)out, M, 1, NULL);
        cn_status d = cn_grid_evalf(g, o, s, cnt, (float *)out, M, 1, NULL);
        CHECK(a == CN_E_OVERLAP && b == CN_E_OVERLAP && c == CN_E_OVERLAP && d == CN_E_OVERLAP,
              "out at byte %zu of the generator: points %s / %s, grid %s / %s", at[k], cn_strerror(a), cn_strerror(b),
              cn_strerror(c), cn_strerror(d));
        CHECK(memcmp(buf, save, gbytes + M * sizeof(double)) == 0, "out at byte %zu of the generator: written", at[k]);
    }
    /* Just after the generator: no overlap, the point API's values. */
    double *after = (double *)(void *)(buf + gbytes);
    CHECK(cn_points_eval(g, M, xc, after, 1, NULL) == CN_OK && test_same_bits(after[M - 1], cn_eval(g, &x[M - 1])),
          "points right after the generator");
    CHECK(cn_grid_eval(g, o, s, cnt, after, M, 1, NULL) == CN_OK && test_same_bits(after[3], cn_eval1(g, 0.5 + 3 * 0.25)),
          "grid right after the generator");
    free(buf);
    free(save);
    free(x);
    free(xf);
}

/* ---- cn_isa_* ---- */

static void test_isa(void)
{
    static const char *const names[CN_ISA_COUNT] = {"scalar", "sse2", "avx2", "avx512", "neon"};
    for (int i = 0; i < CN_ISA_COUNT; i++)
        CHECK(strcmp(cn_isa_name((cn_isa)i), names[i]) == 0, "cn_isa_name(%d) = %s", i, cn_isa_name((cn_isa)i));
    const int bad[] = {-1, CN_ISA_COUNT, CN_ISA_COUNT + 1, INT_MAX, INT_MIN};
    for (int k = 0; k < 5; k++) {
        const char *n = cn_isa_name((cn_isa)bad[k]);
        CHECK(n != NULL && strcmp(n, "unknown") == 0, "cn_isa_name(%d) = %s", bad[k], n ? n : "(null)");
        CHECK(cn_isa_compiled((cn_isa)bad[k]) == 0 && cn_isa_supported((cn_isa)bad[k]) == 0,
              "instruction set %d compiled %d, supported %d", bad[k], cn_isa_compiled((cn_isa)bad[k]),
              cn_isa_supported((cn_isa)bad[k]));
    }
    CHECK(cn_isa_compiled(CN_ISA_SCALAR) && cn_isa_supported(CN_ISA_SCALAR), "scalar is always there");
    const cn_isa before = cn_isa_active();
    CHECK((int)before >= 0 && before < CN_ISA_COUNT && cn_isa_compiled(before) && cn_isa_supported(before),
          "active instruction set %d", (int)before);
    CHECK(cn_isa_set_cap(CN_ISA_SCALAR) == CN_OK && cn_isa_active() == CN_ISA_SCALAR, "cap scalar");
    const int bad_cap[] = {-1, CN_ISA_COUNT + 1, INT_MAX, INT_MIN};
    for (int k = 0; k < 4; k++) {
        cn_status st = cn_isa_set_cap((cn_isa)bad_cap[k]);
        CHECK(st == CN_E_ISA, "cn_isa_set_cap(%d): %s", bad_cap[k], cn_strerror(st));
        CHECK(cn_isa_active() == CN_ISA_SCALAR, "a refused cap %d changed the active set to %s", bad_cap[k],
              cn_isa_name(cn_isa_active()));
    }
    /* Every valid cap, compiled here or not, is accepted and never exceeded (a cap is a register
     * width: test.h). */
    for (int i = 0; i < CN_ISA_COUNT; i++) {
        CHECK(cn_isa_set_cap((cn_isa)i) == CN_OK, "cap %s", names[i]);
        const cn_isa a = cn_isa_active();
        CHECK(test_isa_width(a) <= test_isa_width(i) && cn_isa_compiled(a) && cn_isa_supported(a), "cap %s: active %s",
              names[i], cn_isa_name(a));
    }
    CHECK(cn_isa_set_cap(CN_ISA_COUNT) == CN_OK && cn_isa_active() == before, "removing the cap gives %s, was %s",
          cn_isa_name(cn_isa_active()), cn_isa_name(before));
}

int main(void)
{
    test_strings();
    test_config();
    test_rotate();
    test_config_octaves();
    test_unbuilt();
    test_eval();
    test_noise_range();
    test_layers();
    test_grid();
    test_points();
    test_out_over_gen();
    test_isa();
    return test_summary("test_abuse");
}
