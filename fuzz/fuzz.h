/*
 * fuzz.h -- what the fuzz targets share: the libFuzzer entry point, a failure macro that aborts
 * (so libFuzzer, AFL++ and the replay driver all see a crash), and a reader that turns the fuzzer's
 * bytes into typed values (zeros once the bytes run out).
 */
#ifndef CNOISE_FUZZ_H
#define CNOISE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken contract: print where and why, then abort. */
#define FUZZ_CHECK(cond, ...)                                                        \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
            abort();                                                                 \
        }                                                                            \
    } while (0)

typedef struct fuzz_reader {
    const uint8_t *p;
    size_t left;
} fuzz_reader;

static inline uint64_t fuzz_bytes(fuzz_reader *r, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        uint8_t b = 0;
        if (r->left) {
            b = *r->p++;
            r->left--;
        }
        v |= (uint64_t)b << (8 * i);
    }
    return v;
}

static inline unsigned fuzz_u8(fuzz_reader *r) { return (unsigned)fuzz_bytes(r, 1); }
static inline uint32_t fuzz_u32(fuzz_reader *r) { return (uint32_t)fuzz_bytes(r, 4); }
static inline uint64_t fuzz_u64(fuzz_reader *r) { return fuzz_bytes(r, 8); }

static inline double fuzz_f64_bits(fuzz_reader *r)
{
    uint64_t b = fuzz_u64(r);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Standard error redirected into a temporary file while the code under test runs, so that a
 * target can see whether (and what) it printed. */
typedef struct fuzz_stderr {
    FILE *file, *saved;
} fuzz_stderr;

static inline fuzz_stderr *fuzz_stderr_state(void)
{
    static fuzz_stderr st;
    return &st;
}

static inline void fuzz_capture_stderr(void)
{
    fuzz_stderr *st = fuzz_stderr_state();
    if (!st->file && !(st->file = tmpfile()))
        abort();
    fflush(stderr);
    rewind(st->file);
    st->saved = stderr;
    stderr = st->file; /* glibc's stderr is an assignable FILE * */
}

/* Ends the capture; returns how many bytes were printed and copies the first of them (at most
 * n - 1, terminated) into head when head is not NULL. */
static inline long fuzz_restore_stderr(char *head, size_t n)
{
    fuzz_stderr *st = fuzz_stderr_state();
    fflush(st->file);
    long printed = ftell(st->file);
    if (head && n) {
        size_t want = printed < 0 ? 0 : (size_t)printed < n - 1 ? (size_t)printed : n - 1;
        rewind(st->file);
        size_t got = fread(head, 1, want, st->file);
        head[got] = '\0';
    }
    stderr = st->saved;
    return printed;
}

#endif /* CNOISE_FUZZ_H */
