/*
 * peer_fnl.c -- the benchmark workloads through FastNoiseLite's C header (FastNoiseLite.h), the one
 * file that instantiates it. Debian does not package it: point the CMake variable
 * CNOISE_BENCH_FNL_DIR (scripts/bench.sh: the environment variable FNL_DIR) at the C/ folder of a
 * checkout kept outside this tree. Perlin is FNL_NOISE_PERLIN, simplex FNL_NOISE_OPENSIMPLEX2 (the
 * library's simplex; a different lattice from Gustavson's), value FNL_NOISE_VALUE; frequency 1,
 * seed 1337; fBm is FNL_FRACTAL_FBM with the work's octaves, lacunarity 2, gain 0.5. Float
 * coordinates, computed like peer_stb.c's. Every call goes through fnlGetNoise2D/3D, which this
 * file's loops may inline (the header is compiled here, as its users compile it).
 */
#define FNL_IMPL
#include <FastNoiseLite.h>

#include "bench.h"

static int fnl_supports(const bench_work *w)
{
    return w->dims == 2 || w->dims == 3;
}

static fnl_state fnl_for(const bench_work *w)
{
    fnl_state st = fnlCreateState();
    st.seed = 1337;
    st.frequency = 1.0f;
    st.noise_type = w->noise == BENCH_PERLIN    ? FNL_NOISE_PERLIN
                    : w->noise == BENCH_SIMPLEX || w->noise == BENCH_OPENSIMPLEX2 ? FNL_NOISE_OPENSIMPLEX2
                    : w->noise == BENCH_OPENSIMPLEX2S ? FNL_NOISE_OPENSIMPLEX2S
                    : w->noise == BENCH_VALUE   ? FNL_NOISE_VALUE
                                                : FNL_NOISE_CELLULAR;
    st.cellular_distance_func = FNL_CELLULAR_DISTANCE_EUCLIDEAN;
    st.cellular_return_type = FNL_CELLULAR_RETURN_TYPE_DISTANCE;
    if (w->octaves > 1) {
        st.fractal_type = FNL_FRACTAL_FBM;
        st.octaves = w->octaves;
        st.lacunarity = 2.0f;
        st.gain = 0.5f;
    } else {
        st.fractal_type = FNL_FRACTAL_NONE;
    }
    return st;
}

static void fnl_run(const bench_work *w, void *out)
{
    const fnl_state st = fnl_for(w);
    float *o = (float *)out;
    if (w->points) {
        const float *x = w->xf[0], *y = w->xf[1], *z = w->dims == 3 ? w->xf[2] : NULL;
        for (size_t i = 0; i < w->n; i++)
            o[i] = z ? fnlGetNoise3D(&st, x[i], y[i], z[i]) : fnlGetNoise2D(&st, x[i], y[i]);
        return;
    }
    BENCH_GRID_FOR(w, float, x, y, z, idx, o[idx] = w->dims == 3 ? fnlGetNoise3D(&st, x, y, z) : fnlGetNoise2D(&st, x, y));
}

const bench_peer bench_peers_fnl[] = {
    {"FastNoiseLite", "fnlGetNoise2D/3D (perlin, opensimplex2, opensimplex2s, value, cellular Euclidean distance; fBm: FNL_FRACTAL_FBM, 2, 0.5); float", 1,
     fnl_supports, fnl_run},
    {NULL, NULL, 0, NULL, NULL},
};
