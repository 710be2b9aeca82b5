/*
 * peer_libnoise.cpp -- the benchmark workloads through libnoise 1.0 (Debian libnoise-dev), which
 * is C++ and 3D only: 2D is the z = 0 slice.
 *   - Perlin: noise::module::Perlin, frequency 1, NoiseQuality QUALITY_STD (libnoise's default,
 *     cubic s-curve), octave count 1 for plain noise and 6 for fBm (lacunarity 2, persistence 0.5),
 *     GetValue(x, y, z) in double;
 *   - value noise: noise::ValueCoherentNoise3D(x, y, z, seed 0, QUALITY_STD).
 * libnoise has no simplex noise.
 */
#include <noise.h>

#include "bench.h"

namespace {

int perlin_supports(const bench_work *w)
{
    return w->noise == BENCH_PERLIN && (w->dims == 2 || w->dims == 3);
}

int value_supports(const bench_work *w)
{
    return w->noise == BENCH_VALUE && w->octaves == 1 && (w->dims == 2 || w->dims == 3);
}

/* Calls f(x, y, z) for every sample of the workload, in output order. */
template <typename F> void each_sample(const bench_work *w, double *o, F f)
{
    if (w->points) {
        const double *x = w->xd[0], *y = w->xd[1], *z = w->dims == 3 ? w->xd[2] : nullptr;
        for (size_t i = 0; i < w->n; i++)
            o[i] = f(x[i], y[i], z ? z[i] : 0.0);
        return;
    }
    BENCH_GRID_FOR(w, double, x, y, z, idx, o[idx] = f(x, y, z));
}

void perlin_run(const bench_work *w, void *out)
{
    noise::module::Perlin p;
    p.SetFrequency(1.0);
    p.SetLacunarity(2.0);
    p.SetPersistence(0.5);
    p.SetNoiseQuality(noise::QUALITY_STD);
    p.SetOctaveCount(w->octaves);
    p.SetSeed(0);
    each_sample(w, static_cast<double *>(out), [&p](double x, double y, double z) { return p.GetValue(x, y, z); });
}

void value_run(const bench_work *w, void *out)
{
    each_sample(w, static_cast<double *>(out),
                [](double x, double y, double z) { return noise::ValueCoherentNoise3D(x, y, z, 0, noise::QUALITY_STD); });
}

} // namespace

extern "C" const bench_peer bench_peers_libnoise[] = {
    {"libnoise", "noise::module::Perlin (frequency 1, QUALITY_STD, 1 or 6 octaves) GetValue; double", 0,
     perlin_supports, perlin_run},
    {"libnoise value", "noise::ValueCoherentNoise3D(x, y, z, 0, QUALITY_STD); double", 0, value_supports, value_run},
    {nullptr, nullptr, 0, nullptr, nullptr},
};
