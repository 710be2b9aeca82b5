/*
 * cmd_animate.c -- "cnoise animate": frames of noise along a time axis, as an animated GIF
 * and/or numbered 8-bit grayscale PNG frames.
 *
 * 3D noise gives 2D frames with time on z; 4D noise gives the z = --z slice of a 3D volume with
 * time on w. Each frame is evaluated by the batch engine (cli_field_eval) in strips into one
 * frame of gray levels (the GIF writer takes whole frames), then handed to the writers.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "cn_image.h"
#include "cnoise.h"
#include "field.h"
#include "guard.h"
#include "options.h"
#include "sink.h"

static const char *const prog = "cnoise animate";

#define DEFAULT_FREQUENCY 0.015625 /* 1/64, as render */
#define DEFAULT_SIZE 256u
#define DEFAULT_FRAMES 32
#define DEFAULT_STEP 2.0
#define DEFAULT_DELAY 4u           /* centiseconds: 25 frames per second */
#define DEFAULT_OUTPUT "animation.gif"
#define MAX_FRAMES 100000
#define MAX_FRAME_PIXELS 268435456u /* 2^28: one frame of gray levels is held in memory */
#define MAX_PATTERN_WIDTH 32        /* largest field width in the --png pattern */

static const char help_text[] =
    "Usage: cnoise animate [options]\n"
    "\n"
    "Renders frames of noise along a time axis into an animated GIF and/or numbered 8-bit\n"
    "grayscale PNG files.\n"
    "\n"
    "Frame t = 0..N-1 is at time T(t) = --time-start + t * --time-step (computed in double,\n"
    "rounded to float for --precision float), in pixel units like x and y:\n"
    "  --dims 3 (default)  frame t is the 2D slice z = T(t) of 3D noise;\n"
    "  --dims 4            frame t is the slice z = --z, w = T(t) of 4D noise: one z slice of the\n"
    "                      3D volume at each time (for whole volumes over time use\n"
    "                      'cnoise volume --dims 4 --w T' per time).\n"
    "Pixel (i, j), column i from the left and row j from the top, samples x = i + 0.5,\n"
    "y = j + 0.5 (before the library multiplies by --frequency), as 'cnoise render' does.\n"
    "\n"
    "Gray levels: round(t * 255) with t = ((v - mid) / half + 1) / 2, where [mid - half,\n"
    "mid + half] is the documented range of the configured noise, the same for every frame, so\n"
    "frames (and separately rendered animations) match: [-1, 1] for --fractal none, fbm,\n"
    "billow, pingpong and erosion, [0, 1] for turbulence and ridged, mapped through\n"
    "amplitude * v + bias, summed over layers times their weights. Values outside are clamped to\n"
    "0..255 and a note on stderr says how many. The GIF's palette is the 256 gray levels (index g is the colour (g, g, g)).\n"
    "\n"
    "Seamless loops: the animation loops without a jump when the time axis is periodic with a\n"
    "period of exactly N frames, i.e. N * time-step * frequency * axis-frequency (of the time\n"
    "axis) = P lattice cells, where P is the time axis's --period (z in 3D: --period 0,0,P;\n"
    "w in 4D: --period 0,0,0,P). Then frame N would equal frame 0 exactly. --loop sets that\n"
    "period itself, for every layer: P = N * |time-step| * frequency * axis-frequency must be a\n"
    "whole number of cells (within 1e-9 relative) from 1 to 16777216 (2^24), a multiple of 3\n"
    "(3D) or 4 (4D) for simplex noise, of 4 for opensimplex2 and opensimplex2s in 4D;\n"
    "otherwise an error suggests a --time-step that works.\n"
    "--loop cannot be combined with --rotate or with a time-axis entry of --period, and a\n"
    "fractal needs a whole-number --lacunarity with it.\n"
    "\n"
    "Options:\n"
    "  --size WxH         frame size (default 256x256): whole numbers, each side 1..65535 for a\n"
    "                     GIF (1..1048576 for PNG frames only), W*H at most 268435456 (2^28)\n"
    "  --frames N         number of frames, 1..100000 (default 32)\n"
    "  --time-step S      finite number, time between frames in pixel units (default 2)\n"
    "  --time-start T     finite number, time of frame 0 (default 0)\n"
    "  --dims N           3 (default) or 4\n"
    "  --z Z              the z of the slice in 4D, finite, in pixel units (default 0)\n"
    "  --loop             make the animation loop seamlessly (see above)\n"
    "  -o, --output FILE  the animated GIF (default animation.gif; with --png and no -o, no GIF)\n"
    "  --png PATTERN      also write each frame as an 8-bit grayscale PNG named by PATTERN with\n"
    "                     the frame number t (0..N-1) in place of its one %d conversion, which\n"
    "                     may have the flags 0 or - and a width up to 32 (%d, %04d, %-3d); %%\n"
    "                     is a literal %. E.g. --png frames/f%04d.png writes frames/f0000.png,\n"
    "                     frames/f0001.png, ... (the directory must exist)\n"
    "  --delay CS         GIF frame delay in hundredths of a second, 0..65535 (default 4: 25\n"
    "                     frames per second; many viewers show delays below 2 as 10)\n"
    "  --once             the GIF plays once (default: it loops forever)\n"
    "  --noise NAME       " CLI_HELP_NOISE "\n"
    "  --seed N           64-bit seed, decimal or 0x hex; a negative -n is 2^64-n (default 0)\n"
    "  --classic          classic mode: the published reference code; perlin and simplex only\n"
    "  --precision P      double (default) or float: cn_eval or cn_evalf\n"
    "  --frequency F      finite number > 0 (default 0.015625 = 1/64)\n"
    "  --threads N        threads for the noise and the PNG compression, 0..256\n"
    CLI_DEVICE_HELP
    "                     (default 0: one per core)\n"
    "  --quiet            no progress bar and no \"wrote\" lines (errors and notes still shown)\n"
    CLI_RECIPE_HELP
    "  -h, --help         show this help\n"
    "\n"
    CLI_SHAPE_HELP
    "\n"
    "Options take their value as '--opt value' or '--opt=value' (and '-o FILE'); the last one\n"
    "given wins (--layer adds one layer each time). Every value is checked before any file is\n"
    "touched, and every frame name is checked (not a directory, not a special file) before the\n"
    "first frame is written.\n"
    "\n"
    "Each file goes to a temporary file in its directory (unnamed where the file system allows,\n"
    "else FILE.tmp.XXXXXX) and is renamed over FILE only when complete, so no file is ever left\n"
    "half-written and a file is only replaced by a complete one; temporary files are removed on\n"
    "failure and on any signal that stops the tool (see 'man cnoise', OUTPUT FILES). The GIF is\n"
    "renamed into place after the last frame. PNG frames are\n"
    "renamed into place one by one as they are done: if frame t fails (e.g. the disk is full),\n"
    "frames 0..t-1 are complete and in place, frame t and the later names are untouched, no GIF\n"
    "is written, and the command exits 1 naming the frame. On success prints one \"wrote\" line\n"
    "for the GIF and one for the frames. Shows progress on stderr only when it is a terminal.\n"
    "\n"
    "Exit status:\n"
    "  0  success (also when values were clipped: a note says so)\n"
    "  1  runtime failure: a file could not be written (missing or unwritable directory, disk\n"
    "     full, file-size limit, a name longer than the system accepts, ...) or the noise gave NaN\n"
    "  2  usage error: bad option or value, unsupported combination of options\n";

