/*
 * image.c -- the raster writers of cn_image.h: PNG (8/16-bit gray, 8-bit RGB) filtered here and
 * deflated (ISA-L's igzip where the build has it, else zlib) on a small pool of threads (the PNG
 * encoder below), RAW 16-bit and float, PFM
 * and NumPy .npy written directly. The file handling (temporary file, checked writes, fsync,
 * rename, cleanup) is outfile.c's, shared with the GIF writer.
 *
 * Byte order: every multi-byte value is encoded explicitly (shifts of the value's bits), so the
 * files are the same on little- and big-endian hosts. PNG stores 16-bit samples big-endian.
 */
#define _POSIX_C_SOURCE 200809L

#include "cn_image.h"
#include "ext.h"
#include "outfile.h"
#include "portable.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>
#if CN_IMAGE_ISAL
#include <isa-l/igzip_lib.h>
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

/* --- the PNG encoder --------------------------------------------------------------------------- */

/*
 * A PNG file is the signature, an IHDR chunk, the image data as one zlib stream cut into IDAT
 * chunks, and IEND (PNG specification, 5 and 11). The zlib stream holds the filtered rows: each
 * row is a filter-type byte followed by the row's bytes less a prediction from its neighbours
 * (9.2): a the byte bpp bytes to the left, b the byte above, c the byte above a; zero outside
 * the image. The encoder cuts the image into blocks of rows and deflates each block as its own
 * raw deflate stream (no shared history), ended by a byte-aligned empty stored block
 * (Z_SYNC_FLUSH) so the streams can be concatenated, the last one with Z_FINISH (its final
 * block). One zlib header (RFC 1950) in front and the Adler-32 of all the filtered bytes behind
 * (adler32_combine of the blocks' sums, in order) make them one valid zlib stream: the way
 * parallel gzip tools join independent blocks. Each block's output becomes one IDAT chunk.
 *
 * Blocks are filtered and deflated on worker threads while the caller goes on (computing the
 * next rows); the caller's thread writes the finished blocks in order. A block is the same bytes
 * whichever thread deflates it, so the file does not depend on the number of threads.
 *
 * The settings, chosen by measurement (bench/png_settings.c; figures in cn_image.h): every row
 * is filtered with Paeth's predictor. Noise leaves the filtered bytes small but rarely repeated,
 * so long matches gain little and the fastest deflaters do as well as the thorough ones:
 *   - 16-bit gray and RGB: ISA-L's igzip at its level 1 (hashed matches, a dynamic Huffman code
 *     per block, its hot loops in assembly for the machine's vector unit) where the build found
 *     it: on a 4096 x 4096 16-bit fBm heightmap 3.4 times faster than zlib below at the same
 *     size (27.06 MB against 27.08 MB), 2 % larger on a heavily clipped one, 1.5 % on an RGB
 *     colour ramp;
 *   - 8-bit gray, and everything without ISA-L: zlib with the Z_RLE strategy, whose only
 *     matches are runs (distance 1), which the filtered bytes of 8-bit noise are full of
 *     (igzip's files were 16 to 20 % larger there). Against level 1..6 with the default or
 *     Z_FILTERED strategy and the other filters, Paeth + Z_RLE was the smallest on gray
 *     heightmaps and 2 to 5 times faster; memLevel 9 (zlib's largest symbol buffer) makes files
 *     0.2 % smaller than the default 8 at the same speed. Z_RLE uses no level's match settings.
 * The zlib header's FLEVEL says "fastest" for both. A block is the same bytes whichever thread
 * deflates it with either deflater, on one machine (igzip picks its code for the processor, so
 * another machine may choose other matches: the decoded image is the same).
 */

#define PNG_BLOCK_BYTES ((size_t)262144) /* filtered bytes per block (at least one row) */
#define PNG_MEM_CAP ((size_t)64 << 20)   /* the blocks in flight: at most this much, or one block */
#define PNG_SLOTS_PER_THREAD 2           /* blocks in flight per worker (8 measured no faster) */
#define PNG_ZLIB_LEVEL 1
#define PNG_ZLIB_MEMLEVEL 9
#define PNG_ZLIB_STRATEGY Z_RLE
#define PNG_IGZIP_LEVEL 1

