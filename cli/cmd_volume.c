/*
 * cmd_volume.c -- "cnoise volume": a 3D grid of noise values as NumPy .npy, raw float32 or a
 * multi-page float TIFF, and optionally an 8-bit grayscale PNG contact sheet of its slices.
 *
 * The grid is evaluated by the batch engine (cli_field_eval: cn_grid_eval[f], SIMD and threads)
 * one strip of rows of one slice at a time and streamed to the writer, so memory is a strip
 * whatever the depth. The contact sheet is assembled one band (a row of tiles) at a time from
 * the same values. Both files are finished before either is renamed into place.
 */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "args.h"
#include "cn_image.h"
#include "cnoise.h"
#include "field.h"
#include "options.h"
#include "recipe.h"
#include "sink.h"

static const char *const prog = "cnoise volume";

#define DEFAULT_FREQUENCY 0.0625 /* 1/16: one lattice cell every 16 voxels */
#define DEFAULT_SIDE 64u
#define DEFAULT_OUTPUT "volume.npy"
#define VOLUME_MAX_SIDE 1048576u               /* 2^20: voxel centres k + 0.5 stay exact in float */
#define VOLUME_MAX_VOXELS 17179869184ull       /* 2^34 voxels: 64 GiB of float32 */
#define SHEET_MAX_BAND_BYTES (256u << 20)      /* one row of tiles of the contact sheet in memory */

