/*
 * test_warp.c -- domain warp (cn_warp_* in include/cnoise.h).
 *
 * For warps of one, two and three stages (independent, progressive, mixed) over Perlin, simplex
 * and value noise in 2D, 3D and 4D, single-octave and fBm, plain and periodic:
 *  - the value is the documented composition computed here from the plain calls: the point
 *    reduced on the warped generator's periodic axes ((p s) mod P / s, by fmod, which is exact),
 *    each stage's fields by cn_eval (float: a one-point cn_grid_evalf at the double coordinates,
 *    as the float calls do) at the original or the displaced point, x + amplitude * value in
 *    double axis by axis, then the generator at the final point; bit for bit;
 *  - grids and point arrays, double and float, every supported instruction set, 1 or 3 threads,
 *    and the single-point calls give those bits (value and gradient);
 *  - the gradient agrees with central differences of the warped value, (f(p + h e_a) -
 *    f(p - h e_a)) / 2h, h = 1e-6 cells of the finest lattice (generator or field). S below is
 *    the chain rule's bound on the derivative: 4 / cell of the generator's finest octave times
 *    (1 + sum over stages of amplitude * 4 / cell of the fields' finest octaves) per stage
 *    product; the difference's own error is dominated by rounding of the lattice coordinates
 *    over 2h (as in test_grad.c, about 1e-7 S), so the tolerance is 1e-5 S; a missing chain
 *    factor is off by a sizable fraction of S. The float gradient is within 1e-3 S of the double;
 *  - a periodic generator warped by fields of the same period repeats bit for bit one period
 *    away, and is continuous across the tile's edge; with fields that do not tile it jumps there
 *    (so the continuity check can fail);
 *  - amplitude 0 gives the plain generator's bits;
 * then the refusals (CN_E_WARP, CN_E_NULL, CN_E_UNBUILT, CN_E_UNSUPPORTED, CN_E_OVERLAP), each
 * leaving the outputs alone. Warped layers (cn_warp_layers_*): the weighted sum of each layer's
 * own warped call, computed here in double in layer order from 0 and rounded to float once for
 * the float calls, bit for bit in value and gradient through the single-point, grid and
 * point-array calls on every instruction set and 1 or 3 threads, with layers whose periods differ
 * (each reduces the points by its own) and layers that share them; and their refusals.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "cnoise.h"
#include "test.h"

#define NPTS 20

static uint64_t rng = 0x2545f4914f6cdd1dull;
static double urand(void) { return test_urand(&rng); } /* [0, 1) */

static cn_isa isas[CN_ISA_COUNT];
static int nisas;

/* A set-up: the generator, its warp's stages and the fields they point to. */
typedef struct setup {
    const char *name;
    cn_noise gen;
    cn_noise fields[3][4];
    cn_warp warps[3];
    size_t nwarps;
    double box; /* points are drawn from [-box, box] (periodic: [0, tile)) */
} setup;

static double lattice_scale(const cn_noise *n)
{
    const cn_config *c = cn_noise_config(n);
    double amax = 0;
    for (int a = 0; a < c->dims; a++)
        amax = fmax(amax, c->axis_frequency[a]);
    return c->frequency * amax * pow(c->lacunarity, c->fractal == CN_FRACTAL_NONE ? 0 : cn_config_octaves(c) - 1);
}

/* The documented composition, from the plain calls (f32: float kernels at double coordinates). */
static double reference(const setup *s, const double *p, int f32)
{
    const cn_config *gc = cn_noise_config(&s->gen);
    const int dims = gc->dims;
    double pr[4] = {0, 0, 0, 0}, pc[4], xs[4];
    for (int a = 0; a < dims; a++) {
        pr[a] = p[a];
        if (gc->period[a]) {
            const double sc = gc->frequency * gc->axis_frequency[a], P = (double)gc->period[a];
            double r = fmod(p[a] * sc, P);
            if (r < 0)
                r += P;
            pr[a] = r / sc;
        }
        pc[a] = pr[a];
    }
    for (size_t st = 0; st < s->nwarps; st++) {
        const cn_warp *w = &s->warps[st];
        const double *x = st > 0 && w->mode == CN_WARP_PROGRESSIVE ? memcpy(xs, pc, sizeof xs) : pr;
        for (int k = 0; k < dims; k++) {
            double v;
            if (f32) {
                const size_t one[4] = {1, 1, 1, 1};
                const double step[4] = {1, 1, 1, 1};
                float fv;
                cn_grid_evalf(w->field[k], x, step, one, &fv, 1, 1, NULL);
                v = fv;
            } else {
                v = cn_eval(w->field[k], x);
            }
            pc[k] += w->amplitude * v;
        }
    }
    if (f32) {
        const size_t one[4] = {1, 1, 1, 1};
        const double step[4] = {1, 1, 1, 1};
        float fv;
        cn_grid_evalf(&s->gen, pc, step, one, &fv, 1, 1, NULL);
        return fv;
    }
    return cn_eval(&s->gen, pc);
}

/* The derivative bound S of the warped generator (see the top). */
static double grad_scale(const setup *s)
{
    double S = 4 * lattice_scale(&s->gen);
    const int dims = cn_noise_config(&s->gen)->dims;
    for (size_t st = 0; st < s->nwarps; st++) {
        double f = 0;
        for (int k = 0; k < dims; k++)
            f = fmax(f, 4 * lattice_scale(s->warps[st].field[k]));
        S *= 1 + fabs(s->warps[st].amplitude) * f * dims;
    }
    return S;
}

