/*
 * tiff.c -- 32-bit float TIFF writer (CN_IMAGE_TIFF) through libtiff, with optional GeoTIFF
 * georeferencing through libgeotiff and the CRS looked up in PROJ's database.
 *
 * The file: baseline TIFF, one sample per pixel, BitsPerSample 32, SampleFormat IEEE float,
 * MinIsBlack, uncompressed, in strips of about 256 KiB (RowsPerStrip), in the host's byte order
 * (TIFF records it; every reader swaps). Uncompressed because every float-TIFF reader takes it
 * (GDAL/QGIS, World Machine-style tools, ImageJ, Photoshop), and a reader can map it. A file
 * whose pixel data could pass 4 GiB is written as BigTIFF (GDAL's BIGTIFF=IF_NEEDED rule): a
 * classic TIFF's offsets are 32-bit. A volume (depth D >= 1) is D pages (directories), one slice
 * each, marked as pages k of D (ImageJ and tifffile read it as a stack).
 *
 * GeoTIFF (cn_image_set_georef): the tags GIS readers expect of a north-up raster:
 *   ModelTiepointTag  (0, 0, 0, X, Y, 0): raster corner (0, 0), the outer top-left corner of the
 *                     top-left pixel, is model point (X, Y);
 *   ModelPixelScaleTag (SX, SY, 0): a pixel spans SX model units east and SY south (row j's top
 *                     edge is at Y - j * SY);
 *   GeoKeys: GTModelTypeGeoKey (projected or geographic), GTRasterTypeGeoKey = RasterPixelIsArea
 *            (a value stands for its pixel's area, and pixel (i, j) of a render is the noise at
 *            its centre), ProjectedCSTypeGeoKey or GeographicTypeGeoKey = the EPSG code, and
 *            GTCitationGeoKey = the CRS's name.
 * GDAL reports such a file as "Origin = (X, Y), Pixel Size = (SX, -SY)".
 *
 * libtiff writes through client callbacks (TIFFClientOpenExt) into the temporary file (ext.h):
 * a TIFF's directory goes after the data and the header is patched to point at it. Its error and
 * warning handlers are per file (TIFFOpenOptions) and record the message; nothing is printed.
 */
#define _POSIX_C_SOURCE 200809L

#include "ext.h"

#include <geotiff.h>
#include <geovalues.h>
#include <xtiffio.h>
#include <math.h>
#include <proj.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

/* Pixel data beyond this goes to a BigTIFF (the classic format's offsets end at 4 GiB; the
 * margin covers the header, the directories and the strip tables). */
#define CLASSIC_TIFF_MAX_DATA ((uint64_t)0xF0000000u)
#define STRIP_BYTES 262144u

typedef struct tiff_writer {
    cn__ext base;
    TIFF *tif;
    uint64_t pos;         /* libtiff's file position (its seek callback) */
    uint32_t width, height, depth;
    uint32_t page, row;   /* where the next row goes */
    uint32_t rows_per_strip;
    int geo_set;
    int geo_kind;         /* 1 projected, 2 geographic (crs_kind) */
    cn_image_georef geo;
    char crs_name[128];
    float *line;          /* one row (libtiff's scanline call takes a writable buffer); from the
                             first row on */
} tiff_writer;

/* --- I/O callbacks ----------------------------------------------------------------------------- */

static tmsize_t read_cb(thandle_t h, void *buf, tmsize_t size)
{
    tiff_writer *t = (tiff_writer *)h;
    if (size < 0)
        return -1;
    int64_t got = cn__ext_read_at(&t->base.f, buf, (size_t)size, t->pos);
    if (got > 0)
        t->pos += (uint64_t)got;
    return (tmsize_t)got;
}

static tmsize_t write_cb(thandle_t h, void *buf, tmsize_t size)
{
    tiff_writer *t = (tiff_writer *)h;
    if (size < 0 || cn__ext_write_at(&t->base.f, buf, (size_t)size, t->pos) != 0)
        return -1;
    t->pos += (uint64_t)size;
    return size;
}

static toff_t seek_cb(thandle_t h, toff_t off, int whence)
{
    tiff_writer *t = (tiff_writer *)h;
    uint64_t base = whence == SEEK_CUR ? t->pos : whence == SEEK_END ? t->base.f.end : 0;
    /* toff_t is unsigned; SEEK_CUR/SEEK_END with a negative offset arrive wrapped. */
    t->pos = base + (uint64_t)off;
    return (toff_t)t->pos;
}

