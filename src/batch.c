/*
 * batch.c -- grid and point-array evaluation: argument checks, splitting the work over threads,
 * and the min/max of the results. The per-ISA loops live in src/kernels/entries.inc.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include "cnoise.h"
#include "dispatch.h"
#include "misuse.h"
#include "threads.h"

/* Below this many points per thread, starting a thread costs more than it saves. */
#define CN_MIN_POINTS_PER_THREAD 16384

/*
 * Work is handed out in chunks from a shared counter rather than as one fixed share per thread, so
 * that a thread on a core that is busy with something else takes fewer chunks and the others take
 * the rest: the job ends when the last chunk does, not when the slowest thread's share does.
 *
 * Chunk size: about CN_CHUNKS_PER_THREAD chunks per thread, so that at the end the threads wait for
 * at most one chunk, 1/16 of an even share (6%); but no fewer than CN_MIN_CHUNK points, so that
 * the cost of a chunk (one atomic add, the kernel's cache reset and its start position, a division
 * per axis: well under a microsecond) stays below about 0.1% of its work (16384 points take tens
 * of microseconds even on the fastest kernels); and no more than an even share, so that every
 * thread gets one. Chunks are a multiple of 64 points, so that vector loops (up to 16 lanes)
 * rarely have a tail and chunks start 64 points apart in the output. Grids whose rows fit in a
 * chunk are cut at row starts instead (the nearest whole number of rows, at least one, so up to
 * 1.5 times the size above): the grid kernels are fastest on whole rows. Each point is independent
 * of the others, so the results do not depend on the chunks, the thread count or which thread
 * evaluates which chunk; one thread evaluates the whole job in one call.
 */
#define CN_CHUNKS_PER_THREAD 16
#define CN_MIN_CHUNK 16384 /* a multiple of 64 */

/* What all the workers of one job share. */
typedef struct chunks {
    cn__batch_fn fn;
    const cn__job *job;
    const cn__isa_part *part;  /* the instruction set's kernels (layered jobs: one per layer) */
    const cn_layer *layers;    /* a layered job: the weighted sum of these; else NULL */
    size_t nlayers;
    const cn_noise *const *psi; /* a curl job: its potentials (curl_range); else NULL */
    const cn_warp *warps;      /* a warped job: its stages (warp_range); else NULL */
    size_t nwarps;
    size_t block;              /* layered jobs: points per block of the scratch buffers */
    size_t total, size, count; /* points, points per chunk (the last one may have fewer), chunks */
    atomic_size_t next;        /* the next chunk to take */
} chunks;

/* Points [begin, end) of a layered job: per block of at most CN_LAYER_BLOCK points, each
 * layer's batch kernel into a scratch buffer, the weighted sum in double in layer order from 0
 * (as cn_layers_eval), rounded to float for float jobs (cn__round_f32); mm gets the min/max of the
 * sums. No memory is allocated: the buffers are on the stack (32 KiB), in a frame of its own: inlined
 * into run_worker, they would add to the stack of every batch call. */
#define CN_LAYER_BLOCK 2048
static CN_NOINLINE void layered_range(const chunks *c, size_t begin, size_t end, double mm[2])
{
    const cn__job *job = c->job;
    double acc[CN_LAYER_BLOCK];
    union {
        double d[CN_LAYER_BLOCK];
        float f[CN_LAYER_BLOCK];
    } tmp;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t b = begin; b < end; b += c->block) {
        const size_t n = end - b < c->block ? end - b : c->block;
        for (size_t i = 0; i < n; i++)
            acc[i] = 0.0;
        for (size_t k = 0; k < c->nlayers; k++) {
            cn__job lj = *job;
            lj.g = cn__gen_of(c->layers[k].noise);
            lj.want_range = 0;
            lj.out = job->out_f32 ? (void *)tmp.f : (void *)tmp.d;
            lj.out_base = b;
            double unused[2];
            c->part->batch[cn__gen_kernel(lj.g)](&lj, b, b + n, unused);
            const double w = c->layers[k].weight;
            if (job->out_f32)
                for (size_t i = 0; i < n; i++)
                    acc[i] += w * (double)tmp.f[i];
            else
                for (size_t i = 0; i < n; i++)
                    acc[i] += w * tmp.d[i];
        }
        if (job->out_f32) {
            float *o = (float *)job->out + b;
            for (size_t i = 0; i < n; i++) {
                o[i] = cn__round_f32(acc[i]);
                if (job->want_range)
                    cn__range_add(&lo, &hi, (double)o[i]);
            }
        } else {
            double *o = (double *)job->out + b;
            for (size_t i = 0; i < n; i++) {
                o[i] = acc[i];
                if (job->want_range)
                    cn__range_add(&lo, &hi, o[i]);
            }
        }
    }
    mm[0] = lo;
    mm[1] = hi;
}

/*
 * Points [begin, end) of a curl job (cn_grid_curl): per block of at most CN_CURL_BLOCK points,
 * each potential's gradient kernel into scratch buffers on the stack, its terms added to the
 * field's components (job->grad[0..dims)) in the order that gives the documented differences
 * exactly (x - y is x + (-y), and 0 + x is x):
 *     2D: v = (d psi/dy, -d psi/dx);
 *     3D: v0 = d psi3/dy - d psi2/dz, v1 = d psi1/dz - d psi3/dx, v2 = d psi2/dx - d psi1/dy.
 */
#define CN_CURL_BLOCK 1024
#define CN_CURL_TERM(T, dst, src, neg, first)                                            \
    do {                                                                                  \
        T *d_ = (T *)(dst);                                                               \
        const T *s_ = (const T *)(src);                                                   \
        for (size_t i = 0; i < n; i++)                                                    \
            d_[i] = (first) ? ((neg) ? -s_[i] : s_[i]) : ((neg) ? d_[i] - s_[i] : d_[i] + s_[i]); \
    } while (0)
