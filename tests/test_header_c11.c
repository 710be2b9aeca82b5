/* test_header_c11.c -- cnoise.h compiles on its own as strict C11 (-std=c11 -pedantic-errors
 * -Wall -Wextra -Werror; see tests/CMakeLists.txt), with compile-time checks of the ABI constants. */
#include "cnoise.h"
#include <string.h>
#include "test.h"

_Static_assert(CN_OK == 0, "CN_OK is 0");
_Static_assert(CN_NOISE_PERLIN == 0 && CN_NOISE_SIMPLEX == 1 && CN_NOISE_VALUE == 2, "noise type values");
_Static_assert(CN_MODE_DEFAULT == 0 && CN_MODE_CLASSIC == 1, "mode values");
_Static_assert(sizeof(((cn_config *)0)->seed) == 8, "64-bit seed");

#define KIND(x) _Generic((x), double: "double", float: "float", default: "other")

int main(void)
{
    cn_config cfg;
    cn_noise gen;
    cn_config_init(&cfg);
    cfg.type = CN_NOISE_VALUE;
    cfg.dims = 4;
    cfg.seed = UINT64_MAX;
    cfg.frequency = 0.5;
    CHECK(cn_config_check(&cfg) == CN_OK, "check");
    CHECK(cn_noise_build(&gen, &cfg) == CN_OK, "build");
    double v = cn_eval4(&gen, 1.5, -2.25, 3.125, -4.0);
    float vf = cn_eval4f(&gen, 1.5f, -2.25f, 3.125f, -4.0f);
    CHECK(strcmp(KIND(cn_eval4(&gen, 0, 0, 0, 0)), "double") == 0, "cn_eval4 returns double");
    CHECK(strcmp(KIND(cn_eval4f(&gen, 0, 0, 0, 0)), "float") == 0, "cn_eval4f returns float");
    CHECK(v == v && v >= -1.0 && v <= 1.0, "cn_eval4 gives %g", v);
    CHECK(vf == vf && (double)vf - v < 1e-5 && v - (double)vf < 1e-5, "cn_eval4f gives %g, double %g", (double)vf, v);
    cn_noise copy = gen; /* plain data */
    CHECK(cn_eval4(&copy, 1.5, -2.25, 3.125, -4.0) == v, "a copied generator differs");
    cfg.mode = CN_MODE_CLASSIC;
    CHECK(cn_noise_build(&gen, &cfg) == CN_E_UNSUPPORTED, "classic value noise");
    CHECK(cn_eval4(&gen, 0, 0, 0, 0) != cn_eval4(&gen, 0, 0, 0, 0), "a failed build evaluates");
    printf("C11: cnoise %s, value4 = %.17g (float %.9g)\n", cn_version(), v, (double)vf);
    return test_summary("test_header_c11");
}
