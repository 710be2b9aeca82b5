/* test_batch.c -- the contracts of the batch and instruction-set APIs in cnoise.h:
 *   - every thread count (1, 2, 3, 4, 7, 8 and 0 = all cores) gives the same bits and the same
 *     range, on grids and point arrays large enough that every thread gets work, and on large grids
 *     that src/batch.c cuts into many chunks (at row starts, and within rows longer than a chunk);
 *     where the linker can wrap pthread_create, the number of threads started is counted, and
 *     threads that fail to start must not change the result;
 *   - range[] is the min/max of the non-NaN outputs (NaN, NaN when there is none); NULL is accepted;
 *   - status codes: NULL arguments, counts of 0, short outputs, non-finite origins and steps,
 *     products of counts that overflow size_t, bad thread counts, overlapping buffers, n = 0,
 *     generators that were not built; on every error the output is left untouched;
 *   - cn_isa_*: names, caps (rejected values, removal), the active set is compiled, supported,
 *     the widest one no wider than the cap, and changing the cap while batches run is harmless;
 *   - no memory is allocated in proportion to the output: the peak RSS grows by far less than a
 *     64 MiB output while it is evaluated.
 * Run as `test_batch --env-check` (registered with CNOISE_ISA set): the active instruction set,
 * asked before any cap is set, is the widest one no wider than the variable's. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/resource.h>
#endif
#include "cnoise.h"
#include "gen.h" /* white-box: the generator's internals (src/gen.h) */
#include "test.h"

/* The smallest share of a job worth a thread (CN_MIN_POINTS_PER_THREAD in src/batch.c); the big
 * jobs here have at least 8 times this many points, so up to 8 threads all get work. */
enum { MIN_POINTS_PER_THREAD = 16384 };



static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rng(void) { return test_splitmix64(&rng_state); }
static double uniform(double lo, double hi) { return lo + (hi - lo) * test_unit(rng()); }


static cn_noise make(cn_noise_type type, cn_mode mode, int dims, cn_fractal fractal)
{
    cn_config c;
    cn_config_init(&c);
    c.frequency = 1.0; /* the frequency these cases were written for */
    c.type = type;
    c.mode = mode;
    c.dims = dims;
    c.seed = 77;
    c.fractal = fractal;
    c.octaves = 3;
    c.frequency = 0.0625;
    cn_noise g;
    cn_status st = cn_noise_build(&g, &c);
    CHECK(st == CN_OK, "build: %s", cn_strerror(st));
    return g;
}

/* ---- pthread_create, counted and made to fail on request (linked with --wrap=pthread_create) ---- */

#ifdef CN_TEST_WRAP_PTHREAD_CREATE
int __real_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
static atomic_int created, refused, fail_every; /* fail_every k > 0: every k-th call fails */
static atomic_int calls;
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    int k = atomic_load(&fail_every), c = atomic_fetch_add(&calls, 1) + 1;
    if (k > 0 && c % k == 0) {
        atomic_fetch_add(&refused, 1);
        return EAGAIN;
    }
    int r = __real_pthread_create(t, attr, fn, arg);
    if (r == 0)
        atomic_fetch_add(&created, 1);
    return r;
}
static void count_reset(int every)
{
    atomic_store(&created, 0);
    atomic_store(&refused, 0);
    atomic_store(&calls, 0);
    atomic_store(&fail_every, every);
}
#define HAVE_COUNT 1
#else
static void count_reset(int every) { (void)every; }
#define HAVE_COUNT 0
#endif

/* ---- instruction sets ---- */

static int env_cap(void)
{
    const char *e = getenv("CNOISE_ISA");
    if (e)
        for (int i = 0; i < CN_ISA_COUNT; i++)
            if (strcmp(e, cn_isa_name((cn_isa)i)) == 0)
                return i;
    return CN_ISA_COUNT;
}

static cn_isa best_upto(int cap)
{
    int best = CN_ISA_SCALAR;
    for (int i = 0; i < CN_ISA_COUNT; i++)
        if (test_isa_width(i) <= test_isa_width(cap) && test_isa_width(i) > test_isa_width(best) &&
            cn_isa_compiled((cn_isa)i) &&
            cn_isa_supported((cn_isa)i))
            best = i;
    return (cn_isa)best;
}

static int env_check(void)
{
    const char *e = getenv("CNOISE_ISA");
    CHECK(e != NULL, "--env-check needs CNOISE_ISA in the environment");
    const int cap = env_cap();
    CHECK(cap < CN_ISA_COUNT, "CNOISE_ISA=%s is not an instruction set name", e ? e : "(unset)");
    /* Before any cn_isa_set_cap: the environment's cap holds. */
    cn_isa a = cn_isa_active();
    CHECK(a == best_upto(cap), "CNOISE_ISA=%s: active %s, want %s", e ? e : "", cn_isa_name(a),
          cn_isa_name(best_upto(cap)));
    if (cap == CN_ISA_SCALAR)
        CHECK(a == CN_ISA_SCALAR, "CNOISE_ISA=scalar: active %s", cn_isa_name(a));
#if defined(__x86_64__) || defined(__i386__)
    /* The other architecture's 128-bit name caps at this one's 128-bit set. */
    if (cap == CN_ISA_NEON && cn_isa_compiled(CN_ISA_SSE2) && cn_isa_supported(CN_ISA_SSE2))
        CHECK(a == CN_ISA_SSE2, "CNOISE_ISA=neon on x86: active %s, want sse2", cn_isa_name(a));
#elif defined(__aarch64__)
    if ((cap == CN_ISA_SSE2 || cap == CN_ISA_AVX2) && cn_isa_compiled(CN_ISA_NEON))
        CHECK(a == CN_ISA_NEON, "CNOISE_ISA=%s on ARM: active %s, want neon", e ? e : "", cn_isa_name(a));
#endif
    /* A batch call does not change it. */
    cn_noise g = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 2, CN_FRACTAL_NONE);
    double o[2] = {0, 0}, s[2] = {0.5, 0.5}, out[16];
    size_t cnt[2] = {4, 4};
    CHECK(cn_grid_eval(&g, o, s, cnt, out, 16, 1, NULL) == CN_OK, "grid under CNOISE_ISA");
    CHECK(cn_isa_active() == a, "active changed by a batch call");
    /* The API cap wins over the environment's; removing it goes back to the environment's. */
    const cn_isa top = best_upto(CN_ISA_COUNT);
    CHECK(cn_isa_set_cap(top) == CN_OK && cn_isa_active() == top, "cap %s under CNOISE_ISA=%s: active %s",
          cn_isa_name(top), e ? e : "", cn_isa_name(cn_isa_active()));
    CHECK(cn_isa_set_cap(CN_ISA_COUNT) == CN_OK && cn_isa_active() == best_upto(cap),
          "cap removed under CNOISE_ISA=%s: active %s", e ? e : "", cn_isa_name(cn_isa_active()));
    printf("test_batch --env-check: CNOISE_ISA=%s, active %s\n", e ? e : "", cn_isa_name(a));
    return test_summary("test_batch --env-check");
}

