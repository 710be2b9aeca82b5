/*
 * identity.c -- the WebAssembly identity test's sampler (scripts/test-wasm.sh). The same source is
 * built three times: natively against the scalar build of the library (the reference), and with
 * emcc as a scalar and as a SIMD128 WebAssembly module run under Node. Each run prints one line
 * per configuration and entry point: a 64-bit FNV-1a hash of every output sample's bits (and of
 * the range the call reports), with the sample count. The script compares the three outputs line
 * for line, so any one sample that differs in any bit fails it, and the line names the case.
 *
 * Cases: every noise type x mode x dimension the library has a kernel for (the CLI's --noise,
 * --mode, --dims), x every fractal (--fractal none, fbm, turbulence, billow, ridged), x three
 * domains (plain; tiled with periods, as --tile/--period; axis frequencies, offsets and a
 * rotation, as --axis-frequency/--offset/--rotate), each through the double and the float grid
 * (cn_grid_eval, cn_grid_evalf: rows long enough for the vector row paths, plus a tail) and the
 * double and float point arrays (cn_points_eval, cn_points_evalf) at points that include negative
 * and lattice coordinates, cells beyond 2^31, huge values, -0, NaN and infinities.
 *
 * NaN: WebAssembly does not fix the sign and payload of a NaN that arithmetic produces, so a NaN
 * sample is hashed as one canonical NaN (NaN-ness must still agree); every other bit counts.
 *
 * Usage: identity [--quick]   (--quick: fewer domains, for a fast smoke run)
 * Prints "isa <name>" first: the instruction set batch calls used.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cnoise.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001b3);
    return h;
}
static uint64_t hash_d(uint64_t h, double v)
{
    uint64_t u;
    if (v != v)
        u = UINT64_C(0x7ff8000000000000);
    else
        memcpy(&u, &v, sizeof u);
    return fnv(h, &u, sizeof u);
}
static uint64_t hash_f(uint64_t h, float v)
{
    uint32_t u;
    if (v != v)
        u = UINT32_C(0x7fc00000);
    else
        memcpy(&u, &v, sizeof u);
    return fnv(h, &u, sizeof u);
}

/* The hash of one call's output: its range (lo, hi), then its n values. */
static uint64_t hash_out_d(const double r[2], const double *v, size_t n)
{
    uint64_t h = hash_d(hash_d(UINT64_C(0xcbf29ce484222325), r[0]), r[1]);
    for (size_t i = 0; i < n; i++)
        h = hash_d(h, v[i]);
    return h;
}

static uint64_t hash_out_f(const float r[2], const float *v, size_t n)
{
    uint64_t h = hash_f(hash_f(UINT64_C(0xcbf29ce484222325), r[0]), r[1]);
    for (size_t i = 0; i < n; i++)
        h = hash_f(h, v[i]);
    return h;
}

/* SplitMix64: the points' coordinates. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static double unit(uint64_t *s) { return (double)(mix(s) >> 11) * (1.0 / 9007199254740992.0); }

#define NPTS 61
#define GRID_MAX (67 * 5 * 3 * 2)
static double pts[4][NPTS];
static float ptsf[4][NPTS];
static double outd[GRID_MAX];
static float outf[GRID_MAX];
static long long samples;

static void make_points(void)
{
    uint64_t s = 12345;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NPTS; i++) {
            double v;
            switch (i % 8) {
            case 0: v = (unit(&s) - 0.5) * 600.0; break;                 /* the usual range */
            case 1: v = floor((unit(&s) - 0.5) * 40.0); break;            /* lattice points */
            case 2: v = (unit(&s) - 0.5) * 2e6; break;                    /* far out */
            case 3: v = 2147483648.0 * 64.0 + (unit(&s) - 0.5) * 4e3; break; /* cells past 2^31 */
            case 4: v = -(unit(&s) * 3.0); break;                         /* small negatives */
            case 5: v = (unit(&s) - 0.5) * 1e13; break;                   /* cells past 2^32 */
            default: v = (unit(&s) - 0.5) * 100.0; break;
            }
            pts[a][i] = v;
        }
    /* Specials on a few points (one axis each): -0, NaN, +-Inf, the largest finite double. */
    pts[0][7] = -0.0;
    pts[1][15] = NAN;
    pts[2][23] = INFINITY;
    pts[3][31] = -INFINITY;
    pts[0][39] = 1.7976931348623157e308;
    pts[1][47] = -1e300;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NPTS; i++)
            ptsf[a][i] = (float)pts[a][i];
}

