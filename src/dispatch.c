/*
 * dispatch.c -- picks the instruction-set build of the kernels: the widest one this build contains
 * and the CPU and OS can run, capped by CNOISE_ISA or cn_isa_set_cap (a cap is a register width).
 * The choice is made once, published atomically, and recomputed only when the cap changes.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "cnoise.h"
#include "dispatch.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define CN_X86 1
#endif

/* The builds this library contains (CMake defines CN_HAVE_<ISA> for each compiled pair of files
 * src/isa/isa_<isa>_f64.c and _f32.c). */
#define CN_ISA_TABLE_OF(isa, label)                                                       \
    extern const cn__isa_part cn__##isa##_f64, cn__##isa##_f32;                           \
    const cn__isa_table cn__isa_##isa = {label, &cn__##isa##_f64, &cn__##isa##_f32};
CN_ISA_TABLE_OF(scalar, "scalar")
#ifdef CN_HAVE_SSE2
CN_ISA_TABLE_OF(sse2, "sse2")
#endif
#ifdef CN_HAVE_AVX2
CN_ISA_TABLE_OF(avx2, "avx2")
#endif
#ifdef CN_HAVE_AVX512
CN_ISA_TABLE_OF(avx512, "avx512")
#endif
#ifdef CN_HAVE_NEON
CN_ISA_TABLE_OF(neon, "neon")
#endif
/* WebAssembly SIMD128 (emcc -msimd128, scripts/build-wasm.sh) holds the slot of the other non-x86
 * 128-bit set, CN_ISA_NEON: the two never meet in one build, and a cap means a register width. */
#ifdef CN_HAVE_WASM128
CN_ISA_TABLE_OF(wasm, "simd128")
#endif
#ifdef CN_HAVE_POINTAVX
extern const cn__point_f64_set cn__pointavx_f64_table;
extern const cn__point_f32_set cn__pointavx_f32_table;
#endif

static const cn__isa_table *table_of(cn_isa isa)
{
    switch (isa) {
    case CN_ISA_SCALAR: return &cn__isa_scalar;
#ifdef CN_HAVE_SSE2
    case CN_ISA_SSE2: return &cn__isa_sse2;
#endif
#ifdef CN_HAVE_AVX2
    case CN_ISA_AVX2: return &cn__isa_avx2;
#endif
#ifdef CN_HAVE_AVX512
    case CN_ISA_AVX512: return &cn__isa_avx512;
#endif
#ifdef CN_HAVE_NEON
    case CN_ISA_NEON: return &cn__isa_neon;
#endif
#ifdef CN_HAVE_WASM128
    case CN_ISA_NEON: return &cn__isa_wasm;
#endif
    default: return NULL;
    }
}

const char *cn_isa_name(cn_isa isa)
{
#ifdef __wasm__
    static const char *const names[CN_ISA_COUNT] = {"scalar", "sse2", "avx2", "avx512", "simd128"};
#else
    static const char *const names[CN_ISA_COUNT] = {"scalar", "sse2", "avx2", "avx512", "neon"};
#endif
    return (int)isa >= 0 && isa < CN_ISA_COUNT ? names[isa] : "unknown";
}

int cn_isa_compiled(cn_isa isa) { return table_of(isa) != NULL; }

#ifdef CN_X86
/* XCR0 through xgetbv (the OS saves those register states); only called when OSXSAVE is set. */
static unsigned long long xgetbv0(void)
{
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}
#endif

#ifdef CN_HAVE_POINTAVX /* x86 only (CMakeLists.txt) */
/* Whether the single-point entries compiled with AVX can run here: AVX, and the OS saves YMM. */
static int avx_points(void)
{
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1) || !((c >> 28) & 1))
        return 0;
    return (xgetbv0() & 0x6) == 0x6;
}
#endif

