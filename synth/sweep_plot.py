#!/usr/bin/env python3
"""The fda_unit sweep's table, answers and plot (make synth-sweep; docs/synthesis.md).

Reads DIR/units.txt, DIR/sets.txt (synth/units_extra.py sweep) and the rows synth/synth_unit.sh left in
DIR; writes DIR/sweep.csv, DIR/sweep.json (the rows and the answers), DIR/sweep.md (area, critical path
and power by format set, K and F, then the three answers: Hopper's extra bit F = 25 against 24,
Blackwell's FP8 F = 25 against 13, run-time formats against one format) and DIR/sweep.png through
gnuplot, run from an argument vector (no shell), as `mmaref study` does.  A unit's critical path is
OpenSTA's minimum period where the row has one (a real library), else ABC's delay (approximate: no
OpenSTA, or cells45's linear timing).

usage: sweep_plot.py DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import num, read_rows  # noqa: E402
from units_extra import FORMAT_SETS  # noqa: E402

SINGLE = {"f16/bf16": "f16", "f16/bf16/tf32": "f16", "fp8": "e4m3", "f8f6f4": "e4m3",
          "fp8+scales": "e4m3", "f8f6f4+scales": "e4m3"}  # each set's single-format unit


def pct(new, old):
    return f"{100 * (new / old - 1):+.1f} %"


def answers(res):
    """The three questions, from the units present: lines of markdown."""
    out = ["", "## Answers", ""]
    q1 = [(k, res[("f16/bf16", k, 24)], res[("f16/bf16", k, 25)]) for (s, k, f) in sorted(res)
          if s == "f16/bf16" and f == 24 and ("f16/bf16", k, 25) in res]
    out.append("**Hopper's extra bit (f16/bf16, F = 25 against Ampere's 24):** " + ("; ".join(
        f"K = {k}: area {pct(b['area'], a['area'])}, path {pct(b['path_ps'], a['path_ps'])}" for k, a, b in q1)
        or "not run") + ".")
    q2 = [(k, res[("fp8", k, 13)], res[("fp8", k, 25)]) for (s, k, f) in sorted(res)
          if s == "fp8" and f == 13 and ("fp8", k, 25) in res]
    out.append("")
    out.append("**Blackwell's FP8 precision (e4m3/e5m2, F = 25 against Hopper's 13):** " + ("; ".join(
        f"K = {k}: area {pct(b['area'], a['area'])}, path {pct(b['path_ps'], a['path_ps'])}" for k, a, b in q2)
        or "not run") + ".")
    q3 = [(s, k, f, res[(s, k, f)], res[(SINGLE[s], k, f)]) for (s, k, f) in sorted(res, key=lambda x: (x[1], x[2]))
          if s in SINGLE and (SINGLE[s], k, f) in res]
    out.append("")
    out.append("**Run-time formats against a single-format unit (same K, F):** " + ("; ".join(
        f"{s} against {SINGLE[s]} (K = {k}, F = {f}): area {pct(r['area'], one['area'])}, "
        f"path {pct(r['path_ps'], one['path_ps'])}" for s, k, f, r, one in q3) or "not run") + ".")
    return out


def main(argv):
    if len(argv) != 1 or not os.path.exists(os.path.join(argv[0], "units.txt")):
        sys.exit("usage: sweep_plot.py DIR (DIR/units.txt from synth/units_extra.py sweep)")
    d = argv[0]
    try:
        sets = dict(line.split() for line in open(os.path.join(d, "sets.txt")) if not line.startswith("#"))
    except (OSError, ValueError) as e:
        sys.exit(f"sweep_plot.py: {os.path.join(d, 'sets.txt')}: {e.strerror if isinstance(e, OSError) else e} "
                 "(synth/units_extra.py sweep writes it beside units.txt)")
    res = {}
    for r in read_rows(os.path.join(d, "units.txt"), d, set()):
        if r["status"] == "ok":
            period = num(r, "period_ps")
            res[(sets[str(r["unit"])], r["K"], r["F"])] = dict(
                area=num(r, "area_um2"), path_ps=period if period is not None else num(r, "delay_ps"),
                abc_ps=num(r, "delay_ps"), period_ps=period, power_mw=num(r, "power_mw"), depth=r.get("depth"),
                unit=r["unit"], lib=r.get("lib", "?"), params=r["params"], seconds=num(r, "seconds"))
    if not res:
        sys.exit(f"sweep_plot.py: no synthesized unit in {d} (run make synth-sweep)")
    libs = sorted({v["lib"] for v in res.values()})
    timed = [v["period_ps"] is not None for v in res.values()]
    path_name = ("OpenSTA's minimum period" if all(timed) else "ABC's delay (no row has an OpenSTA period: approximate)"
                 if not any(timed) else "OpenSTA's minimum period where a row has one, else ABC's delay")
    csv = os.path.join(d, "sweep.csv")
    with open(csv, "w") as f:
        f.write("format_set,K,F,area_um2,path_ps,abc_ps,power_mw,depth,unit\n")
        # by (set, F, K): each series of the K plot in consecutive rows (gnuplot breaks a line at the
        # 1/0 of another series' row)
        for (s, k, fb), v in sorted(res.items(), key=lambda x: (x[0][0], x[0][2], x[0][1])):
            f.write(",".join("" if x is None else str(x) for x in (  # a figure the row lacks: empty
                s, k, fb, v['area'], v['path_ps'], v['abc_ps'], v['power_mw'], v['depth'], v['unit'])) + "\n")
    order = sorted(res, key=lambda x: (list(FORMAT_SETS).index(x[0]), x[1], x[2]))
    cell = lambda x, spec: "-" if x is None else format(x, spec)  # noqa: E731
    md = [f"# fda_unit sweep: area and critical path on {', '.join(libs)} (Yosys 0.23"
          + (", OpenSTA)" if any(timed) else ")"), "",
          f"Critical path: {path_name}; ABC ps: ABC's own estimate, a cross-check; power: OpenSTA at the "
          "default activity (0.1 per cycle on every net) at the minimum period. C f32, D f32-rz; `+scales`: "
          "UE8M0 block scales, block min(K, 32). Reproduce: `make synth-sweep LIB=LIBRARY SWEEP_SUBSET=series` "
          "(or `answers`, `all`); one unit, once build/synth/LIB_NAME/sweep/units.txt exists: "
          "`SYNTH_LIBRARY=LIBRARY SYNTH_UNITS=build/synth/LIB_NAME/sweep/units.txt "
          "SYNTH_OUT=build/synth/LIB_NAME/sweep bash synth/synth.sh UNIT` (its script and log beside it).", "",
          "| format set | K | F | area µm² | critical path ps | ABC ps | power mW | depth | unit | s |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    md += [f"| {s} | {k} | {fb} | {cell(v['area'], ',.0f')} | {cell(v['path_ps'], ',.0f')} | {cell(v['abc_ps'], ',.0f')} "
           f"| {cell(v['power_mw'], '.2f')} | {v['depth']} | {v['unit']} | {cell(v['seconds'], '.0f')} |"
           for (s, k, fb) in order for v in [res[(s, k, fb)]]]
    ans = answers(res)
    with open(os.path.join(d, "sweep.json"), "w") as f:
        json.dump(dict(libraries=libs, critical_path=path_name, rows=[
            dict(format_set=s, formats=list(FORMAT_SETS[s]), K=k, F=fb, **res[(s, k, fb)]) for (s, k, fb) in order],
            answers=[a for a in ans if a and not a.startswith("#")]), f, indent=1)
        f.write("\n")
    md += ans
    with open(os.path.join(d, "sweep.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    # the plot: area and critical path of every unit as bars (format set, K, F); with a series over two K or more,
    # a third panel: area against K, one line per (format set, F)
    series = sorted({(s, fb) for (s, k, fb) in res if sum(1 for x in res if x[0] == s and x[2] == fb) >= 2})
    gp = os.path.join(d, "sweep.gp")
    png = os.path.join(d, "sweep.png")
    bars = os.path.join(d, "sweep-bars.csv")
    with open(bars, "w") as b:
        b.write("unit,area_um2,path_ps\n" + "".join(f"{s} K={k} F={fb},{res[(s, k, fb)]['area']},"
                                                    f"{res[(s, k, fb)]['path_ps']}\n" for s, k, fb in order))
    lib_title = ", ".join(libs).replace("_", "\\_").replace("'", "''")
    q = lambda p: "'" + p.replace("'", "''") + "'"  # noqa: E731  (a gnuplot single-quoted string)
    with open(gp, "w") as f:
        f.write(f"set terminal pngcairo size {600 * (2 + bool(series))},650 font ',10'\nset output {q(png)}\n"
                f"set datafile separator ','\nset multiplot layout 1,{2 + bool(series)}\nset grid ytics\n"
                "set style data histogram\nset style fill solid 0.6\nset boxwidth 0.8\nset xtics rotate by -90 font ',8'\n"
                "unset key\nset bmargin 11\nset yrange [0:*]\n")
        for col, label in ((2, "area (um^2)"), (3, "critical path (ps)")):
            f.write(f"set ylabel '{label}'\nset title 'fda\\_unit {label.split(' (')[0]}, {lib_title}'\n"
                    f"plot {q(bars)} using {col}:xtic(1) every ::1\n")
        if series:
            f.write("set style data linespoints\nset logscale x 2\nset xtics norotate\nset xlabel 'K'\n"
                    "set ylabel 'area (um^2)'\nset title 'area against K'\nset key top left\n")
            f.write("plot " + ", \\\n     ".join(
                f"{q(csv)} using 2:(strcol(1) eq '{s}' && $3 == {fb} ? $4 : 1/0) title '{s} F={fb}'"
                for s, fb in series) + "\n")
        f.write("unset multiplot\n")
    try:
        subprocess.run(["gnuplot", gp], check=True)
    except FileNotFoundError:
        sys.exit(f"sweep_plot.py: gnuplot not found, so no {png} (apt-get install gnuplot-nox, then gnuplot {gp})")
    except subprocess.CalledProcessError:
        sys.exit(f"sweep_plot.py: gnuplot failed on {gp}")
    print(f"written: {csv}, {os.path.join(d, 'sweep.json')}, {os.path.join(d, 'sweep.md')}, {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
