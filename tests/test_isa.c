/* test_isa.c -- "every instruction set and every thread count returns the same bits as the scalar
 * build": for every instruction set this build contains and this CPU runs (cn_isa_compiled and
 * cn_isa_supported, so new builds are covered as soon as they are compiled in), the batch API is
 * compared bit for bit (memcmp, NaN included) with the scalar build, selected with cn_isa_set_cap:
 *   every noise type, dimension and mode (Perlin 1-4D, simplex 2-4D, value 1-4D; default and
 *   classic where they exist), every fractal, with and without periods, with and without the
 *   domain and signal transforms (rotation only without periods);
 *   grids (negative steps, coordinates crossing 2^52, coordinates that overflow to +-Inf) and point
 *   arrays of every length 0 .. 3*16+1 (every tail for up to 16 lanes) and a few long ones, with
 *   negative, huge (to +-2^52 and beyond, +-1e300, +-DBL_MAX), NaN and +-Inf coordinates;
 *   double and float outputs; every buffer one or more elements off the malloc alignment, the
 *   coordinate arrays ending exactly at the end of their allocation (AddressSanitizer catches a
 *   read past them), guard elements around every output (a write outside it is caught), and the
 *   stack below each batch call filled with 0xFF bytes first (a read of stack the call did not
 *   write gives the same wrong bits every time: scribble_stack).
 * The scalar batch results are also compared bit for bit with the single-point API: cn_eval at the
 * same double coordinates, cn_evalf at the same float coordinates (for float grids, only at points
 * whose double coordinates origin + i * step are exactly representable as floats).
 * In a relaxed build (CNOISE_RELAXED: FMA in the SIMD builds) the instruction sets are compared
 * with the scalar build within a stated per-point bound instead (relaxed_compare below). */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cnoise.h"
#include "gen.h" /* white-box: the generator's internals (src/gen.h) */
#include "test.h"

/* ---- the instruction sets under test and what was compared ---- */

static cn_isa isas[CN_ISA_COUNT];
static int nisas;
static unsigned long long n_values[CN_ISA_COUNT]; /* output values compared with the scalar build */
static unsigned long long n_calls[CN_ISA_COUNT];  /* batch calls compared */
static unsigned long long n_point_api;            /* batch values compared with cn_eval / cn_evalf */
static unsigned long long n_plain;                /* of those, through a plain generator's short entries */
static unsigned long long n_nan_out, n_finite_out, n_configs;
/* Every quick_step-th configuration is run: 1, all 828; --quick, QUICK_STEP (prime to the 4 period x
 * transform cases and the 28 per noise and dimension (24 for cellular, which has no erosion), so
 * that the 23 it runs vary in all of them). */
enum { N_CONFIGS = 828, QUICK_STEP = 37 };
static int quick_step = 1;


static uint64_t rng_state = 0x853C49E6748FEA9Bull;
static uint64_t rng(void) { return test_splitmix64(&rng_state); }
static double uniform(double lo, double hi) { return lo + (hi - lo) * test_unit(rng()); }

/* ---- coordinates ---- */

enum { POOL = 4096, GUARD = 3, MAXLEN = 3 * 16 + 1 };
static const size_t LONG_LENGTHS[] = {257, 1021, 2053};

static double pool[4][POOL];
static float poolf[4][POOL];

/* Values that exercise the edges of the domain: signed zeros, lattice points, the int32/uint32
 * wrap of lattice indices, 2^52 (where doubles become whole numbers) and 2^53, float limits,
 * values whose product with a frequency overflows, subnormals, NaN of both signs and +-Inf.
 * 12, 36, 24, 48 are the test periods. */
static double specials[64];
static int nspecials;

static void make_pool(void)
{
    const double s[] = {0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 255.0, 256.0, -256.0, 2147483647.0, 2147483648.0,
                        -2147483648.0, -2147483649.0, 4294967295.5, 4294967296.0, -4294967296.0,
                        1099511627776.25, -1099511627775.75, 4503599627370495.5, 4503599627370496.0,
                        -4503599627370496.0, -4503599627370495.5, 9007199254740992.0, -9007199254740994.0,
                        1e15 + 0.375, 16777217.0, 3.4028234663852886e38, -1e38, 1e300, -1e300, 1e306, -1e306,
                        DBL_MAX, -DBL_MAX, 4.9406564584124654e-324, -1e-300, 12.0, 36.0, -24.0, 48.0, NAN, 0.0,
                        INFINITY, -INFINITY};
    nspecials = (int)(sizeof s / sizeof s[0]);
    memcpy(specials, s, sizeof s);
    specials[41] = copysign(NAN, -1.0); /* a NaN with the sign bit set */
    for (int a = 0; a < 4; a++)
        for (int k = 0; k < POOL; k++) {
            double v;
            switch (k % 8) {
            case 7: v = specials[(k / 8 * (2 * a + 1) + 5 * a) % nspecials]; break;
            case 3: { /* huge, up to 2^52 in magnitude */
                double m = uniform(0.5, 1.0) * ldexp(1.0, 20 + (int)(rng() % 33));
                v = rng() & 1 ? -m : m;
                break;
            }
            case 5: v = (double)((int64_t)(rng() % 601) - 300); break; /* lattice points */
            default: v = uniform(-300.0, 300.0); break;
            }
            pool[a][k] = v;
            poolf[a][k] = (float)v;
        }
}

