#!/usr/bin/env bash
# The whole hardware check in one command, on a machine with a GPU and CUDA: every harness
# instruction on seeded tiles, its directed vectors (`mmaref gen ARCH NAME --kind directed`, the set that
# closes the coverage model), and any crafted dot-adds, each run on the tensor cores and checked against
# the model; then it packs into PACK what a person needs to study the results elsewhere.
#
#   tools/gpu/session.sh [--dry-run] [--count N] [--seed S] [--jobs J] [--crafted DIR] [--out DIR] [--pack DIR]
#
# --dry-run    build/gpu/dryrun (D from the C model) stands in for build/gpu/mmagpu: a plumbing check
# --count N    seeded vectors per instruction (default 1048576)
# --seed S     the seed of the seeded tiles (default 1)
# --jobs J     instructions run and checked at once (default: the number of CPUs)
# --crafted D  files D/TAG__NAME.txt of dot-adds (C A.. B.., hex) to replay through instruction NAME
# --out DIR    where the run's files go (default build/gpu/session)
# --pack DIR   the results to keep or send (default DIR/pack): versions.txt, summary.md (one row per file checked),
#              every .check report, *.mismatches.gz (every mismatching line, at most 20000 per file,
#              each followed by the model's D), d__NAME.bin.gz (the GPU's D of every seeded vector, raw
#              little-endian, for instructions with mismatches or checked against another table: inputs are
#              regenerated anywhere with `build/gpu/dryrun --only NAME --count N --stdout`)
# Exit status: 0 when every check has 0 mismatches, 1 otherwise, 2 on a run error.
set -u
cd "$(dirname "$0")/../.."

dry=0 count=1048576 seed=1 jobs=$(nproc 2>/dev/null || echo 2) crafted= out=build/gpu/session pack=
while [[ $# -gt 0 ]]; do
  case $1 in
    --dry-run) dry=1; shift ;;
    --count|--seed|--jobs|--crafted|--out|--pack)
      [[ $# -ge 2 ]] || { echo "session.sh: $1 needs a value" >&2; exit 2; }
      case $1 in --count) count=$2 ;; --seed) seed=$2 ;; --jobs) jobs=$2 ;; --crafted) crafted=$2 ;; --out) out=$2 ;; --pack) pack=$2 ;; esac
      shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "session.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $count =~ ^[1-9][0-9]*$ ]] || { echo "session.sh: --count needs a positive number, not '$count'" >&2; exit 2; }
[[ $seed =~ ^[0-9]+$ ]] || { echo "session.sh: --seed needs a non-negative number, not '$seed'" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "session.sh: --jobs needs a positive number, not '$jobs'" >&2; exit 2; }
[[ -z $crafted || -d $crafted ]] || { echo "session.sh: --crafted: no directory '$crafted'" >&2; exit 2; }
pack=${pack:-$out/pack}
MMAREF=${MMAREF:-build/mmaref}
export MMAREF
if [[ $dry -eq 1 ]]; then bin=build/gpu/dryrun; else bin=build/gpu/mmagpu; fi
[[ -x $bin && -x $MMAREF && -x build/gpu/dryrun ]] ||
  make -s "$bin" build/gpu/dryrun "$MMAREF" >&2 || { echo "session.sh: cannot build $bin" >&2; exit 2; }
rm -rf "$out" && mkdir -p "$out/seeded" "$out/replay" "$pack" || exit 2
t0=$(date +%s)
say() { echo "[session $(( $(date +%s) - t0 )) s] $*" >&2; }

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  if [[ $dry -eq 1 ]]; then echo "dry run: D from the mmaref C model"; else
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
    { command -v nvcc >/dev/null && nvcc --version || /usr/local/cuda/bin/nvcc --version; } 2>&1 | tail -n 2
  fi
  echo "host: $(uname -srm); $(nproc) CPUs"
  echo "mmaref: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (+ local changes)')"
} >"$pack/versions.txt"
cat "$pack/versions.txt" >&2

# name <TAB> ptx <TAB> check flags <TAB> model table, one line per instruction
"$bin" --list >"$out/instrs" || { echo "session.sh: $bin --list failed" >&2; exit 2; }

# 1. Seeded tiles: one process per instruction, `jobs` at a time, then run.sh checks them all.
say "seeded run: $(wc -l <"$out/instrs") instructions x $count vectors, seed $seed"
cut -f1 "$out/instrs" | xargs -P "$jobs" -I{} sh -c \
  '"$1" --only "$2" --count "$3" --seed "$5" --out "$4" 2>>"$4/run.log" || echo "$2" >>"$4/failed"' _ "$bin" {} "$count" "$out/seeded" "$seed"
if [[ -s $out/seeded/failed ]]; then
  echo "session.sh: the run failed for: $(tr '\n' ' ' <"$out/seeded/failed")" >&2
  tail -n 5 "$out/seeded/run.log" >&2
  exit 2
fi
say "seeded run done; checking"
bash tools/gpu/run.sh --check-only --out "$out/seeded" --jobs "$jobs" >"$out/seeded/table.md" 2>&1

# 2. Replays: the directed vectors of every instruction, and the crafted files.
: >"$out/replays"
while IFS=$'\t' read -r name _ _ arch; do
  echo "directed $name $arch" >>"$out/replays"