/* A --png pattern split around its one conversion. */
typedef struct frame_pattern {
    const char *text;
    size_t conv_at, conv_len; /* the "%0Nd" conversion within text */
    int zero, left, width;
} frame_pattern;

/* The animation: its options (the targets of the option table) and what follows from them. */
typedef struct anim_job {
    uint32_t W, H;
    int frames, loop, delay, once;
    double t0, step;
    const char *z_text, *png_text;
    /* from the options */
    cli_built gen;
    int dims, threads, quiet;
    double z;
    float zf;
    const char *gif;
    frame_pattern png;
    int have_png;
    double mid, half;
    uint64_t clipped;
} anim_job;

/* Parses --png: exactly one %d conversion with optional flags 0/- and width; %% is literal. */
static int parse_pattern(const char *text, frame_pattern *p)
{
    char q[128];
    int found = 0;
    memset(p, 0, sizeof *p);
    p->text = text;
    for (size_t i = 0; text[i]; i++) {
        if (text[i] != '%')
            continue;
        if (text[i + 1] == '%') {
            i++;
            continue;
        }
        size_t j = i + 1;
        int zero = 0, left = 0, width = 0;
        while (text[j] == '0' || text[j] == '-') {
            if (text[j] == '0')
                zero = 1;
            else
                left = 1;
            j++;
        }
        while (text[j] >= '0' && text[j] <= '9') {
            width = width * 10 + (text[j] - '0');
            if (width > MAX_PATTERN_WIDTH) {
                cli_error(prog, "--png: %s: the field width is at most %d", cli_quote(text, q, sizeof q),
                          MAX_PATTERN_WIDTH);
                return -1;
            }
            j++;
        }
        if (text[j] != 'd') {
            cli_error(prog,
                      "--png: %s: '%%' must start a %%d conversion (flags 0 or -, a width: %%04d) or be "
                      "written %%%%",
                      cli_quote(text, q, sizeof q));
            return -1;
        }
        if (found) {
            cli_error(prog, "--png: %s has more than one %%d conversion; it needs exactly one (e.g. f%%04d.png)",
                      cli_quote(text, q, sizeof q));
            return -1;
        }
        found = 1;
        p->conv_at = i;
        p->conv_len = j + 1 - i;
        p->zero = zero && !left;
        p->left = left;
        p->width = width;
        i = j;
    }
    if (!found) {
        cli_error(prog, "--png: %s has no %%d conversion for the frame number (e.g. frames/f%%04d.png)",
                  cli_quote(text, q, sizeof q));
        return -1;
    }
    return 0;
}

