#!/usr/bin/env bash
# Yosys 0.23 synthesis of every unit parameter set the instruction table needs (build/rtl/gen/units.txt):
# read the SystemVerilog, synthesize flat onto Yosys' internal gate library, check that no latch was
# inferred, and report cells and an area estimate (`stat -tech cmos`: transistor count of the gate-level
# netlist).  Logs in build/rtl/synth/.  Usage: synth.sh [--quick] [UNIT_INDEX...] (default: all units).
# --quick: read, elaborate and `proc` only (no gate mapping), with the same latch check: seconds per unit.
# SYNTH_NOSHARE=1 skips Yosys' SAT-based resource sharing (much faster on the K = 32 multi-format units).
# Prints a table; exits 1 if a unit does not synthesize or has a latch.
set -u
cd "$(dirname "$0")/.."
# the files and include directories of rtl/rtl.f, the one list of the RTL
RTL=$(sed 's|//.*||; /^[[:space:]]*+incdir+/d' rtl/rtl.f | xargs)
INC=$(sed -n 's|^[[:space:]]*+incdir+\([^[:space:]]*\).*|-I\1|p' rtl/rtl.f | xargs)
UNITS=build/rtl/gen/units.txt
OUT=${SYNTH_OUT:-build/rtl/synth}
[[ -f $UNITS ]] || { make -s build/rtl/gen/configs.txt || exit 1; }
mkdir -p "$OUT"
quick=0
[[ ${1:-} == --quick ]] && { quick=1; shift; }
want=" $* "
fail=0
printf '%-4s %-5s %-3s %-3s %-5s %-5s %-22s %9s %9s %12s %7s  %s\n' unit algo K F chain block "formats(ab/c/out mask)" \
  cells flops transistors latches status
while read -r unit algo k f chain block ab c out mutant top unit_params; do
  [[ $unit == \#* || $mutant != 0 ]] && continue
  [[ $# -gt 0 && $want != *" $unit "* ]] && continue
  # unit_params: NAME=VALUE,... from tb/gen_configs.py
  params="chparam $(tr ',' '\n' <<<"$unit_params" | sed 's/^\(.*\)=\(.*\)$/-set \1 \2/' | xargs) $top"
  log=$OUT/unit$unit.log
  [[ $quick == 1 ]] && log=$OUT/unit$unit-quick.log
  if [[ $quick == 1 ]]; then
    script="read_verilog -sv $INC $RTL; $params; hierarchy -check -top $top; proc; flatten; opt -fast;"
  else
    script="read_verilog -sv $INC $RTL; $params; synth -flatten ${SYNTH_NOSHARE:+-noshare} -top $top; abc -fast; opt_clean;"
  fi
  script+=" tee -o $log.latches select -count t:\$dlatch t:\$_DLATCH_* t:\$_DLATCHSR_* t:\$sr;"
  script+=" tee -o $log.stat stat -tech cmos"
  if timeout 1800 yosys -q -l "$log" -p "$script" >/dev/null 2>&1; then
    cells=$(awk '/Number of cells:/ {print $4; exit}' "$log.stat")
    tr=$(awk '/Estimated number of transistors:/ {print $5; exit}' "$log.stat")
    flops=$(awk '/\$_.*DFF.*_/ {n += $2} END {print n + 0}' "$log.stat")
    [[ $quick == 1 ]] && flops=$(awk '/\$(s|a)?dff/ {n += $2} END {print n + 0}' "$log.stat")
    latches=$(grep -o '[0-9]\+ objects' "$log.latches" | awk '{print $1}')
    status=ok
    [[ ${latches:-1} != 0 ]] && { status="LATCH"; fail=1; }
  else
    cells=- tr=- flops=- latches=- status="FAILED (see $log)"; fail=1
  fi
  printf '%-4s %-5s %-3s %-3s %-5s %-5s %-22s %9s %9s %12s %7s  %s\n' "$unit" "$algo" "$k" "$f" "$chain" "$block" \
    "$ab/$c/$out" "$cells" "$flops" "$tr" "$latches" "$status"
done <"$UNITS"
exit $fail
