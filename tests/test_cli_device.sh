#!/usr/bin/env bash
# test_cli_device.sh -- "--device cpu|opencl|gpu|auto" of render, volume, animate and map.
#
# Usage: bash tests/test_cli_device.sh path/to/cnoise
# The files made on an OpenCL device must be the CPU's byte for byte (render: float32 raw and
# PNG; volume: float32 .npy; animate: 4D frames as PNGs). Those parts need an OpenCL device with
# double precision (PoCL in CI); without one they are skipped with the reason. The rest (the
# option's errors, sums of layers, a runtime without devices) runs everywhere.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$(t_abs "$1")
none_dir=$T/no-vendors
mkdir -p "$none_dir"

# The option itself.
"$CNOISE" render --device bogus -o "$T/x.png" >"$T/out" 2>"$T/err"
rc=$?
check "an unknown device is a usage error" eval '[ $rc -eq 2 ] && grep -q "device: .bogus. is not cpu, opencl, gpu or auto" "$T/err"'
check "render --help names --device" grep -q -- '--device D' <("$CNOISE" render --help)
"$CNOISE" render --size 40x30 --fractal fbm --octaves 4 --seed 5 --format f32 -o "$T/plain.f32" >/dev/null 2>&1
"$CNOISE" render --size 40x30 --fractal fbm --octaves 4 --seed 5 --format f32 --device cpu -o "$T/cpu.f32" >/dev/null 2>&1
check "--device cpu is the default" cmp -s "$T/plain.f32" "$T/cpu.f32"

# No OpenCL device at all (the loader pointed at an empty vendor folder, or no loader). Some
# loaders (the one NVIDIA's CUDA installs) ignore OCL_ICD_VENDORS and find their device anyway:
# there the cases that need "no device" cannot run.
OCL_ICD_VENDORS=$none_dir "$CNOISE" info >"$T/out" 2>&1
if grep -q '^opencl: [0-9][0-9]* device' "$T/out"; then
  skip "this OpenCL loader finds devices with OCL_ICD_VENDORS pointed at an empty folder"
else
  check "info without a device: opencl: none (reason)" grep -q '^opencl: none (' "$T/out"
  OCL_ICD_VENDORS=$none_dir "$CNOISE" render --size 8x8 --device opencl -o "$T/none.png" >"$T/out" 2>"$T/err"
  rc=$?
  check "--device opencl without a device fails and says why" eval '[ $rc -eq 1 ] && grep -q "device opencl: " "$T/err" && [ ! -e "$T/none.png" ]'
fi
OCL_ICD_VENDORS=$none_dir "$CNOISE" render --size 40x30 --fractal fbm --octaves 4 --seed 5 --format f32 \
    --device auto -o "$T/auto-none.f32" >/dev/null 2>&1
check "--device auto without a device uses the CPU" cmp -s "$T/plain.f32" "$T/auto-none.f32"

# Sums of layers run on the CPU.
"$CNOISE" render --size 8x8 --layer 'seed=3' --device opencl -o "$T/layers.png" >"$T/out" 2>"$T/err"
rc=$?
check "layers with --device opencl are refused" eval '[ $rc -eq 2 ] && grep -q "sums of layers" "$T/err"'

# On a device: the same bytes as the CPU.
"$CNOISE" info >"$T/info" 2>&1
if ! grep -q '^opencl [0-9]*: .*, fp64,' "$T/info"; then
    skip "no OpenCL device with double precision ($(grep '^opencl' "$T/info" | head -n1))"
else
    same() { # label, cnoise arguments (the output file is the last one: cpu and opencl runs write a/ and b/)
        local label=$1
        shift
        rm -rf "$T/a" "$T/b"
        mkdir -p "$T/a" "$T/b"
        (cd "$T/a" && "$CNOISE" "$@" --device cpu >/dev/null 2>"$T/err-a")
        local ra=$?
        (cd "$T/b" && "$CNOISE" "$@" --device opencl >/dev/null 2>"$T/err-b")
        local rb=$?
        check "$label: both succeed ($ra, $rb; $(head -c 300 "$T/err-b"))" [ "$ra" -eq 0 -a "$rb" -eq 0 ]
        check "$label: the same files" diff -r "$T/a" "$T/b"
    }
    same "render perlin fbm f32" render --size 70x50 --fractal fbm --octaves 5 --seed 9 --format f32 -o out.f32
    same "render simplex ridged tiled png" render --noise simplex --size 128x128 --fractal ridged --seed 2 --tile -o out.png
    same "render float value-cubic 3D slice" render --noise value-cubic --dims 3 --z 2.5 --precision float --size 33x21 -o out.png
    same "render opensimplex2 3D fbm f32" render --noise opensimplex2 --dims 3 --z 7 --fractal fbm --size 40x30 --format f32 -o out.f32
    same "render opensimplex2 2D tiled png" render --noise opensimplex2 --size 64x64 --frequency 0.03125 --tile --seed 3 -o out.png
    same "render opensimplex2s 3D f32" render --noise opensimplex2s --dims 3 --z 5 --size 40x30 --format f32 -o out.f32
    same "render opensimplex2s 2D tiled fbm png" render --noise opensimplex2s --size 64x64 --frequency 0.0625 --fractal fbm --tile -o out.png
    same "volume perlin 3D npy" volume --size 20x18x9 --fractal turbulence --seed 4 --format npy -o vol.npy
    same "animate perlin 4D frames" animate --dims 4 --size 24x16 --frames 3 --png 'f%d.png' -o anim.gif
    same "map" map --size 96x48 --seed 7 -o map.png
    if grep -q '^opencl [0-9]*: .*, gpu, .*, fp64,' "$T/info"; then
        same "render on the GPU" render --size 70x50 --format f32 --device gpu -o gpu.f32
    else
        "$CNOISE" render --size 8x8 --device gpu -o "$T/gpu.png" >"$T/out" 2>"$T/err"
        rc=$?
        check "--device gpu without a GPU fails and says why" eval '[ $rc -eq 1 ] && grep -q "no OpenCL GPU" "$T/err"'
    fi
fi

t_end