static int close_cb(thandle_t h)
{
    (void)h; /* the temporary file is outfile.c's to close */
    return 0;
}

static toff_t size_cb(thandle_t h)
{
    return (toff_t)((tiff_writer *)h)->base.f.end;
}

static int map_cb(thandle_t h, void **base, toff_t *size)
{
    (void)h;
    (void)base;
    (void)size;
    return 0; /* no mapping */
}

static void unmap_cb(thandle_t h, void *base, toff_t size)
{
    (void)h;
    (void)base;
    (void)size;
}

static int error_cb(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap)
{
    cn__outfile *o = (cn__outfile *)user;
    char msg[256];
    (void)tif;
    vsnprintf(msg, sizeof msg, fmt, ap);
    cn__out_msg(o, "cannot write '%s': libtiff: %s%s%s", o->path, module ? module : "", module ? ": " : "", msg);
    return 1; /* handled: libtiff's global handler would print */
}

static int warning_cb(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap)
{
    (void)tif;
    (void)user;
    (void)module;
    (void)fmt;
    (void)ap;
    return 1;
}

static void geotiff_error_cb(GTIF *gt, int level, const char *fmt, ...)
{
    (void)gt;
    (void)level;
    (void)fmt; /* reported through the return values of GTIFKeySet / GTIFWriteKeys */
}

/* --- the CRS ------------------------------------------------------------------------------------ */

/* 1 projected, 2 geographic 2D; 0 with a message. name gets the CRS's name. */
static int crs_kind(unsigned epsg, char *name, size_t namelen, char *err, size_t errlen)
{
    if (epsg < 1024 || epsg > 32766) {
        cn__put_err(err, errlen, "EPSG:%u: a GeoTIFF CRS code is between 1024 and 32766", epsg);
        return 0;
    }
    PJ_CONTEXT *ctx = proj_context_create();
    if (!ctx) {
        cn__put_err(err, errlen, "EPSG:%u: cannot start PROJ to look the code up", epsg);
        return 0;
    }
    proj_log_level(ctx, PJ_LOG_NONE); /* this layer never prints */
    char code[16];
    snprintf(code, sizeof code, "%u", epsg);
    PJ *crs = proj_create_from_database(ctx, "EPSG", code, PJ_CATEGORY_CRS, 0, NULL);
    int kind = 0;
    if (!crs && !proj_context_get_database_path(ctx)) {
        cn__put_err(err, errlen, "EPSG:%u: PROJ's database (proj.db; Debian: proj-data) was not found", epsg);
    } else if (!crs) {
        cn__put_err(err, errlen, "EPSG:%u is not a coordinate reference system in PROJ's EPSG database", epsg);
    } else {
        PJ_TYPE type = proj_get_type(crs);
        const char *n = proj_get_name(crs);
        kind = type == PJ_TYPE_PROJECTED_CRS ? 1 : type == PJ_TYPE_GEOGRAPHIC_2D_CRS ? 2 : 0;
        if (!kind)
            cn__put_err(err, errlen,
                        "EPSG:%u (%s) is neither a projected nor a geographic 2D CRS, which GeoTIFF's ModelTiepoint "
                        "and ModelPixelScale describe",
                        epsg, n ? n : "?");
        else if (name && namelen)
            snprintf(name, namelen, "%s", n ? n : "");
        proj_destroy(crs);
    }
    proj_context_destroy(ctx);
    return kind;
}

/* g checked: its CRS's kind (1 projected, 2 geographic), or 0 with a message. */
static int georef_kind(const cn_image_georef *g, char *name, size_t namelen, char *err, size_t errlen)
{
    if (!g) {
        cn__put_err(err, errlen, "no georeferencing given");
        return 0;
    }
    if (!isfinite(g->x) || !isfinite(g->y)) {
        cn__put_err(err, errlen, "the corner coordinates must be finite numbers");
        return 0;
    }
    if (!(g->pixel_x > 0) || !(g->pixel_y > 0) || !isfinite(g->pixel_x) || !isfinite(g->pixel_y)) {
        cn__put_err(err, errlen, "the pixel size must be a finite number > 0");
        return 0;
    }
    return crs_kind(g->epsg, name, namelen, err, errlen);
}

