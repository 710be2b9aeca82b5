/*
 * cmd_flow.c -- "cnoise flow": a divergence-free curl-noise vector field over an image's pixels,
 * as NumPy .npy (float32, shape (H, W, C)) or as an RGB flow map PNG.
 *
 * The field is the library's curl (cn_grid_curl / cn_grid_curlf, analytic derivatives): of one
 * 2D potential (--dims 2) or of three 3D ones on the slice z = --z (--dims 3). It is evaluated in
 * strips of rows and streamed to the file: a .npy as a "volume" of H slices of W rows of C
 * floats (C order (H, W, C)); the PNG after a first pass that finds the largest magnitude.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cn_image.h"
#include "cnoise.h"
#include "field.h"
#include "options.h"
#include "sink.h"

static const char *const prog = "cnoise flow";

#define DEFAULT_OUTPUT "flow.npy"
#define DEFAULT_SIDE 256u
#define DEFAULT_FREQUENCY 0.015625

static const char help_text[] =
    "Usage: cnoise flow [options]\n"
    "\n"
    "Writes a curl-noise vector field: a divergence-free velocity for particles, smoke and\n"
    "fluids, from the analytic derivatives of the noise. Pixel (i, j) takes the field at\n"
    "x = i + 0.5, y = j + 0.5 (z = --z in 3D), before the library multiplies by --frequency:\n"
    "  --dims 2 (default)  v = (d psi/dy, -d psi/dx), psi the 2D noise the options describe\n"
    "                      (v runs along psi's contour lines)\n"
    "  --dims 3            v = curl(psi1, psi2, psi3), three 3D noises with the options' seed,\n"
    "                      seed + 1 and seed + 2: (d psi3/dy - d psi2/dz, d psi1/dz - d psi3/dx,\n"
    "                      d psi2/dx - d psi1/dy), on the slice z = --z\n"
    "The values are the library's (cn_grid_curl, cn_grid_curlf with --precision float), in\n"
    "noise units per pixel.\n"
    "\n"
    "Files (--format, or the file name: .npy is npy, .png is png):\n"
    "  npy   NumPy format 1.0, dtype '<f4', shape (H, W, C), C = 2 or 3 components:\n"
    "        numpy.load(FILE)[j, i] is (vx, vy[, vz]) at pixel (i, j), y down the rows\n"
    "  png   an 8-bit RGB flow map: each component c as round(255 (c / m + 1) / 2), m the\n"
    "        largest |v| of the image (so the longest vector has length 1), R vx, G vy, B vz in\n"
    "        3D and 0 in 2D; the \"wrote\" line gives m\n"
    "\n"
    "Options:\n"
    "  --size WxH         image size (default 256x256): each side 1..1048576, at most 2^34 pixels\n"
    "  --dims N           2 (default) or 3\n"
    "  --z Z              the slice in 3D, finite, in pixel units (default 0)\n"
    "  --format F         npy or png\n"
    "  --origin X,Y       the world pixel of the top-left pixel (default 0,0): whole numbers,\n"
    "                     each -2^48..2^48\n"
    "  --noise NAME       " CLI_HELP_NOISE " (not cellular: it has no gradient)\n"
    "  --seed N           64-bit seed, decimal or 0x hex; a negative -n is 2^64-n (default 0)\n"
    "  --classic          classic mode: the published reference code; perlin and simplex only\n"
    "  --precision P      double (default) or float: cn_grid_curl or cn_grid_curlf\n"
    "  --frequency F      finite number > 0 (default 0.015625 = 1/64)\n"
    "  --threads N        threads for the noise and the PNG compression, 0..256\n"
    "                     (default 0: one per core)\n"
    "  --quiet            no progress bar and no \"wrote\" line\n"
    CLI_RECIPE_HELP
    "  -o, --output FILE  output file (default flow.npy), replaced safely as render does\n"
    "  -h, --help         show this help\n"
    "\n"
    "The fractal, domain and signal options of render apply to the potentials too (every\n"
    "fractal); --layer, --warp and --device are not taken.\n"
    "\n"
    CLI_SHAPE_HELP
    "\n"
    "Exit status: 0 success, 1 the file could not be written, 2 usage error.\n";

typedef struct flow_job {
    uint32_t width, height;
    const char *z_text, *origin_text, *fmt_text;
    double z, origin[2];
    float zf;
    cn_image_format fmt;
    int comps;               /* 2 or 3 */
    cli_built pot[3];        /* the potentials */
    const cn_noise *psi[3];
    int use_float, threads, quiet;
    double mag;              /* png: the largest |v| */
} flow_job;

