#!/usr/bin/env python3
"""Summarise the KUnit (KTAP in the guest's kernel log) and kselftest (TAP)
results that scripts/guest-tests-guest.sh left in DIR.

Prints one line per test that did not pass, one line per suite or program,
and "counts: P F S" (passed, failed, skipped) for make check. A skipped case
is never counted as passed; neither is a missing suite or program (one
skip). Exits 1 on any failure."""
import glob
import os
import re
import sys

out = sys.argv[1]
passed = failed = skipped = 0
RESULT = re.compile(r'^(\s*)(ok|not ok) (\d+) (.*?)(?:\s+#\s*(SKIP|TODO)(.*))?$')


def strip_dmesg(line):
    return re.sub(r'^\[\s*[0-9.]+\]\s?', '', line.rstrip('\n'))


def kunit(path):
    """Count the leaf cases of every KTAP suite in a kernel log.

    A "# Subtest: X" line at indent i opens X; its cases follow at indent i
    and its own result comes at indent i - 4. A result with cases of its
    own (a suite, a parameterised case) is not counted: its cases are."""
    global passed, failed, skipped
    lines = [strip_dmesg(l) for l in open(path, errors='replace')]
    suites = {}
    stack = []          # [name, indent, number of cases seen]
    for l in lines:
        m = re.match(r'^(\s*)# Subtest: (.+)$', l)
        if m:
            stack.append([m.group(2).strip(), len(m.group(1)), 0])
            continue
        m = RESULT.match(l)
        if not m or not stack:
            continue
        indent, res, name, directive = len(m.group(1)), m.group(2), m.group(4), m.group(5)
        top = stack[-1]
        if top[1] == indent + 4 and top[0] == name:
            stack.pop()
            if top[2]:
                continue            # its cases were counted
        elif stack:
            stack[-1][2] += 1
        suite = stack[0][0] if stack else name
        s = suites.setdefault(suite, [0, 0, 0])
        path_name = '.'.join(x[0] for x in stack[1:] + [[name]])
        if directive == 'SKIP':
            s[2] += 1
        elif res == 'ok':
            s[0] += 1
        else:
            s[1] += 1
            print(f'    KUnit FAIL: {suite}.{path_name}')
    if not suites:
        print('    KUnit SKIP: this kernel has no KUnit suite of the series yet')
        skipped += 1
    for name, (p, f, s) in suites.items():
        print(f'    KUnit {name}: {p} passed, {f} failed, {s} skipped')
        passed += p
        failed += f
        skipped += s


def selftests(d):
    global passed, failed, skipped
    taps = sorted(glob.glob(os.path.join(d, 'selftest-*.tap')))
    if not taps:
        print('    kselftests SKIP: the series has no kselftests yet')
        skipped += 1
    for tap in taps:
        name = os.path.basename(tap)[len('selftest-'):-len('.tap')]
        rc = open(tap[:-4] + '.rc').read().strip() if os.path.exists(tap[:-4] + '.rc') else '?'
        p = f = s = 0
        for l in open(tap, errors='replace'):
            m = RESULT.match(l.rstrip('\n'))
            if not m or m.group(1):
                continue
            if m.group(5) == 'SKIP':
                s += 1
                print(f'    kselftest {name} SKIP: {m.group(4)}{m.group(6) or ""}')
            elif m.group(2) == 'ok':
                p += 1
            else:
                f += 1
                print(f'    kselftest {name} FAIL: {m.group(4)}')
        if p + f + s == 0 and rc == '4':
            # ksft_exit_skip(): the whole program skipped ("1..0 # SKIP ...")
            print(f'    kselftest {name} SKIP: the whole program (exit status 4, see {tap})')
            s += 1
        elif p + f + s == 0 or (rc not in ('0', '4') and f == 0):
            print(f'    kselftest {name}: exit status {rc} with no failed test reported (see {tap})')
            f += 1
        secs = tap[:-4] + '.secs'
        took = f' in {open(secs).read().strip()} s' if os.path.exists(secs) else ''
        print(f'    kselftest {name}: {p} passed, {f} failed, {s} skipped{took}')
        # What a test says it measured, on lines of its own ("# FILE:LINE:TEST:...").
        if name == 'sframe_stress_test':
            for l in open(tap, errors='replace'):
                m = re.match(r'^# [^:]+:\d+:[^:]+:(.*)$', l.rstrip('\n'))
                if m:
                    print(f'        {m.group(1)}')
        passed += p
        failed += f
        skipped += s


kunit(os.path.join(out, 'dmesg'))
selftests(out)
print(f'    total: {passed} passed, {failed} failed, {skipped} skipped')
print(f'counts: {passed} {failed} {skipped}')
sys.exit(1 if failed else 0)
