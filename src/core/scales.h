/*
 * Default-mode scale constants, 1 / M with M the supremum of the unscaled kernel over all gradient
 * assignments (docs/RANGE.md derives them; tests/test_range.c recomputes M and guards them).
 */
#define CN_SCALE_PERLIN2_VALUE 1.5132795103976071
#define CN_SCALE_PERLIN3_VALUE 0.96492142855219043
#define CN_SCALE_PERLIN4_VALUE (1.0 / 1.2) /* practical bound, not 1/M: docs/RANGE.md */
#define CN_SCALE_SIMPLEX2_VALUE 100.0401006771915
#define CN_SCALE_SIMPLEX3_VALUE 76.880750031819858
#define CN_SCALE_SIMPLEX4_VALUE 62.777707157436737

/* Simplex on the tiling lattice (any period set): F = 1/D, G = 1/(2D); radius^2 0.4 in 2D, 0.5
 * in 3D and 4D. 3D is Gustavson's lattice with the same gradients, so the same constant. Classic
 * 2D uses Gustavson's 12 gradients (projected cube edges), hence a constant of its own; classic
 * 3D/4D use the same gradient sets as default mode. */
#define CN_SCALE_SIMPLEX2_TILED 261.69610221110537
#define CN_SCALE_SIMPLEX3_TILED CN_SCALE_SIMPLEX3_VALUE
#define CN_SCALE_SIMPLEX4_TILED 62.777742978126653
#define CN_SCALE_SIMPLEX2_TILED_CLASSIC 174.85144457345794

/* OpenSimplex2: 2D on Gustavson's lattice and on the tiling lattice (radius^2 0.5 and 0.4) with
 * the 12 gradients at 15 + 30k degrees; 3D on the rotated BCC lattice, radius^2 0.5, the 12
 * cube edges (src/kernels/opensimplex.inc): congruent with 3D simplex's lattice, kernel and
 * gradient set, so its supremum is simplex 3D's. */
#define CN_SCALE_OS2_2 99.2043345827
#define CN_SCALE_OS2_2_TILED 247.2772843163
#define CN_SCALE_OS2_3 CN_SCALE_SIMPLEX3_VALUE /* the same lattice in its own frame, radius, gradients */
/* 4D: simplex 4D's lattices (radius^2 0.5) with the 30 gradients of KN(grad4o). */
#define CN_SCALE_OS2_4 108.7342404226
#define CN_SCALE_OS2_4_TILED 108.7342404226
/* OpenSimplex2S: the same lattices and gradients with radius^2 2/3 (2D), 1/2 (2D tiling lattice)
 * and 3/4 (3D). */
#define CN_SCALE_OS2S_2 18.1223734038
#define CN_SCALE_OS2S_2_TILED 71.5138117467
#define CN_SCALE_OS2S_3 9.0460263852
/* 4D: simplex 4D's lattices, radius^2 2/3 on both, OpenSimplex2 4D's gradients. */
#define CN_SCALE_OS2S_4 29.7588954961
#define CN_SCALE_OS2S_4_TILED 29.7792814718

/* Cubic value noise: (4/5)^D, against the bound (5/4)^D of the Catmull-Rom weights (docs/RANGE.md). */
#define CN_SCALE_VALUE_CUBIC1 0.8
#define CN_SCALE_VALUE_CUBIC2 0.64
#define CN_SCALE_VALUE_CUBIC3 0.512
#define CN_SCALE_VALUE_CUBIC4 0.4096
