/*
 * test_grad.c -- the value-and-gradient calls (cn_eval_grad and friends, include/cnoise.h).
 *
 * For every noise type with a gradient form (all but cellular), both modes, 1D-4D, every fractal
 * (erosion too: its gradient takes each kernel's second derivatives, which these checks thereby
 * reach), and three set-ups (plain; axis frequencies, rotation, offset, amplitude, bias and weighted
 * strength; periodic), at random points:
 *  - the value is cn_eval's (cn_evalf's) bits;
 *  - each partial derivative agrees with a central difference of cn_eval,
 *    (f(p + h e_a) - f(p - h e_a)) / 2h (h the steps actually taken), with h = 1e-6 cells of the
 *    finest octave. Its error is h^2/6 |f'''| (about 1e-12 S; S below is the gradient's scale,
 *    4 / cell of the finest octave) plus the rounding of f over 2h, which is dominated by the
 *    rounding of the lattice coordinates: up to about 1100 cells here, an ulp of 2.4e-13 cells,
 *    moving f by 2.4e-13 S, over 2h = 2e-6 cells: about 1.2e-7 S. The tolerance is 1e-6 S (the
 *    largest error seen is about 1e-7 S); a wrong chain factor or term is off by a sizable
 *    fraction of S. A point whose forward and
 *    backward differences disagree by more than 1e-4 S has a kink or jump between p - h and
 *    p + h (|n| at n = 0, a clamp, a ping-pong fold, classic simplex's jumps): it is skipped and
 *    counted, and at most 0.5 % of the checks of a set-up may be skipped (none where the formula
 *    is smooth);
 *  - the float gradient is within 1e-4 S of the double one at the same point;
 *  - grids and point arrays, double and float, on every supported instruction set and 1 or 3
 *    threads give the single-point call's bits (memcmp), value and gradient;
 *  - periodic set-ups repeat the gradient bit for bit one period away.
 * Then the refusals: cellular (CN_E_UNSUPPORTED, NaN), NULL and overlapping arrays, an unbuilt
 * generator, non-finite coordinates.
 *
 * Curl noise (cn_curl and friends): the field is the documented differences of cn_eval_grad's
 * derivatives bit for bit, the grid calls give the point call's bits on every instruction set and
 * thread count, and it is divergence-free: its divergence by central differences (h = 1e-4 cells
 * of the finest octave) stays below 1e-5 S^2 (S = 4 / cell as above; the differences' own error
 * is about h^2/6 |v'''|, some 3e-8 S^2), while the divergence of the gradient field of the same
 * potential (its Laplacian, by the same differences) reaches a sizable fraction of S^2, so the
 * check would see a field that is not divergence-free.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "cnoise.h"
#include "test.h"

#define NPTS 24

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double urand(void) { return test_urand(&rng); } /* [0, 1) */

static cn_isa isas[CN_ISA_COUNT];
static int nisas;
static long long n_checks, n_skipped, n_bitwise;

static int same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

/* Whether the configuration's formula is smooth (no kink a difference could straddle). */
static int smooth(const cn_config *c)
{
    if (c->type == CN_NOISE_SIMPLEX && c->mode == CN_MODE_CLASSIC && c->dims > 2)
        return 0; /* radius^2 0.6: small jumps */
    return c->fractal == CN_FRACTAL_NONE || c->fractal == CN_FRACTAL_FBM || c->fractal == CN_FRACTAL_EROSION;
}

/* The largest factor by which the input scales into any octave's lattice. */
static double lattice_scale(const cn_config *c)
{
    double amax = 0;
    for (int a = 0; a < c->dims; a++)
        amax = fmax(amax, c->axis_frequency[a]);
    return c->frequency * amax * pow(c->lacunarity, cn_config_octaves(c) - 1);
}