/* Rows j0 .. j0 + n - 1 of the field into v (component c of pixel (i, r) at v[(r * W + i) * C + c]),
 * as doubles; tmp holds C * n * W elements of the precision's type. 0, or -1 with a message. */
static int field_rows(flow_job *jb, uint32_t j0, uint32_t n, double *v, void *tmp, char *err, size_t errlen)
{
    const size_t W = jb->width, len = W * n;
    const double origin[3] = {jb->origin[0] + 0.5, jb->origin[1] + (double)j0 + 0.5, jb->use_float ? (double)jb->zf : jb->z};
    const double step[3] = {1.0, 1.0, 1.0};
    const size_t count[3] = {W, n, 1};
    void *comp[3];
    for (int c = 0; c < jb->comps; c++)
        comp[c] = (char *)tmp + (size_t)c * len * (jb->use_float ? sizeof(float) : sizeof(double));
    cn_status st = jb->use_float ? cn_grid_curlf(jb->psi, origin, step, count, (float *const *)comp, len, jb->threads)
                                 : cn_grid_curl(jb->psi, origin, step, count, (double *const *)comp, len, jb->threads);
    if (st != CN_OK) {
        snprintf(err, errlen, "evaluating the curl: %s", cn_strerror(st));
        return -1;
    }
    for (int c = 0; c < jb->comps; c++)
        for (size_t k = 0; k < len; k++)
            v[k * (size_t)jb->comps + (size_t)c] =
                jb->use_float ? (double)((const float *)comp[c])[k] : ((const double *)comp[c])[k];
    return 0;
}

static int run(flow_job *jb, const char *output)
{
    const uint32_t W = jb->width, H = jb->height, C = (uint32_t)jb->comps;
    const uint32_t rows = cli_strip_rows((size_t)W * C, H);
    const size_t cells = (size_t)rows * W * C;
    double *v = (double *)malloc(cells * sizeof *v);
    void *tmp = malloc(cells * sizeof(double));
    float *f = (float *)malloc(cells * sizeof *f);
    uint8_t *rgb = (uint8_t *)malloc((size_t)rows * W * 3);
    cli_sink s;
    cli_sink_init(&s, prog, jb->quiet, jb->threads);
    const int png = jb->fmt == CN_IMAGE_PNG_RGB;
    cli_sink_file *file = png ? cli_sink_raster(&s, output, CN_IMAGE_PNG_RGB, W, H, 0)
                              : cli_sink_raster(&s, output, CN_IMAGE_NPY, C, W, H); /* (H, W, C) */
    int ok = v && tmp && f && rgb;
    if (!ok)
        cli_sink_fail(&s, "out of memory");
    /* png: the largest magnitude first */
    jb->mag = 0.0;
    for (uint32_t j0 = 0; ok && png && j0 < H; j0 += rows) {
        const uint32_t n = H - j0 < rows ? H - j0 : rows;
        ok = field_rows(jb, j0, n, v, tmp, s.err, sizeof s.err) == 0;
        for (size_t k = 0; ok && k < (size_t)n * W; k++) {
            double m2 = 0.0;
            for (uint32_t c = 0; c < C; c++)
                m2 += v[k * C + c] * v[k * C + c];
            jb->mag = fmax(jb->mag, sqrt(m2));
        }
    }
    ok = ok && cli_sink_open(&s) == 0;
    if (ok)
        cli_sink_progress(&s, "px", (uint64_t)W * H);
    for (uint32_t j0 = 0; ok && j0 < H; j0 += rows) {
        const uint32_t n = H - j0 < rows ? H - j0 : rows;
        ok = field_rows(jb, j0, n, v, tmp, s.err, sizeof s.err) == 0;
        if (ok && png) {
            const double m = jb->mag > 0 ? jb->mag : 1.0;
            for (size_t k = 0; k < (size_t)n * W; k++)
                for (uint32_t c = 0; c < 3; c++) {
                    const double t = c < C ? (v[k * C + c] / m + 1.0) / 2.0 : 0.0;
                    rgb[k * 3 + c] = (uint8_t)lround(t < 0 ? 0 : t > 1 ? 255 : t * 255.0);
                }
            ok = cli_sink_write(&s, 0, rgb, n, (size_t)W * 3) == 0;
        } else if (ok) {
            for (size_t k = 0; k < (size_t)n * W * C; k++)
                f[k] = (float)v[k]; /* float results are exact; double results rounded once */
            ok = cli_sink_write(&s, 0, f, n * W, C) == 0;
        }
        if (ok)
            cli_sink_advance(&s, (uint64_t)n * W);
    }
    if (file) {
        char ms[40];
        if (png)
            snprintf(file->about, sizeof file->about, "%lux%lu flow map, %s components, largest |v| %s", (unsigned long)W,
                     (unsigned long)H, C == 2 ? "2" : "3", cli_fmt_real(jb->mag, ms, sizeof ms));
        else
            snprintf(file->about, sizeof file->about, "%lux%lu, %u components, npy shape (%lu, %lu, %u)",
                     (unsigned long)W, (unsigned long)H, (unsigned)C, (unsigned long)H, (unsigned long)W, (unsigned)C);
    }
    const int rc = cli_sink_close(&s, ok);
    if (rc == CLI_EXIT_OK)
        cli_sink_wrote(&s);
    free(v);
    free(tmp);
    free(f);
    free(rgb);
    return rc;
}

