#!/usr/bin/env bash
# Builds the Python package (python/) against a CMake build of this checkout, installs it into a
# folder of that build, and runs its pytest suite there.
#   scripts/test-python.sh [BUILD_DIR]     default: build (as scripts/run.sh makes it)
# BUILD_DIR's libcnoise.a is linked into the extension (CNOISE_LIBRARY) and into the tests' C
# reference helper, and its cnoise tool is compared with the package (CNOISE_CLI). Without a
# libcnoise.a there, the package build makes one with CMake in build-python/.
# CNOISE_PYTHON picks the interpreter (default /usr/bin/python3, Debian's, which sees numpy).
# CNOISE_PY_ASAN=1 builds the extension with AddressSanitizer + UBSan and runs the suite with
# libasan preloaded (leak detection off: the interpreter keeps memory until exit on purpose).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
py=${CNOISE_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
site="$build/python-site"
rm -rf "$site"
if [ -f "$build/libcnoise.a" ]; then
  export CNOISE_LIBRARY="$build/libcnoise.a"
fi
if [ -x "$build/cnoise" ]; then
  export CNOISE_CLI="$build/cnoise"
fi
echo "== python: pip install --target $site python/"
if [ "${CNOISE_PY_ASAN:-0}" = 1 ]; then
  export CNOISE_PY_SANITIZE=1 CNOISE_REF_CFLAGS="-fsanitize=address,undefined"
fi
rm -rf "$root/python/build"
"$py" -m pip install --quiet --no-build-isolation --no-deps --no-index --root-user-action=ignore --target "$site" "$root/python"
echo "== python: pytest"
# From inside the install folder: `import cnoise` is the built package, not the source folder.
cd "$site"
if [ "${CNOISE_PY_ASAN:-0}" = 1 ]; then
  export LD_PRELOAD="$(cc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0 \
         UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fi
PYTHONPATH="$site" "$py" -m pytest -q -rs --durations=5 -p no:cacheprovider "$root/python/tests"
