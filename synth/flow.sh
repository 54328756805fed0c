# synth/flow.sh: the pieces of the Yosys flow that synth/synth_unit.sh (one unit, flattened) and
# synth/breakdown.sh (one unit, hierarchy kept, area per submodule) share: a unit's row and parameters,
# the RTL's files, the chparam line and ABC's script (docs/synthesis.md).  Sourced, not run.
# shellcheck shell=bash

# the time limit of one Yosys run, seconds (SYNTH_TIMEOUT; synth_unit.sh redoes a unit whose ABC script
# runs past it without the SAT sweeps)
export FLOW_TIMEOUT=${SYNTH_TIMEOUT:-3600}  # exported: breakdown.sh runs its designs in child shells

# flow_unit UNITS N: the row of unit N of a units table: sets row, unit, algo, k, f, chain, block, ab, c,
# out, mutant, top, unit_params; RTL (the files of rtl/rtl.f that top, or the SYNTH_EXTRA files, need:
# synth/rtl_files.py) and INC (rtl/rtl.f's include directories); chparam (the line that sets the unit's
# parameters on its top).  Returns 1 with a one-line error when there is no such unit.
# shellcheck disable=SC2034  # the variables are the caller's
flow_unit() {
  row=$(awk -v n="$2" '$1 == n' "$1")
  [[ -n $row ]] || { echo "${0##*/}: no unit $2 in $1" >&2; return 1; }
  read -r unit algo k f chain block ab c out mutant top unit_params <<<"$row"
  # only the files the unit needs: with the whole of rtl/rtl.f, Yosys' numbering of the netlist, and so
  # ABC's mapping, moved by a few per cent whenever rtl/ gained an unrelated module
  # shellcheck disable=SC2086  # SYNTH_EXTRA: a list of files
  RTL=$(python3 synth/rtl_files.py "$top" ${SYNTH_EXTRA:-}) || return 1
  INC=$(python3 synth/rtl_files.py --incdirs) || return 1
  # unit_params: NAME=VALUE,... from tb/gen_configs.py (or synth/sweep.py); Yosys 0.23's chparam reads no
  # minus sign, so a negative value (Hopper's ZERO_EXP = -133) goes as a signed 32-bit constant
  chparam="chparam $(tr ',' '\n' <<<"$unit_params" | while IFS='=' read -r name val; do
    if [[ $val == -* ]]; then printf -- "-set %s 32'sh%08x " "$name" $(( val & 0xFFFFFFFF ))
    else printf -- "-set %s %s " "$name" "$val"; fi; done) $top"
}

# ABC's scripts, by SYNTH_ABC: bounded (the default: two SAT sweeps, &fraig -x and scorr, that give up on a
# pair of nodes after FLOW_BOUNDED_CONFLICTS conflicts: a pair they cannot tell apart stays two nodes), full
# (the same sweeps, &fraig -x settling each pair however many conflicts it takes: most of its time goes to a
# few hundred pairs that differ yet take thousands of conflicts to tell apart, 1.7-2.5 times bounded's time
# on K = 16 units for areas within about 10 % of bounded's, docs/synthesis.md), nosat (no sweeps: on a
# unit of full-width 24 x 24 multipliers they run for hours; docs/synthesis.md gives the area this costs)
export FLOW_ABC_SCRIPTS="bounded full nosat" FLOW_ABC_DEFAULT=bounded FLOW_BOUNDED_CONFLICTS=100  # exported: breakdown.sh's child shells

# flow_abc_check: returns 1 with a one-line error when SYNTH_ABC names no script
flow_abc_check() {
  [[ " $FLOW_ABC_SCRIPTS " == *" ${SYNTH_ABC:-$FLOW_ABC_DEFAULT} "* ]] && return 0
  echo "${0##*/}: SYNTH_ABC='${SYNTH_ABC}' is not one of: $FLOW_ABC_SCRIPTS" >&2
  return 1
}

# flow_abc_script FILE [DELAY_PS]: ABC's script for `abc -liberty` into FILE: Yosys' default script for
# -liberty (its sweeps as SYNTH_ABC says); buffer trees on nets of more than 10 loads (ABC's `buffer`,
# flip-flop outputs too: they are ABC's primary inputs), as a real flow would insert them; gate sizing to
# DELAY_PS when given; then the mapped network's levels and its static timing.
flow_abc_script() {
  local sweeps target=${2:-}
  case ${SYNTH_ABC:-$FLOW_ABC_DEFAULT} in
    full) sweeps=("&fraig -x" "&put" "scorr") ;;
    nosat) sweeps=("&put") ;;
    bounded) sweeps=("&fraig -x -C $FLOW_BOUNDED_CONFLICTS" "&put" "scorr") ;;
    *) flow_abc_check; return 1 ;;
  esac
  printf '%s\n' 'strash' '&get -n' "${sweeps[@]}" 'dc2' 'dretime' 'strash' '&get -n' '&dch -f' \
    '&nf' '&put' 'buffer -p' ${target:+"upsize -D $target" "dnsize -D $target"} 'topo' 'print_stats' 'stime -p' >"$1"
}
