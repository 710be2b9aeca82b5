/*
 * test_opencl.c -- the OpenCL backend (cn_opencl_*) against the scalar CPU build, bit for bit.
 *
 * Every kernel of the registry (noise type x mode x dimension) with every fractal, over a grid and
 * a float point array, in float: the device's results and range must be the scalar batch call's
 * bits. Some configurations also get a period, a rotation, a signal transform or coordinates far
 * out (the kernels' unbounded paths), and one grid spans two launches. Double: a few kernels.
 * Argument checks and the statuses of a missing device are tested too.
 *
 *   test_opencl           needs an OpenCL runtime with a device with cl_khr_fp64 (PoCL in CI);
 *                         without one it says why and exits 77 (skipped)
 *   test_opencl --none    run where no device can be found (ctest sets OCL_ICD_VENDORS to an
 *                         empty folder): every call must report CN_E_DEVICE cleanly
 */
#include <cnoise.h>
#include "test.h"

static uint32_t rng = 12345u;
static float frand(float lo, float hi)
{
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng >> 8) * (1.0f / 16777216.0f);
}

/* Bits of n floats (or doubles) equal, NaN payloads included; says where the first differs. */
static int same_bits(const void *a, const void *b, size_t n, size_t size, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp((const char *)a + i * size, (const char *)b + i * size, size) != 0) {
            double x = size == 4 ? ((const float *)a)[i] : ((const double *)a)[i];
            double y = size == 4 ? ((const float *)b)[i] : ((const double *)b)[i];
            fprintf(stderr, "%s: element %zu: device %.17g, CPU %.17g\n", what, i, x, y);
            return 0;
        }
    return 1;
}

/* The configuration variants: 0 plain, 1 periodic, 2 rotated with a signal transform, 3 far out. */
static int configure(cn_config *c, int type, int mode, int dims, int fractal, int variant, uint64_t seed)
{
    cn_config_init(c);
    c->type = (cn_noise_type)type;
    c->mode = (cn_mode)mode;
    c->dims = dims;
    c->seed = seed;
    c->fractal = (cn_fractal)fractal;
    c->octaves = 3;
    c->frequency = 0.09;
    /* cellular: a distance, return and jitter that change with the seed */
    c->cell_distance = (cn_cell_distance)(seed % 5);
    c->cell_return = (cn_cell_return)(seed / 5 % 7);
    c->minkowski_p = 1.0 + (double)(seed % 7) * 1.75;
    if (c->cell_return == CN_CELL_EDGE) /* Euclidean only */
        c->cell_distance = CN_CELL_EUCLIDEAN;
    c->jitter = seed % 3 ? 1.0 : 0.45;
    c->weighted_strength = seed % 4 == 1 ? 0.5 : 0.0;
    c->pingpong_strength = 1.0 + (double)(seed % 5);
    if (variant == 1) {
        for (int a = 0; a < dims; a++)
            c->period[a] = 12; /* a multiple of 2, 3 and 4: every simplex rule */
    } else if (variant == 2) {
        if (dims == 2)
            cn_config_rotate2(c, 0.7);
        else if (dims == 3)
            cn_config_rotate3(c, 1, 2, 3, 0.9);
        c->offset[0] = 0.25;
        c->amplitude = 0.5;
        c->bias = 0.25;
    }
    return cn_config_check(c) == CN_OK;
}

static cn_opencl *cl;
static int kernels_seen;

