#!/usr/bin/env python3
"""The demo's flame graphs: the page that shows them, and their checks.

  flames.py index DIR LABEL=TITLE...
  flames.py check [--min-main LABEL=PCT]... [--max-main LABEL=PCT]...
                  [--deep LABEL]... [--shallow LABEL]... [--screenshot PNG]
                  --depth N DIR

DIR/LABEL.html is a flame graph that `perf script report flamegraph` made
from d3-flame-graph's template (scripts/flamegraph.sh); the template holds
perf's data as `const stacks = [{"n": name, "v": samples, "c": [children]}]`,
the root "all", then one node per process ("sqlite3 (PID)"), then the
outermost frame first.

index writes DIR/index.html, the LABELs' graphs side by side (one iframe
each) under their TITLEs with their figures, and prints the window size
(WIDTH,HEIGHT) that shows all of it, for the screenshot. The iframes are as
high as the highest graph that Chromium drew (DIR/LABEL.dom.html, below)
needs.

check reads each LABEL's data from DIR/LABEL.html and what headless
Chromium drew of it from DIR/LABEL.dom.html (chromium --dump-dom: one
<g class="frame" name=... transform="translate(X,Y)" width=...> per frame
drawn; frames narrower than the template's minimum are not). The depth of
a stack is its number of frames from main to the leaf, main counted.
Checks, each a test:
  LABEL data     the page loads nothing from the network (the template
                 inlines d3); --min-main: at least PCT% of the samples have
                 main in their stack; --max-main: at most PCT%. --deep: a
                 stack is at least N deep; --shallow: none is.
  LABEL drawn    --deep: Chromium drew main and N levels from main up;
                 --shallow: it drew a graph, and no main with N levels.
  screenshot     --screenshot: PNG is a picture, and not of one colour.
Prints a table, then "counts: P F S" and "N passed, N failed".
"""
import argparse
import html
import json
import os
import re
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workloads import ENTRY as MAIN  # noqa: E402  (the frame a stack must reach)
CELL = 16           # the template's cellHeight (px)
# The template around its flame graph (px): buttons, details line, margins.
CHROME = 110
# index.html above the iframes (px): title, note, column heads, figures.
HEAD = 110


def load(path):
    """The root node of the flame graph in path (perf's JSON in the page)."""
    with open(path, encoding='utf-8') as f:
        page = f.read()
    key = 'const stacks = ['
    i = page.find(key)
    if i < 0:
        raise ValueError('%s: no "%s" (not made from the template?)' % (path, key))
    # perf's fallback page without the template loads d3 from a CDN.
    if re.search(r'<(script|link)\b[^>]*\b(src|href)="https?:', page):
        raise ValueError('%s: loads scripts from the network' % path)
    root, _ = json.JSONDecoder().raw_decode(page, i + len(key))
    return root


def stacks(root):
    """Yield (frames, samples) per stack: frames outermost first, without
    the root and the process node."""
    todo = [(c, []) for c in root['c']]
    while todo:
        node, path = todo.pop()
        for c in node['c']:
            todo.append((c, path + [c['n']]))
        if node['v'] and path:
            yield path, node['v']


def figures(root):
    """(samples, samples with main in the stack, deepest stack from main,
    deepest stack at all)."""
    total = in_main = deep = longest = 0
    for frames, n in stacks(root):
        total += n
        longest = max(longest, len(frames))
        if MAIN in frames:
            in_main += n
            deep = max(deep, len(frames) - frames.index(MAIN))
    return total, in_main, deep, longest


def pct(part, whole):
    return 100.0 * part / whole if whole else 0.0


