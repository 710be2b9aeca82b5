/*
 * test_stack.c -- the stack a batch call needs stays within what cnoise.h documents
 * (CN_BATCH_STACK_BOUND below, the header's "at most 160 KiB").
 *
 * A batch call keeps its row tables on the calling thread's stack (139 KiB when last measured, clang 14),
 * and every worker thread it starts needs the same. A thread of our own, with a 1 MiB stack we
 * allocate and fill with a byte pattern first, runs every kernel of the registry (every type,
 * dimension and mode the library builds) as a plain generator, a 32-octave fBm, a periodic
 * one and (but for cellular noise) an erosion sum, in float and double, as a grid, a point array and a grid of two layers (and, but for
 * cellular noise, as a grid and a point array with the gradient, warped by itself with and without
 * the gradient, and 2D/3D as a curl), on every
 * instruction set this CPU supports, on that thread only (threads = 1). The deepest byte that
 * no longer holds the pattern is the most stack any of those calls used; it must not exceed the
 * bound. Sanitizer builds add red zones to every frame and skip the test (exit 77), as do Windows
 * builds (no thread runs on a caller's stack there).
 */
#include <pthread.h>

#include "cnoise.h"
#include "test.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CN_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define CN_TEST_SANITIZED 1
#endif
#endif

#define CN_BATCH_STACK_BOUND ((size_t)160 * 1024)
#define STACK_BYTES ((size_t)1 << 20)
#define PATTERN 0xA7

enum { NX = 300, NY = 3, NZ = 2, NPTS = 97 };

static int calls;             /* batch calls that returned CN_OK */
static int grad_calls, grad_expected; /* the same for the gradient and curl calls */

/* The batch calls of one generator, each on this thread. */
static void run_all(const cn_noise *g, int dims)
{
    static float outf[NX * NY * NZ];
    static double outd[NX * NY * NZ];
    static double cd[4][NPTS];
    static float cf[4][NPTS];
    const double origin[4] = {0.5, -3.25, 7.5, 1.5}, step[4] = {0.173, 0.31, 0.29, 0.5};
    const size_t count[4] = {NX, dims > 1 ? NY : 1, dims > 2 ? NZ : 1, 1};
    const size_t n = count[0] * count[1] * count[2];
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NPTS; i++) {
            cd[a][i] = (double)((i * 37 + a * 11) % 101) * 0.731 - 30.0;
            cf[a][i] = (float)cd[a][i];
        }
    const double *pd[4] = {cd[0], cd[1], cd[2], cd[3]};
    const float *pf[4] = {cf[0], cf[1], cf[2], cf[3]};
    const cn_layer layers[2] = {{g, 0.75}, {g, -0.5}};
    calls += cn_grid_eval(g, origin, step, count, outd, n, 1, NULL) == CN_OK;
    calls += cn_grid_evalf(g, origin, step, count, outf, n, 1, NULL) == CN_OK;
    calls += cn_points_eval(g, NPTS, pd, outd, 1, NULL) == CN_OK;
    calls += cn_points_evalf(g, NPTS, pf, outf, 1, NULL) == CN_OK;
    calls += cn_layers_grid_eval(layers, 2, origin, step, count, outd, n, 1, NULL) == CN_OK;
    calls += cn_layers_grid_evalf(layers, 2, origin, step, count, outf, n, 1, NULL) == CN_OK;
    /* value and gradient, and curl noise (every type but cellular) */
    if (cn_noise_config(g)->type == CN_NOISE_CELLULAR)
        return;
    static double gd[4][NX * NY * NZ];
    static float gf[4][NX * NY * NZ];
    double *const gdp[4] = {gd[0], gd[1], gd[2], gd[3]};
    float *const gfp[4] = {gf[0], gf[1], gf[2], gf[3]};
    grad_calls += cn_grid_eval_grad(g, origin, step, count, outd, gdp, n, 1) == CN_OK;
    grad_calls += cn_grid_evalf_grad(g, origin, step, count, outf, gfp, n, 1) == CN_OK;
    grad_calls += cn_points_eval_grad(g, NPTS, pd, outd, gdp, 1) == CN_OK;
    grad_calls += cn_points_evalf_grad(g, NPTS, pf, outf, gfp, 1) == CN_OK;
    /* warped by the generator itself: a value warp and a gradient warp, grid and points */
    cn_warp w[2] = {{{g, g, g, g}, 3.0, CN_WARP_INDEPENDENT}, {{g, g, g, g}, 1.5, CN_WARP_PROGRESSIVE}};
    grad_calls += cn_warp_grid_eval(g, w, 2, origin, step, count, outd, gdp, n, 1, NULL) == CN_OK;
    grad_calls += cn_warp_grid_evalf(g, w, 2, origin, step, count, outf, NULL, n, 1, NULL) == CN_OK;
    grad_calls += cn_warp_points_evalf(g, w, 2, NPTS, pf, outf, gfp, 1, NULL) == CN_OK;
    grad_expected += 7;
    if (dims == 2 || dims == 3) {
        const cn_noise *psi[3] = {g, g, g};
        grad_calls += cn_grid_curl(psi, origin, step, count, gdp, n, 1) == CN_OK;
        grad_calls += cn_grid_curlf(psi, origin, step, count, gfp, n, 1) == CN_OK;
        grad_expected += 2;
    }
}

