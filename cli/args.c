/*
 * args.c -- strict number parsing, the option scanner and the shared noise options (args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "args.h"
#include "cn_image.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_check_only = 0;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Whole number from s[0..len): digits only, checked against UINT64_MAX before each step. */
static cli_num parse_u64n(const char *s, size_t len, uint64_t *out)
{
    if (len == 0)
        return CLI_NUM_SYNTAX;
    for (size_t i = 0; i < len; i++)
        if (!is_digit(s[i]))
            return CLI_NUM_SYNTAX;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10u)
            return CLI_NUM_RANGE;
        v = v * 10u + d;
    }
    *out = v;
    return CLI_NUM_OK;
}

cli_num cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s)
        return CLI_NUM_SYNTAX;
    return parse_u64n(s, strlen(s), out);
}

/* Hexadecimal digits s[0..len) (at least one, at most 16 significant), into *out. */
static cli_num parse_hex64n(const char *s, size_t len, uint64_t *out)
{
    if (len == 0)
        return CLI_NUM_SYNTAX;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        const char c = s[i];
        unsigned d;
        if (is_digit(c))
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a') + 10u;
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A') + 10u;
        else
            return CLI_NUM_SYNTAX;
        if (v > (UINT64_MAX >> 4))
            return CLI_NUM_RANGE;
        v = (v << 4) | d;
    }
    *out = v;
    return CLI_NUM_OK;
}

cli_num cli_parse_seed(const char *s, uint64_t *out)
{
    if (!s)
        return CLI_NUM_SYNTAX;
    const int neg = s[0] == '-';
    const char *d = s + neg;
    uint64_t v;
    cli_num r;
    if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
        r = parse_hex64n(d + 2, strlen(d + 2), &v);
    else
        r = parse_u64n(d, strlen(d), &v);
    if (r != CLI_NUM_OK)
        return r;
    if (neg) {
        /* -1 .. -2^63: the two's complement bits of the signed 64-bit number */
        if (v > (uint64_t)1 << 63)
            return CLI_NUM_RANGE;
        v = (uint64_t)0 - v;
    }
    *out = v;
    return CLI_NUM_OK;
}

cli_num cli_parse_int(const char *s, int lo, int hi, int *out)
{
    uint64_t v;
    cli_num r = cli_parse_u64(s, &v);
    if (r != CLI_NUM_OK)
        return r;
    if (lo < 0 || v < (uint64_t)lo || v > (uint64_t)hi)
        return CLI_NUM_RANGE;
    *out = (int)v;
    return CLI_NUM_OK;
}

/* strtod() skips leading white space itself; we want the text to be exactly a number. */
static int starts_badly(const char *s)
{
    return !s || !s[0] || strchr(" \t\n\v\f\r", s[0]) != NULL;
}

cli_num cli_parse_double(const char *s, int finite_only, double *out)
{
    if (starts_badly(s))
        return CLI_NUM_SYNTAX;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0')
        return CLI_NUM_SYNTAX;
    if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))
        return CLI_NUM_RANGE; /* a finite text that overflows */
    if (finite_only && !isfinite(v))
        return CLI_NUM_RANGE;
    *out = v;
    return CLI_NUM_OK;
}

cli_num cli_parse_float(const char *s, int finite_only, float *out)
{
    if (starts_badly(s))
        return CLI_NUM_SYNTAX;
    char *end;
    errno = 0;
    float v = strtof(s, &end);
    if (end == s || *end != '\0')
        return CLI_NUM_SYNTAX;
    if (errno == ERANGE && (v == HUGE_VALF || v == -HUGE_VALF))
        return CLI_NUM_RANGE;
    if (finite_only && !isfinite(v))
        return CLI_NUM_RANGE;
    *out = v;
    return CLI_NUM_OK;
}

cli_num cli_parse_size(const char *s, uint32_t *w, uint32_t *h, char *why, size_t whylen)
{
    const char *x = s ? strchr(s, 'x') : NULL;
    uint64_t a = 0, b = 0;
    cli_num ra = CLI_NUM_SYNTAX, rb = CLI_NUM_SYNTAX;
    if (x) {
        ra = parse_u64n(s, (size_t)(x - s), &a);
        rb = parse_u64n(x + 1, strlen(x + 1), &b);
    }
    if (ra == CLI_NUM_SYNTAX || rb == CLI_NUM_SYNTAX) {
        snprintf(why, whylen, "expected WIDTHxHEIGHT, two whole numbers joined by 'x' (e.g. 512x512)");
        return CLI_NUM_SYNTAX;
    }
    if ((ra == CLI_NUM_OK && a == 0) || (rb == CLI_NUM_OK && b == 0)) {
        snprintf(why, whylen, "width and height must be at least 1");
        return CLI_NUM_RANGE;
    }
    if (ra == CLI_NUM_RANGE || rb == CLI_NUM_RANGE || a > CLI_MAX_SIDE || b > CLI_MAX_SIDE) {
        snprintf(why, whylen, "width and height must be at most %u (2^20)", CLI_MAX_SIDE);
        return CLI_NUM_RANGE;
    }
    if (a * b > CLI_MAX_PIXELS) { /* both <= 2^20: the product fits easily */
        snprintf(why, whylen, "%llu pixels is more than the limit of %llu (2^34)",
                 (unsigned long long)(a * b), (unsigned long long)CLI_MAX_PIXELS);
        return CLI_NUM_RANGE;
    }
    *w = (uint32_t)a;
    *h = (uint32_t)b;
    return CLI_NUM_OK;
}

/* The escaped text between two quote strings (cn_image_escape), with "..." where it was cut. */
static const char *escape_between(const char *s, const char *quote, char *buf, size_t n)
{
    size_t ql = strlen(quote);
    if (n < 2 * ql + 6) { /* quotes, "..." and the terminator, and one character */
        if (n)
            buf[0] = '\0';
        return buf;
    }
    const char *src = s ? s : "";
    memcpy(buf, quote, ql);
    size_t used = cn_image_escape(buf + ql, n - 2 * ql - 3, src);
    size_t o = ql + strlen(buf + ql);
    if (src[used]) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    memcpy(buf + o, quote, ql);
    buf[o + ql] = '\0';
    return buf;
}

