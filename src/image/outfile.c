/*
 * outfile.c -- the safe-replacement output file shared by every writer (see outfile.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "outfile.h"
#include "cn_image.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

size_t cn_image_escape(char *dst, size_t cap, const char *src)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)(src ? src : "");
    if (!dst || cap == 0)
        return 0;
    for (; *p; p++) {
        int ctl = *p < 0x20 || *p == 0x7f;
        if (o + (ctl ? 4 : 1) >= cap)
            break;
        if (ctl) {
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[*p >> 4];
            dst[o++] = hex[*p & 15];
        } else {
            dst[o++] = (char)*p;
        }
    }
    dst[o] = '\0';
    return (size_t)(p - (const unsigned char *)(src ? src : ""));
}

const char *cn_image_strerror(int e)
{
    if (e == EFBIG)
        return "File too large (the file-size limit, ulimit -f, was reached)";
    return strerror(e);
}

void cn__put_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    char raw[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    cn_image_escape(err, errlen, raw);
}

void cn__out_msg(cn__outfile *o, const char *fmt, ...)
{
    if (o->msg[0])
        return;
    char raw[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    cn_image_escape(o->msg, sizeof o->msg, raw);
    if (!o->msg[0]) {
        snprintf(raw, sizeof raw, "unknown error writing '%s'", o->path ? o->path : "?");
        cn_image_escape(o->msg, sizeof o->msg, raw);
    }
}

/* The permission bits of a new file: 0666 minus the process umask. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return (mode_t)(0666 & ~mask);
}

int cn__out_open(cn__outfile *o, const char *path, char *err, size_t errlen)
{
    o->fd = -1;
    if (!path || !path[0]) {
        cn__put_err(err, errlen, "no output path given");
        return -1;
    }

    /* 1. What is at the target now? Only "nothing" or a regular file may be replaced. */
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            cn__put_err(err, errlen, "cannot write '%s': it is a directory", path);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            cn__put_err(err, errlen,
                        "cannot write '%s': it exists and is not a regular file; refusing to replace it", path);
            return -1;
        }
        o->mode = st.st_mode & (S_IRWXU | S_IRWXG | S_IRWXO);
    } else if (errno == ENOENT) {
        o->mode = new_file_mode();
    } else {
        cn__put_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }

    size_t plen = strlen(path);
    char *copy = (char *)malloc(plen + 1);
    char *tmp = (char *)malloc(plen + sizeof CN__TMP_SUFFIX);
    if (!copy || !tmp) {
        free(copy);
        free(tmp);
        cn__put_err(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    memcpy(copy, path, plen + 1);
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, CN__TMP_SUFFIX, sizeof CN__TMP_SUFFIX);

    /* 2. The temporary file, in the same directory so that rename() is atomic. */
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(copy);
        free(tmp);
        cn__put_err(err, errlen, "cannot create temporary file '%s%s': %s", path, CN__TMP_SUFFIX, strerror(e));
        return -1;
    }
    o->fd = fd;
    o->path = copy;
    o->tmp = tmp;
    o->buffered = 0;
    o->msg[0] = '\0';
    return 0;
}

int cn__out_flush(cn__outfile *o)
{
    size_t off = 0;
    if (o->msg[0])
        return -1;
    while (off < o->buffered) {
        ssize_t n = write(o->fd, o->buf + off, o->buffered - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            cn__out_msg(o, "cannot write '%s': %s", o->path, strerror(errno));
            return -1;
        }
        if (n == 0) {
            cn__out_msg(o, "cannot write '%s': write returned 0 bytes", o->path);
            return -1;
        }
        off += (size_t)n;
    }
    o->buffered = 0;
    return 0;
}

int cn__out_write(cn__outfile *o, const void *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    if (o->msg[0])
        return -1;
    while (len > 0) {
        if (o->buffered == CN__OUTBUF_SIZE && cn__out_flush(o) != 0)
            return -1;
        size_t room = CN__OUTBUF_SIZE - o->buffered;
        size_t n = len < room ? len : room;
        memcpy(o->buf + o->buffered, p, n);
        o->buffered += n;
        p += n;
        len -= n;
    }
    return 0;
}

