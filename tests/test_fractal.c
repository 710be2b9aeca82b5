/* test_fractal.c -- fractal sums, tiling, the domain and signal transforms, and layers.
 *
 *   1. periodicity, bit for bit: every noise x fractal, periods on all axes and on some, power-of-two
 *      frequencies, dyadic offsets, lacunarity 2 and 3, double and float entry points;
 *   2. seamless tiles: the wrap-around difference of a periodic image against its interior;
 *   3. continuity of the tiling simplex lattice (and of every periodic noise across the wrap);
 *   4. range contracts of the four fractal sums over >= 10^6 samples each, with the reach measured;
 *   5. octave structure: octaves = 1, the documented sums against the base noises, per-octave seeds,
 *      no pile-up at the origin, octave skipping below 2^-24, the 2^40 frequency limit, no NaN;
 *   6. validation statuses;
 *   7. domain (offset, axis_frequency, rotation) and signal (amplitude, bias);
 *   8. cn_layers_eval.
 * Every bound is a documented contract or is stated next to the figure it was set from. */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cnoise.h"
#include "test.h"

/* ---- the noises under test ---- */

typedef struct kind {
    cn_noise_type type;
    int dims;
    cn_mode mode;
    const char *name;
} kind;

static const kind KINDS[] = {
    {CN_NOISE_PERLIN, 1, CN_MODE_DEFAULT, "perlin1"},
    {CN_NOISE_PERLIN, 2, CN_MODE_DEFAULT, "perlin2"},
    {CN_NOISE_PERLIN, 3, CN_MODE_DEFAULT, "perlin3"},
    {CN_NOISE_PERLIN, 4, CN_MODE_DEFAULT, "perlin4"},
    {CN_NOISE_SIMPLEX, 2, CN_MODE_DEFAULT, "simplex2"},
    {CN_NOISE_SIMPLEX, 3, CN_MODE_DEFAULT, "simplex3"},
    {CN_NOISE_SIMPLEX, 4, CN_MODE_DEFAULT, "simplex4"},
    {CN_NOISE_VALUE, 1, CN_MODE_DEFAULT, "value1"},
    {CN_NOISE_VALUE, 2, CN_MODE_DEFAULT, "value2"},
    {CN_NOISE_VALUE, 3, CN_MODE_DEFAULT, "value3"},
    {CN_NOISE_VALUE, 4, CN_MODE_DEFAULT, "value4"},
    {CN_NOISE_PERLIN, 1, CN_MODE_CLASSIC, "classic perlin1"},
    {CN_NOISE_PERLIN, 2, CN_MODE_CLASSIC, "classic perlin2"},
    {CN_NOISE_PERLIN, 3, CN_MODE_CLASSIC, "classic perlin3"},
    {CN_NOISE_PERLIN, 4, CN_MODE_CLASSIC, "classic perlin4"},
    {CN_NOISE_SIMPLEX, 2, CN_MODE_CLASSIC, "classic simplex2"},
    {CN_NOISE_SIMPLEX, 3, CN_MODE_CLASSIC, "classic simplex3"},
    {CN_NOISE_SIMPLEX, 4, CN_MODE_CLASSIC, "classic simplex4"},
    {CN_NOISE_VALUE_CUBIC, 1, CN_MODE_DEFAULT, "value-cubic1"},
    {CN_NOISE_VALUE_CUBIC, 2, CN_MODE_DEFAULT, "value-cubic2"},
    {CN_NOISE_VALUE_CUBIC, 3, CN_MODE_DEFAULT, "value-cubic3"},
    {CN_NOISE_VALUE_CUBIC, 4, CN_MODE_DEFAULT, "value-cubic4"},
    {CN_NOISE_CELLULAR, 2, CN_MODE_DEFAULT, "cellular2"},
    {CN_NOISE_CELLULAR, 3, CN_MODE_DEFAULT, "cellular3"},
    {CN_NOISE_CELLULAR, 4, CN_MODE_DEFAULT, "cellular4"},
    {CN_NOISE_OPENSIMPLEX2, 2, CN_MODE_DEFAULT, "opensimplex2-2"},
    {CN_NOISE_OPENSIMPLEX2, 3, CN_MODE_DEFAULT, "opensimplex2-3"},
    {CN_NOISE_OPENSIMPLEX2, 4, CN_MODE_DEFAULT, "opensimplex2-4"},
    {CN_NOISE_OPENSIMPLEX2S, 2, CN_MODE_DEFAULT, "opensimplex2s-2"},
    {CN_NOISE_OPENSIMPLEX2S, 3, CN_MODE_DEFAULT, "opensimplex2s-3"},
    {CN_NOISE_OPENSIMPLEX2S, 4, CN_MODE_DEFAULT, "opensimplex2s-4"},
};
#define NKINDS ((int)(sizeof KINDS / sizeof KINDS[0]))

static const char *const FRACTAL_NAME[7] = {"none", "fbm", "turbulence", "billow", "ridged", "pingpong", "erosion"};

/* Periods of a kind must be multiples of this (simplex and OpenSimplex2 2D: their tiling lattice). */
static uint32_t pmul(const kind *k) { return cn_period_multiple(k->type, k->dims); }
/* Whether a kind takes periods: OpenSimplex2 3D (a rotated lattice) does not. */
#define IS_OS2(k) ((k)->type == CN_NOISE_OPENSIMPLEX2 || (k)->type == CN_NOISE_OPENSIMPLEX2S)
#define NO_PERIOD(k) (IS_OS2(k) && (k)->dims == 3)
/* Simplex-type lattices (skew and unskew), which tile on simplex's tiling lattice. */
#define SIMPLEX_LATTICE(k) ((k)->type == CN_NOISE_SIMPLEX || (IS_OS2(k) && (k)->dims == 2))

/* The erosion fractal needs a gradient: cn_config_check refuses it for cellular noise. */
#define NO_EROSION(k, fr) ((fr) == CN_FRACTAL_EROSION && (k)->type == CN_NOISE_CELLULAR)

#define OCTAVE_SEED_STEP UINT64_C(0xD1B54A32D192ED03) /* the documented per-octave seed step */

static cn_config kcfg(const kind *k, uint64_t seed)
{
    cn_config c;
    cn_config_init(&c);
    c.frequency = 1.0; /* the frequency these cases were written for */
    c.type = k->type;
    c.dims = k->dims;
    c.mode = k->mode;
    c.seed = seed;
    return c;
}

static int build(cn_noise *g, const cn_config *c, const char *what)
{
    cn_status st = cn_noise_build(g, c);
    CHECK(st == CN_OK, "%s: build: %s", what, cn_strerror(st));
    return st == CN_OK;
}

/* ---- a small deterministic generator (SplitMix64) ---- */

static uint64_t rng_state = UINT64_C(0x5DEECE66D1234567);

static uint64_t rnd64(void) { return test_mix64(rng_state += UINT64_C(0xD1B54A32D192ED03)); } /* SplitMix64, another step */
static double rnd01(void) { return test_unit(rnd64()); }
static double rnd_range(double lo, double hi) { return lo + (hi - lo) * rnd01(); }
static int rnd_int(int n) { return (int)(rnd64() % (uint64_t)n); }

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* ======================================================================================== */
/* 1. periodicity, bit for bit                                                              */
/* ======================================================================================== */

static const uint32_t PBASE[] = {1, 2, 3, 5, 256, 1000, 1u << 20};
#define NPBASE ((int)(sizeof PBASE / sizeof PBASE[0]))
static const double FREQS[] = {1.0, 4.0, 0.25};

/* A multiple of 2^-8: mostly in [-128, 128), some near +-1e6, some small integers, some at or next
 * to a multiple of the axis' input period L (0: not periodic). */
static double rnd_dyadic(double L)
{
    switch (rnd_int(10)) {
    case 0: return (rnd64() & 1 ? -1.0 : 1.0) * (1e6 + rnd_int(1 << 20) / 256.0);
    case 1: return (double)(rnd_int(9) - 4);
    case 2:
        if (L > 0)
            return L * (rnd_int(5) - 2) + (rnd_int(5) - 2) / 256.0;
        /* fall through */
    default: return (rnd_int(1 << 16) - (1 << 15)) / 256.0;
    }
}

static void test_periodicity(void)
{
    static const int KS[] = {-2, -1, 1, 3};
    long all_cfg = 0, all_cmp = 0, all_cmpf = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        const int dims = k->dims, all = (1 << dims) - 1;
        if (NO_PERIOD(k))
            continue;
        long cmp = 0, cmpf = 0, bad = 0, badf = 0, inexact = 0, ncfg = 0;
        int idx = 0;
        for (int fr = 0; fr <= CN_FRACTAL_EROSION; fr++)
            for (int pi = 0; pi < NPBASE; pi++)
                for (int variant = 0; variant < 2; variant++, idx++) {
                    if (NO_EROSION(k, fr))
                        continue;
                    cn_config c = kcfg(k, rnd64());
                    c.fractal = (cn_fractal)fr;
                    c.octaves = 4;
                    c.lacunarity = (idx & 1) ? 3.0 : 2.0;
                    c.gain = 0.5 + 0.1 * (idx % 3);
                    c.frequency = FREQS[idx % 3];
                    c.weighted_strength = idx % 5 == 2 ? 0.6 : 0.0;
                    if (idx % 4 == 3)
                        for (int a = 0; a < dims; a++)
                            c.axis_frequency[a] = ldexp(1.0, rnd_int(3) - 1);
                    if ((idx / 2) % 2 == 0)
                        for (int a = 0; a < dims; a++)
                            c.offset[a] = (rnd_int(1 << 16) - (1 << 15)) / 256.0;
                    uint32_t P = PBASE[pi] * pmul(k);
                    int mask = (variant && dims > 1) ? 1 + rnd_int(all - 1) : all;
                    for (int a = 0; a < dims; a++)
                        if (mask >> a & 1)
                            c.period[a] = variant ? P * (uint32_t)(a + 1) : P;
                    char what[120];
                    snprintf(what, sizeof what, "periodicity %s %s period %u mask %d", k->name, FRACTAL_NAME[fr],
                             P, mask);
                    cn_noise g;
                    if (!build(&g, &c, what))
                        continue;
                    ncfg++;
                    double L[4] = {0, 0, 0, 0};
                    for (int a = 0; a < dims; a++)
                        if (c.period[a])
                            L[a] = c.period[a] / (c.frequency * c.axis_frequency[a]);
                    for (int t = 0; t < 12; t++) {
                        double p[4];
                        float pf[4];
                        int fexact = 1;
                        for (int a = 0; a < dims; a++) {
                            p[a] = rnd_dyadic(L[a]);
                            pf[a] = (float)p[a];
                            fexact &= pf[a] == p[a];
                        }
                        const double v0 = cn_eval(&g, p);
                        const float vf0 = fexact ? cn_evalf(&g, pf) : 0.0f;
                        if (!isfinite(v0) || (fexact && !isfinite(vf0))) {
                            bad++;
                            fprintf(stderr, "%s: non-finite %g / %g at %s\n", what, v0, (double)vf0, test_fmt_point(p, dims));
                            continue;
                        }
                        /* One axis at a time, then all periodic axes at once. */
                        for (int a = 0; a <= dims; a++) {
                            if (a < dims && !L[a])
                                continue;
                            for (int ks = 0; ks < 4; ks++) {
                                double q[4];
                                memcpy(q, p, sizeof q);
                                int ok = 1;
                                for (int b = 0; b < dims; b++) {
                                    if (!L[b] || (a < dims && b != a))
                                        continue;
                                    int kk = a < dims ? KS[ks] : KS[rnd_int(4)];
                                    q[b] = p[b] + kk * L[b];
                                    ok &= q[b] - kk * L[b] == p[b];
                                }
                                if (!ok) {
                                    inexact++;
                                    continue;
                                }
                                double v = cn_eval(&g, q);
                                cmp++;
                                if (!test_same_bits(v, v0) && bad++ < 5)
                                    fprintf(stderr, "%s: f%s = %.17g but f%s = %.17g\n", what, test_fmt_point(p, dims), v0,
                                            test_fmt_point(q, dims), v);
                                if (fexact) {
                                    float qf[4];
                                    int fe = 1;
                                    for (int b = 0; b < dims; b++) {
                                        qf[b] = (float)q[b];
                                        fe &= qf[b] == q[b];
                                    }
                                    if (fe) {
                                        float vf = cn_evalf(&g, qf);
                                        cmpf++;
                                        if (!test_same_bitsf(vf, vf0) && badf++ < 5)
                                            fprintf(stderr, "%s: float f%s = %.9g but f%s = %.9g\n", what,
                                                    test_fmt_point(p, dims), (double)vf0, test_fmt_point(q, dims), (double)vf);
                                    }
                                }
                            }
                        }
                    }
                }
        CHECK(bad == 0 && badf == 0, "%s: %ld of %ld double and %ld of %ld float shifts by a period changed the value",
              k->name, bad, cmp, badf, cmpf);
        CHECK(inexact == 0, "%s: %ld shifted points were not exact (test set-up)", k->name, inexact);
        CHECK(cmp >= 1000 && cmpf >= 500, "%s: too few comparisons (%ld double, %ld float)", k->name, cmp, cmpf);
        printf("periodicity %-16s %ld configs, %ld double and %ld float shifted points, bit-identical: %s\n",
               k->name, ncfg, cmp, cmpf, bad || badf ? "NO" : "yes");
        all_cfg += ncfg;
        all_cmp += cmp;
        all_cmpf += cmpf;
    }
    printf("periodicity total: %ld configs, %ld + %ld comparisons\n", all_cfg, all_cmp, all_cmpf);
}

