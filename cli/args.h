/*
 * args.h -- what the cnoise subcommands share: exit codes, strict number parsing, the noise
 * options every command takes (their option-table entries; the scanner and the tables are
 * options.h), and the command entry points.
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
#include <stdio.h>

#include "cnoise.h"

/* Exit codes of every command (listed in "cnoise --help"). */
#define CLI_EXIT_OK 0      /* success */
#define CLI_EXIT_FAILURE 1 /* runtime failure: I/O error, bad input line */
#define CLI_EXIT_USAGE 2   /* usage error: bad command, option or value; unsupported combination */

/* Image size limits of --size ("render", "map"), checked before anything is allocated: each side
 * at most 2^20 (pixel centres i + 0.5 stay exact in float precision) and at most 2^34 pixels. */
#define CLI_MAX_SIDE 1048576u
#define CLI_MAX_PIXELS 17179869184ull /* 2^34 */

/* Outcome of the parsers below. */
typedef enum cli_num {
    CLI_NUM_OK = 0,
    CLI_NUM_SYNTAX, /* empty, not a number, trailing junk, leading space or sign where none allowed */
    CLI_NUM_RANGE   /* a number, but outside the allowed range (or overflowing the type) */
} cli_num;

/* Whole number in 0..UINT64_MAX (syntax above). */
cli_num cli_parse_u64(const char *s, uint64_t *out);

/*
 * A seed: a whole number in decimal ("42", "-1") or hexadecimal ("0xDEADBEEF", "-0x10"; 'x' or
 * 'X', digits of either case), with an optional '-' and nothing else (no '+', no spaces).
 * 0..2^64-1 is the seed itself; a negative number -n (n up to 2^63) is the 64-bit two's
 * complement pattern of -n, 2^64 - n, as a signed 64-bit integer cast to unsigned (so an engine's
 * signed seed -1 is 18446744073709551615, the same seed as 0xffffffffffffffff).
 */
cli_num cli_parse_seed(const char *s, uint64_t *out);

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
 * become \xNN (cn_image_escape, the one escaping function of every message), and a long text is
 * cut with "...". Returns buf.
 */
const char *cli_quote(const char *s, char *buf, size_t n);

/* The same without the quotes, for the "wrote FILE" lines (n >= 6). A buffer of CLI_SHOWN_SIZE
 * holds any path the system accepts (PATH_MAX 4096 bytes, 4 bytes each when escaped). */
#define CLI_SHOWN_SIZE (4 * 4096 + 8)
const char *cli_shown(const char *s, char *buf, size_t n);

/* Prints "<prog>: <message>\n" to stderr. */
void cli_error(const char *prog, const char *fmt, ...)
#if defined(__MINGW32__) /* mingw-w64: the C99 formats of its own printf (__USE_MINGW_ANSI_STDIO) */
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__) || defined(__clang__)
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
int cli_opt_seed(const char *prog, const char *opt, const char *v, uint64_t *out); /* cli_parse_seed */
int cli_opt_positive(const char *prog, const char *opt, const char *v, double *out); /* finite, > 0 */
int cli_opt_finite(const char *prog, const char *opt, const char *v, double *out);
int cli_opt_finitef(const char *prog, const char *opt, const char *v, float *out);
int cli_opt_size(const char *prog, const char *opt, const char *v, uint32_t *w, uint32_t *h);
/* A finite number in [lo, hi], or in (lo, hi] when lo_open. */
int cli_opt_interval(const char *prog, const char *opt, const char *v, double lo, int lo_open, double hi,
                     double *out);
/* --threads: a whole number 0..CN_MAX_THREADS (0 = one per core). */
int cli_opt_threads(const char *prog, const char *opt, const char *v, int *out);

/* The option-table entries (options.h) of the shared options, handled by their ids; the table of
 * a command lists them with its own and ends with CLI_OPTIONS_END. */
