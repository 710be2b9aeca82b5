/*
 * cmd_map.c -- "cnoise map": a coloured, shaded-relief terrain map of a fractal world.
 *
 * Height: fBm of 2D noise (cnoise's fractal sum, in [-1, 1]). Colour: the ramp, with the sea
 * level at its middle. Relief: Lambert hillshading of the land under a distant light. The map
 * is computed in strips with the batch engine and streamed to an RGB PNG, like "cnoise render".
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
#include "ramp.h"
#include "shade.h"
#include "sink.h"

static const char *const prog = "cnoise map";

/* The default world, also quoted in the help text. */
#define DEFAULT_OUTPUT "map.png"
#define DEFAULT_WIDTH 1024u
#define DEFAULT_HEIGHT 512u
#define DEFAULT_SEED 8u
#define DEFAULT_SCALE 256.0
#define DEFAULT_OCTAVES 9
#define DEFAULT_GAIN 0.45
#define DEFAULT_SEA 0.0
#define DEFAULT_RELIEF 0.5
#define DEFAULT_RAMP "terrain"
#define SEA_SHADE 0.1 /* how much of the seabed's relief shows through the water */

static const char help_text[] =
    "Usage: cnoise map [options]\n"
    "\n"
    "Writes a colour terrain map of a fractal world as an RGB PNG and prints where it went.\n"
    "With no options: a 1024x512 world (seed 8) written to map.png.\n"
    "\n"
    "The world: the height of pixel (i, j) is fBm of 2D noise at (i + 0.5, j + 0.5) times\n"
    "--frequency, a value v in [-1, 1] (the same value 'cnoise sample --dims 2 --fractal fbm'\n"
    "prints with the same options). Heights below --sea-level are sea. Colours come from the\n"
    "ramp with the coast at its middle: a sea pixel takes the colour at\n"
    "0.5 * (v + 1) / (sea + 1) (the deepest possible sea, -1, at 0), a land pixel the colour at\n"
    "0.5 + 0.5 * (v - sea) / (1 - sea) (the highest possible peak, 1, at 1). Land is\n"
    "hillshaded by a distant light (Lambert's law on the gradient of v, taken over the four\n"
    "neighbouring pixels): its colour is multiplied by 0.4 + 0.6 * I / sin(elevation), 1 on\n"
    "flat ground; the sea is flat, with a tenth of the seabed's relief showing through.\n"
    "\n"
    "Options:\n"
    "  --seed N           64-bit seed, decimal or 0x hex; a negative -n is 2^64-n (default 8)\n"
    "  --size WxH         map size (default 1024x512): each side 1..1048576 (2^20), W*H at\n"
    "                     most 2^34 pixels\n"
    "  --scale S          size of the largest features in pixels: one lattice cell of the\n"
    "                     first octave, i.e. --frequency 1/S (finite, > 0; default 256)\n"
    "  --frequency F      the same as --scale 1/F (finite, > 0; default 1/256); the last of\n"
    "                     --scale and --frequency wins\n"
    "  --noise NAME       " CLI_HELP_NOISE "\n"
    "  --octaves N        whole number 1..32 (default 9): detail\n"
    "  --lacunarity L     finite number in [1, 64] (default 2); a whole number with --tile\n"
    "  --gain G           finite number in (0, 4] (default 0.45): roughness\n"
    "  --sea-level L      finite number in [-1, 1] (default 0): heights below it are sea\n"
    "  --ramp R           colour ramp (default terrain), the coast at 0.5: a preset or stops\n"
    "                     'POS:#RRGGBB,...' (positions from 0 to 1, increasing). Presets:\n"
    "                       terrain  deep sea, shallows, beach, green lowland, hills, rock, snow\n"
    "                       land     green lowland, brown hills, grey rock, snow (no sea)\n"
    "                       ocean    abyss to shallow water\n"
    "                       heat     black, red, orange, yellow, white\n"
    "                       dusk     violet, blue, teal, green, yellow (perceptually ordered)\n"
    "                       gray     black to white\n"
    "  --light-azimuth A  direction the light comes from, degrees clockwise from the top of\n"
    "                     the map (finite; default 315: the top left)\n"
    "  --light-elevation E  height of the light above the horizon, degrees in (0, 90]\n"
    "                     (default 45); lower is more dramatic\n"
    "  --relief R         vertical exaggeration (finite, > 0; default 0.5): the heights -1..1\n"
    "                     span 2 * R lattice cells, i.e. 2 * R * S pixels\n"
    "  --tile             make the map tile seamlessly (wrap around left-right and top-bottom):\n"
    "                     W and H times the frequency must be whole numbers of cells, and\n"
    "                     --lacunarity a whole number; an error suggests a frequency. A side\n"
    "                     of 2^n + 1 pixels (513, 1025, ...) repeats after 2^n: its last row or\n"
    "                     column equals its first, as game engines' terrain tiles share edges\n"
    "  --origin X,Y       the world pixel of the map's top-left pixel (default 0,0): whole\n"
    "                     numbers, each -2^48..2^48; chunk (i, j) of size N is --origin\n"
    "                     i*N,j*N (i*(N-1),j*(N-1) for shared-edge 2^n+1 chunks) and matches\n"
    "                     the same pixels of one large map exactly\n"
    "  --threads N        threads for the noise and the PNG compression, 0..256\n"
    CLI_DEVICE_HELP
    "                     (default 0: one per core)\n"
    "  --quiet            no progress bar and no \"wrote\" line\n"
    CLI_RECIPE_HELP
    "  -o, --output FILE  output PNG (default map.png); the same safe replacement as render:\n"
    "                     a temporary file in the same directory, renamed into place when\n"
    "                     complete, removed on any failure or signal that stops the tool\n"
    "  -h, --help         show this help\n"
    "\n"
    "On success prints \"wrote FILE (WxH)\". A progress bar with rate and time left is shown\n"
    "on stderr when that is a terminal (never into a pipe or file).\n"
    "\n"
    "Exit status: 0 success, 1 the file could not be written (a refused path, a name too long,\n"
    "disk full, file-size limit, ...), 2 usage error.\n";

