#!/usr/bin/env python3
"""The files of rtl/rtl.f that one top module needs, in rtl/rtl.f's order (synth/flow.sh).

Yosys numbers the cells and wires it creates across everything it reads, and ABC's mapping follows the
netlist's order: the same unit read beside other, unrelated modules maps to a few per cent more or less
area and delay (docs/synthesis.md).  Reading only the unit's own files keeps its row where it is when
rtl/ gains files it does not use.

A file is needed when a needed file names a module, interface or package it defines (an instantiation,
`pkg::x` or `import pkg::*`), counting the text of the files it `include`s: a name that only looks like
a use (in a string, say) brings in a file too many, never one too few.

usage: rtl_files.py [--list RTL_F] TOP [EXTRA.sv ...]
       rtl_files.py [--list RTL_F] --all | --incdirs
Prints the files, space-separated.  EXTRA files (outside rtl/rtl.f, read after it) may define TOP and
use rtl/'s modules.  --all: every file of the list; --incdirs: its include directories as -IDIR (the
form Yosys' read_verilog and Verilator take).  This is the one reader of rtl/rtl.f's syntax for the
scripts (Verilator reads it itself with -f).  Exit status 2, with a one-line error, when no file defines
TOP or a file is missing.
"""
import os
import re
import sys

DEFINES = re.compile(r"^\s*(?:module|interface|package)\s+(?:automatic\s+|static\s+)?([A-Za-z_]\w*)", re.M)
INCLUDE = re.compile(r'^\s*`include\s+"([^"]+)"', re.M)
IDENT = re.compile(r"[A-Za-z_]\w*")


def fail(msg):
    print(f"rtl_files.py: {msg}", file=sys.stderr)
    sys.exit(2)


def strip_comments(text):
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def read_list(path):
    """rtl/rtl.f: (files, include directories)."""
    files, incdirs = [], []
    for line in open(path):
        item = line.split("//", 1)[0].strip()
        if item.startswith("+incdir+"):
            incdirs.append(item[len("+incdir+"):])
        elif item:
            files.append(item)
    return files, incdirs


def source(path, incdirs, seen=None):
    """A file's text, comments removed, with the text of its `include files (found in incdirs)."""
    seen = set() if seen is None else seen
    if path in seen:
        return ""
    seen.add(path)
    try:
        text = strip_comments(open(path).read())
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    for inc in INCLUDE.findall(text):
        found = next((os.path.join(d, inc) for d in incdirs if os.path.exists(os.path.join(d, inc))), None)
        if found:
            text += "\n" + source(found, incdirs, seen)
    return text


def needed(files, extra, incdirs, top):
    text = {f: source(f, incdirs) for f in files + extra}
    defines = {f: set(DEFINES.findall(t)) for f, t in text.items()}
    uses = {f: set(IDENT.findall(t)) - defines[f] for f, t in text.items()}
    roots = [f for f in files + extra if top in defines[f]] + extra
    if not any(top in defines[f] for f in roots):
        fail(f"no file of rtl/rtl.f{' or ' + ' '.join(extra) if extra else ''} defines module {top}")
    keep, todo = set(), list(roots)
    while todo:
        f = todo.pop()
        if f in keep:
            continue
        keep.add(f)
        todo += [g for g in files if g not in keep and defines[g] & uses[f]]
    return [f for f in files if f in keep]


def main(argv):
    list_path = "rtl/rtl.f"
    if argv[:1] == ["--list"] and len(argv) >= 2:
        list_path, argv = argv[1], argv[2:]
    whole = argv in (["--all"], ["--incdirs"])
    if not argv or (argv[0].startswith("-") and not whole):
        fail("usage: rtl_files.py [--list RTL_F] TOP [EXTRA.sv ...] | --all | --incdirs")
    try:
        files, incdirs = read_list(list_path)
    except OSError as e:
        fail(f"{list_path}: {e.strerror}")
    if argv == ["--all"]:
        print(" ".join(files))
    elif argv == ["--incdirs"]:
        print(" ".join("-I" + d for d in incdirs))
    else:
        print(" ".join(needed(files, argv[1:], incdirs, argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
