/* Provisional: replaced by the derived values (docs/RANGE.md). */
#define CN_SCALE_PERLIN2_VALUE 1.0
#define CN_SCALE_PERLIN3_VALUE 1.0
#define CN_SCALE_PERLIN4_VALUE 1.0
#define CN_SCALE_SIMPLEX2_VALUE 1.0
#define CN_SCALE_SIMPLEX3_VALUE 1.0
#define CN_SCALE_SIMPLEX4_VALUE 1.0
