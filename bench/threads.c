/*
 * threads.c -- cnoise_bench_threads: how the batch engine scales with threads. One 4096x4096
 * float grid of Perlin 2D fBm (6 octaves) through cn_grid_evalf at threads = 1, 2, 4, ... up to
 * --max (default 2; the last count is --max itself) and 0 (the library's choice: one per core),
 * the counts interleaved in each round;
 * medians over the rounds, speedups against one thread, and a check that every count gives the
 * bits of one thread. Meaningful on an idle machine only (another busy core decides the end time
 * of an equal split of the work).
 *
 *   cnoise_bench_threads [--rounds N] [--max THREADS]
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <cnoise.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

int main(int argc, char **argv)
{
    int rounds = 7, max = 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc)
            max = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: cnoise_bench_threads [--rounds N] [--max THREADS]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > 101 || max < 2 || max > CN_MAX_THREADS) {
        fprintf(stderr, "cnoise_bench_threads: --rounds 1..101, --max 2..%d\n", CN_MAX_THREADS);
        return 2;
    }
    int th[12], nt = 0; /* 1, 2, 4, ... below max (at most 9 of them), max, 0 */
    for (int c = 1; c < max && nt < 9; c *= 2)
        th[nt++] = c;
    th[nt++] = max;
    th[nt++] = 0;

    cn_config cfg;
    cn_config_init(&cfg);
    cfg.dims = 2;
    cfg.seed = 3;
    cfg.fractal = CN_FRACTAL_FBM;
    cfg.octaves = 6;
    cfg.frequency = 1.0 / 256;
    cn_noise gen;
    if (cn_noise_build(&gen, &cfg) != CN_OK)
        return 1;
    const size_t count[2] = {4096, 4096}, n = count[0] * count[1];
    const double origin[2] = {0.5, 0.5}, step[2] = {1, 1};
    float *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
    double (*t)[101] = malloc(sizeof(double[101]) * (size_t)nt);
    if (!out || !ref || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    if (cn_grid_evalf(&gen, origin, step, count, ref, n, 1, NULL) != CN_OK)
        return 1;
    int same = 1;
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < nt; k++) {
            memset(out, 0xff, n * sizeof *out);
            double t0 = bench_now();
            cn_status st = cn_grid_evalf(&gen, origin, step, count, out, n, th[k], NULL);
            t[k][r] = bench_now() - t0;
            if (st != CN_OK) {
                fprintf(stderr, "threads %d: %s\n", th[k], cn_strerror(st));
                return 1;
            }
            same &= memcmp(out, ref, n * sizeof *out) == 0;
        }
    printf("Perlin 2D fBm (6 octaves), float 4096x4096 grid, %s; medians of %d rounds\n",
           cn_isa_name(cn_isa_active()), rounds);
    double one = 0;
    for (int k = 0; k < nt; k++) {
        const double m = bench_median(t[k], rounds);
        if (k == 0)
            one = m;
        if (th[k])
            printf("threads %3d: %8.1f ms   speedup %5.2fx   efficiency %3.0f%%\n", th[k], 1e3 * m, one / m,
                   100.0 * one / m / th[k]);
        else
            printf("threads   0: %8.1f ms   speedup %5.2fx   (one per core)\n", 1e3 * m, one / m);
    }
    printf("%s\n", same ? "same bits at every thread count" : "BITS DIFFER between thread counts");
    free(out);
    free(ref);
    free(t);
    return !same;
}