static CN_NOINLINE void curl_range(const chunks *c, size_t begin, size_t end, double mm[2])
{
    const cn__job *job = c->job;
    const int f32 = job->out_f32, dims = job->g->cfg.dims;
    /* each potential's term: {potential, derivative axis, component, negated, first into it} */
    static const int terms2[2][5] = {{0, 1, 0, 0, 1}, {0, 0, 1, 1, 1}};
    static const int terms3[6][5] = {{0, 2, 1, 0, 1}, {0, 1, 2, 1, 1}, {1, 2, 0, 1, 1},
                                     {1, 0, 2, 0, 0}, {2, 1, 0, 0, 0}, {2, 0, 1, 1, 0}};
    const int (*terms)[5] = dims == 2 ? terms2 : terms3;
    const int nterms = dims == 2 ? 2 : 6;
    union {
        double d[4][CN_CURL_BLOCK];
        float f[4][CN_CURL_BLOCK];
    } t; /* the gradient, then the value (unused) */
    for (size_t b = begin; b < end; b += CN_CURL_BLOCK) {
        const size_t n = end - b < CN_CURL_BLOCK ? end - b : CN_CURL_BLOCK;
        for (int k = 0; k < (dims == 2 ? 1 : 3); k++) {
            cn__job lj = *job;
            lj.g = cn__gen_of(c->psi[k]);
            lj.out = f32 ? (void *)t.f[3] : (void *)t.d[3];
            for (int a = 0; a < 3; a++)
                lj.grad[a] = f32 ? (void *)t.f[a] : (void *)t.d[a];
            lj.out_base = b;
            double unused[2];
            c->part->grad[cn__gen_kernel(lj.g)](&lj, b, b + n, unused);
            for (int e = 0; e < nterms; e++) {
                const int *m = terms[e];
                if (m[0] != k)
                    continue;
                if (f32)
                    CN_CURL_TERM(float, (float *)job->grad[m[2]] + b, t.f[m[1]], m[3], m[4]);
                else
                    CN_CURL_TERM(double, (double *)job->grad[m[2]] + b, t.d[m[1]], m[3], m[4]);
            }
        }
    }
    mm[0] = INFINITY;
    mm[1] = -INFINITY;
}

static CN_NOINLINE void warp_range(const chunks *c, size_t begin, size_t end, double mm[2]);

typedef struct worker {
    cn__thread thread;
    chunks *work;
    int started; /* a thread was started for it (or it is the calling thread's) */
    double mm[2];
} worker;

/* Takes chunks until none is left; w->mm gets the min/max of the non-NaN results it computed
 * (+inf, -inf if none). */
static void *run_worker(void *arg)
{
    worker *w = (worker *)arg;
    chunks *c = w->work;
    double lo = INFINITY, hi = -INFINITY;
    for (;;) {
        /* Relaxed: each index is taken once, and joining the thread orders the results for the caller.
         * The counter passes c->count by at most the number of threads, far from wrapping. */
        size_t k = atomic_fetch_add_explicit(&c->next, 1, memory_order_relaxed);
        if (k >= c->count)
            break;
        size_t begin = k * c->size, end = c->total - begin > c->size ? begin + c->size : c->total;
        double mm[2];
        if (c->warps)
            warp_range(c, begin, end, mm);
        else if (c->psi)
            curl_range(c, begin, end, mm);
        else if (c->layers)
            layered_range(c, begin, end, mm);
        else
            c->fn(c->job, begin, end, mm);
        cn__range_merge(&lo, &hi, mm[0], mm[1]);
    }
    w->mm[0] = lo;
    w->mm[1] = hi;
    return NULL;
}

static int built(const cn__gen *g)
{
    return cn__generator_ok(g) && cn__isa_scalar.f64->batch[cn__gen_kernel(g)] != NULL;
}

/* Points per chunk for a job of total points on threads threads (see CN_CHUNKS_PER_THREAD). */
static size_t chunk_size(const cn__job *job, size_t total, int threads)
{
    if (threads == 1)
        return total; /* one call over the whole job, as without threads */
    const size_t t = (size_t)threads;
    size_t size = total / (t * CN_CHUNKS_PER_THREAD);
    if (size < CN_MIN_CHUNK)
        size = CN_MIN_CHUNK;
    const size_t even = total / t + (total % t != 0); /* an even share, rounded up */
    if (size > even)
        size = even;
    size = (size + 63) / 64 * 64; /* total < SIZE_MAX / 4 (the output's bytes fit in size_t) */
    if (job->kind == CN__GRID && job->count[0] <= size) {
        const size_t row = job->count[0];
        size = (size + row / 2) / row * row; /* at least one row, at most 1.5 times size */
    }
    return size;
}

/* Runs points [0, total) of the job (layered: the sum of nlayers layers) on up to `threads`
 * threads; mm gets the min/max. */
static cn_status run_job(const cn__job *job, size_t total, int threads, double mm[2], const cn_layer *layers,
                         size_t nlayers, const cn_noise *const *psi, const cn_warp *warps, size_t nwarps)
{
    if (threads < 0 || threads > CN_MAX_THREADS)
        return CN_E_THREADS;
    if (threads == 0) {
        const int n = cn__cpu_count();
        threads = n > CN_MAX_THREADS ? CN_MAX_THREADS : n;
    }
    size_t useful = total / CN_MIN_POINTS_PER_THREAD + 1;
    if ((size_t)threads > useful)
        threads = (int)useful;
    const cn__isa_table *t = cn__isa_table_active();
    chunks work;
    work.part = job->out_f32 ? t->f32 : t->f64;
    work.fn = (job->grad[0] ? work.part->grad : work.part->batch)[cn__gen_kernel(job->g)];
    work.job = job;
    work.layers = layers;
    work.nlayers = nlayers;
    work.psi = psi;
    work.warps = warps;
    work.nwarps = nwarps;
    /* Blocks of whole grid rows where a row fits: the grid kernels are fastest on whole rows. */
    work.block = CN_LAYER_BLOCK;
    if (job->kind == CN__GRID && job->count[0] <= CN_LAYER_BLOCK)
        work.block = CN_LAYER_BLOCK / job->count[0] * job->count[0];
    work.total = total;
    work.size = chunk_size(job, total, threads);
    work.count = total / work.size + (total % work.size != 0);
    atomic_init(&work.next, 0);
    worker w[CN_MAX_THREADS];
    for (int i = 0; i < threads; i++) {
        w[i].work = &work;
        w[i].started = i == 0;
    }
    /* Workers 1.. run in new threads, worker 0 on this one. A thread that cannot start is not an
     * error: the others, this one included, take its chunks. */
    for (int i = 1; i < threads; i++)
        w[i].started = cn__thread_start(&w[i].thread, run_worker, &w[i]) == 0;
    run_worker(&w[0]);
    for (int i = 1; i < threads; i++)
        if (w[i].started)
            cn__thread_join(&w[i].thread);
    mm[0] = INFINITY;
    mm[1] = -INFINITY;
    for (int i = 0; i < threads; i++) {
        if (!w[i].started)
            continue;
        cn__range_merge(&mm[0], &mm[1], w[i].mm[0], w[i].mm[1]);
    }
    if (mm[0] > mm[1]) /* no non-NaN result */
        mm[0] = mm[1] = NAN;
    return CN_OK;
}

static cn_status run(const cn__job *job, size_t total, int threads, double mm[2], const cn_layer *layers,
                     size_t nlayers)
{
    return run_job(job, total, threads, mm, layers, nlayers, NULL, NULL, 0);
}

/* Whether [a, a + an) and [b, b + bn) (bytes, an and bn > 0) overlap. Distances, not ends, are
 * compared, so that nothing wraps around for lengths near SIZE_MAX. */
static int overlaps(const void *a, size_t an, const void *b, size_t bn)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x <= y ? y - x < an : x - y < bn;
}

/* A grid job of generator g (a layered job: of its first layer, whose dimension they all have);
 * *total gets its number of points. Also the OpenCL backend's (src/opencl.c). */
