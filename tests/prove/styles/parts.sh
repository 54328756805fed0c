#!/usr/bin/env bash
# The stages of tests/prove/styles/sv_dot_e4m3.sv proven one by one (tests/prove/styles/sv_dot_parts.sv):
# each miter read through make prove's front end, mapped to an AIG by Yosys and decided by ABC's iprove
# (UNSATISFIABLE: `bad` is never 1, the stage equals its specification for every input its range allows;
# SATISFIABLE: a difference).  Prints one line a miter: its name, the verdict, ABC's seconds; writes one
# record a miter, as make prove-all's (rows styles-part-NAME), to build/prove/styles-parts/table.jsonl,
# which `python3 tools/prove_table.py --merge docs/data/prove-all.jsonl ...` takes into docs/formal.md.
#   PARTS_TIMEOUT  seconds a miter (default 300)
set -u
cd "$(dirname "$0")/../../.."
dir=build/prove/styles-parts
mkdir -p $dir
: >"$dir/table.jsonl.tmp"
timeout_s=${PARTS_TIMEOUT:-300}
run() {  # NAME EXPECT WHAT TOP PARAM...: one miter; WHAT says what it compares (the record's label)
  local name=$1 expect=$2 what=$3 top=$4; shift 4
  local params=() p
  for p in "$@"; do params+=(--param "$p"); done
  python3 tb/prove/sv_frontend.py --top "$top" "${params[@]}" --incdir rtl --out "$dir/$name.v" rtl/mma_pkg.sv \
    tests/prove/styles/sv_dot_e4m3.sv tests/prove/spec_common.svh tests/prove/styles/sv_dot_parts.sv || return 2
  yosys -q -l "$dir/$name.yosys" -p "read_verilog $dir/$name.v; hierarchy -top $top; proc; flatten; opt -full; techmap; opt -fast;
    abc -g AND -fast; opt_clean; stat; write_aiger -zinit $dir/$name.aig" >/dev/null 2>&1 || return 2
  local out verdict secs and t0
  and=$(sed -n 's/.*\$_AND_ *\([0-9]*\)/\1/p' "$dir/$name.yosys" | tail -1)
  t0=$(date +%s%N)
  out=$(timeout "$timeout_s" yosys-abc -c "read_aiger $dir/$name.aig; strash; dc2; iprove" 2>&1 | tail -1)
  secs=$(( ($(date +%s%N) - t0) / 100000000 )); secs="$((secs / 10)).$((secs % 10))"
  case $out in
    UNSATISFIABLE*) verdict=PROVEN ;;
    SATISFIABLE*)   verdict=REFUTED ;;
    *)              verdict=UNKNOWN ;;
  esac
  echo "$name $verdict $secs"
  printf '{"unit": "%s", "solver": "abc iprove", "solver_seconds": %s, "and_gates": %s, "timeout": %s}\n' \
    "$top" "$secs" "${and:-null}" "$timeout_s" >"$dir/$name.json"
  python3 tools/prove_table.py --record "$dir/$name.json" --row "styles-part-$name" \
    --instruction ada:mma.m16n8k16.f32.e4m3.e4m3.f32 --verdict "$verdict" --expect "$expect" --label "$what" \
    --date "$(date -u +%F)" --machine "$(nproc) cores $(uname -m)" \
    --why "$([[ $verdict == UNKNOWN ]] && echo "iprove undecided in $timeout_s s")" >>"$dir/table.jsonl.tmp"
}
run round PROVEN "Step 5, pack_rz, every signed 24-bit sum and every lsb e_max gives, against spec_round (e8m13)" sv_dot_round_miter
run round-mutant-keep14 REFUTED "the same with 14 bits kept (its planted bug)" sv_dot_round_miter KEEP=14
run sum-k4 PROVEN "Steps 3-4 from free terms (C and K = 4 products in their exponent ranges) against the specification's formula" sv_dot_sum_miter K=4
run sum-k16 PROVEN "the same, K = 16" sv_dot_sum_miter K=16
mv "$dir/table.jsonl.tmp" "$dir/table.jsonl"