/* One configuration: a grid and a point array in float, device against the scalar CPU build. */
static void compare(const cn_config *cfg, int variant, const char *what)
{
    static cn_noise gen;
    cn_status st = cn_noise_build(&gen, cfg);
    CHECK(st == CN_OK, "%s: build: %s", what, cn_strerror(st));
    if (st != CN_OK)
        return;
    const int dims = cfg->dims;
    const size_t counts[4][4] = {{300}, {23, 17}, {11, 9, 7}, {7, 5, 4, 3}};
    const size_t *count = counts[dims - 1];
    size_t total = 1;
    for (int a = 0; a < dims; a++)
        total *= count[a];
    const double far = variant == 3 ? 3.0e9 : 0.0; /* past 2^31 cells: the unbounded paths */
    const double origin[4] = {-13.5 + far, 7.25 - far, -2.0, 0.5}, step[4] = {0.73, 1.1, 0.9, 1.7};
    float *dev = test_xmalloc(total * sizeof *dev), *cpu = test_xmalloc(total * sizeof *cpu);
    float rd[2] = {0, 0}, rc[2] = {1, 1};
    st = cn_opencl_grid_evalf(cl, &gen, origin, step, count, dev, total, rd);
    CHECK(st == CN_OK, "%s: cn_opencl_grid_evalf: %s (%s)", what, cn_strerror(st), cn_opencl_message(cl));
    cn_status sc = cn_grid_evalf(&gen, origin, step, count, cpu, total, 1, rc);
    CHECK(sc == CN_OK, "%s: cn_grid_evalf: %s", what, cn_strerror(sc));
    if (st == CN_OK && sc == CN_OK) {
        CHECK(same_bits(dev, cpu, total, sizeof(float), what), "%s: grid differs from the scalar build", what);
        CHECK(same_bits(rd, rc, 2, sizeof(float), what), "%s: grid range differs", what);
    }
    free(dev);
    free(cpu);

    /* Points: spread over a few hundred cells of both signs, plus the values a kernel must
     * survive: zeros of both signs, lattice points, NaN, infinities, far coordinates. */
    enum { N = 700 };
    static float xs[4][N];
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < N; i++)
            xs[a][i] = frand(-300.0f, 300.0f) + (variant == 3 ? 1.0e10f : 0.0f);
    const float special[] = {0.0f, -0.0f, 64.0f, -64.0f, NAN, INFINITY, -INFINITY, 1.0e30f, -3.0e9f, 5.9e9f};
    for (int i = 0; i < (int)(sizeof special / sizeof special[0]); i++)
        xs[i % dims][i] = special[i];
    const float *coords[4] = {xs[0], xs[1], xs[2], xs[3]};
    float pd[N], pc[N];
    st = cn_opencl_points_evalf(cl, &gen, N, coords, pd, rd);
    CHECK(st == CN_OK, "%s: cn_opencl_points_evalf: %s (%s)", what, cn_strerror(st), cn_opencl_message(cl));
    sc = cn_points_evalf(&gen, N, coords, pc, 1, rc);
    CHECK(sc == CN_OK, "%s: cn_points_evalf: %s", what, cn_strerror(sc));
    if (st == CN_OK && sc == CN_OK) {
        CHECK(same_bits(pd, pc, N, sizeof(float), what), "%s: points differ from the scalar build", what);
        CHECK(same_bits(rd, rc, 2, sizeof(float), what), "%s: points range differs", what);
    }
}

/* Double precision on a few kernels (the second program), grid and points. */
static void compare_double(const cn_config *cfg, const char *what)
{
    static cn_noise gen;
    CHECK(cn_noise_build(&gen, cfg) == CN_OK, "%s: build", what);
    const size_t count[4] = {13, 11, 5, 3};
    const double origin[4] = {-3.5, 2.25, 100.0, -7.0}, step[4] = {0.61, 0.77, 1.3, 2.1};
    size_t total = 1;
    for (int a = 0; a < cfg->dims; a++)
        total *= count[a];
    double dev[13 * 11 * 5 * 3], cpu[13 * 11 * 5 * 3], rd[2], rc[2];
    cn_status st = cn_opencl_grid_eval(cl, &gen, origin, step, count, dev, total, rd);
    CHECK(st == CN_OK, "%s: cn_opencl_grid_eval: %s (%s)", what, cn_strerror(st), cn_opencl_message(cl));
    CHECK(cn_grid_eval(&gen, origin, step, count, cpu, total, 1, rc) == CN_OK, "%s: cn_grid_eval", what);
    if (st == CN_OK) {
        CHECK(same_bits(dev, cpu, total, sizeof(double), what), "%s: double grid differs", what);
        CHECK(same_bits(rd, rc, 2, sizeof(double), what), "%s: double grid range differs", what);
    }
    enum { N = 300 };
    static double xs[4][N];
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < N; i++)
            xs[a][i] = (double)frand(-1000.0f, 1000.0f) / 3.0;
    xs[0][0] = NAN;
    const double *coords[4] = {xs[0], xs[1], xs[2], xs[3]};
    double pd[N], pc[N];
    st = cn_opencl_points_eval(cl, &gen, N, coords, pd, NULL);
    CHECK(st == CN_OK, "%s: cn_opencl_points_eval: %s (%s)", what, cn_strerror(st), cn_opencl_message(cl));
    CHECK(cn_points_eval(&gen, N, coords, pc, 1, NULL) == CN_OK, "%s: cn_points_eval", what);
    if (st == CN_OK)
        CHECK(same_bits(pd, pc, N, sizeof(double), what), "%s: double points differ", what);
}

