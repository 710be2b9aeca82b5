/*
 * cmd_sample.c -- "cnoise sample": points on standard input, one noise value per line out.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "args.h"
#include "cn_image.h"
#include "cnoise.h"
#include "options.h"

static const char *const prog = "cnoise sample";

#ifdef _WIN32
/* POSIX getline(3), which Windows' C library lacks: the next line with its '\n' into *line
 * (grown as needed, NUL-terminated), its length, or -1 at the end of the input or on an error
 * (errno set; ENOMEM when out of memory). Bytes are taken as they come, NULs included. */
static ssize_t getline(char **line, size_t *cap, FILE *in)
{
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF) {
        if (n + 2 > *cap) {
            size_t want = *cap ? 2 * *cap : 128;
            char *p = (char *)realloc(*line, want);
            if (!p) {
                errno = ENOMEM;
                return -1;
            }
            *line = p;
            *cap = want;
        }
        (*line)[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0)
        return -1; /* errno: ferror's, or 0 at the end */
    (*line)[n] = '\0';
    return (ssize_t)n;
}
#endif

static const char help_text[] =
    "Usage: cnoise sample [options] < points\n"
    "\n"
    "Reads points from standard input and prints the noise value at each, one per line.\n"
    "\n"
    "Input: one point per line, 1 to 4 numbers separated by commas and/or white space,\n"
    "  e.g. \"1.5,2,3\", \"1.5 2 3\" or \"1.5, 2, 3\" (at most one comma between two numbers,\n"
    "  none before the first or after the last). Blank lines and lines whose first non-blank\n"
    "  character is '#' are skipped. Every data line must have the same number of coordinates:\n"
    "  --dims if given, else the count on the first data line. Numbers use C strtod syntax\n"
    "  (decimal or hexadecimal) with '.' as the decimal point whatever the locale; \"nan\" and\n"
    "  \"inf\" are accepted and give nan; a finite number too large for the precision (1e400)\n"
    "  is an error.\n"
    "Output: one value per line, printf \"%.17g\" in double precision and \"%.9g\" in float\n"
    "  precision (enough digits to read back the exact value); NaN prints as \"nan\".\n"
    "  With --gradient each line is the value and its partial derivatives by the input\n"
    "  coordinates, separated by spaces: \"v dv/dx\" (1D) ... \"v dv/dx dv/dy dv/dz dv/dw\" (4D).\n"
    "\n"
    "Options:\n"
    "  --noise NAME       " CLI_HELP_NOISE "\n"
    "  --seed N           64-bit seed, decimal or 0x hex; a negative -n is 2^64-n (default 0)\n"
    "  --classic          classic mode: the published reference code bit for bit in double\n"
    "                     precision (Perlin's ImprovedNoise, Gustavson's simplex); perlin and\n"
    "                     simplex only; values can leave [-1, 1] (Perlin 3D by about 0.04,\n"
    "                     Perlin 4D by about 0.5)\n"
    "  --precision P      double (default) or float: cn_eval or cn_evalf\n"
    "  --frequency F      finite number > 0 (default 1); coordinates are multiplied by it\n"
    "  --dims N           1..4 (simplex: 2..4): every line must have N coordinates\n"
    "  --gradient         also print the analytic derivatives (cn_eval_grad: exact to the chain\n"
    "                     rule through frequency, rotation, every octave and amplitude; the\n"
    "                     weighted sum over the layers); every noise type but cellular,\n"
    "                     every fractal (erosion's by the noise's second derivatives)\n"
    "  -h, --help         show this help\n"
    "\n"
    CLI_SHAPE_HELP
    "\n"
    "The output is the sum over the layers of weight * (amplitude * noise + bias); with the\n"
    "defaults (one layer, weight 1) it is the noise value itself. In float precision each layer\n"
    "is evaluated with cn_evalf, the sum is formed in double and rounded to float once.\n"
    "\n"
    "Options take their value as '--opt value' or '--opt=value'; the last one given wins\n"
    "(--layer adds one layer each time). Whole numbers are plain decimal digits: no sign,\n"
    "no spaces.\n"
    "\n"
    "Without --dims the dimension comes from the first data line, so what depends on it (the\n"
    "length of --period, --offset, --axis-frequency, the form of --rotate, the simplex period\n"
    "rule) is checked there and reported as a bad input line (exit status 1); with --dims it is\n"
    "checked before any input is read (exit status 2). Everything else is checked first.\n"
    "\n"
    "Exit status:\n"
    "  0  success\n"
    "  1  bad input line (reported as 'line N: ...' on stderr; values printed before it stay\n"
    "     printed), or an error reading standard input or writing standard output; this\n"
    "     includes an option that does not suit the dimension of the first data line (simplex\n"
    "     noise with 1 coordinate, a 3D --rotate with 2 coordinates, ...)\n"
    "  2  usage error: bad option or value, unsupported combination of options\n";

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static const char *plural(unsigned long n) { return n == 1 ? "" : "s"; }

