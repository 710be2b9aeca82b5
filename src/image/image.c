/*
 * image.c -- 8-bit grayscale PNG writer with safe replacement (see cn_image.h).
 *
 * The PNG encoding is libpng's; this file adds the file handling around it:
 *   1. refuse targets that are directories or not regular files;
 *   2. mkstemp("<path>.tmp.XXXXXX") in the target's directory;
 *   3. libpng writes through our own callback into a 64 KiB buffer that is drained with write(2),
 *      so every short write and every errno (ENOSPC, EFBIG, EIO, ...) is seen and reported;
 *      libpng errors (png_error) arrive in png_err_cb, which records the message and longjmps
 *      back to the setjmp in whichever public function called into libpng;
 *   4. commit: png_write_end, drain the buffer, fchmod, fsync, close (checked), rename;
 *   5. any failure: close and unlink the temporary file; the target was never opened.
 */
#define _POSIX_C_SOURCE 200809L

#include "cn_image.h"

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define OUTBUF_SIZE 65536
#define TMP_SUFFIX ".tmp.XXXXXX"

struct cn_image_writer {
    png_structp png;
    png_infop info;
    int fd;             /* the temporary file, -1 once closed */
    char *path;         /* target path (owned copy) */
    char *tmp;          /* temporary file path (owned), NULL once renamed or removed */
    uint32_t width, height, rows_done;
    int failed;         /* set on the first error; only abort/commit are accepted afterwards */
    mode_t mode;        /* permission bits the file gets at commit */
    size_t buffered;    /* bytes waiting in buf */
    char msg[512];      /* the first error message */
    unsigned char buf[OUTBUF_SIZE];
};

