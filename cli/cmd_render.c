/*
 * cmd_render.c -- "cnoise render": a 2D slice of noise as a grayscale, 16-bit or colour PNG, a
 * raw or float heightmap (.r16/.raw, .f32, .pfm, .npy, OpenEXR, float TIFF with optional GeoTIFF
 * georeferencing), a normal map or a hillshade.
 *
 * The noise is evaluated by the batch engine (cn_grid_eval[f], SIMD and threads) one strip of
 * rows at a time, converted and streamed to the writer, so memory use does not depend on the
 * image height.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "args.h"
#include "cn_image.h"
#include "cnoise.h"
#include "colour.h"
#include "field.h"
#include "options.h"
#include "recipe.h"
#include "ramp.h"
#include "shade.h"
#include "sink.h"

static const char *const prog = "cnoise render";

/* Defaults, also quoted in the help text. */
#define DEFAULT_FREQUENCY 0.015625 /* 1/64: one lattice cell every 64 pixels */
#define DEFAULT_SIZE 512u
#define DEFAULT_OUTPUT "noise.png"
#define DEFAULT_RAMP "terrain"
#define DEFAULT_STRENGTH 0.5
#define DEFAULT_RELIEF 0.5
#define HALF_INF_FROM 65520.0 /* a float of this magnitude or more rounds to an infinite half */

