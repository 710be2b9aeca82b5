/*
 * opencl.c -- the OpenCL backend (cn_opencl_*, include/cnoise.h): loads the ICD loader at run
 * time, lists devices, keeps one context per cn_opencl with its program compiled once per
 * precision, and runs the batch jobs of src/batch.c on the device, in chunks, one point per
 * work-item. The program is src/opencl/noise.cl, embedded at build time
 * (cmake/embed_opencl.cmake); it evaluates each point as the scalar CPU build does.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* CN_OPENCL_NO_LOADER (CMakeLists.txt sets it in sanitizer builds) or WebAssembly: no runtime is
 * ever loaded, and the backend reports itself unavailable. */
#if defined(__EMSCRIPTEN__) || defined(CN_OPENCL_NO_LOADER)
#define CN_NO_LOADER 1
#elif defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif
#include "cnoise.h"
#include "batch.h"
#include "kernels/registry.h"
#include "opencl/cl_api.h"
#include "opencl/layout.h"

extern const char cn__opencl_program[];
extern const size_t cn__opencl_program_size;

/* Points per launch: bounds the device buffers (64 MiB of double results) and keeps each launch
 * short enough for a display driver's watchdog. */
#define CN_CL_CHUNK ((size_t)1 << 23)

/* The functions of the ICD loader. */
typedef struct cl_fns {
#define CN_CL_FIELD(ret, name, params) ret(CN_CLAPI *name) params;
    CN_CL_FUNCTIONS(CN_CL_FIELD)
#undef CN_CL_FIELD
} cl_fns;

/* The kernel names of each registry line: eval_<base>_f32 and eval_<base>_f64 (src/opencl/noise.cl). */
#define CN_CL_NAME(TYPE, MODE, DIMS, BASE, FORM, GRAD, CACHE) [CN__KID_OF(TYPE, MODE, DIMS)] = #BASE,
static const char *const kernel_base[CN__KERNEL_COUNT] = {CN_KERNELS(CN_CL_NAME)};

struct cn_opencl {
    cl_fns cl;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program program[2];                   /* [0] float, [1] double; NULL until first needed */
    cl_kernel kernel[2][CN__KERNEL_COUNT];   /* [precision][kernel index]; NULL until first needed */
    cl_mem gen;                              /* the generator, sizeof(cn__gen) bytes */
    cl_mem out, in[4];                       /* results and point coordinates, CN_CL_CHUNK each */
    size_t out_bytes, in_bytes;              /* their sizes (0: not allocated yet) */
    cn_opencl_device info;
    char message[1024];
};

