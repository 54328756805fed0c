# The sharded regression's merge counts only shard results that are what they claim (docs/regressions.md,
# tools/regress/shard_result.py), on a plan of two short oracle shards:
# - a clean run passes with the vector total of the plan, and its summary.json is the same on every merge;
# - a results folder of another plan (or of the plan's earlier version) is refused in one line, exit 2;
# - each forged or stale result (another plan's, shard 1's copied over shard 0's, mismatches beside verdict
#   pass, a lowered count, fewer vectors than its count, a wrong first vector, a field of the wrong type,
#   corrupt or truncated JSON) makes the merge exit non-zero with one line naming the file and no pass
#   line; the next run of the plan, nothing deleted by hand, runs that one shard again and passes with
#   the clean run's summary.json byte for byte;
# - paths are data: results paths holding {} and spaces complete; paths holding $(...), backticks, ';',
#   quotes, % and (Slurm job scripts under /bin/sh, a stand-in sbatch) a quote after a non-ASCII byte in
#   the C locale run no command; a path with a newline is refused in one line.
# runtime: 30 s (2 cores at load 5, beside other suites; 20 s of CPU)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d /tmp/mmaref-merge.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

plan=$tmp/plan.txt
python3 tools/regress/plan.py --out "$plan" --kinds oracle --vectors 400 --shard 200 \
  --only '^volta:mma.m8n8k4.f32.f16.f16.f32$' --mmaref "$MMAREF" >/dev/null || { not_ok "regress-plan failed"; exit 0; }
shards=$(grep -vc '^#' "$plan")
vectors=$(awk '!/^#/ && NF { n += $5 } END { print n }' "$plan")
pass_line="regress-merge: pass: 1 configurations, $shards/$shards shards, $vectors vectors, 0 mismatches"

# run PLAN RESULTS REPORT: run.sh's output in $out, its exit status in $rc
run() { out=$(JOBS=2 bash tools/regress/run.sh "$@" 2>&1); rc=$?; }
# merge PLAN RESULTS REPORT: the merge's stderr in $err, stdout in $out, exit status in $rc
merge() {
  out=$(python3 tools/regress/merge.py --plan "$1" --results "$2" --out "$3" 2>"$tmp/err"); rc=$?
  err=$(cat "$tmp/err")
}
# set_field FILE NAME JSON: the result's field NAME set to JSON
set_field() {
  python3 - "$@" <<'PY'
import json, sys
path, name, value = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
r = json.load(open(path))
r[name] = value
open(path, 'w').write(json.dumps(r, indent=1, sort_keys=True) + '\n')
PY
}

# ---- a clean run ----
run "$plan" "$tmp/clean" "$tmp/rep-clean"
if [[ $rc -eq 0 && $out == *"$pass_line,"* && $(grep -c '^ok - shard' <<<"$out") -eq $shards ]]; then
  ok "a clean run of $shards oracle shards passes: $vectors vectors, the plan's total"
else not_ok "a clean run: rc $rc: $(tr '\n' '|' <<<"$out")"; fi
cp "$tmp/rep-clean/summary.json" "$tmp/summary-clean.json"
merge "$plan" "$tmp/clean" "$tmp/rep-again"
if [[ $rc -eq 0 && -z $err ]] && cmp -s "$tmp/summary-clean.json" "$tmp/rep-again/summary.json"; then
  ok "a second merge of it: the same summary.json byte for byte, nothing refused"
else not_ok "a second merge: rc $rc, stderr '$err', summary $(cmp "$tmp/summary-clean.json" "$tmp/rep-again/summary.json" 2>&1)"; fi

# ---- a results folder belongs to one plan ----
python3 tools/regress/plan.py --out "$tmp/other.txt" --kinds oracle --vectors 400 --shard 200 --seed 2 \
  --only '^volta:mma.m8n8k4.f32.f16.f16.f32$' --mmaref "$MMAREF" >/dev/null
before=$(cd "$tmp/clean" && md5sum shard-*)
expect_error "a run of another plan into the folder is refused, naming a fresh folder" \
  "holds another plan's results" bash tools/regress/run.sh "$tmp/other.txt" "$tmp/clean" "$tmp/rep-x"