static double finest(const setup *s)
{
    double m = lattice_scale(&s->gen);
    const int dims = cn_noise_config(&s->gen)->dims;
    for (size_t st = 0; st < s->nwarps; st++)
        for (int k = 0; k < dims; k++)
            m = fmax(m, lattice_scale(s->warps[st].field[k]));
    return m;
}

static void build(cn_noise *n, cn_noise_type type, int dims, uint64_t seed, double freq, cn_fractal fractal,
                  int octaves, uint32_t period)
{
    cn_config c;
    cn_config_init(&c);
    c.type = type;
    c.dims = dims;
    c.seed = seed;
    c.frequency = freq;
    c.fractal = fractal;
    c.octaves = octaves;
    for (int a = 0; a < dims; a++)
        c.period[a] = period;
    cn_status st = cn_noise_build(n, &c);
    CHECK(st == CN_OK, "build %d/%dD: %s", (int)type, dims, cn_strerror(st));
}

/* The set-up's fields: stage st's axis k is `type`, seed 100 st + k, its frequency and fractal. */
static void stage(setup *s, size_t st, cn_noise_type type, double freq, cn_fractal fractal, uint32_t period,
                  double amp, cn_warp_mode mode)
{
    const int dims = cn_noise_config(&s->gen)->dims;
    for (int k = 0; k < 4; k++) {
        s->warps[st].field[k] = NULL;
        if (k < dims) {
            build(&s->fields[st][k], type, dims, 100 * st + (uint64_t)k + 7, freq, fractal, 3, period);
            s->warps[st].field[k] = &s->fields[st][k];
        }
    }
    s->warps[st].amplitude = amp;
    s->warps[st].mode = mode;
    if (st + 1 > s->nwarps)
        s->nwarps = st + 1;
}