static void say(char *why, size_t n, const char *fmt, ...)
{
    if (!why || n == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
}

/* Loads the ICD loader and looks up every function; 0 on success. The library stays loaded for
 * the life of the process (runtimes do not all survive being unloaded), so nothing is global: each
 * context keeps its own table. */
static int load(cl_fns *f, char *why, size_t n)
{
#if defined(__EMSCRIPTEN__)
    /* WebAssembly (scripts/build-wasm.sh): no OpenCL there, and emscripten's dlopen aborts the
     * program unless it is linked for dynamic linking. */
    (void)f;
    say(why, n, "no OpenCL runtime: WebAssembly has none");
    return -1;
#elif defined(CN_NO_LOADER)
    /* Sanitizer builds: an OpenCL runtime is not instrumented, and with the ICD loader merely
     * loaded LeakSanitizer's scan at exit crashed ("Tracer caught signal 11"). */
    (void)f;
    say(why, n, "no OpenCL runtime: this is a sanitizer build, which loads none");
    return -1;
#elif defined(_WIN32)
    HMODULE lib = LoadLibraryA("OpenCL.dll");
    if (!lib) {
        say(why, n, "no OpenCL runtime: OpenCL.dll could not be loaded");
        return -1;
    }
#define CN_CL_LOOK(ret, name, params)                                                        \
    {                                                                                       \
        FARPROC p = GetProcAddress(lib, #name);                                             \
        if (!p) {                                                                           \
            say(why, n, "the OpenCL runtime has no %s", #name);                            \
            return -1;                                                                      \
        }                                                                                   \
        memcpy(&f->name, &p, sizeof f->name);                                               \
    }
#else
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        say(why, n, "no OpenCL runtime: %s", e ? e : "libOpenCL.so.1 could not be loaded");
        return -1;
    }
#define CN_CL_LOOK(ret, name, params)                                                        \
    {                                                                                       \
        void *p = dlsym(lib, #name);                                                        \
        if (!p) {                                                                           \
            say(why, n, "the OpenCL runtime has no %s", #name);                            \
            return -1;                                                                      \
        }                                                                                   \
        memcpy(&f->name, &p, sizeof f->name);                                               \
    }
#endif
#ifndef CN_NO_LOADER
    CN_CL_FUNCTIONS(CN_CL_LOOK)
#undef CN_CL_LOOK
    return 0;
#endif
}

/* src into buf of n bytes, cut to fit, NUL-terminated. */
static void copy_cut(char *buf, size_t n, const char *src)
{
    size_t len = strlen(src);
    if (len >= n)
        len = n - 1;
    memcpy(buf, src, len);
    buf[len] = '\0';
}

/* A string property of a device into buf (cut, NUL-terminated). */
static void device_string(const cl_fns *f, cl_device_id d, cl_device_info what, char *buf, size_t n)
{
    char tmp[1024];
    size_t got = 0;
    if (f->clGetDeviceInfo(d, what, sizeof tmp - 1, tmp, &got) != CL_SUCCESS)
        got = 0;
    tmp[got < sizeof tmp ? got : sizeof tmp - 1] = '\0';
    copy_cut(buf, n, tmp);
}

/* Whether the device's extension list names cl_khr_fp64 (a whole word). */
static int has_fp64(const cl_fns *f, cl_device_id d)
{
    size_t n = 0;
    if (f->clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return 0;
    char *ext = malloc(n + 1);
    if (!ext)
        return 0;
    int found = 0;
    if (f->clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, ext, NULL) == CL_SUCCESS) {
        ext[n] = '\0';
        static const char want[] = "cl_khr_fp64";
        const size_t len = sizeof want - 1;
        for (const char *w = strstr(ext, want); w && !found; w = strstr(w + 1, want))
            found = (w == ext || w[-1] == ' ') && (w[len] == ' ' || w[len] == '\0');
    }
    free(ext);
    return found;
}

static void describe(const cl_fns *f, cl_platform_id p, cl_device_id d, cn_opencl_device *out)
{
    memset(out, 0, sizeof *out);
    char tmp[1024];
    size_t got = 0;
    if (f->clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof tmp - 1, tmp, &got) != CL_SUCCESS)
        got = 0;
    tmp[got < sizeof tmp ? got : sizeof tmp - 1] = '\0';
    copy_cut(out->platform, sizeof out->platform, tmp);
    device_string(f, d, CL_DEVICE_NAME, out->name, sizeof out->name);
    device_string(f, d, CL_DEVICE_VERSION, out->version, sizeof out->version);
    cl_device_type t = 0;
    if (f->clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL) != CL_SUCCESS)
        t = 0;
    out->type = (t & CL_DEVICE_TYPE_GPU) ? CN_DEVICE_GPU
              : (t & CL_DEVICE_TYPE_CPU) ? CN_DEVICE_CPU
              : (t & CL_DEVICE_TYPE_ACCELERATOR) ? CN_DEVICE_ACCELERATOR : CN_DEVICE_OTHER;
    cl_uint cu = 0;
    if (f->clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL) == CL_SUCCESS)
        out->compute_units = cu;
    cl_ulong mem = 0;
    if (f->clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL) == CL_SUCCESS)
        out->memory = mem;
    out->fp64 = has_fp64(f, d);
}

/*
 * Walks every device of every platform in order; visit(k, platform, device, arg) returns nonzero
 * to stop. Returns CN_OK, or CN_E_DEVICE with why filled. A runtime with no platform (the ICD
 * loader's CL_PLATFORM_NOT_FOUND_KHR) has no devices: CN_OK, 0 visited.
 */
