/*
 * exr.c -- OpenEXR writer (CN_IMAGE_EXR float32, CN_IMAGE_EXR_HALF half) through OpenEXRCore,
 * the C library of OpenEXR 3 (Debian: libopenexr-dev), for a C project the natural choice over
 * the C++ Imf classes: no exceptions to catch at the boundary, and custom I/O is a plain callback.
 *
 * The file: one scanline part, one channel named "R", the data window and display window
 * (0, 0)-(W-1, H-1), rows top to bottom (INCREASING_Y); half ZIP-compressed, float32 not
 * compressed. Why those:
 *   - "R": Godot 4's EXR importer makes a file whose only colour channel is R a one-channel
 *     float image (Image.FORMAT_RF or FORMAT_RH), the format HeightMapShape3D's
 *     update_map_data_from_image takes, while a lone "Y" (luminance) becomes three channels;
 *     Blender's loader shows a lone R channel as gray, as it does Y.
 *   - The compression, measured on a 4096x4096 fBm-6 render written by this writer (one run each
 *     on a busy 2-core machine, user CPU time of the whole render; f32 raw: 67.1 MB, 0.26 s):
 *         half:     none 33.6 MB 0.38 s, ZIP level 4 23.7 MB 1.4 s, PIZ 24.7 MB 1.1 s
 *                   (ZIP at zlib's default level 6: 23.4 MB, 2.8 s);
 *         float32:  none 67.2 MB 0.27 s, ZIP 64.9 MB 3.0 s, PIZ 62.5 MB 3.4 s.
 *     The low mantissa bits of float32 noise are noise: compression saves 3-7 % for ten times
 *     the time, so float32 is written uncompressed (one scanline per chunk). Half compresses by
 *     30 %; ZIP (zlib after OpenEXR's byte split and delta predictor, lossless) is a little
 *     smaller than PIZ there and is the compression every reader has (tinyexr, which Godot
 *     uses, can be built without PIZ), at level 4: half the time of level 6 for 1.5 % more.
 *   - Chunks: 16 scanlines for ZIP, 1 uncompressed. The writer holds one chunk of rows
 *     (allocated at the first row) and the chunk offset table (8 bytes per chunk), so memory
 *     does not grow with the image but for that table (8 bytes per row of float32).
 * Half samples are rounded to nearest even (Imath's imath_float_to_half): magnitudes of 65520 and
 * more become infinities (65504 is the largest half), up to 2^-25 zero, NaN stays NaN.
 *
 * OpenEXRCore writes the header, then the chunks, and at the end seeks back to fill the chunk
 * offset table: every write goes through write_cb into the temporary file (ext.h). The library's
 * error handler is silenced (this layer never prints); the reason of a failure is the I/O error
 * recorded by the callback, else the library's message for the error code.
 */
#define _POSIX_C_SOURCE 200809L

#include "ext.h"

#include <openexr.h>
#define IMATH_HALF_NO_LOOKUP_TABLE /* nothing of libImath is linked */
#include <Imath/half.h>
#include <stdlib.h>
#include <string.h>

typedef struct exr_writer {
    cn__ext base;
    exr_context_t ctx;
    exr_encode_pipeline_t enc;
    int enc_ready;
    int half;
    uint32_t width, height;
    uint32_t lines;       /* scanlines per chunk (16 for ZIP) */
    uint32_t chunk_y;     /* first row of the chunk being filled */
    uint32_t held;        /* rows of it filled */
    size_t row_bytes;     /* width * (2 or 4) */
    unsigned char *chunk; /* lines * row_bytes */
} exr_writer;

static void quiet_error(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    (void)ctxt;
    (void)code;
    (void)msg;
}

static int64_t write_cb(exr_const_context_t ctxt, void *userdata, const void *buffer, uint64_t sz, uint64_t offset,
                        exr_stream_error_func_ptr_t error_cb)
{
    exr_writer *e = (exr_writer *)userdata;
    (void)ctxt;
    (void)error_cb;
    if (sz > (uint64_t)SIZE_MAX || sz > (uint64_t)INT64_MAX) {
        cn__out_msg(e->base.f.o, "cannot write '%s': OpenEXR asked to write %llu bytes at once", e->base.f.o->path,
                    (unsigned long long)sz);
        return -1;
    }
    return cn__ext_write_at(&e->base.f, buffer, (size_t)sz, offset) == 0 ? (int64_t)sz : -1;
}

/* Records a library failure (unless an I/O error is recorded already, which is its cause). */
static int failed(exr_writer *e, exr_result_t rv, const char *what)
{
    cn__out_msg(e->base.f.o, "cannot write '%s': OpenEXR: %s: %s", e->base.f.o->path, what,
                exr_get_default_error_message(rv));
    return -1;
}

/* Encodes and writes the chunk of rows chunk_y .. chunk_y + held - 1. */
static int flush_chunk(exr_writer *e)
{
    exr_chunk_info_t ci;
    exr_result_t rv = exr_write_scanline_chunk_info(e->ctx, 0, (int)e->chunk_y, &ci);
    if (rv != EXR_ERR_SUCCESS)
        return failed(e, rv, "chunk");
    rv = e->enc_ready ? exr_encoding_update(e->ctx, 0, &ci, &e->enc) : exr_encoding_initialize(e->ctx, 0, &ci, &e->enc);
    if (rv != EXR_ERR_SUCCESS)
        return failed(e, rv, "encoder");
    exr_coding_channel_info_t *ch = &e->enc.channels[0];
    ch->user_bytes_per_element = (int16_t)(e->half ? 2 : 4);
    ch->user_data_type = (uint16_t)(e->half ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT);
    ch->user_pixel_stride = e->half ? 2 : 4;
    ch->user_line_stride = (int32_t)e->row_bytes;
    ch->encode_from_ptr = e->chunk;
    if (!e->enc_ready) {
        e->enc_ready = 1; /* from here on exr_encoding_destroy releases it */
        rv = exr_encoding_choose_default_routines(e->ctx, 0, &e->enc);
        if (rv != EXR_ERR_SUCCESS)
            return failed(e, rv, "encoder");
    }
    rv = exr_encoding_run(e->ctx, 0, &e->enc);
    if (rv != EXR_ERR_SUCCESS)
        return failed(e, rv, "compressing a chunk");
    e->chunk_y += e->held;
    e->held = 0;
    return 0;
}

