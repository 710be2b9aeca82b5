/*
 * bench.c -- cnoise_bench: how fast cnoise evaluates noise, per instruction set and precision,
 * next to other noise libraries measured in the same process on the same workloads.
 *
 *   cnoise_bench [--quick] [--passes N] [--only ID[,ID...]] [--json FILE] [--markdown FILE]
 *
 * Every measurement runs one untimed warm-up pass, then N timed passes (7; --quick: 3) on one
 * thread, and reports the median, min and max time per sample (CLOCK_MONOTONIC), Msamples/s from
 * the median, and the ratio to the fastest cnoise batch row of the same case and precision.
 * cnoise rows run once per instruction set that is compiled and supported (forced with
 * cn_isa_set_cap and checked with cn_isa_active), in double (cn_grid_eval, cn_points_eval) and
 * float (cn_grid_evalf, cn_points_evalf), plus the single-point API as two scalar rows:
 * cn_eval2/cn_eval3 at the batch's double coordinates and cn_eval2f/cn_eval3f at those coordinates
 * rounded to float (as the float peers are called). The threads case runs the default
 * instruction set with threads = 1 and 2.
 *
 * Validation (exit status 1 when any fails): every output is finite; for the first case that
 * runs, every instruction set's output equals the scalar build's byte for byte (memcmp), and for
 * the others its 64-bit hash equals the scalar one's; cn_eval2/cn_eval3 give the scalar batch's
 * bits, and so do cn_eval2f/cn_eval3f on point workloads (their float and double coordinates are
 * the same values); threads = 2 gives the bits of threads = 1. A checksum (the sum of the outputs) of every
 * row is printed, so no measured work can be optimised away. In a relaxed build (CMake
 * -DCNOISE_RELAXED=ON, FMA in the SIMD builds) every instruction set's output is instead compared
 * value by value with the scalar build's, within RELAXED_TOL.
 *
 * Exit status: 0 success, 1 a validation failure or a runtime error, 2 a usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"
#include "clock.h"
#include "cnoise.h"

/* ----------------------------------------------------------------------------------------------
 * Results
 * ---------------------------------------------------------------------------------------------- */

enum { MAX_ROWS = 32, MAX_PASSES = 101, MAX_CASES = 16 };

typedef struct row {
    char impl[32];    /* "cnoise", "cnoise cn_eval", "stb_perlin", ... */
    char isa[16];     /* the instruction set for cnoise batch rows, "scalar" for cn_eval, "-" peers */
    int f32;          /* output precision */
    int threads;
    int batch;        /* a cnoise batch row: the reference for the ratio column */
    double ns_med, ns_min, ns_max; /* per sample */
    double ratio;     /* ns_med / the fastest cnoise batch row of the same precision */
    double checksum;  /* sum of the outputs of the last pass */
} row;

typedef struct bcase {
    const char *id;
    char title[96];
    cn_noise_type type;
    int threads_case; /* 1: threads = 1 versus threads = 2 on the default instruction set */
    bench_work w;
    row rows[MAX_ROWS];
    int nrows;
    double speedup[2]; /* threads case: median(threads 1) / median(threads 2), [double, float] */
} bcase;

static int failures;

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void fail(const char *fmt, ...)
{
    va_list ap;
    failures++;
    fprintf(stderr, "cnoise_bench: FAIL: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ----------------------------------------------------------------------------------------------
 * Timing and output checks
 * ---------------------------------------------------------------------------------------------- */


/* What one measurement runs: fn(ctx, out) computes the whole workload into out. */
typedef int (*work_fn)(const void *ctx, void *out);

/* One warm-up pass, then `passes` timed ones; fills the timing fields of r (per sample).
 * Returns 0, or -1 if fn reported an error. */
static int measure(work_fn fn, const void *ctx, void *out, size_t n, int passes, row *r)
{
    double t[MAX_PASSES];
    if (fn(ctx, out) != 0)
        return -1;
    for (int p = 0; p < passes; p++) {
        const double t0 = bench_now();
        const int st = fn(ctx, out);
        const double t1 = bench_now();
        if (st != 0)
            return -1;
        t[p] = 1e9 * (t1 - t0) / (double)n;
    }
    r->ns_med = bench_median(t, passes);
    r->ns_min = t[0];
    r->ns_max = t[passes - 1];
    return 0;
}

/* The sum of the outputs (the checksum) and whether all are finite. */
static double sum_outputs(const void *out, size_t n, int f32, int *all_finite)
{
    double s = 0.0;
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        const double v = f32 ? (double)((const float *)out)[i] : ((const double *)out)[i];
        ok &= isfinite(v) != 0;
        s += v;
    }
    *all_finite = ok;
    return s;
}

/* A 64-bit hash of the output bytes (multiply-xorshift over 8-byte words, then the tail). */
static uint64_t hash_bytes(const void *p, size_t len)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 0x9E3779B97F4A7C15u ^ (uint64_t)len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    for (; i < len; i++)
        h = (h ^ b[i]) * 0x94D049BB133111EBu;
    return h ^ (h >> 29);
}

/* ----------------------------------------------------------------------------------------------
 * The measured functions
 * ---------------------------------------------------------------------------------------------- */

typedef struct cn_ctx {
    const cn_noise *gen;
    const bench_work *w;
    int f32, threads;
    void *grad[3]; /* run_cnoise_grad: the gradient's components */
    const cn_warp *warp; /* run_cnoise_warp: one stage */
} cn_ctx;