/* ---- comparisons ---- */

static double elem(const void *buf, size_t i, int f32)
{
    if (f32) {
        float v;
        memcpy(&v, (const char *)buf + i * sizeof v, sizeof v);
        return v;
    }
    double v;
    memcpy(&v, (const char *)buf + i * sizeof v, sizeof v);
    return v;
}

/* The first index at which two buffers of n values differ in their bits, or n. */
static size_t first_diff(const void *x, const void *y, size_t n, int f32)
{
    const size_t es = f32 ? sizeof(float) : sizeof(double);
    if (memcmp(x, y, n * es) == 0)
        return n;
    for (size_t i = 0; i < n; i++)
        if (memcmp((const char *)x + i * es, (const char *)y + i * es, es) != 0)
            return i;
    return n;
}


/* Whether the GUARD-element bands before and after an output of n elements at offset off are intact. */
static int guards_intact(const unsigned char *base, size_t off, size_t n, int f32)
{
    const size_t es = f32 ? sizeof(float) : sizeof(double);
    for (size_t b = 0; b < off * es; b++)
        if (base[b] != TEST_SENTINEL)
            return 0;
    for (size_t b = (off + n) * es; b < (off + n + GUARD) * es; b++)
        if (base[b] != TEST_SENTINEL)
            return 0;
    return 1;
}

/* range[] must be the smallest and largest non-NaN output, NaN, NaN when there is none. */
static void check_range(const char *what, const void *out, size_t n, int f32, const double rng2[2])
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double v = elem(out, i, f32);
        if (v < lo)
            lo = v;
        if (v > hi)
            hi = v;
        if (isnan(v))
            n_nan_out++;
        else
            n_finite_out++;
    }
    if (lo > hi)
        CHECK(isnan(rng2[0]) && isnan(rng2[1]), "%s: no non-NaN output but range [%g, %g]", what, rng2[0], rng2[1]);
    else
        CHECK(rng2[0] == lo && rng2[1] == hi, "%s: range [%.17g, %.17g], outputs span [%.17g, %.17g]", what,
              rng2[0], rng2[1], lo, hi);
}

/* ---- one batch request, run under the current cap ---- */

typedef struct req {
    const cn_noise *g;
    int f32;
    int grid;
    double origin[4], step[4];
    size_t count[4];
    size_t n;
    const void *coords[4];
} req;

static size_t req_len(const req *r)
{
    if (!r->grid)
        return r->n;
    size_t t = 1;
    for (int a = 0; a < cn_noise_config(r->g)->dims; a++)
        t *= r->count[a];
    return t;
}

/*
 * Fills the stack below the caller with 0xFF bytes (as a double or a float: NaN; as an index:
 * 0xFFFFFFFF; as the upper byte of a mask: set), so that a batch call which reads stack it has
 * not written, in its own code or in code the compiler made of it, sees the same garbage in
 * every run and build instead of whatever the previous call left there (a grid before a point
 * array, say), and its results differ from the scalar build's. The batch calls run on this
 * thread (threads = 1). Called through a volatile pointer, so that it is never inlined into
 * the caller and its array lies where the batch call's frames will.
 */
enum { SCRIBBLE_BYTES = 128 * 1024 };
static void scribble_stack_now(void)
{
    unsigned char buf[SCRIBBLE_BYTES];
    void *(*volatile fill)(void *, int, size_t) = memset; /* not a dead store to drop */
    fill(buf, 0xFF, sizeof buf);
}
static void (*volatile scribble_stack)(void) = scribble_stack_now;

/* Runs the request into out; range as doubles (bits compared separately through raw). */
static cn_status run_req(const req *r, void *out, unsigned char raw_range[16], double range[2])
{
    cn_status st;
    scribble_stack();
    memset(raw_range, TEST_SENTINEL, 16);
    if (r->f32) {
        float fr[2];
        if (r->grid)
            st = cn_grid_evalf(r->g, r->origin, r->step, r->count, (float *)out, req_len(r), 1, fr);
        else
            st = cn_points_evalf(r->g, r->n, (const float *const *)r->coords, (float *)out, 1, fr);
        memcpy(raw_range, fr, sizeof fr);
        range[0] = fr[0];
        range[1] = fr[1];
    } else {
        double dr[2];
        if (r->grid)
            st = cn_grid_eval(r->g, r->origin, r->step, r->count, (double *)out, req_len(r), 1, dr);
        else
            st = cn_points_eval(r->g, r->n, (const double *const *)r->coords, (double *)out, 1, dr);
        memcpy(raw_range, dr, sizeof dr);
        range[0] = dr[0];
        range[1] = dr[1];
    }
    return st;
}

