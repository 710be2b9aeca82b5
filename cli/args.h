/*
 * args.h -- what the cnoise subcommands share: exit codes, strict number parsing, a small
 * long-option scanner, the noise options every command takes, and the command entry points.
 *
 * Number syntax (the same everywhere, documented in --help):
 *   - whole numbers: one or more ASCII digits and nothing else: no sign (neither '-' nor '+'),
 *     no spaces, no "0x"; leading zeros are allowed ("007" is 7); the value must fit the range;
 *   - real numbers: C strtod() syntax, i.e. decimal ("1.5", "-2e-3", ".5") or hexadecimal
 *     ("0x1.8p1") floating point, and the words "nan", "inf", "infinity" where a non-finite value
 *     is allowed; the whole string must be consumed; leading spaces are rejected; a finite text
 *     whose value overflows (1e400) is out of range, one that underflows becomes the nearest
 *     representable value (0 or a subnormal).
 * Locale: cnoise never calls setlocale(), so the C library stays in the "C" locale and
 * strtod()/printf() always use '.' as the decimal point, whatever LANG or LC_NUMERIC say.
 */
#ifndef CNOISE_CLI_ARGS_H
#define CNOISE_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "cnoise.h"

/* Exit codes of every command (listed in "cnoise --help"). */
#define CLI_EXIT_OK 0      /* success */
#define CLI_EXIT_FAILURE 1 /* runtime failure: I/O error, bad input line */
#define CLI_EXIT_USAGE 2   /* usage error: bad command, option or value; unsupported combination */

/* Image size limits of "cnoise render --size", checked before anything is allocated. */
#define CLI_MAX_SIDE 65535u
#define CLI_MAX_PIXELS 268435456u /* 2^28 */

/* Outcome of the parsers below. */
typedef enum cli_num {
    CLI_NUM_OK = 0,
    CLI_NUM_SYNTAX, /* empty, not a number, trailing junk, leading space or sign where none allowed */
    CLI_NUM_RANGE   /* a number, but outside the allowed range (or overflowing the type) */
} cli_num;

/* Whole number in 0..UINT64_MAX (syntax above). */
cli_num cli_parse_u64(const char *s, uint64_t *out);

/* Whole number in lo..hi (lo >= 0). */
cli_num cli_parse_int(const char *s, int lo, int hi, int *out);

/*
 * Real number (syntax above). finite_only: "nan"/"inf" texts are CLI_NUM_RANGE.
 * Overflow of a finite text is always CLI_NUM_RANGE.
 */
cli_num cli_parse_double(const char *s, int finite_only, double *out);

/* As cli_parse_double, rounded once, directly from the text to float (strtof). */
cli_num cli_parse_float(const char *s, int finite_only, float *out);

/*
 * "WxH": two whole numbers joined by one lowercase 'x'; each 1..CLI_MAX_SIDE and
 * W * H <= CLI_MAX_PIXELS. On failure writes the reason (without the value) into why.
 */
cli_num cli_parse_size(const char *s, uint32_t *w, uint32_t *h, char *why, size_t whylen);

/*
 * Writes s as a single-quoted string for messages into buf (size n >= 8): control characters
 * become \xNN, and a long text is cut with "...". Returns buf.
 */
const char *cli_quote(const char *s, char *buf, size_t n);

/* Prints "<prog>: <message>\n" to stderr. */
void cli_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Option parsers that report errors themselves: on a bad value they print
 * "<prog>: <opt>: '<value>' is not ..." and return -1; on success they store and return 0.
 * opt is the option as it should appear in the message, e.g. "--seed".
 */
int cli_opt_u64(const char *prog, const char *opt, const char *v, uint64_t *out);
int cli_opt_int(const char *prog, const char *opt, const char *v, int lo, int hi, int *out);
int cli_opt_positive(const char *prog, const char *opt, const char *v, double *out); /* finite, > 0 */
int cli_opt_finite(const char *prog, const char *opt, const char *v, double *out);
int cli_opt_finitef(const char *prog, const char *opt, const char *v, float *out);
int cli_opt_size(const char *prog, const char *opt, const char *v, uint32_t *w, uint32_t *h);

/*
 * Long-option scanner. Accepted forms: "--name value", "--name=value", "--flag", and for an
 * option with a short name c: "-c value", "-cvalue", "-c". "--" ends the options. Every command
 * of cnoise takes no positional arguments, so anything else is an error.
 */
typedef struct cli_option {
    const char *name;  /* long name without the dashes */
    char short_name;   /* 0 for none */
    int has_value;
    int id;            /* returned by cli_next */
} cli_option;

typedef struct cli_args {
    const char *prog; /* "cnoise sample", for messages */
    int argc;
    char **argv;
    int index;        /* next argv element to look at; start at 1 (argv[0] is the command) */
    int no_more;      /* "--" seen */
} cli_args;

#define CLI_END (-1)   /* no more options */
#define CLI_ERROR (-2) /* an error was printed */

/*
 * Returns the id of the next option and sets *value (NULL for a flag), CLI_END, or CLI_ERROR
 * after printing the reason (unknown option, missing value, value given to a flag, stray
 * argument). opts ends with an entry whose name is NULL.
 */
int cli_next(cli_args *a, const cli_option *opts, const char **value);

/*
 * The options "sample" and "render" share. cli_noise_option() handles one of them (ids below)
 * and returns 0, -1 after printing an error, or 1 if id is not a shared option.
 */
enum {
    CLI_OPT_NOISE = 1000,
    CLI_OPT_SEED,
    CLI_OPT_CLASSIC,
    CLI_OPT_PRECISION,
    CLI_OPT_FREQUENCY,
    CLI_OPT_DIMS,
    CLI_OPT_HELP
};

typedef struct cli_noise_opts {
    cn_config cfg;  /* type, mode, seed, frequency; dims only when dims_set */
    int dims_set;
    int use_float;  /* --precision float */
} cli_noise_opts;

/* The cli_option entries for the shared options (without a terminator), for building tables. */
#define CLI_NOISE_OPTIONS                                  \
    {"noise", 0, 1, CLI_OPT_NOISE},                        \
    {"seed", 0, 1, CLI_OPT_SEED},                          \
    {"classic", 0, 0, CLI_OPT_CLASSIC},                    \
    {"precision", 0, 1, CLI_OPT_PRECISION},                \
    {"frequency", 0, 1, CLI_OPT_FREQUENCY},                \
    {"dims", 0, 1, CLI_OPT_DIMS},                          \
    {"help", 'h', 0, CLI_OPT_HELP}

int cli_noise_option(const char *prog, cli_noise_opts *o, int id, const char *value);

/*
 * Why cfg cannot be built, in words that name the problem ("simplex noise needs 2 to 4
 * dimensions", "value noise has no classic mode"), or NULL if cn_config_check() accepts it.
 */
const char *cli_config_problem(const cn_config *cfg);

/* "perlin", "simplex" or "value". */
const char *cli_noise_name(cn_noise_type t);

/* The commands: argv[0] is the command name; they return an exit code. */
int cli_cmd_sample(int argc, char **argv);
int cli_cmd_render(int argc, char **argv);

#endif /* CNOISE_CLI_ARGS_H */