#define CLI_SHARED(N, S, V, ID) {.name = N, .short_name = S, .has_value = V, .id = ID}
#define CLI_OPTIONS_END {.name = NULL}

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
    CLI_OPT_HELP,
    CLI_OPT_FRACTAL,
    CLI_OPT_OCTAVES,
    CLI_OPT_LACUNARITY,
    CLI_OPT_GAIN,
    CLI_OPT_RIDGE_OFFSET,
    CLI_OPT_RIDGE_GAIN,
    CLI_OPT_PERIOD,
    CLI_OPT_OFFSET,
    CLI_OPT_AXIS_FREQUENCY,
    CLI_OPT_ROTATE,
    CLI_OPT_AMPLITUDE,
    CLI_OPT_BIAS,
    CLI_OPT_WEIGHT,
    CLI_OPT_LAYER,
    CLI_OPT_CELLULAR_DISTANCE,
    CLI_OPT_CELLULAR_RETURN,
    CLI_OPT_JITTER,
    CLI_OPT_MINKOWSKI_P,
    CLI_OPT_WEIGHTED_STRENGTH,
    CLI_OPT_PINGPONG_STRENGTH,
    CLI_OPT_WARP,
    CLI_OPT_WARP_NOISE,
    CLI_OPT_WARP_FREQUENCY,
    CLI_OPT_WARP_SEED,
    CLI_OPT_WARP_FRACTAL,
    CLI_OPT_WARP_OCTAVES,
    CLI_OPT_WARP_LACUNARITY,
    CLI_OPT_WARP_GAIN
};

/*
 * The options of every command that writes files (render, map, volume, animate): -o/--output
 * FILE (not empty), --threads N (cli_opt_threads), --quiet, and the recipe options --recipe FILE
 * and --save-recipe FILE (handled by cli_parse_args, recipe.h). cli_output_option() handles one of
 * them like cli_noise_option(): 0, -1 after printing an error, or 1 if id is not one of them.
 */
enum { CLI_OPT_OUTPUT = 1100, CLI_OPT_THREADS, CLI_OPT_QUIET, CLI_OPT_RECIPE, CLI_OPT_SAVE_RECIPE, CLI_OPT_DEVICE };
#define CLI_OUTPUT_OPTIONS                        \
    CLI_SHARED("output", 'o', 1, CLI_OPT_OUTPUT), \
    CLI_SHARED("threads", 0, 1, CLI_OPT_THREADS), \
    CLI_SHARED("device", 0, 1, CLI_OPT_DEVICE),   \
    CLI_SHARED("quiet", 0, 0, CLI_OPT_QUIET),     \
    CLI_SHARED("recipe", 0, 1, CLI_OPT_RECIPE),   \
    CLI_SHARED("save-recipe", 0, 1, CLI_OPT_SAVE_RECIPE)
/* The --help lines of --recipe and --save-recipe. */
#define CLI_RECIPE_HELP                                                                            \
    "  --recipe FILE      take the options saved in FILE (a YAML recipe, see --save-recipe)\n"     \
    "                     first; options on the command line override it (its --layer options\n"  \
    "                     replace the recipe's). Errors name the file and line\n"                 \
    "  --save-recipe FILE after a successful run, save the options given (not -o, --threads,\n"  \
    "                     --device, --quiet) as a recipe: 'key: value' lines, one per option,\n" \
    "                     that --recipe reads back to make the same file byte for byte\n"
/* --device: where the noise is evaluated (field.h, cli_device_open). */
enum { CLI_DEVICE_CPU = 0, CLI_DEVICE_OPENCL, CLI_DEVICE_GPU, CLI_DEVICE_AUTO };
/* The --help lines of --device. */
#define CLI_DEVICE_HELP                                                                            \
    "  --device D         where the noise is evaluated: cpu (default: SIMD and threads), opencl\n" \
    "                     (the first usable OpenCL device, a GPU first), gpu (an OpenCL GPU) or\n"  \
    "                     auto (a GPU if there is one, else the CPU); the same values on each\n"   \
    "                     ('cnoise info' lists the OpenCL devices)\n"