/* The double coordinates of point i of a request (grid: origin + index * step, as documented). */
static void req_point(const req *r, size_t i, double *p, float *pf)
{
    const int dims = cn_noise_config(r->g)->dims;
    for (int a = 0; a < dims; a++) {
        if (r->grid) {
            size_t idx = i % r->count[a];
            i /= r->count[a];
            p[a] = r->origin[a] + (double)idx * r->step[a];
            pf[a] = (float)p[a];
        } else if (r->f32) {
            pf[a] = ((const float *)r->coords[a])[i];
            p[a] = pf[a];
        } else {
            p[a] = ((const double *)r->coords[a])[i];
            pf[a] = (float)p[a];
        }
    }
}

#ifdef CN_RELAXED
/*
 * Relaxed builds (CMake -DCNOISE_RELAXED=ON) let the SIMD builds fuse a * b + c into one FMA, so
 * they no longer give the scalar build's bits. There every instruction set is compared with the
 * scalar build within a bound instead, and everything else stays exact: NaN exactly where the
 * scalar build gives NaN, the range equal to the min/max of the outputs, the scalar build (still
 * strict) equal to the point API. The bound for one point has three terms:
 *   E       a fused a * b + c skips the rounding of the product, so each such step moves its
 *           result by at most about an ulp of the values it combines, all of magnitude below ~16
 *           in the kernels (offsets, fades, gradients, corner sums): a small multiple of the
 *           precision's epsilon. RELAXED_E_F64 = 2^-44, RELAXED_E_F32 = 2^-15 (the float kernels
 *           compute in float after the double lattice set-up), times |amplitude| + |bias|.
 *   slope   the coordinates themselves are computed with FMAs (grid origin + i * step, rotation *
 *           p + offset, simplex skews), so a noise-space coordinate of magnitude X moves by about
 *           an ulp, 2^-52 X, and the noise, whose slope is bounded, by RELAXED_SLOPE * 2^-52 * X
 *           times |amplitude|, with RELAXED_SLOPE = 2^8. X is the bound sum_b |rotation_ab| |p_b|
 *           frequency_b + |offset_a| (largest axis) times the last octave's lacunarity^i. Beyond
 *           X ~ 2^50 the term exceeds the output range (a coordinate's ulp is a whole cell there):
 *           only NaN-ness is compared.
 *   jump    classic simplex 3D/4D (Gustavson's radius^2 = 0.6 kernels) is discontinuous at some
 *           simplex faces (jumps of ~0.004), and a point an ulp from such a face may change
 *           sides: RELAXED_JUMP = 2^-5 times |amplitude| there.
 * Measured with GCC 12 on x86-64 (AVX2 and AVX-512, every configuration below): where X <= 16
 * the largest differences use 0.12 of the E term (double, 6.7e-15) and 0.10 (float, 3.0e-6); the
 * slope actually needed is 6 (double, 9.3e-4 at X = 2.7e11); the largest jump is 0.0050 (billow,
 * amplitude 1), 0.16 of its bound, the worst use of any bound. Each run prints the largest
 * difference / bound it saw.
 */
#define RELAXED_E_F64 0x1p-44
#define RELAXED_E_F32 0x1p-15
#define RELAXED_SLOPE 0x1p8
#define RELAXED_JUMP 0x1p-5
static double relaxed_worst[CN_ISA_COUNT][2];   /* largest |difference| / bound */
static double relaxed_maxdiff[CN_ISA_COUNT][2]; /* largest |difference| where X <= 2^10 */
static double relaxed_maxjump[CN_ISA_COUNT][2]; /* the same in classic simplex 3D/4D */
static unsigned long long relaxed_inexact[CN_ISA_COUNT][2], relaxed_n[CN_ISA_COUNT][2];

/* Classic simplex 3D/4D: Gustavson's kernels, discontinuous at some simplex faces. */
static int relaxed_jumps(const cn_noise *g)
{
    return cn_noise_config(g)->mode == CN_MODE_CLASSIC && cn_noise_config(g)->type == CN_NOISE_SIMPLEX && cn_noise_config(g)->dims >= 3;
}