static void check_batch(const char *what, const cn_noise *n, const double (*pts)[4], const double *ref_v,
                        const double (*ref_g)[4], const float (*ptsf)[4], const float *ref_vf, const float (*ref_gf)[4])
{
    const cn_config *c = cn_noise_config(n);
    const int dims = c->dims;
    double x[4][NPTS], out[NPTS], g[4][NPTS];
    float xf[4][NPTS], outf[NPTS], gf[4][NPTS];
    const double *coords[4] = {x[0], x[1], x[2], x[3]};
    const float *coordsf[4] = {xf[0], xf[1], xf[2], xf[3]};
    double *gp[4] = {g[0], g[1], g[2], g[3]};
    float *gpf[4] = {gf[0], gf[1], gf[2], gf[3]};
    for (int i = 0; i < NPTS; i++)
        for (int a = 0; a < dims; a++) {
            x[a][i] = pts[i][a];
            xf[a][i] = ptsf[i][a];
        }
    /* a small grid, its points by the single-point call: rows of 37 points, so that every
     * instruction set has whole vectors in a row (the gradient rows of Perlin and value noise,
     * row.inc) and a partial one after them (the per-point loop) */
    const double origin[4] = {-1.3, 0.7, 2.1, -0.4}, step[4] = {0.37, 0.29, 0.41, 0.53};
    const size_t count[4] = {37, 4, 3, 2};
    size_t total = 1;
    for (int a = 0; a < dims; a++)
        total *= count[a];
    static double gv[888], gg[4][888], gvr[888], ggr[4][888];
    static float gvf[888], ggf[4][888];
    for (size_t i = 0; i < total; i++) {
        double p[4], gd[4];
        size_t r = i;
        for (int a = 0; a < dims; a++) {
            p[a] = origin[a] + (double)(r % count[a]) * step[a];
            r /= count[a];
        }
        gvr[i] = cn_eval_grad(n, p, gd);
        for (int a = 0; a < dims; a++)
            ggr[a][i] = gd[a];
    }
    double *ggp[4] = {gg[0], gg[1], gg[2], gg[3]};
    float *ggpf[4] = {ggf[0], ggf[1], ggf[2], ggf[3]};
    /* the float grid computes its coordinates in double: with an origin and step whose points
     * are floats exactly, cn_evalf_grad at those floats is its reference */
    const double origin_f[4] = {-1.25, 0.75, 2.0, -0.5}, step_f[4] = {0.375, 0.25, 0.5, 0.625};
    static float gvf_ref[888], ggf_ref[4][888];
    for (size_t i = 0; i < total; i++) {
        float pf[4], gdf[4];
        size_t r = i;
        for (int a = 0; a < dims; a++) {
            pf[a] = (float)(origin_f[a] + (double)(r % count[a]) * step_f[a]);
            r /= count[a];
        }
        gvf_ref[i] = cn_evalf_grad(n, pf, gdf);
        for (int a = 0; a < dims; a++)
            ggf_ref[a][i] = gdf[a];
    }
    for (int k = 0; k < nisas; k++) {
        CHECK(cn_isa_set_cap(isas[k]) == CN_OK, "cap");
        for (int threads = 1; threads <= 3; threads += 2) {
            const char *isa = cn_isa_name(isas[k]);
            cn_status st = cn_points_eval_grad(n, NPTS, coords, out, gp, threads);
            int ok = st == CN_OK && same_bits(out, ref_v, sizeof out);
            for (int a = 0; a < dims; a++)
                for (int i = 0; i < NPTS; i++)
                    ok &= same_bits(&g[a][i], &ref_g[i][a], sizeof(double));
            CHECK(ok, "%s: %s, %d threads: cn_points_eval_grad (%s) differs from cn_eval_grad", what, isa, threads,
                  cn_strerror(st));
            st = cn_points_evalf_grad(n, NPTS, coordsf, outf, gpf, threads);
            ok = st == CN_OK && same_bits(outf, ref_vf, sizeof outf);
            for (int a = 0; a < dims; a++)
                for (int i = 0; i < NPTS; i++)
                    ok &= same_bits(&gf[a][i], &ref_gf[i][a], sizeof(float));
            CHECK(ok, "%s: %s, %d threads: cn_points_evalf_grad (%s) differs from cn_evalf_grad", what, isa,
                  threads, cn_strerror(st));
            st = cn_grid_eval_grad(n, origin, step, count, gv, ggp, total, threads);
            ok = st == CN_OK && same_bits(gv, gvr, total * sizeof(double));
            for (int a = 0; a < dims; a++)
                ok &= same_bits(gg[a], ggr[a], total * sizeof(double));
            CHECK(ok, "%s: %s, %d threads: cn_grid_eval_grad (%s) differs from cn_eval_grad", what, isa, threads,
                  cn_strerror(st));
            st = cn_grid_evalf_grad(n, origin_f, step_f, count, gvf, ggpf, total, threads);
            ok = st == CN_OK && same_bits(gvf, gvf_ref, total * sizeof(float));
            for (int a = 0; a < dims; a++)
                ok &= same_bits(ggf[a], ggf_ref[a], total * sizeof(float));
            CHECK(ok, "%s: %s, %d threads: cn_grid_evalf_grad (%s) differs from cn_evalf_grad", what, isa,
                  threads, cn_strerror(st));
            /* and the value part is the plain grid's */
            static double plain[888];
            st = cn_grid_eval(n, origin, step, count, plain, total, threads, NULL);
            CHECK(st == CN_OK && same_bits(plain, gv, total * sizeof(double)),
                  "%s: %s: the gradient grid's values are not cn_grid_eval's", what, isa);
            n_bitwise += 5;
        }
    }
    CHECK(cn_isa_set_cap(CN_ISA_COUNT) == CN_OK, "cap off");
}