static void test_isa_api(void)
{
    static const char *const names[CN_ISA_COUNT] = {"scalar", "sse2", "avx2", "avx512", "neon"};
    for (int i = 0; i < CN_ISA_COUNT; i++)
        CHECK(strcmp(cn_isa_name((cn_isa)i), names[i]) == 0, "cn_isa_name(%d) = %s", i, cn_isa_name((cn_isa)i));
    const int unknown[] = {-1, CN_ISA_COUNT, CN_ISA_COUNT + 1, 1000, INT_MIN, INT_MAX};
    for (size_t k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
        cn_isa u = (cn_isa)unknown[k];
        CHECK(cn_isa_name(u) != NULL && strcmp(cn_isa_name(u), "unknown") == 0, "cn_isa_name(%d) = %s", unknown[k],
              cn_isa_name(u) ? cn_isa_name(u) : "NULL");
        CHECK(!cn_isa_compiled(u) && !cn_isa_supported(u), "unknown instruction set %d compiled or supported",
              unknown[k]);
    }
    CHECK(cn_isa_compiled(CN_ISA_SCALAR) && cn_isa_supported(CN_ISA_SCALAR), "scalar not compiled or supported");

#if defined(__x86_64__) || defined(__i386__)
    CHECK(!cn_isa_supported(CN_ISA_NEON), "NEON supported on x86");
#if defined(__x86_64__)
    CHECK(cn_isa_supported(CN_ISA_SSE2), "SSE2 not supported on x86-64");
#endif
#if defined(__GNUC__)
    /* The compiler's own CPU detection (cpuid plus the OS's register-state check) agrees. */
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
    int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                 __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    CHECK(!!cn_isa_supported(CN_ISA_SSE2) == !!__builtin_cpu_supports("sse2"), "SSE2 support disagrees with the compiler");
    CHECK(!!cn_isa_supported(CN_ISA_AVX2) == avx2, "AVX2 support %d, compiler says %d", cn_isa_supported(CN_ISA_AVX2),
          avx2);
    CHECK(!!cn_isa_supported(CN_ISA_AVX512) == (avx512 && avx2), "AVX-512 support %d, compiler says %d",
          cn_isa_supported(CN_ISA_AVX512), avx512 && avx2);
#endif
#elif defined(__aarch64__)
    CHECK(!cn_isa_supported(CN_ISA_SSE2) && !cn_isa_supported(CN_ISA_AVX2) && !cn_isa_supported(CN_ISA_AVX512),
          "an x86 instruction set supported on ARM");
#endif

    /* Before any cap: the environment's cap, or none. */
    cn_isa a0 = cn_isa_active();
    CHECK(a0 == best_upto(env_cap()), "active %s, want %s", cn_isa_name(a0), cn_isa_name(best_upto(env_cap())));

    /* Rejected caps change nothing. */
    CHECK(cn_isa_set_cap(CN_ISA_SCALAR) == CN_OK, "cap scalar");
    for (size_t k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
        if (unknown[k] == CN_ISA_COUNT)
            continue;
        cn_status st = cn_isa_set_cap((cn_isa)unknown[k]);
        CHECK(st == CN_E_ISA, "cn_isa_set_cap(%d) gives %s", unknown[k], cn_strerror(st));
        CHECK(cn_isa_active() == CN_ISA_SCALAR, "a rejected cap %d changed the active set to %s", unknown[k],
              cn_isa_name(cn_isa_active()));
    }

    /* Every valid cap: the widest compiled and supported set no wider than it, never wider. */
    printf("test_batch: instruction sets:");
    for (int c = 0; c < CN_ISA_COUNT; c++) {
        printf(" %s(%s%s)", cn_isa_name((cn_isa)c), cn_isa_compiled((cn_isa)c) ? "compiled" : "not compiled",
               cn_isa_supported((cn_isa)c) ? ", supported" : "");
        CHECK(cn_isa_set_cap((cn_isa)c) == CN_OK, "cn_isa_set_cap(%s)", cn_isa_name((cn_isa)c));
        cn_isa a = cn_isa_active();
        CHECK((int)a >= 0 && test_isa_width(a) <= test_isa_width(c) && cn_isa_compiled(a) && cn_isa_supported(a),
              "cap %s: active %s (%d) is wider than the cap, not compiled or not supported", cn_isa_name((cn_isa)c),
              cn_isa_name(a), (int)a);
        CHECK(a == best_upto(c), "cap %s: active %s, want %s", cn_isa_name((cn_isa)c), cn_isa_name(a),
              cn_isa_name(best_upto(c)));
    }
    printf("\n");
    /* CN_ISA_COUNT removes the cap. */
    CHECK(cn_isa_set_cap(CN_ISA_COUNT) == CN_OK, "cn_isa_set_cap(CN_ISA_COUNT)");
    CHECK(cn_isa_active() == best_upto(env_cap()), "cap removed: active %s, want %s", cn_isa_name(cn_isa_active()),
          cn_isa_name(best_upto(env_cap())));
    printf("test_batch: active without a cap: %s\n", cn_isa_name(cn_isa_active()));
}

/* ---- status codes ---- */

static void test_grid_status(void)
{
    cn_noise g = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 2, CN_FRACTAL_NONE);
    double o[2] = {0.5, -1.5}, s[2] = {0.25, -0.125};
    size_t cnt[2] = {5, 7};
    enum { N = 35, EXTRA = 8 };
    double out[N + EXTRA];
    float outf[N + EXTRA];
    double r[2];
    float rf[2];

