#!/usr/bin/env python3
"""coverage.py TREE DATA OUT MIN FILE...: line and branch coverage of
kernel/unwind's FILEs (sframe.c, ..., sframe_cache.h) from gcov's counters.

DATA holds each object's .gcno (from the build) and .gcda (from the guest's
/sys/kernel/debug/gcov after the tests), for each FILE.c. A FILE.h's lines
are counted from every one of those objects that includes it: a line ran
if it ran in any of them. Runs gcov (the build root's, the
compiler's own version) in JSON form, prints a line a file and the total,
and writes OUT/uncovered.txt: every executable line no test ran, as
FILE:LINE FUNCTION: SOURCE, runs of lines together. Exit 1 when the lines of
all FILEs together are covered less than MIN percent, or a FILE has no
counters (not profiled, or the guest saved none)."""

import gzip
import json
import os
import subprocess
import sys


def gcov_json(data, stem):
    """gcov's JSON for DATA/STEM.gcda: the records of every source file
    the object's lines come from."""
    res = subprocess.run(["gcov", "--json-format", "--stdout", "--branch-probabilities", "-o", data,
                          os.path.join(data, stem + ".gcda")],
                         capture_output=True, check=True, cwd=data)
    raw = res.stdout
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    files = []
    for doc in raw.decode().splitlines():
        doc = doc.strip()
        if doc:
            files.extend(json.loads(doc)["files"])
    return files


def main():
    tree, data, out = (os.path.abspath(a) for a in sys.argv[1:4])
    least = sys.argv[4]
    names = sys.argv[5:]
    least = float(least)
    rc = 0
    all_lines = all_hit = all_br = all_taken = 0
    uncovered = []
    objects = [n[:-2] for n in names if n.endswith(".c")]
    records = {}
    for stem in objects:
        if os.path.exists(os.path.join(data, stem + ".gcda")):
            records[stem] = gcov_json(data, stem)
    for name in names:
        if name.endswith(".c"):
            if name[:-2] not in records:
                print(f"    {name:20} no counters: not profiled, or the guest saved none")
                rc = 1
                continue
            recs = records[name[:-2]]
        else:
            recs = [r for stem in objects for r in records.get(stem, [])]
        want = "kernel/unwind/" + name
        lines = {}
        funcs = {}
        for rec in recs:
            if not rec["file"].endswith(want):
                continue
            for fn in rec.get("functions", []):
                funcs[fn["start_line"]] = fn.get("demangled_name", fn["name"])
            for ln in rec["lines"]:
                n = ln["line_number"]
                hit, br, taken = lines.get(n, (0, 0, 0))
                brs = ln.get("branches", [])
                # A line inlined or cloned several times, or a header's
                # line in several objects, appears once a copy: it ran if
                # any copy did; its branches add up.
                lines[n] = (hit + ln["count"], br + len(brs),
                            taken + sum(1 for b in brs if b["count"]))
        if not lines:
            print(f"    {name:20} no lines of {want} in the counters")
            rc = 1
            continue
        src = open(os.path.join(tree, want), encoding="utf-8").read().splitlines()
        starts = sorted(funcs)

        def func_of(n):
            f = "?"
            for s in starts:
                if s > n:
                    break
                f = funcs[s]
            return f

        nl = len(lines)
        nh = sum(1 for v in lines.values() if v[0])
        nb = sum(v[1] for v in lines.values())
        nt = sum(v[2] for v in lines.values())
        all_lines += nl
        all_hit += nh
        all_br += nb
        all_taken += nt
        print(f"    {name:20} lines {100.0 * nh / nl:5.1f}% ({nh} of {nl})"
              f"   branches {100.0 * nt / max(nb, 1):5.1f}% ({nt} of {nb})")
        prev = None
        for n in sorted(lines):
            if lines[n][0]:
                continue
            text = src[n - 1].strip() if n <= len(src) else ""
            tag = "" if prev == n - 1 else "\n"
            uncovered.append(f"{tag}{name}:{n} {func_of(n)}: {text}")
            prev = n
    if all_lines:
        pct = 100.0 * all_hit / all_lines
        print(f"    {'all':20} lines {pct:5.1f}% ({all_hit} of {all_lines})"
              f"   branches {100.0 * all_taken / max(all_br, 1):5.1f}%"
              f" ({all_taken} of {all_br})")
        if pct < least:
            print(f"    FAIL: lines covered {pct:.1f}% < {least:g}%")
            rc = 1
    with open(os.path.join(out, "uncovered.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(uncovered).lstrip("\n") + "\n")
    print(f"    {all_lines - all_hit} lines no test ran: "
          f"{os.path.join(out, 'uncovered.txt')}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
