#!/usr/bin/env bash
# One unit of a units table (the columns of build/rtl/gen/units.txt) through Yosys 0.23 onto a cell library
# and OpenSTA (docs/synthesis.md).  Called by synth/synth.sh, which sets the environment:
#   SYNTH_UNITS   the units table          SYNTH_OUT  the output directory (logs, scripts, rows)
#   LIB_FILE ...  the library and the cells the flow names (synth/liberty.py; resolved here from
#                 SYNTH_LIBRARY when synth.sh did not)
#   SYNTH_QUICK=1: read, elaborate, `proc` and the latch check only
#   SYNTH_NOSHARE=1: synth -noshare
#   SYNTH_DELAY_PS: a delay target (ps) for ABC's gate sizing after mapping: `upsize -D` then `dnsize -D`
#                 pick each gate's drive strength on the library's timing to meet it with the least area
#                 (a real library's X1/X2/X4 cells; cells45 has X1 only: no effect).  Unset: no sizing.
#                 (&nf -D, the mapper's own target, leaves the netlist bit-identical: not used.)
#   SYNTH_EXTRA   extra SystemVerilog files read with the RTL (a test's mutant unit)
#   SYNTH_ABC=bounded|full|nosat: ABC's script (synth/flow.sh): its SAT sweeps (&fraig -x, scorr) with
#                 their conflicts bounded (the default), unbounded, or none
#   SYNTH_TIMEOUT: seconds for Yosys (3600); a unit whose ABC script with sweeps runs past them is
#                 synthesized again with SYNTH_ABC=nosat, its row naming both (abc=nosat abc_after_s=SECONDS)
# Full flow: synth -flatten -top; check -assert (no combinational loop, no undriven or multiply driven net);
# no latch; dfflibmap + abc -liberty (ABC's script: Yosys' default, then `buffer -p` for fanouts over 10,
# print_stats: the mapped logic depth `lev`, and stime -p: ABC's critical combinational path in ps); each
# flip-flop named after the register it holds, NET_reg (FF_NAMING, synth/liberty.py: the purge of internal
# net names that follows would leave it a number); check -assert again; no unmapped Yosys gate left;
# constants onto tie cells (hilomap), buffers for nets joined by an assign (insbuf), stat -liberty (area
# um^2); the netlist written as OpenSTA reads it (OUT/unitN.v); then synth/sta.py: the minimum period, the
# critical path and power with OpenSTA, at its default activity and, where the units table has its
# configs.txt beside it, at the unit's own (synth/activity.py).  Writes OUT/unitN.ys
# (the Yosys script: `yosys -s` reproduces the netlist), OUT/unitN.log, OUT/unitN.v, OUT/unitN.sdc,
# OUT/unitN.sta.tcl and .sta.log, and OUT/unitN.row (one line: key=value ...), and prints the row's
# table line.
# Resumable: a unit whose row is newer than the RTL, the library and this script, and whose
# parameters and library are the same, is not synthesized again.  Usage: synth_unit.sh UNIT_INDEX
set -u
cd "$(dirname "$0")/.."
# shellcheck source=synth/flow.sh
source synth/flow.sh
n=$1
UNITS=${SYNTH_UNITS:?} OUT=${SYNTH_OUT:?} QUICK=${SYNTH_QUICK:-0}
# the library (synth/liberty.py: its build/synth-lib copy and the cells the flow names), unless synth.sh
# resolved it already
if [[ -z ${LIB_FILE:-} ]]; then
  libenv=$(python3 synth/liberty.py resolve "${SYNTH_LIBRARY:-auto}") || exit 2
  eval "$libenv"
