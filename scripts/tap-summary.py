#!/usr/bin/env python3
"""Summarise the guest stage's results with the kernel's own parser.

    tap-summary.py TREE KSELFTEST_DIR OUT      (in the root: scripts/guest-tests.sh)

TREE is the kernel tree, whose tools/testing/kunit/kunit.py parses;
KSELFTEST_DIR the installed kselftests, whose kselftest-list.txt names the
programs that must have run; OUT what scripts/guest-tests-guest.sh left:
dmesg (KUnit's KTAP), kselftest.tap (run_kselftest.sh's TAP, one result a
program) and kselftest/NAME (each program's own TAP, --per-test-log).
"kunit.py parse --json" reads each of these files; its report and its JSON
stay beside them (NAME.kunit.log, NAME.json).

Prints a line per KUnit suite and per kselftest program, one line per case
that failed or skipped, and "counts: P F S" (passed, failed, skipped) for
make check; exits 1 on any failure and on any skipped case (the workbench's
kernel has all the tests need: a skip is a test that did not run). Cases
are counted, not programs, and a skip is never a pass. A kernel without KUnit suites or a series without
kselftests counts as one skip. A failure is also: a program of
kselftest-list.txt that has no result (not run, or the guest ended first),
that reported no case, or that failed (crash, timeout, exit status) with
no failed case named; each case its plan announced but it never reported
(it crashed or timed out); and a file kunit.py parse could not read."""
from concurrent.futures import ThreadPoolExecutor
import json
import os
import re
import subprocess
import sys

# kunit.py works from the kernel tree: absolute paths.
tree, ksft_dir, out = (os.path.abspath(a) for a in sys.argv[1:4])
KUNIT_PY = os.path.join(tree, 'tools', 'testing', 'kunit', 'kunit.py')
passed = failed = skipped = 0
# Skips that say "nothing to test here" (no suite, no kselftests yet), not
# tests that did not run.
absent = 0


class ParseError(Exception):
    pass


def kunit_parse(src, name):
    """kunit.py parse --json of the file src: its top-level group (with no
    group or case when src has no KTAP); {} when src does not exist."""
    if not os.path.exists(src):
        return {}
    js = os.path.join(out, name + '.json')
    if os.path.exists(js):
        os.remove(js)
    with open(os.path.join(out, name + '.kunit.log'), 'w') as log:
        # It exits 1 when a test failed: the JSON says which.
        subprocess.run([sys.executable, KUNIT_PY, 'parse', '--json=' + js, src],
                       stdout=log, stderr=subprocess.STDOUT, check=False)
    try:
        with open(js) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ParseError(f'kunit.py parse {os.path.relpath(src, out)} gave no result '
                         f'({e}); see {name}.kunit.log') from e


def leaves(group, path=()):
    """(path, status) of every leaf case below a JSON group: a case with
    cases of its own (a suite, a parameterised case) is counted by them."""
    for sub in group.get('sub_groups', []):
        yield from leaves(sub, path + (sub['name'],))
    for case in group.get('test_cases', []):
        yield path + (case['name'],), case['status']


def read_lines(path):
    try:
        with open(path, errors='replace') as f:
            return f.read().splitlines()
    except OSError:
        return []


def directive(lines, name):
    """What follows '#' on the result line of test name in TAP lines (a
    skip's reason, 'TIMEOUT 300 seconds', 'exit=139'): the JSON has no
    place for it."""
    for line in lines:
        line = line.lstrip('# ')
        if line.startswith(('ok ', 'not ok ')) and '#' in line and \
                line.split('#', 1)[0].rstrip().endswith(' ' + name):
            return line.split('#', 1)[1].strip()
    return ''


def tally(group, label, path=(), tap=()):
    """Counts of the leaves below group; prints the failed and skipped ones
    (a skip with its reason from the TAP lines tap)."""
    p = f = s = lost = 0
    for names, status in leaves(group, path):
        if status == 'PASS':
            p += 1
        elif status == 'SKIP':
            s += 1
            why = directive(tap, names[-1]).removeprefix('SKIP').strip()
            print(f'    {label} SKIP: {".".join(names)}{": " + why if why else ""}')
        elif names[-1]:
            f += 1
            print(f'    {label} FAIL: {".".join(names)}')
        else:
            lost += 1   # announced by the plan, never reported: kunit.py's "crashed"
    if lost:
        f += lost
        where = '.'.join(path) + ': ' if path else ''
        print(f'    {label} FAIL: {where}{lost} case(s) announced but never reported')
    return p, f, s