#define RESET() (memset(out, TEST_SENTINEL, sizeof out), memset(outf, TEST_SENTINEL, sizeof outf))
#define EXPECT(call, callf, want, what)                                                                \
    do {                                                                                               \
        RESET();                                                                                       \
        cn_status st_ = (call), stf_ = (callf);                                                        \
        CHECK(st_ == (want), "cn_grid_eval, %s: %s, want %s", what, cn_strerror(st_), cn_strerror(want));   \
        CHECK(stf_ == (want), "cn_grid_evalf, %s: %s, want %s", what, cn_strerror(stf_), cn_strerror(want)); \
        if ((want) != CN_OK)                                                                           \
            CHECK(test_untouched(out, sizeof out) && test_untouched(outf, sizeof outf), "%s: output written on error", what); \
    } while (0)

    EXPECT(cn_grid_eval(&g, o, s, cnt, out, N, 1, r), cn_grid_evalf(&g, o, s, cnt, outf, N, 1, rf), CN_OK, "valid");
    CHECK(test_untouched(out + N, EXTRA * sizeof(double)) && test_untouched(outf + N, EXTRA * sizeof(float)),
          "wrote past the product of the counts");
    EXPECT(cn_grid_eval(&g, o, s, cnt, out, N + EXTRA, 1, NULL), cn_grid_evalf(&g, o, s, cnt, outf, N + EXTRA, 1, NULL),
           CN_OK, "longer output, NULL range");
    CHECK(test_untouched(out + N, EXTRA * sizeof(double)) && test_untouched(outf + N, EXTRA * sizeof(float)),
          "wrote past the product of the counts into a longer output");

    EXPECT(cn_grid_eval(NULL, o, s, cnt, out, N, 1, r), cn_grid_evalf(NULL, o, s, cnt, outf, N, 1, rf), CN_E_NULL,
           "NULL generator");
    EXPECT(cn_grid_eval(&g, NULL, s, cnt, out, N, 1, r), cn_grid_evalf(&g, NULL, s, cnt, outf, N, 1, rf), CN_E_NULL,
           "NULL origin");
    EXPECT(cn_grid_eval(&g, o, NULL, cnt, out, N, 1, r), cn_grid_evalf(&g, o, NULL, cnt, outf, N, 1, rf), CN_E_NULL,
           "NULL step");
    EXPECT(cn_grid_eval(&g, o, s, NULL, out, N, 1, r), cn_grid_evalf(&g, o, s, NULL, outf, N, 1, rf), CN_E_NULL,
           "NULL count");
    EXPECT(cn_grid_eval(&g, o, s, cnt, NULL, N, 1, r), cn_grid_evalf(&g, o, s, cnt, NULL, N, 1, rf), CN_E_NULL,
           "NULL output");

    for (int a = 0; a < 2; a++) {
        size_t c0[2] = {5, 7};
        c0[a] = 0;
        EXPECT(cn_grid_eval(&g, o, s, c0, out, N, 1, r), cn_grid_evalf(&g, o, s, c0, outf, N, 1, rf), CN_E_RANGE,
               a ? "count[1] = 0" : "count[0] = 0");
        const double bad[3] = {NAN, INFINITY, -INFINITY};
        for (int k = 0; k < 3; k++) {
            double ob[2] = {o[0], o[1]}, sb[2] = {s[0], s[1]};
            char what[64];
            ob[a] = bad[k];
            snprintf(what, sizeof what, "origin[%d] = %g", a, bad[k]);
            EXPECT(cn_grid_eval(&g, ob, s, cnt, out, N, 1, r), cn_grid_evalf(&g, ob, s, cnt, outf, N, 1, rf),
                   CN_E_RANGE, what);
            sb[a] = bad[k];
            snprintf(what, sizeof what, "step[%d] = %g", a, bad[k]);
            EXPECT(cn_grid_eval(&g, o, sb, cnt, out, N, 1, r), cn_grid_evalf(&g, o, sb, cnt, outf, N, 1, rf),
                   CN_E_RANGE, what);
        }
    }
    EXPECT(cn_grid_eval(&g, o, s, cnt, out, N - 1, 1, r), cn_grid_evalf(&g, o, s, cnt, outf, N - 1, 1, rf), CN_E_RANGE,
           "out_len one short");
    EXPECT(cn_grid_eval(&g, o, s, cnt, out, 0, 1, r), cn_grid_evalf(&g, o, s, cnt, outf, 0, 1, rf), CN_E_RANGE,
           "out_len 0");

    /* Products of the counts that overflow size_t: refused before anything is written (out is
     * tiny; out_len claims it is huge). */
    {
        size_t big[2] = {SIZE_MAX / 2, 3};
        EXPECT(cn_grid_eval(&g, o, s, big, out, SIZE_MAX, 1, r), cn_grid_evalf(&g, o, s, big, outf, SIZE_MAX, 1, rf),
               CN_E_OVERFLOW, "counts SIZE_MAX/2 x 3");
        size_t big2[2] = {3, SIZE_MAX / 2};
        EXPECT(cn_grid_eval(&g, o, s, big2, out, SIZE_MAX, 1, r), cn_grid_evalf(&g, o, s, big2, outf, SIZE_MAX, 1, rf),
               CN_E_OVERFLOW, "counts 3 x SIZE_MAX/2");
        size_t half = (size_t)1 << (sizeof(size_t) * CHAR_BIT / 2);
        size_t wrap[2] = {half, half}; /* the product wraps to exactly 0 */
        EXPECT(cn_grid_eval(&g, o, s, wrap, out, SIZE_MAX, 1, r), cn_grid_evalf(&g, o, s, wrap, outf, SIZE_MAX, 1, rf),
               CN_E_OVERFLOW, "counts 2^(w/2) x 2^(w/2)");
        EXPECT(cn_grid_eval(&g, o, s, wrap, out, N, 1, r), cn_grid_evalf(&g, o, s, wrap, outf, N, 1, rf), CN_E_OVERFLOW,
               "counts 2^(w/2) x 2^(w/2), short out_len");
        cn_noise g4 = make(CN_NOISE_VALUE, CN_MODE_DEFAULT, 4, CN_FRACTAL_NONE);
        double o4[4] = {0, 0, 0, 0}, s4[4] = {1, 1, 1, 1};
        size_t q = (size_t)1 << (sizeof(size_t) * CHAR_BIT / 4), c4[4] = {q, q, q, q + 1};
        EXPECT(cn_grid_eval(&g4, o4, s4, c4, out, SIZE_MAX, 1, r),
               cn_grid_evalf(&g4, o4, s4, c4, outf, SIZE_MAX, 1, rf), CN_E_OVERFLOW, "4D counts overflowing");
        /* The product fits in size_t, but not the bytes of the output: some error, nothing written. */
        size_t c1[2] = {SIZE_MAX / 2, 1};
        RESET();
        cn_status st = cn_grid_eval(&g, o, s, c1, out, SIZE_MAX, 1, r);
        cn_status stf = cn_grid_evalf(&g, o, s, c1, outf, SIZE_MAX, 1, rf);
        CHECK(st != CN_OK && stf != CN_OK, "SIZE_MAX/2 points of output accepted: %s / %s", cn_strerror(st),
              cn_strerror(stf));
        CHECK(test_untouched(out, sizeof out) && test_untouched(outf, sizeof outf), "output written for SIZE_MAX/2 points");
    }

    const int bad_threads[] = {-1, 257, INT_MIN, INT_MAX, CN_MAX_THREADS + 1};
    for (size_t k = 0; k < sizeof bad_threads / sizeof bad_threads[0]; k++) {
        char what[64];
        snprintf(what, sizeof what, "threads %d", bad_threads[k]);
        EXPECT(cn_grid_eval(&g, o, s, cnt, out, N, bad_threads[k], r),
               cn_grid_evalf(&g, o, s, cnt, outf, N, bad_threads[k], rf), CN_E_THREADS, what);
    }
    EXPECT(cn_grid_eval(&g, o, s, cnt, out, N, CN_MAX_THREADS, r), cn_grid_evalf(&g, o, s, cnt, outf, N, CN_MAX_THREADS, rf),
           CN_OK, "threads CN_MAX_THREADS");

    /* Generators that were not built. */
    cn_config bad;
    cn_config_init(&bad);
    bad.frequency = 1.0; /* the frequency these cases were written for */
    bad.type = CN_NOISE_SIMPLEX;
    bad.dims = 1;
    cn_noise nb;
    memset(&nb, 0x5A, sizeof nb);
    CHECK(cn_noise_build(&nb, &bad) != CN_OK, "simplex 1D built");
    EXPECT(cn_grid_eval(&nb, o, s, cnt, out, N, 1, r), cn_grid_evalf(&nb, o, s, cnt, outf, N, 1, rf), CN_E_UNBUILT,
           "failed build (simplex 1D)");
    bad.type = CN_NOISE_PERLIN;
    bad.dims = 2;
    bad.frequency = -1;
    memset(&nb, 0, sizeof nb);
    CHECK(cn_noise_build(&nb, &bad) != CN_OK, "frequency -1 built");
    EXPECT(cn_grid_eval(&nb, o, s, cnt, out, N, 1, r), cn_grid_evalf(&nb, o, s, cnt, outf, N, 1, rf), CN_E_UNBUILT,
           "failed build (frequency -1)");
    memset(&nb, 0, sizeof nb);
    EXPECT(cn_grid_eval(&nb, o, s, cnt, out, N, 1, r), cn_grid_evalf(&nb, o, s, cnt, outf, N, 1, rf), CN_E_UNBUILT,
           "zeroed generator");
    nb = g;
    cn__gen_mut(&nb)->cfg.type = CN_NOISE_VALUE; /* no longer matches its kernel */
    EXPECT(cn_grid_eval(&nb, o, s, cnt, out, N, 1, r), cn_grid_evalf(&nb, o, s, cnt, outf, N, 1, rf), CN_E_UNBUILT,
           "type changed after the build");
#undef EXPECT
#undef RESET
}