static const char help_text[] =
    "Usage: cnoise render [options]\n"
    "\n"
    "Writes a 2D slice of noise as an image or heightmap: 8-bit or 16-bit grayscale PNG, colour\n"
    "PNG through a colour ramp (optionally hillshaded), raw 16-bit or 32-bit float heightmap,\n"
    "PFM, NumPy .npy, OpenEXR (float or half), 32-bit float TIFF (GeoTIFF with --geo), or a\n"
    "normal map.\n"
    "\n"
    "Pixel (i, j), column i = 0..W-1 from the left and row j = 0..H-1 from the top, samples\n"
    "the noise at the pixel centre x = i + 0.5, y = j + 0.5, with z = --z and w = --w in 3D\n"
    "and 4D (all before the library multiplies them by --frequency): the value 'cnoise sample'\n"
    "prints for the same point and options. 1D noise uses x only, so every row is the same.\n"
    "\n"
    "Formats (--format, or from the file name):\n"
    "  png      8-bit grayscale PNG (default): gray = round(t * 255)\n"
    "  png16    16-bit grayscale PNG: round(t * 65535)\n"
    "  rgb      8-bit RGB PNG: t through the colour ramp (--ramp); with --shade hillshaded\n"
    "  r16      raw 16-bit unsigned little-endian, no header (W*H*2 bytes): round(t * 65535);\n"
    "           also written for a name ending in .raw (Unity's terrain heightmap)\n"
    "  f32      raw 32-bit IEEE float little-endian, no header (W*H*4 bytes): the values\n"
    "  pfm      Portable Float Map, grayscale ('Pf', little-endian): the values\n"
    "  npy      NumPy array, float32, shape (H, W), for numpy.load: the values\n"
    "  exr      OpenEXR, one 32-bit float channel named R, uncompressed: the values\n"
    "  exr16    OpenEXR, one half-float (16-bit) channel R, ZIP (lossless): the values rounded\n"
    "           to the nearest half (about 3 decimal digits; beyond +-65504 infinity, a note\n"
    "           says so)\n"
    "  tiff     TIFF, one 32-bit IEEE float sample per pixel, uncompressed strips (BigTIFF past\n"
    "           4 GiB): the values; with --geo a GeoTIFF\n"
    "  normal   8-bit RGB PNG tangent-space normal map of the heightfield t (OpenGL convention:\n"
    "           red = +x right, green = +y up the image, blue = out; for DirectX flip green)\n"
    "  slope    8-bit gray PNG of the same heightfield's slope: gray = round(255 * a / 90) for\n"
    "           the angle a from the horizontal in degrees, atan |gradient| (0 flat, 255\n"
    "           vertical): a mask for slope-dependent texturing\n"
    "Rows are top to bottom in every format (PFM stores them bottom to top, as it must).\n"
    "Without --format the file name decides: .png is png (rgb when --ramp or a shaded colour is\n"
    "asked for), .r16 and .raw are r16, .exr is exr (exr16 only by --format), .tif and .tiff\n"
    "are tiff, .f32, .pfm and .npy are those formats (letter case ignored); a name without an\n"
    "extension is png. Any other extension, or one that contradicts --format (e.g. --format\n"
    "f32 -o x.png), is an error; with --format any other extension is accepted.\n"
    "f32, pfm, npy, exr, exr16 and tiff hold the noise values as they are (float; --amplitude\n"
    "0.5 --bias 0.5 maps [-1, 1] to [0, 1]), the others the normalised t.\n"
    "The raw files (r16, f32: no header) come with a sidecar FILE.json (FILE plus \".json\"): width,\n"
    "height, sample type, byte order, value range, the smallest and largest value written and\n"
    "the options that made the file; the two are written together or not at all.\n"
    "\n"
    "What the tools read (their importers, as documented or in their source):\n"
    "  Godot 4    exr: a file whose only channel is R loads as a one-channel float image\n"
    "             (Image.FORMAT_RF), which HeightMapShape3D.update_map_data_from_image takes;\n"
    "             terrain plugins import r16/raw. Godot imports a 16-bit PNG as 8-bit.\n"
    "  Unity      r16 named .raw: Terrain > Import Raw, Depth 16 bit, Byte Order Windows\n"
    "             (little-endian); Unity wants 2^n+1 sides (e.g. 513x513)\n"
    "  Unreal     png16 or r16: Landscape import takes 16-bit grayscale PNG and .r16\n"
    "  Blender    exr (float; a lone R channel shows as gray) or png16 (read as float), for\n"
    "             the Displace modifier and displacement textures\n"
    "  GIS        tiff with --geo: GDAL and QGIS read the GeoTIFF's georeferencing\n"
    "\n"
    "Normalisation: t = ((v - mid) / half + 1) / 2 maps [mid - half, mid + half] to [0, 1].\n"
    "  --normalize range  (default) the documented range of the configured noise\n"
    "                     (cn_noise_range): [-1, 1] for --fractal none, fbm, billow, pingpong\n"
    "                     and erosion, [0, 1] for turbulence and ridged, +-1.0363538112118029 for\n"
    "                     classic Perlin 1D-3D and +-1.5365823340468201 for classic Perlin 4D,\n"
    "                     mapped through amplitude * v + bias; with --layer the sum of each\n"
    "                     layer's range times its weight. Tiles rendered separately match at\n"
    "                     seams.\n"
    "                     With the defaults that is round((v + 1) / 2 * 255): -1 black, 1 white.\n"
    "  --normalize minmax stretch this image's own smallest to largest value to [0, 1]\n"
    "                     (t = (v - min) / (max - min); evaluates the noise twice)\n"
    "  --normalize LO,HI  a range of your choice (finite, LO < HI): mid = (LO + HI) / 2,\n"
    "                     half = (HI - LO) / 2; e.g. -0.5,0.5 for more contrast that still\n"
    "                     matches across tiles\n"
    "Values outside the range are clamped to 0..255 (0..65535) and counted: a note on stderr says\n"
    "how many samples were clipped. A range of width 0 (amplitude or weights 0, or a constant\n"
    "image with minmax) maps its one value to t = 0.5 (gray 128), values below it to 0, above to 1.\n"
    "\n"
    "Options:\n"
    "  --format F         png, png16, rgb, r16, f32, pfm, npy, exr, exr16, tiff, normal or\n"
    "                     slope\n"
    "                     (default: from -o)\n"
    "  --geo EPSG:CODE,X,Y,SIZE[,SIZE_Y]\n"
    "                     tiff: georeference it (GeoTIFF). CODE is the EPSG code of a projected\n"
    "                     CRS (e.g. 32633, WGS 84 / UTM zone 33N) or a geographic one (4326);\n"
    "                     X, Y the CRS coordinates (easting or longitude, northing or latitude)\n"
    "                     of the image's top-left corner, the outer corner of pixel (0, 0);\n"
    "                     SIZE a pixel's width in CRS units (metres, degrees), SIZE_Y its height\n"
    "                     (default SIZE). Rows go south: GDAL reports Origin = (X, Y) and Pixel\n"
    "                     Size = (SIZE, -SIZE_Y). Written as ModelTiepoint, ModelPixelScale and\n"
    "                     the GeoKeys (RasterPixelIsArea, the CRS code, its name as citation).\n"
    "  --ramp R           colour ramp for rgb (default terrain): a preset, or stops\n"
    "                     'POS:#RRGGBB,...' with positions from 0 to 1, increasing, e.g.\n"
    "                     --ramp '0:#00224e,0.5:#7a7f3a,1:#ffffff'. Presets:\n"
    "                       gray, terrain (coast at 0.5), land, ocean, heat, dusk\n"
    "                     (see 'cnoise map --help' and the man page for their colours)\n"
    "  --normalize N      range (default), minmax or LO,HI, see above; not for the float formats\n"
    "                     (f32, pfm, npy, exr, exr16, tiff)\n"
    "  --shade            hillshade (png, rgb): the heightfield t lit by a distant light\n"
    "                     (Lambert's law, as libnoise's image renderer). png: the shade alone,\n"
    "                     gray = round(I * 255) with I = max(0, n . L); rgb: the ramp colour\n"
    "                     times 0.4 + 0.6 * I / sin(elevation) (1 on flat ground)\n"
    "  --light-azimuth A  direction the light comes from, degrees clockwise from the top of\n"
    "                     the image (north), finite (default 315: top left); needs --shade\n"
    "  --light-elevation E  height of the light above the horizon in degrees, in (0, 90]\n"
    "                     (default 45); needs --shade\n"
    "  --relief R         --shade: the heightfield's t spans R / frequency pixels of height,\n"
    "                     i.e. R lattice cells (finite, > 0, default 0.5)\n"
    "  --normal-strength S  --format normal and slope: the same height scale, t spans\n"
    "                     S / frequency pixels (finite, > 0, default 0.5); larger is bumpier\n"
    "  --gradient G       how normal, slope and --shade find the heightfield's gradient:\n"
    "                     fd (default) central differences of t over the four neighbours; the\n"
    "                     pixels just outside the image are evaluated too, so tiles rendered\n"
    "                     separately shade and match at their seams (and --tile images stay\n"
    "                     seamless). analytic: the noise's exact derivatives at the pixel\n"
    "                     (cn_grid_eval_grad) times dt/dv: detail finer than a pixel shows (fd\n"
    "                     smooths over two pixels); on the CPU; not for cellular noise;\n"
    "                     slower than fd (a derivative costs more than a value)\n"
    "\n"
    "  --noise NAME       " CLI_HELP_NOISE "\n"
    "  --seed N           64-bit seed, decimal or 0x hex; a negative -n is 2^64-n (default 0)\n"
    "  --classic          classic mode: the published reference code (Perlin's ImprovedNoise,\n"
    "                     Gustavson's simplex); perlin and simplex only\n"
    "  --precision P      double (default) or float: the float kernels, as cn_evalf\n"
    "  --frequency F      finite number > 0 (default 0.015625 = 1/64: a lattice cell spans\n"
    "                     64 pixels)\n"
    "  --dims N           1..4 (default 2; simplex: 2..4)\n"
    "  --z Z              third coordinate of the slice, finite, in pixel units (default 0);\n"
    "                     needs --dims 3 or 4\n"
    "  --w W              fourth coordinate, finite, in pixel units (default 0); needs --dims 4\n"
    "  --size WxH         image size (default 512x512): whole numbers, each side 1..1048576\n"
    "                     (2^20) and W*H at most 17179869184 (2^34) pixels; the file's size\n"
    "                     (W*H*channels*bytes) is checked for overflow before anything is\n"
    "                     allocated or created\n"
    "  --tile             make the image tile seamlessly: sets the x period of every layer to\n"
    "                     W * frequency * axis-frequency-x cells and the y period to\n"
    "                     H * frequency * axis-frequency-y, which must be whole numbers (within\n"
    "                     1e-9 relative, at most 2^24) and follow the simplex period rule; an\n"
    "                     error suggests a frequency that works. Cannot be combined with\n"
    "                     --rotate, nor with a nonzero x or y entry of --period; the slice axes\n"
    "                     z and w stay non-periodic unless --period sets them (--period 0,0,6).\n"
    "                     A side of 2^n + 1 pixels (33, 65, ..., 513, 1025, 2049, 4097) repeats\n"
    "                     after 2^n: its last row or column equals its first, the convention of\n"
    "                     engines' terrain tiles (Unity, Unreal), whose neighbours share edges\n"
    "  --origin X,Y       the world pixel of the image's top-left pixel (default 0,0): pixel\n"
    "                     (i, j) samples x = X + i + 0.5, y = Y + j + 0.5; whole numbers, each\n"
    "                     -2^48..2^48. Chunk (i, j) of a world cut into N x N chunks is\n"
    "                     --origin i*N,j*N; 2^n+1 chunks sharing their edges are at\n"
    "                     i*(N-1),j*(N-1). The chunks equal the same pixels of one large\n"
    "                     render exactly (shading and normals included)\n"
    "  --threads N        threads for the noise and the PNG compression, 0..256\n"
    CLI_DEVICE_HELP
    "                     (default 0: one per core)\n"
    "  --quiet            no progress bar and no \"wrote\" line (errors and notes still shown)\n"
    CLI_RECIPE_HELP
    "  -o, --output FILE  output file (default noise.png)\n"
    "  -h, --help         show this help\n"
    "\n"
    CLI_SHAPE_HELP
    "\n"
    "Options take their value as '--opt value' or '--opt=value' (and '-o FILE'); the last one\n"
    "given wins (--layer adds one layer each time). Whole numbers are plain decimal digits:\n"
    "no sign, no spaces. Every value is checked before any file is touched.\n"
    "\n"
    "Memory: the noise is computed in strips of about 262144 pixels with the SIMD and thread\n"
    "engine and streamed to the file, so memory does not grow with the height: measured peak\n"
    "resident memory on 2 cores 20.0 MiB for a 4096x1024 png16 heightmap, 19.0 MiB for\n"
    "4096x16384 and for 32768x32768 (a 1.49 GB file), 13.2 of them the tool itself.\n"
    "\n"
    "The image goes to a temporary file in the same directory (unnamed where the file system\n"
    "allows, else FILE.tmp.XXXXXX), is flushed to disk and only then renamed over FILE, so a\n"
    "failure never leaves a partial FILE and never touches an existing one. The temporary file\n"
    "is removed on failure and on any signal that stops the tool; an unnamed one vanishes even\n"
    "on SIGKILL (see 'man cnoise', OUTPUT FILES).\n"
    "FILE must not be a directory or a special file; a symbolic link named FILE is replaced\n"
    "by the new file. On success prints \"wrote FILE (WxH)\" (png) or \"wrote FILE (WxH FORMAT)\".\n"
    "While it works it shows a progress bar with rate and time left on stderr when that is a\n"
    "terminal (never into a pipe or file; --quiet turns it off).\n"
    "\n"
    "Exit status:\n"
    "  0  success (also when samples were clipped: a note says so)\n"
    "  1  runtime failure: the file could not be written (missing or unwritable directory, disk\n"
    "     full, file-size limit, a name longer than the system accepts, ...) or the noise gave NaN\n"
    "  2  usage error: bad option or value, unsupported combination of options\n";

