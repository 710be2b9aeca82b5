/*
 * clock.h -- the benchmark programs' clock and medians (bench.c, threads.c, opencl.c): seconds on
 * CLOCK_MONOTONIC, and the median of n timings (sorted in place). Each program defines
 * _POSIX_C_SOURCE before its first include, for clock_gettime.
 */
#ifndef CN_BENCH_CLOCK_H
#define CN_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n-1] (n >= 1) and returns its median. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