/* Points: out and coordinate arrays inside one allocation so that they can overlap. */
static void test_points_status(void)
{
    cn_noise g = make(CN_NOISE_SIMPLEX, CN_MODE_DEFAULT, 3, CN_FRACTAL_NONE);
    enum { N = 40, SPAN = 8 * N };
    double *dbuf = test_xmalloc(SPAN * sizeof(double));
    float *fbuf = test_xmalloc(SPAN * sizeof(float));
    double r[2];
    float rf[2];
    /* Axis arrays at N .. 2N, 3N .. 4N, 5N .. 6N; the rest is free for outputs. */
    for (int i = 0; i < SPAN; i++) {
        dbuf[i] = uniform(-50, 50);
        fbuf[i] = (float)dbuf[i];
    }
    const double *dc[3] = {dbuf + N, dbuf + 3 * N, dbuf + 5 * N};
    const float *fc[3] = {fbuf + N, fbuf + 3 * N, fbuf + 5 * N};
    double *dsave = test_xmalloc(SPAN * sizeof(double));
    float *fsave = test_xmalloc(SPAN * sizeof(float));
    memcpy(dsave, dbuf, SPAN * sizeof(double));
    memcpy(fsave, fbuf, SPAN * sizeof(float));

    /* A valid call into the free space, adjacent to the arrays on both sides: no false overlap. */
    struct {
        ptrdiff_t at;
        cn_status want;
        const char *what;
    } cases[] = {
        {0, CN_OK, "out just before coords[0]"},
        {2 * N, CN_OK, "out between coords[0] and coords[1]"},
        {6 * N, CN_OK, "out just after coords[2]"},
        {N, CN_E_OVERLAP, "out == coords[0]"},
        {3 * N, CN_E_OVERLAP, "out == coords[1]"},
        {5 * N, CN_E_OVERLAP, "out == coords[2]"},
        {N + N / 2, CN_E_OVERLAP, "out starts inside coords[0]"},
        {N / 2, CN_E_OVERLAP, "out ends inside coords[0]"},
        {2 * N - 1, CN_E_OVERLAP, "out's first element is coords[0]'s last"},
        {1, CN_E_OVERLAP, "out's last element is coords[0]'s first"},
        {4 * N + 1, CN_E_OVERLAP, "out ends one element inside coords[2]"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        memcpy(dbuf, dsave, SPAN * sizeof(double));
        memcpy(fbuf, fsave, SPAN * sizeof(float));
        cn_status st = cn_points_eval(&g, N, dc, dbuf + cases[k].at, 1, r);
        cn_status stf = cn_points_evalf(&g, N, fc, fbuf + cases[k].at, 1, rf);
        CHECK(st == cases[k].want, "cn_points_eval, %s: %s, want %s", cases[k].what, cn_strerror(st),
              cn_strerror(cases[k].want));
        CHECK(stf == cases[k].want, "cn_points_evalf, %s: %s, want %s", cases[k].what, cn_strerror(stf),
              cn_strerror(cases[k].want));
        if (cases[k].want != CN_OK) {
            CHECK(memcmp(dbuf, dsave, SPAN * sizeof(double)) == 0 && memcmp(fbuf, fsave, SPAN * sizeof(float)) == 0,
                  "%s: buffers written on error", cases[k].what);
        } else {
            /* The arrays themselves are unchanged, and the results are the point API's. */
            for (int a = 0; a < 3; a++)
                CHECK(memcmp(dc[a], dsave + (dc[a] - dbuf), N * sizeof(double)) == 0 &&
                          memcmp(fc[a], fsave + (fc[a] - fbuf), N * sizeof(float)) == 0,
                      "%s: coordinate array %d changed", cases[k].what, a);
            double p[3] = {dc[0][7], dc[1][7], dc[2][7]};
            float pf[3] = {fc[0][7], fc[1][7], fc[2][7]};
            double v = cn_eval(&g, p);
            float vf = cn_evalf(&g, pf);
            CHECK(memcmp(&dbuf[cases[k].at + 7], &v, sizeof v) == 0 && memcmp(&fbuf[cases[k].at + 7], &vf, sizeof vf) == 0,
                  "%s: result differs from the point API", cases[k].what);
        }
    }
    /* Coordinate arrays may share memory with each other (they are only read). */
    {
        const double *same[3] = {dc[0], dc[0], dc[0] + 1};
        const float *samef[3] = {fc[0], fc[0], fc[0] + 1};
        CHECK(cn_points_eval(&g, N - 1, same, dbuf + 6 * N, 1, r) == CN_OK, "shared coordinate arrays refused");
        CHECK(cn_points_evalf(&g, N - 1, samef, fbuf + 6 * N, 1, rf) == CN_OK, "shared float coordinate arrays refused");
    }

    double out[N];
    float outf[N];
#define EXPECTP(call, callf, want, what)                                                                \
    do {                                                                                                \
        memset(out, TEST_SENTINEL, sizeof out);                                                              \
        memset(outf, TEST_SENTINEL, sizeof outf);                                                            \
        cn_status st_ = (call), stf_ = (callf);                                                         \
        CHECK(st_ == (want), "cn_points_eval, %s: %s, want %s", what, cn_strerror(st_), cn_strerror(want));   \
        CHECK(stf_ == (want), "cn_points_evalf, %s: %s, want %s", what, cn_strerror(stf_), cn_strerror(want)); \
        if ((want) != CN_OK)                                                                            \
            CHECK(test_untouched(out, sizeof out) && test_untouched(outf, sizeof outf), "%s: output written on error", what); \
    } while (0)

    EXPECTP(cn_points_eval(NULL, N, dc, out, 1, r), cn_points_evalf(NULL, N, fc, outf, 1, rf), CN_E_NULL,
            "NULL generator");
    EXPECTP(cn_points_eval(&g, N, NULL, out, 1, r), cn_points_evalf(&g, N, NULL, outf, 1, rf), CN_E_NULL, "NULL coords");
    EXPECTP(cn_points_eval(&g, N, dc, NULL, 1, r), cn_points_evalf(&g, N, fc, NULL, 1, rf), CN_E_NULL, "NULL output");
    for (int a = 0; a < 3; a++) {
        const double *d2[3] = {dc[0], dc[1], dc[2]};
        const float *f2[3] = {fc[0], fc[1], fc[2]};
        char what[32];
        d2[a] = NULL;
        f2[a] = NULL;
        snprintf(what, sizeof what, "coords[%d] NULL", a);
        EXPECTP(cn_points_eval(&g, N, d2, out, 1, r), cn_points_evalf(&g, N, f2, outf, 1, rf), CN_E_NULL, what);
    }
    /* Exactly dims coordinate pointers are read (AddressSanitizer sees a read past them). */
    {
        cn_noise g1 = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 1, CN_FRACTAL_NONE);
        const double **one = test_xmalloc(sizeof *one);
        const float **onef = test_xmalloc(sizeof *onef);
        one[0] = dc[0];
        onef[0] = fc[0];
        EXPECTP(cn_points_eval(&g1, N, one, out, 1, r), cn_points_evalf(&g1, N, onef, outf, 1, rf), CN_OK,
                "1D, one coordinate array");
        free(one);
        free(onef);
    }

    /* n = 0 does nothing: CN_OK, the output untouched, the range NaN, NaN (no non-NaN output). */
    memset(out, TEST_SENTINEL, sizeof out);
    memset(outf, TEST_SENTINEL, sizeof outf);
    r[0] = r[1] = 0;
    rf[0] = rf[1] = 0;
    CHECK(cn_points_eval(&g, 0, dc, out, 1, r) == CN_OK && cn_points_evalf(&g, 0, fc, outf, 1, rf) == CN_OK, "n = 0");
    CHECK(test_untouched(out, sizeof out) && test_untouched(outf, sizeof outf), "n = 0 wrote output");
    CHECK(isnan(r[0]) && isnan(r[1]) && isnan(rf[0]) && isnan(rf[1]), "n = 0: range %g %g / %g %g", r[0], r[1],
          (double)rf[0], (double)rf[1]);
    CHECK(cn_points_eval(&g, 0, dc, dbuf + N, 1, NULL) == CN_OK, "n = 0 with out == coords[0] (nothing overlaps)");
    CHECK(cn_points_eval(&g, 0, dc, out, 0, NULL) == CN_OK, "n = 0, threads 0");

    const int bad_threads[] = {-1, 257, INT_MIN, INT_MAX};
    for (size_t k = 0; k < sizeof bad_threads / sizeof bad_threads[0]; k++) {
        char what[64];
        snprintf(what, sizeof what, "threads %d", bad_threads[k]);
        EXPECTP(cn_points_eval(&g, N, dc, out, bad_threads[k], r), cn_points_evalf(&g, N, fc, outf, bad_threads[k], rf),
                CN_E_THREADS, what);
        snprintf(what, sizeof what, "n = 0, threads %d", bad_threads[k]);
        EXPECTP(cn_points_eval(&g, 0, dc, out, bad_threads[k], r), cn_points_evalf(&g, 0, fc, outf, bad_threads[k], rf),
                CN_E_THREADS, what);
    }

    /* n too large for the byte size of the buffers: refused, nothing read or written. */
    EXPECTP(cn_points_eval(&g, SIZE_MAX / sizeof(double) + 1, dc, out, 1, r),
            cn_points_evalf(&g, SIZE_MAX / sizeof(float) + 1, fc, outf, 1, rf), CN_E_OVERFLOW, "n over SIZE_MAX bytes");
    EXPECTP(cn_points_eval(&g, SIZE_MAX, dc, out, 1, r), cn_points_evalf(&g, SIZE_MAX, fc, outf, 1, rf), CN_E_OVERFLOW,
            "n = SIZE_MAX");

    /* Generators that were not built. */
    cn_noise nb;
    memset(&nb, 0, sizeof nb);
    EXPECTP(cn_points_eval(&nb, N, dc, out, 1, r), cn_points_evalf(&nb, N, fc, outf, 1, rf), CN_E_UNBUILT,
            "zeroed generator");
    cn_config bad;
    cn_config_init(&bad);
    bad.dims = 3; /* these cases were written for 3D at frequency 1 */
    bad.frequency = 1.0;
    bad.type = CN_NOISE_VALUE;
    bad.mode = CN_MODE_CLASSIC; /* unsupported */
    memset(&nb, 0x5A, sizeof nb);
    CHECK(cn_noise_build(&nb, &bad) != CN_OK, "classic value noise built");
    EXPECTP(cn_points_eval(&nb, N, dc, out, 1, r), cn_points_evalf(&nb, N, fc, outf, 1, rf), CN_E_UNBUILT,
            "failed build (classic value noise)");
    nb = g;
    cn__gen_mut(&nb)->cfg.dims = 2; /* no longer matches its kernel */
    EXPECTP(cn_points_eval(&nb, N, dc, out, 1, r), cn_points_evalf(&nb, N, fc, outf, 1, rf), CN_E_UNBUILT,
            "dims changed after the build");
#undef EXPECTP
    free(dbuf);
    free(fbuf);
    free(dsave);
    free(fsave);
}