/* --- formats ------------------------------------------------------------------------------------ */

typedef enum rfmt {
    F_PNG, F_PNG16, F_RGB, F_R16, F_F32, F_PFM, F_NPY, F_NORMAL, F_EXR, F_EXR16, F_TIFF, F_SLOPE, F_COUNT
} rfmt;

#define FORMAT_NAMES "png, png16, rgb, r16, f32, pfm, npy, exr, exr16, tiff, normal, slope"
static const char *const fmt_name[F_COUNT] = {"png", "png16", "rgb",    "r16", "f32",   "pfm",
                                              "npy", "normal", "exr",   "exr16", "tiff", "slope"};
static const cn_image_format fmt_writer[F_COUNT] = {
    CN_IMAGE_PNG8, CN_IMAGE_PNG16,   CN_IMAGE_PNG_RGB, CN_IMAGE_R16,      CN_IMAGE_F32, CN_IMAGE_PFM,
    CN_IMAGE_NPY,  CN_IMAGE_PNG_RGB, CN_IMAGE_EXR,     CN_IMAGE_EXR_HALF, CN_IMAGE_TIFF, CN_IMAGE_PNG8};

/* The file name extensions (letter case ignored): the format a name implies without --format,
 * and the others a name with that extension may be given with --format. */
static const struct {
    const char *ext;
    rfmt implied;
    const rfmt also[4]; /* F_COUNT ends the list */
} extensions[] = {
    {"png", F_PNG, {F_PNG16, F_RGB, F_NORMAL, F_SLOPE}}, /* rgb when a colour is asked for */
    {"r16", F_R16, {F_COUNT}},
    {"raw", F_R16, {F_COUNT}}, /* Unity's terrain importer's name for 16-bit little-endian */
    {"f32", F_F32, {F_COUNT}},
    {"pfm", F_PFM, {F_COUNT}},
    {"npy", F_NPY, {F_COUNT}},
    {"exr", F_EXR, {F_EXR16, F_COUNT}},
    {"tif", F_TIFF, {F_COUNT}},
    {"tiff", F_TIFF, {F_COUNT}},
};
#define N_EXTENSIONS (sizeof extensions / sizeof extensions[0])
#define N_ALSO ((int)(sizeof extensions[0].also / sizeof extensions[0].also[0]))