int cn_image_georef_check(const cn_image_georef *g, char *name, size_t namelen, char *err, size_t errlen)
{
    return georef_kind(g, name, namelen, err, errlen) ? 0 : -1;
}

/* --- the writer --------------------------------------------------------------------------------- */

/* The GeoTIFF tags of the current page (the CRS looked up by tiff_georef). */
static int put_georef(tiff_writer *t)
{
    cn__outfile *o = t->base.f.o;
    const int kind = t->geo_kind;
    double tie[6] = {0.0, 0.0, 0.0, t->geo.x, t->geo.y, 0.0};
    double scale[3] = {t->geo.pixel_x, t->geo.pixel_y, 0.0};
    if (!TIFFSetField(t->tif, TIFFTAG_GEOTIEPOINTS, 6, tie) || !TIFFSetField(t->tif, TIFFTAG_GEOPIXELSCALE, 3, scale)) {
        cn__out_msg(o, "cannot write '%s': libtiff refused the GeoTIFF tags", o->path);
        return -1;
    }
    GTIF *gt = GTIFNewEx(t->tif, geotiff_error_cb, NULL);
    int ok = gt != NULL;
    ok = ok && GTIFKeySet(gt, GTModelTypeGeoKey, TYPE_SHORT, 1, kind == 1 ? ModelTypeProjected : ModelTypeGeographic);
    ok = ok && GTIFKeySet(gt, GTRasterTypeGeoKey, TYPE_SHORT, 1, RasterPixelIsArea);
    ok = ok && GTIFKeySet(gt, kind == 1 ? ProjectedCSTypeGeoKey : GeographicTypeGeoKey, TYPE_SHORT, 1, (int)t->geo.epsg);
    if (ok && t->crs_name[0])
        ok = GTIFKeySet(gt, GTCitationGeoKey, TYPE_ASCII, 0, t->crs_name);
    ok = ok && GTIFWriteKeys(gt);
    if (gt)
        GTIFFree(gt);
    if (!ok) {
        cn__out_msg(o, "cannot write '%s': libgeotiff could not write the GeoKeys", o->path);
        return -1;
    }
    return 0;
}

/* The tags of page t->page. */
static int put_page(tiff_writer *t)
{
    TIFF *tif = t->tif;
    int ok = TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, t->width) && TIFFSetField(tif, TIFFTAG_IMAGELENGTH, t->height) &&
             TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1) && TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 32) &&
             TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP) &&
             TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK) &&
             TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
             TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE) &&
             TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT) &&
             TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, t->rows_per_strip) &&
             TIFFSetField(tif, TIFFTAG_SOFTWARE, "cnoise");
    if (ok && t->depth)
        ok = TIFFSetField(tif, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE) &&
             TIFFSetField(tif, TIFFTAG_PAGENUMBER, (uint16_t)(t->page < 65535u ? t->page : 65535u),
                          (uint16_t)(t->depth < 65535u ? t->depth : 65535u));
    if (!ok) {
        cn__out_msg(t->base.f.o, "cannot write '%s': libtiff refused the image's tags", t->base.f.o->path);
        return -1;
    }
    return t->geo_set ? put_georef(t) : 0;
}

static int tiff_rows(cn__ext *base, const float *rows, uint32_t nrows, size_t stride)
{
    tiff_writer *t = (tiff_writer *)base;
    const size_t row_bytes = (size_t)t->width * sizeof(float);
    if (!t->line && nrows > 0 && !(t->line = (float *)malloc(row_bytes))) {
        /* allocated at the first row: starting a file costs no memory that grows with it */
        cn__out_msg(t->base.f.o, "cannot write '%s': out of memory", t->base.f.o->path);
        return -1;
    }
    for (uint32_t r = 0; r < nrows; r++) {
        memcpy(t->line, rows + (size_t)r * stride, row_bytes);
        if (TIFFWriteScanline(t->tif, t->line, t->row, 0) != 1) {
            cn__out_msg(t->base.f.o, "cannot write '%s': libtiff could not write row %lu", t->base.f.o->path,
                        (unsigned long)t->row);
            return -1;
        }
        if (++t->row == t->height && t->page + 1 < (t->depth ? t->depth : 1u)) {
            /* the next slice is a new page */
            if (!TIFFWriteDirectory(t->tif)) {
                cn__out_msg(t->base.f.o, "cannot write '%s': libtiff could not write page %lu", t->base.f.o->path,
                            (unsigned long)t->page);
                return -1;
            }
            t->page++;
            t->row = 0;
            if (put_page(t) != 0)
                return -1;
        }
    }
    return 0;
}

