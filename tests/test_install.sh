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
build=$1 src=$2 version=$3 soversion=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
ref=0.13691995878400012
# run NAME PROGRAM SHARED(1/0): prints the reference without LD_LIBRARY_PATH, links the kind asked
run() {
  local out
  out=$(env -u LD_LIBRARY_PATH "$2" 2>&1)
  if [ "$out" = "$ref" ]; then ok; else bad "$1 printed '$out'"; fi
  if command -v ldd >/dev/null 2>&1; then
    if ldd "$2" | grep -q 'libcnoise\.so'; then linked=1; else linked=0; fi
    if [ "$linked" = "$3" ]; then ok; else bad "$1: linked against libcnoise.so: $linked, wanted $3"; fi
  fi
}

if cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then ok; else bad "cmake --install"; cat "$tmp/install.log" >&2; fi
for f in include/cnoise.h lib*/libcnoise.a lib*/libcnoise.so lib*/pkgconfig/cnoise.pc lib*/cmake/cnoise/cnoiseConfig.cmake; do
  if compgen -G "$tmp/prefix/$f" >/dev/null; then ok; else bad "installed file $f missing"; fi
done

so=$(compgen -G "$tmp/prefix/lib*/libcnoise.so" | head -n1)
soname=$(objdump -p "$so" 2>/dev/null | awk '$1 == "SONAME" {print $2}')
if [ "$soname" = "libcnoise.so.$soversion" ]; then ok; else bad "SONAME '$soname', want libcnoise.so.$soversion"; fi

major=${version%%.*} rest=${version#*.} minor=${rest%%.*}
if [ "$major" -eq 0 ]; then refused=0.$((minor - 1)); else refused=$((major - 1)).0; fi
if [ "$major" -eq 0 ] && [ "$minor" -eq 0 ]; then refused=; fi
if [ -n "$refused" ]; then
  if cmake -S "$src/tests/install" -B "$tmp/refuse" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCNOISE_WANT="$refused" \
       >"$tmp/r.log" 2>&1; then bad "find_package(cnoise $refused) accepted version $version"; else ok; fi
fi
if cmake -S "$src/tests/install" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCNOISE_WANT="$major.$minor" \
     >"$tmp/c.log" 2>&1 &&
   cmake --build "$tmp/consumer" >>"$tmp/c.log" 2>&1; then ok; else bad "find_package consumer build"; cat "$tmp/c.log" >&2; fi
run "find_package, cnoise::cnoise" "$tmp/consumer/consumer_cnoise" 1
run "find_package, cnoise::cnoise_shared" "$tmp/consumer/consumer_cnoise_shared" 1
run "find_package, cnoise::cnoise_static" "$tmp/consumer/consumer_cnoise_static" 0

pcdir=$(dirname "$(compgen -G "$tmp/prefix/lib*/pkgconfig/cnoise.pc" | head -n1)")
pc() { PKG_CONFIG_PATH="$pcdir" pkg-config "$@"; }
libdir=$(pc --variable=libdir cnoise)
# Shared, as the README says: the flags, plus an rpath to the library's directory.
if cc -o "$tmp/pc_shared" "$src/tests/install/consumer.c" $(pc --cflags --libs cnoise) -Wl,-rpath,"$libdir" 2>"$tmp/pc.log"
then ok; else bad "pkg-config shared build"; cat "$tmp/pc.log" >&2; fi
run "pkg-config, shared" "$tmp/pc_shared" 1
# Static, as the README says: --static flags, with the archive chosen over the .so beside it.
if cc -o "$tmp/pc_static" "$src/tests/install/consumer.c" $(pc --static --cflags cnoise) \
     -Wl,-Bstatic $(pc --libs-only-L --libs-only-l cnoise) -Wl,-Bdynamic $(pc --static --libs-only-other cnoise) -lm \
     2>"$tmp/pcs.log"
then ok; else bad "pkg-config --static build"; cat "$tmp/pcs.log" >&2; fi
run "pkg-config --static" "$tmp/pc_static" 0

echo "test_install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