def add(label, p, f, s):
    global passed, failed, skipped
    print(f'    {label}: {p} passed, {f} failed, {s} skipped')
    passed += p
    failed += f
    skipped += s


def kunit(res):
    global absent
    suites = res.get('sub_groups', []) + res.get('test_cases', [])
    if not suites:
        print('    KUnit SKIP: this kernel has no KUnit suite of the series yet')
        add('KUnit', 0, 0, 1)
        absent += 1
        return
    for suite in suites:
        label = f'KUnit {suite["name"]}'
        if 'sub_groups' in suite:       # a suite
            p, f, s = tally(suite, 'KUnit', (suite['name'],))
        else:                           # a case outside any suite
            p, f, s = tally({'test_cases': [suite]}, 'KUnit')
        errors = suite.get('misc', {}).get('errors', 0)
        if errors and not f:
            print(f'    {label} FAIL: {errors} KTAP error(s) (see kunit.kunit.log)')
            f += 1
        add(label, p, f, s)


def kselftest(name, top, why, cases):
    """One program: top is its result in run_kselftest.sh's TAP (None if it
    has none), why that line's directive, cases its own TAP's JSON."""
    label = f'kselftest {name}'
    log = os.path.join(out, 'kselftest', name)
    p, f, s = tally(cases, label, tap=read_lines(log))
    if top is None:
        print(f'    {label} FAIL: no result in kselftest.tap (not run, or the guest '
              'ended first)')
        f += 1
    elif top == 'SKIP' and p + f + s == 0:
        # ksft_exit_skip(): "1..0 # SKIP reason"
        why = next((l.split('SKIP', 1)[1].strip() for l in read_lines(log)
                    if l.lstrip('# ').startswith('1..0 # SKIP')), '')
        print(f'    {label} SKIP: the whole program: {why}')
        s += 1
    elif p + f + s == 0:
        print(f'    {label} FAIL: {why or "no case reported"} (see kselftest/{name})')
        f += 1
    elif top not in ('PASS', 'SKIP') and (not f or why != 'exit=1'):
        # A crash or timeout after some cases, or a failure no case names
        print(f'    {label} FAIL: {why or top} (see kselftest/{name})')
        f = f or 1
    add(label, p, f, s)
    # What a test says it measured, on lines of its own ("# FILE:LINE:TEST:...").
    if name == 'sframe_stress_test':
        for line in read_lines(log):
            m = re.match(r'^# [^:]+:\d+:[^:]+:(.*)$', line.rstrip('\n'))
            if m:
                print(f'        {m.group(1)}')


def main():
    global failed, absent
    listing = os.path.join(ksft_dir, 'kselftest-list.txt')
    programs = [l.strip().split(':', 1) for l in read_lines(listing) if ':' in l]
    # One kunit.py a file, side by side.
    with ThreadPoolExecutor() as pool:
        ktap = pool.submit(kunit_parse, os.path.join(out, 'dmesg'), 'kunit')
        run = pool.submit(kunit_parse, os.path.join(out, 'kselftest.tap'), 'kselftest')
        cases = {name: pool.submit(kunit_parse, os.path.join(out, 'kselftest', name),
                                   'kselftest-' + name)
                 for _, name in programs}
    try:
        kunit(ktap.result())
    except ParseError as e:
        print(f'    KUnit FAIL: {e}')
        failed += 1
    if not os.path.exists(listing):
        print('    kselftests SKIP: the series has no kselftests yet')
        add('kselftests', 0, 0, 1)
        absent += 1
        return
    try:
        status = {names[-1]: st for names, st in leaves(run.result())}
    except ParseError as e:
        print(f'    kselftests FAIL: {e}')
        status = {}
    tap = read_lines(os.path.join(out, 'kselftest.tap'))
    for collection, name in programs:
        result = f'selftests: {collection}: {name}'
        try:
            kselftest(name, status.get(result), directive(tap, result),
                      cases[name].result())
        except ParseError as e:
            print(f'    kselftest {name} FAIL: {e}')
            add(f'kselftest {name}', 0, 1, 0)


main()
print(f'    total: {passed} passed, {failed} failed, {skipped} skipped')
print(f'counts: {passed} {failed} {skipped}')
if skipped > absent:
    # The workbench's own kernel has everything the tests need: a test that
    # skipped did not run, and the stage must not pass without it.
    print(f'    {skipped - absent} case(s) skipped: the stage fails (a skip is not a pass)')
sys.exit(1 if failed or skipped > absent else 0)
