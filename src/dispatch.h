/* dispatch.h -- the interface between the public API and the per-ISA kernel builds: what each
 * build exports (src/kernels/entries.inc) and the choice among them (src/dispatch.c). */
#ifndef CN_DISPATCH_H
#define CN_DISPATCH_H

#include <stdatomic.h>
#include "cnoise.h"
#include "batch.h"
#include "kernels/registry.h"

#if defined(__GNUC__)
#define CN_NOINLINE __attribute__((noinline))
#else
#define CN_NOINLINE
#endif

/* One point: the first cfg.dims of x, y, z, w are its unscaled coordinates (scalar build only). */
typedef double (*cn__point_f64)(const cn__gen *g, double x, double y, double z, double w);
typedef float (*cn__point_f32)(const cn__gen *g, double x, double y, double z, double w);

/* What one instruction set's build of one precision exports (src/kernels/entries.inc). */
typedef struct cn__isa_part {
    int lanes;
    cn__batch_fn batch[CN__KERNEL_COUNT];
    cn__batch_fn grad[CN__KERNEL_COUNT]; /* value and gradient (job.grad); NULL: none */
} cn__isa_part;

typedef struct cn__isa_table {
    const char *name;
    const cn__isa_part *f64, *f32;
} cn__isa_table;

extern const cn__isa_table cn__isa_scalar;
/* Single points, from the scalar build: [0][kernel] any generator, [1][kernel] a plain one
 * (cn__gen.plain). The same entries compiled with AVX (VEX encoding, src/isa/isa_pointavx_*.c,
 * x86) where the build has them. */
typedef cn__point_f64 cn__point_f64_set[2][CN__KERNEL_COUNT];
typedef cn__point_f32 cn__point_f32_set[2][CN__KERNEL_COUNT];
extern const cn__point_f64_set cn__point_f64_table;
extern const cn__point_f32_set cn__point_f32_table;
/* The sets the single-point API uses now (src/dispatch.c); NULL until the first choice. */
extern _Atomic(const cn__point_f64_set *) cn__point_f64_now;
extern _Atomic(const cn__point_f32_set *) cn__point_f32_now;
void cn__isa_choose(void);

/* Whether the gradient calls take built generator g: its kernel has a gradient form (the
 * registry's GRAD column; every fractal then has a gradient, erosion's by the kernel's second
 * derivatives). */
static inline int cn__gen_has_grad(const cn__gen *g)
{
    return cn__kernel_sigs[cn__gen_kernel(g)].grad;
}

/* The table batch calls use now (src/dispatch.c). */
const cn__isa_table *cn__isa_table_active(void);

#endif