enum { JOB_FREE, JOB_QUEUED, JOB_BUSY, JOB_DONE };

typedef struct png_job {
    unsigned char *raw;  /* 1 + block_rows rows of row_bytes: the row above the block (zeros above
                            the image), then the block's rows as the caller gave them */
    unsigned char *filt; /* rows * (1 + row_bytes): the filtered rows, deflate's input */
    unsigned char *z;    /* deflate's output, zcap bytes (grown when needed) */
    size_t zcap, zlen;
    uint32_t nrows; /* rows held */
    int last;       /* the image's last block: ends the deflate stream */
    uLong adler;    /* Adler-32 of filt[0 .. nrows * (1 + row_bytes)) */
    int state;      /* JOB_*, under the encoder's mutex when there are workers */
    const char *zerr; /* why deflating failed (a static string), else NULL */
} png_job;

/* What deflates blocks, one per thread that does. */
typedef struct png_deflater {
    int igzip; /* 1: ISA-L's igzip, 0: zlib */
#if CN_IMAGE_ISAL
    struct isal_zstream *s;   /* about 80 KiB: on the heap */
    unsigned char *level_buf; /* igzip's working memory for its level */
#endif
    z_stream zs;
    int ready; /* set up (png_deflater_end has something to free) */
} png_deflater;

typedef struct png_enc {
    size_t row_bytes, bpp; /* bytes of a row and of a pixel, in the file */
    int swap16;            /* 16-bit samples: the caller's host order to big-endian */
    int igzip;             /* deflated by igzip (else zlib) */
    uint32_t block_rows;
    unsigned nthreads;     /* worker threads running; 0: blocks are deflated in the caller's thread */
    unsigned njobs;        /* slots: 1 without workers, PNG_SLOTS_PER_THREAD per worker with them */
    png_job *jobs;
    unsigned fill;         /* the slot being filled (its state JOB_FREE) */
    unsigned oldest;       /* the oldest slot in flight (queued, busy or done, not yet written) */
    unsigned next;         /* the next queued slot a worker takes */
    unsigned inflight;     /* slots submitted and not yet written */
    unsigned prev;         /* the slot submitted last, */
    uint32_t prev_rows;    /* and its rows: its last row is the row above the next block */
    int started;           /* the first block was submitted (the thread count is fixed) */
    int open;              /* the slot `fill` is acquired and takes rows */
    unsigned char *conv;   /* no workers: scratch for run_job (16-bit) */
    uLong adler;           /* Adler-32 of the blocks written so far */
    int header_done;       /* the zlib header went out with the first IDAT */
    png_deflater def;      /* the caller's thread's deflater (no workers) */
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    int sync_ready, stop;
    pthread_t *tid;
} png_enc;

/* out[0] = 4 (Paeth), out[1..n] = cur filtered against prev (n bytes, bpp per pixel): each byte
 * less Paeth's predictor (PNG specification 9.4) of a = the byte bpp to the left, b = the byte
 * above, c = above a: whichever of a, b, c is closest to p = a + b - c, ties in the order a, b,
 * c, with |p - a| = |b - c|, |p - b| = |a - c|, |p - c| = |(b - c) + (a - c)|. In 16-bit
 * arithmetic (|p - c| <= 510), which compilers vectorise eight or more bytes at a time. */
static void filter_paeth(const unsigned char *restrict cur, const unsigned char *restrict prev, size_t n,
                         size_t bpp, unsigned char *restrict out)
{
    size_t i;
    out[0] = 4;
    out++;
    for (i = 0; i < bpp && i < n; i++)
        out[i] = (unsigned char)(cur[i] - prev[i]); /* a = c = 0: the prediction is b */
    for (; i < n; i++) {
        const int16_t a = cur[i - bpp], b = prev[i], c = prev[i - bpp];
        int16_t pa = (int16_t)(b - c), pb = (int16_t)(a - c), pc = (int16_t)(pa + pb);
        pa = pa < 0 ? (int16_t)-pa : pa;
        pb = pb < 0 ? (int16_t)-pb : pb;
        pc = pc < 0 ? (int16_t)-pc : pc;
        const int16_t bc = pb <= pc ? b : c;
        out[i] = (unsigned char)(cur[i] - (pa <= pb && pa <= pc ? a : bc));
    }
}

