/*
 * gif.c -- animated GIF writer (cn_image_gif_* in cn_image.h) on giflib, through the same
 * safe-replacement output file as the raster writers (outfile.c).
 *
 * The file: "GIF89a", the logical screen descriptor with the 256-colour global colour table,
 * when looping the NETSCAPE2.0 application extension (sub-block 1, repeat count 0 = forever), then
 * per frame a graphic control extension (delay in centiseconds, no transparency, disposal "do not
 * dispose") and a full-screen image descriptor with its LZW-compressed rows; the trailer at commit.
 * giflib writes through out_cb into our buffer; EGifCloseFile ignores the result of writing the
 * trailer, so commit checks the output file's own error state afterwards.
 */
#define _POSIX_C_SOURCE 200809L

#include "cn_image.h"
#include "outfile.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

struct cn_image_gif {
    GifFileType *gif;
    uint32_t width, height;
    unsigned delay_cs;
    uint64_t frames;
    int failed;
    GifPixelType *line; /* one row: EGifPutLine masks its input in place, so never the caller's */
    cn__outfile out;
};

static int out_cb(GifFileType *gif, const GifByteType *data, int len)
{
    cn_image_gif *g = (cn_image_gif *)gif->UserData;
    if (len <= 0)
        return 0;
    if (cn__out_write(&g->out, data, (size_t)len) != 0)
        return 0; /* giflib reports E_GIF_ERR_WRITE_FAILED; our message says why */
    return len;
}

/* Records giflib's error unless the output file already has a more precise one. */
static void gif_msg(cn_image_gif *g, const char *what)
{
    int code = g->gif ? g->gif->Error : 0;
    const char *s = code ? GifErrorString(code) : NULL;
    cn__out_msg(&g->out, "cannot write '%s': giflib: %s%s%s", g->out.path, what, s ? ": " : "", s ? s : "");
}

static void destroy(cn_image_gif *g)
{
    if (!g)
        return;
    if (g->gif)
        EGifCloseFile(g->gif, NULL); /* frees it; its trailer goes to a file about to be removed */
    g->gif = NULL;
    cn__out_discard(&g->out);
    free(g->line);
    free(g);
}

static int fail(cn_image_gif *g, char *err, size_t errlen)
{
    g->failed = 1;
    cn__put_err(err, errlen, "%s", g->out.msg);
    return -1;
}

