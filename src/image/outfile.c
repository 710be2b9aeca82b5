/*
 * outfile.c -- the safe-replacement output file shared by every writer (see outfile.h).
 */
#define _GNU_SOURCE /* O_TMPFILE, AT_EMPTY_PATH (Linux); everything else is POSIX.1-2008 */

#include "outfile.h"
#include "cn_image.h"
#include "portable.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* The permission bits of a new file: 0666 minus the process umask (Windows: none to set). */
static mode_t new_file_mode(void)
{
#ifdef _WIN32
    return 0;
#else
    mode_t mask = umask(0);
    umask(mask);
    return (mode_t)(0666 & ~mask);
#endif
}

#ifndef _WIN32
static char *parent_dir(const char *path);
#endif

/* The test hook CNOISE_TEST_NAMED_TEMP (set and not "0"): always the named temporary file. */
static int unnamed_allowed(void)
{
    const char *v = getenv("CNOISE_TEST_NAMED_TEMP");
    return !v || !v[0] || strcmp(v, "0") == 0;
}

/*
 * An unnamed file (O_TMPFILE) in the directory of path, or -1 where there is none to have: not
 * Linux, a file system without O_TMPFILE, any error (the named fallback then reports it), the
 * test hook, or a path whose "<path>.tmp.XXXXXX" link name would be too long (the fallback
 * reports that at once instead of after all the writing).
 */
static int open_unnamed(const char *path)
{
#ifdef O_TMPFILE
    if (!unnamed_allowed())
        return -1;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (strlen(path) + sizeof CN__TMP_SUFFIX > PATH_MAX)
        return -1;
    char *dir = parent_dir(path);
    if (!dir)
        return -1;
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    free(dir);
    if (fd < 0)
        return -1;
    long name_max = fpathconf(fd, _PC_NAME_MAX);
    if (name_max > 0 && strlen(base) + sizeof CN__TMP_SUFFIX - 1 > (size_t)name_max) {
        close(fd);
        return -1;
    }
    return fd;
#else
    (void)path;
    (void)unnamed_allowed;
    return -1;
#endif
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
#ifndef _WIN32
        o->mode = st.st_mode & (S_IRWXU | S_IRWXG | S_IRWXO);
#endif
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

    /* 2. The temporary file, in the same directory so that rename() is atomic: an unnamed one
     *    where the file system can (nothing is left if the process dies), else a named one. */
    int fd = open_unnamed(copy);
    o->unnamed = fd >= 0;
    if (o->unnamed) {
        free(tmp);
        tmp = NULL;
    } else if ((fd = mkstemp(tmp)) < 0) {
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
        int64_t n = cn__write(o->fd, o->buf + off, o->buffered - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            cn__out_msg(o, "cannot write '%s': %s", o->path, cn_image_strerror(errno));
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
        int64_t n = cn__pwrite(o->fd, p, len, off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            cn__out_msg(o, "cannot write '%s': %s", o->path, cn_image_strerror(errno));
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

#ifndef _WIN32
/* The directory part of path ("." for a bare name, "/" at the root), malloc'ed; NULL if out of
 * memory. */
static char *parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dlen = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
    char *dir = (char *)malloc(dlen + 1);
    if (dir) {
        memcpy(dir, slash ? path : ".", dlen);
        dir[dlen] = '\0';
    }
    return dir;
}
#endif

/* fsync()s the directory holding path; errors are ignored (the data is already safe). Windows has
 * no directory to sync: MoveFileEx's MOVEFILE_WRITE_THROUGH waits for the move to be on disk. */
static void fsync_parent_dir(const char *path)
{
#ifdef _WIN32
    (void)path;
#else
    char *dir = parent_dir(path);
    if (!dir)
        return;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dir);
#endif
}

int cn__out_finish(cn__outfile *o)
{
    int fd;
    if (o->fd < 0 || (!o->tmp && !o->unnamed)) {
        cn__out_msg(o, "cannot write '%s': the file is not open", o->path ? o->path : "?");
        goto failed;
    }
    if (cn__out_flush(o) != 0)
        goto failed;
#ifndef _WIN32 /* permission bits: POSIX only (a new Windows file is writable, as the target was) */
    if (fchmod(o->fd, o->mode) != 0) {
        cn__out_msg(o, "cannot set permissions of '%s': %s", o->tmp ? o->tmp : o->path, strerror(errno));
        goto failed;
    }
#endif
    if (cn__fsync(o->fd) != 0 && errno != EINVAL) {
        cn__out_msg(o, "cannot write '%s': %s", o->path, cn_image_strerror(errno));
        goto failed;
    }
    if (o->unnamed)
        return 0; /* the descriptor is the file's only handle until it is linked */
    fd = o->fd;
    o->fd = -1;
    if (close(fd) != 0) {
        cn__out_msg(o, "cannot write '%s': %s", o->path, cn_image_strerror(errno));
        goto failed;
    }
    return 0;

failed:
    cn__out_discard(o);
    return -1;
}

#ifdef O_TMPFILE
/* Six characters for a temporary name; different on every call in this process, and seeded by
 * the time and the process id against other processes (linkat() reports a clash anyway). */
static void random_chars(char *out)
{
    static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static uint64_t counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 40) ^
                 (++counter * 0x9e3779b97f4a7c15u);
    x ^= x >> 30; /* splitmix64's finaliser */
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    x ^= x >> 31;
    for (int k = 0; k < 6; k++, x /= 62)
        out[k] = set[x % 62];
}

/* Gives the unnamed file fd the name "<path>.tmp.XXXXXX" (a new one: linkat cannot replace).
 * Returns that name (malloc'ed), or NULL with the reason in msg. */
static char *link_unnamed(int fd, const char *path, char *msg, size_t msglen)
{
    size_t plen = strlen(path);
    char *name = (char *)malloc(plen + sizeof CN__TMP_SUFFIX);
    if (!name) {
        cn__put_err(msg, msglen, "cannot write '%s': out of memory", path);
        return NULL;
    }
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    memcpy(name, path, plen);
    memcpy(name + plen, CN__TMP_SUFFIX, sizeof CN__TMP_SUFFIX);
    int e = EEXIST;
    for (int tries = 0; tries < 100 && e == EEXIST; tries++) {
        random_chars(name + plen + sizeof CN__TMP_SUFFIX - 7);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0)
            return name;
        e = errno;
#ifdef AT_EMPTY_PATH
        /* Without /proc: the same by the descriptor (needs CAP_DAC_READ_SEARCH before Linux 6.10). */
        if (e != EEXIST && linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0)
            return name;
        if (errno == EEXIST)
            e = EEXIST;
#endif
    }
    cn__put_err(msg, msglen, "cannot write '%s': cannot link the finished file: %s", path, cn_image_strerror(e));
    free(name);
    return NULL;
}
#endif

