/*
 * cn_image.h -- image, heightmap and volume writers for cnoise: buffers in, files out. They know
 * nothing about noise.
 *
 * Formats (cn_image_format) and the element type each one takes
 * ----------------------------------------------------------------
 *   format            file                                         rows are      per pixel
 *   CN_IMAGE_PNG8     PNG, 8-bit grayscale                         uint8_t       1
 *   CN_IMAGE_PNG16    PNG, 16-bit grayscale                        uint16_t      1
 *   CN_IMAGE_PNG_RGB  PNG, 8-bit RGB (truecolor, no alpha)         uint8_t       3 (R, G, B)
 *   CN_IMAGE_R16      RAW 16-bit unsigned little-endian (.r16)     uint16_t      1
 *   CN_IMAGE_F32      RAW 32-bit IEEE float little-endian (.f32)   float         1
 *   CN_IMAGE_PFM      PFM grayscale ("Pf", scale -1: little-endian) float        1
 *   CN_IMAGE_NPY      NumPy .npy, '<f4', C order, version 1.0      float         1
 *   CN_IMAGE_EXR      OpenEXR, one float32 channel "R", no compr.  float         1
 *   CN_IMAGE_EXR_HALF OpenEXR, one half channel "R", ZIP           float         1
 *   CN_IMAGE_TIFF     TIFF, 32-bit IEEE float gray, strips         float         1
 *                     (+ GeoTIFF tags: cn_image_set_georef)
 * uint16_t values are given in the host's byte order (the writer produces the file's order);
 * floats are written bit for bit (NaN and infinities included). Rows are given top to bottom,
 * pixels left to right, in every format; a PFM file stores its rows bottom to top, which the
 * writer handles (it places each row at its final offset in the temporary file).
 * The raw formats have no header: the reader must know width, height (and depth).
 * CN_IMAGE_EXR_HALF rounds each float to the nearest half (ties to even): magnitudes of 65520 and
 * more become infinities (65504 is the largest half), up to 2^-25 zero. exr.c and tiff.c say why the files look as they do (the
 * channel name, the compression, BigTIFF past 4 GiB).
 *
 * Volumes: CN_IMAGE_NPY, CN_IMAGE_F32, CN_IMAGE_R16 and CN_IMAGE_TIFF also take a depth D >= 1:
 * the rows of slice 0 (top to bottom), then those of slice 1, ... (x fastest, then y, then z);
 * .npy then has shape (D, H, W), the raw formats are D * H rows, a TIFF has D pages. Depth 0
 * means a plain 2D image (.npy shape (H, W)); the PNG, PFM and EXR formats accept only depth 0.
 *
 * Limits, checked before anything is created or allocated (see cn_image_check_size)
 * --------------------------------------------------------------------------------
 *   - width, height and depth each 1..CN_IMAGE_MAX_SIDE (2^31 - 1, the PNG limit) (depth 0 = 2D);
 *   - width * height * depth * channels * bytes per sample at most CN_IMAGE_MAX_BYTES (2^46 bytes,
 *     64 TiB), every product checked for overflow; one row's bytes must also fit in size_t;
 *   - GIF: width and height 1..CN_IMAGE_GIF_MAX_SIDE (65535, the format's 16-bit fields);
 *   - OpenEXR: width at most CN_IMAGE_EXR_MAX_WIDTH (2^25 - 1).
 *
 * Safe replacement
 * ----------------
 * Every writer puts the file into a temporary file next to the target, checks every write,
 * flushes it to disk with fsync and only then puts it in place over <path>. On any failure the
 * temporary file is removed and whatever was at <path> before is left exactly as it was.
 * The temporary file is, where the file system allows it (Linux O_TMPFILE: ext4, xfs, btrfs,
 * tmpfs, ...), an unnamed file in the target's directory: a process killed in any way, SIGKILL
 * and power loss included, leaves nothing behind. On commit it is linked as
 * "<path>.tmp.XXXXXX" (linkat: through /proc/self/fd, or AT_EMPTY_PATH), closed and renamed over
 * <path>, the link removed on any failure; only a SIGKILL in the moment between the link and the
 * rename can leave that complete file under its temporary name. Elsewhere, and when the
 * environment variable CNOISE_TEST_NAMED_TEMP is set to anything but "" or "0" (a test hook, to
 * exercise this fallback where O_TMPFILE works), it is a named file "<path>.tmp.XXXXXX" created
 * with mkstemp and renamed over <path>; a process killed before the commit leaves it behind
 * unless a signal handler removes it (cn_image_temp_path). The temporary name must fit: a <path>
 * whose last component plus ".tmp.XXXXXX" exceeds the file system's NAME_MAX uses the named
 * fallback, which reports the error at once. Errors of writes say what errno says, EFBIG (the
 * file-size limit, RLIMIT_FSIZE, with SIGXFSZ ignored) with a hint (cn_image_strerror).
 * Consequences worth knowing:
 *   - the directory of <path> must exist and be writable (the temporary file lives there);
 *   - an existing <path> that is a directory or not a regular file (a device, a FIFO) is refused
 *     before anything is created, so "-o /dev/null" can never replace a device node;
 *   - a symbolic link at <path> is replaced by the new file (the link target is not touched);
 *   - a new file gets mode 0666 minus the umask; a replaced regular file keeps its permission
 *     bits (owner and ACLs are not copied);
 *   - the process umask is read with umask() (set and restored), which is not thread-safe
 *     against another thread changing the umask at the same moment.
 *
 * Streaming
 * ---------
 * cn_image_begin() / cn_image_write_u8|u16|f32() / cn_image_commit() write an image of any
 * height in strips, so memory stays bounded by the strip the caller holds: the writer itself
 * keeps a 64 KiB output buffer and, for PNG, the blocks below (about 0.8 MiB each: one without
 * threads, two per thread with them, at most 64 MiB unless one block, one row, is larger) and
 * a deflater per thread (about 0.4 MiB, zlib's or igzip's).
 * cn_image_abort() gives up and removes the temporary file.
 *
 * PNG compression
 * ---------------
 * The PNG writer filters and deflates the rows itself (the chunks' CRC-32 and the Adler-32 from
 * zlib):
 *   - every row is filtered with Paeth's predictor (filter type 4) and deflated, 16-bit gray and
 *     RGB by ISA-L's igzip at its level 1 where the build found ISA-L (CN_IMAGE_ISAL), 8-bit
 *     gray and everything else by zlib's Z_RLE strategy (runs, no other matches). Measured on
 *     6-octave fBm (image.c and bench/png_settings.c have the figures): zlib's setting smaller
 *     than libpng's defaults for gray images (16-bit 4096x4096: 26.2 MB against 26.5 MB), about
 *     5 % larger for unshaded colour ramps, at a fraction of the time; igzip 3.4 times faster
 *     than that at the same size for 16-bit gray, 1.5 % larger for colour ramps;
 *   - the rows are cut into blocks of about 256 KiB of filtered data, each deflated on its own
 *     (no history shared between blocks) and ended on a byte boundary (a sync flush; the last
 *     block ends the stream), so that the blocks concatenated, behind one zlib header and followed by
 *     the Adler-32 of the whole (adler32_combine), are one valid zlib stream, each block in an
 *     IDAT chunk of its own (as parallel gzip tools join gzip members);
 *   - cn_image_set_threads() lets worker threads deflate the blocks while the caller computes
 *     the next rows; the caller's thread writes them, in order, as it hands over new rows (a
 *     write may therefore report a failure of an earlier block). The file is the same bytes
 *     for any number of threads (on one machine: igzip picks its code for the processor). The GIF writer takes
 * whole frames (cn_image_gif_*), holding none of them. cn_image_temp_path() and
 * cn_image_gif_temp_path() name the named temporary file, for a signal handler that removes it
 * (NULL for an unnamed one, which needs no removing).
 *
 * Errors: every function that can fail returns 0 on success and -1 on failure, and then writes a
 * one-line English message (no trailing newline, no program name) into err[0..errlen) when err is
 * not NULL and errlen > 0. The message is truncated to fit and always NUL-terminated.
 * Writers are not thread-safe (a PNG writer's own worker threads are its business: they touch
 * nothing of the caller's); distinct writers may be used from distinct threads.
 */
