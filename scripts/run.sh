#!/usr/bin/env bash
# Sets up, builds, and runs the main job: renders the default noise picture.
#   scripts/run.sh                      -> writes noise.png in the current directory
#   scripts/run.sh render -o out.png    -> any cnoise command line
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j"$(nproc)" >/dev/null
if [ $# -eq 0 ]; then
  set -- render -o noise.png
fi
exec "$root/build/cnoise" "$@"
