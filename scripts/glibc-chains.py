#!/usr/bin/env python3
"""The glibc stage's checks: user callchains of programs whose C library
has SFrame too, against --call-graph dwarf's.

  glibc-chains.py objects OBJECT...
  glibc-chains.py [options] DIR CASE...

Runs in the build root (scripts/glibc-e2e.sh: in_root), where readelf
reads SFrame V3 and every path the guest saw is where it was.

"objects" prints, for each ELF OBJECT, its SFrame section's FDEs and the
functions of its symbol table (FUNC, in an executable segment)
whose first instruction no FDE covers: the code where the kernel can only
guess (its frameless-leaf and frame-pointer guesses) or recognise a
signal trampoline by its bytes.

A CASE is NAME:FP:DWARF: DIR/FP.txt is `perf script -F +dsoff --no-inline`
of `perf record -e cpu-clock:u --call-graph fp,defer` on a program,
DIR/DWARF.txt the same program under --call-graph dwarf (scripts/e2e-guest.sh
--dsoff). Only the samples of the program's own command (--comm NAME=COMM)
count, and not those whose first frame is in a .plt.got stub, for which GNU
ld writes wrong SFrame (CFA = SP + 16 where nothing has been pushed): they
are counted apart, in both runs.

Every frame is symbolised here, from its object's symbol table through
the offset perf gives (resolve()): a return address less one, as the
kernel looks it up (perf symbolises an fp,defer return address as it is,
which after a call that ends its function lies in the next one or none).

complete: a chain is complete when its outermost frame (after dropping
  trailing zero addresses) is in one of the functions where a user stack
  begins: _start (the program's or the loader's), _dl_start or
  _dl_start_user (the loader's start-up), __clone3, clone3, __clone, clone
  or start_thread (a thread's), and no frame is unknown ([unknown]).
  Required of FP: a share >= --min-complete and >= DWARF's, as far as
  the samples can tell (below_dwarf(): a share below dwarf's by more than
  chance fails, P < 5%). A failure names the incomplete chains.
shape: a chain's shape is the sequence of its frames' functions, each
  with its object's file name (libc.so.6:lfind), leaf to outermost. A
  chain through a signal frame is compared in parts, cut after each
  __restore_rt (the handler's, then the interrupted code's): which code a
  signal interrupts varies, and a rare one (a PLT stub, the vDSO, main's
  loop) under a common handler leaf would otherwise count against a chain
  whose every frame is right. An FP sample has dwarf's shape when each of
  its parts has exactly the sequence of a part of a DWARF sample that
  begins in the same function; a part that begins where no part of
  DWARF's does, when its callers (the part from its second frame on) are
  the sequence of a part of DWARF's from its second frame on or further;
  a chain that ends at __restore_rt, not crossing the signal frame, has
  not. For a case given with --agree NAME=PCT: of the FP samples compared,
  PCT% have dwarf's shape, and at most MAX_UNCOMPARED% of all its samples
  have a part with nothing of DWARF's to compare with (unless another of
  their parts differs: then they count as compared).
guesses: the kernel unwinds a frame by SFrame when its address (a return
  address less one, the exact IP for the first frame and after a signal
  frame) is in an FDE of the object's section; else it recognises
  __restore_rt by its bytes, or guesses (a leaf that has not touched the
  stack; frame pointers). An FP chain "used a guess" when a frame other
  than its last is in no FDE and is not __restore_rt: the kernel stepped
  out of it by a guess. Such a chain agrees with dwarf when it has the
  shape of a dwarf chain of its leaf, or of its start if it stops short
  (then it is counted incomplete too). A rare path (a crtstuff function at
  exit) may have no dwarf chain like it: then the return address that each
  guess found must follow a direct call of the function it returned from
  (call_target()); one that follows a direct call of another function is
  a wrong frame (a skipped caller, a made-up return address), which fails
  the check; indirect calls and calls through the PLT cannot be told
  (unverifiable, counted). A function reached by a tail call would look
  wrong too: the programs here make none. --min-guessed NAME=N: at least
  N guessed chains with dwarf's shape. Chains that end in code without
  SFrame short of their outermost frame are listed too (a guess that
  failed, or none possible).
--walks NAME: DIR/FP.walks (e2e-guest.sh --walks --walk-functions
  FP=unwind_user_call_before) has the kernel's own count: every walk
  (unwind_user()) and in it each call of unwind_user_call_before(),
  which only the guesses call (the leaf guess's check of the return
  address, the step after a guessed leaf, a frame-pointer guess's check).
  The kernel has no tracepoint or counter for its guesses.

--need NAME=FUNC:N: at least N of FP's samples have FUNC in their chain
(the signal case: __restore_rt; threads: start_thread).

Prints a table, "counts: P F S" and "N passed, N failed, N skipped";
exits 1 when a check fails.
"""
import argparse
import bisect
import collections
import math
import os
import re
import subprocess
import sys

