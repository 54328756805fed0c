# The netlist simulation behind the activity-based power (synth/activity.py, docs/synthesis.md "Power"),
# on a hand-written netlist of synth/cells45.lib cells with feedback of three kinds: a free-running 4-bit
# counter c (6 cells; its next value depends on itself: a chain as long as the run), a parity register a
# that XORs the input x into itself (1 cell), and a register p of three cells' function of the counter and
# x (no feedback of its own: one level above the counter).  Expected, derived here and not by the code
# under test: c(t) = t mod 16, a(t) = x(0) ^ ... ^ x(t - 1), p(t) = ((c3 ^ x) & c0) ^ c2 of cycle t - 1,
# a(0) = p(0) = 0, over 300 cycles of a pseudo-random x.  The simulation settles level by level: the
# whole netlist (10 cells) is evaluated fewer than 16 times (a pass of it per cycle would be 300).  Its
# levels: counter bit i reads bits 0..i, so bit 0 with the parity (cells n0, na), bit 1 (n1), bit 2 (a01,
# n2), bit 3 (a01 again, a012, n3), each a chain of up to 301 passes: 8 cells, 2,408 evaluations at most;
# then p (3 cells, 2 passes: under 16 allowed).  With activity.FIRST_PASSES (F) first passes and under 8
# last ones of the whole netlist: at most 10 F + 2,408 + 48 + 80 cell evaluations (2,616 for F = 8; p's
# cells iterated alongside the counter's: over 2,900), and fewer than F + 8 passes of the whole netlist.
# runtime: 1 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
dir=build/rtl/synth-activity-test
mkdir -p $dir
cat >$dir/cnt.v <<'EOF'
module cnt (clk, x, c, p, a);
  input clk;
  input x;
  output [3:0] c;
  output p;
  output a;
  wire n0, n1, n2, n3, a01, a012, na, q1, q2, q3;
  INV_X1 u_n0 (.A(c[0]), .ZN(n0));
  XOR2_X1 u_n1 (.A(c[1]), .B(c[0]), .Z(n1));
  AND2_X1 u_a01 (.A1(c[1]), .A2(c[0]), .ZN(a01));
  XOR2_X1 u_n2 (.A(c[2]), .B(a01), .Z(n2));
  AND2_X1 u_a012 (.A1(c[2]), .A2(a01), .ZN(a012));
  XOR2_X1 u_n3 (.A(c[3]), .B(a012), .Z(n3));
  DFF_X1 r_c0 (.D(n0), .CK(clk), .Q(c[0]));
  DFF_X1 r_c1 (.D(n1), .CK(clk), .Q(c[1]));
  DFF_X1 r_c2 (.D(n2), .CK(clk), .Q(c[2]));
  DFF_X1 r_c3 (.D(n3), .CK(clk), .Q(c[3]));
  XOR2_X1 u_q1 (.A(c[3]), .B(x), .Z(q1));
  AND2_X1 u_q2 (.A1(q1), .A2(c[0]), .ZN(q2));
  XOR2_X1 u_q3 (.A(q2), .B(c[2]), .Z(q3));
  DFF_X1 r_p (.D(q3), .CK(clk), .Q(p));
  XOR2_X1 u_na (.A(a), .B(x), .Z(na));
  DFF_X1 r_a (.D(na), .CK(clk), .Q(a));
endmodule
EOF
out=$(python3 - $dir/cnt.v <<'EOF' 2>&1
import sys
sys.path.insert(0, "synth")
import activity
ports, insts = activity.read_netlist(sys.argv[1], "cnt")
cells = activity.liberty_cells("synth/cells45.lib", {c for c, _, _ in insts})
ncyc, seed, x = 300, 12345, []
for t in range(ncyc):  # a linear congruential generator's top bit
    seed = (seed * 1103515245 + 12345) % 2**31
    x.append(seed >> 30)
v = activity.simulate(ports, insts, cells, {"x": x}, ncyc)
bad = []
for t in range(ncyc):
    want = {f"c[{i}]": (t % 16) >> i & 1 for i in range(4)}
    c = (t - 1) % 16
    want["p"] = (((c >> 3 ^ x[t - 1]) & c) ^ c >> 2) & 1 if t else 0
    want["a"] = sum(x[:t]) & 1
    for net, w in want.items():
        if v[net] >> t & 1 != w:
            bad.append(f"{net}({t})={v[net] >> t & 1} want {w}")
prog = activity._PROGRAMS[id(insts)]
F = activity.FIRST_PASSES
print(f"mismatches={len(bad)} first={bad[:3]} passes={prog.full_passes} evaluations={prog.evaluations} "
      f"max_passes={F + 7} max_evaluations={10 * F + 2408 + 48 + 80}")
EOF
)
if [[ $out == "mismatches=0 first=[] passes="* ]]; then ok "synth activity: counter, delayed bit and parity over 300 cycles as derived ($out)"
else not_ok "synth activity: simulation of the feedback netlist: $out"; fi
num() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<" $out"; }
p=$(num passes) e=$(num evaluations) pmax=$(num max_passes) emax=$(num max_evaluations)
if [[ -n $p && -n $e && -n $pmax && -n $emax && $p -le $pmax && $e -le $emax ]]; then
  ok "synth activity: settled level by level: $p passes of the whole netlist (at most $pmax), $e cell evaluations (at most $emax) for 300 cycles"
else not_ok "synth activity: $p passes of the whole netlist (at most $pmax), $e cell evaluations (at most $emax): $out"; fi
