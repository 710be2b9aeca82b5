/* test_header_c99.c -- cnoise.h compiles on its own as strict C99 (-std=c99 -pedantic-errors
 * -Wall -Wextra -Werror; see tests/CMakeLists.txt) and its quick start works. cnoise.h comes first
 * so that it cannot lean on headers included before it. */
#include "cnoise.h"
#include "cnoise.h" /* include guard */
#include <string.h>
#include "test.h"

int main(void)
{
    cn_config cfg;
    cn_noise gen;
    cn_config_init(&cfg); /* Perlin, 2D, default mode, seed 0, frequency 1/64 */
    CHECK(cfg.type == CN_NOISE_PERLIN && cfg.mode == CN_MODE_DEFAULT && cfg.dims == 2 && cfg.seed == 0 &&
              cfg.frequency == 1.0 / 64,
          "defaults");
    /* The header's quick start. */
    cfg.seed = 1234;
    CHECK(cn_noise_build(&gen, &cfg) == CN_OK, "quick start build");
    {
        static float img[256 * 256];
        CHECK(cn_grid2f(&gen, 0, 0, 1, 256, 256, img) == CN_OK, "quick start cn_grid2f");
        double q = cn_eval2(&gen, 10.0, 20.5);
        CHECK(q == q && q >= -1 && q <= 1 && q != 0, "quick start cn_eval2 gives %g", q);
        CHECK(img[20 * 256 + 10] == cn_eval2f(&gen, 10, 20), "quick start image and cn_eval2f disagree");
    }
    cfg.type = CN_NOISE_SIMPLEX;
    cfg.dims = 2;
    cfg.seed = 1234;
    cn_status st = cn_noise_build(&gen, &cfg);
    CHECK(st == CN_OK, "build: %s", cn_strerror(st));
    double v = cn_eval2(&gen, 0.25, 10.5);
    CHECK(v == v && v >= -1.0 && v <= 1.0, "cn_eval2 gives %g", v);
    double p[2] = {0.25, 10.5};
    CHECK(cn_eval(&gen, p) == v, "cn_eval and cn_eval2 disagree");
    float vf = cn_eval2f(&gen, 0.25f, 10.5f);
    CHECK(vf == vf && vf >= -1.0f && vf <= 1.0f, "cn_eval2f gives %g", (double)vf);
    CHECK(cn_eval3(&gen, 0, 0, 0) != cn_eval3(&gen, 0, 0, 0), "cn_eval3 on a 2D generator is not NaN");
    CHECK(cn_noise_build(&gen, NULL) == CN_E_NULL, "NULL config");
    CHECK(strcmp(cn_version(), CN_VERSION_STRING) == 0, "version %s", cn_version());
    CHECK(cn_strerror(CN_E_OVERFLOW) != NULL, "strerror");
    printf("C99: cnoise %s, simplex2(0.25, 10.5) = %.17g (float %.9g)\n", cn_version(), v, (double)vf);
    return test_summary("test_header_c99");
}
