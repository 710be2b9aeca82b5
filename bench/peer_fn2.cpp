/*
 * peer_fn2.cpp -- the benchmark workloads through FastNoise2's node API, with its AVX-512 and its
 * AVX2 build forced (FastNoise::New<T>(FeatureSet), checked with GetActiveFeatureSet; a feature
 * set the CPU lacks leaves that peer out). Nothing of FastNoise2 is kept in this tree:
 * scripts/bench.sh builds a checkout given as FN2_SRC (with FASTSIMD_SRC, its FastSIMD pin) and
 * passes its headers and library here (CNOISE_BENCH_FN2_INCLUDE_DIRS, CNOISE_BENCH_FN2_LIBRARY).
 * Nodes: Perlin, Simplex, SuperSimplex, Value, CellularDistance (Euclidean, Index0: F1; its default jitter) with
 * SetScale(1) (frequency 1), seed 1337; fBm is FractalFBm over
 * them with the work's octaves, lacunarity 2, gain 0.5. Grids: GenUniformGrid2D/3D (FastNoise2
 * computes each coordinate in float as offset + i * step); point arrays: GenPositionArray2D/3D.
 */
#include <FastNoise/FastNoise.h>

#include "bench.h"

namespace {

FastNoise::SmartNode<> node_for(const bench_work *w, FastSIMD::FeatureSet fs)
{
    FastNoise::SmartNode<> base;
    if (w->noise == BENCH_PERLIN) {
        auto n = FastNoise::New<FastNoise::Perlin>(fs);
        n->SetScale(1.0f);
        base = n;
    } else if (w->noise == BENCH_SIMPLEX || w->noise == BENCH_OPENSIMPLEX2) {
        auto n = FastNoise::New<FastNoise::Simplex>(fs);
        n->SetScale(1.0f);
        base = n;
    } else if (w->noise == BENCH_OPENSIMPLEX2S) {
        auto n = FastNoise::New<FastNoise::SuperSimplex>(fs);
        n->SetScale(1.0f);
        base = n;
    } else if (w->noise == BENCH_VALUE) {
        auto n = FastNoise::New<FastNoise::Value>(fs);
        n->SetScale(1.0f);
        base = n;
    } else {
        auto n = FastNoise::New<FastNoise::CellularDistance>(fs);
        n->SetScale(1.0f);
        n->SetDistanceFunction(FastNoise::DistanceFunction::Euclidean);
        base = n;
    }
    if (w->octaves <= 1)
        return base;
    auto f = FastNoise::New<FastNoise::FractalFBm>(fs);
    f->SetSource(base);
    f->SetOctaveCount(w->octaves);
    f->SetLacunarity(2.0f);
    f->SetGain(0.5f);
    return f;
}

bool fits_int(size_t v)
{
    return v <= 0x7fffffff;
}

template <FastSIMD::FeatureSet FS>
int fn2_supports(const bench_work *w)
{
    if ((w->dims != 2 && w->dims != 3) || !fits_int(w->n))
        return 0;
    return node_for(w, FS)->GetActiveFeatureSet() == FS;
}

template <FastSIMD::FeatureSet FS>
void fn2_run(const bench_work *w, void *out)
{
    const FastNoise::SmartNode<> g = node_for(w, FS);
    float *o = static_cast<float *>(out);
    const float s = (float)w->step, org = (float)w->origin;
    const int nx = (int)w->count[0], ny = (int)w->count[1], nz = (int)w->count[2], n = (int)w->n;
    if (w->points) {
        if (w->dims == 2)
            g->GenPositionArray2D(o, n, w->xf[0], w->xf[1], 0.0f, 0.0f, 1337);
        else
            g->GenPositionArray3D(o, n, w->xf[0], w->xf[1], w->xf[2], 0.0f, 0.0f, 0.0f, 1337);
    } else if (w->dims == 2) {
        g->GenUniformGrid2D(o, org, org, nx, ny, s, s, 1337);
    } else {
        g->GenUniformGrid3D(o, org, org, org, nx, ny, nz, s, s, s, 1337);
    }
}

} // namespace

extern "C" const bench_peer bench_peers_fn2[] = {
    {"FastNoise2 AVX-512", "FastNoise2 node API, AVX-512 build forced (Perlin, Simplex, SuperSimplex, Value, CellularDistance Euclidean; fBm: FractalFBm, 2, 0.5); "
                           "GenUniformGrid2D/3D, GenPositionArray2D/3D; float",
     1, fn2_supports<FastSIMD::FeatureSet::AVX512>, fn2_run<FastSIMD::FeatureSet::AVX512>},
    {"FastNoise2 AVX2", "the same, AVX2 build forced", 1, fn2_supports<FastSIMD::FeatureSet::AVX2>,
     fn2_run<FastSIMD::FeatureSet::AVX2>},
    {NULL, NULL, 0, NULL, NULL},
};