static void check_config(const char *what, const cn_config *cfg)
{
    cn_noise n;
    cn_status st = cn_noise_build(&n, cfg);
    CHECK(st == CN_OK, "%s: build: %s", what, cn_strerror(st));
    if (st != CN_OK)
        return;
    const cn_config *c = cn_noise_config(&n);
    const int dims = c->dims;
    const double L = lattice_scale(c), h = 1e-6 / L;
    const double S = fabs(c->amplitude) * L * 4; /* the gradient's scale: 4 cells^-1 of the finest octave */
    double pts[NPTS][4], ref_v[NPTS], ref_g[NPTS][4];
    float ptsf[NPTS][4], ref_vf[NPTS], ref_gf[NPTS][4];
    long long checks = 0, skipped = 0;
    double worst = 0, worst_f = 0;
    for (int i = 0; i < NPTS; i++) {
        double p[4], gd[4];
        float pf[4], gdf[4];
        for (int a = 0; a < dims; a++) {
            p[a] = (urand() * 2 - 1) * 40 / c->frequency;
            pf[a] = (float)p[a];
        }
        const double v = cn_eval_grad(&n, p, gd);
        const double plain = cn_eval(&n, p);
        CHECK(same_bits(&v, &plain, sizeof v), "%s: value %.17g, cn_eval %.17g", what, v, plain);
        const float vf = cn_evalf_grad(&n, pf, gdf), plainf = cn_evalf(&n, pf);
        CHECK(same_bits(&vf, &plainf, sizeof vf), "%s: float value %.9g, cn_evalf %.9g", what, vf, plainf);
        double pd[4], gdd[4];
        for (int a = 0; a < dims; a++)
            pd[a] = pf[a];
        cn_eval_grad(&n, pd, gdd); /* the double gradient at the float point */
        for (int a = 0; a < dims; a++) {
            /* the steps actually taken: p +- h rounds, (p + h) - p is exact */
            double q[4];
            memcpy(q, p, sizeof q);
            q[a] = p[a] + h;
            const double hp = q[a] - p[a], fp = cn_eval(&n, q);
            q[a] = p[a] - h;
            const double hm = p[a] - q[a], fm = cn_eval(&n, q);
            const double fwd = (fp - v) / hp, bwd = (v - fm) / hm;
            checks++;
            if (fabs(fwd - bwd) > 1e-4 * S) {
                skipped++;
                continue;
            }
            const double cd = (fp - fm) / (hp + hm), err = fabs(gd[a] - cd);
            worst = fmax(worst, err / S);
            CHECK(err <= 1e-6 * S, "%s: point %d axis %d: gradient %.17g, central difference %.17g (S %g)", what, i,
                  a, gd[a], cd, S);
            const double errf = fabs((double)gdf[a] - gdd[a]);
            worst_f = fmax(worst_f, errf / S);
            CHECK(errf <= 1e-4 * S, "%s: point %d axis %d: float gradient %.9g, double %.17g (S %g)", what, i, a,
                  gdf[a], gdd[a], S);
        }
        memcpy(pts[i], p, sizeof p);
        memcpy(ptsf[i], pf, sizeof pf);
        ref_v[i] = v;
        ref_vf[i] = vf;
        memcpy(ref_g[i], gd, sizeof gd);
        memcpy(ref_gf[i], gdf, sizeof gdf);
    }
    CHECK(smooth(c) ? skipped == 0 : skipped * 200 <= checks, "%s: %lld of %lld checks straddle a kink", what,
          skipped, checks);
    n_checks += checks;
    n_skipped += skipped;
    if (getenv("CNOISE_TEST_VERBOSE"))
        printf("%-60s worst %.2e (float %.2e), skipped %lld/%lld\n", what, worst, worst_f, skipped, checks);
    check_batch(what, &n, (const double (*)[4])pts, ref_v, (const double (*)[4])ref_g, (const float (*)[4])ptsf,
                ref_vf, (const float (*)[4])ref_gf);
}

