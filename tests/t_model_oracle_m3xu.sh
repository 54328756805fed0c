# The M3XU modes against independent exact references, through `mmaref batch --check`:
#   FP32 and FP32C: tests/oracle/ref_m3xu.py, the CLOSED form of docs/m3xu.md (exact products, aligned and
#     truncated once at F_w = 46, RNE to f32), no code shared with cmodel/ (whose algo_m3xu.c is the step
#     form: 12-bit halves, partial products per step, the 48-bit register); stimulus tests/oracle/gen_m3xu.py
#     (raw bits, exponent clusters with cancellation, carries across the 12-bit split, RNE ties, subnormals,
#     overflow, specials on every lane, FP32C real/imaginary cancellation), its coverage counted;
#   FP16 and BF16: tests/oracle/ref.py's FDA with the oracle table's baseline (Ampere HMMA, F = 24).
# K and F come from the oracle's own table (tests/oracle/table.py), never from the model.
#   ORACLE_COUNT vectors per mode (default 100000; `make regress` runs this suite with 1000000),
#   ORACLE_SEED (default 1).
# runtime: 42 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
if ! command -v python3 >/dev/null; then not_ok "M3XU oracle: python3 not found"; exit 0; fi
N=${ORACLE_COUNT:-100000}
SEED=${ORACLE_SEED:-1}
O=tests/oracle
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name() { python3 $O/gen_m3xu.py --mode "$1" --name; }
F32=$(name f32) F32C=$(name f32c)
F16=m3xu.m8n4k8.f32.f16.f16.f32 BF16=m3xu.m8n4k8.f32.bf16.bf16.f32

# verdict WHAT INSTR WANT FILE: FILE holds `mmaref batch m3xu INSTR --check` output; ok when exactly WANT
# vectors passed and none failed.
verdict() {
  local what=$1 instr=$2 want=$3 out
  out=$(cat "$4")
  if [[ $out =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]] && [[ ${BASH_REMATCH[1]} == "$want" && ${BASH_REMATCH[2]} == 0 ]]; then
    ok "$what: $want vectors, 0 mismatches"
  else
    not_ok "$what: wanted $want passed, 0 failed; got: $(grep -m3 -E 'mismatch|passed|mmaref' <<<"$out" | tr '\n' ' ')"
  fi
}

# 1. FP32 and FP32C: N vectors each against the closed form, the two modes in parallel.
for m in f32 f32c; do
  instr=$(name $m)
  (python3 $O/gen_m3xu.py --mode $m --count "$N" --seed "$SEED" --stats 2>"$tmp/cov.$m" \
     | "$MMAREF" batch m3xu "$instr" --check --max-report 3 >"$tmp/out.$m" 2>&1) &
done
wait
for m in f32 f32c; do
  verdict "M3XU $m vs ref_m3xu.py (closed form; seed $SEED; reproduce: python3 $O/gen_m3xu.py --mode $m --count $N --seed $SEED | $MMAREF batch m3xu $(name $m) --check)" \
    "$(name $m)" "$N" "$tmp/out.$m"
  # the stimulus reached every class it claims: at least one vector in a thousand each
  cov=$(cat "$tmp/cov.$m")
  low=""
  for e in nan inf tie subnormal overflow zero negzero cancel truncated low_half_ones; do
    [[ $cov =~ [\ ]$e=([0-9]+) ]] && (( BASH_REMATCH[1] * 1000 >= N )) || low+=" $e"
  done
  if [[ -z $low ]]; then ok "M3XU $m stimulus coverage (vectors per class of the exact result): ${cov#\# coverage: }"
  else not_ok "M3XU $m stimulus reaches too few vectors of:$low ($cov)"; fi
done

# 2. FP16 and BF16 modes: Ampere's FDA (ref.py, the oracle table's baseline), N vectors each.
for instr in $F16 $BF16; do
  (python3 $O/gen.py --arch m3xu --instr "$instr" --count "$N" --seed "$SEED" \
     | "$MMAREF" batch m3xu "$instr" --check --max-report 3 >"$tmp/out.$instr" 2>&1) &
