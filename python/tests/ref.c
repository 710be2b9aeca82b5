/*
 * ref.c -- the C side of the Python tests: evaluates a configuration with libcnoise's batch API
 * and writes the raw results to standard output, so that the tests compare the Python package
 * with the library through a path that shares none of the package's code.
 *
 *   ref grid   f32|f64 SPEC ORIGIN... STEP... COUNT...   (dims numbers each, count x fastest)
 *   ref points f32|f64 SPEC N     < N*dims coordinates (axis after axis, float or double)
 *   ref range  f64     SPEC       -> two doubles (cn_noise_range or cn_layers_range)
 *
 * SPEC: layers separated by '|', each a list of key=value separated by spaces: type, mode,
 * fractal (names), dims, seed, octaves, frequency, lacunarity, gain, ridge_offset, ridge_gain,
 * weighted_strength, pingpong_strength,
 * amplitude, bias, cell_distance, cell_return (names), jitter, minkowski_p, axis_frequency, offset, period
 * (comma lists), rotate2=ANGLE,
 * rotate3=AX,AY,AZ,ANGLE, rotation=M00,M01,... and weight=W (then a cn_layer sum is evaluated,
 * even for one layer). Exit status 0, or 1 with a message.
 */
#define _POSIX_C_SOURCE 200809L
#include <cnoise.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXL 8

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "ref: %s: %s\n", what, detail);
    exit(1);
}

static int list(const char *s, double *out, int max)
{
    int n = 0;
    char *end;
    while (n < max) {
        out[n++] = strtod(s, &end);
        if (end == s)
            die("bad number", s);
        if (*end != ',')
            break;
        s = end + 1;
    }
    return n;
}

/* Parses one layer; returns 1 when it has a weight. */
static int parse_layer(char *text, cn_config *cfg, double *weight)
{
    int has_weight = 0;
    cn_config_init(cfg);
    /* dims first: the rotation helpers need it. */
    char *d = strstr(text, "dims=");
    if (d)
        cfg->dims = atoi(d + 5);
    for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            die("bad key=value", tok);
        *eq = 0;
        const char *k = tok, *v = eq + 1;
        double a[16];
        int n;
        if (!strcmp(k, "type")) {
            if (cn_noise_type_from_name(v, &cfg->type) != CN_OK)
                die("type", v);
        } else if (!strcmp(k, "mode")) {
            if (cn_mode_from_name(v, &cfg->mode) != CN_OK)
                die("mode", v);
        } else if (!strcmp(k, "fractal")) {
            if (cn_fractal_from_name(v, &cfg->fractal) != CN_OK)
                die("fractal", v);
        } else if (!strcmp(k, "cell_distance")) {
            if (cn_cell_distance_from_name(v, &cfg->cell_distance) != CN_OK)
                die("cell_distance", v);
        } else if (!strcmp(k, "cell_return")) {
            if (cn_cell_return_from_name(v, &cfg->cell_return) != CN_OK)
                die("cell_return", v);
        } else if (!strcmp(k, "jitter")) {
            cfg->jitter = strtod(v, NULL);
        } else if (!strcmp(k, "minkowski_p")) {
            cfg->minkowski_p = strtod(v, NULL);
        } else if (!strcmp(k, "dims"))
            cfg->dims = atoi(v);
        else if (!strcmp(k, "seed"))
            cfg->seed = strtoull(v, NULL, 0);
        else if (!strcmp(k, "octaves"))
            cfg->octaves = atoi(v);
        else if (!strcmp(k, "frequency"))
            cfg->frequency = strtod(v, NULL);
        else if (!strcmp(k, "lacunarity"))
            cfg->lacunarity = strtod(v, NULL);
        else if (!strcmp(k, "gain"))
            cfg->gain = strtod(v, NULL);
        else if (!strcmp(k, "ridge_offset"))
            cfg->ridge_offset = strtod(v, NULL);
        else if (!strcmp(k, "ridge_gain"))
            cfg->ridge_gain = strtod(v, NULL);
        else if (!strcmp(k, "weighted_strength"))
            cfg->weighted_strength = strtod(v, NULL);
        else if (!strcmp(k, "pingpong_strength"))
            cfg->pingpong_strength = strtod(v, NULL);
        else if (!strcmp(k, "amplitude"))
            cfg->amplitude = strtod(v, NULL);
        else if (!strcmp(k, "bias"))
            cfg->bias = strtod(v, NULL);
        else if (!strcmp(k, "weight")) {
            *weight = strtod(v, NULL);
            has_weight = 1;
        } else if (!strcmp(k, "axis_frequency")) {
            n = list(v, a, 4);
            memcpy(cfg->axis_frequency, a, (size_t)n * sizeof *a);
        } else if (!strcmp(k, "offset")) {
            n = list(v, a, 4);
            memcpy(cfg->offset, a, (size_t)n * sizeof *a);
        } else if (!strcmp(k, "period")) {
            n = list(v, a, 4);
            for (int i = 0; i < n; i++)
                cfg->period[i] = (uint32_t)a[i];
        } else if (!strcmp(k, "rotate2")) {
            list(v, a, 1);
            if (cn_config_rotate2(cfg, a[0]) != CN_OK)
                die("rotate2", v);
        } else if (!strcmp(k, "rotate3")) {
            if (list(v, a, 4) != 4 || cn_config_rotate3(cfg, a[0], a[1], a[2], a[3]) != CN_OK)
                die("rotate3", v);
        } else if (!strcmp(k, "rotation")) {
            n = list(v, a, 16);
            memcpy(cfg->rotation, a, (size_t)n * sizeof *a);
            cfg->rotate = 1;
        } else
            die("unknown key", k);
    }
    return has_weight;
}

