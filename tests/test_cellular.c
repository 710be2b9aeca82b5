/*
 * test_cellular.c -- cellular (Worley) noise against a brute-force search of its own.
 *
 * The test rebuilds every feature point from the documented construction (src/kernels/
 * cellular.inc: the value-noise lattice hash of the cell from the octave's keys, a fresh 32-bit
 * word per axis, its top 16 bits as the jitter), independently of the kernels, and finds F1 and F2
 * by trying every cell within 4 of the point's cell on each axis: 9^D cells, wider than any search
 * the bounds allow (F2 <= 4 <= B_4). For every distance, jitter (0 .. 1) and return, random points
 * and adversarial ones (cell corners, centres, edges) must give the library's value to within
 * 1e-9 (double; the two sides round differently), and the raw distances must stay within the
 * documented bounds F1max and F2max. The edge return: the brute force takes the distance from the
 * point to each bisector plane of the nearest point and another (projection on the plane's normal,
 * not the kernel's formula), over a neighbourhood widened per point until its own bound holds.
 * Also: the float batch equals the float single-point call, the
 * defaults, bad settings, exact tiling, and that jitter 1 does need the wider search (a point
 * whose nearest feature point lies two cells away is found).
 * CNOISE_CELLULAR_POINTS=N scales the point counts (default 1: at jitter 1, 10^6 points in 2D, 5 10^4
 * in 3D, 5000 in 4D per distance; a tenth of that at the other jitters and for F2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cnoise.h"
#include "test.h"
#include "gen.h"            /* white-box: the octave keys */
#include "../src/core/core.h" /* CN_PX.., CN_MIX_SHIFT, CN_MIX_M: the lattice hash's constants */

#define MULT UINT32_C(0x2C1B3C6D)

static uint64_t rng = UINT64_C(0x9E3779B97F4A7C15);
static double rnd(void) /* xorshift64*, uniform in [0, 1) */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * UINT64_C(0x2545F4914F6CDD1D)) >> 11) * 0x1p-53;
}

static uint32_t mix(uint32_t h) { return (h ^ (h >> CN_MIX_SHIFT)) * CN_MIX_M; }

/* Distance of offset vector d (dims entries) for distance function dist (Minkowski: exponent mp,
 * with the C library's pow). */
static double norm(int dist, int dims, const double *d, double mp)
{
    double r = 0;
    for (int a = 0; a < dims; a++) {
        double v = fabs(d[a]);
        if (dist == CN_CELL_MANHATTAN)
            r += v;
        else if (dist == CN_CELL_CHEBYSHEV)
            r = v > r ? v : r;
        else if (dist == CN_CELL_MINKOWSKI)
            r += pow(v, mp);
        else
            r += v * v;
    }
    return dist == CN_CELL_EUCLIDEAN ? sqrt(r) : dist == CN_CELL_MINKOWSKI ? pow(r, 1 / mp) : r;
}

typedef struct {
    double f1, f2, value; /* value: the nearest cell's */
    double edge;          /* Euclidean distance to the nearest bisector of the nearest point */
} ref_result;

#define MAX_CELLS 50625 /* 15^4 */
static double pts[MAX_CELLS][4];