cn_status cn__grid_job(const cn__gen *g, const double *origin, const double *step, const size_t *count, void *out,
                          size_t out_len, int f32, int want_range, cn__job *jp, size_t *totalp)
{
    if (!g || !origin || !step || !count || !out)
        return CN_E_NULL;
    if (!built(g))
        return CN_E_UNBUILT;
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
    if (overlaps(g, sizeof(cn_noise), out, total * (f32 ? sizeof(float) : sizeof(double))))
        return CN_E_OVERLAP; /* the kernels read *g while they write */
    *jp = job;
    *totalp = total;
    return CN_OK;
}

static cn_status grid(const cn__gen *g, const double *origin, const double *step, const size_t *count, void *out,
                      size_t out_len, int f32, int threads, double mm[2], int want_range)
{
    cn__job job;
    size_t total;
    cn_status st = cn__grid_job(g, origin, step, count, out, out_len, f32, want_range, &job, &total);
    return st != CN_OK ? st : run(&job, total, threads, mm, NULL, 0);
}

cn_status cn__layers_check(const cn_layer *layers, size_t count)
{
    if (!layers)
        return CN_E_NULL;
    if (count == 0)
        return CN_E_LAYERS;
    for (size_t k = 0; k < count; k++) {
        if (!layers[k].noise)
            return CN_E_NULL;
        if (!built(cn__gen_of(layers[k].noise)))
            return CN_E_UNBUILT;
        if (cn__gen_of(layers[k].noise)->cfg.dims != cn__gen_of(layers[0].noise)->cfg.dims)
            return CN_E_LAYERS;
        if (!isfinite(layers[k].weight))
            return CN_E_SIGNAL;
    }
    return CN_OK;
}

static cn_status layers_grid(const cn_layer *layers, size_t nlayers, const double *origin, const double *step,
                             const size_t *count, void *out, size_t out_len, int f32, int threads, double mm[2],
                             int want_range)
{
    cn_status st = cn__layers_check(layers, nlayers);
    if (st != CN_OK)
        return st;
    cn__job job;
    size_t total;
    if ((st = cn__grid_job(cn__gen_of(layers[0].noise), origin, step, count, out, out_len, f32, want_range, &job, &total)) != CN_OK)
        return st;
    for (size_t k = 1; k < nlayers; k++)
        if (overlaps(layers[k].noise, sizeof(cn_noise), out, total * (f32 ? sizeof(float) : sizeof(double))))
            return CN_E_OVERLAP;
    if (overlaps(layers, nlayers * sizeof *layers, out, total * (f32 ? sizeof(float) : sizeof(double))))
        return CN_E_OVERLAP; /* the workers read the layers while they write */
    return run(&job, total, threads, mm, layers, nlayers);
}

cn_status cn_layers_grid_eval(const cn_layer *layers, size_t nlayers, const double *origin, const double *step,
                              const size_t *count, double *out, size_t out_len, int threads, double range[2])
{
    double mm[2];
    cn_status st = layers_grid(layers, nlayers, origin, step, count, out, out_len, 0, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = mm[0];
        range[1] = mm[1];
    }
    return st;
}

cn_status cn_layers_grid_evalf(const cn_layer *layers, size_t nlayers, const double *origin, const double *step,
                               const size_t *count, float *out, size_t out_len, int threads, float range[2])
{
    double mm[2];
    cn_status st = layers_grid(layers, nlayers, origin, step, count, out, out_len, 1, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = (float)mm[0];
        range[1] = (float)mm[1];
    }
    return st;
}

/* A point-array job of generator g over n points (n may be 0). Also the OpenCL backend's. */
cn_status cn__points_job(const cn__gen *g, size_t n, const void *const *coords, int coords_f32, void *out, int f32,
                         int want_range, cn__job *jp)
{
    if (!g || !coords || !out)
        return CN_E_NULL;
    if (!built(g))
        return CN_E_UNBUILT;
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
    if (n && overlaps(g, sizeof(cn_noise), out, n * osize))
        return CN_E_OVERLAP;
    *jp = job;
    return CN_OK;
}

static cn_status points(const cn__gen *g, size_t n, const void *const *coords, int coords_f32, void *out, int f32,
                        int threads, double mm[2], int want_range)
{
    cn__job job;
    cn_status st = cn__points_job(g, n, coords, coords_f32, out, f32, want_range, &job);
    if (st != CN_OK)
        return st;
    if (n == 0) {
        mm[0] = mm[1] = NAN;
        return threads < 0 || threads > CN_MAX_THREADS ? CN_E_THREADS : CN_OK;
    }
    return run(&job, n, threads, mm, NULL, 0);
}

cn_status cn_grid_eval(const cn_noise *gen, const double *origin, const double *step, const size_t *count, double *out,
                       size_t out_len, int threads, double range[2])
{
    double mm[2];
    cn_status st = grid(cn__gen_of(gen), origin, step, count, out, out_len, 0, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = mm[0];
        range[1] = mm[1];
    }
    return st;
}

cn_status cn_grid_evalf(const cn_noise *gen, const double *origin, const double *step, const size_t *count, float *out,
                        size_t out_len, int threads, float range[2])
{
    double mm[2];
    cn_status st = grid(cn__gen_of(gen), origin, step, count, out, out_len, 1, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = (float)mm[0];
        range[1] = (float)mm[1];
    }
    return st;
}

cn_status cn_points_eval(const cn_noise *gen, size_t n, const double *const *coords, double *out, int threads,
                         double range[2])
{
    double mm[2];
    cn_status st = points(cn__gen_of(gen), n, (const void *const *)coords, 0, out, 0, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = mm[0];
        range[1] = mm[1];
    }
    return st;
}

cn_status cn_points_evalf(const cn_noise *gen, size_t n, const float *const *coords, float *out, int threads,
                          float range[2])
{
    double mm[2];
    cn_status st = points(cn__gen_of(gen), n, (const void *const *)coords, 1, out, 1, threads, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = (float)mm[0];
        range[1] = (float)mm[1];
    }
    return st;
}

/* The conveniences: cn_grid_evalf with the arguments of the common case, after the dimension
 * check that the general call cannot make (its count array has one entry per dimension). */
static cn_status grid_f32_n(const cn_noise *gen, int dims, const double *origin, double step, const size_t *count,
                            float *out)
{
    cn_status st = cn_noise_check(gen, dims);
    if (st != CN_OK)
        return st;
    size_t total = 1;
    for (int a = 0; a < dims; a++) {
        if (count[a] != 0 && total > SIZE_MAX / count[a])
            return CN_E_OVERFLOW;
        total *= count[a];
    }
    const double steps[3] = {step, step, step};
    return cn_grid_evalf(gen, origin, steps, count, out, total, 0, NULL);
}

cn_status cn_grid2f(const cn_noise *gen, double x0, double y0, double step, size_t width, size_t height, float *out)
{
    const double origin[2] = {x0, y0};
    const size_t count[2] = {width, height};
    return grid_f32_n(gen, 2, origin, step, count, out);
}

