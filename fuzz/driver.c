/*
 * driver.c -- a main() for the fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput once
 * per file named on the command line (a directory: once per file in it), or once on standard
 * input when there are no arguments. ctest uses it to replay the seed corpora and the regression
 * inputs (fuzz/regress/) under every compiler and sanitizer; AFL++ can drive it too (it feeds
 * each input as a file or on standard input).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_stream(FILE *f, const char *name)
{
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", name);
        return -1;
    }
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fprintf(stderr, "%s: out of memory\n", name);
                return -1;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (ferror(f)) {
        free(buf);
        fprintf(stderr, "%s: read error\n", name);
        return -1;
    }
    /* An exact-size copy, so that reading past the input is caught by AddressSanitizer. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int run_file(const char *path, int *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    int r = run_stream(f, path);
    fclose(f);
    if (r == 0)
        (*count)++;
    return r;
}

static int run_path(const char *path, int *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path, count);
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.' && rc == 0) {
            size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
            char *full = malloc(len);
            if (!full) {
                rc = -1;
            } else {
                snprintf(full, len, "%s/%s", path, names[i]->d_name);
                rc = run_path(full, count);
                free(full);
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int count = 0;
    if (argc < 2) {
        if (run_stream(stdin, "<stdin>") != 0)
            return 1;
        count = 1;
    }
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i], &count) != 0)
            return 1;
    fprintf(stderr, "%s: %d input%s, no failure\n", argv[0], count, count == 1 ? "" : "s");
    return 0;
}