/* The name of frame t into buf; -1 if it does not fit. */
static int frame_name(const frame_pattern *p, int t, char *buf, size_t n)
{
    char num[64];
    if (p->left)
        snprintf(num, sizeof num, "%-*d", p->width, t);
    else if (p->zero)
        snprintf(num, sizeof num, "%0*d", p->width, t);
    else
        snprintf(num, sizeof num, "%*d", p->width, t);
    size_t len = 0;
    const char *s = p->text;
    for (size_t i = 0; s[i];) {
        const char *piece;
        size_t plen;
        if (i == p->conv_at) {
            piece = num;
            plen = strlen(num);
            i += p->conv_len;
        } else if (s[i] == '%') { /* "%%" */
            piece = "%";
            plen = 1;
            i += 2;
        } else {
            piece = s + i;
            plen = 1;
            i++;
        }
        if (len + plen >= n)
            return -1;
        memcpy(buf + len, piece, plen);
        len += plen;
    }
    buf[len] = '\0';
    return 0;
}

/* --- --loop ------------------------------------------------------------------------------------ */

/* --loop with --warp: the warp's fields get the same time-axis period (o->warp.period). */
static int set_loop_warp(cli_noise_opts *o, int dims, const cli_period_ask *q)
{
    cli_spec s;
    cli_period_why why;
    if (o->warp.amplitude == 0.0)
        return 0;
    if (cli_warp_spec(prog, "--loop", o, dims, &s) != 0)
        return -1;
    if (cli_period_solve(&s, 1, q, &why) != CLI_PERIOD_SET) {
        char a[40], f[40], m[64] = "";
        if (why.step > 1)
            snprintf(m, sizeof m, " and a multiple of %lu for %s noise in %dD", (unsigned long)why.step,
                     cn_noise_type_name(s.cfg.type), dims);
        cli_error(prog,
                  "--loop: the warp's fields: the %c period would be frames * time-step * --warp-frequency %s = %s "
                  "cells, which must be a whole number 1..16777216%s",
                  "xyzw"[dims - 1], cli_fmt_real(s.cfg.frequency, f, sizeof f), cli_fmt_real(why.cells, a, sizeof a), m);
        return -1;
    }
    o->warp.period[dims - 1] = s.period[dims - 1];
    return 0;
}

/* Sets the time-axis period of every layer so that `frames` frames make one period
 * (cli_period_solve, as --tile). */