static int tiff_georef(cn__ext *base, const cn_image_georef *g)
{
    tiff_writer *t = (tiff_writer *)base;
    if (t->row != 0 || t->page != 0) {
        cn__out_msg(t->base.f.o, "cannot write '%s': the georeferencing must be set before the first row",
                    t->base.f.o->path);
        return -1;
    }
    char why[256];
    t->geo_kind = georef_kind(g, t->crs_name, sizeof t->crs_name, why, sizeof why);
    if (!t->geo_kind) {
        cn__out_msg(t->base.f.o, "cannot write '%s': %s", t->base.f.o->path, why);
        return -1;
    }
    t->geo = *g;
    t->geo_set = 1;
    return put_georef(t);
}

static int tiff_end(cn__ext *base)
{
    tiff_writer *t = (tiff_writer *)base;
    /* The last directory, then the header's pointer to the first: TIFFFlush writes both. */
    int ok = TIFFFlush(t->tif) == 1;
    TIFFClose(t->tif); /* nothing left to write; the close callback closes nothing */
    t->tif = NULL;
    if (!ok)
        cn__out_msg(t->base.f.o, "cannot write '%s': libtiff could not finish the file", t->base.f.o->path);
    return t->base.f.o->msg[0] ? -1 : 0;
}

static void tiff_destroy(cn__ext *base)
{
    tiff_writer *t = (tiff_writer *)base;
    if (!t)
        return;
    if (t->tif)
        TIFFCleanup(t->tif); /* frees without writing the directory */
    free(t->line);
    free(t);
}

static const cn__ext_ops tiff_ops = {tiff_rows, tiff_georef, tiff_end, tiff_destroy};

int cn__tiff_begin(cn__ext **out, cn__outfile *o, uint32_t width, uint32_t height, uint32_t depth)
{
    *out = NULL;
    tiff_writer *t = (tiff_writer *)calloc(1, sizeof *t);
    if (!t) {
        cn__out_msg(o, "cannot write '%s': out of memory", o->path);
        return -1;
    }
    t->base.ops = &tiff_ops;
    t->base.f.o = o;
    t->width = width;
    t->height = height;
    t->depth = depth;
    const uint64_t row_bytes = (uint64_t)width * 4u;
    t->rows_per_strip = row_bytes >= STRIP_BYTES ? 1u : (uint32_t)(STRIP_BYTES / row_bytes);
    if (t->rows_per_strip > height)
        t->rows_per_strip = height;
    const uint64_t data = row_bytes * height * (depth ? depth : 1u); /* checked by cn_image_check_size */

    XTIFFInitialize(); /* registers the GeoTIFF tags with libtiff (once per process) */
    TIFFOpenOptions *opts = TIFFOpenOptionsAlloc();
    if (!opts) {
        cn__out_msg(o, "cannot write '%s': out of memory", o->path);
        tiff_destroy(&t->base);
        return -1;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(opts, error_cb, o);
    TIFFOpenOptionsSetWarningHandlerExtR(opts, warning_cb, o);
    /* "w": write a new file, "8": BigTIFF, "m": never map it */
    t->tif = TIFFClientOpenExt(o->path, data > CLASSIC_TIFF_MAX_DATA ? "w8m" : "wm", (thandle_t)t, read_cb, write_cb,
                               seek_cb, close_cb, size_cb, map_cb, unmap_cb, opts);
    TIFFOpenOptionsFree(opts);
    if (!t->tif) {
        cn__out_msg(o, "cannot write '%s': libtiff could not start the file", o->path);
        tiff_destroy(&t->base);
        return -1;
    }
    if (put_page(t) != 0) {
        tiff_destroy(&t->base);
        return -1;
    }
    *out = &t->base;
    return 0;
}
