# make prove with a reference module of the user's read through the SystemVerilog front end
# (tb/prove/sv_frontend.py, docs/formal.md): the plain unit tests/prove/styles/plain_dot_e4m3.v with its
# planted bug against the heavy unit tests/prove/styles/sv_dot_e4m3.sv as the reference (REF_FILES), both
# sides Verilator's elaborations, is REFUTED.  The unit against itself so read, PROVEN, is
# tests/t_rtl_frontend_prove.sh, in make test.
# runtime: 90 s
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
for tool in verilator yosys; do
  command -v $tool >/dev/null || { not_ok "front end ref: $tool is needed (make setup)"; exit 0; }
done
make -s build/mmaref build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "front end ref: make rtl failed"; exit 0; }
dir=build/prove/frontend-prove-ref-test
rm -rf $dir && mkdir -p $dir
SV=tests/prove/styles/sv_dot_e4m3.sv PLAIN=tests/prove/styles/plain_dot_e4m3.v
out=$(PROVE_DIR=$dir/prove-ref DUT=$PLAIN INSTR=ada:mma.m16n8k16.f32.e4m3.e4m3.f32 PARAMS=MUTANT=1 REF=sv_dot_e4m3 REF_FILES=$SV \
      TIMEOUT=120 REPLAY=0 MMAREF=build/mmaref bash tb/prove/prove.sh 2>&1); rc=$?
[[ $rc == 1 && $out == *"REFUTED: plain_dot_e4m3 differs from sv_dot_e4m3__ref"* ]] &&
  ok "front end ref: plain_dot_e4m3 MUTANT=1 against sv_dot_e4m3 as the reference REFUTED" ||
  not_ok "front end ref: plain_dot_e4m3 MUTANT=1 against sv_dot_e4m3: rc $rc: $(tail -3 <<<"$out")"
