#!/usr/bin/env python3
"""Switching activity of a mapped unit on its own stimulus, for synth/sta.py's power (docs/synthesis.md).

Debian's OpenSTA (2019) reads no VCD or SAIF, and its propagation rewrites every internal pin's activity
(register outputs included) from the primary inputs' alone, so the activity is found here: the gate-level
netlist synth/synth_unit.sh wrote is simulated cycle by cycle, zero-delay, on the vectors the bench feeds
the unit (`mmaref gen ARCH INSTR --kind random --first I --n N --k K --with-d`: the random kinds of the stream
tb/mma_bench.sv drives after its directed vectors), packed onto the unit's ports as the bench packs them,
each vector held on the ports for its step count of cycles with in_valid and out_ready high (the unit
takes it on the first), every cell evaluated from its Liberty `function` and `ff` groups.  The simulation
must reproduce the model's D for every vector (read off the d port whenever out_valid is high) and one
handshake at the start of every hold, else this script fails: the activity is that of the netlist
computing the right results.  Every net's toggles are counted over the cycles of the vectors after the
first two (the start from reset is no steady operation).

    activity.py NETLIST TOP LIB_FILE UNITS_ROW_FILE CONFIGS MMAREF OUT.json [--vectors N] [--first I]
                [--constant]

UNITS_ROW_FILE's first line is the unit's row of the units table; CONFIGS is the configs.txt beside it
(the instructions the unit serves: the first one of each mode is simulated; M3XU units: one per operand
format, the mode).  --constant offers the first vector every cycle (no data toggles: the check that
activity, not the netlist, makes the figure).  Writes OUT.json: per mode the instruction, steps (cycles a
vector holds the unit), products per vector, the cycles counted, and per net its toggle rate (transitions
per cycle) and duty (fraction of cycles at 1).  Exits 1 with one line on stderr when the unit has no
stimulus (an instruction it serves that this packing does not cover) or the simulation disagrees.
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys


def die(msg):
    sys.stderr.write(f"activity.py: {msg}\n")
    sys.exit(1)


# ---- Liberty: the functions of the cells a netlist uses ----

def liberty_cells(path, wanted):
    """{cell: {"out": {pin: function}, "in": [pins], "ff": {...} or None}} for the cells named."""
    text = (gzip.open(path, "rt") if path.endswith(".gz") else open(path)).read()
    cells = {}
    for m in re.finditer(r'\bcell\s*\(\s*"?([A-Za-z0-9_]+)"?\s*\)\s*\{', text):
        name = m.group(1)
        if name not in wanted:
            continue
        depth, i = 1, m.end()
        while depth:
            j = text.find("}", i)
            k = text.find("{", i)
            if k != -1 and k < j:
                depth, i = depth + 1, k + 1
            else:
                depth, i = depth - 1, j + 1
        body = text[m.end():i]
        cell = {"out": {}, "in": [], "ff": None}
        for pm in re.finditer(r'\bpin\s*\(\s*"?([A-Za-z0-9_]+)"?\s*\)\s*\{', body):
            # the pin's own attributes (before any nested group closes it)
            seg = body[pm.end():]
            d = re.search(r'\bdirection\s*:\s*"?(\w+)"?', seg)
            f = re.search(r'\bfunction\s*:\s*"([^"]*)"', seg.split("timing")[0].split("internal_power")[0])
            if d and d.group(1) == "output":
                cell["out"][pm.group(1)] = f.group(1) if f else None
            elif d and d.group(1) == "input":
                cell["in"].append(pm.group(1))
        ff = re.search(r'\bff\s*\(\s*"?(\w+)"?\s*,\s*"?(\w+)"?\s*\)\s*\{([^}]*)\}', body)
        if ff:
            attrs = dict(re.findall(r'(\w+)\s*:\s*"([^"]*)"', ff.group(3)))
            cell["ff"] = dict(q=ff.group(1), qn=ff.group(2), next_state=attrs.get("next_state"),
                              clock=attrs.get("clocked_on"), clear=attrs.get("clear"), preset=attrs.get("preset"))
        if re.search(r'\b(latch|statetable)\s*\(', body):
            die(f"cell {name}: latches and state tables are not simulated")
        cells[name] = cell
    missing = set(wanted) - set(cells)
    if missing:
        die(f"cells not in {path}: {' '.join(sorted(missing))}")
    return cells


def parse_function(expr):
    """A Liberty boolean function as a Python expression over v['PIN'] (big integers, bit t = cycle t) and
    the all-ones mask M: ! and ' negate, & * and juxtaposition are AND, | + OR, ^ XOR."""
    toks = re.findall(r"[A-Za-z_][A-Za-z0-9_\[\]]*|[01]|[!'&*|+^()]", expr)
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def primary():
        t = take()
        if t == "!":
            e = f"(M ^ {primary()})"
        elif t == "(":
            e = f"({orexp()})"
            take()
        elif t == "1":
            e = "M"
        elif t == "0":
            e = "0"
        else:
            e = f"v[{t!r}]"
        while peek() == "'":
            take()
            e = f"(M ^ {e})"
        return e

    def andexp():
        e = primary()
        while peek() in ("&", "*") or (peek() is not None and peek() not in ("|", "+", "^", ")")):
            if peek() in ("&", "*"):
                take()
            e = f"({e} & {primary()})"
        return e

    def xorexp():
        e = andexp()
        while peek() == "^":
            take()
            e = f"({e} ^ {andexp()})"
        return e

    def orexp():
        e = xorexp()
        while peek() in ("|", "+"):
            take()
            e = f"({e} | {xorexp()})"
        return e

    out = orexp()
    if pos[0] != len(toks):
        die(f"cannot parse Liberty function '{expr}'")
    return out


