/* test_props.c -- properties of every noise, in double and float: lattice zeros, continuity across
 * every cell face (and, for simplex noise, across the faces of the simplex grid), determinism, seed
 * independence, no 256-cell repetition in default mode (and exact repetition in classic mode),
 * far and non-finite coordinates, float against double, floor at negative integers, frequency.
 *
 * Nothing here depends on the values of the default-mode scale constants: every bound is either a
 * documented contract ([-1, 1], NaN, the 1e-5 float/double agreement) or is stated both absolutely
 * and relative to the amplitude actually observed (continuity). */
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

static int is_classic(const kind *k) { return k->mode == CN_MODE_CLASSIC; }
/* OpenSimplex2 or 2S; on a simplex lattice (2D: Gustavson's; 3D: the rotated BCC lattice) */
static int is_os2(const kind *k) { return k->type == CN_NOISE_OPENSIMPLEX2 || k->type == CN_NOISE_OPENSIMPLEX2S; }
static int simplexlike(const kind *k) { return k->type == CN_NOISE_SIMPLEX || is_os2(k); }
/* Classic 3D/4D simplex uses radius^2 0.6 and is documented to jump at some simplex faces. */
static int is_continuous(const kind *k)
{
    return !(is_classic(k) && k->type == CN_NOISE_SIMPLEX && k->dims > 2);
}

static const uint64_t SEEDS[] = {0, 1, 0xDEADBEEFu, UINT64_MAX, UINT64_C(0x123456789ABCDEF0)};
#define NSEEDS ((int)(sizeof SEEDS / sizeof SEEDS[0]))

static cn_noise make(const kind *k, uint64_t seed, double frequency)
{
    cn_config cfg;
    cn_noise g;
    cn_config_init(&cfg);
    cfg.frequency = 1.0; /* the frequency these cases were written for */
    cfg.type = k->type;
    cfg.dims = k->dims;
    cfg.mode = k->mode;
    cfg.seed = seed;
    cfg.frequency = frequency;
    cn_status st = cn_noise_build(&g, &cfg);
    CHECK(st == CN_OK, "build %s seed %llu frequency %g: %s", k->name, (unsigned long long)seed,
          frequency, cn_strerror(st));
    return g;
}

/* ---- a small deterministic generator (SplitMix64) ---- */

static uint64_t rng_state = UINT64_C(0x0123456789ABCDEF);

static uint64_t rnd64(void) { return test_splitmix64(&rng_state); }
static double rnd01(void) { return test_unit(rnd64()); }
static double rnd_range(double lo, double hi) { return lo + (hi - lo) * rnd01(); }
static int rnd_int(int n) { return (int)(rnd64() % (uint64_t)n); }
static void rnd_point(double *p, int dims, double lo, double hi)
{
    for (int a = 0; a < dims; a++)
        p[a] = rnd_range(lo, hi);
}
static void rnd_pointf(float *p, int dims, float lo, float hi)
{
    for (int a = 0; a < dims; a++)
        p[a] = (float)rnd_range(lo, hi);
}

static const char *fmt_pointf(const float *p, int dims)
{
    double q[4];
    for (int a = 0; a < dims; a++)
        q[a] = p[a];
    return test_fmt_point(q, dims);
}

/* ---- 1. lattice zeros ---- */

static double lattice_int(void)
{
    static const double special[] = {
        0, 1, -1, 2, -2, 7, -7, 255, 256, -256, 257, 123456, -123456, 1e6, -1e6,
        2147483647.0, 2147483648.0, -2147483648.0, 4294967295.0, 4294967296.0, -4294967296.0,
        1099511627776.0, -1099511627776.0,       /* +-2^40 */
        4503599627370495.0, -4503599627370495.0, /* +-(2^52 - 1) */
        4503599627370496.0, -4503599627370496.0, /* +-2^52 */
        9007199254740992.0, -9007199254740992.0, /* +-2^53 */
    };
    switch (rnd_int(4)) {
    case 0: return special[rnd_int((int)(sizeof special / sizeof special[0]))];
    case 1: return (double)(rnd_int(2000001) - 1000000);
    case 2: return (rnd64() & 1 ? 1.0 : -1.0) * (1099511627776.0 + (double)(rnd_int(2001) - 1000));
    default: return (double)((int64_t)(rnd64() >> 12) - (INT64_C(1) << 51)); /* |x| < 2^52 */
    }
}

static float lattice_intf(void)
{
    static const float special[] = {0, 1, -1, 7, -7, 256, -256, 123456, -123456, 16777216.0f,
                                    -16777216.0f, 4294967296.0f, -4294967296.0f,
                                    1099511627776.0f, -1099511627776.0f,
                                    1099511758848.0f /* 2^40 + 2^17 */, 1e30f, -3e38f};
    switch (rnd_int(3)) {
    case 0: return special[rnd_int((int)(sizeof special / sizeof special[0]))];
    case 1: return (float)(rnd_int(1 << 24) - (1 << 23)); /* exact in float */
    default: return (rnd64() & 1 ? 1.0f : -1.0f) * ldexpf((float)(rnd_int(1 << 23) + (1 << 23)), rnd_int(60));
    }
}

static void test_lattice_zeros(void)
{
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        if (k->type != CN_NOISE_PERLIN)
            continue;
        int bad = 0, badf = 0, n = 0;
        double worst = 0;
        for (int si = 0; si < NSEEDS; si++) {
            cn_noise g = make(k, SEEDS[si], 1.0);
            for (int i = 0; i < 2000; i++, n++) {
                double p[4];
                float pf[4];
                for (int a = 0; a < k->dims; a++) {
                    p[a] = lattice_int();
                    pf[a] = lattice_intf();
                }
                double v = cn_eval(&g, p);
                float vf = cn_evalf(&g, pf);
                if (!(v == 0.0)) {
                    if (bad++ < 3)
                        fprintf(stderr, "%s seed %d at %s: %.17g\n", k->name, si, test_fmt_point(p, k->dims), v);
                    if (fabs(v) > worst || v != v)
                        worst = v != v ? INFINITY : fabs(v);
                }
                if (!(vf == 0.0f)) {
                    if (badf++ < 3)
                        fprintf(stderr, "%s seed %d float at %s: %.9g\n", k->name, si, fmt_pointf(pf, k->dims), vf);
                }
            }
        }
        CHECK(bad == 0 && badf == 0, "%s: %d (double) and %d (float) of %d lattice points nonzero, worst %g",
              k->name, bad, badf, n, worst);
        printf("lattice zeros %-16s %d points x2 (double, float), nonzero: %d, %d\n", k->name, n, bad, badf);
    }
}

/* ---- 2. continuity ---- */

/* A rough Lipschitz estimate (max |f(p + h d) - f(p)| / h over random p, unit d), double. */
static double lipschitz(const kind *k, const cn_noise *g)
{
    double L = 0;
    for (int i = 0; i < 20000; i++) {
        double p[4], q[4], d[4], nn = 0;
        rnd_point(p, k->dims, -50, 50);
        for (int a = 0; a < k->dims; a++) {
            d[a] = rnd_range(-1, 1);
            nn += d[a] * d[a];
        }
        nn = sqrt(nn);
        for (int a = 0; a < k->dims; a++)
            q[a] = p[a] + 1e-6 * d[a] / nn;
        double s = fabs(cn_eval(g, q) - cn_eval(g, p)) / 1e-6;
        if (s > L)
            L = s;
    }
    return L;
}