done
wait
for instr in $F16 $BF16; do
  verdict "M3XU $instr vs ref.py FDA (Ampere's F = 24 by the oracle table)" "$instr" "$N" "$tmp/out.$instr"
done

# 3. The model's own stimulus stream (mmaref gen: every directed vector -- specials on every lane and
#    every pair of FP32C parts, alignment shifts 0..49, carries, cancellation, overflow -- then random
#    ones) with the closed form's expected D.
for m in f32 f32c; do
  instr=$(name $m) n=$(( N / 5 ))
  "$MMAREF" gen m3xu "$instr" --n "$n" --seed "$SEED" | python3 $O/gen_m3xu.py --mode $m --expect \
    | "$MMAREF" batch m3xu "$instr" --check --max-report 3 >"$tmp/gen.$m" 2>&1
  verdict "M3XU $m: mmaref gen's stream (directed, then random) vs ref_m3xu.py" "$instr" "$n" "$tmp/gen.$m"
done

# 4. The check can fail.
# (a) every expected D with its low bit flipped: every vector is a mismatch.
python3 $O/gen_m3xu.py --mode f32c --count 300 --seed 2 --wrong | "$MMAREF" batch m3xu "$F32C" --check --max-report 1 >"$tmp/wrong" 2>&1
grep -q ': 0 passed, 300 failed$' "$tmp/wrong" && ok "M3XU oracle: 300 wrong expected values give 300 mismatches" ||
  not_ok "M3XU oracle with wrong expected values: $(tail -1 "$tmp/wrong")"
# (b) the closed form with F_w = 45 instead of 46 differs from the model on clustered vectors.
out=$(python3 $O/gen_m3xu.py --mode f32 --count 3000 --seed 2 --kind cluster --F 45 | "$MMAREF" batch m3xu "$F32" --check --max-report 0)
if [[ $out =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]] && (( BASH_REMATCH[2] > 0 )); then
  ok "M3XU oracle: a reference with F_w = 45 disagrees with the model on ${BASH_REMATCH[2]} of 3000 clustered vectors"
else not_ok "M3XU oracle: F_w = 45 reference not told apart: '$out'"; fi
# (c) a mutant model whose multiply step 1 drops the low x low partial products (a_L * b_L) is caught in
#     both modes, and the FP16 mode (FDA) is unaffected.
sed 's/lane_odd = (uint64_t)a\.lo \* b\.lo/lane_odd = 0/' cmodel/src/algo_m3xu.c >"$tmp/algo_m3xu.c"
if cmp -s cmodel/src/algo_m3xu.c "$tmp/algo_m3xu.c"; then
  not_ok "M3XU mutant: the low x low product of multiply step 1 not found in cmodel/src/algo_m3xu.c"
elif ! ${CC:-cc} -O1 -std=gnu11 -w -Icmodel/include -Icmodel/src -o "$tmp/mutant" "$tmp/algo_m3xu.c" \
       $(ls cmodel/src/*.c | grep -v '/algo_m3xu\.c$') cmodel/tools/*.c -lm 2>"$tmp/cc.log"; then
  not_ok "M3XU mutant does not build: $(head -3 "$tmp/cc.log")"
else
  res=""
  for m in f32 f32c; do
    out=$(python3 $O/gen_m3xu.py --mode $m --count 2000 --seed 4 | "$tmp/mutant" batch m3xu "$(name $m)" --check --max-report 0)
    [[ $out =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]] && res+=" $m:${BASH_REMATCH[2]}" || res+=" $m:?"
  done
  out=$(python3 $O/gen.py --arch m3xu --instr $F16 --count 2000 --seed 4 | "$tmp/mutant" batch m3xu $F16 --check --max-report 0)
  [[ $out =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]] && res+=" f16:${BASH_REMATCH[2]}" || res+=" f16:?"
  if [[ $res =~ ^\ f32:([0-9]+)\ f32c:([0-9]+)\ f16:0$ ]] && (( BASH_REMATCH[1] > 0 && BASH_REMATCH[2] > 0 )); then
    ok "M3XU mutant without the low x low partial products: mismatches of 2000 vectors per mode:$res"
  else not_ok "M3XU mutant without the low x low partial products not caught as expected (mismatches per mode:$res)"; fi
fi
exit 0
