#!/usr/bin/env python3
"""The tables of make bench-scaling (scripts/bench-scaling.sh) from
build/bench-scaling/: cells.txt (one line per section, from sframe_scale
under callgrind), cg/cg.out.N (callgrind's dump of each measured loop, the
label "FDES:FRES:MODE" in its "desc: Trigger" line) and native.txt
(sframe_scale -t, the same sections timed); and of --kernel, from
kernel/CLOCK/: FDES.walks (function_graph's lines of unwind_user(), one a
deferred walk) and FDES.frames (the frames of each sample's chain).

    bench-scaling.py DIR
"""
import glob
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from walktimes import median, read_runs  # noqa: E402  (scripts/walktimes.py)

MODES = ("null", "frame", "orc4096", "orc256")


def words(line):
    return dict(w.split("=", 1) for w in line.split())


def read_cells(path):
    cells = {}
    if not os.path.exists(path):
        return cells
    with open(path) as f:
        for line in f:
            if line.startswith("fdes="):
                w = words(line)
                cells[(int(w["fdes"]), int(w["fres"]))] = w
    return cells


def read_dumps(d):
    """{(fdes, fres, mode): {event: count}} of the callgrind dumps."""
    out = {}
    for path in glob.glob(os.path.join(d, "cg.out.*")):
        label = events = totals = None
        with open(path) as f:
            for line in f:
                if line.startswith("desc: Trigger: Client Request: "):
                    label = line.split("Client Request: ", 1)[1].strip()
                elif line.startswith("events: "):
                    events = line.split()[1:]
                elif line.startswith("totals: "):
                    totals = [int(x) for x in line.split()[1:]]
        if label and events and totals:
            fdes, fres, mode = label.split(":")
            out[(int(fdes), int(fres), mode)] = dict(zip(events, totals))
    return out


def per_lookup(dumps, cell, n, mode, ev):
    """Events of one lookup of MODE, the null loop's taken off."""
    a = dumps.get(cell + (mode,))
    b = dumps.get(cell + ("null",))
    if not a or not b or ev not in a:
        return None
    return (a[ev] - b[ev]) / n


def misses(dumps, cell, n, mode, level):
    evs = ("D1mr", "D1mw") if level == "D1" else ("DLmr", "DLmw")
    v = [per_lookup(dumps, cell, n, mode, e) for e in evs]
    return None if None in v else sum(v)


def fmt(v, spec="{:.0f}"):
    return "-" if v is None else spec.format(v)


def pow10(n):
    e = round(math.log10(n))
    return f"10^{e}" if 10 ** e == n else str(n)


def kernel_report(d, cells):
    """The tables of scripts/bench-scaling.sh --kernel, one per clock."""
    last = None
    for clock in ("icount", "realtime"):
        runs = {n: r[:2] for n, r in read_runs(os.path.join(d, "kernel", clock)).items()
                if r[0] and r[1]}
        if not runs:
            continue
        unit = "guest instructions" if clock == "icount" else "host time, noisy"
        print(f"\nIn the kernel, {clock} clock ({unit}): deferred walks "
              "through a section of FDEs functions\n(one FRE each), "
              "timed by function_graph on unwind_user(); ns per frame = "
              "median walk /\nits frames:\n")
        print("    FDEs     walks  frames   walk us  ns/frame   vs first")
        first = None
        for n in sorted(runs):
            walks, frames = runs[n]
            fr = median(frames)
            per = median(walks) * 1000 / fr
            first = first or (n, per)
            print(f"    {pow10(n):<7} {len(walks):>6} {fr:>7} {median(walks):>9.1f}"
                  f" {per:>9.0f} {per / first[1]:>9.2f}x")
        lo, hi = first[0], max(runs)
        per_hi = median(runs[hi][0]) * 1000 / median(runs[hi][1])
        probe = ""
        a, b = cells.get((lo, 1)), cells.get((hi, 1))
        if a and b and hi != lo:
            dp = float(b["probes"]) - float(a["probes"])
            probe = (f"; {(per_hi - first[1]) / dp:.0f} ns per FDE probe "
                     "(the probes of the user-space run)")
        print(f"\n    a frame {pow10(lo)} -> {pow10(hi)} FDEs: "
              f"{per_hi / first[1]:.2f}x{probe}")
        last = last or (clock, per_hi / first[1])
    return last


