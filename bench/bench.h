/*
 * bench.h -- the interface between the benchmark driver (bench.c) and the adapters that run the
 * same workloads through other noise libraries (peer_stb.c, peer_libnoise.cpp, peer_fnl.c,
 * peer_fn2.cpp). An adapter knows
 * nothing about cnoise; it only reads a bench_work and fills an output buffer.
 */
#ifndef CN_BENCH_H
#define CN_BENCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BENCH_CELLULAR: F1, Euclidean distance, each library's default jitter (cnoise: 1, a feature point
 * anywhere in its cell; FastNoise2 and FastNoiseLite: within 0.437 of the cell's centre). */
/* BENCH_OPENSIMPLEX2: cnoise's opensimplex2; FastNoise2's Simplex node (its OpenSimplex2-style
 * simplex) and FastNoiseLite's OpenSimplex2, as for BENCH_SIMPLEX. */
/* BENCH_OPENSIMPLEX2S: cnoise's opensimplex2s; FastNoise2's SuperSimplex node and FastNoiseLite's
 * OpenSimplex2S. */
typedef enum bench_noise {
    BENCH_PERLIN,
    BENCH_SIMPLEX,
    BENCH_VALUE,
    BENCH_CELLULAR,
    BENCH_OPENSIMPLEX2,
    BENCH_OPENSIMPLEX2S
} bench_noise;

/*
 * One workload. A grid has the same origin and step on every axis: the point with indices
 * (i, j, k) is at (origin + i * step, origin + j * step, origin + k * step), each coordinate
 * computed in double as written (never accumulated), x fastest, result index i + nx * (j + ny * k).
 * A point workload reads coordinate i of axis a from xd[a][i] (double) or xf[a][i] (float; the
 * same values exactly, so both precisions see the same points).
 */
typedef struct bench_work {
    bench_noise noise;
    int dims;           /* 2 or 3 */
    int octaves;        /* 1: plain noise; more: fBm with lacunarity 2 and gain 0.5 */
    int points;         /* 0: grid; 1: point arrays */
    double origin, step;
    size_t count[3];    /* grid samples per axis (count[2] is 1 in 2D) */
    size_t n;           /* samples in all */
    const double *xd[3];
    const float *xf[3];
} bench_work;

/*
 * Runs STMT for every grid point of w in output order: x, y, z (of type T, float or double) are
 * its coordinates as documented above, each computed in double and then converted (z is 0 in
 * 2D), and idx its output index. Expanded in place, so the call in STMT stays inlined in the
 * timed loop of each implementation.
 */
#define BENCH_GRID_FOR(w, T, x, y, z, idx, STMT)                                                  \
    do {                                                                                         \
        size_t idx = 0;                                                                          \
        for (size_t bench_k = 0; bench_k < (w)->count[2]; bench_k++) {                           \
            const T z = (w)->dims == 3 ? (T)((w)->origin + (double)bench_k * (w)->step) : (T)0; \
            for (size_t bench_j = 0; bench_j < (w)->count[1]; bench_j++) {                       \
                const T y = (T)((w)->origin + (double)bench_j * (w)->step);                      \
                for (size_t bench_i = 0; bench_i < (w)->count[0]; bench_i++, idx++) {           \
                    const T x = (T)((w)->origin + (double)bench_i * (w)->step);                  \
                    STMT;                                                                        \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
    } while (0)

/* One peer function: run() computes all w->n samples of a workload it supports() into out, an
 * array of float (f32 = 1) or double (f32 = 0). */
typedef struct bench_peer {
    const char *name; /* the implementation column of the table, e.g. "stb_perlin" */
    const char *what; /* the function measured, for the notes under the table */
    int f32;
    int (*supports)(const bench_work *w);
    void (*run)(const bench_work *w, void *out);
} bench_peer;

/* The peers each adapter provides, ended by an entry whose name is NULL. */
#ifdef CN_BENCH_HAVE_STB
extern const bench_peer bench_peers_stb[];
#endif
#ifdef CN_BENCH_HAVE_LIBNOISE
extern const bench_peer bench_peers_libnoise[];
#endif
#ifdef CN_BENCH_HAVE_FNL
extern const bench_peer bench_peers_fnl[];
#endif
#ifdef CN_BENCH_HAVE_FN2
extern const bench_peer bench_peers_fn2[];
#endif

#ifdef __cplusplus
}
#endif

#endif
