#!/usr/bin/env python3
"""The synthesis report (docs/synthesis.md): one row per unit of a units table, from the rows that
synth/synth_unit.sh left in DIR (unitN.row), as DIR/report.md and DIR/report.json, the table printed.

With the M3XU designs in the table (build/rtl/gen/designs.txt names them) and the multiplier probe's rows
(--mul-probe DIR2: synth/units_extra.py mulprobe), also the M3XU table beside the paper's Table III and the
share of M3XU's overhead that comes from the 12th significand bit.

A unit's row comes from the first --dir that holds an ok one (so a unit synthesized apart, e.g. with
SYNTH_ABC=nosat, joins the table with its ABC script named); a --dir may also be an earlier report.json (the
committed synth/report-LIB_NAME.json: hours of synthesis need not be run again to add one unit).  --m3xu-dir DIR3
takes every M3XU design's row from DIR3, so that the Table III ratios come from one ABC script.  The report
is written to --out, by default the first --dir.

usage: report.py --units UNITS --dir DIR [--dir DIR...] [--out DIR] [--designs DESIGNS] [--mul-probe DIR2]
                 [--m3xu-dir DIR3] [--title T] [UNIT...]
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_cells45 import DFF  # noqa: E402  (the flip-flop's timing: the cycle time's register overhead)


def flow_abc_default():
    """ABC's default script, as synth/flow.sh names it (FLOW_ABC_DEFAULT): a row made with it names no
    SYNTH_ABC in its command."""
    flow = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "flow.sh")).read()
    return re.search(r"\bFLOW_ABC_DEFAULT=(\w+)", flow).group(1)


ABC_DEFAULT = flow_abc_default()
ABC_UNNAMED = "full"  # the script of a row written before rows named theirs (an older report.json's row)

# The M3XU paper's Table III (relative to the FP16 baseline MXU), Design Compiler on FreePDK45
PAPER = (("baseline-fp16", "FP16 baseline", 1.0, 1.0), ("naive-fp32", "FP32 w/o FP32C (naive)", 3.55, 1.00),
         ("m3xu-without-fp32c", "M3XU w/o FP32C", 1.37, 1.21), ("m3xu", "M3XU", 1.41, 1.21),
         ("m3xu-pipelined", "M3XU pipelined", 1.47, 1.00))
PAPER_12TH_BIT_SHARE = 0.56  # "56% of that overhead comes from the ... additional 1 bit of mantissa"
# register overhead of a cycle: the flip-flop's CK->Q (the slower edge at no load) and its setup time
_, DFF_AREA, _, CQ_RISE, CQ_FALL, SETUP_PS, _ = DFF
REG_PS = max(CQ_RISE[0], CQ_FALL[0]) + SETUP_PS


def codes(prefix):
    """{code: name} of rtl/mma_formats.svh's FMT_ or OUT_ constants (the model's schema)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rtl", "mma_formats.svh")
    pat = re.compile(rf"localparam int {prefix}_([A-Z0-9_]+) *= *(\d+);")
    names = {}
    for m in pat.finditer(open(path).read()):
        if m.group(1) not in ("BITS", "TABLE_ROW") and not m.group(1).startswith("NUM"):
            names[int(m.group(2))] = m.group(1).lower().replace("_", "-")
    return names


def mask_names(mask, names):
    return "/".join(names[c] for c in sorted(names) if mask >> c & 1) or "-"


# the fields of a unitN.row (synth/synth_unit.sh) that a report.json row carries over
ROW_FIELDS = ("cells", "area_um2", "flops", "delay_ps", "depth", "latches", "status", "seconds", "script", "lib",
              "lib_real", "period_ps", "slack_ps", "slack90_ps", "unconstrained", "crit_start", "crit_end",
              "crit_levels", "sta_comb_ps", "power_mw", "wire_load", "sta_status", "power_act_mw", "power_idle_mw",
              "power_prop_mw", "pj_mac", "power_modes", "act_source", "act_status", "abc_after_s")


def power_modes(row):
    """The row's activity-based power per mode (synth/sta.py's power_modes field: mode:mW:pJ/MAC:K:steps:
    arch:instruction, comma-separated) as dicts."""
    out = []
    for m in filter(None, str(row.get("power_modes", "")).split(",")):
        mode, mw, pj, k, steps, arch, instr = m.split(":", 6)
        out.append(dict(mode=mode, mw=float(mw), pj_per_mac=float(pj), k=int(k), steps=int(steps), arch=arch,
                        instr=instr))
    return out


