/*
 * options.c -- the scanner and the table-driven option parsing of every command (options.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cn_image.h"
#include "recipe.h"

/* --- the scanner --------------------------------------------------------------------------------- */

typedef struct scanner {
    const char *prog; /* "cnoise sample", for messages */
    int argc;
    char **argv;
    int index;        /* next argv element to look at; starts at 1 (argv[0] is the command) */
    int no_more;      /* "--" seen */
} scanner;

#define END 1    /* no more options */
#define ERROR -1 /* an error was printed */

/*
 * The next option: 0 with *hit its entry and *value its value (NULL for a flag), END, or ERROR
 * after printing the reason (unknown option, missing value, value given to a flag, stray
 * argument). opts ends with an entry whose name is NULL.
 */
static int next(scanner *a, const cli_option *opts, const char **value, const cli_option **hit)
{
    char q[128];
    *value = NULL;
    if (a->index >= a->argc)
        return END;
    const char *arg = a->argv[a->index++];

    if (a->no_more || arg[0] != '-' || arg[1] == '\0') {
        cli_error(a->prog, "unexpected argument %s (see '%s --help')", cli_quote(arg, q, sizeof q), a->prog);
        return ERROR;
    }
    if (arg[1] == '-' && arg[2] == '\0') {
        a->no_more = 1;
        return next(a, opts, value, hit);
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
            return ERROR;
        }
        if (eq) {
            if (!o->has_value) {
                cli_error(a->prog, "--%s takes no value", o->name);
                return ERROR;
            }
            inline_value = eq + 1;
        }
    } else {
        for (const cli_option *p = opts; p->name; p++)
            if (p->short_name && p->short_name == arg[1])
                o = p;
        if (!o || (arg[2] != '\0' && !o->has_value)) {
            cli_error(a->prog, "unknown option %s (see '%s --help')", cli_quote(arg, q, sizeof q), a->prog);
            return ERROR;
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
            return ERROR;
        }
    }
    *hit = o;
    return 0;
}

/* --- the table ----------------------------------------------------------------------------------- */

/* The value of entry o into its target t; opt is "--name" for messages. 0, or -1 after printing. */
static int take(cli_parse *p, const cli_option *o, const char *opt, const char *value)
{
    if (o->kind == CLI_KIND_ID && o->id == CLI_OPT_RECIPE)
        return 0; /* read before the other options (cli_parse_args) */
    if (o->kind == CLI_KIND_ID && o->id == CLI_OPT_SAVE_RECIPE) {
        if (!value[0]) {
            cli_error(p->prog, "%s: the file name is empty", opt);
            return -1;
        }
#if !CN_CLI_WITH_RECIPES /* refused before anything is computed or written */
        cli_error(p->prog, "%s: %s", opt, CLI_NO_RECIPES);
        return -1;
#endif
        p->save_recipe = value;
        return 0;
    }
    if (o->kind == CLI_KIND_ID) {
        /* a shared option: output, then noise */
        const int r = cli_output_option(p->prog, &p->out, o->id, value);
        return r < 0 || (r > 0 && cli_noise_option(p->prog, &p->noise, o->id, value) != 0) ? -1 : 0;
    }
    if (o->kind == CLI_KIND_CALL)
        return o->call(p, value);
    void *t = (char *)p->args + o->at;
    switch (o->kind) {
    case CLI_KIND_FLAG:
        *(int *)t = 1;
        return 0;
    case CLI_KIND_FILE:
        if (!value[0]) {
            cli_error(p->prog, "%s: the file name is empty", opt);
            return -1;
        }
        *(const char **)t = value;
        return 0;
    case CLI_KIND_TEXT:
        *(const char **)t = value;
        return 0;
    case CLI_KIND_SIZE:
        return cli_opt_size(p->prog, opt, value, (uint32_t *)t, (uint32_t *)((char *)p->args + o->at2));
    case CLI_KIND_INT:
        return cli_opt_int(p->prog, opt, value, (int)o->lo, (int)o->hi, (int *)t);
    case CLI_KIND_FINITE:
        return cli_opt_finite(p->prog, opt, value, (double *)t);
    case CLI_KIND_POSITIVE:
        return cli_opt_positive(p->prog, opt, value, (double *)t);
    default: /* CLI_KIND_INTERVAL */
        return cli_opt_interval(p->prog, opt, value, o->lo, o->lo_open, o->hi, (double *)t);
    }
}

