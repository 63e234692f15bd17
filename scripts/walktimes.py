"""The deferred walks of a guest run under the function_graph tracer, as
scripts/bench-scaling-guest.sh writes them, for scripts/bench-scaling.py
(--kernel) and scripts/bench-worst.py (--worst): in a directory, per run N,
N.walks (the trace's lines of unwind_user(), one a walk), N.frames (the
frames and the leaf of each sample's chain, one a line) and N.out (the
tool's output)."""
import glob
import os
import re


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
    """{N: (walk durations in us, frames per chain, set-up samples left out)}
    of the runs in D. The tools (sframe-scale, sframe-worst) are sampled from
    their start: a sample whose leaf is outside the text their first line
    names ("text SIZE bytes at ADDR") is of their set-up, and is left out,
    with its walk where every sample has one (none lost)."""
    runs = {}
    for path in glob.glob(os.path.join(d, "*.walks")):
        n = int(os.path.basename(path).split(".")[0])
        with open(path) as f:
            walks = [x for x in map(walk_us, f) if x is not None]
        chains = read_chains(d, n)
        frames = [c for c, _ in chains]
        setup = 0
        try:
            with open(os.path.join(d, f"{n}.out")) as f:
                t = re.search(r"text (\d+) bytes at (0x[0-9a-f]+)", f.readline())
        except OSError:
            t = None
        if t:
            start, size = int(t.group(2), 16), int(t.group(1))
            keep = [leaf is not None and start <= leaf < start + size for _, leaf in chains]
            setup = keep.count(False)
            if len(walks) == len(keep):
                walks = [w for w, k in zip(walks, keep) if k]
            frames = [x for x, k in zip(frames, keep) if k]
        runs[n] = (walks, frames, setup)
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
