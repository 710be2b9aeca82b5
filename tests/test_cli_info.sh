#!/usr/bin/env bash
# test_cli_info.sh -- "cnoise info": version, instruction sets, the cap from CNOISE_ISA, cores,
# OpenCL devices.
#
# Usage: bash tests/test_cli_info.sh path/to/cnoise
# Run by ctest as test_cli_info; ends with "test_cli_info: N passed, M failed" and exits 1 if
# anything failed.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 1 path/to/cnoise "$@"
CNOISE=$1

# field KEY: the value of "KEY: value" in $T/out
field() { sed -n "s/^$1: //p" "$T/out"; }

env -u CNOISE_ISA "$CNOISE" info >"$T/out" 2>"$T/err"
rc=$?
check "info succeeds quietly" [ "$rc" -eq 0 -a ! -s "$T/err" ]
check "ten keys, in order" [ "$(head -n 10 "$T/out" | cut -d: -f1 | tr '\n' ' ')" = "version compiled supported active cap cores noise fractals files opencl " ]
# opencl: "none (why)" and nothing more, or "N device(s)" and N lines "opencl K: ..." (K = 0..N-1).
ocl=$(field opencl)
ndev=$(printf '%s\n' "$ocl" | sed -n 's/^\([0-9][0-9]*\) devices*$/\1/p')
if [ -n "$ndev" ]; then
    check "opencl: $ndev device lines follow" [ "$(tail -n +11 "$T/out" | cut -d: -f1 | tr '\n' ' ')" = "$(seq -f 'opencl %g' 0 $((ndev - 1)) | tr '\n' ' ')" ]
else
    check "opencl: none (why), the last line ($ocl)" eval '[ "$(wc -l <"$T/out")" -eq 10 ] && case "$ocl" in "none ("*")") true ;; *) false ;; esac'
fi
check "noise types" [ "$(field noise)" = "perlin simplex value value-cubic cellular opensimplex2 opensimplex2s" ]
check "fractals" [ "$(field fractals)" = "none fbm turbulence billow ridged pingpong erosion" ]
# This suite's builds have every optional library (CMake's CNOISE_WITH_* on).
check "files: every format, GIF and recipes" [ "$(field files)" = "png png16 rgb r16 f32 pfm npy exr exr16 tiff normal slope gif recipe" ]
check "version matches --version" [ "cnoise $(field version)" = "$("$CNOISE" --version)" ]
compiled=" $(field compiled) "
supported=" $(field supported) "
active=$(field active)
check "scalar is always compiled and supported" eval 'case "$compiled$supported" in *" scalar "*" scalar "*) true ;; *) false ;; esac'
for isa in $(field supported); do
    check "supported $isa is compiled" eval 'case "$compiled" in *" $isa "*) true ;; *) false ;; esac'
done
check "active ($active) is supported" eval 'case "$supported" in *" $active "*) true ;; *) false ;; esac'
best=$(field supported | awk '{ print $NF }')
check "without a cap the best supported one is active ($best)" [ "$active" = "$best" ]
check "no cap" [ "$(field cap)" = "none" ]
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
check "cores ($(field cores)) is the online CPU count ($cores)" [ "$(field cores)" = "$cores" ]

CNOISE_ISA=scalar "$CNOISE" info >"$T/out"
check "CNOISE_ISA=scalar: active scalar" [ "$(field active)" = scalar ]
check "CNOISE_ISA=scalar: the cap is named" [ "$(field cap)" = "scalar (CNOISE_ISA)" ]
if [ "$(printf '%s\n' $supported | grep -c .)" -gt 1 ]; then
    second=$(printf '%s\n' $supported | sed -n 2p)
    CNOISE_ISA=$second "$CNOISE" info >"$T/out"
    check "CNOISE_ISA=$second: active $second" [ "$(field active)" = "$second" ]
fi
CNOISE_ISA=bogus "$CNOISE" info >"$T/out"
check "an unknown CNOISE_ISA is ignored and said so" \
    [ "$(field cap)" = "none (CNOISE_ISA='bogus' is not an instruction set name and is ignored)" -a "$(field active)" = "$best" ]

"$CNOISE" info --help >"$T/out"
check "info --help" grep -q 'Usage: cnoise info' "$T/out"
"$CNOISE" info extra >"$T/out" 2>"$T/err"
rc=$?
check "a stray argument is a usage error" eval '[ $rc -eq 2 ] && grep -q "unexpected argument '"'extra'"'" "$T/err"'
"$CNOISE" info --bogus >"$T/out" 2>"$T/err"
rc=$?
check "an unknown option is a usage error" eval '[ $rc -eq 2 ] && grep -q "unknown option '"'--bogus'"'" "$T/err"' 
"$CNOISE" --help >"$T/out"
check "cnoise --help lists info" grep -q '^  info ' "$T/out"

t_end
