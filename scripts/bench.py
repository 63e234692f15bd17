#!/usr/bin/env python3
"""Figures of the benchmark (scripts/bench.sh) from the runs of one boot.

  bench.py [--reps N] [--freq HZ] [--results FILE] DIR WORKLOAD... -- VARIANT...

VARIANT is NAME:FLAVOUR:CALLGRAPH as for scripts/bench-guest.sh, the first
one the baseline of the cost ratios. Reads, for every run WORKLOAD-NAME-REP
in DIR: .log (the workload's line: CPU and wall time of its fixed work),
.data (perf.data: its records are counted here, no perf needed) and .txt
(perf script, for the callchains). Prints a compact table per workload and
writes the raw numbers of every run and the table to FILE.

Not a test: it exits 1 only when a run is missing or a perf run recorded no
samples.
"""
import argparse
import os
import re
import statistics
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callchains  # noqa: E402  (scripts/callchains.py: perf script parser)

PERF_RECORD_LOST = 2
PERF_RECORD_SAMPLE = 9
PERF_RECORD_LOST_SAMPLES = 13
PERF_RECORD_CALLCHAIN_DEFERRED = 22

DESCRIBE = {
    'chain': 'main -> top -> mid1 -> mid2 -> leaf, frames of 16 B to 1 KiB',
    'deep': 'main -> down x DEPTH -> leaf, about 224 B a frame',
}
CALLGRAPH = {'-': 'no perf', 'fp,defer': '--call-graph fp,defer',
             'dwarf': '--call-graph dwarf'}


def perf_data(path):
    """Count the records of a perf.data file (the PERFILE2 format):
    {'file', 'samples', 'sample_bytes', 'deferred', 'deferred_bytes', 'lost'}."""
    with open(path, 'rb') as f:
        head = f.read(104)
        if len(head) < 104 or head[:8] != b'PERFILE2':
            raise ValueError('%s: not a perf.data file' % path)
        # magic, size, attr_size, attrs {offset, size}, data {offset, size}
        data_off, data_size = struct.unpack_from('<QQ', head, 40)
        f.seek(data_off)
        data = f.read(data_size)
    r = dict(file=os.path.getsize(path), samples=0, sample_bytes=0,
             deferred=0, deferred_bytes=0, lost=0)
    i = 0
    while i + 8 <= len(data):
        typ, _misc, size = struct.unpack_from('<IHH', data, i)
        if size < 8:
            raise ValueError('%s: bad record at %d' % (path, data_off + i))
        if typ == PERF_RECORD_SAMPLE:
            r['samples'] += 1
            r['sample_bytes'] += size
        elif typ == PERF_RECORD_CALLCHAIN_DEFERRED:
            r['deferred'] += 1
            r['deferred_bytes'] += size
        elif typ == PERF_RECORD_LOST:
            r['lost'] += struct.unpack_from('<Q', data, i + 16)[0]
        elif typ == PERF_RECORD_LOST_SAMPLES:
            r['lost'] += struct.unpack_from('<Q', data, i + 8)[0]
        i += size
    return r


def workload_line(path, workload):
    """CPU and wall seconds of the fixed work, and the depth (deep)."""
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith(workload + ': '):
                cpu = re.search(r'([0-9.]+) s CPU', line)
                wall = re.search(r'([0-9.]+) s wall', line)
                depth = re.search(r'at depth (\d+)', line)
                if cpu and wall:
                    return (float(cpu.group(1)), float(wall.group(1)),
                            int(depth.group(1)) if depth else None)
    raise ValueError('%s: no "%s: ... s CPU, ... s wall" line' % (path, workload))


def expected_chain(workload, depth):
    if workload == 'deep':
        return ['leaf'] + ['down'] * depth + ['main']
    return list(callchains.CHAIN)


def completeness(path, chain):
    """(leaf samples, complete ones, [frames of chain found in each]): a
    sample is complete when its first frames are exactly chain."""
    leaf = complete = 0
    found = []
    for frames in callchains.samples(path):
        if not frames or callchains.func(frames[0][1]) != chain[0]:
            continue
        leaf += 1
        names = [callchains.func(s) for _, s, _ in frames[:len(chain)]]
        n = 0
        while n < len(names) and names[n] == chain[n]:
            n += 1
        found.append(n)
        complete += n == len(chain)
    return leaf, complete, found


def emulation(d):
    """What the guest's CPU says about the times (guest.out's first line)."""
    try:
        with open(os.path.join(d, 'guest.out'), errors='replace') as f:
            head = f.readline()
    except OSError:
        head = ''
    if 'TCG' in head:
        return ('The guest ran under QEMU TCG, emulated, no KVM: absolute times mean\n'
                'little, only the ratios count.')
    return 'The guest CPU: %s' % (head.split(':', 1)[-1].strip() or 'unknown')


