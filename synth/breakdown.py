#!/usr/bin/env python3
"""The per-submodule table of synth/breakdown.sh (docs/synthesis.md, the Table III breakdown).

    breakdown.py --dir OUT --units UNITS --designs DESIGNS DESIGN...

Reads OUT/DESIGN.stat (Yosys `stat -liberty -top` of the design synthesized with its hierarchy kept);
groups each module's own cells into the parts of the design (PARTS: multipliers, exponent max tree,
alignment shifters, adder tree, normalize/round, registers, data assignment ...), counting a module once
per instance and a flip-flop as a register wherever it sits.  Times OUT/DESIGN.v (its hierarchical
netlist) with OpenSTA (the constraints of synth/sta.py) and shares the critical path's delay out by the
part of the module instance each cell sits in.  Prints markdown tables: µm² per part and design, the
hierarchical total and its ratio to the first design's; the critical path's ps per part, its arrival
and start point.
The library comes from the environment synth/liberty.py sets (LIB_FILE, FF_CELLS, CLK_Q_NS, SETUP_NS,
WIRE_LOAD, TIME_UNIT_PS).  Exits 1 with a one-line error when a design's files are missing.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sta  # noqa: E402  (synth/sta.py: its SDC and path parsing)

# (part, module base names whose own cells it takes, 'comb' / 'ff' / 'all')
PARTS = [
    ("multipliers", ["*_mul"], "all"),
    ("data assignment: operand unpack", ["mma_unpack"], "comb"),
    ("data assignment: lane muxes, FP32C sign", ["m3xu_assign"], "comb"),
    ("operand-buffer select, step control, handshake", ["m3xu_unit", "mma_handshake"], "comb"),
    ("products: pair combine, exponent sums, term muxes", ["m3xu_datapath", "naive_fp32_unit"], "comb"),
    ("exponent max tree", ["mma_max_tree"], "comb"),
    ("alignment shifters", ["mma_align"], "comb"),
    ("shift amounts", ["mma_align_sum"], "comb"),
    ("adder tree (term negation, sum)", ["*_adder_tree"], "comb"),
    ("C placement, exponent raise", ["m3xu_sum"], "comb"),
    ("NaN / infinity", ["mma_special"], "comb"),
    ("normalize, round, pack", ["mma_encode", "mma_normalize", "mma_lzc", "mma_round", "mma_pack"], "comb"),
    ("registers: operand buffers, pipeline, FP32C real part", ["m3xu_unit", "naive_fp32_unit"], "ff"),
    ("registers: product (wide steps)", ["m3xu_datapath"], "ff"),
    ("registers: D, handshake", ["mma_handshake"], "ff"),
]
OTHER = "other"


def base_name(module):
    """A module's RTL name: Yosys' $paramod$HASH\\name (or a plain name) without the prefix."""
    parts = module.lstrip("\\").split("\\")
    return parts[1] if parts[0].startswith("$paramod") and len(parts) > 1 else parts[-1]


def part_of(module, ff):
    b = base_name(module)
    for name, mods, kind in PARTS:
        if kind != "all" and (kind == "ff") != ff:
            continue
        for m in mods:
            if (m.startswith("*") and b.endswith(m[1:])) or b == m:
                return name
    return OTHER


def cell_areas(lib):
    text = open(lib).read()
    return {m.group(1): float(m.group(2)) for m in
            re.finditer(r'cell\s*\(\s*"?([\w]+)"?\s*\)\s*\{.*?\barea\s*:\s*([\d.]+)', text, re.S)}


def read_stat(path):
    """{module: {cell type: count}} from Yosys `stat` output."""
    mods, cur = {}, None
    for line in open(path):
        m = re.match(r"^=== (.+) ===$", line.strip())
        if m:
            cur = None if m.group(1) == "design hierarchy" else m.group(1)
            if cur:
                mods[cur] = {}
            continue
        m = re.match(r"^\s+(\S+)\s+(\d+)\s*$", line)
        if cur and m and not line.strip().startswith("Number"):
            mods[cur][m.group(1)] = int(m.group(2))
    return mods


def top_of(mods):
    used = {t for cells in mods.values() for t in cells if t in mods}
    tops = [m for m in mods if m not in used]
    return tops[0]


def area_by_part(mods, areas, ff_cells):
    out, count = {}, {}

    def walk(mod, mult):
        count[mod] = count.get(mod, 0) + mult
        for t, n in mods[mod].items():
            if t in mods:
                walk(t, mult * n)
            else:
                p = part_of(mod, t in ff_cells)
                out[p] = out.get(p, 0.0) + mult * n * areas.get(t, 0.0)
    walk(top_of(mods), 1)
    return out


def instance_map(netlist, modules):
    """{instance path (a/b/c, no escapes): module} of a hierarchical netlist, from its top."""
    text = open(netlist).read()
    bodies = {}
    for m in re.finditer(r"^module\s+(\S+?)\s*\((.*?)^endmodule", text, re.S | re.M):
        bodies[m.group(1).lstrip("\\")] = m.group(2)
    names = {n.lstrip("\\") for n in modules}
    insts = {mod: [(i.group(2).lstrip("\\"), i.group(1).lstrip("\\")) for i in
                   re.finditer(r"^\s*(\S+)\s+(\S+)\s*\(", body, re.M) if i.group(1).lstrip("\\") in names]
             for mod, body in bodies.items()}
    out = {}

    def walk(mod, path):
        out[path] = mod
        for inst, sub in insts.get(mod, []):
            walk(sub, f"{path}/{inst}" if path else inst)
    top = next(m for m in bodies if m not in {s for v in insts.values() for _, s in v})
    walk(top, "")
    return top, out


def critical(base, top, inst, ff_cells):
    """{part: ps} of the critical path of BASE.v (OpenSTA, the constraints of synth/sta.py), each cell's
    delay to the part of the module instance it sits in; its arrival (ps) and start point."""
    env = os.environ
    tu = float(env.get("TIME_UNIT_PS") or 1000)
    ins, outs = sta.ports(base + ".v", top)
    clk_q = f"{float(env.get('CLK_Q_NS', '0')) * 1000 / tu:.4f}"
    setup = f"{float(env.get('SETUP_NS', '0')) * 1000 / tu:.4f}"
    with open(base + ".sdc", "w") as f:
        f.write(sta.sdc(sta.P0_NS * 1000 / tu, ins, outs, clk_q, setup, env.get("WIRE_LOAD", "")))
    tcl = (f"read_liberty {env['LIB_FILE']}\nread_verilog {base}.v\nlink_design {top}\nread_sdc {base}.sdc\n"
           "report_checks -path_delay max -format full -digits 4\n")
    log = sta.run_sta(base + ".sta.tcl", tcl, base + ".sta.log")
    if log is None:
        return None, None, None
    shares, arrival, start = {}, None, None
    for line in log.split("data arrival time")[0].splitlines():
        m = sta.PATH_LINE.match(line)
        if not m:
            continue
        arrival = float(m.group(2)) * tu
        start = start or m.group(3)
        if m.group(4) in ("in", "out"):
            continue
        pin = m.group(3).replace("\\", "")
        path = pin.rsplit("/", 2)[0] if pin.count("/") >= 2 else ""
        p = "flip-flop clock->Q" if m.group(4) in ff_cells else part_of(inst.get(path, top), False)
        shares[p] = shares.get(p, 0.0) + float(m.group(1)) * tu
    return shares, arrival, start


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--units", required=True)
    ap.add_argument("--designs", required=True)
    ap.add_argument("names", nargs="+")
    a = ap.parse_args(argv)
    units = {l.split()[1]: l.split()[0] for l in open(a.designs) if not l.startswith("#") and len(l.split()) > 1}
    ff_cells = set(os.environ.get("FF_CELLS", "").split())
    areas = cell_areas(os.environ["LIB_FILE"])
    cols, delays = {}, {}
    for d in a.names:
        base = os.path.join(a.dir, d)
        if not (os.path.exists(base + ".stat") and os.path.exists(base + ".v")):
            sys.exit(f"breakdown.py: no synthesis of {d} in {a.dir} ({base}.stat)")
        mods = read_stat(base + ".stat")
        cols[d] = area_by_part(mods, areas, ff_cells)
        top, inst = instance_map(base + ".v", mods)
        delays[d] = critical(base, top, inst, ff_cells)
    names = [p[0] for p in PARTS] + [OTHER]
    ref = sum(cols[a.names[0]].values())
    print("| part (µm², `stat -liberty`) | " + " | ".join(f"{d} ({units.get(d, 'variant')})" for d in a.names) + " |")
    print("|---|" + "---|" * len(a.names))
    for p in names:
        if any(cols[d].get(p, 0.0) > 0 for d in a.names):
            print(f"| {p} | " + " | ".join(f"{cols[d].get(p, 0.0):,.0f}" for d in a.names) + " |")
    print("| **total (hierarchy kept)** | " + " | ".join(f"**{sum(cols[d].values()):,.0f}**" for d in a.names) + " |")
    print(f"| ratio to {a.names[0]} | " + " | ".join(f"{sum(cols[d].values()) / ref:.2f}" for d in a.names) + " |")
    print()
    print("Critical path of the hierarchical netlist (OpenSTA, the constraints of synth/sta.py), ps per part")
    print("(control nets that fan out across modules are unbuffered here: read the datapath rows):")
    print()
    print("| part (ps on the critical path) | " + " | ".join(a.names) + " |")
    print("|---|" + "---|" * len(a.names))
    for p in ["flip-flop clock->Q"] + names:
        if all(delays[d][0] is None or delays[d][0].get(p, 0.0) == 0 for d in a.names):
            continue
        print(f"| {p} | " + " | ".join("-" if delays[d][0] is None or not delays[d][0].get(p) else f"{delays[d][0][p]:,.0f}"
                                     for d in a.names) + " |")
    print("| **arrival** | " + " | ".join("-" if delays[d][1] is None else f"**{delays[d][1]:,.0f}**" for d in a.names) + " |")
    print("| starts at | " + " | ".join("-" if delays[d][2] is None else f"`{delays[d][2]}`" for d in a.names) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