/* Every call's bits against the reference; the gradient against central differences. */
static void check_setup(const setup *s, int with_grad)
{
    const int dims = cn_noise_config(&s->gen)->dims;
    double pts[NPTS][4], x[4][NPTS];
    float xf[4][NPTS];
    double ref[NPTS];
    float reff[NPTS];
    const double lo = cn_noise_config(&s->gen)->period[0] ? 0.1 : -s->box, hi = s->box;
    for (int i = 0; i < NPTS; i++) {
        for (int a = 0; a < 4; a++) {
            pts[i][a] = a < dims ? lo + (hi - lo) * urand() : 0;
            if (a < dims) {
                xf[a][i] = (float)pts[i][a];
                pts[i][a] = xf[a][i]; /* so that the float calls see the same points */
                x[a][i] = pts[i][a];
            }
        }
        ref[i] = reference(s, pts[i], 0);
        reff[i] = (float)reference(s, pts[i], 1);
    }
    /* single points */
    double g1[NPTS][4];
    float g1f[NPTS][4];
    for (int i = 0; i < NPTS; i++) {
        double v = 0;
        float vf = 0, pf[4] = {(float)pts[i][0], (float)pts[i][1], (float)pts[i][2], (float)pts[i][3]};
        cn_status st = cn_warp_eval(&s->gen, s->warps, s->nwarps, pts[i], &v, with_grad ? g1[i] : NULL);
        CHECK(st == CN_OK && memcmp(&v, &ref[i], sizeof v) == 0, "%s: point %d: %s, %.17g vs %.17g", s->name, i,
              cn_strerror(st), v, ref[i]);
        st = cn_warp_evalf(&s->gen, s->warps, s->nwarps, pf, &vf, with_grad ? g1f[i] : NULL);
        CHECK(st == CN_OK && memcmp(&vf, &reff[i], sizeof vf) == 0, "%s: float point %d: %s, %.9g vs %.9g", s->name,
              i, cn_strerror(st), vf, reff[i]);
    }
    /* point arrays and a one-row-per-point grid would not share points; use point arrays on every
     * instruction set and thread count, and a grid below */
    const double *xc[4] = {x[0], x[1], x[2], x[3]};
    const float *xfc[4] = {xf[0], xf[1], xf[2], xf[3]};
    for (int k = 0; k < nisas; k++) {
        cn_isa_set_cap(isas[k]);
        for (int threads = 1; threads <= 3; threads += 2) {
            double out[NPTS], g[4][NPTS];
            float outf[NPTS], gf[4][NPTS];
            double *gp[4] = {g[0], g[1], g[2], g[3]};
            float *gfp[4] = {gf[0], gf[1], gf[2], gf[3]};
            cn_status st = cn_warp_points_eval(&s->gen, s->warps, s->nwarps, NPTS, xc, out, with_grad ? gp : NULL,
                                               threads, NULL);
            CHECK(st == CN_OK && memcmp(out, ref, sizeof out) == 0, "%s: points, %s, %d threads: %s", s->name,
                  cn_isa_name(isas[k]), threads, cn_strerror(st));
            st = cn_warp_points_evalf(&s->gen, s->warps, s->nwarps, NPTS, xfc, outf, with_grad ? gfp : NULL, threads,
                                      NULL);
            CHECK(st == CN_OK && memcmp(outf, reff, sizeof outf) == 0, "%s: float points, %s, %d threads: %s",
                  s->name, cn_isa_name(isas[k]), threads, cn_strerror(st));
            for (int a = 0; with_grad && a < dims; a++) {
                int same = 1, samef = 1;
                for (int i = 0; i < NPTS; i++) {
                    same &= memcmp(&g[a][i], &g1[i][a], sizeof(double)) == 0;
                    samef &= memcmp(&gf[a][i], &g1f[i][a], sizeof(float)) == 0;
                }
                CHECK(same && samef, "%s: gradient axis %d of the point arrays (%s, %d threads) is not the single "
                      "point's", s->name, a, cn_isa_name(isas[k]), threads);
            }
        }
    }
    cn_isa_set_cap(CN_ISA_COUNT);
    /* a grid: 37 x 5 (x 3 x 2) points, against the reference point by point */
    {
        const size_t count[4] = {37, 5, 3, 2};
        const double origin[4] = {lo + 0.3, lo + 1.7, lo + 0.9, lo + 2.1};
        const double step[4] = {(hi - lo) / 41, (hi - lo) / 7, (hi - lo) / 5, (hi - lo) / 3};
        size_t total = 1;
        for (int a = 0; a < dims; a++)
            total *= count[a];
        double *out = test_xmalloc(total * sizeof *out), *ref_grid = test_xmalloc(total * sizeof *out);
        float *outf = test_xmalloc(total * sizeof *outf);
        for (size_t i = 0; i < total; i++) {
            double p[4] = {0, 0, 0, 0};
            size_t r = i;
            for (int a = 0; a < dims; a++) {
                p[a] = origin[a] + (double)(r % count[a]) * step[a];
                r /= count[a];
            }
            ref_grid[i] = reference(s, p, 0);
        }
        for (int k = 0; k < nisas; k++) {
            cn_isa_set_cap(isas[k]);
            double range[2];
            cn_status st = cn_warp_grid_eval(&s->gen, s->warps, s->nwarps, origin, step, count, out, NULL, total, 0,
                                             range);
            CHECK(st == CN_OK && memcmp(out, ref_grid, total * sizeof *out) == 0, "%s: grid, %s: %s", s->name,
                  cn_isa_name(isas[k]), cn_strerror(st));
            double l = INFINITY, h = -INFINITY;
            for (size_t i = 0; i < total; i++) {
                l = fmin(l, ref_grid[i]);
                h = fmax(h, ref_grid[i]);
            }
            CHECK(st == CN_OK && range[0] == l && range[1] == h, "%s: grid range [%g, %g], values [%g, %g]", s->name,
                  range[0], range[1], l, h);
            st = cn_warp_grid_evalf(&s->gen, s->warps, s->nwarps, origin, step, count, outf, NULL, total, 3, NULL);
            int samef = st == CN_OK;
            for (size_t i = 0; samef && i < total; i += 7) {
                double p[4] = {0, 0, 0, 0};
                size_t r = i;
                for (int a = 0; a < dims; a++) {
                    p[a] = origin[a] + (double)(r % count[a]) * step[a];
                    r /= count[a];
                }
                const float want = (float)reference(s, p, 1);
                samef = memcmp(&outf[i], &want, sizeof want) == 0;
            }
            CHECK(samef, "%s: float grid, %s: %s", s->name, cn_isa_name(isas[k]), cn_strerror(st));
        }
        cn_isa_set_cap(CN_ISA_COUNT);
        free(out);
        free(ref_grid);
        free(outf);
    }
    if (!with_grad)
        return;
    /* the gradient against central differences, and the float gradient against the double one */
    const double S = grad_scale(s), h = 1e-6 / finest(s);
    double worst = 0, worstf = 0;
    for (int i = 0; i < NPTS; i++) {
        for (int a = 0; a < dims; a++) {
            double pp[4], pm[4], fp, fm;
            memcpy(pp, pts[i], sizeof pp);
            memcpy(pm, pts[i], sizeof pm);
            pp[a] += h;
            pm[a] -= h;
            cn_warp_eval(&s->gen, s->warps, s->nwarps, pp, &fp, NULL);
            cn_warp_eval(&s->gen, s->warps, s->nwarps, pm, &fm, NULL);
            const double fd = (fp - fm) / (pp[a] - pm[a]);
            worst = fmax(worst, fabs(fd - g1[i][a]) / S);
            worstf = fmax(worstf, fabs((double)g1f[i][a] - g1[i][a]) / S);
        }
    }
    CHECK(worst < 1e-5, "%s: gradient off its central differences by %.3g S", s->name, worst);
    CHECK(worstf < 1e-3, "%s: float gradient off the double one by %.3g S", s->name, worstf);
    printf("  %-44s derivative error %.2g S, float %.2g S\n", s->name, worst, worstf);
}