#ifndef CN_IMAGE_H
#define CN_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* Which writers a build has (CMake's CNOISE_WITH_GIF, _EXR, _TIFF define them 0 or 1; without
 * the definitions, 1: a writer whose library is missing then fails to compile, never disappears
 * quietly). A writer left out refuses every call by name (without.c). */
#ifndef CN_IMAGE_WITH_GIF
#define CN_IMAGE_WITH_GIF 1
#endif
#ifndef CN_IMAGE_WITH_EXR
#define CN_IMAGE_WITH_EXR 1
#endif
#ifndef CN_IMAGE_WITH_TIFF
#define CN_IMAGE_WITH_TIFF 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Largest width, height or depth (the PNG specification's limit, 2^31 - 1). */
#define CN_IMAGE_MAX_SIDE 0x7fffffffu
/* Largest amount of pixel data in one file: 2^46 bytes (64 TiB). */
#define CN_IMAGE_MAX_BYTES ((uint64_t)1 << 46)
/* Largest GIF width or height. */
#define CN_IMAGE_GIF_MAX_SIDE 65535u
/* Largest OpenEXR width: a chunk of 16 rows of float32 must fit OpenEXR's int32 byte count. */
#define CN_IMAGE_EXR_MAX_WIDTH 33554431u
/* Most threads a PNG writer starts (cn_image_set_threads). */
#define CN_IMAGE_MAX_THREADS 256u
/* Kept for older callers: the same as CN_IMAGE_MAX_SIDE. */
#define CN_IMAGE_PNG_MAX_SIDE CN_IMAGE_MAX_SIDE