static void line(const char *name, const char *api, uint64_t h, size_t n, cn_status st)
{
    printf("%s %s n=%zu st=%d %016llx\n", name, api, n, (int)st, (unsigned long long)h);
    samples += (long long)n;
}

static void run_case(const char *name, const cn_config *cfg)
{
    cn_noise gen;
    cn_status st = cn_noise_build(&gen, cfg);
    if (st != CN_OK) {
        printf("%s build st=%d\n", name, (int)st);
        return;
    }
    const int d = cfg->dims;
    static const size_t counts[4] = {67, 5, 3, 2};
    static const double origin[4] = {-37.25, 11.5, -3.0, 100.125};
    static const double step[4] = {1.0, 3.5, 7.25, 13.0};
    size_t n = 1;
    for (int a = 0; a < d; a++)
        n *= counts[a];

    double rd[2];
    float rf[2];
    st = cn_grid_eval(&gen, origin, step, counts, outd, n, 1, rd);
    uint64_t h = hash_out_d(rd, outd, n);
    line(name, "grid", h, n, st);

    st = cn_grid_evalf(&gen, origin, step, counts, outf, n, 1, rf);
    h = hash_out_f(rf, outf, n);
    line(name, "gridf", h, n, st);

    const double *pd[4] = {pts[0], pts[1], pts[2], pts[3]};
    st = cn_points_eval(&gen, NPTS, pd, outd, 1, rd);
    h = hash_out_d(rd, outd, NPTS);
    line(name, "points", h, NPTS, st);

    const float *pf[4] = {ptsf[0], ptsf[1], ptsf[2], ptsf[3]};
    st = cn_points_evalf(&gen, NPTS, pf, outf, 1, rf);
    h = hash_out_f(rf, outf, NPTS);
    line(name, "pointsf", h, NPTS, st);

    /* The single-point entries (the scalar build in every module, but the same bits are owed). */
    h = UINT64_C(0xcbf29ce484222325);
    uint64_t hf = h;
    for (int i = 0; i < NPTS; i++) {
        double p[4] = {pts[0][i], pts[1][i], pts[2][i], pts[3][i]};
        float q[4] = {ptsf[0][i], ptsf[1][i], ptsf[2][i], ptsf[3][i]};
        h = hash_d(h, cn_eval(&gen, p));
        hf = hash_f(hf, cn_evalf(&gen, q));
    }
    line(name, "eval", h, NPTS, CN_OK);
    line(name, "evalf", hf, NPTS, CN_OK);
}