/* Periodic generators repeat the gradient exactly: at a point whose coordinate plus the period
 * is exact (a multiple of 2^-20 well inside the range), the two gradients have the same bits. */
static void check_period_exact(void)
{
    cn_config c;
    cn_config_init(&c);
    c.dims = 2;
    c.frequency = 0.125;
    c.period[0] = c.period[1] = 8; /* 64 units */
    c.fractal = CN_FRACTAL_FBM;
    c.octaves = 4;
    for (int t = 0; t < 3; t++) {
        c.type = t == 0 ? CN_NOISE_PERLIN : t == 1 ? CN_NOISE_SIMPLEX : CN_NOISE_VALUE_CUBIC;
        cn_noise n;
        CHECK(cn_noise_build(&n, &c) == CN_OK, "periodic build");
        int same = 1;
        for (int i = 0; i < 200; i++) {
            double p[2] = {floor(urand() * 64 * 1048576) / 1048576, floor(urand() * 64 * 1048576) / 1048576};
            double q[2] = {p[0] + 64, p[1] - 128}, gp[2], gq[2];
            double vp = cn_eval_grad(&n, p, gp), vq = cn_eval_grad(&n, q, gq);
            same &= same_bits(&vp, &vq, sizeof vp) && same_bits(gp, gq, sizeof gp);
        }
        CHECK(same, "type %d: the gradient does not repeat one period away", t);
    }
}

