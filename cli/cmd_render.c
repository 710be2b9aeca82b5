/*
 * cmd_render.c -- "cnoise render": an 8-bit grayscale PNG of a 2D slice of noise.
 *
 * The image is produced and written one row at a time through the streaming PNG writer, so
 * memory use is one row whatever the height.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cn_image.h"
#include "cnoise.h"
#include "guard.h"
#include "progress.h"

static const char *const prog = "cnoise render";

/* Defaults, also quoted in the help text. */
#define DEFAULT_FREQUENCY 0.015625 /* 1/64: one lattice cell every 64 pixels */
#define DEFAULT_SIZE 512u
#define DEFAULT_OUTPUT "noise.png"
#define PROGRESS_MIN_PIXELS 4194304u /* 2^22: about a second of work */

static const char help_text[] =
    "Usage: cnoise render [options]\n"
    "\n"
    "Writes an 8-bit grayscale PNG of a 2D slice of noise.\n"
    "\n"
    "Pixel (i, j), column i = 0..W-1 from the left and row j = 0..H-1 from the top, samples\n"
    "the noise at the pixel centre x = i + 0.5, y = j + 0.5, with z = --z and w = --w in 3D\n"
    "and 4D (all before the library multiplies them by --frequency). 1D noise uses x only,\n"
    "so every row is the same (vertical stripes).\n"
    "\n"
    "Gray levels: a value v becomes round(t * 255) with t = ((v - mid) / half + 1) / 2, where\n"
    "[mid - half, mid + half] is the documented range of the configured noise: [-1, 1] for\n"
    "--fractal none, fbm and billow, [0, 1] for turbulence and ridged, mapped through\n"
    "amplitude * v + bias, and with --layer the sum of each layer's range times its weight.\n"
    "With the defaults that is round((v + 1) / 2 * 255): -1 black, 1 white. Values outside\n"
    "the range (classic mode: Perlin 3D by about 0.04, Perlin 4D by about 0.5) are clamped\n"
    "to 0..255. A range of width 0 (amplitude or weights 0) maps its one value to gray 128\n"
    "(values below it to 0, above it to 255).\n"
    "\n"
    "Options:\n"
    "  --noise NAME       perlin (default), simplex or value\n"
    "  --seed N           whole number 0..18446744073709551615 (default 0)\n"
    "  --classic          classic mode: the published reference code (Perlin's ImprovedNoise,\n"
    "                     Gustavson's simplex); perlin and simplex only\n"
    "  --precision P      double (default) or float: cn_eval or cn_evalf\n"
    "  --frequency F      finite number > 0 (default 0.015625 = 1/64: a lattice cell spans\n"
    "                     64 pixels)\n"
    "  --dims N           1..4 (default 2; simplex: 2..4)\n"
    "  --z Z              third coordinate of the slice, finite, in pixel units (default 0);\n"
    "                     needs --dims 3 or 4\n"
    "  --w W              fourth coordinate, finite, in pixel units (default 0); needs --dims 4\n"
    "  --size WxH         image size (default 512x512): whole numbers, each side 1..65535 and\n"
    "                     W*H at most 268435456 (2^28) pixels, checked before anything is\n"
    "                     allocated\n"
    "  --tile             make the image tile seamlessly: sets the x period of every layer to\n"
    "                     W * frequency * axis-frequency-x cells and the y period to\n"
    "                     H * frequency * axis-frequency-y, which must be whole numbers (within\n"
    "                     1e-9 relative, at most 2^24) and follow the simplex period rule; an\n"
    "                     error suggests a frequency that works. Cannot be combined with\n"
    "                     --rotate, nor with a nonzero x or y entry of --period; the slice axes\n"
    "                     z and w stay non-periodic unless --period sets them (--period 0,0,6)\n"
    "  -o, --output FILE  output file (default noise.png)\n"
    "  -h, --help         show this help\n"
    "\n"
    CLI_SHAPE_HELP
    "\n"
    "Options take their value as '--opt value' or '--opt=value' (and '-o FILE'); the last one\n"
    "given wins (--layer adds one layer each time). Whole numbers are plain decimal digits:\n"
    "no sign, no spaces. Every value is checked before any file is touched.\n"
    "\n"
    "The image goes to a temporary file FILE.tmp.XXXXXX in the same directory, is flushed to\n"
    "disk and only then renamed over FILE, so a failure never leaves a partial FILE and never\n"
    "touches an existing one. The temporary file is removed on failure and on SIGINT (Ctrl-C),\n"
    "SIGTERM, SIGHUP and SIGPIPE; only SIGKILL or a crash can leave it behind.\n"
    "FILE must not be a directory or a special file; a symbolic link named FILE is replaced\n"
    "by the new file. On success prints \"wrote FILE (WxH)\". Shows progress on stderr when\n"
    "it is a terminal and the image has at least 4194304 (2^22) pixels.\n"
    "\n"
    "Exit status:\n"
    "  0  success\n"
    "  1  runtime failure: the file could not be written (missing or unwritable directory,\n"
    "     disk full, ...) or the noise gave NaN\n"
    "  2  usage error: bad option or value, unsupported combination of options\n";

