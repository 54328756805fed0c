#!/usr/bin/env python3
"""make prove's SystemVerilog front end: what Verilator reads, made into Verilog-2005 that Yosys reads.

    sv_frontend.py --top MODULE [--param NAME=VALUE ...] [--incdir DIR ...] [--prefix P] --out FILE SRC...

Verilator 5.006 parses and elaborates the sources (`--xml-only`: parameters applied, types and widths
resolved, casts and struct members turned into extensions and bit selects, constants folded).  This
program executes that tree symbolically and writes each module as a flat netlist:

- every always_comb / always @* block and every continuous assignment becomes one expression per
  variable it drives (if/case become multiplexers; loops are unrolled at their constant bounds; function
  calls are inlined; `return`, `break` and `continue` become conditions on what follows them);
- every always_ff @(posedge clk) block becomes one next-state expression per register;
- every operator becomes one wire of the exact width Verilator gave it, so that no Verilog width or sign
  rule of the reader can change a value; signed operators (<, >>>, *, /, % on signed operands) are the
  only ones written with $signed.

The top module keeps its name (and declares its parameters, with the elaborated values, so that an
instantiation with the same overrides reads); the modules below it are renamed PREFIX + their Verilator
name.  Anything this translation does not model (an asynchronous reset, a latch, a loop whose bound is not
a constant, an operator it does not know, several drivers of one bit, ...) is refused with one line
`FILE:LINE: CONSTRUCT: why` and exit status 2: never a netlist that reads differently from the source.
Exit 3: Verilator itself refused the sources (its messages are printed).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.setrecursionlimit(1000000)


class Refused(Exception):
    """A construct this front end does not translate: reported as FILE:LINE: what, exit 2."""


def mask(w):
    return (1 << w) - 1


def sext(v, w):
    return v - (1 << w) if w and (v >> (w - 1)) & 1 else v


# ------------------------------------------------------------------------------------------------ nodes
class Node:
    """One value of the netlist: a constant, a named signal, or an operator on other nodes."""
    __slots__ = ("op", "w", "args", "val", "id")

    def __init__(self, op, w, args, val, nid):
        self.op, self.w, self.args, self.val, self.id = op, w, args, val, nid

    @property
    def const(self):
        return self.op == "const"


class Graph:
    """Hash-consed nodes with constant folding: equal expressions are one node."""

    def __init__(self):
        self.table = {}
        self.nodes = []

    def mk(self, op, w, args=(), val=None):
        key = (op, w, tuple(a.id for a in args), val)
        n = self.table.get(key)
        if n is None:
            n = Node(op, w, tuple(args), val, len(self.nodes))
            self.table[key] = n
            self.nodes.append(n)
        return n

    def const(self, v, w):
        return self.mk("const", w, (), v & mask(w))

    def sig(self, name, w):
        return self.mk("sig", w, (), name)

    # every operator: folded when its operands are constants, simplified where the result is plain
    def op(self, op, w, *args, val=None):
        if all(a.const for a in args):
            return self.const(fold(op, w, [a.val for a in args], [a.w for a in args], val), w)
        if op == "cond":
            c, t, e = args
            if t is e:
                return t
        if op == "sel" and args[1].const:
            return self.sel(args[0], args[1].val, w)
        if op == "concat":
            return self.concat(args)
        if op in ("and", "or") and w == 1 and len(args) == 2:
            for a, b in (args, args[::-1]):
                if a.const:
                    if op == "and":
                        return b if a.val else a
                    return a if a.val else b
        return self.mk(op, w, args, val)

    def sel(self, x, lsb, w):
        """Bits [lsb, lsb + w) of x (a constant lsb), looked through selects, concatenations and
        extensions, so that bits a splice replaced are no longer read (the latch check relies on it)."""
        if lsb >= x.w:
            return self.const(0, w)
        if lsb == 0 and w == x.w:
            return x
        if lsb + w > x.w:  # bits past the top read 0
            return self.concat((self.const(0, lsb + w - x.w), self.sel(x, lsb, x.w - lsb)))
        if x.op == "sel" and x.args[1].const:
            return self.sel(x.args[0], x.args[1].val + lsb, w)
        if x.op == "cond":  # a select of a multiplexer: the multiplexer of the selects
            c, t, e = x.args
            return self.op("cond", w, c, self.sel(t, lsb, w), self.sel(e, lsb, w))
        if x.op in ("extend", "extends") and lsb + w <= x.args[0].w:
            return self.sel(x.args[0], lsb, w)
        if x.op == "extend" and lsb >= x.args[0].w:
            return self.const(0, w)
        if x.op == "concat":
            parts, off = [], x.w
            for p in x.args:  # the first part is the most significant
                off -= p.w
                lo, hi = max(lsb, off), min(lsb + w, off + p.w)
                if lo < hi:
                    parts.append(self.sel(p, lo - off, hi - lo))
            return self.concat(parts)
        return self.mk("sel", w, (x, self.const(lsb, 32)), w)

    def concat(self, parts):
        """{parts} with neighbouring selects of one signal joined and constants merged."""
        flat = []
        for p in parts:
            flat.extend(p.args if p.op == "concat" else [p])
        out = []
        for p in flat:
            if out:
                q = out[-1]
                if (q.op == "sel" and p.op == "sel" and q.args[0] is p.args[0] and q.args[1].const
                        and p.args[1].const and p.args[1].val + p.w == q.args[1].val):
                    out[-1] = self.sel(q.args[0], p.args[1].val, q.w + p.w)
                    continue
                if q.const and p.const:
                    out[-1] = self.const((q.val << p.w) | p.val, q.w + p.w)
                    continue
            out.append(p)
        if len(out) == 1:
            return out[0]
        return self.mk("concat", sum(p.w for p in out), tuple(out), None)

    def resize(self, n, w, signed=False):
        if n.w == w:
            return n
        if n.w > w:
            return self.op("sel", w, n, self.const(0, 32), val=w)
        return self.op("extends" if signed else "extend", w, n)

    def truth(self, n):
        return n if n.w == 1 else self.op("redor", 1, n)

    def mux(self, c, t, e):
        return self.op("cond", t.w, self.truth(c), t, e)

    def splice(self, base, lsb, val):
        """base with bits [lsb, lsb + val.w) replaced by val (a constant lsb)."""
        parts = []
        hi = lsb + val.w
        if hi < base.w:
            parts.append(self.op("sel", base.w - hi, base, self.const(hi, 32), val=base.w - hi))
        parts.append(self.resize(val, min(val.w, base.w - lsb)))
        if lsb > 0:
            parts.append(self.op("sel", lsb, base, self.const(0, 32), val=lsb))
        return parts[0] if len(parts) == 1 else self.op("concat", base.w, *parts)


SIGNED_OPS = {"lts", "ltes", "gts", "gtes", "muls", "divs", "moddivs", "shiftrs", "extends"}


def fold(op, w, v, ws, val):
    """The value of an operator on constants, as Verilator computes it (two-state, 0 for x / 0)."""
    m = mask(w)
    if op in ("add", "sub", "mul", "and", "or", "xor"):
        a, b = v
        r = {"add": a + b, "sub": a - b, "mul": a * b, "and": a & b, "or": a | b, "xor": a ^ b}[op]
        return r & m
    if op == "muls":
        return (sext(v[0], ws[0]) * sext(v[1], ws[1])) & m
    if op in ("div", "moddiv"):
        a, b = v
        return 0 if b == 0 else (a // b if op == "div" else a % b) & m
    if op in ("divs", "moddivs"):
        a, b = sext(v[0], ws[0]), sext(v[1], ws[1])
        if b == 0:
            return 0
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return (q if op == "divs" else a - q * b) & m
    if op == "not":
        return ~v[0] & m
    if op == "negate":
        return -v[0] & m
    if op == "redand":
        return int(v[0] == mask(ws[0]))
    if op == "redor":
        return int(v[0] != 0)
    if op == "redxor":
        return bin(v[0]).count("1") & 1
    if op == "countones":
        return bin(v[0]).count("1") & m
    if op == "onehot":
        return int(bin(v[0]).count("1") == 1)
    if op == "onehot0":
        return int(bin(v[0]).count("1") <= 1)
    if op == "lognot":
        return int(v[0] == 0)
    if op == "logand":
        return int(v[0] != 0 and v[1] != 0)
    if op == "logor":
        return int(v[0] != 0 or v[1] != 0)
    if op in ("logeq", "logif"):
        a, b = v[0] != 0, v[1] != 0
        return int(a == b) if op == "logeq" else int((not a) or b)
    if op in ("eq", "neq", "lt", "lte", "gt", "gte"):
        a, b = v
        return int({"eq": a == b, "neq": a != b, "lt": a < b, "lte": a <= b, "gt": a > b, "gte": a >= b}[op])
    if op in ("lts", "ltes", "gts", "gtes"):
        a, b = sext(v[0], ws[0]), sext(v[1], ws[1])
        return int({"lts": a < b, "ltes": a <= b, "gts": a > b, "gtes": a >= b}[op])
    if op == "shiftl":
        return (v[0] << v[1]) & m if v[1] < w else 0
    if op == "shiftr":
        return (v[0] >> v[1]) & m
    if op == "shiftrs":
        return (sext(v[0], ws[0]) >> min(v[1], ws[0] + 1)) & m
    if op == "sel":  # val: width; args: from, lsb
        return (v[0] >> v[1]) & m
    if op == "concat":
        r = 0
        for x, xw in zip(v, ws):
            r = (r << xw) | x
        return r & m
    if op == "replicate":
        r = 0
        for _ in range(val):
            r = (r << ws[0]) | v[0]
        return r & m
    if op == "extend":
        return v[0] & m
    if op == "extends":
        return sext(v[0], ws[0]) & m
    if op == "cond":
        return v[1] if v[0] else v[2]
    raise AssertionError(op)


# ------------------------------------------------------------------------------------------ the XML tree
BINARY = {"add", "sub", "mul", "muls", "div", "divs", "moddiv", "moddivs", "and", "or", "xor",
          "eq", "neq", "lt", "lte", "gt", "gte", "lts", "ltes", "gts", "gtes", "logand", "logor",
          "logeq", "logif", "shiftl", "shiftr", "shiftrs", "eqcase", "neqcase"}
UNARY = {"not", "negate", "redand", "redor", "redxor", "lognot", "countones", "onehot", "onehot0"}
IGNORED_STMTS = {"display", "finish", "stop", "typedef", "comment"}


class Var:
    """A variable: a module signal (key = its netlist name) or a procedural local (key unique)."""
    __slots__ = ("key", "w", "n", "signed", "local", "loc")

    def __init__(self, key, w, n, signed, local, loc):
        self.key, self.w, self.n, self.signed, self.local, self.loc = key, w, n, signed, local, loc


class Design:
    def __init__(self, root, prefix, top):
        self.prefix, self.top = prefix, top
        self.files = {f.get("id"): f.get("filename") for f in root.iter("file")}
        self.src = {}
        self.types = {t.get("id"): t for t in root.find("netlist").find("typetable")}
        self.modules = {m.get("name"): m for m in root.find("netlist").findall("module")}
        self.packages = root.find("netlist").findall("package")
        self.funcs = {}
        self.pkg_consts = {}
        for p in self.packages:
            for f in p.iter("func"):
                self.funcs.setdefault(f.get("name"), f)
            for v in p.findall("var"):
                if len(v) and (v.get("param") or v.get("localparam")):
                    self.pkg_consts[v.get("name")] = v

    # where a node comes from, for the messages
    def where(self, el):
        loc = (el.get("loc") or "").split(",") if el is not None else []
        if len(loc) >= 2 and loc[0] in self.files:
            return f"{self.files[loc[0]]}:{loc[1]}"
        return "?"

    def refuse(self, el, what):
        raise Refused(f"{self.where(el)}: {what}")

    def text_at(self, el):
        """The source text a node's location spans on its first line (a keyword: return, casez, ...)."""
        loc = (el.get("loc") or "").split(",")
        if len(loc) < 5 or loc[0] not in self.files:
            return ""
        fn = self.files[loc[0]]
        if fn not in self.src:
            try:
                with open(fn, encoding="utf-8", errors="replace") as fh:
                    self.src[fn] = fh.read().split("\n")
            except OSError:
                self.src[fn] = []
        lines = self.src[fn]
        l1, c1, l2, c2 = int(loc[1]), int(loc[2]), int(loc[3]), int(loc[4])
        if not 0 < l1 <= len(lines):
            return ""
        line = lines[l1 - 1]
        return line[c1 - 1:(c2 - 1) if l2 == l1 else len(line)]

    # ----- types
    def dtype(self, el, tid=None):
        """(width, elements or None for a scalar, signed) of a node's data type."""
        tid = tid or el.get("dtype_id")
        t = self.types.get(tid)
        if t is None:
            self.refuse(el, f"unknown data type {tid}")
        tag = t.tag
        if tag in ("refdtype", "enumdtype", "memberdtype"):
            return self.dtype(el, t.get("sub_dtype_id"))
        if tag == "basicdtype":
            if t.get("name") in ("string", "real", "shortreal", "realtime", "chandle", "event"):
                self.refuse(el, f"a variable of type {t.get('name')}")
            if t.get("left") is None:
                w = 1
            else:
                w = abs(int(t.get("left")) - int(t.get("right"))) + 1
            return w, None, t.get("signed") == "true"
        if tag == "structdtype" or tag == "uniondtype":
            if t.get("packed") == "false":
                self.refuse(el, "an unpacked struct")
            ws = [self.dtype(el, m.get("sub_dtype_id"))[0] for m in t.findall("memberdtype")]
            return (sum(ws) if tag == "structdtype" else max(ws)), None, False
        if tag == "packarraydtype":
            sub = self.dtype(el, t.get("sub_dtype_id"))[0]
            return sub * self.range_len(el, t), None, False
        if tag == "unpackarraydtype":
            sw, sn, ss = self.dtype(el, t.get("sub_dtype_id"))
            if sn is not None:
                self.refuse(el, "an unpacked array of arrays")
            return sw, self.range_len(el, t), ss
        if tag == "voiddtype":
            return 0, None, False
        self.refuse(el, f"a variable of type {tag}")

    def range_len(self, el, t):
        r = t.find("range")
        if r is None or len(r) != 2 or any(c.tag != "const" for c in r):
            self.refuse(el, "an array range that is not two constants")
        a, b = (parse_const(self, c)[0] for c in r)
        return abs(a - b) + 1