typedef enum cn_image_format {
    CN_IMAGE_PNG8 = 0,
    CN_IMAGE_PNG16 = 1,
    CN_IMAGE_PNG_RGB = 2,
    CN_IMAGE_R16 = 3,
    CN_IMAGE_F32 = 4,
    CN_IMAGE_PFM = 5,
    CN_IMAGE_NPY = 6,
    CN_IMAGE_EXR = 7,
    CN_IMAGE_EXR_HALF = 8,
    CN_IMAGE_TIFF = 9,
    CN_IMAGE_FORMAT_COUNT = 10
} cn_image_format;

/*
 * The one escaping function for messages (this library's and the cnoise tool's): copies src into
 * dst[0..cap) with every control byte (below 0x20, and 0x7f) written as \xNN, so that a file name
 * or value with a newline or an escape sequence cannot break or forge a line of output. Other
 * bytes (UTF-8 included) are copied as they are. Stops before a character that would not fit
 * whole; dst is always terminated (cap >= 1). Returns how many bytes of src were copied:
 * strlen(src) when all of it fit. NULL src is the empty string; NULL dst or cap 0 returns 0.
 */
size_t cn_image_escape(char *dst, size_t cap, const char *src);

/* strerror(e), except that EFBIG also names the file-size limit (ulimit -f) that causes it. */
const char *cn_image_strerror(int e);

/* The element type of a format's rows. */
typedef enum cn_image_sample {
    CN_IMAGE_SAMPLE_U8 = 0,  /* uint8_t: CN_IMAGE_PNG8, CN_IMAGE_PNG_RGB */
    CN_IMAGE_SAMPLE_U16 = 1, /* uint16_t: CN_IMAGE_PNG16, CN_IMAGE_R16 */
    CN_IMAGE_SAMPLE_F32 = 2  /* float: CN_IMAGE_F32, CN_IMAGE_PFM, CN_IMAGE_NPY, CN_IMAGE_EXR,
                                CN_IMAGE_EXR_HALF, CN_IMAGE_TIFF */
} cn_image_sample;

/*
 * The format's short name, as the CLI's --format spells it: "png", "png16", "rgb", "r16", "f32",
 * "pfm", "npy", "exr", "exr16", "tiff"; NULL for a value outside the enum.
 */
const char *cn_image_format_name(cn_image_format format);

/* The format named `name` (exactly one of the names above) into *out: 0, or -1 (out untouched). */
int cn_image_format_from_name(const char *name, cn_image_format *out);

/*
 * The format a file name's extension implies where it is unambiguous (case-insensitive):
 * ".r16" CN_IMAGE_R16, ".f32" CN_IMAGE_F32, ".pfm" CN_IMAGE_PFM, ".npy" CN_IMAGE_NPY, ".exr"
 * CN_IMAGE_EXR (float32; half is asked for by name), ".tif" and ".tiff" CN_IMAGE_TIFF. Returns 0
 * and sets *out for those; -1 otherwise, including ".png" (8-bit, 16-bit or RGB: the caller
 * decides), ".raw" (16-bit for a game engine's heightmap, float for a volume: the caller decides)
 * and NULL arguments.
 */