cn_status cn_grid3f(const cn_noise *gen, double x0, double y0, double z0, double step, size_t nx, size_t ny, size_t nz,
                    float *out)
{
    const double origin[3] = {x0, y0, z0};
    const size_t count[3] = {nx, ny, nz};
    return grid_f32_n(gen, 3, origin, step, count, out);
}

/* ---- Value and gradient ---- */

/*
 * Adds the gradient arrays to a checked job of `total` points (coords: a point array's coordinate
 * arrays of csize bytes per element, else NULL): grad and its first dims arrays present, the
 * kernel has a gradient form, and no array overlaps out, another gradient array, a coordinate
 * array or *g (the kernels read it while they write).
 */
static cn_status grad_job(cn__job *job, size_t total, void *const *grad, const void *const *coords, size_t csize)
{
    const cn__gen *g = job->g;
    const int dims = g->cfg.dims;
    if (!grad)
        return CN_E_NULL;
    for (int a = 0; a < dims; a++)
        if (!grad[a])
            return CN_E_NULL;
    if (!cn__gen_has_grad(g))
        return CN_E_UNSUPPORTED;
    const size_t bytes = total * (job->out_f32 ? sizeof(float) : sizeof(double));
    for (int a = 0; a < dims && total; a++) {
        if (overlaps(g, sizeof(cn_noise), grad[a], bytes) || overlaps(job->out, bytes, grad[a], bytes))
            return CN_E_OVERLAP;
        for (int b = 0; b < a; b++)
            if (overlaps(grad[b], bytes, grad[a], bytes))
                return CN_E_OVERLAP;
        for (int b = 0; coords && b < dims; b++)
            if (overlaps(coords[b], total * csize, grad[a], bytes))
                return CN_E_OVERLAP;
    }
    for (int a = 0; a < dims; a++)
        job->grad[a] = grad[a];
    return CN_OK;
}

static cn_status grid_grad(const cn_noise *gen, const double *origin, const double *step, const size_t *count,
                           void *out, void *const *grad, size_t out_len, int f32, int threads)
{
    cn__job job;
    size_t total;
    double mm[2];
    cn_status st = cn__grid_job(cn__gen_of(gen), origin, step, count, out, out_len, f32, 0, &job, &total);
    if (st == CN_OK)
        st = grad_job(&job, total, grad, NULL, 0);
    return st != CN_OK ? st : run(&job, total, threads, mm, NULL, 0);
}

cn_status cn_grid_eval_grad(const cn_noise *gen, const double *origin, const double *step, const size_t *count,
                            double *out, double *const *grad, size_t out_len, int threads)
{
    return grid_grad(gen, origin, step, count, out, (void *const *)grad, out_len, 0, threads);
}

cn_status cn_grid_evalf_grad(const cn_noise *gen, const double *origin, const double *step, const size_t *count,
                             float *out, float *const *grad, size_t out_len, int threads)
{
    return grid_grad(gen, origin, step, count, out, (void *const *)grad, out_len, 1, threads);
}

static cn_status points_grad(const cn_noise *gen, size_t n, const void *const *coords, int f32, void *out,
                             void *const *grad, int threads)
{
    cn__job job;
    double mm[2];
    cn_status st = cn__points_job(cn__gen_of(gen), n, coords, f32, out, f32, 0, &job);
    if (st == CN_OK)
        st = grad_job(&job, n, grad, coords, f32 ? sizeof(float) : sizeof(double));
    if (st != CN_OK || n == 0)
        return st != CN_OK ? st : threads < 0 || threads > CN_MAX_THREADS ? CN_E_THREADS : CN_OK;
    return run(&job, n, threads, mm, NULL, 0);
}

cn_status cn_points_eval_grad(const cn_noise *gen, size_t n, const double *const *coords, double *out,
                              double *const *grad, int threads)
{
    return points_grad(gen, n, (const void *const *)coords, 0, out, (void *const *)grad, threads);
}

cn_status cn_points_evalf_grad(const cn_noise *gen, size_t n, const float *const *coords, float *out,
                               float *const *grad, int threads)
{
    return points_grad(gen, n, (const void *const *)coords, 1, out, (void *const *)grad, threads);
}

/* One point through the scalar build's gradient entry (every instruction set gives its bits):
 * a point-array job of one point; the value to *value (left as it is on misuse: the callers
 * start it as NaN). On misuse (gen or p NULL, gen not built, a kernel without a gradient form)
 * the gradient is NaN where the generator's dimension is known (a built generator), else
 * untouched. grad may be NULL. */
static void point_grad(const cn_noise *gen, const void *p, int f32, void *value, void *grad, const char *fn)
{
    const cn__gen *g = cn__gen_of(gen);
    const int is_built = g && built(g);
    const int dims = is_built ? g->cfg.dims : 0;
    if (!p || !is_built || !cn__gen_has_grad(g)) {
        cn__grad_misuse(g, fn, p == NULL);
        for (int a = 0; grad && a < dims; a++) {
            if (f32)
                ((float *)grad)[a] = NAN;
            else
                ((double *)grad)[a] = NAN;
        }
        return;
    }
    /* a one-point array job (its checks pass: every pointer is set and the buffers are local) */
    double dv[4] = {0, 0, 0, 0};
    float fv[4] = {0, 0, 0, 0};
    const void *coords[4] = {p, p, p, p};
    for (int a = 0; a < dims; a++)
        coords[a] = f32 ? (const void *)((const float *)p + a) : (const void *)((const double *)p + a);
    cn__job job;
    double mm[2];
    if (cn__points_job(g, 1, coords, f32, value, f32, 0, &job) != CN_OK)
        return;
    for (int a = 0; a < dims; a++)
        job.grad[a] = f32 ? (void *)&fv[a] : (void *)&dv[a];
    (f32 ? cn__isa_scalar.f32 : cn__isa_scalar.f64)->grad[cn__gen_kernel(g)](&job, 0, 1, mm);
    for (int a = 0; grad && a < dims; a++) {
        if (f32)
            ((float *)grad)[a] = fv[a];
        else
            ((double *)grad)[a] = dv[a];
    }
}

double cn_eval_grad(const cn_noise *gen, const double *p, double *grad)
{
    double v = NAN;
    point_grad(gen, p, 0, &v, grad, "cn_eval_grad");
    return v;
}

float cn_evalf_grad(const cn_noise *gen, const float *p, float *grad)
{
    float v = NAN;
    point_grad(gen, p, 1, &v, grad, "cn_evalf_grad");
    return v;
}

/* ---- Curl noise ---- */

/* The potentials of a curl: psi[0] 2D (one potential) or 3D (three, all 3D), each built with a
 * gradient form; *np gets their number. */