/* The bound on |batch - scalar| for point p of configuration g (see above). */
static double relaxed_bound(const cn_noise *g, const double *p, int f32, double *x_out)
{
    const cn_config *c = cn_noise_config(g);
    const int dims = c->dims;
    double s[4], x = 0.0;
    for (int a = 0; a < dims; a++)
        s[a] = fabs(p[a]) * fabs(cn__gen_of(g)->scale[a]);
    for (int a = 0; a < dims; a++) {
        double q = s[a];
        if (c->rotate) {
            q = 0.0;
            for (int b = 0; b < dims; b++)
                q += fabs(c->rotation[a * dims + b]) * s[b];
        }
        q += fabs(c->offset[a]);
        if (q > x)
            x = q;
    }
    if (c->fractal != CN_FRACTAL_NONE)
        x *= cn__gen_of(g)->oct[cn__gen_of(g)->octaves - 1].mult;
    *x_out = x;
    const double amp = fabs(c->amplitude);
    return (amp + fabs(c->bias)) * (f32 ? RELAXED_E_F32 : RELAXED_E_F64) + amp * RELAXED_SLOPE * 0x1p-52 * x +
           (relaxed_jumps(g) ? amp * RELAXED_JUMP : 0.0);
}

/* One instruction set's relaxed output against the scalar build's (both n values). */
static void relaxed_compare(const char *what, cn_isa isa, const req *r, const void *ref, const void *got, size_t n,
                            const double range[2])
{
    const int f32 = r->f32, dims = cn_noise_config(r->g)->dims;
    double lo = INFINITY, hi = -INFINITY;
    int reported = 0;
    for (size_t i = 0; i < n; i++) {
        double a = elem(ref, i, f32), b = elem(got, i, f32), p[4], x;
        float pf[4];
        if (b < lo)
            lo = b;
        if (b > hi)
            hi = b;
        relaxed_n[isa][f32]++;
        req_point(r, i, p, pf);
        if (isnan(a) || isnan(b)) {
            if (isnan(a) != isnan(b) && !reported++)
                CHECK(0, "%s [%s, relaxed]: value %zu at (%.17g, %.17g, %.17g, %.17g) is %.17g, scalar %.17g", what,
                      cn_isa_name(isa), i, p[0], dims > 1 ? p[1] : 0.0, dims > 2 ? p[2] : 0.0,
                      dims > 3 ? p[3] : 0.0, b, a);
            continue;
        }
        const double bound = relaxed_bound(r->g, p, f32, &x), d = fabs(a - b);
        if (d != 0.0)
            relaxed_inexact[isa][f32]++;
        if (d / bound > relaxed_worst[isa][f32])
            relaxed_worst[isa][f32] = d / bound;
        if (relaxed_jumps(r->g)) {
            if (x <= 0x1p10 && d > relaxed_maxjump[isa][f32])
                relaxed_maxjump[isa][f32] = d;
        } else if (x <= 0x1p10 && d > relaxed_maxdiff[isa][f32]) {
            relaxed_maxdiff[isa][f32] = d;
        }
        if (!(d <= bound) && !reported++)
            CHECK(0, "%s [%s, relaxed]: value %zu at (%.17g, %.17g, %.17g, %.17g) is %.17g, scalar %.17g: "
                  "difference %.3g above the bound %.3g", what, cn_isa_name(isa), i, p[0], dims > 1 ? p[1] : 0.0,
                  dims > 2 ? p[2] : 0.0, dims > 3 ? p[3] : 0.0, b, a, d, bound);
    }
    if (!reported)
        cn_test_pass++;
    if (lo > hi)
        CHECK(isnan(range[0]) && isnan(range[1]), "%s [%s]: no non-NaN output but range [%g, %g]", what,
              cn_isa_name(isa), range[0], range[1]);
    else
        CHECK(range[0] == lo && range[1] == hi, "%s [%s]: range [%.17g, %.17g], outputs span [%.17g, %.17g]", what,
              cn_isa_name(isa), range[0], range[1], lo, hi);
}
#endif

