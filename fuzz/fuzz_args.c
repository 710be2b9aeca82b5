/*
 * fuzz_args.c -- the option parser of every cnoise subcommand.
 *
 * Input: the first byte picks the command (sample, render, map, volume, animate, info, flow); the rest
 * is split at NUL bytes into argv[1..] (at most 64 arguments, each in its own heap block so that
 * reading past an argument is caught). The command runs in check-only mode (cli_check_only): it
 * parses and checks everything, builds its generators, and returns before reading input or
 * creating a file.
 * Checks: the exit code is 0 (accepted) or 2 (usage error; never 1 before any work is done), and
 * every usage error printed a message (the stderr position moved). No leaks, no undefined
 * behaviour (sanitizers).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "fuzz.h"

#define MAX_ARGS 64

typedef int (*command_fn)(int, char **);
static const struct {
    const char *name;
    command_fn fn;
} commands[] = {
    {"sample", cli_cmd_sample}, {"render", cli_cmd_render},   {"map", cli_cmd_map},
    {"volume", cli_cmd_volume}, {"animate", cli_cmd_animate}, {"info", cli_cmd_info},
    {"flow", cli_cmd_flow},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    cli_check_only = 1;
    unsigned which = data[0] % NCOMMANDS;
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc] = malloc(strlen(commands[which].name) + 1);
    if (!argv[argc])
        abort();
    strcpy(argv[argc++], commands[which].name);
    size_t i = 1;
    while (i < size && argc <= MAX_ARGS) {
        size_t j = i;
        while (j < size && data[j] != 0)
            j++;
        argv[argc] = malloc(j - i + 1);
        if (!argv[argc])
            abort();
        memcpy(argv[argc], data + i, j - i);
        argv[argc][j - i] = '\0';
        argc++;
        i = j + 1;
    }
    argv[argc] = NULL;

    /* Messages are captured, help texts go to /dev/null. */
    static FILE *null_out;
    if (!null_out) {
        null_out = fopen("/dev/null", "w");
        if (!null_out)
            abort();
    }
    FILE *saved_out = stdout;
    stdout = null_out;
    fuzz_capture_stderr();
    int rc = commands[which].fn(argc, argv);
    long printed = fuzz_restore_stderr(NULL, 0);
    stdout = saved_out;

    FUZZ_CHECK(rc == CLI_EXIT_OK || rc == CLI_EXIT_USAGE, "%s returned %d", commands[which].name, rc);
    FUZZ_CHECK(rc == CLI_EXIT_OK || printed > 0, "%s: usage error without a message", commands[which].name);
    for (int k = 0; k < argc; k++)
        free(argv[k]);
    return 0;
}