done <"$out/instrs"
if [[ -n $crafted ]]; then
  for f in "$crafted"/*__*.txt; do
    [[ -e $f ]] || continue
    b=$(basename "$f" .txt) tag=${b%%__*} name=${b#*__}
    arch=$(awk -F'\t' -v n="$name" '$1 == n { print $4 }' "$out/instrs")
    [[ -n $arch ]] || { echo "session.sh: $f: '$name' is not a harness instruction" >&2; exit 2; }
    echo "$tag $name $arch $f" >>"$out/replays"
  done
fi
replay_one() {  # tag name arch [file]
  local tag=$1 name=$2 arch=$3 src=${4:-} o=$out/replay/$1__$2
  if [[ -z $src ]]; then "$MMAREF" gen "$arch" "$name" --kind directed >"$o.in" || return
  else grep -v '^#' "$src" >"$o.in"; fi
  "$bin" --replay "$name" <"$o.in" >"$o.txt" 2>"$o.err" || { echo "replay failed: $(head -c 300 "$o.err")" >"$o.check"; return; }
}
export -f replay_one; export out bin
say "replays: $(wc -l <"$out/replays") files"
xargs -P "$jobs" -L 1 bash -c 'replay_one "$@"' _ <"$out/replays"

# 3. Checks of the replays, and one summary of everything.
check_file() {  # file arch name flags -> file's .check, and its mismatching lines with the model's D
  local f=$1 arch=$2 name=$3 flags=$4 c=${1%.txt}.check
  [[ $flags == - ]] && flags=
  [[ -s $c ]] && return  # a failed replay wrote its reason
  # shellcheck disable=SC2086
  "$MMAREF" batch "$arch" "$name" --check $flags --max-report 100000 <"$f" >"$c.all" 2>&1
  { head -n 40 "$c.all"; tail -n 1 "$c.all"; } | awk '!seen[$0]++' >"$c"
  awk 'NR == FNR { if ($1 == "mismatch" && $2 == "line") { sub(":", "", $3); want[$3] = $5 } next }
       FNR in want { print $0 " model " want[FNR] }' "$c.all" "$f" | head -n 20000 | gzip >"${f%.txt}.mismatches.gz"
  rm -f "$c.all"
}
export -f check_file
while read -r tag name arch _; do
  flags=$(awk -F'\t' -v n="$name" '$1 == n { print $3 }' "$out/instrs")
  # a crafted file decides a rule: checked bit for bit (a NaN's payload included, which --nan-any ignores)
  [[ $tag == directed ]] || flags=-
  echo "$out/replay/${tag}__$name.txt $arch $name $flags"
done <"$out/replays" | xargs -P "$jobs" -L 1 bash -c 'check_file "$@"' _
while IFS=$'\t' read -r name _ flags arch; do
  [[ -f $out/seeded/hopper__$name.txt && $arch == hopper ]] || continue  # others come back as d__NAME.bin.gz
  [[ $(tail -n 1 "$out/seeded/$name.check") == *" 0 failed" ]] && continue
  echo "$out/seeded/hopper__$name.txt $arch $name $flags"
done <"$out/instrs" | while read -r f arch name flags; do
  rm -f "${f%.txt}.check"; check_file "$f" "$arch" "$name" "$flags"; mv "${f%.txt}.check" "$out/seeded/$name.check"
done

say "packing"
bad=0
{
  echo "| set | instruction | model | vectors | mismatches |"
  echo "|---|---|---|---|---|"
  while IFS=$'\t' read -r name _ _ arch; do
    for c in "$out/seeded/$name.check" "$out/replay/"*"__$name.check"; do
      [[ -f $c ]] || continue
      set=seeded; [[ $c == */replay/* ]] && set=$(basename "$c" | sed 's/__.*//')
      v=$(tail -n 1 "$c")
      if [[ $v =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
        echo "| $set | \`$name\` | $arch | $((BASH_REMATCH[1] + BASH_REMATCH[2])) | ${BASH_REMATCH[2]} |"
        [[ ${BASH_REMATCH[2]} -eq 0 ]] || bad=1
      else echo "| $set | \`$name\` | $arch | - | check did not run: $v |"; bad=1; fi
    done
  done <"$out/instrs"
} >"$pack/summary.md"
mkdir -p "$pack/checks"
cp "$out/seeded/"*.check "$out/replay/"*.check "$out/seeded/table.md" "$pack/checks/" 2>/dev/null
for m in "$out/seeded/"*.mismatches.gz "$out/replay/"*.mismatches.gz; do
  [[ -f $m && $(gzip -dc "$m" | head -c 1 | wc -c) -gt 0 ]] && cp "$m" "$pack/checks/"
done
# The GPU's D of every seeded vector, for instructions checked against another architecture's table or
# with mismatches: enough to study them offline on all the vectors.
while IFS=$'\t' read -r name _ _ arch; do
  [[ $arch == hopper && $(tail -n 1 "$out/seeded/$name.check") == *" 0 failed" ]] && continue
  f=$out/seeded/hopper__$name.txt
  python3 - "$f" "$pack/d__$name.bin" <<'PY' && gzip -f "$pack/d__$name.bin"
import array, sys
fields = [l.rsplit(None, 1)[1] for l in open(sys.argv[1]) if not l.startswith("#")]
d = array.array({4: "H", 8: "I", 16: "Q"}[len(fields[0])], (int(x, 16) for x in fields))
if sys.byteorder != "little":
    d.byteswap()
open(sys.argv[2], "wb").write(d.tobytes())
PY
done <"$out/instrs"
cat "$pack/summary.md"
say "done"
exit $bad
