# The C model against the independent exact reference tests/oracle/ref.py (Python, written from
# docs/algorithms.md and the paper, no code shared with cmodel/): seeded random vectors (raw bits,
# clustered exponents with cancellation, sprinkled specials) for every distinct algorithm configuration,
# through `mmaref batch --check`.  `mmaref list --json` only names the instructions and their operands;
# every arithmetic parameter (passes, F, G, roundings, flushing, output) is the oracle's own, from
# tests/oracle/table.py (compared with the model's table in tests/t_model_oracle_table.sh).
#   ORACLE_COUNT vectors per configuration (default 4000, about 0.8 M vectors: with the rest of `make test`
#   under CI's 15 minutes on 2 cores (8000 took 154 s of both cores on this 2-core EPYC, make test 19 min);
#   `make regress` uses 1000000),
#   ORACLE_SEED (default 1), ORACLE_JOBS worker processes (default 2).
# Reproduce one configuration: python3 tests/oracle/gen.py --arch A --instr I --count N --seed S \
#   | build/mmaref batch A I --check     (the seed of each configuration is printed on failure)
# runtime: 136 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
if ! command -v python3 >/dev/null; then not_ok "oracle: python3 not found"; exit 0; fi
GEN="python3 tests/oracle/gen.py --mmaref $MMAREF"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# must WHAT CMD...: runs CMD, passing its report through; a CMD that fails without reporting a
# failure (a crash, a kill) is one.
must() {
  local what=$1 out rc; shift
  out=$("$@" 2>&1); rc=$?
  echo "$out"
  if [[ $rc -ne 0 ]] && ! grep -q '^not ok' <<<"$out"; then
    not_ok "$what: exited with status $rc without a report ($(tail -1 <<<"$out"))"
  fi
}

# 1. The oracle's fast path (decode tables, shifted integers) equals its plain step-by-step path and
#    a derivation on fractions.Fraction (single-pass FDA and GDFS on finite inputs; f64 SFMA through
#    Python's correctly rounded int/int division).
for ai in "volta mma.m8n8k4.f32.f16.f16.f16" "hopper mma.m16n8k16.f16.f16.f16.f16" \
          "hopper mma.m16n8k8.f32.tf32.tf32.f32" "ampere mma.m16n8k16.f32.bf16.bf16.f32" \
          "hopper wgmma.m64n8k32.f32.e4m3.e5m2" "blackwell tcgen05.mma.m128n8k32.block32.f32.e2m1.e3m2.ue8m0" \
          "blackwell tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3" "hopper mma.m16n8k16.f64.f64.f64.f64" \
          "blackwell mma.m16n8k32.f32.e5m2.e4m3.f32"; do
  set -- $ai
  must "oracle self-check $1 $2" $GEN --arch "$1" --instr "$2" --count 1000 --seed "${ORACLE_SEED:-1}" --selfcheck
done

# 2. Every distinct configuration: the model must match the oracle bit for bit.
must "oracle check_all.py" python3 tests/oracle/check_all.py --mmaref "$MMAREF" \
  --count "${ORACLE_COUNT:-4000}" --seed "${ORACLE_SEED:-1}" --jobs "${ORACLE_JOBS:-2}"

# 3. The verification can fail.
# (a) Hopper's F=25 reference fed to Turing's F=24 instruction of the same formats and K: clustered
#     vectors whose alignment truncation lands on the 25th fractional bit must differ.
out=$($GEN --arch hopper --instr mma.m16n8k8.f32.f16.f16.f32 --count 5000 --seed 7 --kind cluster \
      | "$MMAREF" batch turing mma.m16n8k8.f32.f16.f16.f32 --check --max-report 0)
if [[ $out =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]] && (( BASH_REMATCH[2] > 0 )); then
  ok "oracle detects F=25 vs F=24 (hopper reference into turing HMMA.1688.F32): ${BASH_REMATCH[2]} of 5000 differ"
else
  not_ok "oracle detects F=25 vs F=24: expected mismatches, got '$out'"
fi
# (b) A deliberately wrong expected value (low bit of D flipped) is reported on every line.
out=$($GEN --arch blackwell --instr tcgen05.mma.m64n8k32.f16.e4m3.e2m1 --count 200 --seed 3 --wrong \
      | "$MMAREF" batch blackwell tcgen05.mma.m64n8k32.f16.e4m3.e2m1 --check --max-report 1)