static int set_loop(cli_noise_opts *o, int dims, int frames, double step)
{
    const int axis = dims - 1;
    const char axis_name = "xyzw"[axis];
    if (step == 0.0) {
        cli_error(prog, "--loop needs a nonzero --time-step (every frame would be the same)");
        return -1;
    }
    const cli_period_ask q = {.dims = dims, .naxes = 1, .axis = {axis}, .length = {(double)frames}, .x = fabs(step)};
    cli_period_why why;
    const cli_period_status st = cli_period_solve(o->spec, o->nspec, &q, &why);
    const int k = why.layer;
    char pre[32] = "";
    if (k > 0)
        snprintf(pre, sizeof pre, " --layer %d:", k);
    switch (st) {
    case CLI_PERIOD_SET:
        return set_loop_warp(o, dims, &q);
    case CLI_PERIOD_ROTATED:
        cli_error(prog, "--loop:%s cannot be combined with %s (a period needs an unrotated lattice)", pre,
                  k ? "rotate" : "--rotate");
        return -1;
    case CLI_PERIOD_GIVEN: {
        char of[40] = "";
        if (k)
            snprintf(of, sizeof of, " of --layer %d", k);
        cli_error(prog, "--loop sets the %c period%s itself; give %s without it (0 for %c)", axis_name, of,
                  k ? "period=" : "--period", axis_name);
        return -1;
    }
    default:
        break;
    }
    char a[40], tail[160] = "", m[64] = "";
    if (why.found)
        snprintf(tail, sizeof tail, "; try --time-step %.12g", step < 0 ? -why.found : why.found);
    if (why.step > 1)
        snprintf(m, sizeof m, " and a multiple of %lu for %s noise", (unsigned long)why.step,
                 cn_noise_type_name(o->spec[k].cfg.type));
    cli_error(prog,
              "--loop:%s the %c period would be frames * time-step * frequency * axis-frequency = %s cells, which "
              "must be a whole number 1..16777216%s%s",
              pre, axis_name, cli_fmt_real(why.cells, a, sizeof a), m, tail);
    return -1;
}

/* --- frames ------------------------------------------------------------------------------------ */

/* Shaping: rows j0..j0+n-1 of frame t as gray levels into the frame. */
static int shape(void *ctx, cli_sink *s, const cli_strips *st, uint32_t t, uint32_t j0, uint32_t n)
{
    anim_job *jb = (anim_job *)ctx;
    const size_t cnt = (size_t)n * jb->W;
    uint8_t *dst = (uint8_t *)st->out + (size_t)j0 * jb->W;
    (void)s;
    (void)t;
    for (size_t i = 0; i < cnt; i++)
        dst[i] = cli_gray(st->vals[i], jb->mid, jb->half, &jb->clipped);
    return 0;
}

/* After frame t: to the GIF, and as its own PNG (renamed into place at once). */
static int frame_done(void *ctx, cli_sink *s, const cli_strips *st, uint32_t t)
{
    anim_job *jb = (anim_job *)ctx;
    char name[CLI_GUARD_PATH_MAX], why[sizeof s->err];
    if (jb->gif && cli_sink_write(s, 0, st->out, jb->H, jb->W) != 0)
        return -1;
    if (!jb->have_png)
        return 0;
    frame_name(&jb->png, (int)t, name, sizeof name); /* fits: checked before */
    if (cli_sink_write_file(s, name, CN_IMAGE_PNG8, jb->W, jb->H, st->out, jb->W) == 0)
        return 0;
    memcpy(why, s->err, sizeof why);
    if (t == 0)
        return cli_sink_fail(s, "frame 0: %s", why);
    return cli_sink_fail(s, "frame %lu: %s (frames 0..%lu were written)", (unsigned long)t, why,
                         (unsigned long)t - 1);
}