static cn_status curl_check(const cn_noise *const *psi, int *np)
{
    if (!psi || !psi[0])
        return CN_E_NULL;
    const cn__gen *g0 = cn__gen_of(psi[0]);
    if (!built(g0))
        return CN_E_UNBUILT;
    if (g0->cfg.dims != 2 && g0->cfg.dims != 3)
        return CN_E_DIMS;
    *np = g0->cfg.dims == 2 ? 1 : 3;
    for (int k = 0; k < *np; k++) {
        if (!psi[k])
            return CN_E_NULL;
        const cn__gen *g = cn__gen_of(psi[k]);
        if (!built(g))
            return CN_E_UNBUILT;
        if (g->cfg.dims != g0->cfg.dims)
            return CN_E_DIMS;
        if (!cn__gen_has_grad(g))
            return CN_E_UNSUPPORTED;
    }
    return CN_OK;
}

static cn_status grid_curl(const cn_noise *const *psi, const double *origin, const double *step, const size_t *count,
                           void *const *v, size_t out_len, int f32, int threads)
{
    int np;
    cn_status st = curl_check(psi, &np);
    if (st != CN_OK)
        return st;
    if (!v)
        return CN_E_NULL;
    const int dims = cn__gen_of(psi[0])->cfg.dims;
    cn__job job;
    size_t total;
    /* the grid's checks, with the first component as the output */
    if ((st = cn__grid_job(cn__gen_of(psi[0]), origin, step, count, v[0], out_len, f32, 0, &job, &total)) != CN_OK)
        return st;
    const size_t bytes = total * (f32 ? sizeof(float) : sizeof(double));
    for (int a = 0; a < dims; a++) {
        if (!v[a])
            return CN_E_NULL;
        for (int k = 0; k < np; k++)
            if (overlaps(psi[k], sizeof(cn_noise), v[a], bytes))
                return CN_E_OVERLAP;
        for (int b = 0; b < a; b++)
            if (overlaps(v[b], bytes, v[a], bytes))
                return CN_E_OVERLAP;
        if (overlaps(psi, (size_t)np * sizeof *psi, v[a], bytes))
            return CN_E_OVERLAP; /* the workers read psi while they write */
        job.grad[a] = v[a];
    }
    double mm[2];
    return run_job(&job, total, threads, mm, NULL, 0, psi, NULL, 0);
}

cn_status cn_grid_curl(const cn_noise *const *psi, const double *origin, const double *step, const size_t *count,
                       double *const *v, size_t out_len, int threads)
{
    return grid_curl(psi, origin, step, count, (void *const *)v, out_len, 0, threads);
}

cn_status cn_grid_curlf(const cn_noise *const *psi, const double *origin, const double *step, const size_t *count,
                        float *const *v, size_t out_len, int threads)
{
    return grid_curl(psi, origin, step, count, (void *const *)v, out_len, 1, threads);
}

/* The curl at one point from the potentials' cn_eval_grad / cn_evalf_grad, by the formulas of
 * curl_range in the same order (so the grid's bits). */
#define CN_CURL_POINT(NAME, T, GRAD)                                                      \
    cn_status NAME(const cn_noise *const *psi, const T *p, T *v)                          \
    {                                                                                     \
        int np;                                                                           \
        cn_status st = curl_check(psi, &np);                                              \
        if (st != CN_OK)                                                                  \
            return st;                                                                    \
        if (!p || !v)                                                                     \
            return CN_E_NULL;                                                             \
        T g[3][3];                                                                        \
        for (int k = 0; k < np; k++)                                                      \
            GRAD(psi[k], p, g[k]);                                                        \
        if (np == 1) {                                                                    \
            v[0] = g[0][1];                                                               \
            v[1] = -g[0][0];                                                              \
        } else {                                                                          \
            v[0] = -g[1][2] + g[2][1];                                                    \
            v[1] = g[0][2] - g[2][0];                                                     \
            v[2] = -g[0][1] + g[1][0];                                                    \
        }                                                                                 \
        return CN_OK;                                                                     \
    }
CN_CURL_POINT(cn_curl, double, cn_eval_grad)
CN_CURL_POINT(cn_curlf, float, cn_evalf_grad)

/* ---- Domain warp ---- */

/* A warp job's scratch buffers, on the stack of warp_range: CN_WARP_SCRATCH doubles (28 KiB), cut
 * into rows of `block` points each (value jobs: 17 rows of 208 points; gradient jobs: 49 rows of
 * 64; a layered job has 5 (value) or 9 (gradient) rows more, for the original points and the
 * sums). More would cost stack where the fields run the grid kernels (their row tables) inside
 * warp_range: tests/test_stack.c measures it. */
#define CN_WARP_SCRATCH 3584

typedef struct warp_scratch {
    size_t block;
    double *pr[4];    /* the original point, reduced on gen's periodic axes */
    double *pc[4];    /* the point as the stages so far left it */
    double *xs[4];    /* a progressive stage's x: pc at its start */
    double *m[4][4];  /* gradient jobs: m[k][j] = d pc[k] / d p[j] */
    double *ms[4][4]; /* a progressive stage's Jacobian: m at its start */
    double *td[5];    /* a sub-job's gradient [0..dims) and value [4], double jobs */
    float *tf[5];     /* the same rows, float jobs */
    double *po[4];    /* layered jobs: the original point, before each layer's reduction */
    double *sum[5];   /* layered jobs: the weighted sums of the gradient [0..dims) and value [4] */
} warp_scratch;

static void warp_scratch_init(warp_scratch *w, double *buf, int want_grad, int layered)
{
    const size_t rows = (want_grad ? 49 : 17) + (layered ? (want_grad ? 9 : 5) : 0);
    const size_t block = CN_WARP_SCRATCH / rows / 16 * 16;
    double *p = buf;
    w->block = block;
    for (int a = 0; a < 4; a++) {
        w->pr[a] = p;
        w->pc[a] = p + block;
        w->xs[a] = p + 2 * block;
        p += 3 * block;
    }
    for (int r = 0; r < 5; r++, p += block) {
        w->td[r] = p;
        w->tf[r] = (float *)(void *)p;
    }
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 4; j++) {
            w->m[k][j] = want_grad ? p : NULL;
            w->ms[k][j] = want_grad ? p + 16 * block : NULL;
            p += want_grad ? block : 0;
        }
    p += want_grad ? 16 * block : 0; /* past ms */
    for (int a = 0; a < 4; a++) {
        w->po[a] = layered ? p : NULL;
        p += layered ? block : 0;
    }
    for (int r = 0; r < 5; r++) {
        w->sum[r] = layered && (r == 4 || want_grad) ? p : NULL;
        p += w->sum[r] ? block : 0;
    }
}

/* Element i of a float or double scratch row. */
static double warp_at(const warp_scratch *w, int f32, int row, size_t i)
{
    return f32 ? (double)w->tf[row][i] : w->td[row][i];
}

/* Generator gen at the n points x[0..dims)[0..n) by the job's instruction set and precision: the
 * value to scratch row 4 (or to out when not NULL), the gradient to rows 0..dims) when grad is
 * set. x NULL: at the job's own points [b, b + n) instead, through its walk (a grid job: the grid
 * kernels, whose coordinates are the walk's bits). */
