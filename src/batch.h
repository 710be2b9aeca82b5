/* batch.h -- the batch layer's job (what to evaluate, where from, where to), the walk over its
 * points, and the range rule; shared by src/batch.c and the per-ISA batch loops
 * (src/kernels/entries.inc). */
#ifndef CN_BATCH_H
#define CN_BATCH_H

#include <math.h>
#include <stddef.h>
#include "cnoise.h"
#include "gen.h"

/*
 * A batch job: where the coordinates come from (a grid, or one array per axis of doubles or
 * floats) and where the results go (doubles or floats). Point i of a grid has index
 * (i0, i1, i2, i3) with i0 fastest and coordinate origin[a] + (double)ia * step[a].
 */
typedef struct cn__job {
    const cn__gen *g;
    int kind;      /* CN__GRID or CN__POINTS */
    int coords_f32;/* points: coordinate arrays are float */
    int out_f32;   /* results are float (the float kernels) */
    int want_range;/* compute the min/max of the results */
    double origin[4], step[4];
    size_t count[4];
    const void *coords[4];
    void *out;       /* the result of point i goes to element i - out_base */
    void *grad[4];   /* gradient jobs: component a of point i's gradient to element i - out_base
                        of grad[a] (a < dims); NULL otherwise */
    size_t out_base; /* 0, or the first point of a block evaluated into a scratch buffer */
} cn__job;
#define CN__GRID 0
#define CN__POINTS 1

/* The checked jobs of the batch calls (src/batch.c): the statuses cn_grid_eval and cn_points_eval
 * document, except CN_E_THREADS; *total gets a grid's number of points. Shared with the OpenCL
 * backend (src/opencl.c), so both check their arguments by the same rules. */
cn_status cn__grid_job(const cn__gen *g, const double *origin, const double *step, const size_t *count, void *out,
                       size_t out_len, int f32, int want_range, cn__job *jp, size_t *totalp);
cn_status cn__points_job(const cn__gen *g, size_t n, const void *const *coords, int coords_f32, void *out, int f32,
                         int want_range, cn__job *jp);

/* Evaluates points [begin, end) of the job; mm[0], mm[1] receive the min and max of the
 * non-NaN results (+inf, -inf when none). */
typedef void (*cn__batch_fn)(const cn__job *job, size_t begin, size_t end, double mm[2]);

/*
 * Folds v into the running range [*lo, *hi] (start: +inf, -inf). NaN is skipped. Zeros of both
 * signs tie under < and >, so the rule picks -0 for the minimum and +0 for the maximum whenever
 * both occur: the range then does not depend on the order the values are folded in (lanes,
 * rows, threads).
 */
static inline void cn__range_add(double *lo, double *hi, double v)
{
    if (v < *lo || (v == 0 && *lo == 0 && signbit(v)))
        *lo = v;
    if (v > *hi || (v == 0 && *hi == 0 && !signbit(v)))
        *hi = v;
}

/* A sum in double rounded to float: beyond FLT_MAX + half an ulp (0x1.ffffffp127) the rounding
 * gives an infinity (a plain conversion would be undefined there). Layered float results. */
static inline float cn__round_f32(double v)
{
    return fabs(v) >= 0x1.ffffffp127 ? (float)copysign(INFINITY, v) : (float)v;
}

/* Whether layers[0..count) can be summed: CN_OK, or the status cn_layers_eval documents. */
cn_status cn__layers_check(const cn_layer *layers, size_t count);

/* Folds another range [l, h] (+inf, -inf when empty) into [*lo, *hi] by the same rule. */
static inline void cn__range_merge(double *lo, double *hi, double l, double h)
{
    double no_hi = INFINITY, no_lo = -INFINITY;
    cn__range_add(lo, &no_hi, l);
    cn__range_add(&no_lo, hi, h);
}

/*
 * Walks the points of a job in order, a vector at a time: cn__coords_start positions it at point
 * `first` (the only division), cn__coords_next fills lane[a][0..n-1] with the next n points'
 * coordinates and pads lanes n..lanes-1 with copies of lane 0 (their results are discarded).
 * Grid indices advance with carries.
 */
typedef struct cn__coords {
    const cn__job *job;
    size_t next;   /* index of the next point */
    size_t idx[4]; /* its grid indices */
} cn__coords;

static inline void cn__coords_start(cn__coords *it, const cn__job *job, size_t first)
{
    it->job = job;
    it->next = first;
    size_t rest = first;
    for (int a = 0; a < 4; a++) {
        it->idx[a] = 0;
        if (job->kind == CN__GRID && a < job->g->cfg.dims) {
            it->idx[a] = rest % job->count[a];
            rest /= job->count[a];
        }
    }
}

/* The next n points' coordinates into dst[a][0..n) (a < dims), as cn__coords_next gives them. */
static inline void cn__coords_fill(cn__coords *it, size_t n, double *const *dst)
{
    const cn__job *job = it->job;
    const int dims = job->g->cfg.dims;
    if (job->kind == CN__POINTS) {
        for (int a = 0; a < dims; a++) {
            if (job->coords_f32) {
                const float *c = (const float *)job->coords[a] + it->next;
                for (size_t k = 0; k < n; k++)
                    dst[a][k] = c[k];
            } else {
                const double *c = (const double *)job->coords[a] + it->next;
                for (size_t k = 0; k < n; k++)
                    dst[a][k] = c[k];
            }
        }
    } else {
        size_t *idx = it->idx;
        size_t k = 0;
        while (k < n) {
            /* A run along x within the current row. */
            size_t run = job->count[0] - idx[0];
            if (run > n - k)
                run = n - k;
            for (size_t r = 0; r < run; r++)
                dst[0][k + r] = job->origin[0] + (double)(idx[0] + r) * job->step[0];
            for (int a = 1; a < dims; a++) {
                double c = job->origin[a] + (double)idx[a] * job->step[a];
                for (size_t r = 0; r < run; r++)
                    dst[a][k + r] = c;
            }
            k += run;
            idx[0] += run;
            for (int a = 0; a < dims - 1 && idx[a] == job->count[a]; a++) {
                idx[a] = 0;
                idx[a + 1]++;
            }
        }
    }
    it->next += n;
}

static inline void cn__coords_next(cn__coords *it, int n, int lanes, double (*lane)[16])
{
    double *const dst[4] = {lane[0], lane[1], lane[2], lane[3]};
    cn__coords_fill(it, (size_t)n, dst);
    const int dims = it->job->g->cfg.dims;
    for (int a = 0; a < dims; a++)
        for (int k = n; k < lanes; k++)
            lane[a][k] = lane[a][0];
}

#endif