/* Reports a bad input line and returns the exit status for it. */
#define LINE_ERROR(fmt, ...) \
    (cli_error(prog, "line %lu: " fmt, lineno, __VA_ARGS__), CLI_EXIT_FAILURE)

typedef struct point {
    unsigned long count; /* numbers found on the line (all of them, even beyond 4) */
    double d[4];
    float f[4];
} point;

/*
 * Splits a data line in place into numbers and parses them (strtof in float precision, so each
 * coordinate is rounded once, straight from its text). Returns 0, or an exit status after
 * reporting the problem.
 */
static int parse_line(char *p, unsigned long lineno, int use_float, point *pt)
{
    char q[96];
    pt->count = 0;
    while (is_blank(*p))
        p++;
    for (;;) {
        if (*p == ',')
            return LINE_ERROR("%s", pt->count ? "two commas with no number between them"
                                              : "comma before the first number");
        char *tok = p;
        while (*p && !is_blank(*p) && *p != ',')
            p++;
        char sep = *p;
        if (sep)
            *p++ = '\0';

        double d = 0;
        float f = 0;
        cli_num r = use_float ? cli_parse_float(tok, 0, &f) : cli_parse_double(tok, 0, &d);
        if (r == CLI_NUM_SYNTAX)
            return LINE_ERROR("%s is not a number", cli_quote(tok, q, sizeof q));
        if (r == CLI_NUM_RANGE)
            return LINE_ERROR("%s is out of range for %s precision", cli_quote(tok, q, sizeof q),
                              use_float ? "float" : "double");
        if (pt->count < 4) {
            pt->d[pt->count] = d;
            pt->f[pt->count] = f;
        }
        pt->count++;

        /* The separator: white space, at most one comma, white space. */
        int comma = sep == ',';
        while (is_blank(*p))
            p++;
        if (!comma && *p == ',') {
            comma = 1;
            p++;
            while (is_blank(*p))
                p++;
        }
        if (*p == '\0') {
            if (comma)
                return LINE_ERROR("%s", "comma after the last number");
            return 0;
        }
    }
}

/* Prints one value followed by `end`; returns 0 or -1 (errno set) when standard output fails. */
static int print_value(FILE *out, double v, int use_float, char end)
{
    if (isnan(v))
        return fprintf(out, "nan%c", end) < 0 ? -1 : 0;
    return fprintf(out, use_float ? "%.9g%c" : "%.17g%c", v, end) < 0 ? -1 : 0;
}

/* --gradient: whether the built noise has a gradient (the library's answer at the origin); 0, or
 * -1 with the reason in why. */
static int gradient_ok(const cli_built *b, char *why, size_t whylen)
{
    const double pd[4] = {0, 0, 0, 0};
    const float pf[4] = {0, 0, 0, 0};
    double v, g[4];
    const cn_status st = cli_built_eval_grad(b, pd, pf, &v, g);
    if (st == CN_OK)
        return 0;
    const cn_config *c = NULL;
    for (int k = 0; k < b->count; k++) { /* the layer the library refuses */
        const double *pc[4] = {pd, pd, pd, pd};
        double *gp[4] = {&g[0], &g[1], &g[2], &g[3]};
        if (!c && cn_points_eval_grad(&b->gen[k], 1, pc, &v, gp, 1) == CN_E_UNSUPPORTED)
            c = cn_noise_config(&b->gen[k]);
    }
    if (st == CN_E_UNSUPPORTED && c)
        snprintf(why, whylen, "--gradient: %s noise with --fractal %s has no gradient", cn_noise_type_name(c->type),
                 cn_fractal_name(c->fractal));
    else
        snprintf(why, whylen, "--gradient: %s", cn_strerror(st));
    return -1;
}

