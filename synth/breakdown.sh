#!/usr/bin/env bash
# Area (and the critical path's delay) per submodule of the M3XU paper's Table III designs (FP16 baseline,
# naive FP32, M3XU without FP32C, M3XU, M3XU pipelined; build/rtl/gen/designs.txt names their units):
# each unit through the flow of synth/synth_unit.sh (synth/flow.sh: the same RTL, parameters and ABC
# script) with its hierarchy kept instead of flattened, the L multipliers of a unit and the adder tree of
# mma_align_sum (its wide adders, negations and their multiplexers) each moved into a submodule of their
# own (Yosys `submod`), `stat -liberty` per module; OpenSTA on the hierarchical
# netlist times the critical path, whose delay is shared out by the part each cell on it sits in.  That
# netlist is slower than the flat one: ABC maps each module alone and cannot buffer a net whose loads sit
# in other modules (the step-control and handshake nets that fan out to the datapath), so the shares of
# the datapath parts are the figures to read, not the control's or the total.
# synth/breakdown.py groups the modules into the parts of docs/synthesis.md's breakdown table and prints
# it (µm² per part and design, the hierarchical total and its ratio to the first design's).
# Each module is mapped by ABC alone (no constant and no optimization crosses its ports), so the totals
# are above the flattened flow's: 13-17 % on the Table III m3xu_unit designs, 29 % on the variant whose
# wide aligners are fed 24-bit products (docs/synthesis.md).  Usage: breakdown.sh [DESIGN...] (default: the five designs, then the
# variant baseline-fp16-f46 below), e.g.
#   SYNTH_LIBRARY=nangate45 SYNTH_ABC=nosat bash synth/breakdown.sh
# Environment: SYNTH_LIBRARY (synth/liberty.py; default nangate45), SYNTH_ABC (nosat: as `make synth` runs
# these designs; the default here), SYNTH_OUT (default build/synth/LIB_NAME/breakdown), SYNTH_JOBS (1).
# Writes OUT/DESIGN.ys, .log, .stat, .v (hierarchy kept), .sdc, .sta.tcl, .sta.log; OUT/breakdown.md (the table).  A design whose
# .stat is newer than the RTL, the library and these scripts is not synthesized again.
# Exits 2 with a one-line error when the library cannot be had, 1 for an unknown design or a failed run.
set -u
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=synth/flow.sh
source synth/flow.sh
flow_abc_check || exit 2
export SYNTH_ABC=${SYNTH_ABC-nosat}
gen=build/rtl/gen
[[ -f $gen/units.txt && -f $gen/designs.txt ]] || make -s "$gen/configs.txt" || exit 1
# baseline-fp16-f46: a variant, the baseline with the FP32 sum's grid (F_LO = 46 fractional bits instead
# of 24: its alignment, adder tree and normalization as wide as M3XU's, its products still f16/bf16)
all="baseline-fp16 naive-fp32 m3xu-without-fp32c m3xu m3xu-pipelined baseline-fp16-f46"
designs=${*:-$all}
for d in $designs; do
  [[ $d == baseline-fp16-f46 ]] || awk -v d="$d" '$2 == d {f = 1} END {exit !f}' "$gen/designs.txt" \
    || { echo "breakdown.sh: unknown design '$d' (known: $all)" >&2; exit 1; }
