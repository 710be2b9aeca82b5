/*
 * page.c -- the preview page's renderer, compiled to WebAssembly with the library, the tool's
 * option parsers, slices and noise set-up (cli/args.c), its field and tiling (cli/field.c) and
 * its pixels (cli/colour.c, ramp.c, shade.c): it takes the options of a "cnoise render" command
 * line and draws the image that command writes, pixel for pixel (scripts/test-wasm.sh compares
 * the two).
 *
 * The options it takes are render's that change the picture: every shared noise option
 * (--noise ... --layer, --warp ...), --size, --origin, --z, --w, --tile, --format png|rgb|normal,
 * --ramp, --shade, --light-azimuth, --light-elevation, --relief, --normal-strength and --normalize
 * range|minmax. Any other option is
 * refused with a message, as are the combinations render refuses (--ramp without rgb, the light
 * options without --shade, --shade with normal, --normal-strength without it). Messages go to stderr as "cnoise render: ...", which the page shows.
 *
 * The result stays in this module until the next call: cnw_rgba() (width x height RGBA, rows top
 * to bottom), cnw_values() (the noise values as floats, for the cursor), cnw_histogram() (256
 * counts of the gray level round(t * 255) of every pixel) and cnw_stat().
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cnoise.h"
#include "colour.h"
#include "field.h"
#include "options.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define CNW_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define CNW_EXPORT
#endif

static const char *const prog = "cnoise render";

/* render's defaults (cli/cmd_render.c) */
#define DEFAULT_FREQUENCY 0.015625
#define DEFAULT_SIZE 512u
#define DEFAULT_RAMP "terrain"
#define DEFAULT_RELIEF 0.5
#define DEFAULT_STRENGTH 0.5
#define MAX_SIDE 4096u /* the page draws at most 4096 x 4096 pixels */

static uint8_t *rgba;
static float *values;
static uint32_t width, height;
static uint32_t histogram[256];
static double stats[6]; /* min, max, range low, range high, clipped samples, pixels */

enum { P_SIZE = 1, P_ORIGIN, P_Z, P_W, P_TILE, P_FORMAT, P_RAMP, P_SHADE, P_AZIMUTH, P_ELEVATION, P_RELIEF, P_NORMALIZE, P_STRENGTH };
static const cli_option noise_opts[] = {CLI_NOISE_OPTIONS, CLI_OPTIONS_END};
static const struct {
    const char *name;
    int id, has_value;
} page_opts[] = {
    {"size", P_SIZE, 1},       {"origin", P_ORIGIN, 1},
    {"z", P_Z, 1},
    {"w", P_W, 1},             {"tile", P_TILE, 0},
    {"format", P_FORMAT, 1},   {"ramp", P_RAMP, 1},
    {"shade", P_SHADE, 0},     {"light-azimuth", P_AZIMUTH, 1},
    {"light-elevation", P_ELEVATION, 1}, {"relief", P_RELIEF, 1},
    {"normalize", P_NORMALIZE, 1}, {"normal-strength", P_STRENGTH, 1},
};
#define N_PAGE_OPTS (sizeof page_opts / sizeof page_opts[0])

typedef struct page_args {
    uint32_t w, h;
    const char *origin_text, *z_text, *w_text, *format, *ramp, *norm;
    int tile, shade, azimuth_set, elevation_set, relief_set, strength_set;
    double azimuth, elevation, relief, strength;
} page_args;

/* A page option's value into a. 0, or -1 after printing. */
static int page_option(page_args *a, int id, const char *opt, const char *v)
{
    switch (id) {
    case P_SIZE: return cli_opt_size(prog, opt, v, &a->w, &a->h);
    case P_ORIGIN: a->origin_text = v; return 0;
    case P_Z: a->z_text = v; return 0;
    case P_W: a->w_text = v; return 0;
    case P_TILE: a->tile = 1; return 0;
    case P_FORMAT: a->format = v; return 0;
    case P_RAMP: a->ramp = v; return 0;
    case P_SHADE: a->shade = 1; return 0;
    case P_AZIMUTH: a->azimuth_set = 1; return cli_opt_finite(prog, opt, v, &a->azimuth);
    case P_ELEVATION:
        a->elevation_set = 1;
        return cli_opt_interval(prog, opt, v, 0.0, 1, 90.0, &a->elevation);
    case P_RELIEF: a->relief_set = 1; return cli_opt_positive(prog, opt, v, &a->relief);
    case P_NORMALIZE: a->norm = v; return 0;
    case P_STRENGTH: a->strength_set = 1; return cli_opt_positive(prog, opt, v, &a->strength);
    default: return -1;
    }
}

/* Renders the command line argv[0..argc) (options only, no command name). 0, or -1 after printing
 * the reason on stderr. */
