#!/usr/bin/env bash
# `make synth`: every unit of build/rtl/gen/units.txt with ABC's default script, except the M3XU designs
# (build/rtl/gen/designs.txt); then those with SYNTH_ABC=nosat into build/synth/LIB/nosat: the naive FP32
# unit's eight 24 x 24 multipliers keep ABC's SAT sweeps busy for hours, and the Table III ratios must
# come from one script; then one report (synth/report.py) in build/synth/LIB (LIB: the library's name,
# nangate45, sky130hd, cells45 or the file's), each row with its ABC script named.  Both passes are resumable (synth/synth.sh).  Environment as synth/synth.sh (SYNTH_NOSHARE,
# SYNTH_MUL_PROBE, SYNTH_JOBS ...).
# usage: synth_all.sh [UNIT...]   (the first pass over these units only; the report lists every unit)
#        synth_all.sh --designs   (the M3XU designs alone: make synth-m3xu)
set -u
cd "$(dirname "$0")/.."
gen=build/rtl/gen
# one folder per library: build/synth/LIB_NAME (the first pass's rows and the report), .../nosat
libenv=$(python3 synth/liberty.py resolve "${SYNTH_LIBRARY:-auto}") || exit 2
lib_name=$(sed -n "s/^LIB_NAME=//p" <<<"$libenv" | tr -d "'")
full=build/synth/$lib_name
nosat=$full/nosat
[[ -f $gen/units.txt && -f $gen/designs.txt && -f $gen/design.json ]] || make -s "$gen/configs.txt" || exit 1
# the units (no mutant) by the design database's fields: the M3XU designs, and the others
designs=$(python3 tools/design.py units --mutant 0 --field index,design | awk '$2 != "" {print $1}')
units=$(python3 tools/design.py units --mutant 0 --design "" --field index)
only_designs=0
if [[ ${1:-} == --designs ]]; then only_designs=1; units=""
elif [[ $# -gt 0 ]]; then units="$*"; fi
rc=0
start=$SECONDS
# shellcheck disable=SC2086  # unit indices
[[ -n $units ]] && { SYNTH_OUT=$full SYNTH_NOREPORT=1 bash synth/synth.sh $units || rc=1; }
echo "the M3XU designs with SYNTH_ABC=nosat (into $nosat):"
# shellcheck disable=SC2086
SYNTH_OUT=$nosat SYNTH_ABC=nosat SYNTH_NOREPORT=1 bash synth/synth.sh $designs || rc=1
echo "synthesis: $((SECONDS - start)) s (units already done are not run again)"
env=${SYNTH_NOSHARE:+SYNTH_NOSHARE=$SYNTH_NOSHARE}
dirs=(--dir "$full" --dir "$nosat")
[[ $only_designs == 1 ]] && dirs=(--dir "$nosat")  # the report in build/synth/LIB/nosat
# shellcheck disable=SC2046,SC2086
python3 synth/report.py --units "$gen/units.txt" --designs "$gen/designs.txt" "${dirs[@]}" \
  --m3xu-dir "$nosat" --env "$env" ${SYNTH_MUL_PROBE:+--mul-probe "$SYNTH_MUL_PROBE"} \
  --title "${SYNTH_TITLE:-Synthesis report (make synth; the M3XU designs with SYNTH_ABC=nosat)}" \
  $([[ $only_designs == 1 ]] && echo $designs) || rc=1
exit $rc