static int run_cnoise_batch(const void *vctx, void *out)
{
    const cn_ctx *c = (const cn_ctx *)vctx;
    const bench_work *w = c->w;
    cn_status st;
    if (w->points) {
        if (c->f32)
            st = cn_points_evalf(c->gen, w->n, w->xf, (float *)out, c->threads, NULL);
        else
            st = cn_points_eval(c->gen, w->n, w->xd, (double *)out, c->threads, NULL);
    } else {
        const double origin[3] = {w->origin, w->origin, w->origin}, step[3] = {w->step, w->step, w->step};
        if (c->f32)
            st = cn_grid_evalf(c->gen, origin, step, w->count, (float *)out, w->n, c->threads, NULL);
        else
            st = cn_grid_eval(c->gen, origin, step, w->count, (double *)out, w->n, c->threads, NULL);
    }
    if (st != CN_OK) {
        fprintf(stderr, "cnoise_bench: batch call failed: %s\n", cn_strerror(st));
        return -1;
    }
    return 0;
}

/* The batch calls with the gradient (cn_grid_eval[f]_grad, cn_points_eval[f]_grad): the values to
 * out, the derivatives to the context's buffers. */
static int run_cnoise_grad(const void *vctx, void *out)
{
    const cn_ctx *c = (const cn_ctx *)vctx;
    const bench_work *w = c->w;
    cn_status st;
    if (w->points) {
        if (c->f32)
            st = cn_points_evalf_grad(c->gen, w->n, w->xf, (float *)out, (float *const *)c->grad, c->threads);
        else
            st = cn_points_eval_grad(c->gen, w->n, w->xd, (double *)out, (double *const *)c->grad, c->threads);
    } else {
        const double origin[3] = {w->origin, w->origin, w->origin}, step[3] = {w->step, w->step, w->step};
        if (c->f32)
            st = cn_grid_evalf_grad(c->gen, origin, step, w->count, (float *)out, (float *const *)c->grad, w->n,
                                    c->threads);
        else
            st = cn_grid_eval_grad(c->gen, origin, step, w->count, (double *)out, (double *const *)c->grad, w->n,
                                   c->threads);
    }
    if (st != CN_OK) {
        fprintf(stderr, "cnoise_bench: gradient call failed: %s\n", cn_strerror(st));
        return -1;
    }
    return 0;
}

/* The warped batch calls (cn_warp_grid_eval[f], cn_warp_points_eval[f]) with the context's one
 * stage. */
static int run_cnoise_warp(const void *vctx, void *out)
{
    const cn_ctx *c = (const cn_ctx *)vctx;
    const bench_work *w = c->w;
    cn_status st;
    if (w->points) {
        if (c->f32)
            st = cn_warp_points_evalf(c->gen, c->warp, 1, w->n, w->xf, (float *)out, NULL, c->threads, NULL);
        else
            st = cn_warp_points_eval(c->gen, c->warp, 1, w->n, w->xd, (double *)out, NULL, c->threads, NULL);
    } else {
        const double origin[3] = {w->origin, w->origin, w->origin}, step[3] = {w->step, w->step, w->step};
        if (c->f32)
            st = cn_warp_grid_evalf(c->gen, c->warp, 1, origin, step, w->count, (float *)out, NULL, w->n, c->threads,
                                    NULL);
        else
            st = cn_warp_grid_eval(c->gen, c->warp, 1, origin, step, w->count, (double *)out, NULL, w->n, c->threads,
                                   NULL);
    }
    if (st != CN_OK) {
        fprintf(stderr, "cnoise_bench: warp call failed: %s\n", cn_strerror(st));
        return -1;
    }
    return 0;
}

/* The single-point API over the same samples: cn_eval2/cn_eval3 on the grid coordinates
 * origin + i * step (the batch's own formula) or on the point arrays; with f32, cn_eval2f/
 * cn_eval3f on those coordinates rounded to float (as the float peers see them). */
static int run_cnoise_pointf(const cn_ctx *c, float *o)
{
    const bench_work *w = c->w;
    const cn_noise *g = c->gen;
    if (w->points) {
        for (size_t i = 0; i < w->n; i++)
            o[i] = w->dims == 2 ? cn_eval2f(g, w->xf[0][i], w->xf[1][i]) : cn_eval3f(g, w->xf[0][i], w->xf[1][i], w->xf[2][i]);
        return 0;
    }
    BENCH_GRID_FOR(w, float, x, y, z, idx, o[idx] = w->dims == 2 ? cn_eval2f(g, x, y) : cn_eval3f(g, x, y, z));
    return 0;
}

static int run_cnoise_point(const void *vctx, void *out)
{
    const cn_ctx *c = (const cn_ctx *)vctx;
    if (c->f32)
        return run_cnoise_pointf(c, (float *)out);
    const bench_work *w = c->w;
    const cn_noise *g = c->gen;
    double *o = (double *)out;
    if (w->points) {
        for (size_t i = 0; i < w->n; i++)
            o[i] = w->dims == 2 ? cn_eval2(g, w->xd[0][i], w->xd[1][i]) : cn_eval3(g, w->xd[0][i], w->xd[1][i], w->xd[2][i]);
        return 0;
    }
    BENCH_GRID_FOR(w, double, x, y, z, idx, o[idx] = w->dims == 2 ? cn_eval2(g, x, y) : cn_eval3(g, x, y, z));
    return 0;
}

