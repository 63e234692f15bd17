#!/usr/bin/env python3
"""Count complete user callchains in `perf script` output.

  callchains.py [--min FLAVOUR=PCT]... [--min-samples N] DIR FLAVOUR...

Reads DIR/FLAVOUR.txt (`perf script` of `perf record --call-graph fp,defer`
on build/workloads/NAME-FLAVOUR, see scripts/e2e-guest.sh). perf script
prints the deferred user callchain merged into its sample, one frame a line,
innermost first:

    chain-fp     142    21.590826:    1001001 cpu-clock:u:
            55c6df70a3c0 leaf+0x40 (/work/main/build/workloads/chain-fp)
            55c6df70a409 mid2+0x19 (/work/main/build/workloads/chain-fp)
            ...
            7ff41258ffba [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)
                       0 [unknown] ([unknown])

A sample whose first frame is in leaf is complete when the next frames are
exactly mid2, mid1, top, main; whatever follows main (libc's start code,
mostly [unknown] without libc symbols) does not matter. A missing frame or
an unknown address before main makes it incomplete.

Prints a table (leaf samples, complete, share, required share) and the most
frequent incomplete chains, then "counts: P F S" for make check and
"N passed, N failed". One check per flavour: at least --min-samples leaf
samples and, for a flavour given with --min, a complete share >= PCT.
Exits 1 when a check fails.
"""
import argparse
import collections
import os
import re
import sys

CHAIN = ['leaf', 'mid2', 'mid1', 'top', 'main']
FRAME = re.compile(r'^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')
# A sample without a callchain has its ip on the header line.
INLINE = re.compile(r":\s+([0-9a-f]+)\s+(\S+)\s+\(([^()]*)\)\s*$")


def samples(path):
    """Yield the frames of every sample: a list of (addr, symbol, dso)."""
    frames = None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip():
                if frames is not None:
                    yield frames
                frames = None
                continue
            if not line[0].isspace():   # "comm pid time: period event:"
                if frames is not None:
                    yield frames
                frames = []
                m = INLINE.search(line)
                if m:
                    frames.append((m.group(1), m.group(2), m.group(3)))
                continue
            m = FRAME.match(line)
            if m and frames is not None:
                frames.append((m.group(1), m.group(2), m.group(3)))
    if frames is not None:
        yield frames


def func(symbol):
    """'mid2+0x19' -> 'mid2', '[unknown]' stays."""
    return re.sub(r'\+0x[0-9a-f]+$', '', symbol)


def describe(frames):
    """A short form of a chain for the report: leaf <- ? <- ..."""
    names = []
    for _, sym, _ in frames[:len(CHAIN) + 1]:
        names.append('?' if func(sym) == '[unknown]' else func(sym))
    more = ' ...' if len(frames) > len(CHAIN) + 1 else ''
    return ' <- '.join(names) + more


def analyse(path):
    leaf = complete = total = 0
    bad = collections.Counter()
    for frames in samples(path):
        total += 1
        if not frames or func(frames[0][1]) != 'leaf':
            continue
        leaf += 1
        if [func(s) for _, s, _ in frames[:len(CHAIN)]] == CHAIN:
            complete += 1
        else:
            bad[describe(frames)] += 1
    return total, leaf, complete, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--min', action='append', default=[], metavar='FLAVOUR=PCT',
                    help='required share of complete leaf samples')
    ap.add_argument('--max', action='append', default=[], metavar='FLAVOUR=PCT',
                    help='largest allowed share of complete leaf samples')
    ap.add_argument('--min-samples', type=int, default=200)
    ap.add_argument('--quiet', action='store_true',
                    help='no list of incomplete chains')
    ap.add_argument('--figures', action='store_true',
                    help='only the figures: no checks, no counts, exit 0')
    ap.add_argument('dir')
    ap.add_argument('flavours', nargs='+')
    args = ap.parse_args()
    need, cap = {}, {}
    for m in args.min:
        fl, _, pct = m.partition('=')
        need[fl] = float(pct)
    for m in args.max:
        fl, _, pct = m.partition('=')
        cap[fl] = float(pct)

    passed = failed = 0
    rows, notes = [], []
    for fl in args.flavours:
        path = os.path.join(args.dir, fl + '.txt')
        if not os.path.exists(path):
            rows.append((fl, '-', '-', '-', '-', 'FAIL (no %s)' % path))
            failed += 1
            continue
        total, leaf, complete, bad = analyse(path)
        share = 100.0 * complete / leaf if leaf else 0.0
        problems = []
        if leaf < args.min_samples:
            problems.append('< %d leaf samples' % args.min_samples)
        if fl in need and share < need[fl]:
            problems.append('share < %g%%' % need[fl])
        if fl in cap and share > cap[fl]:
            problems.append('share > %g%%' % cap[fl])
        result = 'FAIL (%s)' % ', '.join(problems) if problems else 'ok'
        passed += not problems
        failed += bool(problems)
        req = '>= %g%%' % need[fl] if fl in need else '<= %g%%' % cap[fl] if fl in cap else '-'
        rows.append((fl, str(leaf), str(complete), '%.1f%%' % share, req, result))
        for chain, n in bad.most_common(3):
            notes.append('%-8s %5d x %s' % (fl, n, chain))

    fmt = '    %-8s %12s %9s %7s'
    if args.figures:
        print(fmt % ('flavour', 'leaf samples', 'complete', 'share'))
    else:
        print((fmt + ' %9s  %s') % ('flavour', 'leaf samples', 'complete',
                                     'share', 'required', 'result'))
    for fl, leaf, complete, share, req, result in rows:
        if args.figures:
            print(fmt % (fl, leaf, complete, share))
        else:
            print((fmt + ' %9s  %s') % (fl, leaf, complete, share, req, result))
    print('    (complete: leaf <- %s, then anything)' % ' <- '.join(CHAIN[1:]))
    if notes and not args.quiet:
        print('    most frequent incomplete chains in leaf:')
        for n in notes:
            print('      ' + n)
    if args.figures:
        return 0
    print('counts: %d %d 0' % (passed, failed))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
