/*
 * sink.h -- the one strip pipeline of the raster commands (render, map, volume, animate):
 *
 *     field: the noise over strips of rows (cli_strips, cli_field_eval), NaN scanned
 *       -> shaping: the command's function, values to gray levels, colours, floats
 *       -> sink: the files (cli_sink), the progress bar, the error message, the "wrote" lines
 *
 * A command is a configuration of it: the size of a plane, whether a ring of neighbours is
 * evaluated around it (gradients), a stack of planes along z or w (volume slices, animation
 * frames), its shaping function and the files of its sink.
 *
 * The sink's files are written to temporary files registered with the signal guard (guard.h)
 * and appear together: one file is committed (renamed into place) with the signals held; several
 * are all finished first and then all renamed, so a failure before that leaves every target
 * untouched. A failure anywhere ends with one message on stderr, "<prog>: <reason>", after the
 * progress bar is erased, and no file changed.
 *
 * Usage:
 *     cli_sink s;
 *     cli_sink_init(&s, prog, quiet, threads);
 *     cli_sink_file *f = cli_sink_raster(&s, path, CN_IMAGE_PNG8, W, H, 0);
 *     snprintf(f->about, sizeof f->about, "%lux%lu", W, H);
 *     cli_strips st = {.width = W, .height = H, .planes = 1, .shape = fn, .ctx = job};
 *     cli_field_init(&st.field, ...);
 *     int ok = cli_strips_alloc(&st, &s) == 0 && cli_sink_open(&s) == 0;
 *     if (ok) { cli_sink_progress(&s, "px", total); ok = cli_strips_run(&st, &s) == 0; }
 *     int rc = cli_sink_close(&s, ok);   // CLI_EXIT_OK or CLI_EXIT_FAILURE (message printed)
 *     cli_strips_free(&st);
 *     if (rc == CLI_EXIT_OK) { a clip note; cli_sink_wrote(&s); }
 */
#ifndef CNOISE_CLI_SINK_H
#define CNOISE_CLI_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "cn_image.h"
#include "field.h"
#include "progress.h"

/* --- the sink ------------------------------------------------------------------------------------ */

#define CLI_SINK_FILES 3 /* a volume, its contact sheet and its sidecar */

typedef enum cli_sink_kind {
    CLI_SINK_RASTER, /* a cn_image_writer: PNG, heightmap, .npy, volume */
    CLI_SINK_GIF,    /* an animated GIF of gray levels (palette index g is the colour (g, g, g)) */
    CLI_SINK_BYTES   /* a small file whose content is known at the end (a sidecar): written whole
                        when the set is committed (cli_sink_set_bytes) */
} cli_sink_kind;

typedef struct cli_sink_file {
    cli_sink_kind kind;
    const char *path;
    cn_image_format format; /* raster */
    uint32_t width, height, depth;
    const cn_image_georef *geo; /* raster, CN_IMAGE_TIFF: GeoTIFF tags (NULL: none); must outlive the sink */
    unsigned delay_cs;      /* GIF: hundredths of a second per frame */
    int loop;               /* GIF: loop forever */
    const char *noun;       /* names this file when a later one fails after it was renamed
                               ("volume"); NULL for none */
    char about[192];        /* the command's description: "wrote PATH (ABOUT)" */
    /* the sink's */
    char *bytes;            /* CLI_SINK_BYTES: the content (owned), and its length */
    size_t nbytes;
    cn_image_writer *w;
    cn_image_gif *g;
    cn_image_pending *p;
    int guard;
} cli_sink_file;

typedef struct cli_sink {
    const char *prog;
    int quiet;
    int threads;    /* for the PNG writers (cn_image_set_threads): the command's --threads */
    int nfiles;
    cli_sink_file file[CLI_SINK_FILES];
    cli_progress bar;
    uint64_t done;  /* units of the bar done */
    char err[1024]; /* the reason of a failure, printed by cli_sink_close */
} cli_sink;

/* An empty sink of prog ("cnoise render"); quiet: no bar, no "wrote" lines; threads: the
 * command's --threads (0: one per core), which also deflate its PNG files, overlapping the noise
 * of the next strip (cn_image_set_threads). */
void cli_sink_init(cli_sink *s, const char *prog, int quiet, int threads);

/* Adds a file (at most CLI_SINK_FILES; path must outlive s). The sizes were checked already
 * (cn_image_check_size). Returns the entry, for its about and noun. */
cli_sink_file *cli_sink_raster(cli_sink *s, const char *path, cn_image_format format, uint32_t width,
                               uint32_t height, uint32_t depth);
cli_sink_file *cli_sink_gif(cli_sink *s, const char *path, uint32_t width, uint32_t height, unsigned delay_cs,
                            int loop);

/* A small file written whole at the end (kind CLI_SINK_BYTES): its content is given by
 * cli_sink_set_bytes before cli_sink_close; it appears with the other files or not at all. It
 * must not be the only file of the sink. */
cli_sink_file *cli_sink_bytes(cli_sink *s, const char *path);

/* The content of bytes file k: text[0..len), malloc'd; the sink owns it from now on. */
void cli_sink_set_bytes(cli_sink *s, int k, char *text, size_t len);

/*
 * A raw file's sidecar, "<path>.json" (recipe.h, cli_sidecar_text): adds the bytes file to s and
 * returns its index, or -1 after printing "out of memory". *owned receives the path, to free
 * after the sink is done with it (after cli_sink_wrote).
 */
struct cli_parse;
struct cli_sidecar_info;
int cli_sink_sidecar(cli_sink *s, const char *path, char **owned);

/* Describes file k's data (info) and the options of p as the sidecar's content. 0, or -1 with the
 * reason in s->err. */
int cli_sink_describe(cli_sink *s, int k, const struct cli_sidecar_info *info, const struct cli_parse *p);

