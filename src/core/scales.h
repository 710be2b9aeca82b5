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