/* Sets d up, with igzip when asked (and built), else zlib: 0, or -1 when out of memory (d then
 * holds nothing). */
static int png_deflater_init(png_deflater *d, int igzip)
{
    memset(d, 0, sizeof *d);
#if CN_IMAGE_ISAL
    d->igzip = igzip;
    if (igzip) {
        d->s = (struct isal_zstream *)malloc(sizeof *d->s);
        d->level_buf = (unsigned char *)malloc(ISAL_DEF_LVL1_DEFAULT);
        if (!d->s || !d->level_buf) {
            free(d->s);
            free(d->level_buf);
            return -1;
        }
        d->ready = 1;
        return 0;
    }
#else
    (void)igzip;
#endif
    /* a raw deflate stream (no zlib header or trailer: the encoder writes one pair for all) */
    if (deflateInit2(&d->zs, PNG_ZLIB_LEVEL, Z_DEFLATED, -15, PNG_ZLIB_MEMLEVEL, PNG_ZLIB_STRATEGY) != Z_OK)
        return -1;
    d->ready = 1;
    return 0;
}

static void png_deflater_end(png_deflater *d)
{
    if (!d->ready)
        return;
#if CN_IMAGE_ISAL
    free(d->s);
    free(d->level_buf);
#endif
    if (!d->igzip)
        deflateEnd(&d->zs);
    d->ready = 0;
}

/* Room after j->z[j->zlen]: the buffer doubled when full (it holds more than deflate's bound, so
 * this cannot happen, but never overflow). 0, or -1 when out of memory. */
static int png_room(png_job *j)
{
    if (j->zlen < j->zcap)
        return 0;
    unsigned char *nz = j->zcap <= SIZE_MAX / 2 ? (unsigned char *)realloc(j->z, j->zcap * 2) : NULL;
    if (!nz)
        return -1;
    j->z = nz;
    j->zcap *= 2;
    return 0;
}

#define PNG_PIECE ((size_t)1 << 30) /* bytes in or out per deflate call: the counts are 32-bit */

#if CN_IMAGE_ISAL
/* png_deflate with igzip: stream s, level_buf its working memory. */
static const char *png_igzip(struct isal_zstream *s, unsigned char *level_buf, png_job *j, const unsigned char *in,
                             size_t n)
{
    isal_deflate_init(s);
    s->level = PNG_IGZIP_LEVEL;
    s->level_buf = level_buf;
    s->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    s->avail_in = 0;
    for (;;) {
        if (s->avail_in == 0 && n) {
            const size_t c = n < PNG_PIECE ? n : PNG_PIECE;
            s->next_in = (uint8_t *)(uintptr_t)in; /* igzip's next_in is not const */
            s->avail_in = (uint32_t)c;
            in += c;
            n -= c;
        }
        if (!n) { /* all of it handed over: finish the block */
            s->end_of_stream = (uint16_t)(j->last != 0);
            s->flush = j->last ? NO_FLUSH : SYNC_FLUSH;
        }
        if (png_room(j) != 0)
            return "igzip: out of memory";
        const size_t room = j->zcap - j->zlen < PNG_PIECE ? j->zcap - j->zlen : PNG_PIECE;
        const uint32_t had = s->avail_in;
        s->next_out = j->z + j->zlen;
        s->avail_out = (uint32_t)room;
        if (isal_deflate(s) != COMP_OK)
            return "igzip: deflate failed";
        j->zlen += room - s->avail_out;
        if (!n && s->avail_in == 0 &&
            (j->last ? s->internal_state.state == ZSTATE_END
                     : s->avail_out != 0 || s->internal_state.state == ZSTATE_NEW_HDR))
            return NULL; /* everything is out (for a sync flush: igzip's documented test) */
        if (s->avail_in == had && s->avail_out == room)
            return "igzip: no progress"; /* never loop for ever */
    }
}
#endif

/*
 * Deflates in[0..n) into j->z (j->zlen bytes) as a raw deflate stream of its own (no history
 * from other blocks) ending on a byte boundary: with an empty stored block (a sync flush) or,
 * for the image's last block (j->last), with the final block. NULL, or why it failed.
 */