def parse_const(d, el):
    """(value, width) of a <const name="8'h1f"> (x and z bits as 0), or a refusal."""
    text = el.get("name").replace("&apos;", "'")
    m = re.fullmatch(r"(\d+)'(s?)([bhdo])([0-9a-fA-FxXzZ?_]+)", text)
    if not m:
        d.refuse(el, f"the constant {text}")
    w, base, digits = int(m.group(1)), m.group(3), m.group(4)
    clean = re.sub(r"[xXzZ?]", "0", digits.replace("_", ""))
    return int(clean, {"b": 2, "h": 16, "d": 10, "o": 8}[base]) & mask(w), w


def case_mask(d, el):
    """For a casez/casex item: (value, care mask) with ?/z (and x for casex) as don't care."""
    text = el.get("name").replace("&apos;", "'")
    m = re.fullmatch(r"(\d+)'s?([bh])([0-9a-fA-FxXzZ?_]+)", text)
    if not m:
        return None
    w, base, digits = int(m.group(1)), m.group(2), m.group(3).replace("_", "")
    bits = ""
    for ch in digits:
        if base == "b":
            bits += ch
        else:
            bits += ch * 4 if ch in "xXzZ?" else format(int(ch, 16), "04b")
    bits = bits[-w:].rjust(w, "0")
    care = int("".join("0" if c in "xXzZ?" else "1" for c in bits), 2)
    val = int("".join(c if c in "01" else "0" for c in bits), 2)
    return val, care, w


