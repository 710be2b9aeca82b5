/*
 * image.c -- the raster writers of cn_image.h: PNG (8/16-bit gray, 8-bit RGB) through libpng,
 * RAW 16-bit and float, PFM and NumPy .npy written directly. The file handling (temporary file,
 * checked writes, fsync, rename, cleanup) is outfile.c's, shared with the GIF writer.
 *
 * Byte order: every multi-byte value is encoded explicitly (shifts of the value's bits), so the
 * files are the same on little- and big-endian hosts. libpng takes 16-bit samples big-endian;
 * png_set_swap() tells it the caller's rows are little-endian when the host is.
 *
 * libpng reports errors through png_err_cb, which records the message and longjmps back to the
 * setjmp in whichever public function called into libpng.
 */
#define _POSIX_C_SOURCE 200809L

#include "cn_image.h"
#include "ext.h"
#include "outfile.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if !defined(PNG_WRITE_SWAP_SUPPORTED)
#error "libpng without PNG_WRITE_SWAP_SUPPORTED: 16-bit rows cannot be byte-swapped"
#endif

/* --- formats ------------------------------------------------------------------------------- */

static const struct format_info {
    const char *name;
    cn_image_sample sample;
    unsigned channels;
    unsigned bytes; /* per sample */
    int has_depth;
} formats[CN_IMAGE_FORMAT_COUNT] = {
    [CN_IMAGE_PNG8] = {"png", CN_IMAGE_SAMPLE_U8, 1, 1, 0},
    [CN_IMAGE_PNG16] = {"png16", CN_IMAGE_SAMPLE_U16, 1, 2, 0},
    [CN_IMAGE_PNG_RGB] = {"rgb", CN_IMAGE_SAMPLE_U8, 3, 1, 0},
    [CN_IMAGE_R16] = {"r16", CN_IMAGE_SAMPLE_U16, 1, 2, 1},
    [CN_IMAGE_F32] = {"f32", CN_IMAGE_SAMPLE_F32, 1, 4, 1},
    [CN_IMAGE_PFM] = {"pfm", CN_IMAGE_SAMPLE_F32, 1, 4, 0},
    [CN_IMAGE_NPY] = {"npy", CN_IMAGE_SAMPLE_F32, 1, 4, 1},
    [CN_IMAGE_EXR] = {"exr", CN_IMAGE_SAMPLE_F32, 1, 4, 0},
    [CN_IMAGE_EXR_HALF] = {"exr16", CN_IMAGE_SAMPLE_F32, 1, 4, 0}, /* floats in; halves in the file */
    [CN_IMAGE_TIFF] = {"tiff", CN_IMAGE_SAMPLE_F32, 1, 4, 1},
};

static const char *const sample_names[] = {"uint8_t", "uint16_t", "float"};

static int valid_format(cn_image_format f)
{
    return (int)f >= 0 && (int)f < CN_IMAGE_FORMAT_COUNT;
}

const char *cn_image_format_name(cn_image_format format)
{
    return valid_format(format) ? formats[format].name : NULL;
}

int cn_image_format_from_name(const char *name, cn_image_format *out)
{
    if (!name || !out)
        return -1;
    for (int f = 0; f < CN_IMAGE_FORMAT_COUNT; f++)
        if (strcmp(name, formats[f].name) == 0) {
            *out = (cn_image_format)f;
            return 0;
        }
    return -1;
}

int cn_image_format_from_path(const char *path, cn_image_format *out)
{
    static const struct {
        const char *ext;
        cn_image_format format;
    } exts[] = {{".r16", CN_IMAGE_R16}, {".f32", CN_IMAGE_F32}, {".pfm", CN_IMAGE_PFM}, {".npy", CN_IMAGE_NPY},
                 {".exr", CN_IMAGE_EXR}, {".tif", CN_IMAGE_TIFF}, {".tiff", CN_IMAGE_TIFF}};
    if (!path || !out)
        return -1;
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return -1;
    for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++)
        if (strcasecmp(dot, exts[k].ext) == 0) {
            *out = exts[k].format;
            return 0;
        }
    return -1;
}