/* The formats made from the heightfield's gradient (a one-pixel halo, --normal-strength). */
static int gradient_format(rfmt f)
{
    return f == F_NORMAL || f == F_SLOPE;
}

static int is_raw_values(rfmt f)
{
    return f == F_F32 || f == F_PFM || f == F_NPY || f == F_EXR || f == F_EXR16 || f == F_TIFF;
}

/* The extension of path's last component (after its last '.'), or NULL if it has none. */
static const char *extension(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot + 1 : NULL;
}

/* --- the picture ----------------------------------------------------------------------------------- */

/* The picture: its options (the targets of the option table) and what follows from them. */
typedef struct render_job {
    uint32_t width, height;
    const char *z_text, *w_text, *fmt_text, *ramp_text, *norm_text, *geo_text, *origin_text, *grad_text;
    double origin[2]; /* --origin: world pixel of pixel (0, 0) */
    int tile, shade;
    int analytic;      /* --gradient analytic: the noise's own derivatives, no halo */
    cli_light_args la; /* --light-azimuth, --light-elevation, --relief */
    double strength;   /* --normal-strength */
    /* from the options */
    cli_built gen;
    rfmt fmt;
    int fixed, quiet, threads; /* fixed: --normalize LO,HI */
    double fixed_lo, fixed_hi; /* that LO and HI as given (col.mid, col.half come from them) */
    cli_colour col;   /* normalisation, ramp, light and gradient scale (colour.h) */
    double hi;        /* minmax mode: the largest value */
    double z, w;
    float zf, wf;
    double vmin, vmax;       /* the smallest and largest value shaped (for a sidecar) */
    const cli_parse *parse;  /* the options, for a sidecar */
    uint64_t half_inf; /* exr16: finite values that become infinite halves */
    int geo_set;
    cn_image_georef geo;
    char crs_name[128];
} render_job;

/*
 * Converts rows [0, nrows) of a strip into the output buffer. vals holds ncols x nrows values
 * where, with a halo, column c + 1 and row r + 1 are pixel (c, j0 + r) and the border is the
 * neighbours outside; without one, column c and row r.
 */
static void convert(render_job *jb, const double *vals, size_t ncols, uint32_t nrows, void *out)
{
    const uint32_t W = jb->width;
    const int halo = (gradient_format(jb->fmt) || jb->shade) && !jb->analytic;
    for (uint32_t r = 0; r < nrows; r++) {
        const double *row = halo ? vals + (size_t)(r + 1) * ncols + 1 : vals + (size_t)r * ncols;
        switch (jb->fmt) {
        case F_PNG:
        case F_RGB:
            cli_colour_row(&jb->col, vals, ncols, r, W, (uint8_t *)out + (size_t)r * W * (jb->fmt == F_RGB ? 3 : 1));
            break;
        case F_PNG16:
        case F_R16: {
            cli_colour_u16_row(&jb->col, row, W, (uint16_t *)out + (size_t)r * W);
            break;
        }
        case F_F32:
        case F_PFM:
        case F_NPY:
        case F_EXR:
        case F_EXR16:
        case F_TIFF: {
            float *o = (float *)out + (size_t)r * W;
            for (uint32_t c = 0; c < W; c++)
                o[c] = (float)row[c];
            if (jb->fmt == F_EXR16)
                for (uint32_t c = 0; c < W; c++)
                    jb->half_inf += fabsf(o[c]) >= (float)HALF_INF_FROM && isfinite(o[c]);
            break;
        }
        case F_NORMAL:
            cli_normal_row(&jb->col, vals, ncols, r, W, (uint8_t *)out + (size_t)r * W * 3);
            break;
        case F_SLOPE:
            cli_slope_row(&jb->col, vals, ncols, r, W, (uint8_t *)out + (size_t)r * W);
            break;
        default:
            break;
        }
    }
}

/* Shaping: rows j0..j0+n-1 to the file's format, then to the file. */
static int shape(void *ctx, cli_sink *s, const cli_strips *st, uint32_t k, uint32_t j0, uint32_t n)
{
    render_job *jb = (render_job *)ctx;
    (void)k;
    (void)j0;
    jb->col.dvx = st->gx; /* NULL unless --gradient analytic */
    jb->col.dvy = st->gy;
    jb->col.dk = jb->col.k * cli_colour_dt(&jb->col);
    convert(jb, st->vals, st->ncols, n, st->out);
    if (s->nfiles > 1) { /* a raw file with its sidecar (no halo): the extremes as written, for f32 */
        const int f32 = fmt_writer[jb->fmt] == CN_IMAGE_F32;
        for (size_t i = 0; i < (size_t)jb->width * n; i++) {
            const double v = f32 ? (double)((const float *)st->out)[i] : st->vals[i];
            jb->vmin = v < jb->vmin ? v : jb->vmin;
            jb->vmax = v > jb->vmax ? v : jb->vmax;
        }
    }
    return cli_sink_write(s, 0, st->out, n, (size_t)jb->width * cn_image_format_channels(fmt_writer[jb->fmt]));
}

