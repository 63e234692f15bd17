#!/usr/bin/env python3
"""The table of scripts/bench-scaling.sh --worst from build/bench-scaling/worst/:
for each made-up stack depth N, N.walks (function_graph's lines of
unwind_user(), one a deferred walk, icount: 1 ns a guest instruction),
N.frames (each sample's frames and leaf address, perf script) and N.out
(sframe-worst's first line: the offsets its lookups are at).

A lookup at offset OFF of a function of 65535 FREs (one a byte) reads
OFF + 2 FREs (OFF + 1 if OFF is the last); the walk's budget is 32768
(SFRAME_MAX_WALK_FRES): a chain shorter than N + 1 frames (the spin loop's,
then N return addresses) is one the budget ended, after reading all 32768.
For the other chains, the FREs read are estimated from the mean offset.

    bench-worst.py DIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from walktimes import pct, read_runs  # noqa: E402  (scripts/walktimes.py)

BUDGET = 32768
BOUND_US = 10000    # "about 10^7 instructions per sample" (sframe.rst, Limits): icount's ns


def main():
    d = sys.argv[1]
    rows = []
    setup = {}
    for n, (walks, frames, left) in read_runs(d).items():
        setup[n] = left
        with open(os.path.join(d, f"{n}.out")) as f:
            head = f.readline()
        m = re.search(r"offsets (\d+)\.\.(\d+)", head)
        if not walks or not frames or not m:
            print(f"    depth {n}: no walks, chains or header ({head.strip()})")
            continue
        lo, hi = int(m.group(1)), int(m.group(2))
        per = (lo + hi) / 2 + 2
        # Offsets from BUDGET - 1 up: every lookup reads the whole budget.
        ended = (lambda x: True) if lo + 1 >= BUDGET else (lambda x: x < n + 1)
        cut = sum(1 for x in frames if ended(x))
        fres = sorted(BUDGET if ended(x) else min(BUDGET, 1 + (x - 1) * per)
                      for x in frames)
        rows.append((n, walks, frames, cut, fres, lo, hi))
    if not rows:
        sys.exit(f"no results in {d}: run scripts/bench-scaling.sh --worst")
    print("\nWorst case (icount: 1 guest instruction = 1 ns): functions of 65535 "
          "FREs,\nreturn addresses rewritten at random all the time, sampled at "
          "1 kHz;\nunwind_user() timed by function_graph; FREs read per walk: "
          f"{BUDGET} where the\nbudget ended the chain, else estimated:\n")
    print("    depth  offsets       walks  frames (med/max)  budget-ended"
          "  FREs/walk (med)   walk us: median   p99     max   ns/FRE")
    worst = 0
    for n, walks, frames, cut, fres, lo, hi in sorted(rows):
        med = pct(walks, 0.5)
        worst = max(worst, max(walks))
        print(f"    {n:>5}  {lo:>5}..{hi:<5} {len(walks):>7}  {pct(frames, 0.5):>6} /"
              f" {max(frames):<6}  {100 * cut / len(frames):>10.0f}%"
              f"  {pct(fres, 0.5):>15.0f}   {med:>15.0f} {pct(walks, 0.99):>6.0f}"
              f" {max(walks):>7.0f}   {med * 1000 / pct(fres, 0.5):>6.0f}")
    if any(setup.values()):
        print("\n    left out: samples of the tool's set-up (leaf outside the registered "
              "text): " + ", ".join(f"{setup[n]} at depth {n}" for n in sorted(setup)))
    print(f"\n    the slowest walk: {worst / 1000:.2f} M guest instructions, "
          f"{worst / 1000:.2f} ms at icount's 1 instruction a ns;\n"
          f"    documented bound (sframe.rst, Limits): about 10^7 instructions "
          f"per sample, {BOUND_US / 1000:.0f} ms here: "
          f"{'holds' if worst <= BOUND_US else 'EXCEEDED'} at 1 instruction a ns")


main()
