#!/usr/bin/env bash
# Installs the Python package (python/) for Debian's python3, linked against BUILD_DIR's
# libcnoise.a, unless the installed one is newer than its sources:
#   scripts/install-python.sh [BUILD_DIR]     default: build
# As root it installs for every user (/usr/local/lib/python3*/dist-packages), otherwise into
# ~/.local (pip --user). Debian marks its Python as externally managed; the package comes from
# this checkout and needs only Debian's numpy, so it is installed with --break-system-packages.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
py=${CNOISE_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
stamp="$build/python-installed.stamp"
if [ -f "$stamp" ] && [ -z "$(find "$root/python/cnoise" "$root/python/setup.py" "$root/python/pyproject.toml" \
      "$build/libcnoise.a" -newer "$stamp" -print -quit 2>/dev/null)" ]; then
  exit 0
fi
args=(--quiet --no-build-isolation --no-deps --no-index --root-user-action=ignore --break-system-packages)
[ "$(id -u)" -eq 0 ] || args+=(--user)
[ -f "$build/libcnoise.a" ] && export CNOISE_LIBRARY="$build/libcnoise.a"
"$py" -m pip install "${args[@]}" "$root/python"
touch "$stamp"
echo "cnoise: installed the Python package for $py (import cnoise)" >&2
