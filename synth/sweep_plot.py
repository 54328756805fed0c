#!/usr/bin/env python3
"""The fda_unit sweep's table, answers and plot (make synth-sweep; docs/synthesis.md).

Reads DIR/units.txt, DIR/sets.txt (synth/units_extra.py sweep) and the rows synth/synth_unit.sh left in
DIR; writes DIR/sweep.csv, DIR/sweep.md (area and delay by format set, K and F, then the three answers:
Hopper's extra bit F = 25 against 24, Blackwell's FP8 F = 25 against 13, run-time formats against one
format) and DIR/sweep.png through gnuplot, run from an argument vector (no shell), as `mmaref study` does.

usage: sweep_plot.py DIR
"""
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
        f"K = {k}: area {pct(b['area'], a['area'])}, delay {pct(b['delay'], a['delay'])}" for k, a, b in q1)
        or "not run") + ".")
    q2 = [(k, res[("fp8", k, 13)], res[("fp8", k, 25)]) for (s, k, f) in sorted(res)
          if s == "fp8" and f == 13 and ("fp8", k, 25) in res]
    out.append("")
    out.append("**Blackwell's FP8 precision (e4m3/e5m2, F = 25 against Hopper's 13):** " + ("; ".join(
        f"K = {k}: area {pct(b['area'], a['area'])}, delay {pct(b['delay'], a['delay'])}" for k, a, b in q2)
        or "not run") + ".")
    q3 = [(s, k, f, res[(s, k, f)], res[(SINGLE[s], k, f)]) for (s, k, f) in sorted(res, key=lambda x: (x[1], x[2]))
          if s in SINGLE and (SINGLE[s], k, f) in res]
    out.append("")
    out.append("**Run-time formats against a single-format unit (same K, F):** " + ("; ".join(
        f"{s} against {SINGLE[s]} (K = {k}, F = {f}): area {pct(r['area'], one['area'])}, "
        f"delay {pct(r['delay'], one['delay'])}" for s, k, f, r, one in q3) or "not run") + ".")
    return out


def main(argv):
    if len(argv) != 1 or not os.path.exists(os.path.join(argv[0], "units.txt")):
        sys.exit("usage: sweep_plot.py DIR (DIR/units.txt from synth/units_extra.py sweep)")
    d = argv[0]
    sets = dict(line.split() for line in open(os.path.join(d, "sets.txt")) if not line.startswith("#"))
    res = {}
    for r in read_rows(os.path.join(d, "units.txt"), d, set()):
        if r["status"] == "ok":
            res[(sets[str(r["unit"])], r["K"], r["F"])] = dict(area=num(r, "area_um2"), delay=num(r, "delay_ps"),
                                                               unit=r["unit"], depth=r.get("depth"))
    if not res:
        sys.exit(f"sweep_plot.py: no synthesized unit in {d} (run make synth-sweep)")
    csv = os.path.join(d, "sweep.csv")
    with open(csv, "w") as f:
        f.write("format_set,K,F,area_um2,delay_ps,depth,unit\n")
        # by (set, F, K): each series of the K plot in consecutive rows (gnuplot breaks a line at the
        # 1/0 of another series' row)
        for (s, k, fb), v in sorted(res.items(), key=lambda x: (x[0][0], x[0][2], x[0][1])):
            f.write(f"{s},{k},{fb},{v['area']},{v['delay']},{v['depth']},{v['unit']}\n")
    md = ["# fda_unit sweep: area and delay (Yosys 0.23, synth/cells45.lib)", "",
          "C f32, D f32-rz; `+scales`: UE8M0 block scales, block min(K, 32). Reproduce: `make synth-sweep "
          "SWEEP_SUBSET=series` (or `answers`, `all`); one unit, once build/synth-sweep/units.txt exists: "
          "`SYNTH_UNITS=build/synth-sweep/units.txt SYNTH_OUT=build/synth-sweep bash synth/synth.sh UNIT` "
          "(its script and log beside it).", "",
          "| format set | K | F | area µm² | delay ps | depth | unit |", "|---|---|---|---|---|---|---|"]
    md += [f"| {s} | {k} | {fb} | {v['area']:,.0f} | {v['delay']:,.0f} | {v['depth']} | {v['unit']} |"
           for (s, k, fb), v in sorted(res.items(), key=lambda x: (list(FORMAT_SETS).index(x[0][0]), x[0][1:]))]
    md += answers(res)
    with open(os.path.join(d, "sweep.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    # the plot: area and delay of every unit as bars (format set, K, F); with a series over two K or more,
    # a third panel: area against K, one line per (format set, F)
    series = sorted({(s, fb) for (s, k, fb) in res if sum(1 for x in res if x[0] == s and x[2] == fb) >= 2})
    gp = os.path.join(d, "sweep.gp")
    png = os.path.join(d, "sweep.png")
    bars = os.path.join(d, "sweep-bars.csv")
    order = sorted(res, key=lambda x: (list(FORMAT_SETS).index(x[0]), x[1], x[2]))
    with open(bars, "w") as b:
        b.write("unit,area_um2,delay_ps\n" + "".join(f"{s} K={k} F={fb},{res[(s, k, fb)]['area']},"
                                                    f"{res[(s, k, fb)]['delay']}\n" for s, k, fb in order))
    q = lambda p: "'" + p.replace("'", "''") + "'"  # noqa: E731  (a gnuplot single-quoted string)
    with open(gp, "w") as f:
        f.write(f"set terminal pngcairo size {600 * (2 + bool(series))},650 font ',10'\nset output {q(png)}\n"
                f"set datafile separator ','\nset multiplot layout 1,{2 + bool(series)}\nset grid ytics\n"
                "set style data histogram\nset style fill solid 0.6\nset boxwidth 0.8\nset xtics rotate by -40\n"
                "unset key\nset bmargin 9\nset yrange [0:*]\n")
        for col, label in ((2, "area (um^2)"), (3, "critical path (ps)")):
            f.write(f"set ylabel '{label}'\nset title 'fda\\_unit {label.split(' (')[0]}'\n"
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
    print(f"written: {csv}, {os.path.join(d, 'sweep.md')}, {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