int cn_image_format_from_path(const char *path, cn_image_format *out);

/* Element type, samples per pixel (1, or 3 for CN_IMAGE_PNG_RGB), bytes per sample of the rows
 * given (1, 2, 4; 4 for CN_IMAGE_EXR_HALF, whose floats become halves in the file),
 * and whether a depth >= 1 is accepted (NPY, F32, R16, TIFF). 0 for a value outside the enum. */
cn_image_sample cn_image_format_sample(cn_image_format format);
unsigned cn_image_format_channels(cn_image_format format);
unsigned cn_image_format_sample_bytes(cn_image_format format);
int cn_image_format_has_depth(cn_image_format format);

/*
 * Checks a size against the format and the limits above without touching anything: width and
 * height 1..CN_IMAGE_MAX_SIDE, depth 0 (2D) or, for formats with depth, 1..CN_IMAGE_MAX_SIDE;
 * the pixel data size (every product checked) at most CN_IMAGE_MAX_BYTES, one row in size_t.
 * Stores the pixel data size in bytes (excluding headers) in *bytes when bytes is not NULL.
 * Returns 0, or -1 with a message naming the size.
 */
int cn_image_check_size(cn_image_format format, uint32_t width, uint32_t height, uint32_t depth,
                        uint64_t *bytes, char *err, size_t errlen);

/* A raster file being written; opaque. */
typedef struct cn_image_writer cn_image_writer;

/*
 * Starts a file of `format` with width x height pixels and `depth` slices (0 for a 2D image; see
 * Volumes) that will replace `path` on commit. Checks the size (cn_image_check_size) and the
 * target, then creates the temporary file and writes the header. On success stores a new writer
 * in *out (which the caller must pass to cn_image_commit() or cn_image_abort() exactly once) and
 * returns 0. On failure sets *out to NULL (when out is not NULL), leaves no temporary file behind
 * and returns -1. `path` must be non-empty; it is copied.
 */
int cn_image_begin(cn_image_writer **out, const char *path, cn_image_format format, uint32_t width,
                   uint32_t height, uint32_t depth, char *err, size_t errlen);

/*
 * Append `nrows` rows, top to bottom (for volumes continuing into the next slice). Row r (0-based)
 * starts at rows + r * stride, where stride counts elements of the pointer's type (not bytes), and
 * holds width * channels elements; stride >= width * channels. The function must match the
 * format's element type (cn_image_format_sample): _u8 for PNG8 and PNG_RGB, _u16 for PNG16 and
 * R16, _f32 for F32, PFM, NPY, EXR, EXR_HALF and TIFF; a mismatch is an error. Writing more
 * rows than height * max(1, depth) is an error. After a failure the writer only accepts cn_image_abort() or
 * cn_image_commit() (which then fails and cleans up). nrows 0 is a no-op. NULL w, or NULL rows
 * with nrows > 0, is an error.
 */
int cn_image_write_u8(cn_image_writer *w, const uint8_t *rows, uint32_t nrows, size_t stride,
                      char *err, size_t errlen);
int cn_image_write_u16(cn_image_writer *w, const uint16_t *rows, uint32_t nrows, size_t stride,
                       char *err, size_t errlen);
int cn_image_write_f32(cn_image_writer *w, const float *rows, uint32_t nrows, size_t stride,
                       char *err, size_t errlen);

/*
 * GeoTIFF georeferencing of a north-up raster (CN_IMAGE_TIFF): the tags GIS software (GDAL,
 * QGIS) reads. The EPSG code names a projected CRS (e.g. 32633, WGS 84 / UTM zone 33N; 3857) or a
 * geographic 2D one (4326, WGS 84), looked up in PROJ's EPSG database; x is easting or
 * longitude, y northing or latitude, in the CRS's units (metres, degrees, ...).
 */
typedef struct cn_image_georef {
    unsigned epsg;           /* 1024..32766 (the GeoKeys are 16-bit), a projected or geographic 2D CRS */
    double x, y;             /* the image's top-left corner: the outer corner of pixel (0, 0) */
    double pixel_x, pixel_y; /* a pixel's size east and south (finite, > 0): row j's top edge is at
                                y - j * pixel_y, column i's left edge at x + i * pixel_x */
} cn_image_georef;

