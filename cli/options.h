/*
 * options.h -- the option prologue of every command: the long-option scanner and the
 * table-driven parsing of a command's options.
 *
 * A command describes its options in one table. The shared entries (CLI_NOISE_OPTIONS,
 * CLI_OUTPUT_OPTIONS, "help") are handled by their ids (cli_noise_option, cli_output_option,
 * cli_help); every other entry names a kind of value and the field of the command's option
 * struct that receives it, e.g.
 *
 *     typedef struct my_args { uint32_t width, height; double relief; const char *ramp; int tile; } my_args;
 *     static const cli_option opts[] = {
 *         CLI_NOISE_OPTIONS,
 *         CLI_SIZE("size", my_args, width, height),
 *         CLI_POSITIVE("relief", my_args, relief),
 *         CLI_TEXT("ramp", my_args, ramp),
 *         CLI_FLAG("tile", my_args, tile),
 *         CLI_OUTPUT_OPTIONS,
 *         {NULL},
 *     };
 *     my_args args = {defaults};
 *     cli_parse p = {.prog = prog, .help = help_text, .opts = opts, .args = &args, .dims = 2,
 *                    .output = "out.png"};
 *     int rc = cli_parse_args(&p, argc, argv);
 *     if (rc >= 0)
 *         return rc;   // --help was shown, or a usage error was reported
 *     ... p.noise, p.out and args hold the values
 *
 * Values are parsed in command-line order, each with the strict parsers of args.h and their
 * messages ("<prog>: --relief: 'x' is not a finite number greater than 0"); the last one given
 * wins. With --recipe FILE (anywhere on the line) the recipe's values are taken first, in the
 * file's order, with messages naming the file and line ("<prog>: r.yaml:4: --relief: ..."); the
 * command line then overrides them (its --layer options replace the recipe's layers). A text (CLI_TEXT) is kept as given and checked by the command after the loop, when
 * everything it depends on is known.
 */
#ifndef CNOISE_CLI_OPTIONS_H
#define CNOISE_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "args.h"

struct cli_parse;

/* How the value of an entry is taken; the target is the field at offset `at` of the command's
 * option struct. */
typedef enum cli_kind {
    CLI_KIND_ID = 0,   /* no target: a shared option, handled by its id */
    CLI_KIND_FLAG,     /* int: set to 1 */
    CLI_KIND_TEXT,     /* const char *: the value as given */
    CLI_KIND_FILE,     /* const char *: a file name, not empty */
    CLI_KIND_SIZE,     /* uint32_t at `at` and `at2`: "WxH" (cli_opt_size) */
    CLI_KIND_INT,      /* int: a whole number in lo..hi (cli_opt_int) */
    CLI_KIND_FINITE,   /* double: a finite number (cli_opt_finite) */
    CLI_KIND_POSITIVE, /* double: a finite number > 0 (cli_opt_positive) */
    CLI_KIND_INTERVAL, /* double: a finite number in [lo, hi], or (lo, hi] with lo_open */
    CLI_KIND_CALL      /* no target: the entry's function parses and stores */
} cli_kind;

/*
 * Long-option scanner. Accepted forms: "--name value", "--name=value", "--flag", and for an
 * option with a short name c: "-c value", "-cvalue", "-c". "--" ends the options. Every command
 * of cnoise takes no positional arguments, so anything else is an error.
 */
typedef struct cli_option {
    const char *name;  /* long name without the dashes; NULL ends a table */
    char short_name;   /* 0 for none */
    int has_value;
    int id;            /* CLI_KIND_ID: the shared option's id */
    cli_kind kind;
    size_t at;         /* offset of the target in the command's option struct */
    size_t at2;        /* CLI_KIND_SIZE: offset of the height */
    double lo, hi;     /* CLI_KIND_INT, CLI_KIND_INTERVAL */
    int lo_open;       /* CLI_KIND_INTERVAL: lo itself is excluded */
    /* CLI_KIND_CALL: parses value and stores it (p->args, p->noise); 0, or -1 after printing */
    int (*call)(struct cli_parse *p, const char *value);
} cli_option;

/* Entries of a command's own options: T its option struct, F the field. */
#define CLI_FLAG(N, T, F) {.name = N, .kind = CLI_KIND_FLAG, .at = offsetof(T, F)}
#define CLI_TEXT(N, T, F) {.name = N, .has_value = 1, .kind = CLI_KIND_TEXT, .at = offsetof(T, F)}
#define CLI_FILE(N, T, F) {.name = N, .has_value = 1, .kind = CLI_KIND_FILE, .at = offsetof(T, F)}
#define CLI_SIZE(N, T, FW, FH) \
    {.name = N, .has_value = 1, .kind = CLI_KIND_SIZE, .at = offsetof(T, FW), .at2 = offsetof(T, FH)}