static const char *png_deflate(png_deflater *d, png_job *j, const unsigned char *in, size_t n)
{
    j->zlen = 0;
#if CN_IMAGE_ISAL
    if (d->igzip)
        return png_igzip(d->s, d->level_buf, j, in, n);
#endif
    z_stream *zs = &d->zs;
    const int flush = j->last ? Z_FINISH : Z_SYNC_FLUSH;
    int rc = deflateReset(zs);
    zs->avail_in = 0;
    while (rc == Z_OK) {
        if (zs->avail_in == 0 && n) {
            const size_t c = n < PNG_PIECE ? n : PNG_PIECE;
            zs->next_in = (Bytef *)(uintptr_t)in; /* zlib's next_in is not const */
            zs->avail_in = (uInt)c;
            in += c;
            n -= c;
        }
        if (png_room(j) != 0)
            return "zlib: out of memory";
        const size_t room = j->zcap - j->zlen < PNG_PIECE ? j->zcap - j->zlen : PNG_PIECE;
        zs->next_out = j->z + j->zlen;
        zs->avail_out = (uInt)room;
        const int f = n ? Z_NO_FLUSH : flush;
        rc = deflate(zs, f);
        j->zlen += room - zs->avail_out;
        if (rc == Z_STREAM_END)
            return NULL;
        if (rc == Z_BUF_ERROR) /* no progress with room to spare would loop for ever */
            rc = zs->avail_out ? Z_STREAM_ERROR : Z_OK;
        if (rc == Z_OK && f == Z_SYNC_FLUSH && zs->avail_in == 0 && zs->avail_out != 0)
            return NULL; /* everything is out, up to the byte-aligned empty stored block */
    }
    return rc == Z_MEM_ERROR ? "zlib: out of memory" : rc == Z_STREAM_ERROR ? "zlib: stream error" : "zlib: deflate failed";
}

/* 16-bit samples from host order to big-endian (n bytes). */
static void to_be16(unsigned char *restrict dst, const unsigned char *restrict src, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        uint16_t v;
        memcpy(&v, src + i, 2);
        dst[i] = (unsigned char)(v >> 8);
        dst[i + 1] = (unsigned char)(v & 0xffu);
    }
}

/* Filters and deflates job j with d; conv is scratch for two rows. Sets j->zerr (NULL, or why
 * deflating failed). */
static void run_job(const png_enc *e, png_job *j, png_deflater *d, unsigned char *conv)
{
    const size_t rb = e->row_bytes, fb = rb + 1;
    const unsigned char *prev = j->raw;
    if (e->swap16) { /* conv: the row above and the current row, big-endian, alternating */
        to_be16(conv, j->raw, rb);
        prev = conv;
    }
    for (uint32_t r = 0; r < j->nrows; r++) {
        const unsigned char *cur = j->raw + (size_t)(r + 1) * rb;
        if (e->swap16) {
            unsigned char *c = conv + (size_t)((r + 1) & 1) * rb;
            to_be16(c, cur, rb);
            cur = c;
        }
        filter_paeth(cur, prev, rb, e->bpp, j->filt + (size_t)r * fb);
        prev = cur;
    }
    size_t left = (size_t)j->nrows * fb;
    const unsigned char *in = j->filt;
    j->adler = adler32_z(adler32(0L, Z_NULL, 0), in, left);
    j->zerr = png_deflate(d, j, in, left);
}

/* A worker: takes the queued blocks in order, filters and deflates them. */
static void *png_worker(void *arg)
{
    png_enc *e = (png_enc *)arg;
    png_deflater d;
    const int zok = png_deflater_init(&d, e->igzip) == 0;
    unsigned char *conv = e->swap16 ? (unsigned char *)malloc(2 * e->row_bytes) : NULL;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->stop && e->jobs[e->next].state != JOB_QUEUED)
            pthread_cond_wait(&e->work, &e->mu);
        if (e->stop)
            break;
        png_job *j = &e->jobs[e->next];
        e->next = (e->next + 1) % e->njobs;
        j->state = JOB_BUSY;
        pthread_mutex_unlock(&e->mu);
        if (!zok || (e->swap16 && !conv))
            j->zerr = "out of memory";
        else
            run_job(e, j, &d, conv);
        pthread_mutex_lock(&e->mu);
        j->state = JOB_DONE;
        pthread_cond_broadcast(&e->done);
    }
    pthread_mutex_unlock(&e->mu);
    png_deflater_end(&d);
    free(conv);
    return NULL;
}