static int exr_rows(cn__ext *base, const float *rows, uint32_t nrows, size_t stride)
{
    exr_writer *e = (exr_writer *)base;
    if (!e->chunk && nrows > 0 && !(e->chunk = (unsigned char *)malloc((size_t)e->lines * e->row_bytes))) {
        /* allocated at the first row, so that starting a file costs no memory that grows with it */
        cn__out_msg(e->base.f.o, "cannot write '%s': out of memory", e->base.f.o->path);
        return -1;
    }
    for (uint32_t r = 0; r < nrows; r++) {
        const float *src = rows + (size_t)r * stride;
        unsigned char *dst = e->chunk + (size_t)e->held * e->row_bytes;
        if (e->half) {
            for (uint32_t i = 0; i < e->width; i++) {
                imath_half_bits_t h = imath_float_to_half(src[i]);
                memcpy(dst + 2 * (size_t)i, &h, 2); /* host order: the encoder writes little-endian */
            }
        } else {
            memcpy(dst, src, e->row_bytes);
        }
        e->held++;
        if ((e->held == e->lines || e->chunk_y + e->held == e->height) && flush_chunk(e) != 0)
            return -1;
    }
    return 0;
}

static int exr_end(cn__ext *base)
{
    exr_writer *e = (exr_writer *)base;
    if (e->enc_ready) {
        exr_encoding_destroy(e->ctx, &e->enc);
        e->enc_ready = 0;
    }
    /* The last chunk wrote the offset table; exr_finish releases the context. Success is that
     * every write went through: checked by the caller in the file's message. */
    exr_result_t rv = exr_finish(&e->ctx);
    if (rv != EXR_ERR_SUCCESS)
        return failed(e, rv, "finishing the file");
    return e->base.f.o->msg[0] ? -1 : 0;
}

static void exr_destroy(cn__ext *base)
{
    exr_writer *e = (exr_writer *)base;
    if (!e)
        return;
    if (e->enc_ready)
        exr_encoding_destroy(e->ctx, &e->enc);
    if (e->ctx) {
        /* An unfinished context may still write its table: into the temporary file, which is
         * about to be removed. Keep whatever message the file had. */
        exr_finish(&e->ctx);
    }
    free(e->chunk);
    free(e);
}

static const cn__ext_ops exr_ops = {exr_rows, NULL, exr_end, exr_destroy};

int cn__exr_begin(cn__ext **out, cn__outfile *o, int half, uint32_t width, uint32_t height)
{
    *out = NULL;
    const size_t bytes = half ? 2 : 4;
    /* cn_image_check_size keeps width within CN_IMAGE_EXR_MAX_WIDTH (a chunk's byte count is int32) */
    if (width > CN_IMAGE_EXR_MAX_WIDTH || height > (uint32_t)INT32_MAX) {
        cn__out_msg(o, "cannot write '%s': %lux%lu is too large for an OpenEXR scanline file", o->path,
                    (unsigned long)width, (unsigned long)height);
        return -1;
    }
    exr_writer *e = (exr_writer *)calloc(1, sizeof *e);
    if (!e) {
        cn__out_msg(o, "cannot write '%s': out of memory", o->path);
        return -1;
    }
    e->base.ops = &exr_ops;
    e->base.f.o = o;
    e->half = half;
    e->width = width;
    e->height = height;
    e->row_bytes = (size_t)width * bytes;

    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = quiet_error;
    init.user_data = e;
    init.write_fn = write_cb;
    init.zip_level = 4; /* see the top of the file */
    /* With a write callback the name is only a label: the library opens and removes nothing. */
    exr_result_t rv = exr_start_write(&e->ctx, o->path, EXR_WRITE_FILE_DIRECTLY, &init);
    const char *what = "starting the file";
    int part = 0;
    if (rv == EXR_ERR_SUCCESS) {
        what = "the header";
        rv = exr_add_part(e->ctx, NULL, EXR_STORAGE_SCANLINE, &part);
    }
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_initialize_required_attr_simple(e->ctx, part, (int32_t)width, (int32_t)height,
                                                 half ? EXR_COMPRESSION_ZIP : EXR_COMPRESSION_NONE);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_add_channel(e->ctx, part, "R", half ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT, EXR_PERCEPTUALLY_LINEAR,
                             1, 1) == EXR_ERR_SUCCESS
                 ? EXR_ERR_SUCCESS
                 : EXR_ERR_INVALID_ARGUMENT;
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_write_header(e->ctx);
    int32_t lines = 0;
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_get_scanlines_per_chunk(e->ctx, part, &lines);
    if (rv != EXR_ERR_SUCCESS || lines < 1 || lines > 256) {
        if (rv == EXR_ERR_SUCCESS)
            rv = EXR_ERR_INVALID_ATTR;
        failed(e, rv, what);
        exr_destroy(&e->base);
        return -1;
    }
    e->lines = (uint32_t)lines;
    *out = &e->base;
    return 0;
}
