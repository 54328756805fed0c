# make prove's sign symmetry of an FDA pass in parts (tests/prove/sign_harness.sv, docs/formal.md), on
# Volta's f16 unit through make prove-all's own rows (tests/prove/all.sh): one product (PART 0) and the
# rounding (PART 2) PROVEN, each harness computing both copies and answering whether they break the claim;
# each part's mutant claim (B negated too; D not negated back) REFUTED, so the harness can fail.  (The
# sum's part, 30 s, runs in make prove-all.)
# runtime: 40 s (a clean clone on CI's 2 cores, beside other suites)
# tier: regress (make regress runs it: a target's proof in parts; make test keeps one small proof of each method)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v yosys-abc >/dev/null; then
  not_ok "prove sign: yosys and yosys-abc are needed (scripts/setup.sh installs them)"; exit 0
fi
make -s build/rtl/gen/instrs.txt build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "prove sign: make rtl failed"; exit 0; }
W=build/test-prove-sign
rm -rf "$W"
row() { prove_row "prove sign" "$W" 300 "$@"; }  # row NAME EXPECTED: make prove-all's row NAME alone
row sign-term:VOLTA PROVEN
row sign-term-mutant:VOLTA REFUTED
row sign-round:VOLTA PROVEN
row sign-round-mutant:VOLTA REFUTED