/* Brute force over the (2R + 1)^D cells around p's cell. */
static ref_result reference(const cn_noise *n, const double *p, int R)
{
    const cn__gen *g = cn__gen_of(n);
    const cn_config *c = &g->cfg;
    const int dims = c->dims;
    static const uint32_t primes[4] = {CN_PX, CN_PY, CN_PZ, CN_PW};
    double q[4], cell[4];
    for (int a = 0; a < dims; a++) {
        q[a] = p[a] * c->frequency;
        cell[a] = floor(q[a]);
    }
    ref_result r = {INFINITY, INFINITY, 0, INFINITY};
    int cells = 1, nearest = 0;
    for (int a = 0; a < dims; a++)
        cells *= 2 * R + 1;
    if (cells > MAX_CELLS)
        abort();
    for (int i = 0; i < cells; i++) {
        int rest = i;
        uint32_t s = g->oct[0].key[4];
        double x[4], d[4];
        for (int a = 0; a < dims; a++) {
            double ca = cell[a] + (rest % (2 * R + 1) - R);
            rest /= 2 * R + 1;
            uint32_t idx = (uint32_t)(int64_t)ca; /* the configurations here have no period */
            s += (idx * primes[a]) ^ g->oct[0].key[a];
            x[a] = ca;
        }
        uint32_t h = mix(s), word = h;
        for (int a = 0; a < dims; a++) {
            if (a)
                word *= MULT;
            x[a] += 0.5 - c->jitter / 2 + (double)(word >> 16) * (c->jitter / 65535.0);
            d[a] = x[a] - q[a];
            pts[i][a] = x[a];
        }
        double dist = norm(c->cell_distance, dims, d, c->minkowski_p);
        if (dist < r.f1) {
            nearest = i;
            uint32_t v = mix(h ^ CN_PW);
            r.value = ((double)((v >> 9) * 2 + 1) - 8388608.0) / 8388608.0;
            r.f2 = r.f1;
            r.f1 = dist;
        } else if (dist < r.f2) {
            r.f2 = dist;
        }
    }
    /* The edge: the distance from q to the bisector plane of the nearest point and each other
     * one, measured as the projection of q - midpoint on the unit normal. */
    for (int i = 0; i < cells; i++) {
        double nn = 0, dot = 0;
        for (int a = 0; a < dims; a++) {
            double u = pts[i][a] - pts[nearest][a], mid = (pts[i][a] + pts[nearest][a]) / 2;
            nn += u * u;
            dot += u * (mid - q[a]);
        }
        if (nn > 0 && dot / sqrt(nn) < r.edge)
            r.edge = dot / sqrt(nn);
    }
    return r;
}

/* The documented bounds: N(1/2 + h, ..) and max(N(1 + h, h, ..), F1max). */
static double bound_of(int dist, int dims, double first, double rest, double mp)
{
    double d[4] = {first, rest, rest, rest};
    return norm(dist, dims, d, mp);
}

static double expected(const cn_config *c, ref_result r)
{
    const double h = c->jitter / 2;
    const double f1max = bound_of(c->cell_distance, c->dims, 0.5 + h, 0.5 + h, c->minkowski_p);
    double f2max = bound_of(c->cell_distance, c->dims, 1 + h, h, c->minkowski_p);
    f2max = f2max > f1max ? f2max : f1max;
    double v, max;
    switch (c->cell_return) {
    case CN_CELL_F2: v = r.f2, max = f2max; break;
    case CN_CELL_F2_MINUS_F1: v = r.f2 - r.f1, max = f2max; break;
    case CN_CELL_F1_PLUS_F2: v = r.f1 + r.f2, max = f1max + f2max; break;
    case CN_CELL_F1_TIMES_F2: v = r.f1 * r.f2, max = f1max * f2max; break;
    case CN_CELL_VALUE: return r.value;
    case CN_CELL_EDGE: v = r.edge, max = (f1max + f2max) / 2; break;
    default: v = r.f1, max = f1max; break;
    }
    return 2 * v / max - 1;
}

static double minkowski_p = 1.5; /* the exponent check_config and build use */

static void build(cn_noise *n, int dims, int dist, int ret, double jitter, uint64_t seed)
{
    cn_config c;
    cn_config_init(&c);
    c.type = CN_NOISE_CELLULAR;
    c.dims = dims;
    c.seed = seed;
    c.frequency = 1.0;
    c.cell_distance = (cn_cell_distance)dist;
    c.cell_return = (cn_cell_return)ret;
    c.jitter = jitter;
    c.minkowski_p = minkowski_p;
    cn_status st = cn_noise_build(n, &c);
    CHECK(st == CN_OK, "build cellular %dD distance %d return %d jitter %g: %s", dims, dist, ret, jitter, cn_strerror(st));
}

/* npts points: random in [-40, 40)^dims, every 8th one on a cell corner, centre or edge. Checks
 * the library's batch (double) against the brute force, the raw distances against the bounds,
 * and the float batch against the float single-point call. */
