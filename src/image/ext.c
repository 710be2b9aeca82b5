/*
 * ext.c -- positioned reads and writes of the temporary file for the library-backed writers
 * (ext.h), on top of outfile.c's appending buffer.
 *
 * outfile.c appends with write(2) at the descriptor's offset, which is always the number of
 * bytes appended so far (f->end minus what is still buffered); pwrite(2) does not move that
 * offset. So the one rule that keeps both consistent: bytes at or past f->end are appended
 * (zero-filling a gap first), bytes before it are placed with pwrite.
 */
#define _POSIX_C_SOURCE 200809L

#include "ext.h"
#include "portable.h"

#include <errno.h>
#include <string.h>

int cn__ext_write_at(cn__ext_file *f, const void *data, size_t len, uint64_t off)
{
    const unsigned char *p = (const unsigned char *)data;
    cn__outfile *o = f->o;
    if (o->msg[0])
        return -1;
    if (off < f->end) {
        /* the part inside what exists: in place */
        uint64_t inside = f->end - off;
        size_t n = inside < len ? (size_t)inside : len;
        if (cn__out_pwrite(o, p, n, off) != 0)
            return -1;
        p += n;
        len -= n;
        off += n;
    }
    if (len == 0)
        return 0;
    while (f->end < off) { /* a gap: zeros, as a sparse region would read */
        static const unsigned char zeros[4096];
        uint64_t gap = off - f->end;
        size_t n = gap < sizeof zeros ? (size_t)gap : sizeof zeros;
        if (cn__out_write(o, zeros, n) != 0)
            return -1;
        f->end += n;
    }
    if (cn__out_write(o, p, len) != 0)
        return -1;
    f->end += len;
    return 0;
}

int64_t cn__ext_read_at(cn__ext_file *f, void *data, size_t len, uint64_t off)
{
    cn__outfile *o = f->o;
    unsigned char *p = (unsigned char *)data;
    size_t got = 0;
    if (o->msg[0] || cn__out_flush(o) != 0)
        return -1;
    while (got < len) {
        int64_t n = cn__pread(o->fd, p + got, len - got, off + got);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            cn__out_msg(o, "cannot write '%s': reading back the temporary file: %s", o->path,
                        cn_image_strerror(errno));
            return -1;
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (int64_t)got;
}
