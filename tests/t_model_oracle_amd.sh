# AMD Matrix Core model vs the independent exact reference tests/oracle/ref_amd.py: seeded random
# vectors (raw bits, clustered exponents with cancellation and c around e_max - 25, special values) for
# every distinct AMD dot-add configuration on every architecture.  The arithmetic parameters (passes, F,
# G, flushing, roundings) are the oracle's own, from tests/oracle/table.py, not `mmaref list --json`'s.
# AMD_ORACLE_N vectors each (default 2000; the acceptance run uses AMD_ORACLE_N=100000),
# AMD_ORACLE_SEED (default 1), AMD_ORACLE_JOBS (default 2).
# runtime: 10 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null; then not_ok "AMD oracle: python3 not found"; exit 0; fi
GEN_AMD="python3 $(dirname "$0")/oracle/gen_amd.py"
$GEN_AMD --mmaref "$MMAREF" --n "${AMD_ORACLE_N:-2000}" --seed "${AMD_ORACLE_SEED:-1}" --jobs "${AMD_ORACLE_JOBS:-2}"

# The verdict can fail: no configuration at all is a failure, and so is a configuration of which mmaref
# checked fewer vectors than were asked (a wrapper hands mmaref only the first 10 lines and exits 0).
out=$($GEN_AMD --mmaref "$MMAREF" --n 10 --only no_such_instruction); rc=$?
[[ $rc -eq 1 && $out == "not ok - AMD oracle: no configuration matches 'no_such_instruction'" ]] &&
  ok "AMD oracle: no matching configuration is a failure" ||
  not_ok "AMD oracle with no matching configuration: exit $rc, '$out'"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nif [ "$1" = batch ]; then awk "NR <= 10" | exec "%s" "$@"; fi\nexec "%s" "$@"\n' \
  "$MMAREF" "$MMAREF" >"$tmp/short-mmaref"
chmod +x "$tmp/short-mmaref"
out=$($GEN_AMD --mmaref "$tmp/short-mmaref" --n 200 --only v_mfma_f32_32x32x8_f16); rc=$?
if [[ $rc -eq 1 && $out == *"not ok - cdna3 v_mfma_f32_32x32x8_f16 (FDRDA, K=8): 200 vectors vs ref_amd: mmaref batch exit "*", 10 passed, 0 failed (wanted 200 passed, 0 failed)"* ]]; then
  ok "AMD oracle: a configuration of which mmaref checked 10 of 200 vectors fails"
else not_ok "AMD oracle with a short mmaref: exit $rc, '$(grep -m1 'ok -' <<<"$out")'"; fi