typedef int (*visit_fn)(size_t k, cl_platform_id p, cl_device_id d, void *arg);
static cn_status walk(const cl_fns *f, visit_fn visit, void *arg, size_t *count, char *why, size_t n)
{
    cl_uint np = 0;
    cl_int e = f->clGetPlatformIDs(0, NULL, &np);
    *count = 0;
    if (e == CL_PLATFORM_NOT_FOUND_KHR || (e == CL_SUCCESS && np == 0))
        return CN_OK;
    if (e != CL_SUCCESS) {
        say(why, n, "clGetPlatformIDs failed (OpenCL error %d)", (int)e);
        return CN_E_DEVICE;
    }
    cl_platform_id plats[64];
    if (np > 64)
        np = 64;
    if ((e = f->clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
        say(why, n, "clGetPlatformIDs failed (OpenCL error %d)", (int)e);
        return CN_E_DEVICE;
    }
    size_t k = 0;
    for (cl_uint i = 0; i < np; i++) {
        cl_uint nd = 0;
        if (f->clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
            continue; /* CL_DEVICE_NOT_FOUND: a platform without devices */
        cl_device_id devs[64];
        if (nd > 64)
            nd = 64;
        if (f->clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, devs, NULL) != CL_SUCCESS)
            continue;
        for (cl_uint j = 0; j < nd; j++, k++)
            if (visit && visit(k, plats[i], devs[j], arg)) {
                *count = k + 1;
                return CN_OK;
            }
    }
    *count = k;
    return CN_OK;
}

typedef struct list_arg {
    const cl_fns *f;
    cn_opencl_device *out;
    size_t cap;
} list_arg;

static int list_visit(size_t k, cl_platform_id p, cl_device_id d, void *arg)
{
    list_arg *a = (list_arg *)arg;
    if (k < a->cap)
        describe(a->f, p, d, &a->out[k]);
    return 0;
}

cn_status cn_opencl_devices(cn_opencl_device *out, size_t cap, size_t *count, char *why, size_t why_size)
{
    if (!count || (!out && cap > 0))
        return CN_E_NULL;
    *count = 0;
    cl_fns f;
    if (load(&f, why, why_size) != 0)
        return CN_E_DEVICE;
    list_arg a = {&f, out, cap};
    return walk(&f, list_visit, &a, count, why, why_size);
}

/* Picks the device of cn_opencl_open: index `want` >= 0, or the first usable GPU (then for
 * CN_OPENCL_ANY the first usable device) in the same walk. */
typedef struct pick_arg {
    const cl_fns *f;
    int want;
    cl_platform_id p, any_p;
    cl_device_id d, any_d;
    int exists; /* want >= 0: found (usable or not) */
} pick_arg;

static int pick_visit(size_t k, cl_platform_id p, cl_device_id d, void *arg)
{
    pick_arg *a = (pick_arg *)arg;
    if (a->want >= 0) {
        if (k != (size_t)a->want)
            return 0;
        a->p = p;
        a->d = d;
        a->exists = 1;
        return 1;
    }
    if (!has_fp64(a->f, d))
        return 0;
    cl_device_type t = 0;
    if (a->f->clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL) == CL_SUCCESS && (t & CL_DEVICE_TYPE_GPU)) {
        a->p = p;
        a->d = d;
        return 1;
    }
    if (!a->any_d) {
        a->any_p = p;
        a->any_d = d;
    }
    return 0;
}

void cn_opencl_close(cn_opencl *c)
{
    if (!c)
        return;
    const cl_fns *f = &c->cl;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < CN__KERNEL_COUNT; i++)
            if (c->kernel[p][i])
                f->clReleaseKernel(c->kernel[p][i]);
    for (int p = 0; p < 2; p++)
        if (c->program[p])
            f->clReleaseProgram(c->program[p]);
    cl_mem mems[6] = {c->gen, c->out, c->in[0], c->in[1], c->in[2], c->in[3]};
    for (int i = 0; i < 6; i++)
        if (mems[i])
            f->clReleaseMemObject(mems[i]);
    if (c->queue)
        f->clReleaseCommandQueue(c->queue);
    if (c->context)
        f->clReleaseContext(c->context);
    free(c);
}