expect_error "a merge of another plan from the folder is refused" "REGRESS_RESULTS=NEW" \
  python3 tools/regress/merge.py --plan "$tmp/other.txt" --results "$tmp/clean" --out "$tmp/rep-x"
cp "$plan" "$tmp/edited.txt"
run "$tmp/edited.txt" "$tmp/res-edited" "$tmp/rep-edited"
cp "$tmp/other.txt" "$tmp/edited.txt"
expect_error "a plan rewritten at the same path after its run is refused" "was edited mid-run or since" \
  bash tools/regress/run.sh "$tmp/edited.txt" "$tmp/res-edited" "$tmp/rep-x"
if [[ $before == "$(cd "$tmp/clean" && md5sum shard-*)" ]]; then ok "the refused runs left the folder's results as they were"
else not_ok "a refused run changed the folder's results"; fi

# refused WHAT SHARD SETUP...: a copy of the clean results, SETUP run on it (with $res set); the merge must
# exit non-zero with one line on stderr naming shard SHARD's file and no pass line; then the plan run
# again must run shard SHARD alone and pass with the clean run's summary.json
refused() {
  local what=$1 shard=$2 file
  shift 2
  res=$tmp/res-$((++case_n))
  cp -a "$tmp/clean" "$res"
  "$@"
  file=$res/$(printf 'shard-%06d.json' "$shard")
  merge "$plan" "$res" "$tmp/rep-$case_n"
  if [[ $rc -ne 0 && $(wc -l <<<"$err") -eq 1 && $err == "regress-merge: refused $file: "* &&
        $out != *"regress-merge: pass"* && $out == *"INCOMPLETE"* ]]; then
    ok "$what: refused, one line: ${err#regress-merge: refused "$res"/}"
  else not_ok "$what: the merge must refuse $file in one line: rc $rc, stderr '$err', stdout '$out'"; fi
  run "$plan" "$res" "$tmp/rep-$case_n"
  if [[ $rc -eq 0 && $out == *"$pass_line,"* && $(grep -c '^ok - shard' <<<"$out") -eq 1 &&
        $out == *"ok - shard $shard:"* ]] && cmp -s "$tmp/summary-clean.json" "$tmp/rep-$case_n/summary.json"; then
    ok "$what: the next run ran shard $shard again, alone, and passes with the clean summary.json"
  else not_ok "$what: resume: rc $rc: $(tr '\n' '|' <<<"$out")"; fi
}
case_n=0
# results of another plan (the same configuration and shards, another seed) in a folder without a stamp
stale() {
  run "$tmp/other.txt" "$tmp/res-other" "$tmp/rep-other"
  cp "$tmp/res-other/shard-000000.json" "$res/"
  rm "$res/PLAN.sha256"
}
# shellcheck disable=SC2016  # the set_field values are JSON
{
refused "a result of another plan, copied in" 0 stale
refused "shard 1's result copied over shard 0's" 0 eval 'cp "$res/shard-000001.json" "$res/shard-000000.json"'
refused "mismatches 7 beside verdict pass" 0 eval 'set_field "$res/shard-000000.json" mismatches 7'
refused "a lowered count (count and vectors 100)" 1 eval \
  'set_field "$res/shard-000001.json" count 100; set_field "$res/shard-000001.json" vectors 100'
refused "a pass with fewer vectors than its count" 1 eval 'set_field "$res/shard-000001.json" vectors 150'
refused "a wrong first vector" 1 eval 'set_field "$res/shard-000001.json" first 0'
refused "a field of the wrong type" 0 eval 'set_field "$res/shard-000000.json" vectors "\"200\""'
refused "corrupt JSON" 0 eval 'printf "{\"vectors\": 200, oops\n" >"$res/shard-000000.json"'
refused "a truncated file" 1 eval 'head -c 300 "$tmp/clean/shard-000001.json" >"$res/shard-000001.json"'
}

# ---- paths are data ----
run "$plan" "$tmp/a {} b/res" "$tmp/a {} b/rep"
if [[ $rc -eq 0 && $out == *"$pass_line,"* && -f "$tmp/a {} b/res/shard-000001.json" && ! -e "$tmp/a 0 b" &&
      ! -e "$tmp/a 1 b" ]]; then ok "a results path holding {} and a space completes, its results where it says"
