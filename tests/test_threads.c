/* test_threads.c -- "no global mutable state; a built cn_noise may be shared by any number of
 * threads": 8 threads evaluate every configuration (all types, dimensions and modes, several seeds
 * and frequencies) at the same time, through generators they share and through generators each
 * builds itself, and every result must be bit-identical to the single-threaded reference. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cnoise.h"
#include "test.h"

enum { NTHREADS = 8, NPTS = 3000, MAXGEN = 64 };

static cn_config cfgs[MAXGEN];
static cn_noise shared_gen[MAXGEN];
static int ngen;

static double pts[NPTS][4];
static float ptsf[NPTS][4];
static double *ref;  /* [ngen][NPTS] */
static float *reff;  /* [ngen][NPTS] */

/* A start gate so that the threads really run together. */
static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int gate_waiting, gate_open;

static void gate_wait(void)
{
    pthread_mutex_lock(&gate_mu);
    gate_waiting++;
    if (gate_waiting == NTHREADS) {
        gate_open = 1;
        pthread_cond_broadcast(&gate_cv);
    }
    while (!gate_open)
        pthread_cond_wait(&gate_cv, &gate_mu);
    pthread_mutex_unlock(&gate_mu);
}

typedef struct job {
    int id;
    long evals;
    long mismatches;
    int build_errors;
    char first[200];
} job;

static void compare(job *j, int gi, int i, double v, float vf, const char *how)
{
    j->evals += 2;
    double r = ref[(size_t)gi * NPTS + i];
    float rf = reff[(size_t)gi * NPTS + i];
    int bad = (memcmp(&v, &r, sizeof v) != 0) + (memcmp(&vf, &rf, sizeof vf) != 0);
    if (bad && j->mismatches == 0)
        snprintf(j->first, sizeof j->first, "thread %d, %s generator %d, point %d: %.17g / %.9g, reference %.17g / %.9g",
                 j->id, how, gi, i, v, vf, r, rf);
    j->mismatches += bad;
}

static void *worker(void *arg)
{
    job *j = arg;
    gate_wait();
    /* Phase 1: every thread on the same shared generators, in the same order, at the same time. */
    for (int gi = 0; gi < ngen; gi += 7)
        for (int i = 0; i < NPTS; i++)
            compare(j, gi, i, cn_eval(&shared_gen[gi], pts[i]), cn_evalf(&shared_gen[gi], ptsf[i]), "shared");
    /* Phase 2: all generators, each thread starting at a different one; shared generators and
     * generators built inside the thread (concurrent builds), points walked in different orders. */
    for (int k = 0; k < ngen; k++) {
        int gi = (k + j->id * 7) % ngen;
        cn_noise own;
        if (cn_noise_build(&own, &cfgs[gi]) != CN_OK) {
            j->build_errors++;
            continue;
        }
        for (int s = 0; s < NPTS; s++) {
            int i = j->id & 1 ? NPTS - 1 - s : s;
            compare(j, gi, i, cn_eval(&shared_gen[gi], pts[i]), cn_evalf(&shared_gen[gi], ptsf[i]), "shared");
            compare(j, gi, i, cn_eval(&own, pts[i]), cn_evalf(&own, ptsf[i]), "own");
        }
    }
    return NULL;
}

int main(void)
{
    static const uint64_t seeds[] = {0, 42, UINT64_MAX};
    static const double freqs[] = {1.0, 0.37, 3.5};
    for (int t = 0; t < 3; t++)
        for (int m = 0; m < 2; m++)
            for (int d = 1; d <= 4; d++)
                for (int s = 0; s < 3; s++) {
                    cn_config c;
                    cn_config_init(&c);
                    c.frequency = 1.0; /* the frequency these cases were written for */
                    c.type = (cn_noise_type)t;
                    c.mode = (cn_mode)m;
                    c.dims = d;
                    c.seed = seeds[s];
                    c.frequency = freqs[(s + d) % 3];
                    if (cn_config_check(&c) != CN_OK)
                        continue;
                    cfgs[ngen] = c;
                    CHECK(cn_noise_build(&shared_gen[ngen], &c) == CN_OK, "build %d", ngen);
                    ngen++;
                }
    CHECK(ngen == 54, "expected 54 configurations (18 kinds x 3 seeds), have %d", ngen);

    uint64_t st = 2024;
    for (int i = 0; i < NPTS; i++)
        for (int a = 0; a < 4; a++) {
            const uint64_t z = test_splitmix64(&st);
            pts[i][a] = ((double)(z >> 11) / 9007199254740992.0 - 0.5) * 2000.0;
            ptsf[i][a] = (float)(((double)(z & 0xFFFFFF) / 16777216.0 - 0.5) * 500.0);
        }

    /* Single-threaded reference. */
    ref = malloc(sizeof *ref * (size_t)ngen * NPTS);
    reff = malloc(sizeof *reff * (size_t)ngen * NPTS);
    CHECK(ref && reff, "malloc");
    if (!ref || !reff)
        return test_summary("test_threads");
    int nan_refs = 0;
    for (int gi = 0; gi < ngen; gi++)
        for (int i = 0; i < NPTS; i++) {
            ref[(size_t)gi * NPTS + i] = cn_eval(&shared_gen[gi], pts[i]);
            reff[(size_t)gi * NPTS + i] = cn_evalf(&shared_gen[gi], ptsf[i]);
            nan_refs += isnan(ref[(size_t)gi * NPTS + i]) || isnan(reff[(size_t)gi * NPTS + i]);
        }
    /* A reference of NaNs would make the comparison meaningless. */
    CHECK(nan_refs == 0, "%d reference values are NaN", nan_refs);

    pthread_t th[NTHREADS];
    job jobs[NTHREADS];
    int started = 0;
    for (int t = 0; t < NTHREADS; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].id = t;
        int rc = pthread_create(&th[t], NULL, worker, &jobs[t]);
        CHECK(rc == 0, "pthread_create %d: %d", t, rc);
        if (rc != 0)
            break;
        started++;
    }
    if (started < NTHREADS) {
        /* Release the threads that did start; the missing ones are already reported. */
        pthread_mutex_lock(&gate_mu);
        gate_open = 1;
        pthread_cond_broadcast(&gate_cv);
        pthread_mutex_unlock(&gate_mu);
    }
    long total = 0, bad = 0;
    for (int t = 0; t < started; t++) {
        pthread_join(th[t], NULL);
        total += jobs[t].evals;
        bad += jobs[t].mismatches;
        CHECK(jobs[t].mismatches == 0, "%ld mismatches; first: %s", jobs[t].mismatches, jobs[t].first);
        CHECK(jobs[t].build_errors == 0, "thread %d: %d builds failed", t, jobs[t].build_errors);
        CHECK(jobs[t].evals > 0, "thread %d evaluated nothing", t);
    }
    printf("test_threads: %d threads, %d configurations, %ld evaluations (shared and thread-built generators, "
           "double and float): %ld differ from the single-threaded reference\n",
           started, ngen, total, bad);
    free(ref);
    free(reff);
    return test_summary("test_threads");
}
