/* misuse.h -- reporting a call the caller got wrong (src/misuse.c). */
#ifndef CN_MISUSE_H
#define CN_MISUSE_H

#include "gen.h"

#if defined(__GNUC__)
#define CN_MISUSE_ATTR(...) __attribute__((cold, __VA_ARGS__))
#else
#define CN_MISUSE_ATTR(...)
#endif

/* A single-point call (cn_eval*) met a programming error that its NaN alone reports silently:
 * a NULL, unbuilt or wrong-dimension generator, or NULL coordinates. A debug build of the library
 * (CN_DEBUG_MISUSE, on in CMake's Debug configuration) writes "cnoise: <function>: <reason>" to
 * stderr and aborts, as an assertion would, unless the environment variable CNOISE_MISUSE is
 * "return"; other builds say nothing. Either way the call then returns NaN.
 * `function` is the call (of dimension dims, 0 for cn_eval/cn_evalf) that cannot evaluate g
 * (p_null: its coordinate pointer was NULL). Defined apart from the callers, so that they end
 * in a tail call and their fast path needs no stack frame (a compiler that sees the constant NaN
 * would call, then return it itself). */
CN_MISUSE_ATTR(noinline) double cn__point_misuse_f64(const cn__gen *g, const char *function, int dims, int p_null);
CN_MISUSE_ATTR(noinline) float cn__point_misuse_f32(const cn__gen *g, const char *function, int dims, int p_null);

/* The same for the value-and-gradient calls (cn_eval_grad, cn_evalf_grad): also a generator whose
 * noise type has no gradient form. */
CN_MISUSE_ATTR(noinline) double cn__grad_misuse(const cn__gen *g, const char *function, int p_null);

#endif
