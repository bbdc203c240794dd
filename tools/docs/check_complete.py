#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check_complete.py [--top DIR] - fail if the docs miss a name from the code.

Names are taken from the code:

  ioctls      every FAIRDIE_IOC_* command defined with _IO/_IOR/_IOW/_IOWR
              in uapi/linux/fairdie.h
  parameters  every module_param(NAME, ...) (and module_param_named,
              module_param_string) in driver/*.c
  sysfs       every DEVICE_ATTR_RO/RW/WO(NAME) and DEVICE_ATTR(NAME, ...)
              in driver/*.c

and must be documented where a reader looks for them:

  ioctls      a section titled with the command's name in
              Documentation/userspace-api/fairdie.rst
  parameters  a definition-list term ``NAME`` in the section "Module
              parameters" of Documentation/admin-guide/fairdie.rst
  sysfs       a "What: /sys/class/misc/fairdie/NAME" entry in
              Documentation/ABI/testing/sysfs-class-misc-fairdie, and a
              term ``NAME`` in the section "sysfs attributes" of the admin
              guide

The check also runs the other way: a documented ioctl, parameter or
attribute that the code no longer has is reported as stale. Every problem
is listed; the exit status is 1 if there is any, else 0. Python 3 standard
library only.
"""

import argparse
import glob
import os
import re
import sys

UAPI = "uapi/linux/fairdie.h"
DRIVER = "driver/*.c"
UAPI_DOC = "Documentation/userspace-api/fairdie.rst"
ADMIN_DOC = "Documentation/admin-guide/fairdie.rst"
ABI_DOC = "Documentation/ABI/testing/sysfs-class-misc-fairdie"
SYSFS_DIR = "/sys/class/misc/fairdie/"

ADORN = set("=-~^\"'`#*+:._<>")


def read(top, rel):
    with open(os.path.join(top, rel), encoding="utf-8") as f:
        return f.read()


def strip_c_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


# ---------------------------------------------------------------- the code

def code_ioctls(top):
    text = strip_c_comments(read(top, UAPI))
    pat = r"^\s*#\s*define\s+(FAIRDIE_IOC_[A-Z0-9_]+)\s+_IO(?:R|W|WR)?\s*\("
    return set(re.findall(pat, text, flags=re.M))


def code_params_and_attrs(top):
    params, attrs = set(), set()
    files = sorted(glob.glob(os.path.join(top, DRIVER)))
    if not files:
        raise FileNotFoundError(f"no {DRIVER} under {top}")
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = strip_c_comments(f.read())
        params |= set(re.findall(r"\bmodule_param\s*\(\s*(\w+)\s*,", text))
        params |= set(re.findall(
            r"\bmodule_param_(?:named|string|array|cb)\s*\(\s*(\w+)\s*,", text))
        attrs |= set(re.findall(r"\bDEVICE_ATTR_(?:RO|RW|WO)\s*\(\s*(\w+)\s*\)", text))
        attrs |= set(re.findall(r"\bDEVICE_ATTR\s*\(\s*(\w+)\s*,", text))
    return params, attrs


# ---------------------------------------------------------------- the docs

def sections(text):
    """Split reST into sections: a list of (title, level, start, end) where
    start/end are line indices of the section's body, sub-sections
    included. Levels follow the order in which adornment styles appear."""
    lines = text.split("\n")
    styles, found = [], []
    i = 0
    while i < len(lines) - 1:
        line, nxt = lines[i], lines[i + 1]
        # Overlined title: ===== / Title / =====
        if (i + 2 < len(lines) and is_adorn(line) and lines[i + 1].strip()
                and lines[i + 2] == line and len(line) >= len(lines[i + 1].rstrip())):
            title, style, body = lines[i + 1].strip(), ("o", line[0]), i + 3
        elif (line.strip() and not line.startswith((" ", "\t")) and is_adorn(nxt)
              and len(nxt) >= len(line.rstrip()) and (i == 0 or not lines[i - 1].strip())):
            title, style, body = line.strip(), ("u", nxt[0]), i + 2
        else:
            i += 1
            continue
        if style not in styles:
            styles.append(style)
        found.append((title, styles.index(style), i, body))
        i = body
    result = []
    for k, (title, level, head, body) in enumerate(found):
        end = len(lines)
        for title2, level2, head2, _ in found[k + 1:]:
            if level2 <= level:
                end = head2
                break
        result.append((title, level, body, end))
    return lines, result


def is_adorn(line):
    s = line.rstrip()
    return len(s) >= 3 and s[0] in ADORN and s == s[0] * len(s)


def section_titles(text):
    _, secs = sections(text)
    return [t for t, _, _, _ in secs]


def section_body(text, title_re):
    lines, secs = sections(text)
    hits = [(b, e) for t, _, b, e in secs if re.fullmatch(title_re, t, flags=re.I)]
    if len(hits) != 1:
        return None
    b, e = hits[0]
    return "\n".join(lines[b:e])


def definition_terms(body):
    """``NAME`` terms of definition lists at the left margin of @body."""
    return set(re.findall(r"^``([A-Za-z_][A-Za-z0-9_]*)``[ \t]*$", body, flags=re.M))


def abi_whats(text):
    return set(re.findall(r"^What:\s*" + re.escape(SYSFS_DIR) + r"(\S+)\s*$",
                          text, flags=re.M))


# ---------------------------------------------------------------- compare

def compare(kind, where, code, docs, problems):
    for name in sorted(code - docs):
        problems.append(f"{kind} {name}: not documented in {where}")
    for name in sorted(docs - code):
        problems.append(f"{kind} {name}: documented in {where} but not in the code")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", ".."), help="top of the source tree")
    args = ap.parse_args()
    top = os.path.abspath(args.top)
    problems = []

    try:
        ioctls = code_ioctls(top)
        params, attrs = code_params_and_attrs(top)
        uapi_doc = read(top, UAPI_DOC)
        admin_doc = read(top, ADMIN_DOC)
        abi_doc = read(top, ABI_DOC)
    except OSError as e:
        print(f"check_complete: {e}", file=sys.stderr)
        return 1

    # Guard against a broken extraction passing vacuously.
    for kind, names in (("ioctl", ioctls), ("module parameter", params),
                        ("sysfs attribute", attrs)):
        if not names:
            problems.append(f"no {kind} found in the code: is the extraction broken?")

    doc_ioctls = {t for t in section_titles(uapi_doc) if t.startswith("FAIRDIE_IOC_")}
    compare("ioctl", f"{UAPI_DOC} (a section per ioctl)", ioctls, doc_ioctls, problems)

    body = section_body(admin_doc, r"module parameters")
    if body is None:
        problems.append(f"{ADMIN_DOC}: no single section titled 'Module parameters'")
    else:
        compare("module parameter", f"{ADMIN_DOC}, section 'Module parameters'",
                params, definition_terms(body), problems)

    compare("sysfs attribute", ABI_DOC, attrs, abi_whats(abi_doc), problems)
    body = section_body(admin_doc, r"sysfs attributes")
    if body is None:
        problems.append(f"{ADMIN_DOC}: no single section titled 'sysfs attributes'")
    else:
        compare("sysfs attribute", f"{ADMIN_DOC}, section 'sysfs attributes'",
                attrs, definition_terms(body), problems)

    if problems:
        print("check_complete: the documentation is incomplete:", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        return 1
    print(f"check_complete: {len(ioctls)} ioctls, {len(params)} module parameters "
          f"and {len(attrs)} sysfs attributes are all documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
