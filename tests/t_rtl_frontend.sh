# make prove's SystemVerilog front end (tb/prove/sv_frontend.py, tb/prove/fe_check.py): a unit in heavy
# SystemVerilog that Debian's Yosys refuses (tests/prove/styles/sv_dot_e4m3.sv: a package, structs with
# int members, int'()/signed'()/size casts, automatic functions with early returns, unique case, a
# generate loop) and one in plain Verilog-2005 (tests/prove/styles/plain_dot_e4m3.v) become netlists that
# agree with Verilator's simulation of the sources; small modules give the values derived by hand beside
# them (Yosys's sat proves them on the netlist); every construct the front end does not translate is one
# FILE:LINE line and exit 2; a netlist with one planted difference fails the simulation check (the check
# can fail); the check of a netlist is reused only under the same key (every file read, an included one
# too).  make prove through the front end: tests/t_rtl_frontend_prove.sh.
# runtime: 97 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
for tool in verilator yosys; do
  command -v $tool >/dev/null || { not_ok "front end: $tool is needed (make setup)"; exit 0; }
done
dir=build/prove/frontend-test
rm -rf $dir && mkdir -p $dir
fe() { python3 tb/prove/sv_frontend.py "$@"; }
SV=tests/prove/styles/sv_dot_e4m3.sv PLAIN=tests/prove/styles/plain_dot_e4m3.v

# the reason for the front end: Debian's Yosys cannot read the heavy unit
if yosys -q -p "read_verilog -sv $SV" >$dir/yosys-sv.log 2>&1; then
  not_ok "front end: Yosys 0.23 reads $SV (the fixture no longer needs the front end)"
else ok "front end: Yosys 0.23 refuses $SV ($(grep -m1 -o 'ERROR: .*' $dir/yosys-sv.log))"; fi

# both units: netlist, then the simulation check against the sources
for u in $SV $PLAIN; do
  t=$(basename "${u%.*}")
  if fe --top $t --rename chk_$t --prefix chk_ --out $dir/$t.v $u 2>$dir/$t.err &&
     yosys -q -p "read_verilog $dir/$t.v; hierarchy -check -top chk_$t; proc; check -assert" >$dir/$t.yosys 2>&1; then
    ok "front end: $u is a Verilog-2005 netlist Yosys 0.23 reads ($(grep -c '^  wire' $dir/$t.v) wires)"
  else not_ok "front end: $u: $(cat $dir/$t.err) $(grep -m1 ERROR $dir/$t.yosys)"; fi
  out=$(python3 tb/prove/fe_check.py $dir/chk-$t $t chk_$t $dir/$t.v "" 3000 7 $u 2>&1)
  [[ $out == *"3000 cycles, every output equal"* ]] && ok "front end: $t's netlist equals its sources on 3000 cycles" \
    || not_ok "front end: $t's simulation check: $out"
done

# the project's M3XU unit: always blocks in generate-if blocks, each driving one field of a shared vector and
# reading the block's own variables (Verilator's dataflow pass, which the front end turns off, would hoist
# those reads out of their scope); translation only, its simulation check is make prove's
[[ -f build/rtl/gen/units.txt ]] || make -s build/rtl/gen/configs.txt >/dev/null 2>&1
m3=$(awk '$11 == "m3xu_unit" {print $12; exit}' build/rtl/gen/units.txt)
m3_params=(); IFS=, read -r -a plist <<<"$m3"; for p in "${plist[@]}"; do m3_params+=(--param "$p"); done
if fe --top m3xu_unit "${m3_params[@]}" --incdir rtl --out $dir/m3xu.v rtl/rtl.f 2>$dir/m3xu.err; then
  ok "front end: m3xu_unit ($m3) translates ($(grep -c '^  assign' $dir/m3xu.v) assignments)"
else not_ok "front end: m3xu_unit: $(cat $dir/m3xu.err)"; fi

# the check can fail: the heavy unit's netlist with D's register loaded inverted
sed 's/^\(  always @(posedge clk\[0:0\]) d__q <= \)\(.*\);/\1~\2;/; s/^\(  always @(posedge clk) d__q <= \)\(.*\);/\1~\2;/' \
  $dir/sv_dot_e4m3.v >$dir/sv_bad.v
if cmp -s $dir/sv_dot_e4m3.v $dir/sv_bad.v; then not_ok "front end: the planted difference was not planted"
else
  out=$(python3 tb/prove/fe_check.py $dir/chk-bad sv_dot_e4m3 chk_sv_dot_e4m3 $dir/sv_bad.v "" 3000 7 $SV 2>&1); rc=$?
  [[ $rc == 1 && $out == *"output d: the sources give"* ]] && ok "front end: a netlist with D inverted is caught ($out)" \
    || not_ok "front end: the inverted netlist was not caught (rc $rc): $out"
fi

