#!/usr/bin/env python3
"""Writes the golden pages tests/unit/test_text.c compares against: seed 001
re-rendered at other widths. An implementation of the bar rule independent of
src/report/text.c (docs/text-format.md), so the C renderer is checked against
something it did not produce. Run from the repository root:
    python3 tests/data/text/make-golden.py
"""
import re

SEED = "tests/data/seeds/001_5b3cf86a040befc6.txt"
ROW = re.compile(r"^(.*?) (\.+) (-?\d+(?:\.\d+)?) *\|(=*)$")


def render(lines, width):
    out, block = [], []

    def flush():
        if not block:
            return
        idw = max(len(i) for i, _ in block)
        valw = max(len(v) for _, v in block)
        mx = max(float(v) for _, v in block)
        room = max(0, width - ((idw + 2) + 1 + (valw + 1) + 1) - 1)
        for ident, val in block:
            bars = int(float(val) / mx * room + 0.5) if mx > 0 and float(val) > 0 else 0
            out.append(ident + " " + "." * (idw + 1 - len(ident)) + " " + val.ljust(valw + 1) + "|" + "=" * bars)
        block.clear()

    for line in lines:
        m = ROW.match(line)
        if m:
            block.append((m.group(1), m.group(3)))
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out) + "\n"


lines = open(SEED).read().split("\n")
assert render(lines, 80) == open(SEED).read() + "\n"
for w in (60, 120):
    with open("tests/data/text/001_w%d.txt" % w, "w") as f:
        f.write(render(lines, w))