static void check_config(int dims, int dist, int ret, double jitter, long npts)
{
    cn_noise n;
    build(&n, dims, dist, ret, jitter, (uint64_t)(dims * 1000 + dist * 100 + ret * 10) + (uint64_t)(jitter * 7));
    const cn_config *c = cn_noise_config(&n);
    double *xs[4], *out = test_xmalloc((size_t)npts * sizeof *out);
    float *xf[4], *outf = test_xmalloc((size_t)npts * sizeof *outf);
    for (int a = 0; a < dims; a++) {
        xs[a] = test_xmalloc((size_t)npts * sizeof *xs[a]);
        xf[a] = test_xmalloc((size_t)npts * sizeof *xf[a]);
    }
    for (long i = 0; i < npts; i++)
        for (int a = 0; a < dims; a++) {
            double v = rnd() * 80 - 40;
            if (i % 8 == 7) /* a corner (0), the centre (1/2) or an edge of a cell */
                v = floor(v) + (double)((i / 8 + a) % 3) * 0.5 * (((i / 8) % 5) != 4);
            xs[a][i] = v;
            xf[a][i] = (float)v;
        }
    CHECK(cn_points_eval(&n, (size_t)npts, (const double *const *)xs, out, 1, NULL) == CN_OK, "points_eval");
    CHECK(cn_points_evalf(&n, (size_t)npts, (const float *const *)xf, outf, 1, NULL) == CN_OK, "points_evalf");
    const double h = jitter / 2;
    const double f1max = bound_of(dist, dims, 0.5 + h, 0.5 + h, minkowski_p);
    double f2max = bound_of(dist, dims, 1 + h, h, minkowski_p);
    f2max = f2max > f1max ? f2max : f1max;
    /* Cells R + 1 or more away on an axis are at least R away: R = ceil(F2max) suffices; one more
     * for good measure. */
    const int R = (int)ceil(dist == CN_CELL_EUCLIDEAN_SQ ? sqrt(f2max) : f2max) + 1;
    long bad = 0, over = 0, fbad = 0;
    double worst = 0;
    for (long i = 0; i < npts; i++) {
        double p[4];
        for (int a = 0; a < dims; a++)
            p[a] = xs[a][i];
        ref_result r = reference(&n, p, R);
        /* The edge search's own bound (cellular.inc): every cell beyond R is at least
         * R + 1/2 - h away; widen until that exceeds F1 + 2E. */
        for (int wide = R; ret == CN_CELL_EDGE && wide + 0.5 - h <= r.f1 + 2 * r.edge;)
            r = reference(&n, p, ++wide);
        over += r.f1 > f1max * (1 + 1e-12) || r.f2 > f2max * (1 + 1e-12) ||
                (ret == CN_CELL_EDGE && r.edge > (f1max + f2max) / 2 * (1 + 1e-12));
        /* The nearest cell's value is only defined where F1 is not a tie. */
        if (ret == CN_CELL_VALUE && r.f2 - r.f1 < 1e-9)
            continue;
        double e = expected(c, r), err = fabs(out[i] - e);
        worst = err > worst ? err : worst;
        if (err > 1e-9 && bad++ < 3)
            fprintf(stderr, "  %dD dist %d ret %d jitter %g at (%.17g, %.17g, %.17g, %.17g): %.17g, brute force %.17g\n",
                    dims, dist, ret, jitter, p[0], p[1], dims > 2 ? p[2] : 0, dims > 3 ? p[3] : 0, out[i], e);
        if (i % 97 == 0) {
            float s = cn_evalf(&n, (const float[4]){xf[0][i], xf[1][i], dims > 2 ? xf[2][i] : 0, dims > 3 ? xf[3][i] : 0});
            fbad += memcmp(&s, &outf[i], sizeof s) != 0;
            fbad += !(fabs((double)outf[i] - out[i]) < 2e-3); /* float rounds p and the offsets */
        }
    }
    CHECK(bad == 0, "%dD distance %s (p %g) return %s jitter %g: %ld of %ld points differ from the brute force (worst %.3g)",
          dims, cn_cell_distance_name((cn_cell_distance)dist), minkowski_p, cn_cell_return_name((cn_cell_return)ret), jitter,
          bad, npts, worst);
    CHECK(over == 0, "%dD distance %s jitter %g: %ld points beyond the documented F1max %.17g / F2max %.17g", dims,
          cn_cell_distance_name((cn_cell_distance)dist), jitter, over, f1max, f2max);
    CHECK(fbad == 0, "%dD distance %s return %s jitter %g: float batch vs single point or vs double: %ld", dims,
          cn_cell_distance_name((cn_cell_distance)dist), cn_cell_return_name((cn_cell_return)ret), jitter, fbad);
    for (int a = 0; a < dims; a++) {
        free(xs[a]);
        free(xf[a]);
    }
    free(out);
    free(outf);
}

