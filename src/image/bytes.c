/*
 * bytes.c -- small files written whole from memory (a raw file's sidecar, a recipe), with the
 * same safe replacement as the images (cn_image.h, "Safe replacement").
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>

#include "cn_image.h"
#include "outfile.h"

/* Commit (out NULL) or finish (out not NULL) a file holding data[0..len). */
static int write_bytes(const char *path, const void *data, size_t len, cn_image_pending **out, char *err,
                       size_t errlen)
{
    if (out)
        *out = NULL;
    if (!data && len) {
        cn__put_err(err, errlen, "no data for '%s'", path ? path : "(null)");
        return -1;
    }
    cn__outfile *o = (cn__outfile *)calloc(1, sizeof *o);
    if (!o) {
        cn__put_err(err, errlen, "out of memory");
        return -1;
    }
    int r = cn__out_open(o, path, err, errlen);
    if (r == 0) {
        r = cn__out_write(o, data, len);
        if (r == 0)
            r = out ? cn__out_finish(o) : cn__out_commit(o);
        if (r == 0 && out && !(*out = cn__out_detach(o)))
            r = -1;
        if (r != 0)
            cn__put_err(err, errlen, "%s", o->msg);
    }
    cn__out_discard(o);
    free(o);
    return r;
}

int cn_image_write_bytes(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return write_bytes(path, data, len, NULL, err, errlen);
}

int cn_image_bytes_finish(const char *path, const void *data, size_t len, cn_image_pending **out, char *err,
                          size_t errlen)
{
    if (!out) {
        cn__put_err(err, errlen, "no place for the finished file");
        return -1;
    }
    return write_bytes(path, data, len, out, err, errlen);
}
