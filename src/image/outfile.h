/*
 * outfile.h -- internal: the safe-replacement output file every writer in src/image uses.
 *
 * One implementation of the rules in cn_image.h ("Safe replacement"):
 *   1. cn__out_open: refuse a target that is a directory or not a regular file, remember the
 *      permission bits it will get, open an unnamed O_TMPFILE file in its directory or, where
 *      that is not to be had, mkstemp("<path>.tmp.XXXXXX") next to it;
 *   2. cn__out_write appends through a 64 KiB buffer drained with write(2), cn__out_pwrite
 *      places bytes at an offset with pwrite(2); both retry short writes and EINTR and record
 *      the first errno (ENOSPC, EFBIG, EIO, ...) as the file's message;
 *   3. cn__out_commit: drain, fchmod, fsync, (an unnamed file: link as "<path>.tmp.XXXXXX"),
 *      close (checked), rename over the target, then fsync the directory on a best-effort basis
 *      (or cn__out_finish now, cn_image_publish later);
 *   4. any failure, or cn__out_discard: close and unlink the temporary file; the target was never
 *      opened.
 * Not part of the installed API; every symbol is cn__-prefixed.
 */
#ifndef CN_IMAGE_OUTFILE_H
#define CN_IMAGE_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CN__OUTBUF_SIZE 65536
#define CN__TMP_SUFFIX ".tmp.XXXXXX"

typedef struct cn__outfile {
    int fd;        /* the temporary file, -1 when none is open */
    char *path;    /* target path (owned copy) */
    char *tmp;     /* temporary file path (owned); NULL for an unnamed file, once renamed or removed */
    mode_t mode;   /* permission bits the file gets at commit */
    int unnamed;   /* fd is an O_TMPFILE file (tmp NULL until it is linked at commit) */
    size_t buffered;
    char msg[512]; /* the first error message; "" while all is well */
    unsigned char buf[CN__OUTBUF_SIZE];
} cn__outfile;

/* Copies a formatted message into err[0..errlen) (truncated, terminated); no-op for NULL/0. */
void cn__put_err(char *err, size_t errlen, const char *fmt, ...)
#if defined(__MINGW32__) /* mingw-w64: the C99 formats of its own printf (__USE_MINGW_ANSI_STDIO) */
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Records the first error of o (later ones are consequences and are dropped). */
void cn__out_msg(cn__outfile *o, const char *fmt, ...)
#if defined(__MINGW32__) /* mingw-w64: the C99 formats of its own printf (__USE_MINGW_ANSI_STDIO) */
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * o: zero-filled memory (calloc). Checks the target and creates the temporary file. Returns 0,
 * or -1 with the reason in err; then nothing was created and o holds nothing to release
 * (cn__out_discard(o) is still allowed).
 */
int cn__out_open(cn__outfile *o, const char *path, char *err, size_t errlen);

/* Appends len bytes (buffered). 0, or -1 with o->msg set. */
int cn__out_write(cn__outfile *o, const void *data, size_t len);

/* Drains the buffer. 0, or -1 with o->msg set. */
int cn__out_flush(cn__outfile *o);

/* Writes len bytes at byte offset off, unbuffered (drains the buffer first). 0 or -1. */
int cn__out_pwrite(cn__outfile *o, const void *data, size_t len, uint64_t off);

/*
 * Drains, syncs and renames the temporary file over the target. Returns 0, or -1 with o->msg
 * set and the temporary file removed. Either way o's resources are released afterwards by
 * cn__out_discard (which commit calls itself).
 */
int cn__out_commit(cn__outfile *o);

/* Everything cn__out_commit does but the rename: drain, fchmod, fsync, close. 0, or -1 with
 * o->msg set and the temporary file removed. */
int cn__out_finish(cn__outfile *o);

/* After cn__out_finish: moves the target and temporary paths into a new cn_image_pending
 * (see cn_image.h). NULL when out of memory (o->msg set, the temporary file removed). */
struct cn_image_pending *cn__out_detach(cn__outfile *o);

/* Closes and removes the temporary file (unless renamed), frees the strings. Idempotent. */
void cn__out_discard(cn__outfile *o);

#endif /* CN_IMAGE_OUTFILE_H */