/* Largest |value| over random points: the amplitude the relative bounds use. */
static double amplitude(const kind *k, const cn_noise *g)
{
    double m = 0;
    for (int i = 0; i < 20000; i++) {
        double p[4];
        rnd_point(p, k->dims, -1000, 1000);
        double v = fabs(cn_eval(g, p));
        if (v > m)
            m = v;
    }
    return m;
}

static const double FACES[] = {0, -1, -7, -123456, 1, 7, 123456, 1e6, -1e6, -2, 3, -255, 256, -256};
#define NFACES ((int)(sizeof FACES / sizeof FACES[0]))
static const float FACESF[] = {0, -1, 1, -2, 2, -7, 7, -3, 5};
#define NFACESF ((int)(sizeof FACESF / sizeof FACESF[0]))

/* Other coordinates: random, or an integer (so edges and corners of cells are crossed too). */
static double other_coord(void)
{
    return rnd_int(4) == 0 ? (double)(rnd_int(2001) - 1000) : rnd_range(-1000, 1000);
}

static void test_face_continuity(void)
{
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        if (!is_continuous(k))
            continue;
        cn_noise g0 = make(k, SEEDS[ki % NSEEDS], 1.0);
        double L = lipschitz(k, &g0), amp = amplitude(k, &g0);
        double maxjump = 0, maxjumpf = 0, worst_ratio_f = 0;
        double at[4] = {0, 0, 0, 0};
        int probes = 0, probesf = 0;
        for (int si = 0; si < NSEEDS; si++) {
            cn_noise g = make(k, SEEDS[si], 1.0);
            for (int a = 0; a < k->dims; a++) {
                for (int fi = 0; fi < NFACES; fi++) {
                    for (int i = 0; i < 150; i++) {
                        double p[4], lo[4], hi[4];
                        for (int b = 0; b < k->dims; b++)
                            p[b] = other_coord();
                        p[a] = FACES[fi];
                        memcpy(lo, p, sizeof p);
                        memcpy(hi, p, sizeof p);
                        lo[a] = p[a] - 1e-9;
                        hi[a] = p[a] + 1e-9;
                        double vl = cn_eval(&g, lo), v = cn_eval(&g, p), vh = cn_eval(&g, hi);
                        double j = fmax(fabs(vh - vl), fmax(fabs(v - vl), fabs(vh - v)));
                        if (!(j <= maxjump)) {
                            maxjump = j != j ? INFINITY : j;
                            memcpy(at, p, sizeof at);
                        }
                        probes++;
                    }
                }
                /* Float: the neighbouring floats on either side of small integer faces. */
                for (int fi = 0; fi < NFACESF; fi++) {
                    for (int i = 0; i < 100; i++) {
                        float p[4], lo[4], hi[4];
                        for (int b = 0; b < k->dims; b++)
                            p[b] = rnd_int(4) == 0 ? (float)(rnd_int(21) - 10) : (float)rnd_range(-10, 10);
                        p[a] = FACESF[fi];
                        memcpy(lo, p, sizeof p);
                        memcpy(hi, p, sizeof p);
                        lo[a] = nextafterf(p[a], -INFINITY);
                        hi[a] = nextafterf(p[a], INFINITY);
                        float vl = cn_evalf(&g, lo), v = cn_evalf(&g, p), vh = cn_evalf(&g, hi);
                        double j = fmax(fabs((double)vh - vl), fmax(fabs((double)v - vl), fabs((double)vh - v)));
                        /* Allowed: the slope over the step plus float rounding on both sides. */
                        double allowed = 2e-5 + 4.0 * L * ((double)hi[a] - lo[a]);
                        if (!(j <= maxjumpf))
                            maxjumpf = j != j ? INFINITY : j;
                        if (!(j / allowed <= worst_ratio_f))
                            worst_ratio_f = j != j ? INFINITY : j / allowed;
                        probesf++;
                    }
                }
            }
        }
        CHECK(maxjump < 1e-6, "%s: jump %.3g across a cell face at %s", k->name, maxjump, test_fmt_point(at, k->dims));
        CHECK(maxjump < 1e-6 * amp, "%s: jump %.3g across a cell face is not < 1e-6 of the amplitude %.3g",
              k->name, maxjump, amp);
        CHECK(worst_ratio_f <= 1.0, "%s: float jump %.3g across a cell face exceeds its allowance (ratio %.3g)",
              k->name, maxjumpf, worst_ratio_f);
        printf("continuity %-16s amplitude %.4f, slope <= ~%.3g; cell faces: %d probes, max jump %.3g "
               "(%.3g of amplitude); float: %d probes, max jump %.3g (%.2f of allowance)\n",
               k->name, amp, L, probes, maxjump, maxjump / amp, probesf, maxjumpf, worst_ratio_f);
    }
}

/* OpenSimplex2 3D's rotation (src/kernels/opensimplex.inc): lattice frame r = R p, with
 * u = (1/sqrt 3 - 1) / 2 and c = 1/sqrt 3; R^T takes r back. */
#define OS2_U (-0.21132486540518713)
#define OS2_C 0.57735026918962573
static const double OS2_R[3][3] = {{1 + OS2_U, OS2_U, OS2_C}, {OS2_U, 1 + OS2_U, OS2_C}, {-OS2_C, -OS2_C, OS2_C}};

/*
 * Simplex faces. Random pairs 1e-9 apart almost never straddle a face, so most probes are placed
 * on a face first: either a face of the skewed hypercube grid (skewed coordinate a an integer)
 * or an internal face of the cube's simplex subdivision (skewed coordinates a and b with equal
 * fractional parts, i.e. x_a - x_b an integer), then probed 0.5e-9 either side along a random
 * direction or along the axis. A quarter of the probes stay purely random.
 * The coarse search follows the brief (|x| <= 1000, pairs 1e-9 apart, jump < 1e-6). The fine
 * search (|x| <= 10, pairs 1e-12 apart, jump < 1e-9) is a thousand times more sensitive: it
 * catches a radius^2 of 0.505 instead of 0.5, whose jumps (~1e-7) the coarse search cannot see.
 */
