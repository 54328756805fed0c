# Hostile values for make verify and make prove: every value a flow takes is checked against its grammar
# (tb/flow_values.py) before anything is built, written or removed, and is then data -- never a command, a
# line of generated SystemVerilog or a Yosys command.  Each case below must end in one line of error, a
# non-zero exit, no marker file (the commands the values hold would create it), and no file changed
# outside the flows' output folders (a victim folder beside them, and the DUT_TOP path trick aimed at it).
# Through make too, where a variable of make's command line holding $(shell ...) would run as make
# exports it, and verify-example's COUNT and SEED.
# runtime: 25 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
M=$tmp/MARKER                     # what each hostile value tries to create
V=$tmp/victim                     # files no flow may touch
mkdir -p "$V/x/victim" && echo keep >"$V/x/victim/result.json" && echo keep >"$V/x/victim/cex.txt"
snapshot() { find "$V" -printf '%p %s %T@\n' | sort; }
before=$(snapshot)
U=examples/naive_dot/naive_dot.sv I=hopper:mma.m16n8k16.f32.f16.f16.f32
: >"$tmp/empty.txt"; mkdir -p "$tmp/adir"
printf 'a;exec touch %s;b.sv\n' "$M" >"$tmp/evil.f"
printf '1); initial $system("touch %s"); assert(1\n' "$M" >"$tmp/cases.txt"

# hostile FLOW PATTERN VAR=VALUE...: the flow's script run with these values must refuse them as promised
hostile() {
  local flow=$1 pat=$2 err rc; shift 2
  err=$(env DUT=$U INSTR=$I VERIFY_DIR="$tmp/out" PROVE_DIR="$tmp/out" "$@" bash "tb/$flow/$flow.sh" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne 0 && $(wc -l <<<"$err") -eq 1 && $err == "$flow: "*"$pat"* && ! -e $M ]]; then
    ok "$flow refuses $(printf '%q' "$*" | cut -c1-70): $(cut -c1-90 <<<"$err")"
  else not_ok "$flow $(printf '%q' "$*"): rc=$rc, marker $([[ -e $M ]] && echo made || echo none), stderr '$err' (wanted '$pat')"; fi
  rm -f "$M"
}
# code and commands in values
hostile verify "is not NAME=INTEGER" "PARAMS=K=16)) x(); initial \$system(\"touch $M\"); naive_dot #(.K(16"
hostile prove "is not NAME=INTEGER" "PARAMS=K=16)) x(); initial \$system(\"touch $M\"); fda_unit #(.K(16"
hostile prove "is not NAME=INTEGER" "REF_PARAMS=K=\$(touch $M)"
hostile verify "COUNT=\`touch" "COUNT=\`touch $M\`5"
hostile verify "SEED=\$(touch" "SEED=\$(touch $M)1"
hostile verify "is not a path" "DUT=\$(touch $M).sv"
hostile verify "is not a path" "DUT=a;touch $M;.sv"
hostile prove "lists a file: " "DUT=$tmp/evil.f"
hostile prove "is not a path" "REF_FILES=x.sv;touch $M"
hostile verify "is not +NAME or +NAME=VALUE" "PLUSARGS=+x=\"\$(touch $M)\""
hostile verify "expected ARCH:INSTRUCTION" "INSTR=hopper:x;touch $M"
hostile prove "one SV expression over the vector's fields" "ASSUME=1); initial \$system(\"touch $M\"); assert(1"
hostile prove "module names, comma-separated" "CUT=fda_unit;touch $M"
# the DUT_TOP path trick: refused before build/prove/DUT_TOP is made or emptied
hostile prove "DUT_TOP=naive_dot\\b|/../../../..$V/x/victim: not a module name" "DUT_TOP=naive_dot\\b|/../../../..$V/x/victim" PROVE_DIR=
hostile verify "not a module name" "DUT_TOP=../../$V/x/victim" VERIFY_DIR=
# numbers: ASCII decimal, no leading zero, in range
hostile verify "COUNT=0200: vectors, a decimal number" COUNT=0200
hostile verify "COUNT=08: vectors" COUNT=08
hostile prove "TIMEOUT=09: seconds for the solver" TIMEOUT=09
hostile verify "COUNT=²: vectors" COUNT=²
hostile verify "SEED=٣: the stimulus stream's seed" SEED=٣
hostile verify "from 1 to 10000000000" COUNT=99999999999999999999
hostile verify "SEED=-1" SEED=-1
hostile prove "BOUND=1e3: cycles from reset to the check" BOUND=1e3
hostile prove "JOBS=0: cases run at once" JOBS=0 CASES=$tmp/cases.txt
hostile verify "DUT_AW=٨" DUT_AW=٨
# blanks and control characters
hostile verify "'K=16\\n' is not NAME=INTEGER" "PARAMS=K=16"$'\n'
hostile verify "is not a path" "DUT=$U"$'\t'"x.sv"
hostile verify "PLUSARGS=+a=b\\nc" "PLUSARGS=+a=b"$'\n'"c"
# directories, special files and empty files as inputs
hostile verify "not a regular file '/dev/null'" DUT=/dev/null
hostile verify "not a regular file '$tmp/adir'" DUT="$tmp/adir"
hostile verify "VECTORS=$tmp/empty.txt: holds no vector" VECTORS="$tmp/empty.txt"
hostile verify "VECTORS: not a regular file '/dev/zero'" VECTORS=/dev/zero
hostile prove "CASES: not a regular file '$tmp/adir'" CASES="$tmp/adir"
hostile verify "VERIFY_DIR=$U: exists and is not a directory" VERIFY_DIR=$U
# a case of a split is an assumption too: refused before it reaches the cover's SystemVerilog
hostile prove "cases.txt:1: " CASES="$tmp/cases.txt"

