#!/usr/bin/env bash
# Runs the co-simulation (build/rtl/obj/Vtb_mma) over the configurations of build/rtl/gen/configs.txt and
# prints a pass table: configuration, vectors, mismatches, vectors/s.  Mutant rows must FAIL (their
# mismatches prove the testbench catches a broken unit); every other row must pass, with its coverage
# closed (a reachable coverage bin that no vector hit is a HOLE, listed from the run's report).
#   --count N     vectors per configuration (default 100000)
#   --seed S      seed (default 1)
#   --demo        one configuration per unit (AMD: per algorithm) plus the mutants
#   --only REGEX  configurations whose "arch:name" matches
#   --bp-every N  run every N-th configuration with random backpressure/bubbles (+bp); 0 = none
#   --jobs N      parallel simulations (default 2)
#   --tap         print "ok - ..." / "not ok - ..." lines for tests/run.sh instead of the table
#   --cfg N[,N..] only these configurations (indexes of configs.txt; with --only, both must match)
#   --first N     first vector index: each configuration checks vectors [N, N + count) of its seeded stream
#                 (vector i is a pure function of instruction, seed and i, whatever the range)
#   --json FILE   also write the rows as JSON (tb/cosim_json.py: vectors, mismatches, coverage bins, the
#                 first mismatches decoded, the command that replays the first one)
set -u
cd "$(dirname "$0")/.."
SIM=build/rtl/obj/Vtb_mma DB=build/rtl/gen/design.json
count=100000 seed=1 demo=0 only="" bp_every=0 jobs=${RTL_JOBS:-2} tap=0 cfgs="" first=0 json=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --demo) demo=1; shift ;;
    --only) only=$2; shift 2 ;;
    --bp-every) bp_every=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --tap) tap=1; shift ;;
    --cfg) cfgs=$2; shift 2 ;;
    --first) first=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    *) echo "run_cosim.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ $cfgs =~ ^[0-9]+(,[0-9]+)*$ || -z $cfgs ]] || { echo "run_cosim.sh: --cfg wants N or N,N,..., not '$cfgs'" >&2; exit 2; }
[[ $first =~ ^[0-9]+$ ]] || { echo "run_cosim.sh: --first wants a vector index (0, 1, ...), not '$first'" >&2; exit 2; }
[[ -x $SIM && -f $DB ]] || { echo "run_cosim.sh: build the model first (make rtl)" >&2; exit 2; }
# --json: the bench lists every coverage bin on its own line (each lane and scale slot), so that shards
# merge bin by bin (tb/cosim_json.py)
[[ -n $json ]] && export MMAREF_COV_BINS=1

