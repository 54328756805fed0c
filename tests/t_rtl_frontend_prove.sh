# make prove through its SystemVerilog front end (tb/prove/sv_frontend.py, docs/formal.md): the heavy unit
# tests/prove/styles/sv_dot_e4m3.sv (which Debian's Yosys refuses: tests/t_rtl_frontend.sh) read through
# the front end, its planted bug (Step 5 keeps 14 bits) refuted and replayed by make verify; a bad
# FRONTEND value refused; a reference module of the user's read the same way (the unit against itself
# PROVEN, the second side's check of the same netlist reused); CUT with a unit read through the front end
# (one flat module) refused, exit 2.  The plain unit's planted bug against the heavy unit as the reference
# is tests/t_rtl_frontend_prove_ref.sh, in make regress.
# runtime: 220 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
for tool in verilator yosys; do
  command -v $tool >/dev/null || { not_ok "front end: $tool is needed (make setup)"; exit 0; }
done
make -s build/mmaref build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "front end: make rtl failed"; exit 0; }
dir=build/prove/frontend-prove-test
rm -rf $dir && mkdir -p $dir
SV=tests/prove/styles/sv_dot_e4m3.sv

# make prove through the front end: the heavy unit's planted bug (Step 5 keeps 14 bits) refuted, replayed
out=$(PROVE_DIR=$dir/prove-mutant DUT=$SV INSTR=ada:mma.m16n8k16.f32.e4m3.e4m3.f32 PARAMS=MUTANT=1 TIMEOUT=120 \
      MMAREF=build/mmaref bash tb/prove/prove.sh 2>&1); rc=$?
model=$(sed -n 's/^  model D: *//p' <<<"$out"); unit=$(sed -n 's/^  unit D: *\([0-9a-fx]*\).*/\1/p' <<<"$out")
if [[ $rc == 1 && $out == *"front end: Verilator's elaboration of sv_dot_e4m3"* && $out == *"REFUTED"* &&
      -n $model && -n $unit && $model != "$unit" ]]; then
  ok "front end: make prove refutes sv_dot_e4m3 MUTANT=1 (model D $model, make verify's replay $unit)"
else not_ok "front end: make prove on sv_dot_e4m3 MUTANT=1: rc $rc: $(tail -5 <<<"$out")"; fi
# a bad FRONTEND value is one line, exit 2
out=$(DUT=$SV INSTR=ada:mma.m16n8k16.f32.e4m3.e4m3.f32 FRONTEND=slang bash tb/prove/prove.sh 2>&1); rc=$?
[[ $rc == 2 && $out == "prove: FRONTEND=slang: verilator or yosys" ]] && ok "front end: FRONTEND=slang refused: $out" \
  || not_ok "front end: FRONTEND=slang: rc $rc: $out"
# a reference module of the user's goes through the front end too (its netlist's top REF__ref): the heavy
# unit against itself so read is PROVEN
out=$(PROVE_DIR=$dir/prove-self DUT=$SV INSTR=ada:mma.m16n8k16.f32.e4m3.e4m3.f32 REF=sv_dot_e4m3 TIMEOUT=120 REPLAY=0 \
      MMAREF=build/mmaref bash tb/prove/prove.sh 2>&1); rc=$?
[[ $rc == 0 && $out == *"PROVEN: sv_dot_e4m3 equals sv_dot_e4m3__ref"* && $(grep -c "prove: front end:" <<<"$out") == 2 &&
   $(grep -c "prove: front end: .*(checked before: the same files, netlist and parameters)" <<<"$out") -ge 1 ]] &&
  ok "front end: sv_dot_e4m3 against itself, both sides through the front end, PROVEN (the second side's check reused)" ||
  not_ok "front end: sv_dot_e4m3 against itself: rc $rc: $(tail -3 <<<"$out")"
# CUT with a side read through the front end is refused: its netlist is one flat module, no instance to cut
out=$(DUT=$SV INSTR=ada:mma.m16n8k16.f32.e4m3.e4m3.f32 CUT=mma_unpack PROVE_DIR=$dir/prove-cut bash tb/prove/prove.sh 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"CUT=mma_unpack: the unit sv_dot_e4m3 is read through the Verilator front end"* ]] &&
  ok "front end: CUT with the unit read through the front end refused, exit 2: $out" ||
  not_ok "front end: CUT through the front end: rc $rc: $out"
