#!/usr/bin/env bash
# The verification pipe beside the model, in one run (`make bench`): `mmaref batch` lines/s with one
# thread and with one per CPU, on K = 16 dot-adds of Hopper HMMA.16816.F32 from `mmaref gen` (output to
# /dev/null, best of 3), and the model alone on the same instruction (bench's pool loop, one thread), as
# ratios.  BATCH_LINES sets the input size (default 1,000,000 lines, about 170 MB, kept in BUILD).
set -euo pipefail
BUILD=${BUILD:-../build}
M=$BUILD/mmaref
I=(hopper mma.m16n8k16.f32.f16.f16.f32)
N=${BATCH_LINES:-1000000}
in=$BUILD/bench-batch-$N.txt
[[ -s $in ]] || "$M" gen "${I[@]}" --kind random --seed 1 --n "$N" >"$in"
cpus=$(getconf _NPROCESSORS_ONLN)

# best wall time of 3 runs, in seconds
best_secs() {
  local best="" t
  for _ in 1 2 3; do
    t=$( { TIMEFORMAT=%R; time "$M" batch "${I[@]}" "$@" <"$in" >/dev/null; } 2>&1 )
    best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
  done
  echo "$best"
}
one=$(best_secs --threads 1)
all=$(best_secs --threads "$cpus")
# the model alone: bench's "FDA f16 (Hopper HMMA)" row, dot-adds/s: its best ~1 ms window (column 6 of
# --csv) and its whole-run average (column 12), the figure comparable with batch's whole runs
read -r window model < <("$BUILD/bench" --seconds 0.3 --repeats 1 --csv |
                          awk -F, '$3 == "mma.m16n8k16.f32.f16.f16.f32" { print $6, $12 }')
awk -v n="$N" -v one="$one" -v all="$all" -v cpus="$cpus" -v model="$model" -v window="$window" 'BEGIN {
  r1 = n / one; rn = n / all
  printf "\nmmaref batch, hopper mma.m16n8k16.f32.f16.f16.f32 (K = 16), %d lines from mmaref gen, output to /dev/null:\n", n
  printf "  %-22s %7.2f M lines/s\n", "1 thread", r1 / 1e6
  printf "  %-22s %7.2f M lines/s  (%.2fx one thread; target >= 3 M lines/s on 2 cores)\n", cpus " threads (one per CPU)", rn / 1e6, rn / r1
  printf "  %-22s %7.2f M dot-adds/s (bench, one thread, run average; best window %.2f M)\n", "model alone", model / 1e6, window / 1e6
  printf "  batch / model: %.2f with 1 thread, %.2f with %d threads\n", r1 / model, rn / model, cpus
}'
