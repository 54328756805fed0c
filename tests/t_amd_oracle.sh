# AMD Matrix Core model vs the independent exact reference tests/oracle/ref_amd.py: seeded random
# vectors (raw bits, clustered exponents with cancellation and c around e_max - 25, special values) for
# every distinct AMD dot-add configuration.  AMD_ORACLE_N vectors each (default 2000; the acceptance run
# uses AMD_ORACLE_N=100000), AMD_ORACLE_SEED (default 1), AMD_ORACLE_JOBS (default 2).
. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null; then not_ok "AMD oracle: python3 not found"; exit 0; fi
python3 "$(dirname "$0")/oracle/gen_amd.py" --mmaref "$MMAREF" --n "${AMD_ORACLE_N:-2000}" \
  --seed "${AMD_ORACLE_SEED:-1}" --jobs "${AMD_ORACLE_JOBS:-2}"