/* ---- range ---- */

static void expect_range(const char *what, const void *out, size_t n, int f32, double r0, double r1)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t nan = 0;
    for (size_t i = 0; i < n; i++) {
        double v = f32 ? (double)((const float *)out)[i] : ((const double *)out)[i];
        nan += isnan(v) != 0;
        if (v < lo)
            lo = v;
        if (v > hi)
            hi = v;
    }
    if (nan == n)
        CHECK(isnan(r0) && isnan(r1), "%s: every output NaN, range [%g, %g]", what, r0, r1);
    else
        CHECK(r0 == lo && r1 == hi, "%s: range [%.17g, %.17g], outputs span [%.17g, %.17g] (%zu NaN)", what, r0, r1,
              lo, hi, nan);
}

static void test_range(void)
{
    cn_noise g = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 2, CN_FRACTAL_FBM);
    enum { N = 1000 };
    double *x = test_xmalloc(N * sizeof(double)), *y = test_xmalloc(N * sizeof(double)), *out = test_xmalloc(N * sizeof(double));
    float *xf = test_xmalloc(N * sizeof(float)), *yf = test_xmalloc(N * sizeof(float)), *outf = test_xmalloc(N * sizeof(float));
    double *out2 = test_xmalloc(N * sizeof(double));
    float *outf2 = test_xmalloc(N * sizeof(float));
    const double *c[2] = {x, y};
    const float *cf[2] = {xf, yf};
    double r[2];
    float rf[2];

    /* Some NaN coordinates among finite ones: NaN outputs are ignored. The first and last are NaN,
     * so a min/max seeded from the first output would be wrong. */
    for (int i = 0; i < N; i++) {
        x[i] = uniform(-40, 40);
        y[i] = i % 10 == 0 || i == N - 1 ? NAN : uniform(-40, 40);
        xf[i] = (float)x[i];
        yf[i] = (float)y[i];
    }
    for (int th = 1; th <= 2; th++) {
        CHECK(cn_points_eval(&g, N, c, out, th, r) == CN_OK, "points");
        expect_range("points with NaN", out, N, 0, r[0], r[1]);
        CHECK(cn_points_evalf(&g, N, cf, outf, th, rf) == CN_OK, "float points");
        expect_range("float points with NaN", outf, N, 1, rf[0], rf[1]);
    }
    CHECK(isnan(out[0]) && isnan(outf[N - 1]) && !isnan(out[1]), "NaN coordinates gave %g, %g, %g", out[0],
          (double)outf[N - 1], out[1]);
    /* NULL range: accepted, same bits. */
    CHECK(cn_points_eval(&g, N, c, out2, 1, NULL) == CN_OK && memcmp(out, out2, N * sizeof(double)) == 0,
          "NULL range changes the points");
    CHECK(cn_points_evalf(&g, N, cf, outf2, 1, NULL) == CN_OK && memcmp(outf, outf2, N * sizeof(float)) == 0,
          "NULL range changes the float points");

    /* One point (a finite one); all NaN. */
    const double *c1[2] = {x + 1, y + 1};
    CHECK(cn_points_eval(&g, 1, c1, out, 1, r) == CN_OK && r[0] == r[1] && memcmp(&r[0], &out[0], sizeof r[0]) == 0 &&
              !isnan(r[0]) == !isnan(out[0]),
          "one point: range [%g, %g], value %g", r[0], r[1], out[0]);
    for (int i = 0; i < N; i++) {
        x[i] = i % 2 ? INFINITY : NAN;
        xf[i] = (float)x[i];
    }
    CHECK(cn_points_eval(&g, N, c, out, 2, r) == CN_OK, "NaN points");
    expect_range("all NaN", out, N, 0, r[0], r[1]);
    CHECK(isnan(r[0]) && isnan(r[1]), "all NaN: range [%g, %g]", r[0], r[1]);
    CHECK(cn_points_evalf(&g, N, cf, outf, 2, rf) == CN_OK, "NaN float points");
    CHECK(isnan(rf[0]) && isnan(rf[1]), "all NaN, float: range [%g, %g]", (double)rf[0], (double)rf[1]);

    /* A grid whose coordinates all overflow when scaled by the frequency (-> NaN everywhere). */
    {
        cn_config cfg;
        cn_config_init(&cfg);
        cfg.dims = 2;
        cfg.frequency = 4.0;
        cn_noise h;
        CHECK(cn_noise_build(&h, &cfg) == CN_OK, "build");
        double o[2] = {1e308, -1e308}, s[2] = {1e306, -1e306};
        size_t cnt[2] = {20, 30};
        CHECK(cn_grid_eval(&h, o, s, cnt, out, N, 1, r) == CN_OK, "overflowing grid");
        expect_range("overflowing grid", out, 600, 0, r[0], r[1]);
        CHECK(isnan(r[0]) && isnan(r[1]) && isnan(out[0]) && isnan(out[599]), "overflowing grid: range [%g, %g]", r[0],
              r[1]);
        CHECK(cn_grid_evalf(&h, o, s, cnt, outf, N, 1, rf) == CN_OK, "overflowing float grid");
        CHECK(isnan(rf[0]) && isnan(rf[1]), "overflowing float grid: range [%g, %g]", (double)rf[0], (double)rf[1]);
        /* Half of it overflows: the other half sets the range. */
        o[0] = -10.0;
        s[0] = 0.37;
        o[1] = 1e308;
        s[1] = -0.5e307; /* times 4, rows 0 .. 11 overflow, rows 12 .. 29 do not */
        CHECK(cn_grid_eval(&h, o, s, cnt, out, N, 1, r) == CN_OK, "half-overflowing grid");
        expect_range("half-overflowing grid", out, 600, 0, r[0], r[1]);
        CHECK(!isnan(r[0]) && isnan(out[0]), "half-overflowing grid: range [%g, %g], out[0] %g", r[0], r[1], out[0]);
        CHECK(cn_grid_evalf(&h, o, s, cnt, outf, N, 1, rf) == CN_OK, "half-overflowing float grid");
        expect_range("half-overflowing float grid", outf, 600, 1, rf[0], rf[1]);
    }
    free(x);
    free(y);
    free(out);
    free(xf);
    free(yf);
    free(outf);
    free(out2);
    free(outf2);
}

/* ---- threads ---- */

static const int THREADS[] = {1, 2, 3, 4, 7, 8, 0};
#define NTHREADS ((int)(sizeof THREADS / sizeof THREADS[0]))

#if HAVE_COUNT /* only the counted thread starts need these */
static int cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > CN_MAX_THREADS ? CN_MAX_THREADS : (int)n;
}

/* How many threads a job of total points may use with `threads` requested (0 = all cores). */
static int threads_for(size_t total, int threads)
{
    int t = threads == 0 ? cpus() : threads;
    size_t useful = total / MIN_POINTS_PER_THREAD + 1;
    return (size_t)t > useful ? (int)useful : t;
}
#endif

typedef struct tjob {
    const char *name;
    const cn_noise *g;
    int grid, f32;
    double origin[4], step[4];
    size_t count[4];
    size_t n;
    const void *coords[4];
} tjob;

static cn_status trun(const tjob *j, void *out, size_t total, int threads, double r[2])
{
    cn_status st;
    if (j->f32) {
        float rf[2] = {0, 0};
        st = j->grid ? cn_grid_evalf(j->g, j->origin, j->step, j->count, (float *)out, total, threads, rf)
                     : cn_points_evalf(j->g, j->n, (const float *const *)j->coords, (float *)out, threads, rf);
        r[0] = rf[0];
        r[1] = rf[1];
    } else {
        st = j->grid ? cn_grid_eval(j->g, j->origin, j->step, j->count, (double *)out, total, threads, r)
                     : cn_points_eval(j->g, j->n, (const double *const *)j->coords, (double *)out, threads, r);
    }
    return st;
}