int main(int argc, char **argv)
{
    const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    make_points();
    printf("isa %s\n", cn_isa_name(cn_isa_active()));
    static const cn_noise_type types[] = {CN_NOISE_PERLIN, CN_NOISE_SIMPLEX, CN_NOISE_VALUE, CN_NOISE_VALUE_CUBIC,
                                         CN_NOISE_CELLULAR, CN_NOISE_OPENSIMPLEX2, CN_NOISE_OPENSIMPLEX2S};
    static const cn_mode modes[] = {CN_MODE_DEFAULT, CN_MODE_CLASSIC};
    static const cn_fractal fractals[] = {CN_FRACTAL_NONE, CN_FRACTAL_FBM, CN_FRACTAL_TURBULENCE, CN_FRACTAL_BILLOW,
                                          CN_FRACTAL_RIDGED, CN_FRACTAL_PINGPONG, CN_FRACTAL_EROSION};
    int cases = 0, kernels = 0;
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
        for (size_t m = 0; m < sizeof modes / sizeof *modes; m++)
            for (int d = 1; d <= 4; d++) {
                cn_config base;
                cn_config_init(&base);
                base.type = types[t];
                base.mode = modes[m];
                base.dims = d;
                if (cn_config_check(&base) == CN_E_UNSUPPORTED)
                    continue; /* no kernel (simplex 1D): the CLI refuses it too */
                kernels++;
                for (size_t f = 0; f < sizeof fractals / sizeof *fractals; f++)
                    for (int dom = 0; dom < (quick ? 1 : 3); dom++) {
                        cn_config c = base;
                        c.seed = UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(cases + 1) + (uint64_t)(m ? 0 : 77);
                        if (c.mode == CN_MODE_CLASSIC)
                            c.seed = (uint64_t)(cases % 3); /* seed 0 is the reference permutation */
                        c.frequency = 1.0 / 29.0;
                        /* cellular: every distance and return over the cases, jitter 1 or less */
                        c.cell_distance = (cn_cell_distance)(cases % 5);
                        c.cell_return = (cn_cell_return)(cases / 5 % 7);
                        c.minkowski_p = 1.0 + (double)(cases % 7) * 1.75;
                        if (c.cell_return == CN_CELL_EDGE) /* Euclidean only */
                            c.cell_distance = CN_CELL_EUCLIDEAN;
                        c.jitter = cases % 3 ? 1.0 : 0.6;
                        c.weighted_strength = cases % 4 == 1 ? 0.55 : 0.0;
                        c.pingpong_strength = 1.0 + cases % 5;
                        c.fractal = fractals[f];
                        if (c.fractal == CN_FRACTAL_EROSION && c.type == CN_NOISE_CELLULAR)
                            continue; /* erosion needs a gradient */
                        if (c.fractal != CN_FRACTAL_NONE) {
                            c.octaves = 5;
                            c.lacunarity = 2.03;
                            c.gain = 0.55;
                        }
                        if (dom == 1) { /* tiled: periods the noise type allows */
                            if (c.mode != CN_MODE_DEFAULT || ((c.type == CN_NOISE_OPENSIMPLEX2 || c.type == CN_NOISE_OPENSIMPLEX2S) && d == 3))
                                continue; /* (OpenSimplex2 and 2S in 3D take no period) */
                            c.lacunarity = 2.0; /* periods need whole lacunarities */
                            uint32_t k = cn_period_multiple(c.type, d);
                            for (int a = 0; a < d; a++)
                                c.period[a] = k * (uint32_t)(3 + a);
                        } else if (dom == 2) { /* transformed domain */
                            for (int a = 0; a < d; a++) {
                                c.axis_frequency[a] = 1.0 + 0.25 * a;
                                c.offset[a] = -13.5 + 7.25 * a;
                            }
                            if (d == 2 && cn_config_rotate2(&c, 0.7) != CN_OK)
                                continue;
                            if (d == 3 && cn_config_rotate3(&c, 1.0, 2.0, -0.5, 1.1) != CN_OK)
                                continue;
                            c.amplitude = 0.8;
                            c.bias = 0.1;
                        }
                        char name[128];
                        snprintf(name, sizeof name, "%s/%s/%dd/%s/%s", cn_noise_type_name(c.type), cn_mode_name(c.mode), d,
                                 cn_fractal_name(c.fractal), dom == 0 ? "plain" : dom == 1 ? "tiled" : "transformed");
                        run_case(name, &c);
                        cases++;
                    }
            }
    printf("total kernels=%d cases=%d samples=%lld\n", kernels, cases, samples);
    return 0;
}
