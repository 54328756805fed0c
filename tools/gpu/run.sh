#!/usr/bin/env bash
# Runs the Hopper cross-check and prints the verdict per instruction.
#
#   tools/gpu/run.sh [--dry-run | --check-only] [--count N] [--seed S] [--out DIR] [--only NAME,..] [--jobs J]
#
# Without --dry-run: build/gpu/mmagpu runs every instruction on the GPU (needs a Hopper GPU), writing
# DIR/hopper__NAME.txt; with --dry-run: build/gpu/dryrun writes the same inputs with D from the C model;
# with --check-only: nothing runs, the files already in DIR (e.g. brought back from a GPU machine) are checked.
# Then each file goes through `build/mmaref batch ARCH NAME --check` (--nan-any for DMMA, whose NaN
# payload is unmodelled), ARCH being the model table that holds the instruction (--list's fourth column:
# hopper, or ada for the mma.sync FP8 instructions the hopper table lacks).  Prints a Markdown table (instruction, vectors, mismatches) and writes it, with
# the date, GPU, driver and CUDA versions, to DIR/hardware-validation-rows.md for
# docs/hardware-validation.md; the first mismatches of each instruction are in DIR/NAME.check.
# Exit status: 0 when every instruction has 0 mismatches, 1 otherwise, 2 on a usage or run error.
set -u
cd "$(dirname "$0")/../.."

dry=0 check_only=0 count=1048576 seed=1 out= only= jobs=$(nproc 2>/dev/null || echo 2)
while [[ $# -gt 0 ]]; do
  case $1 in
    --dry-run) dry=1; shift ;;
    --check-only) check_only=1; shift ;;
    --count|--seed|--out|--only|--jobs)
      [[ $# -ge 2 ]] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
      case $1 in --count) count=$2 ;; --seed) seed=$2 ;; --out) out=$2 ;; --only) only=$2 ;; --jobs) jobs=$2 ;; esac
      shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

MMAREF=${MMAREF:-build/mmaref}
if [[ $dry -eq 1 || $check_only -eq 1 ]]; then
  # --check-only lists the instructions with the dry-run binary, which needs no nvcc.
  [[ $check_only -eq 1 ]] && out=${out:-build/gpu/out}
  bin=build/gpu/dryrun; out=${out:-build/gpu/dry}
  [[ -x $bin && -x $MMAREF ]] || make -s "$bin" "$MMAREF" >&2 || exit 2
else
  bin=build/gpu/mmagpu; out=${out:-build/gpu/out}
  [[ -x $bin && -x $MMAREF ]] || make -s gpu-build "$MMAREF" >&2 || exit 2
fi
mkdir -p "$out" || exit 2

args=(--out "$out" --count "$count" --seed "$seed")
[[ -n $only ]] && args+=(--only "$only")
if [[ $check_only -eq 0 ]]; then
  "$bin" "${args[@]}" || { echo "run.sh: $bin failed" >&2; exit 2; }
fi

# The instructions run, with the extra check flags each needs.
mapfile -t instrs < <("$bin" --list)

# One check per instruction, `jobs` at a time; each leaves DIR/NAME.check whose last line is the verdict.
check_one() {
  local name=$1 flags=$2 arch=$3
  [[ $flags == - ]] && flags=
  if [[ ! -f $out/hopper__$name.txt ]]; then echo "missing $out/hopper__$name.txt" >"$out/$name.check"; return; fi
  # shellcheck disable=SC2086
  "$MMAREF" batch "$arch" "$name" --check $flags --max-report 20 <"$out/hopper__$name.txt" >"$out/$name.check" 2>&1
}
running=0
for line in "${instrs[@]}"; do
  IFS=$'\t' read -r name ptx flags arch <<<"$line"
  if [[ -n $only && ",$only," != *",$name,"* ]]; then continue; fi
  check_one "$name" "$flags" "$arch" &
  running=$((running + 1))
  if [[ $running -ge $jobs ]]; then wait -n; running=$((running - 1)); fi
done
wait

rows=() bad=0
for line in "${instrs[@]}"; do
  IFS=$'\t' read -r name ptx flags arch <<<"$line"
  if [[ -n $only && ",$only," != *",$name,"* ]]; then continue; fi
  verdict=$(tail -n 1 "$out/$name.check" 2>/dev/null)
  if [[ $verdict =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
    rows+=("| \`$name\` | \`$ptx\` | $arch | $((p + f)) | $f |")
    [[ $f -eq 0 ]] || bad=1
  else
    rows+=("| \`$name\` | \`$ptx\` | $arch | - | check did not run: ${verdict:-no output} |")
    bad=1
  fi
done

if [[ $dry -eq 1 ]]; then
  gpu="none (dry run: D from the mmaref C model, checked against the same model: a plumbing check, not a validation)"
  driver=- cuda=-
elif [[ $check_only -eq 1 ]]; then
  # The producer recorded the device in each file's header line ("D from ...").
  first=$(ls "$out"/hopper__*.txt 2>/dev/null | head -n 1)
  gpu=$(head -n 1 "$first" 2>/dev/null | sed -n 's/.* D from \(.*\); seed .*/\1/p') driver="see GPU" cuda="see GPU"
else
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
  cuda=$({ command -v nvcc >/dev/null && nvcc --version || /usr/local/cuda/bin/nvcc --version; } 2>/dev/null |
         sed -n 's/.*release \([0-9.]*\).*/\1/p')
fi
{
  if [[ $check_only -eq 1 ]]; then
    echo "Check of $(date -u '+%Y-%m-%d %H:%M UTC'); D from: ${gpu:-unknown};"
  else
    echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC'); GPU: ${gpu:-unknown}; driver: ${driver:-unknown};"
  fi
  if [[ $check_only -eq 1 ]]; then
    echo "Files checked: $out (their first line names the seed and count)."
  else
    echo "CUDA toolkit: ${cuda:-unknown}; seed $seed; --count $count; generator: mmaref_gen_tile, tile t of kind t%3 (raw, cluster, special)."
  fi
  echo
  echo "| instruction | PTX | model | vectors | mismatches |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$out/hardware-validation-rows.md"
cat "$out/hardware-validation-rows.md"
if [[ $bad -ne 0 ]]; then
  echo
  echo "Mismatches (first lines of each DIR/NAME.check):"
  for line in "${instrs[@]}"; do
    IFS=$'\t' read -r name _ _ <<<"$line"
    [[ -f $out/$name.check ]] && ! tail -n 1 "$out/$name.check" | grep -q ' 0 failed' &&
      { echo "== $name"; head -n 3 "$out/$name.check"; }
  done
fi
exit $bad
