/*
 * fuzz_image.c -- the image writers (src/image) with arbitrary formats, sizes, strides, row
 * batches, values, call orders and early aborts, including the animated GIF writer.
 *
 * Input: bytes read in order: the format (a few out-of-range values too), width, height and
 * depth (mostly small, sometimes anything up to 2^32 - 1 so that the limits are exercised), then
 * a series of writes (rows per call, stride padding, the element function, possibly the wrong
 * one), the pixel values, and how to end (commit, abort, or a two-step finish then publish or
 * discard).
 * Checks: begin succeeds exactly when cn_image_check_size accepts the size; a write is refused
 * when it passes the last row or uses the wrong element type; commit succeeds exactly when every
 * row was written and nothing failed; after a failure or abort the target does not exist and no
 * temporary file is left; after success the file holds exactly the values written: PNG files are
 * decoded with libpng and compared pixel by pixel, raw, PFM (rows bottom to top) and .npy data
 * compared byte by byte after the header; OpenEXR and TIFF files start with their magic numbers
 * (tests/test_image_float.c decodes them). The GIF writer: frame count, and the file starts with
 * "GIF89a" after a commit.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cn_image.h"
#include "fuzz.h"

static char dir[64];
static char target[96];

static void setup(void)
{
    if (dir[0])
        return;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/cnoise_fuzz_image.XXXXXX", base);
    if (!mkdtemp(dir))
        abort();
}

/* Entries in the work directory other than the target. */
static int stray_files(void)
{
    DIR *d = opendir(dir);
    if (!d)
        abort();
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, strrchr(target, '/') + 1))
            n++;
    closedir(d);
    return n;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *b = malloc((size_t)n + 1);
    if (!b)
        abort();
    FUZZ_CHECK(fread(b, 1, (size_t)n, f) == (size_t)n, "short read");
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* Decodes a PNG with libpng and compares it with the expected samples (host-order u16 for 16 bit). */
static void check_png(const char *path, cn_image_format fmt, uint32_t w, uint32_t h, const void *expect)
{
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL, "cannot open %s", path);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (!png || !info)
        abort();
    if (setjmp(png_jmpbuf(png)))
        FUZZ_CHECK(0, "libpng could not read the file");
    png_init_io(png, f);
    png_read_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    FUZZ_CHECK(png_get_image_width(png, info) == w && png_get_image_height(png, info) == h, "PNG size");
    int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
    png_bytepp rows = png_get_rows(png, info);
    if (fmt == CN_IMAGE_PNG16) {
        FUZZ_CHECK(depth == 16 && type == PNG_COLOR_TYPE_GRAY, "PNG16 type");
        const uint16_t *e = expect;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint16_t v = (uint16_t)(rows[y][2 * x] << 8 | rows[y][2 * x + 1]);
                FUZZ_CHECK(v == e[(size_t)y * w + x], "PNG16 pixel (%u, %u)", x, y);
            }
    } else {
        unsigned ch = fmt == CN_IMAGE_PNG_RGB ? 3 : 1;
        FUZZ_CHECK(depth == 8 && type == (ch == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY), "PNG type");
        const uint8_t *e = expect;
        for (uint32_t y = 0; y < h; y++)
            FUZZ_CHECK(memcmp(rows[y], e + (size_t)y * w * ch, (size_t)w * ch) == 0, "PNG row %u", y);
    }
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
}

/* Raw, PFM and .npy: the data is the file's tail, little-endian. */
static void check_raw(const char *path, cn_image_format fmt, uint32_t w, uint32_t rows_total, const void *expect,
                      size_t bytes)
{
    size_t len;
    uint8_t *b = read_all(path, &len);
    FUZZ_CHECK(len >= bytes, "file too short");
    const uint8_t *d = b + (len - bytes);
    if (fmt == CN_IMAGE_R16 || fmt == CN_IMAGE_F32)
        FUZZ_CHECK(len == bytes, "raw file has %zu bytes, not %zu", len, bytes);
    if (fmt == CN_IMAGE_NPY)
        FUZZ_CHECK(len > 10 && memcmp(b, "\x93NUMPY", 6) == 0 && (len - bytes) % 64 == 0, "npy header");
    if (fmt == CN_IMAGE_PFM)
        FUZZ_CHECK(memcmp(b, "Pf\n", 3) == 0, "pfm header");
    unsigned sb = cn_image_format_sample_bytes(fmt);
    size_t row_bytes = (size_t)w * sb;
    for (uint32_t y = 0; y < rows_total; y++) {
        uint32_t fy = fmt == CN_IMAGE_PFM ? rows_total - 1 - y : y;
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *s = d + fy * row_bytes + (size_t)x * sb;
            if (sb == 2) {
                uint16_t v = (uint16_t)(s[0] | s[1] << 8);
                FUZZ_CHECK(v == ((const uint16_t *)expect)[(size_t)y * w + x], "r16 (%u, %u)", x, y);
            } else {
                uint32_t v = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
                uint32_t e;
                memcpy(&e, (const float *)expect + (size_t)y * w + x, 4);
                FUZZ_CHECK(v == e, "float (%u, %u)", x, y);
            }
        }
    }
    free(b);
}