static int generators; /* generators built and run */

static void *work(void *arg)
{
    (void)arg;
    for (int isa = 0; isa < CN_ISA_COUNT; isa++) {
        if (!cn_isa_supported((cn_isa)isa) || cn_isa_set_cap((cn_isa)isa) != CN_OK)
            continue;
        for (int type = 0; cn_noise_type_name((cn_noise_type)type); type++)
            for (int mode = 0; cn_mode_name((cn_mode)mode); mode++)
                for (int dims = 1; dims <= 4; dims++)
                    for (int variant = 0; variant < 4; variant++) {
                        cn_config c;
                        cn_config_init(&c);
                        c.type = (cn_noise_type)type;
                        c.mode = (cn_mode)mode;
                        c.dims = dims;
                        c.frequency = 0.37;
                        if (variant == 1) {
                            c.fractal = CN_FRACTAL_FBM;
                            c.octaves = 32;
                            c.gain = 0.9;
                        } else if (variant == 2) {
                            for (int a = 0; a < dims; a++)
                                c.period[a] = 12;
                        } else if (variant == 3) { /* its gradient takes second derivatives */
                            c.fractal = CN_FRACTAL_EROSION;
                            c.octaves = 3;
                        }
                        cn_noise g;
                        if (cn_noise_build(&g, &c) != CN_OK)
                            continue; /* a combination the library does not build */
                        generators++;
                        run_all(&g, dims);
                    }
    }
    cn_isa_set_cap(CN_ISA_COUNT);
    return NULL;
}

int main(void)
{
#if defined(CN_TEST_SANITIZED) || defined(_WIN32)
    (void)work; /* not run here */
#ifdef _WIN32
    printf("test_stack: skipped (Windows threads cannot run on a stack the caller allocates; the frames are "
           "the same C code, measured on Linux)\n");
#else
    printf("test_stack: skipped (a sanitizer build: its frames are larger by design)\n");
#endif
    return TEST_SKIP;
#else
    unsigned char *stack = (unsigned char *)aligned_alloc(4096, STACK_BYTES);
    CHECK(stack != NULL, "1 MiB for the thread's stack");
    if (!stack)
        return test_summary("test_stack");
    memset(stack, PATTERN, STACK_BYTES);
    pthread_attr_t attr;
    pthread_t t;
    CHECK(pthread_attr_init(&attr) == 0, "pthread_attr_init");
    CHECK(pthread_attr_setstack(&attr, stack, STACK_BYTES) == 0, "pthread_attr_setstack");
    CHECK(pthread_create(&t, &attr, work, NULL) == 0, "pthread_create");
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);

    /* The stack grows down: the lowest byte that lost the pattern marks the deepest use. */
    size_t untouched = 0;
    while (untouched < STACK_BYTES && stack[untouched] == PATTERN)
        untouched++;
    const size_t used = STACK_BYTES - untouched;
    CHECK(generators >= 30, "the registry's kernels were built (%d generators)", generators);
    CHECK(calls == 6 * generators, "every batch call succeeded (%d of %d)", calls, 6 * generators);
    CHECK(grad_expected > 0 && grad_calls == grad_expected, "every gradient and curl call succeeded (%d of %d)",
          grad_calls, grad_expected);
    CHECK(used <= CN_BATCH_STACK_BOUND, "the batch calls used %zu bytes of stack, more than the %zu documented",
          used, CN_BATCH_STACK_BOUND);
    printf("test_stack: %d generators x 6 batch calls on every supported instruction set: at most %zu bytes "
           "(%.1f KiB) of stack, bound %zu KiB\n",
           generators, used, used / 1024.0, CN_BATCH_STACK_BOUND / 1024);
    free(stack);
    return test_summary("test_stack");
#endif
}
