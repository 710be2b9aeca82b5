/*
 * batch.c -- grid and point-array evaluation: argument checks, splitting the work over threads,
 * and the min/max of the results. The per-ISA loops live in src/kernels/entries.inc.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include "cnoise.h"
#include "kernels/dispatch.h"

/* Below this many points per thread, starting a thread costs more than it saves. */
#define CN_MIN_POINTS_PER_THREAD 16384

typedef struct worker {
    pthread_t tid;
    cn__batch_fn fn;
    const cn__job *job;
    size_t begin, end;
    double mm[2];
} worker;

static void *run_worker(void *arg)
{
    worker *w = (worker *)arg;
    w->fn(w->job, w->begin, w->end, w->mm);
    return NULL;
}

static int built(const cn_noise *g)
{
    return cn__generator_ok(g) && cn__isa_scalar.f64->batch[g->kernel] != NULL;
}

/* Runs points [0, total) of the job on up to `threads` threads; mm gets the min/max. */
static cn_status run(const cn__job *job, size_t total, int threads, double mm[2])
{
    if (threads < 0 || threads > CN_MAX_THREADS)
        return CN_E_THREADS;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n < 1 ? 1 : n > CN_MAX_THREADS ? CN_MAX_THREADS : (int)n;
    }
    size_t useful = total / CN_MIN_POINTS_PER_THREAD + 1;
    if ((size_t)threads > useful)
        threads = (int)useful;
    const cn__isa_table *t = cn__isa_table_active();
    cn__batch_fn fn = (job->out_f32 ? t->f32 : t->f64)->batch[job->g->kernel];
    worker w[CN_MAX_THREADS];
    for (int i = 0; i < threads; i++) {
        w[i].fn = fn;
        w[i].job = job;
        w[i].begin = total / (size_t)threads * (size_t)i + (total % (size_t)threads < (size_t)i ? total % (size_t)threads : (size_t)i);
        w[i].end = total / (size_t)threads * (size_t)(i + 1) +
                   (total % (size_t)threads < (size_t)(i + 1) ? total % (size_t)threads : (size_t)(i + 1));
    }
    /* Threads 1.. run in new threads; a thread that cannot start is run here instead (the results
     * do not depend on who computes them). */
    int started[CN_MAX_THREADS] = {0};
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&w[i].tid, NULL, run_worker, &w[i]) == 0;
    run_worker(&w[0]);
    for (int i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(w[i].tid, NULL);
        else
            run_worker(&w[i]);
    }
    mm[0] = INFINITY;
    mm[1] = -INFINITY;
    for (int i = 0; i < threads; i++) {
        if (w[i].mm[0] < mm[0])
            mm[0] = w[i].mm[0];
        if (w[i].mm[1] > mm[1])
            mm[1] = w[i].mm[1];
    }
    if (mm[0] > mm[1]) /* no non-NaN result */
        mm[0] = mm[1] = NAN;
    return CN_OK;
}

/* Whether [a, a + an) and [b, b + bn) (bytes, an and bn > 0) overlap. Distances, not ends, are
 * compared, so that nothing wraps around for lengths near SIZE_MAX. */
static int overlaps(const void *a, size_t an, const void *b, size_t bn)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x <= y ? y - x < an : x - y < bn;
}

static cn_status grid(const cn_noise *g, const double *origin, const double *step, const size_t *count, void *out,
                      size_t out_len, int f32, int threads, double mm[2], int want_range)
{
    if (!g || !origin || !step || !count || !out)
        return CN_E_NULL;
    if (!built(g))
        return CN_E_RANGE;
    cn__job job = {0};
    job.g = g;
    job.kind = CN__GRID;
    job.out_f32 = f32;
    job.want_range = want_range;
    job.out = out;
    size_t total = 1;
    for (int a = 0; a < g->cfg.dims; a++) {
        if (count[a] == 0 || !isfinite(origin[a]) || !isfinite(step[a]))
            return CN_E_RANGE;
        if (total > SIZE_MAX / count[a])
            return CN_E_OVERFLOW;
        total *= count[a];
        job.origin[a] = origin[a];
        job.step[a] = step[a];
        job.count[a] = count[a];
    }
    if (total > SIZE_MAX / (f32 ? sizeof(float) : sizeof(double)))
        return CN_E_OVERFLOW;
    if (out_len < total)
        return CN_E_RANGE;
    if (overlaps(g, sizeof *g, out, total * (f32 ? sizeof(float) : sizeof(double))))
        return CN_E_OVERLAP; /* the kernels read *g while they write */
    return run(&job, total, threads, mm);
}

static cn_status points(const cn_noise *g, size_t n, const void *const *coords, int coords_f32, void *out, int f32,
                        int threads, double mm[2], int want_range)
{
    if (!g || !coords || !out)
        return CN_E_NULL;
    if (!built(g))
        return CN_E_RANGE;
    const size_t csize = coords_f32 ? sizeof(float) : sizeof(double), osize = f32 ? sizeof(float) : sizeof(double);
    if (n > SIZE_MAX / (csize > osize ? csize : osize))
        return CN_E_OVERFLOW;
    cn__job job = {0};
    job.g = g;
    job.kind = CN__POINTS;
    job.want_range = want_range;
    job.coords_f32 = coords_f32;
    job.out_f32 = f32;
    job.out = out;
    for (int a = 0; a < g->cfg.dims; a++) {
        if (!coords[a])
            return CN_E_NULL;
        if (n && overlaps(coords[a], n * csize, out, n * osize))
            return CN_E_OVERLAP;
        job.coords[a] = coords[a];
    }
    if (n && overlaps(g, sizeof *g, out, n * osize))
        return CN_E_OVERLAP;
    if (n == 0) {
        mm[0] = mm[1] = NAN;
        return threads < 0 || threads > CN_MAX_THREADS ? CN_E_THREADS : CN_OK;
    }
    return run(&job, n, threads, mm);
}

cn_status cn_grid_eval(const cn_noise *g, const double *origin, const double *step, const size_t *count, double *out,
                       size_t out_len, int threads, double range[2])
{
    double mm[2];
    cn_status st = grid(g, origin, step, count, out, out_len, 0, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = mm[0];
        range[1] = mm[1];
    }
    return st;
}

cn_status cn_grid_evalf(const cn_noise *g, const double *origin, const double *step, const size_t *count, float *out,
                        size_t out_len, int threads, float range[2])
{
    double mm[2];
    cn_status st = grid(g, origin, step, count, out, out_len, 1, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = (float)mm[0];
        range[1] = (float)mm[1];
    }
    return st;
}

cn_status cn_points_eval(const cn_noise *g, size_t n, const double *const *coords, double *out, int threads,
                         double range[2])
{
    double mm[2];
    cn_status st = points(g, n, (const void *const *)coords, 0, out, 0, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = mm[0];
        range[1] = mm[1];
    }
    return st;
}

cn_status cn_points_evalf(const cn_noise *g, size_t n, const float *const *coords, float *out, int threads,
                          float range[2])
{
    double mm[2];
    cn_status st = points(g, n, (const void *const *)coords, 1, out, 1, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = (float)mm[0];
        range[1] = (float)mm[1];
    }
    return st;
}
