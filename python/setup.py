"""Builds cnoise._cnoise: the C library with CMake from this checkout, then the extension.

The C library's kernels are compiled once per instruction set, each file with its own flags
(-mavx2, -mavx512f ...) and the strict floating-point flags; only the project's CMake build knows
them, so the extension links the static library that CMake builds rather than compiling the C
sources itself. Environment:
  CNOISE_LIBRARY=path/to/libcnoise.a   link this archive (a build of the same checkout) instead
  CNOISE_BUILD_DIR=dir                 CMake build folder (default: <repo>/build-python)
  CNOISE_JOBS=N                        parallel compile jobs (default: the number of CPUs)
  CNOISE_PY_SANITIZE=1                 library and extension with AddressSanitizer + UBSan
                                       (folder build-python-asan; run with LD_PRELOAD=libasan.so)
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SANITIZE = os.environ.get("CNOISE_PY_SANITIZE") == "1"


def version():
    """The library's version, from the public header (one source of truth)."""
    text = (REPO / "include" / "cnoise.h").read_text()
    return re.search(r'#define CN_VERSION_STRING "([^"]+)"', text).group(1)


class CMakeBuildExt(build_ext):
    """build_ext that first builds libcnoise.a with CMake (or takes CNOISE_LIBRARY)."""

    def library(self):
        given = os.environ.get("CNOISE_LIBRARY")
        if given:
            lib = Path(given).resolve()
            if not lib.is_file():
                sys.exit(f"cnoise: CNOISE_LIBRARY={given} is not a file")
            return lib
        if not (REPO / "CMakeLists.txt").is_file():
            sys.exit(f"cnoise: {REPO} is not a cnoise checkout (no CMakeLists.txt): build from the repository")
        default = "build-python-asan" if SANITIZE else "build-python"
        build = Path(os.environ.get("CNOISE_BUILD_DIR", REPO / default)).resolve()
        jobs = os.environ.get("CNOISE_JOBS", str(os.cpu_count() or 1))
        configure = ["cmake", "-S", str(REPO), "-B", str(build),
                     "-DCNOISE_BUILD_CLI=OFF", "-DCNOISE_BUILD_TESTS=OFF", "-DCNOISE_BUILD_BENCH=OFF",
                     "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
                     "-DCMAKE_BUILD_TYPE=" + ("RelWithDebInfo" if SANITIZE else "Release"),
                     "-DCNOISE_SANITIZE=" + ("ON" if SANITIZE else "OFF")]
        print("cnoise:", " ".join(configure), flush=True)
        subprocess.check_call(configure, stdout=subprocess.DEVNULL)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "cnoise_static", "-j", jobs])
        return build / "libcnoise.a"

    def build_extensions(self):
        # One C file: always rebuild it, since setuptools would reuse an object compiled with
        # other flags (CNOISE_PY_SANITIZE) or keep a module linked with an older libcnoise.a.
        self.force = True
        lib = str(self.library())
        for ext in self.extensions:
            ext.extra_objects = [lib]
        super().build_extensions()


san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"] if SANITIZE else []
setup(
    version=version(),
    ext_modules=[Extension(
        "cnoise._cnoise",
        sources=["cnoise/_cnoise.c"],
        include_dirs=[str(REPO / "include"), numpy.get_include()],
        libraries=["m", "pthread"],
        extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers"] + san,
        extra_link_args=san,
    )],
    cmdclass={"build_ext": CMakeBuildExt},
)
