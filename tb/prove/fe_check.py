#!/usr/bin/env python3
"""The front end's netlist against the sources, in simulation, before any solver reads it.

    fe_check.py DIR TOP NETLIST_TOP NETLIST PARAMS CYCLES SEED SRC...
    fe_check.py --key XML NETLIST PARAMS CYCLES SEED


Verilator builds one bench holding the unit as written (TOP from SRC..., with PARAMS) and the netlist
tb/prove/sv_frontend.py wrote for it (module NETLIST_TOP in NETLIST), drives both with the same seeded
random inputs for CYCLES cycles (clk toggled, rst_n low for the first two cycles and then now and then,
every other input random, with zero and all-ones words mixed in), and compares every output in every
cycle.  Exit 0: no output differed; 1: one did (the first difference printed); 2: the bench did not build.

--key prints what a check depends on, as one SHA-256: every file Verilator read for the sources (the
<files> of its XML, includes too, by name and content), the netlist, the parameters, cycles and seed,
Verilator's version and this script and tb/prove/sv_frontend.py.  tb/prove/prove.sh keeps the keys of
the checks that passed (build/prove/fe-checked/) and does not build the same bench again for the same key.
"""
import os
import re
import subprocess
import sys


def ports(netlist, top):
    """[(dir, width, name)] of NETLIST_TOP, read from the netlist the front end wrote."""
    text = open(netlist).read()
    m = re.search(r"^module " + re.escape(top) + r" \(.*?^endmodule", text, re.S | re.M)
    return [(d, int(hi) + 1, n) for d, hi, n in
            re.findall(r"^\s*(input|output) wire \[(\d+):0\] (\w+);", m.group(0), re.M)]


def check_key(xml, netlist, params, cycles, seed):
    import hashlib
    import xml.etree.ElementTree as ET
    h = hashlib.sha256()

    def add(name, data):
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("fe_check.py", "sv_frontend.py"):
        add(name, open(os.path.join(here, name), "rb").read())
    add("verilator", subprocess.run(["verilator", "--version"], stdout=subprocess.PIPE).stdout)
    add("run", f"{params} {cycles} {seed}".encode())
    add("netlist", open(netlist, "rb").read())
    files = sorted({f.get("filename") for f in ET.parse(xml).getroot().iter("file")})
    for f in files:
        if not f.startswith("<"):   # <built-in>, <command-line>
            add(f, open(f, "rb").read())
    return h.hexdigest()


def main():
    if len(sys.argv) == 7 and sys.argv[1] == "--key":
        try:
            print(check_key(*sys.argv[2:]))
        except (OSError, ValueError) as e:   # ET.ParseError is a ValueError
            print(f"fe_check: --key: {e}", file=sys.stderr)
            return 2
        return 0
    out, top, ntop, netlist, params, cycles, seed, *srcs = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    ps = ports(netlist, ntop)
    pov = ", ".join(f".{k}({v})" for k, v in (x.split("=", 1) for x in params.split(",") if x))
    pov = f" #({pov})" if pov else ""
    decl, conn_a, conn_b, drive, cmp = [], [], [], [], []
    for d, w, n in ps:
        if d == "input":
            decl.append(f"  logic [{w - 1}:0] {n};")
            conn_a.append(f".{n}({n})")
            conn_b.append(f".{n}({n})")
            if n == "clk":
                continue
            if n == "rst_n":
                drive.append("    rst_n = (cyc < 2) ? 1'b0 : (($urandom % 64) != 0);")
                continue
            words = (w + 31) // 32
            drive.append(f"    for (int i = 0; i < {words}; i++) begin r = $urandom; k = $urandom % 8; "
                         f"tmp[i*32 +: 32] = (k == 0) ? 32'h0 : (k == 1) ? 32'hffffffff : r; end")
            drive.append(f"    {n} = tmp[{w - 1}:0];")
        else:
            decl.append(f"  logic [{w - 1}:0] {n}__src, {n}__net;")
            conn_a.append(f".{n}({n}__src)")
            conn_b.append(f".{n}({n}__net)")
            cmp.append(f"    if ({n}__src !== {n}__net) begin $display(\"fe_check: cycle %0d: output {n}: "
                       f"the sources give %h, the netlist %h\", cyc, {n}__src, {n}__net); $finish; end")
    maxw = max([w for _, w, _ in ps] + [32])
    bench = f"""// written by tb/prove/fe_check.py
module fe_check_bench;
{chr(10).join(decl)}
  logic [{((maxw + 31) // 32) * 32 - 1}:0] tmp;
  logic [31:0] r, k;
  int cyc;
  {top}{pov} u_src ({", ".join(conn_a)});
  {ntop} u_net ({", ".join(conn_b)});
  initial begin
    void'($urandom({seed}));
    tmp = '0;
    clk = 1'b0;
    for (cyc = 0; cyc < {cycles}; cyc++) begin
{chr(10).join(drive)}
      #1 clk = 1'b1;
      #1 clk = 1'b0;
{chr(10).join(cmp)}
    end
    $display("fe_check: %0d cycles, every output equal", cyc);
    $finish;
  end
endmodule
"""
    bench = bench.replace("\n    ", "\n      ").replace("\n      for (cyc", "\n    for (cyc")
    path = os.path.join(out, "fe_check_bench.sv")
    with open(path, "w") as fh:
        fh.write(bench)
    cmd = ["verilator", "--binary", "-O1", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--timing",
           "--top-module", "fe_check_bench", "--Mdir", os.path.join(out, "obj"), "-o", "fe_check"]
    for s in srcs:
        cmd += ["-f", s] if s.endswith(".f") else [s]
    cmd += [netlist, path]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write("fe_check: the bench did not build:\n" + "\n".join(
            [l for l in r.stdout.splitlines() if "%Error" in l][:5] or r.stdout.splitlines()[-5:]) + "\n")
        return 2
    r = subprocess.run([os.path.join(out, "obj", "fe_check")], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    lines = [l for l in r.stdout.splitlines() if l.startswith("fe_check:")]
    print(lines[0] if lines else r.stdout.strip()[-300:])
    return 0 if lines and "every output equal" in lines[0] else 1


if __name__ == "__main__":
    sys.exit(main())