def ratio(a, b):
    return a / b if b else float('nan')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--freq', default='?')
    ap.add_argument('--results')
    ap.add_argument('dir')
    ap.add_argument('workloads', nargs='+', metavar='WORKLOAD')
    argv = sys.argv[1:]
    if '--' not in argv:
        ap.error('no -- before the variants')
    sep = argv.index('--')
    args = ap.parse_args(argv[:sep])
    workloads = args.workloads
    variants = [v.split(':') for v in argv[sep + 1:]]
    if not variants or any(len(v) != 3 for v in variants):
        ap.error('variants: NAME:FLAVOUR:CALLGRAPH...')
    base = variants[0][0]

    errors, raw, tables = [], [], []
    raw.append('# one line per run; times: the workload\'s fixed work; bytes: perf.data')
    raw.append('# %-20s %-6s %-6s %-8s %3s %8s %8s %7s %5s %9s %9s %9s %6s %6s' % (
        'run', 'build', 'perf', 'callgr.', 'rep', 'cpu_s', 'wall_s', 'samples',
        'lost', 'file_B', 'sample_B', 'defer_B', 'leaf', 'compl'))
    for w in workloads:
        rows, depth = {}, None
        for name, flavour, cg in variants:
            runs = []
            for rep in range(1, args.reps + 1):
                run = '%s-%s-%d' % (w, name, rep)
                p = os.path.join(args.dir, run)
                try:
                    cpu, wall, depth = workload_line(p + '.log', w)
                except (OSError, ValueError) as e:
                    errors.append(str(e))
                    continue
                r = dict(run=run, cpu=cpu, wall=wall, leaf=0, complete=0, found=[],
                         file=0, samples=0, sample_bytes=0, deferred_bytes=0, lost=0)
                if cg != '-':
                    try:
                        r.update(perf_data(p + '.data'))
                        r['leaf'], r['complete'], r['found'] = completeness(
                            p + '.txt', expected_chain(w, depth))
                    except (OSError, ValueError) as e:
                        errors.append(str(e))
                        continue
                    if not r['samples']:
                        errors.append('%s: perf recorded no samples' % run)
                raw.append('  %-20s %-6s %-6s %-8s %3d %8.4f %8.4f %7d %5d %9d %9d %9d %6d %6d' % (
                    run, flavour, 'no' if cg == '-' else 'yes', cg, rep, cpu, wall,
                    r['samples'], r['lost'], r['file'], r['sample_bytes'],
                    r['deferred_bytes'], r['leaf'], r['complete']))
                runs.append(r)
            rows[name] = runs
        # The summary of this workload.
        t = []
        desc = DESCRIBE.get(w, w).replace('DEPTH', str(depth))
        t.append('%s (%s)' % (w, desc))
        t.append('  %-7s %-7s %-22s %7s %8s %8s %7s %7s %7s' % (
            'variant', 'build', 'perf record', 'samples', 'B/sample', 'complete',
            'frames', 'CPU', 'wall'))
        bcpu = statistics.median([r['cpu'] for r in rows[base]]) if rows[base] else 0
        bwall = statistics.median([r['wall'] for r in rows[base]]) if rows[base] else 0
        bps, per_sample = {}, []
        chain = len(expected_chain(w, depth or 0))
        for name, flavour, cg in variants:
            runs = rows[name]
            if not runs:
                continue
            cpu = statistics.median([r['cpu'] for r in runs])
            wall = statistics.median([r['wall'] for r in runs])
            if cg == '-':
                t.append('  %-7s %-7s %-22s %7s %8s %8s %7s %6.3fx %6.3fx' % (
                    name, flavour, CALLGRAPH.get(cg, cg), '-', '-', '-', '-',
                    ratio(cpu, bcpu), ratio(wall, bwall)))
                continue
            samples = sum(r['samples'] for r in runs)
            leaf = sum(r['leaf'] for r in runs)
            complete = sum(r['complete'] for r in runs)
            per_sample.append('%s %.0f' % (name, 1e6 * ratio(
                cpu - bcpu, statistics.median([r['samples'] for r in runs]))))
            found = [n for r in runs for n in r['found']]
            frames = '%d/%d' % (statistics.median_low(found), chain) if found else '-'
            bps[name] = ratio(sum(r['file'] for r in runs), samples)
            t.append('  %-7s %-7s %-22s %7d %8.0f %7.1f%% %7s %6.3fx %6.3fx' % (
                name, flavour, CALLGRAPH.get(cg, cg), samples, bps[name],
                100.0 * ratio(complete, leaf), frames, ratio(cpu, bcpu), ratio(wall, bwall)))
        if len(rows[base]) > 1:
            cpus = [r['cpu'] for r in rows[base]]
            t.append('  noise: the %d "%s" runs took %.3f to %.3f s CPU, a spread of %.0f%% of'
                     ' their median' % (len(cpus), base, min(cpus), max(cpus),
                                        100.0 * ratio(max(cpus) - min(cpus), bcpu)))
        if per_sample:
            t.append('  extra CPU per sample over "%s" (medians), us: %s' % (
                base, ', '.join(per_sample)))
        if 'dwarf' in bps and 'sframe' in bps:
            t.append('  perf.data per sample, dwarf / sframe: %.1fx; fp / sframe: %.2fx' % (
                ratio(bps['dwarf'], bps['sframe']), ratio(bps.get('fp', 0), bps['sframe'])))
        tables.append('\n'.join(t))

    legend = '\n'.join([
        'B/sample: perf.data bytes / samples. complete: share of the samples in leaf',
        'whose callchain reaches main through every frame; frames: median number of',
        'those frames found, leaf to main. CPU, wall: median time of the fixed work',
        '(%d runs each, interleaved) relative to "%s" (no perf). Sampling at %s Hz.' % (
            args.reps, base, args.freq),
        emulation(args.dir)])
    summary = '\n\n'.join(tables) + '\n\n' + legend
    print('\n'.join('    ' + line if line else '' for line in summary.split('\n')))
    if args.results:
        with open(args.results, 'w') as f:
            f.write('# make bench (scripts/bench.sh): perf record -F %s -e cpu-clock:u\n' % args.freq)
            f.write('\n'.join(raw) + '\n\n' + summary + '\n')
    for e in errors:
        print('!!! ' + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