/* The map: its options (the targets of the option table) and what follows from them. */
typedef struct map_job {
    uint32_t width, height;
    double sea;        /* --sea-level */
    const char *ramp_text, *origin_text;
    cli_light_args la; /* --light-azimuth, --light-elevation, --relief */
    int tile;
    double origin[2];  /* --origin */
    /* from the options */
    cli_built gen;
    cli_ramp ramp;
    cli_light light;
    double k; /* gradient scale: pixels of height per unit of v */
    int threads, quiet;
    uint64_t clipped;
} map_job;

/* Ramp position of a height (see the help text). */
static double position(map_job *jb, double v)
{
    if (v < -1.0 || v > 1.0) {
        jb->clipped++;
        v = v < -1.0 ? -1.0 : 1.0;
    }
    const double s = jb->sea;
    if (v < s)
        return 0.5 * (v + 1.0) / (s + 1.0);
    if (s >= 1.0)
        return 1.0;
    return 0.5 + 0.5 * (v - s) / (1.0 - s);
}

/* Shaping: colours rows j0..j0+n-1; the strip has a one-pixel halo (ncols = W + 2). */
static int colour(void *ctx, cli_sink *s, const cli_strips *st, uint32_t k, uint32_t j0, uint32_t n)
{
    map_job *jb = (map_job *)ctx;
    const uint32_t W = jb->width;
    const size_t ncols = st->ncols;
    (void)k;
    (void)j0;
    for (uint32_t r = 0; r < n; r++) {
        const double *above = st->vals + (size_t)r * ncols, *mid = above + ncols, *below = mid + ncols;
        uint8_t *o = (uint8_t *)st->out + (size_t)r * W * 3;
        for (uint32_t c = 0; c < W; c++) {
            double v = mid[c + 1], gx, gy, rgb[3];
            cli_gradient(above, mid, below, c, jb->k, &gx, &gy);
            double f = cli_shade_factor(&jb->light, gx, gy);
            if (v < jb->sea)
                f = 1.0 + (f - 1.0) * SEA_SHADE;
            cli_ramp_eval(&jb->ramp, position(jb, v), rgb);
            for (int ch = 0; ch < 3; ch++)
                o[3 * c + ch] = cli_ramp_byte(rgb[ch] * f);
        }
    }
    return cli_sink_write(s, 0, st->out, n, (size_t)W * 3);
}

static int draw(map_job *jb, const char *output)
{
    const uint32_t W = jb->width, H = jb->height;
    cli_sink s;
    cli_sink_init(&s, prog, jb->quiet, jb->threads);
    snprintf(cli_sink_raster(&s, output, CN_IMAGE_PNG_RGB, W, H, 0)->about, sizeof s.file[0].about, "%lux%lu",
             (unsigned long)W, (unsigned long)H);
    cli_strips st = {.width = W, .height = H, .origin = {jb->origin[0], jb->origin[1]}, .halo = 1, .planes = 1,
                     .nan_at = CLI_NAN_NEAR_ROW, .shape = colour, .ctx = jb, .out_row = (size_t)W * 3};
    cli_field_init(&st.field, &jb->gen, jb->threads, 0.0, 0.0, 0.0f, 0.0f);
    int ok = cli_strips_alloc(&st, &s) == 0 && cli_sink_open(&s) == 0;
    if (ok) {
        cli_sink_progress(&s, "px", (uint64_t)W * H);
        ok = cli_strips_run(&st, &s) == 0;
    }
    const int rc = cli_sink_close(&s, ok);
    cli_strips_free(&st);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (jb->clipped)
        fprintf(stderr, "%s: note: %llu heights were outside [-1, 1] and were clipped to it\n", prog,
                (unsigned long long)jb->clipped);
    cli_sink_wrote(&s);
    return CLI_EXIT_OK;
}