/* --normalize minmax, the first pass: the smallest and largest value of rows j0..j0+n-1. */
static int extremes(void *ctx, cli_sink *s, const cli_strips *st, uint32_t k, uint32_t j0, uint32_t n)
{
    render_job *jb = (render_job *)ctx;
    (void)s;
    (void)k;
    (void)j0;
    for (size_t i = 0; i < (size_t)jb->width * n; i++) {
        jb->col.lo = st->vals[i] < jb->col.lo ? st->vals[i] : jb->col.lo;
        jb->hi = st->vals[i] > jb->hi ? st->vals[i] : jb->hi;
    }
    return 0;
}

/* A pass over the image through shape fn into s; gradient: with the ring of neighbours, or with
 * --gradient analytic the noise's derivatives. */
static int pass(render_job *jb, cli_sink *s, cli_shape_fn fn, int gradient, size_t out_row, int open)
{
    cli_strips st = {.width = jb->width, .height = jb->height, .origin = {jb->origin[0], jb->origin[1]},
                     .halo = gradient && !jb->analytic, .grad = gradient && jb->analytic,
                     .planes = 1, .nan_at = CLI_NAN_PIXEL, .shape = fn, .ctx = jb, .out_row = out_row};
    cli_field_init(&st.field, &jb->gen, jb->threads, jb->z, jb->w, jb->zf, jb->wf);
    int r = cli_strips_alloc(&st, s) == 0 && (!open || cli_sink_open(s) == 0) && cli_strips_run(&st, s) == 0 ? 0 : -1;
    cli_strips_free(&st);
    return r;
}

/* The range the levels span, [mid - half, mid + half], as the user reads it: --normalize LO,HI
 * as given (mid and half from them may round LO to a neighbour of it), else the range itself. */
static void range_shown(const render_job *jb, double r[2])
{
    r[0] = jb->fixed ? jb->fixed_lo : jb->col.mid - jb->col.half;
    r[1] = jb->fixed ? jb->fixed_hi : jb->col.mid + jb->col.half;
}

/* The sidecar of a raw file: what the samples are, and the options that made them. Sets it as
 * the content of sink file 1; 0, or -1 with the reason in s->err. */
static int describe(render_job *jb, cli_sink *s)
{
    const int r16 = fmt_writer[jb->fmt] == CN_IMAGE_R16;
    cli_sidecar_info info = {.format = fmt_name[jb->fmt], .sample_type = r16 ? "uint16" : "float32",
                             .width = jb->width, .height = jb->height,
                             .layout = "rows top to bottom, pixels left to right; pixel (i, j) is the noise at "
                                       "x = X + i + 0.5, y = Y + j + 0.5 (X, Y: --origin)",
                             .have_minmax = 1, .min = jb->vmin, .max = jb->vmax};
    if (jb->col.minmax) {
        info.range[0] = jb->col.lo;
        info.range[1] = jb->hi;
    } else {
        range_shown(jb, info.range);
    }
    if (r16) {
        info.encoding = "value = value_range[0] + (value_range[1] - value_range[0]) * sample / 65535; "
                        "values outside value_range were clamped to 0 or 65535";
    } else {
        info.encoding = "the noise values themselves (float32); value_range is the documented range";
    }
    return cli_sink_describe(s, 1, &info, jb->parse);
}

static int render(render_job *jb, const char *output)
{
    const uint32_t W = jb->width, H = jb->height;
    const cn_image_format wf = fmt_writer[jb->fmt];
    const uint64_t pixels = (uint64_t)W * H;
    const int sidecar = wf == CN_IMAGE_R16 || wf == CN_IMAGE_F32;
    char *sidecar_path = NULL;
    cli_sink s;
    cli_sink_init(&s, prog, jb->quiet, jb->threads);
    cli_sink_file *f = cli_sink_raster(&s, output, wf, W, H, 0);
    if (jb->geo_set)
        f->geo = &jb->geo;
    if (sidecar) {
        if (cli_sink_sidecar(&s, output, &sidecar_path) < 0)
            return CLI_EXIT_FAILURE;
        jb->vmin = INFINITY;
        jb->vmax = -INFINITY;
    }
    if (jb->fmt == F_PNG && !jb->shade)
        snprintf(f->about, sizeof f->about, "%lux%lu", (unsigned long)W, (unsigned long)H);
    else if (jb->geo_set)
        snprintf(f->about, sizeof f->about, "%lux%lu %s, EPSG:%u %s", (unsigned long)W, (unsigned long)H,
                 fmt_name[jb->fmt], jb->geo.epsg, jb->crs_name);
    else
        snprintf(f->about, sizeof f->about, "%lux%lu %s%s", (unsigned long)W, (unsigned long)H, fmt_name[jb->fmt],
                 jb->shade ? ", shaded" : "");
    cli_sink_progress(&s, "px", jb->col.minmax ? 2 * pixels : pixels);
    int ok = 1;
    if (jb->col.minmax) {
        /* A first pass for the image's own range. */
        jb->col.lo = INFINITY;
        jb->hi = -INFINITY;
        ok = pass(jb, &s, extremes, 0, 0, 0) == 0;
        jb->col.span = jb->hi - jb->col.lo;
        if (ok && !isfinite(jb->col.span)) {
            cli_sink_fail(&s, "--normalize minmax: the values span more than the largest double");
            ok = 0;
        }
    }
    const size_t out_row = (size_t)W * cn_image_format_channels(wf) * cn_image_format_sample_bytes(wf);
    ok = ok && pass(jb, &s, shape, gradient_format(jb->fmt) || jb->shade, out_row, 1) == 0;
    ok = ok && (!sidecar || describe(jb, &s) == 0);
    const int rc = cli_sink_close(&s, ok);
    if (rc == CLI_EXIT_OK) {
        double shown[2];
        range_shown(jb, shown);
        cli_note_clipped(prog, jb->col.clipped, pixels, "samples", shown[0], shown[1],
                         " (--normalize minmax stretches the image to its own range instead)");
        if (jb->half_inf)
            fprintf(stderr,
                    "%s: note: %llu of %llu samples are beyond the half-float range (+-65504) and were written as "
                    "infinity (--format exr keeps them as float32)\n",
                    prog, (unsigned long long)jb->half_inf, (unsigned long long)pixels);
        cli_sink_wrote(&s);
    }
    free(sidecar_path);
    return rc;
}