static const char help_text[] =
    "Usage: cnoise volume [options]\n"
    "\n"
    "Writes a 3D grid of noise values as a NumPy .npy file (float32, shape (D, H, W)), as raw\n"
    "float32 or as a multi-page 32-bit float TIFF, and optionally an 8-bit grayscale PNG contact\n"
    "sheet of its slices.\n"
    "\n"
    "Voxel (i, j, k), column i = 0..W-1, row j = 0..H-1, slice k = 0..D-1, samples the noise at\n"
    "the voxel centre x = i + 0.5, y = j + 0.5, z = k + 0.5, and w = --w in 4D (all before the\n"
    "library multiplies them by --frequency): the points 'cnoise sample --dims 3' evaluates for\n"
    "\"i.5 j.5 k.5\". Precision double (default) evaluates cn_eval and rounds each value to\n"
    "float32; precision float stores cn_evalf's values as they are. Values are not normalised.\n"
    "\n"
    "Files:\n"
    "  npy   NumPy format 1.0, dtype '<f4', C order, shape (D, H, W): numpy.load(FILE)[k, j, i]\n"
    "        is voxel (i, j, k)\n"
    "  f32   W * H * D float32 values, little-endian, no header, x fastest, then y, then z: voxel\n"
    "        (i, j, k) at byte 4 * (i + W * (j + H * k)); the \"wrote\" line states W, H and D,\n"
    "        and a sidecar FILE.json (written with it) says W, H, D, the sample type, byte order,\n"
    "        value range, the smallest and largest value and the options\n"
    "  tiff  D pages of W x H 32-bit IEEE float samples, page k slice k (uncompressed strips,\n"
    "        BigTIFF past 4 GiB): an image stack for ImageJ/Fiji, tifffile, GDAL (bands)\n"
    "Without --format the file name decides: .npy is npy, .f32 and .raw are f32, .tif and .tiff\n"
    "are tiff (letter case ignored), a name without an extension is npy; any other extension,\n"
    "or one that contradicts --format, is an error. With --format any other extension is\n"
    "accepted.\n"
    "\n"
    "Contact sheet (--sheet FILE): the D slices as W x H tiles, left to right and top to bottom\n"
    "(slice 0 at the top left), C per row (--sheet-columns, default ceil(sqrt(D))), black where\n"
    "the last row has no slice; no gaps between tiles. Gray levels: round(t * 255) with\n"
    "t = ((v - mid) / half + 1) / 2, where [mid - half, mid + half] is the documented range of the\n"
    "configured noise (as 'cnoise render --normalize range': [-1, 1] for --fractal none, fbm,\n"
    "billow, pingpong and erosion, [0, 1] for turbulence and ridged, mapped through\n"
    "amplitude * v + bias, summed over layers times their weights), so sheets of neighbouring\n"
    "volumes match. Values outside the range are clamped to 0..255 and a note on stderr says how\n"
    "many. One row of tiles\n"
    "is held in memory (C * W * H bytes, at most 268435456 = 256 MiB).\n"
    "\n"
    "Options:\n"
    "  --size WxHxD       volume size (default 64x64x64): whole numbers, each side\n"
    "                     1..1048576 (2^20) and W*H*D at most 17179869184 (2^34) voxels, checked\n"
    "                     before anything is allocated\n"
    "  --origin X,Y,Z     the world voxel of the volume's first voxel (default 0,0,0): voxel\n"
    "                     (i, j, k) samples X + i + 0.5, Y + j + 0.5, Z + k + 0.5; whole numbers,\n"
    "                     each -2^48..2^48; bricks of a larger volume match it exactly\n"
    "  --dims N           3 (default) or 4\n"
    "  --w W              the fourth coordinate, finite, in voxel units (default 0); needs --dims 4\n"
    "  --format F         npy, f32 or tiff (default: from the file name, see above)\n"
    "  -o, --output FILE  the volume file (default volume.npy)\n"
    "  --sheet FILE       also write the contact sheet, an 8-bit grayscale PNG\n"
    "  --sheet-columns C  tiles per row of the sheet, 1..D (default ceil(sqrt(D))); needs --sheet\n"
    "  --noise NAME       " CLI_HELP_NOISE "\n"
    "  --seed N           64-bit seed, decimal or 0x hex; a negative -n is 2^64-n (default 0)\n"
    "  --classic          classic mode: the published reference code; perlin and simplex only\n"
    "  --precision P      double (default) or float: cn_eval or cn_evalf\n"
    "  --frequency F      finite number > 0 (default 0.0625 = 1/16: a lattice cell spans 16\n"
    "                     voxels)\n"
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
    "touched.\n"
    "\n"
    "Each file goes to a temporary file in its directory (unnamed where the file system allows,\n"
    "else FILE.tmp.XXXXXX) and is flushed to disk; only when the volume and the sheet are both\n"
    "complete are they renamed over their names, so a failure never leaves a partial file and\n"
    "never touches an existing one. The temporary files are removed on failure and on any signal\n"
    "that stops the tool (see 'man cnoise', OUTPUT FILES). A FILE\n"
    "that is a directory or a special file is refused. On success prints one \"wrote\" line per\n"
    "file. Shows progress on stderr only when it is a terminal (--quiet turns it off).\n"
    "\n"
    "Exit status:\n"
    "  0  success (also when sheet values were clipped: a note says so)\n"
    "  1  runtime failure: a file could not be written (missing or unwritable directory, disk\n"
    "     full, file-size limit, a name longer than the system accepts, ...) or the noise gave NaN\n"
    "  2  usage error: bad option or value, unsupported combination of options\n";

/* The volume: its options (the targets of the option table) and what follows from them. */
typedef struct volume_job {
    uint32_t W, H, D;
    const char *w_text, *fmt_text, *sheet, *cols_text, *origin_text;
    double origin[3]; /* --origin: world voxel of voxel (0, 0, 0) */
    /* from the options */
    cli_built gen;
    cn_image_format fmt;
    double w;
    float wf;
    int threads, quiet;
    const char *output;
    uint32_t cols, bands; /* contact sheet: tiles per row, rows of tiles */
    double mid, half;     /* documented range of the values, for the sheet */
    uint64_t clipped;
    float vmin, vmax;       /* the smallest and largest value written (for a sidecar) */
    const cli_parse *parse; /* the options, for a sidecar */
    uint8_t *band;        /* a row of tiles of the sheet */
    size_t band_stride;
} volume_job;

