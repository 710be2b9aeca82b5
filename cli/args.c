/*
 * args.c -- strict number parsing, the option scanner and the shared noise options (args.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        snprintf(why, whylen, "width and height must be at most %u", CLI_MAX_SIDE);
        return CLI_NUM_RANGE;
    }
    if (a * b > CLI_MAX_PIXELS) { /* both <= 65535: the product fits easily */
        snprintf(why, whylen, "%llu pixels is more than the limit of %u (2^28)",
                 (unsigned long long)(a * b), CLI_MAX_PIXELS);
        return CLI_NUM_RANGE;
    }
    *w = (uint32_t)a;
    *h = (uint32_t)b;
    return CLI_NUM_OK;
}

const char *cli_quote(const char *s, char *buf, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    if (n < 8) {
        if (n)
            buf[0] = '\0';
        return buf;
    }
    buf[o++] = '\'';
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        /* room for up to 4 bytes of this character plus "...'" and the terminator */
        if (o + 4 + 5 > n) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (*p < 0x20 || *p == 0x7f) {
            buf[o++] = '\\';
            buf[o++] = 'x';
            buf[o++] = hex[*p >> 4];
            buf[o++] = hex[*p & 15];
        } else {
            buf[o++] = (char)*p;
        }
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
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

int cli_opt_size(const char *prog, const char *opt, const char *v, uint32_t *w, uint32_t *h)
{
    char q[QBUF], why[160];
    if (cli_parse_size(v, w, h, why, sizeof why) == CLI_NUM_OK)
        return 0;
    cli_error(prog, "%s: %s: %s", opt, cli_quote(v, q, sizeof q), why);
    return -1;
}

int cli_next(cli_args *a, const cli_option *opts, const char **value)
{
    char q[QBUF];
    *value = NULL;
    if (a->index >= a->argc)
        return CLI_END;
    const char *arg = a->argv[a->index++];

    if (a->no_more || arg[0] != '-' || arg[1] == '\0') {
        cli_error(a->prog, "unexpected argument %s (see '%s --help')", cli_quote(arg, q, sizeof q), a->prog);
        return CLI_ERROR;
    }
    if (arg[1] == '-' && arg[2] == '\0') {
        a->no_more = 1;
        return cli_next(a, opts, value);
    }

    const cli_option *o = NULL;
    const char *inline_value = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        for (const cli_option *p = opts; p->name; p++)
            if (strlen(p->name) == len && strncmp(p->name, name, len) == 0)
                o = p;
        if (!o) {
            cli_error(a->prog, "unknown option %s (see '%s --help')", cli_quote(arg, q, sizeof q), a->prog);
            return CLI_ERROR;
        }
        if (eq) {
            if (!o->has_value) {
                cli_error(a->prog, "--%s takes no value", o->name);
                return CLI_ERROR;
            }
            inline_value = eq + 1;
        }
    } else {
        for (const cli_option *p = opts; p->name; p++)
            if (p->short_name && p->short_name == arg[1])
                o = p;
        if (!o || (arg[2] != '\0' && !o->has_value)) {
            cli_error(a->prog, "unknown option %s (see '%s --help')", cli_quote(arg, q, sizeof q), a->prog);
            return CLI_ERROR;
        }
        if (arg[2] != '\0')
            inline_value = arg + 2;
    }

    if (o->has_value) {
        if (inline_value) {
            *value = inline_value;
        } else if (a->index < a->argc) {
            *value = a->argv[a->index++];
        } else {
            cli_error(a->prog, "--%s: missing value", o->name);
            return CLI_ERROR;
        }
    }
    return o->id;
}

const char *cli_noise_name(cn_noise_type t)
{
    switch (t) {
    case CN_NOISE_PERLIN: return "perlin";
    case CN_NOISE_SIMPLEX: return "simplex";
    case CN_NOISE_VALUE: return "value";
    }
    return "unknown";
}

int cli_noise_option(const char *prog, cli_noise_opts *o, int id, const char *value)
{
    char q[QBUF];
    switch (id) {
    case CLI_OPT_NOISE:
        if (strcmp(value, "perlin") == 0)
            o->cfg.type = CN_NOISE_PERLIN;
        else if (strcmp(value, "simplex") == 0)
            o->cfg.type = CN_NOISE_SIMPLEX;
        else if (strcmp(value, "value") == 0)
            o->cfg.type = CN_NOISE_VALUE;
        else {
            cli_error(prog, "--noise: %s is not one of perlin, simplex, value", cli_quote(value, q, sizeof q));
            return -1;
        }
        return 0;
    case CLI_OPT_SEED:
        return cli_opt_u64(prog, "--seed", value, &o->cfg.seed);
    case CLI_OPT_CLASSIC:
        o->cfg.mode = CN_MODE_CLASSIC;
        return 0;
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
    case CLI_OPT_FREQUENCY:
        return cli_opt_positive(prog, "--frequency", value, &o->cfg.frequency);
    case CLI_OPT_DIMS:
        if (cli_opt_int(prog, "--dims", value, 1, 4, &o->cfg.dims) != 0)
            return -1;
        o->dims_set = 1;
        return 0;
    }
    return 1;
}

const char *cli_config_problem(const cn_config *cfg)
{
    cn_status st = cn_config_check(cfg);
    if (st == CN_OK)
        return NULL;
    if (st == CN_E_UNSUPPORTED) {
        if (cfg->type == CN_NOISE_SIMPLEX && cfg->dims < 2)
            return "simplex noise needs 2 to 4 dimensions";
        if (cfg->type == CN_NOISE_VALUE && cfg->mode == CN_MODE_CLASSIC)
            return "value noise has no classic mode (--classic works with perlin and simplex)";
    }
    return cn_strerror(st);
}
