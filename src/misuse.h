/* misuse.h -- reporting a call the caller got wrong (src/misuse.c). */
#ifndef CN_MISUSE_H
#define CN_MISUSE_H

#include "gen.h"

#if defined(__GNUC__)
#define CN_MISUSE_ATTR(...) __attribute__((cold, __VA_ARGS__))
#else
#define CN_MISUSE_ATTR(...)
#endif

/* Called where a public function meets a programming error that its result alone reports
 * silently (a single-point call returning NaN for a NULL, unbuilt or wrong-dimension
 * generator). A debug build of the library (CN_DEBUG_MISUSE, on in CMake's Debug configuration)
 * writes "cnoise: <function>: <message>" to stderr and aborts, as an assertion would, unless the
 * environment variable CNOISE_MISUSE is "return"; other builds do nothing and the caller returns
 * its documented result. */
CN_MISUSE_ATTR(format(printf, 2, 3)) void cn__misuse(const char *function, const char *fmt, ...);

/* A single-point call `function` (of dimension dims, 0 for cn_eval/cn_evalf) that cannot
 * evaluate g (p_null: its coordinate pointer was NULL): cn__misuse with the reason, then NaN.
 * Defined apart from the callers, so that they end in a tail call and their fast path needs no
 * stack frame (a compiler that sees the constant NaN would call, then return it itself). */
CN_MISUSE_ATTR(noinline) double cn__point_misuse_f64(const cn__gen *g, const char *function, int dims, int p_null);
CN_MISUSE_ATTR(noinline) float cn__point_misuse_f32(const cn__gen *g, const char *function, int dims, int p_null);

#endif