def modes_text(row):
    """'f16 0.83, bf16 0.80' (pJ per multiply-add by mode), '-' without activity."""
    ms = power_modes(row)
    if not ms:
        return "-" if not row.get("act_status") else f"- ({row['act_status'][:40]})"
    return ", ".join(f"{m['mode']} {m['pj_per_mac']:.3g}" for m in ms)


def row_value(key, value):
    """A report.json row's field as its unitN.row writes it (power_modes: the report's parsed list back to
    mode:mW:pJ/MAC:K:steps:arch:instruction, comma-separated)."""
    if key == "power_modes" and isinstance(value, list):
        return ",".join(f"{m['mode']}:{m['mw']}:{m['pj_per_mac']}:{m['k']}:{m['steps']}:{m['arch']}:{m['instr']}"
                        for m in value)
    return str(value)


def read_result(row_dirs, unit):
    """A unit's synthesis result (unitN.row as a dict, with its ABC script) from the first directory that
    holds an ok one, else from the first that holds one; {} if none does."""
    found = []
    for d in row_dirs:
        if d.endswith(".json"):  # an earlier report: its rows hold the row file's fields
            found += [dict({k: row_value(k, v) for k, v in r.items() if k in ROW_FIELDS}, abc=r.get("abc", ABC_UNNAMED))
                      for r in json.load(open(d))["rows"] if str(r["unit"]) == str(unit) and "status" in r]
            continue
        path = os.path.join(d, f"unit{unit}.row")
        if not os.path.exists(path):
            continue
        res = dict(kv.split("=", 1) for kv in open(path).read().split())
        if "abc" not in res:  # rows written before synth_unit.sh named it: the unit's key says
            key = os.path.join(d, f"unit{unit}.key")
            res["abc"] = "nosat" if os.path.exists(key) and "abc=nosat" in open(key).read() else ABC_UNNAMED
        found.append(res)
    return next((r for r in found if r.get("status") == "ok"), found[0] if found else {})


def read_rows(units_path, row_dirs, wanted):
    """The units table's rows (not the mutants) with their synthesis results."""
    if isinstance(row_dirs, str):
        row_dirs = [row_dirs]
    rows = []
    for line in open(units_path):
        if line.startswith("#") or not line.strip():
            continue
        col = line.split()
        if col[9] != "0" or (wanted and col[0] not in wanted):
            continue
        res = read_result(row_dirs, col[0])
        rows.append(dict(res, unit=int(col[0]), algo=col[1], K=int(col[2]), F=int(col[3]), chain=int(col[4]),
                         block=int(col[5]), ab_mask=int(col[6]), c_mask=int(col[7]), out_mask=int(col[8]),
                         top=col[10], params=col[11], status=res.get("status", "not run")))
    return rows


def serves(units_path):
    """{unit: [(arch, instruction), ...]}: the configurations each unit checks (configs.txt beside the
    units table, tb/gen_configs.py), so a row says what it is for rather than only its index, which shifts
    when the table gains units."""
    path = os.path.join(os.path.dirname(units_path), "configs.txt")
    out = {}
    if os.path.exists(path):
        for line in open(path):
            col = line.split()
            if line.startswith("#") or len(col) < 5 or col[2] != "check":
                continue
            out.setdefault(int(col[1]), []).append((col[3], col[4]))
    return out


def serves_text(configs):
    """'hopper, blackwell: 12 instructions' or the one instruction it serves."""
    if not configs:
        return ""
    if len(configs) == 1:
        return f"{configs[0][0]} {configs[0][1]}"
    arches = list(dict.fromkeys(a for a, _ in configs))
    return f"{', '.join(arches)}: {len(configs)} instructions"


def num(row, key):
    try:
        return float(row[key])
    except (KeyError, ValueError):
        return None


