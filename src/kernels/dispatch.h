/* dispatch.h -- the internal interface between the public API and the per-ISA kernel builds. */
#ifndef CN_DISPATCH_H
#define CN_DISPATCH_H

#include "cnoise.h"

#define CN__KERNEL_COUNT 24

static inline int cn__kernel_index(const cn_config *c)
{
    return (int)c->mode * 12 + (int)c->type * 4 + c->dims - 1;
}

/* One point: in[] holds cfg.dims unscaled coordinates. */
typedef double (*cn__point_f64)(const cn_noise *g, const double *in);
typedef float (*cn__point_f32)(const cn_noise *g, const double *in);

typedef struct cn__isa_table {
    const char *name;
    cn__point_f64 point_f64[CN__KERNEL_COUNT];
    cn__point_f32 point_f32[CN__KERNEL_COUNT];
} cn__isa_table;

extern const cn__isa_table cn__isa_scalar;

#endif