# --------------------------------------------------------------------------------- symbolic execution
class Module:
    """One module of the XML, translated: drivers per signal bit range, registers, instances."""

    def __init__(self, d, xml, name):
        self.d, self.xml, self.name = d, xml, name
        self.g = Graph()
        self.vars = {}          # key -> Var (module signals)
        self.scopes = [{}]      # static name scopes: generate blocks nest
        self.drivers = {}       # key -> [(lsb, width, node, element or None, where)]
        self.regs = {}          # key -> (edge, clock node, next node or list)
        self.instances = []     # (module name, instance name, [(port, dir, width, node or out sig)])
        self.params = []        # (name, value) of the top's parameters
        self.temps = {}         # key -> block: module variables a clocked block assigns with =
        self.net_assigns = []   # (var, <var> element): declaration assignments, made drivers after the scan
        self.funcs = {}
        self.outputs, self.inputs = [], []
        self.uniq = 0
        self.names = set()

    def fresh(self, base):
        base = re.sub(r"[^A-Za-z0-9_]", "_", base).strip("_") or "v"
        if base[0].isdigit():
            base = "v" + base
        name = base
        while name in self.names:
            self.uniq += 1
            name = f"{base}__{self.uniq}"
        self.names.add(name)
        return name

    def lookup(self, name, el, local_scopes=()):
        for sc in reversed(local_scopes):
            if name in sc:
                return sc[name]
        for sc in reversed(self.scopes):
            if name in sc:
                return sc[name]
        if name in self.d.pkg_consts:
            v = self.d.pkg_consts[name]
            return ("const", self.const_of(v))
        self.d.refuse(el, f"the name {name} (not a variable this front end can see)")

    def const_of(self, var_el):
        n = Exec(self, {}, []).expr(var_el[0])
        if not n.const:
            self.d.refuse(var_el, f"parameter {var_el.get('name')} whose value is not a constant")
        w, _, s = self.d.dtype(var_el)
        return self.g.resize(n, w, s)

    # ----- module items
    def build(self, is_top):
        self.initials = []
        self.items(self.xml, "", is_top)
        for el in self.initials:  # after every scope is declared: Verilator may put them outside it
            self.initial(el)

    def declare(self, v, scope_prefix, is_top):
        name = v.get("name")
        if v.get("param") or v.get("localparam"):
            if len(v) == 0:
                self.d.refuse(v, f"parameter {name} without a value")
            c = self.const_of(v)
            self.scopes[-1][name] = ("const", c)
            if is_top and v.get("param") and not scope_prefix:
                self.params.append((name, c))
            return
        w, n, s = self.d.dtype(v)
        if v.get("dir") in ("inout", "ref"):
            self.d.refuse(v, f"port {name} of direction {v.get('dir')}")
        if v.get("dir") and n is not None:
            self.d.refuse(v, f"port {name}: an unpacked array port")
        key = self.fresh(v.get("name") if not v.get("dir") else name) if not scope_prefix else \
            self.fresh(scope_prefix + "__" + name)
        if v.get("dir"):
            if key != name:
                self.d.refuse(v, f"port {name}: its name clashes")
            (self.inputs if v.get("dir") == "input" else self.outputs).append(key)
        var = Var(key, w, n, s, False, v)
        self.vars[key] = var
        self.scopes[-1][name] = var
        if len(v):
            # a net declaration assignment (wire x = e; also Verilator's form of `assign x = constant`)
            if n is not None:
                self.d.refuse(v, f"a declaration assignment to array {name}")
            self.net_assigns.append((var, v))

    def items(self, parent, scope_prefix, is_top):
        # declarations first (a name is visible in its whole scope), then the processes
        for el in parent:
            if el.tag == "var":
                self.declare(el, scope_prefix, is_top)
            elif el.tag == "func" or el.tag == "task":
                self.funcs[el.get("name")] = el
        while self.net_assigns:
            var, v = self.net_assigns.pop(0)
            val = Exec(self, {}, []).expr(v[0])
            self.add_driver(var, 0, var.w, self.g.resize(val, var.w, self.d.dtype(v[0])[2] if v[0].get("dtype_id") else False), None, v)
        for el in parent:
            tag = el.tag
            if tag in ("var", "func", "typedef", "task"):
                continue  # declared above; a task is refused where it is called
            if tag == "begin":
                name = el.get("name") or "blk"
                self.scopes.append({})
                self.items(el, (scope_prefix + "__" if scope_prefix else "") + name, is_top)
                self.scopes.pop()
            elif tag == "contassign":
                self.contassign(el)
            elif tag == "always":
                self.always(el)
            elif tag == "instance":
                self.instance(el, scope_prefix)
            elif tag in ("initial", "initialstatic", "final"):
                self.initials.append(el)
            elif tag in ("alwayspublic", "assertintrinsic", "cover", "assert", "restrict"):
                continue
            else:
                self.d.refuse(el, f"the module item <{tag}>")

    def initial(self, el):
        """An initial block is read only where it repeats a declaration assignment (Verilator writes
        `assign x = constant` as x's value plus such a block); a power-up value is refused."""
        for st in el:
            if st.tag in IGNORED_STMTS:
                continue
            ok = (el.tag == "initial" and st.tag == "assign" and st[1].tag == "varref")
            if ok:
                ok = st[0].tag == "const" and any(
                    v.loc.get("name") == st[1].get("name") and len(v.loc) and v.loc[0].tag == "const"
                    and v.loc[0].get("name") == st[0].get("name") for v in self.vars.values())
            if not ok:
                self.d.refuse(st, "an initial block or a variable's initial value (a power-up value "
                                  "make prove does not model: registers start at 0, or from any value with INIT=any)")

    def add_driver(self, var, lsb, w, node, elem, el):
        self.drivers.setdefault(var.key, []).append((lsb, w, node, elem, el))

    def lvalue_static(self, el, scopes=()):
        """A continuous lvalue: (var, element or None, lsb, width), constants only."""
        tag = el.tag
        if tag == "varref":
            v = self.lookup(el.get("name"), el, scopes)
            if not isinstance(v, Var):
                self.d.refuse(el, f"an assignment to parameter {el.get('name')}")
            return v, None, 0, v.w
        if tag == "sel":
            v, e, lsb, _ = self.lvalue_static(el[0], scopes)
            x = Exec(self, {}, []).expr(el[1])
            if not x.const:
                self.d.refuse(el, "a continuous assignment to a bit select whose index is not a constant")
            w = parse_const(self.d, el[2])[0] if el[2].tag == "const" else None
            if w is None:
                self.d.refuse(el, "a select whose width is not a constant")
            return v, e, lsb + x.val, w
        if tag == "arraysel":
            v, e, lsb, _ = self.lvalue_static(el[0], scopes)
            if v.n is None or e is not None:
                self.d.refuse(el, "an array select of a variable that is not an array")
            x = Exec(self, {}, []).expr(el[1])
            if not x.const:
                self.d.refuse(el, "a continuous assignment to an array element whose index is not a constant")
            if x.val >= v.n:
                self.d.refuse(el, "a continuous assignment to an array element out of range")
            return v, x.val, 0, v.w
        self.d.refuse(el, f"a continuous assignment to <{tag}>")

    def contassign(self, el):
        rhs = Exec(self, {}, []).expr(el[0])
        self.assign_static(el[1], rhs, el)

    def assign_static(self, lhs, rhs, el):
        if lhs.tag == "concat":
            off = rhs.w
            for part in lhs:
                v, e, lsb, w = self.lvalue_static(part)
                off -= w
                self.add_driver(v, lsb, w, self.g.op("sel", w, rhs, self.g.const(off, 32), val=w), e, el)
            return
        v, e, lsb, w = self.lvalue_static(lhs)
        self.add_driver(v, lsb, w, self.g.resize(rhs, w), e, el)

    def always(self, el):
        sentree = el.find("sentree")
        body = [c for c in el if c.tag != "sentree"]
        kw = self.d.text_at(el).strip()
        if kw.startswith("always_latch"):
            self.d.refuse(el, "always_latch (a latch)")
        edges = []
        if sentree is not None:
            for s in sentree.findall("senitem"):
                et = s.get("edgeType")
                if et in ("POS", "NEG"):
                    edges.append((et, s))
                elif et in ("COMBO", "CHANGED", "ANY", "BOTH", None):
                    pass
                else:
                    self.d.refuse(s, f"a sensitivity of kind {et}")
            if edges and len(edges) != len(sentree.findall("senitem")):
                self.d.refuse(sentree, "a sensitivity list mixing edges and levels")
        if len(edges) > 1:
            self.d.refuse(el, "an always block on several edges (an asynchronous reset or two clocks): "
                              "make prove's port contract has a synchronous reset")
        ex = Exec(self, {}, [], nba=bool(edges))
        ex.stmts(body)
        if edges:
            et, s = edges[0]
            if len(s) != 1 or s[0].tag != "varref":
                self.d.refuse(s, "a clock that is not a plain signal")
            clk = self.lookup(s[0].get("name"), s[0])
            for key, val in ex.nba.items():
                var = self.vars.get(key)
                if var is None:
                    continue
                if key in self.regs or key in self.drivers:
                    self.d.refuse(el, f"{key}: assigned in more than one process")
                self.regs[key] = (et, clk, val, el)
            for key in ex.vals:
                if key in self.vars and key not in ex.nba and ex.changed(key):
                    self.temps[key] = el  # a blocking temporary: an error only if read outside the block
            return
        for key in ex.vals:
            var = self.vars.get(key)
            if var is None or not ex.changed(key):
                continue
            val = ex.vals[key]
            elems = val if isinstance(val, list) else [val]
            for i, x in enumerate(elems):
                name = key if var.n is None else f"{key}[{i}]"
                own = self.g.sig(name, var.w)
                if x is own:
                    continue
                # the bits this block drives: those whose value is not the signal's own bit (a block in a
                # generate loop may drive one field of a vector that others drive the rest of)
                bits = [b for b in range(var.w) if self.g.sel(x, b, 1) is not self.g.sel(own, b, 1)]
                ranges = []
                for b in bits:
                    if ranges and ranges[-1][1] == b:
                        ranges[-1][1] = b + 1
                    else:
                        ranges.append([b, b + 1])
                for lo, hi in ranges:
                    part = self.g.sel(x, lo, hi - lo)
                    if self.reads_sig(part, name):
                        self.d.refuse(el, f"{var.key}: not assigned on every path of the combinational block, "
                                          "or read before it is assigned (a latch or a loop)")
                    self.add_driver(var, lo, hi - lo, part, None if var.n is None else i, el)
        if ex.nba:
            self.d.refuse(el, "a non-blocking assignment in a combinational block")

    def reads_sig(self, root, name):
        seen, stack = set(), [root]
        while stack:
            n = stack.pop()
            if n.id in seen:
                continue
            seen.add(n.id)
            if n.op == "sig" and n.val == name:
                return True
            stack.extend(n.args)
        return False

    def instance(self, el, scope_prefix):
        mod = el.get("defName")
        if mod not in self.d.modules:
            self.d.refuse(el, f"an instance of {mod}, which is not a module of the sources (an interface?)")
        sub = self.d.modules[mod]
        ports = {v.get("name"): v for v in sub.findall("var") if v.get("dir")}
        conns = []
        iname = self.fresh((scope_prefix + "__" if scope_prefix else "") + el.get("name"))
        seen = set()
        for p in el.findall("port"):
            pname = p.get("name")
            pv = ports.get(pname)
            if pv is None:
                self.d.refuse(p, f"port {pname} of {mod}")
            seen.add(pname)
            w, n, _ = self.d.dtype(pv)
            if len(p) == 0:
                if pv.get("dir") == "input":
                    self.d.refuse(p, f"input port {pname} of instance {el.get('name')} is not connected")
                continue
            if pv.get("dir") == "input":
                conns.append((pname, "in", w, self.g.resize(Exec(self, {}, []).expr(p[0]), w)))
            else:
                wire = self.fresh(f"{iname}__{pname}")
                out = self.g.sig(wire, w)
                conns.append((pname, "out", w, wire))
                self.assign_static(p[0], out, p)
        for pname, pv in ports.items():
            if pname not in seen and pv.get("dir") == "input":
                self.d.refuse(el, f"input port {pname} of instance {el.get('name')} is not connected")
        self.instances.append((mod, iname, conns))


