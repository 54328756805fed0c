#!/usr/bin/env bash
# Builds a Verilated model with its C++ compiled in groups, saying what it is doing.
#
# Verilator writes a large model as files of about 1 MB that each include the model's class header
# (5 MB for tb_mma, which alone takes g++ about 2 s to read): compiled one by one, most of the build's
# CPU time goes to reading that header again.  Here the files are compiled in groups of about
# VLT_GROUP_MB (default 8), one translation unit each -- written by Verilator's own includer, as its
# single-file (__ALL.cpp) mode does -- through Verilator's own makefile, rules and flags (its class lists
# given on make's command line), which about halves the build's CPU time.
#
#   tb/verilate.sh --mdir DIR --log LOG [--jobs N] [--what TEXT] [--make 'VAR=VALUE ...'] -- VERILATOR_ARGS...
#
# VERILATOR_ARGS: as for `verilator --cc --exe` (without --build, -Mdir or -j); --make: variables for the
# compile (OPT_FAST=-O1 ...).  Verilator's and the compiler's messages go to LOG; stdout gets one line per
# step and, every 30 s while g++ runs, how many groups are compiled.  Exit status: Verilator's or make's.
set -u
mdir= log= jobs=2 what=model makevars=
while [[ $# -gt 0 ]]; do
  case $1 in
    --mdir|--log|--jobs|--what|--make)
      [[ $# -ge 2 ]] || { echo "verilate.sh: $1 needs a value" >&2; exit 2; }
      case $1 in --mdir) mdir=$2 ;; --log) log=$2 ;; --jobs) jobs=$2 ;; --what) what=$2 ;; --make) makevars=$2 ;; esac
      shift 2 ;;
    --) shift; break ;;
    *) echo "verilate.sh: unknown option '$1' (usage in the script's header)" >&2; exit 2 ;;
  esac
done
[[ -n $mdir && -n $log ]] || { echo "verilate.sh: --mdir and --log are needed" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "verilate.sh: --jobs needs a positive number, not '$jobs'" >&2; exit 2; }
group_mb=${VLT_GROUP_MB:-8}
[[ $group_mb =~ ^[1-9][0-9]*$ ]] || { echo "verilate.sh: VLT_GROUP_MB must be a positive number of MB, not '$group_mb'" >&2; exit 2; }
t0=$(date +%s)
say() { echo "  $what: $* ($(( $(date +%s) - t0 )) s)"; }

mkdir -p "$mdir" "$(dirname "$log")"
: >"$log"
verilator --cc --exe -Mdir "$mdir" "$@" >>"$log" 2>&1 || { say "Verilator failed (log: $log)"; tail -30 "$log"; exit 1; }
classes=$(ls "$mdir"/*_classes.mk 2>/dev/null)
[[ $(wc -w <<<"$classes") -eq 1 ]] || { say "no single *_classes.mk in $mdir"; exit 1; }
prefix=$(basename "$classes" _classes.mk)
say "verilated into $mdir"

# the names of one of Verilator's lists (VM_CLASSES_FAST ...), in its order
list() { awk -v v="$1" '$1 == v && ($2 == "+=" || $2 == "=") { on = 1; next } on && NF == 0 { on = 0 }
                        on { sub(/\\$/, ""); for (i = 1; i <= NF; i++) print $i }' "$classes"; }
includer=$(verilator --getenv VERILATOR_ROOT)/bin/verilator_includer
# group KIND NAMES...: writes $mdir/${prefix}__grpKIND<i>.cpp, each including files up to $group_mb MB,
# and prints the groups' names
group() {
  local kind=$1 i=0 size=0 limit=$((group_mb << 20)) members=() n s
  shift
  flush() {
    [[ ${#members[@]} -gt 0 ]] || return 0
    (cd "$mdir" && python3 "$includer" -DVL_INCLUDE_OPT=include "${members[@]/%/.cpp}" >"${prefix}__grp$kind$i.cpp.tmp") &&
      if cmp -s "$mdir/${prefix}__grp$kind$i.cpp.tmp" "$mdir/${prefix}__grp$kind$i.cpp"; then
        rm -f "$mdir/${prefix}__grp$kind$i.cpp.tmp"
      else mv "$mdir/${prefix}__grp$kind$i.cpp.tmp" "$mdir/${prefix}__grp$kind$i.cpp"; fi
    echo "${prefix}__grp$kind$i"
    i=$((i + 1)) size=0 members=()
  }
  for n in "$@"; do
    s=$(stat -c %s "$mdir/$n.cpp")
    (( size > 0 && size + s > limit )) && flush
    members+=("$n") size=$((size + s))
  done
  flush
}
fast=$(group F $(list VM_CLASSES_FAST) $(list VM_SUPPORT_FAST)) || exit 1
slow=$(group S $(list VM_CLASSES_SLOW) $(list VM_SUPPORT_SLOW)) || exit 1
n=$(wc -w <<<"$fast $slow")
say "compiling $(cat "$mdir"/*.cpp | wc -c | awk '{printf "%.0f", $1 / 1048576}') MB of C++ as $n groups, $jobs at a time"

touch "$mdir/.compile-start"
# shellcheck disable=SC2086  # makevars: VAR=VALUE words
make -C "$mdir" -f "$prefix.mk" -j "$jobs" VM_CLASSES_FAST="$fast" VM_CLASSES_SLOW="$slow" \
  VM_SUPPORT_FAST= VM_SUPPORT_SLOW= $makevars >>"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null' EXIT
while kill -0 "$pid" 2>/dev/null; do
  for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do sleep 2; kill -0 "$pid" 2>/dev/null || break 2; done
  done_n=0
  for g in $fast $slow; do [[ $mdir/$g.o -nt $mdir/.compile-start ]] && done_n=$((done_n + 1)); done
  say "$done_n of $n groups compiled"  # (a group whose sources did not change is not compiled again)
done
wait "$pid"; rc=$?
trap - EXIT
if [[ $rc -ne 0 ]]; then say "the compile failed (log: $log)"; grep -m 20 -E 'error|Error' "$log"; exit "$rc"; fi
say "built"
