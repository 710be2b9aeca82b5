/*
 * progress.h -- a progress bar on standard error for long cnoise jobs.
 *
 * The bar is drawn only when standard error is a terminal (isatty) and the command was not
 * given --quiet; otherwise every call below is a no-op, so nothing ever reaches a pipe or a
 * file. It looks like
 *
 *     cnoise render [##########..........]  48%  31.2 Mpx/s  ETA 0:03
 *
 * and is redrawn in place with '\r' at most 10 times a second (the first call draws at once;
 * later calls within 100 ms of the last drawing only record the count). Call
 * cli_progress_end() when the job stops, successfully or not, and before printing any error
 * message: it erases the line, so the message starts at the left margin.
 *
 * Usage:
 *     cli_progress p;
 *     cli_progress_begin(&p, "cnoise render", "px", width * height, quiet);
 *     for (...) { ...; cli_progress_update(&p, done); }
 *     cli_progress_end(&p);
 *
 * Not thread-safe: call from one thread.
 */
#ifndef CNOISE_CLI_PROGRESS_H
#define CNOISE_CLI_PROGRESS_H

#include <stdint.h>

typedef struct cli_progress {
    const char *label; /* e.g. "cnoise render"; printed first */
    const char *unit;  /* unit of the count, e.g. "px" or "frames"; the rate is "<k|M|G><unit>/s" */
    uint64_t total;    /* the count at which the job is complete (> 0) */
    uint64_t done;     /* the last count passed to cli_progress_update */
    int enabled;       /* stderr is a terminal and not quiet */
    int drawn;         /* something is on the line and must be erased */
    int last_len;      /* length of the last line drawn */
    double t0;         /* start time, seconds (monotonic clock) */
    double t_last;     /* time of the last drawing */
} cli_progress;

/*
 * Starts a progress display for a job of `total` units (0 is treated as 1). quiet != 0, or a
 * standard error that is not a terminal, disables it. label and unit must outlive p.
 * Draws the bar at 0% when enabled.
 */
void cli_progress_begin(cli_progress *p, const char *label, const char *unit, uint64_t total, int quiet);

/* Records that `done` units (0..total; larger values count as total) are complete and redraws
 * the bar if 100 ms have passed since the last drawing. */
void cli_progress_update(cli_progress *p, uint64_t done);

/* Erases the bar (if one is drawn) and disables further drawing. Safe to call more than once
 * and on a disabled display. */
void cli_progress_end(cli_progress *p);

/*
 * Formats the parts of a bar line into buf (size n): exposed for tests and for callers that
 * want the text without a terminal. elapsed is in seconds; columns is the terminal width
 * (0 = 80): the bar shrinks (30 cells at most) or goes to fit, and a line still too long is
 * cut to columns - 1 characters, so it never wraps. Returns the length written.
 */
int cli_progress_format(char *buf, int n, const char *label, const char *unit, uint64_t done, uint64_t total,
                        double elapsed, int columns);

#endif /* CNOISE_CLI_PROGRESS_H */