# ---- the netlist ----

def norm(net):
    net = net.strip()
    return net[1:].strip() if net.startswith("\\") else net


def read_netlist(path, top):
    text = open(path).read()
    m = re.search(rf"^module {re.escape(top)}\s*\(.*?^endmodule", text, re.S | re.M)
    if not m:
        die(f"no module {top} in {path}")
    body = m.group(0)
    ports = {}
    for d, rng, name in re.findall(r"^\s*(input|output)\s+(?:\[(\d+):0\]\s*)?(\S+?)\s*;", body, re.M):
        ports[norm(name)] = (d, int(rng) + 1 if rng else 1)
    insts = []
    for cell, inst, conns in re.findall(r"^\s*([A-Za-z][\w$]*)\s+(\\?\S+)\s*\((.*?)\);", body, re.S | re.M):
        if cell in ("module", "input", "output", "wire", "assign"):
            continue
        pins = {p: norm(n) for p, n in re.findall(r"\.(\w+)\(\s*(\\\S+\s|[^)]*?)\s*\)", conns) if n.strip()}
        insts.append((cell, norm(inst), pins))
    return ports, insts


def bit(port, width, i):
    return port if width == 1 else f"{port}[{i}]"


# ---- the simulation ----

class Program:
    """The netlist as Python over whole-run integers (bit t = cycle t), compiled once: the combinational
    cells in topological order (flip-flop outputs and ports are sources) and the flip-flops' next values,
    as one straight-line function each, and the same for each level of the flip-flops' feedback (below)."""

    def __init__(self, insts, cells):
        comb, self.ffs, driver = [], [], {}
        for node in insts:
            cell, inst, pins = node
            (self.ffs if cells[cell]["ff"] else comb).append(node)
            for p in cells[cell]["out"]:
                if p in pins:
                    driver[pins[p]] = node
        self.driver = driver
        order, state = [], {}
        for root in comb:
            stack = [(root, False)]
            while stack:
                node, done = stack.pop()
                if done:
                    if state.get(node[1]) != 2:
                        state[node[1]] = 2
                        order.append(node)
                    continue
                if state.get(node[1]):
                    continue
                state[node[1]] = 1
                stack.append((node, True))
                for p in cells[node[0]]["in"]:
                    src = driver.get(node[2].get(p))
                    if src and not cells[src[0]]["ff"] and not state.get(src[1]):
                        stack.append((src, False))
        # (net, Python expression, input nets) per combinational output, in evaluation order
        self.comb = [(pins[p], self.expr(f, pins), [pins[x] for x in cells[cell]["in"] if x in pins])
                     for cell, inst, pins in order for p, f in cells[cell]["out"].items() if p in pins and f]
        # per flip-flop: its lines (Q in cycle t is D of cycle t-1, cycle 0 starts at 0; an asserted clear
        # or preset holds Q at its value in that cycle), input nets, output nets
        self.regs = []
        for cell, inst, pins in self.ffs:
            ff = cells[cell]["ff"]
            q = f"((({self.expr(ff['next_state'], pins)}) << 1) & M)"
            if ff["clear"]:
                q = f"({q} & (M ^ ({self.expr(ff['clear'], pins)})))"
            if ff["preset"]:
                q = f"({q} | ({self.expr(ff['preset'], pins)}))"
            lines, outs = [f"    q = {q}"], []
            for p, f in cells[cell]["out"].items():
                if p in pins and f:
                    fx = re.sub(r"v\['(\w+)'\]", lambda m: "q" if m.group(1) == ff["q"] else "(M ^ q)"
                                if m.group(1) == ff["qn"] else "0", parse_function(f))
                    lines.append(f"    new[{pins[p]!r}] = {fx}")
                    outs.append(pins[p])
            self.regs.append((lines, [pins[x] for x in cells[cell]["in"] if x in pins], outs))
        self.full = self.compile(self.comb, self.regs)
        self._levels = None
        self.full_passes = self.evaluations = 0  # evaluations: combinational cells evaluated, all passes

    @staticmethod
    def expr(func, pins):  # a Liberty function over the instance's nets
        return re.sub(r"v\['(\w+)'\]", lambda m: f"V[{pins[m.group(1)]!r}]" if m.group(1) in pins else "0",
                      parse_function(func))

    @staticmethod
    def compile(comb, regs):
        lines = ["def comb(V, M):"] + [f"    V[{net!r}] = {e}" for net, e, _ in comb] + ["    return V"]
        lines += ["def regs(V, M):", "    new = {}"] + [x for r in regs for x in r[0]] + ["    return new"]
        code = {}
        exec(compile("\n".join(lines), "netlist", "exec"), code)
        return code["comb"], code["regs"], len(comb)

    def levels(self):
        """The flip-flops by level of their feedback: the strongly connected groups of the graph 'flip-flop
        X's D depends on flip-flop Y's Q', level 0 those that depend on no other group, level n those that
        depend on groups of levels below n; per level its compiled cone (the combinational cells its D
        inputs read).  A level settles with the levels below it already settled, in as many passes as its
        own feedback is long (a free-running counter: one pass a cycle, on its few cells alone)."""
        if self._levels is not None:
            return self._levels
        ff_of = {n: i for i, r in enumerate(self.regs) for n in r[2]}
        dep = {}  # net -> bit set of the flip-flops it reads through combinational cells

        def src(n):
            return 1 << ff_of[n] if n in ff_of else dep.get(n, 0)
        for net, _, ins in self.comb:
            d = 0
            for n in ins:
                d |= src(n)
            dep[net] = d
        succ = []
        for lines, ins, outs in self.regs:
            d = 0
            for n in ins:
                d |= src(n)
            succ.append([j for j in range(d.bit_length()) if d >> j & 1])
        # Tarjan's strongly connected components, iteratively: a component comes out after every one it
        # depends on
        index, low, on, stack, comp_of, comps = {}, {}, set(), [], {}, []
        for root in range(len(self.regs)):
            if root in index:
                continue
            work = [(root, 0)]
            while work:
                i, k = work.pop()
                if k == 0:
                    index[i] = low[i] = len(index)
                    stack.append(i)
                    on.add(i)
                if k < len(succ[i]):
                    work.append((i, k + 1))
                    j = succ[i][k]
                    if j not in index:
                        work.append((j, 0))
                    elif j in on:
                        low[i] = min(low[i], index[j])
                    continue
                if low[i] == index[i]:
                    c = []
                    while True:
                        j = stack.pop()
                        on.discard(j)
                        comp_of[j] = len(comps)
                        c.append(j)
                        if j == i:
                            break
                    comps.append(c)
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[i])
        level = [0] * len(comps)
        for ci, c in enumerate(comps):  # a component's dependencies come out before it
            level[ci] = max((level[comp_of[j]] + 1 for i in c for j in succ[i] if comp_of[j] != ci), default=0)
        by_level = {}
        for ci, c in enumerate(comps):
            by_level.setdefault(level[ci], []).extend(c)
        self._levels = []
        for lv in sorted(by_level):
            regs = [self.regs[i] for i in sorted(by_level[lv])]
            need = {n for r in regs for n in r[1]}
            cone = []
            for stmt in reversed(self.comb):
                if stmt[0] in need:
                    cone.append(stmt)
                    need.update(stmt[2])
            cone.reverse()
            self._levels.append(self.compile(cone, regs))
        return self._levels