static unsigned long long thread_values;

static void thread_case(const tjob *j)
{
    size_t total = j->n;
    if (j->grid) {
        total = 1;
        for (int a = 0; a < cn_noise_config(j->g)->dims; a++)
            total *= j->count[a];
    }
    const size_t bytes = total * (j->f32 ? sizeof(float) : sizeof(double));
    unsigned char *ref = test_xmalloc(bytes), *got = test_xmalloc(bytes);
    double rref[2], rgot[2];
    memset(ref, TEST_SENTINEL, bytes);
    CHECK(trun(j, ref, total, 1, rref) == CN_OK, "%s: one thread", j->name);
    expect_range(j->name, ref, total, j->f32, rref[0], rref[1]);
    /* A few values against the point API (the big jobs are not all worth it). */
    for (size_t i = 0; i < total; i += total / 97 + 1) {
        double p[4];
        float pf[4];
        size_t rest = i;
        for (int a = 0; a < cn_noise_config(j->g)->dims; a++) {
            if (j->grid) {
                p[a] = j->origin[a] + (double)(rest % j->count[a]) * j->step[a];
                rest /= j->count[a];
            } else {
                p[a] = j->f32 ? (double)((const float *)j->coords[a])[i] : ((const double *)j->coords[a])[i];
            }
            pf[a] = (float)p[a];
        }
        if (j->f32) {
            int exact = 1;
            for (int a = 0; a < cn_noise_config(j->g)->dims; a++)
                exact &= (double)pf[a] == p[a] || isnan(p[a]);
            float v = cn_evalf(j->g, pf);
            CHECK(!exact || memcmp(&v, ref + i * sizeof v, sizeof v) == 0, "%s: point %zu differs from cn_evalf",
                  j->name, i);
        } else {
            double v = cn_eval(j->g, p);
            CHECK(memcmp(&v, ref + i * sizeof v, sizeof v) == 0, "%s: point %zu differs from cn_eval", j->name, i);
        }
    }
    printf("test_batch: %s, %zu points: threads started", j->name, total);
    for (int fail = 0; fail < 2; fail++) {
        for (int k = 0; k < NTHREADS; k++) {
            const int th = THREADS[k];
            memset(got, TEST_SENTINEL, bytes);
            count_reset(fail ? 2 : 0); /* fail: every second thread fails to start */
            cn_status st = trun(j, got, total, th, rgot);
            if (fail && st == CN_E_THREADS)
                continue; /* documented: "or a thread could not start" */
            CHECK(st == CN_OK, "%s, %d threads%s: %s", j->name, th, fail ? " (some fail to start)" : "",
                  cn_strerror(st));
            CHECK(memcmp(ref, got, bytes) == 0, "%s, %d threads%s: results differ from one thread's", j->name, th,
                  fail ? " (some fail to start)" : "");
            CHECK(memcmp(rref, rgot, sizeof rref) == 0, "%s, %d threads%s: range [%g, %g], one thread [%g, %g]",
                  j->name, th, fail ? " (some fail to start)" : "", rgot[0], rgot[1], rref[0], rref[1]);
            thread_values += total;
#if HAVE_COUNT
            const int want = threads_for(total, th) - 1, c = atomic_load(&created), f = atomic_load(&refused);
            if (!fail) {
                printf(" %d:%d", th, c + 1);
                CHECK(c == want, "%s, %d threads requested: %d started besides the caller, want %d", j->name, th, c,
                      want);
            } else {
                CHECK(c + f == want, "%s, %d threads, every second failing: %d started + %d refused, want %d", j->name,
                      th, c, f, want);
            }
#endif
        }
    }
    printf("\n");
    free(ref);
    free(got);
}

static void test_threads(void)
{
    cn_noise g2 = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 2, CN_FRACTAL_FBM);
    cn_noise g3 = make(CN_NOISE_SIMPLEX, CN_MODE_CLASSIC, 3, CN_FRACTAL_NONE);
    cn_noise g4 = make(CN_NOISE_VALUE, CN_MODE_DEFAULT, 4, CN_FRACTAL_RIDGED);
    /* 521 x 263 = 137023 points: more than 8 * 16384, so 8 threads all get work. */
    for (int f32 = 0; f32 < 2; f32++) {
        tjob j = {f32 ? "float grid, perlin 2D fbm" : "grid, perlin 2D fbm", &g2, 1, f32,
                  {-100.25, 3000.5}, {0.375, -0.625}, {521, 263}, 0, {0}};
        thread_case(&j);
        tjob k = {f32 ? "float grid, simplex 3D classic" : "grid, simplex 3D classic", &g3, 1, f32,
                  {1e6, -2e9, 0.5}, {-3.25, 17.0, 0.001}, {61, 47, 53}, 0, {0}};
        thread_case(&k);
    }
    /* 140001 points with NaN and infinite coordinates among them. */
    enum { NP = 140001 };
    double *d[4];
    float *f[4];
    for (int a = 0; a < 4; a++) {
        d[a] = test_xmalloc(NP * sizeof(double));
        f[a] = test_xmalloc(NP * sizeof(float));
        for (int i = 0; i < NP; i++) {
            d[a][i] = i % 1009 == a ? NAN : i % 2003 == a ? -INFINITY : uniform(-5000, 5000);
            f[a][i] = (float)d[a][i];
        }
    }
    tjob p = {"points, value 4D ridged", &g4, 0, 0, {0}, {0}, {0}, NP, {d[0], d[1], d[2], d[3]}};
    thread_case(&p);
    tjob pf = {"float points, value 4D ridged", &g4, 0, 1, {0}, {0}, {0}, NP, {f[0], f[1], f[2], f[3]}};
    thread_case(&pf);
    for (int a = 0; a < 4; a++) {
        free(d[a]);
        free(f[a]);
    }
    /* Large grids, many chunks per thread (src/batch.c: about 16 per thread, at least 16384
     * points): 2048 x 640 = 1310720 points are cut at row starts, 20 or 8 rows a chunk on 2 or 7
     * threads; rows of 40003 points (not a multiple of any vector width) are longer than a chunk on
     * 7 threads, so chunks start and end inside rows. */
    {
        tjob big = {"large float grid, perlin 2D fbm", &g2, 1, 1, {-3.75, 12.5}, {0.01, 0.01}, {2048, 640}, 0, {0}};
        thread_case(&big);
        cn_noise p3 = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 3, CN_FRACTAL_NONE);
        tjob rows = {"long-row grid, perlin 3D", &p3, 1, 0, {5.5, -2.25, 0.125}, {0.003, 0.5, -0.75}, {40003, 3, 11},
                     0, {0}};
        thread_case(&rows);
    }
    /* A small job: no more threads than useful, same bits. */
    {
        tjob s = {"small grid", &g2, 1, 0, {0.5, 0.5}, {0.25, 0.25}, {100, 30}, 0, {0}};
        thread_case(&s);
    }
    printf("test_batch: %llu values compared across thread counts\n", thread_values);
}

/* ---- the cap changed while batches run ---- */

static atomic_int stop_toggling;
static atomic_long toggles;

static void *toggler(void *arg)
{
    (void)arg;
    int k = 0;
    while (!atomic_load(&stop_toggling)) {
        cn_isa c = (cn_isa)(k++ % (CN_ISA_COUNT + 1));
        if (cn_isa_set_cap(c) != CN_OK)
            break;
        atomic_fetch_add(&toggles, 1);
    }
    return NULL;
}

