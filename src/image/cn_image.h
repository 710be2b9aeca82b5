/*
 * cn_image.h -- image writers for cnoise: buffers in, files out. They know nothing about noise.
 *
 * Safe replacement
 * ----------------
 * Every writer puts the image into a temporary file next to the target ("<path>.tmp.XXXXXX",
 * created with mkstemp), checks every write, flushes it to disk with fsync and only then renames
 * it over <path>. On any failure the temporary file is removed and whatever was at <path> before
 * is left exactly as it was. Consequences worth knowing:
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
 * cn_image_png_begin() / cn_image_png_write_rows() / cn_image_png_commit() write an image of any
 * height in strips, so memory stays bounded by the strip the caller holds (libpng and zlib keep
 * only a few rows of their own). cn_image_png_abort() gives up and removes the temporary file.
 * cn_image_write_gray8_png() is the one-call form for a buffer already in memory.
 *
 * Errors: every function that can fail returns 0 on success and -1 on failure, and then writes a
 * one-line English message (no trailing newline, no program name) into err[0..errlen) when err is
 * not NULL and errlen > 0. The message is truncated to fit and always NUL-terminated.
 */
#ifndef CN_IMAGE_H
#define CN_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest width or height a PNG may have (the PNG specification's limit, 2^31 - 1). */
#define CN_IMAGE_PNG_MAX_SIDE 0x7fffffffu

/* An 8-bit grayscale PNG being written; opaque. */
typedef struct cn_image_png cn_image_png;

/*
 * Starts an 8-bit grayscale PNG of width x height pixels (each 1..CN_IMAGE_PNG_MAX_SIDE) that
 * will replace `path` on commit. Creates the temporary file and writes the PNG header into it.
 * On success stores a new writer in *out (which the caller must pass to cn_image_png_commit() or
 * cn_image_png_abort() exactly once) and returns 0. On failure sets *out to NULL, leaves no
 * temporary file behind and returns -1. `path` must be non-empty; it is copied.
 */
int cn_image_png_begin(cn_image_png **out, const char *path, uint32_t width, uint32_t height,
                       char *err, size_t errlen);

/*
 * Appends `nrows` rows, top to bottom. Row r (0-based) starts at rows + r * stride and holds
 * `width` bytes, one gray level per pixel (0 black .. 255 white); stride >= width.
 * Writing more rows than the image height is an error. After a failure the writer only accepts
 * cn_image_png_abort() or cn_image_png_commit() (which then fails and cleans up). nrows 0 is a
 * no-op. NULL w or rows (with nrows > 0) is an error.
 */
int cn_image_png_write_rows(cn_image_png *w, const uint8_t *rows, uint32_t nrows, size_t stride,
                            char *err, size_t errlen);

/*
 * Finishes the file (all `height` rows must have been written), flushes it to disk, sets its
 * permissions and renames it over the target path. Always consumes w (frees it): on failure the
 * temporary file is removed and the target is untouched. w NULL is an error.
 * After the rename the directory is fsync'ed on a best-effort basis (errors there are ignored:
 * the file is already complete and in place).
 */
int cn_image_png_commit(cn_image_png *w, char *err, size_t errlen);

/* Gives up: removes the temporary file and frees w. NULL is ignored. Never fails. */
void cn_image_png_abort(cn_image_png *w);

/*
 * The temporary file's path while w is open (valid until commit/abort), or NULL for NULL w.
 * Meant for a signal handler that wants to unlink() it before the process dies.
 */
const char *cn_image_png_temp_path(const cn_image_png *w);

/*
 * One call: writes width x height gray levels from `pixels` (row-major, no padding, so
 * width * height bytes) as an 8-bit grayscale PNG at `path`, with the same safety as above.
 */
int cn_image_write_gray8_png(const char *path, const uint8_t *pixels, uint32_t width,
                             uint32_t height, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CN_IMAGE_H */