def settle(prog, part, v, M, passes):
    """Up to PASSES passes of PART (a compiled (comb, regs, cells) of PROG) over V: the passes it took until
    the registers' sequences were consistent, or 0 (each pass fixes at least one more cycle: a register that
    holds its value carries a wrong start one cycle further a pass)."""
    comb, regs, cells = part
    for n in range(1, passes + 1):
        prog.evaluations += cells
        comb(v, M)
        new = regs(v, M)
        if all(v.get(net) == x for net, x in new.items()):
            return n
        v.update(new)
    return 0


_PROGRAMS = {}
FIRST_PASSES = 8  # passes of the whole netlist before it is settled level by level


def simulate(ports, insts, cells, stim, ncyc):
    """Zero-delay cycle simulation: {net: int} with bit t the net's value in cycle t.  stim: {port: [value
    per cycle]}; flip-flops start at 0 (or their reset value while reset is asserted) and take D at each
    clock edge, iterated until the register sequences are consistent (a unit with feedback).  The trace
    is the one such fixed point (cycle t follows from cycles before it), however it is reached: a few
    passes of the whole netlist, then level by level, then the whole netlist again, which must agree."""
    M = (1 << ncyc) - 1
    v = {}
    for name, (d, w) in ports.items():
        if d != "input" or name == "clk":
            continue
        vals = stim.get(name)
        if vals is None:
            die(f"no stimulus for input port {name}")
        for i in range(w):
            x = 0
            for t, val in enumerate(vals):
                if val >> i & 1:
                    x |= 1 << t
            v[bit(name, w, i)] = x
    prog = _PROGRAMS.get(id(insts))
    if prog is None:
        prog = _PROGRAMS[id(insts)] = Program(insts, cells)
    for cell, inst, pins in insts:  # a net nothing drives (left floating by the mapping) reads as 0
        for p in cells[cell]["in"]:
            n = pins.get(p)
            if n is not None and n not in v and n not in prog.driver:
                v[n] = 0
    for cell, inst, pins in prog.ffs:  # registers start at 0
        ff = cells[cell]["ff"]
        for p, f in cells[cell]["out"].items():
            if p in pins and f:
                v[pins[p]] = M if parse_function(f) == f"(M ^ v[{ff['q']!r}])" or f.strip() == ff["qn"] else 0
    n = settle(prog, prog.full, v, M, FIRST_PASSES)
    if not n:
        for level in prog.levels():
            if not settle(prog, level, v, M, ncyc + 1):
                die("the registers did not settle")
        n = settle(prog, prog.full, v, M, ncyc + 1)
        if not n:
            die("the registers did not settle")
        n += FIRST_PASSES
    prog.full_passes += n  # the whole netlist's passes, all simulations (tests/t_synth_activity.sh)
    return v