OUTERMOST = {'_start', '_dl_start', '_dl_start_user', '__clone3', 'clone3',
             '__clone', 'clone', 'start_thread'}
SIGTRAMP = '__restore_rt'
# The share (%) of a case's samples that may have nothing of dwarf's to be
# compared with (part_shape()): rare paths, a few samples a run; a walk
# that went wrong in every signal frame would put most there.
MAX_UNCOMPARED = 5
HEADER = re.compile(r'^(\S.*?)\s+(\d+)\s+[0-9.]+:\s')
FRAME = re.compile(r'^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')
# A frame once resolved: its function, its object's file name, whether an
# FDE covers it (None: not known), perf's address, whether it is in a
# .plt.got stub, its Object and its address there (None: not known).
Frame = collections.namedtuple('Frame', 'func obj covered addr pltgot ref vaddr')


def func(sym):
    """'qsort_r+0x1c' -> 'qsort_r'; 'memcpy@@GLIBC_2.14@plt' ->
    'memcpy@plt'."""
    sym = re.sub(r'\+0x[0-9a-f]+$', '', sym)
    return re.sub(r'@@?[A-Z][A-Z_]*[0-9.]+', '', sym)


def split_dso(text):
    """'/lib/libc.so.6+0x2a1ca' -> ('/lib/libc.so.6', 0x2a1ca)."""
    m = re.match(r'^(.*)\+0x([0-9a-f]+)$', text)
    if m:
        return m.group(1), int(m.group(2), 16)
    return text, None


def samples(path):
    """Yield (comm, tid, frames) for each sample of a perf script output;
    frames: a list of (addr, perf's function, dso, offset in the dso's
    file), leaf first, without trailing zero addresses."""
    cur = None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip():
                continue
            if not line[0].isspace():
                if cur:
                    yield trim(cur)
                m = HEADER.match(line)
                cur = (m.group(1).strip(), int(m.group(2)), []) if m else None
                continue
            m = FRAME.match(line)
            if m and cur:
                dso, off = split_dso(m.group(3))
                cur[2].append((int(m.group(1), 16), func(m.group(2)), dso, off))
    if cur:
        yield trim(cur)


def trim(sample):
    while sample[2] and sample[2][-1][0] == 0:
        sample[2].pop()
    return sample


def readelf(*args):
    return subprocess.run(['readelf', '-W'] + list(args), check=False,
                          capture_output=True, text=True).stdout