/* The scalar reference against the point API, then every instruction set against the scalar. */
static void compare_all(const char *what, const req *r, size_t off)
{
    const int f32 = r->f32, dims = cn_noise_config(r->g)->dims;
    const size_t es = f32 ? sizeof(float) : sizeof(double), n = req_len(r), total = off + n + GUARD;
    unsigned char *ref = test_xmalloc(total * es), *got = test_xmalloc(total * es);
    unsigned char rref[16], rgot[16];
    double range[2];

    memset(ref, TEST_SENTINEL, total * es);
    CHECK(cn_isa_set_cap(CN_ISA_SCALAR) == CN_OK, "cap scalar");
    CHECK(cn_isa_active() == CN_ISA_SCALAR, "cap scalar: active %s", cn_isa_name(cn_isa_active()));
    cn_status st = run_req(r, ref + off * es, rref, range);
    CHECK(st == CN_OK, "%s: scalar batch gives %s", what, cn_strerror(st));
    CHECK(guards_intact(ref, off, n, f32), "%s: scalar batch wrote outside its output", what);
    check_range(what, ref + off * es, n, f32, range);

    /*
     * The scalar batch equals the point API: under cap scalar (the baseline build of the point
     * entries), then without a cap (on x86 with AVX, their AVX build). A plain generator
     * takes the short entries, so it is also evaluated with plain cleared (the general entries).
     */
    cn_noise general = *r->g;
    cn__gen_mut(&general)->plain = 0;
    for (int pass = 0; pass < 2 + (cn__gen_of(r->g)->plain != 0); pass++) {
        const cn_noise *pg = pass == 2 ? &general : r->g;
        CHECK(cn_isa_set_cap(pass == 0 ? CN_ISA_SCALAR : CN_ISA_COUNT) == CN_OK, "cap");
        for (size_t i = 0; i < n; i++) {
            double p[4], v = elem(ref + off * es, i, f32), pv;
            float pf[4];
            req_point(r, i, p, pf);
            int bad, nonfinite_in = 0, tame_in = 1;
            for (int a = 0; a < dims; a++) {
                nonfinite_in |= !isfinite(p[a]);
                tame_in &= fabs(p[a]) <= 1e15;
            }
            if (f32) {
                int exact = 1;
                for (int a = 0; a < dims; a++)
                    exact &= (double)pf[a] == p[a] || (isnan(p[a]) && isnan(pf[a]));
                if (!exact)
                    continue;
                float pvf = cn_evalf(pg, pf);
                bad = memcmp(&pvf, ref + (off + i) * es, sizeof pvf) != 0;
                pv = pvf;
            } else {
                pv = cn_eval(pg, p);
                bad = memcmp(&pv, ref + (off + i) * es, sizeof pv) != 0;
            }
            n_point_api++;
            n_plain += pass == 1 && cn__gen_of(pg)->plain;
            if (bad) {
                CHECK(!bad, "%s: point %zu (%.17g, %.17g, %.17g, %.17g): batch %.17g, %s %.17g (%s)", what, i, p[0],
                      dims > 1 ? p[1] : 0.0, dims > 2 ? p[2] : 0.0, dims > 3 ? p[3] : 0.0, v, f32 ? "cn_evalf" : "cn_eval",
                      pv, pass == 0 ? "cap scalar" : pass == 1 ? "no cap" : "plain cleared");
                break; /* one report per buffer */
            }
            /* Documented: NaN or +-Inf in any coordinate gives NaN; moderate finite ones a finite value. */
            if (nonfinite_in && !isnan(v)) {
                CHECK(0, "%s: point %zu has a non-finite coordinate but gives %.17g", what, i, v);
                break;
            }
            if (!nonfinite_in && tame_in && !isfinite(v)) {
                CHECK(0, "%s: point %zu has finite coordinates below 1e15 but gives %.17g", what, i, v);
                break;
            }
        }
    }

    for (int k = 0; k < nisas; k++) {
        cn_isa isa = isas[k];
        CHECK(cn_isa_set_cap(isa) == CN_OK, "cap %s", cn_isa_name(isa));
        CHECK(cn_isa_active() == isa, "cap %s: active %s", cn_isa_name(isa), cn_isa_name(cn_isa_active()));
        memset(got, TEST_SENTINEL, total * es);
        st = run_req(r, got + off * es, rgot, range);
        CHECK(st == CN_OK, "%s [%s]: batch gives %s", what, cn_isa_name(isa), cn_strerror(st));
        CHECK(guards_intact(got, off, n, f32), "%s [%s]: batch wrote outside its output", what, cn_isa_name(isa));
#ifdef CN_RELAXED
        const int exact = isa == CN_ISA_SCALAR; /* the scalar build stays strict */
        if (!exact)
            relaxed_compare(what, isa, r, ref + off * es, got + off * es, n, range);
#else
        const int exact = 1;
#endif
        size_t d = exact ? first_diff(ref + off * es, got + off * es, n, f32) : n;
        if (d < n) {
            double p[4];
            float pf[4];
            req_point(r, d, p, pf);
            CHECK(d == n, "%s [%s]: value %zu of %zu at (%.17g, %.17g, %.17g, %.17g) is %.17g, scalar %.17g", what,
                  cn_isa_name(isa), d, n, p[0], dims > 1 ? p[1] : 0.0, dims > 2 ? p[2] : 0.0, dims > 3 ? p[3] : 0.0,
                  elem(got + off * es, d, f32), elem(ref + off * es, d, f32));
        } else {
            cn_test_pass++;
        }
        CHECK(!exact || memcmp(rref, rgot, f32 ? 2 * sizeof(float) : 2 * sizeof(double)) == 0,
              "%s [%s]: range differs from the scalar build's", what, cn_isa_name(isa));
        n_values[isa] += n;
        n_calls[isa]++;
    }
    free(ref);
    free(got);
}

/* ---- point arrays ---- */

/* Points first .. first+n-1 of the pool, each coordinate array in its own allocation that ends
 * exactly where the array ends, starting 1..4 elements after the malloc'ed base. */