/* Stops and joins the workers. */
static void png_stop(png_enc *e)
{
    if (!e->nthreads)
        return;
    pthread_mutex_lock(&e->mu);
    e->stop = 1;
    pthread_cond_broadcast(&e->work);
    pthread_mutex_unlock(&e->mu);
    for (unsigned t = 0; t < e->nthreads; t++)
        pthread_join(e->tid[t], NULL);
    e->nthreads = 0;
}

static void png_free_jobs(png_enc *e)
{
    for (unsigned k = 0; e->jobs && k < e->njobs; k++) {
        free(e->jobs[k].raw);
        free(e->jobs[k].filt);
        free(e->jobs[k].z);
    }
    free(e->jobs);
    e->jobs = NULL;
}

static void png_enc_free(png_enc *e)
{
    if (!e)
        return;
    png_stop(e);
    if (e->sync_ready) {
        pthread_mutex_destroy(&e->mu);
        pthread_cond_destroy(&e->work);
        pthread_cond_destroy(&e->done);
    }
    free(e->tid);
    free(e->conv);
    png_free_jobs(e);
    png_deflater_end(&e->def);
    free(e);
}

/* A piece of a chunk's data. */
typedef struct png_piece {
    const unsigned char *p;
    size_t n;
} png_piece;

#define PNG_CHUNK_MAX ((size_t)1 << 30) /* data bytes per chunk; the format allows 2^31 - 1 */

/* Writes chunks of `type` holding pieces pc[0..np) in order: one chunk, or several when the data
 * is longer than PNG_CHUNK_MAX (IDAT only). Each is its length (big-endian), its type, its data
 * and the CRC-32 of type and data. 0, or -1 with o->msg set. */
static int png_chunks(cn__outfile *o, const char *type, const png_piece *pc, int np)
{
    size_t total = 0, at = 0; /* at: bytes of pc[k] already written */
    int k = 0;
    for (int i = 0; i < np; i++)
        total += pc[i].n;
    do {
        const size_t len = total < PNG_CHUNK_MAX ? total : PNG_CHUNK_MAX;
        unsigned char hdr[8], tail[4];
        for (int b = 0; b < 4; b++)
            hdr[b] = (unsigned char)(len >> (24 - 8 * b));
        memcpy(hdr + 4, type, 4);
        uLong crc = crc32_z(crc32(0L, Z_NULL, 0), hdr + 4, 4);
        if (cn__out_write(o, hdr, 8) != 0)
            return -1;
        for (size_t left = len; left;) {
            while (at == pc[k].n) {
                k++;
                at = 0;
            }
            const size_t n = pc[k].n - at < left ? pc[k].n - at : left;
            crc = crc32_z(crc, pc[k].p + at, n);
            if (cn__out_write(o, pc[k].p + at, n) != 0)
                return -1;
            at += n;
            left -= n;
        }
        for (int b = 0; b < 4; b++)
            tail[b] = (unsigned char)(crc >> (24 - 8 * b));
        if (cn__out_write(o, tail, 4) != 0)
            return -1;
        total -= len;
    } while (total);
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
    png_enc *png;      /* the PNG formats' encoder */
    cn__ext *ext;      /* EXR, TIFF: the library-backed writer (ext.h) */
    cn__outfile out;   /* last: holds the output buffer */
};

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