cn_status cn_opencl_open(cn_opencl **out, int device, char *why, size_t why_size)
{
    if (!out)
        return CN_E_NULL;
    *out = NULL;
    if (device < CN_OPENCL_GPU) {
        say(why, why_size, "device %d: not an index, CN_OPENCL_ANY or CN_OPENCL_GPU", device);
        return CN_E_RANGE;
    }
    cn_opencl *c = calloc(1, sizeof *c);
    if (!c) {
        say(why, why_size, "out of memory");
        return CN_E_DEVICE;
    }
    if (load(&c->cl, why, why_size) != 0) {
        free(c);
        return CN_E_DEVICE;
    }
    const cl_fns *f = &c->cl;
    pick_arg a = {f, device, NULL, NULL, NULL, NULL, 0};
    size_t count = 0;
    cn_status st = walk(f, pick_visit, &a, &count, why, why_size);
    if (st != CN_OK) {
        free(c);
        return st;
    }
    if (device >= 0 && !a.exists) {
        say(why, why_size, "no OpenCL device %d (there are %lu)", device, (unsigned long)count);
        free(c);
        return CN_E_RANGE;
    }
    if (device == CN_OPENCL_ANY && !a.d) {
        a.p = a.any_p;
        a.d = a.any_d;
    }
    if (!a.d) {
        say(why, why_size, count == 0 ? "the OpenCL runtime has no devices"
                           : device == CN_OPENCL_GPU ? "no OpenCL GPU with double precision (cl_khr_fp64)"
                                                     : "no OpenCL device with double precision (cl_khr_fp64)");
        free(c);
        return CN_E_DEVICE;
    }
    describe(f, a.p, a.d, &c->info);
    if (!c->info.fp64) {
        say(why, why_size, "%s has no double precision (cl_khr_fp64), which the kernels need for lattice cells",
            c->info.name);
        free(c);
        return CN_E_UNSUPPORTED;
    }
    c->device = a.d;
    cl_int e = CL_SUCCESS;
    c->context = f->clCreateContext(NULL, 1, &c->device, NULL, NULL, &e);
    if (c->context && e == CL_SUCCESS)
        c->queue = f->clCreateCommandQueue(c->context, c->device, 0, &e);
    if (c->queue && e == CL_SUCCESS)
        c->gen = f->clCreateBuffer(c->context, CL_MEM_READ_ONLY, sizeof(cn__gen), NULL, &e);
    if (!c->gen || e != CL_SUCCESS) {
        say(why, why_size, "%s: could not create a context, queue or buffer (OpenCL error %d)", c->info.name, (int)e);
        cn_opencl_close(c);
        return CN_E_DEVICE;
    }
    *out = c;
    return CN_OK;
}

cn_status cn_opencl_info(const cn_opencl *c, cn_opencl_device *out)
{
    if (!c || !out)
        return CN_E_NULL;
    *out = c->info;
    return CN_OK;
}

const char *cn_opencl_message(const cn_opencl *c)
{
    return c ? c->message : "";
}

/* Records a failure in the context's message; returns CN_E_DEVICE. */
static cn_status fail(cn_opencl *c, const char *what, cl_int e)
{
    snprintf(c->message, sizeof c->message, "%s failed on %s (OpenCL error %d)", what, c->info.name, (int)e);
    return CN_E_DEVICE;
}

/* The host's layout of what the program reads, in the order of layout.h. */
static void host_layout(cl_ulong v[CN_CL_LAYOUT_COUNT])
{
    int i = 0;
#define CN_CL_SIZE(T) v[i++] = sizeof(T);
#define CN_CL_OFFSET(T, f) v[i++] = offsetof(T, f);
    CN_CL_LAYOUT(CN_CL_SIZE, CN_CL_OFFSET)
#undef CN_CL_SIZE
#undef CN_CL_OFFSET
}

