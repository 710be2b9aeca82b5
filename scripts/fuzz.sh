#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, AddressSanitizer + UndefinedBehaviorSanitizer, coverage)
# in build-fuzz/ and runs each one for SECONDS seconds (default 600), PARALLEL at a time
# (default 1), starting from its seed corpus fuzz/corpus/<target>.
#   scripts/fuzz.sh [SECONDS [TARGET...]]      e.g. scripts/fuzz.sh 60 ramp args
# Per target it writes build-fuzz/run/<target>/: the grown corpus (corpus/), any failing input
# (crash-*, leak-*, timeout-*), and the log (log.txt). The last lines summarise executions,
# coverage (edges "cov", features "ft") and findings per target. A failing input found this way
# belongs in fuzz/regress/<target>/ (replayed by ctest) once the bug is fixed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(args sample ramp batch image)
parallel=${PARALLEL:-1}
CNOISE_WITH_FUZZ=1 "$root/scripts/setup-deps.sh"

build=$root/build-fuzz
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DCNOISE_FUZZ=ON -DCNOISE_SANITIZE=ON -DCNOISE_BUILD_TESTS=OFF \
  -DCNOISE_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

run_one() {
  local t=$1 dir=$build/run/$1
  mkdir -p "$dir/corpus"
  local extra=()
  [ -f "$root/fuzz/$t.dict" ] && extra+=("-dict=$root/fuzz/$t.dict")
  # -close_fd_mask=1: the targets' standard output (help texts) is noise; reports still appear.
  "$build/fuzz/fuzz_$t" "$dir/corpus" "$root/fuzz/corpus/$t" -max_total_time="$secs" -timeout=20 \
    -rss_limit_mb=4096 -max_len=4096 -close_fd_mask=1 -print_final_stats=1 \
    -artifact_prefix="$dir/" "${extra[@]}" >"$dir/log.txt" 2>&1 || true
}

for t in "${targets[@]}"; do
  run_one "$t" &
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
done
wait

status=0
printf '%-8s %8s %10s %8s %8s %8s  %s\n' target seconds execs cov ft corpus findings
for t in "${targets[@]}"; do
  dir=$build/run/$t
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$dir/log.txt" | grep -o '[0-9]*$' || echo "?")
  last=$(grep -E '^#[0-9]+' "$dir/log.txt" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  found=$(find "$dir" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  [ "$found" -eq 0 ] || status=1
  printf '%-8s %8s %10s %8s %8s %8s  %s\n' "$t" "$secs" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found"
done
exit $status
