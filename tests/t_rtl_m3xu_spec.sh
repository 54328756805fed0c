# The M3XU's independent specification (tests/prove/m3xu_spec.sv: the FDA specification at F = 46 on f32,
# each product in the M3XU's two steps on 12-bit halves; FP32C two such dots) against the model, through
# make verify as a unit: FP32 and FP32C, 100,000 vectors each with closed coverage and no mismatch; its
# mutant (aligning with 45 bits) fails make verify, so the check can fail.  The specification's proofs
# against rtl/m3xu_unit.sv are make prove-all's rows spec-m3xu (docs/formal.md).
# runtime: 150 s (a clean clone on CI's 2 cores, beside other suites)
# tier: regress (make regress runs it: three Verilator builds)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
command -v verilator >/dev/null || { not_ok "m3xu spec: verilator is needed (scripts/setup.sh installs it)"; exit 0; }
make -s build/mmaref build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "m3xu spec: make rtl failed"; exit 0; }
spec() {  # spec NAME PARAMS EXPECT: make verify of the specification on m3xu.NAME must EXPECT (pass, fail)
  local ins=$1 params=$2 expect=$3 out rc mism cov
  rm -f build/verify/m3xu-spec/result.json
  out=$(make -s verify DUT="rtl/rtl.f tests/prove/m3xu_spec.f" DUT_TOP=m3xu_spec INSTR=m3xu:$ins PARAMS="$params" \
        COUNT=100000 VERIFY_DIR=build/verify/m3xu-spec 2>&1); rc=$?
  mism=$(sed -n 's/.*"mismatches": \([0-9]*\).*/\1/p' build/verify/m3xu-spec/result.json 2>/dev/null)
  cov=$(grep -c '^coverage closed' <<<"$out")
  if [[ $expect == pass && $rc == 0 && $mism == 0 && $cov == 1 ]]; then
    ok "m3xu spec: $ins ($params): 100000 vectors, 0 mismatches, coverage closed"
  elif [[ $expect == fail && $rc != 0 && ${mism:-0} -gt 0 ]]; then
    ok "m3xu spec: $ins ($params): the mutant fails make verify ($mism of 100000 vectors)"
  else not_ok "m3xu spec: $ins ($params) must $expect: rc $rc, mismatches '$mism': $(tail -2 <<<"$out" | tr '\n' ' ')"; fi
}
spec m3xu.m8n4k4.f32.f32.f32.f32 PARTS=1 pass
spec m3xu.m8n4k2.f32c.f32c.f32c.f32c PARTS=2 pass
spec m3xu.m8n4k2.f32c.f32c.f32c.f32c PARTS=2,SPEC_MUTANT=1 fail