/* Copies msg into the caller's err buffer (truncating, always terminated). */
static void put_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Records the first error of a writer; later ones are consequences and are dropped. */
static void set_msg(cn_image_png *w, const char *fmt, ...)
{
    if (w->msg[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
    if (!w->msg[0])
        snprintf(w->msg, sizeof w->msg, "unknown error writing '%s'", w->path);
}

/* Drains the output buffer with write(2), retrying short writes and EINTR. */
static int flush_buf(cn_image_png *w)
{
    size_t off = 0;
    while (off < w->buffered) {
        ssize_t n = write(w->fd, w->buf + off, w->buffered - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            set_msg(w, "cannot write '%s': %s", w->path, strerror(errno));
            return -1;
        }
        if (n == 0) {
            set_msg(w, "cannot write '%s': write returned 0 bytes", w->path);
            return -1;
        }
        off += (size_t)n;
    }
    w->buffered = 0;
    return 0;
}

static void png_err_cb(png_structp png, png_const_charp msg)
{
    cn_image_png *w = (cn_image_png *)png_get_error_ptr(png);
    set_msg(w, "cannot write '%s': libpng: %s", w->path, msg ? msg : "error");
    png_longjmp(png, 1);
}

/* libpng warnings are not errors; this layer never prints, so they are dropped. */
static void png_warn_cb(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static void png_write_cb(png_structp png, png_bytep data, size_t len)
{
    cn_image_png *w = (cn_image_png *)png_get_io_ptr(png);
    while (len > 0) {
        if (w->buffered == OUTBUF_SIZE && flush_buf(w) != 0)
            png_error(png, w->msg); /* does not return */
        size_t room = OUTBUF_SIZE - w->buffered;
        size_t n = len < room ? len : room;
        memcpy(w->buf + w->buffered, data, n);
        w->buffered += n;
        data += n;
        len -= n;
    }
}

/* libpng asks for a flush only at png_write_flush(); the real flush happens at commit. */
static void png_flush_cb(png_structp png)
{
    (void)png;
}

/* Releases everything; removes the temporary file unless it was renamed into place. */
static void destroy(cn_image_png *w)
{
    if (!w)
        return;
    if (w->png)
        png_destroy_write_struct(&w->png, &w->info);
    if (w->fd >= 0)
        close(w->fd);
    if (w->tmp)
        unlink(w->tmp);
    free(w->tmp);
    free(w->path);
    free(w);
}

/* Marks w failed and copies its message to the caller. */
static int fail(cn_image_png *w, char *err, size_t errlen)
{
    w->failed = 1;
    put_err(err, errlen, "%s", w->msg);
    return -1;
}

/* The permission bits of a new file: 0666 minus the process umask. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return (mode_t)(0666 & ~mask);
}

int cn_image_png_begin(cn_image_png **out, const char *path, uint32_t width, uint32_t height,
                       char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || !path || !path[0]) {
        put_err(err, errlen, "no output path given");
        return -1;
    }
    if (width < 1 || height < 1 || width > CN_IMAGE_PNG_MAX_SIDE || height > CN_IMAGE_PNG_MAX_SIDE) {
        put_err(err, errlen, "image size %lux%lu is out of range (each side 1..%lu)",
                (unsigned long)width, (unsigned long)height, (unsigned long)CN_IMAGE_PNG_MAX_SIDE);
        return -1;
    }

    /* 1. What is at the target now? Only "nothing" or a regular file may be replaced. */
    mode_t mode;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            put_err(err, errlen, "cannot write '%s': it is a directory", path);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            put_err(err, errlen, "cannot write '%s': it exists and is not a regular file; refusing to replace it", path);
            return -1;
        }
        mode = st.st_mode & (S_IRWXU | S_IRWXG | S_IRWXO);
    } else if (errno == ENOENT) {
        mode = new_file_mode();
    } else {
        put_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }

    cn_image_png *w = (cn_image_png *)calloc(1, sizeof *w);
    if (!w) {
        put_err(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    w->fd = -1;
    w->width = width;
    w->height = height;
    w->mode = mode;
    size_t plen = strlen(path);
    w->path = (char *)malloc(plen + 1);
    char *tmp = (char *)malloc(plen + sizeof TMP_SUFFIX);
    if (!w->path || !tmp) {
        free(tmp);
        destroy(w);
        put_err(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    memcpy(w->path, path, plen + 1);
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, TMP_SUFFIX, sizeof TMP_SUFFIX);

    /* 2. The temporary file, in the same directory so that rename() is atomic. */
    w->fd = mkstemp(tmp);
    if (w->fd < 0) {
        int e = errno;
        free(tmp);
        destroy(w);
        put_err(err, errlen, "cannot create temporary file '%s%s': %s", path, TMP_SUFFIX, strerror(e));
        return -1;
    }
    w->tmp = tmp;

    /* 3. libpng with our error handler and our write callback. */
    w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w, png_err_cb, png_warn_cb);
    if (w->png)
        w->info = png_create_info_struct(w->png);
    if (!w->png || !w->info) {
        destroy(w);
        put_err(err, errlen, "cannot write '%s': out of memory (libpng)", path);
        return -1;
    }
    if (setjmp(png_jmpbuf(w->png))) {
        put_err(err, errlen, "%s", w->msg);
        destroy(w);
        return -1;
    }
#ifdef PNG_SET_USER_LIMITS_SUPPORTED
    png_set_user_limits(w->png, CN_IMAGE_PNG_MAX_SIDE, CN_IMAGE_PNG_MAX_SIDE);
#endif
    png_set_write_fn(w->png, w, png_write_cb, png_flush_cb);
    png_set_IHDR(w->png, w->info, width, height, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(w->png, w->info);
    *out = w;
    return 0;
}

int cn_image_png_write_rows(cn_image_png *w, const uint8_t *rows, uint32_t nrows, size_t stride,
                            char *err, size_t errlen)
{
    if (!w) {
        put_err(err, errlen, "no image writer");
        return -1;
    }
    if (w->failed)
        return fail(w, err, errlen);
    if (nrows == 0)
        return 0;
    if (!rows) {
        set_msg(w, "cannot write '%s': no pixel data", w->path);
        return fail(w, err, errlen);
    }
    if (stride < w->width) {
        set_msg(w, "cannot write '%s': row stride %zu is less than the width %lu", w->path, stride,
                (unsigned long)w->width);
        return fail(w, err, errlen);
    }
    if (nrows > w->height - w->rows_done) {
        set_msg(w, "cannot write '%s': %lu more rows would exceed the height %lu (%lu written)",
                w->path, (unsigned long)nrows, (unsigned long)w->height, (unsigned long)w->rows_done);
        return fail(w, err, errlen);
    }
    if (setjmp(png_jmpbuf(w->png)))
        return fail(w, err, errlen);
    for (uint32_t r = 0; r < nrows; r++) {
        png_write_row(w->png, (png_const_bytep)(rows + (size_t)r * stride));
        w->rows_done++;
    }
    return 0;
}

/* fsync()s the directory holding path; errors are ignored (the data is already safe). */
static void fsync_parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dlen = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
    char *dir = (char *)malloc(dlen + 1);
    if (!dir)
        return;
    memcpy(dir, slash ? path : ".", dlen);
    dir[dlen] = '\0';
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dir);
}

int cn_image_png_commit(cn_image_png *w, char *err, size_t errlen)
{
    if (!w) {
        put_err(err, errlen, "no image writer");
        return -1;
    }
    int fd;
    if (!w->failed && w->rows_done != w->height)
        set_msg(w, "cannot write '%s': only %lu of %lu rows were written", w->path,
                (unsigned long)w->rows_done, (unsigned long)w->height);
    if (w->msg[0])
        goto failed;

    /* 4a. The rest of the PNG stream (IDAT tail, IEND) into our buffer. */
    if (setjmp(png_jmpbuf(w->png)))
        goto failed;
    png_write_end(w->png, NULL);
    png_destroy_write_struct(&w->png, &w->info);

    /* 4b. Every byte to the kernel, then to the disk, then close, all checked. */
    if (flush_buf(w) != 0)
        goto failed;
    if (fchmod(w->fd, w->mode) != 0) {
        set_msg(w, "cannot set permissions of '%s': %s", w->tmp, strerror(errno));
        goto failed;
    }
    if (fsync(w->fd) != 0 && errno != EINVAL) {
        set_msg(w, "cannot write '%s': %s", w->path, strerror(errno));
        goto failed;
    }
    fd = w->fd;
    w->fd = -1;
    if (close(fd) != 0) {
        set_msg(w, "cannot write '%s': %s", w->path, strerror(errno));
        goto failed;
    }

    /* 4c. Atomically into place. */
    if (rename(w->tmp, w->path) != 0) {
        set_msg(w, "cannot rename '%s' to '%s': %s", w->tmp, w->path, strerror(errno));
        goto failed;
    }

    /* 4d. Best effort: make the rename itself durable by syncing the directory. */
    fsync_parent_dir(w->path);
    free(w->tmp);
    w->tmp = NULL; /* renamed: nothing to remove */
    destroy(w);
    return 0;

failed:
    put_err(err, errlen, "%s", w->msg);
    destroy(w);
    return -1;
}

void cn_image_png_abort(cn_image_png *w)
{
    destroy(w);
}

const char *cn_image_png_temp_path(const cn_image_png *w)
{
    return w ? w->tmp : NULL;
}

int cn_image_write_gray8_png(const char *path, const uint8_t *pixels, uint32_t width,
                             uint32_t height, char *err, size_t errlen)
{
    if (!pixels) {
        put_err(err, errlen, "cannot write '%s': no pixel data", path ? path : "(null)");
        return -1;
    }
    cn_image_png *w;
    if (cn_image_png_begin(&w, path, width, height, err, errlen) != 0)
        return -1;
    if (cn_image_png_write_rows(w, pixels, height, width, err, errlen) != 0) {
        cn_image_png_abort(w);
        return -1;
    }
    return cn_image_png_commit(w, err, errlen);
}
