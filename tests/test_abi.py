#!/usr/bin/env python3
"""The library's ABI is the one recorded for its SOVERSION.

Usage: test_abi.py CC NM OBJDUMP HEADER LIBRARY SOVERSION RECORD_DIR [--write]

The ABI, described line by line from the built library and its header (64-bit Linux):
  soname      the shared library's SONAME (libcnoise.so.SOVERSION)
  symbol      every exported symbol (nm -D, as tests/test_exports.py reads it)
  function    every CN_API declaration of the header, as its tokens without parameter names (a
              changed parameter or return type changes the line)
  struct      sizeof and alignof of every public struct, and each field's offset and size
  enum        sizeof of every public enum, and the value of each enumerator
  macro       the value of every numeric CN_ constant but the version numbers
Structs, fields, enums, enumerators and constants are found by parsing the preprocessed header;
their numbers come from compiling and running a program CC generates from that list, so nothing
is hand-listed.

RECORD_DIR/cnoise-SOVERSION.abi holds the record. The test fails when the record is missing or
differs: a removed or changed line breaks the ABI, so the version must change first (before 1.0
the minor version, which is the SOVERSION's second number; see CMakeLists.txt) and the new
SOVERSION gets a record of its own; added lines alone (new functions, new enumerators) are
compatible and are recorded in the same file. --write (re)writes the record.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_exports import exported_symbols, header_tokens, print_groups, strip_attributes  # noqa: E402

IDENT = re.compile(r"[A-Za-z_]\w*")


def split_top(tokens, sep):
    """tokens split at sep outside any braces, brackets or parentheses."""
    parts, cur, depth = [], [], 0
    for t in tokens:
        if t in "{[(":
            depth += 1
        elif t in "}])":
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        parts.append(cur)
    return parts


def body(tokens, i):
    """The tokens between the brace at tokens[i] and its match, and the index after the match."""
    depth, j = 0, i
    while True:
        depth += {"{": 1, "}": -1}.get(tokens[j], 0)
        j += 1
        if depth == 0:
            return tokens[i + 1:j - 1], j


def field_name(decl):
    """The member a struct declaration declares: after a nested body, else before its [...]."""
    if "{" in decl:
        rest = decl[len(decl) - decl[::-1].index("}"):]
    else:
        rest = decl[:decl.index("[")] if "[" in decl else decl
    ids = [t for t in rest if IDENT.fullmatch(t)]
    if not ids:
        raise ValueError("struct member not understood: " + " ".join(decl))
    return ids[-1]


def unnamed(words):
    """A prototype's tokens without its parameter names (renaming one changes no ABI)."""
    k = words.index("(")
    params = split_top(words[k + 1:-1], ",")
    out = []
    for p in params:
        ids = [i for i, t in enumerate(p) if IDENT.fullmatch(t)]
        if len(p) > 1 and ids:
            p = p[:ids[-1]] + p[ids[-1] + 1:]
        out.append(" ".join(p))
    return words[:k + 1] + [" , ".join(out), ")"]


def parse_header(tokens):
    """({struct: [fields]}, {enum: [enumerators]}, [function declarations])."""
    structs, enums, functions = {}, {}, []
    i = 0
    while i < len(tokens):
        if tokens[i] == "typedef" and tokens[i + 1] in ("struct", "enum") and tokens[i + 3] == "{":
            kind, name = tokens[i + 1], tokens[i + 2]
            inner, i = body(tokens, i + 3)
            if kind == "struct":
                structs[name] = [field_name(d) for d in split_top(inner, ";") if d]
            else:
                enums[name] = [d[0] for d in split_top(inner, ",") if d]
            continue
        i += 1
    for decl in split_top(tokens, ";"):
        if decl and decl[0] != "typedef" and "(" in decl and "{" not in decl:
            words, exported = strip_attributes(decl)
            if exported:
                functions.append(" ".join(unnamed(words)))
    return structs, enums, functions


