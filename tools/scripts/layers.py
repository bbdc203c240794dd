#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""layers.py - no include or call circle between the files of a directory.

    layers.py [--objs DIR] SRCDIR...

A file's unit is its stem: fd_well.c and fd_well.h are one unit. Unit A
depends on unit B when A.c or A.h includes "B.h", and, given --objs (the
directory holding the built A.o files), when A.o uses a symbol B.o defines.
Prints every circle (strongly connected set of more than one unit) and
exits 1 if there is one.
"""
import os
import re
import subprocess
import sys


def units(srcdir):
    out = {}
    for name in sorted(os.listdir(srcdir)):
        stem, ext = os.path.splitext(name)
        if ext in ('.c', '.h'):
            out.setdefault(stem, []).append(os.path.join(srcdir, name))
    return out


def include_edges(srcdir):
    edges = {}
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)\.h"', re.M)
    for stem, files in units(srcdir).items():
        for path in files:
            with open(path, encoding='utf-8') as f:
                for dep in inc.findall(f.read()):
                    dep = os.path.basename(dep)
                    if dep != stem and os.path.exists(
                            os.path.join(srcdir, dep + '.h')):
                        edges.setdefault(stem, {}).setdefault(dep, set()).add(
                            'includes %s.h' % dep)
    return edges


def symbols(obj):
    res = subprocess.run(['nm', obj], capture_output=True, text=True,
                         check=True).stdout
    defined, used = set(), set()
    for line in res.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            used.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBRtdbr' and \
                parts[1].isupper():
            defined.add(parts[2])
    return defined, used


def call_edges(objdir, stems, edges):
    table = {}
    for stem in stems:
        obj = os.path.join(objdir, stem + '.o')
        if os.path.exists(obj):
            table[stem] = symbols(obj)
    owner = {}
    for stem, (defined, _) in table.items():
        for sym in defined:
            owner[sym] = stem
    for stem, (_, used) in table.items():
        for sym in used:
            dep = owner.get(sym)
            if dep and dep != stem:
                edges.setdefault(stem, {}).setdefault(dep, set()).add(sym)


def circles(edges):
    """Tarjan's strongly connected components of more than one unit."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main(argv):
    objs = None
    if len(argv) > 2 and argv[1] == '--objs':
        objs = argv[2]
        argv = argv[2:]
    status = 0
    for srcdir in argv[1:]:
        edges = include_edges(srcdir)
        if objs and os.path.isdir(os.path.join(objs, os.path.basename(
                os.path.normpath(srcdir)))):
            call_edges(os.path.join(objs, os.path.basename(
                os.path.normpath(srcdir))), units(srcdir), edges)
        for comp in circles(edges):
            status = 1
            print('layers: %s: a circle between %s' % (srcdir, ', '.join(comp)))
            for a in comp:
                for b in comp:
                    if b in edges.get(a, {}):
                        why = sorted(edges[a][b])
                        more = ' ...' if len(why) > 3 else ''
                        print('  %s -> %s: %s%s' % (a, b, ', '.join(why[:3]), more))
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv))
