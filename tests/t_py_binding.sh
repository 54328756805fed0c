# The Python binding (python/mmaref, docs/python.md): tests/py/test_binding.py under pytest, with the
# interpreter tests/lib.sh picks (Debian's, which has NumPy and pytest), against build/libmmaref.so.
# Each pytest test is one "ok"/"not ok" line.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
if ! "$PYTHON" -c 'import numpy, pytest' 2>/dev/null; then
  not_ok "python binding: $PYTHON lacks numpy or pytest (run scripts/setup.sh)"; exit 0
fi
if [[ ! -e build/libmmaref.so ]]; then not_ok "python binding: build/libmmaref.so missing (run make)"; exit 0; fi
out=$(PYTHONPATH=python MMAREF=$MMAREF "$PYTHON" -m pytest -v -p no:cacheprovider tests/py/test_binding.py 2>&1); rc=$?
# "tests/py/test_binding.py::test_name[params] PASSED   [ 10%]" -> ok - python: test_name[params]
awk '/::.* (PASSED|FAILED|ERROR)/ { split($1, p, "::"); print ($2 == "PASSED" ? "ok" : "not ok") " - python: " p[2] }' <<<"$out"
n=$(grep -c '::.* PASSED' <<<"$out")
if [[ $rc -ne 0 ]]; then
  not_ok "python binding: pytest exited $rc"
  grep -E '^E |Error|error' <<<"$out" | head -20 | sed 's/^/# /'
elif [[ $n -lt 15 ]]; then
  not_ok "python binding: only $n tests passed (expected 15 or more)"
fi
