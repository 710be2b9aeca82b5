/* misuse.c -- see misuse.h. Its own translation unit, so that a test can link a debug build of
 * it (tests/test_misuse.c) in front of the library's. */
#include <math.h>
#include "misuse.h"
#include "kernels/registry.h"

#ifdef CN_DEBUG_MISUSE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CN_MISUSE_ATTR(format(printf, 2, 3)) static void misuse(const char *function, const char *fmt, ...)
{
    const char *mode = getenv("CNOISE_MISUSE");
    if (mode && strcmp(mode, "return") == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cnoise: %s: ", function);
    vfprintf(stderr, fmt, ap);
    fputs(" (a debug build of libcnoise stops here; CNOISE_MISUSE=return lets the call return)\n", stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}
#else
CN_MISUSE_ATTR(format(printf, 2, 3)) static void misuse(const char *function, const char *fmt, ...)
{
    (void)function;
    (void)fmt;
}
#endif

static void point_misuse(const char *fn, const cn__gen *g, int dims, int p_null)
{
    if (!g)
        misuse(fn, "the generator is NULL");
    else if (!cn__generator_ok(g))
        misuse(fn, "the generator is not built (never built, zeroed, overwritten, or its build failed)");
    else if (p_null)
        misuse(fn, "the coordinate pointer is NULL");
    else
        misuse(fn, "the generator is %dD, but this call takes %d coordinates", g->cfg.dims, dims);
}

double cn__point_misuse_f64(const cn__gen *g, const char *function, int dims, int p_null)
{
    point_misuse(function, g, dims, p_null);
    return NAN;
}

float cn__point_misuse_f32(const cn__gen *g, const char *function, int dims, int p_null)
{
    point_misuse(function, g, dims, p_null);
    return NAN;
}

double cn__grad_misuse(const cn__gen *g, const char *function, int p_null)
{
    if (g && cn__generator_ok(g) && !p_null)
        misuse(function, "%s noise with the %s fractal has no gradient (cellular noise has none)",
               cn_noise_type_name(g->cfg.type), cn_fractal_name(g->cfg.fractal));
    else
        point_misuse(function, g, 0, p_null);
    return NAN;
}