enum { OPT_SIZE = 1, OPT_OUTPUT, OPT_Z, OPT_W, OPT_TILE };

/* --- the picture ------------------------------------------------------------------------- */

typedef struct render_job {
    cli_built gen;
    double mid, half; /* the value range [mid - half, mid + half] that spans black to white */
    int use_float;
    uint32_t width, height;
    double z, w;   /* double precision slice */
    float zf, wf;  /* float precision slice, parsed straight from the text */
} render_job;

/* Gray level of a value; -1 for NaN. With mid 0 and half 1 this is round((v + 1) / 2 * 255). */
static int gray(const render_job *jb, double v)
{
    if (isnan(v))
        return -1;
    double t;
    if (jb->half > 0)
        t = ((v - jb->mid) / jb->half + 1.0) / 2.0;
    else
        t = v < jb->mid ? 0.0 : v > jb->mid ? 1.0 : 0.5;
    t = round(t * 255.0);
    if (t < 0.0)
        t = 0.0;
    if (t > 255.0)
        t = 255.0;
    return (int)t;
}

/* Fills one row; returns -1 (and the column) if the noise gave NaN. */
static int fill_row(const render_job *jb, uint32_t j, uint8_t *row, uint32_t *bad_i)
{
    for (uint32_t i = 0; i < jb->width; i++) {
        float pf[4] = {0, 0, 0, 0};
        double pd[4] = {(double)i + 0.5, (double)j + 0.5, jb->z, jb->w};
        if (jb->use_float) {
            pf[0] = (float)pd[0];
            pf[1] = (float)pd[1];
            pf[2] = jb->zf;
            pf[3] = jb->wf;
        }
        int g = gray(jb, cli_built_eval(&jb->gen, pd, pf));
        if (g < 0) {
            *bad_i = i;
            return -1;
        }
        row[i] = (uint8_t)g;
    }
    return 0;
}

static int render(const render_job *jb, const char *output)
{
    char err[1024];
    uint8_t *row = (uint8_t *)malloc(jb->width);
    if (!row) {
        cli_error(prog, "out of memory");
        return CLI_EXIT_FAILURE;
    }
    /*
     * Hold the signals we catch while the temporary file is created and its name recorded, so
     * that no signal can arrive between the two; one that came in meanwhile is delivered (and
     * removes the file) when they are unblocked.
     */
    cli_guard_block();
    cn_image_png *img;
    if (cn_image_png_begin(&img, output, jb->width, jb->height, err, sizeof err) != 0) {
        cli_guard_unblock();
        free(row);
        cli_error(prog, "%s", err);
        return CLI_EXIT_FAILURE;
    }
    int guard = cli_guard_add(cn_image_png_temp_path(img));
    cli_guard_unblock();

    cli_progress bar;
    cli_progress_begin(&bar, prog, "px", (uint64_t)jb->width * jb->height,
                       (uint64_t)jb->width * jb->height < PROGRESS_MIN_PIXELS);
    int rc = CLI_EXIT_OK;
    int row_valid = 0; /* 1D noise: every row is the same, compute it once */
    for (uint32_t j = 0; j < jb->height; j++) {
        if (!row_valid) {
            uint32_t bad_i = 0;
            if (fill_row(jb, j, row, &bad_i) != 0) {
                snprintf(err, sizeof err,
                         "the noise is NaN at pixel (%lu, %lu): coordinates times --frequency overflow",
                         (unsigned long)bad_i, (unsigned long)j);
                rc = CLI_EXIT_FAILURE;
                break;
            }
            row_valid = jb->gen.dims == 1;
        }
        if (cn_image_png_write_rows(img, row, 1, jb->width, err, sizeof err) != 0) {
            rc = CLI_EXIT_FAILURE;
            break;
        }
        cli_progress_update(&bar, (uint64_t)(j + 1) * jb->width);
    }
    cli_progress_end(&bar);
    free(row);

    if (rc != CLI_EXIT_OK) {
        cn_image_png_abort(img);
        cli_error(prog, "%s", err); /* after the progress line is cleared */
    } else if (cn_image_png_commit(img, err, sizeof err) != 0) {
        cli_error(prog, "%s", err);
        rc = CLI_EXIT_FAILURE;
    }
    cli_guard_remove(guard);
    if (rc == CLI_EXIT_OK)
        printf("wrote %s (%lux%lu)\n", output, (unsigned long)jb->width, (unsigned long)jb->height);
    return rc;
}