const char *cli_quote(const char *s, char *buf, size_t n)
{
    return escape_between(s, "'", buf, n);
}

const char *cli_shown(const char *s, char *buf, size_t n)
{
    return escape_between(s, "", buf, n);
}

void cli_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

#define QBUF 128

int cli_opt_u64(const char *prog, const char *opt, const char *v, uint64_t *out)
{
    char q[QBUF];
    if (cli_parse_u64(v, out) == CLI_NUM_OK)
        return 0;
    cli_error(prog, "%s: %s is not a whole number in 0..%llu", opt, cli_quote(v, q, sizeof q),
              (unsigned long long)UINT64_MAX);
    return -1;
}

int cli_opt_seed(const char *prog, const char *opt, const char *v, uint64_t *out)
{
    char q[QBUF];
    const cli_num r = cli_parse_seed(v, out);
    if (r == CLI_NUM_OK)
        return 0;
    if (r == CLI_NUM_RANGE)
        cli_error(prog, "%s: %s is out of range: a seed is a whole number in -9223372036854775808..18446744073709551615 "
                  "(or -0x8000000000000000..0xffffffffffffffff)", opt, cli_quote(v, q, sizeof q));
    else
        cli_error(prog, "%s: %s is not a whole number (decimal, or hexadecimal with 0x; negative with '-')", opt,
                  cli_quote(v, q, sizeof q));
    return -1;
}

int cli_opt_int(const char *prog, const char *opt, const char *v, int lo, int hi, int *out)
{
    char q[QBUF];
    if (cli_parse_int(v, lo, hi, out) == CLI_NUM_OK)
        return 0;
    cli_error(prog, "%s: %s is not a whole number in %d..%d", opt, cli_quote(v, q, sizeof q), lo, hi);
    return -1;
}

int cli_opt_positive(const char *prog, const char *opt, const char *v, double *out)
{
    char q[QBUF];
    double d;
    if (cli_parse_double(v, 1, &d) == CLI_NUM_OK && d > 0.0) {
        *out = d;
        return 0;
    }
    cli_error(prog, "%s: %s is not a finite number greater than 0", opt, cli_quote(v, q, sizeof q));
    return -1;
}

int cli_opt_finite(const char *prog, const char *opt, const char *v, double *out)
{
    char q[QBUF];
    if (cli_parse_double(v, 1, out) == CLI_NUM_OK)
        return 0;
    cli_error(prog, "%s: %s is not a finite number", opt, cli_quote(v, q, sizeof q));
    return -1;
}

int cli_opt_finitef(const char *prog, const char *opt, const char *v, float *out)
{
    char q[QBUF];
    if (cli_parse_float(v, 1, out) == CLI_NUM_OK)
        return 0;
    cli_error(prog, "%s: %s is not a finite number in float range", opt, cli_quote(v, q, sizeof q));
    return -1;
}

int cli_opt_threads(const char *prog, const char *opt, const char *v, int *out)
{
    char q[QBUF];
    if (cli_parse_int(v, 0, CN_MAX_THREADS, out) == CLI_NUM_OK)
        return 0;
    cli_error(prog, "%s: %s is not a whole number 0..%d (0: one thread per core)", opt, cli_quote(v, q, sizeof q),
              CN_MAX_THREADS);
    return -1;
}

int cli_opt_size(const char *prog, const char *opt, const char *v, uint32_t *w, uint32_t *h)
{
    char q[QBUF], why[160];
    if (cli_parse_size(v, w, h, why, sizeof why) == CLI_NUM_OK)
        return 0;
    cli_error(prog, "%s: %s: %s", opt, cli_quote(v, q, sizeof q), why);
    return -1;
}

const char *cli_fmt_real(double v, char *buf, size_t n)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* Whole numbers below 2^53 in plain digits: "90", not "9e+01". */
    if (strchr(buf, 'e') && v == floor(v) && fabs(v) < 9007199254740992.0)
        snprintf(buf, n, "%.0f", v);
    return buf;
}

/* --- the shared noise options ---------------------------------------------------------------- */

void cli_noise_init(cli_noise_opts *o)
{
    memset(o, 0, sizeof *o);
    cn_config_init(&o->spec[0].cfg);
    /* The tool's own defaults (--help): 3D at frequency 1; the image commands set theirs. */
    o->spec[0].cfg.dims = 3;
    o->spec[0].cfg.frequency = 1.0;
    o->spec[0].weight = 1.0;
    o->nspec = 1;
    o->dims = o->spec[0].cfg.dims;
    o->warp.type = CN_NOISE_PERLIN;
    o->warp.octaves = 3;
    o->warp.lacunarity = 2.0;
    o->warp.gain = 0.5;
}

/*
 * The name of option `key` of layer k as messages show it: "--key" for the main options
 * (k = 0), "--layer k: key" for the k-th --layer.
 */
static const char *label(int k, const char *key, char *buf, size_t n)
{
    if (k == 0)
        snprintf(buf, n, "--%s", key);
    else
        snprintf(buf, n, "--layer %d: %s", k, key);
    return buf;
}

int cli_opt_interval(const char *prog, const char *opt, const char *v, double lo, int lo_open, double hi,
                     double *out)
{
    char q[QBUF], a[40], b[40];
    double d;
    if (cli_parse_double(v, 1, &d) == CLI_NUM_OK && (lo_open ? d > lo : d >= lo) && d <= hi) {
        *out = d;
        return 0;
    }
    cli_error(prog, "%s: %s is not a finite number in %c%s, %s]", opt, cli_quote(v, q, sizeof q), lo_open ? '(' : '[',
              cli_fmt_real(lo, a, sizeof a), cli_fmt_real(hi, b, sizeof b));
    return -1;
}

enum list_kind { LIST_PERIOD, LIST_FINITE, LIST_POSITIVE };

/*
 * A comma-separated list of at most `max` numbers of one kind (no spaces, no empty items).
 * Periods go to uv, the others to dv; *count gets the number of items.
 */
