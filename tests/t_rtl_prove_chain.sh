# make prove's cut at a named module (CUT=, tb/prove/cut_points.py), the method that decides the chaining of
# the multi-pass units (docs/formal.md), through make prove-all's own rows (tests/prove/all.sh):
#  (a) chain-cut:GPS8: CDNA1's gps_unit of v_mfma_f32_32x32x8f16 (two f16 groups of 4) equals the
#      specification running rtl/'s gps_datapath for each group, every gps_datapath instance replaced by
#      free values under congruence -- PROVEN; the specification's mutant chaining the groups in the other
#      order REFUTED, so the cut proof can fail;
#  (c) bad CUT values: a module that is not in the design, a module that holds state (mma_handshake), a
#      malformed list and a malformed CUT_PAIRS each exit 2 with one line naming it, before any solver runs.
# CDNA3's two-pass FDRDA f16 unit and the check that datapaths of other parameters are not paired are
# tests/t_rtl_prove_chain_fdrda.sh, in make regress.
# runtime: 150 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v yosys-abc >/dev/null; then
  not_ok "prove chain: yosys and yosys-abc are needed (scripts/setup.sh installs them)"; exit 0
fi
make -s build/rtl/gen/instrs.txt build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "prove chain: make rtl failed"; exit 0; }
W=build/test-prove-chain
rm -rf "$W"
row() { prove_row "prove chain" "$W" 600 "$@"; }  # row NAME EXPECTED: make prove-all's row NAME alone
row chain-cut:GPS8 PROVEN
row chain-cut-mutant:GPS8 REFUTED

. tests/prove/fdrda_chain.sh  # INSTR, UP, F and prove DIR PARAMS CUT
# (c) bad CUT values
bad_cut() {  # bad_cut CUT MESSAGE-PART [CUT_PAIRS]
  local out rc what="CUT=$1${3:+ CUT_PAIRS=$3}"
  out=$(prove "bad-$(tr -c 'a-z0-9\n' '_' <<<"$1$3")" "$UP,AW=16,PASS_CUT=1" "$1" CUT_PAIRS="${3:-all}"); rc=$?
  if [[ $rc == 2 && $out == *"$2"* && $out != *PROVEN* && $out != *REFUTED* ]]; then ok "prove chain: $what exits 2 ($2)"
  else not_ok "prove chain: $what must exit 2 naming '$2' (rc=$rc): $(tail -2 <<<"$out" | tr '\n' ' ')"; fi
}
bad_cut no_such_module "no module no_such_module in the design"
bad_cut mma_handshake "mma_handshake holds state"
bad_cut "fdrda_datapath,,x" "module names, comma-separated"
bad_cut fdrda_datapath "CUT_PAIRS=across:0: all, across or across:N" across:0
bad_cut fdrda_datapath "CUT_PAIRS=x;y: all, across or across:N" "x;y"