static char axis_name_of(int a) { return "xyzw"[a]; }

/* --- --tile ---------------------------------------------------------------------------------- */

#define TILE_TOLERANCE 1e-9 /* relative distance of the cell count from a whole number */

/* A period must be a multiple of this: simplex periods of dims (even in 2D), others any. */
static uint32_t period_step(const cli_spec *s, int dims)
{
    return s->cfg.type == CN_NOISE_SIMPLEX ? (uint32_t)dims : 1u;
}

/* c cells: whole within the tolerance, 1..2^24 and a multiple of step? Then *n is the count. */
static int whole_cells(double c, uint32_t step, uint32_t *n)
{
    double r = round(c);
    if (!(r >= 1.0) || r > (double)CN_MAX_PERIOD || fabs(c - r) > TILE_TOLERANCE * c)
        return 0;
    if ((uint32_t)r % step != 0)
        return 0;
    *n = (uint32_t)r;
    return 1;
}

/*
 * Sets the x (and y) periods of layer k so that the image repeats after W (and H) pixels, or
 * reports why it cannot and suggests a frequency. Returns 0 or -1.
 */
static int tile_layer(cli_spec *s, int k, int dims, uint32_t width, uint32_t height)
{
    char pre[32] = "", freq_name[48], fa[40], fb[40];
    if (k)
        snprintf(pre, sizeof pre, " --layer %d:", k);
    if (s->n_rotate) {
        cli_error(prog, "--tile:%s cannot be combined with %s (a rotated lattice does not tile along the image)",
                  pre, k ? "rotate" : "--rotate");
        return -1;
    }
    const int naxes = dims >= 2 ? 2 : 1;
    for (int a = 0; a < naxes && a < s->n_period; a++)
        if (s->period[a]) {
            cli_error(prog,
                      "--tile:%s sets the x and y periods itself; give --period only for the slice axes, "
                      "with 0 for x and y (e.g. --period 0,0,6)",
                      pre);
            return -1;
        }
    const uint32_t step = period_step(s, dims);
    const double size[2] = {(double)width, (double)height};
    double af[2], cells[2];
    uint32_t count[2];
    int bad = -1;
    for (int a = 0; a < naxes; a++) {
        af[a] = a < s->n_axis_frequency ? s->axis_frequency[a] : 1.0;
        cells[a] = size[a] * s->cfg.frequency * af[a];
        if (bad < 0 && !whole_cells(cells[a], step, &count[a]))
            bad = a;
    }
    if (bad < 0) {
        for (int a = 0; a < naxes; a++)
            s->period[a] = count[a];
        if (s->n_period < naxes)
            s->n_period = naxes;
        return 0;
    }

    /* Why not, then a frequency that works on every axis: n cells along the bad axis, n a valid
     * count near the present one, such that the other axis gets a valid count too. */
    const char *why;
    char whybuf[96];
    const uint32_t maxn = CN_MAX_PERIOD / step * step;
    double c = cells[bad];
    if (c > (double)CN_MAX_PERIOD)
        why = "more than the period limit of 16777216 (2^24) cells";
    else if (round(c) < 1.0 && fabs(c - 1.0) > TILE_TOLERANCE)
        why = "less than one cell";
    else if (fabs(c - round(c)) > TILE_TOLERANCE * c)
        why = "not a whole number";
    else {
        snprintf(whybuf, sizeof whybuf, "not a multiple of %lu, as simplex noise in %dD needs",
                 (unsigned long)step, dims);
        why = whybuf;
    }
    if (k)
        snprintf(freq_name, sizeof freq_name, "frequency=");
    else
        snprintf(freq_name, sizeof freq_name, "--frequency ");
    double n0 = round(c / step) * step;
    if (n0 < step)
        n0 = step;
    if (n0 > maxn)
        n0 = maxn;
    double found = 0, found_n = 0;
    for (int t = 0; t < 8192 && !found; t++) {
        /* n0, n0 + step, n0 - step, n0 + 2 step, ... */
        double n = n0 + (double)((t + 1) / 2) * step * (t % 2 ? 1 : -1);
        if (n < step || n > maxn)
            continue;
        double f = n / (size[bad] * af[bad]);
        int ok = f > 0 && isfinite(f);
        for (int a = 0; a < naxes && ok; a++) {
            uint32_t dummy;
            ok = whole_cells(size[a] * f * af[a], step, &dummy);
        }
        if (ok) {
            found = f;
            found_n = n;
        }
    }
    char head[256];
    snprintf(head, sizeof head, "--tile:%s along %c, %lu pixels * frequency %s * axis-frequency %s = %.12g cell%s is %s",
             pre, axis_name_of(bad), (unsigned long)(bad ? height : width), cli_fmt_real(s->cfg.frequency, fa, sizeof fa),
             cli_fmt_real(af[bad], fb, sizeof fb), c, c == 1.0 ? "" : "s", why);
    if (found > 0) {
        char fs[40];
        cli_fmt_real(found, fs, sizeof fs);
        if (naxes == 2) {
            double other = size[1 - bad] * found * af[1 - bad];
            cli_error(prog, "%s; e.g. %s%s%s%s gives %.0f cells along %c and %.0f along %c", head, freq_name, fs,
                      k ? " in this --layer" : "", "", found_n, axis_name_of(bad), round(other), axis_name_of(1 - bad));
        } else {
            cli_error(prog, "%s; e.g. %s%s%s gives %.0f cells", head, freq_name, fs, k ? " in this --layer" : "",
                      found_n);
        }
    } else {
        char fs[40];
        cli_fmt_real(n0 / (size[bad] * af[bad]), fs, sizeof fs);
        cli_error(prog,
                  "%s; no frequency near it tiles both axes: change --size or --axis-frequency (%s%s gives %.0f "
                  "cells along %c)",
                  head, freq_name, fs, n0, axis_name_of(bad));
    }
    return -1;
}