/* Releases everything; removes the temporary file unless it was renamed into place. */
static void destroy(cn_image_writer *w)
{
    if (!w)
        return;
    png_enc_free(w->png);
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

/* --- the PNG encoder in the writer ----------------------------------------------------------- */

/* The encoder of a w x h PNG of `format`, blocks deflated in the caller's thread; NULL when out
 * of memory. */
static png_enc *png_enc_new(cn_image_format format, uint32_t width, uint32_t height)
{
    png_enc *e = (png_enc *)calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->bpp = (size_t)formats[format].channels * formats[format].bytes;
    e->row_bytes = (size_t)width * e->bpp;
    e->swap16 = format == CN_IMAGE_PNG16;
    e->igzip = CN_IMAGE_ISAL && format != CN_IMAGE_PNG8; /* see the top of the encoder */
    const size_t per = PNG_BLOCK_BYTES / (e->row_bytes + 1);
    e->block_rows = per < 1 ? 1 : per < height ? (uint32_t)per : height;
    e->njobs = 1;
    e->adler = adler32(0L, Z_NULL, 0);
    e->jobs = (png_job *)calloc(1, sizeof *e->jobs);
    if (!e->jobs) {
        free(e);
        return NULL;
    }
    return e;
}

/* Bytes one job holds: the rows and the row above, the filtered rows, deflate's output. */
static size_t png_job_bytes(const png_enc *e)
{
    const size_t in = (size_t)e->block_rows * (e->row_bytes + 1);
    return ((size_t)e->block_rows + 1) * e->row_bytes + in + (size_t)compressBound((uLong)in) + 64;
}

/* Sets the state of job j (under the mutex when there are workers, which read it). */
static void png_set_state(png_enc *e, png_job *j, int state)
{
    if (e->nthreads) {
        pthread_mutex_lock(&e->mu);
        j->state = state;
        if (state == JOB_QUEUED)
            pthread_cond_signal(&e->work);
        pthread_mutex_unlock(&e->mu);
    } else {
        j->state = state;
    }
}

/* Writes the oldest block in flight (waiting for it when wait is set; otherwise only when it is
 * done): its IDAT chunk, the zlib header in front of the first, the Adler-32 after the last.
 * Returns 1 when a block was written, 0 when none was ready, -1 on failure (message set). */
static int png_retire(cn_image_writer *w, int wait)
{
    png_enc *e = w->png;
    if (!e->inflight)
        return 0;
    png_job *j = &e->jobs[e->oldest];
    if (e->nthreads) {
        pthread_mutex_lock(&e->mu);
        while (wait && j->state != JOB_DONE)
            pthread_cond_wait(&e->done, &e->mu);
        const int ready = j->state == JOB_DONE;
        pthread_mutex_unlock(&e->mu);
        if (!ready)
            return 0;
    }
    if (j->zerr) {
        cn__out_msg(&w->out, "cannot write '%s': %s", w->out.path, j->zerr);
        return -1;
    }
    /* RFC 1950: CMF 0x78 (deflate, 32 KiB window); FLG with FLEVEL 0 (the fastest algorithm)
     * and FCHECK making CMF * 256 + FLG a multiple of 31 (0x7801 = 31 * 991). */
    static const unsigned char zhead[2] = {0x78, 0x01};
    unsigned char ztail[4];
    const size_t in_len = (size_t)j->nrows * (e->row_bytes + 1);
    e->adler = adler32_combine(e->adler, j->adler, (z_off_t)in_len);
    for (int b = 0; b < 4; b++)
        ztail[b] = (unsigned char)(e->adler >> (24 - 8 * b));
    const png_piece pc[3] = {{zhead, e->header_done ? 0 : 2}, {j->z, j->zlen}, {ztail, j->last ? 4 : 0}};
    if (png_chunks(&w->out, "IDAT", pc, 3) != 0)
        return -1;
    e->header_done = 1;
    j->nrows = 0;
    png_set_state(e, j, JOB_FREE);
    e->oldest = (e->oldest + 1) % e->njobs;
    e->inflight--;
    return 1;
}

/* Makes the slot being filled ready for its first row: written out if still in flight, its
 * buffers allocated, the row above the block in its first row. 0, or -1 (message set). */
static int png_acquire(cn_image_writer *w)
{
    png_enc *e = w->png;
    png_job *j = &e->jobs[e->fill];
    while (e->inflight && e->oldest == e->fill)
        if (png_retire(w, 1) < 0)
            return -1;
    const size_t rb = e->row_bytes, in = (size_t)e->block_rows * (rb + 1);
    if (!j->raw) {
        j->raw = (unsigned char *)malloc(((size_t)e->block_rows + 1) * rb);
        j->filt = (unsigned char *)malloc(in);
        j->zcap = (size_t)compressBound((uLong)in) + 64; /* + the sync flush's empty stored block */
        j->z = (unsigned char *)malloc(j->zcap);
        if (!j->raw || !j->filt || !j->z) {
            cn__out_msg(&w->out, "cannot write '%s': out of memory", w->out.path);
            return -1;
        }
    }
    if (!e->started)
        memset(j->raw, 0, rb); /* above the image: zeros (PNG specification 9.2) */
    else if (&e->jobs[e->prev] == j)
        memmove(j->raw, j->raw + (size_t)e->prev_rows * rb, rb);
    else
        memcpy(j->raw, e->jobs[e->prev].raw + (size_t)e->prev_rows * rb, rb);
    return 0;
}

/* Hands the filled slot over: to a worker, or deflates it here and writes it. 0 or -1. */
static int png_submit(cn_image_writer *w)
{
    png_enc *e = w->png;
    png_job *j = &e->jobs[e->fill];
    j->last = w->rows_done == w->rows_total;
    e->prev = e->fill;
    e->prev_rows = j->nrows;
    e->started = 1;
    e->open = 0;
    e->inflight++;
    e->fill = (e->fill + 1) % e->njobs;
    if (e->nthreads) {
        png_set_state(e, j, JOB_QUEUED);
        int r;
        while ((r = png_retire(w, 0)) > 0) /* what is done already goes out now */
            ;
        return r;
    }
    if (!e->def.ready && png_deflater_init(&e->def, e->igzip) != 0) {
        cn__out_msg(&w->out, "cannot write '%s': out of memory (deflater)", w->out.path);
        return -1;
    }
    if (e->swap16 && !e->conv && !(e->conv = (unsigned char *)malloc(2 * e->row_bytes))) {
        cn__out_msg(&w->out, "cannot write '%s': out of memory", w->out.path);
        return -1;
    }
    run_job(e, j, &e->def, e->conv);
    j->state = JOB_DONE;
    return png_retire(w, 1) < 0 ? -1 : 0;
}

/* PNG rows from the caller's buffer: copied into blocks, each handed over when full. */
static int png_rows(cn_image_writer *w, const unsigned char *rows, uint32_t nrows, size_t stride_bytes,
                    char *err, size_t errlen)
{
    png_enc *e = w->png;
    const size_t rb = e->row_bytes;
    for (uint32_t r = 0; r < nrows; r++) {
        if (!e->open) {
            if (png_acquire(w) != 0)
                return fail(w, err, errlen);
            e->open = 1;
        }
        png_job *j = &e->jobs[e->fill];
        memcpy(j->raw + (size_t)(1 + j->nrows) * rb, rows + (size_t)r * stride_bytes, rb);
        j->nrows++;
        w->rows_done++;
        if ((j->nrows == e->block_rows || w->rows_done == w->rows_total) && png_submit(w) != 0)
            return fail(w, err, errlen);
    }
    return 0;
}

/* Signature and IHDR (PNG specification 5.2, 11.2.2). 0 or -1. */
static int png_head(cn_image_writer *w)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char ihdr[13];
    for (int b = 0; b < 4; b++) {
        ihdr[b] = (unsigned char)(w->width >> (24 - 8 * b));
        ihdr[4 + b] = (unsigned char)(w->height >> (24 - 8 * b));
    }
    ihdr[8] = w->format == CN_IMAGE_PNG16 ? 16 : 8;    /* bit depth */
    ihdr[9] = w->format == CN_IMAGE_PNG_RGB ? 2 : 0;   /* colour type: truecolour or greyscale */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;                /* deflate, adaptive filtering, no interlace */
    const png_piece pc = {ihdr, sizeof ihdr};
    if (cn__out_write(&w->out, sig, sizeof sig) != 0 || png_chunks(&w->out, "IHDR", &pc, 1) != 0)
        return -1;
    return 0;
}

