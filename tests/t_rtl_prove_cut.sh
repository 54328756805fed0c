# make prove's cut point at the operands' decoding, the method that decides the f16 fused dot-adds
# (docs/formal.md), on Volta's HMMA.884.F32 (f16, K = 4, F = 23), through make prove-all's own rows
# (tests/prove/all.sh):
#  (a) fda-decode: rtl/'s mma_unpack equals the specification's spec_decode on every f16 operand (lane 0
#      of A and of B: tests/prove/fda_cut_harness.sv PART 0) -- PROVEN; its mutant (a subnormal's exponent
#      one short) REFUTED;
#  (b) spec-decode-cut: fda_unit equals the specification decoding its operands with rtl/'s mma_unpack
#      (DECODE_CUT = 1) for every input -- PROVEN (whole, the same pair gives no verdict in 28 minutes);
#      the specification's mutant aligning with F - 1 bits REFUTED, so the cut proof can fail;
#  (c) the harness refuses a PART 1 cut without WORD (an elaboration error, the row an ERROR, never a
#      verdict).
# runtime: 150 s (a clean clone on CI's 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v yosys-abc >/dev/null; then
  not_ok "prove cut: yosys and yosys-abc are needed (scripts/setup.sh installs them)"; exit 0
fi
make -s build/rtl/gen/instrs.txt build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "prove cut: make rtl failed"; exit 0; }
W=build/test-prove-cut
rm -rf "$W"
row() {  # row NAME EXPECTED: make prove-all's row NAME alone; its verdict must be EXPECTED
  local out rc verdict
  out=$(PROVE_ROW=$1 PROVE_ALL_DIR="$W" PROVE_TIMEOUT=600 bash tests/prove/all.sh 2>&1); rc=$?
  verdict=$(sed -n "s|^\[[0-9]*/[0-9]*\] $1 *\([A-Z][A-Z]*\) .*|\1|p" <<<"$out")
  if [[ $rc == 0 && $verdict == "$2" ]]; then ok "prove cut: $1 $2"
  else not_ok "prove cut: $1 must be $2 (rc=$rc): $(grep -m2 '^\[\|prove' <<<"$out" | tr '\n' ' ')"; fi
}
row fda-decode:VOLTA PROVEN
row fda-decode-mutant:VOLTA REFUTED
row spec-decode-cut:VOLTA PROVEN
row spec-decode-cut-mutant-F-short:VOLTA REFUTED

# (c) PART 1 compares one word of the sum a proof: without WORD the harness does not elaborate
UP=$(awk '$1 == "volta" && $2 == "mma.m8n8k4.f32.f16.f16.f32" {print $4}' build/rtl/gen/instrs.txt)
UP=$(awk -v u="$UP" '$1 == u {print $12}' build/rtl/gen/units.txt)
P="$UP,AW=16,PART=1,WORD=-1"
out=$(env DUT=tests/prove/fda_cut_harness.sv INSTR=volta:mma.m8n8k4.f32.f16.f16.f32 PARAMS="SIDE=0,$P" REF=fda_cut_harness \
      REF_PARAMS="SIDE=1,$P" REPLAY=0 TIMEOUT=60 PROVE_DIR="$W/no-word" bash tb/prove/prove.sh 2>&1); rc=$?
if [[ $rc == 2 && $out == *"PART 1 without WORD"* && $out != *PROVEN* ]]; then
  ok "prove cut: the harness refuses PART 1 without WORD (exit 2, no verdict)"
else not_ok "prove cut: PART 1 without WORD (rc=$rc): $(tail -3 <<<"$out" | tr '\n' ' ')"; fi
