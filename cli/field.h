/*
 * field.h -- what the raster commands share (their pipeline is sink.h): evaluating the configured
 * noise over strips of image rows with the batch engine, its documented value range, and the
 * --tile period setting.
 *
 * Pixel (i, j) of an image samples the noise at x = i + 0.5, y = j + 0.5 (z and w fixed), the
 * same points "cnoise sample" evaluates for "i.5 j.5". cli_field_eval computes a block of such
 * points with cn_grid_eval / cn_grid_evalf (SIMD, threads) and gives the same values as
 * cli_built_eval point by point: one layer of weight 1 exactly as cn_eval / cn_evalf; a sum of
 * layers as sum += weight * value in layer order (double), in float precision rounded to float
 * once at the end.
 */
#ifndef CNOISE_CLI_FIELD_H
#define CNOISE_CLI_FIELD_H

#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "cnoise.h"

/* Target number of pixels per strip: rows = max(1, CLI_STRIP_PIXELS / width). With the
 * buffers of a strip (a few doubles per pixel) this bounds memory at a few tens of MiB,
 * whatever the image height. */
#define CLI_STRIP_PIXELS 262144u

/* Rows per strip of an image ncols values wide (halo included) and height rows high: about
 * CLI_STRIP_PIXELS values, at least one row, at most height rows. */
uint32_t cli_strip_rows(size_t ncols, uint32_t height);

/* Finds the first NaN in vals (ncols x nrows, row by row): writes its column and row and returns 1;
 * returns 0 when there is none. The commands report it as a coordinate overflow. */
int cli_find_nan(const double *vals, size_t ncols, size_t nrows, size_t *col, size_t *row);

typedef struct cli_field {
    const cli_built *b;
    int threads;     /* for cn_grid_eval: 0 = all cores */
    cn_opencl *cl;   /* b->cl: the OpenCL context that evaluates, or NULL for the CPU */
    double z, w;     /* the slice, double precision */
    double zf, wf;   /* the slice in float precision (float values, widened) */
    float *tmpf;     /* scratch for float evaluation */
    size_t cap;      /* elements of the scratch buffer */
    void *gs;        /* scratch of cli_field_eval_grad */
    size_t gcap;     /* its bytes */
} cli_field;

/* Sets up an evaluator (no allocation yet). zf, wf: the slice parsed as float. */
void cli_field_init(cli_field *f, const cli_built *b, int threads, double z, double w, float zf, float wf);
void cli_field_free(cli_field *f);

/*
 * --device (args.h, CLI_DEVICE_*) for a command's built noise, once: cpu evaluates with the CPU
 * batch engine (b->cl = NULL); opencl on the first usable OpenCL device (a GPU first), gpu on the
 * first usable OpenCL GPU, and both fail with the reason when there is none; auto takes a usable
 * GPU when there is one and the CPU otherwise. Sums of layers run on the CPU: opencl and gpu
 * refuse them. Every device gives the same values; cli_field_init takes b->cl, cli_built_free
 * closes it. Returns CLI_EXIT_OK, or after printing the error CLI_EXIT_USAGE (layers) or
 * CLI_EXIT_FAILURE (no such device).
 */
int cli_device_open(const char *prog, int device, cli_built *b);

/*
 * The values at x = x0 + i (i = 0..ncols-1), y = y0 + r (r = 0..nrows-1) into out[r * ncols + i].
 * 1D noise depends on x only (every row is the same). Returns 0, or -1 with a message in err
 * (out of memory, a batch error).
 */
int cli_field_eval(cli_field *f, double x0, double y0, size_t ncols, size_t nrows, double *out, char *err,
                   size_t errlen);

/*
 * cli_field_eval's values into out, and their derivatives by x and y (pixel units: the library's
 * gradient calls at step 1) into gx and gy (ncols x nrows each; gy 0 for 1D noise). One layer:
 * cn_grid_eval_grad (cn_grid_evalf_grad; the float results widened); warped:
 * cn_warp_grid_eval(f) or cn_warp_layers_grid_eval(f) with their gradient; a sum of layers: the
 * values as cli_field_eval gives them, the gradient summed as cn_layers_eval_grad does (weight
 * times each layer's gradient in layer order, in double; float: each layer's float gradient, the
 * sum rounded to float once). Always on the CPU (the OpenCL backend has no gradient calls).
 * Returns 0, or -1 with a message in err (out of memory; a batch error, e.g. noise without a
 * gradient: cellular noise).
 */
int cli_field_eval_grad(cli_field *f, double x0, double y0, size_t ncols, size_t nrows, double *out, double *gx,
                        double *gy, char *err, size_t errlen);

/*
 * The documented range of the sum as midpoint and half-width: per layer cn_noise_range() of
 * its built generator (the base noise's range, e.g. [-1, 1], [0, 1] for turbulence and ridged,
 * +-1.0364 for classic Perlin 1D-3D, mapped through amplitude * v + bias), scaled by the
 * layer's weight and summed (interval arithmetic). Returns -1 if it is not finite.
 */
int cli_field_range(const cli_built *b, double *mid, double *half);

/*
 * The position of v in [mid - half, mid + half] as t in [0, 1]: t = ((v - mid) / half + 1) / 2,
 * clamped. A value beyond the range by more than rounding (1e-12 in t), or, when half is 0, any
 * value other than mid (t 0 below it, 1 above, 0.5 at it) adds one to *clipped.
 */