typedef struct cli_out_opts {
    const char *output; /* the command's default until --output is given */
    int threads;        /* 0: one per core */
    int device;         /* CLI_DEVICE_* */
    int quiet;
} cli_out_opts;
int cli_output_option(const char *prog, cli_out_opts *o, int id, const char *value);

/* Layers of a sum: the main options plus at most CLI_MAX_LAYERS - 1 "--layer" options. */
#define CLI_MAX_LAYERS 16

/*
 * One layer as given on the command line. The per-axis lists are kept as given (count and
 * values) because the dimension, which they are checked against, may be known only later.
 */
typedef struct cli_spec {
    cn_config cfg;      /* type, mode, seed, frequency, fractal fields, amplitude, bias; the
                           dims, period, offset, axis_frequency and rotation fields are filled
                           from the lists below by cli_noise_build() */
    double weight;      /* weight in the sum, finite (default 1) */
    int n_period, n_offset, n_axis_frequency, n_rotate; /* 0 = not given */
    uint32_t period[4];
    double offset[4];
    double axis_frequency[4];
    double rotate[16];  /* 1 number: 2D angle in degrees; 4: 3D axis and angle; 16: 4D matrix */
} cli_spec;

/* --warp-fractal: how the warp's octaves combine. */
enum { CLI_WARP_NONE = 0, CLI_WARP_INDEPENDENT, CLI_WARP_PROGRESSIVE };
#define CLI_MAX_WARP_OCTAVES 16 /* CN_MAX_WARP_STAGES: a progressive warp is a stage per octave */

/*
 * The domain warp (--warp and the --warp-* options): every layer is sampled at p + d(p), d made
 * of one field per axis (cn_warp_* in cnoise.h). Fields are warp-noise noise at warp-frequency,
 * axis k's seed warp-seed + k (stage i of a progressive warp: + 16 i). none: one stage;
 * independent: one stage of fBm fields (warp-octaves, -lacunarity, -gain); progressive: one stage
 * per octave, stage i at frequency * lacunarity^i with amplitude * gain^i, each at the point the
 * stages before it displaced.
 */
typedef struct cli_warp_opts {
    double amplitude;     /* --warp A: the largest displacement per stage, in pixels; 0: no warp */
    cn_noise_type type;   /* --warp-noise (default perlin: it tiles wherever the main noise does) */
    double frequency;     /* --warp-frequency (0: the main --frequency) */
    uint64_t seed;        /* --warp-seed, when seed_set (default: the main seed + 1) */
    int seed_set;
    int fractal;          /* --warp-fractal, CLI_WARP_* */
    int octaves;          /* --warp-octaves, 1..CLI_MAX_WARP_OCTAVES (default 3) */
    double lacunarity;    /* --warp-lacunarity, [1, 64] (default 2) */
    double gain;          /* --warp-gain, (0, 4] (default 0.5) */
    uint32_t period[4];   /* set by --tile (cli_tile_warp) and --loop: the fields' periods at the warp frequency */
} cli_warp_opts;

typedef struct cli_noise_opts {
    cli_spec spec[CLI_MAX_LAYERS]; /* [0]: the main options; [k]: the k-th --layer */
    cli_warp_opts warp;
    int nspec;                     /* 1 + the number of --layer options (cli_noise_finish) */
    const char *layer_text[CLI_MAX_LAYERS - 1];
    int nlayer_text;
    int dims;                      /* only meaningful when dims_set (render sets it itself) */
    int dims_set;
    int use_float;                 /* --precision float */
} cli_noise_opts;

