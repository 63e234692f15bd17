#!/usr/bin/env python3
"""recipients.py TREE COVER PATCH...: put the recipients that TREE's
scripts/get_maintainer.pl gives into the mail headers of each PATCH, as a
posted series has them: "To:" the maintainers (role "maintainer"), "Cc:" the
rest (reviewers, then lists), each ordered by subsystem name (stable), one
address a line as git format-patch --to/--cc writes them, after the Subject. COVER (the cover letter) gets the union:
To the patches' To, Cc the patches' Cc less that To.

get_maintainer.pl runs with --no-git --no-git-fallback (no history here),
on a copy of each patch without To/Cc headers (its keywords match the mail
headers too), from TREE, with HOME set to an empty directory so that no
personal .get_maintainer.conf changes the result, and with a fixed perl
hash seed: the same tree gives the same files, and running this twice
changes nothing.
"""
import concurrent.futures
import email.utils
import os
import re
import subprocess
import sys
import tempfile

ADDR = re.compile(r'^((?:[^<]*<[^>]+>)|\S+) \((.*)\)$')
DROP = re.compile(r'^(to|cc):', re.I)


def split(text):
    """(header lines without To/Cc, body from the first blank line)."""
    head, sep, body = text.partition('\n\n')
    if not sep:
        sys.exit(f'recipients.py: no mail header block in {text[:60]!r}')
    lines, dropping = [], False
    for line in head.split('\n'):
        if line[:1] in (' ', '\t'):
            if not dropping:
                lines.append(line)
            continue
        dropping = bool(DROP.match(line))
        if not dropping:
            lines.append(line)
    return lines, body


def key(addr):
    """The e-mail address of a get_maintainer line, lowercased."""
    return email.utils.parseaddr(addr)[1].lower() or addr.lower()


def header(name, addrs):
    out = []
    for a in addrs:
        if not a.isascii():
            # RFC 2047 for a non-ASCII name, as format-patch does for From.
            a = email.utils.formataddr(email.utils.parseaddr(a), 'utf-8')
        out.append(a)
    return [f'{name}: ' + ',\n    '.join(out)] if out else []


def write(path, lines, body, to, cc):
    # After the Subject (and its continuation lines), where format-patch
    # puts --to and --cc.
    subj = next((i for i, l in enumerate(lines) if l.lower().startswith('subject:')), None)
    if subj is None:
        sys.exit(f'recipients.py: {path}: no Subject header')
    end = subj + 1
    while end < len(lines) and lines[end][:1] in (' ', '\t'):
        end += 1
    lines = lines[:end] + header('To', to) + header('Cc', cc) + lines[end:]
    with open(path, 'w', encoding='utf-8', newline='') as f:
        f.write('\n'.join(lines) + '\n\n' + body)


def maintainers(tree, home, path):
    """(lines, body, To, Cc) of one patch."""
    with open(path, encoding='utf-8', newline='') as f:
        lines, body = split(f.read())
    with tempfile.NamedTemporaryFile('w', encoding='utf-8', suffix='.patch', dir=home) as tmp:
        tmp.write('\n'.join(lines) + '\n\n' + body)
        tmp.flush()
        # A fixed hash order: which subsystem (and so which role) a
        # duplicate address is reported with does not change between runs.
        env = dict(os.environ, HOME=home, PERL_HASH_SEED='0', PERL_PERTURB_KEYS='0')
        r = subprocess.run(['perl', 'scripts/get_maintainer.pl', '--no-git',
                            '--no-git-fallback', tmp.name], cwd=tree, env=env,
                           capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f'recipients.py: get_maintainer.pl failed on {path}:\n{r.stderr}')
    to, cc, seen = [], [], set()
    for line in r.stdout.splitlines():
        m = ADDR.match(line.strip())
        if not m:
            sys.exit(f'recipients.py: {path}: unexpected get_maintainer line {line!r}')
        addr, role = m.groups()
        if key(addr) in seen:
            continue
        seen.add(key(addr))
        kind, _, subsystem = role.partition(':')
        if kind == 'maintainer':
            to.append((subsystem, addr))
        else:
            cc.append(('list' in kind, subsystem, addr))
    # get_maintainer.pl orders subsystems that match equally deep by perl's
    # hash order: sort them by name (people before lists in Cc).
    to.sort(key=lambda t: t[0])
    cc.sort(key=lambda t: t[:2])
    return lines, body, [t[-1] for t in to], [t[-1] for t in cc]


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: recipients.py TREE COVER PATCH...')
    tree, cover, patches = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as home:
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda p: maintainers(tree, home, p), patches))
    all_to, all_cc, seen_to, seen_cc = [], [], set(), set()
    for path, (lines, body, to, cc) in zip(patches, results):
        write(path, lines, body, to, cc)
        for a in to:
            if key(a) not in seen_to:
                seen_to.add(key(a))
                all_to.append(a)
        for a in cc:
            if key(a) not in seen_cc:
                seen_cc.add(key(a))
                all_cc.append(a)
    with open(cover, encoding='utf-8', newline='') as f:
        lines, body = split(f.read())
    write(cover, lines, body, all_to, [a for a in all_cc if key(a) not in seen_to])
    print(f'{len(patches)} patch(es): To {len(all_to)} maintainers, '
          f'Cc {len([a for a in all_cc if key(a) not in seen_to])} others in the cover letter')


if __name__ == '__main__':
    main()