cn_image_sample cn_image_format_sample(cn_image_format format)
{
    return valid_format(format) ? formats[format].sample : CN_IMAGE_SAMPLE_U8;
}

unsigned cn_image_format_channels(cn_image_format format)
{
    return valid_format(format) ? formats[format].channels : 0;
}

unsigned cn_image_format_sample_bytes(cn_image_format format)
{
    return valid_format(format) ? formats[format].bytes : 0;
}

int cn_image_format_has_depth(cn_image_format format)
{
    return valid_format(format) ? formats[format].has_depth : 0;
}

/* a * b into *r unless it exceeds limit (no wrap-around: the division test comes first). */
static int mul_within(uint64_t a, uint64_t b, uint64_t limit, uint64_t *r)
{
    if (a != 0 && b > limit / a)
        return 0;
    *r = a * b;
    return 1;
}

int cn_image_check_size(cn_image_format format, uint32_t width, uint32_t height, uint32_t depth,
                        uint64_t *bytes, char *err, size_t errlen)
{
    if (!valid_format(format)) {
        cn__put_err(err, errlen, "unknown image format %d", (int)format);
        return -1;
    }
    const struct format_info *fi = &formats[format];
    if (width < 1 || height < 1 || width > CN_IMAGE_MAX_SIDE || height > CN_IMAGE_MAX_SIDE) {
        cn__put_err(err, errlen, "image size %lux%lu is out of range (each side 1..%lu)", (unsigned long)width,
                    (unsigned long)height, (unsigned long)CN_IMAGE_MAX_SIDE);
        return -1;
    }
    if (depth != 0 && !fi->has_depth) {
        cn__put_err(err, errlen, "the %s format holds a 2D image, not a volume (depth %lu)", fi->name,
                    (unsigned long)depth);
        return -1;
    }
    if ((format == CN_IMAGE_EXR || format == CN_IMAGE_EXR_HALF) && width > CN_IMAGE_EXR_MAX_WIDTH) {
        cn__put_err(err, errlen, "image width %lu is too large for OpenEXR (at most %lu)", (unsigned long)width,
                    (unsigned long)CN_IMAGE_EXR_MAX_WIDTH);
        return -1;
    }
    if (depth > CN_IMAGE_MAX_SIDE) {
        cn__put_err(err, errlen, "volume depth %lu is out of range (1..%lu)", (unsigned long)depth,
                    (unsigned long)CN_IMAGE_MAX_SIDE);
        return -1;
    }
    /* width * channels * bytes (one row), then * height, then * depth, each within the limit. */
    uint64_t row, total;
    if (!mul_within(width, (uint64_t)fi->channels * fi->bytes, CN_IMAGE_MAX_BYTES, &row) ||
        !mul_within(row, height, CN_IMAGE_MAX_BYTES, &total) ||
        !mul_within(total, depth ? depth : 1u, CN_IMAGE_MAX_BYTES, &total)) {
        if (depth)
            cn__put_err(err, errlen,
                        "volume size %lux%lux%lu (%u byte%s per pixel) exceeds the limit of %llu bytes (2^46)",
                        (unsigned long)width, (unsigned long)height, (unsigned long)depth,
                        fi->channels * fi->bytes, fi->channels * fi->bytes == 1 ? "" : "s",
                        (unsigned long long)CN_IMAGE_MAX_BYTES);
        else
            cn__put_err(err, errlen,
                        "image size %lux%lu (%u byte%s per pixel) exceeds the limit of %llu bytes (2^46)",
                        (unsigned long)width, (unsigned long)height, fi->channels * fi->bytes,
                        fi->channels * fi->bytes == 1 ? "" : "s", (unsigned long long)CN_IMAGE_MAX_BYTES);
        return -1;
    }
    if (row > (uint64_t)SIZE_MAX) {
        cn__put_err(err, errlen, "image width %lu: one row of %llu bytes does not fit in memory on this system",
                    (unsigned long)width, (unsigned long long)row);
        return -1;
    }
    if (bytes)
        *bytes = total;
    return 0;
}