static double simplex_search(const kind *k, const cn_noise *g, int nprobes, double range, double sep,
                             double *where)
{
    const int n = k->dims;
    const double F = (sqrt(n + 1.0) - 1.0) / n;
    double maxjump = 0;
    for (int i = 0; i < nprobes; i++) {
        double p[4], q[4], d[4], lo[4], hi[4];
        rnd_point(p, n, -range, range);
        memcpy(q, p, sizeof q);
        int a = rnd_int(n), how = rnd_int(4);
        if (k->type == CN_NOISE_OPENSIMPLEX2S && n == 2 && how) {
            /* OpenSimplex2S 2D's switching lines in the skewed cell (src/kernels/simplex.inc):
             * u + v = 1 (or a face of the cell, where its corners change), 2u - v = 0 or 1,
             * 2v - u = 0 or 1 */
            double s0 = p[0] + F * (p[0] + p[1]), s1 = p[1] + F * (p[0] + p[1]);
            const double c0 = floor(s0), c1 = floor(s1), u = s0 - c0, v = s1 - c1, c = (double)(rnd64() & 1);
            if (how == 1)
                s1 = rnd64() & 1 ? c1 + 1 - u : c1 + c;
            else if (how == 2)
                s1 = c1 + 2 * u - c;
            else
                s0 = c0 + 2 * v - c;
            const double G2 = (3 - sqrt(3.0)) / 6;
            q[0] = s0 - G2 * (s0 + s1);
            q[1] = s1 - G2 * (s0 + s1);
        } else if (is_os2(k) && n == 3 && how) {
            /* The BCC lattice's switching planes, in the kernel's rotated frame r = R p: where grid
             * A's nearest point changes (frac(r_a) = 1/2), and where a grid's step axis changes
             * (frac(r_a) = frac(r_b) or 1 - frac(r_b)); then back to input, p = R^T r. */
            double r[3] = {0, 0, 0};
            for (int i2 = 0; i2 < 3; i2++)
                for (int j2 = 0; j2 < 3; j2++)
                    r[i2] += OS2_R[i2][j2] * p[j2];
            const int b = (a + 1 + rnd_int(2)) % 3;
            const double fb = r[b] - floor(r[b]);
            r[a] = floor(r[a]) + (how == 1 ? 0.5 : how == 2 ? fb : 1 - fb);
            for (int j2 = 0; j2 < 3; j2++)
                q[j2] = OS2_R[0][j2] * r[0] + OS2_R[1][j2] * r[1] + OS2_R[2][j2] * r[2];
        } else if (how == 1) {
            double sum = 0;
            for (int b = 0; b < n; b++)
                sum += p[b];
            double u = p[a] + F * sum;
            double face = rnd64() & 1 ? floor(u) : ceil(u);
            q[a] = p[a] + (face - u) / (1.0 + F);
        } else if (how >= 2) {
            int b = (a + 1 + rnd_int(n - 1)) % n;
            double w = p[a] - p[b];
            q[a] = p[a] + (floor(w + 0.5) - w);
        }
        double nn = 0;
        if (rnd64() & 1) {
            for (int b = 0; b < n; b++) {
                d[b] = rnd_range(-1, 1);
                nn += d[b] * d[b];
            }
            nn = sqrt(nn);
            for (int b = 0; b < n; b++)
                d[b] /= nn;
        } else {
            for (int b = 0; b < n; b++)
                d[b] = b == a;
        }
        for (int b = 0; b < n; b++) {
            lo[b] = q[b] - 0.5 * sep * d[b];
            hi[b] = q[b] + 0.5 * sep * d[b];
        }
        double j = fabs(cn_eval(g, hi) - cn_eval(g, lo));
        if (!(j <= maxjump)) {
            maxjump = j != j ? INFINITY : j;
            memcpy(where, q, sizeof q);
        }
    }
    return maxjump;
}

/*
 * OpenSimplex2S against a brute-force sum over every lattice point within its radius. Each lattice
 * point's gradient g_c is read from OpenSimplex2, which hashes the same points to the same
 * gradients: at a lattice point c only c's own term reaches (every other point is farther than
 * OpenSimplex2's radius, sqrt(1/2)), so its gradient there is s2 t^4 g_c, t = 1/2, in the lattice
 * frame (3D: R^T times that in the input's). So B(x) = sum over c with |x - c|^2 < r^2 of
 * (r^2 - |x - c|^2)^4 (g_c . (x - c)), from OpenSimplex2's gradients, must be OpenSimplex2S's value
 * times one constant (the ratio of the scales, found here from the largest sample): a lattice point
 * the kernel's rule leaves out, or one it takes wrongly, shows as a sample off that line. (4D: the
 * lattice points of skewed offsets -2..3 around the sample's cell, r^2 2/3; the nearest two
 * lattice points are sqrt(4/5) apart, so OpenSimplex2's radius holds one at a time there too.)
 */
/* The squared distance from q to the 4D simplex with corners V[0..4]: the nearest point lies in
 * the relative interior of one face, so it is the smallest distance to a face's affine hull
 * whose foot has barycentric coordinates >= 0 (each face solved by its normal equations). */
static double simplex4_dist2(const double V[5][4], const double q[4])
{
    double best = INFINITY;
    for (int mask = 1; mask < 32; mask++) {
        int idx[5], n = 0;
        for (int i = 0; i < 5; i++)
            if (mask >> i & 1)
                idx[n++] = i;
        /* foot = V0 + sum_i t_i (Vi - V0): (A^T A) t = A^T (q - V0), A's columns Vi - V0 */
        double M[4][5] = {{0}}, t[4] = {0};
        const int k = n - 1;
        for (int r = 0; r < k; r++) {
            for (int c = 0; c < k; c++)
                for (int a = 0; a < 4; a++)
                    M[r][c] += (V[idx[r + 1]][a] - V[idx[0]][a]) * (V[idx[c + 1]][a] - V[idx[0]][a]);
            for (int a = 0; a < 4; a++)
                M[r][k] += (V[idx[r + 1]][a] - V[idx[0]][a]) * (q[a] - V[idx[0]][a]);
        }
        for (int c = 0; c < k; c++) /* Gauss-Jordan; the corners are affinely independent */
            for (int r = 0; r < k; r++) {
                if (r == c)
                    continue;
                const double f = M[r][c] / M[c][c];
                for (int cc = c; cc <= k; cc++)
                    M[r][cc] -= f * M[c][cc];
            }
        double b0 = 1;
        int inside = 1;
        for (int r = 0; r < k; r++) {
            t[r] = M[r][k] / M[r][r];
            b0 -= t[r];
            inside &= t[r] >= -1e-12;
        }
        if (!inside || b0 < -1e-12)
            continue;
        double d2 = 0;
        for (int a = 0; a < 4; a++) {
            double f = V[idx[0]][a] - q[a];
            for (int r = 0; r < k; r++)
                f += t[r] * (V[idx[r + 1]][a] - V[idx[0]][a]);
            d2 += f * f;
        }
        best = d2 < best ? d2 : best;
    }
    return best;
}

/*
 * OpenSimplex2S 4D's rule (src/kernels/simplex.inc): on both 4D lattices, the simplex's five
 * corners and the five apexes across its facets are within 2/3 of the simplex (the apexes at
 * 1/2 or more), and every other lattice point of skewed offset -3..4 from the cell is at least
 * 2/3 away, so radius^2 2/3 reaches no point the rule leaves out. Worked out for the simplex of
 * rank order x >= y >= z >= w (the others are its images under axis permutations, which both
 * lattices' skews commute with).
 */