class Exec:
    """Symbolic execution of procedural code: vals maps a variable's key to its current value."""

    def __init__(self, mod, vals, scopes, nba=False):
        self.m, self.d, self.g = mod, mod.d, mod.g
        self.vals = vals
        self.scopes = scopes        # local name scopes (begin blocks, function bodies)
        self.nba = {} if nba else None   # a clocked block's non-blocking assignments
        self.flags = []             # keys of the jump conditions in force (return, break, continue)
        self.depth = 0

    def changed(self, key):
        v = self.vals[key]
        var = self.m.vars[key]
        if var.n is None:
            return not (v.op == "sig" and v.val == key)
        return any(not (x.op == "sig" and x.val == f"{key}[{i}]") for i, x in enumerate(v))

    # ----- values of variables
    def read(self, var):
        if var.key in self.vals:
            return self.vals[var.key]
        if var.local:
            raise AssertionError(var.key)
        if var.n is None:
            return self.g.sig(var.key, var.w)
        return [self.g.sig(f"{var.key}[{i}]", var.w) for i in range(var.n)]

    def active(self):
        """1 where the statement being executed runs: no return / break / continue taken before it."""
        a = self.g.const(1, 1)
        for f in self.flags:
            a = self.g.op("and", 1, a, self.g.op("not", 1, self.vals[f]))
        return a

    def write(self, var, val, nonblocking=False):
        store = self.vals
        if nonblocking:
            if self.nba is None:
                self.d.refuse(var.loc, "a non-blocking assignment outside a clocked block")
            store = self.nba
        act = self.active()
        if act.const and act.val == 0:
            return
        if nonblocking:
            if var.local:
                self.d.refuse(var.loc, "a non-blocking assignment to a variable local to a block")
            old = self.nba.get(var.key, self.vals_before_nba(var))
        else:
            old = self.read(var)
        if not (act.const and act.val == 1):
            if isinstance(val, list):
                val = [self.g.mux(act, v, o) for v, o in zip(val, old)]
            else:
                val = self.g.mux(act, val, old)
        store[var.key] = val

    # ----- statements
    def stmts(self, els):
        for el in els:
            self.stmt(el)

    def block(self, el):
        """A begin ... end: its declarations are new locals for the time it runs."""
        scope = {}
        self.scopes.append(scope)
        for c in el:
            if c.tag == "var":
                self.local(c, scope)
        self.stmts([c for c in el if c.tag != "var"])
        self.scopes.pop()

    def local(self, v, scope):
        if v.get("param") or v.get("localparam"):
            scope[v.get("name")] = ("const", self.m.const_of(v))
            return
        w, n, s = self.d.dtype(v)
        self.m.uniq += 1
        var = Var(f"$l{self.m.uniq}_{v.get('name')}", w, n, s, True, v)
        # a local starts at 0, as Verilator starts an automatic variable (two-state), or at its initializer
        self.vals[var.key] = self.g.const(0, w) if n is None else [self.g.const(0, w)] * n
        if len(v) and v.get("dir") is None:
            if n is not None:
                self.d.refuse(v, "an initializer of a local array")
            self.vals[var.key] = self.g.resize(self.expr(v[0]), w)
        scope[v.get("name")] = var

    def stmt(self, el):
        tag = el.tag
        if tag == "begin":
            self.block(el)
        elif tag in ("assign", "assigndly"):
            rhs = self.expr(el[0])
            self.assign(el[1], rhs, tag == "assigndly", el)
        elif tag == "if":
            self.if_(el)
        elif tag == "case":
            self.case(el)
        elif tag == "while":
            self.while_(el)
        elif tag == "jumpblock":
            self.stmts([c for c in el if c.tag != "jumplabel"])
        elif tag == "jumplabel":
            pass
        elif tag == "jumpgo":
            self.jump(el)
        elif tag == "stmtexpr":
            if len(el) != 1 or el[0].tag != "funcref":
                self.d.refuse(el, f"the statement <{el[0].tag if len(el) else 'empty'}>")
            self.call(el[0])
        elif tag in IGNORED_STMTS or tag in ("assertintrinsic", "assert", "cover", "restrict"):
            pass
        elif tag == "var":
            self.local(el, self.scopes[-1] if self.scopes else {})
        else:
            self.d.refuse(el, f"the statement <{tag}>")

    def jump(self, el):
        kw = self.d.text_at(el).strip()
        word = re.match(r"[a-z_]+", kw)
        word = word.group(0) if word else ""
        target = {"return": "$ret", "break": "$brk", "continue": "$cont"}.get(word)
        if target is None:
            self.d.refuse(el, f"a jump the front end cannot place ('{kw}': disable is not translated)")
        key = None
        for f in reversed(self.flags):
            if f.startswith(target + "#"):
                key = f
                break
        if key is None:
            self.d.refuse(el, f"'{word}' outside the construct it leaves")
        act = self.active()
        self.vals[key] = self.g.op("or", 1, self.vals[key], act)

    def fork(self):
        return dict(self.vals), (dict(self.nba) if self.nba is not None else None)

    def merge(self, cond, a, b):
        """The state after two branches: a where cond, else b."""
        out = {}
        for store_a, store_b, is_nba in ((a[0], b[0], False), (a[1], b[1], True)):
            if store_a is None:
                continue
            res = {}
            # the keys in a fixed order (a's, then b's others): the netlist the same from run to run
            for key in list(store_a) + [k for k in store_b if k not in store_a]:
                if key in store_a and key in store_b:
                    x, y = store_a[key], store_b[key]
                else:
                    var = self.m.vars.get(key)
                    if var is None:  # a local of one branch only: gone with its block
                        continue
                    base = self.read(var) if not is_nba else None
                    if is_nba:
                        base = self.vals_before_nba(var)
                    x = store_a.get(key, base)
                    y = store_b.get(key, base)
                if x is y:
                    res[key] = x
                elif isinstance(x, list):
                    res[key] = [self.g.mux(cond, p, q) for p, q in zip(x, y)]
                else:
                    res[key] = self.g.mux(cond, x, y)
            out[is_nba] = res
        self.vals = out[False]
        if self.nba is not None:
            self.nba = out[True]

    def vals_before_nba(self, var):
        if var.n is None:
            return self.g.sig(var.key, var.w)
        return [self.g.sig(f"{var.key}[{i}]", var.w) for i in range(var.n)]

    def branch(self, stmts_el):
        saved = self.fork()
        if stmts_el is not None:
            self.stmt(stmts_el)
        result = (self.vals, self.nba)
        self.vals, self.nba = dict(saved[0]), (dict(saved[1]) if saved[1] is not None else None)
        return result

    def if_(self, el):
        cond = self.g.truth(self.expr(el[0]))
        then_el = el[1] if len(el) > 1 else None
        else_el = el[2] if len(el) > 2 else None
        if len(el) > 3:
            self.d.refuse(el, "an if with more than two branches")
        if cond.const:
            chosen = then_el if cond.val else else_el
            if chosen is not None:
                self.stmt(chosen)
            return
        a = self.branch(then_el)
        b = self.branch(else_el)
        self.merge(cond, a, b)

    def case(self, el):
        kw = self.d.text_at(el).strip()
        kind = "casez" if kw.startswith("casez") else "casex" if kw.startswith("casex") else "case"
        if kw.startswith("randcase"):
            self.d.refuse(el, "randcase")
        sel = self.expr(el[0])
        items = []
        for it in el[1:]:
            if it.tag != "caseitem":
                self.d.refuse(it, f"<{it.tag}> in a case")
            conds = [c for c in it if c.tag not in STMT_TAGS]
            body = [c for c in it if c.tag in STMT_TAGS]
            items.append((it, conds, body))
        # first match wins: build the chain from the last item up
        default = [b for it, c, b in items if not c]
        if len(default) > 1:
            self.d.refuse(el, "a case with two defaults")
        plan = []
        for it, conds, body in items:
            if not conds:
                continue
            match = self.g.const(0, 1)
            for c in conds:
                match = self.g.op("or", 1, match, self.case_match(kind, sel, c))
            plan.append((match, body))
        self.case_chain(plan, default[0] if default else [])

    def case_chain(self, plan, default):
        if not plan:
            saved_scopes = list(self.scopes)
            self.stmts(default)
            self.scopes = saved_scopes
            return
        match, body = plan[0]
        if match.const:
            if match.val:
                self.stmts(body)
            else:
                self.case_chain(plan[1:], default)
            return
        saved = self.fork()
        self.stmts(body)
        a = (self.vals, self.nba)
        self.vals, self.nba = dict(saved[0]), (dict(saved[1]) if saved[1] is not None else None)
        self.case_chain(plan[1:], default)
        b = (self.vals, self.nba)
        self.vals, self.nba = dict(saved[0]), (dict(saved[1]) if saved[1] is not None else None)
        self.merge(match, a, b)

    def case_match(self, kind, sel, c):
        if c.tag == "const":
            text = c.get("name")
            wild = re.search(r"[xXzZ?]", text.split("'")[-1][1:] if "'" in text else "")
            if wild:
                if kind == "case":
                    self.d.refuse(c, "an x or z bit in the item of a plain case (casez / casex say what it means)")
                if kind == "casez" and re.search(r"[xX]", text.split("'")[-1][1:]):
                    self.d.refuse(c, "an x bit in a casez item")
                val, care, w = case_mask(self.d, c)
                s = self.g.resize(sel, max(w, sel.w))
                m = self.g.const(care, s.w)
                return self.g.op("eq", 1, self.g.op("and", s.w, s, m), self.g.const(val & care, s.w))
        x = self.expr(c)
        w = max(x.w, sel.w)
        return self.g.op("eq", 1, self.g.resize(sel, w), self.g.resize(x, w))

    def while_(self, el):
        pre, cond_el, body, incs = (el[i] if i < len(el) else None for i in range(4))
        self.m.uniq += 1
        brk, cont = f"$brk#{self.m.uniq}", f"$cont#{self.m.uniq}"
        self.vals[brk] = self.g.const(0, 1)
        self.flags.append(brk)
        control_dirty = False
        written_by_incs = set()
        for it in range(1 << 16):
            if pre is not None:
                self.stmt(pre)
            c = self.g.truth(self.control(lambda: self.expr_block(cond_el)))
            if not c.const:
                self.d.refuse(el, "a loop whose condition is not a constant after unrolling "
                                  "(a data-dependent loop bound)")
            if not c.val:
                break
            b = self.vals[brk]
            if b.const and b.val:
                break
            if not b.const:
                control_dirty = True
            self.vals[cont] = self.g.const(0, 1)
            self.flags.append(cont)
            if body is not None:
                self.stmt(body)
            self.flags.remove(cont)
            if not self.vals[cont].const:
                control_dirty = True
            for f in self.flags:
                if not self.vals[f].const:
                    control_dirty = True
            before = dict(self.vals)
            if incs is not None:
                self.control(lambda: self.stmt(incs))
            written_by_incs |= {k for k in self.vals if self.vals[k] is not before.get(k)}
        else:
            self.d.refuse(el, "a loop of more than 65,536 iterations")
        self.flags.remove(brk)
        if control_dirty:
            # the loop variables stepped as if no jump were taken: their values after the loop are not
            # the program's where a break or return is data-dependent
            for k in sorted(written_by_incs):   # a fixed order: the netlist the same from run to run
                v = self.vals[k]
                self.vals[k] = self.g.mk("poison", v.w if not isinstance(v, list) else v[0].w, (), k) \
                    if not isinstance(v, list) else v

    def control(self, fn):
        """Loop control (condition, increments) runs whatever jumps were taken in the body."""
        saved = self.flags
        self.flags = []
        try:
            return fn()
        finally:
            self.flags = saved

    def expr_block(self, el):
        if el is None:
            return self.g.const(1, 1)
        if el.tag == "begin":
            kids = list(el)
            if len(kids) != 1:
                self.d.refuse(el, "a loop condition that is not one expression")
            return self.expr(kids[0])
        return self.expr(el)

    # ----- assignments
    def assign(self, lhs, rhs, nonblocking, el):
        if lhs.tag == "concat":
            off = rhs.w
            for part in lhs:
                w = self.d.dtype(part)[0]
                off -= w
                self.assign(part, self.g.op("sel", w, rhs, self.g.const(off, 32), val=w), nonblocking, el)
            return
        var, path = self.lpath(lhs)
        cur = (self.nba.get(var.key, self.vals_before_nba(var)) if nonblocking else self.read(var))
        new = self.update(cur, path, rhs, var, lhs)
        self.write(var, new, nonblocking)

    def lpath(self, el):
        """The variable an lvalue writes and the selects down to the bits: [('arr', idx) | ('sel', lsb, w)]."""
        if el.tag == "varref":
            v = self.lookup(el)
            if not isinstance(v, Var):
                self.d.refuse(el, f"an assignment to parameter {el.get('name')}")
            return v, []
        if el.tag == "sel":
            v, p = self.lpath(el[0])
            w = self.width_const(el[2])
            return v, p + [("sel", self.expr(el[1]), w)]
        if el.tag == "arraysel":
            v, p = self.lpath(el[0])
            return v, p + [("arr", self.expr(el[1]))]
        self.d.refuse(el, f"an assignment to <{el.tag}>")

    def update(self, cur, path, val, var, el):
        if not path:
            if isinstance(cur, list):
                self.d.refuse(el, "an assignment to a whole array")
            return self.g.resize(val, cur.w)
        step = path[0]
        if step[0] == "arr":
            if not isinstance(cur, list):
                self.d.refuse(el, "an array select of a variable that is not an array")
            idx = step[1]
            out = list(cur)
            for i in range(len(cur)):
                hit = self.g.op("eq", 1, idx, self.g.const(i, idx.w)) if not idx.const else \
                    self.g.const(int(idx.val == i), 1)
                if hit.const and not hit.val:
                    continue
                new = self.update(cur[i], path[1:], val, var, el)
                out[i] = new if hit.const else self.g.mux(hit, new, cur[i])
            return out
        _, lsb, w = step
        if isinstance(cur, list):
            self.d.refuse(el, "a bit select of a whole array")
        part = self.g.op("sel", w, cur, lsb, val=w)
        new_part = self.update(part, path[1:], val, var, el)
        if lsb.const:
            if lsb.val >= cur.w:
                return cur
            return self.g.splice(cur, lsb.val, new_part)
        # a variable lsb: clear the field, or in the new bits (bits past the top fall off)
        W = cur.w
        field = self.g.op("shiftl", W, self.g.const(mask(w), W), lsb)
        kept = self.g.op("and", W, cur, self.g.op("not", W, field))
        put = self.g.op("and", W, self.g.op("shiftl", W, self.g.resize(new_part, W), lsb), field)
        return self.g.op("or", W, kept, put)

    def width_const(self, el):
        if el.tag != "const":
            self.d.refuse(el, "a select whose width is not a constant")
        return parse_const(self.d, el)[0]

    def lookup(self, el):
        return self.m.lookup(el.get("name"), el, self.scopes)

    # ----- expressions
    def expr(self, el):
        tag = el.tag
        g = self.g
        if tag == "const":
            v, w = parse_const(self.d, el)
            return g.const(v, w)
        if tag == "varref":
            v = self.lookup(el)
            if isinstance(v, tuple):
                return v[1]
            x = self.read(v)
            if isinstance(x, list):
                self.d.refuse(el, f"a whole array ({el.get('name')}) as a value")
            return x
        w = self.d.dtype(el)[0] if el.get("dtype_id") else None
        if tag in BINARY:
            if len(el) != 2:
                self.d.refuse(el, f"<{tag}> with {len(el)} operands")
            a, b = self.expr(el[0]), self.expr(el[1])
            op = {"eqcase": "eq", "neqcase": "neq"}.get(tag, tag)
            if op in ("logand", "logor", "logeq", "logif"):
                a, b = g.truth(a), g.truth(b)
            elif op in ("add", "sub", "mul", "and", "or", "xor", "div", "moddiv"):
                a, b = g.resize(a, w), g.resize(b, w)
            elif op in ("muls", "divs", "moddivs"):
                a, b = g.resize(a, w, True), g.resize(b, w, True)
            return g.op(op, w, a, b)
        if tag in UNARY:
            a = self.expr(el[0])
            if tag in ("not", "negate"):
                a = g.resize(a, w)
            elif tag == "lognot":
                a = g.truth(a)
            return g.op(tag, w, a)
        if tag in ("extend", "extends"):
            a = self.expr(el[0])
            return g.resize(a, w, tag == "extends") if a.w <= w else g.resize(a, w)
        if tag == "sel":
            src = self.expr(el[0])
            lsb = self.expr(el[1])
            width = self.width_const(el[2])
            return g.op("sel", width, src, lsb, val=width)
        if tag == "arraysel":
            base = el[0]
            if base.tag != "varref":
                self.d.refuse(el, "a select of an array that is not a variable")
            v = self.lookup(base)
            if isinstance(v, tuple) or v.n is None:
                self.d.refuse(el, "an array select of something that is not an unpacked array")
            arr = self.read(v)
            idx = self.expr(el[1])
            if idx.const:
                return arr[idx.val] if idx.val < len(arr) else g.const(0, v.w)
            out = g.const(0, v.w)  # out of range: 0, as Verilator reads it
            for i in reversed(range(len(arr))):
                if (i >> idx.w) == 0:
                    out = g.mux(g.op("eq", 1, idx, g.const(i, idx.w)), arr[i], out)
            return out
        if tag == "concat":
            parts = [self.expr(c) for c in el]
            return g.op("concat", sum(p.w for p in parts), *parts)
        if tag == "replicate":
            a = self.expr(el[0])
            n = self.expr(el[1])
            if not n.const:
                self.d.refuse(el, "a replication count that is not a constant")
            if n.val == 0:
                self.d.refuse(el, "a replication of zero")
            return g.op("replicate", a.w * n.val, a, val=n.val)
        if tag == "cond":
            c = g.truth(self.expr(el[0]))
            t, e = self.expr(el[1]), self.expr(el[2])
            t, e = g.resize(t, w), g.resize(e, w)
            return g.op("cond", w, c, t, e)
        if tag == "funcref":
            return self.call(el)
        self.d.refuse(el, f"the expression <{tag}>")

    def call(self, el):
        name = el.get("name")
        f = self.m.funcs.get(name) or self.d.funcs.get(name)
        if f is None:
            self.d.refuse(el, f"a call of {name}, a function this front end cannot find (a DPI or system function?)")
        if f.tag != "func":
            self.d.refuse(el, f"a call of task {name}")
        if self.depth > 64:
            self.d.refuse(el, f"recursion in {name}")
        args = [self.expr(a[0]) if len(a) else None for a in el.findall("arg")]
        scope = {}
        saved = (self.scopes, self.flags)
        formals = [v for v in f.findall("var") if v.get("dir") == "input"]
        ret_var = None
        for v in f.findall("var"):
            if v.get("dir") in ("output", "inout", "ref") and v.get("name") != name:
                self.d.refuse(v, f"function {name}'s {v.get('dir')} argument {v.get('name')}")
        if len(args) != len(formals) or any(a is None for a in args):
            self.d.refuse(el, f"a call of {name} with {len(args)} arguments for {len(formals)} inputs "
                              "(defaults and named arguments are not translated)")
        self.scopes, self.flags = [scope], []
        self.depth += 1
        try:
            for v in f.findall("var"):
                self.local(v, scope)
                if v.get("name") == name and v.get("dir") == "output":
                    ret_var = scope[name]
            for v, a in zip(formals, args):
                var = scope[v.get("name")]
                self.vals[var.key] = self.g.resize(a, var.w, var.signed)
            self.m.uniq += 1
            ret = f"$ret#{self.m.uniq}"
            self.vals[ret] = self.g.const(0, 1)
            self.flags = [ret]
            self.stmts([c for c in f if c.tag != "var"])
            result = self.vals[ret_var.key] if ret_var is not None else None
        finally:
            self.scopes, self.flags = saved
            self.depth -= 1
        return result