/* --- the writer ------------------------------------------------------------------------------ */

struct cn_image_writer {
    cn_image_format format;
    uint32_t width, height, depth;
    uint64_t rows_total, rows_done;
    size_t row_elems;  /* width * channels */
    size_t row_bytes;  /* in the file */
    uint64_t data_off; /* PFM: where the pixel data starts (after the header) */
    int failed;        /* set on the first error; only abort/commit are accepted afterwards */
    png_structp png;
    png_infop info;
    cn__ext *ext;      /* EXR, TIFF: the library-backed writer (ext.h) */
    cn__outfile out;   /* last: holds the output buffer */
};

static int host_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Encoders: n values into dst as little-endian bytes. */
static void encode_u16le(unsigned char *dst, const uint16_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = (unsigned char)(src[i] & 0xffu);
        dst[2 * i + 1] = (unsigned char)(src[i] >> 8);
    }
}

static void encode_f32le(unsigned char *dst, const float *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &src[i], 4);
        dst[4 * i] = (unsigned char)(u & 0xffu);
        dst[4 * i + 1] = (unsigned char)((u >> 8) & 0xffu);
        dst[4 * i + 2] = (unsigned char)((u >> 16) & 0xffu);
        dst[4 * i + 3] = (unsigned char)(u >> 24);
    }
}

/* Appends n samples (u16 or f32) little-endian, converting through a small stack chunk. */
static int append_le(cn_image_writer *w, const void *src, size_t n)
{
    unsigned char chunk[8192];
    const unsigned bytes = formats[w->format].bytes;
    const size_t per = sizeof chunk / bytes;
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < per ? n - done : per;
        if (bytes == 2)
            encode_u16le(chunk, (const uint16_t *)src + done, k);
        else
            encode_f32le(chunk, (const float *)src + done, k);
        if (cn__out_write(&w->out, chunk, k * bytes) != 0)
            return -1;
        done += k;
    }
    return 0;
}

static void png_err_cb(png_structp png, png_const_charp msg)
{
    cn_image_writer *w = (cn_image_writer *)png_get_error_ptr(png);
    cn__out_msg(&w->out, "cannot write '%s': libpng: %s", w->out.path, msg ? msg : "error");
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
    cn_image_writer *w = (cn_image_writer *)png_get_io_ptr(png);
    if (cn__out_write(&w->out, data, len) != 0)
        png_error(png, w->out.msg); /* does not return */
}

/* libpng asks for a flush only at png_write_flush(); the real flush happens at commit. */
static void png_flush_cb(png_structp png)
{
    (void)png;
}

/* Releases everything; removes the temporary file unless it was renamed into place. */
static void destroy(cn_image_writer *w)
{
    if (!w)
        return;
    if (w->png)
        png_destroy_write_struct(&w->png, &w->info);
    if (w->ext)
        w->ext->ops->destroy(w->ext);
    cn__out_discard(&w->out);
    free(w);
}

/* Marks w failed and copies its message to the caller. */
static int fail(cn_image_writer *w, char *err, size_t errlen)
{
    w->failed = 1;
    cn__put_err(err, errlen, "%s", w->out.msg);
    return -1;
}

/* "{'descr': '<f4', 'fortran_order': False, 'shape': (...), }" padded with spaces and a final
 * newline so that the 10-byte preamble plus the header is a multiple of 64 bytes (NPY 1.0). */
static int npy_header(cn_image_writer *w)
{
    char dict[256];
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
    int n;
    if (w->depth)
        n = snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%lu, %lu, %lu), }",
                     (unsigned long)w->depth, (unsigned long)w->height, (unsigned long)w->width);
    else
        n = snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%lu, %lu), }",
                     (unsigned long)w->height, (unsigned long)w->width);
    size_t len = (size_t)n;
    size_t total = (10 + len + 1 + 63) / 64 * 64; /* + 1 for the newline */
    while (10 + len + 1 < total)
        dict[len++] = ' ';
    dict[len++] = '\n';
    pre[8] = (unsigned char)(len & 0xffu);
    pre[9] = (unsigned char)(len >> 8);
    if (cn__out_write(&w->out, pre, sizeof pre) != 0 || cn__out_write(&w->out, dict, len) != 0)
        return -1;
    return 0;
}