/* Far coordinates, where the same contract holds: whole numbers in [2^52, 2^53) (every whole period
 * shift is exact there), whole numbers just either side of a multiple of 2^32 (the lattice index
 * wraps there), and dyadic points near +-2^40. Frequency 1, whole periods, 4 octaves. */
static double far_coord(void)
{
    switch (rnd_int(4)) {
    case 0: return (rnd64() & 1 ? -1.0 : 1.0) * (4503599627370496.0 + (double)rnd_int(1 << 30));
    case 1: return (rnd64() & 1 ? -1.0 : 1.0) * (ldexp((double)((1 << 20) + rnd_int(1 << 20) - 1), 32) +
                                                 (double)(rnd_int(4001) - 2000));
    case 2: return (rnd64() & 1 ? -1.0 : 1.0) * (1099511627776.0 + rnd_int(1 << 20) / 256.0);
    default: return (rnd_int(1 << 20) - (1 << 19)) + 0.5;
    }
}

static void test_periodicity_far(void)
{
    static const uint32_t PS[] = {3, 5, 1000, 1u << 20};
    static const int KS[] = {-2, -1, 1, 3};
    static const cn_fractal FR[] = {CN_FRACTAL_NONE, CN_FRACTAL_FBM, CN_FRACTAL_RIDGED};
    long cmp = 0, bad = 0, inexact = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        long kbad = 0;
        if (NO_PERIOD(k))
            continue;
        for (int fi = 0; fi < 3; fi++)
            for (int pi = 0; pi < 4; pi++) {
                cn_config c = kcfg(k, rnd64());
                c.fractal = FR[fi];
                c.octaves = 4;
                c.lacunarity = pi & 1 ? 3.0 : 2.0;
                const uint32_t P = PS[pi] * pmul(k);
                for (int a = 0; a < k->dims; a++)
                    c.period[a] = P;
                cn_noise g;
                if (!build(&g, &c, "far periodicity"))
                    continue;
                for (int t = 0; t < 16; t++) {
                    double p[4];
                    for (int a = 0; a < k->dims; a++)
                        p[a] = far_coord();
                    const double v0 = cn_eval(&g, p);
                    for (int a = 0; a < k->dims; a++)
                        for (int ks = 0; ks < 4; ks++) {
                            double q[4];
                            memcpy(q, p, sizeof q);
                            q[a] = p[a] + KS[ks] * (double)P;
                            if (q[a] - KS[ks] * (double)P != p[a]) {
                                inexact++;
                                continue;
                            }
                            double v = cn_eval(&g, q);
                            cmp++;
                            if (!(isfinite(v0) && test_same_bits(v, v0)) && kbad++ < 3)
                                fprintf(stderr, "%s %s period %u lacunarity %g: f%s = %.17g but f%s = %.17g\n",
                                        k->name, FRACTAL_NAME[c.fractal], P, c.lacunarity, test_fmt_point(p, k->dims), v0,
                                        test_fmt_point(q, k->dims), v);
                        }
                }
            }
        bad += kbad;
    }
    CHECK(bad == 0, "far coordinates: %ld of %ld shifts by a period changed the value", bad, cmp);
    CHECK(inexact == 0, "far coordinates: %ld shifted points not exact (test set-up)", inexact);
    printf("periodicity far (|p| in [2^52, 2^53), next to multiples of 2^32, near 2^40): %ld shifted points, "
           "bit-identical: %s\n", cmp, bad ? "NO" : "yes");
}

/* ======================================================================================== */
/* 2. seamless tiles                                                                        */
/* ======================================================================================== */

#define SW 96
#define SH 96
#define SFREQ 0.125 /* lattice cells per pixel: period = SW * SFREQ = 12 cells, a multiple of 1..4 */

/* v[j][i] at pixel centres (i + 0.5, j + 0.5), i in 0..SW, j in 0..SH (one extra column and row:
 * the first ones again when the noise tiles). 3D/4D: the slice z = 0.375 px, w = 1.625 px. */
static double simg[SH + 1][SW + 1];

static void render(const cn_noise *g, int dims)
{
    int rows = dims == 1 ? 1 : SH + 1;
    for (int j = 0; j < rows; j++)
        for (int i = 0; i <= SW; i++) {
            double p[4] = {i + 0.5, j + 0.5, 0.375, 1.625};
            simg[j][i] = cn_eval(g, p);
        }
}

typedef struct seam {
    double wrap_x, int_x, wrap_y, int_y; /* largest wrap-around and interior neighbour differences */
    int exact;                            /* the extra column/row equals the first, bit for bit */
} seam;

static seam measure_seams(int dims)
{
    seam s = {0, 0, 0, 0, 1};
    int rows = dims == 1 ? 1 : SH;
    for (int j = 0; j < rows; j++) {
        for (int i = 0; i + 1 < SW; i++)
            s.int_x = fmax(s.int_x, fabs(simg[j][i + 1] - simg[j][i]));
        s.wrap_x = fmax(s.wrap_x, fabs(simg[j][SW - 1] - simg[j][0]));
        s.exact &= test_same_bits(simg[j][SW], simg[j][0]);
    }
    if (dims > 1)
        for (int i = 0; i < SW; i++) {
            for (int j = 0; j + 1 < SH; j++)
                s.int_y = fmax(s.int_y, fabs(simg[j + 1][i] - simg[j][i]));
            s.wrap_y = fmax(s.wrap_y, fabs(simg[SH - 1][i] - simg[0][i]));
            s.exact &= test_same_bits(simg[SH][i], simg[0][i]);
        }
    return s;
}

static void test_seamless(void)
{
    /* The wrap column is one of SW columns of neighbour pairs of the same periodic field; it holds
     * the largest difference of the image about 1 time in SW, by chance, never by much (adjacent
     * columns of a smooth field differ little). So it must not exceed the interior maximum by more
     * than SEAM_MARGIN; measured worst ratio at the time of writing: 1.10 (printed below). */
    const double SEAM_MARGIN = 1.25;
    double worst_periodic = 0, best_nonperiodic = INFINITY;
    int n_periodic = 0, n_nonper = 0, nonper_larger = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        if (NO_PERIOD(k))
            continue;
        for (int fr = 0; fr <= CN_FRACTAL_EROSION; fr++) {
            if (NO_EROSION(k, fr))
                continue;
            cn_config c = kcfg(k, 1000 + (uint64_t)ki * 7 + (uint64_t)fr);
            c.fractal = (cn_fractal)fr;
            c.octaves = 4;
            c.frequency = SFREQ;
            cn_noise g;
            /* Not periodic: the wrap pair is 12 cells apart, so typically far apart in value. */
            if (!build(&g, &c, "seamless, not periodic"))
                continue;
            render(&g, k->dims);
            seam np = measure_seams(k->dims);
            double rnp = np.wrap_x / np.int_x;
            if (k->dims > 1)
                rnp = fmax(rnp, np.wrap_y / np.int_y);
            if (k->dims > 1) { /* 1D: a single wrap pair against the whole line; not comparable */
                n_nonper++;
                nonper_larger += rnp > 1.0;
                best_nonperiodic = fmin(best_nonperiodic, rnp);
            }
            /* Periodic on x and y (the slice axes). */
            c.period[0] = (uint32_t)(SW * SFREQ);
            if (k->dims > 1)
                c.period[1] = (uint32_t)(SH * SFREQ);
            if (!build(&g, &c, "seamless, periodic"))
                continue;
            render(&g, k->dims);
            seam s = measure_seams(k->dims);
            double r = s.wrap_x / s.int_x;
            if (k->dims > 1)
                r = fmax(r, s.wrap_y / s.int_y);
            n_periodic++;
            worst_periodic = fmax(worst_periodic, r);
            CHECK(s.exact, "%s %s: the image does not repeat exactly after %d x %d pixels", k->name,
                  FRACTAL_NAME[fr], SW, SH);
            CHECK(s.wrap_x <= SEAM_MARGIN * s.int_x && (k->dims == 1 || s.wrap_y <= SEAM_MARGIN * s.int_y),
                  "%s %s: seam: wrap-around differences x %.4g, y %.4g against interior maxima %.4g, %.4g",
                  k->name, FRACTAL_NAME[fr], s.wrap_x, s.wrap_y, s.int_x, s.int_y);
            if (fr == CN_FRACTAL_FBM)
                printf("seamless %-16s fbm: wrap x %.4f / interior %.4f, wrap y %.4f / interior %.4f; "
                       "not periodic: wrap x %.4f, wrap y %.4f\n", k->name, s.wrap_x, s.int_x, s.wrap_y, s.int_y,
                       np.wrap_x, np.wrap_y);
            /* The measure can fail: for this fixed seed the unperiodic image shows its seam. */
            if (fr == CN_FRACTAL_FBM && ki == 1)
                CHECK(np.wrap_x > SEAM_MARGIN * np.int_x && np.wrap_y > SEAM_MARGIN * np.int_y,
                      "perlin2 fbm, not periodic: wrap-around %.4g, %.4g not above interior %.4g, %.4g: the seam "
                      "measure cannot fail", np.wrap_x, np.wrap_y, np.int_x, np.int_y);
        }
    }
    /* 2D-4D, not periodic: measured 67 of 75 with the wrap-around difference above the interior
     * maximum (the rest: simplex turbulence, billow and ridged, whose creases at n = 0 make steep
     * interior steps); required: 3/4. */
    CHECK(nonper_larger * 4 >= n_nonper * 3, "only %d of %d non-periodic images have a wrap-around difference "
          "above their interior maximum", nonper_larger, n_nonper);
    printf("seamless: %d periodic images (%dx%d px, period %g cells): worst wrap/interior ratio %.3f (allowed %.2f); "
           "%d non-periodic images: %d with ratio > 1, smallest ratio %.3f\n", n_periodic, SW, SH, SW * SFREQ,
           worst_periodic, SEAM_MARGIN, n_nonper, nonper_larger, best_nonperiodic);
}