class Object:
    """An ELF object's loadable segments, FDEs and functions."""

    def __init__(self, path):
        self.path = path
        self.loads = []         # (offset, vaddr, filesz, executable)
        for line in readelf('-l', path).splitlines():
            p = line.split()
            if p and p[0] == 'LOAD':
                self.loads.append((int(p[1], 16), int(p[2], 16), int(p[4], 16),
                                   'E' in ''.join(p[6:-1])))
        self.fdes = []
        sec = readelf('--sframe', path)
        self.version = (re.search(r'Version: (\S+)', sec) or [None, '-'])[1]
        for m in re.finditer(r'func idx \[\d+\]: pc = 0x([0-9a-f]+), size = (\d+) bytes', sec):
            start = int(m.group(1), 16)
            self.fdes.append((start, start + int(m.group(2))))
        self.fdes.sort()
        self.starts = [s for s, _ in self.fdes]
        # The defined functions: address -> (size, names), one name
        # chosen for all aliases (GLOBAL or WEAK before LOCAL, no __GI_
        # alias, the shortest): the same in every run.
        syms = {}
        for line in readelf('-s', path).splitlines():
            p = line.split()
            if len(p) >= 8 and p[3] == 'FUNC' and p[6] != 'UND':
                addr = int(p[1], 16)
                size = int(p[2], 0) if p[2].startswith('0x') else int(p[2])
                prev = syms.get(addr, (0, []))
                syms[addr] = (max(prev[0], size), prev[1] + [(p[4], func(p[7]))])
        self.funcs = []
        for addr in sorted(syms):
            size, names = syms[addr]
            best = min(names, key=lambda n: (n[1].startswith('__GI_'), n[0] == 'LOCAL',
                                             len(n[1]), n[1]))[1]
            self.funcs.append((addr, size, best))
        self.fstarts = [a for a, _, _ in self.funcs]
        # The .plt.got stubs (jmp *GOT): GNU ld's SFrame for them says
        # CFA = SP + 16 at their first instruction, where nothing has been
        # pushed (8 is right: its FDE for .plt says so at the same place).
        self.pltgot = []
        for line in readelf('-S', path).splitlines():
            p = line.replace('[ ', '[').split()
            if len(p) > 5 and p[1] == '.plt.got':
                self.pltgot.append((int(p[3], 16), int(p[3], 16) + int(p[5], 16)))

    def vaddr(self, off):
        for o, v, n, _ in self.loads:
            if o <= off < o + n:
                return off - o + v
        return None

    def read(self, vaddr, n):
        """n bytes of the file at vaddr, or None."""
        for o, v, size, _ in self.loads:
            if v <= vaddr and vaddr + n <= v + size:
                with open(self.path, 'rb') as f:
                    f.seek(vaddr - v + o)
                    return f.read(n)
        return None

    def call_target(self, ra):
        """The function that the direct call (E8 rel32) ending at return
        address ra calls, by the name function() gives it; None when the
        instruction before ra is no direct call or its target is no
        function of this object (a PLT stub)."""
        insn = self.read(ra - 5, 5)
        if not insn or insn[0] != 0xe8:
            return None
        return self.function(ra + int.from_bytes(insn[1:], 'little', signed=True),
                             exact_start=True)

    def covered(self, addr):
        i = bisect.bisect_right(self.starts, addr) - 1
        return i >= 0 and self.fdes[i][0] <= addr < self.fdes[i][1]

    def function(self, addr, exact_start=False):
        """The function at addr (with exact_start, only one that begins
        there), or None."""
        i = bisect.bisect_right(self.fstarts, addr) - 1
        if i < 0:
            return None
        start, size, name = self.funcs[i]
        if exact_start or not size:
            return name if start == addr else None
        return name if start <= addr < start + size else None

    def functions(self):
        """(name, address) of the defined FUNC symbols in executable
        segments, one per address."""
        return sorted((n, a) for a, _, n in self.funcs
                      if any(v <= a < v + s for _, v, s, x in self.loads if x))


OBJECTS = {}


def is_vdso(path):
    base = os.path.basename(path)
    return base == '[vdso]' or base.startswith('perf-vdso.so')


def obj(path, vdso):
    if is_vdso(path):
        path = vdso
    if not path or not os.path.isfile(path):
        return None
    if path not in OBJECTS:
        OBJECTS[path] = Object(path)
    return OBJECTS[path]


