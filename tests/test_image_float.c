/*
 * test_image_float.c -- the float writers of cn_image.h read back by the libraries of their
 * formats: OpenEXR files (float32 and half) decoded with OpenEXRCore, float TIFFs (images,
 * multi-page volumes, GeoTIFF tags) with libtiff and libgeotiff. float32 must come back bit for
 * bit (NaN payloads and infinities included); half within half-precision rounding, a bound
 * computed here from the half format (not by the writer's conversion). Also: the file layout the
 * writers document (one channel "R", ZIP, scanlines; 32-bit IEEE float samples, strips), the
 * georeferencing checks, and failures that leave nothing behind and the target untouched.
 *
 * test_image_float compare FILE REF.f32 [half]
 *     decodes FILE (.exr, or .tif/.tiff with every page) and compares it with REF, raw float32
 *     little-endian of the same size (the f32 render of the same noise): equal bits, or with
 *     "half" within half rounding. Prints what it found; exit status 0 when equal. Used by
 *     tests/test_cli_float.sh.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "cn_image.h"
#include "test.h"

#define IMATH_HALF_NO_LOOKUP_TABLE /* the half conversions computed, not libImath's table */
#include <Imath/half.h>
#include <dirent.h>
#include <errno.h>
#include <geotiff.h>
#include <geovalues.h>
#include <openexr.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <tiffio.h>
#include <unistd.h>
#include <xtiffio.h>

static char base[256];

/* --- values ----------------------------------------------------------------------------------- */

