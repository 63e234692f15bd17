#!/usr/bin/env python3
"""Count complete user callchains in `perf script` output.

  callchains.py [--workload NAME] [--min FLAVOUR=PCT]... [--max FLAVOUR=PCT]...
                [--every FLAVOUR]... [--min-samples N] DIR FLAVOUR...
  callchains.py --object NAME... [--min RUN=PCT]... [--near RUN=REF:PTS]...
                [--min-samples N] DIR RUN...

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

The completeness rule and each workload's expected chain are
scripts/workloads.py's (complete(), CHAINS): a callchain is complete when
it reaches main with no unknown frame before it, and for a workload
(--workload NAME, by default chain: leaf <- mid2 <- mid1 <- top <- main) a
sample whose first frame is in its leaf is complete when its frames up to
main are exactly the workload's chain.

With --every FLAVOUR (the probes: every sample is a hit of a probe on the
workload), every sample of FLAVOUR counts, wherever its first frame is:
it is complete when its first frame is in one of the chain's functions
and its frames are exactly the chain from that function on (a hit in
mid2: mid2, mid1, top, main). A first frame elsewhere (the [uprobes] page)
makes it incomplete.

Prints a table (leaf samples, complete, share, required share) and the most
frequent incomplete chains, then "counts: P F S" for make check and
"N passed, N failed". One check per flavour: at least --min-samples leaf
samples and, for a flavour given with --min, a complete share >= PCT.
Exits 1 when a check fails.

With --object, the runs profiled a real program (scripts/real.sh) whose
code is in the objects NAME (file names: its executable, its libraries),
and a row per RUN (DIR/RUN.txt) gives
  A  of the samples whose leaf is in the program's own code (in an
     object NAME), the share whose chain is complete: it reaches main (in
     an object NAME) with no unknown frame before it. A frame a walk
     skipped without a trace cannot be seen here, unlike with the
     workloads' known chain;
  B  of all samples, the share whose chain reaches main.
One check per RUN: at least --min-samples samples with the leaf in the
program's code; A >= PCT for a RUN given with --min; B at most PTS points
below REF's B for a RUN given with --near.

--agree RUN=REF:PCT checks the frames that the kernel recovers out of code
without SFrame or frame pointers (a leaf in libc) against another way of
unwinding the same binary (REF, --call-graph dwarf): of RUN's samples whose
leaf is outside the program and whose chain goes on into it, the call site
at which it enters the program must be one that REF's chains enter it at
too, for at least PCT% of them. A frame the kernel made up would not be.
"""
import argparse
import collections
import os
import re
import sys

# The rule and the expected chains: scripts/workloads.py, their one place.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workloads import CHAINS, chain_text, complete, describe, func, main_index, samples  # noqa: E402


def analyse(path, chain, every=False):
    """(samples, counted samples, complete ones, incomplete chains): the
    samples in chain's leaf, or with every, all of them."""
    leaf = done = total = 0
    bad = collections.Counter()
    for frames in samples(path):
        total += 1
        first = func(frames[0][1]) if frames else None
        if not every and first != chain[0]:
            continue
        leaf += 1
        if first in chain and complete(frames, chain[chain.index(first):]):
            done += 1
        else:
            bad[describe(frames, len(chain))] += 1
    return total, leaf, done, bad


def analyse_program(path, objects):
    """(samples, own-leaf samples, complete ones, samples reaching main,
    incomplete own-leaf chains)."""
    total = own = done = reach = 0
    bad = collections.Counter()
    for frames in samples(path):
        total += 1
        reach += main_index(frames, objects) is not None
        if not frames or os.path.basename(frames[0][2]) not in objects:
            continue
        own += 1
        if complete(frames, objects=objects):
            done += 1
        else:
            bad[describe(frames)] += 1
    return total, own, done, reach, bad