def resolve(raw, fp, vdso):
    """The Frames of a sample. Its functions come from the objects' symbol
    tables, not from perf: perf symbolises an fp,defer chain's return
    addresses as they are, and one after a call that ends its function
    (a call of a noreturn function) lies in the next one or in none. So
    the lookup is the kernel's: a return address less one, except the
    first frame's address (the sampled IP) and the one after a signal
    frame (the interrupted IP); the signal trampoline is found by its
    first byte, where the handler returns to. --call-graph dwarf's
    addresses are already one less (perf's libdw unwinder). The lookup
    address decides whether an FDE covers the frame too."""
    out = []
    exact = True
    for addr, pname, dso, off in raw:
        o = obj(dso, vdso) if off is not None else None
        v = o.vaddr(off) if o else None
        name = covered = None
        pltgot = False
        if v is not None:
            pltgot = any(a <= v < b for a, b in o.pltgot)
            at = v if exact or not fp else v - 1
            if at != v and o.function(v, exact_start=True) == SIGTRAMP:
                at = v
            name = o.function(at)
            covered = o.covered(at)
        out.append(Frame(name or pname, '[vdso]' if is_vdso(dso) else os.path.basename(dso),
                         covered, addr, pltgot, o, v))
        exact = (name or pname) == SIGTRAMP
    return out


def name(frame):
    return '%s:%s' % (frame.obj, frame.func)


def shape(frames):
    return tuple(name(f) for f in frames)


def parts(frames):
    """A chain cut after each signal frame: the handler's frames up to the
    trampoline, then the interrupted code's. Each part is a walk of its
    own from registers the kernel read (the sample's, the signal frame's):
    which code a signal interrupts varies from run to run, so the chains
    are compared part by part. A chain that ends at the trampoline, not
    crossing the signal frame, ends in an empty part."""
    out, start = [], 0
    for i, f in enumerate(frames):
        if f.func == SIGTRAMP:
            out.append(frames[start:i + 1])
            start = i + 1
    if frames:
        out.append(frames[start:])
    return out


def complete(frames):
    return bool(frames) and frames[-1].func in OUTERMOST and \
        all(f.func != '[unknown]' for f in frames)


def below_dwarf(a, n, b, m, alpha=0.05):
    """FP's share of complete chains below dwarf's, beyond sampling noise?
    a of n FP samples and b of m dwarf samples are incomplete.  Were both
    unwinders equally likely to leave a sample incomplete, the a + b
    incomplete ones would fall into the FP run each with probability
    n / (n + m); the check fails when a or more doing so is less likely
    than alpha (one-sided exact binomial test).  Both near 100%, one
    sample must not decide: 1 of 5286 against 0 of 4894 is 0.52.
    Returns that probability when it fails, else None."""
    k = a + b
    if a == 0 or a * m <= b * n:
        return None
    p = n / (n + m)
    tail = sum(math.comb(k, i) * p ** i * (1 - p) ** (k - i) for i in range(a, k + 1))
    return tail if tail < alpha else None


def walks(path):
    """(walks, walks that called unwind_user_call_before, its calls) of a
    function_graph trace of unwind_user() (e2e-guest.sh --walks)."""
    n = guessed = calls = 0
    open_walk = {}      # cpu: [depth, calls]; a walk may move to another cpu

    def walk_of(cpu):
        if cpu not in open_walk and len(open_walk) == 1:
            return next(iter(open_walk))
        return cpu

    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r'^\s*(\d+)\)', line)
            if not m:
                continue
            cpu = m.group(1)
            if re.search(r'\bunwind_user\(\) \{', line):
                n += 1
                open_walk[cpu] = [1, 0]
            elif re.search(r'\bunwind_user\(\);', line):
                n += 1
            elif re.search(r'\|\s*\}', line):
                cpu = walk_of(cpu)
                if cpu in open_walk:
                    open_walk[cpu][0] -= 1
                    if open_walk[cpu][0] == 0:
                        guessed += open_walk.pop(cpu)[1] > 0
            else:
                cpu = walk_of(cpu)
                if cpu in open_walk:
                    if 'unwind_user_call_before();' in line:
                        calls += 1
                        open_walk[cpu][1] += 1
                    elif line.rstrip().endswith('{'):
                        open_walk[cpu][0] += 1
    return n, guessed, calls