/* "WxHxD": three whole numbers joined by single lowercase 'x's, each 1..VOLUME_MAX_SIDE. */
static int parse_size3(cli_parse *cp, const char *v)
{
    volume_job *jb = (volume_job *)cp->args;
    uint32_t *const out[3] = {&jb->W, &jb->H, &jb->D};
    char q[128], part[32];
    const char *p = v;
    for (int a = 0; a < 3; a++) {
        const char *end = a < 2 ? strchr(p, 'x') : p + strlen(p);
        uint64_t n;
        size_t len = end ? (size_t)(end - p) : 0;
        if (!end || len == 0 || len >= sizeof part) {
            cli_error(prog, "--size: %s is not WxHxD (three whole numbers joined by 'x', e.g. 64x64x32)",
                      cli_quote(v, q, sizeof q));
            return -1;
        }
        memcpy(part, p, len);
        part[len] = '\0';
        cli_num r = cli_parse_u64(part, &n);
        if (r == CLI_NUM_SYNTAX) {
            cli_error(prog, "--size: %s is not WxHxD (three whole numbers joined by 'x', e.g. 64x64x32)",
                      cli_quote(v, q, sizeof q));
            return -1;
        }
        if (r != CLI_NUM_OK || n < 1 || n > VOLUME_MAX_SIDE) {
            cli_error(prog, "--size: %s: each side must be 1..%u", cli_quote(v, q, sizeof q), VOLUME_MAX_SIDE);
            return -1;
        }
        *out[a] = (uint32_t)n;
        p = end + (a < 2);
    }
    /* Each side is at most 2^20, so the product of three fits in 64 bits. */
    uint64_t voxels = (uint64_t)jb->W * jb->H * jb->D;
    if (voxels > VOLUME_MAX_VOXELS) {
        cli_error(prog, "--size: %s is %llu voxels; at most %llu (2^34)", cli_quote(v, q, sizeof q),
                  (unsigned long long)voxels, (unsigned long long)VOLUME_MAX_VOXELS);
        return -1;
    }
    return 0;
}

/* --format and the extension of the output name: npy, f32 or tiff. */
static int choose_format(const char *fmt_text, const char *output, cn_image_format *out)
{
    char q[128];
    const char *slash = strrchr(output, '/');
    const char *ext = strrchr(slash ? slash + 1 : output, '.');
    int from_ext = -1;
    if (ext) {
        ext++;
        if (strcasecmp(ext, "npy") == 0)
            from_ext = CN_IMAGE_NPY;
        else if (strcasecmp(ext, "f32") == 0 || strcasecmp(ext, "raw") == 0)
            from_ext = CN_IMAGE_F32;
        else if (strcasecmp(ext, "tif") == 0 || strcasecmp(ext, "tiff") == 0)
            from_ext = CN_IMAGE_TIFF;
    }
    if (fmt_text) {
        if (strcmp(fmt_text, "npy") == 0)
            *out = CN_IMAGE_NPY;
        else if (strcmp(fmt_text, "f32") == 0)
            *out = CN_IMAGE_F32;
        else if (strcmp(fmt_text, "tiff") == 0)
            *out = CN_IMAGE_TIFF;
        else {
            cli_error(prog, "--format: %s is not one of npy, f32, tiff", cli_quote(fmt_text, q, sizeof q));
            return -1;
        }
        if (from_ext >= 0 && (cn_image_format)from_ext != *out) {
            cli_error(prog, "--format %s contradicts the extension of --output %s", fmt_text,
                      cli_quote(output, q, sizeof q));
            return -1;
        }
        return 0;
    }
    if (from_ext >= 0) {
        *out = (cn_image_format)from_ext;
        return 0;
    }
    if (!ext) {
        *out = CN_IMAGE_NPY;
        return 0;
    }
    cli_error(prog, "--output %s: unknown extension (.npy, .f32, .raw, .tif or .tiff; or give --format)",
              cli_quote(output, q, sizeof q));
    return -1;
}

/* A double rounded to float32; beyond FLT_MAX + half an ulp it is an infinity. */
static float to_f32(double v)
{
    if (fabs(v) >= 0x1.ffffffp127)
        return (float)copysign(INFINITY, v);
    return (float)v;
}

