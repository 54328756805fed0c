#!/usr/bin/env python3
"""Static timing and power of one mapped unit with OpenSTA (`sta`, Debian's opensta), docs/synthesis.md.

    sta.py BASE TOP     BASE.v: the netlist synth/synth_unit.sh wrote; TOP: its module

The library and its facts come from the environment synth/liberty.py sets (LIB_FILE, CLK_Q_NS, SETUP_NS,
TIME_UNIT_PS, WIRE_LOAD, FF_CELLS, TIE_LO, TIE_HI).  Writes
  BASE.sdc      the unit's constraints: clock `clk` (ideal) at the minimum period found; every other input
                delayed by the library flip-flop's clock->Q (CLK_Q_NS), every output required a flip-flop's
                setup (SETUP_NS) before the edge, as if the unit sat between registers of the same library;
                the library's default wire-load model (WIRE_LOAD, mode top) where it has one, else none
  BASE.sta.tcl  the OpenSTA script (`sta -exit BASE.sta.tcl` reproduces BASE.sta.log)
  BASE.sta.log  its output
and prints one line of key=value fields for the unit's row:
  period_ps       the minimum clock period in whole ps: the period of the first run less its worst setup
                  slack, rounded up, plus 1 ps at a time while the slack there is negative
  slack_ps / slack90_ps  the worst slack at that period (>= 0) and at 0.9 of it (< 0)
  unconstrained   endpoints without a timing check (check_setup), unclocked flip-flops added, less the
                  output bits a tie cell drives (constant_outputs: no path to time)
  crit_start, crit_end, crit_levels  the critical path's start and end points (a port, or reg:NAME for the
                  flip-flop holding the register NAME of the flattened RTL) and its cells (flip-flops not
                  counted)
  sta_comb_ps     without the wire load: the longest path's combinational delay (its arrival less the
                  launch: clock->Q or input delay), the figure ABC's `stime` computes (the row's delay_ps)
  power_mw        OpenSTA's report_power at the minimum period with a global activity: every net, inputs
                  and internal, toggles with probability 0.1 per cycle at duty 0.5 (OpenSTA's default input
                  activity, set on every net), the default-activity figure; absent where the library has
                  no power data (cells45: OpenSTA would report 0)
  power_act_mw    at the same period, the activity of the unit's own stimulus (synth/activity.py: the
                  netlist simulated on the random vectors of each instruction it serves, every net's
                  toggles counted), where the units table has its configs.txt beside it.  Debian's 2019
                  OpenSTA reads no VCD or SAIF (no read_vcd, read_saif, read_power_activities), its
                  `set_power_activity -pins` stops in its own Tcl (get_pins_error undefined), a global
                  activity overrides every pin's, and without one its propagation recomputes every cell
                  output from the primary inputs' activity.  So OpenSTA gives each instance's power with
                  every pin at 0 and at 1 transition per cycle (BASE.inst0, BASE.inst1: its own tables at
                  the instance's real load and input slews; the power is linear in that activity) and the
                  instance's power here is P0 + (P1 - P0) x the simulated toggle rate of its output net
  power_idle_mw   the sum of P0: leakage and the flip-flops' clock pins, what a stimulus with no toggle costs
  power_prop_mw   OpenSTA's own propagation from the primary inputs' measured activity (first mode), for
                  comparison: its probabilistic propagation through deep reconvergent logic overestimates
  pj_mac, power_modes   energy per multiply-add: mW x period x steps / K, per mode (M3XU: f16, bf16, f32,
                  f32c) as mode:mW:pJ/MAC:K:steps:arch:instruction; act_source random:FIRST+N (the vectors),
                  act_status the reason when there is none (synth/activity.py's one-line error)
Exits 1 (printing status fields that say why) when OpenSTA fails or the report cannot be read.
"""
import json
import os
import re
import subprocess
import sys

P0_NS = 1000.0  # the first run's clock period: longer than any path
PERIOD_STEPS = 10  # at most this many 1 ps steps past the period that the slack at P0_NS gives