CNW_EXPORT int cnw_render(int argc, char **argv)
{
    page_args a = {.w = DEFAULT_SIZE, .h = DEFAULT_SIZE, .azimuth = CLI_LIGHT_AZIMUTH,
                   .elevation = CLI_LIGHT_ELEVATION, .relief = DEFAULT_RELIEF, .strength = DEFAULT_STRENGTH};
    cli_noise_opts o;
    cli_noise_init(&o);
    o.spec[0].cfg.frequency = DEFAULT_FREQUENCY;
    o.dims = 2;
    o.dims_set = 1;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0) {
            cli_error(prog, "the preview takes options only, not '%s'", arg);
            return -1;
        }
        char name[64];
        const char *eq = strchr(arg + 2, '=');
        size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
        if (len >= sizeof name) {
            cli_error(prog, "unknown option '%.40s...'", arg);
            return -1;
        }
        memcpy(name, arg + 2, len);
        name[len] = '\0';
        int noise_id = 0, page_id = 0, has_value = 0;
        for (const cli_option *e = noise_opts; e->name; e++)
            if (strcmp(e->name, name) == 0 && e->id != CLI_OPT_HELP) {
                noise_id = e->id;
                has_value = e->has_value;
            }
        for (size_t k = 0; k < N_PAGE_OPTS; k++)
            if (strcmp(page_opts[k].name, name) == 0) {
                page_id = page_opts[k].id;
                has_value = page_opts[k].has_value;
            }
        if (!noise_id && !page_id) {
            cli_error(prog, "--%s: not an option the preview takes (it draws what render's png, rgb and normal "
                            "formats show)", name);
            return -1;
        }
        const char *value = NULL;
        if (has_value) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else {
                cli_error(prog, "--%s needs a value", name);
                return -1;
            }
        } else if (eq) {
            cli_error(prog, "--%s takes no value", name);
            return -1;
        }
        char opt[72];
        snprintf(opt, sizeof opt, "--%s", name);
        if (noise_id ? cli_noise_option(prog, &o, noise_id, value) != 0 : page_option(&a, page_id, opt, value) != 0)
            return -1;
    }
    const int rgb = a.format ? strcmp(a.format, "rgb") == 0 : a.ramp != NULL;
    const int normal = a.format && strcmp(a.format, "normal") == 0;
    if (a.format && !rgb && !normal && strcmp(a.format, "png") != 0) {
        cli_error(prog, "--format: the preview draws png, rgb or normal, not '%s'", a.format);
        return -1;
    }
    if (a.ramp && !rgb) {
        cli_error(prog, "--ramp colours an rgb image; the format here is %s (give --format rgb)",
                  normal ? "normal" : "png");
        return -1;
    }
    if (a.shade && normal) {
        cli_error(prog, "--shade makes a png (the shade alone) or an rgb image (shaded colours), not normal");
        return -1;
    }
    if (a.strength_set && !normal) {
        cli_error(prog, "--normal-strength needs --format normal or slope (the format here is %s)", rgb ? "rgb" : "png");
        return -1;
    }
    if (!a.shade && (a.azimuth_set || a.elevation_set || a.relief_set)) {
        cli_error(prog, "%s needs --shade",
                  a.azimuth_set ? "--light-azimuth" : a.elevation_set ? "--light-elevation" : "--relief");
        return -1;
    }
    cli_colour col = {.rgb = rgb, .shade = a.shade};
    if (a.norm && strcmp(a.norm, "minmax") == 0)
        col.minmax = 1;
    else if (a.norm && strcmp(a.norm, "range") != 0) {
        cli_error(prog, "--normalize: the preview takes range or minmax, not '%s'", a.norm);
        return -1;
    }
    char why[256];
    if (rgb && cli_ramp_parse(a.ramp ? a.ramp : DEFAULT_RAMP, &col.ramp, why, sizeof why) != 0) {
        cli_error(prog, "--ramp: %s", why);
        return -1;
    }
    if (a.shade)
        cli_light_init(&col.light, a.azimuth, a.elevation); /* both checked by their parsers */
    if (a.w > MAX_SIDE || a.h > MAX_SIDE) {
        cli_error(prog, "--size: the preview draws at most %ux%u pixels", MAX_SIDE, MAX_SIDE);
        return -1;
    }
    const int dims = o.dims;
    double z = 0, w = 0, origin[2] = {0, 0};
    float zf = 0, wf = 0;
    char zneed[64], wneed[64];
    snprintf(zneed, sizeof zneed, "--dims 3 or 4 (the slice is %dD)", dims);
    snprintf(wneed, sizeof wneed, "--dims 4 (the slice is %dD)", dims);
    if (cli_opt_slice(prog, "--z", a.z_text, dims >= 3, zneed, o.use_float, &z, &zf) != 0 ||
        cli_opt_slice(prog, "--w", a.w_text, dims >= 4, wneed, o.use_float, &w, &wf) != 0 ||
        cli_opt_origin(prog, "--origin", a.origin_text, 2, origin) != 0)
        return -1;
    if (cli_noise_finish(prog, &o) != 0)
        return -1;
    if (a.tile && cli_tile_image(prog, &o, dims, a.w, a.h) != 0)
        return -1;
    /* The largest coordinates (the halo included) times the frequency must stay finite. */
    const double maxp[4] = {fabs(origin[0]) + (double)a.w + 1.5, fabs(origin[1]) + (double)a.h + 1.5, fabs(z), fabs(w)};
    cli_built b;
    if (cli_noise_build_for(prog, &o, dims, maxp, &b) != 0)
        return -1;
    int rc = -1;
    const size_t halo = a.shade || normal ? 1 : 0, ncols = a.w + 2 * halo, nrows = a.h + 2 * halo;
    const double first = halo ? -0.5 : 0.5; /* the centre of the first evaluated pixel */
    double *vals = malloc(ncols * nrows * sizeof *vals);
    uint8_t *pix = malloc((size_t)a.w * a.h * 4);
    float *fv = malloc((size_t)a.w * a.h * sizeof *fv);
    uint8_t *line = malloc((size_t)a.w * 3);
    cli_field f;
    cli_field_init(&f, &b, 1, z, w, zf, wf);
    char err[256];
    size_t ci, ri;
    if (!vals || !pix || !fv || !line) {
        cli_error(prog, "out of memory");
    } else if (cli_field_eval(&f, origin[0] + first, origin[1] + first, ncols, nrows, vals, err, sizeof err) != 0) {
        cli_error(prog, "%s", err);
    } else if (cli_find_nan(vals, ncols, nrows, &ci, &ri)) {
        cli_error(prog, "the noise is NaN at pixel (%ld, %ld): coordinates times --frequency overflow",
                  (long)ci - (long)halo, (long)ri - (long)halo);
    } else if (!col.minmax && cli_field_range(&b, &col.mid, &col.half) != 0) {
        cli_error(prog, "--amplitude, --bias, --weight: the range of values is too large to map to gray levels");
    } else {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t r = 0; r < a.h; r++)
            for (size_t i = 0; i < a.w; i++) {
                const double v = vals[(r + halo) * ncols + i + halo];
                fv[r * a.w + i] = (float)v;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        col.lo = lo;
        col.span = hi - lo;
        col.k = (normal ? a.strength : a.relief) / o.spec[0].cfg.frequency;
        memset(histogram, 0, sizeof histogram);
        cli_colour gray = col; /* the histogram's t, without counting clipped samples twice */
        for (uint32_t r = 0; r < a.h; r++) {
            if (normal)
                cli_normal_row(&col, vals, ncols, r, a.w, line);
            else
                cli_colour_row(&col, vals, ncols, r, a.w, line);
            uint8_t *o4 = pix + (size_t)r * a.w * 4;
            for (uint32_t i = 0; i < a.w; i++) {
                for (int ch = 0; ch < 3; ch++)
                    o4[4 * i + ch] = line[rgb || normal ? 3 * i + ch : i];
                o4[4 * i + 3] = 255;
                histogram[cli_ramp_byte(cli_colour_clamp_t(&gray, vals[(r + halo) * ncols + i + halo]) * 255.0)]++;
            }
        }
        free(rgba);
        free(values);
        rgba = pix;
        values = fv;
        pix = NULL;
        fv = NULL;
        width = a.w;
        height = a.h;
        stats[0] = lo;
        stats[1] = hi;
        stats[2] = col.minmax ? lo : col.mid - col.half;
        stats[3] = col.minmax ? hi : col.mid + col.half;
        stats[4] = (double)col.clipped;
        stats[5] = (double)a.w * a.h;
        rc = 0;
    }
    cli_field_free(&f);
    cli_built_free(&b);
    free(vals);
    free(pix);
    free(fv);
    free(line);
    return rc;
}

CNW_EXPORT uint8_t *cnw_rgba(void) { return rgba; }
CNW_EXPORT float *cnw_values(void) { return values; }
CNW_EXPORT uint32_t cnw_width(void) { return width; }
CNW_EXPORT uint32_t cnw_height(void) { return height; }
CNW_EXPORT uint32_t *cnw_histogram(void) { return histogram; }
/* 0 smallest value, 1 largest, 2 and 3 the range mapped to [0, 1], 4 clipped samples, 5 pixels. */
CNW_EXPORT double cnw_stat(int i) { return i >= 0 && i < 6 ? stats[i] : NAN; }
/* The instruction set the grids ran on ("simd128" or "scalar"). */
CNW_EXPORT const char *cnw_isa(void) { return cn_isa_name(cn_isa_active()); }