/* Shaping: rows j0..j0+n-1 of slice k as float32 into the volume, as gray levels into the
 * sheet's band (its tile k % cols). */
static int shape(void *ctx, cli_sink *s, const cli_strips *st, uint32_t k, uint32_t j0, uint32_t n)
{
    volume_job *jb = (volume_job *)ctx;
    const uint32_t W = jb->W;
    const size_t cnt = (size_t)n * W;
    float *fv = (float *)st->out;
    for (size_t i = 0; i < cnt; i++) {
        fv[i] = to_f32(st->vals[i]);
        jb->vmin = fv[i] < jb->vmin ? fv[i] : jb->vmin;
        jb->vmax = fv[i] > jb->vmax ? fv[i] : jb->vmax;
    }
    if (cli_sink_write(s, 0, fv, n, W) != 0)
        return -1;
    if (jb->sheet)
        for (uint32_t r = 0; r < n; r++) {
            uint8_t *dst = jb->band + (size_t)(j0 + r) * jb->band_stride + (size_t)(k % jb->cols) * W;
            for (uint32_t i = 0; i < W; i++)
                dst[i] = cli_gray(st->vals[(size_t)r * W + i], jb->mid, jb->half, &jb->clipped);
        }
    return 0;
}

/* After slice k: the band is complete after its last tile, or after the last slice (black tiles
 * follow); then it goes to the sheet. */
static int slice_done(void *ctx, cli_sink *s, const cli_strips *st, uint32_t k)
{
    volume_job *jb = (volume_job *)ctx;
    const uint32_t W = jb->W, H = jb->H, col = jb->sheet ? k % jb->cols : 0;
    (void)st;
    if (!jb->sheet || (col != jb->cols - 1 && k != jb->D - 1))
        return 0;
    for (uint32_t c = col + 1; c < jb->cols; c++)
        for (uint32_t r = 0; r < H; r++)
            memset(jb->band + (size_t)r * jb->band_stride + (size_t)c * W, 0, W);
    return cli_sink_write(s, 1, jb->band, H, jb->band_stride);
}

