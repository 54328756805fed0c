#!/usr/bin/env python3
"""Cut points at a named combinational module, for make prove's CUT= (tb/prove/prove.sh, docs/formal.md).

Reads the miter after Yosys has kept every instance of the CUT modules as a cell and turned those cells
into ports of prove_top (`expose -evert`, written as JSON), and writes prove_cut_top.sv: prove_top with
each instance's outputs driven by free values (an input of the miter, new in every cycle) under one
assumption, Ackermann's congruence: two instances of the same elaborated module (the same source and
the same parameter values) that read equal inputs, in the same cycle or in any two cycles up to BOUND,
give equal outputs.  The solver then decides the two sides for every combinational function in the
module's place, the module itself included: a PROVEN verdict carries to the real module, whose own
equality to the specification's step is proven apart.  Only the input bits that the module reads
(its netlist's cells or outputs use them) enter the comparison.

usage: cut_points.py CUT.json PRE.json MODULE[,MODULE..] BOUND OUT.sv [PAIRS]
PAIRS (default all): which instances the congruence relates -- all, or across: only an instance of the
unit (dut.*) with one of the reference, or across:N: those, in the same cycle or up to N cycles apart.
Either is a weaker assumption (a PROVEN verdict stands for more functions, so it carries all the same)
with far fewer comparisons when each side has many instances.
Prints one summary line; exit 2 (one line naming the module) when a module holds state or has no
instance.
"""
import json
import re
import sys

STATE = re.compile(r"^\$(a?dff|dffe|adffe|sdff|sdffe|sdffce|dlatch|adlatch|dffsr|dffsre|sr|mem.*|_.*DFF.*|_DLATCH.*|_SR_.*|_FF_)$")


def fail(msg):
    print(f"prove: CUT: {msg}", file=sys.stderr)
    sys.exit(2)


def read_bits(mod):
    """The set of signal bits the module's cells or output ports use."""
    used = set()
    for cell in mod["cells"].values():
        for bits in cell["connections"].values():
            used.update(b for b in bits if isinstance(b, int))
    for port in mod["ports"].values():
        if port["direction"] == "output":
            used.update(b for b in port["bits"] if isinstance(b, int))
    return used


