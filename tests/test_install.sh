#!/usr/bin/env bash
# Installs the built project into a temporary prefix (not a system directory), then builds a
# consumer program against it by every route the README documents, and runs each without
# LD_LIBRARY_PATH: find_package(cnoise) with cnoise::cnoise (the shared library),
# cnoise::cnoise_shared and cnoise::cnoise_static; pkg-config for the shared library (with the
# rpath the README gives) and pkg-config --static. Each must print the reference value, and each
# must use the library kind it asked for (ldd lists libcnoise.so exactly for the shared ones).
# The versioning rule (CMakeLists.txt): the shared library's SONAME is libcnoise.so.SOVERSION, and
# find_package accepts the installed version but refuses an older minor before 1.0 (an older
# major from 1.0 on).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
t_begin 4 'build-dir source-dir version soversion' "$@"
build=$1 src=$2 version=$3 soversion=$4
ref=0.13691995878400012
# run_consumer NAME PROGRAM SHARED(1/0): prints the reference without LD_LIBRARY_PATH, links the
# kind asked
run_consumer() {
  local out
  out=$(env -u LD_LIBRARY_PATH "$2" 2>&1)
  if [ "$out" = "$ref" ]; then pass; else fail "$1 printed '$out'"; fi
  if command -v ldd >/dev/null 2>&1; then
    if ldd "$2" | grep -q 'libcnoise\.so'; then linked=1; else linked=0; fi
    if [ "$linked" = "$3" ]; then pass; else fail "$1: linked against libcnoise.so: $linked, wanted $3"; fi
  fi
}

if cmake --install "$build" --prefix "$T/prefix" >"$T/install.log" 2>&1; then pass; else fail "cmake --install"; cat "$T/install.log" >&2; fi
for f in include/cnoise.h lib*/libcnoise.a lib*/libcnoise.so lib*/pkgconfig/cnoise.pc lib*/cmake/cnoise/cnoiseConfig.cmake; do
  if compgen -G "$T/prefix/$f" >/dev/null; then pass; else fail "installed file $f missing"; fi
done

so=$(compgen -G "$T/prefix/lib*/libcnoise.so" | head -n1)
soname=$(objdump -p "$so" 2>/dev/null | awk '$1 == "SONAME" {print $2}')
if [ "$soname" = "libcnoise.so.$soversion" ]; then pass; else fail "SONAME '$soname', want libcnoise.so.$soversion"; fi

major=${version%%.*} rest=${version#*.} minor=${rest%%.*}
if [ "$major" -eq 0 ]; then refused=0.$((minor - 1)); else refused=$((major - 1)).0; fi
if [ "$major" -eq 0 ] && [ "$minor" -eq 0 ]; then refused=; fi
if [ -n "$refused" ]; then
  if cmake -S "$src/tests/install" -B "$T/refuse" -DCMAKE_PREFIX_PATH="$T/prefix" -DCNOISE_WANT="$refused" \
       >"$T/r.log" 2>&1; then fail "find_package(cnoise $refused) accepted version $version"; else pass; fi
fi
if cmake -S "$src/tests/install" -B "$T/consumer" -DCMAKE_PREFIX_PATH="$T/prefix" -DCNOISE_WANT="$major.$minor" \
     >"$T/c.log" 2>&1 &&
   cmake --build "$T/consumer" >>"$T/c.log" 2>&1; then pass; else fail "find_package consumer build"; cat "$T/c.log" >&2; fi
run_consumer "find_package, cnoise::cnoise" "$T/consumer/consumer_cnoise" 1
run_consumer "find_package, cnoise::cnoise_shared" "$T/consumer/consumer_cnoise_shared" 1
run_consumer "find_package, cnoise::cnoise_static" "$T/consumer/consumer_cnoise_static" 0

pcdir=$(dirname "$(compgen -G "$T/prefix/lib*/pkgconfig/cnoise.pc" | head -n1)")
pc() { PKG_CONFIG_PATH="$pcdir" pkg-config "$@"; }
libdir=$(pc --variable=libdir cnoise)
# Shared, as the README says: the flags, plus an rpath to the library's directory.
if cc -o "$T/pc_shared" "$src/tests/install/consumer.c" $(pc --cflags --libs cnoise) -Wl,-rpath,"$libdir" 2>"$T/pc.log"
then pass; else fail "pkg-config shared build"; cat "$T/pc.log" >&2; fi
run_consumer "pkg-config, shared" "$T/pc_shared" 1
# Static, as the README says: --static flags, with the archive chosen over the .so beside it.
if cc -o "$T/pc_static" "$src/tests/install/consumer.c" $(pc --static --cflags cnoise) \
     -Wl,-Bstatic $(pc --libs-only-L --libs-only-l cnoise) -Wl,-Bdynamic $(pc --static --libs-only-other cnoise) -lm \
     2>"$T/pcs.log"
then pass; else fail "pkg-config --static build"; cat "$T/pcs.log" >&2; fi
run_consumer "pkg-config --static" "$T/pc_static" 0

t_end