/* Options a recipe may not hold: where the result goes and how it is computed. */
static int recipe_allowed(const cli_option *o)
{
    if (o->kind == CLI_KIND_FILE) /* another output (volume --sheet, animate --png) */
        return 0;
    if (o->kind != CLI_KIND_ID)
        return 1;
    switch (o->id) {
    case CLI_OPT_OUTPUT:
    case CLI_OPT_THREADS:
    case CLI_OPT_DEVICE:
    case CLI_OPT_QUIET:
    case CLI_OPT_HELP:
    case CLI_OPT_RECIPE:
    case CLI_OPT_SAVE_RECIPE:
        return 0;
    default:
        return 1;
    }
}

static int is_layer(const cli_option *o) { return o->kind == CLI_KIND_ID && o->id == CLI_OPT_LAYER; }

const char *cli_command_name(const cli_parse *p)
{
    const char *sp = strrchr(p->prog, ' ');
    return sp ? sp + 1 : p->prog;
}

/* Takes the recipe at path: its entries in order, as if given on the command line, with messages
 * that name the file and line. 0, or -1 after printing the reason. */
static int take_recipe(cli_parse *p, const char *path)
{
    char err[1024], q[128];
    cli_recipe r;
    if (cli_recipe_read(path, &r, err, sizeof err) != 0) {
        cli_error(p->prog, "--recipe: %s", err);
        return -1;
    }
    char shown[CLI_SHOWN_SIZE];
    cli_shown(path, shown, sizeof shown);
    const char *command = cli_command_name(p);
    if (r.command && strcmp(r.command, command) != 0) {
        cli_error(p->prog, "--recipe: %s:%d: the recipe is for cnoise %s, not cnoise %s", shown, r.command_line,
                  cli_shown(r.command, q, sizeof q), command);
        return -1;
    }
    const char *prog = p->prog;
    int rc = 0;
    for (int k = 0; rc == 0 && k < r.n; k++) {
        const cli_recipe_entry *e = &r.entry[k];
        if (strcmp(e->key, "cnoise-recipe") == 0 || strcmp(e->key, "command") == 0)
            continue;
        const cli_option *o = NULL;
        for (const cli_option *t = p->opts; t->name && !o; t++)
            if (strcmp(t->name, e->key) == 0)
                o = t;
        if (!o || !recipe_allowed(o)) {
            cli_error(prog, "--recipe: %s:%d: %s %s", shown, e->line, cli_quote(e->key, q, sizeof q),
                      o ? "is not allowed in a recipe (it is the caller's: give it on the command line)"
                        : "is not an option of this command (see --help)");
            rc = -1;
            break;
        }
        if (e->is_list && !is_layer(o)) {
            cli_error(prog, "--recipe: %s:%d: %s takes one value, not a list", shown, e->line, e->key);
            rc = -1;
            break;
        }
        for (int i = 0; rc == 0 && i < e->nvalues; i++) {
            char at[CLI_SHOWN_SIZE + 64], opt[80];
            snprintf(at, sizeof at, "%s: %s:%d", prog, shown, e->lines[i]);
            snprintf(opt, sizeof opt, "--%s", o->name);
            const char *v = e->values[i];
            if (!o->has_value) { /* a flag: true or false */
                if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0) {
                    cli_error(at, "%s: %s is not true or false", e->key, cli_quote(v, q, sizeof q));
                    rc = -1;
                } else if (strcmp(v, "true") == 0) {
                    p->prog = at;
                    rc = take(p, o, opt, NULL);
                    p->prog = prog;
                    p->given[o - p->opts] = 1;
                }
                continue;
            }
            p->prog = at;
            rc = take(p, o, opt, v);
            p->prog = prog;
            p->given[o - p->opts] = 1;
            p->text[o - p->opts] = v;
        }
    }
    return rc;
}