/* Runs the program's cn_layout kernel and compares with the host: CN_OK or CN_E_DEVICE. */
static cn_status check_layout(cn_opencl *c, cl_program prog)
{
    const cl_fns *f = &c->cl;
    cl_int e;
    cl_kernel k = f->clCreateKernel(prog, "cn_layout", &e);
    if (!k || e != CL_SUCCESS)
        return fail(c, "clCreateKernel(cn_layout)", e);
    cl_mem buf = f->clCreateBuffer(c->context, CL_MEM_WRITE_ONLY, CN_CL_LAYOUT_COUNT * sizeof(cl_ulong), NULL, &e);
    cl_ulong dev[CN_CL_LAYOUT_COUNT] = {0}, host[CN_CL_LAYOUT_COUNT];
    const size_t one = 1;
    if (buf && e == CL_SUCCESS && (e = f->clSetKernelArg(k, 0, sizeof buf, &buf)) == CL_SUCCESS &&
        (e = f->clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &one, NULL, 0, NULL, NULL)) == CL_SUCCESS)
        e = f->clEnqueueReadBuffer(c->queue, buf, CL_TRUE, 0, sizeof dev, dev, 0, NULL, NULL);
    if (buf)
        f->clReleaseMemObject(buf);
    f->clReleaseKernel(k);
    if (e != CL_SUCCESS)
        return fail(c, "the layout check", e);
    host_layout(host);
    if (memcmp(dev, host, sizeof dev) != 0) {
        snprintf(c->message, sizeof c->message,
                 "%s lays out the generator differently from the host (size %llu, not %llu): not usable",
                 c->info.name, (unsigned long long)dev[0], (unsigned long long)host[0]);
        return CN_E_DEVICE;
    }
    return CN_OK;
}

/* The program of precision p (0 float, 1 double), compiled at its first use. Strict arithmetic:
 * FP_CONTRACT OFF in the source, no relaxed-math options; correctly rounded float division and
 * square root (cellular noise): the device's own where it offers them (CN_CL_CR_DIVIDE_SQRT tells
 * vec_opencl.h), else vec_opencl.h computes them in double and rounds. */
static cn_status program(cn_opencl *c, int p)
{
    if (c->program[p])
        return CN_OK;
    const cl_fns *f = &c->cl;
    cl_int e;
    const char *src = cn__opencl_program;
    const size_t len = cn__opencl_program_size;
    cl_program prog = f->clCreateProgramWithSource(c->context, 1, &src, &len, &e);
    if (!prog || e != CL_SUCCESS)
        return fail(c, "clCreateProgramWithSource", e);
    cl_device_fp_config fp = 0;
    if (f->clGetDeviceInfo(c->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL) != CL_SUCCESS)
        fp = 0;
    char options[128];
    snprintf(options, sizeof options, "-cl-std=CL1.2 -DCN_PREC=%d%s", p ? 64 : 32,
             (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) ? " -cl-fp32-correctly-rounded-divide-sqrt -DCN_CL_CR_DIVIDE_SQRT" : "");
    e = f->clBuildProgram(prog, 1, &c->device, options, NULL, NULL);
    if (e != CL_SUCCESS) {
        int at = snprintf(c->message, sizeof c->message, "the OpenCL program did not build on %s (error %d): ",
                          c->info.name, (int)e);
        size_t room = sizeof c->message - (size_t)at, got = 0;
        if (f->clGetProgramBuildInfo(prog, c->device, CL_PROGRAM_BUILD_LOG, room - 1, c->message + at, &got) !=
            CL_SUCCESS)
            got = 0;
        c->message[(size_t)at + (got < room ? got : room - 1)] = '\0';
        f->clReleaseProgram(prog);
        return CN_E_DEVICE;
    }
    cn_status st = check_layout(c, prog);
    if (st != CN_OK) {
        f->clReleaseProgram(prog);
        return st;
    }
    c->program[p] = prog;
    return CN_OK;
}

/* The kernel eval_<base> of precision p (0 float, 1 double) for kernel index kid. */
static cn_status kernel(cn_opencl *c, int p, uint32_t kid, cl_kernel *out)
{
    cn_status st = program(c, p);
    if (st != CN_OK)
        return st;
    if (!c->kernel[p][kid]) {
        char name[64];
        snprintf(name, sizeof name, "eval_%s_%s", kernel_base[kid], p ? "f64" : "f32");
        cl_int e;
        cl_kernel k = c->cl.clCreateKernel(c->program[p], name, &e);
        if (!k || e != CL_SUCCESS)
            return fail(c, "clCreateKernel", e);
        c->kernel[p][kid] = k;
    }
    *out = c->kernel[p][kid];
    return CN_OK;
}

