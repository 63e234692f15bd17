"""The deferred walks of a guest run under the function_graph tracer, as
scripts/bench-scaling-guest.sh writes them, for scripts/bench-scaling.py
(--kernel) and scripts/bench-worst.py (--worst): in a directory, per run N,
N.walks (the trace's lines of unwind_user(), one a walk) and N.frames (the
frames of each sample's chain, one a line)."""
import glob
import os


def walk_us(line):
    """The duration of one function_graph line: "... 247.061 us |  unwind_user();"."""
    w = line.replace("|", " ").split()
    for i, x in enumerate(w[1:], 1):
        if x in ("us", "ms", "s"):
            return float(w[i - 1]) * {"us": 1, "ms": 1e3, "s": 1e6}[x]
    return None


def pct(v, p):
    """The value at fraction P of V sorted (the median at 0.5); None if V is empty."""
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))] if v else None


def median(v):
    return pct(v, 0.5)


def read_runs(d):
    """{N: (walk durations in us, frames per chain)} of the runs in D."""
    runs = {}
    for path in glob.glob(os.path.join(d, "*.walks")):
        n = int(os.path.basename(path).split(".")[0])
        with open(path) as f:
            walks = [x for x in map(walk_us, f) if x is not None]
        runs[n] = (walks, [c for c, _ in read_chains(d, n)])
    return runs


def read_chains(d, n):
    """[(frames, leaf address or None)] of each sample of run N in D."""
    chains = []
    with open(os.path.join(d, f"{n}.frames")) as f:
        for line in f:
            x = line.split()
            if x:
                chains.append((int(x[0]), int(x[1], 16) if len(x) > 1 else None))
    return chains
