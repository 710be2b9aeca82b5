/*
 * core.h -- scalar math shared by every layer: seed mixing, the reference permutation, the
 * constants of the kernels. static inline, no intrinsics, no I/O, no libm.
 */
#ifndef CN_CORE_H
#define CN_CORE_H

#include <stdint.h>

#ifndef __OPENCL_VERSION__ /* the library's data; the OpenCL C build (src/opencl/noise.cl) needs none */
/* Ken Perlin's reference permutation of 0..255 (ImprovedNoise, 2002). */
extern const uint8_t cn__perlin_perm[256];
#endif

/*
 * SplitMix64 (Steele, Lea, Flood 2014): state += golden gamma, then a 64-bit finaliser.
 * Used to expand a 64-bit seed into lattice keys and to drive the classic-mode shuffle.
 */
static inline uint64_t cn__splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/*
 * Lattice hashing, default mode. A corner (X, Y, Z, W) (each floor(coordinate) mod 2^32) hashes to
 *     h = mix32( (X*PX ^ kx) + (Y*PY ^ ky) + (Z*PZ ^ kz) + (W*PW ^ kw) + k0 )
 * with odd multipliers P (so each axis term is a bijection of 2^32 cells: no repetition within 2^32
 * cells along an axis) and five 32-bit keys drawn from the 64-bit seed by SplitMix64. The per-axis
 * terms are computed once per cell and shared by every corner.
 * mix32(s) = (s ^ (s >> 14)) * M: the multiply carries every bit of s into the top bits, and the
 * xor-shift first folds the top bits into the bottom ones so that they reach the top too. Kernels
 * use only the top bits of h (gradient indices, value-noise lattice values). Three operations per
 * corner; version 0.2 used the eight of lowbias32, so 0.3 changed every default-mode value.
 * tests/test_props.c checks that the lattice values of neighbouring cells (along every axis, the
 * diagonals and at distances 2 to 16) are jointly uniform, which is what the gradient choice needs.
 */
#define CN_PX UINT32_C(0x9E3779B1)
#define CN_PY UINT32_C(0x85EBCA77)
#define CN_PZ UINT32_C(0xC2B2AE3D)
#define CN_PW UINT32_C(0x27D4EB2F)
#define CN_MIX_SHIFT 14
#define CN_MIX_M UINT32_C(0x846CA68B)

/* Permutation and key derivation (src/core/core.c). */
void cn__classic_perm(uint64_t seed, uint8_t perm[256]);
void cn__lattice_keys(uint64_t seed, uint32_t key[5]);

/*
 * Skew factors of the simplex lattice (Gustavson, "Simplex noise demystified"):
 *   Fn = (sqrt(n+1) - 1) / n     maps the simplex grid onto the integer (hypercubic) grid,
 *   Gn = (1 - 1/sqrt(n+1)) / n   maps back.
 * Written as the doubles the reference computes; tests/test_golden.c checks them against the
 * expressions evaluated with libm.
 */
#define CN_F2 0.36602540378443860   /* 0.5*(sqrt(3)-1) */
#define CN_G2 0.21132486540518713   /* (3-sqrt(3))/6 */
#define CN_F3 (1.0 / 3.0)
#define CN_G3 (1.0 / 6.0)
#define CN_F4 0.30901699437494745   /* (sqrt(5)-1)/4 */
#define CN_G4 0.1381966011250105    /* (5-sqrt(5))/20 */

/* cos(pi/8), sin(pi/8): the 2D default gradients are (+-C8, +-S8) and (+-S8, +-C8). */
#define CN_C8 0.92387953251128674
#define CN_S8 0.38268343236508978

/*
 * Default-mode scale constants: 1 / M, where M is the supremum of the unscaled kernel over all
 * gradient assignments (docs/RANGE.md; guarded by tests/test_range.c, which recomputes M).
 */
#define CN_SCALE_PERLIN1 2.0
#define CN_SCALE_PERLIN2 CN_SCALE_PERLIN2_VALUE
#define CN_SCALE_PERLIN3 CN_SCALE_PERLIN3_VALUE
#define CN_SCALE_PERLIN4 CN_SCALE_PERLIN4_VALUE
#define CN_SCALE_SIMPLEX2 CN_SCALE_SIMPLEX2_VALUE
#define CN_SCALE_SIMPLEX3 CN_SCALE_SIMPLEX3_VALUE
#define CN_SCALE_SIMPLEX4 CN_SCALE_SIMPLEX4_VALUE
#include "scales.h"

#endif