STMT_TAGS = {"begin", "assign", "assigndly", "if", "case", "while", "jumpblock", "jumplabel", "jumpgo",
             "stmtexpr", "display", "finish", "stop", "comment", "assertintrinsic", "assert", "cover"}


# ------------------------------------------------------------------------------------------- emission
class Emitter:
    def __init__(self, mod):
        self.m = mod
        self.g = mod.g
        self.out = []
        self.done = {}

    def ref(self, n):
        if n.op == "const":
            return f"{n.w}'h{n.val:x}"
        if n.op == "sig":
            name = n.val
            if "[" in name:
                key, idx = name[:-1].split("[")
                return f"{key}__{idx}"
            return name
        if n.op == "poison":
            raise Refused(f"{self.m.name}: a loop variable ({n.val}) read after a data-dependent break or return")
        return f"_fe_n{n.id}"

    def emit_node(self, root):
        stack = [(root, False)]
        while stack:
            n, ready = stack.pop()
            if n.id in self.done or n.op in ("const", "sig"):
                continue
            if n.op == "poison":
                self.ref(n)
            if not ready:
                stack.append((n, True))
                for a in n.args:
                    if a.id not in self.done and a.op not in ("const", "sig"):
                        stack.append((a, False))
                continue
            self.done[n.id] = True
            self.out.append(f"  wire [{n.w - 1}:0] _fe_n{n.id} = {self.expr(n)};")
        return self.ref(root)

    def expr(self, n):
        a = [self.ref(x) for x in n.args]
        op = n.op
        infix = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|", "xor": "^",
                 "eq": "==", "neq": "!=", "lt": "<", "lte": "<=", "gt": ">", "gte": ">=",
                 "shiftl": "<<", "shiftr": ">>"}
        if op in infix:
            return f"{a[0]} {infix[op]} {a[1]}"
        if op in ("lts", "ltes", "gts", "gtes"):
            sym = {"lts": "<", "ltes": "<=", "gts": ">", "gtes": ">="}[op]
            return f"$signed({a[0]}) {sym} $signed({a[1]})"
        if op == "muls":
            return f"$signed({a[0]}) * $signed({a[1]})"
        if op in ("div", "moddiv"):
            return f"({a[1]} == 0) ? {n.w}'h0 : {a[0]} {'/' if op == 'div' else '%'} {a[1]}"
        if op in ("divs", "moddivs"):
            return f"({a[1]} == 0) ? {n.w}'h0 : $signed({a[0]}) {'/' if op == 'divs' else '%'} $signed({a[1]})"
        if op == "shiftrs":
            return f"$signed({a[0]}) >>> {a[1]}"
        if op == "not":
            return f"~{a[0]}"
        if op == "negate":
            return f"-{a[0]}"
        if op in ("redand", "redor", "redxor"):
            return {"redand": "&", "redor": "|", "redxor": "^"}[op] + a[0]
        if op == "countones":
            src = n.args[0]
            bits = [f"{{{n.w - 1}'h0, {a[0]}[{i}]}}" if n.w > 1 else f"{a[0]}[{i}]" for i in range(src.w)]
            return "(" + " + ".join(bits) + ")"
        if op in ("onehot", "onehot0"):
            src = n.args[0]
            cnt = " + ".join(f"{{{src.w.bit_length()}'h0, {a[0]}[{i}]}}" for i in range(src.w))
            return f"({cnt}) {'==' if op == 'onehot' else '<='} 1"
        if op == "lognot":
            return f"~{a[0]}"
        if op == "logand":
            return f"{a[0]} & {a[1]}"
        if op == "logor":
            return f"{a[0]} | {a[1]}"
        if op == "logeq":
            return f"~({a[0]} ^ {a[1]})"
        if op == "logif":
            return f"~{a[0]} | {a[1]}"
        if op == "sel":
            src, lsb = n.args
            if lsb.const and lsb.val + n.w <= src.w and src.op != "const":
                if src.op == "sig" or True:
                    return f"{a[0]}[{lsb.val + n.w - 1}:{lsb.val}]"
            # a shift, so that bits past the top read 0 (as Verilator reads them)
            W = max(src.w, n.w)
            sh = self.g.op("shiftr", W, self.g.resize(src, W), lsb)
            r = self.emit_node(sh) if sh.op not in ("const", "sig") else self.ref(sh)
            if sh.op == "const":
                return f"{n.w}'h{sh.val & mask(n.w):x}"
            return f"{r}[{n.w - 1}:0]"
        if op == "concat":
            return "{" + ", ".join(a) + "}"
        if op == "replicate":
            return "{" + f"{n.val}{{{a[0]}}}" + "}"
        if op == "extend":
            return "{" + f"{n.w - n.args[0].w}'h0, {a[0]}" + "}"
        if op == "extends":
            s = n.args[0]
            return "{{" + f"{n.w - s.w}{{{a[0]}[{s.w - 1}]}}" + "}, " + a[0] + "}"
        if op == "cond":
            return f"{a[0]} ? {a[1]} : {a[2]}"
        raise Refused(f"{self.m.name}: cannot write the operator {op}")

    def module(self, name, is_top):
        m = self.m
        ports = m.inputs + m.outputs
        lines = []
        params = "".join(f"  parameter {p} = {c.val};\n" for p, c in m.params) if is_top else ""
        lines.append(f"module {name} (" + ", ".join(ports) + ");")
        if params:
            lines.append(params.rstrip("\n"))
        body = self.out
        decl = []
        for key, var in m.vars.items():
            rng = f"[{var.w - 1}:0] "
            if key in m.inputs:
                decl.append(f"  input wire {rng}{key};")
            elif key in m.outputs:
                decl.append(f"  output wire {rng}{key};")
            if var.n is None:
                if key not in m.inputs and key not in m.outputs:
                    decl.append(f"  wire {rng}{key};")
            else:
                for i in range(var.n):
                    decl.append(f"  wire {rng}{key}__{i};")
        # registers
        for key, (edge, clk, nxt, el) in m.regs.items():
            var = m.vars[key]
            if not any(x == key or x.startswith(key + "[") for x in self.live):
                continue
            clk_ref = self.emit_node(m.g.truth(Exec(m, {}, []).read(clk)))
            e = "posedge" if edge == "POS" else "negedge"
            elems = nxt if isinstance(nxt, list) else [nxt]
            for i, x in enumerate(elems):
                tgt = key if var.n is None else f"{key}__{i}"
                r = self.emit_node(x)
                decl.append(f"  reg [{var.w - 1}:0] {tgt}__q;")
                body.append(f"  always @({e} {clk_ref}) {tgt}__q <= {r};")
                body.append(f"  assign {tgt} = {tgt}__q;")
        # continuous drivers of the live signals (check_drivers: every bit once)
        for key, drv in m.drivers.items():
            for lsb, w, node, elem, el in drv:
                if (key if elem is None else f"{key}[{elem}]") not in self.live:
                    continue
                tgt = key if elem is None else f"{key}__{elem}"
                body.append(f"  assign {tgt}[{lsb + w - 1}:{lsb}] = {self.emit_node(node)};")
        for mod, iname, conns in m.instances:
            pins = []
            for pname, d, w, x in conns:
                if d == "in":
                    pins.append(f".{pname}({self.emit_node(x)})")
                else:
                    decl.append(f"  wire [{w - 1}:0] {x};")
                    pins.append(f".{pname}({x})")
            body.append(f"  {self.m.d.prefix}{mod} {iname} (" + ", ".join(pins) + ");")
        return "\n".join(lines + decl + body + ["endmodule", ""])