int cn_image_begin(cn_image_writer **out, const char *path, cn_image_format format, uint32_t width,
                   uint32_t height, uint32_t depth, char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || !path || !path[0]) {
        cn__put_err(err, errlen, "no output path given");
        return -1;
    }
    if (cn_image_check_size(format, width, height, depth, NULL, err, errlen) != 0)
        return -1;

    cn_image_writer *w = (cn_image_writer *)calloc(1, sizeof *w);
    if (!w) {
        cn__put_err(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    w->out.fd = -1;
    w->format = format;
    w->width = width;
    w->height = height;
    w->depth = depth;
    w->rows_total = (uint64_t)height * (depth ? depth : 1u);
    w->row_elems = (size_t)width * formats[format].channels;
    w->row_bytes = w->row_elems * formats[format].bytes;
    if (cn__out_open(&w->out, path, err, errlen) != 0) {
        destroy(w);
        return -1;
    }

    switch (format) {
    case CN_IMAGE_PNG8:
    case CN_IMAGE_PNG16:
    case CN_IMAGE_PNG_RGB:
        w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w, png_err_cb, png_warn_cb);
        if (w->png)
            w->info = png_create_info_struct(w->png);
        if (!w->png || !w->info) {
            destroy(w);
            cn__put_err(err, errlen, "cannot write '%s': out of memory (libpng)", path);
            return -1;
        }
        if (setjmp(png_jmpbuf(w->png))) {
            cn__put_err(err, errlen, "%s", w->out.msg);
            destroy(w);
            return -1;
        }
        png_set_write_fn(w->png, w, png_write_cb, png_flush_cb);
        /* libpng's default user limits (1000000 pixels per side) also apply to writing; this
         * writer's limit is the format's own, 2^31 - 1 (found by fuzz/fuzz_image.c). */
        png_set_user_limits(w->png, CN_IMAGE_MAX_SIDE, CN_IMAGE_MAX_SIDE);
        png_set_IHDR(w->png, w->info, width, height, format == CN_IMAGE_PNG16 ? 16 : 8,
                     format == CN_IMAGE_PNG_RGB ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(w->png, w->info);
        if (format == CN_IMAGE_PNG16 && host_little_endian())
            png_set_swap(w->png); /* after png_write_info: transforms apply to the rows */
        break;
    case CN_IMAGE_PFM: {
        char hdr[64];
        int n = snprintf(hdr, sizeof hdr, "Pf\n%lu %lu\n-1.0\n", (unsigned long)width, (unsigned long)height);
        w->data_off = (uint64_t)n;
        if (cn__out_write(&w->out, hdr, (size_t)n) != 0 || cn__out_flush(&w->out) != 0)
            goto failed;
        break;
    }
    case CN_IMAGE_NPY:
        if (npy_header(w) != 0)
            goto failed;
        break;
    case CN_IMAGE_EXR:
    case CN_IMAGE_EXR_HALF:
        if (cn__exr_begin(&w->ext, &w->out, format == CN_IMAGE_EXR_HALF, width, height) != 0)
            goto failed;
        break;
    case CN_IMAGE_TIFF:
        if (cn__tiff_begin(&w->ext, &w->out, width, height, depth) != 0)
            goto failed;
        break;
    default: /* the raw formats have no header */
        break;
    }
    *out = w;
    return 0;

failed:
    cn__put_err(err, errlen, "%s", w->out.msg);
    destroy(w);
    return -1;
}

/*
 * The checks every typed write makes. Returns 1 to go on, 0 for nothing to do (nrows 0), or -1
 * after failing the writer.
 */
static int pre_write(cn_image_writer *w, cn_image_sample sample, const void *rows, uint32_t nrows,
                     size_t stride, char *err, size_t errlen)
{
    if (!w) {
        cn__put_err(err, errlen, "no image writer");
        return -1;
    }
    if (w->failed)
        return fail(w, err, errlen);
    const struct format_info *fi = &formats[w->format];
    if (sample != fi->sample) {
        cn__out_msg(&w->out, "cannot write '%s': the %s format takes rows of %s, not %s", w->out.path, fi->name,
                    sample_names[fi->sample], sample_names[sample]);
        return fail(w, err, errlen);
    }
    if (nrows == 0)
        return 0;
    if (!rows) {
        cn__out_msg(&w->out, "cannot write '%s': no pixel data", w->out.path);
        return fail(w, err, errlen);
    }
    if (stride < w->row_elems) {
        cn__out_msg(&w->out, "cannot write '%s': row stride %zu is less than the row's %zu samples", w->out.path,
                    stride, w->row_elems);
        return fail(w, err, errlen);
    }
    if (nrows > w->rows_total - w->rows_done) {
        cn__out_msg(&w->out, "cannot write '%s': %lu more rows would exceed the %llu rows of the file (%llu written)",
                    w->out.path, (unsigned long)nrows, (unsigned long long)w->rows_total,
                    (unsigned long long)w->rows_done);
        return fail(w, err, errlen);
    }
    if ((size_t)(nrows - 1) > (SIZE_MAX - w->row_elems) / stride) {
        cn__out_msg(&w->out, "cannot write '%s': %lu rows of stride %zu overflow the address space", w->out.path,
                    (unsigned long)nrows, stride);
        return fail(w, err, errlen);
    }
    return 1;
}

/* PNG rows straight from the caller's buffer (libpng copies each row before transforming it). */
static int png_rows(cn_image_writer *w, const unsigned char *rows, uint32_t nrows, size_t stride_bytes,
                    char *err, size_t errlen)
{
    if (setjmp(png_jmpbuf(w->png)))
        return fail(w, err, errlen);
    for (uint32_t r = 0; r < nrows; r++) {
        png_write_row(w->png, (png_const_bytep)(rows + (size_t)r * stride_bytes));
        w->rows_done++;
    }
    return 0;
}

/*
 * PFM rows go bottom to top: image row y (0 = top) is stored at data_off + (H - 1 - y) * row_bytes.
 * Consecutive image rows y..y+k-1 are therefore one contiguous run of the file in reverse order,
 * so runs that fit the output buffer are assembled there reversed and placed with one pwrite;
 * wider rows are placed piece by piece.
 */
static int pfm_rows(cn_image_writer *w, const float *rows, uint32_t nrows, size_t stride, char *err,
                    size_t errlen)
{
    const size_t rb = w->row_bytes;
    unsigned char *buf = w->out.buf;
    uint32_t r = 0;
    if (cn__out_flush(&w->out) != 0) /* the buffer is scratch space from here on */
        return fail(w, err, errlen);
    while (r < nrows) {
        const uint64_t y = w->rows_done;
        if (rb <= CN__OUTBUF_SIZE) {
            uint32_t k = (uint32_t)(CN__OUTBUF_SIZE / rb);
            if (k > nrows - r)
                k = nrows - r;
            for (uint32_t j = 0; j < k; j++)
                encode_f32le(buf + (size_t)j * rb, rows + (size_t)(r + k - 1 - j) * stride, w->width);
            uint64_t off = w->data_off + (w->height - 1 - (y + k - 1)) * (uint64_t)rb;
            if (cn__out_pwrite(&w->out, buf, (size_t)k * rb, off) != 0)
                return fail(w, err, errlen);
            r += k;
            w->rows_done += k;
        } else {
            const float *row = rows + (size_t)r * stride;
            const size_t per = CN__OUTBUF_SIZE / 4;
            uint64_t off = w->data_off + (w->height - 1 - y) * (uint64_t)rb;
            for (size_t done = 0; done < w->width;) {
                size_t n = w->width - done < per ? w->width - done : per;
                encode_f32le(buf, row + done, n);
                if (cn__out_pwrite(&w->out, buf, n * 4, off + (uint64_t)done * 4) != 0)
                    return fail(w, err, errlen);
                done += n;
            }
            r++;
            w->rows_done++;
        }
    }
    return 0;
}

int cn_image_write_u8(cn_image_writer *w, const uint8_t *rows, uint32_t nrows, size_t stride,
                      char *err, size_t errlen)
{
    int go = pre_write(w, CN_IMAGE_SAMPLE_U8, rows, nrows, stride, err, errlen);
    if (go <= 0)
        return go;
    return png_rows(w, rows, nrows, stride, err, errlen); /* PNG8 and PNG_RGB are the u8 formats */
}

int cn_image_write_u16(cn_image_writer *w, const uint16_t *rows, uint32_t nrows, size_t stride,
                       char *err, size_t errlen)
{
    int go = pre_write(w, CN_IMAGE_SAMPLE_U16, rows, nrows, stride, err, errlen);
    if (go <= 0)
        return go;
    if (w->format == CN_IMAGE_PNG16)
        return png_rows(w, (const unsigned char *)rows, nrows, stride * sizeof *rows, err, errlen);
    for (uint32_t r = 0; r < nrows; r++) { /* CN_IMAGE_R16 */
        if (append_le(w, rows + (size_t)r * stride, w->row_elems) != 0)
            return fail(w, err, errlen);
        w->rows_done++;
    }
    return 0;
}

int cn_image_write_f32(cn_image_writer *w, const float *rows, uint32_t nrows, size_t stride,
                       char *err, size_t errlen)
{
    int go = pre_write(w, CN_IMAGE_SAMPLE_F32, rows, nrows, stride, err, errlen);
    if (go <= 0)
        return go;
    if (w->format == CN_IMAGE_PFM)
        return pfm_rows(w, rows, nrows, stride, err, errlen);
    if (w->ext) {
        if (w->ext->ops->rows(w->ext, rows, nrows, stride) != 0)
            return fail(w, err, errlen);
        w->rows_done += nrows;
        return 0;
    }
    for (uint32_t r = 0; r < nrows; r++) { /* CN_IMAGE_F32, CN_IMAGE_NPY */
        if (append_le(w, rows + (size_t)r * stride, w->row_elems) != 0)
            return fail(w, err, errlen);
        w->rows_done++;
    }
    return 0;
}

uint64_t cn_image_rows_done(const cn_image_writer *w)
{
    return w ? w->rows_done : 0;
}

uint64_t cn_image_rows_total(const cn_image_writer *w)
{
    return w ? w->rows_total : 0;
}

/* Commit (out NULL) or finish (out not NULL); consumes w. */
static int complete(cn_image_writer *w, cn_image_pending **out, char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!w) {
        cn__put_err(err, errlen, "no image writer");
        return -1;
    }
    if (!w->failed && w->rows_done != w->rows_total)
        cn__out_msg(&w->out, "cannot write '%s': only %llu of %llu rows were written", w->out.path,
                    (unsigned long long)w->rows_done, (unsigned long long)w->rows_total);
    if (w->out.msg[0])
        goto failed;
    if (w->png) {
        /* The rest of the PNG stream (IDAT tail, IEND) into the output buffer. */
        if (setjmp(png_jmpbuf(w->png)))
            goto failed;
        png_write_end(w->png, NULL);
        png_destroy_write_struct(&w->png, &w->info);
    }
    if (w->ext && w->ext->ops->end(w->ext) != 0)
        goto failed;
    if (!out) {
        if (cn__out_commit(&w->out) != 0)
            goto failed;
    } else {
        if (cn__out_finish(&w->out) != 0 || !(*out = cn__out_detach(&w->out)))
            goto failed;
    }
    destroy(w);
    return 0;

failed:
    cn__put_err(err, errlen, "%s", w->out.msg);
    destroy(w);
    return -1;
}

