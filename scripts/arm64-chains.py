#!/usr/bin/env python3
"""Check the user callchains that the arm64 guest sampled (scripts/arm64-chains.c).

  arm64-chains.py [--min PCT] [--min-samples N] [--nm NM] DIR BINDIR NAME...

DIR/NAME is what scripts/arm64-chains.c printed in the guest for the
workload BINDIR/NAME (workloads/chain.c built static, non-PIE, for aarch64,
by workloads/Makefile's arm64 target: its addresses are its link-time
ones). Every address is symbolized with the cross binutils' nm (NM, in the
build root): a return address one byte back, in its call instruction, the
sampled IP as it is.

A chain is complete when its first frame, the sampled IP, is in leaf and
its frames up to main are exactly chain.c's call graph,
leaf <- mid2 <- mid1 <- top <- main (scripts/workloads.py's CHAINS): every
frame's next one is its caller, none missing, none extra, main reached.
What follows main does not make a chain incomplete: main's caller is
static glibc's start-up, code without SFrame but with frame records
(__libc_start_call_main <- __libc_start_main <- _start, where x29 is 0);
the table gives the share of complete chains that go on beyond main, the
notes how far, and a frame there that is not the next one of the start-up
fails the check.

Two checks per NAME:
  chains     at least N samples in leaf (the sampler's "nochain" samples,
             whose deferred chain never came, are counted and are
             incomplete), a complete share >= PCT, no complete chain that
             goes on past main into anything but the start-up (a prefix of
             __libc_start_call_main <- __libc_start_main <- _start), and a
             clean run: no "error" line from the sampler, the workload
             exited 0;
  addresses  every address of every chain, whatever its leaf, resolves to
             a function symbol of the program (or lies in the vDSO that
             the sampler saw mapped): a return address the kernel did not
             strip of its pointer authentication code would not. For a
             NAME built with -mbranch-protection (a "pac" in its name), the
             guest's CPU must have pointer authentication (the sampler's
             "pauth yes"): else nothing was signed and the check proves
             nothing, and fails.

Prints a line per NAME and check, then "counts: P F S" for make check and
"N passed, N failed"; exits 1 when a check fails.
"""
import argparse
import bisect
import collections
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workloads import CHAINS, ENTRY, chain_text  # noqa: E402

CHAIN = CHAINS['chain']
# Static glibc's start-up, main's caller first: what a chain may go on to
# after main (any prefix of it, or nothing).
START_UP = ('__libc_start_call_main', '__libc_start_main', '_start')
BRANCH_PROTECTION = {'sframe': 'none', 'pac': 'pac-ret', 'pacb': 'pac-ret+b-key'}