/*
 * Checks g without touching anything: finite numbers, sizes > 0, the EPSG code a projected or
 * geographic 2D CRS. On success stores the CRS's name ("WGS 84 / UTM zone 33N") in
 * name[0..namelen) when name is not NULL and returns 0; -1 with a message otherwise.
 */
int cn_image_georef_check(const cn_image_georef *g, char *name, size_t namelen, char *err, size_t errlen);

/*
 * Georeferences the CN_IMAGE_TIFF file being written by w with g (every page of a volume):
 * ModelTiepointTag, ModelPixelScaleTag, and the GeoKeys GTModelTypeGeoKey, GTRasterTypeGeoKey
 * (RasterPixelIsArea), ProjectedCSTypeGeoKey or GeographicTypeGeoKey, GTCitationGeoKey. Only
 * before the first row, only for CN_IMAGE_TIFF. Errors as for cn_image_write_f32().
 */
int cn_image_set_georef(cn_image_writer *w, const cn_image_georef *g, char *err, size_t errlen);

/*
 * Threads that filter and deflate a PNG writer's rows while the caller goes on (the other
 * formats ignore this and return 0): 1 (the default) uses none but the caller's, N >= 2 starts N
 * worker threads, 0 one per online processor; at most CN_IMAGE_MAX_THREADS, no more than the
 * image has blocks, and fewer when the blocks in flight would hold more than 64 MiB. Call it
 * after cn_image_begin() and before the first row; later it is an error. A system that starts
 * fewer threads gets fewer (none: the caller's thread does the work). The file is the same
 * bytes for every thread count. The workers block every signal (signals reach the caller's
 * threads only) and are joined by cn_image_commit(), cn_image_finish() and cn_image_abort().
 * Returns 0, or -1 with a message (the writer then fails, as after a write error).
 */
int cn_image_set_threads(cn_image_writer *w, unsigned threads, char *err, size_t errlen);

/* Rows written so far (counting across slices), and the total the file needs; 0 for NULL. */
uint64_t cn_image_rows_done(const cn_image_writer *w);
uint64_t cn_image_rows_total(const cn_image_writer *w);

/*
 * Finishes the file (every row must have been written), flushes it to disk, sets its
 * permissions and renames it over the target path. Always consumes w (frees it): on failure the
 * temporary file is removed and the target is untouched. w NULL is an error.
 * After the rename the directory is fsync'ed on a best-effort basis (errors there are ignored:
 * the file is already complete and in place).
 */
int cn_image_commit(cn_image_writer *w, char *err, size_t errlen);

/* Gives up: removes the temporary file and frees w. NULL is ignored. Never fails. */
void cn_image_abort(cn_image_writer *w);

/*
 * Two-step commit, for outputs that should appear together (a volume and its contact sheet, a
 * GIF and a PNG): cn_image_finish() does everything cn_image_commit() does except the rename,
 * so the complete file waits at its temporary path (the same cn_image_temp_path() named) in a
 * cn_image_pending (an unnamed one keeps its descriptor open there; cn_image_pending_temp_path()
 * is NULL for it); cn_image_publish() then puts it over the target (and always frees p),
 * cn_image_discard() removes it. Finish every output first and publish only when all finished:
 * a failure up to then leaves every target untouched. w is consumed as by cn_image_commit();
 * on failure *out is NULL and the temporary file is removed.
 */
typedef struct cn_image_pending cn_image_pending;
int cn_image_finish(cn_image_writer *w, cn_image_pending **out, char *err, size_t errlen);
int cn_image_publish(cn_image_pending *p, char *err, size_t errlen);
void cn_image_discard(cn_image_pending *p);
const char *cn_image_pending_temp_path(const cn_image_pending *p);

/*
 * The temporary file's path while w is open (valid until commit/abort), or NULL for NULL w and
 * for an unnamed (O_TMPFILE) temporary file, which has no path and vanishes with the process.
 * Meant for a signal handler that wants to unlink() it before the process dies.
 */
const char *cn_image_temp_path(const cn_image_writer *w);

/*
 * One call: writes width x height (x depth) elements from `data` (rows packed, no padding:
 * stride width * channels) in `format`; `data` points to elements of the format's type
 * (uint8_t, uint16_t or float). Same safety as above.
 */
int cn_image_write_file(const char *path, cn_image_format format, const void *data, uint32_t width,
                        uint32_t height, uint32_t depth, char *err, size_t errlen);

