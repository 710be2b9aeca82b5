/*
 * progress.c -- the progress bar of progress.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "progress.h"
#include "portable.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <sys/ioctl.h>
#include <unistd.h>
#endif

#define REDRAW_INTERVAL 0.1 /* seconds: at most 10 drawings a second */
#define BAR_MAX 30          /* cells of the bar at most */
#define LINE_MAX_LEN 256

static double now_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int terminal_columns(void)
{
#ifdef _WIN32
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (GetConsoleScreenBufferInfo(GetStdHandle(STD_ERROR_HANDLE), &info) &&
        info.srWindow.Right >= info.srWindow.Left)
        return info.srWindow.Right - info.srWindow.Left + 1;
#elif defined(TIOCGWINSZ)
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
#endif
    return 80;
}

/* "31.2 M<unit>/s": three significant digits with an SI prefix. */
static void format_rate(char *buf, size_t n, double rate, const char *unit)
{
    static const char prefix[] = " kMGTP";
    int k = 0;
    while (rate >= 999.5 && k < 5) {
        rate /= 1000.0;
        k++;
    }
    const char *fmt = rate >= 99.95 ? "%.0f %s%s/s" : rate >= 9.995 ? "%.1f %s%s/s" : "%.2f %s%s/s";
    char pre[2] = {prefix[k], '\0'};
    snprintf(buf, n, fmt, rate, k ? pre : "", unit);
}

/* "m:ss" or "h:mm:ss", at most 99:59:59. */
static void format_eta(char *buf, size_t n, double seconds)
{
    if (!(seconds >= 0.0))
        seconds = 0.0;
    if (seconds > 359999.0)
        seconds = 359999.0;
    unsigned long s = (unsigned long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, n, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, n, "%lu:%02lu", s / 60, s % 60);
}

int cli_progress_format(char *buf, int n, const char *label, const char *unit, uint64_t done, uint64_t total,
                        double elapsed, int columns)
{
    if (n <= 0)
        return 0;
    if (total == 0)
        total = 1;
    if (done > total)
        done = total;
    if (columns <= 0)
        columns = 80;
    int pct = (int)((double)done * 100.0 / (double)total);
    if (pct > 100)
        pct = 100;
    if (pct == 100 && done < total)
        pct = 99;

    char rate[48], eta[32];
    if (done > 0 && elapsed >= 0.05) {
        format_rate(rate, sizeof rate, (double)done / elapsed, unit);
        format_eta(eta, sizeof eta, elapsed * (double)(total - done) / (double)done);
    } else {
        snprintf(rate, sizeof rate, "-- %s/s", unit);
        snprintf(eta, sizeof eta, "--:--");
    }
    char tail[128];
    snprintf(tail, sizeof tail, "%3d%%  %s  ETA %s", pct, rate, eta);

    /* label, " [", bar, "] ", tail: keep the whole line shorter than the terminal. */
    int fixed = (int)strlen(label) + 4 + (int)strlen(tail);
    int bar = columns - 1 - fixed;
    if (bar > BAR_MAX)
        bar = BAR_MAX;
    int len;
    if (bar >= 5) {
        char cells[BAR_MAX + 1];
        int fill = (int)((double)done * bar / (double)total);
        if (fill > bar)
            fill = bar;
        for (int i = 0; i < bar; i++)
            cells[i] = i < fill ? '#' : '.';
        cells[bar] = '\0';
        len = snprintf(buf, (size_t)n, "%s [%s] %s", label, cells, tail);
    } else {
        len = snprintf(buf, (size_t)n, "%s %s", label, tail);
    }
    if (len < 0)
        len = 0;
    if (len >= n)
        len = n - 1;
    if (len > columns - 1) { /* a wrapped line could not be redrawn in place: cut it */
        len = columns - 1;
        buf[len] = '\0';
    }
    return len;
}

static void draw(cli_progress *p, double t)
{
    char line[LINE_MAX_LEN];
    int len = cli_progress_format(line, sizeof line, p->label, p->unit, p->done, p->total, t - p->t0,
                                  terminal_columns());
    /* Pad with spaces over the end of a longer previous line. */
    int pad = p->last_len > len ? p->last_len - len : 0;
    fprintf(stderr, "\r%s%*s", line, pad, "");
    fflush(stderr);
    p->last_len = len;
    p->drawn = 1;
    p->t_last = t;
}

void cli_progress_begin(cli_progress *p, const char *label, const char *unit, uint64_t total, int quiet)
{
    memset(p, 0, sizeof *p);
    p->label = label ? label : "";
    p->unit = unit ? unit : "";
    p->total = total ? total : 1;
    p->enabled = !quiet && cn__isatty(2);
    if (!p->enabled)
        return;
    p->t0 = now_seconds();
    draw(p, p->t0);
}

void cli_progress_update(cli_progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    p->done = done > p->total ? p->total : done;
    double t = now_seconds();
    if (t - p->t_last >= REDRAW_INTERVAL)
        draw(p, t);
}

void cli_progress_end(cli_progress *p)
{
    if (p->enabled && p->drawn) {
        fprintf(stderr, "\r%*s\r", p->last_len, "");
        fflush(stderr);
    }
    p->enabled = 0;
    p->drawn = 0;
}