static int run(anim_job *jb)
{
    const uint32_t W = jb->W, H = jb->H;
    char name[CLI_GUARD_PATH_MAX];
    /* Every frame name first: none may be a directory or a special file. */
    for (int t = 0; jb->have_png && t < jb->frames; t++) {
        struct stat st;
        frame_name(&jb->png, t, name, sizeof name); /* fits: checked before */
        if (stat(name, &st) == 0 && !S_ISREG(st.st_mode)) {
            char q[CLI_SHOWN_SIZE];
            cli_error(prog, "cannot write frame %d to %s: it is %s", t, cli_quote(name, q, sizeof q),
                      S_ISDIR(st.st_mode) ? "a directory" : "not a regular file; refusing to replace it");
            return CLI_EXIT_FAILURE;
        }
    }

    cli_sink s;
    cli_sink_init(&s, prog, jb->quiet, jb->threads);
    if (jb->gif)
        snprintf(cli_sink_gif(&s, jb->gif, W, H, (unsigned)jb->delay, !jb->once)->about, sizeof s.file[0].about,
                 "%lux%lu, %d frames, %d/100 s each%s", (unsigned long)W, (unsigned long)H, jb->frames, jb->delay,
                 jb->once ? ", plays once" : ", loops");
    /* Frame t at time T = t0 + t * step: z in 3D, w in 4D (z = --z). */
    cli_strips st = {.width = W, .height = H, .planes = (uint32_t)jb->frames, .plane_axis = jb->dims == 3 ? 2 : 3,
                     .plane0 = jb->t0, .plane_step = jb->step, .nan_at = CLI_NAN_FRAME_PIXEL, .shape = shape,
                     .plane_done = frame_done, .ctx = jb, .out_row = W, .out_plane = 1};
    cli_field_init(&st.field, &jb->gen, jb->threads, jb->z, 0.0, jb->zf, 0.0f);
    int ok = cli_strips_alloc(&st, &s) == 0 && cli_sink_open(&s) == 0;
    if (ok) {
        cli_sink_progress(&s, "px", (uint64_t)jb->frames * W * H);
        ok = cli_strips_run(&st, &s) == 0;
    }
    const int rc = cli_sink_close(&s, ok);
    cli_strips_free(&st);
    if (rc != CLI_EXIT_OK)
        return rc;
    cli_note_clipped(prog, jb->clipped, (uint64_t)jb->frames * W * H, "samples", jb->mid - jb->half, jb->mid + jb->half,
                     "");
    cli_sink_wrote(&s);
    if (jb->have_png && !jb->quiet) {
        char shown[CLI_SHOWN_SIZE];
        frame_name(&jb->png, 0, name, sizeof name);
        printf("wrote %d frames %s", jb->frames, cli_shown(name, shown, sizeof shown));
        frame_name(&jb->png, jb->frames - 1, name, sizeof name);
        printf(" .. %s (%lux%lu)\n", cli_shown(name, shown, sizeof shown), (unsigned long)W, (unsigned long)H);
    }
    return CLI_EXIT_OK;
}