/* ======================================================================================== */
/* 3. continuity of the tiling lattice and across the wrap                                 */
/* ======================================================================================== */

#define HSEP 1e-9 /* probe pairs are this far apart */

/* Moves p onto a face of the simplex lattice with skew F, unskew G: a face of the skewed cube grid
 * (skewed coordinate b an integer) or an inner face of the cube's subdivision (skewed coordinates
 * b and c with equal fractional parts). Crossing either along e_b changes the side. */
static void onto_face(int dims, double F, double G, double *p, int b)
{
    double s = 0, ps[4], t = 0;
    for (int a = 0; a < dims; a++)
        s += p[a];
    for (int a = 0; a < dims; a++)
        ps[a] = p[a] + s * F;
    if (rnd_int(2) == 0) {
        ps[b] = floor(ps[b] + 0.5);
    } else {
        int c = (b + 1 + rnd_int(dims - 1)) % dims;
        ps[b] = ps[c] + floor(ps[b] - ps[c] + 0.5);
    }
    for (int a = 0; a < dims; a++)
        t += ps[a];
    for (int a = 0; a < dims; a++)
        p[a] = ps[a] - t * G;
}

static double pair_jump(const cn_noise *g, int dims, const double *p, const double *d)
{
    double lo[4], hi[4];
    for (int a = 0; a < dims; a++) {
        lo[a] = p[a] - 0.5 * HSEP * d[a];
        hi[a] = p[a] + 0.5 * HSEP * d[a];
    }
    double j = fabs(cn_eval(g, hi) - cn_eval(g, lo));
    return j != j ? INFINITY : j;
}

/* The coordinate of a periodic axis near the wrap: near 0 or near a (signed) multiple of P. */
static double near_wrap(uint32_t P, double spread)
{
    static const int M[] = {0, 1, -1, 2, 0};
    return (double)P * M[rnd_int(5)] + rnd_range(-spread, spread);
}

/* Max jump over three probe families: random points and directions; lattice faces near the wrap
 * (simplex only; F, G the lattice); pairs straddling the wrap itself (x = m * P +- HSEP / 2). */
static void probe(const cn_noise *g, int dims, double F, double G, int n, double *jr, double *jf, double *jw,
                  double *where)
{
    const uint32_t *P = cn_noise_config(g)->period;
    int per[4], np = 0;
    for (int a = 0; a < dims; a++)
        if (P[a])
            per[np++] = a;
    *jr = *jf = *jw = 0;
    for (int i = 0; i < n; i++) {
        double p[4], d[4], nn = 0;
        /* random */
        for (int a = 0; a < dims; a++) {
            p[a] = P[a] ? rnd_range(-1.5 * P[a], 1.5 * P[a]) : rnd_range(-50, 50);
            d[a] = rnd_range(-1, 1);
            nn += d[a] * d[a];
        }
        for (int a = 0; a < dims; a++)
            d[a] /= sqrt(nn);
        double j = pair_jump(g, dims, p, d);
        if (!(j <= *jr)) {
            *jr = j;
            memcpy(where, p, 4 * sizeof *p);
        }
        if (!np)
            continue;
        /* faces near the wrap */
        if (F > 0) {
            for (int a = 0; a < dims; a++)
                p[a] = P[a] ? near_wrap(P[a], 2.0) : rnd_range(-20, 20);
            int b = rnd_int(dims);
            onto_face(dims, F, G, p, b);
            for (int a = 0; a < dims; a++)
                d[a] = a == b;
            j = pair_jump(g, dims, p, d);
            *jf = fmax(*jf, j);
        }
        /* across the wrap */
        for (int a = 0; a < dims; a++)
            p[a] = P[a] ? near_wrap(P[a], 1.0) : rnd_range(-20, 20);
        int a = per[rnd_int(np)];
        static const int M[] = {0, 1, -1, 2};
        p[a] = (double)P[a] * M[rnd_int(4)];
        for (int b = 0; b < dims; b++)
            d[b] = b == a;
        j = pair_jump(g, dims, p, d);
        *jw = fmax(*jw, j);
    }
}

static void tiled_skew(int dims, double *F, double *G)
{
    *F = 1.0 / dims;
    *G = 1.0 / (2.0 * dims);
}

static void test_tiled_continuity(void)
{
    const int N = 12000;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        const int dims = k->dims, simplex = SIMPLEX_LATTICE(k);
        const uint32_t D = pmul(k);
        if (NO_PERIOD(k))
            continue;
        /* period sets: all axes small; all axes large; axis 0 only; the last axis only, huge */
        for (int set = 0; set < 5; set++) {
            cn_config c = kcfg(k, 77 + (uint64_t)set);
            switch (set) {
            case 0: for (int a = 0; a < dims; a++) c.period[a] = 4 * D; break;
            case 1: for (int a = 0; a < dims; a++) c.period[a] = 250 * D; break;
            case 2: c.period[0] = 3 * D; break;
            case 3: c.period[dims - 1] = (1u << 18) * D; break;
            default: /* fbm, 3 octaves, on all axes */
                for (int a = 0; a < dims; a++) c.period[a] = 2 * D;
                c.fractal = CN_FRACTAL_FBM;
                c.octaves = 3;
                break;
            }
            if (!simplex && set != 0 && set != 4)
                continue; /* Perlin, value: the wrap only */
            cn_noise g;
            if (!build(&g, &c, "tiled continuity"))
                continue;
            double F = 0, G = 0, jr, jf, jw, where[4] = {0, 0, 0, 0};
            if (simplex)
                tiled_skew(dims, &F, &G);
            probe(&g, dims, F, G, simplex ? N : N / 4, &jr, &jf, &jw, where);
            CHECK(jr < 1e-6 && jf < 1e-6 && jw < 1e-6,
                  "%s period set %d: jumps 1e-9 apart: random %.3g (at %s), faces near the wrap %.3g, across "
                  "the wrap %.3g", k->name, set, jr, test_fmt_point(where, dims), jf, jw);
            printf("tiled continuity %-16s set %d (period %u%s): max jump random %.3g, faces near wrap %.3g, "
                   "across wrap %.3g\n", k->name, set, c.period[0] ? c.period[0] : c.period[dims - 1],
                   set == 2 ? ", x only" : set == 3 ? ", last axis only" : set == 4 ? ", fbm 3" : "", jr, jf, jw);
        }
    }
    /* The face probe can fail: classic 3D simplex without a period uses radius^2 0.6 on the same
     * lattice (F = 1/3, G = 1/6) and is documented to jump at some faces. */
    cn_config c = kcfg(&KINDS[16], 5);
    cn_noise g;
    if (build(&g, &c, "classic simplex3")) {
        double jmax = 0;
        for (int i = 0; i < 20000; i++) {
            double p[4], d[4] = {0, 0, 0, 0};
            for (int a = 0; a < 3; a++)
                p[a] = rnd_range(-20, 20);
            int b = rnd_int(3);
            onto_face(3, 1.0 / 3, 1.0 / 6, p, b);
            d[b] = 1;
            jmax = fmax(jmax, pair_jump(&g, 3, p, d));
        }
        CHECK(jmax > 1e-4, "classic simplex3 (radius^2 0.6): the face probe found no jump (max %.3g)", jmax);
        printf("tiled continuity sanity: classic simplex3 unperiodic (radius^2 0.6), face probes: max jump %.3g\n",
               jmax);
    }
}

/* ======================================================================================== */
/* 4. range contracts                                                                       */
/* ======================================================================================== */

typedef struct fparams {
    int octaves;
    double gain, lacunarity, ridge_offset, ridge_gain;
} fparams;

static const fparams FPARAMS[] = {
    {5, 0.5, 2.0, 1.0, 2.0}, /* the defaults: the reach thresholds below are for this set */
    {3, 0.7, 1.9, 0.5, 4.0},
    {8, 0.35, 2.5, 0.0, 1.0},
    {2, 1.0, 3.0, 2.0, 2.0},
    {6, 1.5, 2.0, 1.0, 16.0},
};
#define NFPARAMS ((int)(sizeof FPARAMS / sizeof FPARAMS[0]))