int main(void)
{
    const char *env = getenv("CNOISE_CELLULAR_POINTS");
    const double scale = env ? atof(env) : 1.0;
    static const double jitters[] = {0.0, 0.5, 0.874, 1.0};

    /* Defaults and bad settings. */
    cn_config c;
    cn_config_init(&c);
    CHECK(c.cell_distance == CN_CELL_EUCLIDEAN && c.cell_return == CN_CELL_F1 && c.jitter == 1.0, "defaults");
    c.type = CN_NOISE_CELLULAR;
    CHECK(cn_config_check(&c) == CN_OK, "cellular 2D builds");
    c.dims = 1;
    CHECK(cn_config_check(&c) == CN_E_UNSUPPORTED, "cellular 1D is unsupported");
    c.dims = 2;
    const double bad_jitter[] = {-0.001, 1.0000001, NAN, INFINITY};
    for (int i = 0; i < 4; i++) {
        c.jitter = bad_jitter[i];
        cn_check why;
        CHECK(cn_config_explain(&c, &why) == CN_E_CELLULAR && why.field == CN_FIELD_JITTER, "jitter %g refused", bad_jitter[i]);
    }
    c.jitter = 1;
    c.cell_distance = (cn_cell_distance)5;
    CHECK(cn_config_check(&c) == CN_E_CELLULAR, "distance 5 refused");
    c.cell_distance = CN_CELL_MINKOWSKI;
    CHECK(c.minkowski_p == 1.5 && cn_config_check(&c) == CN_OK, "Minkowski, p 1.5 by default");
    const double bad_p[] = {0.999, 32.001, 0, -2, NAN, INFINITY};
    for (int i = 0; i < 6; i++) {
        c.minkowski_p = bad_p[i];
        cn_check why;
        CHECK(cn_config_explain(&c, &why) == CN_E_CELLULAR && why.field == CN_FIELD_MINKOWSKI_P &&
                  why.field2 == CN_FIELD_CELL_DISTANCE,
              "Minkowski p %g refused", bad_p[i]);
        c.cell_distance = CN_CELL_CHEBYSHEV;
        CHECK(cn_config_check(&c) == CN_OK, "p %g is not checked with another distance", bad_p[i]);
        c.cell_distance = CN_CELL_MINKOWSKI;
    }
    c.minkowski_p = 1;
    CHECK(cn_config_check(&c) == CN_OK, "p 1");
    c.minkowski_p = 32;
    CHECK(cn_config_check(&c) == CN_OK, "p 32");
    c.minkowski_p = 1.5;
    c.cell_distance = (cn_cell_distance)-1;
    CHECK(cn_config_check(&c) == CN_E_CELLULAR, "distance -1 refused");
    c.cell_distance = CN_CELL_EUCLIDEAN;
    c.cell_return = (cn_cell_return)7;
    CHECK(cn_config_check(&c) == CN_E_CELLULAR, "return 7 refused");
    c.cell_return = CN_CELL_EDGE;
    CHECK(cn_config_check(&c) == CN_OK, "edge with the Euclidean distance");
    for (int dist = CN_CELL_EUCLIDEAN_SQ; dist <= CN_CELL_MINKOWSKI; dist++) {
        c.cell_distance = (cn_cell_distance)dist;
        cn_check why;
        CHECK(cn_config_explain(&c, &why) == CN_E_CELLULAR && why.field == CN_FIELD_CELL_RETURN &&
                  why.field2 == CN_FIELD_CELL_DISTANCE && strstr(why.reason, "euclidean"),
              "edge with distance %s refused: %s", cn_cell_distance_name(c.cell_distance), why.reason);
    }
    c.type = CN_NOISE_PERLIN;
    CHECK(cn_config_check(&c) == CN_OK, "the cellular fields do not matter to other types");
    c.type = CN_NOISE_CELLULAR;
    c.cell_distance = CN_CELL_EUCLIDEAN;
    cn_cell_distance d;
    cn_cell_return r;
    CHECK(cn_cell_distance_from_name("manhattan", &d) == CN_OK && d == CN_CELL_MANHATTAN, "distance name");
    CHECK(cn_cell_return_from_name("f2-f1", &r) == CN_OK && r == CN_CELL_F2_MINUS_F1, "return name");
    CHECK(cn_cell_return_from_name("F1", &r) == CN_E_CELLULAR, "names are case-sensitive");
    CHECK(cn_cell_return_from_name("edge", &r) == CN_OK && r == CN_CELL_EDGE, "edge name");
    CHECK(cn_cell_distance_from_name("minkowski", &d) == CN_OK && d == CN_CELL_MINKOWSKI, "Minkowski's name");
    CHECK(cn_cell_distance_name((cn_cell_distance)5) == NULL && cn_cell_return_name((cn_cell_return)7) == NULL, "names end");

    /* The search against the brute force. */
    for (int dims = 2; dims <= 4; dims++) {
        const long full = dims == 2 ? 1000000 : dims == 3 ? 50000 : 5000;
        for (int dist = 0; dist < 4; dist++)
            for (int j = 0; j < 4; j++) {
                const long npts = (long)(scale * (jitters[j] == 1.0 ? full : full / 10));
                check_config(dims, dist, CN_CELL_F1, jitters[j], npts > 16 ? npts : 16);
                check_config(dims, dist, CN_CELL_F2, jitters[j], npts / 10 > 16 ? npts / 10 : 16);
            }
        /* Minkowski: p from Manhattan's 1 to the largest, a quarter of the points each (the brute
         * force's pow is the slow part), F1 and F2 (the search's two stopping rules). */
        static const double ps[] = {1.0, 1.5, 2.5, 32.0};
        for (int k = 0; k < 4; k++) {
            minkowski_p = ps[k];
            for (int j = 0; j < 4; j++) {
                const long npts = (long)(scale * (jitters[j] == 1.0 ? full : full / 10) / 4);
                check_config(dims, CN_CELL_MINKOWSKI, CN_CELL_F1, jitters[j], npts > 16 ? npts : 16);
                check_config(dims, CN_CELL_MINKOWSKI, CN_CELL_F2, jitters[j], npts / 10 > 16 ? npts / 10 : 16);
            }
            check_config(dims, CN_CELL_MINKOWSKI, CN_CELL_F1_TIMES_F2, 1.0, (long)(scale * full / 40));
        }
        minkowski_p = 1.5;
        for (int ret = CN_CELL_F2_MINUS_F1; ret <= CN_CELL_EDGE; ret++)
            check_config(dims, CN_CELL_EUCLIDEAN, ret, 1.0, (long)(scale * full / 10));
        for (int j = 0; j < 3; j++) /* the edge at the other jitters (1.0 above) */
            check_config(dims, CN_CELL_EUCLIDEAN, CN_CELL_EDGE, jitters[j], (long)(scale * full / 20));
    }

    /* Jitter 1 needs more than the 3x3 cells: near a cell's corner some point's second-nearest
     * feature point lies two cells away (the brute force over 3x3 cells then gives a larger F2),
     * and the library must still agree with the wide brute force there. */
    {
        cn_noise n;
        build(&n, 2, CN_CELL_EUCLIDEAN, CN_CELL_F2, 1.0, 5);
        long far = 0;
        for (long i = 0; i < 1000000 && far < 10; i++) {
            double p[2] = {floor(rnd() * 1000) + 0.9 + 0.1 * rnd(), floor(rnd() * 1000) + 0.9 + 0.1 * rnd()};
            ref_result wide = reference(&n, p, 3), near = reference(&n, p, 1);
            if (near.f2 > wide.f2 + 1e-9) {
                double v = cn_eval2(&n, p[0], p[1]), e = expected(cn_noise_config(&n), wide);
                CHECK(fabs(v - e) < 1e-9, "(%.17g, %.17g), second-nearest point beyond the 3x3 cells: %.17g, brute force %.17g",
                      p[0], p[1], v, e);
                far++;
            }
        }
        CHECK(far == 10, "only %ld of 10^6 points near corners have their second-nearest point beyond the 3x3 cells", far);
    }

    /* Tiling: period (5, 3) repeats exactly, for every return. */
    for (int ret = 0; ret <= CN_CELL_EDGE; ret++) {
        cn_config t;
        cn_config_init(&t);
        t.type = CN_NOISE_CELLULAR;
        t.cell_return = (cn_cell_return)ret;
        t.period[0] = 5;
        t.period[1] = 3;
        t.frequency = 1.0 / 16;
        cn_noise n;
        CHECK(cn_noise_build(&n, &t) == CN_OK, "periodic build");
        long diff = 0;
        for (int i = 0; i < 20000; i++) {
            double x = floor(rnd() * 12800) / 64 - 100, y = floor(rnd() * 12800) / 64 - 100; /* exact + 80 */
            double v = cn_eval2(&n, x, y);
            diff += v != cn_eval2(&n, x + 80, y) || v != cn_eval2(&n, x, y - 48) || v != cn_eval2(&n, x + 160, y + 96);
        }
        CHECK(diff == 0, "return %s: %ld of 20000 points differ one period away", cn_cell_return_name((cn_cell_return)ret), diff);
    }
    return test_summary("test_cellular");
}