static void test_setups(void)
{
    static const cn_noise_type types[3] = {CN_NOISE_PERLIN, CN_NOISE_SIMPLEX, CN_NOISE_VALUE};
    static setup s; /* large: static */
    for (int t = 0; t < 3; t++) {
        for (int dims = 2; dims <= 4; dims++) {
            for (int variant = 0; variant < 4; variant++) {
                memset(&s, 0, sizeof s);
                static char name[96];
                const cn_fractal fr = variant % 2 ? CN_FRACTAL_FBM : CN_FRACTAL_NONE;
                build(&s.gen, types[t], dims, 11 + (uint64_t)variant, 1.0 / 64, fr, 4, 0);
                s.box = 300;
                switch (variant) {
                case 0: /* a single warp */
                    stage(&s, 0, CN_NOISE_SIMPLEX, 1.0 / 128, CN_FRACTAL_NONE, 0, 20, CN_WARP_INDEPENDENT);
                    break;
                case 1: /* fractal independent: an fBm field */
                    stage(&s, 0, types[(t + 1) % 3], 1.0 / 96, CN_FRACTAL_FBM, 0, 15, CN_WARP_INDEPENDENT);
                    break;
                case 2: /* progressive, three stages of rising frequency */
                    for (size_t st = 0; st < 3; st++)
                        stage(&s, st, CN_NOISE_PERLIN, 1.0 / 128 * (double)(1 << st), CN_FRACTAL_NONE, 0,
                              24.0 / (double)(1 << st), CN_WARP_PROGRESSIVE);
                    break;
                default: /* mixed: independent fBm, then progressive value noise */
                    stage(&s, 0, CN_NOISE_PERLIN, 1.0 / 200, CN_FRACTAL_FBM, 0, 30, CN_WARP_INDEPENDENT);
                    stage(&s, 1, CN_NOISE_VALUE, 1.0 / 50, CN_FRACTAL_NONE, 0, -6, CN_WARP_PROGRESSIVE);
                    break;
                }
                snprintf(name, sizeof name, "%s %dD %s, warp %d", cn_noise_type_name(types[t]), dims,
                         cn_fractal_name(fr), variant);
                s.name = name;
                check_setup(&s, 1);
            }
        }
    }
    /* 1D, a cellular field (no gradient: values only), and a periodic set-up */
    memset(&s, 0, sizeof s);
    build(&s.gen, CN_NOISE_PERLIN, 1, 3, 1.0 / 32, CN_FRACTAL_FBM, 3, 0);
    stage(&s, 0, CN_NOISE_VALUE, 1.0 / 64, CN_FRACTAL_NONE, 0, 10, CN_WARP_INDEPENDENT);
    s.box = 500;
    s.name = "perlin 1D fbm, value field";
    check_setup(&s, 1);
    memset(&s, 0, sizeof s);
    build(&s.gen, CN_NOISE_SIMPLEX, 2, 3, 1.0 / 32, CN_FRACTAL_NONE, 3, 0);
    {
        cn_config c;
        cn_config_init(&c);
        c.type = CN_NOISE_CELLULAR;
        c.frequency = 1.0 / 40;
        for (int k = 0; k < 2; k++) {
            c.seed = (uint64_t)k;
            cn_noise_build(&s.fields[0][k], &c);
            s.warps[0].field[k] = &s.fields[0][k];
        }
        s.warps[0].amplitude = 8;
        s.nwarps = 1;
    }
    s.box = 400;
    s.name = "simplex 2D, cellular field";
    check_setup(&s, 0);
    double v, g[2], p[2] = {1, 2};
    CHECK(cn_warp_eval(&s.gen, s.warps, 1, p, &v, g) == CN_E_UNSUPPORTED, "a cellular field has no gradient");
    memset(&s, 0, sizeof s);
    build(&s.gen, CN_NOISE_PERLIN, 2, 5, 1.0 / 64, CN_FRACTAL_FBM, 4, 4); /* tile 256 */
    stage(&s, 0, CN_NOISE_SIMPLEX, 1.0 / 32, CN_FRACTAL_FBM, 8, 20, CN_WARP_INDEPENDENT);
    stage(&s, 1, CN_NOISE_PERLIN, 1.0 / 16, CN_FRACTAL_NONE, 16, 5, CN_WARP_PROGRESSIVE);
    s.box = 256;
    s.name = "perlin 2D fbm periodic, periodic fields";
    check_setup(&s, 1);
}

/* Exact repeats one tile away, continuity across the tile's edge, and the jump there with fields
 * that do not tile. */
