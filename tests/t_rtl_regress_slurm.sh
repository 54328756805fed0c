# Sharded regressions on a real Slurm (docs/regressions.md): munged, slurmctld and slurmd started here as
# root on 127.0.0.1 (a one-node slurm.conf in a temporary folder: the machine's CPUs and memory,
# proctrack/linuxproc, task/none, no cgroups, every state, spool, log and pid file in that folder), and
# stopped by pid on exit.  A plan of 10 shards (oracle, RTL co-simulation, a planted mutant, a synthesis unit)
# runs under SCHED=local and SCHED=slurm: the two merged reports must be equal byte for byte (vectors,
# mismatches, coverage, failures), the mutant's failure must reach the report with a replay command that
# reproduces it, and a deleted shard result must be re-run alone on resume.  A configuration cut into two
# shards must check the very vectors of one shard.  Bad input gets a one-line error.  Daemons that do not
# start are a failure, never a skip.
# runtime: 160 s (a clean clone on CI's 2 cores, beside other suites)
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d /tmp/mmaref-slurm.XXXXXX)
chmod 755 "$tmp"   # munged wants its socket's folder searchable
pids=()
stop() {
  local p
  # this cluster's jobs first (a failed check may leave some): their slurmstepd would outlive slurmd
  [[ ${#pids[@]} -ge 3 ]] && timeout 10 scancel --full -u "$(id -un)" 2>/dev/null && sleep 0.5
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.3; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap stop EXIT
phases="" phase_name="" phase_t=$SECONDS
phase() { [[ -n $phase_name ]] && phases+=" $phase_name $((SECONDS - phase_t)),"; phase_name=$1 phase_t=$SECONDS; }
phase "the model"

# ---- the model (tests/run.sh runs this suite, as every t_rtl_ suite, once it is built) ----
make -s rtl >"$tmp/rtl.log" 2>&1
if ! bash tb/run_cosim.sh --cfg 999999 >/dev/null 2>&1; then
  not_ok "regress: the co-simulation model builds (make rtl): $(tail -3 "$tmp/rtl.log" 2>/dev/null)"; exit 0
fi

phase "a one-node Slurm"
# ---- a one-node Slurm ----
for cmd in munged slurmctld slurmd sbatch squeue sinfo scancel; do
  command -v "$cmd" >/dev/null || PATH=$PATH:/usr/sbin
  if ! command -v "$cmd" >/dev/null; then
    not_ok "slurm: $cmd not found (Debian slurm-wlm and munge: scripts/setup.sh)"; exit 0
  fi
done
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null; chmod 600 "$tmp/munge.key"
munged -F --force --socket="$tmp/munge.sock" --key-file="$tmp/munge.key" --log-file="$tmp/munged.log" \
  --pid-file="$tmp/munged.pid" --seed-file="$tmp/munged.seed" >"$tmp/munged.out" 2>&1 &
pids+=($!)
free_port() {  # a TCP port nothing listens on (two in a row)
  local p
  while :; do
    p=$((20000 + RANDOM % 30000))
    ! grep -qi ":$(printf '%04X' $p) " /proc/net/tcp /proc/net/tcp6 2>/dev/null &&
      ! grep -qi ":$(printf '%04X' $((p + 1))) " /proc/net/tcp /proc/net/tcp6 2>/dev/null && { echo $p; return; }
  done
}
port=$(free_port)
mem=$(awk '/^MemTotal/ { print int($2 / 1024) - 1024 }' /proc/meminfo)
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=mmareftest
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerParameters=kill_invalid_depend
ReturnToService=2
NodeName=mmaref1 NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=mmaref1 Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
for _ in $(seq 50); do [[ -S $tmp/munge.sock ]] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N mmaref1 >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 150); do
  state=$(sinfo -h -n mmaref1 -o %T 2>/dev/null)
  [[ $state == idle ]] && break
  sleep 0.2
done
if [[ $state == idle ]]; then
  ok "slurm: munged, slurmctld and slurmd up on 127.0.0.1:$port (one node, $(nproc) CPUs, $mem MB)"
else
  not_ok "slurm: the one-node cluster did not come up (node state '$state'): $(tail -2 "$tmp/slurmctld.log" "$tmp/slurmd.log" "$tmp/munged.out" 2>&1 | tr '\n' ' ')"
  exit 0
fi

phase "the plan"
# ---- the plan: 2 oracle configurations and 2 RTL ones, 2 shards each, and a mutant unit (Hopper's F=25
# FDA unit built one fractional bit short) ----
mut=$(awk '$3 == "mutant-F-1" { print $1; exit }' build/rtl/gen/configs.txt)
chk=$(awk '$3 == "check" && $4 == "hopper" && $5 == "mma.m16n8k16.f32.f16.f16.f32" { print $1; exit }' build/rtl/gen/configs.txt)
chk2=$(awk '$3 == "check" && $4 == "blackwell" && $5 ~ /e2m1/ { print $1; exit }' build/rtl/gen/configs.txt)
# the synthesis unit: the smallest (sfma_unit K = 1, about 15 CPU seconds; the Slurm run finds its row
# in build/rtl/synth, as make synth would, and does not synthesize it again)
unit=$(awk '$2 == "SFMA" && $3 == 1 && $10 == 0 { print $1; exit }' build/rtl/gen/units.txt)
plan=$tmp/plan.txt
python3 tools/regress/plan.py --out "$tmp/p-oracle.txt" --kinds oracle --vectors 2000 --shard 1000 \
  --only '^(hopper:mma.m16n8k8.f32.f16.f16.f32|blackwell:tcgen05.mma.m64n8k32.f16.e4m3.e2m1)$' >/dev/null &&
python3 tools/regress/plan.py --out "$tmp/p-rtl.txt" --kinds rtl --vectors 3000 --shard 1500 --cfg "$chk,$chk2" >/dev/null &&
python3 tools/regress/plan.py --out "$tmp/p-mut.txt" --kinds rtl --vectors 1500 --shard 1500 --cfg "$mut" --mutants >/dev/null &&
python3 tools/regress/plan.py --out "$tmp/p-syn.txt" --kinds synth --units "$unit" >/dev/null &&
cat "$tmp/p-oracle.txt" <(grep -hv '^#' "$tmp/p-rtl.txt" "$tmp/p-mut.txt" "$tmp/p-syn.txt") >"$plan"
shards=$(grep -vc '^#' "$plan")
if [[ $shards -eq 10 && -n $mut && -n $chk && -n $chk2 && -n $unit ]]; then
  ok "regress-plan: $shards shards (oracle 4, rtl 4, mutant 1, synthesis unit $unit)"
else not_ok "regress-plan: wanted 10 shards, got $shards (mutant '$mut', check '$chk' '$chk2', unit '$unit')"; exit 0; fi

phase "SCHED=local and SCHED=slurm"
# ---- SCHED=local and SCHED=slurm: the same report ----
t0=$SECONDS
out_l=$(SCHED=local JOBS=2 bash tools/regress/run.sh "$plan" "$tmp/res-l" "$tmp/rep-l" 2>&1); rc_l=$?
t1=$SECONDS
out_s=$(SCHED=slurm SLURM_WAIT=120 bash tools/regress/run.sh "$plan" "$tmp/res-s" "$tmp/rep-s" 2>&1); rc_s=$?
t2=$SECONDS
# the verdicts from the shards' result files; each shard's line looked for anywhere in the output (two
# shards run at once), and the whole output shown when either disagrees
verdicts=$(python3 -c 'import json,sys; print(" ".join(str(r["shard"]) + ":" + r["verdict"] for r in sorted((json.load(open(f)) for f in sys.argv[1:]), key=lambda r: r["shard"])))' "$tmp"/res-l/shard-*.json 2>&1)
lines=$(grep -o '\(not \)\?ok - shard [0-9]*' <<<"$out_l" | awk '{ print $NF, $0 }' | sort -n | cut -d' ' -f2- | tr '\n' ' ')
if [[ $rc_l -eq 1 && $verdicts == "0:pass 1:pass 2:pass 3:pass 4:pass 5:pass 6:pass 7:pass 8:FAIL 9:pass" &&
      $lines == "ok - shard 0 ok - shard 1 ok - shard 2 ok - shard 3 ok - shard 4 ok - shard 5 ok - shard 6 ok - shard 7 not ok - shard 8 ok - shard 9 " ]]; then
  ok "SCHED=local: 10 shards in $((t1 - t0)) s, 9 pass, the mutant's fails, the merge exits 1"
else not_ok "SCHED=local: rc $rc_l, verdicts '$verdicts', lines '$lines'; its output: $(tr '\n' '|' <<<"$out_l")"; fi
if [[ $rc_s -eq 1 && $out_s == *"submitted job array"* && $out_s == *"afterok:"* ]] \
   && grep -q "10/10 shards" <<<"$out_s"; then
  ok "SCHED=slurm: a job array per shard kind (10 shards) and an afterok merge job, $((t2 - t1)) s, merge exit 1 (the mutant)"
else not_ok "SCHED=slurm: rc $rc_s: $(tail -6 <<<"$out_s" | tr '\n' ' ')"; fi
# each kind's array asks for its own shards' time and memory: the synthesis unit's hours and gigabytes
# are not asked of every oracle shard
t_or=$(sed -n 's/.*shards (oracle), .* --time=\([0-9]*\) --mem=\([0-9]*\)M.*/\1 \2/p' <<<"$out_s")
t_sy=$(sed -n 's/.*shards (synth), .* --time=\([0-9]*\) --mem=\([0-9]*\)M.*/\1 \2/p' <<<"$out_s")
if [[ -n $t_or && -n $t_sy ]] && (( ${t_sy% *} > ${t_or% *} && ${t_sy#* } > ${t_or#* } )); then
  ok "one array per kind: oracle shards ask --time=${t_or% *} --mem=${t_or#* }M, the synthesis unit --time=${t_sy% *} --mem=${t_sy#* }M"
else not_ok "the arrays' limits per kind: oracle '$t_or', synth '$t_sy': $(grep 'job array' <<<"$out_s" | tr '\n' ' ')"; fi
if [[ -s $tmp/rep-l/summary.json ]] && cmp -s "$tmp/rep-l/summary.json" "$tmp/rep-s/summary.json"; then
  ok "the SCHED=slurm report equals the SCHED=local one byte for byte ($(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["totals"]; print(t["vectors"], "vectors,", t["mismatches"], "mismatches,", sum(len(c["bins"]) for c in json.load(open(sys.argv[1]))["configurations"]), "coverage bins")' "$tmp/rep-s/summary.json"))"
else not_ok "local and slurm summaries differ: $(diff "$tmp/rep-l/summary.json" "$tmp/rep-s/summary.json" 2>&1 | head -5 | tr '\n' ' ')"; fi
hosts=$(python3 -c 'import json,sys; print(" ".join(sorted({h for t in json.load(open(sys.argv[1]))["timing"] for h in t["hosts"]})))' "$tmp/rep-s/report.json" 2>/dev/null)
syn_row=$(grep -E "^\| $unit:sfma_unit \| [a-z0-9_.]+ \| ok \| " "$tmp/rep-s/report.md")
[[ -n $hosts && -n $syn_row && -f $tmp/rep-s/junit.xml && -f $tmp/rep-s/throughput.png ]] &&
  ok "the merged report: report.md (synthesis: $syn_row), report.json (host $hosts), junit.xml, throughput.png" ||
  not_ok "the merged report lacks a file: $(ls "$tmp/rep-s" | tr '\n' ' ')"

phase "the mutant's failure in the report, and its replay command reproduces it"
# ---- the mutant's failure in the report, and its replay command reproduces it ----
replay=$(sed -n 's/^  - replay: `\(.*\)`$/\1/p' "$tmp/rep-s/report.md" | head -1)
first_bad=$(grep -m1 '^## ' "$tmp/rep-s/report.md")
if [[ $first_bad == "## Failures" && $replay == "bash tb/run_cosim.sh --cfg $mut "* ]] \
   && grep -q 'failures="1"' "$tmp/rep-s/junit.xml" && grep -q "mutant" "$tmp/rep-s/report.md"; then
  ok "the mutant (cfg $mut) heads the report's failures with its replay command: $replay"
else not_ok "the mutant's failure is not at the top of report.md with a replay command ('$first_bad', '$replay')"; fi
rep=$(bash -c "$replay" 2>&1)
if grep -Eq "^$mut .* 1 +1 +[0-9]+ .* caught" <<<"$rep"; then ok "the replay command checks the one vector and reproduces the mismatch"
else not_ok "the replay command did not reproduce the mismatch: $(tail -3 <<<"$rep" | tr '\n' ' ')"; fi

phase "resume"
# ---- resume: a shard whose result was deleted (a killed job leaves none) is run again, alone ----
before=$(cd "$tmp/res-s" && stat -c '%n %Y.%y' shard-*.json | grep -v shard-000005)
rm -f "$tmp/res-s/shard-000005.json" "$tmp/res-s/shard-000005.xml"
sleep 1
out_r=$(SCHED=slurm SLURM_WAIT=120 bash tools/regress/run.sh "$plan" "$tmp/res-s" "$tmp/rep-s" 2>&1)
after=$(cd "$tmp/res-s" && stat -c '%n %Y.%y' shard-*.json | grep -v shard-000005)
if [[ $out_r == *"10 shards, 9 done, 1 to run"* && $out_r == *"job array"*": 1 shards"* && $before == "$after" \
      && -f $tmp/res-s/shard-000005.json ]] && cmp -s "$tmp/rep-l/summary.json" "$tmp/rep-s/summary.json"; then
  ok "resume under Slurm: the deleted shard 5 ran alone, the 9 others untouched, the report the same"
else not_ok "resume: $(grep regress: <<<"$out_r" | tr '\n' ' ')"; fi
# a shard killed while it runs (scancel of its array task) leaves no result, not a partial one, and is
# the one shard the next run has to do
f64=$(awk '$3 == "check" && $4 == "hopper" && $5 == "mma.m16n8k16.f64.f64.f64.f64" { print $1; exit }' build/rtl/gen/configs.txt)
python3 tools/regress/plan.py --out "$tmp/kill.txt" --kinds rtl --vectors 1000000 --shard 1000000 --cfg "$f64" >/dev/null
out_k=$(SCHED=slurm bash tools/regress/run.sh "$tmp/kill.txt" "$tmp/res-k" "$tmp/rep-k" 2>&1)
arr=$(sed -n 's/.*submitted job array \([0-9]*\):.*/\1/p' <<<"$out_k")
merge_job=$(sed -n 's/.*submitted merge job \([0-9]*\) .*/\1/p' <<<"$out_k")
running=""
for _ in $(seq 300); do
  running=$(squeue -h -j "$arr" -t RUNNING -o %i 2>/dev/null)
  [[ -n $running ]] && break
  sleep 0.1
done
sleep 1
scancel "$arr" "$merge_job" 2>/dev/null   # the merge would wait for its dependency: cancel it too
for _ in $(seq 100); do [[ -z $(squeue -h -j "$arr,$merge_job" -o %i 2>/dev/null) ]] && break; sleep 0.2; done
left=$(find "$tmp/res-k" -mindepth 1 -maxdepth 1 ! -name PLAN.sha256 ! -name .sched -printf '%f ')
todo=$(python3 tools/regress/todo.py --plan "$tmp/kill.txt" --results "$tmp/res-k" --list "$tmp/kill.todo")
if [[ -n $running && -z $left && $todo == "1 1 "* && $(cat "$tmp/kill.todo") == 0 ]]; then
  ok "a shard killed while running (scancel $arr) leaves nothing behind, and is what the next run does"
else not_ok "kill and resume: running '$running', left '$left', to do '$todo': $(grep regress <<<"$out_k" | tr '\n' ' ')"; fi
out_r=$(SCHED=local bash tools/regress/run.sh "$plan" "$tmp/res-l" "$tmp/rep-l" 2>&1)
[[ $out_r == *"10 shards, 10 done, 0 to run"* && $(grep -c '^ok - shard' <<<"$out_r") -eq 0 ]] &&
  ok "resume with every result present runs nothing" || not_ok "complete re-run: $(head -3 <<<"$out_r" | tr '\n' ' ')"

phase "two shards check the vectors of one"
# ---- two shards check the vectors of one: [0, 3000) = [0, 1500) + [1500, 3000) ----
python3 tools/regress/plan.py --out "$tmp/one.txt" --kinds oracle,rtl --vectors 3000 --shard 3000 --cfg "$chk" \
  --only '^hopper:mma.m16n8k16.f32.f16.f16.f32$' >/dev/null
python3 tools/regress/plan.py --out "$tmp/two.txt" --kinds oracle,rtl --vectors 3000 --shard 1500 --cfg "$chk" \
  --only '^hopper:mma.m16n8k16.f32.f16.f16.f32$' >/dev/null
bash tools/regress/run.sh "$tmp/one.txt" "$tmp/res-1" "$tmp/rep-1" >/dev/null 2>&1
bash tools/regress/run.sh "$tmp/two.txt" "$tmp/res-2" "$tmp/rep-2" >/dev/null 2>&1
same=$(python3 - "$tmp/rep-1/summary.json" "$tmp/rep-2/summary.json" <<'PY'
import json, sys
a, b = (json.load(open(f))['configurations'] for f in sys.argv[1:])
key = lambda cs: [(c['kind'], c['config'], c['vectors'], c['mismatches'], c['stimulus'], c['bins']) for c in cs]
print('same' if key(a) == key(b) and len(a) == 2 and all(c['vectors'] == 3000 for c in a) else f'{key(a)} != {key(b)}'[:300])
PY
)
g="python3 tests/oracle/gen.py --arch hopper --instr mma.m16n8k16.f32.f16.f16.f32 --seed 5"
if [[ $same == same ]] && cmp -s <($g --count 3000) <($g --count 1500; $g --first 1500 --count 1500); then
  ok "2 shards of 1500 = 1 shard of 3000: oracle vectors byte for byte, RTL vectors, mismatches, stimulus and coverage bins"
else not_ok "2 shards differ from 1: $same"; fi

phase "bad input"
# ---- bad input: one line, non-zero ----
expect_error "SCHED=pbs: unknown scheduler" "unknown SCHED 'pbs' (local or slurm)" \
  env SCHED=pbs bash tools/regress/run.sh "$plan" "$tmp/res-x" "$tmp/rep-x"
mkdir -p "$tmp/bin"; for c in bash dirname; do ln -s "$(command -v $c)" "$tmp/bin/$c"; done
expect_error "SCHED=slurm without sbatch names the package" "Debian package slurm-wlm" \
  env PATH="$tmp/bin" SCHED=slurm bash tools/regress/run.sh "$plan" "$tmp/res-x" "$tmp/rep-x"
expect_error "a results folder that is not writable" "results folder /sys is not writable" \
  bash tools/regress/run.sh "$plan" /sys "$tmp/rep-x"
expect_error "a results folder of another plan" "holds another plan's results" \
  bash tools/regress/run.sh "$tmp/one.txt" "$tmp/res-l" "$tmp/rep-x"
cp "$tmp/one.txt" "$tmp/edit.txt"
python3 tools/regress/shard.py --plan "$tmp/edit.txt" --results "$tmp/res-e" 0 >/dev/null
sed -i 's/ 3000$/ 2999/' "$tmp/edit.txt"
expect_error "a plan edited mid-run (run.sh)" "was edited mid-run" \
  bash tools/regress/run.sh "$tmp/edit.txt" "$tmp/res-e" "$tmp/rep-x"
expect_error "a plan edited mid-run (a shard)" "was edited mid-run" \
  python3 tools/regress/shard.py --plan "$tmp/edit.txt" --results "$tmp/res-e" 1
printf 'rtl %s:volta:no.such.instruction 1 0 10\n' "$chk" >"$tmp/stale.txt"
expect_error "SCHED=slurm: a shard that cannot run (a plan older than configs.txt) stops the run, no merge" \
  "a shard task failed" env SCHED=slurm SLURM_WAIT=60 bash tools/regress/run.sh "$tmp/stale.txt" "$tmp/res-z" "$tmp/rep-z"
expect_error "regress-plan: a bad SHARD_VECTORS" "SHARD_VECTORS wants a vector count" \
  python3 tools/regress/plan.py --out "$tmp/x.txt" --shard lots
# proof shards: the plan holds one per row of make prove-all's table, in its order; a row the table no
# longer has stops its shard with the table's one-line error (a proof itself costs minutes: make regress)
python3 tools/regress/plan.py --out "$tmp/p-prove.txt" --kinds prove >/dev/null
if [[ $(grep -v '^#' "$tmp/p-prove.txt" | awk '{print $2}') == "$(PROVE_LIST=1 bash tests/prove/all.sh | awk '{print $2}')" &&
      $(grep -vc '^#' "$tmp/p-prove.txt") -gt 40 ]]; then
  ok "regress-plan: REGRESS_KINDS=prove, one shard per row of make prove-all ($(grep -vc '^#' "$tmp/p-prove.txt"))"
else not_ok "regress-plan: prove shards differ from tests/prove/all.sh's rows: $(head -3 "$tmp/p-prove.txt")"; fi
printf 'prove no-such-row:VOLTA 0 0 1\n' >"$tmp/stale-prove.txt"
expect_error "a proof shard of a row the table no longer has" "no row named 'no-such-row:VOLTA'" \
  python3 tools/regress/shard.py --plan "$tmp/stale-prove.txt" --results "$tmp/res-p" 0
phase end
echo "# seconds per part:$phases"
exit 0
