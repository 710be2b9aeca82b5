/*
 * field.c -- strips of noise through the batch engine, the documented range, --tile (field.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "field.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cnoise.h"

/* --- evaluation ------------------------------------------------------------------------------ */

void cli_field_init(cli_field *f, const cli_built *b, int threads, double z, double w, float zf, float wf)
{
    memset(f, 0, sizeof *f);
    f->b = b;
    f->threads = threads;
    f->cl = b->cl;
    f->z = z;
    f->w = w;
    f->zf = (double)zf;
    f->wf = (double)wf;
}

void cli_field_free(cli_field *f)
{
    free(f->tmpf);
    f->tmpf = NULL;
    f->cap = 0;
    free(f->gs);
    f->gs = NULL;
    f->gcap = 0;
}

int cli_device_open(const char *prog, int device, cli_built *b)
{
    b->cl = NULL;
    if (device == CLI_DEVICE_CPU)
        return CLI_EXIT_OK;
    const char *name = device == CLI_DEVICE_GPU ? "gpu" : "opencl";
    if (!b->direct || b->nwarps) {
        if (device == CLI_DEVICE_AUTO)
            return CLI_EXIT_OK;
        cli_error(prog, "--device %s: %s on the CPU only; use --device cpu or auto", name,
                  b->nwarps ? "warped noise (--warp) is evaluated" : "sums of layers (--layer, --weight) are evaluated");
        return CLI_EXIT_USAGE;
    }
    char why[512] = "";
    cn_status st = cn_opencl_open(&b->cl, device == CLI_DEVICE_OPENCL ? CN_OPENCL_ANY : CN_OPENCL_GPU, why, sizeof why);
    if (st == CN_OK || device == CLI_DEVICE_AUTO)
        return CLI_EXIT_OK; /* auto without a GPU: the CPU */
    cli_error(prog, "--device %s: %s", name, why);
    return CLI_EXIT_FAILURE;
}

