/*
 * fuzz_batch.c -- the public library API with arbitrary configurations and coordinates.
 *
 * Input: bytes read in order (zeros once they run out): the instruction-set cap, every cn_config
 * field (enums and counts taken modulo slightly more than their valid range, so invalid values
 * occur too; reals either from a table of interesting values or raw bit patterns), then points,
 * a grid (origin, step, counts up to 6 per axis) and a thread count (1..3).
 * Checks (contracts from cnoise.h, not just "no crash"):
 *   - cn_noise_build and cn_config_check agree; an error is one of the cn_status values and has a
 *     description; a rejected configuration leaves the generator unusable (cn_eval gives NaN,
 *     the batch calls CN_E_UNBUILT);
 *   - built: cn_noise_range is finite with lo <= hi (equal for amplitude 0); at every point cn_eval / cn_evalf are NaN for
 *     non-finite coordinates, finite whenever the coordinates times every scale stay well inside
 *     the double range, and inside the documented range whenever not NaN;
 *   - cn_points_eval[f] and cn_grid_eval[f] (every instruction set the cap allows, 1..3 threads)
 *     give exactly the bits of cn_eval[f] at the same points (grid points are origin + i * step),
 *     and their range[] outputs are the smallest and largest non-NaN values;
 *   - cn_layers_eval of the generator with a weight equals weight * cn_eval.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cnoise.h"
#include "fuzz.h"

#define NPTS 24
#define GRID_MAX 6

static const double interesting[] = {0.0,     -0.0,     1.0,     -1.0,   0.5,      2.0,   3.0,     1e-300, 4.9e-324,
                                     1e300,   -1e300,   1e15,    -1e15,  4503599627370496.0 /* 2^52 */,
                                     9007199254740993.0, 4294967296.0, -4294967296.5, 65536.25, 0.999999999999,
                                     64.0,    65.0,     4.0,     4.0000001, 16777216.0, 1e-9,  NAN,   INFINITY,
                                     -INFINITY, DBL_MAX, -DBL_MAX, 1.7976931348623157e308 / 3, 123.456};
#define NINTERESTING (sizeof interesting / sizeof interesting[0])

/* A real: 3 in 4 times a small value (k / 16 - 8 ... ), else from the table or raw bits. */
static double real(fuzz_reader *r)
{
    unsigned sel = fuzz_u8(r);
    switch (sel & 3) {
    case 0:
    case 1:
        return ((int)fuzz_u8(r) - 128) / 16.0 + (sel >> 2);
    case 2:
        return interesting[(sel >> 2) % NINTERESTING];
    default:
        return fuzz_f64_bits(r);
    }
}

static int same_bits_d(double a, double b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0; }
static int same_bits_f(float a, float b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0; }

/* The largest magnitude a scaled coordinate can take, conservatively: |p| times every factor. */
static double scaled_bound(const cn_config *c, const double *p)
{
    double pmax = 0;
    double fmax = 0;
    for (int a = 0; a < c->dims; a++) {
        pmax = fabs(p[a]) > pmax ? fabs(p[a]) : pmax;
        fmax = c->axis_frequency[a] > fmax ? c->axis_frequency[a] : fmax;
    }
    double rot = 1;
    if (c->rotate) {
        rot = 0;
        for (int i = 0; i < c->dims * c->dims; i++)
            rot += fabs(c->rotation[i]);
    }
    double off = 0;
    for (int a = 0; a < c->dims; a++)
        off += fabs(c->offset[a]);
    double lac = c->fractal == CN_FRACTAL_NONE ? 1 : pow(c->lacunarity, c->octaves - 1);
    return (pmax * c->frequency * fmax * rot * c->dims + off) * lac;
}