static int opt_list(const char *prog, const char *opt, const char *v, int max, enum list_kind kind, double *dv,
                    uint32_t *uv, int *count)
{
    static const char *const what[] = {"a whole number in 0..16777216", "a finite number",
                                       "a finite number greater than 0"};
    char q[QBUF], qi[QBUF];
    int n = 1;
    for (const char *p = v; *p; p++)
        n += *p == ',';
    if (n > max) {
        if (max == 4)
            cli_error(prog, "%s: %s has %d numbers; at most 4, one per axis (x,y,z,w)", opt,
                      cli_quote(v, q, sizeof q), n);
        else
            cli_error(prog, "%s: %s has %d numbers; at most %d", opt, cli_quote(v, q, sizeof q), n, max);
        return -1;
    }
    size_t len = strlen(v);
    char *copy = (char *)malloc(len + 1);
    if (!copy) {
        cli_error(prog, "out of memory");
        return -1;
    }
    memcpy(copy, v, len + 1);
    char *item = copy;
    for (int i = 0; i < n; i++) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        int ok;
        if (kind == LIST_PERIOD) {
            int pv = 0;
            ok = cli_parse_int(item, 0, (int)CN_MAX_PERIOD, &pv) == CLI_NUM_OK;
            uv[i] = (uint32_t)pv;
        } else {
            double d = 0;
            ok = cli_parse_double(item, 1, &d) == CLI_NUM_OK && (kind == LIST_FINITE || d > 0.0);
            dv[i] = d;
        }
        if (!ok) {
            if (n == 1)
                cli_error(prog, "%s: %s is not %s", opt, cli_quote(v, q, sizeof q), what[kind]);
            else
                cli_error(prog, "%s: %s: number %d, %s, is not %s", opt, cli_quote(v, q, sizeof q), i + 1,
                          cli_quote(item, qi, sizeof qi), what[kind]);
            free(copy);
            return -1;
        }
        item = comma ? comma + 1 : item;
    }
    free(copy);
    *count = n;
    return 0;
}