def main():
    pairs_arg = sys.argv[6] if len(sys.argv) == 7 else "all"
    if len(sys.argv) not in (6, 7) or not re.fullmatch(r"all|across(:[1-9][0-9]{0,2})?", pairs_arg):
        fail("usage: cut_points.py CUT.json PRE.json MODULE[,MODULE..] BOUND OUT.sv [all|across|across:N]")
    across = pairs_arg != "all"
    design = json.load(open(sys.argv[1]))["modules"]
    names = [n for n in sys.argv[3].split(",") if n]
    bound = int(sys.argv[4])
    apart = min(int(pairs_arg.split(":")[1]), bound) if ":" in pairs_arg else bound  # across:N's N
    top = design["prove_top"]

    # the cut modules: every elaborated module whose source name is one of MODULE; each must hold no state
    kinds = {}
    for mname, mod in design.items():
        parts = mname.split("\\")  # $paramod\MODULE\NAME=VALUE (one parameter), $paramod$HASH\MODULE, MODULE
        base = mod.get("attributes", {}).get("hdlname", parts[1] if len(parts) > 2 and "=" in parts[-1] else parts[-1]).lstrip("\\")
        if base not in names and not any(base.endswith("__" + n) for n in names):  # a front end's prefix
            continue
        for cname, cell in mod["cells"].items():
            if STATE.match(cell["type"]):
                fail(f"{base} holds state ({cell['type']} {cname}, {cell.get('attributes', {}).get('src', '?')}): "
                     "a cut point must be a combinational module")
            if not cell["type"].startswith("$"):
                fail(f"{base} instantiates {cell['type']}, which was not flattened into it")
        key = (base, mod.get("attributes", {}).get("src", ""),
               tuple(sorted(mod.get("parameter_default_values", {}).items())))
        ports = [(p, v["direction"], len(v["bits"])) for p, v in mod["ports"].items()]
        used = read_bits(mod)
        reads = {p: [i for i, b in enumerate(v["bits"]) if isinstance(b, int) and b in used]
                 for p, v in mod["ports"].items() if v["direction"] == "input"}
        kinds[mname] = (key, ports, reads)
    for n in names:
        if not any(k[0][0] == n or k[0][0].endswith("__" + n) for k in kinds.values()):
            fail(f"no module {n} in the design (CUT names a module of the unit or the reference)")

    # the instances, everted into prove_top's ports "<cell>__<port>"; which module each is, from the
    # design before everting (PRE.json)
    cells = {c: v["type"] for c, v in json.load(open(sys.argv[2]))["modules"]["prove_top"]["cells"].items()
             if v["type"] in kinds}
    if not cells:
        fail(f"no instance of {', '.join(names)} on either side")
    for port in top["ports"]:
        if port not in ("clk", "vec_in") and not any(port.startswith(c + "__") for c in cells):
            fail(f"{port}: an instance that the cut's pattern took but that is none of {', '.join(names)}")
    groups = {}
    for cell, ctype in sorted(cells.items()):
        groups.setdefault(kinds[ctype][0], []).append(cell)

    free_w = 0
    lines = []
    decl = []
    conns = []
    summary = []
    for gi, (key, members) in enumerate(groups.items()):
        ctype = cells[members[0]]
        _, ports, reads = kinds[ctype]
        ins = [(p, w) for p, d, w in ports if d == "input"]
        outs = [(p, w) for p, d, w in ports if d == "output"]
        iw = sum(len(reads[p]) for p, _ in ins) or 1
        ow = sum(w for _, w in outs)
        n = len(members)
        for si, cell in enumerate(members):
            s = f"g{gi}_s{si}"
            read_parts = []
            for p, w in ins:
                decl.append(f"  wire [{w - 1}:0] {s}_{p};")
                conns.append(f"    .\\{cell}__{p} ({s}_{p})")
                read_parts += [f"{s}_{p}[{i}]" for i in reversed(reads[p])]
            decl.append(f"  wire [{iw - 1}:0] {s}_in = {{{', '.join(read_parts) or chr(49) + chr(39) + 'b0'}}};")
            decl.append(f"  wire [{ow - 1}:0] {s}_out = cut_free[{free_w} +: {ow}];")
            pos = 0
            for p, w in outs:
                conns.append(f"    .\\{cell}__{p} ({s}_out[{pos} +: {w}])")
                pos += w
            free_w += ow
        g = f"g{gi}"
        lines.append(f"  // {key[0]} ({n} instances: {', '.join(members)}), {iw} input bits read, {ow} output bits")
        lines.append(f"  wire [{n * iw - 1}:0] {g}_in = {{{', '.join(f'{g}_s{j}_in' for j in reversed(range(n)))}}};")
        lines.append(f"  wire [{n * ow - 1}:0] {g}_out = {{{', '.join(f'{g}_s{j}_out' for j in reversed(range(n)))}}};")
        if not across:
            # the group's history: site j's input and output in cycle t at [(t * n + j) * W +: W]
            lines.append(f"  logic [{(bound + 1) * n * iw - 1}:0] {g}_hin;")
            lines.append(f"  logic [{(bound + 1) * n * ow - 1}:0] {g}_hout;")
            lines.append("  always @(posedge clk)")
            lines.append(f"    for (int t = 0; t <= {bound}; t++)")
            lines.append(f"      if (cut_cycle == 8'(t)) begin")
            lines.append(f"        {g}_hin[t*{n * iw} +: {n * iw}] <= {g}_in;")
            lines.append(f"        {g}_hout[t*{n * ow} +: {n * ow}] <= {g}_out;")
            lines.append("      end")
            lines.append(f"  logic {g}_ok;")
            lines.append("  always @* begin")
            lines.append(f"    {g}_ok = 1'b1;")
            lines.append(f"    for (int i = 0; i < {n}; i++) begin")
            lines.append(f"      for (int j = 0; j < i; j++)  // this cycle's other instances")
            lines.append(f"        if ({g}_in[i*{iw} +: {iw}] == {g}_in[j*{iw} +: {iw}] && {g}_out[i*{ow} +: {ow}] != {g}_out[j*{ow} +: {ow}]) {g}_ok = 1'b0;")
            lines.append(f"      for (int t = 0; t < {bound + 1}; t++)  // every instance in the cycles before")
            lines.append(f"        for (int j = 0; j < {n}; j++)")
            lines.append(f"          if (8'(t) < cut_cycle && {g}_in[i*{iw} +: {iw}] == {g}_hin[(t*{n} + j)*{iw} +: {iw}] &&")
            lines.append(f"              {g}_out[i*{ow} +: {ow}] != {g}_hout[(t*{n} + j)*{ow} +: {ow}]) {g}_ok = 1'b0;")
            lines.append("    end")
            lines.append("  end")
        else:
            # the last `apart` cycles: site j's input and output k + 1 cycles ago at [(k * n + j) * W +: W]
            lines.append(f"  logic [{apart * n * iw - 1}:0] {g}_hin;")
            lines.append(f"  logic [{apart * n * ow - 1}:0] {g}_hout;")
            shift_in = f"{{{g}_hin[{(apart - 1) * n * iw - 1}:0], {g}_in}}" if apart > 1 else f"{g}_in"
            shift_out = f"{{{g}_hout[{(apart - 1) * n * ow - 1}:0], {g}_out}}" if apart > 1 else f"{g}_out"
            lines.append(f"  always @(posedge clk) begin {g}_hin <= {shift_in}; {g}_hout <= {shift_out}; end")
            lines.append(f"  logic {g}_ok;")
            lines.append("  always @* begin")
            lines.append(f"    {g}_ok = 1'b1;")
            # an instance of the unit (dut.*) with each of the reference, in this cycle and the cycles before
            side = [m.startswith("dut.") for m in members]
            pairs = 0
            for i in range(n):
                ii, oi = f"{g}_in[{i * iw} +: {iw}]", f"{g}_out[{i * ow} +: {ow}]"
                for j in (j for j in range(n) if side[j] != side[i]):
                    pairs += 1
                    if j < i:
                        lines.append(f"    if ({ii} == {g}_in[{j * iw} +: {iw}] && {oi} != {g}_out[{j * ow} +: {ow}]) {g}_ok = 1'b0;")
                    for k in range(apart):
                        lines.append(f"    if (cut_cycle > 8'd{k} && {ii} == {g}_hin[{(k * n + j) * iw} +: {iw}] && "
                                     f"{oi} != {g}_hout[{(k * n + j) * ow} +: {ow}]) {g}_ok = 1'b0;")
            lines.append("  end")
        lines.append(f"  always @* if (cut_cycle <= {bound}) assume ({g}_ok);")
        summary.append(f"{key[0]}: {n} instances ({', '.join(members)}), {iw} of "
                       f"{sum(w for _, w in ins)} input bits read"
                       + (f", {pairs} pairs related across the sides, up to {apart} cycle{'s' if apart != 1 else ''} apart" if across else ""))

    vec_w = len(top["ports"]["vec_in"]["bits"])
    with open(sys.argv[5], "w") as f:
        f.write("// Generated by tb/prove/cut_points.py for make prove's CUT=: do not edit.\n")
        f.write(f"module prove_cut_top (input logic clk, input logic [{vec_w - 1}:0] vec_in, "
                f"input logic [{free_w - 1}:0] cut_free);\n")
        f.write("  logic [7:0] cut_cycle = 8'd0;\n")
        f.write("  always @(posedge clk) if (cut_cycle != 8'hff) cut_cycle <= cut_cycle + 8'd1;\n")
        f.write("\n".join(decl) + "\n")
        f.write("  prove_top u_miter (.clk(clk), .vec_in(vec_in),\n" + ",\n".join(conns) + ");\n")
        f.write("\n".join(lines) + "\nendmodule\n")
    print("; ".join(summary))


if __name__ == "__main__":
    main()