/* --- options ------------------------------------------------------------------------------------- */

/* The extensions entry of ext (NULL for none or an unknown one). */
static int find_extension(const char *ext)
{
    for (size_t k = 0; ext && k < N_EXTENSIONS; k++)
        if (strcasecmp(ext, extensions[k].ext) == 0)
            return (int)k;
    return -1;
}

/* Whether a file named .ext (entry k) may hold format f. */
static int extension_holds(int k, rfmt f)
{
    if (extensions[k].implied == f)
        return 1;
    for (int a = 0; a < N_ALSO && extensions[k].also[a] != F_COUNT; a++)
        if (extensions[k].also[a] == f)
            return 1;
    return 0;
}

/* The formats a .ext file (entry k) may hold, as words for a message. */
static void extension_formats(int k, char *buf, size_t len)
{
    rfmt list[1 + N_ALSO];
    list[0] = extensions[k].implied;
    int n = 1;
    for (int a = 0; a < N_ALSO && extensions[k].also[a] != F_COUNT; a++)
        list[n++] = extensions[k].also[a];
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", fmt_name[list[i]]);
    }
}

/* Picks the format from --format (fmt_text, may be NULL) and the file name. */
static int choose_format(const char *fmt_text, const char *output, int want_colour, rfmt *out)
{
    char q[128];
    int given = -1;
    if (fmt_text) {
        for (int f = 0; f < F_COUNT; f++)
            if (strcmp(fmt_text, fmt_name[f]) == 0)
                given = f;
        if (given < 0) {
            cli_error(prog, "--format: %s is not one of " FORMAT_NAMES, cli_quote(fmt_text, q, sizeof q));
            return -1;
        }
    }
    const char *ext = extension(output);
    const int k = find_extension(ext);
    if (given >= 0) {
        if (k >= 0 && !extension_holds(k, (rfmt)given)) {
            char holds[64];
            extension_formats(k, holds, sizeof holds);
            cli_error(prog, "--format %s does not match the file name %s (a .%s file is %s); change one of them",
                      fmt_name[given], cli_quote(output, q, sizeof q), ext, holds);
            return -1;
        }
        *out = (rfmt)given;
        return 0;
    }
    if (ext && k < 0) {
        cli_error(prog,
                  "cannot tell the format of %s from its extension: give --format (" FORMAT_NAMES ") or name it "
                  ".png, .r16, .raw, .f32, .pfm, .npy, .exr, .tif or .tiff",
                  cli_quote(output, q, sizeof q));
        return -1;
    }
    if (k < 0 || extensions[k].implied == F_PNG) {
        *out = want_colour ? F_RGB : F_PNG;
        return 0;
    }
    *out = extensions[k].implied;
    return 0;
}

/* --geo EPSG:CODE,X,Y,SIZE[,SIZE_Y] into jb->geo, checked (the CRS looked up). */
static int parse_geo(render_job *jb, const char *text)
{
    char q[128], why[256];
    double v[5];
    int n = 0;
    int ok = strncasecmp(text, "EPSG:", 5) == 0;
    const char *p = text + 5;
    unsigned long long code = 0;
    if (ok) {
        /* the code: plain decimal digits */
        const char *d = p;
        while (*p >= '0' && *p <= '9' && p - d < 6)
            code = code * 10 + (unsigned)(*p++ - '0');
        ok = p > d && *p == ',' && code <= 0xffffffffu;
    }
    while (ok && *p == ',' && n < 5) {
        const char *start = ++p;
        while (*p && *p != ',')
            p++;
        char num[64];
        size_t len = (size_t)(p - start);
        ok = len > 0 && len < sizeof num;
        if (ok) {
            memcpy(num, start, len);
            num[len] = '\0';
            ok = cli_parse_double(num, 1, &v[n]) == CLI_NUM_OK;
            n++;
        }
    }
    if (!ok || *p != '\0' || n < 3 || n > 4) {
        cli_error(prog, "--geo: %s is not EPSG:CODE,X,Y,SIZE or EPSG:CODE,X,Y,SIZE_X,SIZE_Y (finite numbers)",
                  cli_quote(text, q, sizeof q));
        return -1;
    }
    jb->geo.epsg = (unsigned)code;
    jb->geo.x = v[0];
    jb->geo.y = v[1];
    jb->geo.pixel_x = v[2];
    jb->geo.pixel_y = n == 4 ? v[3] : v[2];
    if (cn_image_georef_check(&jb->geo, jb->crs_name, sizeof jb->crs_name, why, sizeof why) != 0) {
        cli_error(prog, "--geo: %s", why);
        return -1;
    }
    jb->geo_set = 1;
    return 0;
}