def objects_report(paths):
    for p in paths:
        o = Object(p)
        funcs = o.functions()
        bare = [n for n, a in funcs if not o.covered(a)]
        print('    %-28s %-18s %6d FDEs; %d of %d functions without one%s'
              % (os.path.basename(p), o.version, len(o.fdes), len(bare), len(funcs),
                 (': ' + ', '.join(bare[:16]) + (' ...' if len(bare) > 16 else ''))
                 if bare else ''))
    return 0


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == 'objects':
        return objects_report(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--min-complete', type=float, default=99.9)
    ap.add_argument('--min-samples', type=int, default=200)
    ap.add_argument('--agree', action='append', default=[], metavar='NAME=PCT')
    ap.add_argument('--comm', action='append', default=[], metavar='NAME=COMM')
    ap.add_argument('--need', action='append', default=[], metavar='NAME=FUNC:N')
    ap.add_argument('--walks', action='append', default=[], metavar='NAME')
    ap.add_argument('--min-guessed', action='append', default=[], metavar='NAME=N')
    ap.add_argument('--vdso', help="the guest kernel's vDSO image (with its symbols)")
    ap.add_argument('dir')
    ap.add_argument('cases', nargs='+', metavar='NAME:FP:DWARF')
    args = ap.parse_args()
    agree = dict((k, float(v)) for k, _, v in (a.partition('=') for a in args.agree))
    comm = dict(a.split('=', 1) for a in args.comm)
    min_guessed = dict((k, int(v)) for k, _, v in (a.partition('=') for a in args.min_guessed))
    need = collections.defaultdict(list)
    for a in args.need:
        k, _, v = a.partition('=')
        fn, _, n = v.partition(':')
        need[k].append((fn, int(n)))

    passed = failed = 0
    notes = []

    def check(ok, what):
        nonlocal passed, failed
        passed += bool(ok)
        failed += not ok
        return 'ok' if ok else 'FAIL (%s)' % what

    def sub(cname, text):
        print('    %-8s %s' % (cname, text))

    fmt = '    %-8s %-18s %-8s %7s %8s %8s  %-20s %s'
    print(fmt % ('case', 'run', 'unwinder', 'samples', 'complete', 'share', 'required', 'result'))
    for case in args.cases:
        cname, fp, dw = case.split(':')
        runs, pltgot, every = {}, {}, {}
        for label in (fp, dw):
            path = os.path.join(args.dir, label + '.txt')
            if not os.path.exists(path):
                continue
            every[label] = [resolve(fr, label == fp, args.vdso) for c, _, fr in samples(path)
                            if cname not in comm or c == comm[cname]]
            runs[label] = [fr for fr in every[label] if not (fr and fr[0].pltgot)]
            pltgot[label] = len(every[label]) - len(runs[label])
        if fp not in runs or dw not in runs:
            print(fmt % (cname, fp, '-', '-', '-', '-', '-',
                         check(False, 'no %s or %s in %s' % (fp, dw, args.dir))))
            continue
        s, d = runs[fp], runs[dw]
        done = {label: sum(complete(fr) for fr in runs[label]) for label in runs}
        share = {label: pct(done[label], len(runs[label])) for label in runs}
        problems = []
        if len(s) < args.min_samples:
            problems.append('< %d samples' % args.min_samples)
        if share[fp] < args.min_complete:
            problems.append('< %g%%' % args.min_complete)
        worse = below_dwarf(len(s) - done[fp], len(s), len(d) - done[dw], len(d))
        if worse is not None:
            problems.append("< dwarf's: P = %.2g" % worse)
        if problems and done[fp] < len(s):
            problems.append('incomplete: ' + '; '.join(
                '%d x %s' % (n, text) for text, n in collections.Counter(
                    ' <- '.join(f.func for f in fr[:5]) + (' ...' if len(fr) > 5 else '')
                    for fr in s if not complete(fr)).most_common(2)))
        print(fmt % (cname, fp, 'fp,defer', len(s), done[fp], '%.2f%%' % share[fp],
                     '>= %g%%, >= dwarf' % args.min_complete,
                     check(not problems, ', '.join(problems))))
        print(fmt % ('', dw, 'dwarf', len(d), done[dw], '%.2f%%' % share[dw],
                     '>= %d samples' % args.min_samples,
                     check(len(d) >= args.min_samples, '< %d samples' % args.min_samples)))
        if pltgot[fp] or pltgot[dw]:
            sub('', '%s, %s: %d, %d samples in a .plt.got stub, not counted (GNU ld\'s SFrame '
                'for .plt.got is wrong: CFA = SP + 16)' % (fp, dw, pltgot[fp], pltgot[dw]))
        bad = collections.Counter(' <- '.join(f.func for f in fr[:7]) +
                                  (' ...' if len(fr) > 7 else '')
                                  for fr in s if not complete(fr))
        for text, n in bad.most_common(3):
            notes.append('%-8s %s: %d x %s' % (cname, fp, n, text))

        for fn, n in need[cname]:
            have = sum(any(f.func == fn for f in fr) for fr in s)
            sub('', '%s: %d samples with %s in their chain (required >= %d): %s'
                % (fp, have, fn, n, check(have >= n, 'fewer')))

        # The shapes of dwarf's chains, by leaf function; and of their
        # parts, split at signal frames, by each part's first function.
        seen = collections.defaultdict(set)
        seen_part = collections.defaultdict(set)
        callers = set()         # every part of dwarf's from its second frame on
        for fr in d:
            if fr:
                seen[name(fr[0])].add(shape(fr))
            for part in parts(fr):
                if part:
                    seen_part[name(part[0])].add(shape(part))
                    callers.update(shape(part[k:]) for k in range(1, len(part)))

        def part_shape(p):
            """A part against dwarf's parts that begin in the same function:
            True when it has the shape of one, False when it has none of
            theirs (or is empty: the walk did not cross the signal frame).
            Where no part of dwarf's begins, its callers (the part from its
            second frame) against every part of dwarf's from its second
            frame on: True when they are one, else None (nothing to compare
            with)."""
            if not p:
                return False
            if name(p[0]) in seen_part:
                return shape(p) in seen_part[name(p[0])]
            return True if len(p) > 1 and shape(p[1:]) in callers else None

        def dwarf_shape(fr):
            """Every part of the chain (parts()) by part_shape(): False
            when one is False, True when all are True, else None."""
            verdicts = [part_shape(p) for p in parts(fr)]
            if False in verdicts:
                return False
            return True if verdicts and all(verdicts) else None

        verdict = [dwarf_shape(fr) for fr in s]
        verdicts = collections.Counter(verdict)
        same, compared = verdicts[True], verdicts[True] + verdicts[False]
        line = '%s: of %d samples compared with dwarf\'s, %d (%.1f%%) with dwarf\'s shapes; ' \
            '%d (%.1f%%) with nothing to compare with' % (
                fp, compared, same, pct(same, compared), verdicts[None],
                pct(verdicts[None], len(s)))
        if cname in agree:
            line += ' (required >= %g%%, <= %g%%): %s' % (
                agree[cname], MAX_UNCOMPARED,
                check(pct(same, compared) >= agree[cname] and
                      pct(verdicts[None], len(s)) <= MAX_UNCOMPARED,
                      'fewer' if pct(same, compared) < agree[cname] else 'too many not compared'))
        sub('', line)
        if cname in agree:
            other = collections.Counter(' <- '.join(f.func for f in fr)
                                        for fr, v in zip(s, verdict) if v is False)
            for text, n in other.most_common(2):
                notes.append('%-8s %s: not in dwarf: %d x %s' % (cname, fp, n, text))

        def dwarf_prefix(fr):
            """dwarf_shape(), but a chain that stops short (incomplete,
            counted as such) agrees when it is the start of a dwarf chain:
            none of its frames is made up or skipped."""
            if not fr or name(fr[0]) not in seen:
                return None
            sh = shape(fr)
            return any(ds[:len(sh)] == sh for ds in seen[name(fr[0])])

        def call_sites(fr, steps):
            """For each guessed step (the index of a frame without SFrame
            that the walk stepped out of): True if the instruction before
            the return address it found is a direct call of that frame's
            function, False if it calls another function of the object,
            None if that cannot be told (an indirect call, a call through
            the PLT, another object)."""
            out = []
            for i in steps:
                callee, caller = fr[i], fr[i + 1]
                if caller.ref is None or caller.ref is not callee.ref or caller.vaddr is None:
                    out.append(None)
                    continue
                target = caller.ref.call_target(caller.vaddr)
                out.append(None if target is None else target == callee.func)
            return out

        # Where the kernel had to guess, as seen from the chains: each
        # guessed chain against dwarf's chains of the same leaf, and where
        # dwarf has no chain like it (a rare path), against the call
        # instructions before the return addresses the guesses found.
        where, ended, wrong = collections.Counter(), collections.Counter(), collections.Counter()
        guessed = collections.Counter()
        for fr in s:
            steps = [i for i, f in enumerate(fr[:-1])
                     if f.covered is not True and f.func != SIGTRAMP]
            if steps:
                if dwarf_prefix(fr):
                    verdict = 'dwarf'
                else:
                    sites = call_sites(fr, steps)
                    verdict = 'wrong' if False in sites else \
                        'calls' if all(sites) else 'unverified'
                guessed[verdict] += 1
                if verdict == 'wrong':
                    wrong[' <- '.join(f.func for f in fr)] += 1
                for i in steps:
                    where[name(fr[i])] += 1
            if fr and fr[-1].covered is not True and not complete(fr):
                ended[name(fr[-1])] += 1
        total = sum(guessed.values())
        sub('', '%s: %d chains stepped out of code without SFrame by a guess%s'
            % (fp, total, (' (' + ', '.join('%s x%d' % w for w in where.most_common(6)) + ')')
               if where else ''))
        line = '%s: of them %d with the shape (or the start) of a dwarf chain of their leaf; ' \
            'of the others, %d whose every guessed caller calls the function it returns ' \
            'from, %d unverifiable (indirect calls, PLT), %d wrong' \
            % (fp, guessed['dwarf'], guessed['calls'], guessed['unverified'], guessed['wrong'])
        if cname in min_guessed:
            line += ' (required: none wrong, >= %d like dwarf\'s): %s' % (
                min_guessed[cname], check(not guessed['wrong'] and
                                          guessed['dwarf'] >= min_guessed[cname],
                                          'a wrong guessed frame' if guessed['wrong'] else 'fewer'))
        else:
            line += ' (required: none wrong): %s' % check(not guessed['wrong'],
                                                          'a wrong guessed frame')
        sub('', line)
        for text, n in wrong.most_common(3):
            notes.append('%-8s %s: a guessed frame is wrong: %d x %s' % (cname, fp, n, text))
        if ended:
            sub('', '%s: %d chains end in code without SFrame: %s'
                % (fp, sum(ended.values()), ', '.join('%s x%d' % w for w in ended.most_common(5))))
        if cname in args.walks:
            path = os.path.join(args.dir, fp + '.walks')
            if os.path.exists(path):
                n, g, c = walks(path)
                sub('', '%s: kernel trace: %d walks, %d of them checked a guess (%d calls of '
                    'unwind_user_call_before(), .plt.got samples included)' % (fp, n, g, c))
            else:
                sub('', '%s: kernel trace: no %s' % (fp, path))
    print('    (complete: the chain ends in %s, no unknown frame;' % ', '.join(sorted(OUTERMOST)))
    print('     shape: the functions of its frames with their objects, leaf to outermost;')
    print('     a guess: a step out of a frame that no FDE covers, but %s)' % SIGTRAMP)
    if notes:
        print('    most frequent incomplete or other chains:')
        for n in notes:
            print('      ' + n)
    print('counts: %d %d 0' % (passed, failed))
    print('%d passed, %d failed, 0 skipped' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