def numeric_macros(header):
    names = []
    for line in open(header, encoding="utf-8"):
        m = re.match(r"\s*#\s*define\s+(CN_\w+)\s+(.+?)\s*(/\*.*)?$", line)
        if m and not m.group(1).startswith("CN_VERSION") and re.fullmatch(r"[\d\s()+*<xXa-fA-FuUlL-]+", m.group(2)):
            names.append(m.group(1))
    return names


def measured(cc, header, structs, enums, macros):
    """The numbers, from a program compiled against the header."""
    src = ["#include <stddef.h>", "#include <stdio.h>", '#include "%s"' % os.path.basename(header),
           "int main(void)", "{"]
    for s, fields in structs.items():
        src.append('    printf("struct %s size %%zu align %%zu\\n", sizeof(%s), _Alignof(%s));' % (s, s, s))
        for f in fields:
            src.append('    printf("struct %s.%s offset %%zu size %%zu\\n", offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                       % (s, f, s, f, s, f))
    for e, values in enums.items():
        src.append('    printf("enum %s size %%zu\\n", sizeof(%s));' % (e, e))
        for v in values:
            src.append('    printf("enum %s.%s %%lld\\n", (long long)%s);' % (e, v, v))
    for m in macros:
        src.append('    printf("macro %s %%llu\\n", (unsigned long long)(%s));' % (m, m))
    src += ["    return 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        c, exe = os.path.join(tmp, "abi.c"), os.path.join(tmp, "abi")
        with open(c, "w") as f:
            f.write("\n".join(src) + "\n")
        subprocess.run([cc, "-std=c11", "-I", os.path.dirname(os.path.abspath(header)), "-o", exe, c], check=True)
        return subprocess.run([exe], check=True, capture_output=True, text=True).stdout.splitlines()


def soname(objdump, library):
    out = subprocess.run([objdump, "-p", library], check=True, capture_output=True, text=True).stdout
    names = [line.split()[1] for line in out.splitlines() if line.split()[:1] == ["SONAME"]]
    return names[0] if names else "(none)"


def describe(cc, nm, objdump, header, library):
    structs, enums, functions = parse_header(header_tokens(cc, header))
    if not structs or not enums or not functions:
        raise ValueError("the header parse found %d structs, %d enums, %d functions"
                         % (len(structs), len(enums), len(functions)))
    lines = ["soname " + soname(objdump, library)]
    lines += ["symbol " + s for s in exported_symbols(nm, library)]
    lines += ["function " + f for f in functions]
    lines += measured(cc, header, structs, enums, numeric_macros(header))
    return sorted(set(lines))


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    if len(args) != 7:
        sys.exit(__doc__)
    cc, nm, objdump, header, library, soversion, record_dir = args
    record = os.path.join(record_dir, "cnoise-%s.abi" % soversion)
    try:
        now = describe(cc, nm, objdump, header, library)
    except (ValueError, subprocess.CalledProcessError) as e:
        print("test_abi: " + str(e))
        return 1
    if "--write" in sys.argv:
        with open(record, "w") as f:
            f.write("# The ABI of libcnoise.so.%s (tests/test_abi.py writes and checks this file).\n" % soversion)
            f.write("\n".join(now) + "\n")
        print("test_abi: wrote %s (%d lines)" % (record, len(now)))
        return 0
    if not os.path.exists(record):
        print("test_abi: no record of SOVERSION %s: if this version's ABI is final, record it with\n"
              "  python3 tests/test_abi.py %s --write" % (soversion, " ".join(args)))
        return 1
    with open(record) as f:
        then = sorted(set(line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")))
    gone = sorted(set(then) - set(now))
    new = sorted(set(now) - set(then))
    print("test_abi: %d lines in the ABI of libcnoise.so.%s, %d recorded" % (len(now), soversion, len(then)))
    print_groups((("removed or changed (recorded, no longer true)", gone), ("new", new)))
    if gone:
        print("test_abi: FAIL: the ABI changed but SOVERSION is still %s. Change the version first (CMakeLists.txt:\n"
              "before 1.0 raise the minor version), then record the new SOVERSION's ABI with --write." % soversion)
        return 1
    if new:
        print("test_abi: FAIL: compatible additions not in the record; add them with --write.")
        return 1
    print("test_abi: the ABI is the recorded one: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
