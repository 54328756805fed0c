# SystemC co-simulation of the M3XU Tensor Core (docs/m3xu.md, "SystemC tile array"): the 8x4 array of
# Verilated m3xu_unit fed GEMM tiles by a SystemC producer, every D tile against mmaref_mma.
#   - SYSTEMC_TEST_TILES (200) tiles per mode: 0 mismatches, and the paper's rates.  Expected, from the
#     M3XU paper's Corollaries 1-3 with the baseline Tensor Core doing 8x4x8 FP16 every cycle:
#       FP16, BF16  8x4x8 per cycle                        -> 1 cycle/tile, 256 MAC/cycle
#       FP32        8x4x4 per 2 cycles (Cor. 1), 1/4 rate  -> 2 cycles/tile,  64 MAC/cycle (Cor. 2)
#       FP32C       8x4x2 complex per 16 * 2/8 = 4 cycles  -> 4 cycles/tile,  16 complex MAC/cycle (Cor. 3)
#     latency (first tile in to its D) = the mode's steps (D registered after the last step), so from the
#     first tile in to the last D out the mode takes exactly tiles x steps cycles (the fill costs nothing);
#   - a MUTANT unit (a_L b_L dropped) at one element: the run fails, the wrong D are that element's and
#     in the wide modes only (FP16/BF16 do not use the low halves);
#   - the rate check can fail: one idle cycle after every tile halves FP16's rate -> the run fails;
#   - backpressure (out_ready low 30 % of cycles): every tile still exact (the units' hold path);
#   - the pipelined design (--design m3xu-pipelined, PIPE = 1: a register after the data-assignment stage,
#     the paper's Table III): the same rates, one cycle more latency (steps + 1, which also shows the
#     array really is built of the PIPE = 1 units), exact D with and without backpressure;
#   - bad arguments: one-line error, exit 2.
# runtime: 128 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
tiles=${SYSTEMC_TEST_TILES:-200}
SIM=build/systemc/m3xu_systemc
export SC_COPYRIGHT_MESSAGE=DISABLE

if ! command -v verilator >/dev/null || [[ ! -e /usr/include/systemc.h ]]; then
  not_ok "rtl systemc: verilator and SystemC (libsystemc-dev) are needed (make setup)"
  exit 0
fi
if ! out=$(make -s systemc-build 2>&1); then not_ok "rtl systemc: the simulator builds: $(tail -5 <<<"$out")"; exit 0; fi

# mode line fields ($5 ..): label alias tiles mismatches cycles/tile latency with-fill MAC/cycle
field() { awk -v m="$2" '$5 == m {print $'"$3"'}' <<<"$1"; }

out=$($SIM --tiles "$tiles" --seed 1 2>&1); rc=$?
if [[ $rc -eq 0 && $out == *"RESULT pass"* ]]; then ok "rtl systemc: clean array, $tiles tiles per mode: pass"
else not_ok "rtl systemc: clean array: rc=$rc: $(grep -E 'FAIL|MISMATCH' <<<"$out" | head -3)"; fi
for want in "FP16 1.000 1 256.0" "BF16 1.000 1 256.0" "FP32 2.000 2 64.0" "FP32C 4.000 4 16.0"; do
  read -r mode cyc lat mac <<<"$want"
  got="$(field "$out" "$mode" 7) $(field "$out" "$mode" 8) $(field "$out" "$mode" 9) $(field "$out" "$mode" 10)"
  if [[ $got == "$tiles 0 $cyc $lat" && $(field "$out" "$mode" 11) == "$cyc" && $(field "$out" "$mode" 12) == "$mac" ]]; then
    ok "rtl systemc: $mode: $tiles tiles, 0 mismatches, $cyc cycles/tile (with the fill too), latency $lat, $mac MAC/cycle"
  else
    not_ok "rtl systemc: $mode: tiles mismatches cycles/tile latency = '$got', with fill $(field "$out" "$mode" 11), MAC/cycle $(field "$out" "$mode" 12) (want $tiles 0 $cyc $lat, $cyc, $mac)"
  fi
done
grep '^SystemC' <<<"$out" | sed 's/^/# /'