def ports(netlist, top):
    """(inputs, outputs) of module TOP in a netlist written by Yosys' write_verilog."""
    text = open(netlist).read()
    m = re.search(rf"^module {re.escape(top)}\s*\(.*?^endmodule", text, re.S | re.M)
    body = m.group(0) if m else text
    ins = re.findall(r"^\s*input\s+(?:\[[^\]]*\]\s*)?(\S+?)\s*;", body, re.M)
    outs = re.findall(r"^\s*output\s+(?:\[[^\]]*\]\s*)?(\S+?)\s*;", body, re.M)
    return ins, outs


def sdc(period, ins, outs, clk_q, setup, wire_load):
    """The unit's SDC, times in the library's unit."""
    data_in = [p for p in ins if p != "clk"]
    lines = ["# written by synth/sta.py: the unit between flip-flops of its own library",
             f"create_clock -name clk -period {period:.4f} [get_ports clk]"]
    if data_in:
        lines.append(f"set_input_delay {clk_q} -clock clk [get_ports {{{' '.join(data_in)}}}]")
    if outs:
        lines.append(f"set_output_delay {setup} -clock clk [get_ports {{{' '.join(outs)}}}]")
    if wire_load:
        lines += ["set_wire_load_mode top", f"set_wire_load_model -name {wire_load}"]
    return "\n".join(lines) + "\n"


PATH_LINE = re.compile(r"^\s*(-?[\d.]+)\s+(-?[\d.]+)\s+[v^]\s+(\S+)\s+\((\S+)\)\s*$")


def parse_path(block, ff_cells):
    """(start, end, levels, arrival_ns, launch_ns) of one report_checks -format full path."""
    start = re.search(r"^Startpoint: (\S+)", block, re.M)
    end = re.search(r"^Endpoint: (\S+)", block, re.M)
    arrival = re.search(r"^\s*(-?[\d.]+)\s+data arrival time", block, re.M)
    points = [PATH_LINE.match(l) for l in block.splitlines()]
    points = [m for m in points if m]
    if not (start and end and arrival and points):
        return None
    levels = sum(1 for m in points if m.group(4) not in ("in", "out") and m.group(4) not in ff_cells)
    launch = float(points[0].group(2))  # the input port or the flip-flop's Q: after the launch
    return start.group(1), end.group(1), levels, float(arrival.group(1)), launch


