#!/usr/bin/env bash
# Installs the built project into a temporary prefix, then builds a consumer program against it
# twice: with CMake's find_package(cnoise) and with pkg-config. Both must print the reference value.
set -u
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

if cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then ok; else bad "cmake --install"; cat "$tmp/install.log" >&2; fi
for f in include/cnoise.h lib*/libcnoise.a lib*/pkgconfig/cnoise.pc lib*/cmake/cnoise/cnoiseConfig.cmake; do
  if compgen -G "$tmp/prefix/$f" >/dev/null; then ok; else bad "installed file $f missing"; fi
done

if cmake -S "$src/tests/install" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/c.log" 2>&1 &&
   cmake --build "$tmp/consumer" >>"$tmp/c.log" 2>&1; then ok; else bad "find_package consumer build"; cat "$tmp/c.log" >&2; fi
out=$("$tmp/consumer/consumer" 2>&1)
if [ "$out" = "0.13691995878400012" ]; then ok; else bad "find_package consumer printed '$out'"; fi

pcdir=$(dirname "$(compgen -G "$tmp/prefix/lib*/pkgconfig/cnoise.pc" | head -n1)")
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs cnoise 2>&1)
if cc -o "$tmp/pc_consumer" "$src/tests/install/consumer.c" $flags -lm 2>"$tmp/pc.log"; then ok; else bad "pkg-config build ($flags)"; cat "$tmp/pc.log" >&2; fi
libdir=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir cnoise)
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/pc_consumer" 2>&1)
if [ "$out" = "0.13691995878400012" ]; then ok; else bad "pkg-config consumer printed '$out'"; fi

echo "test_install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