static void test_os2s4_rule(void)
{
    const double Gs[2] = {(5 - sqrt(5.0)) / 20, 1.0 / 8};
    for (int l = 0; l < 2; l++) {
        const double G = Gs[l];
        int corner[10][4];
        for (int k = 0; k < 5; k++) /* v_k: steps along the first k axes */
            for (int a = 0; a < 4; a++)
                corner[k][a] = a < k;
        for (int k = 0; k < 5; k++) /* v_(k-1) + v_(k+1) - v_k, indices mod 5 */
            for (int a = 0; a < 4; a++)
                corner[5 + k][a] = corner[(k + 4) % 5][a] + corner[(k + 1) % 5][a] - corner[k][a];
        double V[5][4];
        for (int k = 0; k < 5; k++)
            for (int a = 0; a < 4; a++)
                V[k][a] = corner[k][a] - G * k;
        double far_min = INFINITY, apex_min = INFINITY, taken_max = 0;
        int taken = 0;
        for (int m = 0; m < 8 * 8 * 8 * 8; m++) {
            int off[4], sum = 0, which = -1;
            for (int a = 0, r = m; a < 4; a++, r /= 8) {
                off[a] = r % 8 - 3;
                sum += off[a];
            }
            for (int k = 0; k < 10 && which < 0; k++)
                if (memcmp(off, corner[k], sizeof off) == 0)
                    which = k;
            double q[4];
            for (int a = 0; a < 4; a++)
                q[a] = off[a] - G * sum;
            const double d2 = simplex4_dist2(V, q);
            if (which < 0) {
                far_min = d2 < far_min ? d2 : far_min;
            } else {
                taken++;
                taken_max = d2 > taken_max ? d2 : taken_max;
                if (which >= 5)
                    apex_min = d2 < apex_min ? d2 : apex_min;
            }
        }
        CHECK(taken == 10, "opensimplex2s 4D rule (G = %.6f): %d of its 10 points found", G, taken);
        CHECK(far_min >= 2.0 / 3.0 - 1e-12, "opensimplex2s 4D rule (G = %.6f): a point left out is %.15g from the "
              "simplex, inside radius^2 2/3", G, far_min);
        CHECK(taken_max < 2.0 / 3.0 && apex_min >= 0.5 - 1e-12, "opensimplex2s 4D rule (G = %.6f): its points are "
              "%.15g..%.15g from the simplex", G, apex_min, taken_max);
        printf("opensimplex2s 4D rule, G = %.6f: the apexes at %.12f..%.12f from the simplex, every other lattice "
               "point of offset -3..4 at >= %.12f\n", G, apex_min, taken_max, far_min);
    }
}

static void test_os2s_bruteforce(void)
{
    const double F2 = (sqrt(3.0) - 1) / 2, G2 = (3 - sqrt(3.0)) / 6;
    const double F4 = (sqrt(5.0) - 1) / 4, G4 = (5 - sqrt(5.0)) / 20;
    for (int dims = 2; dims <= 4; dims++) {
        const kind k2 = {CN_NOISE_OPENSIMPLEX2, dims, CN_MODE_DEFAULT, "opensimplex2"};
        const kind k2s = {CN_NOISE_OPENSIMPLEX2S, dims, CN_MODE_DEFAULT, "opensimplex2s"};
        const uint64_t seed = 0xC0FFEEull + (uint64_t)dims;
        cn_noise g2 = make(&k2, seed, 1.0), g2s = make(&k2s, seed, 1.0);
        const double r2 = dims == 3 ? 0.75 : 2.0 / 3.0;
        enum { N = 20000 };
        static double V[N], B[N];
        int terms_max = 0;
        for (int i = 0; i < N; i++) {
            double x[4] = {0, 0, 0, 0}, r[3] = {0, 0, 0}, sum = 0;
            rnd_point(x, dims, -100, 100);
            int terms = 0;
            if (dims == 4) {
                const double sk = (x[0] + x[1] + x[2] + x[3]) * F4;
                double b[4];
                for (int a = 0; a < 4; a++)
                    b[a] = floor(x[a] + sk);
                for (int kk = 0; kk < 6 * 6 * 6 * 6; kk++) {
                    double ci[4], c[4], d[4], t = 0, w = r2, gr[4];
                    for (int a = 0, q = kk; a < 4; a++, q /= 6) {
                        ci[a] = b[a] + (q % 6 - 2);
                        t += ci[a];
                    }
                    for (int a = 0; a < 4; a++) {
                        c[a] = ci[a] - t * G4;
                        d[a] = x[a] - c[a];
                        w -= d[a] * d[a];
                    }
                    if (w <= 0)
                        continue;
                    cn_eval_grad(&g2, c, gr);
                    sum += w * w * w * w * (gr[0] * d[0] + gr[1] * d[1] + gr[2] * d[2] + gr[3] * d[3]) / 0.0625;
                    terms++;
                }
            } else if (dims == 2) {
                const double sk = (x[0] + x[1]) * F2, b0 = floor(x[0] + sk), b1 = floor(x[1] + sk);
                for (int di = -2; di <= 3; di++)
                    for (int dj = -2; dj <= 3; dj++) {
                        const double ci = b0 + di, cj = b1 + dj, t = (ci + cj) * G2;
                        const double c[2] = {ci - t, cj - t}, d[2] = {x[0] - c[0], x[1] - c[1]};
                        const double w = r2 - (d[0] * d[0] + d[1] * d[1]);
                        if (w <= 0)
                            continue;
                        double gr[2];
                        cn_eval_grad(&g2, c, gr);
                        sum += w * w * w * w * (gr[0] * d[0] + gr[1] * d[1]) / 0.0625;
                        terms++;
                    }
            } else {
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++)
                        r[a] += OS2_R[a][b] * x[b];
                for (int half = 0; half < 2; half++)
                    for (int kk = 0; kk < 64; kk++) {
                        double c[3], d[3], w = r2, p[3], gi[3], gr[3] = {0, 0, 0};
                        for (int a = 0, q = kk; a < 3; a++, q /= 4) {
                            c[a] = floor(r[a] - 0.5 * half) + 0.5 * half + (q % 4 - 1);
                            d[a] = r[a] - c[a];
                            w -= d[a] * d[a];
                        }
                        if (w <= 0)
                            continue;
                        for (int a = 0; a < 3; a++) /* the lattice point in input coordinates: R^T c */
                            p[a] = OS2_R[0][a] * c[0] + OS2_R[1][a] * c[1] + OS2_R[2][a] * c[2];
                        cn_eval_grad(&g2, p, gi);
                        for (int a = 0; a < 3; a++) /* back to the lattice frame: R gi */
                            for (int b = 0; b < 3; b++)
                                gr[a] += OS2_R[a][b] * gi[b];
                        sum += w * w * w * w * (gr[0] * d[0] + gr[1] * d[1] + gr[2] * d[2]) / 0.0625;
                        terms++;
                    }
            }
            terms_max = terms > terms_max ? terms : terms_max;
            B[i] = sum;
            V[i] = cn_eval(&g2s, x);
        }
        int best = 0;
        for (int i = 1; i < N; i++)
            if (fabs(B[i]) > fabs(B[best]) && fabs(V[i]) < 1)
                best = i;
        const double ratio = V[best] / B[best];
        double worst = 0;
        int off = 0;
        for (int i = 0; i < N; i++) {
            double e = fabs(V[i] - ratio * B[i]);
            if (fabs(V[i]) >= 1) /* clamped: only the side matters */
                e = ratio * B[i] * V[i] >= 1 - 1e-9 ? 0 : e;
            off += e > 1e-9;
            worst = e > worst ? e : worst;
        }
        CHECK(off == 0, "opensimplex2s %dD: %d of %d samples differ from the brute-force sum (worst %.3g)", dims,
              off, N, worst);
        /* at most 4 (2D) and 8 (3D) points are within the radius at once; in 4D at most the
         * rule's 10 (7 seen) */
        CHECK(dims == 4 ? terms_max >= 5 && terms_max <= 10 : terms_max == 4 || (dims == 3 && terms_max >= 7 && terms_max <= 8),
              "opensimplex2s %dD: up to %d lattice points within the radius", dims, terms_max);
        printf("opensimplex2s %dD vs brute force over every lattice point within the radius: %d samples, "
               "worst difference %.3g, up to %d points per sample\n", dims, N, worst, terms_max);
    }
}