typedef struct peer_ctx {
    const bench_peer *p;
    const bench_work *w;
} peer_ctx;

static int run_peer(const void *vctx, void *out)
{
    const peer_ctx *c = (const peer_ctx *)vctx;
    c->p->run(c->w, out);
    return 0;
}

/* ----------------------------------------------------------------------------------------------
 * The cases
 * ---------------------------------------------------------------------------------------------- */

typedef struct options {
    int quick, passes;
    const char *only, *json, *markdown;
} options;

/* The peers built into this binary (compile-time), and those that are not. */
static const bench_peer *const peer_lists[] = {
#ifdef CN_BENCH_HAVE_STB
    bench_peers_stb,
#endif
#ifdef CN_BENCH_HAVE_LIBNOISE
    bench_peers_libnoise,
#endif
#ifdef CN_BENCH_HAVE_FNL
    bench_peers_fnl,
#endif
#ifdef CN_BENCH_HAVE_FN2
    bench_peers_fn2,
#endif
    NULL,
};

typedef struct peer_status {
    const char *name, *missing_because;
    int built;
} peer_status;

static const peer_status peer_statuses[] = {
#ifdef CN_BENCH_HAVE_STB
    {"stb_perlin", "", 1},
#else
    {"stb_perlin", "stb/stb_perlin.h (Debian libstb-dev) was not found when the build was configured", 0},
#endif
#ifdef CN_BENCH_HAVE_LIBNOISE
    {"libnoise", "", 1},
#else
    {"libnoise", "libnoise's noise.h and library (Debian libnoise-dev) were not found when the build was configured",
     0},
#endif
#ifdef CN_BENCH_HAVE_FNL
    {"FastNoiseLite", "", 1},
#else
    {"FastNoiseLite", "not packaged by Debian: configure with -DCNOISE_BENCH_FNL_DIR=<checkout>/C (scripts/bench.sh: FNL_DIR)",
     0},
#endif
#ifdef CN_BENCH_HAVE_FN2
    {"FastNoise2", "", 1},
#else
    {"FastNoise2", "not packaged by Debian: scripts/bench.sh builds it from FN2_SRC and FASTSIMD_SRC (checkouts)", 0},
#endif
};
#define N_PEER_STATUSES (sizeof peer_statuses / sizeof peer_statuses[0])

