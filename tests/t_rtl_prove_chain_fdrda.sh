# make prove's cut at a named module (CUT=) on CDNA3's v_mfma_f32_16x16x16_f16 (FDRDA f16, two passes of 8),
# through make prove-all's own rows (tests/prove/all.sh):
#  (a) chain-cut:FDRDA16: fdrda_unit equals the specification running rtl/'s fdrda_datapath for each
#      pass, every fdrda_datapath instance replaced by free values under congruence -- PROVEN; the
#      specification's mutant chaining the passes in the other order REFUTED;
#  (b) congruence only within one module and one set of parameters: the specification's passes with F
#      one short (a datapath of other parameters than the unit's) are not paired with the unit's, and
#      the proof is not PROVEN.
# The method's make test check is tests/t_rtl_prove_chain.sh (CDNA1's GPS groups, and bad CUT values).
# runtime: 200 s (a clean clone on 2 cores, beside other suites)
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v yosys-abc >/dev/null; then
  not_ok "prove chain fdrda: yosys and yosys-abc are needed (scripts/setup.sh installs them)"; exit 0
fi
make -s build/rtl/gen/instrs.txt build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "prove chain fdrda: make rtl failed"; exit 0; }
W=build/test-prove-chain-fdrda
rm -rf "$W"
row() { prove_row "prove chain fdrda" "$W" 600 "$@"; }  # row NAME EXPECTED: make prove-all's row NAME alone
row chain-cut:FDRDA16 PROVEN
row chain-cut-mutant:FDRDA16 REFUTED

. tests/prove/fdrda_chain.sh  # INSTR, UP, F and prove DIR PARAMS CUT
# (b) F one short on the specification's side: its fdrda_datapath instances are another module
out=$(prove other-params "${UP/,F=$F,/,F=$((F - 1)),},AW=16,PASS_CUT=1" fdrda_datapath); rc=$?
if [[ $out == *"fdrda_datapath: 2 instances"*"fdrda_datapath: 1 instances"* || $out == *"fdrda_datapath: 1 instances"*"fdrda_datapath: 2 instances"* ]] &&
   [[ $rc != 0 && $out != *PROVEN* ]]; then
  ok "prove chain fdrda: datapaths of other parameters are two modules at the cut, not paired (exit $rc, not PROVEN)"
else not_ok "prove chain fdrda: datapaths of other parameters (rc=$rc): $(grep -m3 'prove' <<<"$out" | tr '\n' ' ')"; fi

