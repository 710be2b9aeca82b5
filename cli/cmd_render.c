/*
 * cmd_render.c -- "cnoise render": an 8-bit grayscale PNG of a 2D slice of noise.
 *
 * The image is produced and written one row at a time through the streaming PNG writer, so
 * memory use is one row whatever the height.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cn_image.h"
#include "cnoise.h"

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
    "so every row is the same (vertical stripes). A value v becomes the gray level\n"
    "round((v + 1) / 2 * 255) clamped to 0..255 (-1 black, 1 white); classic mode can leave\n"
    "[-1, 1] (Perlin 3D by about 0.04, Perlin 4D by about 0.5) and is clamped.\n"
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
    "  -o, --output FILE  output file (default noise.png)\n"
    "  -h, --help         show this help\n"
    "\n"
    "Options take their value as '--opt value' or '--opt=value' (and '-o FILE'); the last one\n"
    "given wins. Whole numbers are plain decimal digits: no sign, no spaces.\n"
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

enum { OPT_SIZE = 1, OPT_OUTPUT, OPT_Z, OPT_W };

/* --- Ctrl-C: remove the temporary file before dying ------------------------------------ */

static char tmp_copy[4096];
static volatile sig_atomic_t tmp_live;
static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define NCAUGHT (sizeof caught / sizeof caught[0])
static struct sigaction saved[NCAUGHT];
static int installed[NCAUGHT];

static void on_signal(int sig)
{
    if (tmp_live)
        unlink(tmp_copy); /* async-signal-safe */
    /* SA_RESETHAND restored the default action: die of the same signal. */
    raise(sig);
}

static void guard_temp(const char *tmp)
{
    if (!tmp || strlen(tmp) >= sizeof tmp_copy)
        return;
    strcpy(tmp_copy, tmp);
    tmp_live = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (size_t k = 0; k < NCAUGHT; k++) {
        struct sigaction old;
        if (sigaction(caught[k], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue; /* keep ignoring what was ignored (nohup) */
        if (sigaction(caught[k], &sa, &saved[k]) == 0)
            installed[k] = 1;
    }
}

static void unguard_temp(void)
{
    tmp_live = 0;
    for (size_t k = 0; k < NCAUGHT; k++)
        if (installed[k]) {
            sigaction(caught[k], &saved[k], NULL);
            installed[k] = 0;
        }
}

/* --- the picture ------------------------------------------------------------------------- */

/* Gray level of a noise value; -1 for NaN. */
static int gray(double v)
{
    if (isnan(v))
        return -1;
    double t = round((v + 1.0) / 2.0 * 255.0);
    if (t < 0.0)
        t = 0.0;
    if (t > 255.0)
        t = 255.0;
    return (int)t;
}

typedef struct render_job {
    cn_noise gen;
    int use_float;
    uint32_t width, height;
    double z, w;   /* double precision slice */
    float zf, wf;  /* float precision slice, parsed straight from the text */
} render_job;

/* Fills one row; returns -1 (and the column) if the noise gave NaN. */
static int fill_row(const render_job *jb, uint32_t j, uint8_t *row, uint32_t *bad_i)
{
    for (uint32_t i = 0; i < jb->width; i++) {
        double v;
        if (jb->use_float) {
            float p[4] = {(float)((double)i + 0.5), (float)((double)j + 0.5), jb->zf, jb->wf};
            v = (double)cn_evalf(&jb->gen, p);
        } else {
            double p[4] = {(double)i + 0.5, (double)j + 0.5, jb->z, jb->w};
            v = cn_eval(&jb->gen, p);
        }
        int g = gray(v);
        if (g < 0) {
            *bad_i = i;
            return -1;
        }
        row[i] = (uint8_t)g;
    }
    return 0;
}

static void progress(int *shown, uint32_t done, uint32_t total)
{
    int pct = (int)((uint64_t)done * 100u / total);
    if (pct != *shown) {
        *shown = pct;
        fprintf(stderr, "\r%s: %3d%%", prog, pct);
        fflush(stderr);
    }
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
    sigset_t block, old_mask;
    sigemptyset(&block);
    for (size_t k = 0; k < NCAUGHT; k++)
        sigaddset(&block, caught[k]);
    sigprocmask(SIG_BLOCK, &block, &old_mask);
    cn_image_png *img;
    if (cn_image_png_begin(&img, output, jb->width, jb->height, err, sizeof err) != 0) {
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        free(row);
        cli_error(prog, "%s", err);
        return CLI_EXIT_FAILURE;
    }
    guard_temp(cn_image_png_temp_path(img));
    sigprocmask(SIG_SETMASK, &old_mask, NULL);

    int show = isatty(STDERR_FILENO) && (uint64_t)jb->width * jb->height >= PROGRESS_MIN_PIXELS;
    int shown = -1;
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
            row_valid = jb->gen.cfg.dims == 1;
        }
        if (cn_image_png_write_rows(img, row, 1, jb->width, err, sizeof err) != 0) {
            rc = CLI_EXIT_FAILURE;
            break;
        }
        if (show)
            progress(&shown, j + 1, jb->height);
    }
    if (show && shown >= 0)
        fprintf(stderr, "\r%*s\r", (int)strlen(prog) + 6, "");
    free(row);

    if (rc != CLI_EXIT_OK) {
        cn_image_png_abort(img);
        cli_error(prog, "%s", err); /* after the progress line is cleared */
    } else if (cn_image_png_commit(img, err, sizeof err) != 0) {
        cli_error(prog, "%s", err);
        rc = CLI_EXIT_FAILURE;
    }
    unguard_temp();
    if (rc == CLI_EXIT_OK)
        printf("wrote %s (%lux%lu)\n", output, (unsigned long)jb->width, (unsigned long)jb->height);
    return rc;
}

int cli_cmd_render(int argc, char **argv)
{
    static const cli_option opts[] = {
        CLI_NOISE_OPTIONS,
        {"size", 0, 1, OPT_SIZE},
        {"output", 'o', 1, OPT_OUTPUT},
        {"z", 0, 1, OPT_Z},
        {"w", 0, 1, OPT_W},
        {NULL, 0, 0, 0},
    };
    cli_noise_opts o;
    memset(&o, 0, sizeof o);
    cn_config_init(&o.cfg);
    o.cfg.frequency = DEFAULT_FREQUENCY;
    o.cfg.dims = 2;
    uint32_t width = DEFAULT_SIZE, height = DEFAULT_SIZE;
    const char *output = DEFAULT_OUTPUT;
    const char *z_text = NULL, *w_text = NULL;

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
    int dims = o.cfg.dims;
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
    const char *why = cli_config_problem(&o.cfg);
    if (why) {
        cli_error(prog, "--noise %s%s --dims %d: %s", cli_noise_name(o.cfg.type),
                  o.cfg.mode == CN_MODE_CLASSIC ? " --classic" : "", dims, why);
        return CLI_EXIT_USAGE;
    }
    /* The largest coordinates times the frequency must stay finite (else the noise is NaN). */
    double f = o.cfg.frequency;
    if (!isfinite(((double)width - 0.5) * f) || !isfinite(((double)height - 0.5) * f) ||
        !isfinite(jb.z * f) || !isfinite(jb.w * f)) {
        cli_error(prog, "--frequency: %g is too large: coordinates times the frequency overflow", f);
        return CLI_EXIT_USAGE;
    }
    if (cn_noise_build(&jb.gen, &o.cfg) != CN_OK) {
        cli_error(prog, "%s", cli_config_problem(&o.cfg));
        return CLI_EXIT_USAGE;
    }
    return render(&jb, output);
}