static void points_case(const cn_noise *g, const char *name, size_t first, size_t n, int f32)
{
    const int dims = cn_noise_config(g)->dims;
    const size_t es = f32 ? sizeof(float) : sizeof(double), off = 1 + n % 4;
    void *base[4] = {0};
    req r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.f32 = f32;
    r.n = n;
    for (int a = 0; a < dims; a++) {
        base[a] = test_xmalloc((off + n) * es);
        void *c = (char *)base[a] + off * es;
        if (n)
            memcpy(c, f32 ? (const void *)&poolf[a][first] : (const void *)&pool[a][first], n * es);
        r.coords[a] = c;
    }
    char what[200];
    snprintf(what, sizeof what, "%s: %s points [%zu, +%zu)", name, f32 ? "float" : "double", first, n);
    compare_all(what, &r, off);
    for (int a = 0; a < dims; a++)
        free(base[a]);
}

/* ---- grids ---- */

typedef struct grid_spec {
    const char *name;
    double origin[4], step[4];
    size_t count[4][4]; /* [dims - 1][axis] */
} grid_spec;

static const grid_spec GRIDS[] = {
    /* Float-exact coordinates, negative steps on two axes. */
    {"moderate", {-3.5, 2.25, -0.75, 7.0}, {0.3125, -0.4375, 0.5625, -0.1875},
     {{97}, {13, 11}, {7, 5, 6}, {5, 4, 3, 5}}},
    /* Across 2^52 (where doubles become whole numbers), near -2^40, 1e15, -4e9. */
    {"huge", {4503599627370496.0 - 40.0, -1099511627776.0 + 0.5, 1e15, -4e9}, {1.0, -0.75, 12345.5, -3.3e7},
     {{41}, {9, 5}, {5, 3, 4}, {3, 3, 3, 4}}},
    /* Through 0 from 1e300, from -1e306 up, 1.5e308 up to +Inf, -1e308 down to -Inf. */
    {"overflow", {1e300, -1e306, 1.5e308, -1e308}, {-1e299, 1e306, 1e307, -5e307},
     {{17}, {5, 3}, {3, 3, 4}, {2, 2, 4, 3}}},
    /* Fine, float-exact steps: many vectors share a lattice cell, so the batch kernels' cell
     * reuse (src/kernels/gradient.inc) runs against the point API's fresh evaluation. */
    {"fine", {-0.734375, 0.3125, -2.1875, 5.125}, {0.0078125, -0.015625, 0.03125, 0.0625},
     {{300}, {70, 9}, {40, 7, 5}, {17, 3, 3, 4}}},
    /* Near +-2^29, the bound under which simplex grid rows skip the large-coordinate reduction
     * (src/kernels/row.inc): rows wholly inside it next to rows that cross it. */
    {"edge", {-536870912.0 + 40.25, 536870911.5, -536870900.75, 536870000.125}, {-0.5, 0.25, -2.5, 3.25},
     {{70}, {64, 5}, {40, 3, 4}, {33, 2, 3, 3}}},
    /* Wider than one block of the grid rows' shared x table (src/kernels/entries.inc,
     * KN(rows_tab): at most 2048 columns at a time, fewer with more octaves), two or more rows,
     * a partial last vector: every block boundary and the rows' tails. Float-exact coordinates. */
    {"wide", {-70.25, 3.5, -1.25, 0.5}, {0.0625, -0.75, 0.375, 1.5}, {{40}, {2100, 2}, {2067, 1, 2}, {3, 2, 2, 2}}},
    /* All steps negative from the origin, tiny to large. */
    {"negative", {0.0, 0.0, 0.0, 0.0}, {-1e-3, -7.5, -100.25, -1.0}, {{33}, {6, 7}, {4, 3, 5}, {3, 2, 3, 4}}},
};

static void grid_case(const cn_noise *g, const char *name, const grid_spec *s, int f32)
{
    const int dims = cn_noise_config(g)->dims;
    req r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.f32 = f32;
    r.grid = 1;
    for (int a = 0; a < dims; a++) {
        r.origin[a] = s->origin[a];
        r.step[a] = s->step[a];
        r.count[a] = s->count[dims - 1][a];
    }
    char what[200];
    snprintf(what, sizeof what, "%s: %s grid %s", name, f32 ? "float" : "double", s->name);
    compare_all(what, &r, 1);
}

/* ---- configurations ---- */

static void run_config(const cn_config *cfg, const char *name)
{
    cn_noise g;
    cn_status st = cn_noise_build(&g, cfg);
    CHECK(st == CN_OK, "%s: build gives %s", name, cn_strerror(st));
    if (st != CN_OK)
        return;
    n_configs++;
    for (int f32 = 0; f32 < 2; f32++) {
        for (size_t k = 0; k < sizeof GRIDS / sizeof GRIDS[0]; k++)
            grid_case(&g, name, &GRIDS[k], f32);
        for (size_t n = 0; n <= MAXLEN; n++)
            points_case(&g, name, (n * 37 + n_configs * 11) % (POOL - MAXLEN), n, f32);
        for (size_t k = 0; k < sizeof LONG_LENGTHS / sizeof LONG_LENGTHS[0]; k++)
            points_case(&g, name, (n_configs * 101 + k * 7) % (POOL - LONG_LENGTHS[k]), LONG_LENGTHS[k], f32);
    }
}