static void test_tiling(void)
{
    static setup s;
    for (int tiled = 1; tiled >= 0; tiled--) {
        memset(&s, 0, sizeof s);
        build(&s.gen, CN_NOISE_SIMPLEX, 2, 9, 1.0 / 64, CN_FRACTAL_FBM, 5, 4); /* tile 256 */
        stage(&s, 0, CN_NOISE_PERLIN, 1.0 / 64, CN_FRACTAL_FBM, tiled ? 4 : 0, 40, CN_WARP_INDEPENDENT);
        stage(&s, 1, CN_NOISE_VALUE, 1.0 / 32, CN_FRACTAL_NONE, tiled ? 8 : 0, 10, CN_WARP_PROGRESSIVE);
        const size_t count[2] = {64, 64};
        const double step[2] = {4, 4};
        float a[64 * 64], b[64 * 64], c[64 * 64];
        const double o1[2] = {0, 0}, o2[2] = {256, -512}, o3[2] = {-256 * 3, 256 * 5};
        cn_status st = cn_warp_grid_evalf(&s.gen, s.warps, s.nwarps, o1, step, count, a, NULL, 64 * 64, 0, NULL);
        st |= cn_warp_grid_evalf(&s.gen, s.warps, s.nwarps, o2, step, count, b, NULL, 64 * 64, 0, NULL);
        st |= cn_warp_grid_evalf(&s.gen, s.warps, s.nwarps, o3, step, count, c, NULL, 64 * 64, 0, NULL);
        CHECK(st == CN_OK && memcmp(a, b, sizeof a) == 0 && memcmp(a, c, sizeof a) == 0,
              "a warped tile (fields %s) repeats bit for bit one and several tiles away", tiled ? "tiled" : "untiled");
        /* across the edge x = 256 (and y = 256): values 1e-6 apart */
        double jump = 0;
        for (int i = 0; i < 64; i++) {
            for (int axis = 0; axis < 2; axis++) {
                double p1[2], p2[2], v1, v2;
                p1[axis] = 256 - 1e-6;
                p2[axis] = 256 + 1e-6;
                p1[1 - axis] = p2[1 - axis] = i * 4 + 0.5;
                cn_warp_eval(&s.gen, s.warps, s.nwarps, p1, &v1, NULL);
                cn_warp_eval(&s.gen, s.warps, s.nwarps, p2, &v2, NULL);
                jump = fmax(jump, fabs(v1 - v2));
            }
        }
        if (tiled)
            CHECK(jump < 1e-4, "seamless across the tile's edge: largest step %.3g", jump);
        else
            CHECK(jump > 1e-2, "fields that do not tile make a seam: largest step %.3g", jump);
        printf("  tiling with %s fields: largest step across the edge %.3g\n", tiled ? "tiled" : "untiled", jump);
    }
}

/* Amplitude 0: the plain generator's bits (no period: the point is not reduced). */
static void test_zero(void)
{
    static setup s;
    memset(&s, 0, sizeof s);
    build(&s.gen, CN_NOISE_PERLIN, 3, 4, 1.0 / 16, CN_FRACTAL_RIDGED, 4, 0);
    stage(&s, 0, CN_NOISE_SIMPLEX, 1.0 / 8, CN_FRACTAL_NONE, 0, 0, CN_WARP_INDEPENDENT);
    const size_t count[3] = {40, 9, 4};
    const double origin[3] = {-13.25, 7.5, 100}, step[3] = {0.37, 1.1, 3};
    double a[40 * 9 * 4], b[40 * 9 * 4];
    cn_status st = cn_grid_eval(&s.gen, origin, step, count, a, 1440, 0, NULL);
    st |= cn_warp_grid_eval(&s.gen, s.warps, 1, origin, step, count, b, NULL, 1440, 0, NULL);
    CHECK(st == CN_OK && memcmp(a, b, sizeof a) == 0, "amplitude 0: the plain grid's bits");
}

