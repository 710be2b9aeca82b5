/* A world of 2 x 2 heightmap chunks of 257 x 257 samples, the way a game streams terrain: each
 * chunk is one call, and neighbouring chunks share their edge samples bit for bit. */
#include <cnoise.h>
#include <stdio.h>
#include <string.h>

#define N 257 /* samples per chunk side: 256 pixels of world, the last sample shared */

int main(void)
{
    cn_config cfg;
    cn_noise terrain; /* opaque, on the stack: no allocation anywhere */
    cn_config_init(&cfg); /* Perlin 2D, frequency 1/64: a lattice cell every 64 pixels */
    cfg.seed = 2026;
    cfg.fractal = CN_FRACTAL_FBM;
    cfg.octaves = 6;
    cfg.amplitude = 0.5; /* heights in [0, 1] */
    cfg.bias = 0.5;
    cn_status st = cn_noise_build(&terrain, &cfg);
    if (st != CN_OK) {
        cn_check why;
        cn_config_explain(&cfg, &why);
        fprintf(stderr, "configuration: %s\n", why.reason);
        return 1;
    }

    static float chunk[2][2][N * N]; /* [cy][cx]: row-major heights */
    for (int cy = 0; cy < 2; cy++)
        for (int cx = 0; cx < 2; cx++) {
            /* Chunk (cx, cy) starts at world pixel (256 cx, 256 cy), one sample per pixel. */
            st = cn_grid2f(&terrain, cx * (N - 1), cy * (N - 1), 1.0, N, N, chunk[cy][cx]);
            if (st != CN_OK) {
                fprintf(stderr, "chunk %d,%d: %s\n", cx, cy, cn_strerror(st));
                return 1;
            }
            printf("chunk %d,%d: height %.4f at its centre\n", cx, cy, chunk[cy][cx][(N / 2) * N + N / 2]);
        }

    /* The last column of a chunk is the first column of its right neighbour, the last row the
     * first row of the one below. Whole pixel coordinates and the power-of-two frequency are
     * exact, so both chunks evaluate the same point: the same bits. */
    int seams = 0;
    for (int cy = 0; cy < 2; cy++)
        for (int i = 0; i < N; i++)
            seams += memcmp(&chunk[cy][0][i * N + N - 1], &chunk[cy][1][i * N], sizeof(float)) != 0;
    for (int cx = 0; cx < 2; cx++)
        seams += memcmp(&chunk[0][cx][(N - 1) * N], &chunk[1][cx][0], N * sizeof(float)) != 0;
    printf("%s\n", seams ? "seams differ" : "seams match");
    return seams != 0;
}