else not_ok "a results path with {}: rc $rc, $(find "$tmp" -name 'shard-*.json' -path '*a*b*' | head -3 | tr '\n' ' ')"; fi
# each hostile path holds the plan, the results and the report; a command run from it would touch a marker
markers() { find "$tmp" -maxdepth 1 -name 'marker-*' -printf '%f '; }
n=0
for hostile in "\$(touch $tmp/marker-dollar)" "\`touch $tmp/marker-tick\`" "x; touch $tmp/marker-semi; y" \
               "it's \"q\" %j \\ {}"; do
  dir=$tmp/h$((++n))/$hostile
  mkdir -p "$dir" && cp "$plan" "$dir/plan.txt"
  run "$dir/plan.txt" "$dir/res" "$dir/rep"
  if [[ $rc -eq 0 && $out == *"$pass_line,"* && -f $dir/rep/summary.json && -z $(markers) ]]; then
    ok "SCHED=local, a path holding '$hostile' runs no command and completes"
  else not_ok "SCHED=local, path '$hostile': rc $rc, markers '$(markers)': $(tail -2 <<<"$out" | tr '\n' '|')"; fi
done
expect_error "a path holding a newline is refused" "a path holding a newline or control character is refused" \
  bash tools/regress/run.sh "$plan" "$tmp/new
line" "$tmp/rep-x"

# SCHED=slurm's job scripts: a stand-in sbatch runs each job at once, its --wrap under /bin/sh as
# sbatch's generated script does (the arrays' tasks one after another), and prints its job id
mkdir -p "$tmp/bin"
cat >"$tmp/bin/sbatch" <<'EOF'
#!/bin/bash
array="" wrap="" chdir=.
while (( $# )); do
  case $1 in --array=*) array=${1#--array=} ;; --chdir=*) chdir=${1#--chdir=} ;; --wrap) wrap=$2; shift ;; esac
  shift
done
id=$(( $(cat "$SBATCH_IDS" 2>/dev/null || echo 100) + 1 )); echo "$id" >"$SBATCH_IDS"
cd "$chdir" || exit 1
if [[ -n $array ]]; then
  last=${array#0-}; last=${last%%%*}
  for (( i = 0; i <= last; i++ )); do SLURM_JOB_ID=$id SLURM_ARRAY_TASK_ID=$i /bin/sh -c "$wrap" >>"$SBATCH_LOG" 2>&1; done
else SLURM_JOB_ID=$id /bin/sh -c "$wrap" >>"$SBATCH_LOG" 2>&1; fi
echo "$id"
EOF
chmod +x "$tmp/bin/sbatch"
hostile="é';touch $tmp/marker-slurm;#\$(touch $tmp/marker-slurm2) {} %A"
dir=$tmp/s/$hostile
mkdir -p "$dir" && cp "$plan" "$dir/plan.txt"
out=$(LC_ALL=C PATH="$tmp/bin:$PATH" SBATCH_IDS=$tmp/ids SBATCH_LOG=$tmp/sbatch.log SCHED=slurm \
      bash tools/regress/run.sh "$dir/plan.txt" "$dir/res" "$dir/rep" 2>&1); rc=$?
mid=$(sed -n 's/.*submitted merge job \([0-9]*\) .*/\1/p' <<<"$out")
if [[ $rc -eq 0 && -n $mid && $(cat "$dir/res/.sched/merge-$mid.rc" 2>/dev/null) == 0 && -f $dir/rep/summary.json &&
      -z $(markers) ]] && grep -q "$pass_line," "$tmp/sbatch.log"; then
  ok "SCHED=slurm (job scripts under /bin/sh, LC_ALL=C): a path holding a quote after a non-ASCII byte, \$(...), {} and % runs no command and completes"
else not_ok "SCHED=slurm, hostile path: rc $rc, markers '$(markers)': $(tr '\n' '|' <<<"$out") $(tail -3 "$tmp/sbatch.log" | tr '\n' '|')"; fi
exit 0