static int reserve(cli_field *f, size_t n, char *err, size_t errlen)
{
    if (n <= f->cap)
        return 0;
    free(f->tmpf);
    f->tmpf = NULL;
    f->cap = 0;
    if (n > SIZE_MAX / sizeof(double)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    f->tmpf = (float *)malloc(n * sizeof(float));
    if (!f->tmpf) {
        cli_field_free(f);
        snprintf(err, errlen, "out of memory (%zu-pixel strip)", n);
        return -1;
    }
    f->cap = n;
    return 0;
}

/* One layer over the grid into out (doubles; float results widened). */
static int eval_layer(cli_field *f, const cn_noise *gen, const double *origin, const double *step,
                      const size_t *count, size_t n, double *out, char *err, size_t errlen)
{
    cn_status st;
    if (f->b->use_float) {
        st = f->cl ? cn_opencl_grid_evalf(f->cl, gen, origin, step, count, f->tmpf, n, NULL)
                   : cn_grid_evalf(gen, origin, step, count, f->tmpf, n, f->threads, NULL);
        if (st == CN_OK)
            for (size_t i = 0; i < n; i++)
                out[i] = (double)f->tmpf[i];
    } else {
        st = f->cl ? cn_opencl_grid_eval(f->cl, gen, origin, step, count, out, n, NULL)
                   : cn_grid_eval(gen, origin, step, count, out, n, f->threads, NULL);
    }
    if (st != CN_OK) {
        const char *why = f->cl ? cn_opencl_message(f->cl) : "";
        snprintf(err, errlen, "evaluating the noise: %s%s%s", cn_strerror(st), why[0] ? ": " : "", why);
        return -1;
    }
    return 0;
}

/* The warped grid into out, as cli_built_eval gives it point by point: one layer of weight 1 by
 * cn_warp_grid_eval(f), layers by cn_warp_layers_grid_eval(f). */
static int eval_warped(cli_field *f, const double *origin, const double *step, const size_t *count, size_t n,
                       double *out, char *err, size_t errlen)
{
    const cli_built *b = f->b;
    const size_t nl = (size_t)b->count;
    cn_status st;
    if (b->use_float)
        st = b->direct ? cn_warp_grid_evalf(&b->gen[0], b->warp, b->nwarps, origin, step, count, f->tmpf, NULL, n,
                                            f->threads, NULL)
                       : cn_warp_layers_grid_evalf(b->layer, nl, b->warp, b->nwarps, origin, step, count, f->tmpf,
                                                   NULL, n, f->threads, NULL);
    else
        st = b->direct ? cn_warp_grid_eval(&b->gen[0], b->warp, b->nwarps, origin, step, count, out, NULL, n,
                                           f->threads, NULL)
                       : cn_warp_layers_grid_eval(b->layer, nl, b->warp, b->nwarps, origin, step, count, out, NULL,
                                                  n, f->threads, NULL);
    if (st != CN_OK) {
        snprintf(err, errlen, "evaluating the noise: %s", cn_strerror(st));
        return -1;
    }
    for (size_t i = 0; b->use_float && i < n; i++)
        out[i] = (double)f->tmpf[i];
    return 0;
}

int cli_field_eval(cli_field *f, double x0, double y0, size_t ncols, size_t nrows, double *out, char *err,
                   size_t errlen)
{
    const cli_built *b = f->b;
    const int dims = b->dims;
    /* 1D noise: one row, copied. */
    const size_t erows = dims == 1 ? 1 : nrows;
    if (ncols == 0 || nrows == 0)
        return 0;
    if (erows > SIZE_MAX / ncols) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const size_t n = ncols * erows;
    const double origin[4] = {x0, y0, b->use_float ? f->zf : f->z, b->use_float ? f->wf : f->w};
    const double step[4] = {1.0, 1.0, 1.0, 1.0};
    const size_t count[4] = {ncols, erows, 1, 1};
    if (b->nwarps) {
        if (reserve(f, n, err, errlen) != 0 || eval_warped(f, origin, step, count, n, out, err, errlen) != 0)
            return -1;
    } else if (b->direct) {
        if (b->use_float && reserve(f, n, err, errlen) != 0)
            return -1;
        if (eval_layer(f, &b->gen[0], origin, step, count, n, out, err, errlen) != 0)
            return -1;
    } else {
        /* The library's superposition, as cli_built_eval (float: rounded to float, widened). */
        cn_status st;
        if (b->use_float) {
            if (reserve(f, n, err, errlen) != 0)
                return -1;
            st = cn_layers_grid_evalf(b->layer, (size_t)b->count, origin, step, count, f->tmpf, n, f->threads, NULL);
            for (size_t i = 0; st == CN_OK && i < n; i++)
                out[i] = (double)f->tmpf[i];
        } else {
            st = cn_layers_grid_eval(b->layer, (size_t)b->count, origin, step, count, out, n, f->threads, NULL);
        }
        if (st != CN_OK) {
            snprintf(err, errlen, "evaluating the noise: %s", cn_strerror(st));
            return -1;
        }
    }
    for (size_t r = erows; r < nrows; r++)
        memcpy(out + r * ncols, out, ncols * sizeof *out);
    return 0;
}

/* v rounded to float, widened; beyond the float range kept as it is (a conversion out of range
 * is undefined in C). */
static double round_f32(double v)
{
    return fabs(v) <= FLT_MAX ? (double)(float)v : v;
}

/* The gradient evaluation's scratch: at least bytes bytes at f->gs. */
static int reserve_grad(cli_field *f, size_t bytes, char *err, size_t errlen)
{
    if (bytes <= f->gcap)
        return 0;
    free(f->gs);
    f->gcap = 0;
    f->gs = malloc(bytes);
    if (!f->gs) {
        snprintf(err, errlen, "out of memory (a strip's gradient: %zu bytes)", bytes);
        return -1;
    }
    f->gcap = bytes;
    return 0;
}

int cli_field_eval_grad(cli_field *f, double x0, double y0, size_t ncols, size_t nrows, double *out, double *gx,
                        double *gy, char *err, size_t errlen)
{
    const cli_built *b = f->b;
    const int dims = b->dims, fl = b->use_float, layers = !b->nwarps && !b->direct;
    const size_t erows = dims == 1 ? 1 : nrows, nl = (size_t)b->count;
    if (ncols == 0 || nrows == 0)
        return 0;
    /* scratch: a layer's value and components in double (layers) or float (float precision),
     * else the components on z and w only */
    const size_t per = fl ? sizeof(float) : sizeof(double), arrays = layers || fl ? (size_t)dims + 1 : 2;
    if (erows > SIZE_MAX / ncols / per / 5) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const size_t n = ncols * erows;
    if (reserve_grad(f, n * per * arrays, err, errlen) != 0)
        return -1;
    double *gd[5];
    float *gf[5];
    for (size_t a = 0; a < arrays; a++) {
        gd[a] = (double *)f->gs + a * n;
        gf[a] = (float *)f->gs + a * n;
    }
    const double origin[4] = {x0, y0, fl ? f->zf : f->z, fl ? f->wf : f->w};
    const double step[4] = {1.0, 1.0, 1.0, 1.0};
    const size_t count[4] = {ncols, erows, 1, 1};
    /* where the library writes: value and x, y components straight to out, gx, gy in double */
    double *g[4] = {gx, dims >= 2 ? gy : NULL, gd[0], gd[1]};
    cn_status st = CN_OK;
    if (!layers && fl) {
        float *vf = gf[dims];
        st = !b->nwarps ? cn_grid_evalf_grad(&b->gen[0], origin, step, count, vf, gf, n, f->threads)
             : b->direct ? cn_warp_grid_evalf(&b->gen[0], b->warp, b->nwarps, origin, step, count, vf, gf, n,
                                              f->threads, NULL)
                         : cn_warp_layers_grid_evalf(b->layer, nl, b->warp, b->nwarps, origin, step, count, vf, gf,
                                                     n, f->threads, NULL);
        for (size_t i = 0; st == CN_OK && i < n; i++) {
            out[i] = (double)vf[i];
            gx[i] = (double)gf[0][i];
            gy[i] = dims >= 2 ? (double)gf[1][i] : 0.0;
        }
    } else if (!layers) {
        st = !b->nwarps ? cn_grid_eval_grad(&b->gen[0], origin, step, count, out, g, n, f->threads)
             : b->direct ? cn_warp_grid_eval(&b->gen[0], b->warp, b->nwarps, origin, step, count, out, g, n,
                                             f->threads, NULL)
                         : cn_warp_layers_grid_eval(b->layer, nl, b->warp, b->nwarps, origin, step, count, out, g, n,
                                                    f->threads, NULL);
        for (size_t i = 0; dims == 1 && i < n; i++)
            gy[i] = 0.0;
    } else {
        /* the library's sum for the values; the gradient summed here into gx, gy */
        if (cli_field_eval(f, x0, y0, ncols, erows, out, err, errlen) != 0)
            return -1;
        for (size_t i = 0; i < n; i++)
            gx[i] = gy[i] = 0.0;
        for (size_t k = 0; k < nl && st == CN_OK; k++) {
            const double wk = b->layer[k].weight;
            if (fl) {
                st = cn_grid_evalf_grad(&b->gen[k], origin, step, count, gf[dims], gf, n, f->threads);
                for (size_t i = 0; st == CN_OK && i < n; i++) {
                    gx[i] += wk * (double)gf[0][i];
                    if (dims >= 2)
                        gy[i] += wk * (double)gf[1][i];
                }
            } else {
                st = cn_grid_eval_grad(&b->gen[k], origin, step, count, gd[dims], gd, n, f->threads);
                for (size_t i = 0; st == CN_OK && i < n; i++) {
                    gx[i] += wk * gd[0][i];
                    if (dims >= 2)
                        gy[i] += wk * gd[1][i];
                }
            }
        }
        for (size_t i = 0; fl && st == CN_OK && i < n; i++) {
            gx[i] = round_f32(gx[i]);
            gy[i] = round_f32(gy[i]);
        }
    }
    if (st != CN_OK) {
        snprintf(err, errlen, "evaluating the noise's gradient: %s", cn_strerror(st));
        return -1;
    }
    for (size_t r = erows; r < nrows; r++) {
        memcpy(out + r * ncols, out, ncols * sizeof *out);
        memcpy(gx + r * ncols, gx, ncols * sizeof *gx);
        memcpy(gy + r * ncols, gy, ncols * sizeof *gy);
    }
    return 0;
}

/* t beyond [0, 1] by less than this is rounding, not clipping. */
#define CLIP_TOLERANCE 1e-12

double cli_range_t(double v, double mid, double half, uint64_t *clipped)
{
    double t;
    if (half > 0)
        t = ((v - mid) / half + 1.0) / 2.0;
    else
        t = v < mid ? 0.0 : v > mid ? 1.0 : 0.5;
    if (t < -CLIP_TOLERANCE || t > 1.0 + CLIP_TOLERANCE || (!(half > 0) && v != mid))
        (*clipped)++;
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

uint8_t cli_gray(double v, double mid, double half, uint64_t *clipped)
{
    return (uint8_t)round(cli_range_t(v, mid, half, clipped) * 255.0);
}

void cli_note_clipped(const char *prog, uint64_t clipped, uint64_t total, const char *what, double lo,
                      double hi, const char *hint)
{
    if (!clipped)
        return;
    char a[40], b[40];
    fprintf(stderr, "%s: note: %llu of %llu %s (%.3g%%) were outside the range [%s, %s] and were clipped to it%s\n",
            prog, (unsigned long long)clipped, (unsigned long long)total, what,
            100.0 * (double)clipped / (double)total, cli_fmt_real(lo, a, sizeof a), cli_fmt_real(hi, b, sizeof b),
            hint);
}

int cli_field_range(const cli_built *b, double *mid, double *half)
{
    double m = 0, h = 0;
    for (int k = 0; k < b->count; k++) {
        double r[2];
        if (cn_noise_range(&b->gen[k], r) != CN_OK)
            return -1;
        double w = b->layer[k].weight;
        m += w * ((r[0] + r[1]) * 0.5);
        h += fabs(w) * ((r[1] - r[0]) * 0.5);
    }
    if (!isfinite(m) || !isfinite(h))
        return -1;
    *mid = m;
    *half = h;
    return 0;
}

/* --- --tile and coordinate overflow ------------------------------------------------------------ */

static char axis_name_of(int a) { return "xyzw"[a]; }

#define PERIOD_TOLERANCE 1e-9 /* relative distance of the cell count from a whole number */

/* c cells: whole within the tolerance, 1..2^24 and a multiple of step? Then *n is the count. */
static int whole_cells(double c, uint32_t step, uint32_t *n)
{
    double r = round(c);
    if (!(r >= 1.0) || r > (double)CN_MAX_PERIOD || fabs(c - r) > PERIOD_TOLERANCE * c)
        return 0;
    if ((uint32_t)r % step != 0)
        return 0;
    *n = (uint32_t)r;
    return 1;
}

static double axis_frequency(const cli_spec *s, int a)
{
    return a < s->n_axis_frequency ? s->axis_frequency[a] : 1.0;
}

double cli_period_cells(const cli_spec *s, const cli_period_ask *q, int ai, double x)
{
    const double af = axis_frequency(s, q->axis[ai]);
    return q->x_is_frequency ? q->length[ai] * x * af : q->length[ai] * x * s->cfg.frequency * af;
}

/* The quantity of layer s now. */
static double quantity(const cli_spec *s, const cli_period_ask *q)
{
    return q->x_is_frequency ? s->cfg.frequency : q->x;
}

/* Does x give every layer a valid count along every axis? */
static int works(const cli_spec *spec, int n, const cli_period_ask *q, double x)
{
    if (!(x > 0) || !isfinite(x))
        return 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < q->naxes; i++) {
            uint32_t dummy;
            if (!whole_cells(cli_period_cells(&spec[k], q, i, x), cn_period_multiple(spec[k].cfg.type, q->dims),
                             &dummy))
                return 0;
        }
    return 1;
}

cli_period_status cli_period_solve(cli_spec *spec, int n, const cli_period_ask *q, cli_period_why *why)
{
    uint32_t count[CLI_MAX_LAYERS][2];
    memset(why, 0, sizeof *why);
    why->layer = -1;
    for (int k = 0; k < n; k++) {
        const cli_spec *s = &spec[k];
        if (s->n_rotate) {
            why->layer = k;
            return CLI_PERIOD_ROTATED;
        }
        for (int i = 0; i < q->naxes; i++)
            if (q->axis[i] < s->n_period && s->period[q->axis[i]]) {
                why->layer = k;
                why->ai = i;
                return CLI_PERIOD_GIVEN;
            }
        const uint32_t step = cn_period_multiple(s->cfg.type, q->dims);
        for (int i = 0; i < q->naxes && why->layer < 0; i++) {
            const double c = cli_period_cells(s, q, i, quantity(s, q));
            if (!whole_cells(c, step, &count[k][i])) {
                /* the first bad count; the later layers are still checked for the errors above */
                why->layer = k;
                why->ai = i;
                why->cells = c;
                why->step = step;
            }
        }
    }
    if (why->layer < 0) {
        for (int k = 0; k < n; k++)
            for (int i = 0; i < q->naxes; i++) {
                cli_spec *s = &spec[k];
                const int a = q->axis[i];
                for (int b = s->n_period; b < a; b++)
                    s->period[b] = 0;
                s->period[a] = count[k][i];
                if (s->n_period < a + 1)
                    s->n_period = a + 1;
            }
        return CLI_PERIOD_SET;
    }

    /* A quantity that works: n cells at the bad layer and axis, n a valid count near the present
     * one (n0, n0 + step, n0 - step, n0 + 2 step, ...), such that every count is valid. */
    const cli_spec *sb = &spec[why->layer];
    const uint32_t step = why->step, maxn = CN_MAX_PERIOD / step * step;
    const double unit = cli_period_cells(sb, q, why->ai, 1.0); /* cells per unit of the quantity */
    double n0 = round(why->cells / step) * step;
    if (n0 < step)
        n0 = step;
    if (q->start_in_limit && n0 > maxn)
        n0 = maxn;
    why->start = n0;
    for (int t = 0; t < 8192 && !why->found; t++) {
        double c = n0 + (double)((t + 1) / 2) * step * (t % 2 ? 1 : -1);
        if (c < step || c > maxn)
            continue;
        if (works(spec, n, q, c / unit)) {
            why->found = c / unit;
            why->found_n = c;
        }
    }
    return CLI_PERIOD_CELLS;
}

/*
 * Sets the x (and y) periods of layer k so that the image repeats after W (and H) pixels, or
 * reports why it cannot and suggests a frequency. Returns 0 or -1.
 */
uint32_t cli_tile_length(uint32_t side)
{
    const uint32_t m = side - 1u;
    return side >= 3u && (m & (m - 1u)) == 0 ? m : side;
}

int cli_tile_layer(const char *prog, cli_spec *s, int k, int dims, uint32_t width, uint32_t height)
{
    char pre[32] = "", freq_name[48], fa[40], fb[40];
    width = cli_tile_length(width);
    height = cli_tile_length(height);
    const cli_period_ask q = {.dims = dims, .naxes = dims >= 2 ? 2 : 1, .axis = {0, 1},
                              .length = {(double)width, (double)height}, .x_is_frequency = 1, .start_in_limit = 1};
    cli_period_why why;
    const cli_period_status st = cli_period_solve(s, 1, &q, &why);
    if (st == CLI_PERIOD_SET)
        return 0;
    if (k > 0)
        snprintf(pre, sizeof pre, " --layer %d:", k);
    else if (k < 0)
        snprintf(pre, sizeof pre, " the warp's fields:");
    if (st == CLI_PERIOD_ROTATED) {
        cli_error(prog, "--tile:%s cannot be combined with %s (a rotated lattice does not tile along the image)",
                  pre, k ? "rotate" : "--rotate");
        return -1;
    }
    if (st == CLI_PERIOD_GIVEN) {
        cli_error(prog,
                  "--tile:%s sets the x and y periods itself; give --period only for the slice axes, "
                  "with 0 for x and y (e.g. --period 0,0,6)",
                  pre);
        return -1;
    }

    /* Why not, then a frequency that works on every axis. */
    const int bad = why.ai;
    const uint32_t step = why.step;
    const double c = why.cells, af = axis_frequency(s, bad);
    const char *reason;
    char whybuf[96];
    if (c > (double)CN_MAX_PERIOD)
        reason = "more than the period limit of 16777216 (2^24) cells";
    else if (round(c) < 1.0 && fabs(c - 1.0) > PERIOD_TOLERANCE)
        reason = "less than one cell";
    else if (fabs(c - round(c)) > PERIOD_TOLERANCE * c)
        reason = "not a whole number";
    else {
        snprintf(whybuf, sizeof whybuf, "not a multiple of %lu, as %s noise in %dD needs",
                 (unsigned long)step, cn_noise_type_name(s->cfg.type), dims);
        reason = whybuf;
    }
    snprintf(freq_name, sizeof freq_name, "%s", k > 0 ? "frequency=" : k < 0 ? "--warp-frequency " : "--frequency ");
    char head[256];
    snprintf(head, sizeof head, "--tile:%s along %c, %lu pixels * frequency %s * axis-frequency %s = %.12g cell%s is %s",
             pre, axis_name_of(bad), (unsigned long)(bad ? height : width), cli_fmt_real(s->cfg.frequency, fa, sizeof fa),
             cli_fmt_real(af, fb, sizeof fb), c, c == 1.0 ? "" : "s", reason);
    if (why.found > 0) {
        char fs[40];
        cli_fmt_real(why.found, fs, sizeof fs);
        if (q.naxes == 2) {
            double other = cli_period_cells(s, &q, 1 - bad, why.found);
            cli_error(prog, "%s; e.g. %s%s%s%s gives %.0f cells along %c and %.0f along %c", head, freq_name, fs,
                      k > 0 ? " in this --layer" : "", "", why.found_n, axis_name_of(bad), round(other),
                      axis_name_of(1 - bad));
        } else {
            cli_error(prog, "%s; e.g. %s%s%s gives %.0f cells", head, freq_name, fs, k > 0 ? " in this --layer" : "",
                      why.found_n);
        }
    } else {
        char fs[40];
        cli_fmt_real(why.start / cli_period_cells(s, &q, bad, 1.0), fs, sizeof fs);
        cli_error(prog,
                  "%s; no frequency near it tiles both axes: change --size or --axis-frequency (%s%s gives %.0f "
                  "cells along %c)",
                  head, freq_name, fs, why.start, axis_name_of(bad));
    }
    return -1;
}

int cli_warp_spec(const char *prog, const char *opt, const cli_noise_opts *o, int dims, cli_spec *s)
{
    const cli_warp_opts *w = &o->warp;
    if (w->fractal != CLI_WARP_NONE && w->octaves > 1 && w->lacunarity != floor(w->lacunarity)) {
        char fs[40];
        cli_error(prog, "%s: --warp-lacunarity %s is not a whole number: the octaves of a periodic warp need one", opt,
                  cli_fmt_real(w->lacunarity, fs, sizeof fs));
        return -1;
    }
    memset(s, 0, sizeof *s);
    cn_config_init(&s->cfg);
    s->cfg.type = w->type;
    s->cfg.dims = dims;
    s->cfg.frequency = w->frequency > 0 ? w->frequency : o->spec[0].cfg.frequency;
    s->weight = 1.0;
    return 0;
}

int cli_tile_warp(const char *prog, cli_noise_opts *o, int dims, uint32_t width, uint32_t height)
{
    cli_spec s;
    if (o->warp.amplitude == 0.0)
        return 0;
    if (cli_warp_spec(prog, "--tile", o, dims, &s) != 0 || cli_tile_layer(prog, &s, -1, dims, width, height) != 0)
        return -1;
    for (int a = 0; a < 4; a++)
        o->warp.period[a] = a < s.n_period ? s.period[a] : 0;
    return 0;
}

int cli_tile_image(const char *prog, cli_noise_opts *o, int dims, uint32_t width, uint32_t height)
{
    for (int k = 0; k < o->nspec; k++)
        if (cli_tile_layer(prog, &o->spec[k], k, dims, width, height) != 0)
            return -1;
    return cli_tile_warp(prog, o, dims, width, height);
}

int cli_noise_build_for(const char *prog, const cli_noise_opts *o, int dims, const double maxp[4], cli_built *out)
{
    char why[512];
    if (cli_noise_build(o, dims, out, why, sizeof why) != 0) {
        cli_error(prog, "%s", why);
        return -1;
    }
    /* a warp moves points by up to the sum of its stages' amplitudes (fields in [-1, 1]) */
    double ext[4], moved = 0.0;
    for (size_t s = 0; s < out->nwarps; s++)
        moved += fabs(out->warp[s].amplitude);
    for (int a = 0; a < 4; a++)
        ext[a] = maxp[a] + moved;
    for (size_t s = 0; s < out->nwarps; s++) {
        for (int a = 0; a < dims; a++) {
            double reach;
            if (!(moved < 1e300) || cn_noise_reach(out->warp[s].field[a], ext, &reach) != CN_OK) {
                char fa[40], fs[40];
                cli_error(prog, "--warp %s with --warp-frequency %s: coordinates this far overflow the warp's noise",
                          cli_fmt_real(o->warp.amplitude, fa, sizeof fa),
                          cli_fmt_real(cn_noise_config(out->warp[s].field[a])->frequency, fs, sizeof fs));
                cli_built_free(out);
                return -1;
            }
        }
    }
    for (int k = 0; k < o->nspec; k++) {
        double reach;
        if (cn_noise_reach(out->layer[k].noise, ext, &reach) != CN_OK) {
            char fs[40], lb[32] = "--frequency";
            if (k)
                snprintf(lb, sizeof lb, "--layer %d: frequency", k);
            cli_error(prog,
                      "%s: %s is too large: coordinates times the frequency overflow (with the axis frequencies, "
                      "offsets, rotation and octaves)",
                      lb, cli_fmt_real(o->spec[k].cfg.frequency, fs, sizeof fs));
            cli_built_free(out);
            return -1;
        }
    }
    return 0;
}

uint32_t cli_strip_rows(size_t ncols, uint32_t height)
{
    size_t rows = CLI_STRIP_PIXELS / (ncols ? ncols : 1);
    if (rows < 1)
        rows = 1;
    return rows < height ? (uint32_t)rows : height;
}

int cli_find_nan(const double *vals, size_t ncols, size_t nrows, size_t *col, size_t *row)
{
    const size_t n = ncols * nrows;
    for (size_t i = 0; i < n; i++)
        if (isnan(vals[i])) {
            *col = i % ncols;
            *row = i / ncols;
            return 1;
        }
    return 0;
}