/*
 * Puts the finished file in place. An unnamed one (*fd >= 0) is first linked as
 * "<path>.tmp.XXXXXX" and closed; then the named temporary file *tmp is renamed over path and
 * the directory synced. What it consumes it sets to NULL / -1; on failure it writes the reason
 * into msg and leaves in *tmp and *fd what the caller must still remove (release_temp).
 */
static int publish(const char *path, char **tmp, int *fd, char *msg, size_t msglen)
{
#ifdef O_TMPFILE
    if (*fd >= 0 && !*tmp) {
        char *name = link_unnamed(*fd, path, msg, msglen);
        if (!name)
            return -1;
        *tmp = name;
        int f = *fd;
        *fd = -1;
        if (close(f) != 0) {
            cn__put_err(msg, msglen, "cannot write '%s': %s", path, cn_image_strerror(errno));
            return -1;
        }
    }
#else
    (void)fd;
#endif
    if (!*tmp) {
        cn__put_err(msg, msglen, "cannot write '%s': the file is not open", path);
        return -1;
    }
    if (cn__replace(*tmp, path) != 0) {
        cn__put_err(msg, msglen, "cannot rename '%s' to '%s': %s", *tmp, path, strerror(errno));
        return -1;
    }
    free(*tmp);
    *tmp = NULL; /* renamed: nothing to remove */
    fsync_parent_dir(path);
    return 0;
}

/* Closes *fd and removes *tmp where they are still held, and frees *tmp and *path. */
static void release_temp(int *fd, char **tmp, char **path)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
    if (*tmp)
        unlink(*tmp);
    free(*tmp);
    *tmp = NULL;
    free(*path);
    *path = NULL;
}

int cn__out_commit(cn__outfile *o)
{
    if (cn__out_finish(o) != 0)
        return -1;
    int rc = publish(o->path, &o->tmp, &o->fd, o->msg, sizeof o->msg);
    cn__out_discard(o);
    return rc;
}

struct cn_image_pending {
    char *path;
    char *tmp; /* NULL for an unnamed file */
    int fd;    /* the unnamed file, -1 for a named one */
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
    p->fd = o->fd;
    o->path = NULL;
    o->tmp = NULL;
    o->fd = -1;
    return p;
}

int cn_image_publish(cn_image_pending *p, char *err, size_t errlen)
{
    char msg[512];
    if (!p) {
        cn__put_err(err, errlen, "no finished image");
        return -1;
    }
    int rc = publish(p->path, &p->tmp, &p->fd, msg, sizeof msg);
    if (rc != 0)
        cn__put_err(err, errlen, "%s", msg);
    cn_image_discard(p);
    return rc;
}

void cn_image_discard(cn_image_pending *p)
{
    if (!p)
        return;
    release_temp(&p->fd, &p->tmp, &p->path);
    free(p);
}

const char *cn_image_pending_temp_path(const cn_image_pending *p)
{
    return p ? p->tmp : NULL;
}

void cn__out_discard(cn__outfile *o)
{
    release_temp(&o->fd, &o->tmp, &o->path);
}