/* Uniform random coordinates in [-256, 256) from SplitMix64 (seeded with a constant), made
 * float first so the float and double arrays hold the same values. */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int only_selects(const char *only, const char *id)
{
    if (!only)
        return 1;
    const size_t len = strlen(id);
    for (const char *p = only; *p;) {
        const char *e = strchr(p, ',');
        const size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == len && strncmp(p, id, len) == 0)
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

static const char *const case_ids[] = {"perlin2d", "perlin3d",     "fbm2d",    "simplex2d",    "simplex3d",
                                       "value2d",  "value3d",      "perlin3d_s037", "points3d", "fbm2d_threads",
                                       "cellular2d", "cellular3d", "opensimplex2_2d", "opensimplex2_3d",
                                       "opensimplex2s_2d", "opensimplex2s_3d"};
#define N_CASE_IDS (sizeof case_ids / sizeof case_ids[0])

/* Fills cases[] with the selected workloads; returns how many. */
static int make_cases(const options *o, bcase *cases, double **pd, float **pf)
{
    const size_t n2 = o->quick ? 256 : 2048, n3 = o->quick ? 32 : 256;
    const size_t npts = o->quick ? (size_t)1 << 15 : (size_t)1 << 22;
    int nc = 0;
    for (size_t id = 0; id < N_CASE_IDS; id++) {
        if (!only_selects(o->only, case_ids[id]))
            continue;
        bcase *c = &cases[nc++];
        memset(c, 0, sizeof *c);
        c->id = case_ids[id];
        bench_work *w = &c->w;
        w->noise = BENCH_PERLIN;
        c->type = CN_NOISE_PERLIN;
        w->dims = 2;
        w->octaves = 1;
        w->origin = 0.5;
        w->step = 0.01;
        switch (id) {
        case 0: break;
        case 1: w->dims = 3; break;
        case 2: w->octaves = 6; break;
        case 3: w->noise = BENCH_SIMPLEX; c->type = CN_NOISE_SIMPLEX; break;
        case 4: w->noise = BENCH_SIMPLEX; c->type = CN_NOISE_SIMPLEX; w->dims = 3; break;
        case 5: w->noise = BENCH_VALUE; c->type = CN_NOISE_VALUE; break;
        case 6: w->noise = BENCH_VALUE; c->type = CN_NOISE_VALUE; w->dims = 3; break;
        case 7: w->dims = 3; w->step = 0.37; break;
        case 8: w->dims = 3; w->points = 1; break;
        case 9: w->octaves = 6; c->threads_case = 1; break;
        case 10: w->noise = BENCH_CELLULAR; c->type = CN_NOISE_CELLULAR; break;
        case 11: w->noise = BENCH_CELLULAR; c->type = CN_NOISE_CELLULAR; w->dims = 3; break;
        case 12: w->noise = BENCH_OPENSIMPLEX2; c->type = CN_NOISE_OPENSIMPLEX2; break;
        case 13: w->noise = BENCH_OPENSIMPLEX2; c->type = CN_NOISE_OPENSIMPLEX2; w->dims = 3; break;
        case 14: w->noise = BENCH_OPENSIMPLEX2S; c->type = CN_NOISE_OPENSIMPLEX2S; break;
        case 15: w->noise = BENCH_OPENSIMPLEX2S; c->type = CN_NOISE_OPENSIMPLEX2S; w->dims = 3; break;
        default: break;
        }
        static const char *const noise_names[] = {"Perlin", "simplex", "value", "cellular F1 (Euclidean)", "OpenSimplex2",
                                                  "OpenSimplex2S"};
        if (w->points) {
            w->n = npts;
            uint64_t s = 20240601u;
            for (int a = 0; a < 3; a++) {
                for (size_t i = 0; i < npts; i++) {
                    pf[a][i] = (float)((double)(splitmix64(&s) >> 11) * 0x1p-53 * 512.0 - 256.0);
                    pd[a][i] = pf[a][i];
                }
                w->xd[a] = pd[a];
                w->xf[a] = pf[a];
            }
            snprintf(c->title, sizeof c->title, "%s 3D, %zu random points in [-256,256)^3", noise_names[w->noise], npts);
        } else {
            const size_t side = w->dims == 2 ? n2 : n3;
            w->count[0] = w->count[1] = side;
            w->count[2] = w->dims == 3 ? side : 1;
            w->n = w->count[0] * w->count[1] * w->count[2];
            char oct[40] = "";
            if (w->octaves > 1)
                snprintf(oct, sizeof oct, " fBm %d octaves,", w->octaves);
            snprintf(c->title, sizeof c->title, "%s %dD,%s %zu^%d grid, origin %g, step %g%s", noise_names[w->noise],
                     w->dims, oct, side, w->dims, w->origin, w->step,
                     c->threads_case ? ", threads 1 vs 2" : "");
        }
    }
    return nc;
}

/* ----------------------------------------------------------------------------------------------
 * Running a case
 * ---------------------------------------------------------------------------------------------- */

/* What the scalar build gave for this case: hashes per precision, and for the first case (every
 * case in relaxed builds) the outputs themselves. */
typedef struct reference {
    int have[2];
    uint64_t hash[2];
    void *copy[2];
} reference;

#ifdef CN_RELAXED
/* Relaxed builds: the workloads' coordinates are moderate (below 2^10 in noise space at the
 * highest octave), where tests/test_isa.c bounds the difference from the scalar build by
 * 2^-15 (float) and far less (double); RELAXED_TOL leaves a margin over both. */
#define RELAXED_TOL 0x1p-12
#define KEEP_COPIES 1
static int differs(const void *ref, const void *out, size_t n, int f32)
{
    for (size_t i = 0; i < n; i++) {
        const double a = f32 ? ((const float *)ref)[i] : ((const double *)ref)[i];
        const double b = f32 ? ((const float *)out)[i] : ((const double *)out)[i];
        if (!(fabs(a - b) <= RELAXED_TOL))
            return 1;
    }
    return 0;
}
#else
#define KEEP_COPIES 0
static int differs(const void *ref, const void *out, size_t n, int f32)
{
    return memcmp(ref, out, n * (f32 ? sizeof(float) : sizeof(double))) != 0;
}
#endif

static row *add_row(bcase *c, const char *impl, const char *isa, int f32, int threads, int batch)
{
    if (c->nrows == MAX_ROWS)
        return NULL;
    row *r = &c->rows[c->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->impl, sizeof r->impl, "%s", impl);
    snprintf(r->isa, sizeof r->isa, "%s", isa);
    r->f32 = f32;
    r->threads = threads;
    r->batch = batch;
    return r;
}

/* Measures one row and checks its output. Returns the output hash. */
static uint64_t finish_row(bcase *c, row *r, work_fn fn, const void *ctx, void *out, int passes)
{
    const size_t bytes = c->w.n * (r->f32 ? sizeof(float) : sizeof(double));
    if (measure(fn, ctx, out, c->w.n, passes, r) != 0) {
        fail("%s: %s %s could not run", c->id, r->impl, r->isa);
        r->ns_med = r->ns_min = r->ns_max = NAN;
        return 0;
    }
    int finite;
    r->checksum = sum_outputs(out, c->w.n, r->f32, &finite);
    if (!finite)
        fail("%s: %s (%s) output is not all finite", c->id, r->impl, r->isa);
    return hash_bytes(out, bytes);
}

static int run_case(bcase *c, const options *o, int first, void *out, reference *ref)
{
    const int passes = o->passes;
    memset(ref, 0, sizeof *ref);
    cn_config cfg;
    cn_noise gen;
    cn_config_init(&cfg);
    cfg.type = c->type;
    cfg.dims = c->w.dims;
    cfg.frequency = 1.0; /* as every peer: the workload's coordinates carry the spacing */
    if (c->w.octaves > 1) {
        cfg.fractal = CN_FRACTAL_FBM;
        cfg.octaves = c->w.octaves;
        cfg.lacunarity = 2.0;
        cfg.gain = 0.5;
    }
    const cn_status st = cn_noise_build(&gen, &cfg);
    if (st != CN_OK) {
        fprintf(stderr, "cnoise_bench: %s: cn_noise_build: %s\n", c->id, cn_strerror(st));
        failures++;
        return -1;
    }
    static const char *const prec_name[2] = {"double", "float"};

    if (c->threads_case) {
        /* The default instruction set, threads = 1 then 2; the same bits from both. */
        cn_isa_set_cap(CN_ISA_COUNT);
        const char *isa = cn_isa_name(cn_isa_active());
        for (int f32 = 0; f32 < 2; f32++) {
            uint64_t h[2];
            double med[2];
            for (int t = 1; t <= 2; t++) {
                row *r = add_row(c, t == 1 ? "cnoise threads=1" : "cnoise threads=2", isa, f32, t, t == 1);
                if (!r)
                    return -1;
                const cn_ctx ctx = {&gen, &c->w, f32, t, {NULL, NULL, NULL}, NULL};
                h[t - 1] = finish_row(c, r, run_cnoise_batch, &ctx, out, passes);
                med[t - 1] = r->ns_med;
            }
            if (h[0] != h[1])
                fail("%s: threads = 2 gives other bits than threads = 1 (%s)", c->id, prec_name[f32]);
            c->speedup[f32] = med[0] / med[1];
        }
        return 0;
    }

    /* cnoise batch rows: every instruction set that is compiled and supported, scalar first. */
    for (int i = 0; i < CN_ISA_COUNT; i++) {
        const cn_isa isa = (cn_isa)i;
        if (!cn_isa_compiled(isa) || !cn_isa_supported(isa))
            continue;
        if (cn_isa_set_cap(isa) != CN_OK || cn_isa_active() != isa) {
            fail("%s: cannot make %s the active instruction set (active: %s)", c->id, cn_isa_name(isa),
                 cn_isa_name(cn_isa_active()));
            continue;
        }
        for (int f32 = 0; f32 < 2; f32++) {
            row *r = add_row(c, "cnoise", cn_isa_name(isa), f32, 1, 1);
            if (!r)
                return -1;
            const cn_ctx ctx = {&gen, &c->w, f32, 1, {NULL, NULL, NULL}, NULL};
            const uint64_t h = finish_row(c, r, run_cnoise_batch, &ctx, out, passes);
            const size_t bytes = c->w.n * (f32 ? sizeof(float) : sizeof(double));
            if (isa == CN_ISA_SCALAR) {
                ref->have[f32] = 1;
                ref->hash[f32] = h;
                if (first || KEEP_COPIES) {
                    ref->copy[f32] = malloc(bytes);
                    if (!ref->copy[f32]) {
                        fprintf(stderr, "cnoise_bench: out of memory\n");
                        failures++;
                        return -1;
                    }
                    memcpy(ref->copy[f32], out, bytes);
                }
            } else if (!ref->have[f32]) {
                fail("%s: no scalar output to compare %s against (%s)", c->id, cn_isa_name(isa), prec_name[f32]);
            } else if (ref->copy[f32] ? differs(ref->copy[f32], out, c->w.n, f32) : h != ref->hash[f32]) {
                fail("%s: %s output differs from the scalar build's (%s)", c->id, cn_isa_name(isa), prec_name[f32]);
            }
        }
    }
    cn_isa_set_cap(CN_ISA_COUNT);

    /* Value and gradient (every type but cellular), on the default instruction set: what the
     * derivatives cost next to the value alone (the ratio column), and the values' bits must be
     * the batch's. */
    if (c->type != CN_NOISE_CELLULAR) {
        void *grad[3] = {NULL, NULL, NULL};
        int ok = 1;
        for (int a = 0; a < c->w.dims; a++)
            ok &= (grad[a] = malloc(c->w.n * sizeof(double))) != NULL;
        for (int f32 = 0; ok && f32 < 2; f32++) {
            row *r = add_row(c, "cnoise +gradient", cn_isa_name(cn_isa_active()), f32, 1, 0);
            if (!r)
                break;
            const cn_ctx ctx = {&gen, &c->w, f32, 1, {grad[0], grad[1], grad[2]}, NULL};
            const uint64_t h = finish_row(c, r, run_cnoise_grad, &ctx, out, passes);
            if (ref->have[f32] && (ref->copy[f32] ? differs(ref->copy[f32], out, c->w.n, f32) : h != ref->hash[f32]))
                fail("%s: the gradient call's values differ from the batch's (%s)", c->id, prec_name[f32]);
        }
        if (!ok)
            fail("%s: out of memory for the gradient", c->id);
        for (int a = 0; a < 3; a++)
            free(grad[a]);
    }

    /* Domain warp, on the default instruction set: one stage whose fields are single-octave noise
     * of the case's type (Perlin for cellular) at the case's frequency, seeds 1..dims, amplitude 2
     * (lattice cells): what warping costs next to the value alone (the ratio column). */
    {
        static cn_noise fields[3];
        cn_warp wp = {{NULL, NULL, NULL, NULL}, 2.0, CN_WARP_INDEPENDENT};
        int ok = 1;
        for (int a = 0; a < c->w.dims; a++) {
            cn_config fc;
            cn_config_init(&fc);
            fc.type = c->type == CN_NOISE_CELLULAR ? CN_NOISE_PERLIN : c->type;
            fc.dims = c->w.dims;
            fc.frequency = 1.0;
            fc.seed = (uint64_t)a + 1;
            ok &= cn_noise_build(&fields[a], &fc) == CN_OK;
            wp.field[a] = &fields[a];
        }
        for (int f32 = 0; ok && f32 < 2; f32++) {
            row *r = add_row(c, "cnoise +warp", cn_isa_name(cn_isa_active()), f32, 1, 0);
            if (!r)
                break;
            cn_ctx ctx = {&gen, &c->w, f32, 1, {NULL, NULL, NULL}, &wp};
            finish_row(c, r, run_cnoise_warp, &ctx, out, passes);
        }
        if (!ok)
            fail("%s: the warp's fields cannot be built", c->id);
    }

    /* The single-point API (always the scalar build), in double: it sees the batch's coordinates
     * exactly, so it must give the scalar batch's bits. */
    {
        row *r = add_row(c, c->w.dims == 2 ? "cnoise cn_eval2" : "cnoise cn_eval3", "scalar", 0, 1, 0);
        if (!r)
            return -1;
        const cn_ctx ctx = {&gen, &c->w, 0, 1, {NULL, NULL, NULL}, NULL};
        const uint64_t h = finish_row(c, r, run_cnoise_point, &ctx, out, passes);
        if (ref->have[0] && h != ref->hash[0])
            fail("%s: %s differs from the scalar batch output", c->id, r->impl);
    }
    /* In float, as the float peers are called. Point workloads hold the same values in float
     * and double, so there it must give the float batch's bits too. */
    {
        row *r = add_row(c, c->w.dims == 2 ? "cnoise cn_eval2f" : "cnoise cn_eval3f", "scalar", 1, 1, 0);
        if (!r)
            return -1;
        const cn_ctx ctx = {&gen, &c->w, 1, 1, {NULL, NULL, NULL}, NULL};
        const uint64_t h = finish_row(c, r, run_cnoise_point, &ctx, out, passes);
        if (c->w.points && ref->have[1] && h != ref->hash[1])
            fail("%s: %s differs from the scalar float batch output", c->id, r->impl);
    }

    /* Peers. */
    for (size_t l = 0; peer_lists[l]; l++) {
        for (const bench_peer *p = peer_lists[l]; p->name; p++) {
            if (!p->supports(&c->w))
                continue;
            row *r = add_row(c, p->name, "-", p->f32, 1, 0);
            if (!r)
                return -1;
            const peer_ctx ctx = {p, &c->w};
            finish_row(c, r, run_peer, &ctx, out, passes);
        }
    }
    return 0;
}

/* The ratio column: each row against the fastest cnoise batch row of its precision. */
static void set_ratios(bcase *c)
{
    double best[2] = {INFINITY, INFINITY};
    for (int i = 0; i < c->nrows; i++)
        if (c->rows[i].batch && c->rows[i].ns_med < best[c->rows[i].f32])
            best[c->rows[i].f32] = c->rows[i].ns_med;
    for (int i = 0; i < c->nrows; i++)
        c->rows[i].ratio = c->rows[i].ns_med / best[c->rows[i].f32];
}

/* ----------------------------------------------------------------------------------------------
 * Output: the table, markdown, JSON
 * ---------------------------------------------------------------------------------------------- */

static void print_table_head(void)
{
    printf("%-14s %-24s %-7s %-6s %10s %17s %10s %8s %16s\n", "case", "implementation", "ISA", "prec", "ns/sample",
           "min..max", "Msamples/s", "x best", "checksum");
}

static void print_case(const bcase *c)
{
    printf("-- %s: %s (%zu samples)\n", c->id, c->title, c->w.n);
    for (int i = 0; i < c->nrows; i++) {
        const row *r = &c->rows[i];
        char mm[40];
        snprintf(mm, sizeof mm, "%.2f..%.2f", r->ns_min, r->ns_max);
        printf("%-14s %-24s %-7s %-6s %10.2f %17s %10.1f %8.2f %16.6f\n", c->id, r->impl, r->isa,
               r->f32 ? "float" : "double", r->ns_med, mm, 1e3 / r->ns_med, r->ratio, r->checksum);
    }
    if (c->threads_case)
        printf("   threads=2 vs threads=1 speedup: %.2fx (double), %.2fx (float)\n", c->speedup[0], c->speedup[1]);
    fflush(stdout);
}

static int write_markdown(const char *path, const bcase *cases, int nc, const options *o)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cnoise_bench: %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "Median of %d passes after one warm-up pass, one thread unless stated; ns per sample "
               "(min..max over the passes); \"x best\" is the time relative to the fastest cnoise batch "
               "row of the same case and precision (below 1 is faster).\n\n",
            o->passes);
    fprintf(f, "| case | implementation | ISA | precision | ns/sample | min..max | Msamples/s | x best |\n");
    fprintf(f, "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n");
    for (int k = 0; k < nc; k++) {
        const bcase *c = &cases[k];
        for (int i = 0; i < c->nrows; i++) {
            const row *r = &c->rows[i];
            fprintf(f, "| %s | %s | %s | %s | %.2f | %.2f..%.2f | %.1f | %.2f |\n", c->id, r->impl, r->isa,
                    r->f32 ? "float" : "double", r->ns_med, r->ns_min, r->ns_max, 1e3 / r->ns_med, r->ratio);
        }
    }
    fprintf(f, "\nCases:\n\n");
    for (int k = 0; k < nc; k++) {
        fprintf(f, "- `%s`: %s (%zu samples)", cases[k].id, cases[k].title, cases[k].w.n);
        if (cases[k].threads_case)
            fprintf(f, "; threads=2 speedup over threads=1: %.2fx (double), %.2fx (float)", cases[k].speedup[0],
                    cases[k].speedup[1]);
        fprintf(f, "\n");
    }
    fprintf(f, "\nPeers:\n\n");
    for (size_t l = 0; peer_lists[l]; l++)
        for (const bench_peer *p = peer_lists[l]; p->name; p++)
            fprintf(f, "- %s: %s\n", p->name, p->what);
    for (size_t i = 0; i < N_PEER_STATUSES; i++)
        if (!peer_statuses[i].built)
            fprintf(f, "- %s: not built (%s)\n", peer_statuses[i].name, peer_statuses[i].missing_because);
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "cnoise_bench: %s: write failed\n", path);
        return -1;
    }
    return 0;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* A number, or null for NaN and infinities (which JSON cannot hold). */