static void put(const void *p, size_t size, size_t n)
{
    if (fwrite(p, size, n, stdout) != n)
        die("write", "stdout");
}

int main(int argc, char **argv)
{
    if (argc < 4)
        die("usage", "ref grid|points|range f32|f64 SPEC ...");
    const char *op = argv[1];
    int f32 = !strcmp(argv[2], "f32");
    static cn_noise gens[MAXL];
    static cn_config cfgs[MAXL];
    cn_layer layers[MAXL];
    size_t nl = 0;
    int weighted = 0;
    char *spec = strdup(argv[3]), *save = NULL;
    for (char *l = strtok_r(spec, "|", &save); l; l = strtok_r(NULL, "|", &save)) {
        if (nl == MAXL)
            die("spec", "too many layers");
        double w = 1;
        char *copy = strdup(l);
        weighted |= parse_layer(copy, &cfgs[nl], &w);
        free(copy);
        cn_status st = cn_noise_build(&gens[nl], &cfgs[nl]);
        if (st != CN_OK)
            die("cn_noise_build", cn_strerror(st));
        layers[nl].noise = &gens[nl];
        layers[nl].weight = w;
        nl++;
    }
    int dims = cfgs[0].dims;
    cn_status st;
    if (!strcmp(op, "range")) {
        double r[2];
        st = weighted ? cn_layers_range(layers, nl, r) : cn_noise_range(&gens[0], r);
        if (st != CN_OK)
            die("range", cn_strerror(st));
        put(r, sizeof *r, 2);
    } else if (!strcmp(op, "grid")) {
        if (argc != 4 + 3 * dims)
            die("grid", "needs dims origins, steps and counts");
        double origin[4], step[4];
        size_t count[4], total = 1;
        for (int a = 0; a < dims; a++) {
            origin[a] = strtod(argv[4 + a], NULL);
            step[a] = strtod(argv[4 + dims + a], NULL);
            count[a] = strtoull(argv[4 + 2 * dims + a], NULL, 10);
            total *= count[a];
        }
        void *out = malloc(total * (f32 ? 4 : 8));
        if (!out)
            die("malloc", "grid");
        if (f32)
            st = weighted ? cn_layers_grid_evalf(layers, nl, origin, step, count, out, total, 1, NULL)
                          : cn_grid_evalf(&gens[0], origin, step, count, out, total, 1, NULL);
        else
            st = weighted ? cn_layers_grid_eval(layers, nl, origin, step, count, out, total, 1, NULL)
                          : cn_grid_eval(&gens[0], origin, step, count, out, total, 1, NULL);
        if (st != CN_OK)
            die("grid", cn_strerror(st));
        put(out, f32 ? 4 : 8, total);
        free(out);
    } else if (!strcmp(op, "points")) {
        if (argc != 5)
            die("points", "needs N");
        size_t n = strtoull(argv[4], NULL, 10), es = f32 ? 4 : 8;
        char *in = malloc(n * es * (size_t)dims + 1), *out = malloc(n * es + 1);
        if (!in || !out)
            die("malloc", "points");
        if (fread(in, es, n * (size_t)dims, stdin) != n * (size_t)dims)
            die("read", "coordinates");
        const void *coords[4];
        for (int a = 0; a < dims; a++)
            coords[a] = in + (size_t)a * n * es;
        if (weighted) {
            st = CN_OK;
            for (size_t i = 0; i < n && st == CN_OK; i++) {
                double p[4];
                float pf[4];
                for (int a = 0; a < dims; a++) {
                    if (f32)
                        pf[a] = ((const float *)coords[a])[i];
                    else
                        p[a] = ((const double *)coords[a])[i];
                }
                st = f32 ? cn_layers_evalf(layers, nl, pf, (float *)out + i)
                         : cn_layers_eval(layers, nl, p, (double *)out + i);
            }
        } else if (f32)
            st = cn_points_evalf(&gens[0], n, (const float *const *)coords, (float *)out, 1, NULL);
        else
            st = cn_points_eval(&gens[0], n, (const double *const *)coords, (double *)out, 1, NULL);
        if (st != CN_OK)
            die("points", cn_strerror(st));
        put(out, es, n);
        free(in);
        free(out);
    } else
        die("unknown op", op);
    free(spec);
    return 0;
}
