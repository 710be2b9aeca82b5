/* test.h -- the project's tiny assertion header. Each failed check prints where and why and is
 * counted; test_summary() prints "N passed, N failed" and returns the exit status. */
#ifndef CN_TEST_H
#define CN_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static int cn_test_pass, cn_test_fail;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            cn_test_pass++;                                                     \
        } else {                                                                \
            cn_test_fail++;                                                     \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

static inline int test_summary(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, cn_test_pass, cn_test_fail);
    return cn_test_fail == 0 && cn_test_pass > 0 ? 0 : 1;
}

#ifdef CN_VERSION_STRING /* after cnoise.h */
#include <limits.h>
/* The documented rule: a cap is a register width (scalar; sse2 and neon 128 bits; avx2 256; avx512
 * 512), and the active set is the widest compiled and supported one no wider than the cap. */
static inline int test_isa_width(int isa)
{
    switch (isa) {
    case CN_ISA_SCALAR: return 0;
    case CN_ISA_SSE2: case CN_ISA_NEON: return 128;
    case CN_ISA_AVX2: return 256;
    case CN_ISA_AVX512: return 512;
    default: return INT_MAX; /* no cap */
    }
}
#endif

/* The byte that fills output buffers a failing call must leave alone. */
#define TEST_SENTINEL 0xA5

/* malloc that never returns NULL (exits with status 2) and accepts 0. */
static inline void *test_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* Whether every byte of p[0..bytes) is still TEST_SENTINEL. */
static inline int test_untouched(const void *p, size_t bytes)
{
    const unsigned char *c = (const unsigned char *)p;
    for (size_t i = 0; i < bytes; i++)
        if (c[i] != TEST_SENTINEL)
            return 0;
    return 1;
}

#endif