static void run_configs(void)
{
    static const struct {
        cn_noise_type type;
        int dmin, dmax, classic;
        const char *name;
    } kinds[] = {{CN_NOISE_PERLIN, 1, 4, 1, "perlin"}, {CN_NOISE_SIMPLEX, 2, 4, 1, "simplex"},
                 {CN_NOISE_VALUE, 1, 4, 0, "value"}, {CN_NOISE_VALUE_CUBIC, 1, 4, 0, "value-cubic"},
                 {CN_NOISE_CELLULAR, 2, 4, 0, "cellular"}, {CN_NOISE_OPENSIMPLEX2, 2, 4, 0, "opensimplex2"},
                 {CN_NOISE_OPENSIMPLEX2S, 2, 4, 0, "opensimplex2s"}};
    static const char *const fractal_names[] = {"none", "fbm", "turbulence", "billow", "ridged", "pingpong", "erosion"};
    static const uint32_t periods[4] = {12, 36, 24, 48}; /* multiples of 2, 3 and 4 (simplex) */
    int counter = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int dims = kinds[k].dmin; dims <= kinds[k].dmax; dims++)
            for (int mode = 0; mode <= kinds[k].classic; mode++)
                for (int fr = CN_FRACTAL_NONE; fr <= CN_FRACTAL_EROSION; fr++)
                    for (int per = 0; per < 2; per++)
                        for (int tr = 0; tr < 2; tr++) {
                            if (fr == CN_FRACTAL_EROSION && kinds[k].type == CN_NOISE_CELLULAR)
                                continue; /* erosion needs a gradient */
                            if (per && (kinds[k].type == CN_NOISE_OPENSIMPLEX2 || kinds[k].type == CN_NOISE_OPENSIMPLEX2S) && dims == 3)
                                continue; /* no periods (a rotated lattice) */
                            cn_config c;
                            cn_config_init(&c);
                            c.frequency = 1.0; /* the frequency these cases were written for */
                            c.type = kinds[k].type;
                            c.mode = (cn_mode)mode;
                            c.dims = dims;
                            c.seed = counter % 3 == 0 ? 0 : 0x9E3779B97F4A7C15ull * (uint64_t)counter;
                            c.fractal = (cn_fractal)fr;
                            c.octaves = 3 + counter % 3;
                            /* cellular: every distance and return, jitter 1 (the widest search) or less */
                            c.cell_distance = (cn_cell_distance)(counter % 5);
                            c.cell_return = (cn_cell_return)(counter / 5 % 7);
                            c.minkowski_p = 1.0 + (double)(counter % 7) * 1.75;
                            if (c.cell_return == CN_CELL_EDGE) /* Euclidean only */
                                c.cell_distance = CN_CELL_EUCLIDEAN;
                            c.jitter = counter % 3 ? 1.0 : 0.6;
                            /* fractal shaping: a weighted strength on every third, ping-pong strengths */
                            c.weighted_strength = counter % 3 == 1 ? 0.65 : 0.0;
                            c.pingpong_strength = 1.0 + counter % 7;
                            counter++;
                            if (per)
                                for (int a = 0; a < dims; a++) /* one axis left free from 3D on */
                                    c.period[a] = dims >= 3 && a == 1 ? 0 : periods[a];
                            if (tr) {
                                /* The last axis' frequency makes 1e300 overflow (-> NaN). */
                                c.frequency = 1.25;
                                const double af[4] = {1.5, 0.75, 2.5, 1.75};
                                for (int a = 0; a < dims; a++) {
                                    c.axis_frequency[a] = a == dims - 1 ? 1e9 : af[a];
                                    c.offset[a] = (const double[]){0.3, -7.25, 1e3, 0.5}[a];
                                }
                                c.lacunarity = per ? 3.0 : 1.875;
                                c.gain = 0.6;
                                c.ridge_offset = 0.9;
                                c.ridge_gain = 2.5;
                                c.amplitude = -2.5;
                                c.bias = 0.75;
                                if (!per) {
                                    c.rotate = 1;
                                    for (int a = 0; a < dims; a++)
                                        for (int b = 0; b < dims; b++)
                                            c.rotation[a * dims + b] = a == b ? 0.8 : 0.3 * (a - b) + 0.1;
                                }
                            }
                            char name[160];
                            snprintf(name, sizeof name, "%s %dD %s %s%s%s seed %llu", kinds[k].name, dims,
                                     mode ? "classic" : "default", fractal_names[fr], per ? " periodic" : "",
                                     tr ? " transformed" : "", (unsigned long long)c.seed);
                            if ((counter - 1) % quick_step == 0)
                                run_config(&c, name);
                        }
}