/* A grid of more points than one launch takes (src/opencl.c: CN_CL_CHUNK = 2^23). */
static void compare_chunks(void)
{
    cn_config c;
    cn_config_init(&c);
    c.type = CN_NOISE_VALUE;
    c.dims = 1;
    static cn_noise gen;
    CHECK(cn_noise_build(&gen, &c) == CN_OK, "value 1D build");
    const size_t n = ((size_t)1 << 23) + 1000;
    const double origin = -1.0e6, step = 0.37;
    float *dev = test_xmalloc(n * sizeof *dev), *cpu = test_xmalloc(n * sizeof *cpu);
    cn_status st = cn_opencl_grid_evalf(cl, &gen, &origin, &step, &n, dev, n, NULL);
    CHECK(st == CN_OK, "two launches: %s (%s)", cn_strerror(st), cn_opencl_message(cl));
    CHECK(cn_grid_evalf(&gen, &origin, &step, &n, cpu, n, 0, NULL) == CN_OK, "two launches: CPU");
    if (st == CN_OK)
        CHECK(same_bits(dev, cpu, n, sizeof(float), "two launches"), "a grid over two launches differs");
    free(dev);
    free(cpu);
}

/* Bad arguments: the batch calls' statuses, checked before the device is used. */
static void test_arguments(void)
{
    cn_config c;
    cn_config_init(&c);
    static cn_noise gen, zero;
    CHECK(cn_noise_build(&gen, &c) == CN_OK, "build");
    const double o[2] = {0, 0}, s[2] = {1, 1};
    const size_t n[2] = {4, 4}, n0[2] = {4, 0};
    float out[16];
    CHECK(cn_opencl_grid_evalf(NULL, &gen, o, s, n, out, 16, NULL) == CN_E_NULL, "cl NULL");
    CHECK(cn_opencl_grid_evalf(cl, NULL, o, s, n, out, 16, NULL) == CN_E_NULL, "gen NULL");
    CHECK(cn_opencl_grid_evalf(cl, &zero, o, s, n, out, 16, NULL) == CN_E_UNBUILT, "unbuilt");
    CHECK(cn_opencl_grid_evalf(cl, &gen, o, s, n0, out, 16, NULL) == CN_E_RANGE, "count 0");
    CHECK(cn_opencl_grid_evalf(cl, &gen, o, s, n, out, 15, NULL) == CN_E_RANGE, "out_len short");
    const double bad[2] = {NAN, 0};
    CHECK(cn_opencl_grid_evalf(cl, &gen, bad, s, n, out, 16, NULL) == CN_E_RANGE, "NaN origin");
    const float x[4] = {1, 2, 3, 4};
    const float *pts[2] = {x, NULL};
    CHECK(cn_opencl_points_evalf(cl, &gen, 4, pts, out, NULL) == CN_E_NULL, "a coordinate array NULL");
    const float *alias[2] = {x, out};
    CHECK(cn_opencl_points_evalf(cl, &gen, 4, alias, out, NULL) == CN_E_OVERLAP, "out overlaps a coordinate array");
    float r[2] = {0, 0};
    CHECK(cn_opencl_points_evalf(cl, &gen, 0, pts, out, r) == CN_E_NULL, "n 0 still checks the arrays");
    const float *ok[2] = {x, x};
    CHECK(cn_opencl_points_evalf(cl, &gen, 0, ok, out, r) == CN_OK && isnan(r[0]) && isnan(r[1]), "n 0: NaN range");
    cn_opencl *none = (cn_opencl *)&gen;
    CHECK(cn_opencl_open(NULL, CN_OPENCL_ANY, NULL, 0) == CN_E_NULL, "open: out NULL");
    char why[200] = "";
    CHECK(cn_opencl_open(&none, -3, why, sizeof why) == CN_E_RANGE && none == NULL && why[0], "open(-3): %s", why);
    CHECK(cn_opencl_open(&none, 100000, why, sizeof why) == CN_E_RANGE && none == NULL, "open(100000): %s", why);
    cn_opencl_device d;
    CHECK(cn_opencl_info(NULL, &d) == CN_E_NULL && cn_opencl_info(cl, NULL) == CN_E_NULL, "info NULL");
    CHECK(strcmp(cn_opencl_message(NULL), "") == 0, "message(NULL)");
    size_t count = 0;
    CHECK(cn_opencl_devices(NULL, 1, &count, NULL, 0) == CN_E_NULL, "devices: out NULL with cap 1");
    CHECK(cn_opencl_devices(NULL, 0, NULL, NULL, 0) == CN_E_NULL, "devices: count NULL");
    cn_opencl_close(NULL);
}