/*
 * The largest coordinate of each axis times frequency * axis-frequency, rotated, offset and
 * multiplied by the last octave's lacunarity^i, must stay finite, else the noise is NaN.
 * Returns 1 if it does not.
 */
static int coords_overflow(const cli_spec *s, int dims, const double maxp[4])
{
    double sc[4], mult = 1.0;
    for (int i = 1; i < cn_config_octaves(&s->cfg); i++)
        mult *= s->cfg.lacunarity;
    for (int a = 0; a < dims; a++) {
        double af = a < s->n_axis_frequency ? s->axis_frequency[a] : 1.0;
        sc[a] = maxp[a] * s->cfg.frequency * af;
        if (!isfinite(sc[a]))
            return 1;
    }
    for (int a = 0; a < dims; a++) {
        double q = 0;
        for (int b = 0; b < dims; b++) /* a 2D/3D rotation has entries of at most 1 */
            q += sc[b] * (s->n_rotate == 16 ? fabs(s->rotate[a * 4 + b]) : s->n_rotate ? 1.0 : a == b);
        q += a < s->n_offset ? fabs(s->offset[a]) : 0.0;
        if (!isfinite(q * mult))
            return 1;
    }
    return 0;
}

int cli_cmd_render(int argc, char **argv)
{
    static const cli_option opts[] = {
        CLI_NOISE_OPTIONS,
        {"size", 0, 1, OPT_SIZE},
        {"output", 'o', 1, OPT_OUTPUT},
        {"z", 0, 1, OPT_Z},
        {"w", 0, 1, OPT_W},
        {"tile", 0, 0, OPT_TILE},
        {NULL, 0, 0, 0},
    };
    cli_noise_opts o;
    cli_noise_init(&o);
    o.spec[0].cfg.frequency = DEFAULT_FREQUENCY;
    o.dims = 2;
    o.dims_set = 1;
    uint32_t width = DEFAULT_SIZE, height = DEFAULT_SIZE;
    const char *output = DEFAULT_OUTPUT;
    const char *z_text = NULL, *w_text = NULL;
    int tile = 0;

    cli_args a = {prog, argc, argv, 1, 0};
    const char *value;
    int id;
    while ((id = cli_next(&a, opts, &value)) != CLI_END) {
        switch (id) {
        case CLI_ERROR:
            return CLI_EXIT_USAGE;
        case CLI_OPT_HELP:
            fputs(help_text, stdout);
            return CLI_EXIT_OK;
        case OPT_SIZE:
            if (cli_opt_size(prog, "--size", value, &width, &height) != 0)
                return CLI_EXIT_USAGE;
            break;
        case OPT_OUTPUT:
            if (!value[0]) {
                cli_error(prog, "--output: the file name is empty");
                return CLI_EXIT_USAGE;
            }
            output = value;
            break;
        case OPT_Z:
            z_text = value;
            break;
        case OPT_W:
            w_text = value;
            break;
        case OPT_TILE:
            tile = 1;
            break;
        default:
            if (cli_noise_option(prog, &o, id, value) != 0)
                return CLI_EXIT_USAGE;
        }
    }

    /* Everything is validated here, before any file is touched. */
    render_job jb;
    memset(&jb, 0, sizeof jb);
    jb.use_float = o.use_float;
    jb.width = width;
    jb.height = height;
    int dims = o.dims;
    if (z_text) {
        if (dims < 3) {
            cli_error(prog, "--z needs --dims 3 or 4 (the slice is %dD)", dims);
            return CLI_EXIT_USAGE;
        }
        if (cli_opt_finite(prog, "--z", z_text, &jb.z) != 0 ||
            (jb.use_float && cli_opt_finitef(prog, "--z", z_text, &jb.zf) != 0))
            return CLI_EXIT_USAGE;
    }
    if (w_text) {
        if (dims < 4) {
            cli_error(prog, "--w needs --dims 4 (the slice is %dD)", dims);
            return CLI_EXIT_USAGE;
        }
        if (cli_opt_finite(prog, "--w", w_text, &jb.w) != 0 ||
            (jb.use_float && cli_opt_finitef(prog, "--w", w_text, &jb.wf) != 0))
            return CLI_EXIT_USAGE;
    }
    if (cli_noise_finish(prog, &o) != 0)
        return CLI_EXIT_USAGE;
    for (int k = 0; tile && k < o.nspec; k++)
        if (tile_layer(&o.spec[k], k, dims, width, height) != 0)
            return CLI_EXIT_USAGE;
    /* The largest coordinates times the frequency must stay finite (else the noise is NaN). */
    const double maxp[4] = {(double)width - 0.5, (double)height - 0.5, fabs(jb.z), fabs(jb.w)};
    for (int k = 0; k < o.nspec; k++)
        if (coords_overflow(&o.spec[k], dims, maxp)) {
            char fs[40], lb[32] = "--frequency";
            if (k)
                snprintf(lb, sizeof lb, "--layer %d: frequency", k);
            cli_error(prog,
                      "%s: %s is too large: coordinates times the frequency overflow (with the axis frequencies, "
                      "offsets, rotation and octaves)",
                      lb, cli_fmt_real(o.spec[k].cfg.frequency, fs, sizeof fs));
            return CLI_EXIT_USAGE;
        }
    if (cli_noise_range(&o, &jb.mid, &jb.half) != 0) {
        cli_error(prog, "--amplitude, --bias, --weight: the range of values is too large to map to gray levels");
        return CLI_EXIT_USAGE;
    }
    char why[512];
    if (cli_noise_build(&o, dims, &jb.gen, why, sizeof why) != 0) {
        cli_error(prog, "%s", why);
        return CLI_EXIT_USAGE;
    }
    int rc = render(&jb, output);
    cli_built_free(&jb.gen);
    return rc;
}