def reg_names(netlist, ff_cells):
    """{flip-flop instance: 'reg:NAME'}: NAME the register the flip-flop holds, from its instance name
    NAME_reg (synth/synth_unit.sh names each flip-flop after the net it drives before the netlist's internal
    net names are purged) or else from the named net its Q drives (a port), so that a path's start and end
    read as registers rather than as instance numbers."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from liberty import FF_NAME_SUFFIX  # noqa: E402
    out = {}
    text = open(netlist).read()
    for m in re.finditer(r"^\s*(\S+)\s+(\S+)\s*\((.*?)\);", text, re.S | re.M):
        if m.group(1) in ff_cells:
            inst = m.group(2).lstrip("\\")
            q = re.search(r"\.Q\(\s*(\S+?)\s*\)", m.group(3))
            if inst.endswith(FF_NAME_SUFFIX) and not inst.startswith("_"):
                out[inst] = "reg:" + inst[:-len(FF_NAME_SUFFIX)]
            elif q and not q.group(1).startswith("_"):
                out[inst] = "reg:" + q.group(1).lstrip("\\")
    return out


def constant_ports(netlist, outs):
    """The output port bits a tie cell drives (directly or through insbuf's buffers): they have no timing
    path, so OpenSTA lists them among the unconstrained endpoints."""
    text = open(netlist).read()
    tie = {c.split()[0] for c in (os.environ.get("TIE_LO", ""), os.environ.get("TIE_HI", "")) if c.strip()}
    const = set()
    insts = re.findall(r"^\s*(\S+)\s+\S+\s*\((.*?)\);", text, re.S | re.M)
    for cell, conns in insts:
        if cell in tie:
            const |= {n.lstrip("\\") for n in re.findall(r"\.\w+\(\s*(\S+?)\s*\)", conns)}
    changed = True
    while changed:  # buffers of a constant
        changed = False
        for cell, conns in insts:
            pins = re.findall(r"\.(\w+)\(\s*(\S+?)\s*\)", conns)
            if len(pins) == 2 and pins[0][1].lstrip("\\") in const and pins[1][1].lstrip("\\") not in const:
                const.add(pins[1][1].lstrip("\\"))
                changed = True
    bases = set(outs)
    return {n for n in const if n.split("[")[0] in bases}


def input_bits(netlist, top):
    """The data input port bits of the netlist (bus bits as NAME[i]), the clock left out."""
    text = open(netlist).read()
    m = re.search(rf"^module {re.escape(top)}\s*\(.*?^endmodule", text, re.S | re.M)
    out = []
    for rng, name in re.findall(r"^\s*input\s+(?:\[(\d+):0\]\s*)?(\S+?)\s*;", m.group(0) if m else text, re.M):
        if name != "clk":
            out += [f"{name}[{i}]" for i in range(int(rng) + 1)] if rng else [name]
    return out


def has_power_tables(lib):
    """Whether the Liberty file has power data (cells45 has none: OpenSTA would report 0 W for it)."""
    with open(lib) as f:
        return re.search(r"\b(internal_power|leakage_power)\s*\(|\bcell_leakage_power\s*:", f.read()) is not None


def unit_activity(base, top, lib):
    """(activity, None) from synth/activity.py on the unit's own stimulus, or (None, why not): the units
    table has no configs.txt beside it (a sweep or probe unit: no instruction), the library has no power
    tables (cells45), or the simulation failed."""
    env = os.environ
    row, configs = env.get("UNIT_ROW", ""), env.get("SYNTH_CONFIGS", "")
    if not row or not configs or not os.path.exists(configs):
        return None, None
    if not has_power_tables(lib):
        return None, "none(the-library-has-no-power-tables)"
    with open(base + ".unitrow", "w") as f:
        f.write(row + "\n")
    cmd = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "activity.py"), base + ".v",
           top, lib, base + ".unitrow", configs, env.get("MMAREF", "build/mmaref"), base + ".act.json",
           "--vectors", env.get("SYNTH_POWER_VECTORS", "200"), "--first", env.get("SYNTH_POWER_FIRST", "0")]
    if env.get("SYNTH_POWER_CONSTANT"):
        cmd.append("--constant")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, "failed(" + re.sub(r"\s+", "-", (r.stderr.strip().splitlines() or ["?"])[-1])[:200] + ")"
    with open(base + ".act.json") as f:
        return json.load(f), None


def activity_power(base, act, period_ps, out):
    """The row's activity-based power fields: per instance, OpenSTA's power with every pin at 0 and at 1
    transition per cycle (BASE.inst0, BASE.inst1: its tables at the real loads and slews; linear in the
    activity) combined with the simulated toggle rate of the instance's output net, per mode."""
    p0 = dict(l.split() for l in open(base + ".inst0") if l.strip())
    p1 = dict(l.split() for l in open(base + ".inst1") if l.strip())
    outs = instance_outputs(base + ".v", os.environ["LIB_FILE"])
    fields = {}
    prop = re.search(r"^propagated_w (\S+)", out, re.M)
    if prop:
        fields["power_prop_mw"] = f"{float(prop.group(1)) * 1000:.4g}" if prop.group(1) not in ("nan", "-nan") else "nan"
    idle = sum(float(x) for x in p0.values())
    fields["power_idle_mw"] = f"{idle * 1000:.4g}"
    modes = []
    for mode, m in act["modes"].items():
        a = m["activity"]
        total = 0.0
        for inst, x0 in p0.items():
            nets = [n for n in outs.get(inst, []) if n in a]
            rate = sum(a[n][0] for n in nets) / len(nets) if nets else 0.0
            total += float(x0) + (float(p1[inst]) - float(x0)) * rate
        mw = total * 1000
        pj_mac = mw * period_ps * m["steps"] / m["k"] / 1000
        modes.append(f"{mode}:{mw:.4g}:{pj_mac:.4g}:{m['k']}:{m['steps']}:{m['arch']}:{m['instr']}")
    first = modes[0].split(":")
    fields["power_act_mw"] = first[1]
    fields["pj_mac"] = first[2]
    fields["power_modes"] = ",".join(modes)
    fields["act_source"] = f"random:{act['first']}+{act['vectors']}" + (":constant" if act.get("constant") else "")
    return fields


def instance_outputs(netlist, lib):
    """{instance: [the nets its output pins drive]}."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import activity  # noqa: E402
    ports, insts = activity.read_netlist(netlist, re.search(r"^module (\S+?)\s*\(", open(netlist).read(), re.M).group(1))
    cells = activity.liberty_cells(lib, {c for c, _, _ in insts})
    return {inst: [pins[p] for p in cells[c]["out"] if p in pins] for c, inst, pins in insts}


def run_sta(tcl_path, tcl, log_path):
    with open(tcl_path, "w") as f:
        f.write(tcl)
    try:
        r = subprocess.run(["sta", "-no_splash", "-exit", tcl_path], capture_output=True, text=True, timeout=3600)
    except FileNotFoundError:
        return None
    with open(log_path, "w") as f:
        f.write(r.stdout + r.stderr)
    return r.stdout + r.stderr


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: sta.py BASE TOP")
    base, top = argv
    env = os.environ
    lib, wire_load = env["LIB_FILE"], env.get("WIRE_LOAD", "")
    # OpenSTA reads the SDC and reports in the library's time unit (1 ns for NanGate and sky130, 1 ps for
    # e.g. ASAP7): TU ps each
    tu = float(env.get("TIME_UNIT_PS") or 1000)
    clk_q = f"{float(env.get('CLK_Q_NS', '0')) * 1000 / tu:.4f}"
    setup = f"{float(env.get('SETUP_NS', '0')) * 1000 / tu:.4f}"
    p0 = P0_NS * 1000 / tu
    ff_cells = set(env.get("FF_CELLS", "").split())
    ins, outs = ports(base + ".v", top)
    if "clk" not in ins:
        print("sta_status=no-clk-port")
        return 1
    head = f"read_liberty {lib}\nread_verilog {base}.v\nlink_design {top}\n"
    # the unit's own activity (synth/activity.py) where its units table has the instructions beside it
    act, act_note = unit_activity(base, top, lib)
    prop = per_inst = ""
    if act:
        first = next(iter(act["modes"].values()))
        prop = "puts \"== propagated\"\n" + "".join(
            f"set_power_activity -input_ports [get_ports {{{n}}}] -activity {first['activity'][n][0]} "
            f"-duty {first['activity'][n][1]}\n" for n in input_bits(base + ".v", top) if n in first["activity"]) \
            + "puts \"propagated_w [lindex [sta::design_power [sta::cmd_corner]] 3]\"\n"
        per_inst = "".join(
            f"set_power_activity -global -activity {a} -duty 0.5\nset f [open {base}.inst{i} w]\n"
            "foreach inst [get_cells *] { puts $f \"[get_full_name $inst] "
            "[lindex [sta::instance_power $inst [sta::cmd_corner]] 3]\" }\nclose $f\n"
            f"puts \"global{i}_w [lindex [sta::design_power [sta::cmd_corner]] 3]\"\n"
            for i, a in ((0, 0.0), (1, 1.0)))
    # 1. the reported timing: the unit's SDC at P0, then at the minimum period (and 0.9 of it), power there
    with open(base + ".sdc", "w") as f:
        f.write(sdc(p0, ins, outs, clk_q, setup, wire_load))
    tcl = head + f"""read_sdc {base}.sdc
puts "== check_setup"
check_setup -verbose -unconstrained_endpoints -no_clock
puts "== path"
report_checks -path_delay max -format full -digits 4
puts "== end"
set slack [sta::time_sta_ui [sta::worst_slack_cmd max]]
set period [expr {{ceil(({p0} - $slack) * {tu}) / {tu}}}]
create_clock -name clk -period $period [get_ports clk]
# OpenSTA's times are single-precision floats (a step is ~0.1 ps at P0 = 1000 ns): the period the slack
# at P0 gives may miss by a fraction of a ps; 1 ps more until the worst slack is not negative
for {{set i 0}} {{$i < {PERIOD_STEPS} && [sta::time_sta_ui [sta::worst_slack_cmd max]] < 0}} {{incr i}} {{
  set period [expr {{$period + 1.0 / {tu}}}]
  create_clock -name clk -period $period [get_ports clk]
}}
puts "== period $period"
report_worst_slack -digits 4
{prop}set_power_activity -global -activity 0.1 -duty 0.5
set_power_activity -input -activity 0.1 -duty 0.5
puts "== power"
report_power -digits 6
{per_inst}create_clock -name clk -period [expr {{0.9 * $period}}] [get_ports clk]
puts "== slack90"
report_worst_slack -digits 4
"""
    out = run_sta(base + ".sta.tcl", tcl, base + ".sta.log")
    if out is None:
        print("sta_status=no-opensta")
        return 1
    fields = {}
    # the endpoints check_setup lists, less the output bits that are constants (tie cells)
    m = re.search(r"== check_setup\n(.*?)== path", out, re.S)
    listed = [l.strip() for l in (m.group(1) if m else "").splitlines() if l.startswith(" ")]
    warned = sum(int(n) for n in re.findall(r"There (?:are|is) (\d+) (?:unconstrained endpoints?|unclocked)", out))
    const = constant_ports(base + ".v", outs)
    unc = warned - sum(1 for n in listed if n in const)
    fields["unconstrained"] = unc
    fields["constant_outputs"] = len(const)
    m = re.search(r"== path\n(.*?)== end", out, re.S)
    path = parse_path(m.group(1), ff_cells) if m else None
    per = re.search(r"== period (\S+)", out)
    slack = re.search(r"== period .*?worst slack (-?[\d.]+)", out, re.S)
    slack90 = re.search(r"== slack90\s*\nworst slack (-?[\d.]+)", out)
    if path is None or per is None or slack is None or slack90 is None:
        print(f"sta_status=FAILED(see-{base}.sta.log) unconstrained={unc}")
        return 1
    period = float(per.group(1))
    regs = reg_names(base + ".v", ff_cells)
    path = (regs.get(path[0], path[0]), regs.get(path[1], path[1])) + path[2:]
    fields.update(period_ps=f"{period * tu:.0f}", slack_ps=f"{float(slack.group(1)) * tu:.1f}",
                  slack90_ps=f"{float(slack90.group(1)) * tu:.1f}", crit_start=path[0], crit_end=path[1],
                  crit_levels=path[2])
    pw = re.search(r"^Total\s+\S+\s+\S+\s+\S+\s+(\S+)", out, re.M)
    if pw and has_power_tables(lib):  # no power_mw where the library has no power data
        fields["power_mw"] = f"{float(pw.group(1)) * 1000:.4g}"
    if act:
        fields.update(activity_power(base, act, period * tu, out))
    elif act_note:
        fields["act_status"] = act_note
    with open(base + ".sdc", "w") as f:  # the SDC a user reads: at the minimum period
        f.write(sdc(period, ins, outs, clk_q, setup, wire_load))
    # 2. the cross-check with ABC: the same constraints without a wire load; the longest path's delay
    # from its launch (ABC's primary inputs are the flip-flop outputs and the ports, at time 0)
    with open(base + ".nowl.sdc", "w") as f:
        f.write(sdc(p0, ins, outs, clk_q, setup, ""))
    out2 = run_sta(base + ".nowl.tcl", head + f"read_sdc {base}.nowl.sdc\n"
                   "report_checks -path_delay max -format full -digits 4 -sort_by_slack\n", base + ".nowl.log")
    p2 = parse_path(out2 or "", ff_cells)
    if p2:
        fields["sta_comb_ps"] = f"{(p2[3] - p2[4]) * tu:.1f}"
    fields["wire_load"] = wire_load or "none"
    fields["sta_status"] = "ok" if unc == 0 else "UNCONSTRAINED"
    print(" ".join(f"{k}={v}" for k, v in fields.items()))
    return 0 if unc == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