int cn_image_commit(cn_image_writer *w, char *err, size_t errlen)
{
    return complete(w, NULL, err, errlen);
}

int cn_image_finish(cn_image_writer *w, cn_image_pending **out, char *err, size_t errlen)
{
    if (!out) {
        cn__put_err(err, errlen, "no place for the finished image");
        cn_image_abort(w);
        return -1;
    }
    return complete(w, out, err, errlen);
}

void cn_image_abort(cn_image_writer *w)
{
    destroy(w);
}

int cn_image_set_georef(cn_image_writer *w, const cn_image_georef *g, char *err, size_t errlen)
{
    if (!w || !g) {
        cn__put_err(err, errlen, w ? "no georeferencing given" : "no image writer");
        return -1;
    }
    if (w->failed)
        return fail(w, err, errlen);
    if (!w->ext || !w->ext->ops->georef) {
        cn__out_msg(&w->out, "cannot write '%s': the %s format has no georeferencing (GeoTIFF is tiff)",
                    w->out.path, formats[w->format].name);
        return fail(w, err, errlen);
    }
    if (w->ext->ops->georef(w->ext, g) != 0)
        return fail(w, err, errlen);
    return 0;
}

const char *cn_image_temp_path(const cn_image_writer *w)
{
    return w ? w->out.tmp : NULL;
}