static void check_refusals(void)
{
    cn_config c;
    cn_config_init(&c);
    c.type = CN_NOISE_CELLULAR;
    c.dims = 2;
    cn_noise n;
    CHECK(cn_noise_build(&n, &c) == CN_OK, "cellular build");
    double p[2] = {0.3, 0.7}, g[2] = {1, 1}, out[4], ga[4], gb[4], x[4] = {0.1, 0.2, 0.3, 0.4};
    float pf[2] = {0.3f, 0.7f}, gf[2] = {1, 1};
    double v = cn_eval_grad(&n, p, g);
    CHECK(isnan(v) && isnan(g[0]) && isnan(g[1]), "cellular: cn_eval_grad gives %g (%g, %g)", v, g[0], g[1]);
    float vf = cn_evalf_grad(&n, pf, gf);
    CHECK(isnan(vf) && isnan(gf[0]) && isnan(gf[1]), "cellular: cn_evalf_grad gives %g", (double)vf);
    double *gp[2] = {ga, gb};
    const double *coords[2] = {x, x};
    const double origin[2] = {0, 0}, step[2] = {1, 1};
    const size_t count[2] = {2, 2};
    CHECK(cn_grid_eval_grad(&n, origin, step, count, out, gp, 4, 1) == CN_E_UNSUPPORTED, "cellular grid");
    CHECK(cn_points_eval_grad(&n, 4, coords, out, gp, 1) == CN_E_UNSUPPORTED, "cellular points");

    /* the erosion fractal: refused for cellular noise (no gradient to damp by); with a gradient
     * type it has a gradient (checked with the other fractals in main), and a curl */
    c.fractal = CN_FRACTAL_EROSION;
    cn_check why;
    CHECK(cn_config_explain(&c, &why) == CN_E_UNSUPPORTED && why.field == CN_FIELD_FRACTAL &&
              why.field2 == CN_FIELD_TYPE,
          "cellular erosion: %s (%s)", cn_strerror(why.status), why.reason);
    c.type = CN_NOISE_SIMPLEX;
    CHECK(cn_noise_build(&n, &c) == CN_OK, "simplex erosion build");
    v = cn_eval_grad(&n, p, g);
    CHECK(!isnan(v) && isfinite(g[0]) && isfinite(g[1]) && (g[0] != 0 || g[1] != 0),
          "erosion: cn_eval_grad gives %g (%g, %g)", v, g[0], g[1]);
    CHECK(cn_grid_eval_grad(&n, origin, step, count, out, gp, 4, 1) == CN_OK, "erosion grid gradient");
    const cn_noise *ero[1] = {&n};
    double cv[2];
    CHECK(cn_curl(ero, p, cv) == CN_OK && cv[0] == g[1] && cv[1] == -g[0], "erosion curl (%g, %g)", cv[0], cv[1]);
    c.fractal = CN_FRACTAL_NONE;

    c.type = CN_NOISE_PERLIN;
    CHECK(cn_noise_build(&n, &c) == CN_OK, "perlin build");
    CHECK(cn_grid_eval_grad(&n, origin, step, count, out, NULL, 4, 1) == CN_E_NULL, "grad NULL");
    double *gnull[2] = {ga, NULL};
    CHECK(cn_grid_eval_grad(&n, origin, step, count, out, gnull, 4, 1) == CN_E_NULL, "grad[1] NULL");
    CHECK(cn_grid_eval_grad(&n, origin, step, count, NULL, gp, 4, 1) == CN_E_NULL, "out NULL");
    double *gsame[2] = {ga, ga};
    CHECK(cn_grid_eval_grad(&n, origin, step, count, out, gsame, 4, 1) == CN_E_OVERLAP, "grad arrays overlap");
    double *gout[2] = {out + 2, gb};
    CHECK(cn_grid_eval_grad(&n, origin, step, count, out, gout, 4, 1) == CN_E_OVERLAP, "grad overlaps out");
    double *gx[2] = {ga, x + 1};
    CHECK(cn_points_eval_grad(&n, 3, coords, out, gx, 1) == CN_E_OVERLAP, "grad overlaps coordinates");
    double *gn[2] = {(double *)(void *)&n, gb};
    CHECK(cn_points_eval_grad(&n, 2, coords, out, gn, 1) == CN_E_OVERLAP, "grad overlaps the generator");
    CHECK(cn_points_eval_grad(&n, 0, coords, out, gp, 1) == CN_OK, "no points");
    CHECK(cn_grid_eval_grad(&n, origin, step, count, out, gp, 3, 1) == CN_E_RANGE, "out_len too small");
    CHECK(cn_grid_eval_grad(&n, origin, step, count, out, gp, 4, -1) == CN_E_THREADS, "threads -1");
    /* non-finite coordinates: NaN everywhere */
    double bad[2] = {NAN, 0.5};
    v = cn_eval_grad(&n, bad, g);
    CHECK(isnan(v) && isnan(g[0]) && isnan(g[1]), "NaN coordinate: %g (%g, %g)", v, g[0], g[1]);
    bad[0] = INFINITY;
    v = cn_eval_grad(&n, bad, g);
    CHECK(isnan(v) && isnan(g[0]) && isnan(g[1]), "infinite coordinate: %g (%g, %g)", v, g[0], g[1]);
    /* grad may be NULL: the value alone */
    CHECK(cn_eval_grad(&n, p, NULL) == cn_eval(&n, p), "grad NULL: the value");
    /* an unbuilt generator */
    cn_noise z;
    memset(&z, 0, sizeof z);
    g[0] = g[1] = 7;
    CHECK(isnan(cn_eval_grad(&z, p, g)) && g[0] == 7 && g[1] == 7, "unbuilt: NaN, grad untouched");
    CHECK(isnan(cn_eval_grad(NULL, p, g)), "NULL generator");
    CHECK(isnan(cn_eval_grad(&n, NULL, g)) && isnan(g[0]), "NULL point");
    CHECK(cn_grid_eval_grad(&z, origin, step, count, out, gp, 4, 1) == CN_E_UNBUILT, "unbuilt grid");
    CHECK(cn_points_evalf_grad(&z, 1, (const float *const *)coords, (float *)out, (float *const *)gp, 1) == CN_E_UNBUILT,
          "unbuilt points");
}

/* The divergence of the field f (cn_curl, or the gradient of psi[0]) at p by central
 * differences with steps of about h. */
static double divergence(const cn_noise *const *psi, int dims, int curl, const double *p, double h)
{
    double div = 0;
    for (int a = 0; a < dims; a++) {
        double q[3] = {p[0], p[1], dims > 2 ? p[2] : 0}, vp[3], vm[3];
        q[a] = p[a] + h;
        const double hp = q[a] - p[a];
        if (curl)
            cn_curl(psi, q, vp);
        else
            cn_eval_grad(psi[0], q, vp);
        q[a] = p[a] - h;
        const double hm = p[a] - q[a];
        if (curl)
            cn_curl(psi, q, vm);
        else
            cn_eval_grad(psi[0], q, vm);
        div += (vp[a] - vm[a]) / (hp + hm);
    }
    return div;
}