static void test_simplex_continuity(void)
{
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        if (!simplexlike(k))
            continue;
        cn_noise g = make(k, SEEDS[ki % NSEEDS], 1.0);
        double amp = amplitude(k, &g), where[4] = {0, 0, 0, 0}, wfine[4] = {0, 0, 0, 0};
        const int nprobes = 150000;
        double j = simplex_search(k, &g, nprobes, 1000.0, 1e-9, where);
        double jf = simplex_search(k, &g, nprobes, 10.0, 1e-12, wfine);
        if (is_continuous(k)) {
            CHECK(j < 1e-6, "%s: jump %.3g across a simplex face near %s", k->name, j, test_fmt_point(where, k->dims));
            CHECK(j < 1e-6 * amp, "%s: jump %.3g is not < 1e-6 of the amplitude %.3g", k->name, j, amp);
            CHECK(jf < 1e-9 && jf < 1e-9 * amp, "%s: jump %.3g between points 1e-12 apart near %s (amplitude %.3g)",
                  k->name, jf, test_fmt_point(wfine, k->dims), amp);
        } else {
            /* Radius^2 0.6: the search must find the documented jumps (else it could not fail). */
            CHECK(j > 1e-4, "%s: the face search found no jump (max %.3g): it cannot detect one", k->name, j);
            CHECK(jf > 1e-4, "%s: the fine face search found no jump (max %.3g)", k->name, jf);
        }
        printf("simplex faces %-16s amplitude %.4f; %d probes 1e-9 apart: max jump %.3g (%.3g of amplitude); "
               "%d probes 1e-12 apart: max jump %.3g%s%s\n", k->name, amp, nprobes, j, j / amp, nprobes, jf,
               is_continuous(k) ? "" : " -- expected (radius^2 0.6), e.g. near ",
               is_continuous(k) ? "" : test_fmt_point(where, k->dims));
    }
}

/* ---- 3. determinism ---- */

static void test_determinism(void)
{
    enum { N = 2000 };
    static double pts[N][4], v1[N], v2[N];
    static float ptsf[N][4], w1[N], w2[N];
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        int diff_again = 0, diff_rebuilt = 0, diff_copy = 0;
        for (int si = 0; si < NSEEDS; si++) {
            cn_noise g = make(k, SEEDS[si], 1.0);
            for (int i = 0; i < N; i++) {
                rnd_point(pts[i], k->dims, -1e4, 1e4);
                rnd_pointf(ptsf[i], k->dims, -1e4f, 1e4f);
                v1[i] = cn_eval(&g, pts[i]);
                w1[i] = cn_evalf(&g, ptsf[i]);
            }
            for (int i = 0; i < N; i++)
                diff_again += !test_same_bits(cn_eval(&g, pts[i]), v1[i]) + !test_same_bitsf(cn_evalf(&g, ptsf[i]), w1[i]);
            cn_noise h = make(k, SEEDS[si], 1.0);
            for (int i = 0; i < N; i++) {
                v2[i] = cn_eval(&h, pts[i]);
                w2[i] = cn_evalf(&h, ptsf[i]);
            }
            diff_rebuilt += memcmp(v1, v2, sizeof v1) != 0;
            diff_rebuilt += memcmp(w1, w2, sizeof w1) != 0;
            /* A memcpy'd generator in freshly allocated memory; the original overwritten. */
            cn_noise *c = malloc(sizeof *c);
            CHECK(c != NULL, "malloc");
            if (!c)
                return;
            memcpy(c, &g, sizeof g);
            memset(&g, 0xA5, sizeof g);
            for (int i = 0; i < N; i++)
                diff_copy += !test_same_bits(cn_eval(c, pts[i]), v1[i]) + !test_same_bitsf(cn_evalf(c, ptsf[i]), w1[i]);
            free(c);
        }
        CHECK(diff_again == 0, "%s: %d values changed on a repeated call", k->name, diff_again);
        CHECK(diff_rebuilt == 0, "%s: a rebuilt generator differs (%d seeds)", k->name, diff_rebuilt);
        CHECK(diff_copy == 0, "%s: a memcpy'd generator differs at %d points", k->name, diff_copy);
    }
    printf("determinism: %d kinds x %d seeds x %d points (double and float): repeated, rebuilt, copied identical\n",
           NKINDS, NSEEDS, N);
}

/* ---- 4. seeds ---- */

static double pearson(const double *a, const double *b, int n)
{
    double ma = 0, mb = 0;
    for (int i = 0; i < n; i++) {
        ma += a[i];
        mb += b[i];
    }
    ma /= n;
    mb /= n;
    double sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < n; i++) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return sab / sqrt(saa * sbb);
}

static void test_seeds(void)
{
    enum { N = 100000 };
    static double pts[N][4], va[N], vb[N];
    static const uint64_t pairs[][2] = {{0, 1}, {1, 2}, {12345, 12346}, {UINT64_MAX, 0}};
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        /* Classic mode repeats every 256 cells: 1D has too few independent cells to measure. */
        if (is_classic(k) && k->dims < 2)
            continue;
        double range = is_classic(k) ? 128.0 : 1e4;
        for (int i = 0; i < N; i++)
            rnd_point(pts[i], k->dims, -range, range);
        double worst = 0;
        printf("seeds %-16s |r|:", k->name);
        for (int pi = 0; pi < 4; pi++) {
            cn_noise ga = make(k, pairs[pi][0], 1.0), gb = make(k, pairs[pi][1], 1.0);
            cn_noise ga2 = make(k, pairs[pi][0], 1.0);
            for (int i = 0; i < N; i++) {
                va[i] = cn_eval(&ga, pts[i]);
                vb[i] = cn_eval(&gb, pts[i]);
            }
            double r = pearson(va, vb, N);
            CHECK(fabs(r) < 0.05, "%s: seeds %llu and %llu correlate, r = %.4f", k->name,
                  (unsigned long long)pairs[pi][0], (unsigned long long)pairs[pi][1], r);
            if (fabs(r) > worst)
                worst = fabs(r);
            for (int i = 0; i < N; i++)
                vb[i] = cn_eval(&ga2, pts[i]);
            double r1 = pearson(va, vb, N);
            CHECK(fabs(r1 - 1.0) < 1e-12, "%s: seed %llu against itself: r = %.17g", k->name,
                  (unsigned long long)pairs[pi][0], r1);
            printf(" (%llu,%llu) %.4f", (unsigned long long)pairs[pi][0], (unsigned long long)pairs[pi][1],
                   fabs(r));
        }
        printf("; same seed r = 1\n");
    }
}

/*
 * The lattice hash of neighbouring cells. Default-mode value noise at a whole-number point is the
 * lattice value of that cell, whose top bits are the top bits of the cell's hash: the bits Perlin
 * noise picks its gradients with. For cells a fixed step apart (each axis, the diagonals, 2 to 16
 * cells), the pairs of values binned as the 2D gradient index (8 bins) and as the 3D one (12 bins)
 * must be jointly uniform: a chi-square test over the 64 or 144 pairs of bins, z = (chi2 - df) /
 * sqrt(2 df) below 6 (570 tests; an independent uniform pair gives z above 4 less than once
 * in 10^4 tests, a hash that leaves neighbours related gives z in the tens to thousands).
 */
