#!/usr/bin/env bash
# Sets up, builds (the library, the tool and the Python package), and runs the main job: draws the default terrain map ("cnoise map").
#   scripts/run.sh                      -> writes map.png in the current directory and says so
#   scripts/run.sh render -o out.png    -> any cnoise command line
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j"$(nproc)" >/dev/null
"$root/scripts/install-python.sh" "$root/build"   # import cnoise (python/), against this build
if [ $# -eq 0 ]; then
  set -- map
fi
exec "$root/build/cnoise" "$@"