/* The comparison itself tells bit patterns apart that == does not. */
static void test_comparator(void)
{
    double a[2] = {0.0, NAN}, b[2] = {-0.0, NAN}, c[2] = {0.0, NAN};
    CHECK(first_diff(a, b, 2, 0) == 0, "+0 and -0 compare equal");
    c[1] = copysign(NAN, -1.0);
    CHECK(first_diff(a, c, 2, 0) == 1, "NaN bit patterns are not compared");
    CHECK(first_diff(a, a, 2, 0) == 2, "a buffer differs from itself");
    float f[3] = {1.0f, 2.0f, 3.0f}, h[3] = {1.0f, 2.0f, 3.0f};
    h[2] = nextafterf(h[2], 4.0f);
    CHECK(first_diff(f, h, 3, 1) == 2, "one ulp is not seen");
}

/* test_isa [--quick] [ISA...]: compares the named instruction sets (default: every compiled and
 * supported one) with the scalar build, on every configuration or (--quick) on every QUICK_STEP-th
 * one. A named set that this build does not contain or this CPU does not run makes it exit with
 * TEST_SKIP, so that ctest shows it as skipped (tests/CMakeLists.txt registers one test per set). */
int main(int argc, char **argv)
{
    unsigned named = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick_step = QUICK_STEP;
            continue;
        }
        int k = 0;
        while (k < CN_ISA_COUNT && strcmp(argv[i], cn_isa_name((cn_isa)k)) != 0)
            k++;
        if (k == CN_ISA_COUNT) {
            fprintf(stderr, "usage: test_isa [--quick] [scalar|sse2|avx2|avx512|neon]...\n");
            return 2;
        }
        named |= 1u << k;
    }
    for (int i = 0; i < CN_ISA_COUNT; i++)
        if ((named >> i & 1) && !(cn_isa_compiled((cn_isa)i) && cn_isa_supported((cn_isa)i))) {
            printf("test_isa: %s is %s: skipped\n", cn_isa_name((cn_isa)i),
                   cn_isa_compiled((cn_isa)i) ? "not supported by this CPU" : "not compiled in this build");
            return TEST_SKIP;
        }
    /* The scalar build always (the reference, and itself once more), then the sets asked for. */
    for (int i = 0; i < CN_ISA_COUNT; i++)
        if (cn_isa_compiled((cn_isa)i) && cn_isa_supported((cn_isa)i) &&
            (i == CN_ISA_SCALAR || !named || (named >> i & 1)))
            isas[nisas++] = (cn_isa)i;
    CHECK(nisas >= 1 && isas[0] == CN_ISA_SCALAR, "the scalar build is not available");
    printf("test_isa: instruction sets tested:");
    for (int k = 0; k < nisas; k++)
        printf(" %s", cn_isa_name(isas[k]));
    printf("\ntest_isa: compiled but not supported by this CPU:");
    for (int i = 0; i < CN_ISA_COUNT; i++)
        if (cn_isa_compiled((cn_isa)i) && !cn_isa_supported((cn_isa)i))
            printf(" %s", cn_isa_name((cn_isa)i));
    printf("\n");

    test_comparator();
    make_pool();
    run_configs();
    cn_isa_set_cap(CN_ISA_COUNT);

    /* The inputs really reached both the NaN path and the noise. */
    const unsigned long long want_configs = (N_CONFIGS + quick_step - 1) / quick_step;
    CHECK(n_configs == want_configs, "%llu configurations built, want %llu", n_configs, want_configs);
    CHECK(n_nan_out > 0 && n_finite_out > 0, "outputs: %llu NaN, %llu finite", n_nan_out, n_finite_out);
    CHECK(n_plain > 0, "no point went through a plain generator's short entries");
    printf("test_isa: %llu configurations; %llu scalar batch values (%llu NaN) compared with cn_eval/cn_evalf "
           "(%llu through plain generators' short entries)\n", n_configs, n_point_api, n_nan_out, n_plain);
#ifdef CN_RELAXED
    for (int k = 1; k < nisas; k++)
        for (int f32 = 0; f32 < 2; f32++) {
            const cn_isa isa = isas[k];
            printf("test_isa: relaxed %-7s %s: %llu values compared, %llu not bit-identical; largest "
                   "difference / bound %.3g; largest difference where X <= 2^10 %.3g, in classic simplex 3D/4D %.3g\n",
                   cn_isa_name(isa), f32 ? "float " : "double", relaxed_n[isa][f32], relaxed_inexact[isa][f32],
                   relaxed_worst[isa][f32], relaxed_maxdiff[isa][f32], relaxed_maxjump[isa][f32]);
        }
#else
    for (int k = 0; k < nisas; k++)
        printf("test_isa: %-7s %llu values in %llu batch calls compared bit for bit with the scalar build\n",
               cn_isa_name(isas[k]), n_values[isas[k]], n_calls[isas[k]]);
#endif
    return test_summary("test_isa");
}
