/*
 * field.c -- strips of noise through the batch engine, the documented range, --tile (field.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "field.h"

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
    f->z = z;
    f->w = w;
    f->zf = (double)zf;
    f->wf = (double)wf;
}

void cli_field_free(cli_field *f)
{
    free(f->tmpf);
    free(f->tmpd);
    f->tmpf = NULL;
    f->tmpd = NULL;
    f->cap = 0;
}

static int reserve(cli_field *f, size_t n, char *err, size_t errlen)
{
    if (n <= f->cap)
        return 0;
    free(f->tmpf);
    free(f->tmpd);
    f->tmpf = NULL;
    f->tmpd = NULL;
    f->cap = 0;
    if (n > SIZE_MAX / sizeof(double)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    f->tmpf = (float *)malloc(n * sizeof(float));
    f->tmpd = (double *)malloc(n * sizeof(double));
    if (!f->tmpf || !f->tmpd) {
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
        st = cn_grid_evalf(gen, origin, step, count, f->tmpf, n, f->threads, NULL);
        if (st == CN_OK)
            for (size_t i = 0; i < n; i++)
                out[i] = (double)f->tmpf[i];
    } else {
        st = cn_grid_eval(gen, origin, step, count, out, n, f->threads, NULL);
    }
    if (st != CN_OK) {
        snprintf(err, errlen, "evaluating the noise: %s", cn_strerror(st));
        return -1;
    }
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
    if (b->direct) {
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

void cli_note_clipped(const char *prog, uint64_t clipped, uint64_t total, const char *what, double mid,
                      double half, const char *hint)
{
    if (!clipped)
        return;
    char a[40], b[40];
    fprintf(stderr, "%s: note: %llu of %llu %s (%.3g%%) were outside the range [%s, %s] and were clipped to it%s\n",
            prog, (unsigned long long)clipped, (unsigned long long)total, what,
            100.0 * (double)clipped / (double)total, cli_fmt_real(mid - half, a, sizeof a),
            cli_fmt_real(mid + half, b, sizeof b), hint);
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

#define TILE_TOLERANCE 1e-9 /* relative distance of the cell count from a whole number */

/* A period must be a multiple of this (the library's rule: simplex periods of dims). */
static uint32_t period_step(const cli_spec *s, int dims)
{
    return cn_period_multiple(s->cfg.type, dims);
}

/* c cells: whole within the tolerance, 1..2^24 and a multiple of step? Then *n is the count. */
static int whole_cells(double c, uint32_t step, uint32_t *n)
{
    double r = round(c);
    if (!(r >= 1.0) || r > (double)CN_MAX_PERIOD || fabs(c - r) > TILE_TOLERANCE * c)
        return 0;
    if ((uint32_t)r % step != 0)
        return 0;
    *n = (uint32_t)r;
    return 1;
}

/*
 * Sets the x (and y) periods of layer k so that the image repeats after W (and H) pixels, or
 * reports why it cannot and suggests a frequency. Returns 0 or -1.
 */