static void check_curl(void)
{
    static const cn_noise_type types[] = {CN_NOISE_PERLIN, CN_NOISE_SIMPLEX, CN_NOISE_VALUE_CUBIC, CN_NOISE_OPENSIMPLEX2,
                                          CN_NOISE_OPENSIMPLEX2S};
    for (int dims = 2; dims <= 3; dims++)
        for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
            cn_config c;
            cn_config_init(&c);
            c.type = types[t];
            c.dims = dims;
            c.frequency = 0.21;
            c.fractal = CN_FRACTAL_FBM;
            c.octaves = 3;
            cn_noise pot[3];
            const cn_noise *psi[3] = {&pot[0], &pot[1], &pot[2]};
            for (int k = 0; k < 3; k++) {
                c.seed = 77 + (uint64_t)k;
                CHECK(cn_noise_build(&pot[k], &c) == CN_OK, "curl: build");
            }
            const char *name = cn_noise_type_name(c.type);
            const double L = lattice_scale(&c), S2 = (4 * L) * (4 * L), h = 1e-4 / L;
            double worst_div = 0, worst_lap = 0;
            int exact = 1;
            for (int i = 0; i < 60; i++) {
                double p[3] = {(urand() * 2 - 1) * 50, (urand() * 2 - 1) * 50, (urand() * 2 - 1) * 50}, v[3], g[3][3];
                float pf[3] = {(float)p[0], (float)p[1], (float)p[2]}, vf[3], gf[3][3];
                CHECK(cn_curl(psi, p, v) == CN_OK && cn_curlf(psi, pf, vf) == CN_OK, "curl: point call");
                for (int k = 0; k < 3; k++) {
                    cn_eval_grad(psi[k], p, g[k]);
                    cn_evalf_grad(psi[k], pf, gf[k]);
                }
                if (dims == 2) {
                    const double w[2] = {g[0][1], -g[0][0]};
                    const float wf[2] = {gf[0][1], -gf[0][0]};
                    exact &= same_bits(v, w, sizeof w) && same_bits(vf, wf, sizeof wf);
                } else {
                    const double w[3] = {g[2][1] - g[1][2], g[0][2] - g[2][0], g[1][0] - g[0][1]};
                    const float wf[3] = {gf[2][1] - gf[1][2], gf[0][2] - gf[2][0], gf[1][0] - gf[0][1]};
                    exact &= same_bits(v, w, sizeof w) && same_bits(vf, wf, sizeof wf);
                }
                worst_div = fmax(worst_div, fabs(divergence(psi, dims, 1, p, h)));
                worst_lap = fmax(worst_lap, fabs(divergence(psi, dims, 0, p, h)));
            }
            CHECK(exact, "curl %s %dD: not the differences of the potentials' derivatives", name, dims);
            CHECK(worst_div <= 1e-5 * S2, "curl %s %dD: divergence up to %g (S^2 %g)", name, dims, worst_div, S2);
            CHECK(worst_lap >= 0.02 * S2, "curl %s %dD: the gradient field's divergence reaches only %g (S^2 %g)",
                  name, dims, worst_lap, S2);
            if (getenv("CNOISE_TEST_VERBOSE"))
                printf("curl %s %dD: max |div| %.2e S^2, max |laplacian| %.2e S^2\n", name, dims, worst_div / S2,
                       worst_lap / S2);

            /* grids: the point call's bits everywhere */
            const double origin[3] = {-3.25, 1.5, 0.75}, step[3] = {0.625, 0.375, 0.5};
            const size_t count[3] = {9, 7, 3};
            const size_t total = dims == 2 ? 63 : 189;
            double ref[3][189], got[3][189];
            float reff[3][189], gotf[3][189];
            for (size_t i = 0; i < total; i++) {
                double p[3] = {origin[0] + (double)(i % 9) * step[0], origin[1] + (double)(i / 9 % 7) * step[1],
                               origin[2] + (double)(i / 63) * step[2]}, v[3];
                float pf[3] = {(float)p[0], (float)p[1], (float)p[2]}, vf[3];
                cn_curl(psi, p, v);
                cn_curlf(psi, pf, vf);
                for (int a = 0; a < dims; a++) {
                    ref[a][i] = v[a];
                    reff[a][i] = vf[a];
                }
            }
            double *vp[3] = {got[0], got[1], got[2]};
            float *vpf[3] = {gotf[0], gotf[1], gotf[2]};
            for (int k = 0; k < nisas; k++) {
                CHECK(cn_isa_set_cap(isas[k]) == CN_OK, "cap");
                for (int threads = 1; threads <= 3; threads += 2) {
                    cn_status st = cn_grid_curl(psi, origin, step, count, vp, total, threads);
                    cn_status stf = cn_grid_curlf(psi, origin, step, count, vpf, total, threads);
                    int ok = st == CN_OK && stf == CN_OK;
                    for (int a = 0; a < dims; a++)
                        ok &= same_bits(got[a], ref[a], total * sizeof(double)) &&
                              same_bits(gotf[a], reff[a], total * sizeof(float));
                    CHECK(ok, "curl %s %dD, %s, %d threads: the grid (%s, %s) differs from cn_curl", name, dims,
                          cn_isa_name(isas[k]), threads, cn_strerror(st), cn_strerror(stf));
                    n_bitwise += 2;
                }
            }
            CHECK(cn_isa_set_cap(CN_ISA_COUNT) == CN_OK, "cap off");
            double *same[3] = {got[0], got[0], got[2]};
            CHECK(cn_grid_curl(psi, origin, step, count, same, total, 1) == CN_E_OVERLAP, "curl: arrays overlap");
            double *vnull[3] = {got[0], NULL, got[2]};
            CHECK(cn_grid_curl(psi, origin, step, count, vnull, total, 1) == CN_E_NULL, "curl: NULL component");
            CHECK(cn_grid_curl(psi, origin, step, count, vp, total - 1, 1) == CN_E_RANGE, "curl: out_len");
            if (dims == 3) {
                const cn_noise *two[3] = {&pot[0], &pot[1], NULL};
                double p[3] = {0.5, 0.5, 0.5}, v[3];
                CHECK(cn_curl(two, p, v) == CN_E_NULL, "curl: a NULL potential");
            }
        }
    /* refusals: a 1D or 4D potential, mixed dimensions, cellular */
    cn_config c;
    cn_config_init(&c);
    cn_noise a, b;
    double p[4] = {0.1, 0.2, 0.3, 0.4}, v[4];
    for (int dims = 1; dims <= 4; dims += 3) {
        c.dims = dims;
        CHECK(cn_noise_build(&a, &c) == CN_OK, "build");
        const cn_noise *psi[3] = {&a, &a, &a};
        CHECK(cn_curl(psi, p, v) == CN_E_DIMS, "curl of a %dD potential", dims);
    }
    c.dims = 3;
    CHECK(cn_noise_build(&a, &c) == CN_OK, "build");
    c.dims = 2;
    CHECK(cn_noise_build(&b, &c) == CN_OK, "build");
    const cn_noise *mixed[3] = {&a, &b, &a};
    CHECK(cn_curl(mixed, p, v) == CN_E_DIMS, "curl: mixed dimensions");
    c.type = CN_NOISE_CELLULAR;
    CHECK(cn_noise_build(&b, &c) == CN_OK, "build");
    const cn_noise *cell[1] = {&b};
    CHECK(cn_curl(cell, p, v) == CN_E_UNSUPPORTED, "curl of cellular noise");
    const cn_noise *psi3[3] = {&a, &a, &a};
    CHECK(cn_curl(NULL, p, v) == CN_E_NULL && cn_curl(psi3, NULL, v) == CN_E_NULL && cn_curl(psi3, p, NULL) == CN_E_NULL,
          "curl: NULL");
}

