#!/usr/bin/env python3
"""Finds and prepares the Liberty file that `make synth` maps onto (docs/synthesis.md, "The library").

    liberty.py resolve [LIB]      LIB (make synth LIB=..., SYNTH_LIBRARY): nangate45, sky130hd, cells45,
                                  auto (the default) or a path to a .lib or .lib.gz file

Prints shell assignments (LIB_NAME, LIB_FILE, LIB_SOURCE, LIB_REAL, LIB_NOTE, TIE_LO, TIE_HI, BUF, FF_CELLS,
DFF, CLK_Q_NS, SETUP_NS, TIME_UNIT_PS: the library's time unit, in which OpenSTA reads an SDC, WIRE_LOAD,
FF_NAMING: build/synth-lib/NAME.ffnames.ys, the Yosys commands that name the flip-flops, ff_naming below)
for synth/synth.sh to eval; a one-line error naming LIB and exit 2 when it
cannot be had.

Where a real library is looked for: the entries of SYNTH_LIB (a colon-separated list of Liberty files or
folders; when it is set, it is the whole search path, and `auto` takes a file named there first), else $PDK_ROOT (sky130A/libs.ref/...), the
OpenROAD-flow-scripts platforms under $FLOW_HOME, and the folder `shared/liberty` beside the repository
(this workplace's copies).  `auto` takes the first of nangate45, sky130hd found there; with none it falls
back to synth/cells45.lib, the project's own approximate library, and says so in LIB_NOTE.

The file the flow reads is a copy in build/synth-lib/NAME.lib: decompressed (.lib.gz), the cells of the
library's dont_use list below removed (Yosys 0.23's abc has no -dont_use), and the `default_wire_load`
attributes removed, so that OpenSTA times without a wire load unless the SDC names one (synth/sta.py names
the library's default one for the reported period, WIRE_LOAD).
"""
import gzip
import os
import re
import shlex
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BUILD = os.path.join(ROOT, "build", "synth-lib")
CELLS45 = os.path.join(ROOT, "synth", "cells45.lib")

# The cells the mapper must not use, by the cell-name prefix of the library: sky130's non-logic cells
# (low-power flow cells, probes, delay gates and clock-tree buffers/inverters, whose timing is tuned for
# clock trees), and the physical-only cells (no function: ABC ignores them anyway).
DONT_USE = {
    "sky130_fd_sc_hd__": ("lpflow", "probe", "dlygate", "dlymetal", "clkdlybuf", "clkbuf", "clkinv",
                          "diode", "fill", "tap", "decap"),
}

# Where a library of each name is found, relative to a search folder (the first match wins).
NAMES = {
    "nangate45": ("nangate45*.lib", "nangate45*.lib.gz", "NangateOpenCellLibrary_typical.lib",
                  "NangateOpenCellLibrary_typical.lib.gz",
                  "platforms/nangate45/lib/NangateOpenCellLibrary_typical.lib"),
    "sky130hd": ("sky130hd*.lib", "sky130hd*.lib.gz", "sky130_fd_sc_hd__tt_025C_1v80.lib",
                 "sky130_fd_sc_hd__tt_025C_1v80.lib.gz",
                 "sky130A/libs.ref/sky130_fd_sc_hd/lib/sky130_fd_sc_hd__tt_025C_1v80.lib",
                 "platforms/sky130hd/lib/sky130_fd_sc_hd__tt_025C_1v80.lib"),
}


class Bad(Exception):
    pass


def search_path():
    """The folders and files searched for a real library, in order."""
    if "SYNTH_LIB" in os.environ:
        return [p for p in os.environ["SYNTH_LIB"].split(":") if p]
    out = []
    if os.environ.get("PDK_ROOT"):
        out.append(os.environ["PDK_ROOT"])
    if os.environ.get("FLOW_HOME"):
        out.append(os.environ["FLOW_HOME"])
    out.append(os.path.join(os.path.dirname(ROOT), "shared", "liberty"))
    return out


def find(name):
    """The first file of library NAME on the search path, or None."""
    import glob
    for entry in search_path():
        if os.path.isfile(entry):
            base = os.path.basename(entry)
            if any(glob.fnmatch.fnmatch(base, os.path.basename(p)) for p in NAMES[name]):
                return entry
            continue
        for pat in NAMES[name]:
            hits = sorted(glob.glob(os.path.join(entry, pat)))
            if hits:
                return hits[0]
    return None