static void test_cap_race(void)
{
    cn_noise g = make(CN_NOISE_SIMPLEX, CN_MODE_DEFAULT, 2, CN_FRACTAL_BILLOW);
    double o[2] = {-7.5, 9.25}, s[2] = {0.125, -0.0625};
    size_t cnt[2] = {67, 53}, total = 67 * 53;
    double *ref = test_xmalloc(total * sizeof(double)), *got = test_xmalloc(total * sizeof(double));
    CHECK(cn_isa_set_cap(CN_ISA_SCALAR) == CN_OK, "cap scalar");
    CHECK(cn_grid_eval(&g, o, s, cnt, ref, total, 1, NULL) == CN_OK, "reference");
    CHECK(cn_isa_set_cap(CN_ISA_COUNT) == CN_OK, "no cap");
    atomic_store(&stop_toggling, 0);
    count_reset(0);
    pthread_t t;
    if (pthread_create(&t, NULL, toggler, NULL) != 0) {
        CHECK(0, "could not start the toggling thread");
        return;
    }
    /* The grids take well under a millisecond each: let the toggler start first (up to 10 s),
     * or a loaded machine may run all 60 before it is scheduled. */
    for (int wait = 0; wait < 10000 && atomic_load(&toggles) == 0; wait++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    int bad = 0;
    for (int rep = 0; rep < 60; rep++) {
        CHECK(cn_grid_eval(&g, o, s, cnt, got, total, 1 + rep % 2, NULL) == CN_OK, "grid while the cap changes");
#ifdef CN_RELAXED
        /* Relaxed builds (FMA in the SIMD builds): every instruction set within 2^-30 of the
         * scalar build, far above test_isa's bound for coordinates this small. */
        for (size_t i = 0; i < total; i++)
            if (!(fabs(got[i] - ref[i]) <= 0x1p-30)) {
                bad++;
                break;
            }
#else
        bad += memcmp(ref, got, total * sizeof(double)) != 0;
#endif
        cn_isa a = cn_isa_active();
        CHECK(cn_isa_compiled(a) && cn_isa_supported(a), "active %s while the cap changes", cn_isa_name(a));
    }
    atomic_store(&stop_toggling, 1);
    pthread_join(t, NULL);
    CHECK(bad == 0, "%d of 60 grids differ while the cap changes", bad);
    CHECK(atomic_load(&toggles) > 0, "the cap never changed");
    CHECK(cn_isa_set_cap(CN_ISA_COUNT) == CN_OK, "no cap");
    printf("test_batch: 60 grids evaluated while the cap changed %ld times\n", atomic_load(&toggles));
    free(ref);
    free(got);
}

/* ---- memory: nothing allocated in proportion to the output ---- */

/* ThreadSanitizer's shadow memory grows with the memory the kernels write, so the peak-RSS
 * check cannot hold under it (scripts/test-tsan.sh). */
#if defined(__SANITIZE_THREAD__)
#define CN_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CN_TSAN 1
#endif
#endif

static void test_memory(void)
{
#if defined(__linux__) && !defined(CN_TSAN)
    struct rusage ru;
    /* 4096 x 2048 doubles = 4096 x 4096 floats = 64 MiB. */
    const size_t nx = 4096, ny = 2048, bytes = nx * ny * sizeof(double);
    getrusage(RUSAGE_SELF, &ru);
    const long kib0 = ru.ru_maxrss;
    unsigned char *buf = test_xmalloc(bytes);
    memset(buf, 0x55, bytes);
    getrusage(RUSAGE_SELF, &ru);
    const long kib1 = ru.ru_maxrss;
    /* The measurement itself works: touching the output raised the peak. */
    CHECK(kib1 - kib0 >= 48 * 1024, "touching a 64 MiB buffer raised the peak RSS by only %ld KiB", kib1 - kib0);

    cn_noise g = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 2, CN_FRACTAL_NONE);
    double o[2] = {-1000.5, 250.25}, s[2] = {0.5, -0.25}, r[2];
    size_t cnt[2] = {nx, ny};
    CHECK(cn_grid_eval(&g, o, s, cnt, (double *)buf, nx * ny, 0, r) == CN_OK, "64 MiB double grid");
    getrusage(RUSAGE_SELF, &ru);
    const long kib2 = ru.ru_maxrss;
    double last = ((double *)buf)[nx * ny - 1], p[2] = {o[0] + (double)(nx - 1) * s[0], o[1] + (double)(ny - 1) * s[1]};
    double want = cn_eval(&g, p);
    CHECK(memcmp(&last, &want, sizeof last) == 0, "the last value of the big grid is %g, want %g", last, want);
    CHECK(!isnan(r[0]) && r[0] < r[1], "big grid range [%g, %g]", r[0], r[1]);

    float rf[2];
    size_t cntf[2] = {nx, 2 * ny};
    CHECK(cn_grid_evalf(&g, o, s, cntf, (float *)buf, 2 * nx * ny, 0, rf) == CN_OK, "64 MiB float grid");
    getrusage(RUSAGE_SELF, &ru);
    const long kib3 = ru.ru_maxrss;
    float lastf = ((float *)buf)[2 * nx * ny - 1];
    float pf[2] = {(float)(o[0] + (double)(nx - 1) * s[0]), (float)(o[1] + (double)(2 * ny - 1) * s[1])};
    float wantf = cn_evalf(&g, pf);
    CHECK(memcmp(&lastf, &wantf, sizeof lastf) == 0, "the last value of the big float grid is %g, want %g",
          (double)lastf, (double)wantf);
    CHECK(kib2 - kib1 < 4 * 1024, "evaluating a 64 MiB double grid raised the peak RSS by %ld KiB", kib2 - kib1);
    CHECK(kib3 - kib1 < 4 * 1024, "evaluating a 64 MiB float grid raised the peak RSS by %ld KiB", kib3 - kib1);
    printf("test_batch: peak RSS +%ld KiB for touching the 64 MiB output, then +%ld KiB (double) and +%ld KiB "
           "(float) for evaluating into it\n",
           kib1 - kib0, kib2 - kib1, kib3 - kib1);
    free(buf);
#else
    printf("test_batch: peak RSS check skipped (not Linux, or ThreadSanitizer)\n");
#endif
}

/*
 * Layered grids (cn_layers_grid_eval/f): every value is bit for bit what cn_layers_eval /
 * cn_layers_evalf give at the grid point, on every thread count and instruction-set cap, on
 * grids whose rows are shorter and longer than the library's blocks; the range is the min/max of
 * the values; misuse gets the documented statuses and leaves the output alone.
 */
/* min/max without NaN (the values here have none); a plain compare, not fmin/fmax, whose loop
 * reduction gcc 12's AArch64 vectoriser fails on (an internal compiler error). */