static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

static void cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *v = strchr(line, ':');
            if (v) {
                v++;
                while (*v == ' ' || *v == '\t')
                    v++;
                snprintf(buf, size, "%s", v);
                buf[strcspn(buf, "\n")] = '\0';
            }
            break;
        }
    }
    fclose(f);
}

static int write_json(const char *path, const bcase *cases, int nc, const options *o)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cnoise_bench: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char cpu[256], date[32];
    cpu_model(cpu, sizeof cpu);
    const time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(f, "{\n  \"cnoise_version\": ");
    json_str(f, cn_version());
    fprintf(f, ",\n  \"date\": \"%s\",\n  \"cpu\": ", date);
    json_str(f, cpu);
    fprintf(f, ",\n  \"online_cpus\": %ld,\n  \"quick\": %s,\n  \"passes\": %d,\n  \"unit\": \"ns per sample\",\n",
            sysconf(_SC_NPROCESSORS_ONLN), o->quick ? "true" : "false", o->passes);
    fprintf(f, "  \"isas\": [");
    for (int i = 0; i < CN_ISA_COUNT; i++)
        fprintf(f, "%s{\"name\": \"%s\", \"compiled\": %s, \"supported\": %s}", i ? ", " : "",
                cn_isa_name((cn_isa)i), cn_isa_compiled((cn_isa)i) ? "true" : "false",
                cn_isa_supported((cn_isa)i) ? "true" : "false");
    fprintf(f, "],\n  \"peers\": [");
    for (size_t i = 0; i < N_PEER_STATUSES; i++) {
        fprintf(f, "%s{\"name\": \"%s\", \"built\": %s", i ? ", " : "", peer_statuses[i].name,
                peer_statuses[i].built ? "true" : "false");
        if (!peer_statuses[i].built) {
            fprintf(f, ", \"why\": ");
            json_str(f, peer_statuses[i].missing_because);
        }
        fprintf(f, "}");
    }
    fprintf(f, "],\n  \"validation\": {\"ok\": %s, \"failures\": %d},\n  \"cases\": [\n",
            failures ? "false" : "true", failures);
    for (int k = 0; k < nc; k++) {
        const bcase *c = &cases[k];
        fprintf(f, "    {\"id\": \"%s\", \"title\": ", c->id);
        json_str(f, c->title);
        fprintf(f, ", \"samples\": %zu", c->w.n);
        if (c->threads_case) {
            fprintf(f, ", \"speedup_threads2\": {\"double\": ");
            json_num(f, c->speedup[0]);
            fprintf(f, ", \"float\": ");
            json_num(f, c->speedup[1]);
            fprintf(f, "}");
        }
        fprintf(f, ",\n     \"rows\": [\n");
        for (int i = 0; i < c->nrows; i++) {
            const row *r = &c->rows[i];
            fprintf(f, "       {\"impl\": ");
            json_str(f, r->impl);
            fprintf(f, ", \"isa\": \"%s\", \"precision\": \"%s\", \"threads\": %d, \"cnoise_batch\": %s, \"ns_median\": ",
                    r->isa, r->f32 ? "float" : "double", r->threads, r->batch ? "true" : "false");
            json_num(f, r->ns_med);
            fprintf(f, ", \"ns_min\": ");
            json_num(f, r->ns_min);
            fprintf(f, ", \"ns_max\": ");
            json_num(f, r->ns_max);
            fprintf(f, ", \"msamples_per_s\": ");
            json_num(f, 1e3 / r->ns_med);
            fprintf(f, ", \"ratio_vs_cnoise_best\": ");
            json_num(f, r->ratio);
            fprintf(f, ", \"checksum\": ");
            json_num(f, r->checksum);
            fprintf(f, "}%s\n", i + 1 < c->nrows ? "," : "");
        }
        fprintf(f, "     ]}%s\n", k + 1 < nc ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "cnoise_bench: %s: write failed\n", path);
        return -1;
    }
    return 0;
}