static void warp_sub(const chunks *c, warp_scratch *w, const cn_noise *gen, double *const *x, size_t b, size_t n,
                     void *out, int grad)
{
    const int f32 = c->job->out_f32;
    cn__job lj = {0};
    if (!x) {
        lj = *c->job;
        lj.want_range = 0;
        lj.out_base = b;
    } else {
        lj.kind = CN__POINTS;
        lj.out_f32 = f32;
        for (int a = 0; a < 4; a++)
            lj.coords[a] = x[a];
        b = 0;
    }
    lj.g = cn__gen_of(gen);
    lj.out = out ? out : f32 ? (void *)w->tf[4] : (void *)w->td[4];
    for (int a = 0; a < 4; a++)
        lj.grad[a] = grad && a < lj.g->cfg.dims ? (f32 ? (void *)w->tf[a] : (void *)w->td[a]) : NULL;
    double unused[2];
    (grad ? c->part->grad : c->part->batch)[cn__gen_kernel(lj.g)](&lj, b, b + n, unused);
}

/*
 * The warp's stages for generator g over the block's n points (job points [b, b + n)), in double
 * in this order (cnoise.h, "Domain warp"): the original points in pr, reduced on g's periodic axes;
 * each stage's fields at its x, the point moved by amplitude * value axis by axis, and with a
 * gradient the Jacobian m by the chain rule, m[k][j] += amplitude * sum_l dfield_k/dx_l *
 * dx_l/dp_j (x the original point: dx/dp = I). The fields of an independent stage of a grid whose
 * generator has no period are evaluated as a grid (its row kernels: the same bits).
 */
static void warp_stages(const chunks *c, warp_scratch *w, const cn__gen *g, size_t b, size_t n, int want_grad)
{
    const int dims = g->cfg.dims, f32 = c->job->out_f32;
    const int grid_fields = c->job->kind == CN__GRID && !g->periodic; /* pr is the grid's points */
    for (int a = 0; a < dims; a++) {
        const double period = (double)g->cfg.period[a], s = g->scale[a];
        for (size_t i = 0; i < n && period > 0; i++) {
            /* u mod P as the kernels' cn_mod computes it (lattice.inc), then back to p's units */
            const double u = w->pr[a][i] * s;
            double r = u - floor(u / period) * period;
            r = r < 0 ? r + period : r;
            r = r >= period ? r - period : r;
            w->pr[a][i] = r / s;
        }
        memcpy(w->pc[a], w->pr[a], n * sizeof(double));
        for (int j = 0; want_grad && j < dims; j++)
            for (size_t i = 0; i < n; i++)
                w->m[a][j][i] = a == j ? 1.0 : 0.0;
    }
    for (size_t s = 0; s < c->nwarps; s++) {
        const cn_warp *st = &c->warps[s];
        const int progressive = st->mode == CN_WARP_PROGRESSIVE && s > 0;
        double *const *x = w->pr;
        if (progressive) {
            for (int a = 0; a < dims; a++) {
                memcpy(w->xs[a], w->pc[a], n * sizeof(double));
                for (int j = 0; want_grad && j < dims; j++)
                    memcpy(w->ms[a][j], w->m[a][j], n * sizeof(double));
            }
            x = w->xs;
        }
        const double amp = st->amplitude;
        for (int k = 0; k < dims; k++) {
            /* an independent stage of an unreduced grid: the fields at the grid's own points */
            warp_sub(c, w, st->field[k], !progressive && grid_fields ? NULL : x, b, n, NULL, want_grad);
            if (f32)
                for (size_t i = 0; i < n; i++)
                    w->pc[k][i] += amp * (double)w->tf[4][i];
            else
                for (size_t i = 0; i < n; i++)
                    w->pc[k][i] += amp * w->td[4][i];
            for (int j = 0; want_grad && j < dims; j++) {
                for (size_t i = 0; i < n; i++) {
                    double d = 0.0;
                    if (progressive)
                        for (int l = 0; l < dims; l++)
                            d += warp_at(w, f32, l, i) * w->ms[l][j][i];
                    else
                        d = warp_at(w, f32, j, i);
                    w->m[k][j][i] += amp * d;
                }
            }
        }
    }
}

/* Component j of the gradient at point i after warp_sub of the warped generator: through m,
 * rounded to float for float jobs (as their gradient arrays hold it). */
static double warp_grad_at(const warp_scratch *w, int f32, int dims, int j, size_t i)
{
    double d = 0.0;
    for (int k = 0; k < dims; k++)
        d += warp_at(w, f32, k, i) * w->m[k][j][i];
    return f32 ? (double)cn__round_f32(d) : d;
}

/* Whether generators a and b reduce the original points alike (the same period, and scale where
 * periodic, on every axis), so that the warp's stages give them the same points. */
static int same_reduction(const cn__gen *a, const cn__gen *b, int dims)
{
    for (int k = 0; k < dims; k++)
        if (a->cfg.period[k] != b->cfg.period[k] || (a->cfg.period[k] && a->scale[k] != b->scale[k]))
            return 0;
    return 1;
}

/*
 * Points [begin, end) of a warped job (cn_warp_grid_eval and the others), per block of the
 * scratch's points: the stages (warp_stages), then gen at the final point, its gradient through
 * m. Float jobs evaluate fields and gen by the float kernels and round the gradient to float once.
 * A layered job (cn_warp_layers_grid_eval and the others): each layer as its own warped job would
 * give it (the stages again only for a layer that reduces the points differently from the one
 * before), weighted and summed in double in layer order from 0 (as cn_layers_eval), float values
 * and gradients as the float job gives them, the sums rounded to float once.
 */