static double pair_z(const double *a, const double *b, int n, int bins)
{
    static double cell[12 * 12];
    memset(cell, 0, sizeof cell);
    for (int i = 0; i < n; i++) {
        int x = (int)floor((a[i] + 1) * bins / 2), y = (int)floor((b[i] + 1) * bins / 2);
        x = x < 0 ? 0 : x >= bins ? bins - 1 : x;
        y = y < 0 ? 0 : y >= bins ? bins - 1 : y;
        cell[x * bins + y] += 1;
    }
    double e = (double)n / (bins * bins), chi = 0;
    for (int c = 0; c < bins * bins; c++)
        chi += (cell[c] - e) * (cell[c] - e) / e;
    int df = bins * bins - 1;
    return (chi - df) / sqrt(2.0 * df);
}

static void test_lattice_pairs(void)
{
    enum { SIDE = 64 };
    static const int steps[][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {1, -1, 0}, {1, 0, 1},
                                   {0, 1, 1}, {1, 1, 1}, {2, 0, 0}, {0, 3, 0}, {0, 0, 4}, {16, 0, 0}};
    static const double origins[] = {-32, 1e6, -3e9};
    static double va[SIDE * SIDE], vb[SIDE * SIDE];
    double worst = 0;
    int tests = 0;
    for (int dims = 2; dims <= 3; dims++)
        for (size_t si = 0; si < sizeof SEEDS / sizeof SEEDS[0]; si++) {
            const kind k = {CN_NOISE_VALUE, dims, CN_MODE_DEFAULT, "value"};
            cn_noise g = make(&k, SEEDS[si], 1.0);
            for (size_t oi = 0; oi < sizeof origins / sizeof origins[0]; oi++)
                for (size_t di = 0; di < sizeof steps / sizeof steps[0]; di++) {
                    if (dims == 2 && steps[di][2])
                        continue;
                    int n = 0;
                    for (int y = 0; y < SIDE; y++)
                        for (int x = 0; x < SIDE; x++, n++) {
                            /* 3D: the z layers cycle through 4 values. */
                            double p[3] = {origins[oi] + x, origins[oi] - 7 + (dims == 3 ? y / 4 : y),
                                           origins[oi] + 11 + (dims == 3 ? y % 4 : 0)};
                            double q[3] = {p[0] + steps[di][0], p[1] + steps[di][1], p[2] + steps[di][2]};
                            va[n] = cn_eval(&g, p);
                            vb[n] = cn_eval(&g, q);
                        }
                    for (int bins = 8; bins <= 12; bins += 4) {
                        double z = pair_z(va, vb, n, bins);
                        CHECK(z < 6, "value %dD seed %llu origin %g step (%d,%d,%d), %d bins: neighbouring "
                              "lattice values are related, chi-square z = %.1f", dims,
                              (unsigned long long)SEEDS[si], origins[oi], steps[di][0], steps[di][1],
                              steps[di][2], bins, z);
                        if (z > worst)
                            worst = z;
                        tests++;
                    }
                }
        }
    printf("lattice pairs: %d chi-square tests, largest z %.2f (limit 6)\n", tests, worst);
}

/* ---- 5. repetition ---- */

static void test_repetition(void)
{
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        const int n = k->dims;
        const double G = (1.0 - 1.0 / sqrt(n + 1.0)) / n;
        cn_noise g = make(k, 0, 1.0);
        const double amp = amplitude(k, &g);
        int differ = 0, differ_lat = 0, total = 0, unequal_2_32 = 0;
        double maxdiff_lat = 0;
        for (int a = 0; a < n; a++) {
            for (int i = 0; i < 1000; i++, total++) {
                /* Dyadic coordinates with 16 fraction bits: p + 256 and p + 2^32 are exact. */
                double p[4], q[4], r[4];
                for (int b = 0; b < n; b++)
                    p[b] = (double)(rnd_int(1 << 26) - (1 << 25)) / 65536.0;
                memcpy(q, p, sizeof q);
                q[a] += 256.0;
                double v = cn_eval(&g, p);
                differ += !test_same_bits(v, cn_eval(&g, q));
                if (simplexlike(k)) {
                    /* The simplex lattice's own period vector: 256 skewed cells along axis a;
                     * OpenSimplex2 3D: 256 cells along lattice axis a, R^T (256 e_a), R the
                     * kernel's rotation (src/kernels/opensimplex.inc), whose row a that is. */
                    for (int b = 0; b < n; b++)
                        r[b] = is_os2(k) && n == 3 ? p[b] + 256.0 * OS2_R[a][b]
                                                                         : p[b] + (b == a ? 256.0 : 0.0) - 256.0 * G;
                    double dd = fabs(cn_eval(&g, r) - v);
                    differ_lat += dd > 1e-9 * amp; /* well above the rounding of the shifted point */
                    if (dd > maxdiff_lat)
                        maxdiff_lat = dd;
                } else if (!is_classic(k)) {
                    /* Default mode: the lattice index is floor(x) mod 2^32 -- exact period 2^32. */
                    memcpy(r, p, sizeof r);
                    r[a] += 4294967296.0;
                    unequal_2_32 += !test_same_bits(v, cn_eval(&g, r));
                }
            }
        }
        if (!is_classic(k)) {
            /* Not 100%: with 8 to 32 gradients, all corners of a cell agree by chance now and then
             * (2D simplex: 3 corners of 8 gradients, 1 in 512). A periodic lattice gives 0%. */
            CHECK(differ >= total * 95 / 100, "%s: only %d of %d points differ from p + 256 e_a", k->name,
                  differ, total);
            if (simplexlike(k))
                CHECK(differ_lat >= total * 95 / 100, "%s: only %d of %d points differ along the 256-cell "
                      "lattice vector", k->name, differ_lat, total);
            else
                CHECK(unequal_2_32 == 0, "%s: %d of %d points differ from p + 2^32 e_a", k->name, unequal_2_32,
                      total);
            printf("repetition %-16s p vs p+256e_a differ at %d/%d", k->name, differ, total);
            if (simplexlike(k))
                printf(", along the lattice's own period differ at %d/%d\n", differ_lat, total);
            else
                printf("; p vs p+2^32e_a equal at %d/%d\n", total - unequal_2_32, total);
        } else if (k->type == CN_NOISE_PERLIN) {
            CHECK(differ == 0, "%s: %d of %d points differ from p + 256 e_a (must repeat)", k->name, differ, total);
            printf("repetition %-16s p vs p+256e_a identical at %d/%d\n", k->name, total - differ, total);
        } else {
            /* Classic simplex repeats along the lattice vector; rounding of the shifted point aside.
             * In 3D/4D (radius^2 0.6, not continuous) that rounding can carry a point lying within
             * an ulp of a simplex face across it, and the value jumps there: a few in 10^3 points
             * are allowed (seen: 1 in 3000, by 5e-8). */
            if (is_continuous(k))
                CHECK(maxdiff_lat < 1e-9, "%s: differs by %.3g along the 256-cell lattice vector (must repeat)",
                      k->name, maxdiff_lat);
            else
                CHECK(differ_lat * 1000 <= total * 3, "%s: %d of %d points differ along the 256-cell lattice "
                      "vector (must repeat but for points at a face)", k->name, differ_lat, total);
            printf("repetition %-16s along the simplex lattice period: max difference %.3g over %d points (%d "
                   "above 1e-9 of the amplitude)\n", k->name, maxdiff_lat, total, differ_lat);
        }
    }
}