/* --format, or the file name's extension. */
static int choose_format(const char *text, const char *output, cn_image_format *fmt)
{
    const char *dot = strrchr(output, '.');
    const int is_png = dot && strcmp(dot, ".png") == 0, is_npy = dot && strcmp(dot, ".npy") == 0;
    if (text) {
        if (strcmp(text, "npy") == 0 && !is_png) {
            *fmt = CN_IMAGE_NPY;
            return 0;
        }
        if (strcmp(text, "png") == 0 && !is_npy) {
            *fmt = CN_IMAGE_PNG_RGB;
            return 0;
        }
        char q[128];
        if (strcmp(text, "npy") == 0 || strcmp(text, "png") == 0)
            cli_error(prog, "--format %s contradicts the file name's extension", text);
        else
            cli_error(prog, "--format: %s is not one of npy, png", cli_quote(text, q, sizeof q));
        return -1;
    }
    if (is_png || !dot || is_npy) {
        *fmt = is_png ? CN_IMAGE_PNG_RGB : CN_IMAGE_NPY;
        return 0;
    }
    cli_error(prog, "-o: cannot tell the format from the name; give --format npy or png");
    return -1;
}

int cli_cmd_flow(int argc, char **argv)
{
    static const cli_option opts[] = {
        CLI_NOISE_OPTIONS,
        CLI_SIZE("size", flow_job, width, height),
        CLI_TEXT("z", flow_job, z_text),
        CLI_TEXT("origin", flow_job, origin_text),
        CLI_TEXT("format", flow_job, fmt_text),
        CLI_OUTPUT_OPTIONS,
        CLI_OPTIONS_END,
    };
    flow_job jb = {.width = DEFAULT_SIDE, .height = DEFAULT_SIDE};
    cli_parse p = {.prog = prog, .help = help_text, .opts = opts, .args = &jb, .frequency = DEFAULT_FREQUENCY,
                   .dims = 2, .output = DEFAULT_OUTPUT};
    int rc = cli_parse_args(&p, argc, argv);
    if (rc >= 0)
        return rc;
    const int dims = p.noise.dims;
    if (dims != 2 && dims != 3) {
        cli_error(prog, "--dims: a curl field needs 2D or 3D noise (--dims 2 or 3), not %dD", dims);
        return CLI_EXIT_USAGE;
    }
    if (p.noise.nlayer_text > 0 || p.noise.spec[0].weight != 1.0) {
        cli_error(prog, "--layer, --weight: a curl field takes one noise (sums of layers are not supported)");
        return CLI_EXIT_USAGE;
    }
    if (p.noise.warp.amplitude != 0.0) {
        cli_error(prog, "--warp: a curl field of warped noise is not supported");
        return CLI_EXIT_USAGE;
    }
    if (p.out.device != CLI_DEVICE_CPU && p.out.device != CLI_DEVICE_AUTO) {
        cli_error(prog, "--device: curl fields are evaluated on the CPU only; use --device cpu or auto");
        return CLI_EXIT_USAGE;
    }
    char err[512];
    jb.comps = dims;
    jb.use_float = p.noise.use_float;
    jb.threads = p.out.threads;
    jb.quiet = p.out.quiet;
    if (choose_format(jb.fmt_text, p.out.output, &jb.fmt) != 0 ||
        cli_opt_slice(prog, "--z", jb.z_text, dims == 3, "--dims 3", jb.use_float, &jb.z, &jb.zf) != 0 ||
        cli_opt_origin(prog, "--origin", jb.origin_text, 2, jb.origin) != 0 || cli_noise_finish(prog, &p.noise) != 0)
        return CLI_EXIT_USAGE;
    if ((jb.fmt == CN_IMAGE_NPY ? cn_image_check_size(CN_IMAGE_NPY, (uint32_t)dims, jb.width, jb.height, NULL, err, sizeof err)
                                : cn_image_check_size(CN_IMAGE_PNG_RGB, jb.width, jb.height, 0, NULL, err, sizeof err)) != 0 ||
        (uint64_t)jb.width * jb.height > CLI_MAX_PIXELS || jb.width > CLI_MAX_SIDE || jb.height > CLI_MAX_SIDE) {
        cli_error(prog, "--size: %s", (uint64_t)jb.width * jb.height > CLI_MAX_PIXELS || jb.width > CLI_MAX_SIDE ||
                                              jb.height > CLI_MAX_SIDE
                                          ? "each side at most 1048576 (2^20) and at most 2^34 pixels"
                                          : err);
        return CLI_EXIT_USAGE;
    }
    const double maxp[4] = {fabs(jb.origin[0]) + (double)jb.width + 0.5, fabs(jb.origin[1]) + (double)jb.height + 0.5,
                            fabs(jb.z), 0.0};
    const uint64_t seed = p.noise.spec[0].cfg.seed;
    for (int k = 0; k < (dims == 2 ? 1 : 3); k++) {
        p.noise.spec[0].cfg.seed = seed + (uint64_t)k;
        if (cli_noise_build_for(prog, &p.noise, dims, maxp, &jb.pot[k]) != 0) {
            for (int i = 0; i < k; i++)
                cli_built_free(&jb.pot[i]);
            return CLI_EXIT_USAGE;
        }
        jb.psi[k] = &jb.pot[k].gen[0];
    }
    p.noise.spec[0].cfg.seed = seed;
    /* the library's refusals (cellular noise) before any file is touched */
    const double probe[3] = {0.5, 0.5, 0.5};
    double pv[3];
    cn_status st = cn_curl(jb.psi, probe, pv);
    if (st != CN_OK) {
        const cn_config *c = cn_noise_config(jb.psi[0]);
        cli_error(prog, "--noise %s, --fractal %s: %s", cn_noise_type_name(c->type), cn_fractal_name(c->fractal),
                  st == CN_E_UNSUPPORTED ? "has no gradient, so no curl (cellular noise)"
                                         : cn_strerror(st));
        rc = CLI_EXIT_USAGE;
    } else {
        rc = cli_check_only ? CLI_EXIT_OK : run(&jb, p.out.output);
        if (rc == CLI_EXIT_OK && !cli_check_only)
            rc = cli_save_recipe(&p);
    }
    for (int k = 0; k < (dims == 2 ? 1 : 3); k++)
        cli_built_free(&jb.pot[k]);
    return rc;
}