/* The table entries of the shared noise options and of --help. */
#define CLI_NOISE_OPTIONS                                       \
    CLI_SHARED("noise", 0, 1, CLI_OPT_NOISE),                   \
    CLI_SHARED("seed", 0, 1, CLI_OPT_SEED),                     \
    CLI_SHARED("classic", 0, 0, CLI_OPT_CLASSIC),               \
    CLI_SHARED("precision", 0, 1, CLI_OPT_PRECISION),           \
    CLI_SHARED("frequency", 0, 1, CLI_OPT_FREQUENCY),           \
    CLI_SHARED("dims", 0, 1, CLI_OPT_DIMS),                     \
    CLI_SHARED("fractal", 0, 1, CLI_OPT_FRACTAL),               \
    CLI_SHARED("octaves", 0, 1, CLI_OPT_OCTAVES),               \
    CLI_SHARED("lacunarity", 0, 1, CLI_OPT_LACUNARITY),         \
    CLI_SHARED("gain", 0, 1, CLI_OPT_GAIN),                     \
    CLI_SHARED("ridge-offset", 0, 1, CLI_OPT_RIDGE_OFFSET),     \
    CLI_SHARED("ridge-gain", 0, 1, CLI_OPT_RIDGE_GAIN),         \
    CLI_SHARED("weighted-strength", 0, 1, CLI_OPT_WEIGHTED_STRENGTH), \
    CLI_SHARED("pingpong-strength", 0, 1, CLI_OPT_PINGPONG_STRENGTH), \
    CLI_SHARED("period", 0, 1, CLI_OPT_PERIOD),                 \
    CLI_SHARED("offset", 0, 1, CLI_OPT_OFFSET),                 \
    CLI_SHARED("axis-frequency", 0, 1, CLI_OPT_AXIS_FREQUENCY), \
    CLI_SHARED("rotate", 0, 1, CLI_OPT_ROTATE),                 \
    CLI_SHARED("amplitude", 0, 1, CLI_OPT_AMPLITUDE),           \
    CLI_SHARED("bias", 0, 1, CLI_OPT_BIAS),                     \
    CLI_SHARED("weight", 0, 1, CLI_OPT_WEIGHT),                 \
    CLI_SHARED("cellular-distance", 0, 1, CLI_OPT_CELLULAR_DISTANCE), \
    CLI_SHARED("cellular-return", 0, 1, CLI_OPT_CELLULAR_RETURN), \
    CLI_SHARED("jitter", 0, 1, CLI_OPT_JITTER),                 \
    CLI_SHARED("minkowski-p", 0, 1, CLI_OPT_MINKOWSKI_P),       \
    CLI_SHARED("layer", 0, 1, CLI_OPT_LAYER),                   \
    CLI_SHARED("warp", 0, 1, CLI_OPT_WARP),                     \
    CLI_SHARED("warp-noise", 0, 1, CLI_OPT_WARP_NOISE),         \
    CLI_SHARED("warp-frequency", 0, 1, CLI_OPT_WARP_FREQUENCY), \
    CLI_SHARED("warp-seed", 0, 1, CLI_OPT_WARP_SEED),           \
    CLI_SHARED("warp-fractal", 0, 1, CLI_OPT_WARP_FRACTAL),     \
    CLI_SHARED("warp-octaves", 0, 1, CLI_OPT_WARP_OCTAVES),     \
    CLI_SHARED("warp-lacunarity", 0, 1, CLI_OPT_WARP_LACUNARITY), \
    CLI_SHARED("warp-gain", 0, 1, CLI_OPT_WARP_GAIN),           \
    CLI_SHARED("help", 'h', 0, CLI_OPT_HELP)

/*
 * A slice coordinate (--z, --w) given as text (NULL: not given, nothing to do): allowed only
 * when ok (the dimension has that axis), else "<prog>: <opt> needs <need>"; then a finite number
 * as double into *d and, with use_float (--precision float), rounded once from the text to float
 * into *f. Returns 0, or -1 after printing the reason.
 */
int cli_opt_slice(const char *prog, const char *opt, const char *text, int ok, const char *need, int use_float,
                  double *d, float *f);

/* Largest |X| of --origin: 2^48 pixels, so that every pixel centre X + i + 0.5 of an image (each
 * side at most 2^20) stays an exact double. */
#define CLI_MAX_ORIGIN 281474976710656.0