static void test_refusals(void)
{
    static setup s;
    memset(&s, 0, sizeof s);
    build(&s.gen, CN_NOISE_PERLIN, 2, 1, 1.0 / 64, CN_FRACTAL_NONE, 1, 0);
    stage(&s, 0, CN_NOISE_PERLIN, 1.0 / 64, CN_FRACTAL_NONE, 0, 10, CN_WARP_INDEPENDENT);
    cn_noise other3, unbuilt;
    build(&other3, CN_NOISE_PERLIN, 3, 1, 1.0 / 64, CN_FRACTAL_NONE, 1, 0);
    memset(&unbuilt, 0, sizeof unbuilt);
    const double p[2] = {1.5, 2.5};
    double v = 42, g[2] = {42, 42};
    cn_warp w[CN_MAX_WARP_STAGES + 1];
    for (int i = 0; i <= CN_MAX_WARP_STAGES; i++)
        w[i] = s.warps[0];
    CHECK(cn_warp_check(&s.gen, w, CN_MAX_WARP_STAGES) == CN_OK, "%d stages", CN_MAX_WARP_STAGES);
    CHECK(cn_warp_check(&s.gen, w, CN_MAX_WARP_STAGES + 1) == CN_E_WARP, "too many stages");
    CHECK(cn_warp_eval(&s.gen, w, 0, p, &v, g) == CN_E_WARP, "no stage");
    CHECK(cn_warp_eval(NULL, w, 1, p, &v, g) == CN_E_NULL, "gen NULL");
    CHECK(cn_warp_eval(&s.gen, NULL, 1, p, &v, g) == CN_E_NULL, "warps NULL");
    CHECK(cn_warp_eval(&s.gen, w, 1, NULL, &v, g) == CN_E_NULL, "p NULL");
    CHECK(cn_warp_eval(&s.gen, w, 1, p, NULL, g) == CN_E_NULL, "out NULL");
    CHECK(cn_warp_eval(&unbuilt, w, 1, p, &v, g) == CN_E_UNBUILT, "gen unbuilt");
    w[1].amplitude = NAN;
    CHECK(cn_warp_eval(&s.gen, w, 2, p, &v, g) == CN_E_WARP, "amplitude NaN");
    w[1].amplitude = INFINITY;
    CHECK(cn_warp_eval(&s.gen, w, 2, p, &v, g) == CN_E_WARP, "amplitude infinite");
    w[1] = s.warps[0];
    w[1].mode = (cn_warp_mode)2;
    CHECK(cn_warp_eval(&s.gen, w, 2, p, &v, g) == CN_E_WARP, "unknown mode");
    w[1] = s.warps[0];
    w[1].field[1] = &other3;
    CHECK(cn_warp_eval(&s.gen, w, 2, p, &v, g) == CN_E_WARP, "a 3D field for a 2D generator");
    w[1].field[1] = &unbuilt;
    CHECK(cn_warp_eval(&s.gen, w, 2, p, &v, g) == CN_E_UNBUILT, "an unbuilt field");
    w[1].field[1] = NULL;
    CHECK(cn_warp_eval(&s.gen, w, 2, p, &v, g) == CN_E_NULL, "a NULL field");
    w[1] = s.warps[0];
    CHECK(v == 42 && g[0] == 42 && g[1] == 42, "refused calls write nothing");
    /* a field past the generator's dimension is not read */
    w[0].field[2] = &unbuilt;
    w[0].field[3] = NULL;
    CHECK(cn_warp_eval(&s.gen, w, 1, p, &v, g) == CN_OK, "fields past dims are not read");
    /* overlaps: the output over the stages or a field */
    const size_t count[2] = {4, 4};
    const double origin[2] = {0, 0}, step[2] = {1, 1};
    double *over = (double *)(void *)w;
    CHECK(cn_warp_grid_eval(&s.gen, w, 1, origin, step, count, over, NULL, 16, 0, NULL) == CN_E_OVERLAP,
          "output over the stages");
    CHECK(cn_warp_grid_eval(&s.gen, w, 1, origin, step, count, (double *)(void *)&s.fields[0][1], NULL, 16, 0,
                            NULL) == CN_E_OVERLAP, "output over a field");
    double out[16], gx[16];
    double *gp[2] = {gx, (double *)(void *)&s.fields[0][0]};
    CHECK(cn_warp_grid_eval(&s.gen, w, 1, origin, step, count, out, gp, 16, 0, NULL) == CN_E_OVERLAP,
          "a gradient array over a field");
    gp[1] = gx;
    CHECK(cn_warp_grid_eval(&s.gen, w, 1, origin, step, count, out, gp, 16, 0, NULL) == CN_E_OVERLAP,
          "two gradient arrays over each other");
    CHECK(cn_warp_grid_eval(&s.gen, w, 1, origin, step, count, out, NULL, 15, 0, NULL) == CN_E_RANGE,
          "out_len too small");
    CHECK(cn_warp_grid_eval(&s.gen, w, 1, origin, step, count, out, NULL, 16, -1, NULL) == CN_E_THREADS,
          "threads -1");
    const double *xc[2] = {p, p};
    CHECK(cn_warp_points_eval(&s.gen, w, 1, 0, xc, out, NULL, 0, NULL) == CN_OK, "no points");
    CHECK(cn_warp_points_eval(&s.gen, w, 1, 1, xc, out, NULL, 999, NULL) == CN_E_THREADS, "threads 999");
    /* non-finite coordinates, and displacements that overflow: NaN */
    const double bad[2] = {NAN, 1};
    CHECK(cn_warp_eval(&s.gen, w, 1, bad, &v, g) == CN_OK && isnan(v) && isnan(g[0]) && isnan(g[1]),
          "a NaN coordinate gives NaN");
    w[0].amplitude = 1.7e308;
    double p2[2] = {3.3, 7.1};
    CHECK(cn_warp_eval(&s.gen, w, 1, p2, &v, NULL) == CN_OK && (isnan(v) || fabs(v) <= 1), "a huge amplitude: %g",
          v);
}

