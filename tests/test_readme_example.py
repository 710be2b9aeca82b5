#!/usr/bin/env python3
"""The README shows a complete example program (examples/chunks.c, built and run by ctest as
example_chunks): the C block that follows the line naming the file must be the file, exactly, so
the text cannot drift from the code that is tested.

Usage: test_readme_example.py README.md examples/chunks.c
"""
import sys

readme, example = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
code = open(example, encoding="utf-8").read()
marker = "examples/chunks.c"
ok = False
at = text.find("<!-- " + marker + " -->")
if at < 0:
    print(f"test_readme_example: no '<!-- {marker} -->' line in {readme}")
else:
    start = text.find("```c\n", at)
    end = text.find("```\n", start + 5) if start >= 0 else -1
    if start < 0 or end < 0:
        print(f"test_readme_example: no ```c block after the marker in {readme}")
    elif text[start + 5:end] != code:
        print(f"test_readme_example: the README's block differs from {example}")
    else:
        ok = True
print(f"test_readme_example: {1 if ok else 0} passed, {0 if ok else 1} failed")
sys.exit(0 if ok else 1)
