#!/usr/bin/env python3
"""The profiled programs, their expected call chains and the completeness
rule: the one place that says them, for the profiling pipeline's three
front ends (make e2e, make demo, make bench), its checks
(scripts/callchains.py, scripts/flames.py) and the workloads' build
(workloads/Makefile).

  workloads.py funcs NAME     the functions of workload NAME's call chain,
                              leaf first, one word each (workloads/Makefile
                              gives them to check-flavour)
  workloads.py chain NAME     the same as text: leaf <- mid2 <- ... <- main
  workloads.py real-objects   the file names of the real program's own code
  workloads.py real-args      the real program's fixed workload (arguments,
                              paths relative to the checkout)

The workloads are workloads/NAME.c, built as build/workloads/NAME-FLAVOUR
(FLAVOUR: fp, sframe, nofp); every function of a chain calls the one
before it in the list (check-flavour makes sure). The real program is
sqlite3 (real.pin, scripts/real.sh), built as build/real/FLAVOUR/.

The completeness rule (complete()): a callchain, as perf script prints it
(samples()), is complete when it reaches main and every frame before main
is known: an unknown address before main makes it incomplete; whatever
follows main (libc's start code, mostly [unknown] without libc symbols)
does not matter. With an expected chain (a workload's), its frames up to
main must be exactly that chain: a missing frame makes it incomplete too.
"""
import os
import re
import sys

# The outermost frame every complete chain reaches.
ENTRY = 'main'

# Each workload's call chain, leaf first, ending in ENTRY. deep's down
# calls itself (-d DEPTH times): it is listed twice, which is what
# check-flavour needs to see that it does.
CHAINS = {
    'chain': ('leaf', 'mid2', 'mid1', 'top', ENTRY),
    'deep': ('leaf', 'down', 'down', ENTRY),
}
# The real program: its own code (file names) and its fixed workload.
REAL_OBJECTS = ('sqlite3', 'libsqlite3.so.0')
REAL_ARGS = '-batch -bail -init workloads/real.sql :memory: .quit'

FRAME = re.compile(r'^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')
# A sample without a callchain has its ip on the header line.
INLINE = re.compile(r":\s+([0-9a-f]+)\s+(\S+)\s+\(([^()]*)\)\s*$")


def chain_text(name):
    """'leaf <- mid2 <- mid1 <- top <- main'; a function that calls itself
    is written once, 'down (x DEPTH)'."""
    out = []
    for f in CHAINS[name]:
        if out and out[-1].split()[0] == f:
            out[-1] = f + ' (x DEPTH)'
        else:
            out.append(f)
    return ' <- '.join(out)


def samples(path):
    """Yield the frames of every sample in a perf script output: a list of
    (addr, symbol, dso), innermost first."""
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


def main_index(frames, objects=None):
    """The index of the first frame in ENTRY (in one of the objects, file
    names, when given), or None."""
    for i, (_, sym, dso) in enumerate(frames):
        if func(sym) == ENTRY and (objects is None or
                                   os.path.basename(dso) in objects):
            return i
    return None


def complete(frames, chain=None, objects=None):
    """The completeness rule (see the top): the chain reaches ENTRY (in one
    of objects, when given) with no unknown frame before it and, when chain
    is given, its frames up to ENTRY are exactly chain (leaf first)."""
    i = main_index(frames, objects)
    if i is None:
        return False
    names = [func(s) for _, s, _ in frames[:i + 1]]
    if '[unknown]' in names:
        return False
    return chain is None or names == list(chain)


def describe(frames, n=5):
    """A short form of a chain for a report, its first n + 1 frames:
    leaf <- ? <- ..."""
    names = ['?' if func(sym) == '[unknown]' else func(sym)
             for _, sym, _ in frames[:n + 1]]
    more = ' ...' if len(frames) > n + 1 else ''
    return ' <- '.join(names) + more


def main(argv):
    cmds = {
        'funcs': lambda name: ' '.join(CHAINS[name]),
        'chain': chain_text,
        'real-objects': lambda: ' '.join(REAL_OBJECTS),
        'real-args': lambda: REAL_ARGS,
    }
    if not argv or argv[0] not in cmds:
        sys.exit(__doc__.split('\n\n')[1])
    try:
        print(cmds[argv[0]](*argv[1:]))
    except (KeyError, TypeError):
        sys.exit('workloads.py: %s: no such workload or wrong arguments (workloads: %s)'
                 % (' '.join(argv), ', '.join(CHAINS)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
