/*
 * recipe.h -- recipe files: a command's options saved as YAML (--save-recipe FILE) and read back
 * (--recipe FILE), and the JSON sidecar that describes a raw output file.
 *
 * A recipe is one YAML mapping whose keys are the command's long option names, e.g.
 *
 *     # cnoise recipe (cnoise 0.5.0): cnoise render --recipe FILE renders it again
 *     cnoise-recipe: 1
 *     command: render
 *     fractal: fbm
 *     octaves: 6
 *     size: 1024x1024
 *     tile: true
 *     layer:
 *       - seed=2; frequency=4; weight=0.5
 *
 * Every value is the option's text exactly as the command line takes it (YAML's own typing is
 * not used: "0x10", "1e-3", "no" and "-1" reach the option parser as those characters, so the
 * same strict parsing and messages apply); a flag is true or false (false: as if not given);
 * "layer", the only option that repeats, takes a list. "cnoise-recipe" (the format, 1) and
 * "command" are optional; when present they must be 1 and the command reading the recipe.
 * Not allowed in a recipe: output and the other output files (volume's sheet, animate's png),
 * threads, quiet, help, recipe and save-recipe: where results go and how they are computed are
 * the caller's, not the recipe's (a recipe from elsewhere can never choose a file to write).
 *
 * Reading is strict: a file that is not a regular file of at most CLI_RECIPE_MAX_BYTES, a YAML
 * syntax error, more than one document, anything but a mapping at the top, a mapping or nested
 * list as a value, aliases, anchors and tags, a key given twice, an unknown key, a list for an
 * option that takes one value, more than CLI_RECIPE_MAX_ITEMS values in a list, and a value with
 * a NUL byte are errors naming the file and line.
 */
#ifndef CNOISE_CLI_RECIPE_H
#define CNOISE_CLI_RECIPE_H

#include <stddef.h>

/* Whether the build has recipes (libyaml) and sidecars (jansson): CMake's CNOISE_WITH_RECIPES
 * and CNOISE_WITH_SIDECARS define these 0 or 1; without the definitions, 1 (a missing library
 * then fails the build rather than a feature vanishing quietly). */
#ifndef CN_CLI_WITH_RECIPES
#define CN_CLI_WITH_RECIPES 1
#endif
#ifndef CN_CLI_WITH_SIDECARS
#define CN_CLI_WITH_SIDECARS 1
#endif

#define CLI_RECIPE_FORMAT "1"
#define CLI_RECIPE_MAX_BYTES (1u << 20)
#define CLI_RECIPE_MAX_ENTRIES 256
#define CLI_RECIPE_MAX_ITEMS 64

/* One key of a recipe and its value(s), as read. */
typedef struct cli_recipe_entry {
    const char *key;
    int line;            /* 1-based line of the key */
    int is_list;         /* the value was a YAML list (possibly of one item) */
    int nvalues;         /* 1 for a single value */
    const char *const *values; /* nvalues texts */
    const int *lines;    /* the line of each value */
} cli_recipe_entry;

typedef struct cli_recipe {
    cli_recipe_entry *entry;
    int n;
    const char *command; /* the "command" key's value, or NULL */
    int command_line;
} cli_recipe;

/*
 * Reads and checks the syntax of the recipe at path into r (keys still unchecked against the
 * command). The strings stay valid until the process exits (freed by an atexit handler).
 * Returns 0, or -1 with "FILE:LINE: reason" (or "FILE: reason") in err.
 */
int cli_recipe_read(const char *path, cli_recipe *r, char *err, size_t errlen);

/*
 * A recipe's text: the comment line, cnoise-recipe, command, then the pairs in order (values[k]
 * of key k; lists for the keys with is_list). Returns a malloc'd NUL-terminated text (length in
 * *len), or NULL with the reason in err (out of memory, a value that is not UTF-8).
 */
char *cli_recipe_text(const char *command, const cli_recipe_entry *e, int n, size_t *len, char *err,
                      size_t errlen);

/*
 * The recipe as a JSON object {"command": ..., "options": {key: value or [values]}} serialised
 * into a sidecar (sidecar_text). Opaque to callers: a jansson json_t *.
 */
typedef struct cli_sidecar_info {
    const char *format;      /* "r16", "f32", ... */
    const char *sample_type; /* "uint16", "float32" */
    unsigned width, height, depth; /* depth 0: a 2D image */
    const char *layout;      /* how the samples are ordered */
    double range[2];         /* what the samples mean: the value range (see encoding) */
    const char *encoding;    /* a sentence: how a sample maps to a value */
    int have_minmax;
    double min, max;         /* the smallest and largest value written, when have_minmax */
} cli_sidecar_info;

/*
 * The JSON text of a raw file's sidecar: the file's description (info) and its configuration
 * (command and options, as in a recipe). Returns a malloc'd text, or NULL (out of memory, a value
 * that is not UTF-8) with the reason in err.
 */
char *cli_sidecar_text(const cli_sidecar_info *info, const char *command, const cli_recipe_entry *e, int n,
                       char *err, size_t errlen);

/* Why a build without libyaml (CMake option CNOISE_WITH_RECIPES off) refuses --recipe and
 * --save-recipe. */
#define CLI_NO_RECIPES "this cnoise was built without recipes (libyaml; CMake option CNOISE_WITH_RECIPES)"

/* Why a build without jansson (CMake option CNOISE_WITH_SIDECARS off) refuses the raw formats:
 * their sidecar is what says the file's size and sample type (cli_sink_sidecar). */
#define CLI_NO_SIDECARS                                                                              \
    "this cnoise was built without JSON sidecars (jansson; CMake option CNOISE_WITH_SIDECARS), which " \
    "the raw formats need (.npy and .pfm carry their size themselves)"

#endif /* CNOISE_CLI_RECIPE_H */
