#!/usr/bin/env bash
# Installs what building and testing cnoise needs on Debian/Ubuntu: a C compiler, CMake, make,
# pkg-config, libpng, giflib (animated GIFs), ISA-L (fast PNG deflate, amd64 and arm64), libyaml (recipes), jansson (sidecars), OpenEXR 3 (its
# C library OpenEXRCore), libtiff, libgeotiff and PROJ (float TIFF and GeoTIFF), python3 with numpy
# (used by the tests to decode PNGs and load .npy files), and the independent readers the tests
# check the float files with: python3-tifffile and OpenEXR's exrheader (package openexr); clang when asked
# (CNOISE_WITH_CLANG=1); clang's sanitizer and libFuzzer runtimes for scripts/fuzz.sh
# (CNOISE_WITH_FUZZ=1: libclang-rt-dev, only recommended by clang); valgrind (CNOISE_WITH_VALGRIND=1); g++ and the benchmark's peer libraries when asked (CNOISE_WITH_BENCH=1:
# libstb-dev for stb_perlin.h, libnoise-dev for libnoise, python3-noise for python/bench.py);
# PoCL and the OpenCL ICD loader for the OpenCL tests (CNOISE_WITH_OPENCL=1: pocl-opencl-icd,
# ocl-icd-libopencl1).
# The Python package (python/) needs python3-dev, python3-setuptools, python3-wheel, python3-pip
# and python3-pytest, and its Dask front end (cnoise.dask) and its tests python3-dask,
# python3-distributed (a local cluster), python3-zarr and python3-xarray: always installed. As root, missing packages are installed
# with apt-get; otherwise their names are printed and the script fails.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v make >/dev/null 2>&1 || need+=(make)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v python3 >/dev/null 2>&1 || need+=(python3)
have_pkg libpng-dev || need+=(libpng-dev)
have_pkg libgif-dev || need+=(libgif-dev)
have_pkg libyaml-dev || need+=(libyaml-dev)
have_pkg libjansson-dev || need+=(libjansson-dev)
have_pkg libopenexr-dev || need+=(libopenexr-dev)
have_pkg libtiff-dev || need+=(libtiff-dev)
have_pkg libgeotiff-dev || need+=(libgeotiff-dev)
have_pkg libproj-dev || need+=(libproj-dev)
# ISA-L's igzip deflates PNG files 3.4 times faster than zlib (src/image/image.c); Debian builds it
# for these architectures only, and the tool falls back to zlib without it.
case "$(dpkg --print-architecture 2>/dev/null)" in
  amd64 | arm64) have_pkg libisal-dev || need+=(libisal-dev) ;;
esac
have_pkg python3-tifffile || need+=(python3-tifffile)
command -v exrheader >/dev/null 2>&1 || need+=(openexr)
have_pkg python3-numpy || need+=(python3-numpy)
# The Python package (python/): its extension's build and its tests.
for p in python3-dev python3-setuptools python3-wheel python3-pip python3-pytest \
         python3-dask python3-distributed python3-zarr python3-xarray; do
  have_pkg "$p" || need+=("$p")
done
if [ "${CNOISE_WITH_CLANG:-0}" = 1 ]; then
  command -v clang >/dev/null 2>&1 || need+=(clang)
fi
if [ "${CNOISE_WITH_FUZZ:-0}" = 1 ]; then
  command -v clang >/dev/null 2>&1 || need+=(clang)
  have_pkg libclang-rt-dev || need+=(libclang-rt-dev)
fi
if [ "${CNOISE_WITH_OPENCL:-0}" = 1 ]; then
  # The OpenCL tests (test_opencl, test_cli_device): PoCL, an OpenCL runtime for the CPU, and the
  # ICD loader (libOpenCL.so.1) that the library opens at run time. Nothing of OpenCL is needed to
  # build: without these the tests skip and say why.
  have_pkg pocl-opencl-icd || need+=(pocl-opencl-icd)
  have_pkg ocl-icd-libopencl1 || need+=(ocl-icd-libopencl1)
fi
if [ "${CNOISE_WITH_VALGRIND:-0}" = 1 ]; then
  command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
fi
if [ "${CNOISE_WITH_BENCH:-0}" = 1 ]; then
  command -v c++ >/dev/null 2>&1 || need+=(g++)
  have_pkg libstb-dev || need+=(libstb-dev)
  have_pkg libnoise-dev || need+=(libnoise-dev)
  have_pkg python3-noise || need+=(python3-noise) # python/bench.py: noise.pnoise2 in a loop
fi

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "cnoise: missing packages: ${need[*]}" >&2
  echo "install them with: sudo apt-get install ${need[*]}" >&2
  exit 1
fi
echo "cnoise: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