/* Every bit pattern (NaNs with payloads, infinities, subnormals): for the exact formats. */
static float any_bits(uint32_t x, uint32_t y, uint32_t z)
{
    uint32_t u = test_mix32(x * 0x9e3779b1u ^ test_mix32(y + 0x632be5abu) ^ test_mix32(z * 0x85ebca77u));
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* For half: magnitudes from 2^-30 (below the smallest subnormal half) to 2^18 (beyond the
 * largest half), both signs, and a few NaNs and infinities. */
static float half_test_value(uint32_t x, uint32_t y)
{
    uint32_t u = test_mix32(x * 0x9e3779b1u ^ test_mix32(y + 0x1234567u));
    if (u % 97 == 0)
        return NAN;
    if (u % 89 == 0)
        return (u & 1) ? INFINITY : -INFINITY;
    double m = 1.0 + (double)(u >> 8 & 0xffff) / 65536.0;
    int e = (int)(u % 49) - 30;
    return (float)((u & 0x80000000u) ? -ldexp(m, e) : ldexp(m, e));
}

/*
 * Whether got is want rounded to a half. The half format has an 11-bit significand: for |want| in
 * [2^(k-1), 2^k), k >= -13, halves are 2^(k-11) apart, so rounding to nearest errs by at most
 * 2^(k-12); below 2^-14 (subnormal halves, 2^-24 apart) by at most 2^-25. From 65520 (= 65504 +
 * half the spacing 32 there) up, the nearest-even rounding gives an infinity.
 */
static int half_close(float want, float got)
{
    if (isnan(want))
        return isnan(got);
    double a = fabs((double)want);
    if (a >= 65520.0)
        return isinf(got) && signbit(got) == signbit(want);
    if (!isfinite(got))
        return 0;
    double bound;
    if (a < 0x1p-14) {
        bound = 0x1p-25;
    } else {
        int k;
        frexp(a, &k); /* a = m 2^k, m in [0.5, 1): a in [2^(k-1), 2^k) */
        bound = ldexp(1.0, k - 12);
    }
    return fabs((double)got - (double)want) <= bound;
}

/* --- readers ---------------------------------------------------------------------------------- */

static void quiet_exr(exr_const_context_t c, exr_result_t code, const char *msg)
{
    (void)c;
    (void)code;
    (void)msg;
}

typedef struct decoded {
    uint32_t w, h, pages;
    int half;             /* EXR: the channel is half */
    float *v;             /* w * h * pages values, row-major, page after page */
    char why[256];        /* what is wrong, when v is NULL */
    /* GeoTIFF (page 0) */
    int geo;              /* tags present */
    double tie[6], scale[3];
    unsigned short model, raster, pcs, gcs;
    char citation[128];
} decoded;

/* Decodes an OpenEXR file with OpenEXRCore, checking the layout the writer documents. */
static int read_exr(const char *path, decoded *d)
{
    memset(d, 0, sizeof *d);
    exr_context_t ctx = NULL;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = quiet_exr;
    if (exr_start_read(&ctx, path, &init) != EXR_ERR_SUCCESS) {
        snprintf(d->why, sizeof d->why, "OpenEXRCore cannot read %s", path);
        return -1;
    }
    int nparts = 0;
    exr_storage_t st;
    exr_compression_t comp;
    exr_attr_box2i_t dw;
    const exr_attr_chlist_t *cl = NULL;
    int32_t lines = 0;
    /* half: ZIP, 16 scanlines per chunk; float32: uncompressed, 1 (exr.c says why) */
    if (exr_get_count(ctx, &nparts) != EXR_ERR_SUCCESS || nparts != 1 || exr_get_storage(ctx, 0, &st) ||
        st != EXR_STORAGE_SCANLINE || exr_get_compression(ctx, 0, &comp) || exr_get_data_window(ctx, 0, &dw) ||
        dw.min.x != 0 || dw.min.y != 0 || exr_get_channels(ctx, 0, &cl) || !cl || cl->num_channels != 1 ||
        strcmp(cl->entries[0].name.str, "R") != 0 || exr_get_scanlines_per_chunk(ctx, 0, &lines) ||
        (cl->entries[0].pixel_type == EXR_PIXEL_HALF
             ? comp != EXR_COMPRESSION_ZIP || lines != 16
             : cl->entries[0].pixel_type != EXR_PIXEL_FLOAT || comp != EXR_COMPRESSION_NONE || lines != 1)) {
        snprintf(d->why, sizeof d->why,
                 "%s: not one scanline part with one channel R at (0, 0), half ZIP or float uncompressed", path);
        exr_finish(&ctx);
        return -1;
    }
    d->w = (uint32_t)dw.max.x + 1;
    d->h = (uint32_t)dw.max.y + 1;
    d->pages = 1;
    d->half = cl->entries[0].pixel_type == EXR_PIXEL_HALF;
    const size_t bytes = d->half ? 2 : 4;
    unsigned char *raw = malloc((size_t)d->w * d->h * bytes);
    exr_decode_pipeline_t dec = EXR_DECODE_PIPELINE_INITIALIZER;
    int ok = raw != NULL, ready = 0;
    for (int32_t y = 0; ok && y <= dw.max.y; y += lines) {
        exr_chunk_info_t ci;
        ok = exr_read_scanline_chunk_info(ctx, 0, y, &ci) == EXR_ERR_SUCCESS;
        ok = ok && (ready ? exr_decoding_update(ctx, 0, &ci, &dec) : exr_decoding_initialize(ctx, 0, &ci, &dec)) ==
                       EXR_ERR_SUCCESS;
        if (!ok)
            break;
        exr_coding_channel_info_t *ch = &dec.channels[0];
        ch->decode_to_ptr = raw + (size_t)y * d->w * bytes; /* the file's own type: no conversion */
        ch->user_pixel_stride = (int32_t)bytes;
        ch->user_line_stride = (int32_t)(d->w * bytes);
        ch->user_bytes_per_element = (int16_t)bytes;
        ch->user_data_type = (uint16_t)cl->entries[0].pixel_type;
        if (!ready) {
            ready = 1;
            ok = exr_decoding_choose_default_routines(ctx, 0, &dec) == EXR_ERR_SUCCESS;
        }
        ok = ok && exr_decoding_run(ctx, 0, &dec) == EXR_ERR_SUCCESS;
    }
    if (ready)
        exr_decoding_destroy(ctx, &dec);
    exr_finish(&ctx);
    if (!ok) {
        snprintf(d->why, sizeof d->why, "%s: OpenEXRCore could not decode the pixels", path);
        free(raw);
        return -1;
    }
    d->v = malloc((size_t)d->w * d->h * sizeof(float));
    for (size_t i = 0; i < (size_t)d->w * d->h; i++) {
        if (d->half) {
            uint16_t hb;
            memcpy(&hb, raw + 2 * i, 2);
            d->v[i] = imath_half_to_float(hb); /* exact: every half is a float */
        } else {
            memcpy(&d->v[i], raw + 4 * i, 4);
        }
    }
    free(raw);
    return 0;
}

/* Decodes every page of a float TIFF with libtiff, and page 0's GeoTIFF tags with libgeotiff. */
static int read_tiff(const char *path, decoded *d)
{
    memset(d, 0, sizeof *d);
    XTIFFInitialize();
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
    TIFF *tif = TIFFOpen(path, "r");
    if (!tif) {
        snprintf(d->why, sizeof d->why, "libtiff cannot open %s", path);
        return -1;
    }
    size_t cap = 0, used = 0;
    int ok = 1;
    do {
        uint32_t w = 0, h = 0;
        uint16_t bps = 0, fmt = 0, spp = 0, comp = 0, photo = 0;
        TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
        TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
        TIFFGetField(tif, TIFFTAG_BITSPERSAMPLE, &bps);
        TIFFGetField(tif, TIFFTAG_SAMPLEFORMAT, &fmt);
        TIFFGetField(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
        TIFFGetField(tif, TIFFTAG_COMPRESSION, &comp);
        TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photo);
        if (bps != 32 || fmt != SAMPLEFORMAT_IEEEFP || spp != 1 || comp != COMPRESSION_NONE ||
            photo != PHOTOMETRIC_MINISBLACK || TIFFIsTiled(tif) || (d->pages && (w != d->w || h != d->h))) {
            snprintf(d->why, sizeof d->why, "%s page %u: not %ux%u one-sample 32-bit IEEE float strips", path,
                     d->pages, w, h);
            ok = 0;
            break;
        }
        d->w = w;
        d->h = h;
        if (d->pages == 0) {
            uint16_t n = 0;
            double *tie = NULL, *scale = NULL;
            if (TIFFGetField(tif, TIFFTAG_GEOTIEPOINTS, &n, &tie) && n == 6) {
                memcpy(d->tie, tie, sizeof d->tie);
                d->geo = 1;
            }
            if (TIFFGetField(tif, TIFFTAG_GEOPIXELSCALE, &n, &scale) && n == 3)
                memcpy(d->scale, scale, sizeof d->scale);
            GTIF *gt = GTIFNew(tif);
            if (gt) {
                GTIFKeyGet(gt, GTModelTypeGeoKey, &d->model, 0, 1);
                GTIFKeyGet(gt, GTRasterTypeGeoKey, &d->raster, 0, 1);
                GTIFKeyGet(gt, ProjectedCSTypeGeoKey, &d->pcs, 0, 1);
                GTIFKeyGet(gt, GeographicTypeGeoKey, &d->gcs, 0, 1);
                GTIFKeyGet(gt, GTCitationGeoKey, d->citation, 0, sizeof d->citation - 1);
                GTIFFree(gt);
            }
        }
        size_t need = used + (size_t)w * h;
        if (need > cap) {
            cap = need * 2;
            d->v = realloc(d->v, cap * sizeof(float));
        }
        for (uint32_t y = 0; ok && y < h; y++)
            ok = TIFFReadScanline(tif, d->v + used + (size_t)y * w, y, 0) == 1;
        used = need;
        d->pages++;
    } while (ok && TIFFReadDirectory(tif));
    TIFFClose(tif);
    if (!ok) {
        if (!d->why[0])
            snprintf(d->why, sizeof d->why, "%s: libtiff could not read the pixels", path);
        free(d->v);
        d->v = NULL;
        return -1;
    }
    return 0;
}

static int read_any(const char *path, decoded *d)
{
    const char *dot = strrchr(path, '.');
    return dot && strcasecmp(dot, ".exr") == 0 ? read_exr(path, d) : read_tiff(path, d);
}

/* Differences between n decoded values and the expected ones (bits, or half rounding). */
static size_t count_diff(const float *got, const float *want, size_t n, int half, size_t *first)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        int same = half ? half_close(want[i], got[i]) : memcmp(&got[i], &want[i], 4) == 0;
        if (!same && bad++ == 0 && first)
            *first = i;
    }
    return bad;
}