# ---- the mutant element must be caught, and located ----
for at in 2,2 5,2; do
  r=${at%,*} c=${at#*,}
  out=$($SIM --tiles "$tiles" --seed 1 --mutant "$at" --show 1000000 2>&1); rc=$?
  f32=$(field "$out" FP32 8) f32c=$(field "$out" FP32C 8) f16=$(field "$out" FP16 8) bf16=$(field "$out" BF16 8)
  where=$(grep '^MISMATCH' <<<"$out" | awk '{print $5}' | sort -u | xargs)
  if [[ $rc -eq 1 && $out == *"RESULT FAIL"* && $f32 -gt 0 && $f16 == 0 && $bf16 == 0 && $where == "D[$r][$c]:" ]]; then
    ok "rtl systemc: MUTANT (a_L*b_L dropped) at D[$r][$c] caught: $f32 FP32 and $f32c FP32C D wrong, all at D[$r][$c], none in FP16/BF16"
  else
    not_ok "rtl systemc: MUTANT at D[$r][$c]: rc=$rc, wrong D: FP32 $f32, FP32C $f32c, FP16 $f16, BF16 $bf16, at '$where'"
  fi
done
# on the diagonal the directed vectors (dot-add (i,i) of a directed tile) reach FP32C's low halves too
out=$($SIM --tiles "$tiles" --seed 1 --mutant 2,2 --show 0 2>&1)
if [[ $(field "$out" FP32C 8) -gt 0 ]]; then ok "rtl systemc: MUTANT at D[2][2] caught in FP32C as well"
else not_ok "rtl systemc: MUTANT at D[2][2] not caught in FP32C"; fi

# ---- the rate check can fail ----
out=$($SIM --tiles "$tiles" --seed 1 --gap 1 2>&1); rc=$?
if [[ $rc -eq 1 && $(field "$out" FP16 8) == 0 && $(field "$out" FP16 9) == 2.000 && $out == *"RATE OFF"* ]]; then
  ok "rtl systemc: one idle cycle after each tile: FP16 at 2 cycles/tile, the rate check fails the run"
else not_ok "rtl systemc: --gap 1 not reported: rc=$rc $(grep FP16 <<<"$out")"; fi

# ---- backpressure: the units hold D and their state ----
out=$($SIM --tiles $((tiles * 5)) --seed 2 --stall 30 --no-rate-check 2>&1); rc=$?
if [[ $rc -eq 0 && $out == *"RESULT pass"* ]] && ! grep -q MISMATCH <<<"$out"; then
  ok "rtl systemc: out_ready low 30 % of cycles: $((tiles * 5)) tiles per mode, 0 mismatches ($(field "$out" FP32C 9) cycles/FP32C tile)"
else not_ok "rtl systemc: backpressure: rc=$rc $(grep -E 'FAIL|MISMATCH' <<<"$out" | head -3)"; fi

# ---- the pipelined design ----
out=$($SIM --tiles "$tiles" --seed 3 --design m3xu-pipelined 2>&1); rc=$?
if [[ $rc -eq 0 && $out == *"RESULT pass"* && $out == *"PIPE = 1"* ]]; then ok "rtl systemc: pipelined array, $tiles tiles per mode: pass"
else not_ok "rtl systemc: pipelined array: rc=$rc: $(grep -E 'FAIL|MISMATCH' <<<"$out" | head -3)"; fi
for want in "FP16 1.000 2 256.0" "BF16 1.000 2 256.0" "FP32 2.000 3 64.0" "FP32C 4.000 5 16.0"; do
  read -r mode cyc lat mac <<<"$want"
  got="$(field "$out" "$mode" 7) $(field "$out" "$mode" 8) $(field "$out" "$mode" 9) $(field "$out" "$mode" 10) $(field "$out" "$mode" 12)"
  if [[ $got == "$tiles 0 $cyc $lat $mac" ]]; then
    ok "rtl systemc: pipelined $mode: $tiles tiles, 0 mismatches, $cyc cycles/tile, latency $lat (steps + 1), $mac MAC/cycle"
  else not_ok "rtl systemc: pipelined $mode: tiles mismatches cycles/tile latency MAC/cycle = '$got' (want $tiles 0 $cyc $lat $mac)"; fi
done
out=$($SIM --tiles $((tiles * 5)) --seed 4 --stall 30 --no-rate-check --design m3xu-pipelined 2>&1); rc=$?
if [[ $rc -eq 0 && $out == *"RESULT pass"* ]] && ! grep -q MISMATCH <<<"$out"; then
  ok "rtl systemc: pipelined, out_ready low 30 % of cycles: $((tiles * 5)) tiles per mode, 0 mismatches"
else not_ok "rtl systemc: pipelined backpressure: rc=$rc $(grep -E 'FAIL|MISMATCH' <<<"$out" | head -3)"; fi

# ---- bad arguments ----
expect_error "rtl systemc: --tiles 1 refused" "--tiles: '1' is not a count" $SIM --tiles 1
expect_error "rtl systemc: --mutant outside the array refused" "--mutant: '8,0'" $SIM --mutant 8,0
expect_error "rtl systemc: unknown mode refused" "unknown mode 'f64'" $SIM --modes f16,f64
expect_error "rtl systemc: unknown design refused" "--design: unknown design 'm3xu-fast'" $SIM --design m3xu-fast
expect_error "rtl systemc: mutant with the pipelined design refused" "exists in the m3xu design only" \
  $SIM --design m3xu-pipelined --mutant 1,1
expect_error "rtl systemc: unknown option refused" "unknown option or missing value: '--tile'" $SIM --tile 5
