#!/usr/bin/env bash
# Runs a regression plan's shards that have no result yet, then merges the results (make regress-run).
#   tools/regress/run.sh PLAN RESULTS REPORT
# SCHED=local (default): JOBS shards at a time on this machine (xargs -P), then the merge.
# SCHED=slurm: one job array per shard kind (sbatch --array=0-N%SLURM_MAX, one task a shard: one CPU,
#   the time and memory tools/regress/todo.py gives that kind from its measured cost) and the merge as a
#   job that depends on them (--dependency=afterok); squeue/sacct show the progress.  RESULTS and REPORT must be on
#   a filesystem every node sees, and so must this tree (the tasks run from it).  SLURM_WAIT=N waits up to
#   N seconds for the merge job and exits with its status.  SBATCH_ARGS: more sbatch options (partition,
#   account).  SHARD_TIME (minutes) and SHARD_MEM (MB) override the estimates.  Plans of more than
#   SLURM_ARRAY_MAX (1000, Slurm's default MaxArraySize is 1001) shards go in several arrays.
# Either way a re-run does only the shards without a result that counts (resume after a kill, a
# preemption, a lost node, or a result refused: tools/regress/shard_result.py); a shard that failed has a
# result (its failure) and is not re-run.
# The paths are data: they reach the tools as arguments of their own, never substituted into a command
# line (xargs appends the shard index; the Slurm job scripts quote every path), and a path holding a
# newline or another control character is refused.
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
plan=${1:?usage: tools/regress/run.sh PLAN RESULTS REPORT}
results=${2:?usage: tools/regress/run.sh PLAN RESULTS REPORT}
report=${3:?usage: tools/regress/run.sh PLAN RESULTS REPORT}
sched=${SCHED:-local} jobs=${JOBS:-2}
die() { echo "regress: $*" >&2; exit 2; }
for path in "$plan" "$results" "$report"; do
  [[ $path != *[[:cntrl:]]* ]] || die "a path holding a newline or control character is refused: $(printf %q "$path")"
done

case $sched in
  local) [[ $jobs =~ ^[1-9][0-9]*$ ]] || die "JOBS must be a positive number, not '$jobs'" ;;
  slurm) command -v sbatch >/dev/null 2>&1 \
           || die "SCHED=slurm needs sbatch, which is not on PATH (Debian package slurm-wlm: scripts/setup.sh, or apt-get install slurm-wlm)" ;;
  *) die "unknown SCHED '$sched' (local or slurm)" ;;
esac
[[ -f $plan ]] || die "no plan $plan (make regress-plan writes it)"

mkdir -p -- "$results" 2>/dev/null
sched_dir=$results/.sched
list=$(mktemp) || exit 2
trap 'rm -f "$list"' EXIT
read -r todo total minutes megabytes < <(python3 tools/regress/todo.py --plan="$plan" --results="$results" --list="$list") \
  || exit 2
[[ -n ${todo:-} ]] || exit 2
echo "regress: $plan: $total shards, $((total - todo)) done, $todo to run (SCHED=$sched)"

if [[ $sched == local ]]; then
  # each shard prints its one line: ok, not ok (with its replay command) or skip; xargs appends the index
  # (-n 1) and runs nothing for an empty list (-r)
  xargs -r -n 1 -P "$jobs" python3 tools/regress/shard.py --plan="$plan" --results="$results" <"$list"
  rc=$?
  (( rc == 0 )) || echo "regress: some shards could not run (see above); run again to resume" >&2
  python3 tools/regress/merge.py --plan="$plan" --results="$results" --out="$report"
  mrc=$?
  (( rc == 0 )) || exit 2
  exit $mrc
fi