static void fold(double *lo, double *hi, double v)
{
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

static void test_layers(void)
{
    cn_noise g[3];
    g[0] = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 3, CN_FRACTAL_FBM);
    g[1] = make(CN_NOISE_SIMPLEX, CN_MODE_CLASSIC, 3, CN_FRACTAL_NONE);
    g[2] = make(CN_NOISE_VALUE, CN_MODE_DEFAULT, 3, CN_FRACTAL_RIDGED);
    const cn_layer layers[3] = {{&g[0], 1.0}, {&g[1], -0.75}, {&g[2], 2.5}};
    static const struct {
        double origin[3], step[3];
        size_t count[3];
    } grids[] = {
        {{-3.25, 7.5, 0.125}, {0.375, -0.5, 1.25}, {37, 11, 5}},   /* short rows: blocks of whole rows */
        {{100.5, -2.0, 3.0}, {0.0078125, 0.25, 0.5}, {5003, 2, 2}}, /* rows longer than a block */
    };
    const int caps[] = {CN_ISA_SCALAR, CN_ISA_COUNT};
    long compared = 0;
    for (size_t gi = 0; gi < sizeof grids / sizeof grids[0]; gi++) {
        const size_t *cnt = grids[gi].count, n = cnt[0] * cnt[1] * cnt[2];
        double *ref = test_xmalloc(n * sizeof(double)), *got = test_xmalloc(n * sizeof(double));
        float *reff = test_xmalloc(n * sizeof(float)), *gotf = test_xmalloc(n * sizeof(float));
        double lo = INFINITY, hi = -INFINITY, lof = INFINITY, hif = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            size_t idx[3] = {i % cnt[0], i / cnt[0] % cnt[1], i / cnt[0] / cnt[1]};
            double p[3];
            float pf[3];
            for (int a = 0; a < 3; a++) {
                p[a] = grids[gi].origin[a] + (double)idx[a] * grids[gi].step[a];
                pf[a] = (float)p[a];
            }
            CHECK(cn_layers_eval(layers, 3, p, &ref[i]) == CN_OK, "cn_layers_eval");
            fold(&lo, &hi, ref[i]);
            (void)pf;
        }
        for (int c = 0; c < 2; c++) {
            cn_isa_set_cap((cn_isa)caps[c]);
            for (int t = 0; t < 3; t++) {
                const int threads = t == 2 ? 0 : t + 1;
                double range[2];
                float rangef[2];
                cn_status st = cn_layers_grid_eval(layers, 3, grids[gi].origin, grids[gi].step, cnt, got, n, threads, range);
                CHECK(st == CN_OK && memcmp(got, ref, n * sizeof(double)) == 0, "layered grid %zu, cap %d, %d threads: %s",
                      gi, caps[c], threads, cn_strerror(st));
                CHECK(range[0] == lo && range[1] == hi, "layered grid %zu range [%g, %g], values [%g, %g]", gi, range[0],
                      range[1], lo, hi);
                st = cn_layers_grid_evalf(layers, 3, grids[gi].origin, grids[gi].step, cnt, gotf, n, threads, rangef);
                CHECK(st == CN_OK, "layered float grid: %s", cn_strerror(st));
                /* The float reference: each layer's batch float values summed as cn_layers_evalf
                 * sums its cn_evalf values (grid coordinates are doubles, not float points). */
                if (c == 0 && t == 0) {
                    float *one = test_xmalloc(n * sizeof(float));
                    double *sum = test_xmalloc(n * sizeof(double));
                    for (size_t i = 0; i < n; i++)
                        sum[i] = 0.0;
                    for (int k = 0; k < 3; k++) {
                        CHECK(cn_grid_evalf(layers[k].noise, grids[gi].origin, grids[gi].step, cnt, one, n, 1, NULL) == CN_OK,
                              "layer grid");
                        for (size_t i = 0; i < n; i++)
                            sum[i] += layers[k].weight * (double)one[i];
                    }
                    for (size_t i = 0; i < n; i++) {
                        reff[i] = (float)sum[i];
                        fold(&lof, &hif, reff[i]);
                    }
                    free(one);
                    free(sum);
                }
                CHECK(memcmp(gotf, reff, n * sizeof(float)) == 0, "layered float grid %zu, cap %d, %d threads", gi,
                      caps[c], threads);
                CHECK(rangef[0] == (float)lof && rangef[1] == (float)hif, "layered float grid %zu range", gi);
                compared += 2 * (long)n;
            }
        }
        cn_isa_set_cap(CN_ISA_COUNT);
        free(ref);
        free(got);
        free(reff);
        free(gotf);
    }
    printf("test_batch: %ld layered values compared with cn_layers_eval and per-layer float grids\n", compared);

    /* cn_layers_evalf: the float sum, and an infinity where it passes the largest float. */
    const float pf[3] = {0.3f, -1.7f, 2.25f};
    float v = 0;
    double s = 0;
    for (int k = 0; k < 3; k++)
        s += layers[k].weight * (double)cn_evalf(layers[k].noise, pf);
    CHECK(cn_layers_evalf(layers, 3, pf, &v) == CN_OK && v == (float)s, "cn_layers_evalf %.9g vs %.9g", v, (float)s);
    const cn_layer huge[2] = {{&g[0], 1e300}, {&g[0], 1e300}};
    float e0 = cn_evalf(&g[0], pf);
    CHECK(cn_layers_evalf(huge, 2, pf, &v) == CN_OK && isinf(v) && (v > 0) == (e0 > 0) && e0 != 0,
          "cn_layers_evalf past FLT_MAX: %g (layer value %g)", v, e0);

    /* cn_layers_range: the weighted ranges (perlin fbm, classic simplex, ridged value). */
    double r[2], r0[2], r1[2], r2[2];
    cn_noise_range(&g[0], r0);
    cn_noise_range(&g[1], r1);
    cn_noise_range(&g[2], r2);
    double mid = 1.0 * (r0[0] + r0[1]) * 0.5 + -0.75 * (r1[0] + r1[1]) * 0.5 + 2.5 * (r2[0] + r2[1]) * 0.5;
    double half = 1.0 * (r0[1] - r0[0]) * 0.5 + 0.75 * (r1[1] - r1[0]) * 0.5 + 2.5 * (r2[1] - r2[0]) * 0.5;
    CHECK(cn_layers_range(layers, 3, r) == CN_OK && r[0] == mid - half && r[1] == mid + half, "cn_layers_range [%g, %g]",
          r[0], r[1]);
    CHECK(r[0] == -1.0 - 0.75 + 0.0 && r[1] == 1.0 + 0.75 + 2.5, "cn_layers_range [%g, %g] is [-1.75, 4.25]", r[0], r[1]);
    const cn_layer over[2] = {{&g[0], 1e308}, {&g[2], 1e308}};
    CHECK(cn_layers_range(over, 2, r) == CN_E_SIGNAL, "a range that overflows");

    /* Misuse: statuses, and the output left alone. */
    double o3[3] = {0, 0, 0}, st3[3] = {1, 1, 1};
    size_t c3[3] = {4, 4, 4};
    double out[64];
    memset(out, TEST_SENTINEL, sizeof out);
    cn_noise g2 = make(CN_NOISE_PERLIN, CN_MODE_DEFAULT, 2, CN_FRACTAL_NONE), unbuilt;
    memset(&unbuilt, 0, sizeof unbuilt);
    const cn_layer mixed[2] = {{&g[0], 1}, {&g2, 1}}, nan_w[1] = {{&g[0], NAN}}, nul[1] = {{NULL, 1}},
                   unb[1] = {{&unbuilt, 1}};
    CHECK(cn_layers_grid_eval(NULL, 1, o3, st3, c3, out, 64, 1, NULL) == CN_E_NULL, "NULL layers");
    CHECK(cn_layers_grid_eval(layers, 0, o3, st3, c3, out, 64, 1, NULL) == CN_E_LAYERS, "no layers");
    CHECK(cn_layers_grid_eval(mixed, 2, o3, st3, c3, out, 64, 1, NULL) == CN_E_LAYERS, "dims differ");
    CHECK(cn_layers_grid_eval(nan_w, 1, o3, st3, c3, out, 64, 1, NULL) == CN_E_SIGNAL, "NaN weight");
    CHECK(cn_layers_grid_eval(nul, 1, o3, st3, c3, out, 64, 1, NULL) == CN_E_NULL, "NULL noise");
    CHECK(cn_layers_grid_eval(unb, 1, o3, st3, c3, out, 64, 1, NULL) == CN_E_UNBUILT, "unbuilt noise");
    CHECK(cn_layers_grid_eval(layers, 3, o3, st3, c3, out, 63, 1, NULL) == CN_E_RANGE, "out too short");
    CHECK(cn_layers_grid_eval(layers, 3, o3, st3, c3, out, 64, -1, NULL) == CN_E_THREADS, "threads -1");
    CHECK(cn_layers_grid_eval(layers, 3, o3, st3, NULL, out, 64, 1, NULL) == CN_E_NULL, "NULL count");
    int untouched = 1;
    for (size_t i = 0; i < sizeof out; i++)
        untouched &= ((unsigned char *)out)[i] == TEST_SENTINEL;
    CHECK(untouched, "a refused layered grid wrote to its output");
    /* Output over a layer's generator, or over the layers array. */
    cn_noise *big = test_xmalloc(4 * sizeof(cn_noise));
    big[1] = g[1];
    const cn_layer in_out[2] = {{&g[0], 1}, {&big[1], 1}};
    size_t cbig[3] = {64, 64, 1}; /* 32 KiB of output over a 40 KiB array of generators */
    CHECK(cn_layers_grid_eval(in_out, 2, o3, st3, cbig, (double *)big, 4 * sizeof(cn_noise) / sizeof(double), 1, NULL) ==
              CN_E_OVERLAP,
          "output over the second layer's generator");
    cn_layer *arr = test_xmalloc(64 * sizeof(double));
    arr[0] = layers[0];
    CHECK(cn_layers_grid_eval(arr, 1, o3, st3, c3, (double *)arr, 64, 1, NULL) == CN_E_OVERLAP,
          "output over the layers array");
    free(arr);
    free(big);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--env-check") == 0)
        return env_check();
    if (argc > 1) {
        fprintf(stderr, "usage: test_batch [--env-check]\n");
        return 2;
    }
    test_memory(); /* first, while the peak RSS is still low */
    test_isa_api();
    test_grid_status();
    test_points_status();
    test_range();
    test_threads();
    test_layers();
    test_cap_race();
    return test_summary("test_batch");
}