def m3xu_table(rows, designs, probe):
    """The Table III comparison and the 12th bit's share; None without the designs' rows."""
    by = {designs.get(r["unit"]): r for r in rows}
    base = by.get("baseline-fp16")
    if base is None or num(base, "area_um2") is None:
        return None
    # the cycle: OpenSTA's minimum period where the rows have one, else ABC's delay + the register overhead
    sta = all(num(r, "period_ps") is not None for r in by.values() if r)
    cycle = (lambda r: num(r, "period_ps")) if sta else (lambda r: num(r, "delay_ps") + REG_PS)  # noqa: E731
    table = []
    for name, label, p_area, p_cycle in PAPER:
        r = by.get(name)
        if r is None or num(r, "area_um2") is None or (num(r, "period_ps") if sta else num(r, "delay_ps")) is None:
            table.append(dict(design=name, label=label, paper_area=p_area, paper_cycle=p_cycle))
            continue
        table.append(dict(design=name, label=label, unit=r["unit"], area_um2=num(r, "area_um2"),
                          cycle_ps=cycle(r), area=num(r, "area_um2") / num(base, "area_um2"),
                          cycle=cycle(r) / cycle(base), paper_area=p_area, paper_cycle=p_cycle))
    out = dict(reg_ps=None if sta else REG_PS, cycle_from="OpenSTA minimum period" if sta else "ABC delay + register", rows=table, abc=sorted({r.get("abc", ABC_UNNAMED) for r in by.values() if r}))
    # the 12th bit: the L multipliers alone at 11 and 12 bits (the probe), against M3XU's overhead
    # (their combinational area: the probe's input and output registers taken out)
    mul = {int(p["params"].split("W=")[1].split(",")[0]): num(p, "area_um2") - num(p, "flops") * DFF_AREA
           for p in probe}
    wo = by.get("m3xu-without-fp32c")
    if 11 in mul and 12 in mul and None not in (mul[11], mul[12]) and wo and num(wo, "area_um2"):
        overhead = num(wo, "area_um2") - num(base, "area_um2")
        extra = mul[12] - mul[11]
        base12 = num(base, "area_um2") + extra
        out["twelfth_bit"] = dict(mul11_um2=mul[11], mul12_um2=mul[12], extra_um2=extra, overhead_um2=overhead,
                                  share=extra / overhead, paper_share=PAPER_12TH_BIT_SHARE,
                                  overhead_over_12bit_baseline=(num(wo, "area_um2") - base12) / base12,
                                  mul24_um2=mul.get(24))
    return out


# What a row's ABC script does (synth/flow.sh), for the M3XU section's note.
ABC_SCRIPT_NOTE = {
    "nosat": "without the SAT sweeps &fraig -x and scorr, which run for hours on the naive unit's 24 x 24 multipliers",
    "bounded": "the SAT sweep &fraig -x gives up on a pair of nodes after FLOW_BOUNDED_CONFLICTS conflicts (synth/flow.sh)",
    "full": "the SAT sweep &fraig -x settles every pair of nodes however many conflicts it takes",
}


