/*
 * ext.h -- internal: the float formats written through another library (OpenEXR's C library
 * OpenEXRCore in exr.c, libtiff + libgeotiff in tiff.c), behind one small interface that image.c
 * dispatches to.
 *
 * Those libraries write at offsets of their choosing (a chunk table or a TIFF directory is placed
 * after the data, the header patched at the end), so they do not write to the file themselves:
 * their I/O callbacks go through cn__ext_write_at / cn__ext_read_at, which keep the outfile.c
 * rules (the temporary file, checked writes, the first error kept as the file's message). The
 * libraries never see the target path, never print and never create or remove a file.
 *
 * Every function returns 0 or -1; on -1 the reason is in o->msg (cn__out_msg) of the cn__outfile
 * the writer was begun with. Not part of the installed API.
 */
#ifndef CN_IMAGE_EXT_H
#define CN_IMAGE_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "cn_image.h"
#include "outfile.h"

typedef struct cn__ext cn__ext;

typedef struct cn__ext_ops {
    /* nrows rows of width floats, row r at rows + r * stride (continuing into the next slice). */
    int (*rows)(cn__ext *e, const float *rows, uint32_t nrows, size_t stride);
    /* GeoTIFF tags; NULL for formats without them. Only before the first row. */
    int (*georef)(cn__ext *e, const cn_image_georef *g);
    /* After the last row: everything the library still holds, into the file. */
    int (*end)(cn__ext *e);
    /* Releases the library's state (after end, or instead of it); never touches the file. */
    void (*destroy)(cn__ext *e);
} cn__ext_ops;

/* The file position bookkeeping shared by the writers: bytes appended so far through the
 * outfile's buffer (the file's logical end). */
typedef struct cn__ext_file {
    cn__outfile *o;
    uint64_t end;
} cn__ext_file;

struct cn__ext {
    const cn__ext_ops *ops;
    cn__ext_file f;
};

/*
 * Writes len bytes at byte offset off of the temporary file: appended through the buffer when off
 * is the end, placed with pwrite when it lies inside what was written, the gap filled with zero
 * bytes when it lies beyond. 0, or -1 with o->msg set.
 */
int cn__ext_write_at(cn__ext_file *f, const void *data, size_t len, uint64_t off);

/* Reads up to len bytes at off (the buffer drained first); the count read, or -1 with o->msg. */
int64_t cn__ext_read_at(cn__ext_file *f, void *data, size_t len, uint64_t off);

/*
 * The writers. o is open (cn__out_open) and empty; the size was checked (cn_image_check_size).
 * On success *out is a writer that image.c owns; on failure -1 with o->msg set and nothing kept.
 */
int cn__exr_begin(cn__ext **out, cn__outfile *o, int half, uint32_t width, uint32_t height);
int cn__tiff_begin(cn__ext **out, cn__outfile *o, uint32_t width, uint32_t height, uint32_t depth);

#endif /* CN_IMAGE_EXT_H */