static int run(volume_job *jb)
{
    const uint32_t W = jb->W, H = jb->H, D = jb->D;
    cli_sink s;
    cli_sink_init(&s, prog, jb->quiet, jb->threads);
    cli_sink_file *vol = cli_sink_raster(&s, jb->output, jb->fmt, W, H, D);
    vol->noun = "volume";
    if (jb->fmt == CN_IMAGE_NPY)
        snprintf(vol->about, sizeof vol->about, "%lux%lux%lu float32, NumPy shape (%lu, %lu, %lu)", (unsigned long)W,
                 (unsigned long)H, (unsigned long)D, (unsigned long)D, (unsigned long)H, (unsigned long)W);
    else if (jb->fmt == CN_IMAGE_TIFF)
        snprintf(vol->about, sizeof vol->about, "%lux%lux%lu float32 TIFF, %lu pages of %lux%lu", (unsigned long)W,
                 (unsigned long)H, (unsigned long)D, (unsigned long)D, (unsigned long)W, (unsigned long)H);
    else
        snprintf(vol->about, sizeof vol->about,
                 "W x H x D = %lu x %lu x %lu float32 little-endian, x fastest, then y, then z", (unsigned long)W,
                 (unsigned long)H, (unsigned long)D);
    if (jb->sheet)
        snprintf(cli_sink_raster(&s, jb->sheet, CN_IMAGE_PNG8, jb->cols * W, jb->bands * H, 0)->about,
                 sizeof vol->about, "%lux%lu contact sheet: %lu slices of %lux%lu, %lu per row",
                 (unsigned long)(jb->cols * W), (unsigned long)(jb->bands * H), (unsigned long)D, (unsigned long)W,
                 (unsigned long)H, (unsigned long)jb->cols);
    /* z of slice k: the voxel centre (Z + 0.5) + k, exact in double (the same double as slice Z + k
     * of a volume at the origin) and, while Z + k < 2^23, in float. */
    /* a raw volume says what it is in a sidecar */
    char *sidecar_path = NULL;
    const int sidecar = jb->fmt == CN_IMAGE_F32 ? cli_sink_sidecar(&s, jb->output, &sidecar_path) : 0;
    if (sidecar < 0)
        return CLI_EXIT_FAILURE;
    jb->vmin = INFINITY;
    jb->vmax = -INFINITY;
    cli_strips st = {.width = W, .height = H, .origin = {jb->origin[0], jb->origin[1]}, .planes = D, .plane_axis = 2,
                     .plane0 = jb->origin[2] + 0.5, .plane_step = 1.0,
                     .nan_at = CLI_NAN_VOXEL, .shape = shape, .plane_done = slice_done, .ctx = jb,
                     .out_row = (size_t)W * sizeof(float)};
    cli_field_init(&st.field, &jb->gen, jb->threads, 0.5, jb->w, 0.5f, jb->wf);
    jb->band_stride = (size_t)jb->cols * W;
    jb->band = jb->sheet ? (uint8_t *)malloc(jb->band_stride * H) : NULL;
    if (jb->sheet && !jb->band)
        cli_sink_fail(&s, "out of memory");
    int ok = (!jb->sheet || jb->band) && cli_strips_alloc(&st, &s) == 0 && cli_sink_open(&s) == 0;
    if (ok) {
        cli_sink_progress(&s, "vox", (uint64_t)W * H * D);
        ok = cli_strips_run(&st, &s) == 0;
    }
    if (ok && sidecar) {
        const cli_sidecar_info info = {
            .format = "f32", .sample_type = "float32", .width = W, .height = H, .depth = D,
            .layout = "x fastest, then y, then z (W x H x D); voxel (i, j, k) is the noise at x = X + i + 0.5, "
                      "y = Y + j + 0.5, z = Z + k + 0.5 (X, Y, Z: --origin)",
            .range = {jb->mid - jb->half, jb->mid + jb->half},
            .encoding = "the noise values themselves (float32); value_range is the documented range",
            .have_minmax = 1, .min = jb->vmin, .max = jb->vmax};
        ok = cli_sink_describe(&s, sidecar, &info, jb->parse) == 0;
    }
    const int rc = cli_sink_close(&s, ok);
    cli_strips_free(&st);
    free(jb->band);
    if (rc == CLI_EXIT_OK) {
        cli_note_clipped(prog, jb->clipped, (uint64_t)W * H * D, "contact-sheet values", jb->mid - jb->half,
                         jb->mid + jb->half, "");
        cli_sink_wrote(&s);
    }
    free(sidecar_path);
    return rc;
}