/* The library's names of the values 0, 1, ... up to the first NULL, as "a, b, c" in buf. */
static const char *name_list(char *buf, size_t n, const char *(*name)(int))
{
    size_t used = 0;
    buf[0] = '\0';
    for (int v = 0; name(v) && used < n; v++) {
        int k = snprintf(buf + used, n - used, "%s%s", v ? ", " : "", name(v));
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}
static const char *type_name(int v) { return cn_noise_type_name((cn_noise_type)v); }
static const char *fractal_name(int v) { return cn_fractal_name((cn_fractal)v); }
static const char *distance_name(int v) { return cn_cell_distance_name((cn_cell_distance)v); }
static const char *return_name(int v) { return cn_cell_return_name((cn_cell_return)v); }
static const char *warp_fractal_name(int v)
{
    static const char *const names[] = {"none", "independent", "progressive"};
    return v >= 0 && v < 3 ? names[v] : NULL;
}


int cli_output_option(const char *prog, cli_out_opts *o, int id, const char *value)
{
    switch (id) {
    case CLI_OPT_OUTPUT:
        if (!value[0]) {
            cli_error(prog, "--output: the file name is empty");
            return -1;
        }
        o->output = value;
        return 0;
    case CLI_OPT_THREADS:
        return cli_opt_threads(prog, "--threads", value, &o->threads);
    case CLI_OPT_DEVICE: {
        static const char *const names[] = {"cpu", "opencl", "gpu", "auto"};
        for (int d = 0; d < 4; d++)
            if (strcmp(value, names[d]) == 0) {
                o->device = d;
                return 0;
            }
        char q[128];
        cli_error(prog, "--device: %s is not cpu, opencl, gpu or auto", cli_quote(value, q, sizeof q));
        return -1;
    }
    case CLI_OPT_QUIET:
        o->quiet = 1;
        return 0;
    default:
        return 1;
    }
}

/* The library's names as a --help list, "a (default), b or c": note follows the default value's
 * name. */
static void help_names(FILE *out, const char *(*name)(int), int def, const char *note)
{
    int n = 0;
    while (name(n))
        n++;
    for (int v = 0; v < n; v++)
        fprintf(out, "%s%s%s", v == 0 ? "" : v == n - 1 ? " or " : ", ", name(v), v == def ? note : "");
}

void cli_help(const char *text)
{
    cn_config d;
    cn_config_init(&d);
    for (const char *s = text; *s;) {
        if (strncmp(s, CLI_HELP_NOISE, sizeof CLI_HELP_NOISE - 1) == 0) {
            help_names(stdout, type_name, (int)d.type, " (default)");
            s += sizeof CLI_HELP_NOISE - 1;
        } else if (strncmp(s, CLI_HELP_FRACTAL, sizeof CLI_HELP_FRACTAL - 1) == 0) {
            help_names(stdout, fractal_name, (int)d.fractal, " (default: the base noise)");
            s += sizeof CLI_HELP_FRACTAL - 1;
        } else if (strncmp(s, CLI_HELP_CELL_DISTANCE, sizeof CLI_HELP_CELL_DISTANCE - 1) == 0) {
            help_names(stdout, distance_name, (int)d.cell_distance, " (default)");
            s += sizeof CLI_HELP_CELL_DISTANCE - 1;
        } else if (strncmp(s, CLI_HELP_CELL_RETURN, sizeof CLI_HELP_CELL_RETURN - 1) == 0) {
            help_names(stdout, return_name, (int)d.cell_return, " (default)");
            s += sizeof CLI_HELP_CELL_RETURN - 1;
        } else {
            fputc(*s++, stdout);
        }
    }
}

/* The error for a value of option opt that is none of the library's names; returns -1. */
static int bad_name(const char *prog, const char *opt, const char *value, const char *(*name)(int))
{
    char q[QBUF], names[128];
    cli_error(prog, "%s: %s is not one of %s", opt, cli_quote(value, q, sizeof q), name_list(names, sizeof names, name));
    return -1;
}

/* Applies one per-layer setting (an option of layer 0, or a key of a --layer) to spec k. */
static int spec_set(const char *prog, cli_spec *s, int k, int id, const char *key, const char *value)
{
    char q[QBUF], opt[64];
    label(k, key, opt, sizeof opt);
    cn_config *c = &s->cfg;
    switch (id) {
    case CLI_OPT_NOISE:
        return cn_noise_type_from_name(value, &c->type) == CN_OK ? 0 : bad_name(prog, opt, value, type_name);
    case CLI_OPT_SEED:
        return cli_opt_seed(prog, opt, value, &c->seed);
    case CLI_OPT_CLASSIC:
        if (!value) /* the --classic flag */
            c->mode = CN_MODE_CLASSIC;
        else if (strcmp(value, "0") == 0)
            c->mode = CN_MODE_DEFAULT;
        else if (strcmp(value, "1") == 0)
            c->mode = CN_MODE_CLASSIC;
        else {
            cli_error(prog, "%s: %s is not 0 or 1", opt, cli_quote(value, q, sizeof q));
            return -1;
        }
        return 0;
    case CLI_OPT_FREQUENCY:
        return cli_opt_positive(prog, opt, value, &c->frequency);
    case CLI_OPT_FRACTAL:
        return cn_fractal_from_name(value, &c->fractal) == CN_OK ? 0 : bad_name(prog, opt, value, fractal_name);
    case CLI_OPT_OCTAVES:
        return cli_opt_int(prog, opt, value, 1, CN_MAX_OCTAVES, &c->octaves);
    case CLI_OPT_LACUNARITY:
        return cli_opt_interval(prog, opt, value, 1.0, 0, 64.0, &c->lacunarity);
    case CLI_OPT_GAIN:
        return cli_opt_interval(prog, opt, value, 0.0, 1, 4.0, &c->gain);
    case CLI_OPT_RIDGE_OFFSET:
        return cli_opt_interval(prog, opt, value, 0.0, 0, 2.0, &c->ridge_offset);
    case CLI_OPT_RIDGE_GAIN:
        return cli_opt_interval(prog, opt, value, 0.0, 0, 16.0, &c->ridge_gain);
    case CLI_OPT_WEIGHTED_STRENGTH:
        return cli_opt_interval(prog, opt, value, 0.0, 0, 1.0, &c->weighted_strength);
    case CLI_OPT_PINGPONG_STRENGTH:
        return cli_opt_interval(prog, opt, value, 0.0, 1, 16.0, &c->pingpong_strength);
    case CLI_OPT_PERIOD:
        return opt_list(prog, opt, value, 4, LIST_PERIOD, NULL, s->period, &s->n_period);
    case CLI_OPT_OFFSET:
        return opt_list(prog, opt, value, 4, LIST_FINITE, s->offset, NULL, &s->n_offset);
    case CLI_OPT_AXIS_FREQUENCY:
        return opt_list(prog, opt, value, 4, LIST_POSITIVE, s->axis_frequency, NULL, &s->n_axis_frequency);
    case CLI_OPT_ROTATE: {
        double r[16];
        int n = 0;
        if (opt_list(prog, opt, value, 16, LIST_FINITE, r, NULL, &n) != 0)
            return -1;
        if (n != 1 && n != 4 && n != 16) {
            cli_error(prog,
                      "%s: %s has %d numbers; expected 1 (2D: an angle in degrees), 4 (3D: axis ax,ay,az "
                      "and an angle in degrees) or 16 (4D: a row-major 4x4 matrix)",
                      opt, cli_quote(value, q, sizeof q), n);
            return -1;
        }
        memcpy(s->rotate, r, sizeof r);
        s->n_rotate = n;
        return 0;
    }
    case CLI_OPT_AMPLITUDE:
        return cli_opt_finite(prog, opt, value, &c->amplitude);
    case CLI_OPT_BIAS:
        return cli_opt_finite(prog, opt, value, &c->bias);
    case CLI_OPT_WEIGHT:
        return cli_opt_finite(prog, opt, value, &s->weight);
    case CLI_OPT_CELLULAR_DISTANCE:
        return cn_cell_distance_from_name(value, &c->cell_distance) == CN_OK ? 0 : bad_name(prog, opt, value, distance_name);
    case CLI_OPT_CELLULAR_RETURN:
        return cn_cell_return_from_name(value, &c->cell_return) == CN_OK ? 0 : bad_name(prog, opt, value, return_name);
    case CLI_OPT_JITTER:
        return cli_opt_interval(prog, opt, value, 0.0, 0, 1.0, &c->jitter);
    case CLI_OPT_MINKOWSKI_P:
        return cli_opt_interval(prog, opt, value, 1.0, 0, 32.0, &c->minkowski_p);
    }
    return 1;
}

/* One of the --warp options (ids CLI_OPT_WARP..CLI_OPT_WARP_GAIN); 1 for another id. */
static int warp_option(const char *prog, cli_warp_opts *w, int id, const char *value)
{
    switch (id) {
    case CLI_OPT_WARP:
        return cli_opt_finite(prog, "--warp", value, &w->amplitude);
    case CLI_OPT_WARP_NOISE:
        return cn_noise_type_from_name(value, &w->type) == CN_OK ? 0 : bad_name(prog, "--warp-noise", value, type_name);
    case CLI_OPT_WARP_FREQUENCY:
        return cli_opt_positive(prog, "--warp-frequency", value, &w->frequency);
    case CLI_OPT_WARP_SEED:
        w->seed_set = 1;
        return cli_opt_seed(prog, "--warp-seed", value, &w->seed);
    case CLI_OPT_WARP_FRACTAL:
        for (int v = 0; warp_fractal_name(v); v++) {
            if (strcmp(value, warp_fractal_name(v)) == 0) {
                w->fractal = v;
                return 0;
            }
        }
        return bad_name(prog, "--warp-fractal", value, warp_fractal_name);
    case CLI_OPT_WARP_OCTAVES:
        return cli_opt_int(prog, "--warp-octaves", value, 1, CLI_MAX_WARP_OCTAVES, &w->octaves);
    case CLI_OPT_WARP_LACUNARITY:
        return cli_opt_interval(prog, "--warp-lacunarity", value, 1.0, 0, 64.0, &w->lacunarity);
    case CLI_OPT_WARP_GAIN:
        return cli_opt_interval(prog, "--warp-gain", value, 0.0, 1, 4.0, &w->gain);
    }
    return 1;
}

int cli_noise_option(const char *prog, cli_noise_opts *o, int id, const char *value)
{
    char q[QBUF];
    switch (id) {
    case CLI_OPT_PRECISION:
        if (strcmp(value, "double") == 0)
            o->use_float = 0;
        else if (strcmp(value, "float") == 0)
            o->use_float = 1;
        else {
            cli_error(prog, "--precision: %s is not one of double, float", cli_quote(value, q, sizeof q));
            return -1;
        }
        return 0;
    case CLI_OPT_DIMS:
        if (cli_opt_int(prog, "--dims", value, 1, 4, &o->dims) != 0)
            return -1;
        o->dims_set = 1;
        return 0;
    case CLI_OPT_LAYER:
        if (o->nlayer_text >= CLI_MAX_LAYERS - 1) {
            cli_error(prog, "--layer: at most %d --layer options (%d layers with the main one)", CLI_MAX_LAYERS - 1,
                      CLI_MAX_LAYERS);
            return -1;
        }
        o->layer_text[o->nlayer_text++] = value;
        return 0;
    }
    const int w = warp_option(prog, &o->warp, id, value);
    if (w != 1)
        return w;
    /* The main options make up the first layer. */
    static const struct { int id; const char *name; } names[] = {
        {CLI_OPT_NOISE, "noise"},           {CLI_OPT_SEED, "seed"},
        {CLI_OPT_CLASSIC, "classic"},       {CLI_OPT_FREQUENCY, "frequency"},
        {CLI_OPT_FRACTAL, "fractal"},       {CLI_OPT_OCTAVES, "octaves"},
        {CLI_OPT_LACUNARITY, "lacunarity"}, {CLI_OPT_GAIN, "gain"},
        {CLI_OPT_RIDGE_OFFSET, "ridge-offset"}, {CLI_OPT_RIDGE_GAIN, "ridge-gain"},
        {CLI_OPT_WEIGHTED_STRENGTH, "weighted-strength"}, {CLI_OPT_PINGPONG_STRENGTH, "pingpong-strength"},
        {CLI_OPT_PERIOD, "period"},         {CLI_OPT_OFFSET, "offset"},
        {CLI_OPT_AXIS_FREQUENCY, "axis-frequency"}, {CLI_OPT_ROTATE, "rotate"},
        {CLI_OPT_AMPLITUDE, "amplitude"},   {CLI_OPT_BIAS, "bias"},
        {CLI_OPT_WEIGHT, "weight"},         {CLI_OPT_CELLULAR_DISTANCE, "cellular-distance"},
        {CLI_OPT_CELLULAR_RETURN, "cellular-return"}, {CLI_OPT_JITTER, "jitter"},
        {CLI_OPT_MINKOWSKI_P, "minkowski-p"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].id == id)
            return spec_set(prog, &o->spec[0], 0, id, names[i].name, value);
    return 1;
}

/* The keys of --layer: the per-layer option names. */
static const struct layer_key {
    const char *name;
    int id;
} layer_keys[] = {
    {"noise", CLI_OPT_NOISE},
    {"seed", CLI_OPT_SEED},
    {"classic", CLI_OPT_CLASSIC},
    {"frequency", CLI_OPT_FREQUENCY},
    {"axis-frequency", CLI_OPT_AXIS_FREQUENCY},
    {"fractal", CLI_OPT_FRACTAL},
    {"octaves", CLI_OPT_OCTAVES},
    {"lacunarity", CLI_OPT_LACUNARITY},
    {"gain", CLI_OPT_GAIN},
    {"ridge-offset", CLI_OPT_RIDGE_OFFSET},
    {"ridge-gain", CLI_OPT_RIDGE_GAIN},
    {"weighted-strength", CLI_OPT_WEIGHTED_STRENGTH},
    {"pingpong-strength", CLI_OPT_PINGPONG_STRENGTH},
    {"period", CLI_OPT_PERIOD},
    {"offset", CLI_OPT_OFFSET},
    {"rotate", CLI_OPT_ROTATE},
    {"amplitude", CLI_OPT_AMPLITUDE},
    {"bias", CLI_OPT_BIAS},
    {"weight", CLI_OPT_WEIGHT},
    {"cellular-distance", CLI_OPT_CELLULAR_DISTANCE},
    {"cellular-return", CLI_OPT_CELLULAR_RETURN},
    {"jitter", CLI_OPT_JITTER},
    {"minkowski-p", CLI_OPT_MINKOWSKI_P},
};

static int is_sep(char c) { return c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Parses the text of the k-th --layer into o->spec[k], a copy of the main options. */
static int parse_layer(const char *prog, cli_noise_opts *o, int k, const char *text)
{
    char q[QBUF];
    size_t len = strlen(text);
    char *copy = (char *)malloc(len + 1);
    if (!copy) {
        cli_error(prog, "out of memory");
        return -1;
    }
    memcpy(copy, text, len + 1);
    o->spec[k] = o->spec[0];
    o->spec[k].weight = 1.0; /* --weight is the main layer's own weight */
    int rc = 0;
    char *p = copy;
    for (;;) {
        while (is_sep(*p))
            p++;
        if (!*p)
            break;
        char *tok = p;
        while (*p && !is_sep(*p))
            p++;
        if (*p)
            *p++ = '\0';
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            cli_error(prog,
                      "--layer %d: %s is not key=value (pairs are separated by ';' or spaces, e.g. "
                      "'seed=2; frequency=4')",
                      k, cli_quote(tok, q, sizeof q));
            rc = -1;
            break;
        }
        *eq = '\0';
        const char *value = eq + 1;
        const struct layer_key *key = NULL;
        for (size_t i = 0; i < sizeof layer_keys / sizeof layer_keys[0]; i++)
            if (strcmp(tok, layer_keys[i].name) == 0)
                key = &layer_keys[i];
        if (!key) {
            if (strcmp(tok, "dims") == 0 || strcmp(tok, "precision") == 0)
                cli_error(prog, "--layer %d: %s is not a layer key: --%s applies to all layers", k,
                          cli_quote(tok, q, sizeof q), tok);
            else
                cli_error(prog,
                          "--layer %d: unknown key %s (keys: noise, seed, classic, frequency, axis-frequency, "
                          "fractal, octaves, lacunarity, gain, ridge-offset, ridge-gain, weighted-strength, "
                          "pingpong-strength, period, offset, rotate, "
                          "amplitude, bias, weight, cellular-distance, cellular-return, jitter, minkowski-p)",
                          k, cli_quote(tok, q, sizeof q));
            rc = -1;
            break;
        }
        if (strchr(value, '=')) {
            cli_error(prog,
                      "--layer %d: %s: %s contains '=': separate key=value pairs with ';' or spaces (commas "
                      "separate the numbers of a list)",
                      k, key->name, cli_quote(value, q, sizeof q));
            rc = -1;
            break;
        }
        if (spec_set(prog, &o->spec[k], k, key->id, key->name, value) != 0) {
            rc = -1;
            break;
        }
    }
    free(copy);
    return rc;
}

static int any_period(const cli_spec *s)
{
    for (int a = 0; a < s->n_period; a++)
        if (s->period[a])
            return 1;
    return 0;
}

/* The option that sets a field of cn_config (a --layer key is the same word); NULL for none. */
static const char *field_key(cn_field f)
{
    switch (f) {
    case CN_FIELD_TYPE: return "noise";
    case CN_FIELD_MODE: return "classic";
    case CN_FIELD_DIMS: return "dims";
    case CN_FIELD_FREQUENCY: return "frequency";
    case CN_FIELD_AXIS_FREQUENCY: return "axis-frequency";
    case CN_FIELD_OFFSET: return "offset";
    case CN_FIELD_ROTATION: return "rotate";
    case CN_FIELD_FRACTAL: return "fractal";
    case CN_FIELD_OCTAVES: return "octaves";
    case CN_FIELD_LACUNARITY: return "lacunarity";
    case CN_FIELD_GAIN: return "gain";
    case CN_FIELD_RIDGE_OFFSET: return "ridge-offset";
    case CN_FIELD_RIDGE_GAIN: return "ridge-gain";
    case CN_FIELD_PERIOD: return "period";
    case CN_FIELD_AMPLITUDE: return "amplitude";
    case CN_FIELD_BIAS: return "bias";
    case CN_FIELD_CELL_DISTANCE: return "cellular-distance";
    case CN_FIELD_CELL_RETURN: return "cellular-return";
    case CN_FIELD_JITTER: return "jitter";
    case CN_FIELD_MINKOWSKI_P: return "minkowski-p";
    case CN_FIELD_WEIGHTED_STRENGTH: return "weighted-strength";
    case CN_FIELD_PINGPONG_STRENGTH: return "pingpong-strength";
    default: return NULL;
    }
}

/*
 * Why the library refuses configuration c of layer k (status st): the rule and its reason are the
 * library's (cn_config_explain); the tool only puts the options that set the fields in front, and
 * for two statuses words the advice in its own options (--tile, --fractal).
 */
static void explain(int k, const cn_config *c, cn_status st, char *why, size_t n)
{
    char l1[64], l2[64], a[40];
    cn_check chk;
    const char *key = NULL;
    if (cn_config_explain(c, &chk) == st)
        key = field_key(chk.field);
    if (!key) {
        char pre[32] = "";
        if (k)
            snprintf(pre, sizeof pre, "--layer %d: ", k);
        snprintf(why, n, "%s%s", pre, cn_strerror(st));
        return;
    }
    switch (st) {
    case CN_E_UNSUPPORTED: { /* the noise type with the mode (or dimension) it lacks */
        char what[40]; /* "noise %s --classic" with the longest name, "simplex" */
        const char *name = cn_noise_type_name(c->type);
        if (chk.field2 == CN_FIELD_MODE)
            snprintf(what, sizeof what, k ? "noise=%s classic=1" : "noise %s --classic", name);
        else
            snprintf(what, sizeof what, k ? "noise=%s" : "noise %s", name);
        snprintf(why, n, "%s: %s", label(k, what, l1, sizeof l1), chk.reason);
        return;
    }
    case CN_E_CONFLICT:
        snprintf(why, n, "%s cannot be combined with a period (%s or --tile)", label(k, "rotate", l1, sizeof l1),
                 k ? "period" : "--period");
        return;
    case CN_E_PERIOD_LACUNARITY:
        snprintf(why, n,
                 "%s %s is not a whole number: periodic noise (--period, --tile) needs a whole-number "
                 "lacunarity, or %s",
                 label(k, "lacunarity", l1, sizeof l1), cli_fmt_real(c->lacunarity, a, sizeof a),
                 k ? "fractal=none or octaves=1" : "--fractal none or --octaves 1");
        return;
    default:
        break;
    }
    /* A second field the fault involves (amplitude with bias, ...), as "--a, --b" or "a, b". */
    const char *key2 = chk.field2 != CN_FIELD_DIMS ? field_key(chk.field2) : NULL;
    l2[0] = '\0';
    if (key2)
        snprintf(l2, sizeof l2, k ? ", %s" : ", --%s", key2);
    snprintf(why, n, "%s%s: %s", label(k, key, l1, sizeof l1), l2, chk.reason);
}

int cli_noise_finish(const char *prog, cli_noise_opts *o)
{
    char why[512], l1[64];
    for (int i = 0; i < o->nlayer_text; i++)
        if (parse_layer(prog, o, i + 1, o->layer_text[i]) != 0)
            return -1;
    o->nspec = 1 + o->nlayer_text;

    /*
     * What can be checked without the dimension: the configuration with the per-axis lists left
     * out, at --dims or else at 2 (which every noise supports), and the combinations of a
     * period that hold in every dimension.
     */
    for (int k = 0; k < o->nspec; k++) {
        const cli_spec *s = &o->spec[k];
        cn_config c = s->cfg;
        c.dims = o->dims_set ? o->dims : 2;
        cn_status st = cn_config_check(&c);
        if (st != CN_OK) {
            explain(k, &c, st, why, sizeof why);
            cli_error(prog, "%s", why);
            return -1;
        }
        if (any_period(s) && s->n_rotate) {
            cli_error(prog, "%s cannot be combined with %s (periods need the unrotated lattice)",
                      label(k, "rotate", l1, sizeof l1), k ? "period" : "--period");
            return -1;
        }
        if (any_period(s)) { /* --tile sets periods later: check the lacunarity rule now */
            c.period[0] = cn_period_multiple(c.type, c.dims);
            if ((st = cn_config_check(&c)) == CN_E_PERIOD_LACUNARITY) {
                explain(k, &c, st, why, sizeof why);
                cli_error(prog, "%s", why);
                return -1;
            }
        }
    }
    return 0;
}

static const double PI = 3.14159265358979323846;

/* Degrees to radians, reduced modulo 360 first (exactly) so that large angles keep their digits. */
static double radians(double deg) { return fmod(deg, 360.0) * (PI / 180.0); }

/* The configuration of layer k in `dims` dimensions, or -1 with the reason in why. */
static int spec_config(const cli_spec *s, int k, int dims, cn_config *out, char *why, size_t n)
{
    char l1[64];
    cn_config c = s->cfg;
    c.dims = dims;
    const struct { int count; const char *key; } lists[] = {
        {s->n_period, "period"}, {s->n_offset, "offset"}, {s->n_axis_frequency, "axis-frequency"}};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (lists[i].count > dims) {
            snprintf(why, n, "%s: %d numbers, but the noise is %dD (one number per axis)",
                     label(k, lists[i].key, l1, sizeof l1), lists[i].count, dims);
            return -1;
        }
    for (int a = 0; a < s->n_period; a++)
        c.period[a] = s->period[a];
    for (int a = 0; a < s->n_offset; a++)
        c.offset[a] = s->offset[a];
    for (int a = 0; a < s->n_axis_frequency; a++)
        c.axis_frequency[a] = s->axis_frequency[a];
    if (s->n_rotate) {
        static const char *const need[] = {"", "", "1 number, an angle in degrees",
                                           "4 numbers, axis ax,ay,az and an angle in degrees",
                                           "16 numbers, a row-major 4x4 matrix"};
        label(k, "rotate", l1, sizeof l1);
        if (dims < 2) {
            snprintf(why, n, "%s: 1D noise has no rotation", l1);
            return -1;
        }
        int want = dims == 2 ? 1 : dims == 3 ? 4 : 16;
        if (s->n_rotate != want) {
            snprintf(why, n, "%s: %d number%s, but the noise is %dD: %dD rotations take %s", l1, s->n_rotate,
                     s->n_rotate == 1 ? "" : "s", dims, dims, need[dims]);
            return -1;
        }
        if (dims == 2) {
            if (cn_config_rotate2(&c, radians(s->rotate[0])) != CN_OK) {
                snprintf(why, n, "%s: the angle is not finite", l1);
                return -1;
            }
        } else if (dims == 3) {
            /* Scale the axis by its largest component first, so its length cannot overflow. */
            double m = fmax(fabs(s->rotate[0]), fmax(fabs(s->rotate[1]), fabs(s->rotate[2])));
            if (!(m > 0) || cn_config_rotate3(&c, s->rotate[0] / m, s->rotate[1] / m, s->rotate[2] / m,
                                              radians(s->rotate[3])) != CN_OK) {
                snprintf(why, n, "%s: the axis (0,0,0) has no direction", l1);
                return -1;
            }
        } else {
            memcpy(c.rotation, s->rotate, sizeof c.rotation);
            c.rotate = 1;
        }
    }
    cn_status st = cn_config_check(&c);
    if (st != CN_OK) {
        explain(k, &c, st, why, n);
        return -1;
    }
    *out = c;
    return 0;
}

/* The warp's stages and fields for `dims` dimensions into out (cli_warp_opts); nothing for --warp 0.
 * On failure the reason in why and -1. */
static int warp_build(const cli_noise_opts *o, int dims, cli_built *out, char *why, size_t whylen)
{
    const cli_warp_opts *w = &o->warp;
    out->nwarps = 0;
    out->wgen = NULL;
    if (w->amplitude == 0.0)
        return 0;
    const size_t stages = w->fractal == CLI_WARP_PROGRESSIVE ? (size_t)w->octaves : 1;
    cn_noise *g = (cn_noise *)calloc(stages * (size_t)dims, sizeof *g);
    if (!g) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    const double f0 = w->frequency > 0 ? w->frequency : o->spec[0].cfg.frequency;
    const uint64_t seed = w->seed_set ? w->seed : o->spec[0].cfg.seed + 1;
    double mult = 1.0, amp = w->amplitude;
    for (size_t i = 0; i < stages; i++) {
        cn_config c;
        cn_config_init(&c);
        c.type = w->type;
        c.dims = dims;
        c.frequency = f0 * mult;
        if (w->fractal == CLI_WARP_INDEPENDENT) {
            c.fractal = CN_FRACTAL_FBM;
            c.octaves = w->octaves;
            c.lacunarity = w->lacunarity;
            c.gain = w->gain;
        }
        for (int a = 0; a < dims; a++) /* --tile: mult is a whole number then (cli_tile_warp) */
            c.period[a] = w->period[a] == 0 ? 0 : (double)w->period[a] * mult > (double)CN_MAX_PERIOD ? CN_MAX_PERIOD + 1u
                                                                                               : (uint32_t)((double)w->period[a] * mult);
        for (int k = 0; k < dims; k++) {
            c.seed = seed + 16u * (uint64_t)i + (uint64_t)k;
            cn_check chk;
            if (cn_config_explain(&c, &chk) != CN_OK || cn_noise_build(&g[i * (size_t)dims + (size_t)k], &c) != CN_OK) {
                char fs[40];
                snprintf(why, whylen, "--warp: a warp field (--warp-noise %s at frequency %s): %s",
                         cn_noise_type_name(c.type), cli_fmt_real(c.frequency, fs, sizeof fs),
                         chk.status != CN_OK ? chk.reason : "cannot be built");
                free(g);
                return -1;
            }
            out->warp[i].field[k] = &g[i * (size_t)dims + (size_t)k];
        }
        out->warp[i].amplitude = amp;
        out->warp[i].mode = w->fractal == CLI_WARP_PROGRESSIVE ? CN_WARP_PROGRESSIVE : CN_WARP_INDEPENDENT;
        mult *= w->lacunarity;
        amp *= w->gain;
    }
    out->wgen = g;
    out->nwarps = stages;
    return 0;
}

int cli_noise_build(const cli_noise_opts *o, int dims, cli_built *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    cn_noise *gen = (cn_noise *)calloc((size_t)o->nspec, sizeof *gen);
    if (!gen) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    for (int k = 0; k < o->nspec; k++) {
        cn_config c;
        if (spec_config(&o->spec[k], k, dims, &c, why, whylen) != 0) {
            free(gen);
            return -1;
        }
        cn_status st = cn_noise_build(&gen[k], &c);
        if (st != CN_OK) {
            explain(k, &c, st, why, whylen);
            free(gen);
            return -1;
        }
        out->layer[k].noise = &gen[k];
        out->layer[k].weight = o->spec[k].weight;
    }
    out->gen = gen;
    out->count = o->nspec;
    out->dims = dims;
    out->use_float = o->use_float;
    out->direct = o->nspec == 1 && o->spec[0].weight == 1.0;
    if (warp_build(o, dims, out, why, whylen) != 0) {
        free(gen);
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
}

void cli_built_free(cli_built *b)
{
    cn_opencl_close(b->cl);
    free(b->gen);
    free(b->wgen);
    memset(b, 0, sizeof *b);
}

/* The warped value at one point (and its gradient unless grad is NULL): one layer of weight 1 by
 * cn_warp_eval (cn_warp_evalf), its value as it is; layers by cn_warp_layers_eval(f). */
static cn_status built_warp_eval(const cli_built *b, const double *pd, const float *pf, double *v, double *grad)
{
    const size_t n = (size_t)b->count;
    if (!b->use_float)
        return b->direct ? cn_warp_eval(&b->gen[0], b->warp, b->nwarps, pd, v, grad)
                         : cn_warp_layers_eval(b->layer, n, b->warp, b->nwarps, pd, v, grad);
    float fv, fg[4];
    cn_status st = b->direct ? cn_warp_evalf(&b->gen[0], b->warp, b->nwarps, pf, &fv, grad ? fg : NULL)
                             : cn_warp_layers_evalf(b->layer, n, b->warp, b->nwarps, pf, &fv, grad ? fg : NULL);
    if (st != CN_OK)
        return st;
    *v = (double)fv;
    for (int a = 0; grad && a < b->dims; a++)
        grad[a] = (double)fg[a];
    return CN_OK;
}

double cli_built_eval(const cli_built *b, const double *pd, const float *pf)
{
    if (b->nwarps) {
        double v;
        return built_warp_eval(b, pd, pf, &v, NULL) == CN_OK ? v : NAN;
    }
    if (b->direct)
        return b->use_float ? (double)cn_evalf(&b->gen[0], pf) : cn_eval(&b->gen[0], pd);
    if (!b->use_float) {
        double v;
        if (cn_layers_eval(b->layer, (size_t)b->count, pd, &v) != CN_OK)
            return NAN;
        return v;
    }
    float v;
    if (cn_layers_evalf(b->layer, (size_t)b->count, pf, &v) != CN_OK)
        return NAN;
    return (double)v;
}

cn_status cli_built_eval_grad(const cli_built *b, const double *pd, const float *pf, double *v, double *grad)
{
    float vf, gf[4];
    cn_status st;
    if (b->nwarps)
        return built_warp_eval(b, pd, pf, v, grad);
    if (b->direct) { /* one point through the point-array call: cn_eval_grad's bits, and a status */
        const double *pc[4] = {&pd[0], &pd[1], &pd[2], &pd[3]};
        const float *pcf[4] = {&pf[0], &pf[1], &pf[2], &pf[3]};
        double *gp[4] = {&grad[0], &grad[1], &grad[2], &grad[3]};
        float *gpf[4] = {&gf[0], &gf[1], &gf[2], &gf[3]};
        st = b->use_float ? cn_points_evalf_grad(&b->gen[0], 1, pcf, &vf, gpf, 1)
                          : cn_points_eval_grad(&b->gen[0], 1, pc, v, gp, 1);
    } else {
        st = b->use_float ? cn_layers_evalf_grad(b->layer, (size_t)b->count, pf, &vf, gf)
                          : cn_layers_eval_grad(b->layer, (size_t)b->count, pd, v, grad);
    }
    if (st == CN_OK && b->use_float) {
        *v = (double)vf;
        for (int a = 0; a < b->dims; a++)
            grad[a] = (double)gf[a];
    }
    return st;
}

int cli_opt_slice(const char *prog, const char *opt, const char *text, int ok, const char *need, int use_float,
                  double *d, float *f)
{
    if (!text)
        return 0;
    if (!ok) {
        cli_error(prog, "%s needs %s", opt, need);
        return -1;
    }
    if (cli_opt_finite(prog, opt, text, d) != 0 || (use_float && cli_opt_finitef(prog, opt, text, f) != 0))
        return -1;
    return 0;
}

int cli_opt_origin(const char *prog, const char *opt, const char *text, int n, double *out)
{
    if (!text)
        return 0;
    double v[3];
    int k = 0, ok = 1;
    for (const char *c = text; ok; c = strchr(c, ',') + 1) {
        const char *end = strchr(c, ',');
        const size_t len = end ? (size_t)(end - c) : strlen(c);
        const int neg = len > 0 && c[0] == '-';
        uint64_t u = 0;
        ok = len > (size_t)neg && k < n;
        for (size_t i = (size_t)neg; ok && i < len; i++) {
            ok = c[i] >= '0' && c[i] <= '9';
            u = ok ? u * 10u + (uint64_t)(c[i] - '0') : u;
            ok = ok && (double)u <= CLI_MAX_ORIGIN; /* u <= 2^48 before each step: no overflow */
        }
        if (ok)
            v[k++] = u == 0 ? 0.0 : neg ? -(double)u : (double)u; /* no -0 */
        if (!end)
            break;
    }
    if (!ok || k != n) {
        char q[128];
        cli_error(prog, "%s: %s is not %d whole numbers X,Y%s (%s, each -2^48..2^48)", opt,
                  cli_quote(text, q, sizeof q), n, n == 3 ? ",Z" : "", n == 3 ? "voxels" : "pixels");
        return -1;
    }
    for (int a = 0; a < n; a++)
        out[a] = v[a];
    return 0;
}