# --------------------------------------------------------------------------------------------- driver
def sig_names(roots):
    """The signals (key or key[i]) an expression DAG reads."""
    seen, stack, out = set(), list(roots), set()
    while stack:
        n = stack.pop()
        if n.id in seen:
            continue
        seen.add(n.id)
        if n.op == "sig":
            out.add(n.val)
        stack.extend(n.args)
    return out


def live_signals(mod):
    """The signals an output depends on (through drivers, registers and instances): only their drivers
    are written, checked for conflicts and required; a loop variable shared by several blocks is not."""
    by_sig = {}
    for key, drv in mod.drivers.items():
        for lsb, w, node, elem, el in drv:
            by_sig.setdefault(key if elem is None else f"{key}[{elem}]", []).append(node)
    for key, (edge, clk, nxt, el) in mod.regs.items():
        nodes = nxt if isinstance(nxt, list) else [nxt]
        var = mod.vars[key]
        for i, x in enumerate(nodes):
            by_sig.setdefault(key if var.n is None else f"{key}[{i}]", []).extend([x, mod.g.sig(clk.key, clk.w)])
    inst_inputs = [x for _, _, conns in mod.instances for _, d, _, x in conns if d == "in"]
    live = set(mod.outputs)
    work = list(mod.outputs) + sorted(sig_names(inst_inputs))
    live |= set(work)
    while work:
        name = work.pop()
        for s in sig_names(by_sig.get(name, [])):
            if s not in live:
                live.add(s)
                work.append(s)
    return live