static void test_ranges(void)
{
    const int per = 11200; /* samples per kind and parameter set: 18 x 5 x 11200 = 1 008 000 */
    /* At the default parameters (5 octaves, gain 0.5, lacunarity 2, ridge offset 1, gain 2), per kind:
     * the largest |v| (fbm), the largest v (the others), the smallest v (billow). */
    static double reach[5][NKINDS], low[5][NKINDS];
    for (int fr = 1; fr <= 4; fr++) {
        const double lo = (fr == CN_FRACTAL_FBM || fr == CN_FRACTAL_BILLOW) ? -1.0 : 0.0;
        double gmin = INFINITY, gmax = -INFINITY;
        double ridge_max[4] = {0, 0, 0, 0};
        long n = 0, outside = 0;
        for (int ki = 0; ki < NKINDS; ki++) {
            const kind *k = &KINDS[ki];
            for (int pi = 0; pi < NFPARAMS; pi++) {
                const fparams *fp = &FPARAMS[pi];
                cn_config c = kcfg(k, rnd64());
                c.fractal = (cn_fractal)fr;
                c.octaves = fp->octaves;
                c.gain = fp->gain;
                c.lacunarity = fp->lacunarity;
                c.ridge_offset = fp->ridge_offset;
                if (fr == CN_FRACTAL_RIDGED && pi > 0) /* 0, 0.5, 1, 2 across kinds and sets */
                    c.ridge_offset = (double)((ki + pi) % 4) * 0.5 + ((ki + pi) % 4 == 3) * 0.5;
                c.ridge_gain = fp->ridge_gain;
                cn_noise g;
                if (!build(&g, &c, "range"))
                    continue;
                double mn = INFINITY, mx = -INFINITY;
                for (int i = 0; i < per; i++) {
                    double p[4];
                    for (int a = 0; a < k->dims; a++)
                        p[a] = rnd_range(-1000, 1000);
                    double v = cn_eval(&g, p);
                    n++;
                    if (!(v >= lo && v <= 1.0) && outside++ < 5)
                        fprintf(stderr, "%s %s: %.17g at %s outside [%g, 1]\n", k->name, FRACTAL_NAME[fr], v,
                                test_fmt_point(p, k->dims), lo);
                    mn = fmin(mn, v);
                    mx = fmax(mx, v);
                }
                gmin = fmin(gmin, mn);
                gmax = fmax(gmax, mx);
                if (fr == CN_FRACTAL_RIDGED) {
                    int oi = c.ridge_offset == 0 ? 0 : c.ridge_offset == 0.5 ? 1 : c.ridge_offset == 1 ? 2 : 3;
                    ridge_max[oi] = fmax(ridge_max[oi], mx);
                }
                if (pi == 0) {
                    reach[fr][ki] = fr == CN_FRACTAL_FBM ? fmax(mx, -mn) : mx;
                    low[fr][ki] = mn;
                }
            }
        }
        CHECK(outside == 0, "%s: %ld of %ld samples outside [%g, 1]", FRACTAL_NAME[fr], outside, n, lo);
        CHECK(n >= 1000000, "%s: only %ld samples", FRACTAL_NAME[fr], n);
        printf("range %-10s %ld samples over %d kinds x %d parameter sets: min %.6f, max %.6f", FRACTAL_NAME[fr], n,
               NKINDS, NFPARAMS, gmin, gmax);
        if (fr == CN_FRACTAL_RIDGED)
            printf("; max by ridge_offset 0/0.5/1/2: %.4f %.4f %.4f %.4f", ridge_max[0], ridge_max[1], ridge_max[2],
                   ridge_max[3]);
        printf("\n");
        if (fr == CN_FRACTAL_TURBULENCE)
            CHECK(gmin < 0.01, "turbulence: min %.4f, not < 0.01", gmin);
        if (fr == CN_FRACTAL_RIDGED)
            for (int oi = 0; oi < 4; oi++)
                CHECK(ridge_max[oi] > 0.5, "ridged offset %g: max %.4f, not > 0.5", oi * 0.5 + (oi == 3) * 0.5,
                      ridge_max[oi]);
    }
    /*
     * Reach at the default parameters, per kind, from 11200 samples each. Thresholds set from the
     * figures printed here with margin; lowest measured at the time of writing:
     *   fbm max |v|      simplex, value 0.61 (simplex4)  -> > 0.5;   Perlin 0.52-0.55 (perlin4) -> > 0.4
     *   turbulence max   0.54 (perlin4)                  -> > 0.4
     *   billow           min <= -0.90 everywhere -> < -0.8;  max 0.135-0.145 (perlin4) -> > 0
     *   ridged max       0.94 (value4)                   -> > 0.8
     * Classic Perlin 1D is the 3D reference on the x axis (y = z = 0): only 8 of its 12 gradients have
     * an x component and |v| <= 0.5, so billow <= 0; its own thresholds (measured: fbm 0.37-0.39,
     * turbulence 0.38-0.40, billow max -0.22..-0.21): fbm > 0.3, turbulence > 0.3, billow max > -0.35.
     * Cubic value noise is scaled by (4/5)^D for its guaranteed bound, so its typical values are
     * smaller (measured, value-cubic4: fbm 0.31, turbulence 0.36, billow max -0.26):
     * fbm > 0.25 and the weak thresholds for the others.
     * Cellular F1 sits near -1 at the feature points and rarely nears its bound F1max, so its ridged
     * and billow sums reach less far (measured, cellular4: ridged max 0.80, billow min -0.80):
     * ridged > 0.7, billow min < -0.7.
     */
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        const int weak = (k->mode == CN_MODE_CLASSIC && k->type == CN_NOISE_PERLIN && k->dims == 1) ||
                         k->type == CN_NOISE_VALUE_CUBIC;
        const double fbm_min = k->type == CN_NOISE_VALUE_CUBIC ? 0.25 : weak ? 0.3 : k->type == CN_NOISE_PERLIN ? 0.4 : 0.5;
        printf("range reach %-16s fbm max |v| %.4f, turbulence max %.4f, billow [%.4f, %.4f], ridged max %.4f\n",
               k->name, reach[1][ki], reach[2][ki], low[3][ki], reach[3][ki], reach[4][ki]);
        CHECK(reach[1][ki] > fbm_min, "%s: fbm 5 octaves reaches only |v| %.4f, not > %g", k->name, reach[1][ki],
              fbm_min);
        CHECK(reach[2][ki] > (weak ? 0.3 : 0.4), "%s: turbulence 5 octaves reaches only %.4f", k->name, reach[2][ki]);
        const int cell = k->type == CN_NOISE_CELLULAR;
        CHECK(reach[3][ki] > (weak ? -0.35 : 0.0) && low[3][ki] < (cell ? -0.7 : -0.8),
              "%s: billow 5 octaves spans only [%.4f, %.4f]", k->name, low[3][ki], reach[3][ki]);
        CHECK(reach[4][ki] > (cell ? 0.7 : 0.8), "%s: ridged 5 octaves reaches only %.4f", k->name, reach[4][ki]);
    }
}

/* ======================================================================================== */
/* 5. octave structure                                                                      */
/* ======================================================================================== */

/* The base noise of octave i of c, built on its own: seed + i * OCTAVE_SEED_STEP, period * lacunarity^i. */
static int octave_noise(cn_noise *g, const cn_config *c, int i, double mult)
{
    cn_config b = *c;
    b.fractal = CN_FRACTAL_NONE;
    b.seed = c->seed + (uint64_t)i * OCTAVE_SEED_STEP;
    b.frequency = 1.0;
    for (int a = 0; a < 4; a++) {
        b.axis_frequency[a] = 1.0;
        b.offset[a] = 0.0;
        b.period[a] = (uint32_t)(c->period[a] * mult);
    }
    b.rotate = 0;
    b.amplitude = 1.0;
    b.bias = 0.0;
    return build(g, &b, "octave base noise");
}

static void test_octave_one(void)
{
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        cn_config c = kcfg(k, 4242 + (uint64_t)ki);
        cn_noise base, f1[4];
        if (!build(&base, &c, "octave one, base"))
            continue;
        int ok = 1;
        for (int fr = 1; fr <= 4; fr++) {
            cn_config cf = c;
            cf.fractal = (cn_fractal)fr;
            cf.octaves = 1;
            ok &= build(&f1[fr - 1], &cf, "octave one");
        }
        if (!ok)
            continue;
        long differ = 0, bad = 0, n = 0;
        double worst_base = 0;
        for (int i = 0; i < 4000; i++) {
            double p[4];
            for (int a = 0; a < k->dims; a++)
                p[a] = rnd_range(-300, 300);
            double v = cn_eval(&base, p);
            double fbm = cn_eval(&f1[0], p), tur = cn_eval(&f1[1], p), bil = cn_eval(&f1[2], p);
            n++;
            worst_base = fmax(worst_base, fabs(v));
            differ += fbm != v;
            /* The documented sums with one octave, and their documented ranges. */
            int good = fbm == clampd(v, -1, 1) && tur == clampd(fabs(v), 0, 1) &&
                       bil == clampd(2 * fabs(v) - 1, -1, 1);
            if (!good && bad++ < 3)
                fprintf(stderr, "%s at %s: base %.17g, fbm %.17g, turbulence %.17g, billow %.17g\n", k->name,
                        test_fmt_point(p, k->dims), v, fbm, tur, bil);
        }
        CHECK(bad == 0, "%s: %ld of %ld one-octave sums differ from the base noise", k->name, bad, n);
        if (k->mode == CN_MODE_DEFAULT)
            CHECK(differ == 0, "%s: fbm with 1 octave differs from the base noise at %ld of %ld points", k->name,
                  differ, n);
        printf("octaves=1 %-16s fbm == base at %ld of %ld points%s (base max |v| %.4f)\n", k->name, n - differ, n,
               differ ? ": the rest are base values outside [-1, 1], which fbm clamps" : "", worst_base);
    }
}