def main():
    d = sys.argv[1]
    cells = read_cells(os.path.join(d, "cells.txt"))
    dumps = read_dumps(os.path.join(d, "cg"))
    native = read_cells(os.path.join(d, "native.txt"))
    if not cells or not dumps:
        kernel = kernel_report(d, cells)
        if not kernel:
            sys.exit(f"no results in {d}: run scripts/bench-scaling.sh")
        print(f"\nkernel ({kernel[0]}): a frame 10^3 -> 10^6 FDEs {kernel[1]:.2f}x "
              f"(goal <= 2x: {'holds' if kernel[1] <= 2 else 'missed'})")
        return
    fdes_all = sorted({k[0] for k in cells})
    fres_all = sorted({k[1] for k in cells})

    def ir(cell, mode="frame"):
        w = cells.get(cell)
        return w and per_lookup(dumps, cell, int(w["lookups"]), mode, "Ir")

    print("\nInstructions per lookup (sframe_lookup(), callgrind; "
          "rows: FDEs, columns: FREs per function):\n")
    print("    FDEs   " + "".join(f"{r:>9}" for r in fres_all))
    for f in fdes_all:
        print(f"    {pow10(f):<7}" + "".join(
            f"{fmt(ir((f, r))):>9}" for r in fres_all))

    print("\nEach section: FDE probes and FREs read per lookup; per lookup of the "
          "reader\n(frame) and of the ORC-style table prototype (orc4096, "
          "orc256): instructions,\nsimulated cache misses (L1 32 KiB, last "
          "level 8 MiB), native ns (best of 5,\nthis machine, noisy), "
          "probes and table bytes:\n")
    print("                                         |"
          "               frame             |"
          "                orc4096                |       orc256")
    print("    FDEs    FREs  lookups probes    read |"
          "    instr     L1     LL      ns |"
          "  probes    instr     LL      ns  table |  probes    instr  table")

    def ns(nat, mode):
        if not nat or f"ns_{mode}" not in nat:
            return None
        return float(nat[f"ns_{mode}"]) - float(nat["ns_null"])

    def kib(entries):
        b = int(entries) * 4
        if b < 1024:
            return f"{b}B"
        return f"{b / 1024:.0f}K" if b < 1024 * 1024 else f"{b / 1048576:.1f}M"

    for f in fdes_all:
        for r in fres_all:
            c = (f, r)
            w = cells.get(c)
            if not w:
                continue
            n = int(w["lookups"])
            nat = native.get(c)
            print(f"    {pow10(f):<6} {r:>5} {n:>8} {float(w['probes']):>6.2f}"
                  f" {float(w['read']):>7.1f} | {fmt(ir(c)):>8}"
                  f" {fmt(misses(dumps, c, n, 'frame', 'D1'), '{:.1f}'):>6}"
                  f" {fmt(misses(dumps, c, n, 'frame', 'LL'), '{:.1f}'):>6}"
                  f" {fmt(ns(nat, 'frame')):>7}"
                  f" | {float(w['orc4096_probes']):>7.2f} {fmt(ir(c, 'orc4096')):>8}"
                  f" {fmt(misses(dumps, c, n, 'orc4096', 'LL'), '{:.1f}'):>6}"
                  f" {fmt(ns(nat, 'orc4096')):>7} {kib(w['orc4096_entries']):>6}"
                  f" | {float(w['orc256_probes']):>7.2f} {fmt(ir(c, 'orc256')):>8}"
                  f" {kib(w['orc256_entries']):>6}")

    lo, hi = fdes_all[0], fdes_all[-1]
    print(f"\nFrom {pow10(lo)} to {pow10(hi)} FDEs, per column "
          "(ratio of instructions; the cost of one more FDE probe):\n")
    print("    FREs   probes     frame  per probe |  orc4096   orc256")
    ratios, oratios, pprobe = [], [], []
    for r in fres_all:
        a, b = cells.get((lo, r)), cells.get((hi, r))
        if not a or not b:
            continue
        ia, ib = ir((lo, r)), ir((hi, r))
        dp = float(b["probes"]) - float(a["probes"])
        ratio = ib / ia
        # The FRE scan differs a little between the two sections (other
        # IPs): per probe from the whole difference less the FREs read.
        per = (ib - ia) / dp
        o4 = ir((hi, r), "orc4096") / ir((lo, r), "orc4096")
        o2 = ir((hi, r), "orc256") / ir((lo, r), "orc256")
        ratios.append(ratio)
        oratios.append(o4)
        pprobe.append(per)
        print(f"    {r:>5} {float(a['probes']):>5.1f}->{float(b['probes']):<5.1f}"
              f" {ratio:>5.2f}x {per:>10.1f} | {o4:>7.2f}x {o2:>7.2f}x")

    # The cost of one FRE: the first row, from 1 FRE to the most.
    r1, rn = fres_all[0], fres_all[-1]
    a, b = cells.get((lo, r1)), cells.get((lo, rn))
    per_fre = None
    if a and b and r1 != rn:
        per_fre = (ir((lo, rn)) - ir((lo, r1))) / \
            (float(b["read"]) - float(a["read"]))
        print(f"\n    one more FRE read: {per_fre:.1f} instructions "
              f"({pow10(lo)} FDEs, {r1} to {rn} FREs a function)")
    kernel = kernel_report(d, cells)
    if not ratios:
        print("\n(no column with both the fewest and the most FDEs)")
        return
    worst = max(ratios)
    kern = ""
    if kernel:
        kern = f", kernel {kernel[1]:.2f}x per frame ({kernel[0]})"
        worst = max(worst, kernel[1])
    print(f"\nlookup {pow10(lo)} -> {pow10(hi)} FDEs: {max(ratios):.2f}x instructions"
          f"{kern} (goal <= 2x: {'holds' if worst <= 2 else 'missed'}; "
          f"{min(pprobe):.0f}-{max(pprobe):.0f} instructions per FDE probe), "
          f"ORC-style table (4 KiB blocks, prototype) {max(oratios):.2f}x")


if __name__ == "__main__":
    main()