int cn_isa_supported(cn_isa isa)
{
    if (isa == CN_ISA_SCALAR)
        return 1;
#if defined(__aarch64__)
    /* Advanced SIMD is part of the AArch64 base architecture: every CPU that runs this code has it. */
    if (isa == CN_ISA_NEON)
        return 1;
#endif
#if defined(__wasm_simd128__)
    /* A module with SIMD128 instructions only loads (validates) on an engine that has them. */
    if (isa == CN_ISA_NEON)
        return 1;
#endif
#ifdef CN_X86
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const int sse2 = (d >> 26) & 1, sse41 = (c >> 19) & 1, osxsave = (c >> 27) & 1;
    const int avx = (c >> 28) & 1, fma = (c >> 12) & 1;
    if (isa == CN_ISA_SSE2)
        return sse2;
    if (!osxsave || !avx || !sse41)
        return 0;
    const unsigned long long xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) /* XMM and YMM state */
        return 0;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    const int avx2 = (b >> 5) & 1, bmi2 = (b >> 8) & 1;
    if (isa == CN_ISA_AVX2)
        return avx2 && fma && bmi2;
    if (isa == CN_ISA_AVX512) {
        const int f = (b >> 16) & 1, dq = (b >> 17) & 1, bw = (b >> 30) & 1, vl = (b >> 31) & 1;
        return avx2 && f && dq && bw && vl && (xcr0 & 0xE6) == 0xE6; /* + opmask, ZMM state */
    }
#endif
    return 0;
}

/* The cap: -1 = not read yet; else a cn_isa (CN_ISA_COUNT = none). */
static atomic_int api_cap = CN_ISA_COUNT;
static atomic_int env_cap = -1;
static _Atomic(const cn__isa_table *) active;
static atomic_int active_isa;
_Atomic(const cn__point_f64_set *) cn__point_f64_now;
_Atomic(const cn__point_f32_set *) cn__point_f32_now;

static int read_env_cap(void)
{
    const char *e = getenv("CNOISE_ISA");
    if (e)
        for (int i = 0; i < CN_ISA_COUNT; i++)
            if (strcmp(e, cn_isa_name((cn_isa)i)) == 0)
                return i;
    return CN_ISA_COUNT; /* unset or unknown: no cap */
}

void cn__isa_choose(void)
{
    int cap = atomic_load(&api_cap);
    if (cap == CN_ISA_COUNT) {
        int env = atomic_load(&env_cap);
        if (env < 0) {
            env = read_env_cap();
            atomic_store(&env_cap, env);
        }
        cap = env;
    }
    /* The cap is a register width, so it means the same on every architecture: CNOISE_ISA=neon
     * on x86 allows SSE2 (128 bits), avx2 on ARM allows NEON. At most one instruction set of each
     * width runs on any one machine, so the widest allowed one is the choice. */
    static const int width[CN_ISA_COUNT + 1] = {0, 128, 256, 512, 128, 1 << 30};
    int best = CN_ISA_SCALAR;
    for (int i = CN_ISA_SCALAR + 1; i < CN_ISA_COUNT; i++)
        if (width[i] <= width[cap] && width[i] > width[best] && cn_isa_compiled((cn_isa)i) &&
            cn_isa_supported((cn_isa)i))
            best = i;
    /* The single-point entries run one lane whatever the cap; a cap of scalar keeps them on the
     * baseline build too (so CNOISE_ISA=scalar tests both builds of them). Same bits either way. */
#ifdef CN_HAVE_POINTAVX
    if (cap != CN_ISA_SCALAR && avx_points()) {
        atomic_store(&cn__point_f64_now, &cn__pointavx_f64_table);
        atomic_store(&cn__point_f32_now, &cn__pointavx_f32_table);
    } else
#endif
    {
        atomic_store(&cn__point_f64_now, &cn__point_f64_table);
        atomic_store(&cn__point_f32_now, &cn__point_f32_table);
    }
    atomic_store(&active_isa, best);
    atomic_store(&active, table_of((cn_isa)best));
}

const cn__isa_table *cn__isa_table_active(void)
{
    const cn__isa_table *t = atomic_load(&active);
    if (!t) {
        cn__isa_choose();
        t = atomic_load(&active);
    }
    return t;
}

cn_isa cn_isa_active(void)
{
    cn__isa_table_active();
    return (cn_isa)atomic_load(&active_isa);
}

cn_status cn_isa_set_cap(cn_isa cap)
{
    if ((int)cap < 0 || (int)cap > CN_ISA_COUNT)
        return CN_E_ISA;
    atomic_store(&api_cap, (int)cap);
    cn__isa_choose();
    return CN_OK;
}
