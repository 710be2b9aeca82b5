/* A program outside the project, built against an installed cnoise (find_package or pkg-config). */
#include <stdio.h>
#include <cnoise.h>

int main(void)
{
    cn_config cfg;
    cn_noise gen;
    cn_config_init(&cfg);
    cfg.mode = CN_MODE_CLASSIC; /* Perlin's ImprovedNoise at his example point */
    cfg.dims = 3;
    cfg.frequency = 1.0;
    if (cn_noise_build(&gen, &cfg) != CN_OK)
        return 1;
    double v = cn_eval3(&gen, 3.14, 42, 7);
    printf("%.17g\n", v);
    return v == 0.13691995878400012 ? 0 : 1;
}