static void check_value(const cn_noise *g, const double *p, double v, const double range[2], int is_float)
{
    int finite_in = 1;
    for (int a = 0; a < cn_noise_config(g)->dims; a++)
        finite_in &= isfinite(p[a]) != 0;
    if (!finite_in) {
        FUZZ_CHECK(isnan(v), "non-finite coordinate gave %g", v);
        return;
    }
    /* A float result may overflow to +-Inf when amplitude and bias reach beyond the float range. */
    int fits = !is_float || (fabs(range[0]) <= FLT_MAX / 2 && fabs(range[1]) <= FLT_MAX / 2);
    if (fits && scaled_bound(cn_noise_config(g), p) < 1e290)
        FUZZ_CHECK(!isnan(v) && isfinite(v), "finite coordinates (first %.17g) gave %g (float %d)", p[0], v,
                   is_float);
    if (!isnan(v) && (fits || isfinite(v))) {
        double tol = (is_float ? 1e-6 : 1e-12) * (fabs(range[0]) + fabs(range[1])) + (is_float ? FLT_MIN : 1e-300);
        FUZZ_CHECK(v >= range[0] - tol && v <= range[1] + tol, "value %.17g outside [%.17g, %.17g] (float %d)", v,
                   range[0], range[1], is_float);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader rd = {data, size};
    fuzz_reader *r = &rd;

    cn_isa cap = (cn_isa)(fuzz_u8(r) % (CN_ISA_COUNT + 1));
    FUZZ_CHECK(cn_isa_set_cap(cap) == CN_OK, "cap %d", (int)cap);

    cn_config c;
    cn_config_init(&c);
    c.frequency = 1.0; /* the frequency these cases were written for */
    c.type = (cn_noise_type)(fuzz_u8(r) % 4);
    c.mode = (cn_mode)(fuzz_u8(r) % 3 == 2 ? 1 : 0);
    c.dims = (int)(fuzz_u8(r) % 6);
    c.seed = fuzz_u64(r);
    unsigned flags = fuzz_u8(r);
    if (flags & 1)
        c.frequency = real(r);
    else
        c.frequency = 1.0 / (1 + fuzz_u8(r) % 32);
    if (flags & 2)
        for (int a = 0; a < 4; a++)
            c.axis_frequency[a] = real(r);
    if (flags & 4)
        for (int a = 0; a < 4; a++)
            c.offset[a] = real(r);
    if (flags & 8) {
        c.rotate = 1;
        for (int i = 0; i < 16; i++)
            c.rotation[i] = real(r);
    }
    if (flags & 16) {
        c.fractal = (cn_fractal)(fuzz_u8(r) % 6);
        c.octaves = (int)(fuzz_u8(r) % 34);
        c.lacunarity = (fuzz_u8(r) & 1) ? real(r) : 2.0;
        c.gain = (fuzz_u8(r) & 1) ? real(r) : 0.5;
        if (c.fractal == CN_FRACTAL_RIDGED && (fuzz_u8(r) & 1)) {
            c.ridge_offset = real(r);
            c.ridge_gain = real(r);
        }
    }
    if (flags & 32)
        for (int a = 0; a < 4; a++) {
            unsigned k = fuzz_u8(r);
            c.period[a] = (k & 128) ? fuzz_u32(r) : k;
        }
    if (flags & 64) {
        c.amplitude = real(r);
        c.bias = real(r);
    }

    cn_noise g;
    memset(&g, 0xa5, sizeof g);
    cn_status st = cn_noise_build(&g, &c);
    FUZZ_CHECK(st == cn_config_check(&c), "build %d, check %d", (int)st, (int)cn_config_check(&c));
    FUZZ_CHECK(st >= CN_OK && st <= CN_E_UNBUILT, "status %d", (int)st);
    FUZZ_CHECK(cn_strerror(st) != NULL && cn_strerror(st)[0] != '\0', "no text for %d", (int)st);
    double pt[4] = {0.5, 0.5, 0.5, 0.5};
    if (st != CN_OK) {
        FUZZ_CHECK(isnan(cn_eval(&g, pt)), "a rejected generator evaluated");
        double out[1] = {42};
        size_t one[4] = {1, 1, 1, 1};
        const double step[4] = {1, 1, 1, 1};
        FUZZ_CHECK(cn_grid_eval(&g, pt, step, one, out, 1, 1, NULL) == CN_E_UNBUILT, "grid on a rejected generator");
        FUZZ_CHECK(out[0] == 42, "output written on error");
        return 0;
    }
    const int dims = c.dims;
    double range[2];
    FUZZ_CHECK(cn_noise_range(&g, range) == CN_OK, "range");
    FUZZ_CHECK(isfinite(range[0]) && isfinite(range[1]) && range[0] <= range[1], "range [%g, %g]", range[0],
               range[1]);
    /* Classic simplex is documented to stay inside; classic Perlin 4D inside its bound. */

    /* Points. */
    unsigned npts = fuzz_u8(r) % (NPTS + 1);
    int threads = 1 + (int)(fuzz_u8(r) % 3);
    double xs[4][NPTS], ref[NPTS], got[NPTS];
    float xf[4][NPTS], reff[NPTS], gotf[NPTS];
    for (unsigned i = 0; i < npts; i++)
        for (int a = 0; a < dims; a++) {
            xs[a][i] = real(r);
            xf[a][i] = (float)xs[a][i];
        }
    for (unsigned i = 0; i < npts; i++) {
        double p[4];
        float pf[4];
        for (int a = 0; a < dims; a++) {
            p[a] = xs[a][i];
            pf[a] = xf[a][i];
        }
        ref[i] = cn_eval(&g, p);
        check_value(&g, p, ref[i], range, 0);
        reff[i] = cn_evalf(&g, pf);
        double pw[4];
        for (int a = 0; a < dims; a++)
            pw[a] = pf[a];
        check_value(&g, pw, reff[i], range, 1);
        cn_layer layer = {&g, -0.75};
        double sum = 0; /* a sum starts at +0: -0.75 * 0 adds up to +0, equal to -0 */
        FUZZ_CHECK(cn_layers_eval(&layer, 1, p, &sum) == CN_OK, "layers");
        FUZZ_CHECK(sum == -0.75 * ref[i] || (isnan(sum) && isnan(ref[i])), "layer sum %.17g vs %.17g",
                   sum, -0.75 * ref[i]);
    }
    const double *cp[4] = {xs[0], xs[1], xs[2], xs[3]};
    const float *cpf[4] = {xf[0], xf[1], xf[2], xf[3]};
    double pr[2];
    float prf[2];
    FUZZ_CHECK(cn_points_eval(&g, npts, cp, got, threads, pr) == CN_OK, "points");
    FUZZ_CHECK(cn_points_evalf(&g, npts, cpf, gotf, threads, prf) == CN_OK, "points f");
    double mn = NAN, mx = NAN;
    float mnf = NAN, mxf = NAN;
    for (unsigned i = 0; i < npts; i++) {
        FUZZ_CHECK(same_bits_d(got[i], ref[i]), "point %u: batch %.17g, single %.17g (isa %s)", i, got[i], ref[i],
                   cn_isa_name(cn_isa_active()));
        FUZZ_CHECK(same_bits_f(gotf[i], reff[i]), "point %u: batch f %.9g, single %.9g (isa %s)", i,
                   (double)gotf[i], (double)reff[i], cn_isa_name(cn_isa_active()));
        if (!isnan(ref[i])) {
            mn = isnan(mn) || ref[i] < mn ? ref[i] : mn;
            mx = isnan(mx) || ref[i] > mx ? ref[i] : mx;
        }
        if (!isnan(reff[i])) {
            mnf = isnan(mnf) || reff[i] < mnf ? reff[i] : mnf;
            mxf = isnan(mxf) || reff[i] > mxf ? reff[i] : mxf;
        }
    }
    if (npts) {
        FUZZ_CHECK(same_bits_d(pr[0], mn) && same_bits_d(pr[1], mx), "points range");
        FUZZ_CHECK(same_bits_f(prf[0], mnf) && same_bits_f(prf[1], mxf), "points range f");
    }

    /* A grid. */
    double origin[4], step[4];
    size_t count[4] = {1, 1, 1, 1}, total = 1;
    for (int a = 0; a < dims; a++) {
        origin[a] = real(r);
        step[a] = real(r);
        count[a] = 1 + fuzz_u8(r) % GRID_MAX;
        total *= count[a];
    }
    double *gv = malloc(total * sizeof *gv);
    float *gvf = malloc(total * sizeof *gvf);
    if (!gv || !gvf)
        abort();
    double grange[2];
    float grangef[2];
    cn_status gs = cn_grid_eval(&g, origin, step, count, gv, total, threads, grange);
    cn_status gsf = cn_grid_evalf(&g, origin, step, count, gvf, total, threads, grangef);
    int finite_grid = 1;
    for (int a = 0; a < dims; a++)
        finite_grid &= isfinite(origin[a]) && isfinite(step[a]);
    FUZZ_CHECK(gs == gsf, "grid %d, grid f %d", (int)gs, (int)gsf);
    FUZZ_CHECK(gs == (finite_grid ? CN_OK : CN_E_RANGE), "grid status %d", (int)gs);
    if (gs == CN_OK) {
        mn = mx = NAN;
        for (size_t k = 0; k < total; k++) {
            size_t rest = k;
            double p[4];
            for (int a = 0; a < dims; a++) {
                size_t ia = rest % count[a];
                rest /= count[a];
                p[a] = origin[a] + (double)ia * step[a];
            }
            double v = cn_eval(&g, p);
            FUZZ_CHECK(same_bits_d(gv[k], v), "grid %zu: %.17g vs %.17g (isa %s)", k, gv[k], v,
                       cn_isa_name(cn_isa_active()));
            check_value(&g, p, v, range, 0);
            /* The float grid runs the float kernels on these double coordinates: where they are
             * floats already, that is exactly cn_evalf. */
            float pf[4];
            int exact = 1;
            for (int a = 0; a < dims; a++) {
                pf[a] = (float)p[a];
                exact &= (double)pf[a] == p[a];
            }
            if (exact)
                FUZZ_CHECK(same_bits_f(gvf[k], cn_evalf(&g, pf)), "grid f %zu: %.9g vs %.9g (isa %s)", k,
                           (double)gvf[k], (double)cn_evalf(&g, pf), cn_isa_name(cn_isa_active()));
            if (!isnan(v)) {
                mn = isnan(mn) || v < mn ? v : mn;
                mx = isnan(mx) || v > mx ? v : mx;
            }
        }
        FUZZ_CHECK(same_bits_d(grange[0], mn) && same_bits_d(grange[1], mx), "grid range");
    }
    free(gv);
    free(gvf);
    return 0;
}