/* Warped layers against the sum of the layers' own warped calls. */
static void check_layers(const char *name, const cn_layer *layers, size_t nl, const cn_warp *warps, size_t nwarps,
                         int dims, int with_grad, double lo, double hi)
{
    enum { NX = 23, NY = 4, NZ = 3, TOTAL = NX * NY * NZ };
    const size_t count[3] = {NX, NY, NZ};
    const double origin[3] = {lo + 0.31, lo + 1.3, lo + 0.7}, step[3] = {(hi - lo) / 29, (hi - lo) / 5, (hi - lo) / 4};
    static double pts[TOTAL][4], ref[TOTAL], refg[4][TOTAL], x[4][TOTAL];
    static float reff[TOTAL], reffg[4][TOTAL], xf[4][TOTAL];
    size_t total = 1;
    for (int a = 0; a < dims; a++)
        total *= count[a];
    for (size_t i = 0; i < total; i++) {
        size_t r = i;
        for (int a = 0; a < 4; a++) {
            pts[i][a] = 0;
            if (a < dims) {
                pts[i][a] = origin[a] + (double)(r % count[a]) * step[a];
                r /= count[a];
            }
        }
        double sum = 0, gsum[4] = {0, 0, 0, 0}, sumf = 0, gsumf[4] = {0, 0, 0, 0};
        float pf[4];
        for (int a = 0; a < 4; a++)
            pf[a] = (float)pts[i][a];
        for (size_t k = 0; k < nl; k++) {
            double v = 0, g[4] = {0, 0, 0, 0};
            float vf = 0, gf[4] = {0, 0, 0, 0};
            CHECK(cn_warp_eval(layers[k].noise, warps, nwarps, pts[i], &v, with_grad ? g : NULL) == CN_OK &&
                      cn_warp_evalf(layers[k].noise, warps, nwarps, pf, &vf, with_grad ? gf : NULL) == CN_OK,
                  "%s: layer %zu alone", name, k);
            sum += layers[k].weight * v;
            sumf += layers[k].weight * (double)vf;
            for (int a = 0; with_grad && a < dims; a++) {
                gsum[a] += layers[k].weight * g[a];
                gsumf[a] += layers[k].weight * (double)gf[a];
            }
        }
        ref[i] = sum;
        reff[i] = (float)sumf;
        for (int a = 0; a < dims; a++) {
            refg[a][i] = gsum[a];
            reffg[a][i] = (float)gsumf[a];
            x[a][i] = pts[i][a];
            xf[a][i] = pf[a];
        }
    }
    /* single points: the double points of the grid, and the float ones (the float reference
     * above took the float points) */
    int bad = 0;
    for (size_t i = 0; i < total; i++) {
        double v, g[4];
        float vf, gf[4], pf[4] = {xf[0][i], dims > 1 ? xf[1][i] : 0, dims > 2 ? xf[2][i] : 0, 0};
        cn_status st = cn_warp_layers_eval(layers, nl, warps, nwarps, pts[i], &v, with_grad ? g : NULL);
        st |= cn_warp_layers_evalf(layers, nl, warps, nwarps, pf, &vf, with_grad ? gf : NULL);
        bad += st != CN_OK || memcmp(&v, &ref[i], sizeof v) != 0 || memcmp(&vf, &reff[i], sizeof vf) != 0;
        for (int a = 0; with_grad && a < dims; a++)
            bad += memcmp(&g[a], &refg[a][i], sizeof g[a]) != 0 || memcmp(&gf[a], &reffg[a][i], sizeof gf[a]) != 0;
    }
    CHECK(bad == 0, "%s: %d single-point values or derivatives differ from the sum of the layers' own", name, bad);
    /* grids and point arrays */
    static float single_f[TOTAL], single_fg[4][TOTAL];
    for (size_t i = 0; i < total; i++) {
        /* the float grid takes the double grid points to the float kernels, which no float
         * point call does: its reference is the sum of one-point float grids of each layer */
        const double pd[4] = {pts[i][0], pts[i][1], pts[i][2], 0};
        double sumv = 0, gs[4] = {0, 0, 0, 0};
        for (size_t k = 0; k < nl; k++) {
            float v1, g1[4][1];
            float *g1p[4] = {g1[0], g1[1], g1[2], g1[3]};
            const size_t one[3] = {1, 1, 1};
            CHECK(cn_warp_grid_evalf(layers[k].noise, warps, nwarps, pd, step, one, &v1, with_grad ? g1p : NULL, 1, 1,
                                     NULL) == CN_OK, "%s: a one-point float grid", name);
            sumv += layers[k].weight * (double)v1;
            for (int a = 0; with_grad && a < dims; a++)
                gs[a] += layers[k].weight * (double)g1[a][0];
        }
        single_f[i] = (float)sumv;
        for (int a = 0; with_grad && a < dims; a++)
            single_fg[a][i] = (float)gs[a];
    }
    const double *xc[4] = {x[0], x[1], x[2], x[3]};
    const float *xfc[4] = {xf[0], xf[1], xf[2], xf[3]};
    for (int k = 0; k < nisas; k++) {
        cn_isa_set_cap(isas[k]);
        for (int threads = 1; threads <= 3; threads += 2) {
            static double out[TOTAL], g[4][TOTAL];
            static float outf[TOTAL], gf[4][TOTAL];
            double *gp[4] = {g[0], g[1], g[2], g[3]};
            float *gfp[4] = {gf[0], gf[1], gf[2], gf[3]};
            for (int call = 0; call < 2; call++) {
                cn_status st = call == 0 ? cn_warp_layers_grid_eval(layers, nl, warps, nwarps, origin, step, count, out,
                                                                     with_grad ? gp : NULL, total, threads, NULL)
                                         : cn_warp_layers_points_eval(layers, nl, warps, nwarps, total, xc, out,
                                                                      with_grad ? gp : NULL, threads, NULL);
                int same = st == CN_OK && memcmp(out, ref, total * sizeof *out) == 0;
                for (int a = 0; with_grad && a < dims; a++)
                    same &= memcmp(g[a], refg[a], total * sizeof(double)) == 0;
                st = call == 0 ? cn_warp_layers_grid_evalf(layers, nl, warps, nwarps, origin, step, count, outf,
                                                           with_grad ? gfp : NULL, total, threads, NULL)
                               : cn_warp_layers_points_evalf(layers, nl, warps, nwarps, total, xfc, outf,
                                                             with_grad ? gfp : NULL, threads, NULL);
                const float *wantf = call == 0 ? single_f : reff;
                same &= st == CN_OK && memcmp(outf, wantf, total * sizeof *outf) == 0;
                for (int a = 0; with_grad && a < dims; a++)
                    same &= memcmp(gf[a], call == 0 ? single_fg[a] : reffg[a], total * sizeof(float)) == 0;
                CHECK(same, "%s: %s, %s, %d threads: not the sum of the layers' own warped values", name,
                      call == 0 ? "grid" : "point array", cn_isa_name(isas[k]), threads);
            }
        }
    }
    cn_isa_set_cap(CN_ISA_COUNT);
}