# ---- Slurm ----
mkdir -p "$sched_dir" || die "cannot write $sched_dir"
max=${SLURM_MAX:-64} chunk=${SLURM_ARRAY_MAX:-1000}
[[ $max =~ ^[1-9][0-9]*$ ]] || die "SLURM_MAX must be a positive number, not '$max'"
# a word of the job scripts: sbatch --wrap runs them under /bin/sh (dash on Debian), which has no $'...'
# (printf %q writes one for bytes outside the locale), so single quotes, each ' in the word as '\''
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
abs() { if [[ $1 == /* ]]; then printf '%s' "$1"; else printf '%s' "$root/$1"; fi; }
# a file name of sbatch --output, where % starts a pattern (%j, %A)
out_name() { printf '%s' "${1//%/%%}"; }
plan_a=$(abs "$plan") results_a=$(abs "$results") report_a=$(abs "$report")
deps=()
stamp=$(date +%Y%m%d-%H%M%S)-$$
for kind in $(awk '!/^#/ && NF {print $1}' <"$plan" | sort -u); do   # the kinds the plan has
  (( todo > 0 )) || break
  read -r n_kind _ minutes megabytes < <(python3 tools/regress/todo.py --plan="$plan" --results="$results" \
                                         --list="$list" --kind="$kind") || exit 2
  (( n_kind > 0 )) || continue
  minutes=${SHARD_TIME:-$minutes} megabytes=${SHARD_MEM:-$megabytes}
  split -l "$chunk" -d -a 4 "$list" "$sched_dir/todo-$stamp-$kind-"
  for part in "$sched_dir/todo-$stamp-$kind-"*; do
    n=$(wc -l <"$part")
    # task i runs the shard on line i + 1 of its list (the shards still to run)
    jid=$(sbatch --parsable --job-name="mmaref-regress-$kind" --array="0-$((n - 1))%$max" --ntasks=1 --cpus-per-task=1 \
            --time="$minutes" --mem="${megabytes}M" --chdir="$root" --output="$(out_name "$sched_dir")/shard-%A_%a.out" \
            ${SBATCH_ARGS:-} \
            --wrap "exec python3 tools/regress/shard.py --plan=$(q "$plan_a") --results=$(q "$results_a") \
\$(sed -n \"\$((SLURM_ARRAY_TASK_ID + 1))p\" $(q "$part"))") \
      || die "sbatch refused the shard array (see above)"
    jid=${jid%%;*}
    deps+=("$jid")
    echo "regress: submitted job array $jid: $n shards ($kind), at most $max at a time, --time=$minutes --mem=${megabytes}M"
  done
done
dep=()
(( ${#deps[@]} )) && dep=(--dependency="afterok$(printf ':%s' "${deps[@]}")")
mid=$(sbatch --parsable --job-name=mmaref-regress-merge "${dep[@]}" --ntasks=1 --cpus-per-task=1 --time=30 \
        --mem=2000M --chdir="$root" --output="$(out_name "$sched_dir")/merge-%j.out" ${SBATCH_ARGS:-} \
        --wrap "python3 tools/regress/merge.py --plan=$(q "$plan_a") --results=$(q "$results_a") --out=$(q "$report_a"); \
rc=\$?; echo \$rc >$(q "$sched_dir")/merge-\$SLURM_JOB_ID.rc; exit \$rc") \
  || die "sbatch refused the merge job (see above)"
mid=${mid%%;*}
echo "regress: submitted merge job $mid (${dep[*]:-no dependency}); progress: squeue -j ${deps[*]/%/,}$mid; sacct -j $mid"
[[ -n ${SLURM_WAIT:-} ]] || exit 0
[[ $SLURM_WAIT =~ ^[0-9]+$ ]] || die "SLURM_WAIT wants seconds, not '$SLURM_WAIT'"
end=$((SECONDS + SLURM_WAIT))
while [[ -n $(squeue -h -j "$mid" -o %i 2>/dev/null) ]]; do
  (( SECONDS < end )) || die "the merge job $mid has not finished after $SLURM_WAIT s (squeue -j $mid)"
  # a shard task that failed: the merge can never start (where the cluster does not cancel it itself)
  if [[ $(squeue -h -j "$mid" -o %r 2>/dev/null) == DependencyNeverSatisfied ]]; then
    scancel "$mid" 2>/dev/null
    die "a shard task failed, so the merge job $mid cannot run: cancelled it (cat $sched_dir/shard-*.out)"
  fi
  sleep 1
done
out=$sched_dir/merge-$mid.out
[[ -f $sched_dir/merge-$mid.rc ]] \
  || die "the merge job $mid did not run: a shard task failed (cat $sched_dir/shard-*.out) and Slurm cancelled it"
cat "$out"
exit "$(cat "$sched_dir/merge-$mid.rc")"
