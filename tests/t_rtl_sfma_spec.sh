# SFMA's independent specification (tests/prove/sfma_spec.sv: each step IEEE's fused multiply-add, the
# exact product and C on one integer grid -- 556 bits in f32, 4,198 in f64 -- rounded once) against the
# model, through make verify as a unit: AMD's f32 MFMA (K = 2), AMD's f64 MFMA on the unit serving f32
# and f64 (K = 4) and Hopper's DMMA.16x8x16 (K = 16), 100,000 vectors each with closed coverage and no
# mismatch; its mutant (each step rounded toward zero) fails make verify in f32 and in f64, so the check
# can fail.  The specification's proofs against rtl/sfma_unit.sv are make prove-all's rows spec-sfma
# (docs/formal.md).
# runtime: 300 s (a clean clone on 2 cores, beside other suites)
# tier: regress (make regress runs it: five Verilator builds, 4,198-bit sums)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
command -v verilator >/dev/null || { not_ok "sfma spec: verilator is needed (scripts/setup.sh installs it)"; exit 0; }
make -s build/mmaref build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "sfma spec: make rtl failed"; exit 0; }
spec() {  # spec INSTR PARAMS EXPECT: make verify of the specification on INSTR must EXPECT (pass, fail)
  local ins=$1 params=$2 expect=$3 out rc mism cov
  rm -f build/verify/sfma-spec/result.json
  out=$(make -s verify DUT="rtl/rtl.f tests/prove/sfma_spec.sv" DUT_TOP=sfma_spec INSTR="$ins" PARAMS="$params" \
        COUNT=100000 VERIFY_DIR=build/verify/sfma-spec 2>&1); rc=$?
  mism=$(sed -n 's/.*"mismatches": \([0-9]*\).*/\1/p' build/verify/sfma-spec/result.json 2>/dev/null)
  cov=$(grep -c '^coverage closed' <<<"$out")
  if [[ $expect == pass && $rc == 0 && $mism == 0 && $cov == 1 ]]; then
    ok "sfma spec: $ins ($params): 100000 vectors, 0 mismatches, coverage closed"
  elif [[ $expect == fail && $rc != 0 && ${mism:-0} -gt 0 ]]; then
    ok "sfma spec: $ins ($params): the mutant fails make verify ($mism of 100000 vectors)"
  else not_ok "sfma spec: $ins ($params) must $expect: rc $rc, mismatches '$mism': $(tail -2 <<<"$out" | tr '\n' ' ')"; fi
}
spec cdna1:v_mfma_f32_32x32x2f32 K=2,OUT_MASK=8,AW=32 pass
spec cdna1:v_mfma_f32_32x32x2f32 K=2,OUT_MASK=8,AW=32,SPEC_MUTANT=1 fail
spec cdna2:v_mfma_f64_16x16x4f64 K=4,OUT_MASK=24,AW=64 pass
spec cdna2:v_mfma_f64_16x16x4f64 K=4,OUT_MASK=24,AW=64,SPEC_MUTANT=1 fail
spec hopper:mma.m16n8k16.f64.f64.f64.f64 K=16,OUT_MASK=16,AW=64 pass