/*
 * --origin X,Y[,Z] given as text (NULL: not given, out untouched): exactly n whole numbers
 * (decimal, an optional '-'), separated by commas, each with |v| <= CLI_MAX_ORIGIN, into
 * out[0..n). Returns 0, or -1 after printing the reason.
 */
int cli_opt_origin(const char *prog, const char *opt, const char *text, int n, double *out);

/* Sets the defaults: cn_config_init(), weight 1, no lists, no layers, double precision. */
void cli_noise_init(cli_noise_opts *o);

int cli_noise_option(const char *prog, cli_noise_opts *o, int id, const char *value);

/*
 * After the option loop: parses every --layer (each starts as a copy of the main options, so
 * their place on the command line does not matter) and checks everything that does not depend
 * on the dimension (a rotation with a period, a period with a fractional lacunarity, value
 * noise in classic mode, ...). Returns 0, or -1 after printing the reason (a usage error).
 */
int cli_noise_finish(const char *prog, cli_noise_opts *o);

/* Built generators of every layer, ready to evaluate. */
typedef struct cli_built {
    int count;
    int dims;
    int use_float;
    int direct;        /* one layer of weight 1: its value is printed unchanged */
    cn_noise *gen;     /* count generators, on the heap */
    cn_layer layer[CLI_MAX_LAYERS];
    cn_opencl *cl;     /* --device: the OpenCL context grids are evaluated on, or NULL (the CPU);
                          field.h, cli_device_open; closed by cli_built_free */
    cn_warp warp[CLI_MAX_WARP_OCTAVES]; /* --warp: the stages every layer is warped by */
    size_t nwarps;     /* 0: no warp */
    cn_noise *wgen;    /* the stages' fields, nwarps * dims generators on the heap */
} cli_built;

/*
 * Builds every layer for `dims` dimensions: checks each list against dims, fills the domain
 * fields, converts --rotate, and lets the library check the result. On failure writes the
 * reason, naming the option (and --layer N), into why and returns -1; out is then empty.
 */
int cli_noise_build(const cli_noise_opts *o, int dims, cli_built *out, char *why, size_t whylen);
void cli_built_free(cli_built *b);

/*
 * The value of the sum at p (dims coordinates; pf in float precision): sum of weight * value.
 * Float precision evaluates each layer with cn_evalf, sums in double and rounds the sum to
 * float once. One layer of weight 1 gives its value exactly as cn_eval/cn_evalf do. With a warp
 * (b->nwarps): cn_warp_eval's (cn_warp_evalf's) value, or for layers cn_warp_layers_eval's
 * (cn_warp_layers_evalf's), which sums each layer's warped value the same way.
 */
double cli_built_eval(const cli_built *b, const double *pd, const float *pf);

/* The same with the gradient: *v the value cli_built_eval gives, grad[0..dims) the derivatives
 * (one layer of weight 1: cn_eval_grad's; a sum: cn_layers_eval_grad's). Returns the library's
 * status (CN_E_UNSUPPORTED for a type without a gradient). */
cn_status cli_built_eval_grad(const cli_built *b, const double *pd, const float *pf, double *v, double *grad);

/*
 * Prints a --help text to stdout with the library's names (cn_noise_type_name, cn_fractal_name)
 * where the text holds CLI_HELP_NOISE or CLI_HELP_FRACTAL, as "perlin (default), simplex or
 * value": the lists of --noise and --fractal come from the library, not from the help texts.
 */
#define CLI_HELP_NOISE "@NOISE-NAMES@"
#define CLI_HELP_FRACTAL "@FRACTAL-NAMES@"
#define CLI_HELP_CELL_DISTANCE "@CELL-DISTANCE-NAMES@"
#define CLI_HELP_CELL_RETURN "@CELL-RETURN-NAMES@"
void cli_help(const char *text);

