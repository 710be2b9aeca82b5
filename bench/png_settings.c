/*
 * png_settings.c -- how the PNG writer's filter and zlib settings were chosen (src/image/image.c):
 * filters a raw image the way PNG does (None, Sub, Up, Average, Paeth, and the "adaptive"
 * heuristic of the PNG specification: per row the filter with the smallest sum of absolute
 * values of the filtered bytes as signed), then deflates it in blocks of the writer's size with
 * zlib at each level and strategy, on one thread, and prints CPU time and size.
 *
 * Build and run (not part of the build; it needs only zlib):
 *     cc -O2 -o /tmp/png_settings bench/png_settings.c -lz
 *     /tmp/png_settings FILE WIDTH HEIGHT KIND [BLOCK_BYTES [FILTERS]]
 * KIND: gray8 (1 byte per pixel), gray16 (2 bytes, little-endian as in a .r16 file; converted to
 * PNG's big-endian), rgb8 (3 bytes). BLOCK_BYTES: filtered bytes per deflate stream (default
 * 262144, the writer's). FILTERS: the filters to try, e.g. "paeth,up" (default: all). The
 * environment variable MEMLEVEL sets deflate's memLevel (default 8, the writer's).
 * Output: one line per filter (its CPU time) and per filter x level x strategy (default,
 * filtered, rle, huffman-only): CPU seconds of deflate, MB/s of filtered input, compressed size
 * and percent of the raw size. CPU time, not wall time: this machine is shared.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Paeth predictor (PNG specification, 9.4): the neighbour closest to a + b - c. */
static unsigned paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (unsigned)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* Row cur (n bytes, bpp bytes per pixel) filtered with type f against prev into out[0..n]. */
static void filter_row(int f, const unsigned char *cur, const unsigned char *prev, size_t n, size_t bpp,
                       unsigned char *out)
{
    out[0] = (unsigned char)f;
    for (size_t i = 0; i < n; i++) {
        int a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
        unsigned pred = f == 1 ? (unsigned)a : f == 2 ? (unsigned)b : f == 3 ? (unsigned)((a + b) / 2)
                      : f == 4 ? paeth(a, b, c) : 0u;
        out[1 + i] = (unsigned char)(cur[i] - pred);
    }
}

static unsigned long sum_abs(const unsigned char *p, size_t n)
{
    unsigned long s = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i] < 128 ? p[i] : 256u - p[i];
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s FILE WIDTH HEIGHT gray8|gray16|rgb8 [BLOCK_BYTES [FILTERS]]\n", argv[0]);
        return 2;
    }
    const size_t W = strtoul(argv[2], NULL, 10), H = strtoul(argv[3], NULL, 10);
    const size_t bpp = !strcmp(argv[4], "gray16") ? 2 : !strcmp(argv[4], "rgb8") ? 3 : 1;
    const size_t block = argc > 5 ? strtoul(argv[5], NULL, 10) : 262144;
    const size_t rb = W * bpp, raw_len = rb * H, filt_len = (rb + 1) * H;
    unsigned char *img = malloc(raw_len), *filt = malloc(filt_len), *tmp = malloc(rb + 1);
    unsigned char *zero = calloc(rb, 1), *z = malloc(compressBound(filt_len) + 64 * (filt_len / block + 1));
    FILE *fp = fopen(argv[1], "rb");
    if (!img || !filt || !tmp || !zero || !z || !fp || fread(img, 1, raw_len, fp) != raw_len) {
        fprintf(stderr, "cannot read %zu bytes from %s\n", raw_len, argv[1]);
        return 1;
    }
    fclose(fp);
    if (bpp == 2) /* .r16 is little-endian; PNG stores 16-bit samples big-endian */
        for (size_t i = 0; i < raw_len; i += 2) {
            unsigned char t = img[i];
            img[i] = img[i + 1];
            img[i + 1] = t;
        }
    static const char *const fname[] = {"none", "sub", "up", "avg", "paeth", "adaptive"};
    static const int strat[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE, Z_HUFFMAN_ONLY};
    static const char *const sname[] = {"default", "filtered", "rle", "huffman"};
    const char *only = argc > 6 ? argv[6] : NULL;
    const int memlevel = getenv("MEMLEVEL") ? atoi(getenv("MEMLEVEL")) : 8;
    const size_t rows_per_block = block / (rb + 1) ? block / (rb + 1) : 1;
    printf("%s: %zux%zu %s, %zu raw bytes, blocks of %zu rows\n", argv[1], W, H, argv[4], raw_len, rows_per_block);
    for (int f = 0; f <= 5; f++) {
        if (only && !strstr(only, fname[f]))
            continue;
        double t0 = now();
        for (size_t y = 0; y < H; y++) {
            const unsigned char *cur = img + y * rb, *prev = y ? cur - rb : zero;
            unsigned char *out = filt + y * (rb + 1);
            if (f < 5) {
                filter_row(f, cur, prev, rb, bpp, out);
            } else {
                unsigned long best = (unsigned long)-1;
                for (int k = 0; k < 5; k++) {
                    filter_row(k, cur, prev, rb, bpp, tmp);
                    unsigned long s = sum_abs(tmp + 1, rb);
                    if (s < best) {
                        best = s;
                        memcpy(out, tmp, rb + 1);
                    }
                }
            }
        }
        double tf = now() - t0;
        printf("filter %-8s %.3f s\n", fname[f], tf);
        for (int level = 1; level <= 6; level++)
            for (int s = 0; s < 4; s++) {
                z_stream zs;
                memset(&zs, 0, sizeof zs);
                if (deflateInit2(&zs, level, Z_DEFLATED, -15, memlevel, strat[s]) != Z_OK)
                    return 1;
                size_t zlen = 0;
                t0 = now();
                for (size_t y = 0; y < H; y += rows_per_block) {
                    size_t n = H - y < rows_per_block ? H - y : rows_per_block;
                    deflateReset(&zs);
                    zs.next_in = filt + y * (rb + 1);
                    zs.avail_in = (uInt)(n * (rb + 1));
                    zs.next_out = z + zlen;
                    zs.avail_out = (uInt)(compressBound(n * (rb + 1)) + 64);
                    int r = deflate(&zs, y + n == H ? Z_FINISH : Z_SYNC_FLUSH);
                    if (r != Z_OK && r != Z_STREAM_END)
                        return 1;
                    zlen = (size_t)(zs.next_out - z);
                }
                double td = now() - t0;
                deflateEnd(&zs);
                printf("  %-8s level %d %-8s %.3f s %6.1f MB/s  %10zu bytes %5.1f %%\n", fname[f], level, sname[s], td,
                       (double)filt_len / td / 1e6, zlen + 6, 100.0 * (double)(zlen + 6) / (double)raw_len);
            }
    }
    return 0;
}
