#!/usr/bin/env python3
"""The tables of make bench-scaling (scripts/bench-scaling.sh) from
build/bench-scaling/: cells.txt (one line per section, from sframe_scale
under callgrind), cg/cg.out.N (callgrind's dump of each measured loop, the
label "FDES:FRES:MODE" in its "desc: Trigger" line) and native.txt
(sframe_scale -t, the same sections timed).

    bench-scaling.py DIR
"""
import glob
import math
import os
import sys

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


def main():
    d = sys.argv[1]
    cells = read_cells(os.path.join(d, "cells.txt"))
    dumps = read_dumps(os.path.join(d, "cg"))
    native = read_cells(os.path.join(d, "native.txt"))
    if not cells or not dumps:
        sys.exit(f"no results in {d}: run scripts/bench-scaling.sh")
    fdes_all = sorted({k[0] for k in cells})
    fres_all = sorted({k[1] for k in cells})

    def ir(cell, mode="frame"):
        w = cells.get(cell)
        return w and per_lookup(dumps, cell, int(w["lookups"]), mode, "Ir")

    print("\nInstructions per lookup (sframe_find_frame(), callgrind; "
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
    if not ratios:
        print("\n(no column with both the fewest and the most FDEs)")
        return
    worst = max(ratios)
    print(f"\nlookup {pow10(lo)} -> {pow10(hi)} FDEs: {worst:.2f}x instructions "
          f"(goal <= 2x: {'holds' if worst <= 2 else 'missed'}; "
          f"{min(pprobe):.0f}-{max(pprobe):.0f} per FDE probe), "
          f"ORC-style table (4 KiB blocks, prototype) {max(oratios):.2f}x")


if __name__ == "__main__":
    main()
