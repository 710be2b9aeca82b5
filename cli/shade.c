/*
 * shade.c -- hillshading and normal maps (shade.h).
 */
#include "shade.h"

#include <math.h>

#include "ramp.h"

#define PI 3.14159265358979323846

int cli_light_init(cli_light *l, double azimuth_deg, double elevation_deg)
{
    if (!isfinite(azimuth_deg) || !(elevation_deg > 0.0 && elevation_deg <= 90.0))
        return -1;
    double az = fmod(azimuth_deg, 360.0) * (PI / 180.0), el = elevation_deg * (PI / 180.0);
    l->x = cos(el) * sin(az);
    l->y = cos(el) * cos(az);
    l->z = elevation_deg == 90.0 ? 1.0 : sin(el);
    if (elevation_deg == 90.0)
        l->x = l->y = 0.0; /* straight overhead, without cos(pi/2)'s 6e-17 */
    return 0;
}

double cli_hillshade(const cli_light *l, double gx, double gy)
{
    /* n . L with n = (-gx, -gy, 1) / sqrt(gx^2 + gy^2 + 1) */
    double d = (-gx * l->x - gy * l->y + l->z) / sqrt(gx * gx + gy * gy + 1.0);
    return d > 0.0 ? d : 0.0;
}

double cli_shade_factor(const cli_light *l, double gx, double gy)
{
    const double a = CLI_SHADE_AMBIENT;
    return a + (1.0 - a) * cli_hillshade(l, gx, gy) / l->z;
}

uint8_t cli_slope_byte(double gx, double gy)
{
    return cli_ramp_byte(atan(sqrt(gx * gx + gy * gy)) * (2.0 / PI) * 255.0);
}

void cli_normal_rgb(double gx, double gy, uint8_t rgb[3])
{
    double inv = 1.0 / sqrt(gx * gx + gy * gy + 1.0);
    double n[3] = {-gx * inv, -gy * inv, inv};
    for (int c = 0; c < 3; c++)
        rgb[c] = cli_ramp_byte((n[c] + 1.0) * 0.5 * 255.0);
}