int cn__out_pwrite(cn__outfile *o, const void *data, size_t len, uint64_t off)
{
    const unsigned char *p = (const unsigned char *)data;
    if (cn__out_flush(o) != 0)
        return -1;
    while (len > 0) {
        if (off > (uint64_t)INT64_MAX) {
            cn__out_msg(o, "cannot write '%s': file offset too large", o->path);
            return -1;
        }
        ssize_t n = pwrite(o->fd, p, len, (off_t)off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            cn__out_msg(o, "cannot write '%s': %s", o->path, strerror(errno));
            return -1;
        }
        if (n == 0) {
            cn__out_msg(o, "cannot write '%s': write returned 0 bytes", o->path);
            return -1;
        }
        p += n;
        len -= (size_t)n;
        off += (uint64_t)n;
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

int cn__out_finish(cn__outfile *o)
{
    int fd;
    if (o->fd < 0 || !o->tmp) {
        cn__out_msg(o, "cannot write '%s': the file is not open", o->path ? o->path : "?");
        goto failed;
    }
    if (cn__out_flush(o) != 0)
        goto failed;
    if (fchmod(o->fd, o->mode) != 0) {
        cn__out_msg(o, "cannot set permissions of '%s': %s", o->tmp, strerror(errno));
        goto failed;
    }
    if (fsync(o->fd) != 0 && errno != EINVAL) {
        cn__out_msg(o, "cannot write '%s': %s", o->path, strerror(errno));
        goto failed;
    }
    fd = o->fd;
    o->fd = -1;
    if (close(fd) != 0) {
        cn__out_msg(o, "cannot write '%s': %s", o->path, strerror(errno));
        goto failed;
    }
    return 0;

failed:
    cn__out_discard(o);
    return -1;
}

/* Renames tmp over path and syncs the directory; on failure writes the reason into msg. */
static int publish(const char *path, const char *tmp, char *msg, size_t msglen)
{
    if (rename(tmp, path) != 0) {
        snprintf(msg, msglen, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
        return -1;
    }
    fsync_parent_dir(path);
    return 0;
}

int cn__out_commit(cn__outfile *o)
{
    if (cn__out_finish(o) != 0)
        return -1;
    if (publish(o->path, o->tmp, o->msg, sizeof o->msg) != 0) {
        cn__out_discard(o);
        return -1;
    }
    free(o->tmp);
    o->tmp = NULL; /* renamed: nothing to remove */
    cn__out_discard(o);
    return 0;
}

struct cn_image_pending {
    char *path;
    char *tmp;
};

cn_image_pending *cn__out_detach(cn__outfile *o)
{
    cn_image_pending *p = (cn_image_pending *)malloc(sizeof *p);
    if (!p) {
        cn__out_msg(o, "cannot write '%s': out of memory", o->path);
        cn__out_discard(o);
        return NULL;
    }
    p->path = o->path;
    p->tmp = o->tmp;
    o->path = NULL;
    o->tmp = NULL;
    return p;
}

int cn_image_publish(cn_image_pending *p, char *err, size_t errlen)
{
    char msg[512];
    if (!p) {
        cn__put_err(err, errlen, "no finished image");
        return -1;
    }
    int rc = publish(p->path, p->tmp, msg, sizeof msg);
    if (rc != 0) {
        cn__put_err(err, errlen, "%s", msg);
        unlink(p->tmp);
    }
    free(p->path);
    free(p->tmp);
    free(p);
    return rc;
}

void cn_image_discard(cn_image_pending *p)
{
    if (!p)
        return;
    unlink(p->tmp);
    free(p->path);
    free(p->tmp);
    free(p);
}

const char *cn_image_pending_temp_path(const cn_image_pending *p)
{
    return p ? p->tmp : NULL;
}

void cn__out_discard(cn__outfile *o)
{
    if (o->fd >= 0) {
        close(o->fd);
        o->fd = -1;
    }
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    free(o->path);
    o->path = NULL;
}