/* --- the library ------------------------------------------------------------------------------- */

static char *pathf(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", base, name);
    return buf;
}

/* Files in base whose name has ".tmp." in it. */
static int temp_files(void)
{
    DIR *dir = opendir(base);
    int n = 0;
    struct dirent *e;
    while (dir && (e = readdir(dir)))
        n += strstr(e->d_name, ".tmp.") != NULL;
    if (dir)
        closedir(dir);
    return n;
}

/* Writes W x H (x D) values of fn through the streaming API in uneven strips, rows padded. */
static int write_values(const char *path, cn_image_format f, uint32_t W, uint32_t H, uint32_t D, float *vals,
                        const cn_image_georef *geo, char *err, size_t errlen)
{
    cn_image_writer *w;
    if (cn_image_begin(&w, path, f, W, H, D, err, errlen) != 0)
        return -1;
    if (geo && cn_image_set_georef(w, geo, err, errlen) != 0) {
        cn_image_abort(w);
        return -1;
    }
    const size_t stride = W + 3;
    const uint64_t total = (uint64_t)H * (D ? D : 1);
    float *buf = malloc(stride * 7 * sizeof(float));
    uint64_t done = 0;
    int rc = 0;
    for (uint32_t s = 0; rc == 0 && done < total; s++) {
        uint32_t k = 1 + s % 7; /* 1..7 rows: chunks of 16 rows are filled across calls */
        if (k > total - done)
            k = (uint32_t)(total - done);
        for (uint32_t r = 0; r < k; r++) {
            memcpy(buf + r * stride, vals + (size_t)(done + r) * W, W * sizeof(float));
            buf[r * stride + W] = 12345.0f; /* padding the writer must not read into the image */
        }
        rc = cn_image_write_f32(w, buf, k, stride, err, errlen);
        done += k;
    }
    free(buf);
    if (rc != 0) {
        cn_image_abort(w);
        return -1;
    }
    return cn_image_commit(w, err, errlen);
}