/* OpenEXR and TIFF: the magic number (the values are decoded by tests/test_image_float.c). */
static void check_magic(const char *path, cn_image_format fmt)
{
    size_t len;
    uint8_t *b = read_all(path, &len);
    if (fmt == CN_IMAGE_TIFF)
        FUZZ_CHECK(len > 8 && (memcmp(b, "II*\0", 4) == 0 || memcmp(b, "MM\0*", 4) == 0 ||
                               memcmp(b, "II+\0", 4) == 0 || memcmp(b, "MM\0+", 4) == 0),
                   "tiff magic");
    else
        FUZZ_CHECK(len > 8 && memcmp(b, "\x76\x2f\x31\x01", 4) == 0, "exr magic");
    free(b);
}

static uint32_t side(fuzz_reader *r)
{
    unsigned k = fuzz_u8(r);
    if (k < 240)
        return k % 24; /* 0 is invalid */
    return fuzz_u32(r);
}

static void fuzz_gif(fuzz_reader *r)
{
    uint32_t w = side(r), h = side(r);
    uint8_t palette[768];
    for (int i = 0; i < 768; i++)
        palette[i] = (uint8_t)fuzz_u8(r);
    unsigned delay = fuzz_u8(r);
    snprintf(target, sizeof target, "%s/out.gif", dir);
    cn_image_gif *g;
    char err[256];
    int ok = w >= 1 && h >= 1 && w <= CN_IMAGE_GIF_MAX_SIDE && h <= CN_IMAGE_GIF_MAX_SIDE;
    int rc = cn_image_gif_begin(&g, target, w, h, palette, delay, fuzz_u8(r) & 1, err, sizeof err);
    FUZZ_CHECK((rc == 0) == ok, "gif begin %d for %ux%u: %s", rc, w, h, rc ? err : "");
    if (rc != 0) {
        FUZZ_CHECK(g == NULL && !exists(target) && stray_files() == 0, "gif failure left something");
        return;
    }
    unsigned frames = fuzz_u8(r) % 4;
    size_t stride = w + fuzz_u8(r) % 3;
    uint8_t *px = malloc(stride * h);
    if (!px)
        abort();
    for (unsigned f = 0; f < frames; f++) {
        for (size_t i = 0; i < stride * h; i++)
            px[i] = (uint8_t)fuzz_u8(r);
        FUZZ_CHECK(cn_image_gif_add_frame(g, px, stride, err, sizeof err) == 0, "gif frame: %s", err);
    }
    free(px);
    FUZZ_CHECK(cn_image_gif_frames(g) == frames, "gif frames");
    if (fuzz_u8(r) & 1) {
        cn_image_gif_abort(g);
        FUZZ_CHECK(!exists(target) && stray_files() == 0, "gif abort left something");
        return;
    }
    rc = cn_image_gif_commit(g, err, sizeof err);
    FUZZ_CHECK((rc == 0) == (frames > 0), "gif commit %d with %u frames", rc, frames);
    FUZZ_CHECK(stray_files() == 0, "gif temp left");
    if (rc == 0) {
        size_t len;
        uint8_t *b = read_all(target, &len);
        FUZZ_CHECK(len > 6 && memcmp(b, "GIF89a", 6) == 0 && b[len - 1] == 0x3b, "gif file");
        free(b);
        unlink(target);
    } else {
        FUZZ_CHECK(!exists(target), "failed gif exists");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    fuzz_reader rd = {data, size};
    fuzz_reader *r = &rd;
    /* The first byte as it was before the float formats came (7 formats, then "invalid" and the
     * GIF), so that the corpus keeps its meaning; "invalid" reads one more byte, which picks it
     * or one of the float formats. */
    unsigned f = fuzz_u8(r) % 9;
    if (f == 8) {
        fuzz_gif(r);
        return 0;
    }
    if (f == 7) {
        static const unsigned later[] = {CN_IMAGE_FORMAT_COUNT, CN_IMAGE_EXR, CN_IMAGE_EXR_HALF, CN_IMAGE_TIFF};
        f = later[fuzz_u8(r) % 4];
    }
    cn_image_format fmt = (cn_image_format)f; /* CN_IMAGE_FORMAT_COUNT: invalid */
    uint32_t w = side(r), h = side(r);
    uint32_t depth = (fuzz_u8(r) & 3) == 3 ? side(r) : 0;
    static const char *const ext[CN_IMAGE_FORMAT_COUNT + 1] = {"png", "png", "png", "r16", "f32", "pfm",
                                                               "npy", "exr", "exr", "tif", "bin"};
    snprintf(target, sizeof target, "%s/out.%s", dir, ext[f]);

    char err[256];
    uint64_t bytes = 0;
    int size_ok = cn_image_check_size(fmt, w, h, depth, &bytes, err, sizeof err) == 0;
    cn_image_writer *wr;
    int rc = cn_image_begin(&wr, target, fmt, w, h, depth, err, sizeof err);
    FUZZ_CHECK((rc == 0) == size_ok, "begin %d but size check %d (%ux%ux%u, format %u): %s", rc, size_ok, w, h, depth,
               f, rc ? err : "");
    if (rc != 0) {
        FUZZ_CHECK(wr == NULL && !exists(target) && stray_files() == 0, "failed begin left something");
        FUZZ_CHECK(err[0] != '\0', "no message");
        return 0;
    }
    const uint64_t total_rows = (uint64_t)h * (depth ? depth : 1);
    FUZZ_CHECK(cn_image_rows_total(wr) == total_rows, "rows total");
    /* Large images are only started: abort them. */
    if (bytes > (1u << 16)) {
        cn_image_abort(wr);
        FUZZ_CHECK(!exists(target) && stray_files() == 0, "abort left something");
        return 0;
    }
    const unsigned ch = cn_image_format_channels(fmt), sb = cn_image_format_sample_bytes(fmt);
    const size_t row_elems = (size_t)w * ch;
    uint8_t *expect = malloc((size_t)bytes ? (size_t)bytes : 1);
    if (!expect)
        abort();
    uint64_t done = 0;
    int failed = 0;
    while (!failed) {
        unsigned op = fuzz_u8(r);
        if (r->left == 0 || (op & 0xc0) == 0xc0)
            break; /* stop writing */
        uint32_t nrows = op & 7;
        size_t stride = row_elems + (op >> 3 & 3);
        int wrong = (op & 0x20) && (fuzz_u8(r) & 1);
        unsigned kind = sb == 1 ? 0 : sb == 2 ? 1 : 2;
        if (wrong)
            kind = (kind + 1) % 3;
        size_t elems = stride * (nrows ? nrows : 1);
        uint8_t *buf = malloc(elems * 4);
        if (!buf)
            abort();
        for (size_t i = 0; i < elems * 4; i++)
            buf[i] = (uint8_t)fuzz_u8(r);
        int w_rc;
        if (kind == 0)
            w_rc = cn_image_write_u8(wr, buf, nrows, stride, err, sizeof err);
        else if (kind == 1)
            w_rc = cn_image_write_u16(wr, (const uint16_t *)buf, nrows, stride, err, sizeof err);
        else
            w_rc = cn_image_write_f32(wr, (const float *)buf, nrows, stride, err, sizeof err);
        int should = !wrong && done + nrows <= total_rows;
        FUZZ_CHECK((w_rc == 0) == should, "write of %u rows after %llu of %llu (wrong type %d): %d", nrows,
                   (unsigned long long)done, (unsigned long long)total_rows, wrong, w_rc);
        if (w_rc == 0) {
            for (uint32_t k = 0; k < nrows; k++)
                memcpy(expect + (size_t)(done + k) * row_elems * sb, buf + (size_t)k * stride * sb, row_elems * sb);
            done += nrows;
            FUZZ_CHECK(cn_image_rows_done(wr) == done, "rows done");
        } else {
            failed = 1;
        }
        free(buf);
    }
    unsigned end = fuzz_u8(r) % 3;
    if (end == 0) {
        cn_image_abort(wr);
        FUZZ_CHECK(!exists(target) && stray_files() == 0, "abort left something");
    } else {
        cn_image_pending *pend = NULL;
        rc = end == 1 ? cn_image_commit(wr, err, sizeof err) : cn_image_finish(wr, &pend, err, sizeof err);
        int should = !failed && done == total_rows;
        FUZZ_CHECK((rc == 0) == should, "commit %d with %llu of %llu rows, failed %d: %s", rc,
                   (unsigned long long)done, (unsigned long long)total_rows, failed, rc ? err : "");
        if (rc == 0 && end == 2) {
            /* a named temporary file waits in the folder; an unnamed one (O_TMPFILE) is not seen */
            FUZZ_CHECK(!exists(target) && stray_files() == (cn_image_pending_temp_path(pend) ? 1 : 0),
                       "finish did not wait");
            if (fuzz_u8(r) & 1) {
                cn_image_discard(pend);
                rc = -1;
            } else {
                FUZZ_CHECK(cn_image_publish(pend, err, sizeof err) == 0, "publish: %s", err);
            }
        }
        FUZZ_CHECK(stray_files() == 0, "temporary file left");
        if (rc == 0) {
            if (fmt <= CN_IMAGE_PNG_RGB)
                check_png(target, fmt, w, h, expect);
            else if (fmt == CN_IMAGE_EXR || fmt == CN_IMAGE_EXR_HALF || fmt == CN_IMAGE_TIFF)
                check_magic(target, fmt);
            else
                check_raw(target, fmt, w, (uint32_t)total_rows, expect, (size_t)bytes);
            unlink(target);
        } else {
            FUZZ_CHECK(!exists(target), "target exists after a failure");
        }
    }
    free(expect);
    return 0;
}