/* ----------------------------------------------------------------------------------------------
 * main
 * ---------------------------------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cnoise_bench [--quick] [--passes N] [--only ID[,ID...]] [--json FILE] [--markdown FILE]\n"
            "  --quick          small workloads and 3 passes (the ctest smoke test)\n"
            "  --passes N       timed passes per measurement, 1..%d (default 7, --quick 3)\n"
            "  --only IDS       run only these cases:",
            MAX_PASSES);
    for (size_t i = 0; i < N_CASE_IDS; i++)
        fprintf(f, " %s", case_ids[i]);
    fprintf(f, "\n"
               "  --json FILE      also write the results as JSON to FILE (none by default)\n"
               "  --markdown FILE  also write the results as a markdown table to FILE\n"
               "exit status: 0 success, 1 a validation failure or runtime error, 2 usage error\n");
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->passes = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--quick") == 0) {
            o->quick = 1;
        } else if (strcmp(a, "--passes") == 0 || strcmp(a, "--only") == 0 || strcmp(a, "--json") == 0 ||
                   strcmp(a, "--markdown") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "cnoise_bench: %s needs a value\n", a);
                return -1;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--passes") == 0) {
                char *end;
                errno = 0;
                const long p = strtol(v, &end, 10);
                if (errno || end == v || *end || p < 1 || p > MAX_PASSES) {
                    fprintf(stderr, "cnoise_bench: --passes: '%s' is not a whole number in 1..%d\n", v, MAX_PASSES);
                    return -1;
                }
                o->passes = (int)p;
            } else if (strcmp(a, "--only") == 0) {
                o->only = v;
            } else if (strcmp(a, "--json") == 0) {
                o->json = v;
            } else {
                o->markdown = v;
            }
        } else {
            fprintf(stderr, "cnoise_bench: unknown argument '%s' (see --help)\n", a);
            return -1;
        }
    }
    if (o->passes < 0)
        o->passes = o->quick ? 3 : 7;
    if (o->only) {
        /* Every listed id must exist. */
        for (const char *p = o->only; *p;) {
            const char *e = strchr(p, ',');
            const size_t l = e ? (size_t)(e - p) : strlen(p);
            int found = 0;
            for (size_t i = 0; i < N_CASE_IDS; i++)
                found |= strlen(case_ids[i]) == l && strncmp(p, case_ids[i], l) == 0;
            if (!found) {
                fprintf(stderr, "cnoise_bench: --only: unknown case '%.*s' (see --help)\n", (int)l, p);
                return -1;
            }
            if (!e)
                break;
            p = e + 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    if (parse_args(argc, argv, &o) != 0)
        return 2;

    static bcase cases[MAX_CASES];
    const size_t npts = o.quick ? (size_t)1 << 15 : (size_t)1 << 22;
    const size_t max_n = o.quick ? (size_t)256 * 256 : (size_t)256 * 256 * 256; /* 2048^2 < 256^3 */
    double *pd[3] = {NULL, NULL, NULL};
    float *pf[3] = {NULL, NULL, NULL};
    double *out = malloc(max_n * sizeof(double));
    int oom = !out;
    for (int a = 0; a < 3; a++) {
        pd[a] = malloc(npts * sizeof(double));
        pf[a] = malloc(npts * sizeof(float));
        oom |= !pd[a] || !pf[a];
    }
    if (oom) {
        fprintf(stderr, "cnoise_bench: out of memory\n");
        return 1;
    }
    const int nc = make_cases(&o, cases, pd, pf);

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    printf("cnoise_bench: cnoise %s, %s, %ld online CPUs; %s; median of %d passes after 1 warm-up, one thread\n",
           cn_version(), cpu, sysconf(_SC_NPROCESSORS_ONLN), o.quick ? "quick" : "full", o.passes);
    printf("instruction sets:");
    for (int i = 0; i < CN_ISA_COUNT; i++)
        printf(" %s (%s)", cn_isa_name((cn_isa)i),
               !cn_isa_compiled((cn_isa)i)    ? "not compiled"
               : !cn_isa_supported((cn_isa)i) ? "compiled, not supported here"
                                              : "measured");
    printf("; default: %s\n", cn_isa_name(cn_isa_active()));
    for (size_t l = 0; peer_lists[l]; l++)
        for (const bench_peer *p = peer_lists[l]; p->name; p++)
            printf("peer %s: %s\n", p->name, p->what);
    for (size_t i = 0; i < N_PEER_STATUSES; i++)
        if (!peer_statuses[i].built)
            printf("peer %s: not built: %s\n", peer_statuses[i].name, peer_statuses[i].missing_because);
    printf("x best = median / the fastest cnoise batch row of the same case and precision; checksum = sum of outputs\n\n");
    print_table_head();

    double total_checksum = 0.0;
    for (int k = 0; k < nc; k++) {
        reference ref;
        run_case(&cases[k], &o, k == 0, out, &ref);
        free(ref.copy[0]);
        free(ref.copy[1]);
        set_ratios(&cases[k]);
        print_case(&cases[k]);
        for (int i = 0; i < cases[k].nrows; i++)
            total_checksum += cases[k].rows[i].checksum;
    }
    cn_isa_set_cap(CN_ISA_COUNT);
    printf("\ntotal checksum %.9g; validation: %s\n", total_checksum,
           failures ? "FAILED (see stderr)" : "all outputs finite, every instruction set bit-identical to scalar");

    int rc = failures ? 1 : 0;
    if (o.json && write_json(o.json, cases, nc, &o) != 0)
        rc = 1;
    if (o.markdown && write_markdown(o.markdown, cases, nc, &o) != 0)
        rc = 1;
    free(out);
    for (int a = 0; a < 3; a++) {
        free(pd[a]);
        free(pf[a]);
    }
    return rc;
}
