/*
 * sink.c -- the strip pipeline of the raster commands: the sink and the strips (sink.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sink.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "guard.h"
#include "options.h"
#include "recipe.h"

/* --- the sink ------------------------------------------------------------------------------------ */

void cli_sink_init(cli_sink *s, const char *prog, int quiet, int threads)
{
    memset(s, 0, sizeof *s); /* the bar disabled until cli_sink_progress */
    s->prog = prog;
    s->quiet = quiet;
    s->threads = threads < 0 ? 0 : threads;
}

static cli_sink_file *add(cli_sink *s, cli_sink_kind kind, const char *path, uint32_t width, uint32_t height)
{
    if (s->nfiles >= CLI_SINK_FILES) { /* a command's bug, which any run of it shows */
        fprintf(stderr, "%s: internal error: more than %d output files\n", s->prog, CLI_SINK_FILES);
        abort();
    }
    cli_sink_file *f = &s->file[s->nfiles++];
    f->kind = kind;
    f->path = path;
    f->width = width;
    f->height = height;
    f->guard = -1;
    return f;
}

cli_sink_file *cli_sink_raster(cli_sink *s, const char *path, cn_image_format format, uint32_t width,
                               uint32_t height, uint32_t depth)
{
    cli_sink_file *f = add(s, CLI_SINK_RASTER, path, width, height);
    f->format = format;
    f->depth = depth;
    return f;
}

cli_sink_file *cli_sink_gif(cli_sink *s, const char *path, uint32_t width, uint32_t height, unsigned delay_cs,
                            int loop)
{
    cli_sink_file *f = add(s, CLI_SINK_GIF, path, width, height);
    f->delay_cs = delay_cs;
    f->loop = loop;
    return f;
}

cli_sink_file *cli_sink_bytes(cli_sink *s, const char *path)
{
    return add(s, CLI_SINK_BYTES, path, 0, 0);
}

void cli_sink_set_bytes(cli_sink *s, int k, char *text, size_t len)
{
    free(s->file[k].bytes);
    s->file[k].bytes = text;
    s->file[k].nbytes = len;
}

int cli_sink_sidecar(cli_sink *s, const char *path, char **owned)
{
#if !CN_CLI_WITH_SIDECARS
    char shown[CLI_SHOWN_SIZE];
    *owned = NULL;
    cli_error(s->prog, "cannot write '%s': %s", cli_shown(path, shown, sizeof shown), CLI_NO_SIDECARS);
    return -1;
#endif
    const size_t len = strlen(path);
    char *name = (char *)malloc(len + sizeof ".json");
    *owned = name;
    if (!name) {
        cli_error(s->prog, "out of memory");
        return -1;
    }
    memcpy(name, path, len);
    memcpy(name + len, ".json", sizeof ".json");
    snprintf(cli_sink_bytes(s, name)->about, sizeof s->file[0].about, "sidecar: size, sample type, range, options");
    return s->nfiles - 1;
}

int cli_sink_describe(cli_sink *s, int k, const cli_sidecar_info *info, const cli_parse *p)
{
    cli_recipe_entry e[CLI_MAX_OPTIONS];
    const int n = cli_given_entries(p, e);
    char *text = cli_sidecar_text(info, cli_command_name(p), e, n, s->err, sizeof s->err);
    if (!text)
        return -1;
    cli_sink_set_bytes(s, k, text, strlen(text));
    return 0;
}

void cli_sink_progress(cli_sink *s, const char *unit, uint64_t total)
{
    cli_progress_begin(&s->bar, s->prog, unit, total, s->quiet);
}

void cli_sink_advance(cli_sink *s, uint64_t n)
{
    s->done += n;
    cli_progress_update(&s->bar, s->done);
}

int cli_sink_fail(cli_sink *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return -1;
}

/* Creates f's temporary file with the signals held, so no signal finds it unregistered. */
static int open_file(cli_sink *s, cli_sink_file *f)
{
    if (f->kind == CLI_SINK_BYTES)
        return 0; /* written whole at the end */
    if (f->kind == CLI_SINK_RASTER) {
        if (cli_guard_begin(&f->w, &f->guard, f->path, f->format, f->width, f->height, f->depth, s->err,
                            sizeof s->err) != 0)
            return -1;
        /* a failure here leaves f->w for cli_sink_close to remove */
        if (f->geo && cn_image_set_georef(f->w, f->geo, s->err, sizeof s->err) != 0)
            return -1;
        /* PNG blocks deflated on the command's threads (the writer is dropped by the caller) */
        return cn_image_set_threads(f->w, (unsigned)s->threads, s->err, sizeof s->err);
    }
    uint8_t pal[768];
    for (int i = 0; i < 256; i++)
        pal[3 * i] = pal[3 * i + 1] = pal[3 * i + 2] = (uint8_t)i;
    cli_guard_block();
    int r = cn_image_gif_begin(&f->g, f->path, f->width, f->height, pal, f->delay_cs, f->loop, s->err, sizeof s->err);
    if (r == 0)
        f->guard = cli_guard_add(cn_image_gif_temp_path(f->g));
    cli_guard_unblock();
    return r;
}

