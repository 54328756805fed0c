# make prove's cut point at the operands' decoding on Volta's whole f16 unit (HMMA.884.F32: f16, K = 4,
# F = 23), through make prove-all's own rows (tests/prove/all.sh): spec-decode-cut, fda_unit equals the
# specification decoding its operands with rtl/'s mma_unpack (DECODE_CUT = 1) for every input, PROVEN
# (whole, the same pair gives no verdict in 28 minutes); the specification's mutant aligning with F - 1
# bits REFUTED and replayed, so the cut proof can fail.  The cut's own part (the decoders equal) is
# tests/t_rtl_prove_cut.sh, in make test.
# runtime: 150 s (a clean clone on CI's 2 cores, beside other suites)
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v yosys-abc >/dev/null; then
  not_ok "prove cut whole: yosys and yosys-abc are needed (scripts/setup.sh installs them)"; exit 0
fi
make -s build/rtl/gen/instrs.txt build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "prove cut whole: make rtl failed"; exit 0; }
W=build/test-prove-cut-whole
rm -rf "$W"
row() { prove_row "prove cut whole" "$W" 600 "$@"; }  # row NAME EXPECTED: make prove-all's row NAME alone
row spec-decode-cut:VOLTA PROVEN
row spec-decode-cut-mutant-F-short:VOLTA REFUTED