def read_dom(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def svg_height(path):
    """The height (px) of the flame graph Chromium drew."""
    m = re.search(r'<svg\b[^>]*\bclass="[^"]*d3-flame-graph[^>]*>', read_dom(path))
    h = m and re.search(r'\bheight="([0-9.]+)"', m.group(0))
    if not h:
        raise ValueError('%s: no flame graph drawn' % path)
    return float(h.group(1))


def drawn(path):
    """What Chromium drew: (frames, main drawn, levels drawn from main up)."""
    dom = read_dom(path)
    frames = []
    for tag in re.findall(r'<g\b[^>]*\bclass="frame"[^>]*>', dom):
        attrs = dict(re.findall(r'([a-z-]+)="([^"]*)"', tag))
        m = re.match(r'translate\(([-0-9.e]+),([-0-9.e]+)\)', attrs.get('transform', ''))
        if not m:
            continue
        frames.append((html.unescape(attrs.get('name', '')), float(m.group(1)),
                       float(m.group(2)), float(attrs.get('width', 0))))
    levels = 0
    mains = [f for f in frames if f[0] == MAIN]
    for _, mx, my, mw in mains:
        # Its descendants: above it (smaller y), within its span.
        above = [y for _, x, y, _ in frames
                 if y < my and mx - 0.5 <= x <= mx + mw + 0.5]
        levels = max(levels, 1 + (round((my - min(above)) / CELL) if above else 0))
    return len(frames), bool(mains), levels


def png(path):
    """(width, height, distinct byte values of its pixel rows) of a PNG."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('%s: not a PNG' % path)
    pos, idat, size = 8, [], (0, 0)
    while pos + 8 <= len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            size = struct.unpack('>II', body[:8])
        elif kind == b'IDAT':
            idat.append(body)
        pos += 12 + n
    return size[0], size[1], len(set(zlib.decompress(b''.join(idat))))


def index(args):
    cols, height = [], 0
    for spec in args.graphs:
        label, _, title = spec.partition('=')
        total, in_main, deep, longest = figures(load(os.path.join(args.dir, label + '.html')))
        dom = os.path.join(args.dir, label + '.dom.html')
        # Without Chromium's drawing: every level (the root, the process).
        height = max(height, svg_height(dom) if os.path.exists(dom) else (longest + 2) * CELL)
        reach = '%d from main up' % deep if deep else 'none reaches main'
        cols.append((label, title, '%d samples, %.1f%% reach main; the deepest stack: '
                     '%d frames, %s' % (total, pct(in_main, total), longest, reach)))
    height = int(height) + CHROME
    page = ['<!DOCTYPE html>', '<html>', '<head>', '<meta charset="utf-8">',
            '<title>%s</title>' % html.escape(args.title),
            '<style>',
            'body { font-family: sans-serif; margin: 8px; }',
            'h1 { font-size: 18px; margin: 0 0 4px; }',
            'h2 { font-size: 15px; margin: 8px 0 2px; }',
            'p { font-size: 13px; margin: 0 0 4px; }',
            '.row { display: flex; gap: 12px; }',
            '.col { flex: 1; min-width: 0; }',
            'iframe { width: 100%%; height: %dpx; border: 1px solid #ccc; }' % height,
            '</style>', '</head>', '<body>',
            '<h1>%s</h1>' % html.escape(args.title),
            '<p>%s</p>' % html.escape(args.note),
            '<div class="row">']
    for label, title, fig in cols:
        page += ['<div class="col">',
                 '<h2>%s</h2>' % html.escape(title),
                 '<p>%s (<a href="%s.html">%s.html</a>)</p>' % (html.escape(fig), label, label),
                 '<iframe src="%s.html" title="%s"></iframe>' % (label, html.escape(title)),
                 '</div>']
    page += ['</div>', '</body>', '</html>', '']
    with open(os.path.join(args.dir, 'index.html'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(page))
    print('%d,%d' % (args.width, height + HEAD))
    return 0


def check(args):
    need = dict((k, float(v)) for k, _, v in (m.partition('=') for m in args.min_main))
    cap = dict((k, float(v)) for k, _, v in (m.partition('=') for m in args.max_main))
    labels = list(dict.fromkeys(args.deep + args.shallow))
    passed = failed = 0
    fmt = '    %-12s %-6s %-64s %s'
    print(fmt % ('graph', 'test', 'figures', 'result'))
    for label in labels:
        deep = label in args.deep
        path = os.path.join(args.dir, label + '.html')
        problems = []
        try:
            total, in_main, depth, longest = figures(load(path))
        except (OSError, ValueError) as err:
            total = in_main = depth = longest = 0
            problems.append(str(err))
        share = pct(in_main, total)
        if label in need and share < need[label]:
            problems.append('< %g%% reach main' % need[label])
        if label in cap and share > cap[label]:
            problems.append('> %g%% reach main' % cap[label])
        if deep and depth < args.depth:
            problems.append('no stack %d deep' % args.depth)
        if not deep and depth >= args.depth:
            problems.append('a stack %d deep' % depth)
        if not total:
            problems.append('no samples')
        fig = '%d samples, %.1f%% reach main, deepest from main %d (any: %d)' % (
            total, share, depth, longest)
        print(fmt % (label, 'data', fig, 'FAIL (%s)' % ', '.join(problems) if problems else 'ok'))
        passed += not problems
        failed += bool(problems)

        problems = []
        dom = os.path.join(args.dir, label + '.dom.html')
        try:
            n, has_main, levels = drawn(dom)
        except OSError as err:
            n, has_main, levels = 0, False, 0
            problems.append(str(err))
        if deep and not has_main:
            problems.append('main not drawn')
        if deep and levels < args.depth:
            problems.append('< %d levels from main' % args.depth)
        if not deep and levels >= args.depth:
            problems.append('%d levels from main' % levels)
        # The root and the process node at least, and a frame above them.
        if n < 3:
            problems.append('no graph drawn')
        fig = '%d frames drawn; main %s' % (
            n, 'and %d levels from it up' % levels if has_main else 'not drawn')
        print(fmt % ('', 'drawn', fig, 'FAIL (%s)' % ', '.join(problems) if problems else 'ok'))
        passed += not problems
        failed += bool(problems)
    if args.screenshot:
        problems = []
        try:
            w, h, values = png(args.screenshot)
            fig = '%s: %dx%d, %d KiB' % (os.path.basename(args.screenshot), w, h,
                                        os.path.getsize(args.screenshot) // 1024)
            # A blank page gives a handful of byte values.
            if values < 32:
                problems.append('one colour')
        except (OSError, ValueError, zlib.error) as err:
            fig = '-'
            problems.append(str(err))
        print(fmt % ('index.html', 'shot', fig, 'FAIL (%s)' % ', '.join(problems) if problems else 'ok'))
        passed += not problems
        failed += bool(problems)
    req = ['%s: >= %g%% reach main' % kv for kv in need.items()]
    req += ['%s: <= %g%% reach main' % kv for kv in cap.items()]
    req.append('depth from main >= %d for %s, < %d for %s' % (
        args.depth, ', '.join(args.deep) or '-', args.depth, ', '.join(args.shallow) or '-'))
    print('    required: %s' % '; '.join(req))
    print('    (data: perf\'s, in LABEL.html; drawn: what headless Chromium drew, '
          'LABEL.dom.html)')
    print('counts: %d %d 0' % (passed, failed))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    sub = ap.add_subparsers(dest='cmd', required=True)
    ix = sub.add_parser('index', help='write DIR/index.html, print the window size')
    ix.add_argument('--title', default='Flame graphs')
    ix.add_argument('--note', default='')
    ix.add_argument('--width', type=int, default=1600)
    ix.add_argument('dir')
    ix.add_argument('graphs', nargs='+', metavar='LABEL=TITLE')
    ck = sub.add_parser('check', help='check the depth of the graphs')
    ck.add_argument('--min-main', action='append', default=[], metavar='LABEL=PCT')
    ck.add_argument('--max-main', action='append', default=[], metavar='LABEL=PCT')
    ck.add_argument('--deep', action='append', default=[], metavar='LABEL')
    ck.add_argument('--shallow', action='append', default=[], metavar='LABEL')
    ck.add_argument('--screenshot', metavar='PNG')
    ck.add_argument('--depth', type=int, required=True)
    ck.add_argument('dir')
    args = ap.parse_args()
    return index(args) if args.cmd == 'index' else check(args)


if __name__ == '__main__':
    sys.exit(main())
