/*
 * shade.h -- heightfield to colour: the gradient of a height grid, hillshading under a distant
 * light, and tangent-space normal maps.
 *
 * Conventions. A heightfield h(i, j) has column i growing to the right (east, +x) and row j
 * growing downwards in the image; +y points up the image (north). Its gradient at a pixel is
 * taken by central differences over the four neighbours, scaled by k (height units per unit of
 * h, measured in pixels):
 *     gx = k * (h(i+1, j) - h(i-1, j)) / 2,    gy = k * (h(i, j-1) - h(i, j+1)) / 2.
 * The surface normal is n = (-gx, -gy, 1) / |(-gx, -gy, 1)|.
 *
 * The light is a distant sun at `azimuth` degrees clockwise from north (0 = from the top of the
 * image, 90 = from the right, 315 = from the top left, the cartographers' default) and
 * `elevation` degrees above the horizon:
 *     L = (cos(el) sin(az), cos(el) cos(az), sin(el)),
 * and the illumination is Lambert's cosine law, I = max(0, n . L), as in libnoise's
 * RendererImage and GIS hillshades. On flat ground I = sin(el).
 */
#ifndef CNOISE_CLI_SHADE_H
#define CNOISE_CLI_SHADE_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_light {
    double x, y, z; /* unit vector towards the light */
} cli_light;

/* Default light: from the north-west (315 degrees), 45 degrees high. */
#define CLI_LIGHT_AZIMUTH 315.0
#define CLI_LIGHT_ELEVATION 45.0

/* Fraction of the flat-ground brightness that a slope facing away from the light keeps in a
 * shaded colour image (sky light), see cli_shade_factor. */
#define CLI_SHADE_AMBIENT 0.4

/* Sets the light. azimuth: finite, any value (taken modulo 360); elevation in (0, 90].
 * Returns 0, or -1 for values outside those ranges (*l untouched). */
int cli_light_init(cli_light *l, double azimuth_deg, double elevation_deg);

/* Gradient (gx, gy) at column c of the middle row of a 3-row window. Each row holds the
 * heights of columns -1 .. ncols (a one-pixel halo on each side): column c is at index c + 1. */
static inline void cli_gradient(const double *above, const double *mid, const double *below, size_t c, double k,
                                double *gx, double *gy)
{
    *gx = k * (mid[c + 2] - mid[c]) * 0.5;
    *gy = k * (above[c + 1] - below[c + 1]) * 0.5;
}

/* Lambert illumination I = max(0, n . L) in [0, 1]. */
double cli_hillshade(const cli_light *l, double gx, double gy);

/*
 * Brightness factor for a shaded colour: 1 on flat ground, CLI_SHADE_AMBIENT on slopes facing
 * away from the light, above 1 on slopes facing it (up to (1 - a) / sin(el) + a):
 *     f = a + (1 - a) * I / sin(el),   a = CLI_SHADE_AMBIENT.
 */
double cli_shade_factor(const cli_light *l, double gx, double gy);

/* Tangent-space normal map colour (OpenGL convention: red = +x right, green = +y up the image,
 * blue = +z out of the surface): channel = round((n + 1) / 2 * 255). */
void cli_normal_rgb(double gx, double gy, uint8_t rgb[3]);

/* Slope map gray level: the surface's angle from the horizontal, atan(|(gx, gy)|), over 90
 * degrees, as round(255 * angle / 90): 0 flat, 255 vertical. */
uint8_t cli_slope_byte(double gx, double gy);

#endif /* CNOISE_CLI_SHADE_H */
