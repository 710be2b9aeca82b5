/*
 * test_cli_units.c -- the CLI's own building blocks, without the tool: colour ramps (parser and
 * interpolation), the light and shading formulas, normal-map encoding, the progress line, the
 * option tables (options.h) and the period solver of --tile and --loop (field.h).
 * Expected values are worked out by hand from the formulas in ramp.h, shade.h and progress.h.
 */
#include <math.h>
#include <string.h>

#include "args.h"
#include "cn_image.h"
#include "field.h"
#include "options.h"
#include "progress.h"
#include "ramp.h"
#include "shade.h"
#include "test.h"

static void test_ramp(void)
{
    cli_ramp r;
    char why[256];
    CHECK(cli_ramp_parse("0:#000000,0.25:#ff8000,1:#FFffFF", &r, why, sizeof why) == 0, "%s", why);
    CHECK(r.n == 3 && r.pos[1] == 0.25 && r.rgb[1][0] == 255 && r.rgb[1][1] == 128 && r.rgb[1][2] == 0,
          "stops parsed: n %d", r.n);
    double c[3];
    cli_ramp_eval(&r, 0.125, c); /* halfway from black to #ff8000 */
    CHECK(c[0] == 127.5 && c[1] == 64.0 && c[2] == 0.0, "0.125 -> %g %g %g", c[0], c[1], c[2]);
    cli_ramp_eval(&r, 0.625, c); /* halfway from #ff8000 to white */
    CHECK(c[0] == 255.0 && c[1] == 191.5 && c[2] == 127.5, "0.625 -> %g %g %g", c[0], c[1], c[2]);
    cli_ramp_eval(&r, 0.25, c);
    CHECK(c[0] == 255.0 && c[1] == 128.0 && c[2] == 0.0, "a stop gives its colour exactly");
    cli_ramp_eval(&r, -3.0, c);
    CHECK(c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0, "below 0: the first colour");
    cli_ramp_eval(&r, 7.0, c);
    CHECK(c[0] == 255.0 && c[1] == 255.0 && c[2] == 255.0, "above 1: the last colour");
    cli_ramp_eval(&r, NAN, c);
    CHECK(c[0] == 0.0, "NaN: the first colour");
    CHECK(cli_ramp_byte(127.5) == 128 && cli_ramp_byte(127.49) == 127 && cli_ramp_byte(-1) == 0 &&
              cli_ramp_byte(300) == 255 && cli_ramp_byte(NAN) == 0,
          "byte rounding half up, clamped");

    /* Every preset parses, starts at 0 and ends at 1. */
    int presets = 0;
    for (const cli_ramp_preset *p = cli_ramp_presets; p->name; p++, presets++) {
        CHECK(cli_ramp_parse(p->name, &r, why, sizeof why) == 0, "preset %s: %s", p->name, why);
        CHECK(r.pos[0] == 0.0 && r.pos[r.n - 1] == 1.0, "preset %s spans 0..1", p->name);
    }
    CHECK(presets == 6, "six presets (%d)", presets);
    CHECK(cli_ramp_parse("gray", &r, why, sizeof why) == 0 && r.n == 2 && r.rgb[0][0] == 0 && r.rgb[1][2] == 255,
          "gray is black to white");

    static const struct {
        const char *text, *why;
    } bad[] = {
        {"", "empty"},
        {"0:#000000", "1 stop"},
        {"0:#000000,1:#ffffff,", "stop 3 ''"},
        {"1:#000000,1:#ffffff", "first position must be 0"},
        {"0:#000000,0.5:#ffffff", "last position must be 1"},
        {"0:#000000,0:#808080,1:#ffffff", "must increase"},
        {"0:#00000g,1:#ffffff", "six hexadecimal digits"},
        {"0:#000000,1:ffffff", "six hexadecimal digits"},
        {"0:#000000,1e:#ffffff", "not a finite number"},
        {"0:#000000,inf:#ffffff", "not a finite number"},
        {"0:#000000,2:#ffffff", "must be in [0, 1]"},
        {"viridis", "not a preset"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        CHECK(cli_ramp_parse(bad[i].text, &r, why, sizeof why) != 0 && strstr(why, bad[i].why),
              "'%s' rejected with '%s' (got '%s')", bad[i].text, bad[i].why, why);
    }
}

static void test_shade(void)
{
    cli_light l;
    CHECK(cli_light_init(&l, 0.0, 0.0) != 0 && cli_light_init(&l, 0.0, 90.5) != 0 &&
              cli_light_init(&l, INFINITY, 45.0) != 0 && cli_light_init(&l, 0.0, NAN) != 0,
          "elevation outside (0, 90] and non-finite azimuths are refused");
    CHECK(cli_light_init(&l, 90.0, 30.0) == 0, "a light from the right, 30 degrees high");
    /* L = (cos 30 sin 90, cos 30 cos 90, sin 30) = (0.866.., ~0, 0.5) */
    CHECK(fabs(l.x - sqrt(3.0) / 2) < 1e-15 && fabs(l.y) < 1e-15 && fabs(l.z - 0.5) < 1e-15, "L = %g %g %g", l.x,
          l.y, l.z);
    CHECK(fabs(cli_hillshade(&l, 0, 0) - 0.5) < 1e-15, "flat ground: I = sin(el)");
    /* A slope rising to the left (gx < 0) faces the light on the right: n = (1, 0, 1)/sqrt 2. */
    CHECK(fabs(cli_hillshade(&l, -1, 0) - (sqrt(3.0) / 2 + 0.5) / sqrt(2.0)) < 1e-15, "lit slope");
    CHECK(cli_hillshade(&l, 10, 0) == 0.0, "a steep slope facing away is black");
    CHECK(fabs(cli_shade_factor(&l, 0, 0) - 1.0) < 1e-15, "factor 1 on flat ground");
    CHECK(fabs(cli_shade_factor(&l, 10, 0) - CLI_SHADE_AMBIENT) < 1e-15, "ambient facing away");
    CHECK(cli_light_init(&l, 315.0, 90.0) == 0 && l.x == 0.0 && l.y == 0.0 && l.z == 1.0, "overhead light exact");
    CHECK(cli_light_init(&l, -45.0, 45.0) == 0 && fabs(l.x + 0.5) < 1e-15 && fabs(l.y - 0.5) < 1e-15,
          "azimuth -45 is 315 (top left): L = (-0.5, 0.5, 0.707)");

    uint8_t rgb[3];
    cli_normal_rgb(0, 0, rgb);
    CHECK(rgb[0] == 128 && rgb[1] == 128 && rgb[2] == 255, "flat normal (128, 128, 255): %d %d %d", rgb[0], rgb[1],
          rgb[2]);
    cli_normal_rgb(1, 0, rgb); /* n = (-1, 0, 1)/sqrt 2 -> (0.146.., 0.5, 0.853..) * 255 */
    CHECK(rgb[0] == 37 && rgb[1] == 128 && rgb[2] == 218, "45-degree slope: %d %d %d", rgb[0], rgb[1], rgb[2]);
    cli_normal_rgb(0, -1, rgb); /* height falling upwards: the normal leans up the image, green high */
    CHECK(rgb[0] == 128 && rgb[1] == 218 && rgb[2] == 218, "slope facing up the image: %d %d %d", rgb[0], rgb[1],
          rgb[2]);

    double above[5] = {0, 0, 4, 0, 0}, mid[5] = {1, 2, 3, 5, 8}, below[5] = {0, 0, 1, 0, 0};
    double gx, gy;
    cli_gradient(above, mid, below, 1, 2.0, &gx, &gy); /* column 1 is index 2 */
    CHECK(gx == 2.0 * (5 - 2) / 2 && gy == 2.0 * (4 - 1) / 2, "central differences: %g %g", gx, gy);
}

static void test_progress(void)
{
    char buf[256];
    int n = cli_progress_format(buf, sizeof buf, "cnoise render", "px", 50, 100, 0.0, 80);
    CHECK(strstr(buf, " 50%  -- px/s  ETA --:--") != NULL, "no rate before any time has passed: '%s'", buf);
    CHECK(n == (int)strlen(buf) && n < 80, "length %d below 80 columns", n);
    cli_progress_format(buf, sizeof buf, "cnoise render", "px", 2500000, 10000000, 2.0, 80);
    /* 1.25 Mpx/s; 7.5 Mpx left take 6 s */
    CHECK(strstr(buf, " 25%  1.25 Mpx/s  ETA 0:06") != NULL, "'%s'", buf);
    CHECK(strstr(buf, "cnoise render [#######.......................] ") == buf, "a bar of 30, 7 filled: '%s'", buf);
    cli_progress_format(buf, sizeof buf, "cnoise animate", "frames", 3, 4000, 1.5, 80);
    CHECK(strstr(buf, "  0%  2.00 frames/s  ETA 33:19") != NULL, "'%s'", buf);
    cli_progress_format(buf, sizeof buf, "x", "px", 1, 100000, 4000.0, 80);
    CHECK(strstr(buf, "111:06:40") == NULL && strstr(buf, "99:59:59") != NULL, "ETA capped: '%s'", buf);
    cli_progress_format(buf, sizeof buf, "cnoise map", "px", 999, 1000, 1.0, 80);
    CHECK(strstr(buf, " 99%") != NULL, "never 100%% before the end: '%s'", buf);
    cli_progress_format(buf, sizeof buf, "cnoise map", "px", 5000, 1000, 1.0, 80);
    CHECK(strstr(buf, "100%") != NULL, "done beyond total counts as total: '%s'", buf);
    n = cli_progress_format(buf, sizeof buf, "cnoise render", "px", 1, 2, 1.0, 30);
    CHECK(n == 29 && strncmp(buf, "cnoise render  50%  1.00 px/s", 29) == 0, "a narrow terminal: no bar, cut to fit: '%s'",
          buf);
    n = cli_progress_format(buf, 8, "cnoise render", "px", 1, 2, 1.0, 80);
    CHECK(n == 7 && strlen(buf) == 7, "truncated to the buffer: %d", n);

    /* Not a terminal (ctest captures stderr): every call is a no-op. */
    cli_progress p;
    cli_progress_begin(&p, "x", "px", 10, 0);
    CHECK(!p.enabled && !p.drawn, "disabled when stderr is not a terminal");
    cli_progress_update(&p, 5);
    cli_progress_end(&p);
    CHECK(!p.drawn, "nothing drawn");
}

/* cli_quote and cli_shown: one escaping of control bytes (cn_image_escape), cut with "...". */
static void test_escape(void)
{
    char b[64];
    CHECK(strcmp(cli_shown("dir/new\nline.png", b, sizeof b), "dir/new\\x0aline.png") == 0, "newline: %s", b);
    CHECK(strcmp(cli_shown("\033[31mred\177", b, sizeof b), "\\x1b[31mred\\x7f") == 0, "ESC and DEL: %s", b);
    CHECK(strcmp(cli_quote("a\tb", b, sizeof b), "'a\\x09b'") == 0, "quoted tab: %s", b);
    CHECK(strcmp(cli_shown("caf\303\251", b, sizeof b), "caf\303\251") == 0, "UTF-8 kept: %s", b);
    CHECK(strcmp(cli_shown(NULL, b, sizeof b), "") == 0 && strcmp(cli_quote(NULL, b, sizeof b), "''") == 0,
          "NULL is empty");
    char small[12];
    CHECK(strcmp(cli_shown("abcdefghijklmnop", small, sizeof small), "abcdefgh...") == 0, "cut: %s", small);
    CHECK(strcmp(cli_quote("abcdefghijklmnop", small, sizeof small), "'abcdef...'") == 0, "cut quoted: %s", small);
    /* a control byte is never cut in half */
    CHECK(strcmp(cli_shown("abcdefg\001", small, sizeof small), "abcdefg...") == 0, "whole escapes: %s", small);
    char e[5];
    CHECK(cn_image_escape(e, sizeof e, "ab\n") == 2 && strcmp(e, "ab") == 0, "escape stops before \\x0a: %s", e);
    CHECK(cn_image_escape(e, sizeof e, "a\nb") == 1, "returns the bytes copied");
}

/* A command's own options, as a table fills them. */
typedef struct opt_job {
    uint32_t w, h;
    int n, flag;
    const char *text, *file;
    double iv, pos, fin;
    int called;
} opt_job;

static int count_call(cli_parse *p, const char *value)
{
    ((opt_job *)p->args)->called += value[0] == 'y';
    return value[0] == 'n' ? -1 : 0;
}

static const cli_option test_opts[] = {
    CLI_NOISE_OPTIONS,
    CLI_SIZE("size", opt_job, w, h),
    CLI_INT("n", opt_job, n, 1, 9),
    CLI_FLAG("flag", opt_job, flag),
    CLI_TEXT("text", opt_job, text),
    CLI_FILE("file", opt_job, file),
    CLI_INTERVAL("iv", opt_job, iv, 0.0, 1, 90.0),
    CLI_POSITIVE("pos", opt_job, pos),
    CLI_FINITE("fin", opt_job, fin),
    CLI_CALL("call", count_call),
    CLI_OUTPUT_OPTIONS,
    CLI_OPTIONS_END,
};

/* Parses argv (NULL-terminated) into *jb; returns cli_parse_args' result. */
static int parse(opt_job *jb, cli_parse *p, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    memset(jb, 0, sizeof *jb);
    jb->n = 5;
    *p = (cli_parse){.prog = "test", .help = "help\n", .opts = test_opts, .args = jb, .frequency = 0.25,
                     .dims = 2, .output = "default.png"};
    return cli_parse_args(p, argc, argv);
}

static void test_options(void)
{
    opt_job jb;
    cli_parse p;
    char *good[] = {"cmd", "--size", "3x4", "--n=7", "--flag", "--text", "", "--file", "f.png", "--iv", "90",
                    "--pos", "2.5", "--fin", "-1", "--call", "yes", "--seed", "9", "-oout.png", "--threads", "2",
                    "--n", "8", NULL};
    CHECK(parse(&jb, &p, good) == -1, "every option taken");
    CHECK(jb.w == 3 && jb.h == 4 && jb.n == 8 && jb.flag == 1 && jb.text && !jb.text[0] &&
              strcmp(jb.file, "f.png") == 0 && jb.iv == 90.0 && jb.pos == 2.5 && jb.fin == -1.0 && jb.called == 1,
          "values in their fields, the last --n wins (n %d)", jb.n);
    CHECK(p.noise.spec[0].cfg.seed == 9 && p.noise.spec[0].cfg.frequency == 0.25 && p.noise.dims == 2 &&
              p.noise.dims_set && strcmp(p.out.output, "out.png") == 0 && p.out.threads == 2 && !p.out.quiet,
          "shared options and the command's defaults");
    CHECK(cli_given(&p, "n") && cli_given(&p, "flag") && cli_given(&p, "seed") && !cli_given(&p, "quiet") &&
              !cli_given(&p, "no-such-option"),
          "given options");
    char *none[] = {"cmd", NULL};
    CHECK(parse(&jb, &p, none) == -1 && jb.n == 5 && strcmp(p.out.output, "default.png") == 0 && !cli_given(&p, "n"),
          "no options: the defaults");

    fprintf(stderr, "(the usage errors below are expected)\n");
    char *bad[][4] = {
        {"cmd", "--n", "10", NULL},   {"cmd", "--file", "", NULL},  {"cmd", "--flag=1", NULL, NULL},
        {"cmd", "--iv", "0", NULL},   {"cmd", "--pos", "0", NULL},  {"cmd", "--fin", "inf", NULL},
        {"cmd", "--size", "0x1", NULL}, {"cmd", "--call", "no", NULL}, {"cmd", "--nope", NULL, NULL},
        {"cmd", "stray", NULL, NULL}, {"cmd", "--n", NULL, NULL},   {"cmd", "--seed", "+1", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(parse(&jb, &p, bad[i]) == CLI_EXIT_USAGE, "usage error: %s %s", bad[i][1], bad[i][2] ? bad[i][2] : "");
    char *help[] = {"cmd", "--n", "3", "-h", "--n", "bad", NULL};
    CHECK(parse(&jb, &p, help) == CLI_EXIT_OK && jb.n == 3, "--help ends the options with status 0");
    char *dashes[] = {"cmd", "--", "--n", "3", NULL};
    CHECK(parse(&jb, &p, dashes) == CLI_EXIT_USAGE, "after --, an option is a stray argument");

    /* A table longer than given[] is refused, not half-tracked by cli_given. */
    static cli_option many[CLI_MAX_OPTIONS + 2];
    for (int k = 0; k <= CLI_MAX_OPTIONS; k++)
        many[k] = (cli_option)CLI_FLAG("flag", opt_job, flag);
    char *one[] = {"cmd", NULL};
    memset(&jb, 0, sizeof jb);
    p = (cli_parse){.prog = "test", .help = "help\n", .opts = many, .args = &jb};
    CHECK(cli_parse_args(&p, 1, one) == CLI_EXIT_FAILURE, "a table of %d entries is an internal error",
          CLI_MAX_OPTIONS + 1);
    many[CLI_MAX_OPTIONS] = (cli_option)CLI_OPTIONS_END;
    CHECK(cli_parse_args(&p, 1, one) == -1, "a table of %d entries is taken", CLI_MAX_OPTIONS);
}

/* cli_period_solve: --tile (x and y, the quantity is each layer's frequency) and --loop (one axis,
 * the quantity is |time-step|); the numbers are the examples of test_cli_fractal.sh and
 * test_cli_animate.sh. */
static void test_period(void)
{
    cli_noise_opts o;
    cli_period_why why;
    cli_noise_init(&o);
    o.spec[0].cfg.frequency = 1.0 / 64;
    const cli_period_ask tile = {.dims = 2, .naxes = 2, .axis = {0, 1}, .length = {128, 64}, .x_is_frequency = 1,
                                 .start_in_limit = 1};
    CHECK(cli_period_solve(o.spec, 1, &tile, &why) == CLI_PERIOD_SET && o.spec[0].period[0] == 2 &&
              o.spec[0].period[1] == 1 && o.spec[0].n_period == 2,
          "128x64 pixels at 1/64: periods 2, 1 (got %u, %u)", o.spec[0].period[0], o.spec[0].period[1]);

    cli_noise_init(&o);
    o.spec[0].cfg.frequency = 1.0 / 64;
    const cli_period_ask tile500 = {.dims = 2, .naxes = 2, .axis = {0, 1}, .length = {500, 512}, .x_is_frequency = 1,
                                    .start_in_limit = 1};
    CHECK(cli_period_solve(o.spec, 1, &tile500, &why) == CLI_PERIOD_CELLS && why.layer == 0 && why.ai == 0 &&
              why.cells == 7.8125 && why.found == 0.25 && why.found_n == 125 && o.spec[0].n_period == 0,
          "500 pixels at 1/64: 7.8125 cells; 0.25 gives 125 (found %g)", why.found);

    /* --loop: 8 frames * step 4 / 64 = 0.5 cells; step 8 gives 1 */
    const cli_period_ask loop = {.dims = 3, .naxes = 1, .axis = {2}, .length = {8}, .x = 4};
    CHECK(cli_period_solve(o.spec, 1, &loop, &why) == CLI_PERIOD_CELLS && why.cells == 0.5 && why.found == 8.0,
          "loop: 0.5 cells, step 8 (found %g)", why.found);
    const cli_period_ask loop16 = {.dims = 3, .naxes = 1, .axis = {2}, .length = {8}, .x = 16};
    CHECK(cli_period_solve(o.spec, 1, &loop16, &why) == CLI_PERIOD_SET && o.spec[0].n_period == 3 &&
              o.spec[0].period[0] == 0 && o.spec[0].period[1] == 0 && o.spec[0].period[2] == 2,
          "loop: 8 * 16 / 64 = a z period of 2");
    CHECK(cli_period_solve(o.spec, 1, &loop16, &why) == CLI_PERIOD_GIVEN && why.layer == 0 && why.ai == 0,
          "a period already on the axis");

    /* Layers in order: a rotation of layer 1 is reported even after layer 0's count failed. */
    cli_noise_init(&o);
    o.spec[0].cfg.frequency = 1.0 / 64;
    o.spec[1] = o.spec[0];
    o.spec[1].n_rotate = 1;
    CHECK(cli_period_solve(o.spec, 2, &loop, &why) == CLI_PERIOD_ROTATED && why.layer == 1,
          "the rotation of layer 1 (got layer %d)", why.layer);
}

/* Seeds: the documented mapping, with the expected values written out. */
static void test_seed(void)
{
    static const struct {
        const char *text;
        uint64_t want;
    } ok[] = {
        {"0", 0},
        {"42", 42},
        {"007", 7},
        {"18446744073709551615", UINT64_C(0xffffffffffffffff)},
        {"0xDEADBEEF", UINT64_C(3735928559)},
        {"0Xdeadbeef", UINT64_C(3735928559)},
        {"0x0000000000000000000001", 1}, /* leading zeros do not count against the 16 digits */
        {"-1", UINT64_C(18446744073709551615)},
        {"-2", UINT64_C(18446744073709551614)},
        {"-0", 0},
        {"-0x10", UINT64_C(18446744073709551600)},
        {"-9223372036854775808", UINT64_C(9223372036854775808)},
        {"-2147483648", UINT64_C(18446744071562067968)}, /* INT32_MIN as a 64-bit seed */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint64_t v = 12345;
        CHECK(cli_parse_seed(ok[i].text, &v) == CLI_NUM_OK && v == ok[i].want, "seed %s", ok[i].text);
    }
    static const char *range[] = {"18446744073709551616", "0x10000000000000000", "-9223372036854775809",
                                  "-0x8000000000000001", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof range / sizeof range[0]; i++) {
        uint64_t v = 12345;
        CHECK(cli_parse_seed(range[i], &v) == CLI_NUM_RANGE && v == 12345, "seed %s out of range", range[i]);
    }
    static const char *syntax[] = {"", "-", "+1", "0x", "-0x", "1.0", "1e3", " 1", "1 ", "0x1g", "--1", "x1", "0b1"};
    for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++) {
        uint64_t v = 12345;
        CHECK(cli_parse_seed(syntax[i], &v) == CLI_NUM_SYNTAX && v == 12345, "seed '%s' refused", syntax[i]);
    }
    uint64_t v = 12345;
    CHECK(cli_parse_seed(NULL, &v) == CLI_NUM_SYNTAX && v == 12345, "seed NULL refused");
}

int main(void)
{
    test_seed();
    test_options();
    test_period();
    test_escape();
    test_ramp();
    test_shade();
    test_progress();
    return test_summary("test_cli_units");
}