static void test_layers(void)
{
    static setup s;
    memset(&s, 0, sizeof s);
    /* 2D: three layers, the first two aperiodic (one pass of the stages), the third periodic */
    static cn_noise l2[3], l3[2], cell;
    build(&l2[0], CN_NOISE_PERLIN, 2, 3, 1.0 / 16, CN_FRACTAL_FBM, 3, 0);
    build(&l2[1], CN_NOISE_SIMPLEX, 2, 4, 1.0 / 8, CN_FRACTAL_NONE, 1, 0);
    build(&l2[2], CN_NOISE_VALUE, 2, 5, 1.0 / 4, CN_FRACTAL_NONE, 1, 6);
    s.gen = l2[0];
    stage(&s, 0, CN_NOISE_SIMPLEX, 1.0 / 32, CN_FRACTAL_FBM, 0, 3.5, CN_WARP_INDEPENDENT);
    stage(&s, 1, CN_NOISE_PERLIN, 1.0 / 8, CN_FRACTAL_NONE, 0, 1.25, CN_WARP_PROGRESSIVE);
    const cn_layer a2[3] = {{&l2[0], 0.6}, {&l2[1], -0.35}, {&l2[2], 1.5}};
    check_layers("2D, three layers", a2, 3, s.warps, s.nwarps, 2, 1, 0.2, 20);
    const cn_layer b2[3] = {{&l2[2], 1.5}, {&l2[0], 0.6}, {&l2[1], 2.0}};
    check_layers("2D, the periodic layer first", b2, 3, s.warps, s.nwarps, 2, 1, -9, 9);
    check_layers("2D, one layer", b2 + 1, 1, s.warps, s.nwarps, 2, 1, -9, 9);
    /* 3D: two layers of different periods, and a cellular layer (no gradient) */
    static setup t;
    memset(&t, 0, sizeof t);
    build(&l3[0], CN_NOISE_PERLIN, 3, 6, 1.0 / 4, CN_FRACTAL_NONE, 1, 8);
    build(&l3[1], CN_NOISE_VALUE, 3, 7, 1.0 / 2, CN_FRACTAL_FBM, 2, 4);
    build(&cell, CN_NOISE_CELLULAR, 3, 8, 1.0 / 3, CN_FRACTAL_NONE, 1, 0);
    t.gen = l3[0];
    stage(&t, 0, CN_NOISE_VALUE, 1.0 / 4, CN_FRACTAL_NONE, 8, 0.75, CN_WARP_INDEPENDENT);
    const cn_layer a3[2] = {{&l3[0], 1.0}, {&l3[1], 0.5}};
    check_layers("3D, two periods", a3, 2, t.warps, t.nwarps, 3, 1, 0.1, 30);
    const cn_layer c3[2] = {{&l3[0], 1.0}, {&cell, 0.25}};
    check_layers("3D, with cellular", c3, 2, t.warps, t.nwarps, 3, 0, -5, 5);

    /* refusals: nothing written */
    const double p[3] = {1.5, 2.5, 3.5};
    double v = 42, g[3] = {42, 42, 42};
    CHECK(cn_warp_layers_eval(NULL, 1, t.warps, 1, p, &v, NULL) == CN_E_NULL, "layers NULL");
    CHECK(cn_warp_layers_eval(a3, 0, t.warps, 1, p, &v, NULL) == CN_E_LAYERS, "no layer");
    const cn_layer mixed[2] = {{&l3[0], 1.0}, {&l2[0], 1.0}};
    CHECK(cn_warp_layers_eval(mixed, 2, t.warps, 1, p, &v, NULL) == CN_E_LAYERS, "layers of two dimensions");
    CHECK(cn_warp_layers_eval(a2, 3, t.warps, 1, p, &v, NULL) == CN_E_WARP, "3D fields for 2D layers");
    CHECK(cn_warp_layers_eval(c3, 2, t.warps, 1, p, &v, g) == CN_E_UNSUPPORTED, "a gradient through cellular");
    const cn_layer nan_w[2] = {{&l3[0], NAN}, {&l3[1], 1.0}};
    CHECK(cn_warp_layers_eval(nan_w, 2, t.warps, 1, p, &v, NULL) == CN_E_SIGNAL, "a NaN weight");
    CHECK(cn_warp_layers_eval(a3, 2, t.warps, 0, p, &v, NULL) == CN_E_WARP, "no stage");
    CHECK(cn_warp_layers_eval(a3, 2, t.warps, 1, NULL, &v, NULL) == CN_E_NULL, "p NULL");
    CHECK(v == 42 && g[0] == 42, "refused calls write nothing");
    static cn_layer over[8];
    over[0] = a3[0];
    over[1] = a3[1];
    const size_t count[3] = {2, 2, 2};
    const double origin[3] = {0, 0, 0}, step[3] = {1, 1, 1};
    CHECK(cn_warp_layers_grid_eval(over, 2, t.warps, 1, origin, step, count, (double *)(void *)over, NULL, 8, 1,
                                   NULL) == CN_E_OVERLAP, "output over the layers");
    CHECK(cn_warp_layers_grid_eval(a3, 2, t.warps, 1, origin, step, count, (double *)(void *)&l3[1], NULL, 8, 1,
                                   NULL) == CN_E_OVERLAP, "output over a layer's generator");
}

int main(void)
{
    nisas = 0;
    for (int i = 0; i < CN_ISA_COUNT; i++)
        if (cn_isa_supported((cn_isa)i))
            isas[nisas++] = (cn_isa)i;
    test_setups();
    test_tiling();
    test_zero();
    test_refusals();
    test_layers();
    return test_summary("test_warp");
}