# through make: a $(shell ...) on make's command line is not run as make exports it; verify-example's
# COUNT and SEED are shell words too
err=$(make -s verify "DUT=\$(shell touch $M)" INSTR=$I 2>&1); rc=$?
[[ $rc -ne 0 && $err == "verify: DUT: '\$(shell' is not a path"* && ! -e $M ]] &&
  ok "make verify 'DUT=\$(shell touch ...)': refused, not run" || not_ok "make verify DUT=\$(shell ...): rc=$rc marker $(ls "$M" 2>&1) '$err'"
rm -f "$M"
err=$(make -s prove "DUT=\$(shell touch $M)" INSTR=$I "PARAMS=\$(shell touch $M)" 2>&1); rc=$?
[[ $rc -ne 0 && $err == "prove: DUT: '\$(shell' is not a path"* && ! -e $M ]] &&
  ok "make prove 'DUT=\$(shell touch ...)': refused, not run" || not_ok "make prove DUT=\$(shell ...): rc=$rc marker $(ls "$M" 2>&1) '$err'"
rm -f "$M"
for v in "COUNT=\`touch $M\`5" "SEED=\$\$(touch $M)1"; do
  err=$(make -s verify-example VERIFY_DIR="$tmp/out" "$v" 2>&1); rc=$?
  [[ $rc -ne 0 && $err == "verify: "*": "*"a decimal number"* && ! -e $M ]] &&
    ok "make verify-example '${v:0:16}...': refused, not run" || not_ok "make verify-example '$v': rc=$rc marker $(ls "$M" 2>&1) '$err'"
  rm -f "$M"
done

# the regressions' folders and kinds: shell words, not exported, read with $(value) where make needs them
for v in "REGRESS_KINDS=\$(shell touch $M)" "REGRESS_RESULTS=\$(shell touch $M)"; do
  err=$(make -s regress-plan REGRESS_PLAN="$tmp/plan.txt" "$v" 2>&1); rc=$?
  [[ ! -e $M ]] && ok "make regress-plan '${v:0:22}...': not run (rc=$rc)" || not_ok "make regress-plan '$v': the marker was made"
  rm -f "$M"
done

[[ $(snapshot) == "$before" ]] && ok "flows: no file outside their output folders changed (the victim folder as it was)" ||
  not_ok "flows: the victim folder changed: $(diff <(echo "$before") <(snapshot) | head -4 | tr '\n' ' ')"