def check_drivers(mod, live):
    d = mod.d
    for key, var in mod.vars.items():
        if key in mod.inputs:
            continue
        for elem in ([None] if var.n is None else range(var.n)):
            name = key if elem is None else f"{key}[{elem}]"
            if name not in live:
                continue
            if key in mod.temps:
                d.refuse(mod.temps[key], f"{key}: assigned with = in a clocked block and read outside it "
                                         "(make it local to the block, or assign it with <=)")
            drv = [x for x in mod.drivers.get(key, []) if x[3] == elem]
            if key in mod.regs:
                if drv:
                    d.refuse(drv[0][4], f"{key}: driven by a register and by another process")
                continue
            cover = {}
            for lsb, w, node, e, el in drv:
                for b in range(lsb, lsb + w):
                    if b in cover:
                        d.refuse(el, f"{name}: bit {b} has two drivers (also {d.where(cover[b])})")
                    cover[b] = el
            if len(cover) != var.w:
                missing = sorted(set(range(var.w)) - set(cover))
                d.refuse(var.loc, f"{name}: {'read' if key not in mod.outputs else 'an output'} but "
                                  f"bit{'s' if len(missing) > 1 else ''} {missing[0]}"
                                  f"{'..' + str(missing[-1]) if len(missing) > 1 else ''} never driven")