/* Text for --help describing the shared fractal, domain, signal and layer options. */
#define CLI_SHAPE_HELP                                                                               \
    "Fractal sums (octave i samples at lacunarity^i times the frequency with amplitude gain^i):\n"   \
    "  --fractal NAME     " CLI_HELP_FRACTAL ";\n"                                                 \
    "                     values in [-1, 1] for none, fbm, billow and pingpong, in [0, 1] for\n"   \
    "                     turbulence and ridged\n"                                                  \
    "  --octaves N        whole number 1..32 (default 5)\n"                                          \
    "  --lacunarity L     finite number in [1, 64] (default 2); a whole number with --period\n"      \
    "  --gain G           finite number in (0, 4] (default 0.5)\n"                                   \
    "  --ridge-offset O   finite number in [0, 2] (default 1), ridged only\n"                        \
    "  --ridge-gain G     finite number in [0, 16] (default 2), ridged only\n"                       \
    "  --weighted-strength W  finite number in [0, 1] (default 0), every fractal: each octave's\n"  \
    "                     amplitude falls where earlier octaves were low (FastNoiseLite's\n"       \
    "                     weighted strength: times 1 + W (v - 1), v an earlier octave's value\n"   \
    "                     in [0, 1])\n"                                                             \
    "  --pingpong-strength S  finite number in (0, 16] (default 2), pingpong only: each octave\n"  \
    "                     is (n + 1) S folded back and forth into [0, 1]\n"                        \
    "\n"                                                                                             \
    "Cellular noise (--noise cellular, 2D-4D: distances to one random feature point per cell):\n"   \
    "  --cellular-distance NAME  " CLI_HELP_CELL_DISTANCE "\n"                                      \
    "  --cellular-return NAME    " CLI_HELP_CELL_RETURN ":\n"                                       \
    "                     the nearest (f1) or second-nearest (f2) distance, their difference,\n"   \
    "                     sum or product, each mapped into [-1, 1] by its bound, the\n"             \
    "                     nearest cell's own random value, or (euclidean only) the distance\n"     \
    "                     to the nearest edge between cells (quote f1*f2 in a shell)\n"          \
    "  --jitter J         finite number in [0, 1] (default 1): how far a feature point may\n"       \
    "                     stray from its cell's centre (0: a regular grid, 1: anywhere in it)\n"   \
    "  --minkowski-p P    finite number in [1, 32] (default 1.5), --cellular-distance minkowski\n"  \
    "                     only: the exponent of (sum |d|^P)^(1/P) (1: manhattan, 2: euclidean)\n"  \
    "\n"                                                                                             \
    "Domain: the library maps a point p to q = R (p * frequency * axis-frequency) + offset.\n"       \
    "Per-axis lists give one number per axis x,y,z,w, separated by commas without spaces;\n"        \
    "fewer numbers than dimensions leave the other axes at the default, more is an error.\n"        \
    "  --axis-frequency F[,F...]  finite numbers > 0 (default 1), times --frequency\n"               \
    "  --offset X[,Y...]  finite numbers (default 0): a translation in lattice cells\n"              \
    "  --rotate R         2D: one number, an angle in degrees (R turns p counter-clockwise);\n"     \
    "                     3D: four numbers 'ax,ay,az,deg': deg degrees about the axis\n"             \
    "                     (ax,ay,az) (right-hand rule; the axis must not be 0,0,0);\n"               \
    "                     4D: sixteen numbers, a row-major 4x4 matrix (any finite linear map);\n"    \
    "                     1D noise has no rotation. Cannot be combined with --period\n"              \
    "  --period P[,P...]  whole numbers 0..16777216 (2^24), default 0 (not periodic): the noise\n"   \
    "                     repeats after P lattice cells along that axis, i.e. after\n"               \
    "                     P / (frequency * axis-frequency) input units. Simplex periods must be\n"   \
    "                     even in 2D, multiples of 3 in 3D and multiples of 4 in 4D; a fractal\n"    \
    "                     of more than one octave needs a whole-number --lacunarity\n"               \
    "\n"                                                                                             \
    "Signal and sums (superposition):\n"                                                             \
    "  --amplitude A      finite number (default 1)\n"                                               \
    "  --bias B           finite number (default 0): a layer's value is A * noise + B\n"             \
    "  --weight W         finite number (default 1): the weight of the main layer\n"                 \
    "  --layer SPEC       adds a layer; the output is the sum of weight * value over the main\n"     \
    "                     layer (the options above) and every --layer, 16 layers at most (15\n"      \
    "                     --layer options). A layer starts as a copy of the main options,\n"         \
    "                     wherever they stand on the command line, and applies SPEC: key=value\n"    \
    "                     pairs separated by ';' and/or spaces, list values with commas, e.g.\n"     \
    "                       --layer 'frequency=4; amplitude=0.5; offset=10.5,3; weight=0.25'\n"      \
    "                     Keys (the option names without dashes, same values): noise, seed,\n"       \
    "                     classic (0 or 1), frequency, axis-frequency, fractal, octaves,\n"          \
    "                     lacunarity, gain, ridge-offset, ridge-gain, weighted-strength,\n"         \
    "                     pingpong-strength, period, offset, rotate, amplitude, bias, weight,\n"    \
    "                     cellular-distance, cellular-return, jitter, minkowski-p.\n"               \
    "                     --dims and --precision apply to all layers.\n"    \
    "                     Messages name a layer as '--layer N', counting --layer options from 1\n" \
    "\n"                                                                                             \
    "Domain warp (every layer sampled at p + d(p), d made of other noise, one field per axis):\n"  \
    "  --warp A           finite number (default 0: no warp): the largest displacement, in pixels\n" \
    "                     (input units), of each stage\n"                                          \
    "  --warp-noise NAME  the fields' noise: " CLI_HELP_NOISE "\n"                          \
    "  --warp-frequency F finite number > 0 (default: --frequency): the fields' frequency\n"        \
    "  --warp-seed S      the seed of the field along x (default: --seed + 1); y, z, w take S + 1,\n" \
    "                     S + 2, S + 3\n"                                                           \
    "  --warp-fractal M   none (default: one warp), independent (one warp by fBm fields of\n"       \
    "                     --warp-octaves) or progressive (one warp per octave, octave i at\n"       \
    "                     frequency * lacunarity^i and amplitude A * gain^i, each warping the\n"    \
    "                     point the ones before it moved)\n"                                         \
    "  --warp-octaves N   whole number 1..16 (default 3)\n"                                          \
    "  --warp-lacunarity L  finite number in [1, 64] (default 2); a whole number with --tile\n"     \
    "  --warp-gain G      finite number in (0, 4] (default 0.5)\n"                                   \
    "                     With --tile the fields tile too (their period is set from the image\n"    \
    "                     size and --warp-frequency, which must give whole cells)\n"



