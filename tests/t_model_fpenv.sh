# Results independent of the host floating-point environment (rounding mode, x86 FTZ/DAZ): tests/api/fpenv.c
# computes every distinct configuration under each environment and compares with the default, checks
# hand-derived results in every environment, and holds SFMA against the host's fma; the batched path
# (whose SFMA kernels use the host's FMA in an environment of their own) the same way; and the entry
# points that meet host doubles (the format conversions over every class of binary64 subnormal, the
# generator, the coverage model) in every environment: each rounding mode alone and with FTZ, DAZ, both.
# MMAREF_LIB=path/to/libmmaref.a runs it against another build of the library.
# runtime: 14 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
LIB=${MMAREF_LIB:-build/libmmaref.a}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if cc -std=c11 -Wall -Wextra -Werror -Icmodel/include -o "$tmp/fpenv" tests/api/fpenv.c "$LIB" -lm 2>"$tmp/cc.log"; then
  out=$("$tmp/fpenv" 2>&1); rc=$?
  echo "$out"
  if [[ $rc -ne 0 && $out != *"not ok"* ]]; then not_ok "fpenv exited with status $rc"; fi
else
  not_ok "tests/api/fpenv.c does not build: $(head -3 "$tmp/cc.log")"
fi