def port_values(v, ports, name, ncyc):
    d, w = ports[name]
    return [sum((v.get(bit(name, w, i), 0) >> t & 1) << i for i in range(w)) for t in range(ncyc)]


# ---- stimulus: the bench's vectors on the unit's ports ----

def codes(prefix):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rtl", "mma_formats.svh")
    return {m.group(1).lower().replace("_", "-"): int(m.group(2)) for m in
            re.finditer(rf"localparam int {prefix}_([A-Z0-9_]+) *= *(\d+);", open(path).read())}


WIDTH = {"f64": 64, "f32": 32, "tf32": 32, "f16": 16, "bf16": 16, "e4m3": 8, "e5m2": 8, "e3m2": 6, "e2m3": 6,
         "e2m1": 4, "ue8m0": 8, "ue4m3": 8, "e4m3fnuz": 8, "e5m2fnuz": 8, "f32c": 64}
M3XU_MODES = ("f16", "bf16", "f32", "f32c")  # the M3XU designs' operand formats, FP16 BF16 FP32 FP32C


def max_width(mask, fcodes):
    return max((WIDTH[n] for n, c in fcodes.items() if n in WIDTH and mask >> c & 1), default=0)


def unit_modes(row, configs):
    """[(mode, arch, instr, config columns)]: the first instruction the unit serves in each mode (M3XU: per
    operand format; other units: one mode, the first instruction)."""
    unit = row[0]
    served = [c for c in configs if c[1] == unit and c[2] == "check"]
    if not served:
        die(f"unit {unit}: no instruction in the configs serves it: no stimulus")
    if row[1] in ("M3XU", "NAIVE_FP32"):
        out = []
        for mode in M3XU_MODES:
            c = next((c for c in served if c[8] == mode), None)
            if c:
                out.append((mode, c[3], c[4], c))
        return out
    c = served[0]
    return [(c[8], c[3], c[4], c)]