/* ---- 6. far coordinates ---- */

static void test_far(void)
{
    static const double special[] = {
        4503599627370496.0, -4503599627370496.0, 4503599627370495.5, -4503599627370495.5,
        2251799813685248.75, 1e15, -1e15, -3.5e14 + 0.25, 9007199254740992.0, -9007199254740992.0,
        1e300, -1e300, DBL_MAX / 2, -DBL_MAX / 2, DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 4.9e-324, 0.0,
    };
    const int nspecial = (int)(sizeof special / sizeof special[0]);
    static const float specialf[] = {1e30f, -1e30f, -3e38f, 3e38f, FLT_MAX, -FLT_MAX, 1e20f, -16777217.0f,
                                     FLT_MIN, 0.0f};
    const int nspecialf = (int)(sizeof specialf / sizeof specialf[0]);
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        if (is_classic(k))
            continue;
        cn_noise g = make(k, SEEDS[ki % NSEEDS], 1.0);
        int bad = 0, badf = 0, n = 0, nf = 0;
        double lo = 0, hi = 0;
        for (int i = 0; i < 20000; i++, n++) {
            double p[4];
            for (int a = 0; a < k->dims; a++) {
                int m = rnd_int(3);
                if (i < nspecial)
                    p[a] = special[i]; /* the same value on every axis */
                else if (m == 0)
                    p[a] = special[rnd_int(nspecial)];
                else /* log-uniform magnitude up to 2^52, random sign */
                    p[a] = (rnd64() & 1 ? 1 : -1) * ldexp(1.0 + rnd01(), rnd_int(52));
            }
            double v = cn_eval(&g, p);
            if (!(isfinite(v) && v >= -1.0 && v <= 1.0)) {
                if (bad++ < 3)
                    fprintf(stderr, "%s at %s: %.17g\n", k->name, test_fmt_point(p, k->dims), v);
            } else {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        }
        for (int i = 0; i < 20000; i++, nf++) {
            float p[4];
            for (int a = 0; a < k->dims; a++) {
                if (i < nspecialf)
                    p[a] = specialf[i];
                else if (rnd_int(3) == 0)
                    p[a] = specialf[rnd_int(nspecialf)];
                else
                    p[a] = (rnd64() & 1 ? 1 : -1) * ldexpf(1.0f + (float)rnd01(), rnd_int(127));
            }
            float v = cn_evalf(&g, p);
            if (!(isfinite(v) && v >= -1.0f && v <= 1.0f)) {
                if (badf++ < 3)
                    fprintf(stderr, "%s float at %s: %.9g\n", k->name, fmt_pointf(p, k->dims), v);
            }
        }
        CHECK(bad == 0, "%s: %d of %d far points not finite in [-1, 1]", k->name, bad, n);
        CHECK(badf == 0, "%s: %d of %d far float points not finite in [-1, 1]", k->name, badf, nf);
        printf("far %-16s %d double points up to DBL_MAX: %d bad (values seen %.3f..%.3f); %d float points up to "
               "FLT_MAX: %d bad\n", k->name, n, bad, lo, hi, nf, badf);
    }
}

/* ---- 7. NaN and infinity ---- */

static void test_nonfinite(void)
{
    static const double bad[] = {NAN, INFINITY, -INFINITY};
    int cases = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        cn_noise g = make(k, 7, 1.0), gbig = make(k, 7, 1e10), gfbig = make(k, 7, 1e300);
        for (int a = 0; a < k->dims; a++) {
            for (int bi = 0; bi < 3; bi++) {
                for (int i = 0; i < 20; i++, cases++) {
                    double p[4];
                    float pf[4];
                    rnd_point(p, k->dims, -100, 100);
                    rnd_pointf(pf, k->dims, -100, 100);
                    if (i == 1)
                        for (int b = 0; b < k->dims; b++)
                            p[b] = pf[b] = (float)bad[bi]; /* every coordinate */
                    p[a] = bad[bi];
                    pf[a] = (float)bad[bi];
                    double v = cn_eval(&g, p);
                    float vf = cn_evalf(&g, pf);
                    CHECK(isnan(v), "%s: %s on axis %d gives %g", k->name, test_fmt_point(p, k->dims), a, v);
                    CHECK(isnan(vf), "%s: float %s on axis %d gives %g", k->name, fmt_pointf(pf, k->dims), a, vf);
                }
            }
            /* Finite coordinate, overflowing product with the frequency. */
            double p[4];
            float pf[4];
            rnd_point(p, k->dims, -100, 100);
            rnd_pointf(pf, k->dims, -100, 100);
            p[a] = a & 1 ? -1e300 : 1e300;
            pf[a] = a & 1 ? -3e38f : 3e38f;
            double v = cn_eval(&gbig, p);
            float vf = cn_evalf(&gfbig, pf);
            CHECK(isnan(v), "%s: x = %g times frequency 1e10 gives %g", k->name, p[a], v);
            CHECK(isnan(vf), "%s: x = %g (float) times frequency 1e300 gives %g", k->name, (double)pf[a], vf);
            /* Just below the overflow the value is an ordinary number. */
            p[a] = a & 1 ? -1e298 : 1e298;
            v = cn_eval(&gbig, p);
            CHECK(isfinite(v), "%s: x = %g times frequency 1e10 gives %g", k->name, p[a], v);
            cases++;
        }
    }
    printf("non-finite: %d NaN/Inf cases per precision and the frequency-overflow case per axis give NaN\n", cases);
}

/* ---- 8. float against double ---- */

static void test_float_vs_double(void)
{
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        cn_noise g = make(k, SEEDS[(ki + 2) % NSEEDS], 1.0);
        double maxd = 0, at[4] = {0, 0, 0, 0};
        const int N = 100000;
        for (int i = 0; i < N; i++) {
            float pf[4];
            double p[4];
            /* Mostly |x| <= 1000; a tenth near the origin, where float offsets are most precise,
             * and a tenth out to 2^20 (float inputs in steps of up to 1/8), where the float
             * kernels still take the cell and its fraction from double */
            const float lim = i % 10 == 0 ? 4.0f : i % 10 == 1 ? 1048576.0f : 1000.0f;
            rnd_pointf(pf, k->dims, -lim, lim);
            for (int a = 0; a < k->dims; a++)
                p[a] = pf[a];
            double d = fabs((double)cn_evalf(&g, pf) - cn_eval(&g, p));
            if (!(d <= maxd)) {
                maxd = d != d ? INFINITY : d;
                memcpy(at, p, sizeof at);
            }
        }
        CHECK(maxd <= 1e-5, "%s: float and double differ by %.3g at %s", k->name, maxd, test_fmt_point(at, k->dims));
        printf("float vs double %-16s %d points |x| <= 2^20: max |evalf - eval| = %.3g\n", k->name, N, maxd);
    }
}

/* ---- 9. floor at negative integers, signed zero ---- */