done
libenv=$(python3 synth/liberty.py resolve "${SYNTH_LIBRARY:-nangate45}") || exit 2
eval "$libenv"
OUT=${SYNTH_OUT:-build/synth/$LIB_NAME/breakdown}
mkdir -p "$OUT"
echo "breakdown: library $LIB_NAME ($LIB_SOURCE)${LIB_NOTE:+: $LIB_NOTE}, ABC ${SYNTH_ABC:-$FLOW_ABC_DEFAULT}, into $OUT"
one() { # one design: synthesis with its hierarchy, then OpenSTA
  local d=$1 n base start
  local table=$gen/units.txt
  n=$(awk -v d="${d%-f46}" '$2 == d {print $1}' "$gen/designs.txt")
  if [[ $d == baseline-fp16-f46 ]]; then  # the baseline's row with F_LO = 46
    table=$OUT/variants.txt
    awk -v n="$n" '$1 == n {sub(/F_LO=24/, "F_LO=46"); print}' "$gen/units.txt" >"$table"
    grep -q F_LO=46 "$table" || { echo "breakdown.sh: the baseline's row has no F_LO=24" >&2; return 1; }
  fi
  flow_unit "$table" "$n" || return 1
  base=$OUT/$d
  local newest
  # shellcheck disable=SC2086  # RTL: the unit's files (flow_unit)
  newest=$(ls -t $RTL rtl/*.svh "$LIB_FILE" synth/breakdown.sh synth/flow.sh synth/rtl_files.py synth/breakdown.py | head -1)
  if [[ -f $base.stat && $base.stat -nt $newest && $(cat "$base.key" 2>/dev/null) == "$row abc=${SYNTH_ABC:-$FLOW_ABC_DEFAULT} rtl=${RTL// /,}" ]]; then
    echo "$d (unit $n): done before"; return 0
  fi
  rm -f "$base.stat"
  flow_abc_script "$base.abc"
  # the flow of synth/synth_unit.sh without -flatten; the multipliers ($mul) into a submodule NAME_mul, the
  # adder tree (mma_align_sum's adders, negations and multiplexers of 20 bits or more) into NAME_adder_tree
  cat >"$base.ys" <<YS
read_liberty -lib $LIB_FILE
read_verilog -sv $INC $RTL
$chparam
hierarchy -check -top $top
proc
opt -fast
setattr -set submod "mul" t:\$mul
setattr -set submod "adder_tree" *mma_align_sum/t:\$add *mma_align_sum/t:\$neg %u r:Y_WIDTH>=20 %i *mma_align_sum/t:\$mux r:WIDTH>=20 %i %u
submod
synth -noshare -top $top
check -assert
dfflibmap -liberty $LIB_FILE
abc -liberty $LIB_FILE -script $base.abc
opt_clean -purge
check -assert
setundef -zero
$([[ -n $TIE_LO$TIE_HI ]] && echo "hilomap ${TIE_LO:+-locell $TIE_LO} ${TIE_HI:+-hicell $TIE_HI}")
insbuf -buf $BUF
tee -o $base.stat.tmp stat -liberty $LIB_FILE -top $top
write_verilog -noattr -noexpr -nohex -nodec $base.v
YS
  start=$SECONDS
  if ! timeout "$FLOW_TIMEOUT" yosys -q -l "$base.log" -s "$base.ys" >/dev/null 2>&1; then
    echo "breakdown.sh: $d (unit $n) failed to synthesize (see $base.log)" >&2; return 1
  fi
  mv "$base.stat.tmp" "$base.stat"
  echo "$row abc=${SYNTH_ABC:-$FLOW_ABC_DEFAULT} rtl=${RTL// /,}" >"$base.key"
  echo "$d (unit $n, $top): $((SECONDS - start)) s"
}
export -f one flow_unit flow_abc_script flow_abc_check
export OUT gen LIB_FILE LIB_NAME TIE_LO TIE_HI BUF
rc=0
# shellcheck disable=SC2086  # one design a line
xargs -P "${SYNTH_JOBS:-1}" -n 1 bash -c 'one "$0"' <<<"$(tr ' ' '\n' <<<"$designs")" || rc=1
LIB_FILE=$LIB_FILE CLK_Q_NS=$CLK_Q_NS SETUP_NS=$SETUP_NS WIRE_LOAD=$WIRE_LOAD FF_CELLS="$FF_CELLS" \
  TIME_UNIT_PS="${TIME_UNIT_PS:-1000}" python3 synth/breakdown.py --dir "$OUT" --units "$gen/units.txt" \
  --designs "$gen/designs.txt" $designs | tee "$OUT/breakdown.md" || rc=1
exit $rc
