/*
 * colour.c -- render's gray, ramp and hillshade pixels (colour.h).
 */
#include "colour.h"

#include "field.h"

double cli_colour_t(const cli_colour *c, double v)
{
    if (c->minmax)
        return c->span > 0 ? (v - c->lo) / c->span : v < c->lo ? 0.0 : v > c->lo ? 1.0 : 0.5;
    if (c->half > 0)
        return ((v - c->mid) / c->half + 1.0) / 2.0;
    return v < c->mid ? 0.0 : v > c->mid ? 1.0 : 0.5;
}

double cli_colour_clamp_t(cli_colour *c, double v)
{
    if (!c->minmax)
        return cli_range_t(v, c->mid, c->half, &c->clipped);
    const double t = cli_colour_t(c, v);
    if (t < -CLI_CLIP_TOLERANCE || t > 1.0 + CLI_CLIP_TOLERANCE || (!(c->span > 0) && v != c->lo))
        c->clipped++;
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

double cli_colour_dt(const cli_colour *c)
{
    if (c->minmax)
        return c->span > 0 ? 1.0 / c->span : 0.0;
    return c->half > 0 ? 0.5 / c->half : 0.0;
}

/* The gradient of the heights k * t at pixel i of row r, x to the right and y up the image: from
 * the noise's derivatives (c->dvx; y grows down the image), or by central differences over its
 * four neighbours (vals with the one-pixel halo: row r + 1, column i + 1 is the pixel). */
static void colour_gradient(const cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t i,
                            double *gx, double *gy)
{
    if (c->dvx) {
        const size_t at = (size_t)r * ncols + i;
        *gx = c->dk * c->dvx[at];
        *gy = -(c->dk * c->dvy[at]);
        return;
    }
    const double *above = vals + (size_t)r * ncols, *mid = above + ncols, *below = mid + ncols;
    double ta = cli_colour_t(c, above[i + 1]), tb = cli_colour_t(c, below[i + 1]);
    double tl = cli_colour_t(c, mid[i]), tr = cli_colour_t(c, mid[i + 2]);
    *gx = c->k * (tr - tl) * 0.5;
    *gy = c->k * (ta - tb) * 0.5;
}

/* A row of a map made from the gradient alone: the normal map's RGB or the slope's gray. */
static void gradient_row(const cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t width,
                         uint8_t *out, int slope)
{
    for (uint32_t i = 0; i < width; i++) {
        double gx, gy;
        colour_gradient(c, vals, ncols, r, i, &gx, &gy);
        if (slope)
            out[i] = cli_slope_byte(gx, gy);
        else
            cli_normal_rgb(gx, gy, out + 3 * i);
    }
}

void cli_normal_row(const cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t width, uint8_t *out)
{
    gradient_row(c, vals, ncols, r, width, out, 0);
}

void cli_slope_row(const cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t width, uint8_t *out)
{
    gradient_row(c, vals, ncols, r, width, out, 1);
}

/* Values converted per chunk: t of a chunk lives on the stack. */
#define T_CHUNK 256

/*
 * t clamped to [0, 1] of n <= T_CHUNK values, the clipped ones counted in c->clipped, as
 * cli_colour_clamp_t gives them one by one (the same arithmetic, so the same bits), except that
 * NaN and -0 become 0: the callers only quantise t. Each step is a loop of its own, without
 * branches, so that compilers vectorise it; a range of width 0 goes value by value.
 */
static void clamp_t_chunk(cli_colour *c, const double *v, size_t n, double *t)
{
    if (c->minmax ? !(c->span > 0) : !(c->half > 0)) {
        for (size_t i = 0; i < n; i++)
            t[i] = cli_colour_clamp_t(c, v[i]);
        return;
    }
    /* cli_colour_t's two formulas, one loop each: with a call to it per value gcc 12 does not
     * vectorise the division (measured: a 4096x4096 r16 render 10 % slower) */
    if (c->minmax) {
        const double lo = c->lo, span = c->span;
        for (size_t i = 0; i < n; i++)
            t[i] = (v[i] - lo) / span;
    } else {
        const double mid = c->mid, half = c->half;
        for (size_t i = 0; i < n; i++)
            t[i] = ((v[i] - mid) / half + 1.0) / 2.0;
    }
    uint64_t clipped = 0;
    for (size_t i = 0; i < n; i++)
        clipped += (uint64_t)(t[i] < -CLI_CLIP_TOLERANCE) + (uint64_t)(t[i] > 1.0 + CLI_CLIP_TOLERANCE);
    c->clipped += clipped;
    for (size_t i = 0; i < n; i++) {
        const double x = t[i] > 0.0 ? t[i] : 0.0;
        t[i] = x < 1.0 ? x : 1.0;
    }
}

/* width values to the levels round(t * 65535) in o16, or round(t * 255) in o8 (cli_ramp_byte's
 * value for t in [0, 1]): halves up, and for x >= 0 floor(x + 0.5) is the truncation. */
static void levels_row(cli_colour *c, const double *row, uint32_t width, uint16_t *o16, uint8_t *o8)
{
    double t[T_CHUNK];
    for (uint32_t i0 = 0; i0 < width; i0 += T_CHUNK) {
        const size_t n = width - i0 < T_CHUNK ? width - i0 : T_CHUNK;
        clamp_t_chunk(c, row + i0, n, t);
        if (o16)
            for (size_t i = 0; i < n; i++)
                o16[i0 + i] = (uint16_t)(int32_t)(t[i] * 65535.0 + 0.5);
        else
            for (size_t i = 0; i < n; i++)
                o8[i0 + i] = (uint8_t)(int32_t)(t[i] * 255.0 + 0.5);
    }
}

void cli_colour_u16_row(cli_colour *c, const double *row, uint32_t width, uint16_t *out)
{
    levels_row(c, row, width, out, NULL);
}

void cli_colour_row(cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t width, uint8_t *out)
{
    const double *row = c->shade && !c->dvx ? vals + (size_t)(r + 1) * ncols + 1 : vals + (size_t)r * ncols;
    if (c->shade) {
        for (uint32_t i = 0; i < width; i++) {
            double gx, gy;
            colour_gradient(c, vals, ncols, r, i, &gx, &gy);
            if (!c->rgb) {
                out[i] = cli_ramp_byte(cli_hillshade(&c->light, gx, gy) * 255.0);
            } else {
                double rgb[3], f = cli_shade_factor(&c->light, gx, gy);
                cli_ramp_eval(&c->ramp, cli_colour_clamp_t(c, row[i]), rgb);
                for (int ch = 0; ch < 3; ch++)
                    out[3 * i + ch] = cli_ramp_byte(rgb[ch] * f);
            }
        }
    } else if (!c->rgb) {
        levels_row(c, row, width, NULL, out);
    } else {
        for (uint32_t i = 0; i < width; i++) {
            double rgb[3];
            cli_ramp_eval(&c->ramp, cli_colour_clamp_t(c, row[i]), rgb);
            for (int ch = 0; ch < 3; ch++)
                out[3 * i + ch] = cli_ramp_byte(rgb[ch]);
        }
    }
}