int cli_cmd_volume(int argc, char **argv)
{
    static const cli_option opts[] = {
        CLI_NOISE_OPTIONS,
        CLI_CALL("size", parse_size3),
        CLI_TEXT("w", volume_job, w_text),
        CLI_TEXT("origin", volume_job, origin_text),
        CLI_TEXT("format", volume_job, fmt_text),
        CLI_FILE("sheet", volume_job, sheet),
        CLI_TEXT("sheet-columns", volume_job, cols_text),
        CLI_OUTPUT_OPTIONS,
        CLI_OPTIONS_END,
    };
    volume_job jb = {.W = DEFAULT_SIDE, .H = DEFAULT_SIDE, .D = DEFAULT_SIDE};
    cli_parse p = {.prog = prog, .help = help_text, .opts = opts, .args = &jb, .frequency = DEFAULT_FREQUENCY,
                   .dims = 3, .output = DEFAULT_OUTPUT};
    int rc = cli_parse_args(&p, argc, argv);
    if (rc >= 0)
        return rc;
    jb.parse = &p;
    jb.output = p.out.output;
    jb.threads = p.out.threads;
    jb.quiet = p.out.quiet;

    /* Everything is validated here, before any file is touched. */
    const int dims = p.noise.dims;
    if (dims != 3 && dims != 4) {
        cli_error(prog, "--dims: a volume needs 3D or 4D noise (--dims 3 or 4), not %dD", dims);
        return CLI_EXIT_USAGE;
    }
    if (choose_format(jb.fmt_text, jb.output, &jb.fmt) != 0)
        return CLI_EXIT_USAGE;
    if (cli_opt_slice(prog, "--w", jb.w_text, dims >= 4, "--dims 4", p.noise.use_float, &jb.w, &jb.wf) != 0)
        return CLI_EXIT_USAGE;
    char err[512];
    if (cn_image_check_size(jb.fmt, jb.W, jb.H, jb.D, NULL, err, sizeof err) != 0) {
        cli_error(prog, "--size: %s", err);
        return CLI_EXIT_USAGE;
    }
    if (jb.cols_text && !jb.sheet) {
        cli_error(prog, "--sheet-columns needs --sheet");
        return CLI_EXIT_USAGE;
    }
    if (jb.sheet) {
        if (jb.cols_text) {
            int c;
            if (cli_opt_int(prog, "--sheet-columns", jb.cols_text, 1, (int)(jb.D < 65536u ? jb.D : 65536u), &c) != 0)
                return CLI_EXIT_USAGE;
            jb.cols = (uint32_t)c;
        } else {
            jb.cols = (uint32_t)ceil(sqrt((double)jb.D));
            while ((uint64_t)(jb.cols - 1) * (jb.cols - 1) >= jb.D && jb.cols > 1) /* exact ceil */
                jb.cols--;
            while ((uint64_t)jb.cols * jb.cols < jb.D)
                jb.cols++;
        }
        jb.bands = (jb.D + jb.cols - 1) / jb.cols;
        uint64_t sw = (uint64_t)jb.cols * jb.W, sh = (uint64_t)jb.bands * jb.H;
        if (sw > CN_IMAGE_MAX_SIDE || sh > CN_IMAGE_MAX_SIDE ||
            cn_image_check_size(CN_IMAGE_PNG8, (uint32_t)sw, (uint32_t)sh, 0, NULL, err, sizeof err) != 0) {
            cli_error(prog, "--sheet: a %llux%llu contact sheet is too large for a PNG (each side at most %lu)",
                      (unsigned long long)sw, (unsigned long long)sh, (unsigned long)CN_IMAGE_MAX_SIDE);
            return CLI_EXIT_USAGE;
        }
        if (sw * jb.H > SHEET_MAX_BAND_BYTES) {
            cli_error(prog,
                      "--sheet: one row of %lu tiles of %lux%lu needs %llu bytes; at most %u (fewer --sheet-columns "
                      "or a smaller --size)",
                      (unsigned long)jb.cols, (unsigned long)jb.W, (unsigned long)jb.H,
                      (unsigned long long)(sw * jb.H), SHEET_MAX_BAND_BYTES);
            return CLI_EXIT_USAGE;
        }
        if (strcmp(jb.sheet, jb.output) == 0) {
            cli_error(prog, "--sheet and --output name the same file");
            return CLI_EXIT_USAGE;
        }
    }
    if (cli_opt_origin(prog, "--origin", jb.origin_text, 3, jb.origin) != 0 || cli_noise_finish(prog, &p.noise) != 0)
        return CLI_EXIT_USAGE;
    const double maxp[4] = {fabs(jb.origin[0]) + (double)jb.W + 0.5, fabs(jb.origin[1]) + (double)jb.H + 0.5,
                            fabs(jb.origin[2]) + (double)jb.D + 0.5, fabs(jb.w)};
    if (cli_noise_build_for(prog, &p.noise, dims, maxp, &jb.gen) != 0)
        return CLI_EXIT_USAGE;
    if (cli_field_range(&jb.gen, &jb.mid, &jb.half) != 0 || fabs(jb.mid) + jb.half > FLT_MAX) {
        cli_built_free(&jb.gen);
        cli_error(prog, "--amplitude, --bias, --weight: the range of values is too large for float32");
        return CLI_EXIT_USAGE;
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