# pick configurations: index unit kind arch name.  --demo: one per unit; the AMD units (many K, one
# datapath each) one per algorithm: arch, passes and operand kind (fp8/bf8 or not) of FDRDA or GPS
# (the design database's fields by name, tools/design.py: each unit's kind, then each configuration's
# index unit kind arch name passes a)
mapfile -t rows < <(awk -v demo="$demo" -v only="$only" -v cfgs="${cfgs:+,$cfgs,}" '
  NR == FNR { algo[$1] = $2; next }
  cfgs != "" && index(cfgs, "," $1 ",") == 0 { next }
  { label = $4 ":" $5; key = $2 }
  algo[$2] == "FDRDA" || algo[$2] == "GPS" { key = algo[$2] ":" $4 ":" $6 ":" ($7 ~ /fnuz$/) }
  only != "" && label !~ only { next }
  # of the M3XU designs, one per mode (the full unit'"'"'s four)
  $4 == "m3xu" { key = $5 }
  demo && $3 == "check" && (key in seen) { next }
  { seen[key] = 1; print }' <(python3 tools/design.py units --field index,kind --db "$DB") \
  <(python3 tools/design.py configs --field index,unit,kind,arch,name,passes,a --db "$DB"))

first_arg=""; [[ $first != 0 ]] && first_arg=" +first=$first"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
i=0
for row in "${rows[@]}"; do
  read -r idx unit kind _ <<<"$row"
  bp=-
  (( bp_every > 0 && i % bp_every == 0 )) && bp=+bp
  printf '%s\n' "$idx $kind $bp"
  i=$((i + 1))
done | xargs -P "$jobs" -L 1 bash -c '
  idx=$0 kind=$1 bp=$2; [[ $bp == - ]] && bp=""

  fst=+fst=build/rtl/fail-cfg$idx.fst
  [[ $kind != check ]] && fst=+nofst
  timeout 3600 '"$SIM"' +cfg=$idx +seed='"$seed"' +first='"$first"' +count='"$count"' $bp $fst >'"$out"'/$idx.log 2>&1
  echo $? >'"$out"'/$idx.rc; echo "${bp:--}" >'"$out"'/$idx.bp'

# what a failed row shows of its log: the holes, or the reports of the first mismatches
show_log() {
  if [[ $2 == HOLE ]]; then grep '^COVERAGE HOLE' "$1" | sed 's/^/    /'
  else grep -v '^RESULT' "$1" | head -40 | sed 's/^/    /'; fi
}
fail=0 total_v=0 total_m=0
[[ $tap == 0 ]] && printf '%-4s %-62s %-4s %-3s %-2s %-13s %-3s %10s %10s %10s %6s  %s\n' \
  cfg instruction K F ch out bp vectors mismatch "vec/s" cyc/op result
for row in "${rows[@]}"; do
  read -r idx unit kind arch name k F chain a b c d outk scale block covers <<<"$row"
  log=$out/$idx.log
  res=$(grep -m1 '^RESULT' "$log")
  v=$(sed -n 's/.* vectors=\([0-9]*\).*/\1/p' <<<"$res")
  m=$(sed -n 's/.* mismatches=\([0-9]*\).*/\1/p' <<<"$res")
  r=$(sed -n 's/.* rate=\([0-9]*\).*/\1/p' <<<"$res")
  cyc=$(sed -n 's|.* cycles/op=\([0-9.]*\).*|\1|p' <<<"$res")
  bp=$(cat "$out/$idx.bp" 2>/dev/null); [[ $bp == +bp ]] && bp=yes || bp=-
  if [[ -z $res ]]; then
    verdict="ERROR"; v=0; m=0; r=0
  elif [[ $kind == check ]]; then
    holes=$(grep -c '^COVERAGE HOLE' "$log")
    if [[ $m != 0 || $v != "$count" ]]; then verdict="FAIL"
    elif [[ $holes != 0 ]]; then verdict="HOLE"  # every reachable coverage bin must be hit
    else verdict="pass"; fi
  else
    [[ $m -gt 0 ]] && verdict="caught ($kind)" || verdict="MISSED ($kind)"
  fi
  total_v=$((total_v + v)); [[ $kind == check ]] && total_m=$((total_m + m))
  what="$arch:$name"
  if [[ $tap == 1 ]]; then
    if [[ $verdict == pass || $verdict == caught* ]]; then
      echo "ok - rtl cfg $idx $what ($kind): $v vectors, $m mismatches, $r vec/s, ${cyc:-?} cycles/op"
    else
      echo "not ok - rtl cfg $idx $what ($kind): $verdict, $v vectors, $m mismatches (build/rtl/obj/Vtb_mma +cfg=$idx +seed=$seed$first_arg +count=$count)"
      show_log "$log" "$verdict"
    fi
  else
    printf '%-4s %-62s %-4s %-3s %-2s %-13s %-3s %10s %10s %10s %6s  %s\n' "$idx" "${what:0:62}" "$k" "$F" "$chain" \
      "$outk" "$bp" "$v" "$m" "$r" "${cyc:--}" "$verdict"
    [[ $verdict == pass || $verdict == caught* ]] || show_log "$log" "$verdict"
  fi
  [[ $verdict == pass || $verdict == caught* ]] || fail=$((fail + 1))
done
# vectors of each stimulus kind, over every configuration (the COVERAGE line of each run)
kinds=$(cat "$out"/*.log 2>/dev/null | awk '/^COVERAGE / && !/^COVERAGE (HOLE|BIN)/ { for (i = 3; i <= NF; i++) { split($i, kv, "=")
    if (!(kv[1] in n)) order[++k] = kv[1]; n[kv[1]] += kv[2] } }
  END { for (i = 1; i <= k; i++) printf "%s %s=%d", (i > 1 ? "," : ""), order[i], n[order[i]] }')
if [[ -n $json ]]; then
  for row in "${rows[@]}"; do read -r idx _ <<<"$row"; printf '%s\n' "$row" >"$out/$idx.row"; done
  python3 tb/cosim_json.py --logs "$out" --seed "$seed" --first "$first" --count "$count" --out "$json" \
    || { echo "run_cosim.sh: could not write $json" >&2; fail=$((fail + 1)); }
fi
if [[ $tap == 0 ]]; then
  echo "${#rows[@]} configurations, $total_v vectors checked, $total_m mismatches, $fail failed"
  echo "vectors per stimulus kind:$kinds"
else
  echo "# rtl vectors per stimulus kind:$kinds"
fi
[[ $fail == 0 ]]
