#!/usr/bin/env python3
"""Compare, IP by IP, what the kernel's SFrame reader (through its user-space
harness, "sframe_test dump") and binutils' libsframe (oracle.c) find in the
same ELF files.

  compare.py DIR

DIR holds NAME.kernel and NAME.oracle for each file: a header line, then
"START END RESULT" for each run of IPs [START, END) with the same result
(see oracle.c). Each file is one test: it passes when both give the same
FDE and the same CFA, RA and FP rules for every IP, or where they differ,
when the difference is one of DOCUMENTED below, which is named with the
number of IPs it covers. Prints one line per file and "counts: P F S" for
make check; exits 1 on a failure."""
import glob
import os
import re
import sys

# Known, intended differences: name -> (why, predicate on (kernel, oracle)).
DOCUMENTED = {
    'v2-section': (
        'a version 2 section: the kernel reads SFrame V3 only '
        '(sframe-v3.md: 2 and 1 are older, incompatible), libsframe reads it',
        None),
    'empty-fde-outermost': (
        'a DEFAULT FDE without FREs: outermost for the kernel '
        '(sframe-v3.md), no FRE for libsframe',
        lambda k, o: (k.endswith(' outermost') or ' outermost ' in k) and
        k.replace('outermost', '') == o.replace('nofres', '')),
}


def runs(path):
    with open(path) as f:
        head = f.readline().split()
        out = []
        for line in f:
            start, end, result = line.rstrip('\n').split(' ', 2)
            out.append((int(start, 16), int(end, 16), result))
    return head, out


def header(head):
    """sframe ADDR SIZE text START END, then the tool's verdict words."""
    return head[:6], dict(zip(head[6::2], head[7::2]))


# What kinds of rows were compared, in IPs, over all files.
KINDS = [
    ('CFA from rsp', lambda r: ' cfa=r7' in r),
    ('CFA from rbp', lambda r: ' cfa=r6' in r),
    ('CFA from another register', lambda r: re.search(r' cfa=r(?![67][+-])', r)),
    ('CFA loaded from memory', lambda r: ' cfa=*(' in r),
    ('RA elsewhere than CFA-8', lambda r: ' ra=' in r and ' ra=*(cfa-8)' not in r),
    ('FP saved on the stack', lambda r: ' fp=*(cfa' in r),
    ('FP elsewhere', lambda r: re.search(r' fp=(\*\(r|r|cfa)', r)),
    ('outermost', lambda r: ' outermost' in r),
    ('signal frame', lambda r: ' signal' in r),
]
kinds = dict.fromkeys((k for k, _ in KINDS), 0)


def compare(name, kpath, opath):
    khead, kruns = runs(kpath)
    ohead, oruns = runs(opath)
    kwhere, kv = header(khead)
    owhere, ov = header(ohead)
    if kwhere != owhere:
        return False, f'the tools see different sections: {kwhere} / {owhere}'
    if ov.get('decode') != 'ok':
        return False, f'libsframe cannot decode it: {" ".join(ohead[7:])}'
    if kv.get('header') != '0':
        if kv.get('version') != '3':
            return True, (f'kernel header {kv.get("header")}, version '
                          f'{kv.get("version")}: documented: v2-section '
                          f'({DOCUMENTED["v2-section"][0]})')
        return False, f'the kernel rejects the header ({kv.get("header")}), libsframe decodes it'
    if kv.get('validate') != '0':
        return False, f'the kernel rejects the section ({kv.get("validate")}), libsframe decodes it'

    ips = with_rules = differ = 0
    named = {}
    bad = []
    fdes = set()
    i = j = 0
    pos = kruns[0][0] if kruns else 0
    while i < len(kruns) and j < len(oruns):
        ks, ke, kr = kruns[i]
        os_, oe, orr = oruns[j]
        if ks != pos or os_ != pos:
            return False, f'the runs do not line up at {pos:#x}'
        end = min(ke, oe)
        n = end - pos
        ips += n
        if kr.startswith('fde='):
            fdes.add(kr.split()[0])
            for k, pred in KINDS:
                if pred(kr):
                    kinds[k] += n
            if ' cfa=' in kr:
                with_rules += n
        if kr != orr:
            for dname, (_, pred) in DOCUMENTED.items():
                if pred and pred(kr, orr):
                    named[dname] = named.get(dname, 0) + n
                    break
            else:
                differ += n
                bad.append(f'{pos:#x}-{end:#x}: kernel "{kr}", libsframe "{orr}"')
        pos = end
        if end == ke:
            i += 1
        if end == oe:
            j += 1
    if i != len(kruns) or j != len(oruns):
        return False, 'the runs end at different IPs'
    what = f'{ips} IPs, {len(fdes)} functions, {with_rules} IPs with rules'
    if bad:
        more = f'\n        ... and {len(bad) - 10} more' if len(bad) > 10 else ''
        return False, (f'{what}; {differ} IPs differ:\n        ' +
                       '\n        '.join(bad[:10]) + more)
    doc = ''.join(f'; documented: {d} in {n} IPs ({DOCUMENTED[d][0]})'
                  for d, n in named.items())
    return True, f'{what}: the same FDE and rules{doc}'


def main():
    out = sys.argv[1]
    passed = failed = 0
    for kpath in sorted(glob.glob(os.path.join(out, '*.kernel'))):
        name = os.path.basename(kpath)[:-len('.kernel')]
        ok, msg = compare(name, kpath, kpath[:-len('.kernel')] + '.oracle')
        print(f'    {"ok  " if ok else "FAIL"} {name}: {msg}')
        passed += ok
        failed += not ok
    print('    IPs compared, by kind of row: ' +
          ', '.join(f'{k} {n}' for k, n in kinds.items()))
    print(f'counts: {passed} {failed} 0')
    return 1 if failed or not passed else 0


sys.exit(main())