double cli_range_t(double v, double mid, double half, uint64_t *clipped);

/* The gray level round(t * 255) of v, t = cli_range_t(v, mid, half, clipped). */
uint8_t cli_gray(double v, double mid, double half, uint64_t *clipped);

/*
 * Prints "<prog>: note: C of T <what> (P%) were outside the range [lo, hi] and were clipped to
 * it<hint>" on stderr (hint may be ""), for clipped > 0.
 */
void cli_note_clipped(const char *prog, uint64_t clipped, uint64_t total, const char *what, double lo,
                      double hi, const char *hint);

/*
 * The period solver of --tile and --loop: sets periods so that the noise repeats after a given
 * length along some axes, each a whole number of cells valid for the library (1..2^24, a
 * multiple of cn_period_multiple), or says why it cannot and finds a value of the quantity the
 * cells are proportional to (a frequency, a time step) that works for every layer and axis.
 *
 * Along axis a of a layer, length L makes L * x * f * af cells (computed in that order): x the
 * quantity, f the layer's frequency (1 when x is the frequency itself), af its axis frequency.
 */
typedef struct cli_period_ask {
    int dims;
    int naxes;          /* 1 or 2 */
    int axis[2];        /* the lattice axes to make periodic (0 = x ... 3 = w) */
    double length[2];   /* along each, the input length of one period (pixels, frames * step) */
    int x_is_frequency; /* 1: x is each layer's own frequency (--tile); 0: x is the value below */
    double x;           /* the quantity, > 0 (--loop: |time-step|) */
    int start_in_limit; /* search from a count within the limit when the count is beyond it
                           (--tile); 0 searches only near the count (--loop) */
} cli_period_ask;

typedef enum cli_period_status {
    CLI_PERIOD_SET = 0,  /* every period set */
    CLI_PERIOD_ROTATED,  /* layer `layer` has a rotation: no axis-aligned period */
    CLI_PERIOD_GIVEN,    /* layer `layer` has a period along axis[`ai`] already */
    CLI_PERIOD_CELLS     /* layer `layer` along axis[`ai`]: `cells` is not a valid count */
} cli_period_status;

typedef struct cli_period_why {
    int layer, ai;
    double cells;   /* CELLS: the count as computed */
    uint32_t step;  /* CELLS: the multiple the layer's periods need */
    double start;   /* CELLS: the valid count the search started from */
    double found;   /* CELLS: an x that works for every layer and axis (0: none near) */
    double found_n; /* its count at layer, axis[ai] */
} cli_period_why;

/* The cells of spec along axis[ai] at quantity x (see above). */
double cli_period_cells(const cli_spec *spec, const cli_period_ask *q, int ai, double x);

/* Checks layers spec[0..n-1] in order (rotation, periods given, then the counts) and sets the
 * periods of all of them, or leaves them as they were and fills why. */
cli_period_status cli_period_solve(cli_spec *spec, int n, const cli_period_ask *q, cli_period_why *why);

/*
 * The pixels after which a --tile image of this side repeats: side - 1 for the engine sizes
 * 2^n + 1 (3, 5, ..., 513, 1025, ...), whose last row or column repeats the first, so that
 * neighbouring tiles share their edge; else side.
 */
uint32_t cli_tile_length(uint32_t side);

/*
 * --tile: sets the x (and, in 2D and up, y) period of layer k (-1: the warp's fields, cli_tile_warp) so that the noise repeats
 * after cli_tile_length(width) (and height) pixels (cli_period_solve); needs those to be whole,
 * valid numbers of cells. On failure prints the reason and a frequency that would work (naming --frequency, or
 * "frequency=" in a --layer) and returns -1.
 */
int cli_tile_layer(const char *prog, cli_spec *s, int k, int dims, uint32_t width, uint32_t height);

/*
 * --tile with --warp: the periods of the warp's fields (o->warp.period), so that they repeat after
 * the same pixels as the image (cli_tile_layer's rule at --warp-frequency; octaves need a
 * whole-number --warp-lacunarity). Nothing without a warp. On failure prints the reason (and a
 * --warp-frequency that would work) and returns -1.
 */
int cli_tile_warp(const char *prog, cli_noise_opts *o, int dims, uint32_t width, uint32_t height);

/*
 * --tile for a whole image: every layer of o (cli_tile_layer) and the warp's fields
 * (cli_tile_warp). 0, or -1 after printing the reason.
 */
int cli_tile_image(const char *prog, cli_noise_opts *o, int dims, uint32_t width, uint32_t height);

/* The spec of the warp's fields at --warp-frequency (its first octave), for the period solvers:
 * 0, or -1 after printing "<opt>: ..." when its octaves would need a whole-number
 * --warp-lacunarity. */
int cli_warp_spec(const char *prog, const char *opt, const cli_noise_opts *o, int dims, cli_spec *s);

/*
 * cli_noise_build, then the library's reach of the region |p[a]| <= maxp[a] for every layer
 * (cn_noise_reach): coordinates that far must stay finite after the frequency, axis
 * frequencies, rotation, offsets and octaves, else the noise would be NaN. On failure prints the
 * reason ("--frequency: ... is too large", or "--layer N: frequency") and returns -1 with *out
 * empty.
 */
int cli_noise_build_for(const char *prog, const cli_noise_opts *o, int dims, const double maxp[4], cli_built *out);

#endif /* CNOISE_CLI_FIELD_H */