static void test_floor(void)
{
    static const double cells[] = {-1, -2, -7, -123456, -1099511627776.0, -4294967296.0, -4294967297.0,
                                   0, 5, 4294967295.0, 1099511627775.0};
    const int ncells = (int)(sizeof cells / sizeof cells[0]);
    int checks = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        if (simplexlike(k))
            continue;
        cn_noise g = make(k, SEEDS[ki % NSEEDS], 1.0);
        for (int ci = 0; ci < ncells; ci++) {
            const double c0 = cells[ci];
            double p[4], q[4];
            for (int b = 0; b < k->dims; b++)
                p[b] = (double)(rnd_int(201) - 100); /* other coordinates integers: a lattice line */
            memcpy(q, p, sizeof q);
            p[0] = c0;
            q[0] = c0 + 1;
            const double a0 = cn_eval(&g, p), a1 = cn_eval(&g, q);
            /* Continuity at the negative (or positive) integer itself. */
            double l[4], r[4];
            memcpy(l, p, sizeof l);
            memcpy(r, p, sizeof r);
            l[0] = c0 - 1e-9;
            r[0] = c0 + 1e-9;
            double jl = fabs(cn_eval(&g, l) - a0), jr = fabs(cn_eval(&g, r) - a0);
            CHECK(jl < 1e-6 && jr < 1e-6, "%s: jump %.3g / %.3g at x = %.17g", k->name, jl, jr, c0);
            checks++;
            if (k->type == CN_NOISE_VALUE) {
                /* On a lattice line value noise runs monotonically from one lattice value to the
                 * next: the point must have been placed in cell [c0, c0 + 1). */
                double prev = a0;
                int mono = 1, inside = 1;
                for (int s = 1; s < 64; s++) {
                    double m[4];
                    memcpy(m, p, sizeof m);
                    m[0] = c0 + s / 64.0;
                    double v = cn_eval(&g, m);
                    if (a1 >= a0 ? v < prev : v > prev)
                        mono = 0;
                    if (v < fmin(a0, a1) || v > fmax(a0, a1))
                        inside = 0;
                    prev = v;
                }
                CHECK(mono && inside, "%s: cell [%.17g, +1) is not interpolated between its lattice values "
                      "%.17g and %.17g (monotone %d, inside %d)", k->name, c0, a0, a1, mono, inside);
                checks++;
            } else if (k->type != CN_NOISE_VALUE_CUBIC && k->type != CN_NOISE_CELLULAR) { /* cubic: lattice values,
                                                                                       tests/test_range.c; cellular:
                                                                                       tests/test_cellular.c */
                CHECK(a0 == 0.0, "%s: not 0 at lattice point x = %.17g: %.17g", k->name, c0, a0);
                checks++;
            }
        }
        /* Perlin near -0.5 and just below 0 (tiny negative offsets land in cell -1 at f ~ 1). */
        double p[4];
        rnd_point(p, k->dims, -3, 3);
        for (int s = 0; s < 4; s++) {
            static const double xs[] = {-0.5, -1e-300, -DBL_MIN, -4.9e-324};
            double l[4], r[4], m[4];
            memcpy(l, p, sizeof l);
            memcpy(r, p, sizeof r);
            memcpy(m, p, sizeof m);
            m[0] = xs[s];
            l[0] = xs[s] - 1e-12;
            r[0] = xs[s] + 1e-12;
            double vm = cn_eval(&g, m);
            double j = fmax(fabs(cn_eval(&g, l) - vm), fabs(cn_eval(&g, r) - vm));
            CHECK(j < 1e-6, "%s: jump %.3g around x = %g", k->name, j, xs[s]);
            if (s > 0) {
                m[0] = 0.0;
                double v0 = cn_eval(&g, m);
                m[0] = xs[s];
                CHECK(fabs(vm - v0) < 1e-9, "%s: x = %g gives %.17g but x = 0 gives %.17g", k->name, xs[s], vm, v0);
            }
            checks += 2;
        }
    }
    /* -0.0 and 0.0 on each axis: the same value, double and float, every kind. */
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        cn_noise g = make(k, 3, 1.0);
        for (int a = 0; a < k->dims; a++) {
            double p[4], q[4];
            float pf[4], qf[4];
            rnd_point(p, k->dims, -10, 10);
            for (int b = 0; b < k->dims; b++)
                pf[b] = (float)p[b];
            if (a == 1)
                for (int b = 0; b < k->dims; b++)
                    p[b] = pf[b] = 0.0f; /* also the origin, all zeros */
            memcpy(q, p, sizeof q);
            memcpy(qf, pf, sizeof qf);
            p[a] = 0.0;
            q[a] = -0.0;
            pf[a] = 0.0f;
            qf[a] = -0.0f;
            if (a == 1)
                for (int b = 0; b < k->dims; b++) {
                    q[b] = -0.0;
                    qf[b] = -0.0f;
                }
            double v = cn_eval(&g, p), w = cn_eval(&g, q);
            float vf = cn_evalf(&g, pf), wf = cn_evalf(&g, qf);
            CHECK(v == w, "%s: -0.0 on axis %d gives %.17g, 0.0 gives %.17g", k->name, a, w, v);
            CHECK(vf == wf, "%s: float -0.0 on axis %d gives %.9g, 0.0 gives %.9g", k->name, a, wf, vf);
            checks += 2;
        }
    }
    printf("floor: %d checks of negative-integer cells, signed zero and tiny negatives passed or reported\n",
           checks);
}

/* ---- 10. frequency ---- */

static void test_frequency(void)
{
    static const double freqs[] = {2, 0.5, 4, 0.25, 1024, 3};
    int n = 0, diff = 0, difff = 0;
    for (int ki = 0; ki < NKINDS; ki++) {
        const kind *k = &KINDS[ki];
        cn_noise g1 = make(k, SEEDS[ki % NSEEDS], 1.0);
        for (int fi = 0; fi < 6; fi++) {
            const double f = freqs[fi];
            cn_noise gf = make(k, SEEDS[ki % NSEEDS], f);
            for (int i = 0; i < 500; i++, n++) {
                /* At most 20 significant bits: f * p is exact for every f above (3 adds 2 bits). */
                double p[4], fp[4];
                float pf[4], fpf[4];
                for (int a = 0; a < k->dims; a++) {
                    p[a] = (double)(rnd_int(1 << 20) - (1 << 19)) / 1024.0;
                    fp[a] = f * p[a];
                    pf[a] = (float)p[a];
                    fpf[a] = (float)fp[a];
                }
                double v = cn_eval(&gf, p), w = cn_eval(&g1, fp);
                float vf = cn_evalf(&gf, pf), wf = cn_evalf(&g1, fpf);
                if (!test_same_bits(v, w)) {
                    if (diff++ < 3)
                        fprintf(stderr, "%s: frequency %g at %s: %.17g, frequency 1 at f*p: %.17g\n", k->name, f,
                                test_fmt_point(p, k->dims), v, w);
                }
                if (!test_same_bitsf(vf, wf))
                    difff++;
            }
        }
    }
    CHECK(diff == 0, "%d of %d points differ between frequency f at p and frequency 1 at f*p", diff, n);
    CHECK(difff == 0, "%d of %d float points differ between frequency f at p and frequency 1 at f*p", difff, n);
    printf("frequency: %d points x (double, float), f in {2, 0.5, 4, 0.25, 1024, 3}: %d, %d differ\n", n, diff, difff);
}

int main(void)
{
    test_lattice_zeros();
    test_face_continuity();
    test_simplex_continuity();
    test_os2s4_rule();
    test_os2s_bruteforce();
    test_determinism();
    test_seeds();
    test_lattice_pairs();
    test_repetition();
    test_far();
    test_nonfinite();
    test_float_vs_double();
    test_floor();
    test_frequency();
    return test_summary("test_props");
}