def abc_text(row):
    """The status cell's note on a row not run with ABC's default script."""
    if row.get("abc", ABC_UNNAMED) == ABC_DEFAULT:
        return ""
    after = f" after the sweeps' {row['abc_after_s']} s" if row.get("abc_after_s") else ""
    return f" (ABC {row['abc']}{after})"


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def markdown(title, rows, designs, m3xu, fmts, outs, env, served):
    libs = sorted({r.get("lib", "cells45") for r in rows if r.get("status") == "ok"})
    approx = any(r.get("lib_real", "0") == "0" for r in rows if r.get("status") == "ok")
    wl = sorted({r.get("wire_load") for r in rows if r.get("wire_load")})
    powered = any(num(r, "power_mw") for r in rows if r.get("status") == "ok")
    lines = [f"# {title}", "",
             f"Library: **{', '.join(libs) or '-'}**. Yosys 0.23 onto {', '.join(libs) or 'the library'} (docs/synthesis.md); timing by OpenSTA. "
             + ("**Rows on cells45, the project's own approximate library (the fallback when no real library is found): its "
                "delays are about 1.6-1.9x NanGate's, its timing is approximate.** " if approx else "")
             + "Area: `stat -liberty` (cells only, no wiring). Period: OpenSTA's minimum clock period, the unit "
             "between flip-flops of its library (input delay a flip-flop's clock->Q, output delay its setup), "
             f"wire-load model {', '.join(wl) or 'none'}; critical path: its start and end points and cells "
             "(flip-flops not counted). ABC ps: ABC's `stime` combinational critical path (no wire load), a "
             "cross-check; depth: mapped logic levels (ABC `lev`). "
             + ("mW: OpenSTA's report_power at the minimum "
                "period with its default activity, every net toggling with probability 0.1 per cycle, pJ/cycle = mW x "
                "period. mW act.: at the same period with the activity of the unit's own stimulus (the bench's vectors "
                "of the instruction it serves, `mmaref gen ARCH INSTR --kind random --n 200`, simulated on the "
                "netlist, every net's toggles counted; OpenSTA's energy per transition of each cell; "
                "docs/synthesis.md); pJ/MAC: energy per multiply-add by mode, mW act. x period x the cycles a "
                "vector holds the unit / its products (FP32C: per complex multiply-add). " if powered else
                "No power (mW, pJ): no row has a figure, the library has no power tables. ")
             + f"Reproduce a row: `{env + ' ' if env else ''}bash synth/synth.sh UNIT` (or `yosys -s` its script); "
             "UNIT is the row's index in this commit's units table (build/rtl/gen/units.txt), which shifts when the "
             "instruction table gains units: a row is identified by what it serves and its parameters.", "",
             "| unit | design or instructions served | top | K | F | chain | block | A/B formats | C | out | cells | area µm² | flops "
             "| period ps | critical path | levels | ABC ps | depth | mW | pJ/cycle | mW act. | pJ/MAC by mode | s | status |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['unit']} | {designs.get(r['unit']) or serves_text(served.get(r['unit']))} | {r['top']} | {r['K']} | {r['F']} | {r['chain']} "
                     f"| {r['block']} | {mask_names(r['ab_mask'], fmts)} | {mask_names(r['c_mask'], fmts)} "
                     f"| {mask_names(r['out_mask'], outs)} | {r.get('cells', '-')} | {fmt(num(r, 'area_um2'), ',.0f')} "
                     f"| {r.get('flops', '-')} | {fmt(num(r, 'period_ps'), ',.0f')} "
                     f"| {(r['crit_start'] + ' → ' + r['crit_end']) if r.get('crit_start') else '-'} "
                     f"| {r.get('crit_levels', '-')} | {fmt(num(r, 'delay_ps'), ',.0f')} | {r.get('depth', '-')} "
                     f"| {fmt(num(r, 'power_mw') or None, '.3g')} "
                     f"| {fmt((num(r, 'power_mw') or 0) * num(r, 'period_ps') / 1000 if num(r, 'power_mw') and num(r, 'period_ps') else None, '.3g')} "
                     f"| {fmt(num(r, 'power_act_mw'), '.3g')} | {modes_text(r)} "
                     f"| {r.get('seconds', '-')} | {r['status']}{abc_text(r)} |")
    if m3xu:
        lines += ["", "## M3XU beside the paper's Table III", "",
                  (f"Cycle time = ABC delay + {m3xu['reg_ps']} ps register overhead (CK->Q + setup of DFF_X1); "
                   if m3xu.get("reg_ps") else "Cycle time = OpenSTA's minimum period; ")
                  + "both normalized to the FP16 baseline (`baseline-fp16`, MUL_W 11).", "",
                  "| design | unit | area µm² | area | paper | cycle ps | cycle | paper |",
                  "|---|---|---|---|---|---|---|---|"]
        for t in m3xu["rows"]:
            lines.append(f"| {t['label']} | {t.get('unit', '-')} | {fmt(t.get('area_um2'), ',.0f')} "
                         f"| {fmt(t.get('area'), '.2f')} | {t['paper_area']:.2f} | {fmt(t.get('cycle_ps'), ',.0f')} "
                         f"| {fmt(t.get('cycle'), '.2f')} | {t['paper_cycle']:.2f} |")
        if m3xu["abc"] != [ABC_DEFAULT]:
            lines += ["", f"ABC script of these rows: {', '.join(m3xu['abc'])} ("
                      + "; ".join(f"SYNTH_ABC={s}: {ABC_SCRIPT_NOTE.get(s, 'see synth/flow.sh')}" for s in m3xu["abc"] if s != ABC_DEFAULT) + ")."]
            for c in m3xu.get("script_cost", []):
                lines.append(f"- {c['label']}: {c['full_um2']:,.0f} µm² with the {ABC_DEFAULT} script, "
                             f"{c['nosat_um2']:,.0f} without the sweeps ({100 * (c['nosat_um2'] / c['full_um2'] - 1):+.1f} %); "
                             f"delay {c['full_ps']:,.0f} / {c['nosat_ps']:,.0f} ps")
        tb = m3xu.get("twelfth_bit")
        if tb:
            lines += ["", f"The 12th significand bit: 8 multipliers of 11 bits {tb['mul11_um2']:,.0f} µm², of 12 bits "
                      f"{tb['mul12_um2']:,.0f} µm² (+{tb['extra_um2']:,.0f}); M3XU w/o FP32C's overhead over the "
                      f"baseline {tb['overhead_um2']:,.0f} µm²: the 12th bit is {100 * tb['share']:.0f} % of it "
                      f"(paper: {100 * tb['paper_share']:.0f} %). Over a baseline that already has 12-bit "
                      f"multipliers the overhead is {100 * tb['overhead_over_12bit_baseline']:.0f} % (paper: 16 %)."]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", required=True)
    ap.add_argument("--dir", required=True, action="append", help="row directories, the first one also the output's")
    ap.add_argument("--out", help="the report's directory (default: the first --dir)")
    ap.add_argument("--m3xu-dir", help="the M3XU designs' rows for the Table III comparison")
    ap.add_argument("--designs", default="build/rtl/gen/designs.txt")
    ap.add_argument("--mul-probe")
    ap.add_argument("--title", default="Synthesis report")
    ap.add_argument("--env", default="", help="the environment a row's command needs (SYNTH_UNITS=... SYNTH_OUT=...)")
    ap.add_argument("unit", nargs="*")
    a = ap.parse_args()
    for path in [a.units] + a.dir + ([a.m3xu_dir] if a.m3xu_dir else []):
        if not os.path.exists(path):
            sys.exit(f"report.py: {path}: no such file or directory")
    out_dir = a.out or a.dir[0]
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    elif out_dir.endswith(".json"):
        sys.exit("report.py: the first --dir is a report.json: name a directory with --out")
    rows = read_rows(a.units, a.dir, set(a.unit))
    designs = {}
    if os.path.exists(a.designs) and os.path.abspath(os.path.dirname(a.designs)) == \
            os.path.abspath(os.path.dirname(a.units)):
        for line in open(a.designs):
            if not line.startswith("#") and line.strip():
                n, name = line.split()
                designs[int(n)] = name
    probe = []
    if a.mul_probe:
        probe = [r for r in read_rows(os.path.join(a.mul_probe, "units.txt"), a.mul_probe, set())
                 if r["status"] == "ok"]
    m3xu_rows = read_rows(a.units, [a.m3xu_dir], {str(n) for n in designs}) if a.m3xu_dir else rows
    m3xu = m3xu_table(m3xu_rows, designs, probe)
    if m3xu and a.m3xu_dir:  # what the other ABC script costs, on the designs the main rows have with the default
        main = {r["unit"]: r for r in rows if r["status"] == "ok" and r.get("abc") == ABC_DEFAULT}
        label = {name: lab for name, lab, _, _ in PAPER}
        m3xu["script_cost"] = [
            dict(design=designs[r["unit"]], label=label.get(designs[r["unit"]], designs[r["unit"]]),
                 full_um2=num(main[r["unit"]], "area_um2"), nosat_um2=num(r, "area_um2"),
                 full_ps=num(main[r["unit"]], "delay_ps"), nosat_ps=num(r, "delay_ps"))
            for r in m3xu_rows if r["status"] == "ok" and r.get("abc") == "nosat" and r["unit"] in main]
    fmts, outs = codes("FMT"), codes("OUT")
    served = serves(a.units)
    md = markdown(a.title, rows, designs, m3xu, fmts, outs, a.env, served)
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(md)
    report = dict(library=", ".join(libs) if (libs := sorted({r.get("lib", "cells45") for r in rows
                                                             if r.get("status") == "ok"})) else "-",
                  approximate=any(r.get("lib_real", "0") == "0" for r in rows if r.get("status") == "ok"),
                  tool="Yosys 0.23, OpenSTA", reg_ps=REG_PS,
                  power=("power_mw: OpenSTA's default activity (0.1 per cycle on every net, duty 0.5); "
                         "power_act_mw: the unit's own stimulus simulated on the netlist (act_source: "
                         "random:FIRST+N, the vectors mmaref gen ARCH INSTR --kind random --first FIRST --n N), every net's "
                         "toggles, with OpenSTA's per-cell energy; power_idle_mw: no data toggles (leakage and "
                         "the flip-flops' clock pins); power_prop_mw: OpenSTA's own propagation from the "
                         "inputs' measured activity; power_modes: mW and pJ per multiply-add by mode, at the "
                         "minimum period"),
                  rows=[
        dict(r, power_modes=power_modes(r), design=designs.get(r["unit"]), serves=[f"{x} {y}" for x, y in served.get(r["unit"], [])], ab=mask_names(r["ab_mask"], fmts), c=mask_names(r["c_mask"], fmts),
             out=mask_names(r["out_mask"], outs), command=" ".join(x for x in (a.env, f"SYNTH_ABC={r['abc']}" if r.get("abc", ABC_UNNAMED) != ABC_DEFAULT and "SYNTH_ABC" not in a.env else "",
                                                      f"bash synth/synth.sh {r['unit']}") if x)) for r in rows])
    if m3xu:
        report["m3xu"] = m3xu
    with open(os.path.join(out_dir, "report.json"), "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print(md, end="")
    print(f"written: {os.path.join(out_dir, 'report.md')}, {os.path.join(out_dir, 'report.json')}")
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