/* Removes what f holds that is not in place and forgets its guard. */
static void drop(cli_sink_file *f)
{
    cn_image_abort(f->w);
    cn_image_gif_abort(f->g);
    cn_image_discard(f->p);
    free(f->bytes);
    f->bytes = NULL;
    f->w = NULL;
    f->g = NULL;
    f->p = NULL;
    cli_guard_remove(f->guard);
    f->guard = -1;
}

/* Commits f (renames it into place) with the signals held: a signal that comes meanwhile is
 * delivered once the file is in place or gone. */
static int commit_one(cli_sink_file *f, char *err, size_t errlen)
{
    cli_guard_block();
    int r = f->kind == CLI_SINK_GIF ? cn_image_gif_commit(f->g, err, errlen) : cn_image_commit(f->w, err, errlen);
    f->w = NULL;
    f->g = NULL;
    cli_guard_remove(f->guard);
    f->guard = -1;
    cli_guard_unblock();
    return r;
}

/* Finishes every file, then renames every one, with the signals held throughout: a signal that
 * comes meanwhile is delivered when all are in place, or none. */
static int commit_all(cli_sink *s)
{
    int r = 0;
    cli_guard_block();
    for (int k = 0; k < s->nfiles && r == 0; k++) {
        cli_sink_file *f = &s->file[k];
        if (f->kind == CLI_SINK_BYTES)
            r = cn_image_bytes_finish(f->path, f->bytes, f->nbytes, &f->p, s->err, sizeof s->err);
        else if (f->kind == CLI_SINK_GIF)
            r = cn_image_gif_finish(f->g, &f->p, s->err, sizeof s->err);
        else
            r = cn_image_finish(f->w, &f->p, s->err, sizeof s->err);
        f->w = NULL;
        f->g = NULL;
    }
    for (int k = 0; k < s->nfiles && r == 0; k++) {
        cli_sink_file *f = &s->file[k];
        r = cn_image_publish(f->p, s->err, sizeof s->err);
        f->p = NULL;
        if (r != 0 && k > 0 && s->file[0].noun) {
            /* the first file is in place already (and any before k: a sheet, which is named by
             * the message itself) */
            char why[sizeof s->err], q[CLI_SHOWN_SIZE];
            memcpy(why, s->err, sizeof why);
            cli_sink_fail(s, "%s (the %s %s was written)", why, s->file[0].noun,
                          cli_quote(s->file[0].path, q, sizeof q));
        }
    }
    for (int k = 0; k < s->nfiles; k++)
        drop(&s->file[k]);
    cli_guard_unblock();
    return r;
}

int cli_sink_open(cli_sink *s)
{
    for (int k = 0; k < s->nfiles; k++)
        if (open_file(s, &s->file[k]) != 0)
            return -1;
    return 0;
}

/* Rows (or a GIF frame) into f; the reason in s->err. */
static int write_to(cli_sink *s, cli_sink_file *f, const void *rows, uint32_t nrows, size_t stride)
{
    if (f->kind == CLI_SINK_GIF)
        return cn_image_gif_add_frame(f->g, (const uint8_t *)rows, stride, s->err, sizeof s->err);
    switch (cn_image_format_sample(f->format)) {
    case CN_IMAGE_SAMPLE_U16:
        return cn_image_write_u16(f->w, (const uint16_t *)rows, nrows, stride, s->err, sizeof s->err);
    case CN_IMAGE_SAMPLE_F32:
        return cn_image_write_f32(f->w, (const float *)rows, nrows, stride, s->err, sizeof s->err);
    default:
        return cn_image_write_u8(f->w, (const uint8_t *)rows, nrows, stride, s->err, sizeof s->err);
    }
}

int cli_sink_write(cli_sink *s, int k, const void *rows, uint32_t nrows, size_t stride)
{
    return write_to(s, &s->file[k], rows, nrows, stride);
}

int cli_sink_write_file(cli_sink *s, const char *path, cn_image_format format, uint32_t width, uint32_t height,
                        const void *rows, size_t stride)
{
    cli_sink_file f;
    memset(&f, 0, sizeof f);
    f.kind = CLI_SINK_RASTER;
    f.guard = -1;
    f.path = path;
    f.format = format;
    f.width = width;
    f.height = height;
    int r = open_file(s, &f);
    if (r == 0 && write_to(s, &f, rows, height, stride) != 0)
        r = -1;
    if (r == 0)
        return commit_one(&f, s->err, sizeof s->err);
    drop(&f);
    return -1;
}

