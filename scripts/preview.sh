#!/usr/bin/env bash
# Builds the browser preview (scripts/build-wasm.sh --web) and serves it on 127.0.0.1 only:
#
#   scripts/preview.sh [PORT]        (default 8023; then open http://127.0.0.1:PORT/)
#
# The page is static (build-wasm/web/: index.html, app.js, worker.js, style.css and the two
# WebAssembly modules) and works from any static file host; it loads nothing from elsewhere.
# Needs emscripten and node-acorn (Debian) to build, and python3 to serve (http.server). Stop it
# with Ctrl-C.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
port=${1:-8023}
case "$port" in
  ''|*[!0-9]*) echo "preview: PORT must be a number, not '$port'" >&2; exit 2 ;;
esac
[ "$port" -ge 1 ] && [ "$port" -le 65535 ] || { echo "preview: PORT must be 1..65535" >&2; exit 2; }
dir=${CNOISE_WASM_BUILD:-$root/build-wasm}
"$root/scripts/build-wasm.sh" --web "$dir"
echo "preview: serving $dir/web on http://127.0.0.1:$port/ (Ctrl-C stops it)"
exec python3 -m http.server --bind 127.0.0.1 --directory "$dir/web" "$port"
