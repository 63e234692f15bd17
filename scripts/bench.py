#!/usr/bin/env python3
"""The runs of make bench (scripts/bench.sh) and its figures.

  bench.py runs --reps N [--rounds N] [--execs N] [--sections N] [--profile]
               REAL-ARGS
  bench.py options --reps N [--profile]
  bench.py report [--results FILE] [--scaling FILE] [--arm64 DIR] DIR...
  bench.py arm64-runs --reps N [--rounds N] REAL-ARGS
  bench.py arm64-report [--results FILE] DIR

"runs" prints the runs of one boot, one a line, as scripts/e2e-guest.sh
takes them (LABEL:CALLGRAPH:COMMAND), and "options" the e2e-guest.sh
options they need, one argument a line. Every boot runs the same runs:

  deepD-BUILD-REP     build/workloads/deep-BUILD -d D under perf record
                      --call-graph fp,defer, D = 100 and 20, BUILD = sframe
                      and fp: every deferred walk timed (--walks)
  real-VARIANT-REP    the real program (sqlite3 running workloads/real.sql,
                      REAL-ARGS; both builds copied to the guest's tmpfs
                      first) timed by bench/runtime: without perf (none),
                      and under perf record at 999 and 9999 Hz with
                      --call-graph fp,defer (its SFrame build, its
                      frame-pointer build, walks timed) and --call-graph
                      dwarf (SFrame build, perf.data not kept, its size is)
  exec-COPY-REP       bench/execs: N execs of bench/nothing (static, SFrame)
                      as built, without .sframe, without PT_GNU_SFRAME,
                      copied to the guest's tmpfs first (no 9p reads)
  regs-REP            bench/sframe-regs: kernel memory and time per section
                      registered with PR_ADD_SFRAME
  prof-WHAT           with --profile (bench.sh: icount only), once each: deep
                      (D = 100) and the real program, both builds, with the
                      function_graph tracer on unwind_user() and the
                      functions of a walk below it (--walk-functions)

REP counts 1 to N; in each repetition the variants of a group run
interleaved, in an order that rotates by one from one repetition to the
next. "report" reads the runs of each DIR (one boot each, named for the
guest clock: icount, realtime) and prints the tables; the last line is

  per-frame SFrame/FP: deep X.XXx, real Y.YYx; exec Z.ZZ%; lookup growth W.WWx

the medians of the first DIR (icount, the repeatable clock): per frame,
SFrame/FP; what SFrame costs an exec; and, with --scaling (make
bench-scaling's table.txt), the instructions of a lookup in 10^6 FDEs over
those in 10^3 ("-" without it). The profile runs also give the cost of an
on-demand probe (sframe_probe()), with and without the page fault on the
section's header inside it (fault_in_readable()); for each object whose
probe registered a section, the whole sframe_find() of its first sample
(the probe, then the first lookup: the rule cache and FDE table it builds,
the page faults on what it reads); and the memory of the sections' caches
(trace event sframe:sframe_cache). With --arm64,
the arm64 guest's runs of scripts/bench-arm64.sh in DIR (DIR/bench/LABEL)
add their table, and the line just above that one

  arm64 per-frame SFrame/FP: deep X.XXx, real Y.YYx

"arm64-runs" prints the runs of the arm64 guest's boot (scripts/arm64-
guest.sh --bench), one "LABEL PROGRAM ARG..." a line (guest paths), and
"arm64-report" prints the arm64 table alone, that line last:

  deepD-BUILD-REP     /bench/deep-FLAVOUR -d D -n ROUNDS, D = 100 and 20
  real-BUILD-REP      /bench/real-FLAVOUR/sqlite3 REAL-ARGS
                      BUILD sframe (FLAVOUR pac: SFrame, no frame pointers)
                      and fp (fppac: frame pointers), both pac-ret; each
                      sampled by arm64-chains --bench (task clock, 999 Hz,
                      deferred callchains), every walk timed
  warm-real-BUILD     each real build once first, not counted

Not a test: exits 1 only when a run is missing or unreadable.
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perfdata  # noqa: E402  (scripts/perfdata.py: perf.data records)
import workloads  # noqa: E402  (scripts/workloads.py: the chains)

DEPTHS = (100, 20)
BUILDS = ('sframe', 'fp')
# name: (build, callgraph, Hz); "-": no perf.
REAL = {
    'none-sframe': ('sframe', '-', None),
    'none-fp': ('fp', '-', None),
    'sframe-1k': ('sframe', 'fp,defer', 999),
    'fp-1k': ('fp', 'fp,defer', 999),
    'dwarf-1k': ('sframe', 'dwarf', 999),
    'sframe-10k': ('sframe', 'fp,defer', 9999),
    'fp-10k': ('fp', 'fp,defer', 9999),
    'dwarf-10k': ('sframe', 'dwarf', 9999),
}
EXEC = {
    'sframe': 'as built (.sframe, PT_GNU_SFRAME)',
    'nosect': 'objcopy --remove-section .sframe',
    'nophdr': 'and PT_GNU_SFRAME made PT_NULL',
}
# What exec and exit do for SFrame: register the section, free it.
EXEC_FUNCS = ('elf_add_sframe', 'sframe_free_mm')
TOOLS = 'build/workloads/bench'
# In the guest's tmpfs: exec reads nothing through 9p.
EXEC_DIR = '/tmp/bench-exec'
# The real program's runs run a copy on the guest's tmpfs: its files stay
# in the page cache from one process to the next, as on a machine's own
# disk, which the 9p share of the workbench does not keep them in (there
# the first read of a page of the section goes to the host). The timed
# runs do too, not only the profile runs: the profile's tracer cost per
# call is measured against the timed walks, so both need the same
# conditions. (The frame-pointer walks of the real program end in junk
# from the stack, whose cost depends on the program's path: README.)
REAL_DIR = '/tmp/bench-real'
CLOCKS = {
    'icount': 'icount (QEMU -icount shift=0: guest time counts instructions, '
              '1 ns = 1 instruction)',
    'realtime': 'real time (QEMU TCG, host time, with other work on the host)',
}


def rotate(names, rep):
    k = (rep - 1) % len(names)
    return names[k:] + names[:k]


# The functions of a walk that the profile runs trace below unwind_user(),
# each called once per frame or less (the others are inlined or not
# traceable); each traced call costs the tracer about 1600 instructions,
# which the report takes off again. fault_in_readable(): the page fault a
# probe may take on its section's header, which the report splits off.
# Those the kernel does not have (another version, or inlined) are left out
# by e2e-guest.sh.
# The registry's lookup: sframe_find() is an inline wrapper that answers
# for text the walk found without SFrame and calls __sframe_find() for the
# rest (patch 72); before, sframe_find() was the function. Both are traced,
# the one a kernel has counts.
FINDS = ('__sframe_find', 'sframe_find')
PROFILE_FUNCS = FINDS + ('sframe_get', 'sframe_probe', 'sframe_cache_find',
                 'sframe_lookup', 'sframe_lookup_range', 'sframe_decode_fda',
                 'sframe_scan_fres', 'sframe_put', 'unwind_user_next_common',
                 'unwind_user_sigreturn_frame', 'unwind_user_call_before',
                 'unwind_user_uretprobe_frame', 'fault_in_readable')
PROFILES = ('deep100-sframe', 'deep100-fp', 'real-sframe', 'real-fp')


def profile_runs(args):
    out = []
    for p in PROFILES:
        w, b = p.split('-')
        if w == 'real':
            cmd = '%s/runtime %s/%s/sqlite3 %s' % (TOOLS, REAL_DIR, b, args.real_args)
        else:
            cmd = 'build/workloads/deep-%s -d %s -n %d' % (b, w[4:], max(args.rounds // 6, 10))
        out.append('prof-%s:fp,defer:%s' % (p, cmd))
    return out


def runs(args):
    """The runs of one boot, in order."""
    out = ['exec-setup:-:cp -a %s %s' % (TOOLS, EXEC_DIR),
           'real-setup:-:mkdir -p %s' % REAL_DIR,
           'real-copy:-:cp -a build/real/sframe build/real/fp %s' % REAL_DIR]
    # The real program once of each build, not counted: its first-run
    # costs paid.
    for b in ('sframe', 'fp'):
        out.append('real-warm-%s:-:%s/%s/sqlite3 %s' % (b, REAL_DIR, b, args.real_args))
    for rep in range(1, args.reps + 1):
        deep = ['%d-%s' % (d, b) for d in DEPTHS for b in BUILDS]
        for v in rotate(deep, rep):
            d, b = v.split('-')
            out.append('deep%s-%s-%d:fp,defer:build/workloads/deep-%s -d %s -n %d' % (
                d, b, rep, b, d, args.rounds))
        for v in rotate(list(REAL), rep):
            build, cg, _hz = REAL[v]
            out.append('real-%s-%d:%s:%s/runtime %s/%s/sqlite3 %s' % (
                v, rep, cg, TOOLS, REAL_DIR, build, args.real_args))
        for v in rotate(list(EXEC), rep):
            out.append('exec-%s-%d:-:%s/execs %d %s/nothing-%s' % (
                v, rep, EXEC_DIR, args.execs, EXEC_DIR, v))
        out.append('regs-%d:-:%s/sframe-regs %d 1' % (rep, TOOLS, args.sections))
    if args.profile:
        out += profile_runs(args)
    return out


def options(args):
    """The e2e-guest.sh options of those runs, one argument a line."""
    out = ['--walks', '--no-throttle', '--freq', '999']
    for rep in range(1, args.reps + 1):
        for d in DEPTHS:
            for b in BUILDS:
                out += ['--record-only', 'deep%d-%s-%d' % (d, b, rep)]
        for v, (_b, cg, hz) in REAL.items():
            if cg == '-':
                continue
            label = 'real-%s-%d' % (v, rep)
            out += ['--freq-of', '%s=%d' % (label, hz)]
            out += ['--size-only' if cg == 'dwarf' else '--record-only', label]
    for rep in range(1, args.reps + 1):
        for v in EXEC:
            out += ['--time-functions', 'exec-%s-%d=%s' % (v, rep, ','.join(EXEC_FUNCS))]
    if args.profile:
        for p in PROFILES:
            out += ['--record-only', 'prof-' + p,
                    '--walk-functions', 'prof-%s=%s' % (p, ','.join(PROFILE_FUNCS))]
    return out


# ---------------------------------------------------------------- report

WALK = re.compile(r'([0-9.]+) us\s*\|\s*unwind_user\(\);')
RUNTIME = re.compile(r'^runtime: ([0-9.]+) s user, ([0-9.]+) s sys, ([0-9.]+) s wall')
PERF = re.compile(r'Captured and wrote .* \((\d+) samples\)')
SIZE = re.compile(r'perf\.data: (\d+) bytes')
LOST = re.compile(r'lost (\d+) chunks')
EXECS = re.compile(r'^execs: (\d+) of .*?, ([0-9.]+) us wall, ([0-9.]+) us CPU')
REGS = re.compile(r'^sframe-regs: (\d+) sections, slab ([-+0-9.]+) B/section .*'
                  r'memcg slab ([-+0-9.]+|-) B/section, add ([0-9.]+) us, '
                  r'remove ([0-9.]+) us')


class Missing(Exception):
    pass


GRAPH = re.compile(r'^\s*\d+\)\s+(?:[-+!#*@$]\s+)?(?:([0-9.]+) us\s+)?\|(\s*)(\S.*?)\s*$')


class Call:
    """A call of a function_graph trace: its function, its duration (us;
    None while it is open), the traced calls inside it, and what a reader
    of the trace keeps on it (data) while it is open."""

    def __init__(self, name, indent=0):
        self.name, self.indent, self.us = name, indent, None
        self.nested, self.data = 0, {}


def graph_calls(path):
    """The calls of a function_graph trace in the order they end, each as
    (call, opened), opened the calls still open around it, outermost first
    (the same list all along: read it before the next). A trace event (a
    '/* ... */' line) comes as a Call whose name is its text and whose
    duration is None. Skipped: a closing brace at another indent than the
    innermost open call's (a call begun before the trace was), and a call
    without a duration."""
    opened = []
    for line in read(path).splitlines():
        m = GRAPH.match(line)
        if not m:
            continue
        dur, indent, what = m.groups()
        if what.startswith('/*'):
            yield Call(what), opened
            continue
        if what.endswith('() {'):
            opened.append(Call(what[:-4], len(indent)))
            continue
        if what.endswith('();'):
            call = Call(what[:-3], len(indent))
        elif what.startswith('}') and opened and len(indent) == opened[-1].indent:
            call = opened.pop()
        else:
            continue
        if not dur:
            continue
        call.us = float(dur)
        for o in opened:
            o.nested += 1
        yield call, opened


def graph_walks(path):
    """The walks of a function_graph trace of unwind_user() and its traced
    callees: per walk a dict {function: [calls, inclusive us, traced calls
    inside]}, 'unwind_user' included."""
    walks, cur = [], {}
    for call, opened in graph_calls(path):
        if call.us is None or (call.name != 'unwind_user' and
                               not any(o.name == 'unwind_user' for o in opened)):
            continue
        f = cur.setdefault(call.name, [0, 0.0, 0])
        f[0] += 1
        f[1] += call.us
        f[2] += call.nested
        if call.name == 'unwind_user':
            walks.append(cur)
            cur = {}
    return walks


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError as e:
        raise Missing('%s: %s' % (path, e.strerror))


def walks(d, label):
    """Durations (us) of the traced walks and the perf.data records of a
    fp,defer run."""
    times = [float(m.group(1)) for m in WALK.finditer(read(os.path.join(d, label + '.walks')))]
    try:
        pd = perfdata.perf_data(os.path.join(d, label + '.data'))
    except (OSError, ValueError) as e:
        raise Missing(str(e))
    if not times or not pd['deferred']:
        raise Missing('%s/%s: no deferred walks' % (d, label))
    return times, pd


def walk_figures(d, label):
    times, pd = walks(d, label)
    return dict(walks=len(times), deferred=pd['deferred'], frames=pd['frames'],
                us=sum(times), per_walk=sum(times) / len(times),
                frames_per_walk=pd['frames'] / pd['deferred'],
                # The walks' time over their frames: pd counts the frames of
                # the same walks (one record per walk).
                ns_frame=1e3 * sum(times) / pd['frames'] * pd['deferred'] / len(times))


def run_log(d, label):
    """CPU, wall (s), samples, bytes of perf.data, lost chunks of a
    runtime-timed run."""
    log = read(os.path.join(d, label + '.log'))
    r = dict(cpu=None, wall=None, samples=None, size=None, lost=0)
    for line in log.splitlines():
        m = RUNTIME.match(line.strip())
        if m:
            r['cpu'] = float(m.group(1)) + float(m.group(2))
            r['wall'] = float(m.group(3))
        m = PERF.search(line)
        if m:
            r['samples'] = int(m.group(1))
        m = SIZE.search(line)
        if m:
            r['size'] = int(m.group(1))
        m = LOST.search(line)
        if m:
            r['lost'] += int(m.group(1))
    if r['cpu'] is None:
        raise Missing('%s/%s.log: no "runtime:" line' % (d, label))
    if r['size'] is None and os.path.exists(os.path.join(d, label + '.data')):
        r['size'] = os.path.getsize(os.path.join(d, label + '.data'))
    return r


def line_of(d, label, regex):
    for line in read(os.path.join(d, label + '.log')).splitlines():
        m = regex.match(line.strip())
        if m:
            return m
    raise Missing('%s/%s.log: no result line' % (d, label))


def exec_run(d, label):
    """The "execs:" line of an exec run, and the time per exec (us) of each
    of EXEC_FUNCS."""
    m = line_of(d, label, EXECS)
    traced = read(os.path.join(d, label + '.calls'))
    return m, {f: sum(float(x) for x in re.findall(
        r'([0-9.]+) us\s*\|\s*%s\(\);' % f, traced)) / int(m.group(1)) for f in EXEC_FUNCS}


def med(xs):
    return statistics.median(xs) if xs else float('nan')


def spread(xs, fmt):
    """'median (min-max)' of the repetitions."""
    if not xs:
        return '-'
    if len(xs) == 1:
        return fmt % xs[0]
    return '%s (%s-%s)' % (fmt % med(xs), fmt % min(xs), fmt % max(xs))


def ratios(a, b):
    """Per-repetition ratios a[i] / b[i]."""
    return [x / y for x, y in zip(a, b) if y]


def reps_of(d):
    n = 0
    while os.path.exists(os.path.join(d, 'regs-%d.log' % (n + 1))):
        n += 1
    return n


def walk_raw(f):
    return 'walks %6d deferred %6d frames %8d walk_us %12.3f' % (
        f['walks'], f['deferred'], f['frames'], f['us'])


class Report:
    def __init__(self):
        self.lines, self.raw, self.errors = [], [], []
        self.headline = {}

    def out(self, s=''):
        self.lines.append(s)

    def reps(self, clock, d, label, read_run, raw, n=None):
        """What read_run(d, LABEL-REP) gives for each repetition REP of a
        run (N of them, by default as many as D has regs-REP.log), with a
        line of raw(it) each in the raw results; a run that is missing is
        an error."""
        rs = []
        for rep in range(1, (reps_of(d) if n is None else n) + 1):
            try:
                r = read_run(d, '%s-%d' % (label, rep))
            except Missing as e:
                self.errors.append(str(e))
                continue
            rs.append(r)
            self.raw.append('%-9s %-22s %s' % (clock, '%s-%d' % (label, rep), raw(r)))
        return rs

    def deep(self, dirs):
        self.out('Per frame, the deferred walk itself: unwind_user() timed by the function_graph')
        self.out('tracer (only that function traced, depth 1, time scheduled out excluded), its')
        self.out('frames from the PERF_RECORD_CALLCHAIN_DEFERRED records; ns/frame = walk time /')
        self.out('frames. Medians of the repetitions, (min-max).')
        self.out()
        self.out('deep: ' + workloads.chain_text('deep').replace('DEPTH', 'D') + ', perf record -F 999 -e cpu-clock:u --call-graph fp,defer')
        self.out('  %-8s %-6s %5s %6s %11s %26s %26s' % (
            'clock', 'build', 'D', 'walks', 'frames/walk', 'us/walk', 'ns/frame'))
        for clock, d in dirs:
            fig = {}
            for depth in DEPTHS:
                for b in BUILDS:
                    rs = self.reps(clock, d, 'deep%d-%s' % (depth, b), walk_figures, walk_raw)
                    fig[depth, b] = rs
                    if rs:
                        self.out('  %-8s %-6s %5d %6d %11.1f %26s %26s' % (
                            clock, b, depth, sum(r['walks'] for r in rs),
                            med([r['frames_per_walk'] for r in rs]),
                            spread([r['per_walk'] for r in rs], '%.2f'),
                            spread([r['ns_frame'] for r in rs], '%.0f')))
            hi, lo = DEPTHS
            # Per frame beyond the shallow walk: the slope between the two
            # depths, per repetition; what is left of a walk is its fixed cost.
            slope, fixed = {}, {}
            for b in BUILDS:
                s, c = [], []
                for a, z in zip(fig[hi, b], fig[lo, b]):
                    df = a['frames_per_walk'] - z['frames_per_walk']
                    if df > 0:
                        k = (a['per_walk'] - z['per_walk']) / df
                        s.append(1e3 * k)
                        c.append(z['per_walk'] - k * z['frames_per_walk'])
                slope[b], fixed[b] = s, c
            r_mean = ratios([r['ns_frame'] for r in fig[hi, 'sframe']],
                            [r['ns_frame'] for r in fig[hi, 'fp']])
            r_slope = ratios(slope['sframe'], slope['fp'])
            self.out('  %-8s per frame from D=%d to D=%d: sframe %s ns, fp %s ns; fixed per walk:'
                     ' sframe %s us, fp %s us' % (
                         clock, lo, hi, spread(slope['sframe'], '%.0f'),
                         spread(slope['fp'], '%.0f'), spread(fixed['sframe'], '%.1f'),
                         spread(fixed['fp'], '%.1f')))
            self.out('  %-8s SFrame/FP per frame: %s at D=%d, %s from D=%d to D=%d' % (
                clock, spread(r_mean, '%.2fx'), hi, spread(r_slope, '%.2fx'), lo, hi))
            self.headline.setdefault(clock, {})['deep'] = med(r_mean)
            self.untraced(clock, d, fig[hi, 'sframe'], fig[hi, 'fp'], 'at D=%d' % hi)
        self.out()

    def untraced(self, clock, d, sf, fp, where):
        """The SFrame/FP ratio without the tracer's share of each walk, where
        a profile run measured it."""
        h = tracer_share(d)
        if h is None or not sf or not fp:
            return
        r = ratios([(x['per_walk'] - h) / x['frames_per_walk'] for x in sf],
                   [(x['per_walk'] - h) / x['frames_per_walk'] for x in fp])
        self.out('  %-8s without the tracer\'s %.2f us inside each walk (profile, below): %s %s' % (
            clock, h, spread(r, '%.2fx'), where))

    def real(self, dirs):
        self.out('real program: sqlite3 (real.pin) running workloads/real.sql, perf record -e cpu-clock:u'
                 ' --call-graph fp,defer')
        self.out('  %-8s %-6s %6s %6s %11s %26s %26s' % (
            'clock', 'build', 'Hz', 'walks', 'frames/walk', 'us/walk', 'ns/frame'))
        for clock, d in dirs:
            fig = {}
            for v, (b, cg, hz) in REAL.items():
                if cg != 'fp,defer':
                    continue
                rs = self.reps(clock, d, 'real-' + v, walk_figures, walk_raw)
                fig[v] = rs
                if rs:
                    self.out('  %-8s %-6s %6d %6d %11.1f %26s %26s' % (
                        clock, b, hz, sum(r['walks'] for r in rs),
                        med([r['frames_per_walk'] for r in rs]),
                        spread([r['per_walk'] for r in rs], '%.2f'),
                        spread([r['ns_frame'] for r in rs], '%.0f')))
            parts = []
            for rate in ('1k', '10k'):
                r = ratios([x['ns_frame'] for x in fig.get('sframe-' + rate, [])],
                           [x['ns_frame'] for x in fig.get('fp-' + rate, [])])
                parts.append('%s at %s Hz' % (spread(r, '%.2fx'), REAL['sframe-' + rate][2]))
                if rate == '1k':
                    self.headline.setdefault(clock, {})['real'] = med(r)
            self.out('  %-8s SFrame/FP per frame: %s' % (clock, ', '.join(parts)))
            self.untraced(clock, d, fig.get('sframe-1k', []), fig.get('fp-1k', []),
                          'at %d Hz' % REAL['sframe-1k'][2])
        self.out()

    def whole(self, dirs):
        self.out('whole program: the same runs (and dwarf, and none: no perf), the CPU time of')
        self.out('sqlite3 (user + sys, bench/runtime), its wall time, perf.data per sample;')
        self.out('each ratio per repetition: vs none = its own build without perf, vs fp = the')
        self.out('frame-pointer build at the same rate, vs dwarf = --call-graph dwarf, same rate.')
        self.out('No wall time under icount: there the guest clock jumps over the time the guest')
        self.out('idles, waiting for 9p reads for one, so only its CPU times are repeatable.')
        self.out('  %-8s %-11s %8s %8s %4s %22s %7s %7s %7s %22s %7s' % (
            'clock', 'run', 'samples', 'B/sample', 'lost', 'CPU s', 'vs none', 'vs fp',
            'vs dwarf', 'wall s', 'vs none'))
        for clock, d in dirs:
            rs = {v: self.reps(clock, d, 'real-' + v, run_log, lambda r: (
                'cpu_s %9.6f wall_s %9.6f samples %6s bytes %10s lost %d' % (
                    r['cpu'], r['wall'], r['samples'], r['size'], r['lost'])))
                  for v in REAL}
            bps = {}
            for v, (b, cg, hz) in REAL.items():
                if not rs[v]:
                    continue
                cpu = [r['cpu'] for r in rs[v]]
                wall = [r['wall'] for r in rs[v]]
                none = rs.get('none-' + b, [])
                vs_none = ratios(cpu, [r['cpu'] for r in none])
                vs_none_wall = ratios(wall, [r['wall'] for r in none])
                rate = v.split('-')[-1]
                vs_fp = vs_dwarf = []
                if cg != '-' and not v.startswith('fp'):
                    vs_fp = ratios(cpu, [r['cpu'] for r in rs.get('fp-' + rate, [])])
                if cg != '-' and not v.startswith('dwarf'):
                    vs_dwarf = ratios(cpu, [r['cpu'] for r in rs.get('dwarf-' + rate, [])])
                samples = [r['samples'] for r in rs[v] if r['samples']]
                sizes = [r['size'] for r in rs[v] if r['size'] and r['samples']]
                if sizes:
                    bps[v] = sum(sizes) / sum(r['samples'] for r in rs[v] if r['size'] and r['samples'])
                name = v if cg != '-' else 'none ' + b
                self.out('  %-8s %-11s %8s %8s %4s %22s %7s %7s %7s %22s %7s' % (
                    clock, name, '%d' % med(samples) if samples else '-',
                    '%.0f' % bps[v] if v in bps else '-',
                    sum(r['lost'] for r in rs[v]) if cg != '-' else '-',
                    spread(cpu, '%.3f'),
                    '%.3fx' % med(vs_none) if vs_none else '-',
                    '%.3fx' % med(vs_fp) if vs_fp else '-',
                    '%.3fx' % med(vs_dwarf) if vs_dwarf else '-',
                    spread(wall, '%.3f') if clock != 'icount' else '-',
                    '%.3fx' % med(vs_none_wall) if vs_none_wall and clock != 'icount' else '-'))
            for rate in ('1k', '10k'):
                s, f, w = (bps.get(x + '-' + rate) for x in ('sframe', 'fp', 'dwarf'))
                if s and f and w:
                    self.out('  %-8s perf.data per sample at %s Hz: sframe/fp %.3fx, dwarf/sframe %.1fx' % (
                        clock, REAL['sframe-' + rate][2], s / f, w / s))
        self.out()

    def execs(self, dirs):
        self.out('exec: bench/nothing (static, SFrame, exits at once) from tmpfs, CPU time per exec')
        self.out('(fork to exit, the child\'s user + sys), %s execs a run; and the time of the' % (
            self.exec_n(dirs) or '?'))
        self.out('calls that register the section at exec and free it with the mm (function_graph')
        self.out('on them alone: for "nophdr" they find nothing to do, which is the tracer\'s cost)')
        self.out('  %-8s %-7s %-34s %24s %9s %21s %21s' % (
            'clock', 'copy', '', 'us CPU/exec', 'vs nophdr', *('%s us' % f for f in EXEC_FUNCS)))
        for clock, d in dirs:
            cpu, calls = {}, {}
            for v in EXEC:
                rs = self.reps(clock, d, 'exec-' + v, exec_run, lambda r: (
                    'execs %s wall_us %s cpu_us %s %s' % (*r[0].groups(), ' '.join(
                        '%s_us %.3f' % (f, r[1][f]) for f in EXEC_FUNCS))))
                cpu[v] = [float(m.group(3)) for m, _us in rs]
                calls[v] = {f: [us[f] for _m, us in rs] for f in EXEC_FUNCS}
            for v, desc in EXEC.items():
                r = ratios(cpu[v], cpu['nophdr'])
                self.out('  %-8s %-7s %-34s %24s %9s %21s %21s' % (
                    clock, v, desc, spread(cpu[v], '%.1f'),
                    '%.4fx' % med(r) if r and v != 'nophdr' else '-',
                    *(spread(calls[v][f], '%.2f') for f in EXEC_FUNCS)))
            extra = [sum(calls['sframe'][f][i] - calls['nophdr'][f][i] for f in EXEC_FUNCS)
                     for i in range(min(len(cpu['sframe']), len(cpu['nophdr'])))]
            if extra:
                share = [100.0 * x / c for x, c in zip(extra, cpu['nophdr'])]
                self.out('  %-8s registering and freeing the section: %s us an exec, %s%% of an'
                         ' exec' % (clock, spread(extra, '%.2f'), spread(share, '%.2f')))
                self.headline.setdefault(clock, {})['exec'] = med(share)
        self.out()

    def exec_n(self, dirs):
        for _clock, d in dirs:
            try:
                return line_of(d, 'exec-sframe-1', EXECS).group(1)
            except Missing:
                pass
        return None

    def regs(self, dirs):
        self.out('registration: bench/sframe-regs, N sections of one FDE each registered with')
        self.out('PR_ADD_SFRAME and removed with PR_REMOVE_SFRAME; kernel memory per section from')
        self.out('/proc/meminfo Slab (whole slab pages) and from the task\'s own memcg (charged')
        self.out('objects), time per prctl')
        self.out('  %-8s %6s %18s %18s %20s %20s' % (
            'clock', 'N', 'slab B/section', 'memcg B/section', 'add us', 'remove us'))
        for clock, d in dirs:
            rows = self.reps(clock, d, 'regs', lambda d, label: line_of(d, label, REGS),
                             lambda m: m.group(0))
            if not rows:
                continue
            memcg = [float(m.group(3)) for m in rows if m.group(3) != '-']
            self.out('  %-8s %6s %18s %18s %20s %20s' % (
                clock, rows[0].group(1), spread([float(m.group(2)) for m in rows], '%.0f'),
                spread(memcg, '%.0f') if memcg else '-',
                spread([float(m.group(4)) for m in rows], '%.1f'),
                spread([float(m.group(5)) for m in rows], '%.1f')))
        self.out()


CACHE_EVENT = re.compile(r'sframe_cache: text_start=\S+ text_end=\S+ fdes=(\d+) '
                         r'cache_bytes=(\d+) table_bytes=(\d+)')


PROBE_EVENT = re.compile(r'/\* sframe_probe: .* ret=(-?\d+) \*/')


def innermost(opened, name):
    """The innermost of the open calls (graph_calls()) of function name,
    or None."""
    return next((o for o in reversed(opened) if o.name == name), None)


def probe_calls(path):
    """Every sframe_probe() call of a function_graph trace: (its duration,
    the durations of the fault_in_readable() calls inside it, the
    sframe_find() around it as (duration, traced calls inside) or None,
    and whether it registered a section: its sframe:sframe_probe event's
    ret=0), in us."""
    out = []
    try:
        for call, opened in graph_calls(path):
            if call.us is None:
                ev = PROBE_EVENT.match(call.name)
                probe = ev and innermost(opened, 'sframe_probe')
                if probe:
                    probe.data['registered'] = ev.group(1) == '0'
            elif call.name == 'fault_in_readable':
                probe = innermost(opened, 'sframe_probe')
                if probe:
                    probe.data.setdefault('faults', []).append(call.us)
            elif call.name == 'sframe_probe':
                x = [call.us, call.data.get('faults', []), None,
                     call.data.get('registered', False)]
                out.append(x)
                find = (innermost(opened, FINDS[0]) or
                        innermost(opened, FINDS[1]))
                if find:
                    find.data['probe'] = x
            elif call.name in FINDS and 'probe' in call.data:
                call.data['probe'][2] = (call.us, call.nested)
    except Missing:
        return []
    return [tuple(x) for x in out]


def cache_events(path):
    """(FDEs, cache bytes, table bytes) of the sections whose cache the run
    made, from the sframe:sframe_cache events in its trace, biggest first."""
    try:
        return sorted({tuple(int(x) for x in m.groups())
                       for m in (CACHE_EVENT.search(call.name)
                                 for call, _ in graph_calls(path) if call.us is None) if m},
                      reverse=True)
    except Missing:
        return []


def scaling_growth(path):
    """The lookup growth from 10^3 to 10^6 FDEs of make bench-scaling's
    table, or None."""
    try:
        m = re.search(r'^lookup 10\^3 -> 10\^6 FDEs: ([0-9.]+)x', read(path), re.M)
    except Missing:
        return None
    return float(m.group(1)) if m else None


def tracer_share(d):
    """How much of a traced call's duration is the tracer's own (us): the
    duration of sframe_put, one refcount decrement, in the deep SFrame
    profile run; None without one."""
    try:
        ws = graph_walks(os.path.join(d, 'prof-deep100-sframe.walks'))
    except Missing:
        return None
    n = sum(w.get('sframe_put', [0])[0] for w in ws)
    us = sum(w.get('sframe_put', [0, 0.0])[1] for w in ws)
    return us / n if n else None


def profile(rep, dirs):
    """Where the time of a frame goes: the profile runs (icount only)."""
    d = dict(dirs).get('icount')
    if not d or not os.path.exists(os.path.join(d, 'prof-deep100-sframe.walks')):
        return
    plain = {'deep100-sframe': 'deep100-sframe', 'deep100-fp': 'deep100-fp',
             'real-sframe': 'real-sframe-1k', 'real-fp': 'real-fp-1k'}
    per = {}
    for p in PROFILES:
        try:
            ws = graph_walks(os.path.join(d, 'prof-%s.walks' % p))
            pd = perfdata.perf_data(os.path.join(d, 'prof-%s.data' % p))
            base = [walk_figures(d, '%s-%d' % (plain[p], r))['per_walk']
                    for r in range(1, reps_of(d) + 1)]
        except (Missing, OSError, ValueError) as e:
            rep.errors.append(str(e))
            return
        if not ws or not pd['deferred'] or not base:
            rep.errors.append('%s/prof-%s: no walks' % (d, p))
            return
        tot = {}
        for w in ws:
            for name, (n, us, nested) in w.items():
                t = tot.setdefault(name, [0, 0.0, 0])
                t[0] += n
                t[1] += us
                t[2] += nested
        per[p] = dict(walks=len(ws), tot=tot, plain=med(base),
                      frames=pd['frames'] / pd['deferred'] * len(ws))
    # The tracer's cost per traced call: what the traced callees added to
    # the walk; and its share inside a call's own duration: sframe_put's
    # duration, whose body is one refcount decrement.
    cost = {}
    for p, f in per.items():
        n, us, nested = f['tot']['unwind_user']
        cost[p] = (us / n - f['plain']) / (nested / n)
    c = med(list(cost.values()))
    h = tracer_share(d) or 0.0

    def body(p, name):
        t = per[p]['tot'].get(name)
        if not t:
            return 0.0
        return (t[1] - c * t[2] - h * t[0]) * 1e3 / per[p]['frames']

    def find(p):
        return sum(body(p, name) for name in FINDS)

    def lookup(p):
        # sframe_lookup_range() where the kernel has it (the cache's misses)
        return body(p, 'sframe_lookup') + body(p, 'sframe_lookup_range')

    def below_find(p):
        # what sframe_find() calls for the rules: the cache, or the lookup
        return body(p, 'sframe_cache_find') or lookup(p)

    rows = [
        ('walk (timed alone)', lambda p: per[p]['plain'] * 1e3 * per[p]['walks'] / per[p]['frames']),
        ('__sframe_find: the registry', find),
        ('  sframe_get: registry lookup, reference', lambda p: body(p, 'sframe_get')),
        ('  sframe_probe: objects found on demand', lambda p: body(p, 'sframe_probe')),
        ('  sframe_cache_find: rule cache', lambda p: body(p, 'sframe_cache_find')),
        ('  sframe_lookup(_range): lookups that miss', lookup),
        ('    its own: FDE search', lambda p: lookup(p) -
         body(p, 'sframe_decode_fda') - body(p, 'sframe_scan_fres')),
        ('    sframe_decode_fda: attribute record', lambda p: body(p, 'sframe_decode_fda')),
        ('    sframe_scan_fres: FRE scan', lambda p: body(p, 'sframe_scan_fres')),
        ('  sframe_put', lambda p: body(p, 'sframe_put')),
        ('  its own: checks', lambda p: find(p) - body(p, 'sframe_get') -
         body(p, 'sframe_probe') - below_find(p) - body(p, 'sframe_put')),
        ('unwind_user_sigreturn_frame', lambda p: body(p, 'unwind_user_sigreturn_frame')),
        ('unwind_user_call_before', lambda p: body(p, 'unwind_user_call_before')),
        ('unwind_user_next_common: rules, reads', lambda p: body(p, 'unwind_user_next_common')),
        ('unwind_user_uretprobe_frame', lambda p: body(p, 'unwind_user_uretprobe_frame')),
    ]
    top = FINDS + ('unwind_user_sigreturn_frame', 'unwind_user_call_before',
                   'unwind_user_next_common', 'unwind_user_uretprobe_frame')
    rows.append(('rest: loop, FP step, inlined',
                 lambda p: rows[0][1](p) - sum(body(p, t) for t in top)))
    rep.out('where the time of a frame goes (icount, one run each): the same walks with the')
    rep.out('function_graph tracer on the functions below too (the others are inlined);')
    rep.out('each function\'s time without the tracer\'s: %.0f ns per traced call (from the' % (c * 1e3))
    rep.out('walks timed alone, %s), of which %.0f ns fall inside the call\'s own' % (
        ', '.join('%.0f' % (v * 1e3) for v in cost.values()), h * 1e3))
    rep.out('duration (sframe_put\'s, a refcount decrement). ns per frame:')
    rep.out('  %-40s %14s %14s %14s %14s' % ('', *PROFILES))
    for name, fn in rows:
        rep.out('  %-40s %14s %14s %14s %14s' % (name, *('%.0f' % fn(p) for p in PROFILES)))
    # The first sample in an object: sframe_probe() (its program headers
    # from the page cache, the registration, the header check), per call.
    # Each traced fault_in_readable() inside a probe adds the tracer's cost
    # c to it and h to its own duration: both taken off.
    calls = probe_calls(os.path.join(d, 'prof-real-sframe.walks'))
    probes = [x - h - sum(f) - len(f) * (c - h) for x, f, _, _ in calls]
    faults = [sum(f) - len(f) * h for _, f, _, _ in calls]
    if probes:
        rep.out('on-demand probe (sframe_probe(): an object\'s first sample, its program headers from')
        rep.out('the page cache, registration, header check), the real program\'s run, icount,')
        rep.out('the tracer\'s share off: %d probes, %.2f us a probe with the page faults it takes on' % (
            len(probes), statistics.mean([p + f for p, f in zip(probes, faults)])))
        rep.out('the section\'s header (fault_in_readable(); none where its page is mapped already),')
        rep.out('%.2f us without them (%s us)' % (
            statistics.mean(probes), ', '.join('%.1f + %.1f' % pf for pf in zip(probes, faults))))
    # The whole first sample in an object with SFrame: the sframe_find()
    # around the probe that registered its section, with the first lookup
    # (the rule cache and FDE table it builds, the faults on what it reads).
    # The trace events inside are not taken off.
    firsts = [x[2][0] - c * x[2][1] - h for x in calls if x[2] and x[3]]
    if firsts:
        rep.out('an SFrame object\'s first sframe_find() in all (its probe, then its first lookup: the')
        rep.out('rule cache and FDE table it builds, the page faults on what it reads): %s us' % (
            ', '.join('%.1f' % f for f in firsts)))
    # The memory each section's first lookup allocated (trace event
    # sframe:sframe_cache), charged to the memcg.
    for p in ('deep100-sframe', 'real-sframe'):
        ev = cache_events(os.path.join(d, 'prof-%s.walks' % p))
        if ev:
            rep.out('memory of a section from its first lookup, %s: %s' % (p, '; '.join(
                '%d FDEs: cache %d B + FDE table %d B' % e for e in ev)))
    for p in PROFILES:
        t = per[p]['tot']
        rep.raw.append('icount    prof-%-17s walks %d frames %.0f plain_us %.3f %s' % (
            p, per[p]['walks'], per[p]['frames'], per[p]['plain'],
            ' '.join('%s=%d/%.3f/%d' % (k, *v) for k, v in sorted(t.items()))))
    rep.out()


# ---------------------------------------------------------------- arm64

# The arm64 builds (workloads/Makefile's arm64-bench, real-arm64): BUILD of
# the report: FLAVOUR of the files.
ARM64_BUILDS = {'sframe': 'pac', 'fp': 'fppac'}
ARM64_TEXT = (
    'arm64: qemu-system-aarch64 -cpu max (TCG) with -icount shift=0,align=off,sleep=off',
    '(guest time counts instructions, 1 ns = 1 instruction), its own kernel (the function_graph',
    'tracer on top of config/arm64.config); the same walks timed the same way (unwind_user()',
    'alone, depth 1), sampled by scripts/arm64-chains.c --bench (the program\'s task clock at',
    '999 Hz, deferred user callchains; frames from their records). Builds: sframe = SFrame, no',
    'frame pointers; fp = frame pointers (leaf too), no SFrame; both -mbranch-protection=pac-ret.',
    'deepD: deep.c (static) at depth D; real: sqlite3 running workloads/real.sql. Medians of the',
    'repetitions, (min-max).')


def arm64_runs(args):
    """The arm64 guest's runs, in order, "LABEL PROGRAM ARG..." each."""
    real = args.real_args.replace('workloads/real.sql', '/bench/real.sql')
    out = ['warm-real-%s /bench/real-%s/sqlite3 %s' % (b, f, real)
           for b, f in ARM64_BUILDS.items()]
    for rep in range(1, args.reps + 1):
        names = ['deep%d-%s' % (d, b) for d in DEPTHS for b in ARM64_BUILDS]
        names += ['real-' + b for b in ARM64_BUILDS]
        for v in rotate(names, rep):
            w, b = v.split('-')
            f = ARM64_BUILDS[b]
            if w == 'real':
                cmd = '/bench/real-%s/sqlite3 %s' % (f, real)
            else:
                cmd = '/bench/deep-%s -d %s -n %d' % (f, w[4:], args.rounds)
            out.append('%s-%d %s' % (v, rep, cmd))
    return out


