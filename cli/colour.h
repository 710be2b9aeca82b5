/*
 * colour.h -- the pixels of "cnoise render"'s png and rgb formats (and the page in web/, which
 * compiles this file to WebAssembly so that it shows the same pixels): a noise value v becomes a
 * position t in [0, 1] by the normalisation, then a gray level round(t * 255), a ramp colour
 * (ramp.h), or with a hillshade (shade.h) the shade alone (png) or the ramp colour times the
 * shade factor (rgb).
 *
 * Normalisation: t = ((v - mid) / half + 1) / 2 (the range and LO,HI modes), or with minmax
 * t = (v - lo) / span. A range of width 0 maps its one value to 0.5, below it to 0, above to 1.
 * Colours clamp t to [0, 1] and count a clipped sample when t is beyond [0, 1] by more than
 * rounding (CLI_CLIP_TOLERANCE); gradients (hillshade, normal map) use the unclamped t: by
 * central differences over a pixel's four neighbours, or (dvx, dvy set) the noise's derivatives
 * times dt/dv (1 / (2 half), or 1 / span; 0 for a range of width 0).
 */
#ifndef CNOISE_CLI_COLOUR_H
#define CNOISE_CLI_COLOUR_H

#include <stddef.h>
#include <stdint.h>

#include "ramp.h"
#include "shade.h"

#define CLI_CLIP_TOLERANCE 1e-12 /* t beyond [0, 1] by less than this is rounding, not clipping */

typedef struct cli_colour {
    int rgb;          /* 1: three bytes per pixel through the ramp; 0: one gray byte */
    int shade;        /* 1: hillshaded (the rows come with a one-pixel halo) */
    cli_ramp ramp;    /* rgb */
    cli_light light;  /* shade */
    double k;         /* shade: gradient scale, pixels of height per unit of t */
    int minmax;       /* 1: t = (v - lo) / span; 0: from mid and half */
    double mid, half; /* range and LO,HI modes */
    double lo, span;  /* minmax mode */
    uint64_t clipped; /* samples clamped so far */
    /* NULL: the gradient by central differences of vals (with its halo); else the noise's own
     * derivatives dv/dx, dv/dy of the strip's pixels (render --gradient analytic), row r's pixel
     * i at [r * width + i], and vals without a halo */
    const double *dvx, *dvy;
    double dk;        /* with dvx: k * cli_colour_dt */
} cli_colour;

/* t of a value, not clamped. */
double cli_colour_t(const cli_colour *c, double v);

/* dt/dv of the normalisation: 1 / (2 half), or 1 / span (minmax); 0 for a range of width 0. */
double cli_colour_dt(const cli_colour *c);

/* t clamped to [0, 1]; counts a clipped sample in c->clipped. */
double cli_colour_clamp_t(cli_colour *c, double v);

/*
 * Row r of a strip to width pixels at out (1 or 3 bytes each, c->rgb). vals holds rows of ncols
 * values; with c->shade and no dvx they carry a one-pixel halo (row r + 1, column i + 1 is pixel
 * i of row r, and ncols = width + 2), else row r, column i is pixel i.
 */
void cli_colour_row(cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t width, uint8_t *out);

/* width values of one row to 16-bit levels round(t * 65535), t clamped (NaN to 0). */
void cli_colour_u16_row(cli_colour *c, const double *row, uint32_t width, uint16_t *out);

/*
 * Row r of a tangent-space normal map (render's --format normal): 3 bytes per pixel from the
 * gradient of the heights k * t (cli_normal_rgb): by central differences over the four
 * neighbours, vals carrying the one-pixel halo as with c->shade (ncols = width + 2) whatever
 * c->shade says; or from c->dvx, c->dvy (vals unused).
 */
void cli_normal_row(const cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t width, uint8_t *out);

/* Row r of a slope map (render's --format slope): 1 byte per pixel (cli_slope_byte) from the same
 * gradient as cli_normal_row, vals with the same halo. */
void cli_slope_row(const cli_colour *c, const double *vals, size_t ncols, uint32_t r, uint32_t width, uint8_t *out);

#endif /* CNOISE_CLI_COLOUR_H */