/* After the last row: the blocks still in flight, then IEND; the workers stopped. 0 or -1. */
static int png_end(cn_image_writer *w)
{
    int r;
    while ((r = png_retire(w, 1)) > 0)
        ;
    png_enc_free(w->png);
    w->png = NULL;
    const png_piece none = {NULL, 0};
    return r < 0 || png_chunks(&w->out, "IEND", &none, 1) != 0 ? -1 : 0;
}

int cn_image_set_threads(cn_image_writer *w, unsigned threads, char *err, size_t errlen)
{
    if (!w) {
        cn__put_err(err, errlen, "no image writer");
        return -1;
    }
    if (w->failed)
        return fail(w, err, errlen);
    if (!w->png)
        return 0; /* only the PNG formats use threads */
    png_enc *e = w->png;
    if (e->started || e->open) {
        cn__out_msg(&w->out, "cannot write '%s': the threads are set before the first row", w->out.path);
        return fail(w, err, errlen);
    }
    if (threads == 0) {
        long n = cn__online_cpus();
        threads = (unsigned long)n > CN_IMAGE_MAX_THREADS ? CN_IMAGE_MAX_THREADS : (unsigned)n;
    }
    if (threads > CN_IMAGE_MAX_THREADS)
        threads = CN_IMAGE_MAX_THREADS;
    /* No more workers than blocks, and the slots (two per worker) within PNG_MEM_CAP. */
    const uint64_t blocks = (w->height + (uint64_t)e->block_rows - 1) / e->block_rows;
    if (threads > blocks)
        threads = (unsigned)blocks;
    const size_t per = PNG_MEM_CAP / (PNG_SLOTS_PER_THREAD * png_job_bytes(e));
    if (threads > per)
        threads = per < 1 ? 1u : (unsigned)per;
    png_stop(e);
    png_free_jobs(e);
    free(e->tid);
    e->tid = NULL;
    e->njobs = threads > 1 ? PNG_SLOTS_PER_THREAD * threads : 1;
    e->fill = e->oldest = e->next = 0;
    e->jobs = (png_job *)calloc(e->njobs, sizeof *e->jobs);
    e->tid = threads > 1 ? (pthread_t *)calloc(threads, sizeof *e->tid) : NULL;
    if (!e->jobs || (threads > 1 && !e->tid)) {
        cn__out_msg(&w->out, "cannot write '%s': out of memory", w->out.path);
        return fail(w, err, errlen);
    }
    if (threads < 2)
        return 0;
    if (!e->sync_ready) {
        if (pthread_mutex_init(&e->mu, NULL) != 0)
            return 0; /* no workers: the blocks are deflated in the caller's thread */
        if (pthread_cond_init(&e->work, NULL) != 0) {
            pthread_mutex_destroy(&e->mu);
            return 0;
        }
        if (pthread_cond_init(&e->done, NULL) != 0) {
            pthread_cond_destroy(&e->work);
            pthread_mutex_destroy(&e->mu);
            return 0;
        }
        e->sync_ready = 1;
    }
    e->stop = 0;
    /* The workers start with every signal blocked, so that a signal reaches only the caller's
     * threads, and one the caller blocks (around a commit, say) waits for it (POSIX; Windows has
     * no signal masks: its console handler runs on a thread of its own, cli/guard.c). */
#ifndef _WIN32
    sigset_t all, old;
    sigfillset(&all);
    const int masked = pthread_sigmask(SIG_SETMASK, &all, &old) == 0;
#endif
    for (unsigned t = 0; t < threads; t++) {
        if (pthread_create(&e->tid[t], NULL, png_worker, e) != 0)
            break; /* as many as the system gives; none: the caller's thread */
        e->nthreads++;
    }
#ifndef _WIN32
    if (masked)
        pthread_sigmask(SIG_SETMASK, &old, NULL);
#endif
    if (!e->nthreads)
        e->njobs = 1; /* the slots beyond the first stay unused */
    return 0;
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
        w->png = png_enc_new(format, width, height);
        if (!w->png) {
            destroy(w);
            cn__put_err(err, errlen, "cannot write '%s': out of memory", path);
            return -1;
        }
        if (png_head(w) != 0)
            goto failed;
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
    if (w->png && png_end(w) != 0) /* the blocks in flight, IEND */
        goto failed;
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