/* The default world: fBm of DEFAULT_OCTAVES octaves, seed DEFAULT_SEED. */
static void world(cli_noise_opts *o)
{
    cn_config *cfg = &o->spec[0].cfg;
    cfg->seed = DEFAULT_SEED;
    cfg->fractal = CN_FRACTAL_FBM;
    cfg->octaves = DEFAULT_OCTAVES;
    cfg->gain = DEFAULT_GAIN;
}

/* --scale S: --frequency 1/S (the last of the two wins). */
static int scale_option(cli_parse *p, const char *value)
{
    double scale;
    cn_config *cfg = &p->noise.spec[0].cfg;
    if (cli_opt_positive(prog, "--scale", value, &scale) != 0)
        return -1;
    cfg->frequency = 1.0 / scale;
    if (!(cfg->frequency > 0.0) || !isfinite(cfg->frequency)) {
        char q[128];
        cli_error(prog, "--scale: %s is too small (1/scale overflows)", cli_quote(value, q, sizeof q));
        return -1;
    }
    return 0;
}

int cli_cmd_map(int argc, char **argv)
{
    static const cli_option opts[] = {
        CLI_SHARED("seed", 0, 1, CLI_OPT_SEED),
        CLI_SHARED("noise", 0, 1, CLI_OPT_NOISE),
        CLI_SHARED("frequency", 0, 1, CLI_OPT_FREQUENCY),
        CLI_SHARED("octaves", 0, 1, CLI_OPT_OCTAVES),
        CLI_SHARED("lacunarity", 0, 1, CLI_OPT_LACUNARITY),
        CLI_SHARED("gain", 0, 1, CLI_OPT_GAIN),
        CLI_SHARED("help", 'h', 0, CLI_OPT_HELP),
        CLI_SIZE("size", map_job, width, height),
        CLI_CALL("scale", scale_option),
        CLI_INTERVAL("sea-level", map_job, sea, -1.0, 0, 1.0),
        CLI_TEXT("ramp", map_job, ramp_text),
        CLI_LIGHT_OPTIONS(map_job, la),
        CLI_FLAG("tile", map_job, tile),
        CLI_TEXT("origin", map_job, origin_text),
        CLI_OUTPUT_OPTIONS,
        CLI_OPTIONS_END,
    };
    map_job jb = {.width = DEFAULT_WIDTH, .height = DEFAULT_HEIGHT, .sea = DEFAULT_SEA, .ramp_text = DEFAULT_RAMP,
                  .la = {CLI_LIGHT_AZIMUTH, CLI_LIGHT_ELEVATION, DEFAULT_RELIEF}};
    cli_parse p = {.prog = prog, .help = help_text, .opts = opts, .args = &jb, .frequency = 1.0 / DEFAULT_SCALE,
                   .dims = 2, .output = DEFAULT_OUTPUT, .defaults = world};
    int rc = cli_parse_args(&p, argc, argv);
    if (rc >= 0)
        return rc;
    jb.threads = p.out.threads;
    jb.quiet = p.out.quiet;
    const char *output = p.out.output;

    char why[512];
    if (cli_ramp_parse(jb.ramp_text, &jb.ramp, why, sizeof why) != 0) {
        cli_error(prog, "--ramp: %s", why);
        return CLI_EXIT_USAGE;
    }
    cli_light_init(&jb.light, jb.la.azimuth, jb.la.elevation); /* both checked above */
    if (cn_image_check_size(CN_IMAGE_PNG_RGB, jb.width, jb.height, 0, NULL, why, sizeof why) != 0) {
        cli_error(prog, "--size: %s", why);
        return CLI_EXIT_USAGE;
    }
    if (cli_opt_origin(prog, "--origin", jb.origin_text, 2, jb.origin) != 0 || cli_noise_finish(prog, &p.noise) != 0)
        return CLI_EXIT_USAGE;
    if (jb.tile && cli_tile_image(prog, &p.noise, 2, jb.width, jb.height) != 0)
        return CLI_EXIT_USAGE;
    const double maxp[4] = {fabs(jb.origin[0]) + (double)jb.width + 1.5, fabs(jb.origin[1]) + (double)jb.height + 1.5,
                            0, 0};
    if (cli_noise_build_for(prog, &p.noise, 2, maxp, &jb.gen) != 0)
        return CLI_EXIT_USAGE;
    jb.k = jb.la.relief / p.noise.spec[0].cfg.frequency;
    if (!cli_check_only && (rc = cli_device_open(prog, p.out.device, &jb.gen)) != CLI_EXIT_OK) {
        cli_built_free(&jb.gen);
        return rc;
    }
    rc = cli_check_only ? CLI_EXIT_OK : draw(&jb, output);
    if (rc == CLI_EXIT_OK && !cli_check_only)
        rc = cli_save_recipe(&p);
    cli_built_free(&jb.gen);
    return rc;
}