# semantics against values derived by hand: an early return inside a loop, break / continue, casez, a
# struct with an int member and casts (Yosys's sat proves each output on the netlist for the input given)
cat >$dir/hand.sv <<'EOF'
package hand_pkg;
  typedef struct packed { logic s; int e; logic [3:0] m; } dec_t;
  function automatic int first_one(input logic [7:0] x);   // index of the lowest set bit, -1 for none
    for (int i = 0; i < 8; i++) if (x[i]) return i;
    return -1;
  endfunction
  function automatic dec_t dec(input logic [7:0] x);        // e4m3-like: e = exp - 7, early return on 0
    dec_t d;
    d = '{s: x[7], e: -126, m: 4'd0};
    if (x[6:0] == 7'd0) return d;
    d.e = int'(x[6:3]) - 7;
    d.m = {x[6:3] != 4'd0, x[2:0]};
    return d;
  endfunction
endpackage
module hand import hand_pkg::*; (input logic [7:0] a, output logic [31:0] y, output logic [1:0] z,
                                 output logic [3:0] n, output logic [31:0] e);
  dec_t d;
  always_comb begin
    y = 32'(first_one(a));
    unique casez (a[3:0])
      4'b1???: z = 2'd3;
      4'b01??: z = 2'd2;
      default: z = 2'd0;
    endcase
    n = '0;                                   // set bits of a below the first 0 above bit 0, bit 2 skipped
    for (int i = 0; i < 8; i++) begin
      if (i == 2) continue;
      if (!a[i]) break;
      n = n + 4'd1;
    end
    d = dec(a);
    e = 32'(signed'(d.e));
  end
endmodule
EOF
if fe --top hand --out $dir/hand.v $dir/hand.sv 2>$dir/hand.err; then
  # a = 0x28 (0010_1000): lowest one bit 3; a[3:0] = 1000 -> 3; bit 0 is 0 -> n = 0; exp 0101 = 5 -> e = -2
  # a = 0x00: no one -> -1; 0000 -> 0; n = 0; zero -> e = -126
  # a = 0x07 (0000_0111): bit 0; 0111 -> 2; bits 0, 1 set, 2 skipped, 3 clear -> n = 2; exp 0 -> e = 0 - 7 = -7
  # a = 0xfb (1111_1011): bit 0; 1011 -> 3; bits 0, 1, (2 skipped), 3..7 set -> n = 7; exp 1111 -> e = 8
  for row in "8'h28 32'd3 2'd3 4'd0 32'hfffffffe" "8'h00 32'hffffffff 2'd0 4'd0 32'hffffff82" \
             "8'h07 32'd0 2'd2 4'd2 32'hfffffff9" "8'hfb 32'd0 2'd3 4'd7 32'd8"; do
    read -r a y z n e <<<"$row"
    if yosys -q -p "read_verilog $dir/hand.v; hierarchy -top hand; proc; flatten; opt;
         sat -set a $a -prove y $y -prove z $z -prove n $n -prove e $e -verify" >$dir/hand-sat.log 2>&1; then
      ok "front end: hand-derived values for a = $a: first one $y, casez $z, loop count $n, exponent $e"
    else not_ok "front end: a = $a: $(grep -m2 -E 'ERROR|\\\\(y|z|n|e) ' $dir/hand-sat.log | tr '\n' ' ')"; fi
  done
else not_ok "front end: hand.sv: $(cat $dir/hand.err)"; fi

# the front end's check is reused only for the same files read: the key of hand.sv's check changes when a
# file it includes changes, and stays when nothing does
mkdir -p $dir/key && printf 'localparam int HAND_W = 8;\n' >$dir/key/w.svh
printf '`include "w.svh"\nmodule key_unit (input logic [HAND_W-1:0] a, output logic [HAND_W-1:0] q);\n  assign q = a + 1;\nendmodule\n' >$dir/key/key_unit.sv
keyof() { fe --top key_unit --incdir $dir/key --xml $dir/key/x.xml --out $dir/key/k.v $dir/key/key_unit.sv >/dev/null 2>&1 &&
          python3 tb/prove/fe_check.py --key $dir/key/x.xml $dir/key/k.v "" 100 1; }
k1=$(keyof); k2=$(keyof); printf 'localparam int HAND_W = 8;  // a comment changes the file\n' >$dir/key/w.svh; k3=$(keyof)
[[ -n $k1 && $k1 == "$k2" && $k3 != "$k1" ]] && ok "front end: the check's key is the same for the same files and changes with an included one" ||
  not_ok "front end: the check's key: '$k1' '$k2' '$k3'"

# refused, one line FILE:LINE, exit 2
refuse() { # refuse NAME BODY PATTERN: the module NAME with BODY must be refused naming its line and PATTERN
  local name=$1 body=$2 pat=$3
  printf 'module %s (input logic clk, input logic rst_n, input logic [7:0] a, output logic [7:0] q);\n%s\nendmodule\n' \
    "$name" "$body" >$dir/$name.sv
  out=$(fe --top $name --out $dir/$name.v $dir/$name.sv 2>&1); rc=$?
  if [[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"$dir/$name.sv:"[0-9]*": "*"$pat"* && ! -e $dir/$name.v ]]; then
    ok "front end: refused, exit 2, one line: $out"
  else not_ok "front end: $name: rc $rc, output: $out"; fi
}
refuse async_reset '  always_ff @(posedge clk or negedge rst_n) if (!rst_n) q <= 0; else q <= a;' "several edges"
refuse data_loop '  always_comb begin q = a; while (q != 0) q = q >> 1; end' "not a constant after unrolling"
refuse power_up '  logic [7:0] r = 8'"'"'d3;
  always_ff @(posedge clk) r <= r + a;
  assign q = r;' "power-up value"
refuse latch '  always_comb if (a[0]) q = a;' "not assigned on every path"
refuse wild_case '  always_comb case (a) 8'"'"'b1???????: q = 1; default: q = 0; endcase' "plain case"
refuse two_drivers '  assign q = a;
  assign q[0] = 1'"'"'b1;' "drivers"