/* Sums of layers: the value is cn_layers_eval's, the gradient the weighted sum of the layers'
 * cn_eval_grad derivatives in layer order (double; float: each layer's cn_evalf_grad, summed in
 * double, rounded once). */
static void check_layers(void)
{
    cn_config c;
    cn_config_init(&c);
    c.dims = 3;
    c.frequency = 0.3;
    cn_noise a, b;
    CHECK(cn_noise_build(&a, &c) == CN_OK, "build");
    c.type = CN_NOISE_SIMPLEX;
    c.fractal = CN_FRACTAL_RIDGED;
    c.seed = 9;
    CHECK(cn_noise_build(&b, &c) == CN_OK, "build");
    const cn_layer layers[2] = {{&a, 0.75}, {&b, -1.5}};
    int exact = 1;
    for (int i = 0; i < 100; i++) {
        double p[3] = {urand() * 40 - 20, urand() * 40 - 20, urand() * 40 - 20}, v, ref, g[3], ga[3], gb[3];
        float pf[3] = {(float)p[0], (float)p[1], (float)p[2]}, vf, reff, gf[3], gaf[3], gbf[3];
        CHECK(cn_layers_eval_grad(layers, 2, p, &v, g) == CN_OK && cn_layers_eval(layers, 2, p, &ref) == CN_OK,
              "layers: the calls");
        CHECK(cn_layers_evalf_grad(layers, 2, pf, &vf, gf) == CN_OK && cn_layers_evalf(layers, 2, pf, &reff) == CN_OK,
              "layers: the float calls");
        cn_eval_grad(&a, p, ga);
        cn_eval_grad(&b, p, gb);
        cn_evalf_grad(&a, pf, gaf);
        cn_evalf_grad(&b, pf, gbf);
        exact &= same_bits(&v, &ref, sizeof v) && same_bits(&vf, &reff, sizeof vf);
        for (int k = 0; k < 3; k++) {
            const double want = 0.0 + 0.75 * ga[k] + -1.5 * gb[k];
            const float wantf = (float)(0.0 + 0.75 * (double)gaf[k] + -1.5 * (double)gbf[k]);
            exact &= same_bits(&g[k], &want, sizeof want) && same_bits(&gf[k], &wantf, sizeof wantf);
        }
    }
    CHECK(exact, "layers: value or gradient is not the documented sum");
    double p[3] = {0.5, 0.5, 0.5}, v, g[3];
    CHECK(cn_layers_eval_grad(layers, 2, p, &v, NULL) == CN_E_NULL, "layers: grad NULL");
    c.type = CN_NOISE_CELLULAR;
    CHECK(cn_noise_build(&b, &c) == CN_OK, "build");
    CHECK(cn_layers_eval_grad(layers, 2, p, &v, g) == CN_E_UNSUPPORTED, "layers: a cellular layer");
}

