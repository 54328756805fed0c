# The model suites against the library and CLI built with AddressSanitizer + UndefinedBehaviorSanitizer
# (`make asan`: clang, -fsanitize=address,undefined -fno-sanitize-recover=all, into build/asan/), the
# oracles with fewer vectors.  Zero findings: every sanitizer report (ASan, UBSan, LeakSanitizer) goes to
# a log file of its own, and any such file is a "not ok", whatever the suite that ran the program made of
# its exit status.
#   SANITIZE_SUITES   the suites run (names as tests/run.sh takes them); SANITIZE_ALL=1 (make regress)
#   adds the paper, oracle, generator and batch suites to make test's five
#   SANITIZE_ORACLE_COUNT (150), SANITIZE_AMD_ORACLE_N (300)   vectors per oracle configuration (the same
#   code paths as more vectors)
# runtime: 250 s (a clean clone on CI's 2 cores beside other suites, most of it the sanitized build;
# SANITIZE_ALL=1: 540 s)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
# make test: the suites of hostile input (t_cli_errors) and of the CLI's and the model's own paths;
# SANITIZE_ALL=1 (make regress): the paper, oracle, generator and batch suites too
default_suites="t_model_properties t_model_schedule t_cli_errors t_cli_smoke t_cli_mma"
[[ ${SANITIZE_ALL:-0} == 1 ]] && default_suites+=" t_model_paper t_model_oracle t_cli_gen t_model_batch"
SUITES=${SANITIZE_SUITES:-$default_suites}
SAN=(-fsanitize=address,undefined -fno-sanitize-recover=all)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
logs=$tmp/reports
mkdir -p "$logs"
# reports to files (pid-suffixed), leaks checked at exit; a UBSan finding stops the program
export ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=1:halt_on_error=1"
export UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="log_path=$logs/lsan"

# reports WHAT: the first lines of the first report under $logs, or nothing
reports() { local f; f=$(find "$logs" -type f | head -1); [[ -n $f ]] && grep -m3 -E 'ERROR|runtime error|SUMMARY' "$f" | tr '\n' ' '; }

# 1. The build.
if ! make -s -j2 asan >"$tmp/build.log" 2>&1; then
  not_ok "make asan failed: $(grep -m3 -iE 'error|warning' "$tmp/build.log" | tr '\n' ' ')"
  exit 0
fi
# compiler warnings ("file.c:12:3: warning: ..."), not make's own (a -j2 under a parent make's jobserver)
cw='^[^ :]+:[0-9]+:[0-9]+: warning:'
grep -qE "$cw" "$tmp/build.log" && not_ok "make asan warns: $(grep -m2 -E "$cw" "$tmp/build.log" | tr '\n' ' ')"

# 2. The detection itself: a heap overflow, a leak and a signed overflow, built and run the same way,
#    must each leave a report (else a broken option string would let every finding pass unseen).
cat >"$tmp/bad.c" <<'EOF'
#include <limits.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    char *p = malloc(8);
    int ub = !strcmp(argv[1], "ub");
    if (!strcmp(argv[1], "overflow")) p[argc + 7] = 1;                    /* heap-buffer-overflow */
    if (!strcmp(argv[1], "leak")) { p = malloc(16); p[0] = 0; return 0; } /* the first block leaks */
    free(p);
    volatile int big = INT_MAX - 2;
    return ub ? big + argc * 2 > 0 : 0;                                   /* signed overflow */
}
EOF
if clang "${SAN[@]}" -g -o "$tmp/bad" "$tmp/bad.c" 2>"$tmp/cc.log"; then
  for case in "overflow:AddressSanitizer: heap-buffer-overflow" "leak:LeakSanitizer: detected memory leaks" \
              "ub:runtime error: signed integer overflow"; do
    what=${case%%:*} want=${case#*:}
    "$tmp/bad" "$what" 2>/dev/null
    if grep -q "$want" "$logs"/* 2>/dev/null; then ok "sanitizers report a deliberate $what: $want"
    else not_ok "a deliberate $what left no '$want' report (found: $(reports))"; fi
    rm -f "$logs"/*
  done
else
  not_ok "the sanitizer self-check does not build: $(head -2 "$tmp/cc.log")"
fi

# 3. The suites, against the sanitized CLI and library.
for s in $SUITES; do
  start=$(date +%s)
  out=$(MMAREF=$PWD/build/asan/mmaref MMAREF_SANITIZED=1 MMAREF_LIB=build/asan/libmmaref.a MMAREF_API_CC="clang ${SAN[*]}" \
        ORACLE_COUNT=${SANITIZE_ORACLE_COUNT:-150} AMD_ORACLE_N=${SANITIZE_AMD_ORACLE_N:-300} BATCH_RANDOM_N=100 \
        bash tests/run.sh "$s" 2>&1)
  sum=$(tail -1 <<<"$out")
  if [[ $sum =~ ^([0-9]+)\ passed,\ 0\ failed$ && ${BASH_REMATCH[1]} -gt 0 ]]; then
    ok "sanitized $s: ${BASH_REMATCH[1]} checks pass ($(( $(date +%s) - start )) s)"
  else
    not_ok "sanitized $s: $sum; first failure: $(grep -m1 'not ok' <<<"$out" | sed 's/^ *//' | cut -c1-300)"
  fi
done

# 4. Zero findings.
n=$(find "$logs" -type f | wc -l)
if [[ $n -eq 0 ]]; then ok "no ASan, UBSan or LeakSanitizer report from the sanitized runs of: $SUITES"
else
  keep=build/asan/reports
  rm -rf "$keep"; mkdir -p "$keep"; cp "$logs"/* "$keep"/
  not_ok "$n sanitizer reports (kept in $keep), the first: $(reports)"
fi
exit 0
