/*
 * opencl.c -- cnoise_bench_opencl: the OpenCL backend against the CPU batch engine on the two
 * volumes of issue 17, in the same run, rounds interleaved:
 *   perlin3d-256   Perlin 3D (default mode, one octave), a 256^3 float grid, one call
 *   perlin4d-64x64 Perlin 4D, 64 frames of a 64^3 float volume (w = frame), one call per frame
 * and with --more the heavier kernels on the same 256^3 grid: simplex 3D, OpenSimplex2S 3D,
 * cellular 3D (F1, Euclidean) and Perlin 3D fBm with 6 octaves (slow on a CPU device).
 * The OpenCL time is the whole call: the generator's upload, the kernel and the results'
 * transfer back into host memory. The program is compiled before the rounds (its time is
 * printed apart). Each round checks that both give the same bits.
 *
 *   cnoise_bench_opencl [--rounds N] [--threads N] [--device INDEX] [--more] [--markdown FILE]
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <cnoise.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

typedef struct bench_case {
    const char *name;
    cn_noise_type type;
    cn_fractal fractal; /* CN_FRACTAL_FBM: 6 octaves */
    int dims;
    size_t count[4]; /* of one call */
    int calls;       /* frames: the last axis's origin is the frame number */
} bench_case;

/* One pass of a case; returns seconds, or a negative number on error. */
static double pass(const bench_case *bc, const cn_noise *gen, cn_opencl *cl, int threads, float *out)
{
    size_t n = 1;
    for (int a = 0; a < bc->dims; a++)
        n *= bc->count[a];
    const double step[4] = {1, 1, 1, 1};
    double t0 = bench_now();
    for (int f = 0; f < bc->calls; f++) {
        double origin[4] = {0.5, 0.5, 0.5, 0.5};
        if (bc->calls > 1)
            origin[bc->dims - 1] = 0.5 + f;
        float *o = out + (size_t)f * n;
        cn_status st = cl ? cn_opencl_grid_evalf(cl, gen, origin, step, bc->count, o, n, NULL)
                          : cn_grid_evalf(gen, origin, step, bc->count, o, n, threads, NULL);
        if (st != CN_OK) {
            fprintf(stderr, "%s: %s %s\n", bc->name, cn_strerror(st), cl ? cn_opencl_message(cl) : "");
            return -1;
        }
    }
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    int rounds = 5, threads = 0, device = CN_OPENCL_ANY;
    const char *md = NULL;
    int more = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            device = atoi(argv[++i]);
        else if (strcmp(argv[i], "--markdown") == 0 && i + 1 < argc)
            md = argv[++i];
        else if (strcmp(argv[i], "--more") == 0)
            more = 1;
        else {
            fprintf(stderr, "usage: cnoise_bench_opencl [--rounds N] [--threads N] [--device INDEX] [--more] [--markdown FILE]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > 101 || threads < 0 || threads > CN_MAX_THREADS) {
        fprintf(stderr, "cnoise_bench_opencl: --rounds 1..101, --threads 0..%d\n", CN_MAX_THREADS);
        return 2;
    }
    char why[512] = "";
    cn_opencl *cl = NULL;
    if (cn_opencl_open(&cl, device, why, sizeof why) != CN_OK) {
        fprintf(stderr, "cnoise_bench_opencl: no OpenCL device: %s\n", why);
        return 1;
    }
    cn_opencl_device dev;
    cn_opencl_info(cl, &dev);

    static const bench_case cases[] = {
        {"perlin3d 256^3", CN_NOISE_PERLIN, CN_FRACTAL_NONE, 3, {256, 256, 256, 1}, 1},
        {"perlin4d 64^3 x 64 frames", CN_NOISE_PERLIN, CN_FRACTAL_NONE, 4, {64, 64, 64, 1}, 64},
        /* --more */
        {"simplex3d 256^3", CN_NOISE_SIMPLEX, CN_FRACTAL_NONE, 3, {256, 256, 256, 1}, 1},
        {"opensimplex2s 3d 256^3", CN_NOISE_OPENSIMPLEX2S, CN_FRACTAL_NONE, 3, {256, 256, 256, 1}, 1},
        {"cellular3d F1 256^3", CN_NOISE_CELLULAR, CN_FRACTAL_NONE, 3, {256, 256, 256, 1}, 1},
        {"perlin3d fbm 6 octaves 256^3", CN_NOISE_PERLIN, CN_FRACTAL_FBM, 3, {256, 256, 256, 1}, 1},
    };
    const size_t ncases = more ? sizeof cases / sizeof cases[0] : 2;
    const size_t total = (size_t)1 << 24; /* every case: 2^24 samples */
    float *a = malloc(total * sizeof *a), *b = malloc(total * sizeof *b);
    if (!a || !b) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    FILE *out = md ? fopen(md, "w") : NULL;
    if (md && !out) {
        perror(md);
        return 1;
    }
    printf("OpenCL device: %s / %s (%s); CPU batch engine: %s, threads %d (0: one per core)\n", dev.platform,
           dev.name, dev.version, cn_isa_name(cn_isa_active()), threads);
    if (out) {
        fprintf(out, "| case | samples | CPU batch (%s, %d threads) ms | OpenCL (%s) ms | CPU / OpenCL | first OpenCL call ms | same bits |\n",
                cn_isa_name(cn_isa_active()), threads, dev.name);
        fprintf(out, "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
    }
    int bad = 0;
    for (size_t c = 0; c < ncases; c++) {
        const bench_case *bc = &cases[c];
        cn_config cfg;
        cn_config_init(&cfg);
        cfg.type = bc->type;
        cfg.fractal = bc->fractal;
        cfg.octaves = 6;
        cfg.dims = bc->dims;
        cfg.seed = 42;
        cfg.frequency = 1.0 / 32;
        cn_noise gen;
        if (cn_noise_build(&gen, &cfg) != CN_OK)
            return 1;
        /* The first OpenCL call compiles the program (the float one, once per context) and its
         * kernels; the first CPU call warms the caches. */
        double first = pass(bc, &gen, cl, threads, b);
        if (first < 0 || pass(bc, &gen, NULL, threads, a) < 0)
            return 1;
        double tc[101], tg[101], ratio[101];
        int same = 1;
        for (int r = 0; r < rounds; r++) {
            memset(a, 0, total * sizeof *a);
            memset(b, 0xff, total * sizeof *b);
            tc[r] = pass(bc, &gen, NULL, threads, a);
            tg[r] = pass(bc, &gen, cl, threads, b);
            if (tc[r] < 0 || tg[r] < 0)
                return 1;
            ratio[r] = tc[r] / tg[r];
            same &= memcmp(a, b, total * sizeof *a) == 0;
        }
        double mc = bench_median(tc, rounds), mg = bench_median(tg, rounds), mr = bench_median(ratio, rounds);
        printf("%-28s CPU %8.1f ms   OpenCL %8.1f ms   CPU/OpenCL %.3g (median of %d)   first OpenCL call %.0f ms   %s\n",
               bc->name, 1e3 * mc, 1e3 * mg, mr, rounds, 1e3 * first, same ? "same bits" : "BITS DIFFER");
        if (out)
            fprintf(out, "| %s | %zu | %.1f | %.1f | %.3g | %.0f | %s |\n", bc->name, total, 1e3 * mc, 1e3 * mg, mr,
                    1e3 * first, same ? "yes" : "NO");
        bad |= !same;
    }
    if (out)
        fclose(out);
    cn_opencl_close(cl);
    free(a);
    free(b);
    return bad;
}