def read_text(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", errors="replace") as f:
            return f.read()
    except OSError as e:
        raise Bad(f"{path}: {e.strerror or e}")


# --- a small Liberty parser: groups, simple and complex attributes ---------------------------------------
TOKEN = re.compile(r'/\*.*?\*/|//[^\n]*|\\\n|"(?:[^"\\]|\\.)*"|[{}();:,]|[^\s{}();:,"]+', re.S)


class Group:
    def __init__(self, kind, args):
        self.kind, self.args, self.attrs, self.groups = kind, args, {}, []

    def sub(self, kind):
        return [g for g in self.groups if g.kind == kind]

    @property
    def name(self):
        return self.args[0] if self.args else ""


def parse(text):
    toks = [t for t in TOKEN.findall(text) if not t.startswith(("/*", "//")) and t != "\\\n"]
    pos = 0
    root = Group("root", [])
    stack = [root]
    n = len(toks)
    while pos < n:
        t = toks[pos]
        if t == "}":
            stack.pop()
            pos += 1
            if pos < n and toks[pos] == ";":
                pos += 1
            continue
        if t == ";":
            pos += 1
            continue
        name = t
        pos += 1
        if pos < n and toks[pos] == ":":  # simple attribute: name : value ;
            val = []
            pos += 1
            while pos < n and toks[pos] not in (";", "}") and not (toks[pos + 1:pos + 2] == [":"] and val):
                val.append(toks[pos])
                pos += 1
            stack[-1].attrs[name] = " ".join(v.strip('"') for v in val)
            continue
        if pos < n and toks[pos] == "(":
            args = []
            pos += 1
            while toks[pos] != ")":
                if toks[pos] not in (",", "\\"):
                    args.append(toks[pos].strip('"'))
                pos += 1
            pos += 1
            if pos < n and toks[pos] == "{":
                g = Group(name, args)
                stack[-1].groups.append(g)
                stack.append(g)
                pos += 1
            else:  # complex attribute: name (args) ;
                stack[-1].attrs.setdefault(name, args)
            continue
    return root.groups[0] if root.groups else None


def numbers(s):
    return [float(x) for x in re.split(r"[,\s\\]+", s) if x]


def table_at(group, templates, want):
    """A table group's value at want = {variable: value} (linear inter/extrapolation, first index of any
    variable not named)."""
    vals = [numbers(v) for v in group.attrs.get("values", [])]
    if not vals:
        return None
    tmpl = templates.get(group.name)
    if tmpl is None or group.name == "scalar":
        return vals[0][0]
    axes = []
    for i in (1, 2):
        var = tmpl.attrs.get(f"variable_{i}")
        if var is None:
            break
        idx = group.attrs.get(f"index_{i}") or tmpl.attrs.get(f"index_{i}")
        axes.append((var, numbers(idx[0]) if idx else [0.0]))

    def pick(index, x):
        if x is None or len(index) == 1:
            return 0, 0.0
        j = max(0, min(len(index) - 2, sum(1 for v in index if v <= x) - 1))
        return j, (x - index[j]) / (index[j + 1] - index[j])

    if len(axes) == 1:
        row = vals[0] if len(vals) == 1 else [v[0] for v in vals]
        j, f = pick(axes[0][1], want.get(axes[0][0]))
        return row[j] + f * (row[min(j + 1, len(row) - 1)] - row[j])
    (v1, i1), (v2, i2) = axes
    j1, f1 = pick(i1, want.get(v1))
    j2, f2 = pick(i2, want.get(v2))
    at = lambda a, b: vals[min(a, len(vals) - 1)][min(b, len(vals[0]) - 1)]  # noqa: E731
    lo = at(j1, j2) + f2 * (at(j1, j2 + 1) - at(j1, j2))
    hi = at(j1 + 1, j2) + f2 * (at(j1 + 1, j2 + 1) - at(j1 + 1, j2))
    return lo + f1 * (hi - lo)


def bare(expr):
    """A Liberty pin expression without its spaces and parentheses: "(IQ)" -> "IQ"."""
    return re.sub(r"[\s()]", "", expr)


def pin_function(pin):
    return bare(pin.attrs.get("function", ""))


# the suffix synth/synth_unit.sh gives a flip-flop's instance after its register (ff_naming), which
# synth/sta.py strips to name a path's start and end
FF_NAME_SUFFIX = "_reg"


def facts(lib):
    """The cells the flow names (tie low/high, buffer, the plain D flip-flop) and the flip-flop's clock->Q
    (at the smallest input slew, driving four D pins) and setup (at the smallest slews), in the library's
    time unit."""
    templates = {t.name: t for t in lib.sub("lu_table_template")}
    cells = [c for c in lib.sub("cell") if c.attrs.get("dont_use", "false") != "true"
             or c.sub("pin") and any(pin_function(p) in ("0", "1") for p in c.sub("pin"))]
    area = lambda c: float(c.attrs.get("area", "1e9"))  # noqa: E731
    tie = {}
    buf = None
    dffs = []
    for c in sorted(cells, key=area):
        pins = c.sub("pin")
        outs = [p for p in pins if p.attrs.get("direction") == "output"]
        ins = [p for p in pins if p.attrs.get("direction") == "input"]
        for o in outs if not ins else []:  # a tie cell (sky130's conb has both outputs)
            if pin_function(o) in ("0", "1"):
                tie.setdefault(pin_function(o), (c.name, o.name))
        if len(outs) == 1 and len(ins) == 1 and pin_function(outs[0]) == ins[0].name \
                and buf is None:
            buf = (c.name, ins[0].name, outs[0].name)
        ff = c.sub("ff")
        if ff and len(ins) == 2 and not any(k in ff[0].attrs for k in ("clear", "preset")) \
                and bare(ff[0].attrs.get("next_state", "")) in [p.name for p in ins]:
            dffs.append(c)
    if not buf:
        raise Bad("no buffer cell (one input, one output, function the input)")
    unit = lib.attrs.get("time_unit", "1ns")
    scale = {"1ns": 1.0, "1ps": 1e-3, "10ps": 1e-2, "100ps": 0.1}.get(unit.replace(" ", ""))
    if scale is None:
        raise Bad(f"time_unit {unit} is not one of 1ns, 100ps, 10ps, 1ps")
    out = dict(TIE_LO=" ".join(tie["0"]) if "0" in tie else "", TIE_HI=" ".join(tie["1"]) if "1" in tie else "",
               BUF=" ".join(buf), FF_CELLS=" ".join(c.name for c in lib.sub("cell") if c.sub("ff")), DFF="", CLK_Q_NS="0", SETUP_NS="0", TIME_UNIT_PS=f"{scale * 1000:g}",
               WIRE_LOAD=lib.attrs.get("default_wire_load", ""))
    if not dffs:  # the flow's dfflibmap rejects the library (its row says FAILED)
        return out
    dff = dffs[0]
    ffg = dff.sub("ff")[0]
    d_pin = next(p for p in dff.sub("pin") if p.name == bare(ffg.attrs["next_state"]))
    ck = bare(ffg.attrs["clocked_on"])
    load = 4 * float(d_pin.attrs.get("capacitance", "0"))
    clk_q = 0.0
    setup = 0.0
    for p in dff.sub("pin"):
        for t in p.sub("timing"):
            if bare(t.attrs.get("related_pin", "")) != ck:
                continue
            if p.attrs.get("direction") == "output" and t.attrs.get("timing_type") == "rising_edge":
                for kind in ("cell_rise", "cell_fall"):
                    for g in t.sub(kind):
                        v = table_at(g, templates, {"total_output_net_capacitance": load})
                        clk_q = max(clk_q, v or 0.0)
            if p is d_pin and t.attrs.get("timing_type") == "setup_rising":
                for kind in ("rise_constraint", "fall_constraint"):
                    for g in t.sub(kind):
                        setup = max(setup, table_at(g, templates, {}) or 0.0)
    return dict(out, DFF=dff.name, CLK_Q_NS=f"{clk_q * scale:.4f}", SETUP_NS=f"{setup * scale:.4f}")


def ff_naming(lib):
    """The Yosys commands that name each mapped flip-flop after the register it holds, NET_reg, while the
    netlist still has the RTL's net names (synth/synth_unit.sh, after ABC: the purge that follows drops
    them).  `rename -wire` names a cell after the net of its one output; a flip-flop with two (NanGate's
    DFF_X1: Q and QN) takes, for the renaming only, a stand-in type whose other outputs are inputs."""
    stand_ins, single = [], []
    for c in lib.sub("cell"):
        ff = c.sub("ff")
        if not ff or not ff[0].args:
            continue
        outs = [p for p in c.sub("pin") if p.attrs.get("direction") == "output"]
        q = [p for p in outs if pin_function(p) == ff[0].args[0]]  # the pin that is the state itself, not its inverse
        if len(outs) == 1:
            single.append(c.name)
        elif len(q) == 1:
            ports = ", ".join(("output " if p is q[0] else "input ") + p.name for p in c.sub("pin"))
            stand_ins.append((c.name, f"module {c.name}__q({ports});\nendmodule\n"))
    lines = []
    if stand_ins:
        lines += ["read_verilog -lib <<EOT", *"".join(v for _, v in stand_ins).splitlines(), "EOT"]
        lines += [f"chtype -map {c} {c}__q" for c, _ in stand_ins]
    sel = [f"t:{c}" for c in single] + [f"t:{c}__q" for c, _ in stand_ins]
    if sel:
        lines.append(f"rename -wire -suffix {FF_NAME_SUFFIX} " + " ".join(sel))
    lines += [f"chtype -map {c}__q {c}" for c, _ in stand_ins]
    return "".join(l + "\n" for l in lines)


def filtered(text):
    """The library text without its dont_use cells and without default_wire_load attributes."""
    prefixes = [(p, pats) for p, pats in DONT_USE.items() if p in text]
    drop = re.compile(r'^\s*cell\s*\(\s*"?([^")\s]+)"?\s*\)\s*\{')
    out = []
    skip = 0
    dropped = 0
    for line in text.splitlines(keepends=True):
        if skip:
            skip += line.count("{") - line.count("}")
            continue
        m = drop.match(line)
        if m and prefixes:
            cell = m.group(1)
            for p, pats in prefixes:
                if cell.startswith(p) and any(cell[len(p):].startswith(x) for x in pats):
                    skip = line.count("{") - line.count("}")
                    dropped += 1
                    break
            if skip:
                continue
        if re.match(r"\s*default_wire_load(_mode|_selection)?\s*:", line):
            continue
        out.append(line)
    return "".join(out), dropped


def resolve(want):
    note = ""
    if want in ("", "auto"):  # a file named in SYNTH_LIB first, whatever its name; then the names in order
        files = [p for p in search_path() if os.path.isfile(p)] if "SYNTH_LIB" in os.environ else []
        src = (re.sub(r"\.lib(\.gz)?$", "", os.path.basename(files[0])), files[0]) if files else \
            next(((n, p) for n in NAMES for p in [find(n)] if p), None)
        if src is None:
            name, path = "cells45", CELLS45
            note = ("no real library found (searched " + (":".join(search_path()) or "nothing") +
                    "): synth/cells45.lib, the project's approximate library: its timing is approximate "
                    "(docs/synthesis.md)")
        else:
            name, path = src
    elif want == "cells45":
        name, path = "cells45", CELLS45
        note = "synth/cells45.lib, the project's approximate library: its timing is approximate (docs/synthesis.md)"
    elif want in NAMES:
        path = find(want)
        if path is None:
            raise Bad(f"library {want} not found (searched {':'.join(search_path()) or 'nothing'}; set SYNTH_LIB "
                      "to its .lib file or folder)")
        name = want
    elif want.endswith((".lib", ".lib.gz")) or "/" in want:
        if not os.path.isfile(want):
            raise Bad(f"{want}: no such Liberty file")
        path = want
        name = re.sub(r"\.lib(\.gz)?$", "", os.path.basename(want))
    else:
        raise Bad(f"unknown library '{want}' (nangate45, sky130hd, cells45, auto or a .lib/.lib.gz path)")
    path = os.path.abspath(path)
    os.makedirs(BUILD, exist_ok=True)
    out = os.path.join(BUILD, re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".lib")
    env = out[:-4] + ".env"
    if not (os.path.exists(env) and os.path.getmtime(env) >= os.path.getmtime(path)
            and os.path.getmtime(env) >= os.path.getmtime(__file__)
            and f"LIB_SOURCE={shlex.quote(path)}\n" in open(env).read()):
        text = read_text(path)
        lib = parse(text)
        if lib is None or lib.kind != "library":
            raise Bad(f"{path}: not a Liberty file (no library group)")
        f = facts(lib)
        body, dropped = filtered(text)
        with open(out + ".tmp", "w") as o:
            o.write(body)
        os.replace(out + ".tmp", out)
        naming = out[:-4] + ".ffnames.ys"
        with open(naming + ".tmp", "w") as o:
            o.write(ff_naming(lib))
        os.replace(naming + ".tmp", naming)
        real = 0 if os.path.samefile(path, CELLS45) else 1
        lines = dict(LIB_NAME=name, LIB_FILE=os.path.relpath(out, ROOT), LIB_SOURCE=path, LIB_REAL=str(real),
                     LIB_DROPPED=str(dropped), FF_NAMING=os.path.relpath(naming, ROOT), **f)
        with open(env + ".tmp", "w") as o:
            o.write("".join(f"{k}={shlex.quote(v)}\n" for k, v in lines.items()))
        os.replace(env + ".tmp", env)
    sys.stdout.write(open(env).read())
    sys.stdout.write(f"LIB_NOTE={shlex.quote(note)}\n")


def main(argv):
    if len(argv) < 1 or argv[0] != "resolve" or len(argv) > 2:
        sys.exit("usage: liberty.py resolve [nangate45|sky130hd|cells45|auto|PATH.lib[.gz]]")
    want = argv[1] if len(argv) > 1 else "auto"
    try:
        resolve(want)
    except Bad as e:
        print(f"synth: LIB={want}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