ARM64_STATS = re.compile(r'^stats samples (\d+) deferred (\d+) lost (\d+) mismatched (\d+) '
                         r'frames (\d+) exit (\d+)$')
ARM64_WALKS = re.compile(r'^walks (\d+) walk_us ([0-9.]+) unparsed (\d+) overrun (\d+)$')
ARM64_EXIT = re.compile(r'^sampler exit (\d+) seconds (\d+) guest_ms (\d+)$')


def arm64_figures(d, label):
    """The figures of one arm64 run (D/LABEL), as walk_figures'."""
    path = os.path.join(d, label)
    st = wk = ex = None
    for line in read(path).splitlines():
        st = ARM64_STATS.match(line) or st
        wk = ARM64_WALKS.match(line) or wk
        ex = ARM64_EXIT.match(line) or ex
    if not (st and wk and ex):
        raise Missing('%s: no "stats", "walks" or "sampler exit" line' % path)
    samples, deferred, lost, mismatched, frames, status = map(int, st.groups())
    walks, us = int(wk.group(1)), float(wk.group(2))
    unparsed, overrun = int(wk.group(3)), int(wk.group(4))
    if ex.group(1) != '0' or status:
        raise Missing('%s: the sampler or the program failed (exit %s, %d)' % (
            path, ex.group(1), status))
    if lost or overrun or unparsed:
        raise Missing('%s: %d records lost, %d trace events lost, %d trace lines unread' % (
            path, lost, overrun, unparsed))
    if not walks or not deferred:
        raise Missing('%s: no deferred walks' % path)
    return dict(walks=walks, deferred=deferred, frames=frames, us=us, samples=samples,
                mismatched=mismatched, guest_ms=int(ex.group(3)),
                per_walk=us / walks, frames_per_walk=frames / deferred,
                ns_frame=1e3 * us / frames * deferred / walks)