int cli_sink_close(cli_sink *s, int ok)
{
    cli_progress_end(&s->bar);
    if (ok)
        ok = (s->nfiles == 1 ? commit_one(&s->file[0], s->err, sizeof s->err) : commit_all(s)) == 0;
    for (int k = 0; k < s->nfiles; k++)
        drop(&s->file[k]); /* what failed: removed, the targets untouched */
    if (!ok) {
        cli_error(s->prog, "%s", s->err);
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

void cli_sink_wrote(const cli_sink *s)
{
    if (s->quiet)
        return;
    char shown[CLI_SHOWN_SIZE];
    for (int k = 0; k < s->nfiles; k++)
        printf("wrote %s (%s)\n", cli_shown(s->file[k].path, shown, sizeof shown), s->file[k].about);
}

/* --- the strips ---------------------------------------------------------------------------------- */

int cli_strips_alloc(cli_strips *st, cli_sink *s)
{
    const size_t ring = st->halo ? 2 : 0;
    st->ncols = (size_t)st->width + ring;
    st->rows = cli_strip_rows(st->ncols, st->height);
    /* Both sides are bounded by the size limits, so the product cannot overflow. */
    st->vals = (double *)malloc(st->ncols * ((size_t)st->rows + ring) * sizeof *st->vals);
    st->out = st->out_row ? malloc(st->out_row * (st->out_plane ? st->height : st->rows)) : NULL;
    const size_t gbytes = st->grad ? st->ncols * st->rows * sizeof(double) : 0;
    st->gx = gbytes ? (double *)malloc(gbytes) : NULL;
    st->gy = gbytes ? (double *)malloc(gbytes) : NULL;
    return st->vals && (st->out || !st->out_row) && (!gbytes || (st->gx && st->gy)) ? 0
                                                                                     : cli_sink_fail(s, "out of memory");
}

void cli_strips_free(cli_strips *st)
{
    free(st->vals);
    free(st->out);
    free(st->gx);
    free(st->gy);
    st->vals = NULL;
    st->out = NULL;
    st->gx = st->gy = NULL;
    cli_field_free(&st->field);
}

/* The message of a NaN at column ci, row ri of the strip of rows j0.. of plane k. */
static int nan_found(const cli_strips *st, cli_sink *s, uint32_t k, uint32_t j0, size_t ci, size_t ri)
{
    const long long h = st->halo ? 1 : 0, x = (long long)ci - h, y = (long long)j0 + (long long)ri - h;
    char at[128];
    switch (st->nan_at) {
    case CLI_NAN_FRAME_PIXEL:
        snprintf(at, sizeof at, "at pixel (%lld, %lld) of frame %lu", x, y, (unsigned long)k);
        break;
    case CLI_NAN_VOXEL:
        snprintf(at, sizeof at, "at voxel (%lld, %lld, %lu)", x, y, (unsigned long)k);
        break;
    case CLI_NAN_NEAR_ROW:
        snprintf(at, sizeof at, "near row %lld", y + h);
        break;
    default:
        snprintf(at, sizeof at, "at pixel (%lld, %lld)", x, y);
        break;
    }
    return cli_sink_fail(s, "the noise is NaN %s: coordinates times --frequency overflow", at);
}

int cli_strips_run(cli_strips *st, cli_sink *s)
{
    const uint32_t W = st->width, H = st->height;
    const size_t ring = st->halo ? 2 : 0;
    const double first = st->halo ? -0.5 : 0.5; /* the centre of the first evaluated pixel */
    for (uint32_t k = 0; k < st->planes; k++) {
        if (st->plane_axis) {
            const double t = st->plane0 + (double)k * st->plane_step;
            if (st->plane_axis == 2) {
                st->field.z = t;
                st->field.zf = (double)(float)t;
            } else {
                st->field.w = t;
                st->field.wf = (double)(float)t;
            }
        }
        for (uint32_t j0 = 0; j0 < H; j0 += st->rows) {
            const uint32_t n = H - j0 < st->rows ? H - j0 : st->rows;
            const size_t nr = (size_t)n + ring;
            size_t ci, ri;
            /* whole pixel numbers plus a half: exact, so a chunk placed with --origin evaluates
             * the very coordinates of the same pixels of a larger render */
            const double x0 = st->origin[0] + first, y0 = st->origin[1] + ((double)j0 + first);
            if (st->grad ? cli_field_eval_grad(&st->field, x0, y0, st->ncols, nr, st->vals, st->gx, st->gy, s->err,
                                               sizeof s->err)
                         : cli_field_eval(&st->field, x0, y0, st->ncols, nr, st->vals, s->err, sizeof s->err))
                return -1;
            if (cli_find_nan(st->vals, st->ncols, nr, &ci, &ri) ||
                (st->grad && (cli_find_nan(st->gx, st->ncols, nr, &ci, &ri) ||
                              cli_find_nan(st->gy, st->ncols, nr, &ci, &ri))))
                return nan_found(st, s, k, j0, ci, ri);
            if (st->shape(st->ctx, s, st, k, j0, n) != 0)
                return -1;
            cli_sink_advance(s, (uint64_t)W * n);
        }
        if (st->plane_done && st->plane_done(st->ctx, s, st, k) != 0)
            return -1;
    }
    return 0;
}
