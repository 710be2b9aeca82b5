/* api.c -- configuration, generator building and the single-point entry points. */
#include <math.h>
#include <string.h>
#include "cnoise.h"
#include "core/core.h"
#include "kernels/dispatch.h"

const char *cn_version(void) { return CN_VERSION_STRING; }

const char *cn_strerror(cn_status status)
{
    switch (status) {
    case CN_OK: return "success";
    case CN_E_NULL: return "a required pointer argument is NULL";
    case CN_E_TYPE: return "unknown noise type";
    case CN_E_MODE: return "unknown mode";
    case CN_E_DIMS: return "dimension must be 1 to 4";
    case CN_E_UNSUPPORTED: return "unsupported combination (simplex noise needs 2 to 4 dimensions; value noise has no classic mode)";
    case CN_E_FREQUENCY: return "frequency must be finite and greater than 0";
    case CN_E_RANGE: return "argument out of range";
    case CN_E_OVERFLOW: return "size computation overflows";
    }
    return "unknown status code";
}

void cn_config_init(cn_config *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->type = CN_NOISE_PERLIN;
    cfg->mode = CN_MODE_DEFAULT;
    cfg->dims = 3;
    cfg->seed = 0;
    cfg->frequency = 1.0;
}

cn_status cn_config_check(const cn_config *cfg)
{
    if (!cfg)
        return CN_E_NULL;
    /* Compare as integers: an out-of-range value stored in an enum field is still caught. */
    int type = (int)cfg->type, mode = (int)cfg->mode;
    if (type < CN_NOISE_PERLIN || type > CN_NOISE_VALUE)
        return CN_E_TYPE;
    if (mode < CN_MODE_DEFAULT || mode > CN_MODE_CLASSIC)
        return CN_E_MODE;
    if (cfg->dims < 1 || cfg->dims > 4)
        return CN_E_DIMS;
    if (type == CN_NOISE_SIMPLEX && cfg->dims < 2)
        return CN_E_UNSUPPORTED;
    if (type == CN_NOISE_VALUE && mode == CN_MODE_CLASSIC)
        return CN_E_UNSUPPORTED;
    if (!(cfg->frequency > 0.0) || !isfinite(cfg->frequency))
        return CN_E_FREQUENCY;
    return CN_OK;
}

cn_status cn_noise_build(cn_noise *out, const cn_config *cfg)
{
    if (!out || !cfg)
        return CN_E_NULL;
    memset(out, 0, sizeof *out);
    out->kernel = -1;
    cn_status st = cn_config_check(cfg);
    if (st != CN_OK)
        return st;
    out->cfg = *cfg;
    if (cfg->mode == CN_MODE_CLASSIC)
        cn__classic_perm(cfg->seed, out->perm, out->perm_mod12);
    else
        cn__lattice_keys(cfg->seed, out->key);
    out->kernel = cn__kernel_index(cfg);
    return CN_OK;
}

/* A generator is usable when its kernel selector matches its (checked) configuration. */
static int usable(const cn_noise *g)
{
    return g && cn_config_check(&g->cfg) == CN_OK && g->kernel == cn__kernel_index(&g->cfg) &&
           cn__isa_scalar.point_f64[g->kernel] != NULL;
}

double cn_eval(const cn_noise *g, const double *p)
{
    if (!p || !usable(g))
        return NAN;
    return cn__isa_scalar.point_f64[g->kernel](g, p);
}

float cn_evalf(const cn_noise *g, const float *p)
{
    if (!p || !usable(g))
        return NAN;
    double q[4];
    for (int a = 0; a < g->cfg.dims; a++)
        q[a] = p[a];
    return cn__isa_scalar.point_f32[g->kernel](g, q);
}

#define CN_DIMS_OR_NAN(g, n) \
    if (!(g) || (g)->cfg.dims != (n)) \
        return NAN

double cn_eval1(const cn_noise *g, double x) { CN_DIMS_OR_NAN(g, 1); return cn_eval(g, &x); }
double cn_eval2(const cn_noise *g, double x, double y)
{
    CN_DIMS_OR_NAN(g, 2);
    double p[2] = {x, y};
    return cn_eval(g, p);
}
double cn_eval3(const cn_noise *g, double x, double y, double z)
{
    CN_DIMS_OR_NAN(g, 3);
    double p[3] = {x, y, z};
    return cn_eval(g, p);
}
double cn_eval4(const cn_noise *g, double x, double y, double z, double w)
{
    CN_DIMS_OR_NAN(g, 4);
    double p[4] = {x, y, z, w};
    return cn_eval(g, p);
}
float cn_eval1f(const cn_noise *g, float x) { CN_DIMS_OR_NAN(g, 1); return cn_evalf(g, &x); }
float cn_eval2f(const cn_noise *g, float x, float y)
{
    CN_DIMS_OR_NAN(g, 2);
    float p[2] = {x, y};
    return cn_evalf(g, p);
}
float cn_eval3f(const cn_noise *g, float x, float y, float z)
{
    CN_DIMS_OR_NAN(g, 3);
    float p[3] = {x, y, z};
    return cn_evalf(g, p);
}
float cn_eval4f(const cn_noise *g, float x, float y, float z, float w)
{
    CN_DIMS_OR_NAN(g, 4);
    float p[4] = {x, y, z, w};
    return cn_evalf(g, p);
}
