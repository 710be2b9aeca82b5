/* test_golden.c -- classic mode against the published reference code: every golden value must
 * match exactly (max error 0) in double precision; the skew constants must equal their formulas. */
#include <stdlib.h>
#include <string.h>
#include "cnoise.h"
#include "test.h"
#include "../src/core/core.h"

#ifndef CN_GOLDEN_DIR
#error "CN_GOLDEN_DIR must point at the golden CSV files"
#endif

static void check_file(const char *file, cn_noise_type type, int dims)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CN_GOLDEN_DIR, file);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    cn_config cfg;
    cn_noise gen;
    cn_config_init(&cfg);
    cfg.frequency = 1.0; /* the frequency these cases were written for */
    cfg.type = type;
    cfg.dims = dims;
    cfg.mode = CN_MODE_CLASSIC;
    CHECK(cn_noise_build(&gen, &cfg) == CN_OK, "build %s", file);
    char line[512];
    int rows = 0, mismatches = 0;
    double maxerr = 0;
    CHECK(fgets(line, sizeof line, f) != NULL, "header of %s", file);
    while (fgets(line, sizeof line, f)) {
        double v[5];
        char *s = line, *end;
        for (int i = 0; i <= dims; i++) {
            v[i] = strtod(s, &end);
            s = end + 1;
        }
        double got = cn_eval(&gen, v);
        double err = fabs(got - v[dims]);
        if (err > maxerr)
            maxerr = err;
        if (got != v[dims]) {
            if (mismatches++ < 5)
                fprintf(stderr, "%s line %d: got %.17g want %.17g\n", file, rows + 2, got, v[dims]);
        }
        rows++;
    }
    fclose(f);
    CHECK(rows == 1000, "%s has %d rows", file, rows);
    CHECK(mismatches == 0, "%s: %d of %d values differ, max error %.3g", file, mismatches, rows, maxerr);
    printf("%s: %d values, max error %.3g\n", file, rows, maxerr);
}

int main(void)
{
    /* The constants the simplex kernels use are the doubles of their defining formulas. */
    CHECK(CN_F2 == 0.5 * (sqrt(3.0) - 1.0), "F2");
    CHECK(CN_G2 == (3.0 - sqrt(3.0)) / 6.0, "G2");
    CHECK(CN_F4 == (sqrt(5.0) - 1.0) / 4.0, "F4");
    CHECK(CN_G4 == (5.0 - sqrt(5.0)) / 20.0, "G4");
    CHECK(CN_C8 == cos(M_PI / 8), "C8");
    CHECK(CN_S8 == sin(M_PI / 8), "S8");

    check_file("perlin3.csv", CN_NOISE_PERLIN, 3);
    check_file("perlin4.csv", CN_NOISE_PERLIN, 4);
    check_file("simplex2.csv", CN_NOISE_SIMPLEX, 2);
    check_file("simplex3.csv", CN_NOISE_SIMPLEX, 3);
    check_file("simplex4.csv", CN_NOISE_SIMPLEX, 4);

    /* The value quoted in the golden README. */
    cn_config cfg;
    cn_noise gen;
    cn_config_init(&cfg);
    cfg.dims = 3; /* these cases were written for 3D at frequency 1 */
    cfg.frequency = 1.0;
    cfg.mode = CN_MODE_CLASSIC;
    cn_noise_build(&gen, &cfg);
    CHECK(cn_eval3(&gen, 3.14, 42, 7) == 0.13691995878400012, "noise(3.14, 42, 7)");
    return test_summary("test_golden");
}