if [[ $out == *"0 passed, 200 failed"* && $out == *"mismatch line 1:"* ]]; then
  ok "oracle: 200 wrong expected values give 200 reported mismatches"
else
  not_ok "oracle: wrong expected values not all reported: '$out'"
fi

# (c) The oracle computes with its own parameters: a list whose Hopper HMMA.16816.F32 says F = 24 and
#     whose CDNA1 32x32x8f16 says flush = 1 (in either list form) gives the very same expected values.
"$MMAREF" list --json >"$tmp/list.json"
python3 - "$tmp/list.json" "$tmp/wrong.json" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))
for e in entries:
    where = e.get('schedule', []) + [e]          # the passes, and the older top-level fields if present
    if (e['arch'], e['name']) == ('hopper', 'mma.m16n8k16.f32.f16.f16.f32'):
        for p in where:
            p['frac_bits'] = 24
    if (e['arch'], e['name']) == ('cdna1', 'v_mfma_f32_32x32x8f16'):
        for p in where:
            p['flush'] = 1
json.dump(entries, open(sys.argv[2], 'w'))
PY
same=0
for ai in "hopper mma.m16n8k16.f32.f16.f16.f32" "cdna1 v_mfma_f32_32x32x8f16"; do
  set -- $ai
  a=$($GEN --arch "$1" --instr "$2" --count 3000 --seed 5 --kind cluster --list "$tmp/list.json" | md5sum)
  b=$($GEN --arch "$1" --instr "$2" --count 3000 --seed 5 --kind cluster --list "$tmp/wrong.json" | md5sum)
  [[ $a == "$b" && $a != "$(md5sum </dev/null)" ]] && same=$((same + 1))
done
if [[ $same -eq 2 ]]; then ok "oracle ignores the list's parameters: Hopper F=24 and CDNA1 flush=1 in the list change no expected value"
else not_ok "oracle follows the list's parameters: expected values changed with a wrong F / flush in the list"; fi
# (d) check_all.py passes a configuration only when mmaref checked every vector it was given: through a
#     wrapper that hands mmaref only the first 10 lines (and exits 0), the configuration must fail.
printf '#!/bin/sh\nif [ "$1" = batch ]; then awk "NR <= 10" | exec "%s" "$@"; fi\nexec "%s" "$@"\n' \
  "$MMAREF" "$MMAREF" >"$tmp/short-mmaref"
chmod +x "$tmp/short-mmaref"
out=$(python3 tests/oracle/check_all.py --mmaref "$tmp/short-mmaref" --count 200 --jobs 1 \
      --only 'FDA f16*f16+f32->f32 K=8 F=25 f32-rz'); rc=$?
if [[ $rc -eq 1 && $out == *"not ok - oracle FDA f16*f16+f32->f32 K=8 F=25 f32-rz (hopper "*": 10 vectors, 0 mismatches"* ]]; then
  ok "oracle check_all.py fails a configuration whose 200 vectors mmaref checked only 10 of"
else not_ok "check_all.py with a short mmaref: exit $rc, '$(grep -m1 'ok -' <<<"$out")'"; fi
out=$(python3 tests/oracle/check_all.py --mmaref "$MMAREF" --count 10 --only 'no such configuration'); rc=$?
[[ $rc -eq 1 && $out == *"not ok - check_all.py: no configuration matches"* ]] &&
  ok "oracle check_all.py fails when no configuration matches" ||
  not_ok "check_all.py --only matching nothing: exit $rc, '$out'"

# 4. The generator's argument errors are one clear line.
expect_error "gen.py: unknown architecture" "unknown architecture 'pascal'" \
  python3 tests/oracle/gen.py --mmaref "$MMAREF" --arch pascal --instr x
expect_error "gen.py: unknown instruction" "hopper has no instruction 'foo'" \
  python3 tests/oracle/gen.py --mmaref "$MMAREF" --arch hopper --instr foo
expect_error "gen.py: unknown kind" "unknown --kind 'odd'" \
  python3 tests/oracle/gen.py --mmaref "$MMAREF" --arch hopper --instr mma.m16n8k8.f32.f16.f16.f32 --kind odd
exit 0
