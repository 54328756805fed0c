#!/usr/bin/env bash
# `make synth`: every unit of build/rtl/gen/units.txt with ABC's full script, except the naive FP32 unit
# (its eight 24 x 24 multipliers keep ABC's SAT sweeps busy for hours); then the M3XU designs, naive one
# included, with SYNTH_ABC=nosat into build/rtl/synth-nosat, so that the Table III ratios come from one
# script; then one report (synth/report.py) in build/rtl/synth: each unit's row with its ABC script named.
# Both passes are resumable (synth/synth.sh).  Environment as synth/synth.sh (SYNTH_NOSHARE,
# SYNTH_MUL_PROBE, SYNTH_JOBS ...).  usage: synth_all.sh [UNIT...] (the first pass over these units only)
set -u
cd "$(dirname "$0")/.."
gen=build/rtl/gen
full=build/rtl/synth
nosat=build/rtl/synth-nosat
[[ -f $gen/units.txt && -f $gen/designs.txt ]] || make -s "$gen/configs.txt" || exit 1
naive=$(awk '$2 == "naive-fp32" {print $1}' "$gen/designs.txt")
designs=$(awk '!/^#/ && $2 !~ /:/ {print $1}' "$gen/designs.txt")
units=$(awk -v n="$naive" '!/^#/ && $10 == 0 && $1 != n {print $1}' "$gen/units.txt")
[[ $# -gt 0 ]] && units="$*"  # the full-script pass over these units only (the report still lists every unit)
rc=0
start=$SECONDS
# shellcheck disable=SC2086  # unit indices
SYNTH_OUT=$full SYNTH_NOREPORT=1 bash synth/synth.sh $units || rc=1
echo "the M3XU designs with SYNTH_ABC=nosat (into $nosat):"
# shellcheck disable=SC2086
SYNTH_OUT=$nosat SYNTH_ABC=nosat SYNTH_NOREPORT=1 bash synth/synth.sh $designs || rc=1
echo "synthesis: $((SECONDS - start)) s (units already done are not run again)"
env=${SYNTH_NOSHARE:+SYNTH_NOSHARE=$SYNTH_NOSHARE}
python3 synth/report.py --units "$gen/units.txt" --designs "$gen/designs.txt" --dir "$full" --dir "$nosat" \
  --m3xu-dir "$nosat" --env "$env" ${SYNTH_MUL_PROBE:+--mul-probe "$SYNTH_MUL_PROBE"} \
  --title "${SYNTH_TITLE:-Synthesis report (make synth; the M3XU designs and unit $naive with SYNTH_ABC=nosat)}" || rc=1
exit $rc