int main(void)
{
    for (int k = 0; k < CN_ISA_COUNT; k++)
        if (cn_isa_supported((cn_isa)k))
            isas[nisas++] = (cn_isa)k;
    static const cn_noise_type types[] = {CN_NOISE_PERLIN, CN_NOISE_SIMPLEX, CN_NOISE_VALUE, CN_NOISE_VALUE_CUBIC,
                                          CN_NOISE_OPENSIMPLEX2, CN_NOISE_OPENSIMPLEX2S};
    static const cn_fractal fractals[] = {CN_FRACTAL_NONE,   CN_FRACTAL_FBM,      CN_FRACTAL_TURBULENCE,
                                          CN_FRACTAL_BILLOW, CN_FRACTAL_RIDGED,   CN_FRACTAL_PINGPONG,
                                          CN_FRACTAL_EROSION};
    int configs = 0;
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
        for (int mode = 0; mode < 2; mode++)
            for (int dims = 1; dims <= 4; dims++)
                for (size_t f = 0; f < sizeof fractals / sizeof *fractals; f++)
                    for (int setup = 0; setup < 3; setup++) {
                        cn_config c;
                        cn_config_init(&c);
                        c.type = types[t];
                        c.mode = (cn_mode)mode;
                        c.dims = dims;
                        c.seed = 1000 + (uint64_t)configs;
                        c.frequency = 0.37;
                        c.fractal = fractals[f];
                        c.octaves = 4;
                        c.lacunarity = 2.0;
                        c.gain = 0.5;
                        if (setup == 1) {
                            for (int a = 0; a < dims; a++) {
                                c.axis_frequency[a] = 0.8 + 0.15 * a;
                                c.offset[a] = 3.25 - a;
                            }
                            if (dims == 2)
                                cn_config_rotate2(&c, 0.6);
                            else if (dims == 3)
                                cn_config_rotate3(&c, 1, 2, -0.5, 0.9);
                            c.amplitude = -2.5;
                            c.bias = 0.75;
                            c.weighted_strength = c.fractal == CN_FRACTAL_NONE ? 0 : 0.6;
                            c.pingpong_strength = 2.5;
                            c.ridge_offset = 0.9;
                        } else if (setup == 2) {
                            const uint32_t m = cn_period_multiple(c.type, dims);
                            for (int a = 0; a < dims; a++)
                                c.period[a] = 12 * (m ? m : 1);
                            c.lacunarity = 3.0;
                        }
                        if (cn_config_check(&c) != CN_OK)
                            continue; /* simplex 1D, classic value noise, ... */
                        char what[160];
                        snprintf(what, sizeof what, "%s %s %dD %s setup %d", cn_noise_type_name(c.type),
                                 cn_mode_name(c.mode), dims, cn_fractal_name(c.fractal), setup);
                        check_config(what, &c);
                        configs++;
                    }
    CHECK(configs >= 300, "only %d configurations", configs);
    check_period_exact();
    check_refusals();
    check_curl();
    check_layers();
    printf("test_grad: %d configurations, %lld derivative checks (%lld straddled a kink), %lld batch calls compared "
           "on %d instruction sets\n",
           configs, n_checks, n_skipped, n_bitwise, nisas);
    return test_summary("test_grad");
}
