/* dispatch.h -- the internal interface between the public API and the per-ISA kernel builds. */
#ifndef CN_DISPATCH_H
#define CN_DISPATCH_H

#include <stddef.h>
#include "cnoise.h"

#define CN__KERNEL_COUNT 24

static inline int cn__kernel_index(const cn_config *c)
{
    return (int)c->mode * 12 + (int)c->type * 4 + c->dims - 1;
}

/*
 * A batch job: where the coordinates come from (a grid, or one array per axis of doubles or
 * floats) and where the results go (doubles or floats). Point i of a grid has index
 * (i0, i1, i2, i3) with i0 fastest and coordinate origin[a] + (double)ia * step[a].
 */
typedef struct cn__job {
    const cn_noise *g;
    int kind;      /* CN__GRID or CN__POINTS */
    int coords_f32;/* points: coordinate arrays are float */
    int out_f32;   /* results are float (the float kernels) */
    double origin[4], step[4];
    size_t count[4];
    const void *coords[4];
    void *out;
} cn__job;
#define CN__GRID 0
#define CN__POINTS 1

/* Evaluates points [begin, end) of the job; mm[0], mm[1] receive the min and max of the
 * non-NaN results (+inf, -inf when none). */
typedef void (*cn__batch_fn)(const cn__job *job, size_t begin, size_t end, double mm[2]);

/* One point: in[] holds cfg.dims unscaled coordinates (scalar build only). */
typedef double (*cn__point_f64)(const cn_noise *g, const double *in);
typedef float (*cn__point_f32)(const cn_noise *g, const double *in);

/* What one instruction set's build of one precision exports (src/kernels/entries.inc). */
typedef struct cn__isa_part {
    int lanes;
    cn__batch_fn batch[CN__KERNEL_COUNT];
} cn__isa_part;

typedef struct cn__isa_table {
    const char *name;
    const cn__isa_part *f64, *f32;
} cn__isa_table;

extern const cn__isa_table cn__isa_scalar;
/* Single points (scalar build). */
extern const cn__point_f64 cn__point_f64_table[CN__KERNEL_COUNT];
extern const cn__point_f32 cn__point_f32_table[CN__KERNEL_COUNT];

/* The table batch calls use now (src/dispatch.c). */
const cn__isa_table *cn__isa_table_active(void);

/*
 * Fills lane[a][0..n-1] with the coordinates of points first .. first+n-1 of the job, and pads
 * lanes n..lanes-1 with copies of lane 0 (their results are discarded). Grid indices advance
 * with carries: no division per point.
 */
static inline void cn__job_coords(const cn__job *job, size_t first, int n, int lanes, double (*lane)[16])
{
    const int dims = job->g->cfg.dims;
    if (job->kind == CN__POINTS) {
        for (int a = 0; a < dims; a++) {
            if (job->coords_f32) {
                const float *c = (const float *)job->coords[a] + first;
                for (int k = 0; k < n; k++)
                    lane[a][k] = c[k];
            } else {
                const double *c = (const double *)job->coords[a] + first;
                for (int k = 0; k < n; k++)
                    lane[a][k] = c[k];
            }
        }
    } else {
        size_t idx[4] = {0, 0, 0, 0}, rest = first;
        for (int a = 0; a < dims; a++) {
            idx[a] = rest % job->count[a];
            rest /= job->count[a];
        }
        for (int k = 0; k < n; k++) {
            for (int a = 0; a < dims; a++)
                lane[a][k] = job->origin[a] + (double)idx[a] * job->step[a];
            for (int a = 0; a < dims; a++) {
                if (++idx[a] < job->count[a])
                    break;
                idx[a] = 0;
            }
        }
    }
    for (int a = 0; a < dims; a++)
        for (int k = n; k < lanes; k++)
            lane[a][k] = lane[a][0];
}

#endif
