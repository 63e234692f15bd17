#!/usr/bin/env python3
"""The rule cache's misses, simulated in user space on real samples.

  cache-sim.py SFRAME_DUMP LEAF_TXT...

SFRAME_DUMP: `objdump --sframe` of the object (libsqlite3); LEAF_TXT: the
output of `perf script --show-mmap-events -F ip,dso` of runs of a program
that maps it, each run its own cache, as a process's section has its own.
Only the samples in that object are looked up, as the topmost frame of a
walk looks them up: the cache of kernel/unwind/sframe_cache.[ch] (sets of
256-byte granules, hash_long(), newest first; the recent rows, replaced in
turn), with its geometry and then others, and the rows and functions that
a run samples for the first time (misses no cache can avoid).
"""
import bisect
import re
import sys

M64 = (1 << 64) - 1
GOLDEN_RATIO_64 = 0x61C8864680B583EB


def hash_long(val, bits):
    return ((val * GOLDEN_RATIO_64) & M64) >> (64 - bits)


def read_fdes(path):
    """[(start, size, [FRE starts], mask)] of an objdump --sframe dump."""
    fdes, cur = [], None
    for line in open(path):
        m = re.search(r'func idx \[\d+\]: pc = (0x[0-9a-f]+), size = (\d+)', line)
        if m:
            cur = [int(m.group(1), 16), int(m.group(2)), [], False]
            fdes.append(cur)
            continue
        if cur is None:
            continue
        if 'STARTPC[m]' in line:
            cur[3] = True
        m = re.match(r'\s+([0-9a-f]{16})\s', line)
        if m:
            cur[2].append(int(m.group(1), 16))
    fdes.sort()
    return fdes


class Object:
    def __init__(self, fdes, name):
        self.fdes = fdes
        self.starts = [f[0] for f in fdes]
        self.name = name

    def row(self, off):
        """(row start, row length, FREs scanned, function) at @off, or None."""
        i = bisect.bisect_right(self.starts, off) - 1
        if i < 0:
            return None
        start, size, fres, mask = self.fdes[i]
        if off >= start + size or not fres:
            return None
        if mask:
            return (start, size, 1, i)
        j = bisect.bisect_right(fres, off) - 1
        if j < 0:
            return None
        end = fres[j + 1] if j + 1 < len(fres) else start + size
        return (fres[j], end - fres[j], j + 1, i)


def read_runs(paths, name):
    """Per run: [(runtime IP, file offset)] of the samples in @name."""
    runs = []
    for path in paths:
        base = pgoff = None
        ips = []
        for line in open(path):
            if 'MMAP' in line:
                if name in line and 'r-xp' in line:
                    m = re.search(r'\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+)', line)
                    base, pgoff = int(m.group(1), 16), int(m.group(3), 16)
                continue
            f = line.split()
            if base is not None and len(f) >= 2 and name in f[1]:
                ip = int(f[0], 16)
                ips.append((ip, ip - base + pgoff))
        runs.append(ips)
    return runs


def simulate(obj, runs, bits, ways=4, granule=8, recent_n=32):
    n = hits = recent_hits = lookups = scanned = 0
    for ips in runs:
        sets, recent, nxt = {}, [], 0
        for ip, off in ips:
            r = obj.row(off)
            if r is None:
                continue
            n += 1
            start = r[0] - off + ip
            s = sets.setdefault(hash_long(ip >> granule, bits), [])
            if any(e <= ip < e + ln for e, ln in s):
                hits += 1
                continue
            if not any(e <= ip < e + ln for e, ln in recent):
                lookups += 1
                scanned += r[2]
                if len(recent) < recent_n:
                    recent.append((start, r[1]))
                else:
                    recent[nxt] = (start, r[1])
                    nxt = (nxt + 1) % recent_n
            else:
                recent_hits += 1
            s.insert(0, (start, r[1]))
            del s[ways:]
    return n, hits, recent_hits, lookups, scanned


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    fdes = read_fdes(sys.argv[1])
    name = re.sub(r'\.sframe$', '', sys.argv[1].rsplit('/', 1)[-1])
    obj = Object(fdes, name)
    runs = read_runs(sys.argv[2:], name)
    # The kernel's geometry: as many entries as FDEs, 16 to 512, 4 ways.
    kbits = min(max((len(fdes) - 1).bit_length(), 4), 9) - 2
    print('%s: %d FDEs; %d runs, %d samples in it' %
          (name, len(fdes), len(runs), sum(len(r) for r in runs)))
    configs = [('the kernel\'s: %d sets of 4' % (1 << kbits), {'bits': kbits})]
    configs += [('%d sets of 4' % (1 << b), {'bits': b}) for b in (kbits + 1, kbits + 3)]
    configs += [('%d sets of 8' % (1 << kbits), {'bits': kbits, 'ways': 8}),
                ('64-byte granules', {'bits': kbits, 'granule': 6}),
                ('128 recent rows', {'bits': kbits, 'recent_n': 128})]
    for label, kw in configs:
        n, h, rh, lk, sc = simulate(obj, runs, **kw)
        print('  %-28s hits %.3f, recent rows %.3f, lookups %.4f a sample, %.1f FREs a lookup' %
              (label, h / n, rh / n, lk / n, sc / max(lk, 1)))
    rows = fns = n = 0
    for ips in runs:
        seen_r, seen_f = set(), set()
        for ip, off in ips:
            r = obj.row(off)
            if r is None:
                continue
            n += 1
            seen_r.add(r[0])
            seen_f.add(r[3])
        rows += len(seen_r)
        fns += len(seen_f)
    print('  first samples in a run: of a row %.4f, of a function %.4f a sample' %
          (rows / n, fns / n))


if __name__ == '__main__':
    main()