int cn_image_gif_begin(cn_image_gif **out, const char *path, uint32_t width, uint32_t height,
                       const uint8_t *palette, unsigned delay_cs, int loop, char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || !path || !path[0]) {
        cn__put_err(err, errlen, "no output path given");
        return -1;
    }
    if (width < 1 || height < 1 || width > CN_IMAGE_GIF_MAX_SIDE || height > CN_IMAGE_GIF_MAX_SIDE) {
        cn__put_err(err, errlen, "GIF size %lux%lu is out of range (each side 1..%u)", (unsigned long)width,
                    (unsigned long)height, CN_IMAGE_GIF_MAX_SIDE);
        return -1;
    }
    if (!palette) {
        cn__put_err(err, errlen, "cannot write '%s': no palette", path);
        return -1;
    }
    if (delay_cs > 65535u) {
        cn__put_err(err, errlen, "GIF frame delay %u is out of range (0..65535 hundredths of a second)", delay_cs);
        return -1;
    }

    cn_image_gif *g = (cn_image_gif *)calloc(1, sizeof *g);
    if (!g) {
        cn__put_err(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    g->out.fd = -1;
    g->width = width;
    g->height = height;
    g->delay_cs = delay_cs;
    g->line = (GifPixelType *)malloc(width);
    if (!g->line) {
        destroy(g);
        cn__put_err(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    if (cn__out_open(&g->out, path, err, errlen) != 0) {
        destroy(g);
        return -1;
    }

    int code = 0;
    g->gif = EGifOpen(g, out_cb, &code);
    if (!g->gif) {
        const char *s = GifErrorString(code);
        cn__out_msg(&g->out, "cannot write '%s': giflib: %s", path, s ? s : "cannot start");
        goto failed;
    }
    EGifSetGifVersion(g->gif, true);

    GifColorType colors[256];
    for (int i = 0; i < 256; i++) {
        colors[i].Red = palette[3 * i];
        colors[i].Green = palette[3 * i + 1];
        colors[i].Blue = palette[3 * i + 2];
    }
    ColorMapObject *map = GifMakeMapObject(256, colors);
    if (!map) {
        cn__out_msg(&g->out, "cannot write '%s': out of memory (giflib)", path);
        goto failed;
    }
    int rc = EGifPutScreenDesc(g->gif, (int)width, (int)height, 8, 0, map); /* copies the map */
    GifFreeMapObject(map);
    if (rc != GIF_OK) {
        gif_msg(g, "screen descriptor");
        goto failed;
    }
    if (loop) {
        static const unsigned char app[11] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
        static const unsigned char forever[3] = {1, 0, 0}; /* sub-block id 1, repeat count 0 (LE) */
        if (EGifPutExtensionLeader(g->gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
            EGifPutExtensionBlock(g->gif, sizeof app, app) != GIF_OK ||
            EGifPutExtensionBlock(g->gif, sizeof forever, forever) != GIF_OK ||
            EGifPutExtensionTrailer(g->gif) != GIF_OK) {
            gif_msg(g, "loop extension");
            goto failed;
        }
    }
    *out = g;
    return 0;

failed:
    cn__put_err(err, errlen, "%s", g->out.msg);
    destroy(g);
    return -1;
}

int cn_image_gif_add_frame(cn_image_gif *g, const uint8_t *pixels, size_t stride, char *err,
                           size_t errlen)
{
    if (!g) {
        cn__put_err(err, errlen, "no GIF writer");
        return -1;
    }
    if (g->failed)
        return fail(g, err, errlen);
    if (!pixels) {
        cn__out_msg(&g->out, "cannot write '%s': no pixel data", g->out.path);
        return fail(g, err, errlen);
    }
    if (stride < g->width) {
        cn__out_msg(&g->out, "cannot write '%s': row stride %zu is less than the width %lu", g->out.path, stride,
                    (unsigned long)g->width);
        return fail(g, err, errlen);
    }
    if ((size_t)(g->height - 1) > (SIZE_MAX - g->width) / stride) {
        cn__out_msg(&g->out, "cannot write '%s': a frame of stride %zu overflows the address space", g->out.path,
                    stride);
        return fail(g, err, errlen);
    }
    GraphicsControlBlock gcb;
    memset(&gcb, 0, sizeof gcb);
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.UserInputFlag = false;
    gcb.DelayTime = (int)g->delay_cs;
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType ext[4];
    size_t elen = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, (int)elen, ext) != GIF_OK) {
        gif_msg(g, "graphic control extension");
        return fail(g, err, errlen);
    }
    if (EGifPutImageDesc(g->gif, 0, 0, (int)g->width, (int)g->height, false, NULL) != GIF_OK) {
        gif_msg(g, "image descriptor");
        return fail(g, err, errlen);
    }
    for (uint32_t r = 0; r < g->height; r++) {
        memcpy(g->line, pixels + (size_t)r * stride, g->width);
        if (EGifPutLine(g->gif, g->line, (int)g->width) != GIF_OK) {
            gif_msg(g, "image data");
            return fail(g, err, errlen);
        }
    }
    g->frames++;
    return 0;
}

uint64_t cn_image_gif_frames(const cn_image_gif *g)
{
    return g ? g->frames : 0;
}

/* Commit (out NULL) or finish (out not NULL); consumes g. */
static int complete(cn_image_gif *g, cn_image_pending **out, char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!g) {
        cn__put_err(err, errlen, "no GIF writer");
        return -1;
    }
    if (!g->failed && g->frames == 0)
        cn__out_msg(&g->out, "cannot write '%s': a GIF needs at least one frame", g->out.path);
    if (g->out.msg[0])
        goto failed;
    int code = 0;
    GifFileType *gif = g->gif;
    g->gif = NULL;
    if (EGifCloseFile(gif, &code) != GIF_OK) { /* writes the trailer, frees gif */
        const char *s = GifErrorString(code);
        cn__out_msg(&g->out, "cannot write '%s': giflib: %s", g->out.path, s ? s : "cannot finish");
        goto failed;
    }
    if (g->out.msg[0])
        goto failed;
    if (!out) {
        if (cn__out_commit(&g->out) != 0)
            goto failed;
    } else {
        if (cn__out_finish(&g->out) != 0 || !(*out = cn__out_detach(&g->out)))
            goto failed;
    }
    destroy(g);
    return 0;

failed:
    cn__put_err(err, errlen, "%s", g->out.msg);
    destroy(g);
    return -1;
}

int cn_image_gif_commit(cn_image_gif *g, char *err, size_t errlen)
{
    return complete(g, NULL, err, errlen);
}

int cn_image_gif_finish(cn_image_gif *g, cn_image_pending **out, char *err, size_t errlen)
{
    if (!out) {
        cn__put_err(err, errlen, "no place for the finished GIF");
        cn_image_gif_abort(g);
        return -1;
    }
    return complete(g, out, err, errlen);
}

void cn_image_gif_abort(cn_image_gif *g)
{
    destroy(g);
}

const char *cn_image_gif_temp_path(const cn_image_gif *g)
{
    return g ? g->out.tmp : NULL;
}
