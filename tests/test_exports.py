#!/usr/bin/env python3
"""The shared library exports exactly the functions that include/cnoise.h declares.

Usage: test_exports.py CC NM HEADER LIBRARY

Expected list, from the header itself: CC preprocesses HEADER as the library sees it
(-DCNOISE_BUILDING, so CN_API becomes the visibility attribute) and every file-scope declaration
that comes from HEADER (the line markers tell) and is not a typedef or a bare struct/enum is a
public name: the identifier before a function's parameter list, or a variable's declarator. Each
must carry CN_API, seen as __attribute__((visibility("default"))). A construct the parser does not
know fails the test rather than being skipped.
Actual list: NM -D --defined-only LIBRARY, every defined dynamic symbol (version suffixes removed),
less the linker's own boundary symbols and absolute (version node) symbols.
Fails, printing the differences, on an extra or missing symbol or a declaration without CN_API.
"""
import os
import re
import subprocess
import sys

LINKER_SYMBOLS = {"_init", "_fini", "_edata", "_end", "__bss_start"}
TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')
MARKER = re.compile(r'^#\s*(?:line\s+)?\d+\s+"((?:\\.|[^"\\])*)"')


def header_tokens(cc, header):
    """The tokens of the preprocessed header that come from the header file itself."""
    out = subprocess.run([cc, "-E", "-x", "c", "-DCNOISE_BUILDING", header],
                         check=True, capture_output=True, text=True).stdout
    want = os.path.realpath(header)
    mine = False
    tokens = []
    for line in out.splitlines():
        m = MARKER.match(line)
        if m:
            path = m.group(1).encode().decode("unicode_escape")
            mine = os.path.exists(path) and os.path.realpath(path) == want
        elif mine:
            tokens.extend(TOKEN.findall(line))
    return tokens


def strip_attributes(decl):
    """decl without its __attribute__((...)) groups, and whether one gave default visibility."""
    rest, exported, i = [], False, 0
    while i < len(decl):
        if decl[i] != "__attribute__":
            rest.append(decl[i])
            i += 1
            continue
        depth, j = 0, i + 1
        while True:
            if j >= len(decl):
                raise ValueError("unbalanced __attribute__ in: " + " ".join(decl))
            depth += {"(": 1, ")": -1}.get(decl[j], 0)
            j += 1
            if depth == 0:
                break
        group = "".join(decl[i:j])
        if group == '__attribute__((visibility("default")))':
            exported = True
        i = j
    return rest, exported


def declared_names(tokens):
    """{name: has CN_API} for every file-scope function or variable declaration."""
    decls, cur, depth = [], [], 0
    for t in tokens:
        cur.append(t)
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            first = cur.index("{")
            if depth == 0 and first > 0 and cur[first - 1] == ")":
                decls.append(cur)  # a function definition ends at its closing brace
                cur = []
        elif t == ";" and depth == 0:
            decls.append(cur[:-1])
            cur = []
    if cur:
        raise ValueError("header ends inside a declaration: " + " ".join(cur))

    names = {}
    for decl in decls:
        if not decl or decl[0] == "typedef":
            continue
        if decl[0] in ("struct", "union", "enum") and decl[-1] == "}":
            continue  # a tag declaration only
        words, exported = strip_attributes(decl)
        text = " ".join(words)
        if "static" in words:
            continue  # internal linkage: never exported
        if "{" in words:
            raise ValueError("definition in the header not understood: " + text)
        if "(" in words:
            k = words.index("(")
            if k == 0 or not re.fullmatch(r"[A-Za-z_]\w*", words[k - 1]) or words[k + 1] == "*":
                raise ValueError("declaration not understood: " + text)
            name = words[k - 1]
        else:
            cut = words.index("[") if "[" in words else len(words)
            ids = [w for w in words[:cut] if re.fullmatch(r"[A-Za-z_]\w*", w)]
            if "=" in words or "," in words or not ids:
                raise ValueError("declaration not understood: " + text)
            name = ids[-1]
        names[name] = names.get(name, False) or exported  # C allows a redeclaration
    return names


def exported_symbols(nm, library):
    out = subprocess.run([nm, "-D", "--defined-only", library],
                         check=True, capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        kind, name = parts[-2], parts[-1].split("@")[0]
        if kind in ("A", "a") or name in LINKER_SYMBOLS:
            continue
        syms.add(name)
    return syms


def print_groups(groups):
    """Prints each non-empty (title, lines) group as a titled, indented list."""
    for title, lines in groups:
        if lines:
            print("%s (%d):" % (title, len(lines)))
            for line in lines:
                print("  " + line)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    cc, nm, header, library = sys.argv[1:]
    try:
        declared = declared_names(header_tokens(cc, header))
    except ValueError as e:
        print("test_exports: " + str(e))
        return 1
    exported = exported_symbols(nm, library)
    if not declared or not exported:
        print("test_exports: empty list (%d declared, %d exported)" % (len(declared), len(exported)))
        return 1

    extra = sorted(exported - set(declared))
    missing = sorted(set(declared) - exported)
    unmarked = sorted(n for n, mark in declared.items() if not mark)
    print("test_exports: %s declares %d functions, %s exports %d symbols"
          % (os.path.basename(header), len(declared), os.path.basename(library), len(exported)))
    print_groups((("exported but not declared in the header", extra),
                  ("declared in the header but not exported", missing),
                  ("declared without CN_API", unmarked)))
    if extra or missing or unmarked:
        print("test_exports: FAIL")
        return 1
    print("test_exports: the exported symbols are exactly the header's functions: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
