# make prove's cut point at the operands' decoding, the method that decides the f16 fused dot-adds
# (docs/formal.md), on Volta's HMMA.884.F32 (f16, K = 4, F = 23), through make prove-all's own rows
# (tests/prove/all.sh):
#  (a) fda-decode: rtl/'s mma_unpack equals the specification's spec_decode on every f16 operand (lane 0
#      of A and of B: tests/prove/fda_cut_harness.sv PART 0) -- PROVEN; its mutant (a subnormal's exponent
#      one short) REFUTED;
#  (c) the harness refuses a PART 1 cut without WORD (an elaboration error, the row an ERROR, never a
#      verdict).
# The whole unit with the cut (spec-decode-cut, about two minutes with its mutant's replay) is
# tests/t_rtl_prove_cut_whole.sh, in make regress.
# runtime: 40 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v yosys-abc >/dev/null; then
  not_ok "prove cut: yosys and yosys-abc are needed (scripts/setup.sh installs them)"; exit 0
fi
make -s build/rtl/gen/instrs.txt build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "prove cut: make rtl failed"; exit 0; }
W=build/test-prove-cut
rm -rf "$W"
row() { prove_row "prove cut" "$W" 600 "$@"; }  # row NAME EXPECTED: make prove-all's row NAME alone
row fda-decode:VOLTA PROVEN
row fda-decode-mutant:VOLTA REFUTED

# (c) PART 1 compares one word of the sum a proof: without WORD the harness does not elaborate
UP=$(awk '$1 == "volta" && $2 == "mma.m8n8k4.f32.f16.f16.f32" {print $4}' build/rtl/gen/instrs.txt)
UP=$(awk -v u="$UP" '$1 == u {print $12}' build/rtl/gen/units.txt)
P="$UP,AW=16,PART=1,WORD=-1"
out=$(env DUT=tests/prove/fda_cut_harness.sv INSTR=volta:mma.m8n8k4.f32.f16.f16.f32 PARAMS="SIDE=0,$P" REF=fda_cut_harness \
      REF_PARAMS="SIDE=1,$P" REPLAY=0 TIMEOUT=60 PROVE_DIR="$W/no-word" bash tb/prove/prove.sh 2>&1); rc=$?
if [[ $rc == 2 && $out == *"PART 1 without WORD"* && $out != *PROVEN* ]]; then
  ok "prove cut: the harness refuses PART 1 without WORD (exit 2, no verdict)"
else not_ok "prove cut: PART 1 without WORD (rc=$rc): $(tail -3 <<<"$out" | tr '\n' ' ')"; fi