int cli_parse_args(cli_parse *p, int argc, char **argv)
{
    scanner a = {p->prog, argc, argv, 1, 0};
    const cli_option *o;
    const char *value;
    int r;
    size_t n = 0;
    while (p->opts[n].name)
        n++;
    if (n > CLI_MAX_OPTIONS) { /* a command's bug, which any run of that command shows */
        cli_error(p->prog, "internal error: %zu options, more than CLI_MAX_OPTIONS (%d)", n, CLI_MAX_OPTIONS);
        return CLI_EXIT_FAILURE;
    }
    memset(p->given, 0, sizeof p->given);
    memset((void *)p->text, 0, sizeof p->text);
    p->save_recipe = NULL;
    cli_noise_init(&p->noise);
    if (p->frequency > 0)
        p->noise.spec[0].cfg.frequency = p->frequency;
    if (p->dims) {
        p->noise.dims = p->dims;
        p->noise.dims_set = 1;
    }
    if (p->defaults)
        p->defaults(&p->noise);
    p->out.output = p->output;
    p->out.threads = 0;
    p->out.device = CLI_DEVICE_CPU;
    p->out.quiet = 0;

    /* First pass: the syntax of the whole line, --help, and the recipe to read first. */
    const char *recipe = NULL;
    while ((r = next(&a, p->opts, &value, &o)) != END) {
        if (r == ERROR)
            return CLI_EXIT_USAGE;
        if (o->kind == CLI_KIND_ID && o->id == CLI_OPT_HELP) {
            recipe = NULL; /* the second pass shows the help where it comes */
            break;
        }
        if (o->kind == CLI_KIND_ID && o->id == CLI_OPT_RECIPE) {
            if (!value[0]) {
                cli_error(p->prog, "--recipe: the file name is empty");
                return CLI_EXIT_USAGE;
            }
            recipe = value;
        }
    }
    if (recipe && take_recipe(p, recipe) != 0)
        return CLI_EXIT_USAGE;
    const int recipe_layers = p->noise.nlayer_text;

    /* Second pass: the command line's values, over the recipe's. */
    a.index = 1;
    a.no_more = 0;
    int line_layers = 0;
    while ((r = next(&a, p->opts, &value, &o)) != END) {
        if (r == ERROR)
            return CLI_EXIT_USAGE;
        if (o->kind == CLI_KIND_ID && o->id == CLI_OPT_HELP) {
            cli_help(p->help);
            return CLI_EXIT_OK;
        }
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", o->name);
        if (is_layer(o) && !line_layers++ && recipe_layers)
            p->noise.nlayer_text = 0; /* the command line's layers replace the recipe's */
        if (take(p, o, opt, value) != 0)
            return CLI_EXIT_USAGE;
        p->given[o - p->opts] = 1;
        p->text[o - p->opts] = value;
    }
    if (p->save_recipe && p->out.output && strcmp(p->save_recipe, p->out.output) == 0) {
        cli_error(p->prog, "--save-recipe and --output name the same file");
        return CLI_EXIT_USAGE;
    }
    return -1;
}

int cli_given_entries(const cli_parse *p, cli_recipe_entry *e)
{
    int n = 0;
    static const char *const truth = "true";
    for (int k = 0; k < CLI_MAX_OPTIONS && p->opts[k].name; k++) {
        const cli_option *o = &p->opts[k];
        if (!p->given[k] || !recipe_allowed(o))
            continue;
        cli_recipe_entry *x = &e[n++];
        memset(x, 0, sizeof *x);
        x->key = o->name;
        if (is_layer(o)) {
            x->is_list = 1;
            x->nvalues = p->noise.nlayer_text;
            x->values = p->noise.layer_text;
        } else {
            x->nvalues = 1;
            x->values = o->has_value ? &p->text[k] : &truth;
        }
    }
    return n;
}

int cli_save_recipe(const cli_parse *p)
{
    if (!p->save_recipe)
        return CLI_EXIT_OK;
    cli_recipe_entry e[CLI_MAX_OPTIONS];
    const int n = cli_given_entries(p, e);
    char err[1024];
    size_t len = 0;
    char *text = cli_recipe_text(cli_command_name(p), e, n, &len, err, sizeof err);
    if (!text || cn_image_write_bytes(p->save_recipe, text, len, err, sizeof err) != 0) {
        free(text);
        cli_error(p->prog, "--save-recipe: %s", err);
        return CLI_EXIT_FAILURE;
    }
    free(text);
    if (!p->out.quiet) {
        char shown[CLI_SHOWN_SIZE];
        printf("wrote %s (recipe)\n", cli_shown(p->save_recipe, shown, sizeof shown));
    }
    return CLI_EXIT_OK;
}

int cli_given(const cli_parse *p, const char *name)
{
    for (int k = 0; k < CLI_MAX_OPTIONS && p->opts[k].name; k++)
        if (strcmp(p->opts[k].name, name) == 0)
            return p->given[k];
    return 0;
}

