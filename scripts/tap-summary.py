#!/usr/bin/env python3
"""Summarise the KUnit (KTAP in the guest's kernel log) and kselftest (TAP)
results that scripts/guest-tests-guest.sh left in DIR.

Prints one line per test that did not pass, one line per suite or program,
and "counts: P F" for make check. Exits 1 on any failure."""
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
    """Count the leaf cases of every KTAP suite in a kernel log."""
    global passed, failed, skipped
    lines = [strip_dmesg(l) for l in open(path, errors='replace')]
    suites = {}
    suite = None
    for l in lines:
        m = re.match(r'^\s*# Subtest: (\S+)', l)
        if m:
            suite = m.group(1)
            suites.setdefault(suite, [0, 0, 0])
            continue
        m = RESULT.match(l)
        if not m or suite is None:
            continue
        indent, res, _, name, directive = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)
        if len(indent) < 4:
            continue        # the suite's own line: its cases are counted
        if re.match(r'^\s{8,}', indent):
            continue        # a parameterised case's sub-results: counted once
        s = suites[suite]
        if directive == 'SKIP':
            s[2] += 1
        elif res == 'ok':
            s[0] += 1
        else:
            s[1] += 1
            print(f'    KUnit FAIL: {suite}.{name}')
    if not suites:
        print('    KUnit: this kernel has no KUnit suite of the series yet')
        if any('KTAP version' in l for l in lines):
            print('    (a KTAP header was seen but no suite)')
    for name, (p, f, s) in suites.items():
        print(f'    KUnit {name}: {p} passed, {f} failed, {s} skipped')
        passed += p
        failed += f
        skipped += s


def selftests(d):
    global passed, failed, skipped
    taps = sorted(glob.glob(os.path.join(d, 'selftest-*.tap')))
    if not taps:
        print('    kselftests: the series has no kselftests yet')
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
        if p + f + s == 0 or (rc != '0' and f == 0):
            print(f'    kselftest {name}: exit status {rc} with no failed test reported (see {tap})')
            f += 1
        print(f'    kselftest {name}: {p} passed, {f} failed, {s} skipped')
        passed += p
        failed += f
        skipped += s


kunit(os.path.join(out, 'dmesg'))
selftests(out)
print(f'    total: {passed} passed, {failed} failed, {skipped} skipped')
print(f'counts: {passed} {failed}')
sys.exit(1 if failed else 0)