int cn_image_write_file(const char *path, cn_image_format format, const void *data, uint32_t width,
                        uint32_t height, uint32_t depth, char *err, size_t errlen)
{
    if (!data) {
        cn__put_err(err, errlen, "cannot write '%s': no pixel data", path ? path : "(null)");
        return -1;
    }
    cn_image_writer *w;
    if (cn_image_begin(&w, path, format, width, height, depth, err, errlen) != 0)
        return -1;
    const size_t stride = w->row_elems;
    const unsigned char *p = (const unsigned char *)data;
    const size_t row_size = stride * formats[format].bytes; /* in memory: native samples */
    int rc = 0;
    while (rc == 0 && w->rows_done < w->rows_total) {
        uint64_t left = w->rows_total - w->rows_done;
        uint32_t n = left > 0x40000000u ? 0x40000000u : (uint32_t)left;
        const void *at = p + (size_t)w->rows_done * row_size;
        switch (formats[format].sample) {
        case CN_IMAGE_SAMPLE_U8:
            rc = cn_image_write_u8(w, (const uint8_t *)at, n, stride, err, errlen);
            break;
        case CN_IMAGE_SAMPLE_U16:
            rc = cn_image_write_u16(w, (const uint16_t *)at, n, stride, err, errlen);
            break;
        default:
            rc = cn_image_write_f32(w, (const float *)at, n, stride, err, errlen);
            break;
        }
    }
    if (rc != 0) {
        cn_image_abort(w);
        return -1;
    }
    return cn_image_commit(w, err, errlen);
}

/* --- the original 8-bit grayscale PNG API ----------------------------------------------------- */

int cn_image_png_begin(cn_image_png **out, const char *path, uint32_t width, uint32_t height,
                       char *err, size_t errlen)
{
    return cn_image_begin(out, path, CN_IMAGE_PNG8, width, height, 0, err, errlen);
}

int cn_image_png_write_rows(cn_image_png *w, const uint8_t *rows, uint32_t nrows, size_t stride,
                            char *err, size_t errlen)
{
    return cn_image_write_u8(w, rows, nrows, stride, err, errlen);
}

int cn_image_png_commit(cn_image_png *w, char *err, size_t errlen)
{
    return cn_image_commit(w, err, errlen);
}

void cn_image_png_abort(cn_image_png *w)
{
    cn_image_abort(w);
}

const char *cn_image_png_temp_path(const cn_image_png *w)
{
    return cn_image_temp_path(w);
}

int cn_image_write_gray8_png(const char *path, const uint8_t *pixels, uint32_t width,
                             uint32_t height, char *err, size_t errlen)
{
    return cn_image_write_file(path, CN_IMAGE_PNG8, pixels, width, height, 0, err, errlen);
}
