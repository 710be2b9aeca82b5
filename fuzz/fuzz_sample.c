/*
 * fuzz_sample.c -- the data-line parser and printer of "cnoise sample".
 *
 * Input: the first byte picks a configuration (noise type, fixed or first-line dimension,
 * precision, a fractal, a second layer); the rest is standard input. cli_sample_stream reads it
 * from memory and prints into a memory buffer.
 * Checks: the exit code is 0 or 1 (a bad line); a bad line printed a message naming its line
 * ("line N: "); every printed line is "nan" or a number that reads back completely and lies in
 * the documented range of the sum (cn_layers_range); no more values than input lines.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "fuzz.h"

/* The documented range of the sum (cn_layers_range), the widest over the dimensions the layers
 * build in (the dimension may come from the first line). */
static int doc_range(const cli_noise_opts *o, double *lo, double *hi)
{
    int any = 0;
    for (int d = 1; d <= 4; d++) {
        cli_built b;
        char why[256];
        double r[2];
        if (cli_noise_build(o, d, &b, why, sizeof why) != 0)
            continue;
        if (cn_layers_range(b.layer, (size_t)b.count, r) == CN_OK) {
            *lo = any && *lo < r[0] ? *lo : r[0];
            *hi = any && *hi > r[1] ? *hi : r[1];
            any = 1;
        }
        cli_built_free(&b);
    }
    return any ? 0 : -1;
}

static void configure(cli_noise_opts *o, unsigned sel)
{
    cli_noise_init(o);
    static const char *const noises[] = {"perlin", "simplex", "value", "perlin"};
    static const char *const fractals[] = {"none", "fbm", "turbulence", "ridged"};
    cli_noise_option("fuzz", o, CLI_OPT_NOISE, noises[sel & 3]);
    unsigned dims = (sel >> 2) & 7; /* 0, 5..7: from the first line */
    if (dims >= 1 && dims <= 4) {
        char d[2] = {(char)('0' + dims), 0};
        cli_noise_option("fuzz", o, CLI_OPT_DIMS, d);
    }
    if (sel & 32)
        cli_noise_option("fuzz", o, CLI_OPT_PRECISION, "float");
    cli_noise_option("fuzz", o, CLI_OPT_FRACTAL, fractals[(sel >> 6) & 3]);
    if ((sel & 3) == 3) { /* a second layer */
        cli_noise_option("fuzz", o, CLI_OPT_LAYER, "noise=value; frequency=3; amplitude=0.5; weight=-2");
        cli_noise_option("fuzz", o, CLI_OPT_AMPLITUDE, "3");
        cli_noise_option("fuzz", o, CLI_OPT_BIAS, "-1.5");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    cli_noise_opts o;
    configure(&o, data[0]);
    /* Simplex has no 1D and value noise no classic mode: such set-ups are usage errors, found
     * by cli_noise_finish or when the dimension is known. */
    fuzz_capture_stderr();
    int finished = cli_noise_finish("fuzz", &o);
    fuzz_restore_stderr(NULL, 0);
    if (finished != 0) /* e.g. simplex with --dims 1: a usage error */
        return 0;

    double lo = 0, hi = 0;
    FUZZ_CHECK(doc_range(&o, &lo, &hi) == 0, "no range");

    /* Standard input from a copy of the data (fmemopen needs a nonzero size). */
    size_t n = size - 1;
    char *in_buf = malloc(n + 1);
    if (!in_buf)
        abort();
    memcpy(in_buf, data + 1, n);
    in_buf[n] = '\0';
    FILE *in = n ? fmemopen(in_buf, n, "r") : fopen("/dev/null", "r");
    char *out_buf = NULL;
    size_t out_len = 0;
    FILE *out = open_memstream(&out_buf, &out_len);
    if (!in || !out)
        abort();
    fuzz_capture_stderr();
    int rc = cli_sample_stream(&o, 0, in, out);
    fclose(in);
    fclose(out);
    char msg[64];
    long printed = fuzz_restore_stderr(msg, sizeof msg);

    FUZZ_CHECK(rc == CLI_EXIT_OK || rc == CLI_EXIT_FAILURE, "returned %d", rc);
    if (rc == CLI_EXIT_FAILURE)
        FUZZ_CHECK(printed > 0 && strncmp(msg, "cnoise sample: line ", 20) == 0, "bad line without a message: '%s'", msg);

    /* Every printed value: "nan" or a number in the documented range. */
    size_t lines_in = 1;
    for (size_t k = 0; k < n; k++)
        lines_in += data[1 + k] == '\n';
    size_t values = 0;
    const double tol = 1e-6 * (fabs(lo) + fabs(hi)) + 1e-300;
    for (char *p = out_buf; p && *p;) {
        char *nl = strchr(p, '\n');
        FUZZ_CHECK(nl != NULL, "unterminated output line");
        *nl = '\0';
        values++;
        if (strcmp(p, "nan") != 0) {
            char *end;
            double v = strtod(p, &end);
            FUZZ_CHECK(*end == '\0' && end != p, "printed '%s'", p);
            FUZZ_CHECK(v >= lo - tol && v <= hi + tol, "value %.17g outside [%.17g, %.17g]", v, lo, hi);
        }
        p = nl + 1;
    }
    FUZZ_CHECK(values <= lines_in, "%zu values for %zu lines", values, lines_in);
    free(out_buf);
    free(in_buf);
    return 0;
}