/* Starts the progress bar (progress.h) over total units ("px", "vox"). */
void cli_sink_progress(cli_sink *s, const char *unit, uint64_t total);

/* Counts n more units done and redraws the bar. */
void cli_sink_advance(cli_sink *s, uint64_t n);

/* Creates every file's temporary file, in order, each registered with the guard. Returns 0, or
 * -1 with the reason in s->err. */
int cli_sink_open(cli_sink *s);

/* Appends nrows rows to file k: elements of the format's sample type (uint8_t, uint16_t or
 * float), row r at rows + r * stride elements; for a GIF one whole frame (nrows = height) of
 * gray levels. Returns 0, or -1 with the reason in s->err. */
int cli_sink_write(cli_sink *s, int k, const void *rows, uint32_t nrows, size_t stride);

/* A file outside the set, written whole and committed at once under the guard (an animation's
 * PNG frame). Returns 0, or -1 with the reason in s->err (the target untouched). */
int cli_sink_write_file(cli_sink *s, const char *path, cn_image_format format, uint32_t width, uint32_t height,
                        const void *rows, size_t stride);

/* Sets s->err from a printf format; returns -1. */
int cli_sink_fail(cli_sink *s, const char *fmt, ...)
#if defined(__MINGW32__) /* mingw-w64: the C99 formats of its own printf (__USE_MINGW_ANSI_STDIO) */
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * The end. Erases the bar. ok: commits the files (one file with the signals held; several all
 * finished, then all renamed, with the signals held throughout). Not ok, or a commit that fails:
 * prints "<prog>: <s->err>" and removes what is not in place (when a later file fails after an
 * earlier one was renamed, the message says that one was written, naming it by its noun).
 * Returns CLI_EXIT_OK or CLI_EXIT_FAILURE.
 */
int cli_sink_close(cli_sink *s, int ok);

/* Prints "wrote PATH (ABOUT)" on stdout for every file (the path escaped, cli_shown), unless
 * quiet. */
void cli_sink_wrote(const cli_sink *s);

/* --- the field ----------------------------------------------------------------------------------- */

/* How a NaN's place is named in "the noise is NaN <place>: coordinates times --frequency overflow". */
typedef enum cli_nan_at {
    CLI_NAN_PIXEL,       /* "at pixel (x, y)" */
    CLI_NAN_FRAME_PIXEL, /* "at pixel (x, y) of frame k" */
    CLI_NAN_VOXEL,       /* "at voxel (x, y, k)" */
    CLI_NAN_NEAR_ROW     /* "near row r", r the row of the evaluated strip (the halo row above the
                            image is row 0): the wording of "cnoise map" */
} cli_nan_at;

typedef struct cli_strips cli_strips;

/* Shaping: turns rows j0..j0+n-1 of plane k (in st->vals) into the sink's files or the
 * command's buffers. Returns 0, or -1 with the reason in s->err. */
typedef int (*cli_shape_fn)(void *ctx, cli_sink *s, const cli_strips *st, uint32_t k, uint32_t j0, uint32_t n);
/* After the last strip of plane k (the shaped output in st->out). Returns 0, or -1 with the
 * reason in s->err. */
typedef int (*cli_plane_fn)(void *ctx, cli_sink *s, const cli_strips *st, uint32_t k);

struct cli_strips {
    /* set by the command */
    cli_field field;          /* the noise (cli_field_init); its z and w are the slice */
    uint32_t width, height;   /* pixels of a plane; pixel (i, j) is at x = origin[0] + i + 0.5,
                                 y = origin[1] + j + 0.5 */
    double origin[2];         /* --origin: the world pixel of pixel (0, 0), whole numbers
                                 (cli_opt_origin); 0, 0 by default */
    int halo;                 /* 1: the ring of pixels around the plane too, for gradients */
    int grad;                 /* 1: the noise's own gradient too (cli_field_eval_grad), in gx
                                 and gy; without a halo */
    uint32_t planes;          /* planes (at least 1) */
    int plane_axis;           /* 2 (z) or 3 (w): plane k at plane0 + k * plane_step (its float
                                 twin rounded from that); 0: the field's slice for every plane */
    double plane0, plane_step;
    cli_nan_at nan_at;
    cli_shape_fn shape;
    cli_plane_fn plane_done;  /* may be NULL */
    void *ctx;                /* for shape and plane_done */
    size_t out_row;           /* bytes of a row of the shaped output buffer (0: none) */
    int out_plane;            /* 1: the buffer holds a whole plane (a GIF frame), 0: a strip */
    /* set by cli_strips_alloc */
    void *out;                /* the shaped output: out_row bytes times rows (or height) */
    uint32_t rows;            /* rows per strip: cli_strip_rows(ncols, height) */
    size_t ncols;             /* values per evaluated row: width + 2 * halo */
    double *vals;             /* a strip of n rows: (n + 2 * halo) rows of ncols values; pixel
                                 (i, j0 + r) at vals[(r + halo) * ncols + i + halo] */
    double *gx, *gy;          /* with grad: the values' derivatives by x and y, as vals */
};

/* Sizes the strips and allocates them and the output buffer. Returns 0, or -1 with "out of
 * memory" in s->err. */
int cli_strips_alloc(cli_strips *st, cli_sink *s);

/* Every plane, strip by strip, top to bottom: evaluates it, scans it for NaN, shapes it and
 * counts width * n units on the sink's bar; plane_done after each plane. Returns 0, or -1 with
 * the reason in s->err. */
int cli_strips_run(cli_strips *st, cli_sink *s);

/* Frees the strip, the output buffer and the field's scratch buffers. */
void cli_strips_free(cli_strips *st);

#endif /* CNOISE_CLI_SINK_H */