/* Each sum against the documented formula, from separately built octave noises. */
static void test_octave_sums(void)
{
    static const double LACS[] = {2.0, 3.0, 1.75, 1.0};
    static const double GAINS[] = {0.5, 0.8, 1.0, 0.3};
    double worst[7] = {0, 0, 0, 0, 0, 0, 0};
    long n = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        for (int fr = 1; fr <= CN_FRACTAL_EROSION; fr++)
            for (int var = 0; var < 4; var++) {
                if (NO_EROSION(k, fr))
                    continue;
                cn_config c = kcfg(k, rnd64());
                c.fractal = (cn_fractal)fr;
                c.octaves = 4;
                c.lacunarity = LACS[var];
                c.gain = GAINS[(var + fr) % 4];
                c.ridge_offset = 0.5 * ((var + ki) % 5); /* 0 .. 2 */
                c.ridge_gain = var == 2 ? 0.0 : 3.0;
                c.frequency = var == 1 ? 2.0 : 1.0;
                c.weighted_strength = var == 3 ? 0.7 : var == 1 ? 0.3 : 0.0;
                c.pingpong_strength = 1.5 + var * 3.5; /* up to 12: t up to 24 */
                if (var == 0 && !NO_PERIOD(k)) /* periodic: octave i repeats after period * lacunarity^i */
                    for (int a = 0; a < k->dims; a++)
                        c.period[a] = pmul(k) * 5;
                cn_noise g, o[4];
                if (!build(&g, &c, "octave sums"))
                    continue;
                double mult[4], amp[4], asum = 0;
                int ok = 1;
                for (int i = 0; i < 4; i++) {
                    mult[i] = i ? mult[i - 1] * c.lacunarity : 1.0;
                    amp[i] = i ? amp[i - 1] * c.gain : 1.0;
                    asum += amp[i];
                    ok &= octave_noise(&o[i], &c, i, mult[i]);
                }
                if (!ok)
                    continue;
                /* ridged: value / unnormalised sum, constant; taken from the first point whose sum is
                 * not tiny (a short period can leave every gradient of a 1D lattice small, so sums
                 * above 0.05 need not occur among 300 points). */
                double ratio = 0;
                long bad = 0;
                for (int t = 0; t < 300; t++) {
                    double p[4];
                    for (int a = 0; a < k->dims; a++)
                        p[a] = rnd_range(-100, 100);
                    double sum = 0, w = 1, f = 1, d[4] = {0, 0, 0, 0};
                    for (int i = 0; i < 4; i++) {
                        double q[4];
                        for (int a = 0; a < k->dims; a++)
                            q[a] = p[a] * c.frequency * mult[i];
                        double nv = cn_eval(&o[i], q), term, v;
                        switch (fr) {
                        case CN_FRACTAL_EROSION: { /* n_i / (1 + |d_i|^2), d_i the octaves' gradients so far */
                            double gq[4], dd = 0;
                            cn_eval_grad(&o[i], q, gq);
                            for (int a = 0; a < k->dims; a++) {
                                d[a] += gq[a];
                                dd += d[a] * d[a];
                            }
                            term = nv / (1 + dd), v = (term + 1) / 2;
                            break;
                        }
                        case CN_FRACTAL_FBM: term = nv, v = (nv + 1) / 2; break;
                        case CN_FRACTAL_TURBULENCE: term = v = fabs(nv); break;
                        case CN_FRACTAL_BILLOW: term = 2 * fabs(nv) - 1, v = fabs(nv); break;
                        case CN_FRACTAL_PINGPONG: { /* (n + 1) s mod 2, folded into [0, 1] */
                            double t = (nv + 1) * c.pingpong_strength;
                            t -= 2 * floor(t / 2);
                            v = t < 1 ? t : 2 - t;
                            term = 2 * v - 1;
                            break;
                        }
                        default: {
                            double s = c.ridge_offset - fabs(nv);
                            s = s * s * w;
                            w = clampd(s * c.ridge_gain, 0, 1);
                            term = s, v = 1 - fabs(nv);
                            break;
                        }
                        }
                        sum += amp[i] * term * f;
                        f *= 1 + c.weighted_strength * (v - 1); /* the weighted strength */
                    }
                    double v = cn_eval(&g, p), err;
                    n++;
                    if (fr != CN_FRACTAL_RIDGED) {
                        double ref = sum / asum;
                        ref = fr == CN_FRACTAL_TURBULENCE ? clampd(ref, 0, 1) : clampd(ref, -1, 1);
                        err = fabs(v - ref);
                    } else {
                        if (ratio == 0 && sum > 1e-3 && v < 1.0)
                            ratio = v / sum;
                        err = ratio == 0 ? 0 : v < 1.0 ? fabs(v - ratio * sum) : ratio * sum >= 1.0 - 1e-12 ? 0 : 1;
                    }
                    worst[fr] = fmax(worst[fr], err != err ? INFINITY : err);
                    if (!(err <= 1e-12) && bad++ < 2)
                        fprintf(stderr, "%s %s lacunarity %g gain %g: at %s value %.17g, documented sum gives "
                                "%.17g (error %.3g)\n", k->name, FRACTAL_NAME[fr], c.lacunarity, c.gain,
                                test_fmt_point(p, k->dims), v, fr == CN_FRACTAL_RIDGED ? ratio * sum : sum / asum, err);
                }
                CHECK(bad == 0, "%s %s (lacunarity %g, gain %g, weighted strength %g%s): %ld of 300 points differ "
                      "from the documented sum", k->name, FRACTAL_NAME[fr], c.lacunarity, c.gain, c.weighted_strength,
                      var == 0 ? ", periodic" : "", bad);
                if (fr == CN_FRACTAL_RIDGED) {
                    /* The constant keeps the documented range: (offset - |n|)^2 <= bound for |n| <= 1. */
                    double o1 = c.ridge_offset, o2 = 1.0 - c.ridge_offset;
                    double bound = fmax(o1 * o1, o2 * o2);
                    CHECK(ratio > 0 && ratio * asum * bound <= 1.0 + 1e-12,
                          "%s ridged offset %g: normaliser %.6g (x sum of amplitudes x bound = %.6g)", k->name,
                          c.ridge_offset, ratio, ratio * asum * bound);
                }
            }
    }
    printf("documented sums vs separately built octaves (seed + i * 0xD1B54A32D192ED03, q * lacunarity^i): %ld "
           "points, max error fbm %.3g, turbulence %.3g, billow %.3g, ridged (up to its constant normaliser) %.3g, "
           "pingpong %.3g, erosion %.3g; weighted strengths 0, 0.3, 0.7\n",
           n, worst[1], worst[2], worst[3], worst[4], worst[5], worst[6]);
}

/* Octave 1 is not octave 0 again: fbm(2 octaves, lacunarity 1, gain 1) = (n0 + n1) / 2 != n0. Two
 * unrelated fields coincide exactly at some points (both 0, or one contributing corner with the same
 * gradient): the rate for an unrelated seed is measured alongside. */
static void test_octave_seeds(void)
{
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        cn_config c = kcfg(k, 99 + (uint64_t)ki), cu = c;
        cu.seed = UINT64_C(0x1234567) + (uint64_t)ki * 1000003u;
        cn_noise base, f, other;
        if (!build(&base, &c, "octave seeds") || !build(&other, &cu, "octave seeds, unrelated"))
            continue;
        c.fractal = CN_FRACTAL_FBM;
        c.octaves = 2;
        c.lacunarity = 1.0;
        c.gain = 1.0;
        if (!build(&f, &c, "octave seeds fbm"))
            continue;
        long same = 0, same_u = 0, n = 0;
        double maxdiff = 0;
        for (int i = 0; i < 4000; i++) {
            double p[4];
            /* Spread over ~10^5 cells per axis: equal gradients happen per cell, so points
             * sharing few cells would make the counts clump. */
            for (int a = 0; a < k->dims; a++)
                p[a] = rnd_range(-1e5, 1e5);
            double v = cn_eval(&base, p), fv = cn_eval(&f, p), u = cn_eval(&other, p);
            double pile = clampd((v + v) / 2, -1, 1); /* what octave 1 = octave 0 would give */
            same += fv == pile;
            same_u += u == v;
            maxdiff = fmax(maxdiff, fabs(fv - pile));
            n++;
        }
        CHECK(same * 4 < n && same <= 2 * same_u + n / 100,
              "%s: fbm(2 octaves, lacunarity 1, gain 1) equals the base noise at %ld of %ld points (an unrelated "
              "seed's field equals it at %ld)", k->name, same, n, same_u);
        CHECK(maxdiff > 0.1, "%s: fbm(2 octaves, lacunarity 1, gain 1) is never far from the base noise (%.3g)",
              k->name, maxdiff);
        printf("octave seeds %-16s fbm(2 oct, lacunarity 1, gain 1) == base at %ld of %ld points (unrelated seed: "
               "%ld), max |difference| %.3f\n", k->name, same, n, same_u, maxdiff);
    }
}

static double corr(const double *x, const double *y, int n)
{
    double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    for (int i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    return sxy / sqrt(sxx * syy);
}

/*
 * Feature pile-up. With lacunarity 2 the lattice point 0 of octave 0 and of octave 1 coincide (and
 * p and 2p are lattice points of both): if octave 1 reused octave 0's lattice, the value (value
 * noise) or the gradient (Perlin, simplex) there would be the same in both octaves for every seed.
 * Octave 1's field is recovered from the sum, n1(2p) = 2 fbm(p) - n0(p) (gain 1), never from
 * the documented seed, and correlated with octave 0's at the origin over many seeds.
 */
static void test_pileup(void)
{
    enum { NS = 3000 };
    static double x0[NS], x1[NS], self1[NS];
    static const int which[] = {1, 2, 4, 5, 8, 9, 12, 15};
    for (int w = 0; w < (int)(sizeof which / sizeof which[0]); w++) {
        const kind *k = &KINDS[which[w]];
        const int grad = k->type != CN_NOISE_VALUE;
        const double h = 1e-3;
        int n = 0;
        for (int s = 0; s < NS; s++) {
            cn_config c = kcfg(k, rnd64());
            cn_noise base, f;
            if (!build(&base, &c, "pile-up base"))
                break;
            c.fractal = CN_FRACTAL_FBM;
            c.octaves = 2;
            c.gain = 1.0;
            c.lacunarity = 2.0;
            if (!build(&f, &c, "pile-up fbm"))
                break;
            double p[4] = {0, 0, 0, 0}, q[4] = {0, 0, 0, 0};
            if (!grad) {
                double n0 = cn_eval(&base, p);
                x0[n] = n0;
                x1[n] = 2 * cn_eval(&f, p) - n0;
                self1[n] = cn_eval(&base, q); /* a reused lattice: octave 1 at 2 * 0 = octave 0 at 0 */
            } else {
                /* d/dx at the origin by central differences; octave 1 in its own units (x 1/2). */
                p[0] = h;
                q[0] = -h;
                double a0 = cn_eval(&base, p), b0 = cn_eval(&base, q);
                double a1 = 2 * cn_eval(&f, p) - a0, b1 = 2 * cn_eval(&f, q) - b0;
                x0[n] = (a0 - b0) / (2 * h);
                x1[n] = (a1 - b1) / (4 * h);
                double r[4] = {2 * h, 0, 0, 0}, t[4] = {-2 * h, 0, 0, 0};
                self1[n] = (cn_eval(&base, r) - cn_eval(&base, t)) / (4 * h);
            }
            n++;
        }
        double r = corr(x0, x1, n), rs = corr(x0, self1, n);
        CHECK(n == NS && fabs(r) < 0.1, "%s: octave 0 and octave 1 %s at the origin correlate (%.3f over %d seeds)",
              k->name, grad ? "gradients" : "values", r, n);
        CHECK(rs > 0.9, "%s: the pile-up measure cannot fail (same lattice gives %.3f)", k->name, rs);
        printf("pile-up %-16s %s at the origin, octave 0 vs octave 1 over %d seeds: correlation %.4f "
               "(the same lattice reused would give %.4f)\n", k->name, grad ? "x-gradient" : "value", n, r, rs);
    }
}

/* Octaves whose amplitude gain^i is below 2^-24 are skipped. */
static void test_octave_skip(void)
{
    long n = 0, bad = 0;
    long visible = 0, nvis = 0;
    const double g12 = ldexp(1.0, -12);
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        for (int fr = 1; fr <= 4; fr++) {
            /* gain 0.001: 0.001^2 = 1e-6 >= 2^-24 = 5.96e-8 > 0.001^3 = 1e-9: octaves 0, 1, 2 remain.
             * gain 2^-12: 2^-24 is not below 2^-24: octaves 0, 1, 2 remain.
             * gain just under 2^-12: octave 2 (gain^2 < 2^-24) goes too. */
            for (int gi = 0; gi < 3; gi++) {
                double gain = gi == 0 ? 0.001 : gi == 1 ? g12 : nextafter(g12, 0);
                int keep = gi == 2 ? 2 : 3;
                cn_config c = kcfg(k, 31 + (uint64_t)ki);
                c.fractal = (cn_fractal)fr;
                c.gain = gain;
                c.ridge_offset = 0.8;
                cn_noise g32, gk, gless;
                c.octaves = 32;
                int ok = build(&g32, &c, "skip 32");
                c.octaves = keep;
                ok &= build(&gk, &c, "skip keep");
                c.octaves = keep - 1;
                ok &= build(&gless, &c, "skip keep-1");
                if (!ok)
                    continue;
                long differs = 0;
                for (int i = 0; i < 200; i++) {
                    double p[4];
                    for (int a = 0; a < k->dims; a++)
                        p[a] = rnd_range(-50, 50);
                    double v32 = cn_eval(&g32, p), vk = cn_eval(&gk, p), vl = cn_eval(&gless, p);
                    n++;
                    if (!test_same_bits(v32, vk) && bad++ < 3)
                        fprintf(stderr, "%s %s gain %.17g: 32 octaves %.17g, %d octaves %.17g at %s\n", k->name,
                                FRACTAL_NAME[fr], gain, v32, keep, vk, test_fmt_point(p, k->dims));
                    differs += vk != vl;
                }
                /* The last kept octave is visible (it is not skipped). */
                nvis++;
                visible += differs > 0;
                if (!differs)
                    fprintf(stderr, "%s %s gain %.17g: %d and %d octaves agree everywhere\n", k->name,
                            FRACTAL_NAME[fr], gain, keep, keep - 1);
            }
        }
    }
    CHECK(bad == 0, "%ld of %ld points: 32 octaves differ from the octaves with amplitude >= 2^-24", bad, n);
    CHECK(visible == nvis, "the last octave with amplitude >= 2^-24 changed nothing in %ld of %ld configurations",
          nvis - visible, nvis);
    printf("octave skipping: %ld points, 32 octaves == kept octaves (gain 0.001 -> 3, 2^-12 -> 3, below 2^-12 -> 2); "
           "mismatches %ld; last kept octave visible in %ld of %ld configs\n", n, bad, visible, nvis);
}