def arm64_section(rep, d):
    """The arm64 table into REP; the medians of SFrame/FP per frame
    (deep at D=100, real)."""
    for line in ARM64_TEXT:
        rep.out(line)
    rep.out('  %-8s %-6s %6s %8s %11s %26s %26s' % (
        'run', 'build', 'walks', 'frames', 'frames/walk', 'us/walk', 'ns/frame'))
    fig = {}
    d = os.path.join(d, 'bench')
    n = 0
    while os.path.exists(os.path.join(d, 'deep%d-sframe-%d' % (DEPTHS[0], n + 1))):
        n += 1
    for w in ['deep%d' % x for x in DEPTHS] + ['real']:
        for b in ARM64_BUILDS:
            rs = rep.reps('arm64', d, '%s-%s' % (w, b), arm64_figures,
                          lambda r: walk_raw(r) + ' samples %d mismatched %d guest_ms %d' % (
                              r['samples'], r['mismatched'], r['guest_ms']), n=n)
            fig[w, b] = rs
            if rs:
                rep.out('  %-8s %-6s %6d %8d %11.1f %26s %26s' % (
                    w, b, sum(r['walks'] for r in rs), sum(r['frames'] for r in rs),
                    med([r['frames_per_walk'] for r in rs]),
                    spread([r['per_walk'] for r in rs], '%.2f'),
                    spread([r['ns_frame'] for r in rs], '%.0f')))
    r_deep = ratios([r['ns_frame'] for r in fig['deep%d' % DEPTHS[0], 'sframe']],
                    [r['ns_frame'] for r in fig['deep%d' % DEPTHS[0], 'fp']])
    r_real = ratios([r['ns_frame'] for r in fig['real', 'sframe']],
                    [r['ns_frame'] for r in fig['real', 'fp']])
    hi, lo = DEPTHS
    slope, fixed = {}, {}
    for b in ARM64_BUILDS:
        sl, c = [], []
        for a, z in zip(fig['deep%d' % hi, b], fig['deep%d' % lo, b]):
            df = a['frames_per_walk'] - z['frames_per_walk']
            if df > 0:
                k = (a['per_walk'] - z['per_walk']) / df
                sl.append(1e3 * k)
                c.append(z['per_walk'] - k * z['frames_per_walk'])
        slope[b], fixed[b] = sl, c
    rep.out('  deep per frame from D=%d to D=%d: sframe %s ns, fp %s ns; fixed per walk:'
            ' sframe %s us, fp %s us' % (lo, hi, spread(slope['sframe'], '%.0f'),
                                         spread(slope['fp'], '%.0f'),
                                         spread(fixed['sframe'], '%.1f'),
                                         spread(fixed['fp'], '%.1f')))
    rep.out('  SFrame/FP per frame: deep %s at D=%d (%s from D=%d to D=%d), real %s' % (
        spread(r_deep, '%.2fx'), hi, spread(ratios(slope['sframe'], slope['fp']), '%.2fx'),
        lo, hi, spread(r_real, '%.2fx')))
    guest = [r['guest_ms'] for rs in fig.values() for r in rs]
    rep.out('  guest time of the runs: %.1f s (icount); walks traced: %d, frames: %d' % (
        sum(guest) / 1e3, sum(r['walks'] for rs in fig.values() for r in rs),
        sum(r['frames'] for rs in fig.values() for r in rs)))
    rep.out()
    return med(r_deep), med(r_real)