static CN_NOINLINE void warp_range(const chunks *c, size_t begin, size_t end, double mm[2])
{
    const cn__job *job = c->job;
    const cn__gen *g = job->g;
    const int dims = g->cfg.dims, f32 = job->out_f32, want_grad = job->grad[0] != NULL;
    const int layered = c->layers != NULL;
    const size_t esize = f32 ? sizeof(float) : sizeof(double), nl = layered ? c->nlayers : 1;
    double buf[CN_WARP_SCRATCH];
    warp_scratch w;
    warp_scratch_init(&w, buf, want_grad, layered);
    double lo = INFINITY, hi = -INFINITY;
    cn__coords it;
    cn__coords_start(&it, job, begin);
    for (size_t b = begin; b < end; b += w.block) {
        const size_t n = end - b < w.block ? end - b : w.block;
        unsigned char *out = (unsigned char *)job->out + (b - job->out_base) * esize;
        cn__coords_fill(&it, n, layered ? w.po : w.pr);
        const cn__gen *prev = NULL;
        for (size_t k = 0; k < nl; k++) {
            const cn__gen *gk = layered ? cn__gen_of(c->layers[k].noise) : g;
            if (!prev || !same_reduction(prev, gk, dims)) {
                for (int a = 0; layered && a < dims; a++)
                    memcpy(w.pr[a], w.po[a], n * sizeof(double));
                warp_stages(c, &w, gk, b, n, want_grad);
            }
            prev = gk;
            const cn_noise *gen = (const cn_noise *)(const void *)gk;
            if (!layered) {
                warp_sub(c, &w, gen, w.pc, b, n, out, want_grad);
                for (int j = 0; want_grad && j < dims; j++)
                    for (size_t i = 0; i < n; i++) {
                        const double d = warp_grad_at(&w, f32, dims, j, i);
                        if (f32)
                            ((float *)job->grad[j])[b - job->out_base + i] = (float)d;
                        else
                            ((double *)job->grad[j])[b - job->out_base + i] = d;
                    }
                continue;
            }
            warp_sub(c, &w, gen, w.pc, b, n, NULL, want_grad);
            const double wt = c->layers[k].weight;
            for (size_t i = 0; i < n; i++)
                w.sum[4][i] = (k == 0 ? 0.0 : w.sum[4][i]) + wt * warp_at(&w, f32, 4, i);
            for (int j = 0; want_grad && j < dims; j++)
                for (size_t i = 0; i < n; i++)
                    w.sum[j][i] = (k == 0 ? 0.0 : w.sum[j][i]) + wt * warp_grad_at(&w, f32, dims, j, i);
        }
        for (int r = 0; layered && r <= 4; r++) {
            if (r < 4 && (!want_grad || r >= dims))
                continue;
            void *dst = r == 4 ? (void *)out : (void *)((unsigned char *)job->grad[r] + (b - job->out_base) * esize);
            for (size_t i = 0; i < n; i++) {
                if (f32)
                    ((float *)dst)[i] = cn__round_f32(w.sum[r][i]);
                else
                    ((double *)dst)[i] = w.sum[r][i];
            }
        }
        for (size_t i = 0; job->want_range && i < n; i++)
            cn__range_add(&lo, &hi, f32 ? (double)((const float *)(const void *)out)[i] : ((const double *)(const void *)out)[i]);
    }
    mm[0] = lo;
    mm[1] = hi;
}

/* The checks of cn_warp_check; with want_grad, gen and every field need a gradient form. */
static cn_status warp_check(const cn__gen *g, const cn_warp *warps, size_t nwarps, int want_grad)
{
    if (!g || !warps)
        return CN_E_NULL;
    if (!built(g))
        return CN_E_UNBUILT;
    if (nwarps == 0 || nwarps > CN_MAX_WARP_STAGES)
        return CN_E_WARP;
    const int dims = g->cfg.dims;
    for (size_t s = 0; s < nwarps; s++) {
        if ((warps[s].mode != CN_WARP_INDEPENDENT && warps[s].mode != CN_WARP_PROGRESSIVE) ||
            !isfinite(warps[s].amplitude))
            return CN_E_WARP;
        for (int a = 0; a < dims; a++) {
            const cn__gen *f = cn__gen_of(warps[s].field[a]);
            if (!f)
                return CN_E_NULL;
            if (!built(f))
                return CN_E_UNBUILT;
            if (f->cfg.dims != dims)
                return CN_E_WARP;
        }
    }
    for (size_t s = 0; want_grad && s < nwarps; s++)
        for (int a = 0; a < dims; a++)
            if (!cn__gen_has_grad(cn__gen_of(warps[s].field[a])))
                return CN_E_UNSUPPORTED;
    return want_grad && !cn__gen_has_grad(g) ? CN_E_UNSUPPORTED : CN_OK;
}

cn_status cn_warp_check(const cn_noise *gen, const cn_warp *warps, size_t nwarps)
{
    return warp_check(cn__gen_of(gen), warps, nwarps, 0);
}

/* Whether bytes at p overlap the warp's stages or one of their fields. */
static int warp_overlaps(const cn_warp *warps, size_t nwarps, int dims, const void *p, size_t bytes)
{
    if (overlaps(warps, nwarps * sizeof *warps, p, bytes))
        return 1;
    for (size_t s = 0; s < nwarps; s++)
        for (int a = 0; a < dims; a++)
            if (overlaps(warps[s].field[a], sizeof(cn_noise), p, bytes))
                return 1;
    return 0;
}

/* The checks of a warped job: cn_warp_check's for gen, or (layers not NULL) cn_layers_eval's for
 * the layers and cn_warp_check's for each layer. */
static cn_status warp_job_check(const cn__gen *g, const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                                size_t nwarps, int want_grad)
{
    if (!layers)
        return warp_check(g, warps, nwarps, want_grad);
    cn_status st = cn__layers_check(layers, nlayers);
    for (size_t k = 0; k < nlayers && st == CN_OK; k++)
        st = warp_check(cn__gen_of(layers[k].noise), warps, nwarps, want_grad);
    return st;
}

/* A checked grid or point job of total points, warped (layers not NULL: the weighted sum of those
 * layers, job->g the first one's generator): the gradient arrays (grad_job), no output
 * overlapping the warp or the layers; then the run. */
static cn_status warp_run(cn__job *job, size_t total, const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                          size_t nwarps, void *const *grad, const void *const *coords, size_t csize, int threads,
                          double mm[2])
{
    const int dims = job->g->cfg.dims;
    cn_status st = grad ? grad_job(job, total, grad, coords, csize) : CN_OK;
    if (st != CN_OK)
        return st;
    const size_t bytes = total * (job->out_f32 ? sizeof(float) : sizeof(double));
    for (int a = -1; a < (grad ? dims : 0) && total; a++) {
        const void *o = a < 0 ? job->out : grad[a];
        if (warp_overlaps(warps, nwarps, dims, o, bytes) || (layers && overlaps(layers, nlayers * sizeof *layers, o, bytes)))
            return CN_E_OVERLAP;
        for (size_t k = 0; layers && k < nlayers; k++)
            if (overlaps(layers[k].noise, sizeof(cn_noise), o, bytes))
                return CN_E_OVERLAP;
    }
    if (total == 0) {
        mm[0] = mm[1] = NAN;
        return threads < 0 || threads > CN_MAX_THREADS ? CN_E_THREADS : CN_OK;
    }
    return run_job(job, total, threads, mm, layers, nlayers, NULL, warps, nwarps);
}

/* gen, or (layers not NULL) the first layer's generator. */
static const cn__gen *warp_gen(const cn_noise *gen, const cn_layer *layers)
{
    return cn__gen_of(layers ? layers[0].noise : gen);
}

static cn_status warp_grid(const cn_noise *gen, const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                           size_t nwarps, const double *origin, const double *step, const size_t *count, void *out,
                           void *const *grad, size_t out_len, int f32, int threads, double mm[2], int want_range)
{
    cn__job job;
    size_t total;
    cn_status st = warp_job_check(cn__gen_of(gen), layers, nlayers, warps, nwarps, grad != NULL);
    if (st == CN_OK)
        st = cn__grid_job(warp_gen(gen, layers), origin, step, count, out, out_len, f32, want_range, &job, &total);
    return st != CN_OK ? st : warp_run(&job, total, layers, nlayers, warps, nwarps, grad, NULL, 0, threads, mm);
}