/* No device at all: every entry says so and nothing crashes. */
static int test_none(void)
{
    char why[300] = "";
    size_t count = 99;
    cn_status st = cn_opencl_devices(NULL, 0, &count, why, sizeof why);
    if (st == CN_OK && count > 0) {
        /* Some loaders (the one NVIDIA's CUDA installs) ignore OCL_ICD_VENDORS. */
        printf("SKIP: this OpenCL loader finds %zu device(s) with OCL_ICD_VENDORS pointed at an empty folder\n", count);
        return TEST_SKIP;
    }
    CHECK((st == CN_OK && count == 0) || (st == CN_E_DEVICE && count == 0), "devices: %s, %zu (%s)", cn_strerror(st),
          count, why);
    cn_opencl *c = (cn_opencl *)why;
    why[0] = '\0';
    st = cn_opencl_open(&c, CN_OPENCL_ANY, why, sizeof why);
    CHECK(st == CN_E_DEVICE && c == NULL && why[0] != '\0', "open(ANY) without a device: %s (%s)", cn_strerror(st), why);
    printf("without a device, cn_opencl_open says: %s\n", why);
    st = cn_opencl_open(&c, CN_OPENCL_GPU, why, sizeof why);
    CHECK(st == CN_E_DEVICE && c == NULL, "open(GPU) without a device: %s", cn_strerror(st));
    st = cn_opencl_open(&c, 0, why, sizeof why);
    CHECK((st == CN_E_RANGE || st == CN_E_DEVICE) && c == NULL, "open(0) without a device: %s", cn_strerror(st));
    return test_summary("test_opencl --none");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--none") == 0)
        return test_none();
    char why[512] = "";
    size_t count = 0;
    cn_opencl_device list[8];
    cn_status st = cn_opencl_devices(list, 8, &count, why, sizeof why);
    if (st != CN_OK || count == 0) {
        printf("SKIP: no OpenCL device (%s)\n", st != CN_OK ? why : "the runtime lists none");
        return TEST_SKIP;
    }
    for (size_t i = 0; i < count && i < 8; i++)
        printf("device %zu: %s / %s (%s)%s\n", i, list[i].platform, list[i].name, list[i].version,
               list[i].fp64 ? "" : ", no fp64");
    st = cn_opencl_open(&cl, CN_OPENCL_ANY, why, sizeof why);
    if (st != CN_OK) {
        printf("SKIP: no usable OpenCL device: %s\n", why);
        return TEST_SKIP;
    }
    cn_opencl_device d;
    CHECK(cn_opencl_info(cl, &d) == CN_OK && d.fp64 == 1 && d.name[0], "info");
    printf("testing on %s / %s\n", d.platform, d.name);
    cn_isa_set_cap(CN_ISA_SCALAR); /* the reference: the scalar build */
    test_arguments();

    uint64_t seed = 1;
    for (int mode = 0; mode < 2; mode++)
        for (int type = 0; type <= CN_NOISE_OPENSIMPLEX2S; type++)
            for (int dims = 1; dims <= 4; dims++) {
                cn_config c;
                if (!configure(&c, type, mode, dims, CN_FRACTAL_NONE, 0, seed))
                    continue; /* no such kernel (simplex 1D, classic value noise) */
                kernels_seen++;
                for (int fractal = 0; fractal <= CN_FRACTAL_EROSION; fractal++)
                    for (int variant = 0; variant < 4; variant++) {
                        /* every fractal plain; the variants with one fractal each, in turn */
                        if (variant > 0 && fractal != (variant + dims + type) % 7)
                            continue;
                        if (!configure(&c, type, mode, dims, fractal, variant, seed++))
                            continue; /* a variant this kernel does not allow */
                        char what[128];
                        snprintf(what, sizeof what, "%s %s %dD %s variant %d", cn_noise_type_name(c.type),
                                 cn_mode_name(c.mode), dims, cn_fractal_name(c.fractal), variant);
                        compare(&c, variant, what);
                    }
            }
    CHECK(kernels_seen == 31, "%d kernels, the registry has 31", kernels_seen);

    cn_config c;
    configure(&c, CN_NOISE_PERLIN, CN_MODE_DEFAULT, 3, CN_FRACTAL_FBM, 0, 77);
    compare_double(&c, "perlin default 3D fbm, double");
    configure(&c, CN_NOISE_SIMPLEX, CN_MODE_CLASSIC, 4, CN_FRACTAL_NONE, 0, 0);
    compare_double(&c, "simplex classic 4D, double");
    compare_chunks();
    cn_opencl_close(cl);
    return test_summary("test_opencl");
}