static cn_status status_of(const cn_config *c)
{
    cn_noise g;
    cn_status a = cn_config_check(c), b = cn_noise_build(&g, c);
    return a == b ? a : (cn_status)-1;
}

/* The 2^40 frequency limit, and no NaN at finite coordinates for accepted configurations. */
static void test_frequency_limit(void)
{
    cn_config c;
    cn_config_init(&c);
    c.dims = 3; /* these cases were written for 3D at frequency 1 */
    c.frequency = 1.0;
    c.fractal = CN_FRACTAL_FBM;
    c.lacunarity = 64;
    c.octaves = 32;
    CHECK(status_of(&c) == CN_E_OCTAVE_FREQUENCY, "lacunarity 64, 32 octaves: %d", (int)status_of(&c));
    c.lacunarity = 4; /* 4^20 = 2^40: the last octave exactly at the limit */
    c.octaves = 21;
    CHECK(status_of(&c) == CN_OK, "lacunarity 4, 21 octaves (2^40): %d", (int)status_of(&c));
    c.octaves = 22;
    CHECK(status_of(&c) == CN_E_OCTAVE_FREQUENCY, "lacunarity 4, 22 octaves (2^42): %d", (int)status_of(&c));
    c.octaves = 21;
    c.frequency = 2;
    CHECK(status_of(&c) == CN_E_OCTAVE_FREQUENCY, "frequency 2, lacunarity 4, 21 octaves: %d", (int)status_of(&c));
    c.frequency = 1;
    c.axis_frequency[1] = 1.5;
    CHECK(status_of(&c) == CN_E_OCTAVE_FREQUENCY, "axis_frequency 1.5, lacunarity 4, 21 octaves: %d", (int)status_of(&c));
    c.axis_frequency[1] = 0.5;
    CHECK(status_of(&c) == CN_OK, "axis_frequency 0.5, lacunarity 4, 21 octaves: %d", (int)status_of(&c));
    c.axis_frequency[1] = 1;
    c.fractal = CN_FRACTAL_NONE; /* octaves are ignored without a fractal */
    c.lacunarity = 64;
    c.octaves = 32;
    CHECK(status_of(&c) == CN_OK, "no fractal, lacunarity 64, 32 octaves: %d", (int)status_of(&c));

    /* Random accepted configurations at coordinates up to 2^40: finite and in range. */
    long accepted = 0, rejected = 0, samples = 0, bad = 0;
    for (int t = 0; t < 1500; t++) {
        const kind *k = &KINDS[rnd_int(NKINDS)];
        cn_config r = kcfg(k, rnd64());
        r.fractal = (cn_fractal)rnd_int(5);
        r.octaves = 1 + rnd_int(32);
        r.lacunarity = rnd_int(3) ? (double)(1 + rnd_int(8)) : rnd_range(1, 64);
        r.gain = rnd_range(0.01, 4);
        r.frequency = ldexp(rnd_range(1, 2), rnd_int(40) - 20);
        r.ridge_offset = rnd_range(0, 2);
        r.ridge_gain = rnd_range(0, 16);
        for (int a = 0; a < k->dims; a++) {
            r.axis_frequency[a] = rnd_range(0.25, 4);
            r.offset[a] = rnd_range(-1e6, 1e6);
        }
        if (rnd_int(3) == 0) {
            r.rotate = 1;
            for (int e = 0; e < k->dims * k->dims; e++)
                r.rotation[e] = rnd_range(-2, 2);
        } else if (rnd_int(2) == 0 && !NO_PERIOD(k)) {
            for (int a = 0; a < k->dims; a++)
                r.period[a] = (uint32_t)(1 + rnd_int(1000)) * pmul(k);
        }
        cn_noise g;
        cn_status st = cn_noise_build(&g, &r);
        if (st != CN_OK) {
            CHECK(st == CN_E_OCTAVE_FREQUENCY || st == CN_E_PERIOD_LACUNARITY || st == CN_E_PERIOD_OVERFLOW,
                  "random configuration rejected with %s", cn_strerror(st));
            rejected++;
            continue;
        }
        accepted++;
        const double lo = (r.fractal == CN_FRACTAL_TURBULENCE || r.fractal == CN_FRACTAL_RIDGED) ? 0.0 : -1.0;
        const double hi = (r.fractal == CN_FRACTAL_NONE && k->mode == CN_MODE_CLASSIC) ? 2.0 : 1.0;
        for (int i = 0; i < 60; i++) {
            double p[4];
            float pf[4];
            for (int a = 0; a < k->dims; a++) {
                p[a] = (rnd64() & 1 ? -1.0 : 1.0) * ldexp(rnd01(), rnd_int(51) - 10); /* |p| < 2^40 */
                pf[a] = (float)p[a];
            }
            double v = cn_eval(&g, p);
            float vf = cn_evalf(&g, pf);
            samples++;
            if (!(v >= (lo < 0 ? -hi : 0) && v <= hi && vf >= (lo < 0 ? -hi : 0) && vf <= hi) && bad++ < 5)
                fprintf(stderr, "%s %s octaves %d lacunarity %g: %.17g (float %.9g) at %s\n", k->name,
                        FRACTAL_NAME[r.fractal], r.octaves, r.lacunarity, v, (double)vf, test_fmt_point(p, k->dims));
        }
    }
    CHECK(bad == 0, "%ld of %ld samples of accepted configurations are NaN or out of range", bad, samples);
    CHECK(accepted >= 500, "only %ld random configurations accepted", accepted);
    printf("frequency limit: %ld random configurations accepted, %ld rejected (octave frequency or period limits); %ld samples x2 at "
           "|p| < 2^40: NaN or out of range: %ld\n", accepted, rejected, samples, bad);

}

/* "Every finite coordinate otherwise gives a finite value": coordinates up to DBL_MAX whose product
 * with the frequency is finite -- where later octaves (q * lacunarity^i) or a period reduction
 * (floor(q / P) * P) could overflow. Run last: a build that lets such a value reach an integer
 * conversion has undefined behaviour (UBSan may stop here). */
static void test_far_octaves(void)
{
    static const double FAR[] = {1e308, -1.7e308, DBL_MAX, -DBL_MAX / 3, 1e300, 0x1p70, -0x1p60};
    long nan_far = 0, nfar = 0;
    for (int ki = 0; ki < NKINDS; ki++)
        for (int fr = 0; fr <= CN_FRACTAL_EROSION; fr++)
            for (int per = fr == 0; per < 2; per++) {
                if (NO_EROSION(&KINDS[ki], fr) || (per && NO_PERIOD(&KINDS[ki])))
                    continue;
                cn_config f = kcfg(&KINDS[ki], 3);
                f.fractal = (cn_fractal)fr;
                f.lacunarity = 3.0;
                if (per)
                    f.period[0] = 5 * pmul(&KINDS[ki]);
                cn_noise g;
                if (!build(&g, &f, "far"))
                    continue;
                const double lo = (fr == CN_FRACTAL_TURBULENCE || fr == CN_FRACTAL_RIDGED) ? 0.0
                                  : (fr == CN_FRACTAL_NONE && f.mode == CN_MODE_CLASSIC) ? -2.0 : -1.0;
                const double hi = -lo > 1 ? 2.0 : 1.0;
                for (int i = 0; i < (int)(sizeof FAR / sizeof FAR[0]); i++) {
                    double p[4] = {FAR[i], 0.5, -FAR[(i + 1) % 7], 0.25};
                    float pf[4] = {FLT_MAX, 0.5f, -FLT_MAX, 1e30f};
                    double v = cn_eval(&g, p);
                    float vf = cn_evalf(&g, pf);
                    nfar++;
                    if (!(v >= lo && v <= hi && vf >= lo && vf <= hi) && nan_far++ < 3)
                        fprintf(stderr, "%s %s (5 octaves, lacunarity 3%s) at %s: %g (float at +-FLT_MAX: %g)\n",
                                KINDS[ki].name, FRACTAL_NAME[fr], per ? ", periodic" : "",
                                test_fmt_point(p, KINDS[ki].dims), v, (double)vf);
                }
            }
    CHECK(nan_far == 0, "%ld of %ld far points (finite, and finite times the frequency) are NaN or out of range",
          nan_far, nfar);
    printf("far points: %ld (|x| up to DBL_MAX, float FLT_MAX; fractal sums, and periodic base noises): NaN or out "
           "of range: %ld\n",
           nfar, nan_far);
}

/* ======================================================================================== */
/* 6. validation statuses                                                                   */
/* ======================================================================================== */

