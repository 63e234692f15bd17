#!/usr/bin/env python3
"""Check the user callchains that the arm64 guest sampled (scripts/arm64-chains.c).

  arm64-chains.py [--min PCT] [--min-samples N] [--cross PREFIX] FILES DIR NAME...

DIR/NAME is what scripts/arm64-chains.c printed in the guest for the
workload NAME; FILES is the initramfs' list (scripts/arm64-guest.sh's
OUT/initramfs.list, gen_init_cpio's "file GUEST HOST ..." lines): which
host file each guest file is. Every address is symbolized through the
executable mapping it lies in (the sampler prints the workload's
/proc/PID/maps and the event's PERF_RECORD_MMAP2 records): the mapped
file's offset, then its address in that ELF file through its program
headers, then the function there, from the cross binutils (PREFIX: nm -S
of .symtab and of .dynsym; for code that has neither, as in Debian's
stripped libc.so.6 and ld.so, the function's range in .eh_frame, which
readelf --debug-dump=frames gives; the PLT). A return address is looked
up one byte back, in its call instruction, the sampled IP as it is. An
address in the vDSO resolves to [vdso].

Two kinds of NAME:
  chain-FLAVOUR  workloads/chain.c built static, non-PIE (workloads/
                 Makefile's arm64 target). A chain is complete when its
                 first frame, the sampled IP, is in leaf and its frames up
                 to main are exactly chain.c's call graph, leaf <- mid2 <-
                 mid1 <- top <- main (scripts/workloads.py's CHAINS):
                 every frame's next one is its caller, none missing, none
                 extra, main reached.
  real-FLAVOUR   the real program (scripts/real.sh --arm64): sqlite3's
                 shell, a PIE, and its own libsqlite3.so.0, dynamic, on
                 the cross glibc, running e2e's fixed workload. e2e's rule
                 for it (scripts/workloads.py's complete() with the real
                 program's objects, callchains.py's A): of the samples
                 whose IP is in the program's own code (REAL_OBJECTS), a
                 chain is complete when it reaches main in the program with
                 every frame before it a function of a mapped object.
What follows main does not make a chain incomplete: main's caller is
glibc's start-up, code without SFrame but with frame records
(__libc_start_call_main <- __libc_start_main <- _start, where x29 is 0;
a stripped libc.so.6 has no name for the static __libc_start_call_main:
there any function of it stands for it); the table gives the share of
complete chains that go on beyond main, the notes how far, and a frame
there that is not the next one of the start-up fails the check.

Two checks per NAME:
  chains     at least N samples in leaf (the program's own code, for the
             real program; the sampler's "nochain" samples, whose deferred
             chain never came, are counted and are incomplete), a
             complete share >= PCT, no complete chain that goes on past
             main into anything but the start-up (a prefix of
             __libc_start_call_main <- __libc_start_main <- _start), and a
             clean run: no "error" line from the sampler, the workload
             exited 0;
  addresses  every address of every chain, whatever its leaf, resolves to
             a function of a mapped object (or lies in the vDSO): a
             return address the kernel did not strip of its pointer
             authentication code lies in no mapping at all. For a NAME
             built with -mbranch-protection (a "pac" in its name), the
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
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workloads import CHAINS, ENTRY, REAL_OBJECTS, chain_text  # noqa: E402

CHAIN = CHAINS['chain']
# glibc's start-up, main's caller first: what a chain may go on to after
# main (any prefix of it, or nothing).
START_UP = ('__libc_start_call_main', '__libc_start_main', '_start')
# Its functions that are static in glibc: a stripped libc.so.6 has no
# symbol for them (a function of its .eh_frame stands for them there).
START_UP_STATIC = ('__libc_start_call_main',)
BRANCH_PROTECTION = {'sframe': 'none', 'pac': 'pac-ret', 'pacb': 'pac-ret+b-key'}
# A function of an object without a symbol: its .eh_frame range only.
ANON = ''
FDE = re.compile(r'\sFDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)')


def run(cmd):
    return subprocess.run(cmd, check=False, capture_output=True, text=True).stdout


def code_sections(readelf, path):
    """Sorted (start, end, name) of the executable sections of path."""
    res = []
    for line in run([readelf, '-SW', path]).splitlines():
        words = line.partition(']')[2].split()
        # NAME TYPE ADDRESS OFFSET SIZE ES FLAGS ...
        if len(words) >= 7 and 'X' in words[6]:
            try:
                start = int(words[2], 16)
                res.append((start, start + int(words[4], 16), words[0]))
            except ValueError:
                continue
    return sorted(res)


def symbols(nm, path, sections, dynamic=False):
    """Sorted (start, end, name) of the function symbols of path (of its
    .dynsym with dynamic, names without their version). A symbol without
    a size (crtstuff's frame_dummy, __do_global_dtors_aux: the program
    runs them at start and exit; crti's _init and _fini) ends where the
    next one starts or its section (sections: code_sections()) ends."""
    out = run([nm, '-S', '--defined-only'] + (['-D'] if dynamic else []) + [path])
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:                 # no size
            parts = [parts[0], '0'] + parts[1:]
        if len(parts) != 4 or parts[2] not in 'tTwWiI':
            continue
        start, size = int(parts[0], 16), int(parts[1], 16)
        name = parts[3].split('@')[0]
        # One name an address (aliases: any is right), a sized one first.
        if start not in syms or (size and not syms[start][1]):
            syms[start] = (start, size, name)
    starts = sorted(syms)
    res = []
    for i, start in enumerate(starts):
        _, size, name = syms[start]
        if not size:
            end = next((e for s, e, _ in sections if s <= start < e), None)
            if i + 1 < len(starts):
                end = min(starts[i + 1], end or starts[i + 1])
            if end is None:
                continue
            size = end - start
        res.append((start, start + size, name))
    return res


class Ranges:
    """Sorted, possibly overlapping (start, end, name): the name of the
    innermost one that holds an address, or None."""

    def __init__(self, ranges):
        self.ranges = sorted(ranges)
        self.starts = [r[0] for r in self.ranges]

    def __call__(self, addr):
        i = bisect.bisect_right(self.starts, addr) - 1
        # Overlaps are rare (aliases of different sizes): look back a little.
        for j in range(i, max(i - 8, -1), -1):
            start, end, name = self.ranges[j]
            if start <= addr < end:
                return name
        return None


class Object:
    """A host ELF file (aarch64, little-endian, 64-bit): its loadable
    segments and its functions."""

    def __init__(self, path, cross):
        self.path = path
        with open(path, 'rb') as f:
            data = f.read()
        if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
            raise ValueError('%s: not a 64-bit little-endian ELF file' % path)
        phoff, = struct.unpack_from('<Q', data, 0x20)
        phentsize, phnum = struct.unpack_from('<HH', data, 0x36)
        self.loads = []
        for i in range(phnum):
            p_type, flags, off, vaddr, _, filesz, _, _ = struct.unpack_from(
                '<IIQQQQQQ', data, phoff + i * phentsize)
            if p_type == 1:                 # PT_LOAD
                self.loads.append((off, off + filesz, vaddr, flags))
        sections = code_sections(cross + 'readelf', path)
        self.named = Ranges(symbols(cross + 'nm', path, sections) +
                            symbols(cross + 'nm', path, sections, dynamic=True))
        out = run([cross + 'readelf', '--debug-dump=frames', path])
        self.fdes = Ranges((int(m.group(1), 16), int(m.group(2), 16), ANON)
                           for m in FDE.finditer(out))
        self.plt = Ranges((s, e, '[plt]') for s, e, name in sections
                          if name in ('.plt', '.iplt'))

    def vaddr(self, offset):
        """The ELF address of file offset offset in executable code, or None."""
        for start, end, vaddr, flags in self.loads:
            if start <= offset < end and flags & 1:     # PF_X
                return vaddr + offset - start
        return None

    def function(self, vaddr):
        """The function at vaddr: its name, ANON for one without a symbol,
        '[plt]', or None."""
        for table in (self.named, self.fdes, self.plt):
            name = table(vaddr)
            if name is not None:
                return name
        return None


Frame = collections.namedtuple('Frame', 'obj name')   # name None: unresolved


class Resolver:
    """Addresses of one run to Frames, through its executable mappings."""

    def __init__(self, run, files, objects, cross):
        self.files, self.objects, self.cross = files, objects, cross
        self.maps = []          # (lo, hi, pgoff, guest path), in the run's order
        self.missing = set()    # guest files that FILES does not name
        for kind, rest in run['lines']:
            words = rest.split()
            try:
                if kind == 'map' and len(words) >= 6 and 'x' in words[1]:
                    lo, hi = (int(x, 16) for x in words[0].split('-'))
                    self.maps.append((lo, hi, int(words[2], 16), ' '.join(words[5:])))
                elif kind == 'mmap' and len(words) >= 4:
                    lo = int(words[0], 16)
                    self.maps.append((lo, lo + int(words[1], 16), int(words[2], 16),
                                      ' '.join(words[3:])))
            except ValueError:
                continue

    def object(self, guest):
        host = self.files.get(guest)
        if host is None:
            self.missing.add(guest)
            return None
        if host not in self.objects:
            self.objects[host] = Object(host, self.cross)
        return self.objects[host]

    def __call__(self, addr):
        # The latest mapping that holds it: a later one maps over an earlier.
        for lo, hi, pgoff, guest in reversed(self.maps):
            if not lo <= addr < hi:
                continue
            if guest == '[vdso]':
                return Frame('[vdso]', '[vdso]')
            obj = self.object(guest)
            name = None
            if obj is not None:
                vaddr = obj.vaddr(addr - lo + pgoff)
                if vaddr is not None:
                    name = obj.function(vaddr)
            return Frame(os.path.basename(guest), name)
        return Frame(None, None)


def read_files(path):
    """FILES: {guest path: host path} of the initramfs list."""
    files = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) >= 3 and words[0] == 'file':
                files[words[1]] = words[2]
    return files


def read_run(path):
    """The sampler's lines: a dict of lists, and all of them in order."""
    res = collections.defaultdict(list)
    with open(path, errors='replace') as f:
        for line in f:
            kind, _, rest = line.rstrip('\n').partition(' ')
            res[kind].append(rest)
            res['lines'].append((kind, rest))
    return res


def show(frame):
    if frame.name is None:
        return '?'
    if frame.name in (ANON, '[plt]'):
        return '%s:%s' % (frame.obj, frame.name or '(no symbol)')
    return frame.name


def start_up_ok(tail):
    """The frames after main are a prefix of glibc's start-up."""
    if len(tail) > len(START_UP):
        return False
    for frame, want in zip(tail, START_UP):
        name = frame.name
        if name == ANON and want in START_UP_STATIC:
            continue
        if name is None or name.removesuffix('_impl') != want:
            return False
    return True


def analyse(run, resolve, real):
    """Figures of one run (a dict). real: the real program's rule."""
    r = dict(samples=0, leaf=0, done=0, beyond=0, wrong_after=0, malformed=0,
             frames=0, unresolved=0, vdso=0, anon=0, reach=0, bad=collections.Counter(),
             after=collections.Counter(), unknown=collections.Counter())
    for kind in ('chain', 'nochain'):
        for rest in run.get(kind, []):
            words = rest.split()
            try:
                n, ips = int(words[0]), [int(w, 16) for w in words[1:]]
            except (ValueError, IndexError):
                r['malformed'] += 1     # cut by a kernel message on the console?
                continue
            frames = [resolve(ip - (1 if i else 0)) for i, ip in enumerate(ips)]
            r['samples'] += n
            r['frames'] += n * len(ips)
            for ip, f in zip(ips, frames):
                if f.name is None:
                    r['unresolved'] += n
                    r['unknown']['%#x' % ip + (' (%s)' % f.obj if f.obj else '')] += n
                elif f.name == '[vdso]':
                    r['vdso'] += n
                elif f.name == ANON:
                    r['anon'] += n
            # main, in the program's own code for the real program.
            main = next((i for i, f in enumerate(frames) if f.name == ENTRY and
                         (not real or f.obj in REAL_OBJECTS)), None)
            if kind == 'chain' and main is not None:
                r['reach'] += n
            if real:
                if not frames or frames[0].obj not in REAL_OBJECTS:
                    continue
                done = (kind == 'chain' and main is not None and
                        all(f.name is not None for f in frames[:main]))
                shown = ' <- '.join(show(f) for f in frames[:6]) + \
                    (' ...' if len(frames) > 6 else '')
            else:
                if not frames or frames[0].name != CHAIN[0]:
                    continue
                done = kind == 'chain' and main == len(CHAIN) - 1 and \
                    tuple(f.name for f in frames[:main + 1]) == CHAIN
                shown = ' <- '.join(show(f) for f in frames[:len(CHAIN) + 1])
            r['leaf'] += n
            if done:
                r['done'] += n
                tail = frames[main + 1:]
                if tail:
                    r['beyond'] += n
                if not start_up_ok(tail):
                    r['wrong_after'] += n
                r['after'][' <- '.join(show(f) for f in tail) or '(ends in main)'] += n
            else:
                r['bad'][shown + (' (no deferred chain)' if kind == 'nochain' else '')] += n
    return r


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--min', type=float, default=99.0, metavar='PCT')
    ap.add_argument('--min-samples', type=int, default=200)
    ap.add_argument('--cross', default='aarch64-linux-gnu-', metavar='PREFIX')
    ap.add_argument('files')
    ap.add_argument('dir')
    ap.add_argument('names', nargs='+')
    args = ap.parse_args()

    files = read_files(args.files)
    objects = {}
    passed = failed = 0
    fmt = '    %-13s %-13s %7s %6s %8s %6s %8s %11s %10s  %s'
    print(fmt % ('build', 'branch prot.', 'samples', 'leaf', 'complete', 'share',
                 'required', 'beyond main', 'unresolved', 'result'))
    notes = []
    for name in args.names:
        workload, _, flavour = name.partition('-')
        real = workload == 'real'
        prot = BRANCH_PROTECTION.get(flavour, '?')
        path = os.path.join(args.dir, name)
        if not os.path.exists(path):
            print(fmt % (name, prot, '-', '-', '-', '-', '>= %g%%' % args.min, '-', '-',
                         'FAIL (no %s)' % path))
            failed += 2
            continue
        run = read_run(path)
        resolve = Resolver(run, files, objects, args.cross)
        r = analyse(run, resolve, real)
        share = pct(r['done'], r['leaf'])

        problems = []
        if r['leaf'] < args.min_samples:
            problems.append('< %d %s samples' % (args.min_samples,
                                                 'own-code' if real else 'leaf'))
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
        if resolve.missing:
            problems.append('mapped files that the initramfs list does not name: %s'
                            % ', '.join(sorted(resolve.missing)))
        pauth = (run.get('pauth') or ['?'])[-1]
        if 'pac' in flavour and pauth != 'yes':
            problems.append('the guest has no pointer authentication (pauth %s): '
                            'nothing was signed' % pauth)
        result = 'FAIL (%s)' % '; '.join(problems) if problems else 'ok'
        passed += not problems
        failed += bool(problems)
        print('    %-13s   addresses: %d in %d chains, %d resolve to no symbol, %d in the '
              'vDSO, %d in stripped code; pointer authentication: %s: %s'
              % ('', r['frames'], r['samples'], r['unresolved'], r['vdso'], r['anon'],
                 pauth, result))

        for chain, n in r['bad'].most_common(3):
            notes.append('%-13s %5d x incomplete: %s' % (name, n, chain))
        for after, n in r['after'].most_common(4):
            notes.append('%-13s %5d x main <- %s' % (name, n, after))
        for addr, n in r['unknown'].most_common(3):
            notes.append('%-13s %5d x unresolved address %s' % (name, n, addr))
        if real:
            notes.append('%-13s %d of %d samples (any leaf) reach main'
                         % (name, r['reach'], r['samples']))
        notes.append('%-13s stats: %s' % (name, (run.get('stats') or ['-'])[-1]))
    print('    (complete: chain-*: the sampled IP in %s, then exactly %s;'
          % (CHAIN[0], chain_text('chain')))
    print('     real-*: leaf: the sampled IP in %s, complete: it reaches %s there, every'
          % (' or '.join(REAL_OBJECTS), ENTRY))
    print('     frame before it a function; beyond main: of the complete chains, those')
    print('     that go on past %s into glibc\'s start-up; stripped code: functions of'
          % ENTRY)
    print('     a stripped object, known by their .eh_frame range)')
    for n in notes:
        print('      ' + n)
    print('counts: %d %d 0' % (passed, failed))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
