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

/* The gradient of the heights k * t at pixel i of row r by central differences over its four
 * neighbours (vals with the one-pixel halo: row r + 1, column i + 1 is the pixel). */
static void colour_gradient(const cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t i,
                            double *gx, double *gy)
{
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

void cli_colour_row(cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t width, uint8_t *out)
{
    const double *row = c->shade ? vals + (size_t)(r + 1) * ncols + 1 : vals + (size_t)r * ncols;
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
        for (uint32_t i = 0; i < width; i++)
            out[i] = cli_ramp_byte(cli_colour_clamp_t(c, row[i]) * 255.0);
    } else {
        for (uint32_t i = 0; i < width; i++) {
            double rgb[3];
            cli_ramp_eval(&c->ramp, cli_colour_clamp_t(c, row[i]), rgb);
            for (int ch = 0; ch < 3; ch++)
                out[3 * i + ch] = cli_ramp_byte(rgb[ch]);
        }
    }
}