int cli_cmd_animate(int argc, char **argv)
{
    static const cli_option opts[] = {
        CLI_NOISE_OPTIONS,
        CLI_SIZE("size", anim_job, W, H),
        CLI_INT("frames", anim_job, frames, 1, MAX_FRAMES),
        CLI_FINITE("time-step", anim_job, step),
        CLI_FINITE("time-start", anim_job, t0),
        CLI_TEXT("z", anim_job, z_text),
        CLI_FLAG("loop", anim_job, loop),
        CLI_FILE("png", anim_job, png_text),
        CLI_INT("delay", anim_job, delay, 0, 65535),
        CLI_FLAG("once", anim_job, once),
        CLI_OUTPUT_OPTIONS,
        CLI_OPTIONS_END,
    };
    anim_job jb = {.W = DEFAULT_SIZE, .H = DEFAULT_SIZE, .frames = DEFAULT_FRAMES, .step = DEFAULT_STEP,
                   .delay = DEFAULT_DELAY};
    cli_parse p = {.prog = prog, .help = help_text, .opts = opts, .args = &jb, .frequency = DEFAULT_FREQUENCY,
                   .dims = 3};
    int rc = cli_parse_args(&p, argc, argv);
    if (rc >= 0)
        return rc;
    const char *output = p.out.output, *png_text = jb.png_text;
    jb.threads = p.out.threads;
    jb.quiet = p.out.quiet;

    /* Everything is validated here, before any file is touched. */
    jb.dims = p.noise.dims;
    if (jb.dims != 3 && jb.dims != 4) {
        cli_error(prog, "--dims: frames along time need 3D or 4D noise (--dims 3 or 4), not %dD", jb.dims);
        return CLI_EXIT_USAGE;
    }
    if (png_text) {
        if (parse_pattern(png_text, &jb.png) != 0)
            return CLI_EXIT_USAGE;
        jb.have_png = 1;
        char name[CLI_GUARD_PATH_MAX];
        if (frame_name(&jb.png, jb.frames - 1, name, sizeof name) != 0) {
            /* a name the system refuses (PATH_MAX), a runtime failure like ENAMETOOLONG elsewhere */
            cli_error(prog, "--png: the frame names are longer than %d bytes", CLI_GUARD_PATH_MAX - 1);
            return CLI_EXIT_FAILURE;
        }
        if (frame_name(&jb.png, 0, name, sizeof name) != 0 || !name[0]) {
            cli_error(prog, "--png: the frame names are empty");
            return CLI_EXIT_USAGE;
        }
    }
    jb.gif = output ? output : png_text ? NULL : DEFAULT_OUTPUT;
    if (!jb.gif && (cli_given(&p, "delay") || jb.once)) {
        cli_error(prog, "%s applies to the GIF; give -o FILE.gif too (with --png alone no GIF is written)",
                  cli_given(&p, "delay") ? "--delay" : "--once");
        return CLI_EXIT_USAGE;
    }
    if ((uint64_t)jb.W * jb.H > MAX_FRAME_PIXELS) {
        cli_error(prog, "--size: %lux%lu is more than %u pixels per frame", (unsigned long)jb.W, (unsigned long)jb.H,
                  MAX_FRAME_PIXELS);
        return CLI_EXIT_USAGE;
    }
    if (jb.gif && (jb.W > CN_IMAGE_GIF_MAX_SIDE || jb.H > CN_IMAGE_GIF_MAX_SIDE)) {
        cli_error(prog, "--size: a GIF is at most %ux%u pixels (%lux%lu asked)", CN_IMAGE_GIF_MAX_SIDE,
                  CN_IMAGE_GIF_MAX_SIDE, (unsigned long)jb.W, (unsigned long)jb.H);
        return CLI_EXIT_USAGE;
    }
    if (cli_opt_slice(prog, "--z", jb.z_text, jb.dims >= 4, "--dims 4 (in 3D, z is the time axis: see --time-start)",
                      p.noise.use_float, &jb.z, &jb.zf) != 0)
        return CLI_EXIT_USAGE;
    const double t_last = jb.t0 + (double)(jb.frames - 1) * jb.step;
    if (!isfinite(t_last)) {
        cli_error(prog, "--time-start, --time-step: the time of the last frame overflows");
        return CLI_EXIT_USAGE;
    }
    if (cli_noise_finish(prog, &p.noise) != 0)
        return CLI_EXIT_USAGE;
    if (jb.loop && set_loop(&p.noise, jb.dims, jb.frames, jb.step) != 0)
        return CLI_EXIT_USAGE;
    double tmax = fabs(jb.t0) > fabs(t_last) ? fabs(jb.t0) : fabs(t_last);
    const double maxp[4] = {(double)jb.W + 0.5, (double)jb.H + 0.5, jb.dims == 3 ? tmax : fabs(jb.z), tmax};
    if (cli_noise_build_for(prog, &p.noise, jb.dims, maxp, &jb.gen) != 0)
        return CLI_EXIT_USAGE;
    if (cli_field_range(&jb.gen, &jb.mid, &jb.half) != 0) {
        cli_built_free(&jb.gen);
        cli_error(prog, "--amplitude, --bias, --weight: the range of values is too large to map to gray levels");
        return CLI_EXIT_USAGE;
    }
    if (jb.gif && jb.have_png) {
        char name[CLI_GUARD_PATH_MAX];
        for (int t = 0; t < jb.frames; t++) {
            frame_name(&jb.png, t, name, sizeof name);
            if (strcmp(name, jb.gif) == 0) {
                cli_built_free(&jb.gen);
                char q[CLI_SHOWN_SIZE];
                cli_error(prog, "--png: frame %d would overwrite the GIF %s", t, cli_quote(jb.gif, q, sizeof q));
                return CLI_EXIT_USAGE;
            }
        }
    }
    if (!cli_check_only && (rc = cli_device_open(prog, p.out.device, &jb.gen)) != CLI_EXIT_OK) {
        cli_built_free(&jb.gen);
        return rc;
    }
    rc = cli_check_only ? CLI_EXIT_OK : run(&jb);
    if (rc == CLI_EXIT_OK && !cli_check_only)
        rc = cli_save_recipe(&p);
    cli_built_free(&jb.gen);
    return rc;
}