fi
LIB=$LIB_FILE
flow_unit "$UNITS" "$n" || exit 1
base=$OUT/unit$n
[[ $QUICK == 1 ]] && base=$OUT/unit$n-quick
target=${SYNTH_DELAY_PS:-}
abc_key=${SYNTH_ABC:-$FLOW_ABC_DEFAULT}
key="top=$top params=$unit_params rtl=${RTL// /,} quick=$QUICK noshare=${SYNTH_NOSHARE:-} delay=${target:-none} lib=$LIB_SOURCE extra=${SYNTH_EXTRA:-} abc=$abc_key power=${SYNTH_POWER_FIRST:-0}+${SYNTH_POWER_VECTORS:-200}${SYNTH_POWER_CONSTANT:+:constant}"
line() { # the table line of a row file
  awk -v u="$unit" -v a="$algo" -v k="$k" -v f="$f" -v ch="$chain" -v b="$block" -v fm="$ab/$c/$out" '
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { printf "%-4s %-10s %-3s %-3s %-5s %-5s %-16s %8s %11s %6s %9s %9s %5s %7s  %s\n", u, a, k, f, ch, b, fm,
          v["cells"], v["area_um2"], v["flops"], v["delay_ps"], v["period_ps"] == "" ? "-" : v["period_ps"],
          v["depth"], v["latches"], v["status"] }' "$1"
}
# a row is redone when a file it reads is newer (the unit's RTL, not the rest of rtl/)
newest_dep=$(ls -t $RTL rtl/*.svh "$LIB" synth/synth_unit.sh synth/flow.sh synth/rtl_files.py synth/sta.py synth/activity.py ${SYNTH_EXTRA:-} | head -1)
if [[ -f $base.row && $base.row -nt $newest_dep && $(head -1 "$base.key" 2>/dev/null) == "$key" ]] \
   && grep -q 'status=ok' "$base.row"; then
  line "$base.row"
  exit 0
fi
rm -f "$base.row"
if [[ $QUICK == 1 ]]; then
  script="read_verilog -sv $INC $RTL ${SYNTH_EXTRA:-}
$chparam
hierarchy -check -top $top
proc
flatten
opt -fast
tee -o $base.latches select -count t:\$dlatch t:\$_DLATCH_* t:\$_DLATCHSR_* t:\$sr
tee -o $base.stat stat"
else
  flow_abc_script "$base.abc" "$target"   # synth/flow.sh
  script="read_liberty -lib $LIB
read_verilog -sv $INC $RTL ${SYNTH_EXTRA:-}
$chparam
synth -flatten ${SYNTH_NOSHARE:+-noshare} -top $top
check -assert
tee -o $base.latches select -count t:\$dlatch t:\$_DLATCH_* t:\$_DLATCHSR_* t:\$sr
dfflibmap -liberty $LIB
abc -liberty $LIB -script $base.abc
${FF_NAMING:+script $FF_NAMING}
opt_clean -purge
check -assert
tee -o $base.unmapped select -count t:\$*
setundef -zero
$([[ -n $TIE_LO$TIE_HI ]] && echo "hilomap ${TIE_LO:+-locell $TIE_LO} ${TIE_HI:+-hicell $TIE_HI}")
insbuf -buf $BUF
tee -o $base.stat stat -liberty $LIB
rename -top $top
write_verilog -noattr -noexpr -nohex -nodec $base.v"
fi
echo "$script" >"$base.ys"
start=$SECONDS
limit=$FLOW_TIMEOUT abc_used=$abc_key abc_after=""
timeout "$limit" yosys -q -l "$base.log" -s "$base.ys" >/dev/null 2>&1; yrc=$?
# ABC's script with SAT sweeps past the time limit (timeout's 124): the unit again without them, the row
# saying so (NanGate's Blackwell K = 32 five-format unit: over 2 h with the full script, 206 s without)
if [[ $yrc == 124 && $QUICK != 1 && $abc_key != nosat ]]; then
  echo "synth: unit $n: ABC's $abc_key script ran past $limit s; again with SYNTH_ABC=nosat" >&2
  SYNTH_ABC=nosat flow_abc_script "$base.abc" "$target"
  abc_used=nosat abc_after=$limit start=$SECONDS
  timeout "$limit" yosys -q -l "$base.log" -s "$base.ys" >/dev/null 2>&1; yrc=$?
fi
if [[ $yrc == 0 ]]; then
  count() { grep -o '[0-9]\+ objects' "$1" | awk '{print $1}'; }
  cells=$(awk '/Number of cells:/ {print $4; exit}' "$base.stat")
  latches=$(count "$base.latches")
  if [[ $QUICK == 1 ]]; then
    flops=$(awk '/\$(s|a)?dff/ {n += $2} END {print n + 0}' "$base.stat")
    area=- delay=- depth=-
  else
    flops=$(awk -v ff=" $FF_CELLS " 'index(ff, " " $1 " ") {n += $2} END {print n + 0}' "$base.stat")
    area=$(awk '/Chip area for module/ {printf "%.1f", $NF; exit}' "$base.stat")
    # ABC's lines in the log, its colours taken out: `lev = N` of print_stats, `Delay = X ps` of stime
    abc=$(grep '^ABC:' "$base.log" | sed 's/\x1b\[[0-9;]*m//g')
    depth=$(sed -n 's/.* lev *= *\([0-9]*\).*/\1/p' <<<"$abc" | tail -1)
    delay=$(sed -n 's/.*Delay *= *\([0-9.]*\) ps.*/\1/p' <<<"$abc" | tail -1)
    unmapped=$(count "$base.unmapped")
  fi
  status=ok
  if [[ ${latches:-1} != 0 ]]; then status=LATCH
  elif [[ $QUICK != 1 && ${unmapped:-1} != 0 ]]; then status="UNMAPPED(${unmapped:-?}-yosys-gates)"
  elif [[ $QUICK != 1 && ( -z $delay || -z $depth || -z $area ) ]]; then status=NO-AREA-OR-DELAY
  fi
  # OpenSTA: the minimum period, the critical path, power (synth/sta.py); a unit it cannot time fails
  sta_fields=""
  if [[ $QUICK != 1 && $status == ok ]]; then
    if command -v sta >/dev/null; then
      sta_fields=$(LIB_FILE=$LIB CLK_Q_NS=$CLK_Q_NS SETUP_NS=$SETUP_NS WIRE_LOAD=$WIRE_LOAD FF_CELLS="$FF_CELLS" \
                   TIE_LO="$TIE_LO" TIE_HI="$TIE_HI" TIME_UNIT_PS="${TIME_UNIT_PS:-1000}" UNIT_ROW="$row" \
                   SYNTH_CONFIGS="$(dirname "$UNITS")/configs.txt" MMAREF="${MMAREF:-build/mmaref}" \
                   python3 synth/sta.py "$base" "$top") || status="STA-FAILED(see-$base.sta.log)"
    else sta_fields="sta_status=no-opensta(make-setup)"; fi
  fi
else
  cells=- flops=- area=- delay=- depth=- latches=- status="FAILED(see-$base.log)"
  # check -assert's reason, if that was it
  grep -q 'Found and reported [1-9]' "$base.log" 2>/dev/null && status="CHECK-FAILED(see-$base.log)"
fi
echo "$key" >"$base.key"
echo "unit=$unit algo=$algo K=$k F=$f chain=$chain block=$block ab_mask=$ab c_mask=$c out_mask=$out top=$top" \
  "params=$unit_params cells=$cells area_um2=$area flops=$flops delay_ps=${delay:--} depth=${depth:--}" \
  "latches=$latches status=$status seconds=$((SECONDS - start)) abc=$abc_used${abc_after:+ abc_after_s=$abc_after} script=$base.ys" \
  "lib=$LIB_NAME lib_real=$LIB_REAL ${sta_fields:-}" >"$base.row.tmp"
mv "$base.row.tmp" "$base.row"
line "$base.row"
[[ $status == ok ]]
