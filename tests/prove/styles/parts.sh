#!/usr/bin/env bash
# The stages of tests/prove/styles/sv_dot_e4m3.sv proven one by one (tests/prove/styles/sv_dot_parts.sv):
# each miter read through make prove's front end, mapped to an AIG by Yosys and decided by ABC's iprove
# (UNSATISFIABLE: `bad` is never 1, the stage equals its specification for every input its range allows;
# SATISFIABLE: a difference).  Prints one line a miter: its name, the verdict, ABC's seconds.
#   PARTS_TIMEOUT  seconds a miter (default 300)
set -u
cd "$(dirname "$0")/../../.."
dir=build/prove/styles-parts
mkdir -p $dir
run() {  # NAME TOP PARAM...
  local name=$1 top=$2; shift 2
  local params=() p
  for p in "$@"; do params+=(--param "$p"); done
  python3 tb/prove/sv_frontend.py --top "$top" "${params[@]}" --incdir rtl --out "$dir/$name.v" rtl/mma_pkg.sv \
    tests/prove/styles/sv_dot_e4m3.sv tests/prove/spec_common.svh tests/prove/styles/sv_dot_parts.sv || return 2
  yosys -q -p "read_verilog $dir/$name.v; hierarchy -top $top; proc; flatten; opt -full; techmap; opt -fast;
    abc -g AND -fast; opt_clean; write_aiger -zinit $dir/$name.aig" >"$dir/$name.yosys" 2>&1 || return 2
  local out
  out=$(timeout "${PARTS_TIMEOUT:-300}" yosys-abc -c "read_aiger $dir/$name.aig; strash; dc2; iprove" 2>&1 | tail -1)
  case $out in
    UNSATISFIABLE*) echo "$name PROVEN ${out##*= }" ;;
    SATISFIABLE*)   echo "$name REFUTED ${out##*= }" ;;
    *)              echo "$name UNKNOWN (${PARTS_TIMEOUT:-300} s)" ;;
  esac
}
run round sv_dot_round_miter
run round-mutant-keep14 sv_dot_round_miter KEEP=14
run sum-k4 sv_dot_sum_miter K=4
run sum-k16 sv_dot_sum_miter K=16
