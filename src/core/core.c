/* core.c -- tables and seed expansion shared by every kernel build. */
#include "core.h"

const uint8_t cn__perlin_perm[256] = {
    151, 160, 137, 91,  90,  15,  131, 13,  201, 95,  96,  53,  194, 233, 7,   225,
    140, 36,  103, 30,  69,  142, 8,   99,  37,  240, 21,  10,  23,  190, 6,   148,
    247, 120, 234, 75,  0,   26,  197, 62,  94,  252, 219, 203, 117, 35,  11,  32,
    57,  177, 33,  88,  237, 149, 56,  87,  174, 20,  125, 136, 171, 168, 68,  175,
    74,  165, 71,  134, 139, 48,  27,  166, 77,  146, 158, 231, 83,  111, 229, 122,
    60,  211, 133, 230, 220, 105, 92,  41,  55,  46,  245, 40,  244, 102, 143, 54,
    65,  25,  63,  161, 1,   216, 80,  73,  209, 76,  132, 187, 208, 89,  18,  169,
    200, 196, 135, 130, 116, 188, 159, 86,  164, 100, 109, 198, 173, 186, 3,   64,
    52,  217, 226, 250, 124, 123, 5,   202, 38,  147, 118, 126, 255, 82,  85,  212,
    207, 206, 59,  227, 47,  16,  58,  17,  182, 189, 28,  42,  223, 183, 170, 213,
    119, 248, 152, 2,   44,  154, 163, 70,  221, 153, 101, 155, 167, 43,  172, 9,
    129, 22,  39,  253, 19,  98,  108, 110, 79,  113, 224, 232, 178, 185, 112, 104,
    218, 246, 97,  228, 251, 34,  242, 193, 238, 210, 144, 12,  191, 179, 162, 241,
    81,  51,  145, 235, 249, 14,  239, 107, 49,  192, 214, 31,  181, 199, 106, 157,
    184, 84,  204, 176, 115, 121, 50,  45,  127, 4,   150, 254, 138, 236, 205, 93,
    222, 114, 67,  29,  24,  72,  243, 141, 128, 195, 78,  66,  215, 61,  156, 180,
};

/*
 * Classic-mode permutation. Seed 0: Perlin's table. Other seeds: Fisher-Yates over Perlin's table,
 * i = 255..1, j uniform in [0, i] drawn from SplitMix64(seed) by rejection (no modulo bias).
 */
void cn__classic_perm(uint64_t seed, uint8_t perm[256])
{
    uint8_t p[256];
    for (int i = 0; i < 256; i++)
        p[i] = cn__perlin_perm[i];
    if (seed != 0) {
        uint64_t state = seed;
        for (uint32_t i = 255; i >= 1; i--) {
            uint64_t bound = (uint64_t)i + 1;
            /* Largest multiple of bound that fits: reject draws at or above it. */
            uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
            uint64_t r;
            do {
                r = cn__splitmix64(&state);
            } while (r >= limit);
            uint32_t j = (uint32_t)(r % bound);
            uint8_t t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
    }
    for (int i = 0; i < 256; i++)
        perm[i] = p[i];
}

/* Default-mode lattice keys: kx, ky, kz, kw, k0 from three SplitMix64 outputs of the seed. */
void cn__lattice_keys(uint64_t seed, uint32_t key[5])
{
    uint64_t state = seed;
    uint64_t a = cn__splitmix64(&state);
    uint64_t b = cn__splitmix64(&state);
    uint64_t c = cn__splitmix64(&state);
    key[0] = (uint32_t)a;
    key[1] = (uint32_t)(a >> 32);
    key[2] = (uint32_t)b;
    key[3] = (uint32_t)(b >> 32);
    key[4] = (uint32_t)c;
}