def arm64_line(deep, real):
    return 'arm64 per-frame SFrame/FP: deep %.2fx, real %.2fx' % (deep, real)


def write_results(rep, path, text):
    with open(path, 'w') as f:
        f.write('# make bench (scripts/bench.sh): one line per run, then the tables\n')
        f.write('\n'.join(rep.raw) + '\n\n' + text + '\n')


def finish(rep, args):
    """Print the report, write it to --results, report its errors; the exit code."""
    text = '\n'.join(rep.lines)
    print(text)
    if args.results:
        write_results(rep, args.results, text)
    for e in rep.errors:
        print('!!! ' + e, file=sys.stderr)
    return 1 if rep.errors else 0


def arm64_report(args):
    rep = Report()
    deep, real = arm64_section(rep, args.dir)
    rep.out(arm64_line(deep, real))
    return finish(rep, args)


def report(args):
    dirs = [(os.path.basename(os.path.normpath(d)), d) for d in args.dirs]
    rep = Report()
    rep.out('Guest clocks, one boot each:')
    for clock, _d in dirs:
        rep.out('  %-8s %s' % (clock, CLOCKS.get(clock, clock)))
    rep.out()
    rep.deep(dirs)
    rep.real(dirs)
    rep.whole(dirs)
    rep.execs(dirs)
    rep.regs(dirs)
    profile(rep, dirs)
    arm64 = None
    if args.arm64:
        arm64 = arm64_section(rep, args.arm64)
    first = dirs[0][0]
    h = rep.headline.get(first, {})
    others = ['%s: deep %.2fx, real %.2fx' % (c, rep.headline.get(c, {}).get('deep', float('nan')),
                                              rep.headline.get(c, {}).get('real', float('nan')))
              for c, _d in dirs[1:]]
    if others:
        rep.out('per-frame SFrame/FP with the other clock, %s' % '; '.join(others))
    if arm64:
        rep.out(arm64_line(*arm64))
    growth = scaling_growth(args.scaling) if args.scaling else None
    rep.out('per-frame SFrame/FP: deep %.2fx, real %.2fx; exec %.2f%%; lookup growth %s' % (
        h.get('deep', float('nan')), h.get('real', float('nan')), h.get('exec', float('nan')),
        '%.2fx' % growth if growth is not None else '-'))
    return finish(rep, args)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('runs')
    p.add_argument('--reps', type=int, default=3)
    p.add_argument('--rounds', type=int, default=300)
    p.add_argument('--execs', type=int, default=1000)
    p.add_argument('--sections', type=int, default=4000)
    p.add_argument('--profile', action='store_true')
    p.add_argument('real_args', metavar='REAL-ARGS')
    p = sub.add_parser('options')
    p.add_argument('--reps', type=int, default=3)
    p.add_argument('--profile', action='store_true')
    p = sub.add_parser('report')
    p.add_argument('--results')
    p.add_argument('--scaling', help="make bench-scaling's table (its lookup growth)")
    p.add_argument('--arm64', metavar='DIR')
    p.add_argument('dirs', nargs='+', metavar='DIR')
    p = sub.add_parser('arm64-runs')
    p.add_argument('--reps', type=int, default=3)
    p.add_argument('--rounds', type=int, default=300)
    p.add_argument('real_args', metavar='REAL-ARGS')
    p = sub.add_parser('arm64-report')
    p.add_argument('--results')
    p.add_argument('dir', metavar='DIR')
    args = ap.parse_args()
    if args.cmd == 'runs':
        print('\n'.join(runs(args)))
    elif args.cmd == 'arm64-runs':
        print('\n'.join(arm64_runs(args)))
    elif args.cmd == 'arm64-report':
        return arm64_report(args)
    elif args.cmd == 'options':
        print('\n'.join(options(args)))
    else:
        return report(args)
    return 0


if __name__ == '__main__':
    sys.exit(main())
