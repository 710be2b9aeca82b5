/*
 * main.c -- "cnoise <command> [options]": picks the command from the command table; the commands
 * live in cmd_*.c.
 *
 * setlocale() is deliberately never called: the program stays in the "C" locale, so number
 * parsing (strtod) and printing (printf) use '.' as the decimal point whatever the environment.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cn_image.h"
#include "cnoise.h"

/* The commands, in the order "cnoise --help" lists them. */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command's name; returns an exit code */
    const char *summary;               /* for the usage text; a line break continues it */
} cli_command;

static const cli_command commands[] = {
    {"map", cli_cmd_map, "write a coloured, shaded terrain map of a fractal world (map.png)"},
    {"render", cli_cmd_render,
     "write a 2D slice of noise: PNG (8/16-bit gray, colour ramp, hillshade,\n"
     "normal map), raw 16-bit or float heightmap, PFM or NumPy .npy"},
    {"sample", cli_cmd_sample, "read points from standard input, print the noise value at each"},
    {"volume", cli_cmd_volume, "write a 3D grid of noise (.npy or raw float32), optionally a contact sheet"},
    {"animate", cli_cmd_animate, "write frames along a time axis: an animated GIF and/or numbered PNGs"},
    {"flow", cli_cmd_flow, "write a curl-noise vector field: NumPy .npy (H, W, 2 or 3) or an RGB flow map"},
    {"info", cli_cmd_info, "print the version, instruction sets and thread count"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fputs("Usage: cnoise <command> [options]\n"
          "       cnoise --help | --version\n"
          "\n"
          "Coherent noise (Perlin, simplex, value) from the command line.\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t c = 0; c < NCOMMANDS; c++) {
        fprintf(out, "  %-9s ", commands[c].name);
        for (const char *s = commands[c].summary; *s; s++) {
            fputc(*s, out);
            if (*s == '\n')
                fprintf(out, "  %-9s ", "");
        }
        fputc('\n', out);
    }
    fputs("\n"
          "Options:\n"
          "  -h, --help     show this help; 'cnoise <command> --help' describes a command\n"
          "  --version      print the version\n"
          "\n"
          "Exit status (every command):\n"
          "  0  success\n"
          "  1  runtime failure (I/O error, bad input line); a path the system refuses is one, whatever\n"
          "     the reason: no such directory, read-only, a name longer than it accepts, ...\n"
          "  2  usage error (unknown command or option, bad or missing value, unsupported combination)\n",
          out);
}

/*
 * Flushes and closes standard output. A command that succeeded but whose output could not be
 * written (a full disk, a closed pipe with SIGPIPE ignored) fails with exit status 1.
 */
static int finish_stdout(int rc)
{
    int bad = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0)
        bad = 1;
    int e = errno;
    if (fclose(stdout) != 0) {
        bad = 1;
        if (!e)
            e = errno;
    }
    if (bad && rc == CLI_EXIT_OK) {
        if (e)
            fprintf(stderr, "cnoise: error writing standard output: %s\n", cn_image_strerror(e));
        else
            fprintf(stderr, "cnoise: error writing standard output\n");
        rc = CLI_EXIT_FAILURE;
    }
    return rc;
}

int main(int argc, char **argv)
{
    /* A write past the file-size limit (ulimit -f) would kill the process with SIGXFSZ, silently
     * and before any clean-up; ignored, the write fails with EFBIG and is reported like a full
     * disk (exit status 1, the temporary file removed, the target untouched). */
#ifdef SIGXFSZ /* not on Windows */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGXFSZ, &ign, NULL);
#endif

    if (argc < 2) {
        fputs("cnoise: missing command\n\n", stderr);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    for (size_t c = 0; c < NCOMMANDS; c++)
        if (strcmp(cmd, commands[c].name) == 0)
            return finish_stdout(commands[c].run(argc - 1, argv + 1));
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc > 2) {
            char q[128];
            fprintf(stderr, "cnoise: %s takes no arguments (got %s)\n", cmd, cli_quote(argv[2], q, sizeof q));
            return CLI_EXIT_USAGE;
        }
        if (strcmp(cmd, "--version") == 0)
            printf("cnoise %s\n", cn_version());
        else
            usage(stdout);
        return finish_stdout(CLI_EXIT_OK);
    }
    char q[128];
    if (cmd[0] == '-') {
        fprintf(stderr, "cnoise: unknown option %s (see 'cnoise --help')\n", cli_quote(cmd, q, sizeof q));
    } else {
        fprintf(stderr, "cnoise: unknown command %s (commands:", cli_quote(cmd, q, sizeof q));
        for (size_t c = 0; c < NCOMMANDS; c++)
            fprintf(stderr, "%s %s", c ? "," : "", commands[c].name);
        fputs("; see 'cnoise --help')\n", stderr);
    }
    return CLI_EXIT_USAGE;
}