/* A device buffer of at least `bytes`, kept in *buf (size *have) and grown when needed. */
static cn_status buffer(cn_opencl *c, cl_mem *buf, size_t *have, size_t bytes, cl_mem_flags flags)
{
    if (*buf && *have >= bytes)
        return CN_OK;
    if (*buf)
        c->cl.clReleaseMemObject(*buf);
    *have = 0;
    cl_int e;
    *buf = c->cl.clCreateBuffer(c->context, flags, bytes, NULL, &e);
    if (!*buf || e != CL_SUCCESS) {
        *buf = NULL;
        return fail(c, "clCreateBuffer", e);
    }
    *have = bytes;
    return CN_OK;
}

/* Runs a checked job of `total` points (src/batch.c's job) on the device; mm gets the range of
 * the results when the job wants it, by the CPU's rule. */
static cn_status run(cn_opencl *c, const cn__job *job, size_t total, double mm[2])
{
    const cl_fns *f = &c->cl;
    const int p = job->out_f32 ? 0 : 1, points = job->kind == CN__POINTS;
    const size_t osize = job->out_f32 ? sizeof(float) : sizeof(double), csize = job->coords_f32 ? sizeof(float) : sizeof(double);
    const int dims = job->g->cfg.dims;
    c->message[0] = '\0';
    cl_kernel k = NULL; /* set by kernel() on success; NULL only quiets gcc -O1 -Wmaybe-uninitialized */
    cn_status st = kernel(c, p, cn__gen_kernel(job->g), &k);
    if (st != CN_OK)
        return st;
    const size_t chunk = total < CN_CL_CHUNK ? total : CN_CL_CHUNK;
    if ((st = buffer(c, &c->out, &c->out_bytes, chunk * sizeof(double), CL_MEM_WRITE_ONLY)) != CN_OK)
        return st;
    if (points && c->in_bytes < chunk * sizeof(double)) { /* four coordinate buffers of one size */
        size_t have = 0;
        for (int a = 0; a < 4 && st == CN_OK; a++) {
            have = 0;
            st = buffer(c, &c->in[a], &have, chunk * sizeof(double), CL_MEM_READ_ONLY);
        }
        c->in_bytes = st == CN_OK ? have : 0;
        if (st != CN_OK)
            return st;
    }
    cl_int e = f->clEnqueueWriteBuffer(c->queue, c->gen, CL_TRUE, 0, sizeof(cn__gen), job->g, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return fail(c, "writing the generator", e);
    /* Arguments: 0 g, 1 points, 2 origin, 3 step, 4 count, 5 first, 6 n, 7-10 c0-c3, 11 out. */
    const cl_int points_arg = points;
    double geo[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    cl_ulong cnt[4] = {1, 1, 1, 1};
    for (int a = 0; !points && a < dims; a++) {
        geo[0][a] = job->origin[a];
        geo[1][a] = job->step[a];
        cnt[a] = job->count[a];
    }
    if ((e = f->clSetKernelArg(k, 0, sizeof c->gen, &c->gen)) == CL_SUCCESS &&
        (e = f->clSetKernelArg(k, 1, sizeof points_arg, &points_arg)) == CL_SUCCESS &&
        (e = f->clSetKernelArg(k, 2, sizeof geo[0], geo[0])) == CL_SUCCESS &&
        (e = f->clSetKernelArg(k, 3, sizeof geo[1], geo[1])) == CL_SUCCESS &&
        (e = f->clSetKernelArg(k, 4, sizeof cnt, cnt)) == CL_SUCCESS)
        for (int a = 0; a < 4 && e == CL_SUCCESS; a++) /* a grid reads none: the results' buffer stands in */
            e = f->clSetKernelArg(k, 7 + (cl_uint)a, sizeof(cl_mem), points ? &c->in[a] : &c->out);
    if (e == CL_SUCCESS)
        e = f->clSetKernelArg(k, 11, sizeof c->out, &c->out);
    if (e != CL_SUCCESS)
        return fail(c, "clSetKernelArg", e);
    for (size_t first = 0; first < total; first += chunk) {
        const size_t n = total - first < chunk ? total - first : chunk;
        const cl_ulong first_u = first, n_u = n;
        for (int a = 0; points && a < dims && e == CL_SUCCESS; a++)
            e = f->clEnqueueWriteBuffer(c->queue, c->in[a], CL_FALSE, 0, n * csize,
                                        (const char *)job->coords[a] + first * csize, 0, NULL, NULL);
        if (e == CL_SUCCESS && (e = f->clSetKernelArg(k, 5, sizeof first_u, &first_u)) == CL_SUCCESS)
            e = f->clSetKernelArg(k, 6, sizeof n_u, &n_u);
        if (e != CL_SUCCESS)
            return fail(c, "setting up a launch", e);
        /* A multiple of 64 work-items (the kernels return past n): OpenCL 1.2 picks a work-group
         * size that divides the global size, which for an odd n would be tiny. On a CPU device
         * work-groups of 64: PoCL's own choice there (4096) made the work-group function of the
         * simplex kernels overrun its thread's stack now and then (a crash seen with a fresh
         * kernel cache); GPUs keep the runtime's choice. */
        const size_t global = (n + 63) / 64 * 64, local = 64;
        if ((e = f->clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, c->info.type == CN_DEVICE_CPU ? &local : NULL,
                                           0, NULL, NULL)) != CL_SUCCESS)
            return fail(c, "clEnqueueNDRangeKernel", e);
        if ((e = f->clEnqueueReadBuffer(c->queue, c->out, CL_TRUE, 0, n * osize, (char *)job->out + first * osize, 0,
                                        NULL, NULL)) != CL_SUCCESS)
            return fail(c, "reading the results", e);
    }
    if (job->want_range) {
        double lo = INFINITY, hi = -INFINITY;
        if (job->out_f32)
            for (size_t i = 0; i < total; i++)
                cn__range_add(&lo, &hi, ((const float *)job->out)[i]);
        else
            for (size_t i = 0; i < total; i++)
                cn__range_add(&lo, &hi, ((const double *)job->out)[i]);
        if (lo > hi)
            lo = hi = NAN;
        mm[0] = lo;
        mm[1] = hi;
    }
    return CN_OK;
}

static cn_status grid(cn_opencl *c, const cn_noise *gen, const double *origin, const double *step, const size_t *count,
                      void *out, size_t out_len, int f32, double mm[2], int want_range)
{
    if (!c)
        return CN_E_NULL;
    cn__job job;
    size_t total;
    cn_status st = cn__grid_job(cn__gen_of(gen), origin, step, count, out, out_len, f32, want_range, &job, &total);
    return st != CN_OK ? st : run(c, &job, total, mm);
}

static cn_status points(cn_opencl *c, const cn_noise *gen, size_t n, const void *const *coords, void *out, int f32,
                        double mm[2], int want_range)
{
    if (!c)
        return CN_E_NULL;
    cn__job job;
    cn_status st = cn__points_job(cn__gen_of(gen), n, coords, f32, out, f32, want_range, &job);
    if (st != CN_OK)
        return st;
    if (n == 0) {
        mm[0] = mm[1] = NAN;
        return CN_OK;
    }
    return run(c, &job, n, mm);
}

cn_status cn_opencl_grid_eval(cn_opencl *c, const cn_noise *gen, const double *origin, const double *step,
                              const size_t *count, double *out, size_t out_len, double range[2])
{
    double mm[2];
    cn_status st = grid(c, gen, origin, step, count, out, out_len, 0, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = mm[0];
        range[1] = mm[1];
    }
    return st;
}

cn_status cn_opencl_grid_evalf(cn_opencl *c, const cn_noise *gen, const double *origin, const double *step,
                               const size_t *count, float *out, size_t out_len, float range[2])
{
    double mm[2];
    cn_status st = grid(c, gen, origin, step, count, out, out_len, 1, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = (float)mm[0];
        range[1] = (float)mm[1];
    }
    return st;
}

cn_status cn_opencl_points_eval(cn_opencl *c, const cn_noise *gen, size_t n, const double *const *coords, double *out,
                                double range[2])
{
    double mm[2];
    cn_status st = points(c, gen, n, (const void *const *)coords, out, 0, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = mm[0];
        range[1] = mm[1];
    }
    return st;
}

cn_status cn_opencl_points_evalf(cn_opencl *c, const cn_noise *gen, size_t n, const float *const *coords, float *out,
                                 float range[2])
{
    double mm[2];
    cn_status st = points(c, gen, n, (const void *const *)coords, out, 1, mm, range != NULL);
    if (st == CN_OK && range) {
        range[0] = (float)mm[0];
        range[1] = (float)mm[1];
    }
    return st;
}
