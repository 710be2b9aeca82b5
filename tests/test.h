/* test.h -- the project's tiny assertion header. Each failed check prints where and why and is
 * counted; test_summary() prints "N passed, N failed" and returns the exit status. */
#ifndef CN_TEST_H
#define CN_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The exit status of a test that cannot run here (an instruction set this CPU lacks, ...):
 * tests/CMakeLists.txt gives it to ctest as SKIP_RETURN_CODE, so that the test shows as skipped. */
#define TEST_SKIP 77

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

/* Bit-for-bit equality (memcmp): tells +0 from -0 and NaN payloads apart, as == does not. */
static inline int test_same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }
static inline int test_same_bitsf(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* "(x, y, ...)" with every coordinate in %.17g, for messages; four buffers in turn, so that up to
 * four calls may appear in one printf. */
static inline const char *test_fmt_point(const double *p, int dims)
{
    static char buf[4][200];
    static int which;
    char *b = buf[which++ & 3];
    int n = snprintf(b, 200, "(");
    for (int a = 0; a < dims; a++)
        n += snprintf(b + n, 200 - (size_t)n, "%s%.17g", a ? ", " : "", p[a]);
    snprintf(b + n, 200 - (size_t)n, ")");
    return b;
}

/* Deterministic pseudo-random numbers. Each test keeps its own state (and seed), so that its
 * sequence stays its own: test_splitmix64 is SplitMix64 (Steele, Lea and Flood) stepping *state,
 * test_mix64 its output function (for a generator with another increment), and test_unit the top
 * 53 bits of r as a double in [0, 1). */
static inline uint64_t test_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
static inline uint64_t test_splitmix64(uint64_t *state) { return test_mix64(*state += UINT64_C(0x9E3779B97F4A7C15)); }
static inline double test_unit(uint64_t r) { return (double)(r >> 11) * (1.0 / 9007199254740992.0); /* 2^-53 */ }
/* The next number in [0, 1) of a xorshift64 stream whose state is *s (nonzero; test_grad and
 * test_warp's random points). */
static inline double test_urand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return test_unit(*s);
}

/* A 32-bit integer hash (xor-shift-multiply finaliser) for test data that must not compress away
 * or repeat: the writers' tests derive every sample from it. */
static inline uint32_t test_mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

#endif