static void test_exr(int half, uint32_t W, uint32_t H)
{
    char path[512], err[512];
    pathf(path, sizeof path, half ? "h.exr" : "f.exr");
    float *vals = malloc((size_t)W * H * sizeof(float));
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            vals[(size_t)y * W + x] = half ? half_test_value(x, y) : any_bits(x, y, 0);
    int rc = write_values(path, half ? CN_IMAGE_EXR_HALF : CN_IMAGE_EXR, W, H, 0, vals, NULL, err, sizeof err);
    CHECK(rc == 0, "exr%s %ux%u: %s", half ? "16" : "", W, H, err);
    decoded d;
    if (rc == 0 && read_exr(path, &d) == 0) {
        CHECK(d.w == W && d.h == H && d.half == half, "exr: %ux%u half %d", d.w, d.h, d.half);
        size_t first = 0, bad = count_diff(d.v, vals, (size_t)W * H, half, &first);
        CHECK(bad == 0, "exr%s: %zu of %zu values differ, the first at %zu: %a read, %a written", half ? "16" : "",
              bad, (size_t)W * H, first, (double)d.v[first], (double)vals[first]);
        if (half) {
            /* the bound is not vacuous: a value off by one half step is caught */
            CHECK(!half_close(1.0f, 1.0f + 0x1p-10f) && half_close(1.0f, 1.0f) && !half_close(70000.0f, 65504.0f) &&
                      half_close(65519.0f, 65504.0f) && half_close(0x1p-26f, 0.0f) && !half_close(0x1p-24f, 0.0f),
                  "half rounding bound");
        }
        free(d.v);
    } else if (rc == 0) {
        CHECK(0, "%s", d.why);
    }
    CHECK(temp_files() == 0, "exr: temporary file left");
    free(vals);
}

static void test_tiff(uint32_t W, uint32_t H, uint32_t D)
{
    char path[512], err[512];
    pathf(path, sizeof path, D ? "v.tif" : "f.tif");
    const uint32_t pages = D ? D : 1;
    float *vals = malloc((size_t)W * H * pages * sizeof(float));
    for (uint32_t z = 0; z < pages; z++)
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++)
                vals[((size_t)z * H + y) * W + x] = any_bits(x, y, z);
    int rc = write_values(path, CN_IMAGE_TIFF, W, H, D, vals, NULL, err, sizeof err);
    CHECK(rc == 0, "tiff %ux%ux%u: %s", W, H, D, err);
    decoded d;
    if (rc == 0 && read_tiff(path, &d) == 0) {
        CHECK(d.w == W && d.h == H && d.pages == pages && !d.geo, "tiff: %ux%u, %u pages, geo %d", d.w, d.h, d.pages,
              d.geo);
        size_t first = 0, bad = count_diff(d.v, vals, (size_t)W * H * pages, 0, &first);
        CHECK(bad == 0, "tiff: %zu values differ, the first at %zu", bad, first);
        free(d.v);
    } else if (rc == 0) {
        CHECK(0, "%s", d.why);
    }
    free(vals);
}

