#!/usr/bin/env bash
# Yosys 0.23 synthesis and OpenSTA timing of every unit parameter set the instruction table needs
# (build/rtl/gen/units.txt, so units added later join by themselves) on a cell library: area (um^2),
# flip-flops, minimum clock period, critical path and power (OpenSTA), ABC's critical path and logic depth
# per unit (synth/synth_unit.sh does one unit; docs/synthesis.md).  Units run SYNTH_JOBS (2) at a time and
# are resumable (a unit whose row is newer than the RTL is not run again).  Writes OUT/report.md and
# OUT/report.json (synth/report.py; OUT is SYNTH_OUT, by default build/synth/LIB_NAME: one folder per
# library, so runs on two libraries keep their rows apart; `make synth` copies the report to synth/).
# Usage: synth.sh [--quick] [UNIT_INDEX...] (default: every unit but the test mutants).
# --quick: read, elaborate and `proc` only (no gate mapping, no report), with the same latch check.
# Environment: SYNTH_LIBRARY (nangate45, sky130hd, cells45, auto: the default, or a .lib/.lib.gz path;
# `make synth LIB=...`), SYNTH_LIB (where libraries are searched: files and folders, colon-separated;
# synth/liberty.py), SYNTH_UNITS (a units table), SYNTH_OUT (its output directory), SYNTH_JOBS,
# SYNTH_NOSHARE=1 (skip Yosys' SAT resource sharing: much faster on the K = 32 multi-format units),
# SYNTH_DELAY_PS (a delay target for ABC's gate sizing, upsize/dnsize), SYNTH_ABC=bounded|full|nosat (ABC's
# script, synth/flow.sh: bounded, the default, limits the conflicts of its SAT sweeps; full does not, up
# to 2.5 times slower; nosat leaves them out, hours faster on the naive FP32 unit, 2.6-6.5 % more area),
# SYNTH_TIMEOUT (3600 s for Yosys; a unit whose ABC script with sweeps runs past it is redone with
# SYNTH_ABC=nosat, its row saying so), SYNTH_EXTRA
# (extra SystemVerilog files), SYNTH_NOREPORT=1,
# SYNTH_MUL_PROBE (the multiplier probe's directory: the report adds the M3XU table), SYNTH_TITLE,
# SYNTH_POWER_VECTORS (200), SYNTH_POWER_FIRST (0), SYNTH_POWER_CONSTANT=1: the stimulus of the activity-based
# power (synth/activity.py; units whose table has a configs.txt beside it), MMAREF (build/mmaref).
# Prints the library (and, on the fallback synth/cells45.lib, that its timing is approximate) and a table;
# exits 2 with a one-line error naming the library when it cannot be had, 1 if a unit does not
# synthesize, fails check -assert, has a latch, is unmapped or cannot be timed.
set -u
cd "$(dirname "$0")/.."
export SYNTH_UNITS=${SYNTH_UNITS:-build/rtl/gen/units.txt}
if [[ ! -f $SYNTH_UNITS ]]; then
  [[ $SYNTH_UNITS == build/rtl/gen/units.txt ]] || { echo "synth.sh: no units table $SYNTH_UNITS" >&2; exit 1; }
  make -s build/rtl/gen/configs.txt || exit 1
fi
export SYNTH_QUICK=0
[[ ${1:-} == --quick ]] && { SYNTH_QUICK=1; shift; }
for u in "$@"; do
  awk -v n="$u" '$1 == n {f = 1} END {exit !f}' "$SYNTH_UNITS" || { echo "synth.sh: no unit '$u' in $SYNTH_UNITS" >&2; exit 1; }
done
# shellcheck source=synth/flow.sh
source synth/flow.sh
flow_abc_check || exit 2
# every unit but the mutants (column 10), or the ones named
units=$(if [[ $# -gt 0 ]]; then printf '%s\n' "$@"; else awk '!/^#/ && $10 == 0 {print $1}' "$SYNTH_UNITS"; fi)
# the library, resolved once for every unit (synth/liberty.py; a bad SYNTH_LIBRARY stops here)
libenv=$(python3 synth/liberty.py resolve "${SYNTH_LIBRARY:-auto}") || exit 2
eval "$libenv"
# each library's results in a folder of their own (build/synth/LIB_NAME), unless SYNTH_OUT names one
export SYNTH_OUT=${SYNTH_OUT:-build/synth/$LIB_NAME}
mkdir -p "$SYNTH_OUT"
export LIB_NAME LIB_FILE LIB_SOURCE LIB_REAL TIE_LO TIE_HI BUF FF_CELLS DFF CLK_Q_NS SETUP_NS TIME_UNIT_PS WIRE_LOAD FF_NAMING
echo "synth: library $LIB_NAME ($LIB_SOURCE)${LIB_NOTE:+: $LIB_NOTE}"
command -v sta >/dev/null || echo "synth: no OpenSTA (sta): no period, critical path or power (make setup installs it)"
printf '%-4s %-10s %-3s %-3s %-5s %-5s %-16s %8s %11s %6s %9s %9s %5s %7s  %s\n' unit algo K F chain block \
  "ab/c/out mask" cells "area um^2" flops "abc ps" "period ps" depth latches status
start=$SECONDS
# shellcheck disable=SC2086  # one unit index a line
xargs -P "${SYNTH_JOBS:-2}" -n 1 bash synth/synth_unit.sh <<<"$units"
rc=$?
[[ $SYNTH_QUICK == 1 || -n ${SYNTH_NOREPORT:-} ]] && exit $(( rc != 0 ))
echo "synthesis: $((SECONDS - start)) s (units already done are not run again)"
# the environment a row's command needs, where it is not the default
env=""
[[ $SYNTH_UNITS != build/rtl/gen/units.txt ]] && env="SYNTH_UNITS=$SYNTH_UNITS SYNTH_OUT=$SYNTH_OUT"
[[ -n ${SYNTH_EXTRA:-} ]] && env+=" SYNTH_EXTRA=$SYNTH_EXTRA"
[[ -n ${SYNTH_NOSHARE:-} ]] && env+=" SYNTH_NOSHARE=$SYNTH_NOSHARE"
[[ -n ${SYNTH_ABC:-} ]] && env+=" SYNTH_ABC=$SYNTH_ABC"
# shellcheck disable=SC2086  # unit indices
python3 synth/report.py --units "$SYNTH_UNITS" --dir "$SYNTH_OUT" --env "${env# }" \
  ${SYNTH_MUL_PROBE:+--mul-probe "$SYNTH_MUL_PROBE"} ${SYNTH_TITLE:+--title "$SYNTH_TITLE"} $units || rc=1
exit $(( rc != 0 ))