static void test_validation(void)
{
    cn_config c;
    int ncase = 0;
#define EXPECT(want, what, ...)                                                                   \
    do {                                                                                          \
        cn_config_init(&c);                                                                       \
        c.dims = 3;                                                                               \
        c.frequency = 1.0;                                                                        \
        c.fractal = CN_FRACTAL_FBM;                                                               \
        __VA_ARGS__;                                                                              \
        cn_status got = status_of(&c);                                                            \
        ncase++;                                                                                  \
        CHECK(got == (want), "%s: got %d (%s), want %s", what, (int)got,                          \
              got == (cn_status)-1 ? "check and build disagree" : cn_strerror(got), #want);      \
    } while (0)
    const double nan = NAN, inf = INFINITY;
    EXPECT(CN_E_FRACTAL, "fractal 9", c.fractal = (cn_fractal)9);
    EXPECT(CN_E_FRACTAL, "fractal -1", c.fractal = (cn_fractal)-1);
    EXPECT(CN_E_OCTAVES, "octaves 0", c.octaves = 0);
    EXPECT(CN_E_OCTAVES, "octaves 33", c.octaves = 33);
    EXPECT(CN_OK, "octaves 32", c.octaves = 32);
    EXPECT(CN_E_LACUNARITY, "lacunarity 0.99", c.lacunarity = 0.99);
    EXPECT(CN_E_LACUNARITY, "lacunarity 64.5", c.lacunarity = 64.5);
    EXPECT(CN_E_LACUNARITY, "lacunarity NaN", c.lacunarity = nan);
    EXPECT(CN_E_LACUNARITY, "lacunarity Inf", c.lacunarity = inf);
    EXPECT(CN_OK, "lacunarity 1", c.lacunarity = 1);
    EXPECT(CN_OK, "lacunarity 64, 2 octaves", c.lacunarity = 64; c.octaves = 2);
    EXPECT(CN_E_GAIN, "gain 0", c.gain = 0);
    EXPECT(CN_E_GAIN, "gain -1", c.gain = -1);
    EXPECT(CN_E_GAIN, "gain 4.5", c.gain = 4.5);
    EXPECT(CN_E_GAIN, "gain NaN", c.gain = nan);
    EXPECT(CN_OK, "gain 4", c.gain = 4);
    EXPECT(CN_E_RIDGE, "ridge_offset -0.1", c.ridge_offset = -0.1);
    EXPECT(CN_E_RIDGE, "ridge_offset 2.1", c.ridge_offset = 2.1);
    EXPECT(CN_E_RIDGE, "ridge_offset NaN", c.ridge_offset = nan);
    EXPECT(CN_E_RIDGE, "ridge_gain -1", c.ridge_gain = -1);
    EXPECT(CN_E_RIDGE, "ridge_gain 17", c.ridge_gain = 17);
    EXPECT(CN_OK, "ridge_offset 0, 2; ridge_gain 0, 16", c.ridge_offset = 2; c.ridge_gain = 16);
    EXPECT(CN_E_PERIOD, "period 2^24 + 1", c.period[0] = CN_MAX_PERIOD + 1);
    EXPECT(CN_OK, "period 2^24", c.period[0] = CN_MAX_PERIOD);
    EXPECT(CN_E_PERIOD, "period on axis 3 of a 3D noise", c.period[3] = 4);
    EXPECT(CN_E_PERIOD, "period on axis 2 of a 2D noise", c.dims = 2; c.period[2] = 4);
    EXPECT(CN_E_PERIOD, "period on axis 1 of a 1D noise", c.dims = 1; c.period[1] = 1);
    EXPECT(CN_E_PERIOD, "simplex 2D period 3", c.type = CN_NOISE_SIMPLEX; c.dims = 2; c.period[0] = 3);
    EXPECT(CN_OK, "simplex 2D period 2", c.type = CN_NOISE_SIMPLEX; c.dims = 2; c.period[1] = 2);
    EXPECT(CN_E_PERIOD, "simplex 3D period 4", c.type = CN_NOISE_SIMPLEX; c.dims = 3; c.period[2] = 4);
    EXPECT(CN_OK, "simplex 3D period 3", c.type = CN_NOISE_SIMPLEX; c.dims = 3; c.period[2] = 3);
    EXPECT(CN_E_PERIOD, "simplex 4D period 6", c.type = CN_NOISE_SIMPLEX; c.dims = 4; c.period[1] = 6);
    EXPECT(CN_OK, "simplex 4D period 8", c.type = CN_NOISE_SIMPLEX; c.dims = 4; c.period[1] = 8);
    EXPECT(CN_E_PERIOD, "classic simplex 3D period 5", c.type = CN_NOISE_SIMPLEX; c.mode = CN_MODE_CLASSIC;
           c.period[0] = 5);
    EXPECT(CN_E_PERIOD, "opensimplex2 2D period 3", c.type = CN_NOISE_OPENSIMPLEX2; c.dims = 2; c.period[0] = 3);
    EXPECT(CN_OK, "opensimplex2 2D period 4", c.type = CN_NOISE_OPENSIMPLEX2; c.dims = 2; c.period[1] = 4);
    EXPECT(CN_E_PERIOD, "opensimplex2 3D period 3", c.type = CN_NOISE_OPENSIMPLEX2; c.dims = 3; c.period[2] = 3);
    EXPECT(CN_OK, "opensimplex2 3D without a period", c.type = CN_NOISE_OPENSIMPLEX2; c.dims = 3);
    EXPECT(CN_E_PERIOD, "opensimplex2s 2D period 5", c.type = CN_NOISE_OPENSIMPLEX2S; c.dims = 2; c.period[0] = 5);
    EXPECT(CN_OK, "opensimplex2s 2D period 6", c.type = CN_NOISE_OPENSIMPLEX2S; c.dims = 2; c.period[1] = 6);
    EXPECT(CN_E_PERIOD, "opensimplex2s 3D period 4", c.type = CN_NOISE_OPENSIMPLEX2S; c.dims = 3; c.period[0] = 4);
    EXPECT(CN_OK, "opensimplex2s 3D without a period", c.type = CN_NOISE_OPENSIMPLEX2S; c.dims = 3);
    EXPECT(CN_E_DOMAIN, "axis_frequency 0", c.axis_frequency[1] = 0);
    EXPECT(CN_E_DOMAIN, "axis_frequency -1", c.axis_frequency[0] = -1);
    EXPECT(CN_E_DOMAIN, "axis_frequency NaN", c.axis_frequency[2] = nan);
    EXPECT(CN_E_DOMAIN, "offset Inf", c.offset[0] = inf);
    EXPECT(CN_E_DOMAIN, "offset -Inf", c.offset[2] = -inf);
    EXPECT(CN_E_DOMAIN, "rotation NaN with rotate", c.rotate = 1; c.rotation[4] = nan);
    EXPECT(CN_OK, "rotation NaN without rotate", c.rotation[4] = nan);
    EXPECT(CN_E_SIGNAL, "amplitude NaN", c.amplitude = nan);
    EXPECT(CN_E_SIGNAL, "bias NaN", c.bias = nan);
    EXPECT(CN_E_SIGNAL, "amplitude Inf", c.amplitude = inf);
    EXPECT(CN_OK, "amplitude 0, bias -7", c.amplitude = 0; c.bias = -7);
    EXPECT(CN_E_CONFLICT, "period with rotate", c.period[0] = 8; c.rotate = 1);
    EXPECT(CN_E_PERIOD_LACUNARITY, "period with lacunarity 2.5, 5 octaves", c.period[0] = 8; c.lacunarity = 2.5);
    EXPECT(CN_OK, "period with lacunarity 2.5, 1 octave", c.period[0] = 8; c.lacunarity = 2.5; c.octaves = 1);
    EXPECT(CN_OK, "period with lacunarity 2.5, no fractal", c.fractal = CN_FRACTAL_NONE; c.period[0] = 8;
           c.lacunarity = 2.5);
    EXPECT(CN_OK, "lacunarity 2.5 without a period", c.lacunarity = 2.5);
    EXPECT(CN_OK, "rotation without a period", c.rotate = 1);
    /* The last octave's period must stay below 2^32 cells. */
    EXPECT(CN_OK, "period 2^24, lacunarity 2, 8 octaves (last octave 2^31 cells)", c.period[0] = CN_MAX_PERIOD;
           c.octaves = 8);
    EXPECT(CN_E_PERIOD_OVERFLOW, "period 2^24, lacunarity 2, 9 octaves (2^32 cells)", c.period[0] = CN_MAX_PERIOD;
           c.octaves = 9);
    /* The checks are on the fields, in the documented order: the first bad field wins. */
    EXPECT(CN_E_FRACTAL, "fractal 9 and octaves 0", c.fractal = (cn_fractal)9; c.octaves = 0);
#undef EXPECT
    printf("validation: %d configurations checked (cn_config_check and cn_noise_build agree)\n", ncase);
}

/* ======================================================================================== */
/* 7. domain and signal                                                                     */
/* ======================================================================================== */

static void test_domain(void)
{
    long n = 0, bad_off = 0, bad_af = 0, bad_rot = 0, bad_r0 = 0;
    double worst3 = 0, worst_q3 = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        const int dims = k->dims;
        for (int fr = 0; fr < 2; fr++) {
            cn_config c = kcfg(k, 555 + (uint64_t)ki);
            c.fractal = fr ? CN_FRACTAL_FBM : CN_FRACTAL_NONE;
            cn_noise g, go, gaf;
            cn_config co = c, caf = c;
            for (int a = 0; a < dims; a++) {
                co.offset[a] = (rnd_int(1 << 14) - (1 << 13)) / 256.0;
                caf.axis_frequency[a] = a % 2 ? 0.5 : 2.0;
            }
            if (!build(&g, &c, "domain") || !build(&go, &co, "offset") || !build(&gaf, &caf, "axis_frequency"))
                continue;
            for (int i = 0; i < 500; i++) {
                double p[4], q[4], s[4];
                for (int a = 0; a < dims; a++) {
                    p[a] = (rnd_int(1 << 18) - (1 << 17)) / 256.0;
                    q[a] = p[a] + co.offset[a];
                    s[a] = p[a] * caf.axis_frequency[a];
                }
                n++;
                double v = cn_eval(&go, p), w = cn_eval(&g, q);
                if (!test_same_bits(v, w) && bad_off++ < 3)
                    fprintf(stderr, "%s: offset %s at %s gives %.17g, no offset at %s gives %.17g\n", k->name,
                            test_fmt_point(co.offset, dims), test_fmt_point(p, dims), v, test_fmt_point(q, dims), w);
                v = cn_eval(&gaf, p);
                w = cn_eval(&g, s);
                if (!test_same_bits(v, w) && bad_af++ < 3)
                    fprintf(stderr, "%s: axis_frequency at %s gives %.17g, scaled point gives %.17g\n", k->name,
                            test_fmt_point(p, dims), v, w);
            }
            /* Rotations. */
            if (dims == 2) {
                cn_config cr = c, c0 = c, cq = c;
                cr.rotate = 1;
                cr.rotation[0] = 0;
                cr.rotation[1] = -1;
                cr.rotation[2] = 1;
                cr.rotation[3] = 0;
                CHECK(cn_config_rotate2(&c0, 0.0) == CN_OK, "rotate2(0)");
                CHECK(cn_config_rotate2(&cq, 6.283185307179586 / 4) == CN_OK, "rotate2(pi/2)");
                cn_noise gr, g0, gq;
                if (!build(&gr, &cr, "rotation by hand") || !build(&g0, &c0, "rotate2(0)") ||
                    !build(&gq, &cq, "rotate2(pi/2)"))
                    continue;
                for (int i = 0; i < 500; i++) {
                    double x = rnd_range(-200, 200), y = rnd_range(-200, 200);
                    double v = cn_eval2(&gr, x, y), w = cn_eval2(&g, -y, x);
                    if (!(v == w) && bad_rot++ < 3)
                        fprintf(stderr, "%s: [[0,-1],[1,0]] at (%.17g, %.17g): %.17g, noise(-y, x) %.17g\n", k->name,
                                x, y, v, w);
                    v = cn_eval2(&g0, x, y);
                    w = cn_eval2(&g, x, y);
                    if (!test_same_bits(v, w) && bad_r0++ < 3)
                        fprintf(stderr, "%s: rotate2(0) at (%.17g, %.17g): %.17g, unrotated %.17g\n", k->name, x, y,
                                v, w);
                    v = cn_eval2(&gq, x, y);
                    w = cn_eval2(&g, -y, x);
                    worst_q3 = fmax(worst_q3, fabs(v - w));
                }
            }
            if (dims == 3) {
                cn_config cr = c, cq = c;
                CHECK(cn_config_rotate3(&cr, 0, 0, 1, 6.283185307179586) == CN_OK, "rotate3(2 pi)");
                CHECK(cn_config_rotate3(&cq, 0, 0, 5, 6.283185307179586 / 4) == CN_OK, "rotate3(pi/2)");
                cn_noise gr, gq;
                if (!build(&gr, &cr, "rotate3(2 pi)") || !build(&gq, &cq, "rotate3(pi/2)"))
                    continue;
                for (int i = 0; i < 500; i++) {
                    double x = rnd_range(-200, 200), y = rnd_range(-200, 200), z = rnd_range(-200, 200);
                    double d = fabs(cn_eval3(&gr, x, y, z) - cn_eval3(&g, x, y, z));
                    worst3 = fmax(worst3, d != d ? INFINITY : d);
                    d = fabs(cn_eval3(&gq, x, y, z) - cn_eval3(&g, -y, x, z)); /* right-hand rule about +z */
                    worst_q3 = fmax(worst_q3, d != d ? INFINITY : d);
                }
            }
        }
    }
    CHECK(bad_off == 0, "offset o at p differs from no offset at p + o at %ld of %ld points", bad_off, n);
    CHECK(bad_af == 0, "axis_frequency (2, 0.5, ...) differs from the scaled point at %ld of %ld points", bad_af, n);
    CHECK(bad_rot == 0, "rotation [[0,-1],[1,0]] differs from noise(-y, x) at %ld points", bad_rot);
    CHECK(bad_r0 == 0, "rotate2(0) differs from the unrotated noise at %ld points", bad_r0);
    CHECK(worst3 <= 1e-12, "rotate3(2 pi about z) differs from the unrotated noise by %.3g", worst3);
    CHECK(worst_q3 <= 1e-12, "a quarter turn (rotate2, rotate3 about +z) differs from noise(-y, x, z) by %.3g",
          worst_q3);
    printf("domain: %ld points: offset == shifted point, axis_frequency == scaled point (bit for bit): %s; "
           "[[0,-1],[1,0]] == noise(-y, x): %s; rotate2(0) exact: %s; rotate3(2 pi) max diff %.3g; quarter turns "
           "max diff %.3g\n", n, bad_off || bad_af ? "NO" : "yes", bad_rot ? "NO" : "yes", bad_r0 ? "NO" : "yes",
           worst3, worst_q3);

    /* rotate2/rotate3 statuses */
    cn_config c;
    cn_config_init(&c);
    c.dims = 3; /* these cases were written for 3D at frequency 1 */
    c.frequency = 1.0;
    CHECK(cn_config_rotate2(&c, 0.5) == CN_E_DIMS, "rotate2 on a 3D config");
    CHECK(c.rotate == 0, "a failed rotate2 set rotate");
    CHECK(cn_config_rotate3(&c, 0, 0, 0, 1.0) == CN_E_DOMAIN, "rotate3 with a zero axis");
    CHECK(cn_config_rotate3(&c, NAN, 0, 1, 1.0) == CN_E_DOMAIN, "rotate3 with a NaN axis");
    CHECK(cn_config_rotate3(&c, 0, 0, 1, INFINITY) == CN_E_DOMAIN, "rotate3 with an infinite angle");
    CHECK(cn_config_rotate3(NULL, 0, 0, 1, 1.0) == CN_E_NULL, "rotate3(NULL)");
    CHECK(cn_config_rotate2(NULL, 1.0) == CN_E_NULL, "rotate2(NULL)");
    c.dims = 2;
    CHECK(cn_config_rotate3(&c, 0, 0, 1, 1.0) == CN_E_DIMS, "rotate3 on a 2D config");
    CHECK(cn_config_rotate2(&c, NAN) == CN_E_DOMAIN, "rotate2 with a NaN angle");
    CHECK(c.rotate == 0, "failed rotations set rotate");
}

