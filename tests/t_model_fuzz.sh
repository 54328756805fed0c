# The libFuzzer harnesses (tests/fuzz/fuzz_*.c, built by `make fuzz-build` with clang's
# -fsanitize=fuzzer,address,undefined): every input of each corpus and of tests/fuzz/crashes/ (known
# findings, until fixed), then a short fuzzing run of each.  `make fuzz` runs them for minutes.
#   FUZZ_SMOKE_SECONDS (default 4) per harness
# runtime: 95 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
SECONDS_EACH=${FUZZ_SMOKE_SECONDS:-4}
work=build/fuzz/test  # logs, reproducers and the smoke runs' corpus copies, kept for a look afterwards
rm -rf "$work"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# 1. clang with libFuzzer (scripts/setup.sh installs clang and libclang-rt-dev), and the build.
if ! command -v clang >/dev/null || [[ ! -f $(clang -print-file-name=libclang_rt.fuzzer-x86_64.a) ]]; then
  not_ok "clang with libFuzzer not found (scripts/setup.sh installs clang and libclang-rt-dev)"
  exit 0
fi
if ! make -s -j2 fuzz-build >"$tmp/build.log" 2>&1; then
  not_ok "make fuzz-build failed: $(grep -m3 -iE 'error' "$tmp/build.log" | tr '\n' ' ')"
  exit 0
fi
# compiler warnings ("file.c:12:3: warning: ..."), not make's own (a -j2 under a parent make's jobserver)
cw='^[^ :]+:[0-9]+:[0-9]+: warning:'
grep -qE "$cw" "$tmp/build.log" && not_ok "make fuzz-build warns: $(grep -m2 -E "$cw" "$tmp/build.log" | tr '\n' ' ')"
harnesses=$(cd tests/fuzz && ls fuzz_*.c | sed 's/\.c$//')

# 2. The runner reports a finding: a harness that aborts on the input "crash", seeded with it.
printf '#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)\n{ if (n >= 5 && !memcmp(d, "crash", 5)) abort(); return 0; }\n' \
  >"$tmp/fuzz_selftest.c"
if clang -fsanitize=fuzzer -o "$tmp/fuzz_selftest" "$tmp/fuzz_selftest.c" 2>"$tmp/cc.log"; then
  mkdir -p "$tmp/self/corpus/fuzz_selftest"
  printf crash >"$tmp/self/corpus/fuzz_selftest/seed"
  out=$(bash tests/fuzz/run.sh --build "$tmp" --work "$tmp/self" --seconds 2 fuzz_selftest); rc=$?
  if [[ $rc -ne 0 && $out == "not ok - fuzz_selftest: finding"*"reproducer $tmp/self/artifacts/fuzz_selftest/crash-"* ]]; then
    ok "tests/fuzz/run.sh reports a crashing input with its reproducer"
  else not_ok "tests/fuzz/run.sh missed a crash: rc=$rc '$out'"; fi
  # --runs N: exactly N executions (make regress runs 10,000,000), and fewer (a --seconds limit ran out)
  # fails; a harness that never fails
  printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$tmp/fuzz_quiet.c"
  clang -fsanitize=fuzzer -o "$tmp/fuzz_quiet" "$tmp/fuzz_quiet.c"
  out=$(bash tests/fuzz/run.sh --build "$tmp" --work "$tmp/self" --runs 20000 fuzz_quiet); rc=$?
  if [[ $rc -eq 0 && $out == "ok - fuzz_quiet: 20000 executions in "* ]]; then
    ok "tests/fuzz/run.sh --runs 20000 runs 20,000 executions"
  else not_ok "tests/fuzz/run.sh --runs 20000: rc=$rc '$out'"; fi
  out=$(bash tests/fuzz/run.sh --build "$tmp" --work "$tmp/self" --runs 999999999999 --seconds 1 fuzz_quiet); rc=$?
  if [[ $rc -ne 0 && $out == "not ok - fuzz_quiet: "*" of the 999999999999 executions asked for"* ]]; then
    ok "tests/fuzz/run.sh fails a harness that ran out of time before its --runs"
  else not_ok "tests/fuzz/run.sh --runs with too little time: rc=$rc '$out'"; fi
else
  not_ok "the runner self-check does not build: $(head -2 "$tmp/cc.log")"
fi

# 3. Every corpus input, and every kept finding, runs cleanly.
for h in $harnesses; do
  bash tests/fuzz/run.sh --work "$work/corpus-replay" --replay tests/fuzz/corpus "$h"
  [[ -d tests/fuzz/crashes/$h ]] && bash tests/fuzz/run.sh --work "$work/known-findings" --replay tests/fuzz/crashes "$h"
done

# 4. A short fuzzing run of each, from a copy of its corpus.
for h in $harnesses; do
  bash tests/fuzz/run.sh --work "$work/smoke" --seconds "$SECONDS_EACH" "$h"
done
exit 0