/* ---------------------------------------------------------------------------------------------
 * Animated GIF (giflib): frames of palette indices, one global 256-colour palette.
 * --------------------------------------------------------------------------------------------- */

typedef struct cn_image_gif cn_image_gif;

/*
 * Starts an animated GIF89a of width x height pixels (each 1..CN_IMAGE_GIF_MAX_SIDE) that will
 * replace `path` on commit. palette holds 256 colours as R, G, B bytes (768 bytes; copied), used
 * as the global colour table. Every frame is shown for delay_cs hundredths of a second
 * (0..65535; note that many viewers show delays below 2 as 10). loop nonzero adds the NETSCAPE2.0
 * extension with a repeat count of 0 (loop forever); 0 plays the frames once. Same ownership,
 * safety and failure rules as cn_image_begin().
 */
int cn_image_gif_begin(cn_image_gif **out, const char *path, uint32_t width, uint32_t height,
                       const uint8_t *palette, unsigned delay_cs, int loop, char *err, size_t errlen);

/*
 * Appends one frame: height rows of width palette indices (uint8_t, 0..255), row r at
 * pixels + r * stride (stride in bytes, >= width). The frame covers the whole screen. Errors as
 * for cn_image_write_u8().
 */
int cn_image_gif_add_frame(cn_image_gif *g, const uint8_t *pixels, size_t stride, char *err,
                           size_t errlen);

/* Frames added so far; 0 for NULL. */
uint64_t cn_image_gif_frames(const cn_image_gif *g);

/* Finishes the GIF (at least one frame is needed) and renames it into place; consumes g, as
 * cn_image_commit(). */
int cn_image_gif_commit(cn_image_gif *g, char *err, size_t errlen);

/* Gives up: removes the temporary file and frees g. NULL is ignored. */
void cn_image_gif_abort(cn_image_gif *g);

/* The first step of a two-step commit (see cn_image_finish). */
int cn_image_gif_finish(cn_image_gif *g, cn_image_pending **out, char *err, size_t errlen);

/* The temporary file's path while g is open, or NULL for NULL g (see cn_image_temp_path). */
const char *cn_image_gif_temp_path(const cn_image_gif *g);

/* ---------------------------------------------------------------------------------------------
 * The original 8-bit grayscale PNG API, kept for existing callers: a cn_image_png is a
 * cn_image_writer of format CN_IMAGE_PNG8 and depth 0, and each function below is the call named
 * next to it (so they mix freely: cn_image_commit() may finish a writer from cn_image_png_begin()).
 * --------------------------------------------------------------------------------------------- */

typedef cn_image_writer cn_image_png;

/* cn_image_begin(out, path, CN_IMAGE_PNG8, width, height, 0, err, errlen) */
int cn_image_png_begin(cn_image_png **out, const char *path, uint32_t width, uint32_t height,
                       char *err, size_t errlen);
/* cn_image_write_u8(); `width` bytes per row, one gray level per pixel (0 black .. 255 white). */
int cn_image_png_write_rows(cn_image_png *w, const uint8_t *rows, uint32_t nrows, size_t stride,
                            char *err, size_t errlen);
/* cn_image_commit() */
int cn_image_png_commit(cn_image_png *w, char *err, size_t errlen);
/* cn_image_abort() */
void cn_image_png_abort(cn_image_png *w);
/* cn_image_temp_path() */
const char *cn_image_png_temp_path(const cn_image_png *w);
/* cn_image_write_file(path, CN_IMAGE_PNG8, pixels, width, height, 0, err, errlen) */
int cn_image_write_gray8_png(const char *path, const uint8_t *pixels, uint32_t width,
                             uint32_t height, char *err, size_t errlen);

/* ---------------------------------------------------------------------------------------------
 * Small files written whole from memory: a raw file's sidecar, a recipe. The same safe
 * replacement and error rules as the images.
 * --------------------------------------------------------------------------------------------- */

/* Writes data[0..len) as the new content of path (data may be NULL when len is 0). */
int cn_image_write_bytes(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* The same, as the first step of a two-step commit (see cn_image_finish): on success *out holds
 * the finished file, waiting to be published or discarded. */
int cn_image_bytes_finish(const char *path, const void *data, size_t len, cn_image_pending **out, char *err,
                          size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CN_IMAGE_H */
