#!/usr/bin/env bash
# make prove CASES=FILE (tb/prove/prove.sh, docs/formal.md): a proof split into cases.  FILE holds one case
# a line, an SV expression over the vector's fields (c_raw, a0 .. a{K-1}, b0 .., sa0 .., sb0 .., sel with
# FORMATS=all; `#` to the line's end is a comment).  First the cover: that every vector meets one case
# at least (Yosys's SAT on PROVE_DIR/cover/cover_top.sv, written by tb/prove/gen_prove.py --cover); a
# vector that meets none stops the split, UNKNOWN, with that vector (a cover undecided in TIMEOUT seconds
# leaves the verdict UNKNOWN at best).  Then each case is its own make
# prove (prove.sh with ASSUME= the case, in PROVE_DIR/case-N), JOBS at once (default: the cores).  The
# verdict: REFUTED as soon as a case is (its counterexample is a vector of the instruction; the other
# cases are stopped); PROVEN when the cover and every case are; else UNKNOWN, naming the cases left.
# Prints a line as each case starts and ends, with the count done and the time; writes PROVE_DIR/cases.md
# (a table of the cases), result.json (the verdict, "cases", "cases_proven" and "refuting_case" beside
# prove.sh's fields) and result.xml (JUnit: the cover and one test a case).  Exit status as prove.sh's: 0, 1, 2, 4.
set -u
cd "$(dirname "$0")/../.."
die() { echo "prove: $*" >&2; exit 2; }
MMAREF=${MMAREF:-build/mmaref} DIR=$PROVE_DIR FORMATS=${FORMATS:-instr} TIMEOUT=${TIMEOUT:-600}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "JOBS=$JOBS: how many cases run at once, a positive number"
[[ -f $CASES && -r $CASES ]] || die "CASES=$CASES: no such file (one case a line, an SV expression over the vector's fields)"
[[ -f build/rtl/gen/instrs.txt ]] || make -s build/rtl/gen/configs.txt >/dev/null || die "cannot build build/rtl/gen (make rtl)"
rm -rf "$DIR"/cover "$DIR"/case-* "$DIR"/cases.md
n=$(python3 tb/prove/gen_prove.py --cover "$MMAREF" "$INSTR" "$FORMATS" "$CASES" "$DIR/cover") || exit 2
mapfile -t cases <"$DIR/cover/cases.txt"
t0=$(date +%s)

# the cover: the assertion that some case holds, for every vector (a SAT problem on the vector alone)
echo "prove: $n cases ($CASES) of $INSTR; the cover first: does every vector meet one?"
timeout "$TIMEOUT" yosys -q -l "$DIR/cover/yosys.log" -p "read_verilog -sv -formal $DIR/cover/cover_top.sv;
  prep -top cover_top; flatten; sat -prove-asserts -verify -show-inputs" >/dev/null 2>&1
cover_rc=$?
if grep -q 'SAT proof finished - no model found: SUCCESS' "$DIR/cover/yosys.log"; then
  cover=PROVEN
elif [[ $cover_rc == 124 ]]; then
  cover=UNDECIDED   # past TIMEOUT: the cases still run (a REFUTED one counts), but nothing is PROVEN
elif grep -q 'model found: FAIL' "$DIR/cover/yosys.log"; then
  cover=MISSED
  # sat's table gives a wide signal in binary only: the vector as hex
  missed=$(awk '$1 == "\\vec" {print $NF; exit}' "$DIR/cover/yosys.log")
  [[ $missed =~ ^[01]+$ ]] && missed=$(python3 -c "import sys; print(hex(int(sys.argv[1], 2)))" "$missed")
else
  echo "prove: Yosys could not check the cover ($DIR/cover/yosys.log, exit $cover_rc):" >&2
  grep -m3 -E 'ERROR|error' "$DIR/cover/yosys.log" >&2; exit 2
fi
echo "prove: cover $cover ($(( $(date +%s) - t0 )) s)"

declare -A verdict secs
# the last line, as prove.sh's: the verdict, the exit status, the results
end() { echo "prove: $1 (exit $2); results: $DIR/result.json, $DIR/result.xml (JUnit), $DIR/cases.md"; exit "$2"; }
write_results() {  # VERDICT [REFUTING_CASE]: cases.md, result.json and result.xml from the cases' result.json files
  python3 - "$DIR" "$1" "$cover" "$CASES" "${#cases[@]}" "${2:-0}" <<'EOF'
import json, os, sys
d, verdict, cover, cases_file, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
refuting = int(sys.argv[6])  # the case whose counterexample is reported (others may have been refuted as they stopped)
exprs = open(os.path.join(d, "cover", "cases.txt")).read().splitlines()
res = []
for i in range(1, n + 1):
    p = os.path.join(d, f"case-{i}", "result.json")
    r = json.load(open(p)) if os.path.exists(p) else {"verdict": "NOT RUN"}
    res.append(r)
esc = lambda s: s.replace("|", "\\|")  # noqa: E731
with open(os.path.join(d, "cases.md.tmp"), "w") as f:
    f.write("| case | expression | verdict | solver | seconds | AND gates |\n|---|---|---|---|---|---|\n")
    f.write(f"| cover | every vector meets a case | {cover} | yosys sat |  |  |\n")
    for i, (e, r) in enumerate(zip(exprs, res), 1):
        f.write(f"| {i} | `{esc(e)}` | {r['verdict']} | {r.get('solver', '')} | {r.get('solver_seconds', '')} | "
                f"{r.get('and_gates', '')} |\n")
os.replace(os.path.join(d, "cases.md.tmp"), os.path.join(d, "cases.md"))
done = [r for r in res if "solver_seconds" in r]
refuted = [res[refuting - 1]] if refuting else []
base = dict(refuted[0] if refuted else (done[0] if done else {}))
base.update({"verdict": verdict, "assume": None, "cases": n, "cases_file": cases_file, "cover": cover,
             "refuting_case": refuting or None,
             "cases_proven": sum(r["verdict"] == "PROVEN" for r in res),
             "solver": f"cases ({n})" if not refuted else base.get("solver"),
             "solver_seconds": round(sum(r.get("solver_seconds", 0) for r in res), 1),
             "and_gates": max((r.get("and_gates") or 0 for r in done), default=None)})
with open(os.path.join(d, "result.json.tmp"), "w") as f:
    json.dump(base, f)
    f.write("\n")
os.replace(os.path.join(d, "result.json.tmp"), os.path.join(d, "result.json"))
x = lambda s: str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")  # noqa: E731
bad = (cover != "PROVEN") + sum(r["verdict"] != "PROVEN" for r in res)
with open(os.path.join(d, "result.xml.tmp"), "w") as f:
    f.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="make prove CASES" '
            f'tests="{n + 1}" failures="{bad}">')
    f.write('<testcase classname="cases" name="cover">' +
            ("" if cover == "PROVEN" else f'<failure message="{x(cover)}"/>') + "</testcase>")
    for i, (e, r) in enumerate(zip(exprs, res), 1):
        f.write(f'<testcase classname="cases" name="case {i}: {x(e)}" time="{r.get("solver_seconds", 0)}">' +
                ("" if r["verdict"] == "PROVEN" else f'<failure message="{x(r["verdict"])}"/>') + "</testcase>")
    f.write("</testsuite></testsuites>\n")