static void test_signal(void)
{
    static const double AS[] = {2.0, -0.5, 1e3, 0.0, 1.0, 0.3};
    static const double BS[] = {0.25, -3.0, 0.0, 1.0, 0.0, -0.1};
    long n = 0, bad = 0, badf = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        for (int ab = 0; ab < 6; ab++) {
            cn_config c = kcfg(k, 808 + (uint64_t)ki);
            c.fractal = (cn_fractal)(ab % 5);
            cn_noise g, gs;
            cn_config cs = c;
            cs.amplitude = AS[ab];
            cs.bias = BS[ab];
            if (!build(&g, &c, "signal") || !build(&gs, &cs, "signal A, B"))
                continue;
            for (int i = 0; i < 300; i++) {
                double p[4];
                float pf[4];
                for (int a = 0; a < k->dims; a++) {
                    p[a] = rnd_range(-100, 100);
                    pf[a] = (float)p[a];
                }
                double v = cn_eval(&g, p), w = cn_eval(&gs, p);
                double want = v * AS[ab] + BS[ab];
                float vf = cn_evalf(&g, pf), wf = cn_evalf(&gs, pf);
                float wantf = vf * (float)AS[ab] + (float)BS[ab];
                n++;
                if (!test_same_bits(w, want) && bad++ < 3)
                    fprintf(stderr, "%s A %g B %g at %s: %.17g, A v + B = %.17g\n", k->name, AS[ab], BS[ab],
                            test_fmt_point(p, k->dims), w, want);
                if (!test_same_bitsf(wf, wantf) && badf++ < 3)
                    fprintf(stderr, "%s A %g B %g float: %.9g, A v + B = %.9g\n", k->name, AS[ab], BS[ab],
                            (double)wf, (double)wantf);
            }
        }
    }
    CHECK(bad == 0 && badf == 0, "amplitude/bias: %ld double and %ld float of %ld points differ from A v + B", bad,
          badf, n);
    /* Amplitude 1, bias 0 leave the classic reference's bits alone; A = 2 doubles them. */
    cn_config c = kcfg(&KINDS[13], 0);
    c.amplitude = 1.0;
    c.bias = 0.0;
    cn_noise g;
    if (build(&g, &c, "classic perlin3")) {
        double v = cn_eval3(&g, 3.14, 42, 7);
        CHECK(test_same_bits(v, 0.13691995878400012), "classic perlin3 (3.14, 42, 7) = %.17g, want 0.13691995878400012", v);
        c.amplitude = 2.0;
        c.bias = -1.0;
        if (build(&g, &c, "classic perlin3 A 2")) {
            double w = cn_eval3(&g, 3.14, 42, 7);
            CHECK(test_same_bits(w, 2 * 0.13691995878400012 - 1.0), "classic perlin3 A 2 B -1: %.17g", w);
        }
    }
    printf("signal: %ld points x2 (double, float): amplitude * v + bias bit for bit: %s; classic golden kept\n", n,
           bad || badf ? "NO" : "yes");
}

/* ======================================================================================== */
/* 8. layers                                                                                */
/* ======================================================================================== */

static void test_layers(void)
{
    cn_noise a, b, c2;
    cn_config ca = kcfg(&KINDS[2], 1), cb = kcfg(&KINDS[5], 2), cc = kcfg(&KINDS[1], 3);
    cb.fractal = CN_FRACTAL_RIDGED;
    cb.frequency = 0.37;
    if (!build(&a, &ca, "layer a") || !build(&b, &cb, "layer b") || !build(&c2, &cc, "layer c"))
        return;
    long n = 0, bad1 = 0, bad2 = 0;
    for (int i = 0; i < 2000; i++) {
        double p[4] = {rnd_range(-100, 100), rnd_range(-100, 100), rnd_range(-100, 100), 0};
        cn_layer one = {&a, 1.0};
        double out = -5;
        cn_status st = cn_layers_eval(&one, 1, p, &out);
        n++;
        if ((st != CN_OK || !test_same_bits(out, cn_eval(&a, p))) && bad1++ < 3)
            fprintf(stderr, "one layer at %s: %d, %.17g vs %.17g\n", test_fmt_point(p, 3), (int)st, out, cn_eval(&a, p));
        cn_layer two[2] = {{&a, 0.7}, {&b, -2.5}};
        st = cn_layers_eval(two, 2, p, &out);
        double want = 0.0;
        want += 0.7 * cn_eval(&a, p);
        want += -2.5 * cn_eval(&b, p);
        if ((st != CN_OK || !test_same_bits(out, want)) && bad2++ < 3)
            fprintf(stderr, "two layers at %s: %d, %.17g vs %.17g\n", test_fmt_point(p, 3), (int)st, out, want);
    }
    CHECK(bad1 == 0, "one layer of weight 1 differs from cn_eval at %ld of %ld points", bad1, n);
    CHECK(bad2 == 0, "two layers differ from the weighted sum at %ld of %ld points", bad2, n);

    double p[3] = {0.5, 1.5, 2.5}, out = 123.0;
    cn_layer one = {&a, 1.0};
    CHECK(cn_layers_eval(NULL, 1, p, &out) == CN_E_NULL, "layers NULL");
    CHECK(cn_layers_eval(&one, 1, NULL, &out) == CN_E_NULL, "p NULL");
    CHECK(cn_layers_eval(&one, 1, p, NULL) == CN_E_NULL, "out NULL");
    cn_layer nul[2] = {{&a, 1.0}, {NULL, 1.0}};
    CHECK(cn_layers_eval(nul, 2, p, &out) == CN_E_NULL, "a layer's noise NULL");
    CHECK(cn_layers_eval(&one, 0, p, &out) == CN_E_LAYERS, "count 0");
    cn_layer mixed[2] = {{&a, 1.0}, {&c2, 1.0}};
    CHECK(cn_layers_eval(mixed, 2, p, &out) == CN_E_LAYERS, "mixed dims");
    cn_layer nanw[2] = {{&a, 1.0}, {&b, NAN}};
    CHECK(cn_layers_eval(nanw, 2, p, &out) == CN_E_SIGNAL, "NaN weight");
    cn_layer infw = {&a, -INFINITY};
    CHECK(cn_layers_eval(&infw, 1, p, &out) == CN_E_SIGNAL, "infinite weight");
    CHECK(out == 123.0, "a failed cn_layers_eval wrote %.17g", out);
    double pn[3] = {NAN, 0, 0};
    CHECK(cn_layers_eval(&one, 1, pn, &out) == CN_OK && isnan(out), "NaN coordinate: %.17g", out);
    printf("layers: %ld points, one layer == cn_eval: %s, two layers == hand-computed sum: %s\n", n,
           bad1 ? "NO" : "yes", bad2 ? "NO" : "yes");
}

int main(void)
{
    test_validation();
    test_periodicity();
    test_periodicity_far();
    test_seamless();
    test_tiled_continuity();
    test_ranges();
    test_octave_one();
    test_octave_sums();
    test_octave_seeds();
    test_pileup();
    test_octave_skip();
    test_frequency_limit();
    test_domain();
    test_signal();
    test_layers();
    test_far_octaves();
    return test_summary("test_fractal");
}
