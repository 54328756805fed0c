# The docs state what is (tests/docs/check_docs.py): every `$ build/mmaref ...` transcript of README.md
# and docs/*.md prints what the doc shows under it (a bare `$ mmaref`, not on PATH in a build tree, and an
# explain trace shown without its command are errors), every other mmaref command shown runs, and the
# file table of docs/algorithms.md names files, suites and trace functions that exist, one row per
# summation kind of the model's schema with the RTL unit of the schema's unit catalogue.  The checker
# proves it can fail: a transcript whose shown D is one bit off, a command that exits non-zero, a bare
# `$ mmaref` transcript, a trace without its command, a table naming a file that does not exist and a
# table row naming another kind's RTL unit are each reported "not ok".
# runtime: 2 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
"$PYTHON" tests/docs/check_docs.py "$MMAREF" README.md docs/*.md

# the checker's own failures, on documents written to fail
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
d=$("$MMAREF" dot hopper mma.m16n8k16.f32.f16.f16.f32 -a 1,2,3 -b 0.5,0.25,-1 -c 0x1p-3 | awk '{print $1}')
wrong=$(printf '0x%08x' $(( d ^ 1 )))
printf '```\n$ build/mmaref dot hopper mma.m16n8k16.f32.f16.f16.f32 -a 1,2,3 -b 0.5,0.25,-1 -c 0x1p-3\n%s\n```\n' "$wrong" >"$tmp/wrong.md"
printf '```sh\nbuild/mmaref dot hopper mma.nope -a 1 -b 1 -c 0\n```\n' >"$tmp/fails.md"
printf '```\n$ mmaref dot hopper mma.m16n8k16.f32.f16.f16.f32 -a 1 -b 1 -c 0\n0x3f800000 1\n```\n' >"$tmp/bare.md"
printf '```\nhopper mma.m16n8k16.f32.f16.f16.f32: FDA\n   Step 0    c           0x00000000 = +0\n```\n' >"$tmp/trace.md"
sed 's|`cmodel/src/algo_fda.c`|`cmodel/src/algo_fda_gone.c`|; /^| GDFS |/s|gdfs_unit\.sv|gps_unit.sv|' \
  docs/algorithms.md >"$tmp/algorithms.md"
out=$("$PYTHON" tests/docs/check_docs.py "$MMAREF" "$tmp/wrong.md" "$tmp/fails.md" "$tmp/bare.md" "$tmp/trace.md" \
  "$tmp/algorithms.md")
for want in "wrong.md.*the doc shows '$wrong'" "fails.md.*mma.nope.*exit 2" "bare.md.*a bare mmaref is not on PATH in a build tree" \
            "trace.md: a trace shown without its command" \
            "algorithms.md's file table names what does not exist: cmodel/src/algo_fda_gone.c" \
            "algorithms.md's table against the schema: row 'GDFS': its RTL unit is rtl/gps_unit.sv"; do
  if grep -q "^not ok - docs: .*$want" <<<"$out"; then ok "docs checker fails as it must: $want"
  else not_ok "docs checker let through: $want (it printed: $(tr '\n' ' ' <<<"$out" | cut -c1-300))"; fi
done
