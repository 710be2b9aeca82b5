/*
 * peer_stb.c -- the benchmark workloads through Sean Barrett's stb_perlin.h (Debian libstb-dev),
 * the one file that instantiates it. stb_perlin has one function, improved Perlin noise in 3D
 * with float coordinates and a 256-cell period; 2D is the z = 0 slice, fBm is
 * stb_perlin_fbm_noise3 (lacunarity 2, gain 0.5). Grid coordinates are computed in double as
 * origin + i * step and rounded to float, the nearest float to the point cnoise evaluates.
 */
#define STB_PERLIN_IMPLEMENTATION
#include <stb/stb_perlin.h>

#include "bench.h"

static int stb_supports(const bench_work *w)
{
    return w->noise == BENCH_PERLIN && (w->dims == 2 || w->dims == 3);
}

static float stb_at(const bench_work *w, float x, float y, float z)
{
    return w->octaves > 1 ? stb_perlin_fbm_noise3(x, y, z, 2.0f, 0.5f, w->octaves) : stb_perlin_noise3(x, y, z, 0, 0, 0);
}

static void stb_run(const bench_work *w, void *out)
{
    float *o = (float *)out;
    if (w->points) {
        const float *x = w->xf[0], *y = w->xf[1], *z = w->dims == 3 ? w->xf[2] : NULL;
        for (size_t i = 0; i < w->n; i++)
            o[i] = stb_at(w, x[i], y[i], z ? z[i] : 0.0f);
        return;
    }
    BENCH_GRID_FOR(w, float, x, y, z, idx, o[idx] = stb_at(w, x, y, z));
}

const bench_peer bench_peers_stb[] = {
    {"stb_perlin", "stb_perlin_noise3 (x, y, 0 in 2D), stb_perlin_fbm_noise3(.., 2, 0.5, 6); float", 1, stb_supports,
     stb_run},
    {NULL, NULL, 0, NULL, NULL},
};
