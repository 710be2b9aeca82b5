/*
 * cmd_info.c -- "cnoise info": version, instruction sets (compiled, supported, in use), the
 * thread count and the library's names of noise types and fractals, one "key: value" line each.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "portable.h"

#include "args.h"
#include "cnoise.h"
#include "cn_image.h"
#include "options.h"
#include "recipe.h"

static const char *const prog = "cnoise info";

static const char help_text[] =
    "Usage: cnoise info [options]\n"
    "\n"
    "Prints what this build of cnoise can do on this machine, one 'key: value' line each:\n"
    "  version:    the library version\n"
    "  compiled:   the instruction sets this build contains code for\n"
    "  supported:  those of them this CPU and operating system can run\n"
    "  active:     the one batch evaluation (render, map, ...) uses now: the widest supported\n"
    "              one no wider than the cap (a cap is a register width: neon on x86\n"
    "              allows sse2)\n"
    "  cap:        the cap set by the environment variable CNOISE_ISA (scalar, sse2, avx2,\n"
    "              avx512, neon), or 'none' (an unknown name is ignored, and says so)\n"
    "  cores:      online CPU cores: the number of threads --threads 0 (the default) starts\n"
    "  noise:      the noise types (--noise NAME)\n"
    "  fractals:   the fractal sums (--fractal NAME)\n"
    "  opencl:     the OpenCL devices (--device opencl|gpu|auto), or 'none' and why; then one\n"
    "              'opencl N:' line per device: platform / name, type, version, whether it\n"
    "              has double precision (needed), compute units and memory\n"
    "\n"
    "Every instruction set gives the same bits (see README); the cap is for testing and for\n"
    "comparing speed, e.g. CNOISE_ISA=sse2 cnoise render ...\n"
    "\n"
    "Options:\n"
    "  -h, --help         show this help\n"
    "\n"
    "Exit status: 0 success, 2 usage error.\n";

/* The instruction sets for which pred(isa) holds, separated by spaces ("none" if none). */
static void list(const char *key, int (*pred)(cn_isa))
{
    int any = 0;
    printf("%s:", key);
    for (int i = 0; i < CN_ISA_COUNT; i++)
        if (pred((cn_isa)i)) {
            printf(" %s", cn_isa_name((cn_isa)i));
            any = 1;
        }
    printf("%s\n", any ? "" : " none");
}

/* The OpenCL devices, as cn_opencl_devices lists them. */
static void opencl(void)
{
    enum { MAX = 32 };
    static cn_opencl_device dev[MAX];
    static const char *const type[] = {"other", "cpu", "gpu", "accelerator"};
    char why[512] = "";
    size_t n = 0;
    if (cn_opencl_devices(dev, MAX, &n, why, sizeof why) != CN_OK) {
        printf("opencl: none (%s)\n", why);
        return;
    }
    if (n == 0) {
        printf("opencl: none (the OpenCL runtime lists no device)\n");
        return;
    }
    printf("opencl: %zu device%s\n", n, n == 1 ? "" : "s");
    for (size_t i = 0; i < n && i < MAX; i++)
        printf("opencl %zu: %s / %s, %s, %s, %s, %u compute units, %.1f GiB\n", i, dev[i].platform, dev[i].name,
               type[dev[i].type >= 0 && dev[i].type <= 3 ? dev[i].type : 0], dev[i].version,
               dev[i].fp64 ? "fp64" : "no fp64 (not usable)", dev[i].compute_units,
               (double)dev[i].memory / (1024.0 * 1024.0 * 1024.0));
}

int cli_cmd_info(int argc, char **argv)
{
    static const cli_option opts[] = {CLI_SHARED("help", 'h', 0, CLI_OPT_HELP), CLI_OPTIONS_END};
    cli_parse p = {.prog = prog, .help = help_text, .opts = opts};
    const int rc = cli_parse_args(&p, argc, argv);
    if (rc >= 0)
        return rc;
    printf("version: %s\n", cn_version());
    list("compiled", cn_isa_compiled);
    list("supported", cn_isa_supported);
    printf("active: %s\n", cn_isa_name(cn_isa_active()));
    const char *cap = getenv("CNOISE_ISA");
    int known = 0;
    for (int i = 0; cap && i < CN_ISA_COUNT; i++)
        if (strcmp(cap, cn_isa_name((cn_isa)i)) == 0)
            known = 1;
    char q[128];
    if (known)
        printf("cap: %s (CNOISE_ISA)\n", cap);
    else if (cap)
        printf("cap: none (CNOISE_ISA=%s is not an instruction set name and is ignored)\n",
               cli_quote(cap, q, sizeof q));
    else
        printf("cap: none\n");
    long n = cn__online_cpus();
    printf("cores: %ld\n", n > CN_MAX_THREADS ? (long)CN_MAX_THREADS : n);
    printf("noise:");
    for (int i = 0; cn_noise_type_name((cn_noise_type)i); i++)
        printf(" %s", cn_noise_type_name((cn_noise_type)i));
    printf("\nfractals:");
    for (int i = 0; cn_fractal_name((cn_fractal)i); i++)
        printf(" %s", cn_fractal_name((cn_fractal)i));
    /* The files this build writes (CMake's CNOISE_WITH_* options leave some out): render's
     * formats by the names --format takes (FORMAT_NAMES in cmd_render.c), animate's GIF and the
     * recipes. */
    static const struct {
        const char *name;
        int built;
    } files[] = {
        {"png", 1}, {"png16", 1}, {"rgb", 1}, {"r16", CN_CLI_WITH_SIDECARS}, {"f32", CN_CLI_WITH_SIDECARS},
        {"pfm", 1}, {"npy", 1}, {"exr", CN_IMAGE_WITH_EXR}, {"exr16", CN_IMAGE_WITH_EXR},
        {"tiff", CN_IMAGE_WITH_TIFF}, {"normal", 1}, {"slope", 1}, {"gif", CN_IMAGE_WITH_GIF},
        {"recipe", CN_CLI_WITH_RECIPES},
    };
    printf("\nfiles:");
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
        if (files[k].built)
            printf(" %s", files[k].name);
    printf("\n");
    opencl();
    return CLI_EXIT_OK;
}