int cli_sample_stream(const cli_noise_opts *o, int gradient, FILE *in, FILE *out)
{
    char why[512];
    cli_built gen;
    int have_gen = 0;
    if (o->dims_set) {
        if (cli_noise_build(o, o->dims, &gen, why, sizeof why) != 0) {
            cli_error(prog, "%s", why);
            return CLI_EXIT_USAGE;
        }
        have_gen = 1;
        if (gradient && gradient_ok(&gen, why, sizeof why) != 0) {
            cli_error(prog, "%s", why);
            cli_built_free(&gen);
            return CLI_EXIT_USAGE;
        }
    }

    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned long lineno = 0;
    int rc = CLI_EXIT_OK;
    int read_errno = 0;
    for (;;) {
        errno = 0;
        len = getline(&line, &cap, in);
        if (len < 0) {
            read_errno = errno; /* 0 at end of file */
            break;
        }
        lineno++;
        if (strlen(line) != (size_t)len) {
            rc = LINE_ERROR("%s", "contains a NUL byte");
            break;
        }
        char *p = line;
        while (is_blank(*p))
            p++;
        if (*p == '\0' || *p == '#')
            continue;

        point pt;
        rc = parse_line(p, lineno, o->use_float, &pt);
        if (rc != CLI_EXIT_OK)
            break;
        if (!have_gen) {
            if (pt.count > 4) {
                rc = LINE_ERROR("expected 1 to 4 coordinates, got %lu", pt.count);
                break;
            }
            if (cli_noise_build(o, (int)pt.count, &gen, why, sizeof why) != 0) {
                rc = LINE_ERROR("%s (the first data line has %lu coordinate%s)", why, pt.count, plural(pt.count));
                break;
            }
            have_gen = 1;
            if (gradient && gradient_ok(&gen, why, sizeof why) != 0) {
                rc = LINE_ERROR("%s", why);
                break;
            }
        } else if (pt.count != (unsigned long)gen.dims) {
            rc = LINE_ERROR("expected %d coordinate%s, got %lu", gen.dims, plural((unsigned long)gen.dims),
                            pt.count);
            break;
        }

        int bad = 0;
        if (gradient) {
            double v, g[4];
            if (cli_built_eval_grad(&gen, pt.d, pt.f, &v, g) != CN_OK) /* not after gradient_ok */
                v = g[0] = g[1] = g[2] = g[3] = NAN;
            bad = print_value(out, v, o->use_float, ' ') != 0;
            for (int a = 0; !bad && a < gen.dims; a++)
                bad = print_value(out, g[a], o->use_float, a + 1 < gen.dims ? ' ' : '\n') != 0;
        } else {
            bad = print_value(out, cli_built_eval(&gen, pt.d, pt.f), o->use_float, '\n') != 0;
        }
        if (bad) {
            cli_error(prog, "error writing standard output: %s", cn_image_strerror(errno));
            rc = CLI_EXIT_FAILURE;
            break;
        }
    }
    if (rc == CLI_EXIT_OK && ferror(in)) {
        cli_error(prog, "error reading standard input: %s", read_errno ? strerror(read_errno) : "unknown error");
        rc = CLI_EXIT_FAILURE;
    } else if (rc == CLI_EXIT_OK && read_errno == ENOMEM) {
        cli_error(prog, "line %lu: out of memory", lineno + 1);
        rc = CLI_EXIT_FAILURE;
    }
    free(line);
    if (have_gen)
        cli_built_free(&gen);

    if (fflush(out) != 0 && rc == CLI_EXIT_OK) {
        cli_error(prog, "error writing standard output: %s", cn_image_strerror(errno));
        rc = CLI_EXIT_FAILURE;
    }
    return rc;
}

typedef struct sample_args {
    int gradient; /* --gradient */
} sample_args;

int cli_cmd_sample(int argc, char **argv)
{
    static const cli_option opts[] = {CLI_NOISE_OPTIONS, CLI_FLAG("gradient", sample_args, gradient), CLI_OPTIONS_END};
    sample_args sa = {0};
    cli_parse p = {.prog = prog, .help = help_text, .opts = opts, .args = &sa};
    const int rc = cli_parse_args(&p, argc, argv);
    if (rc >= 0)
        return rc;
    /*
     * Parse the layers and check what does not depend on the dimension now, so that e.g.
     * --classic with value noise fails before any input is read; without --dims the rest is
     * checked when the first data line fixes the dimension.
     */
    if (cli_noise_finish(prog, &p.noise) != 0)
        return CLI_EXIT_USAGE;
    if (cli_check_only) {
        cli_built gen;
        char why[512];
        if (!p.noise.dims_set)
            return CLI_EXIT_OK;
        if (cli_noise_build(&p.noise, p.noise.dims, &gen, why, sizeof why) != 0) {
            cli_error(prog, "%s", why);
            return CLI_EXIT_USAGE;
        }
        const int bad = sa.gradient && gradient_ok(&gen, why, sizeof why) != 0;
        if (bad)
            cli_error(prog, "%s", why);
        cli_built_free(&gen);
        return bad ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    }
    return cli_sample_stream(&p.noise, sa.gradient, stdin, stdout);
}