def translate(xml_path, top, prefix, out_top=None):
    root = ET.parse(xml_path).getroot()
    d = Design(root, prefix, top)
    top_xml = [m for m in d.modules.values() if m.get("topModule") == "1"]
    if not top_xml:
        raise Refused(f"{top}: Verilator found no top module")
    for m in d.modules.values():
        for tag in ("interface", "modport", "class"):
            if m.find(tag) is not None:
                d.refuse(m.find(tag), f"an {tag}")
    for iface in root.find("netlist").findall("iface"):
        d.refuse(iface, "an interface")
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        order.append(name)
        for inst in d.modules[name].iter("instance"):
            if inst.get("defName") in d.modules:
                visit(inst.get("defName"))
    top_name = top_xml[0].get("name")
    visit(top_name)
    texts = []
    for name in order:
        is_top = name == top_name
        mod = Module(d, d.modules[name], name)
        mod.build(is_top)
        em = Emitter(mod)
        out_name = (out_top or top) if is_top else prefix + name
        live = live_signals(mod)
        check_drivers(mod, live)
        em.live = live
        texts.append(em.module(out_name, is_top))
    return texts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", required=True)
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--incdir", action="append", default=[])
    ap.add_argument("--prefix", default=None)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rename", help="the top module's name in the netlist (default: --top)")
    ap.add_argument("--xml", help="keep Verilator's XML here")
    ap.add_argument("srcs", nargs="+")
    a = ap.parse_args()
    prefix = a.prefix if a.prefix is not None else f"fe_{a.top}__"
    for p in a.param:
        if not re.fullmatch(r"[A-Za-z_]\w*=-?\d+", p):
            print(f"sv_frontend: parameter '{p}': NAME=INTEGER", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as tmp:
        xml = a.xml or os.path.join(tmp, "design.xml")
        # -fno-dfg: Verilator's dataflow pass would hoist expressions out of the scopes that declare their names
        cmd = ["verilator", "--xml-only", "--xml-output", xml, "-Wno-fatal", "-Wno-lint", "-Wno-style", "-fno-dfg",
               "--top-module", a.top, "--Mdir", os.path.join(tmp, "obj")]
        cmd += [f"-G{p}" for p in a.param] + [f"-I{i}" for i in a.incdir]
        for s in a.srcs:
            cmd += ["-f", s] if s.endswith(".f") else [s]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            errs = [l for l in r.stdout.splitlines() if l.startswith("%Error")]
            print("sv_frontend: Verilator refused the sources:", file=sys.stderr)
            print("\n".join(errs[:5] or r.stdout.splitlines()[-5:]), file=sys.stderr)
            return 3
        # several drivers of one bit: Verilator keeps one of them and warns; a proof of that would be
        # a proof of something the source does not say
        m = re.search(r"%Warning-MULTIDRIVEN: ([^:]+:\d+):\d+: (.*)", r.stdout)
        if m:
            print(f"sv_frontend: {m.group(1)}: several drivers ({m.group(2).strip()})", file=sys.stderr)
            return 2
        try:
            texts = translate(xml, a.top, prefix, a.rename)
        except Refused as e:
            print(f"sv_frontend: {e}", file=sys.stderr)
            return 2
    head = (f"// {a.top}: written by tb/prove/sv_frontend.py from Verilator's elaboration of\n"
            f"//   {' '.join(a.srcs)}\n// parameters: {' '.join(a.param) or '(defaults)'}\n")
    tmp_out = a.out + ".tmp"
    with open(tmp_out, "w") as fh:
        fh.write(head + "\n".join(texts))
    os.replace(tmp_out, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