#define CLI_INT(N, T, F, LO, HI) \
    {.name = N, .has_value = 1, .kind = CLI_KIND_INT, .at = offsetof(T, F), .lo = (LO), .hi = (HI)}
#define CLI_FINITE(N, T, F) {.name = N, .has_value = 1, .kind = CLI_KIND_FINITE, .at = offsetof(T, F)}
#define CLI_POSITIVE(N, T, F) {.name = N, .has_value = 1, .kind = CLI_KIND_POSITIVE, .at = offsetof(T, F)}
#define CLI_INTERVAL(N, T, F, LO, LO_OPEN, HI)                                                              \
    {.name = N, .has_value = 1, .kind = CLI_KIND_INTERVAL, .at = offsetof(T, F), .lo = (LO), .hi = (HI), \
     .lo_open = (LO_OPEN)}
#define CLI_CALL(N, FN) {.name = N, .has_value = 1, .kind = CLI_KIND_CALL, .call = FN}

/* The light of a hillshade: --light-azimuth, --light-elevation and --relief into the fields
 * azimuth, elevation and relief (doubles) of T's member M. */
#define CLI_LIGHT_OPTIONS(T, M)                                              \
    CLI_FINITE("light-azimuth", T, M.azimuth),                               \
    CLI_INTERVAL("light-elevation", T, M.elevation, 0.0, 1, 90.0),           \
    CLI_POSITIVE("relief", T, M.relief)
typedef struct cli_light_args {
    double azimuth, elevation, relief;
} cli_light_args;

#define CLI_MAX_OPTIONS 64 /* entries of a table */

/* A command's option parsing: its table, its defaults and where the values go. */
typedef struct cli_parse {
    /* set by the command */
    const char *prog;        /* "cnoise render", for messages */
    const char *help;        /* the --help text (cli_help) */
    const cli_option *opts;  /* the table, at most CLI_MAX_OPTIONS entries */
    void *args;              /* the command's option struct (the targets) */
    double frequency;        /* the default --frequency (0: the tool's, 1) */
    int dims;                /* the default --dims (0: none until given) */
    const char *output;      /* the default --output (may be NULL) */
    void (*defaults)(cli_noise_opts *o); /* other noise defaults of the command (may be NULL) */
    /* set by cli_parse_args */
    cli_noise_opts noise;    /* the shared noise options */
    cli_out_opts out;        /* -o, --threads, --quiet */
    unsigned char given[CLI_MAX_OPTIONS]; /* entry k was given (on the command line or in the recipe) */
    const char *text[CLI_MAX_OPTIONS];    /* the value last given to entry k (NULL for a flag) */
    const char *save_recipe;              /* --save-recipe FILE, or NULL */
} cli_parse;

/*
 * Sets p->noise and p->out to the defaults (cli_noise_init, then the command's), then takes the
 * options argv[1..argc-1] (argv[0] is the command) in order. Returns -1 when all were
 * taken, else the exit code to return: CLI_EXIT_OK after printing the help (--help),
 * CLI_EXIT_USAGE after printing the reason (unknown option, missing value, value given to a
 * flag, stray argument, bad value), CLI_EXIT_FAILURE after an internal error (a table of more
 * than CLI_MAX_OPTIONS entries: cli_given could not tell whether its later entries were given).
 */
int cli_parse_args(cli_parse *p, int argc, char **argv);

/*
 * --save-recipe FILE, after the command succeeded (nothing to do without it): writes the options
 * given (from --recipe and the command line; not output, threads, quiet) as a recipe (recipe.h),
 * with the safe replacement of every output. Returns CLI_EXIT_OK, or CLI_EXIT_FAILURE after
 * printing the reason.
 */
int cli_save_recipe(const cli_parse *p);

/*
 * The options given, as recipe entries (recipe.h) into e[0..CLI_MAX_OPTIONS), for a recipe or a
 * sidecar; returns how many. The texts belong to p.
 */
struct cli_recipe_entry;
int cli_given_entries(const cli_parse *p, struct cli_recipe_entry *e);

/* The command's name: prog without "cnoise " ("render"). */
const char *cli_command_name(const cli_parse *p);

/* Whether the option named name (without the dashes) was given. */
int cli_given(const cli_parse *p, const char *name);

#endif /* CNOISE_CLI_OPTIONS_H */