/* --gradient analytic: whether the configured noise has derivatives (not cellular noise, in the
 * layers and the warp's fields), by evaluating the first pixel's. */
static int check_gradient(render_job *jb)
{
    cli_field f;
    double v, gx, gy;
    char err[256];
    cli_field_init(&f, &jb->gen, 1, jb->z, jb->w, jb->zf, jb->wf);
    const int r = cli_field_eval_grad(&f, jb->origin[0] + 0.5, jb->origin[1] + 0.5, 1, 1, &v, &gx, &gy, err, sizeof err);
    cli_field_free(&f);
    if (r == 0)
        return CLI_EXIT_OK;
    cli_error(prog, "--gradient analytic: %s (cellular noise has no derivatives; use --gradient fd)",
              err);
    return CLI_EXIT_USAGE;
}

int cli_cmd_render(int argc, char **argv)
{
    static const cli_option opts[] = {
        CLI_NOISE_OPTIONS,
        CLI_SIZE("size", render_job, width, height),
        CLI_TEXT("origin", render_job, origin_text),
        CLI_TEXT("z", render_job, z_text),
        CLI_TEXT("w", render_job, w_text),
        CLI_FLAG("tile", render_job, tile),
        CLI_TEXT("format", render_job, fmt_text),
        CLI_TEXT("geo", render_job, geo_text),
        CLI_TEXT("ramp", render_job, ramp_text),
        CLI_TEXT("normalize", render_job, norm_text),
        CLI_FLAG("shade", render_job, shade),
        CLI_LIGHT_OPTIONS(render_job, la),
        CLI_POSITIVE("normal-strength", render_job, strength),
        CLI_TEXT("gradient", render_job, grad_text),
        CLI_OUTPUT_OPTIONS,
        CLI_OPTIONS_END,
    };
    render_job jb = {.width = DEFAULT_SIZE, .height = DEFAULT_SIZE, .parse = NULL,
                     .la = {CLI_LIGHT_AZIMUTH, CLI_LIGHT_ELEVATION, DEFAULT_RELIEF}, .strength = DEFAULT_STRENGTH};
    cli_parse p = {.prog = prog, .help = help_text, .opts = opts, .args = &jb, .frequency = DEFAULT_FREQUENCY,
                   .dims = 2, .output = DEFAULT_OUTPUT};
    int rc = cli_parse_args(&p, argc, argv);
    if (rc >= 0)
        return rc;
    jb.parse = &p;
    const uint32_t width = jb.width, height = jb.height;
    const int shade = jb.shade, azimuth_set = cli_given(&p, "light-azimuth"),
              elevation_set = cli_given(&p, "light-elevation"), relief_set = cli_given(&p, "relief");
    const char *norm_text = jb.norm_text, *ramp_text = jb.ramp_text;
    char q[128];

    /* Everything is validated here, before any file is touched. */
    const char *output = p.out.output;
    jb.quiet = p.out.quiet;
    jb.threads = p.out.threads;
    if (choose_format(jb.fmt_text, output, ramp_text != NULL, &jb.fmt) != 0)
        return CLI_EXIT_USAGE;
    if (jb.geo_text) {
        if (jb.fmt != F_TIFF) {
            cli_error(prog, "--geo georeferences a GeoTIFF: it needs --format tiff or a .tif/.tiff name (the "
                            "format here is %s)",
                      fmt_name[jb.fmt]);
            return CLI_EXIT_USAGE;
        }
        if (parse_geo(&jb, jb.geo_text) != 0)
            return CLI_EXIT_USAGE;
    }
    if (ramp_text && jb.fmt != F_RGB) {
        cli_error(prog, "--ramp colours an rgb image; the format here is %s (give --format rgb)", fmt_name[jb.fmt]);
        return CLI_EXIT_USAGE;
    }
    if (shade && jb.fmt != F_PNG && jb.fmt != F_RGB) {
        cli_error(prog, "--shade makes a png (the shade alone) or an rgb image (shaded colours), not %s",
                  fmt_name[jb.fmt]);
        return CLI_EXIT_USAGE;
    }
    if (!shade && (azimuth_set || elevation_set || relief_set)) {
        cli_error(prog, "%s needs --shade", azimuth_set ? "--light-azimuth" : elevation_set ? "--light-elevation" : "--relief");
        return CLI_EXIT_USAGE;
    }
    if (cli_given(&p, "normal-strength") && !gradient_format(jb.fmt)) {
        cli_error(prog, "--normal-strength needs --format normal or slope (the format here is %s)", fmt_name[jb.fmt]);
        return CLI_EXIT_USAGE;
    }
    if (jb.grad_text) {
        if (strcmp(jb.grad_text, "analytic") != 0 && strcmp(jb.grad_text, "fd") != 0) {
            cli_error(prog, "--gradient: %s is neither fd nor analytic", cli_quote(jb.grad_text, q, sizeof q));
            return CLI_EXIT_USAGE;
        }
        if (!gradient_format(jb.fmt) && !shade) {
            cli_error(prog, "--gradient is how --format normal, --format slope and --shade find the slope; the "
                            "format here is %s without --shade",
                      fmt_name[jb.fmt]);
            return CLI_EXIT_USAGE;
        }
        jb.analytic = strcmp(jb.grad_text, "analytic") == 0;
        if (jb.analytic && (p.out.device == CLI_DEVICE_OPENCL || p.out.device == CLI_DEVICE_GPU)) {
            cli_error(prog, "--gradient analytic: the derivatives are evaluated on the CPU only; use --device cpu "
                            "or auto");
            return CLI_EXIT_USAGE;
        }
    }
    if (norm_text) {
        if (strcmp(norm_text, "minmax") == 0) {
            jb.col.minmax = 1;
        } else if (strcmp(norm_text, "range") != 0) {
            /* LO,HI: two finite numbers, LO < HI */
            const char *comma = strchr(norm_text, ',');
            char lo_text[64];
            double lo, hi;
            size_t len = comma ? (size_t)(comma - norm_text) : 0;
            int ok = comma && len < sizeof lo_text;
            if (ok) {
                memcpy(lo_text, norm_text, len);
                lo_text[len] = '\0';
                ok = cli_parse_double(lo_text, 1, &lo) == CLI_NUM_OK &&
                     cli_parse_double(comma + 1, 1, &hi) == CLI_NUM_OK && lo < hi &&
                     isfinite((hi - lo) / 2) && isfinite((lo + hi) / 2);
            }
            if (!ok) {
                cli_error(prog, "--normalize: %s is not range, minmax, nor LO,HI (two finite numbers, LO < HI)",
                          cli_quote(norm_text, q, sizeof q));
                return CLI_EXIT_USAGE;
            }
            jb.fixed = 1;
            jb.fixed_lo = lo;
            jb.fixed_hi = hi;
            jb.col.mid = lo / 2 + hi / 2;
            jb.col.half = hi / 2 - lo / 2;
        }
        if (is_raw_values(jb.fmt)) {
            cli_error(prog, "--normalize: %s files hold the noise values as they are; normalisation applies to png, "
                            "png16, rgb, r16, normal and slope",
                      fmt_name[jb.fmt]);
            return CLI_EXIT_USAGE;
        }
    }
    if (jb.fmt == F_RGB) {
        char why[256];
        if (cli_ramp_parse(ramp_text ? ramp_text : DEFAULT_RAMP, &jb.col.ramp, why, sizeof why) != 0) {
            cli_error(prog, "--ramp: %s", why);
            return CLI_EXIT_USAGE;
        }
    }
    if (shade)
        cli_light_init(&jb.col.light, jb.la.azimuth, jb.la.elevation); /* both checked by the option parsers */
    char err[256];
    if (cn_image_check_size(fmt_writer[jb.fmt], width, height, 0, NULL, err, sizeof err) != 0) {
        cli_error(prog, "--size: %s", err);
        return CLI_EXIT_USAGE;
    }

    const int dims = p.noise.dims;
    char zneed[64], wneed[64];
    snprintf(zneed, sizeof zneed, "--dims 3 or 4 (the slice is %dD)", dims);
    snprintf(wneed, sizeof wneed, "--dims 4 (the slice is %dD)", dims);
    if (cli_opt_slice(prog, "--z", jb.z_text, dims >= 3, zneed, p.noise.use_float, &jb.z, &jb.zf) != 0 ||
        cli_opt_slice(prog, "--w", jb.w_text, dims >= 4, wneed, p.noise.use_float, &jb.w, &jb.wf) != 0 ||
        cli_opt_origin(prog, "--origin", jb.origin_text, 2, jb.origin) != 0)
        return CLI_EXIT_USAGE;
    if (cli_noise_finish(prog, &p.noise) != 0)
        return CLI_EXIT_USAGE;
    if (jb.tile && cli_tile_image(prog, &p.noise, dims, width, height) != 0)
        return CLI_EXIT_USAGE;
    /* The largest coordinates (the halo included) times the frequency must stay finite. */
    const double maxp[4] = {fabs(jb.origin[0]) + (double)width + 1.5, fabs(jb.origin[1]) + (double)height + 1.5,
                            fabs(jb.z), fabs(jb.w)};
    if (cli_noise_build_for(prog, &p.noise, dims, maxp, &jb.gen) != 0)
        return CLI_EXIT_USAGE;
    if (is_raw_values(jb.fmt) && cli_field_range(&jb.gen, &jb.col.mid, &jb.col.half) != 0)
        jb.col.mid = jb.col.half = NAN; /* only for a sidecar's value_range, which is then null */
    if (!is_raw_values(jb.fmt) && !jb.col.minmax && !jb.fixed && cli_field_range(&jb.gen, &jb.col.mid, &jb.col.half) != 0) {
        cli_built_free(&jb.gen);
        cli_error(prog, "--amplitude, --bias, --weight: the range of values is too large to map to gray levels");
        return CLI_EXIT_USAGE;
    }
    jb.col.k = (gradient_format(jb.fmt) ? jb.strength : jb.la.relief) / p.noise.spec[0].cfg.frequency;
    jb.col.rgb = jb.fmt == F_RGB;
    jb.col.shade = shade;
    if (jb.analytic && (rc = check_gradient(&jb)) != CLI_EXIT_OK) {
        cli_built_free(&jb.gen);
        return rc;
    }
    /* --gradient analytic evaluates on the CPU (auto: no device is opened) */
    const int device = jb.analytic ? CLI_DEVICE_CPU : p.out.device;
    if (!cli_check_only && (rc = cli_device_open(prog, device, &jb.gen)) != CLI_EXIT_OK) {
        cli_built_free(&jb.gen);
        return rc;
    }
    rc = cli_check_only ? CLI_EXIT_OK : render(&jb, output);
    if (rc == CLI_EXIT_OK && !cli_check_only)
        rc = cli_save_recipe(&p);
    cli_built_free(&jb.gen);
    return rc;
}