/* Shortest "%.Ng" text (N = 1..17) that reads back as exactly v, into buf (whole numbers below
 * 2^53 in plain digits, "90" rather than "9e+01"); returns buf. */
const char *cli_fmt_real(double v, char *buf, size_t n);

/*
 * Check-only mode, for the fuzz targets (fuzz/): when nonzero, each command parses and checks
 * all its options exactly as usual (messages and exit codes included) and builds its generators,
 * then returns CLI_EXIT_OK instead of reading input or creating any file. The cnoise program
 * itself never sets it.
 */
extern int cli_check_only;

/* "cnoise sample" after its options: reads data lines from in, prints values to out (see
 * "cnoise sample --help"); returns an exit code. Errors go to stderr. */
int cli_sample_stream(const cli_noise_opts *o, int gradient, FILE *in, FILE *out);

/* The commands: argv[0] is the command name; they return an exit code. */
int cli_cmd_sample(int argc, char **argv);
int cli_cmd_render(int argc, char **argv);
int cli_cmd_volume(int argc, char **argv);
int cli_cmd_animate(int argc, char **argv);
int cli_cmd_flow(int argc, char **argv);
int cli_cmd_map(int argc, char **argv);
int cli_cmd_info(int argc, char **argv);

#endif /* CNOISE_CLI_ARGS_H */