static cn_status warp_points(const cn_noise *gen, const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                             size_t nwarps, size_t n, const void *const *coords, void *out, void *const *grad, int f32,
                             int threads, double mm[2], int want_range)
{
    cn__job job;
    cn_status st = warp_job_check(cn__gen_of(gen), layers, nlayers, warps, nwarps, grad != NULL);
    if (st == CN_OK)
        st = cn__points_job(warp_gen(gen, layers), n, coords, f32, out, f32, want_range, &job);
    return st != CN_OK ? st
                       : warp_run(&job, n, layers, nlayers, warps, nwarps, grad, coords, f32 ? sizeof(float) : sizeof(double),
                                  threads, mm);
}

/* The public grid and point-array calls, warped (gen) and warped layers (layers): the range as
 * the precision's type. */
#define CN_WARP_GRID(NAME, T, F32, GEN, LAYERS, NLAYERS, ...)                                  \
    cn_status NAME(__VA_ARGS__, const cn_warp *warps, size_t nwarps, const double *origin,    \
                   const double *step, const size_t *count, T *out, T *const *grad, size_t out_len, \
                   int threads, T range[2])                                                   \
    {                                                                                         \
        double mm[2];                                                                         \
        cn_status st = warp_grid(GEN, LAYERS, NLAYERS, warps, nwarps, origin, step, count, out, \
                                 (void *const *)grad, out_len, F32, threads, mm, range != NULL); \
        if (st == CN_OK && range) {                                                           \
            range[0] = (T)mm[0];                                                              \
            range[1] = (T)mm[1];                                                              \
        }                                                                                     \
        return st;                                                                            \
    }
#define CN_WARP_POINTS(NAME, T, F32, GEN, LAYERS, NLAYERS, ...)                                \
    cn_status NAME(__VA_ARGS__, const cn_warp *warps, size_t nwarps, size_t n, const T *const *coords, \
                   T *out, T *const *grad, int threads, T range[2])                           \
    {                                                                                         \
        double mm[2];                                                                         \
        cn_status st = warp_points(GEN, LAYERS, NLAYERS, warps, nwarps, n, (const void *const *)coords, out, \
                                   (void *const *)grad, F32, threads, mm, range != NULL);     \
        if (st == CN_OK && range) {                                                           \
            range[0] = (T)mm[0];                                                              \
            range[1] = (T)mm[1];                                                              \
        }                                                                                     \
        return st;                                                                            \
    }
CN_WARP_GRID(cn_warp_grid_eval, double, 0, gen, NULL, 0, const cn_noise *gen)
CN_WARP_GRID(cn_warp_grid_evalf, float, 1, gen, NULL, 0, const cn_noise *gen)
CN_WARP_POINTS(cn_warp_points_eval, double, 0, gen, NULL, 0, const cn_noise *gen)
CN_WARP_POINTS(cn_warp_points_evalf, float, 1, gen, NULL, 0, const cn_noise *gen)
CN_WARP_GRID(cn_warp_layers_grid_eval, double, 0, NULL, layers, nlayers, const cn_layer *layers, size_t nlayers)
CN_WARP_GRID(cn_warp_layers_grid_evalf, float, 1, NULL, layers, nlayers, const cn_layer *layers, size_t nlayers)
CN_WARP_POINTS(cn_warp_layers_points_eval, double, 0, NULL, layers, nlayers, const cn_layer *layers, size_t nlayers)
CN_WARP_POINTS(cn_warp_layers_points_evalf, float, 1, NULL, layers, nlayers, const cn_layer *layers, size_t nlayers)

/* One point: a one-point job through warp_range on the scalar build (every instruction set gives
 * its bits), into locals first so that nothing is written on error. layers not NULL: the warped
 * layers' sum. */
static cn_status warp_point(const cn_noise *gen, const cn_layer *layers, size_t nlayers, const cn_warp *warps,
                            size_t nwarps, const void *p, int f32, void *out, void *grad)
{
    cn_status st = warp_job_check(cn__gen_of(gen), layers, nlayers, warps, nwarps, grad != NULL);
    if (st != CN_OK)
        return st;
    if (!p || !out)
        return CN_E_NULL;
    const cn__gen *g = warp_gen(gen, layers);
    const int dims = g->cfg.dims;
    double dv[5] = {0, 0, 0, 0, 0};
    float fv[5] = {0, 0, 0, 0, 0};
    const void *coords[4] = {p, p, p, p};
    for (int a = 0; a < dims; a++)
        coords[a] = f32 ? (const void *)((const float *)p + a) : (const void *)((const double *)p + a);
    cn__job job;
    if ((st = cn__points_job(g, 1, coords, f32, f32 ? (void *)&fv[4] : (void *)&dv[4], f32, 0, &job)) != CN_OK)
        return st;
    for (int a = 0; grad && a < dims; a++)
        job.grad[a] = f32 ? (void *)&fv[a] : (void *)&dv[a];
    chunks c = {0};
    c.job = &job;
    c.part = f32 ? cn__isa_scalar.f32 : cn__isa_scalar.f64;
    c.layers = layers;
    c.nlayers = nlayers;
    c.warps = warps;
    c.nwarps = nwarps;
    double mm[2];
    warp_range(&c, 0, 1, mm);
    for (int a = -1; a < (grad ? dims : 0); a++) {
        const int k = a < 0 ? 4 : a;
        void *dst = a < 0 ? out : f32 ? (void *)((float *)grad + a) : (void *)((double *)grad + a);
        if (f32)
            *(float *)dst = fv[k];
        else
            *(double *)dst = dv[k];
    }
    return CN_OK;
}

cn_status cn_warp_eval(const cn_noise *gen, const cn_warp *warps, size_t nwarps, const double *p, double *out,
                       double *grad)
{
    return warp_point(gen, NULL, 0, warps, nwarps, p, 0, out, grad);
}

cn_status cn_warp_evalf(const cn_noise *gen, const cn_warp *warps, size_t nwarps, const float *p, float *out,
                        float *grad)
{
    return warp_point(gen, NULL, 0, warps, nwarps, p, 1, out, grad);
}

cn_status cn_warp_layers_eval(const cn_layer *layers, size_t nlayers, const cn_warp *warps, size_t nwarps,
                              const double *p, double *out, double *grad)
{
    return warp_point(NULL, layers, nlayers, warps, nwarps, p, 0, out, grad);
}

cn_status cn_warp_layers_evalf(const cn_layer *layers, size_t nlayers, const cn_warp *warps, size_t nwarps,
                               const float *p, float *out, float *grad)
{
    return warp_point(NULL, layers, nlayers, warps, nwarps, p, 1, out, grad);
}