os.replace(os.path.join(d, "result.xml.tmp"), os.path.join(d, "result.xml"))
EOF
}
if [[ $cover == MISSED ]]; then
  write_results UNKNOWN
  echo "prove: UNKNOWN: the cases of $CASES miss vectors, e.g. vec = $missed (its fields: $DIR/cover/cover_top.sv); no case was run"
  end UNKNOWN 4
fi

# the cases, JOBS at a time; a REFUTED case stops the rest
declare -A case_of
running=() done_n=0 refuted=""
# each case in a session of its own (setsid), so that stopping it stops its Yosys and ABC too
stop_all() { local p; for p in "${running[@]}"; do kill -- "-$p" 2>/dev/null; done; }
reap() {  # waits for one running case to end, reports it
  local ended="" rc i v s p rest=()
  wait -n -p ended "${running[@]}"; rc=$?
  for p in "${running[@]}"; do [[ $p == "$ended" ]] || rest+=("$p"); done; running=("${rest[@]}")
  i=${case_of[$ended]}
  v=$(sed -n 's/.*"verdict": "\([A-Z]*\)".*/\1/p' "$DIR/case-$i/result.json" 2>/dev/null)
  s=$(sed -n 's/.*"solver_seconds": \([0-9.]*\).*/\1/p' "$DIR/case-$i/result.json" 2>/dev/null)
  if [[ $rc == 2 || -z $v ]]; then
    echo "prove: case $i stopped with an error, exit $rc ($DIR/case-$i.log):" >&2; tail -3 "$DIR/case-$i.log" >&2
    stop_all; exit 2
  fi
  verdict[$i]=$v secs[$i]=$s done_n=$((done_n + 1))
  echo "prove: [$done_n/$n] case $i: $v, $s s (elapsed $(( $(date +%s) - t0 )) s)"
  [[ $v == REFUTED && -z $refuted ]] && refuted=$i
  return 0
}
trap 'stop_all; exit 2' INT TERM
for ((i = 1; i <= n; i++)); do
  while (( ${#running[@]} >= JOBS )) && [[ -z $refuted ]]; do reap; done
  [[ -n $refuted ]] && break
  ASSUME=${cases[$((i - 1))]} CASES='' PROVE_DIR=$DIR/case-$i setsid bash tb/prove/prove.sh >"$DIR/case-$i.log" 2>&1 &
  case_of[$!]=$i; running+=("$!")
  echo "prove: case $i of $n started: ${cases[$((i - 1))]}"
done
while (( ${#running[@]} > 0 )) && [[ -z $refuted ]]; do reap; done
stop_all; wait 2>/dev/null
t_all=$(( $(date +%s) - t0 ))

if [[ -n $refuted ]]; then
  write_results REFUTED "$refuted"
  cp "$DIR/case-$refuted/cex.txt" "$DIR/cex.txt"   # the counterexample: a vector of the instruction
  echo "prove: case $refuted ($DIR/case-$refuted.log):"
  sed -n '/^prove: REFUTED/,/^prove: REFUTED (exit/p' "$DIR/case-$refuted.log" | sed '$d' | sed 's/^/  /'
  echo "prove: REFUTED: case $refuted of $n (${cases[$((refuted - 1))]}); the other cases stopped; $t_all s in all"
  end REFUTED 1
fi
left=()
[[ $cover == PROVEN ]] || left+=("the cover (undecided in $TIMEOUT s)")
for ((i = 1; i <= n; i++)); do [[ ${verdict[$i]:-} == PROVEN ]] || left+=("case $i (${verdict[$i]:-not run})"); done
if (( ${#left[@]} == 0 )); then
  write_results PROVEN
  echo "prove: PROVEN: $DUT_TOP on $INSTR for every input: the cover and each of the $n cases of $CASES proven; $t_all s in all"
  end PROVEN 0
fi
write_results UNKNOWN
echo "prove: UNKNOWN: not proven: $(IFS=,; echo "${left[*]}" | sed 's/,/, /g'); $t_all s in all"
end UNKNOWN 4
