// test_header_cpp.cpp -- cnoise.h compiles on its own as strict C++11 (-std=c++11 -pedantic-errors
// -Wall -Wextra -Werror; see tests/CMakeLists.txt), links against the C library (extern "C") and
// works from C++.
#include "cnoise.h"
#include <cstring>
#include <type_traits>
#include "test.h"

static_assert(CN_OK == 0, "CN_OK is 0");
static_assert(std::is_same<decltype(cn_eval3f(nullptr, 0, 0, 0)), float>::value, "cn_eval3f returns float");
static_assert(std::is_same<decltype(cn_eval(nullptr, nullptr)), double>::value, "cn_eval returns double");
static_assert(std::is_trivially_copyable<cn_noise>::value, "cn_noise is plain data");

namespace {
double noise3(const cn_noise &g, double x, double y, double z) { return cn_eval3(&g, x, y, z); }
}

int main()
{
    cn_config cfg;
    cn_config_init(&cfg);
    cfg.dims = 3; /* these cases were written for 3D at frequency 1 */
    cfg.frequency = 1.0;
    cfg.mode = CN_MODE_CLASSIC; // Perlin's ImprovedNoise, seed 0
    cn_noise gen;
    cn_status st = cn_noise_build(&gen, &cfg);
    CHECK(st == CN_OK, "build: %s", cn_strerror(st));
    // The value quoted for the reference implementation (see tests/test_golden.c).
    double v = noise3(gen, 3.14, 42, 7);
    CHECK(v == 0.13691995878400012, "classic noise(3.14, 42, 7) = %.17g", v);
    const double p[3] = {3.14, 42, 7};
    CHECK(cn_eval(&gen, p) == v, "cn_eval and cn_eval3 disagree");
    float vf = cn_eval3f(&gen, 3.14f, 42.0f, 7.0f);
    CHECK(vf == vf, "cn_eval3f gives NaN");
    CHECK(cn_eval2(&gen, 0.5, 0.5) != cn_eval2(&gen, 0.5, 0.5), "cn_eval2 on a 3D generator is not NaN");
    CHECK(cn_eval1(nullptr, 0.5) != cn_eval1(nullptr, 0.5), "NULL generator is not NaN");
    cfg.type = CN_NOISE_SIMPLEX;
    cfg.dims = 1;
    CHECK(cn_config_check(&cfg) == CN_E_UNSUPPORTED, "simplex 1D");
    CHECK(std::strcmp(cn_version(), CN_VERSION_STRING) == 0, "version %s", cn_version());
    printf("C++11: cnoise %s, classic noise(3.14, 42, 7) = %.17g (float %.9g)\n", cn_version(), v, (double)vf);
    return test_summary("test_header_cpp");
}