def vectors(mmaref, arch, instr, k, first, n):
    """The model's random vectors with D, at the configuration's K (`--k`: the naive FP32 unit runs M3XU's
    K = 4 instruction with K = 8, as the benches do)."""
    r = subprocess.run([mmaref, "gen", arch, instr, "--kind", "random", "--first", str(first), "--n", str(n),
                        "--k", str(k), "--with-d"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        die(f"mmaref gen {arch} {instr}: {r.stderr.strip() or r.returncode}")
    return [[int(x, 16) for x in line.split()] for line in r.stdout.splitlines() if line.strip()]


def pack(vals, w):
    x = 0
    for i, val in enumerate(vals):
        x |= (val & ((1 << w) - 1)) << (i * w)
    return x


def port_words(row, cfg, vec, ports, fcodes, ocodes):
    """{port: value} for one vector line (C, K A, K B, K/block SA and SB when block-scaled, D) as
    tb/mma_bench.sv drives them."""
    algo, mask = row[1], int(row[6])
    k, block = int(cfg[5]), int(cfg[14])
    a_fmt, b_fmt, c_fmt, out, s_fmt = cfg[8], cfg[9], cfg[10], cfg[12], cfg[13]
    ns = k // block if block > 0 else 0
    if len(vec) != 2 * k + 2 * ns + 2:
        die(f"{cfg[3]} {cfg[4]}: {len(vec)} fields, expected {2 * k + 2 * ns + 2} (C, {k} A, {k} B, "
            f"{ns} SA, {ns} SB, D): no stimulus")
    c, a, b = vec[0], vec[1:1 + k], vec[1 + k:1 + 2 * k]
    sa, sb = vec[1 + 2 * k:1 + 2 * k + ns], vec[1 + 2 * k + ns:1 + 2 * k + 2 * ns]
    if algo in ("M3XU", "NAIVE_FP32"):
        w = WIDTH[a_fmt]
        return {"fmt": fcodes[a_fmt], "a": pack(a, w), "b": pack(b, w), "c": c}
    aw = max_width(mask, fcodes)
    out_kind = ocodes.get(out.replace("_", "-"))
    if out_kind is None:
        die(f"{cfg[3]} {cfg[4]}: output kind '{out}' is not among rtl/mma_formats.svh's OUT_ codes: no stimulus")
    if algo == "SFMA":  # A, B, C and D in the output kind's format, each value at the low end of its lane
        return {"a": pack(a, aw), "b": pack(b, aw), "c": c, "out_kind": out_kind}
    # UE8M0 / UE4M3 scales one byte a slot (GDFS with 32-element blocks: the first K/32 slots)
    scales = {"sa": pack(sa, 8), "sb": pack(sb, 8)}
    if algo == "GDFS":
        return {"a": pack(a, aw), "b": pack(b, aw), "c": c, "fmt_s": fcodes[s_fmt], "block32": int(block == 32),
                **scales}
    if algo not in ("FDA", "FDRDA", "GPS"):
        die(f"unit {row[0]} ({algo}): its stimulus packing is not covered here: no stimulus")
    return {"a": pack(a, aw), "b": pack(b, aw), "c": c, "fmt_a": fcodes[a_fmt], "fmt_b": fcodes[b_fmt],
            "fmt_c": fcodes[c_fmt], "out_kind": out_kind, **scales}


def run_mode(row, cfg, ports, insts, cells, vecs, fcodes, ocodes, constant):
    """Simulate the unit on VECS, holding each for `steps` cycles (the configuration's passes, else the first
    that gives a handshake on the first cycle of every hold and on no other); return (steps, cycles counted,
    {net: (toggle rate, duty)})."""
    words = [port_words(row, cfg, x, ports, fcodes, ocodes) for x in vecs]
    if constant:
        words = [words[0]] * len(words)
        vecs = [vecs[0]] * len(vecs)
    names = [n for n, (d, _) in ports.items() if d == "input" and n != "clk"]
    passes = int(cfg[7])  # the configuration's passes: M3XU's steps, CoFDA's chained passes
    k = int(cfg[5])  # SFMA: one lane a cycle
    for steps in dict.fromkeys([passes, 1, 2, 3, 4, 8, k]):
        ncyc = 1 + steps * len(words) + 2 * steps + 2  # reset, the holds, then time to drain
        stim = {n: [0] * ncyc for n in names}
        for t in range(ncyc):
            if "rst_n" in stim:
                stim["rst_n"][t] = 1 if t > 0 else 0
            if "out_ready" in stim:
                stim["out_ready"][t] = 1
            j = (t - 1) // steps
            if t >= 1 and j < len(words):
                if "in_valid" in stim:
                    stim["in_valid"][t] = 1
                for n, val in words[j].items():
                    if n in stim:
                        stim[n][t] = val
            elif len(words):  # after the last vector: its operands stay on the ports, in_valid low
                for n, val in words[-1].items():
                    if n in stim and t >= 1:
                        stim[n][t] = val
        v = simulate(ports, insts, cells, stim, ncyc)
        ready = port_values(v, ports, "in_ready", ncyc) if "in_ready" in ports else [1] * ncyc
        # the unit takes a vector on the first cycle of its hold (pass 0) and runs its later passes from
        # what it loaded, while the bench holds the next vector until in_ready
        hold_ok = all(ready[t] == (1 if (t - 1) % steps == 0 else 0)
                      for t in range(1, 1 + steps * len(words)))
        if not hold_ok:
            continue
        valid = port_values(v, ports, "out_valid", ncyc)
        d = port_values(v, ports, "d", ncyc)
        got = [d[t] for t in range(ncyc) if valid[t]]
        want = [x[-1] for x in vecs]
        if got[:len(want)] != want:
            bad = next((i for i in range(len(want)) if i >= len(got) or got[i] != want[i]), 0)
            die(f"{cfg[3]} {cfg[4]}: the netlist's D differs from the model's at vector {bad} "
                f"({hex(got[bad]) if bad < len(got) else 'none'} against {hex(want[bad])})")
        # the cycles the vectors occupy, less the first two vectors' (the step from reset's zeros to the
        # first operands and the first result is no cycle of steady operation)
        lo, hi = 1 + 2 * steps, 1 + steps * len(words)
        n = hi - lo
        acts = {}
        for net, x in v.items():
            seg = x >> lo & ((1 << n) - 1)
            prev = x >> (lo - 1) & ((1 << n) - 1)
            acts[net] = (bin(seg ^ prev).count("1") / n, bin(seg).count("1") / n)
        return steps, n, acts
    die(f"{cfg[3]} {cfg[4]}: no hold of 1-8 cycles gives one handshake at the start of each hold")


def main():
    ap = argparse.ArgumentParser()
    for a in ("netlist", "top", "lib", "row", "configs", "mmaref", "out"):
        ap.add_argument(a)
    ap.add_argument("--vectors", type=int, default=200)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--constant", action="store_true")
    a = ap.parse_args()
    for path in (a.netlist, a.lib, a.row, a.configs, a.mmaref):
        if not os.path.exists(path):
            die(f"{path}: no such file")
    row = open(a.row).read().split()
    configs = [l.split() for l in open(a.configs) if l.strip() and not l.startswith("#")]
    ports, insts = read_netlist(a.netlist, a.top)
    cells = liberty_cells(a.lib, {c for c, _, _ in insts})
    fcodes, ocodes = codes("FMT"), codes("OUT")
    modes = unit_modes(row, configs)
    out = dict(unit=row[0], top=a.top, first=a.first, vectors=a.vectors, constant=a.constant, modes={})
    for mode, arch, instr, cfg in modes:
        vecs = vectors(a.mmaref, arch, instr, int(cfg[5]), a.first, a.vectors)
        steps, n, acts = run_mode(row, cfg, ports, insts, cells, vecs, fcodes, ocodes, a.constant)
        out["modes"][mode] = dict(arch=arch, instr=instr, k=int(cfg[5]), steps=steps, cycles=n,
                                  activity={k: [round(x, 6), round(y, 6)] for k, (x, y) in acts.items()})
    with open(a.out, "w") as f:
        json.dump(out, f)
    print(" ".join(f"{m}:{d['instr']}:steps={d['steps']}" for m, d in out["modes"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