def call_sites(path, objects, ret_addrs):
    """The samples whose leaf is outside the program's code (in libc, say)
    and whose chain goes on into it, and the call site at which each one
    enters the program: 'symbol+offset' of its first frame in an object
    NAME, made the address of the call (one byte back) if ret_addrs, as
    perf script prints return addresses for fp,defer chains; it prints
    them one byte back already for dwarf ones. Returns (foreign-leaf
    samples, Counter of call sites)."""
    foreign = 0
    sites = collections.Counter()
    for frames in samples(path):
        if not frames or os.path.basename(frames[0][2]) in objects:
            continue
        foreign += 1
        for _, sym, dso in frames[1:]:
            if os.path.basename(dso) not in objects:
                continue
            m = re.match(r'^(.*)\+0x([0-9a-f]+)$', sym)
            if m:
                off = int(m.group(2), 16) - (1 if ret_addrs else 0)
                sites['%s+%#x' % (m.group(1), off)] += 1
            break
    return foreign, sites


def share_of(part, whole):
    return 100.0 * part / whole if whole else 0.0


def program_table(args, need):
    """The rows of a real program's runs (--object): one check of the A
    share and samples per run, one more of B for a run with --near (a skip,
    with --pending's reason, while it fails). Returns (passed, failed,
    skipped)."""
    near = {}
    for m in args.near:
        run, _, ref = m.partition('=')
        ref, _, pts = ref.partition(':')
        near[run] = (ref, float(pts))
    objects = set(args.object)
    res, notes = {}, []
    for run in args.flavours:
        path = os.path.join(args.dir, run + '.txt')
        if os.path.exists(path):
            res[run] = analyse_program(path, objects)
    pending = dict(m.partition('=')[::2] for m in args.pending)
    passed = failed = skipped = 0
    fmt = '    %-12s %7s %8s %8s %6s %10s %6s  %-29s %s'
    print(fmt % ('run', 'samples', 'own leaf', 'complete', 'A', 'reach main',
                 'B', 'required', 'result'))
    for run in args.flavours:
        req = []
        if run in need:
            req.append('A >= %g%%' % need[run])
        if run in near:
            req.append('B >= %s - %g' % near[run])
        if run not in res:
            print(fmt % (run, '-', '-', '-', '-', '-', '-', ', '.join(req) or '-',
                         'FAIL (no %s)' % os.path.join(args.dir, run + '.txt')))
            failed += 1
            continue
        total, own, done, reach, bad = res[run]
        a, b = share_of(done, own), share_of(reach, total)
        problems = []
        if own < args.min_samples:
            problems.append('< %d own-leaf samples' % args.min_samples)
        if run in need and a < need[run]:
            problems.append('A < %g%%' % need[run])
        result = 'FAIL (%s)' % ', '.join(problems) if problems else 'ok'
        passed += not problems
        failed += bool(problems)
        if run in near:
            ref, pts = near[run]
            if ref not in res:
                b_problem = 'no %s' % ref
            elif b < share_of(res[ref][3], res[ref][0]) - pts:
                b_problem = 'B < %s - %g' % (ref, pts)
            else:
                b_problem = None
            if not b_problem:
                passed += 1
            elif run in pending:
                skipped += 1
                result += '; B SKIP (%s: %s)' % (b_problem, pending[run])
            else:
                failed += 1
                result += '; B FAIL (%s)' % b_problem
        print(fmt % (run, total, own, done, '%.1f%%' % a, reach, '%.1f%%' % b,
                     ', '.join(req) or '-', result))
        for text, n in bad.most_common(3):
            notes.append('%-12s %5d x %s' % (run, n, text))
    for m in args.agree:
        run, _, ref = m.partition('=')
        ref, _, pct = ref.partition(':')
        paths = [os.path.join(args.dir, r + '.txt') for r in (run, ref)]
        if not all(os.path.exists(p) for p in paths):
            print('    %s: call sites against %s: FAIL (no runs)' % (run, ref))
            failed += 1
            continue
        foreign, sites = call_sites(paths[0], objects, True)
        _, ref_sites = call_sites(paths[1], objects, False)
        entered = sum(sites.values())
        agree = sum(n for site, n in sites.items() if site in ref_sites)
        share = share_of(agree, entered)
        ok = entered and share >= float(pct)
        print('    %s: %d samples with the leaf outside the program, %d go on into it;'
              % (run, foreign, entered))
        print('      at a call site that %s saw too: %d (%.1f%%, required >= %s%%): %s'
              % (ref, agree, share, pct, 'ok' if ok else 'FAIL'))
        passed += bool(ok)
        failed += not ok
        others = [s for s, _ in sites.most_common() if s not in ref_sites]
        if others and not args.quiet:
            print('      not seen by %s: %s' % (ref, ', '.join(others[:6])))
    names = ' or '.join(sorted(objects))
    print('    (A: complete / own leaf, samples whose leaf is in %s; complete:' % names)
    print('     main is reached with no unknown frame before it.')
    print('     B: reach main / samples, all samples; reach main: main is in the chain)')
    if notes and not args.quiet:
        print('    most frequent incomplete chains with the leaf in the program:')
        for n in notes:
            print('      ' + n)
    return passed, failed, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--min', action='append', default=[], metavar='FLAVOUR=PCT',
                    help='required share of complete leaf samples')
    ap.add_argument('--max', action='append', default=[], metavar='FLAVOUR=PCT',
                    help='largest allowed share of complete leaf samples')
    ap.add_argument('--near', action='append', default=[], metavar='RUN=REF:PTS',
                    help="RUN's B at most PTS points below REF's (with --object)")
    ap.add_argument('--pending', action='append', default=[], metavar='RUN=REASON',
                    help="RUN's --near check is a known gap: a skip, not a failure")
    ap.add_argument('--agree', action='append', default=[], metavar='RUN=REF:PCT',
                    help="of RUN's samples with the leaf outside the program that "
                    "go on into it, at least PCT%% enter it at a call site that "
                    "REF's do too (with --object)")
    ap.add_argument('--every', action='append', default=[], metavar='FLAVOUR',
                    help="every sample of FLAVOUR counts, complete from its first frame")
    ap.add_argument('--object', action='append', default=[], metavar='NAME',
                    help="a file name of the real program's own code")
    ap.add_argument('--workload', default='chain', choices=sorted(CHAINS),
                    help='the workload whose expected chain the FLAVOURs run '
                    '(scripts/workloads.py)')
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

    if args.object:
        passed, failed, skipped = program_table(args, need)
        print('counts: %d %d %d' % (passed, failed, skipped))
        print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
        return 1 if failed else 0

    passed = failed = 0
    rows, notes = [], []
    chain = CHAINS[args.workload]
    for fl in args.flavours:
        path = os.path.join(args.dir, fl + '.txt')
        if not os.path.exists(path):
            rows.append((fl, '-', '-', '-', '-', 'FAIL (no %s)' % path))
            failed += 1
            continue
        total, leaf, done, bad = analyse(path, chain, fl in args.every)
        share = share_of(done, leaf)
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
        rows.append((fl, str(leaf), str(done), '%.1f%%' % share, req, result))
        for text, n in bad.most_common(3):
            notes.append('%-11s %5d x %s' % (fl, n, text))

    fmt = '    %-' + str(max([8] + [len(fl) for fl in args.flavours])) + 's %12s %9s %7s'
    counted = 'samples' if set(args.flavours) <= set(args.every) else 'leaf samples'
    if args.figures:
        print(fmt % ('flavour', counted, 'complete', 'share'))
    else:
        print((fmt + ' %9s  %s') % ('flavour', counted, 'complete',
                                     'share', 'required', 'result'))
    for fl, leaf, done, share, req, result in rows:
        if args.figures:
            print(fmt % (fl, leaf, done, share))
        else:
            print((fmt + ' %9s  %s') % (fl, leaf, done, share, req, result))
    print('    (complete: %s, then anything)' % chain_text(args.workload))
    if args.every:
        print('    (%s: every sample, complete from its first frame, one of %s)'
              % (', '.join(args.every), ', '.join(chain)))
    if notes and not args.quiet:
        print('    most frequent incomplete chains%s:' %
              ('' if args.every else ' in leaf'))
        for n in notes:
            print('      ' + n)
    if args.figures:
        return 0
    print('counts: %d %d 0' % (passed, failed))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