def symbols(nm, path):
    """Sorted (start, end, name) of the function symbols of path. A symbol
    without a size (crtstuff's frame_dummy, __do_global_dtors_aux: the
    program runs them at start and exit) ends where the next one starts."""
    out = subprocess.run([nm, '-S', '--defined-only', path], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:                 # no size
            parts = [parts[0], '0'] + parts[1:]
        if len(parts) != 4 or parts[2] not in 'tTwWiI':
            continue
        start, size = int(parts[0], 16), int(parts[1], 16)
        # One name an address (aliases: any is right), a sized one first.
        if start not in syms or (size and not syms[start][1]):
            syms[start] = (start, size, parts[3])
    starts = sorted(syms)
    res = []
    for i, start in enumerate(starts):
        _, size, name = syms[start]
        if not size:
            if i + 1 == len(starts):
                continue
            size = starts[i + 1] - start
        res.append((start, start + size, name))
    return res


class Resolver:
    def __init__(self, syms, vdso):
        self.syms = syms
        self.starts = [s for s, _, _ in syms]
        self.vdso = vdso

    def __call__(self, addr):
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0 and addr < self.syms[i][1]:
            return self.syms[i][2]
        for lo, hi in self.vdso:
            if lo <= addr < hi:
                return '[vdso]'
        return None


def read_run(path):
    """The sampler's lines: a dict of lists."""
    run = collections.defaultdict(list)
    with open(path, errors='replace') as f:
        for line in f:
            kind, _, rest = line.rstrip('\n').partition(' ')
            run[kind].append(rest)
    return run


def analyse(run, resolve):
    """Figures of one run (a dict)."""
    r = dict(samples=0, leaf=0, done=0, beyond=0, wrong_after=0, malformed=0,
             frames=0, unresolved=0, vdso=0, bad=collections.Counter(),
             after=collections.Counter(), unknown=collections.Counter())
    for kind in ('chain', 'nochain'):
        for rest in run.get(kind, []):
            words = rest.split()
            try:
                n, ips = int(words[0]), [int(w, 16) for w in words[1:]]
            except (ValueError, IndexError):
                r['malformed'] += 1     # cut by a kernel message on the console?
                continue
            names = [resolve(ip - (1 if i else 0)) for i, ip in enumerate(ips)]
            r['samples'] += n
            r['frames'] += n * len(ips)
            for ip, name in zip(ips, names):
                if name is None:
                    r['unresolved'] += n
                    r['unknown']['%#x' % ip] += n
                elif name == '[vdso]':
                    r['vdso'] += n
            if not names or names[0] != CHAIN[0]:
                continue
            r['leaf'] += n
            shown = ' <- '.join(x or '?' for x in names[:len(CHAIN) + 1])
            if kind == 'chain' and tuple(names[:len(CHAIN)]) == CHAIN:
                r['done'] += n
                rest_names = names[len(CHAIN):]
                if rest_names:
                    r['beyond'] += n
                norm = tuple(x and x.removesuffix('_impl') for x in rest_names)
                if norm != START_UP[:len(norm)]:
                    r['wrong_after'] += n
                r['after'][' <- '.join(x or '?' for x in rest_names) or '(ends in main)'] += n
            else:
                r['bad'][shown + (' (no deferred chain)' if kind == 'nochain' else '')] += n
    return r


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--min', type=float, default=99.0, metavar='PCT')
    ap.add_argument('--min-samples', type=int, default=200)
    ap.add_argument('--nm', default='aarch64-linux-gnu-nm')
    ap.add_argument('dir')
    ap.add_argument('bindir')
    ap.add_argument('names', nargs='+')
    args = ap.parse_args()

    passed = failed = 0
    fmt = '    %-13s %-13s %7s %6s %8s %6s %8s %11s %10s  %s'
    print(fmt % ('build', 'branch prot.', 'samples', 'leaf', 'complete', 'share',
                 'required', 'beyond main', 'unresolved', 'result'))
    notes = []
    for name in args.names:
        flavour = name.split('-', 1)[-1]
        prot = BRANCH_PROTECTION.get(flavour, '?')
        path = os.path.join(args.dir, name)
        binary = os.path.join(args.bindir, name)
        missing = [p for p in (path, binary) if not os.path.exists(p)]
        if missing:
            print(fmt % (name, prot, '-', '-', '-', '-', '>= %g%%' % args.min, '-', '-',
                         'FAIL (no %s)' % ', '.join(missing)))
            failed += 2
            continue
        run = read_run(path)
        vdso = []
        for m in run.get('map', []):
            if m.rstrip().endswith('[vdso]'):
                lo, hi = m.split()[0].split('-')
                vdso.append((int(lo, 16), int(hi, 16)))
        r = analyse(run, Resolver(symbols(args.nm, binary), vdso))
        share = pct(r['done'], r['leaf'])

        problems = []
        if r['leaf'] < args.min_samples:
            problems.append('< %d leaf samples' % args.min_samples)
        if share < args.min:
            problems.append('share < %g%%' % args.min)
        if r['wrong_after']:
            problems.append('%d complete chains go on past main into something else '
                            'than glibc\'s start-up' % r['wrong_after'])
        if r['malformed']:
            problems.append('%d chain lines unreadable (see %s)' % (r['malformed'], path))
        for e in run.get('error', []):
            problems.append('sampler: ' + e)
        stats = dict(zip(*[iter((run.get('stats') or [''])[-1].split())] * 2))
        if stats.get('exit') != '0':
            problems.append('workload exit %s' % stats.get('exit', '?'))
        if run.get('sampler') and run['sampler'][-1].split()[:2] != ['exit', '0']:
            problems.append('sampler %s' % run['sampler'][-1])
        result = 'FAIL (%s)' % '; '.join(problems) if problems else 'ok'
        passed += not problems
        failed += bool(problems)
        print(fmt % (name, prot, r['samples'], r['leaf'], r['done'], '%.1f%%' % share,
                     '>= %g%%' % args.min, '%.1f%%' % pct(r['beyond'], r['done']),
                     r['unresolved'], result))

        problems = []
        if not r['frames']:
            problems.append('no frames')
        if r['unresolved']:
            problems.append('%d of %d addresses resolve to no symbol'
                            % (r['unresolved'], r['frames']))
        pauth = (run.get('pauth') or ['?'])[-1]
        if 'pac' in flavour and pauth != 'yes':
            problems.append('the guest has no pointer authentication (pauth %s): '
                            'nothing was signed' % pauth)
        result = 'FAIL (%s)' % '; '.join(problems) if problems else 'ok'
        passed += not problems
        failed += bool(problems)
        print('    %-13s   addresses: %d in %d chains, %d resolve to no symbol, %d in the '
              'vDSO; pointer authentication: %s: %s'
              % ('', r['frames'], r['samples'], r['unresolved'], r['vdso'], pauth, result))

        for chain, n in r['bad'].most_common(3):
            notes.append('%-13s %5d x incomplete: %s' % (name, n, chain))
        for after, n in r['after'].most_common(4):
            notes.append('%-13s %5d x main <- %s' % (name, n, after))
        for addr, n in r['unknown'].most_common(3):
            notes.append('%-13s %5d x unresolved address %s' % (name, n, addr))
        notes.append('%-13s stats: %s' % (name, (run.get('stats') or ['-'])[-1]))
    print('    (complete: the sampled IP in %s, then exactly %s; beyond main: of the'
          % (CHAIN[0], chain_text('chain')))
    print('     complete chains, those that go on past %s into static glibc\'s start-up)'
          % ENTRY)
    for n in notes:
        print('      ' + n)
    print('counts: %d %d 0' % (passed, failed))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