static void test_geotiff(void)
{
    char path[512], err[512], name[128];
    const uint32_t W = 40, H = 30;
    float vals[40 * 30];
    for (uint32_t i = 0; i < W * H; i++)
        vals[i] = (float)i / 7.0f;
    static const struct {
        unsigned epsg;
        double x, y, px, py;
        int projected;
        const char *name;
    } cases[] = {
        {32633, 500000.0, 4650000.0, 30.0, 30.0, 1, "WGS 84 / UTM zone 33N"},
        {4326, -10.5, 55.25, 0.25, 0.125, 0, "WGS 84"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cn_image_georef g = {cases[k].epsg, cases[k].x, cases[k].y, cases[k].px, cases[k].py};
        CHECK(cn_image_georef_check(&g, name, sizeof name, err, sizeof err) == 0 && strcmp(name, cases[k].name) == 0,
              "EPSG:%u: '%s' '%s'", g.epsg, name, err);
        pathf(path, sizeof path, "geo.tif");
        int rc = write_values(path, CN_IMAGE_TIFF, W, H, 0, vals, &g, err, sizeof err);
        CHECK(rc == 0, "geotiff EPSG:%u: %s", g.epsg, err);
        decoded d;
        if (rc == 0 && read_tiff(path, &d) == 0) {
            CHECK(d.geo && d.tie[0] == 0 && d.tie[1] == 0 && d.tie[2] == 0 && d.tie[3] == g.x && d.tie[4] == g.y &&
                      d.tie[5] == 0,
                  "ModelTiepoint %g %g %g %g %g %g", d.tie[0], d.tie[1], d.tie[2], d.tie[3], d.tie[4], d.tie[5]);
            CHECK(d.scale[0] == g.pixel_x && d.scale[1] == g.pixel_y && d.scale[2] == 0, "ModelPixelScale %g %g %g",
                  d.scale[0], d.scale[1], d.scale[2]);
            CHECK(d.raster == RasterPixelIsArea, "GTRasterTypeGeoKey %u", d.raster);
            if (cases[k].projected)
                CHECK(d.model == ModelTypeProjected && d.pcs == g.epsg && d.gcs == 0, "projected keys %u %u %u",
                      d.model, d.pcs, d.gcs);
            else
                CHECK(d.model == ModelTypeGeographic && d.gcs == g.epsg && d.pcs == 0, "geographic keys %u %u %u",
                      d.model, d.pcs, d.gcs);
            CHECK(strcmp(d.citation, cases[k].name) == 0, "citation '%s'", d.citation);
            CHECK(count_diff(d.v, vals, W * H, 0, NULL) == 0, "geotiff values");
            free(d.v);
        } else if (rc == 0) {
            CHECK(0, "%s", d.why);
        }
    }
    /* what the check refuses */
    static const struct {
        cn_image_georef g;
        const char *why;
    } bad[] = {
        {{4978, 0, 0, 1, 1}, "neither a projected nor a geographic 2D"}, /* WGS 84 geocentric */
        {{5773, 0, 0, 1, 1}, "neither a projected nor a geographic 2D"}, /* EGM96 height: vertical */
        {{32767, 0, 0, 1, 1}, "between 1024 and 32766"},
        {{1023, 0, 0, 1, 1}, "between 1024 and 32766"},
        {{9999, 0, 0, 1, 1}, "not a coordinate reference system"},
        {{32633, 0, 0, 0, 1}, "pixel size"},
        {{32633, 0, 0, 1, -1}, "pixel size"},
        {{32633, 0, 0, INFINITY, 1}, "pixel size"},
        {{32633, NAN, 0, 1, 1}, "finite"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        err[0] = '\0';
        CHECK(cn_image_georef_check(&bad[k].g, NULL, 0, err, sizeof err) == -1 && strstr(err, bad[k].why),
              "bad georef %zu: '%s'", k, err);
    }
    /* only a TIFF takes it, only before the first row */
    cn_image_georef g = {32633, 0, 0, 1, 1};
    cn_image_writer *w;
    pathf(path, sizeof path, "nogeo.exr");
    CHECK(cn_image_begin(&w, path, CN_IMAGE_EXR, 4, 4, 0, err, sizeof err) == 0, "begin: %s", err);
    CHECK(cn_image_set_georef(w, &g, err, sizeof err) == -1 && strstr(err, "no georeferencing"), "exr georef: %s",
          err);
    CHECK(cn_image_commit(w, err, sizeof err) == -1 && access(path, F_OK) != 0, "a failed writer commits nothing");
    pathf(path, sizeof path, "bad.tif");
    cn_image_georef geocentric = {4978, 0, 0, 1, 1};
    CHECK(cn_image_begin(&w, path, CN_IMAGE_TIFF, 4, 4, 0, err, sizeof err) == 0, "begin: %s", err);
    CHECK(cn_image_set_georef(w, &geocentric, err, sizeof err) == -1 && strstr(err, "neither a projected"),
          "set_georef checks the CRS: %s", err);
    CHECK(cn_image_commit(w, err, sizeof err) == -1 && access(path, F_OK) != 0 && temp_files() == 0,
          "a refused georeferencing fails the file");
    pathf(path, sizeof path, "late.tif");
    CHECK(cn_image_begin(&w, path, CN_IMAGE_TIFF, 4, 4, 0, err, sizeof err) == 0, "begin: %s", err);
    CHECK(cn_image_write_f32(w, vals, 1, 4, err, sizeof err) == 0, "row: %s", err);
    CHECK(cn_image_set_georef(w, &g, err, sizeof err) == -1 && strstr(err, "before the first row"), "late: %s", err);
    cn_image_abort(w);
    CHECK(access(path, F_OK) != 0 && temp_files() == 0, "an aborted TIFF leaves nothing");
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static int file_is(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strcmp(buf, text) == 0;
}

/* Failures leave the target as it was and no temporary file. (The file-size limit, a full disk
 * and an unwritable folder are test_image's loops over every format, these included.) */
static void test_failures(void)
{
    static const cn_image_format fmts[] = {CN_IMAGE_EXR, CN_IMAGE_EXR_HALF, CN_IMAGE_TIFF};
    char path[512], err[512];
    float row[8 * 4]; /* up to 4 rows of 8 */
    for (int i = 0; i < 32; i++)
        row[i] = (float)i;
    for (size_t k = 0; k < 3; k++) {
        const char *fname = cn_image_format_name(fmts[k]);
        cn_image_writer *w;
        /* a directory at the path */
        pathf(path, sizeof path, "adir");
        mkdir(path, 0755);
        CHECK(cn_image_begin(&w, path, fmts[k], 8, 4, 0, err, sizeof err) == -1 && w == NULL, "%s: dir target", fname);
        struct stat sb;
        CHECK(stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) && temp_files() == 0, "%s: the directory stays", fname);
        /* a missing folder */
        pathf(path, sizeof path, "missing/x.out");
        CHECK(cn_image_begin(&w, path, fmts[k], 8, 4, 0, err, sizeof err) == -1 && strstr(err, "No such file"),
              "%s: missing folder: %s", fname, err);
        /* an existing file: too few rows, an abort, a type mismatch: all leave it as it was */
        pathf(path, sizeof path, "keep.out");
        put_file(path, "precious\n");
        CHECK(cn_image_begin(&w, path, fmts[k], 8, 4, 0, err, sizeof err) == 0, "%s: begin: %s", fname, err);
        CHECK(cn_image_write_f32(w, row, 2, 8, err, sizeof err) == 0, "%s: rows: %s", fname, err);
        CHECK(cn_image_commit(w, err, sizeof err) == -1 && strstr(err, "only 2 of 4 rows"), "%s: short: %s", fname,
              err);
        CHECK(file_is(path, "precious\n") && temp_files() == 0, "%s: short commit changed something", fname);
        CHECK(cn_image_begin(&w, path, fmts[k], 8, 4, 0, err, sizeof err) == 0, "%s: begin: %s", fname, err);
        CHECK(cn_image_write_f32(w, row, 3, 8, err, sizeof err) == 0, "%s: rows", fname);
        cn_image_abort(w);
        CHECK(file_is(path, "precious\n") && temp_files() == 0, "%s: abort changed something", fname);
        uint16_t r16[8] = {0};
        CHECK(cn_image_begin(&w, path, fmts[k], 8, 4, 0, err, sizeof err) == 0, "%s: begin", fname);
        CHECK(cn_image_write_u16(w, r16, 1, 8, err, sizeof err) == -1 && strstr(err, "takes rows of float"),
              "%s: u16 rows: %s", fname, err);
        CHECK(cn_image_write_f32(w, row, 1, 8, err, sizeof err) == -1, "%s: a failed writer takes no rows", fname);
        CHECK(cn_image_commit(w, err, sizeof err) == -1, "%s: a failed writer commits nothing", fname);
        CHECK(file_is(path, "precious\n") && temp_files() == 0, "%s: failed writer changed something", fname);
        /* and a good one replaces it */
        float all[32];
        for (int i = 0; i < 32; i++)
            all[i] = (float)i - 9.5f;
        CHECK(cn_image_write_file(path, fmts[k], all, 8, 4, 0, err, sizeof err) == 0, "%s: write: %s", fname, err);
        decoded d;
        memset(&d, 0, sizeof d);
        const char *dot = fmts[k] == CN_IMAGE_TIFF ? "t.tif" : "t.exr"; /* read_any goes by the name */
        char named[512];
        pathf(named, sizeof named, dot);
        CHECK(rename(path, named) == 0 && read_any(named, &d) == 0 && d.w == 8 && d.h == 4 &&
                  count_diff(d.v, all, 32, 0, NULL) == 0,
              "%s: the replacement reads back", fname);
        free(d.v);
        unlink(named);
    }
}

/* --- compare mode (the CLI test) ---------------------------------------------------------------- */

static int compare(const char *file, const char *ref, int half)
{
    decoded d;
    if (read_any(file, &d) != 0) {
        fprintf(stderr, "%s\n", d.why);
        return 1;
    }
    FILE *f = fopen(ref, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", ref);
        return 1;
    }
    const size_t n = (size_t)d.w * d.h * d.pages;
    float *want = malloc((n + 1) * sizeof(float));
    size_t got = fread(want, sizeof(float), n + 1, f);
    fclose(f);
    if (got != n) {
        fprintf(stderr, "%s holds %zu values, %s %zu (%ux%u, %u pages)\n", ref, got, file, n, d.w, d.h, d.pages);
        return 1;
    }
    for (size_t i = 0; i < n; i++) { /* the reference is little-endian */
        unsigned char b[4];
        uint32_t u;
        memcpy(b, &want[i], 4);
        u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        memcpy(&want[i], &u, 4);
    }
    size_t first = 0, bad = count_diff(d.v, want, n, half, &first);
    if (bad) {
        fprintf(stderr, "%s: %zu of %zu values differ from %s, the first at %zu: %.9g read, %.9g expected\n", file, bad,
                n, ref, first, (double)d.v[first], (double)want[first]);
        return 1;
    }
    printf("%s: %ux%u, %u page%s, %s, %zu values %s %s\n", file, d.w, d.h, d.pages, d.pages == 1 ? "" : "s",
           d.half ? "half" : "float32", n, half ? "within half rounding of" : "equal to", ref);
    if (d.geo)
        printf("geo: tiepoint %.17g %.17g pixel %.17g %.17g model %u raster %u projected %u geographic %u '%s'\n",
               d.tie[3], d.tie[4], d.scale[0], d.scale[1], d.model, d.raster, d.pcs, d.gcs, d.citation);
    free(d.v);
    free(want);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "compare") == 0)
        return compare(argv[2], argv[3], argc >= 5 && strcmp(argv[4], "half") == 0);
    snprintf(base, sizeof base, "%s/test_image_float.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    test_exr(0, 37, 35);  /* 35 rows: two full chunks of 16 and a short one */
    test_exr(1, 37, 35);
    test_exr(0, 1, 1);
    test_exr(1, 300, 17);
    test_tiff(37, 35, 0);
    test_tiff(5, 4, 3);   /* a volume: 3 pages */
    test_tiff(70000, 2, 0); /* rows wider than a strip's 256 KiB */
    test_geotiff();
    test_failures();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        fprintf(stderr, "note: could not remove %s\n", base);
    return test_summary("test_image_float");
}