int cli_tile_layer(const char *prog, cli_spec *s, int k, int dims, uint32_t width, uint32_t height)
{
    char pre[32] = "", freq_name[48], fa[40], fb[40];
    if (k)
        snprintf(pre, sizeof pre, " --layer %d:", k);
    if (s->n_rotate) {
        cli_error(prog, "--tile:%s cannot be combined with %s (a rotated lattice does not tile along the image)",
                  pre, k ? "rotate" : "--rotate");
        return -1;
    }
    const int naxes = dims >= 2 ? 2 : 1;
    for (int a = 0; a < naxes && a < s->n_period; a++)
        if (s->period[a]) {
            cli_error(prog,
                      "--tile:%s sets the x and y periods itself; give --period only for the slice axes, "
                      "with 0 for x and y (e.g. --period 0,0,6)",
                      pre);
            return -1;
        }
    const uint32_t step = period_step(s, dims);
    const double size[2] = {(double)width, (double)height};
    double af[2], cells[2];
    uint32_t count[2];
    int bad = -1;
    for (int a = 0; a < naxes; a++) {
        af[a] = a < s->n_axis_frequency ? s->axis_frequency[a] : 1.0;
        cells[a] = size[a] * s->cfg.frequency * af[a];
        if (bad < 0 && !whole_cells(cells[a], step, &count[a]))
            bad = a;
    }
    if (bad < 0) {
        for (int a = 0; a < naxes; a++)
            s->period[a] = count[a];
        if (s->n_period < naxes)
            s->n_period = naxes;
        return 0;
    }

    /* Why not, then a frequency that works on every axis: n cells along the bad axis, n a valid
     * count near the present one, such that the other axis gets a valid count too. */
    const char *why;
    char whybuf[96];
    const uint32_t maxn = CN_MAX_PERIOD / step * step;
    double c = cells[bad];
    if (c > (double)CN_MAX_PERIOD)
        why = "more than the period limit of 16777216 (2^24) cells";
    else if (round(c) < 1.0 && fabs(c - 1.0) > TILE_TOLERANCE)
        why = "less than one cell";
    else if (fabs(c - round(c)) > TILE_TOLERANCE * c)
        why = "not a whole number";
    else {
        snprintf(whybuf, sizeof whybuf, "not a multiple of %lu, as simplex noise in %dD needs",
                 (unsigned long)step, dims);
        why = whybuf;
    }
    if (k)
        snprintf(freq_name, sizeof freq_name, "frequency=");
    else
        snprintf(freq_name, sizeof freq_name, "--frequency ");
    double n0 = round(c / step) * step;
    if (n0 < step)
        n0 = step;
    if (n0 > maxn)
        n0 = maxn;
    double found = 0, found_n = 0;
    for (int t = 0; t < 8192 && !found; t++) {
        /* n0, n0 + step, n0 - step, n0 + 2 step, ... */
        double n = n0 + (double)((t + 1) / 2) * step * (t % 2 ? 1 : -1);
        if (n < step || n > maxn)
            continue;
        double f = n / (size[bad] * af[bad]);
        int ok = f > 0 && isfinite(f);
        for (int a = 0; a < naxes && ok; a++) {
            uint32_t dummy;
            ok = whole_cells(size[a] * f * af[a], step, &dummy);
        }
        if (ok) {
            found = f;
            found_n = n;
        }
    }
    char head[256];
    snprintf(head, sizeof head, "--tile:%s along %c, %lu pixels * frequency %s * axis-frequency %s = %.12g cell%s is %s",
             pre, axis_name_of(bad), (unsigned long)(bad ? height : width), cli_fmt_real(s->cfg.frequency, fa, sizeof fa),
             cli_fmt_real(af[bad], fb, sizeof fb), c, c == 1.0 ? "" : "s", why);
    if (found > 0) {
        char fs[40];
        cli_fmt_real(found, fs, sizeof fs);
        if (naxes == 2) {
            double other = size[1 - bad] * found * af[1 - bad];
            cli_error(prog, "%s; e.g. %s%s%s%s gives %.0f cells along %c and %.0f along %c", head, freq_name, fs,
                      k ? " in this --layer" : "", "", found_n, axis_name_of(bad), round(other), axis_name_of(1 - bad));
        } else {
            cli_error(prog, "%s; e.g. %s%s%s gives %.0f cells", head, freq_name, fs, k ? " in this --layer" : "",
                      found_n);
        }
    } else {
        char fs[40];
        cli_fmt_real(n0 / (size[bad] * af[bad]), fs, sizeof fs);
        cli_error(prog,
                  "%s; no frequency near it tiles both axes: change --size or --axis-frequency (%s%s gives %.0f "
                  "cells along %c)",
                  head, freq_name, fs, n0, axis_name_of(bad));
    }
    return -1;
}

int cli_noise_build_for(const char *prog, const cli_noise_opts *o, int dims, const double maxp[4], cli_built *out)
{
    char why[512];
    if (cli_noise_build(o, dims, out, why, sizeof why) != 0) {
        cli_error(prog, "%s", why);
        return -1;
    }
    for (int k = 0; k < o->nspec; k++) {
        double reach;
        if (cn_noise_reach(out->layer[k].noise, maxp, &reach) != CN_OK) {
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
