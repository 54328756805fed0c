# The instruction record as a pass schedule, the schema, and the library's exported symbols.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
LIB=${MMAREF_LIB:-build/libmmaref.a}
API_CC=${MMAREF_API_CC:-cc}  # compiler (and flags) to link against LIB: a sanitizer build needs its own
PY=${PYTHON:-python3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# 1. The public API from outside (tests/api/check_schedule.c: derivations beside each value).
if $API_CC -std=c11 -Wall -Wextra -Werror -Icmodel/include -o "$tmp/check_schedule" tests/api/check_schedule.c "$LIB" -lm \
   2>"$tmp/cc.log"; then
  out=$("$tmp/check_schedule" 2>&1); rc=$?
  echo "$out"
  [[ $rc -ne 0 && $out != *"not ok"* ]] && not_ok "check_schedule exited with status $rc"
else
  not_ok "tests/api/check_schedule.c does not build: $(head -3 "$tmp/cc.log")"
fi

# 1b. Records the library did not make (zero, 0xff and random fills; a sealed record changed afterwards)
# and NULL pointers at every public entry point (tests/api/hostile_records.c).
if $API_CC -std=c11 -Wall -Wextra -Werror -Icmodel/include -o "$tmp/hostile_records" tests/api/hostile_records.c \
   "$LIB" -lm -pthread 2>"$tmp/cc.log"; then
  out=$("$tmp/hostile_records" 2>&1); rc=$?
  echo "$out"
  [[ $rc -ne 0 && $out != *"not ok"* ]] && not_ok "hostile_records exited with status $rc"
else
  not_ok "tests/api/hostile_records.c does not build: $(head -3 "$tmp/cc.log")"
fi

# 2. Only the API is exported: every global symbol the archive defines is mmaref_*.
others=$(nm -g --defined-only "$LIB" | awk 'NF == 3 {print $3}' | grep -v '^mmaref_' | head -5 | tr '\n' ' ')
api=$(nm -g --defined-only "$LIB" | awk 'NF == 3 && $3 ~ /^mmaref_/' | wc -l)
if [[ -z $others && $api -gt 20 ]]; then ok "libmmaref exports only mmaref_* ($api symbols)"
else not_ok "libmmaref exports internals: $others($api mmaref_* symbols)"; fi

# 3. Every table entry's schedule covers K in order, within the limits the schema states.
"$MMAREF" list --json >"$tmp/table.json" && "$MMAREF" list --schema --json >"$tmp/schema.json" || not_ok "mmaref list failed"
$PY - "$tmp/table.json" "$tmp/schema.json" <<'PY'
import json, sys
table, schema = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
lim = schema['limits']
names = {k: {x['name'] for x in schema[k]} for k in ('algos', 'outputs', 'roundings', 'scales')}
bad = []
for x in table:
    s, taken = x['schedule'], []
    for p in s:   # a pass's products: k_first .., in runs of k_run every k_stride when k_run > 0
        run, stride = p['k_run'] or p['k_count'], p['k_stride'] or p['k_count']
        if p['k_count'] < 1 or p['k_count'] % run:
            bad.append(f"{x['arch']} {x['name']}: pass runs")
            continue
        taken += [p['k_first'] + j // run * stride + j % run for j in range(p['k_count'])]
    nxt = x['k'] if sorted(taken) == list(range(x['k'])) else -1   # every product once
    for p in s:
        for key, kind in (('algo', 'algos'), ('out', 'outputs'), ('align_products', 'roundings'),
                          ('align_c', 'roundings'), ('scales', 'scales')):
            if p[key] not in names[kind]:
                bad.append(f"{x['arch']} {x['name']}: {key} {p[key]} not in the schema")
    if nxt != x['k'] or not 1 <= x['k'] <= lim['max_k'] or not 1 <= len(s) <= lim['max_passes']:
        bad.append(f"{x['arch']} {x['name']}: K {x['k']} / {len(s)} passes")
    if x['block_size'] and x['k'] // x['block_size'] > lim['max_scales']:
        bad.append(f"{x['arch']} {x['name']}: too many scales")
    if not (1 <= x['m'] <= lim['max_mn'] and 1 <= x['n'] <= lim['max_mn'] and 1 <= x['blocks'] <= lim['max_blocks']):
        bad.append(f"{x['arch']} {x['name']}: shape {x['m']} x {x['n']}, {x['blocks']} blocks")
print(f"ok - {len(table)} instructions: every schedule takes each product of K once, within the schema's limits" if not bad
      else f"not ok - schedules: {len(bad)} problems, first: {bad[:3]}")
# Hand-derived facts of the schema: codes follow mmaref.h's enums (f64 0 ... e5m2fnuz 13); IEEE binary16
# has 5 exponent bits, 10 mantissa bits, bias 15 and NaN 0x7fff; OCP e4m3 (FN) has no inf and NaN 0x7f;
# AMD e4m3fnuz has NaN 0x80 and bias 8; tf32 is stored in 32 bits and keeps 10 mantissa bits; M3XU's
# f32c (code 14) is two f32 parts in 64 bits, f32's NaN in each.
f = {x['name']: x for x in schema['formats']}
want = [('f64', 'code', 0), ('e5m2fnuz', 'code', 13), ('f16', 'exp_bits', 5), ('f16', 'man_bits', 10),
        ('f16', 'bias', 15), ('f16', 'canonical_nan', '0x7fff'), ('e4m3', 'inf', None),
        ('e4m3', 'canonical_nan', '0x7f'), ('e4m3fnuz', 'canonical_nan', '0x80'), ('e4m3fnuz', 'bias', 8),
        ('tf32', 'width', 32), ('tf32', 'precision', 10), ('ue8m0', 'signed', 0),
        ('f32c', 'code', 14), ('f32c', 'width', 64), ('f32c', 'parts', 2), ('f32c', 'part', 'f32'),
        ('f32c', 'canonical_nan', '0x7fffffff7fffffff'), ('f16', 'parts', 1)]
wrong = [(n, k, f[n][k], v) for n, k, v in want if f[n][k] != v]
print("ok - schema: format fields and codes as derived" if not wrong else f"not ok - schema fields: {wrong}")
o = {x['name']: x for x in schema['outputs']}
print("ok - schema: output kinds (e8m13 keeps 13 bits of f32, truncating)"
      if o['f32_e8m13-rz']['man_bits'] == 13 and o['f32_e8m13-rz']['format'] == 'f32'
      and o['f16-rne']['rounding'] == 'rne' else f"not ok - schema outputs: {o}")
PY

# 4. The text listing names the schedule as the paper does.
line=$("$MMAREF" list ampere | grep ' mma.m16n8k16.f32.bf16.bf16.f32 ')
[[ $line == *"CoFDA(F=24,f32-rz)"* ]] && ok "list: ampere bf16 K=16 is CoFDA(F=24,f32-rz)" || not_ok "list: '$line'"
expect_error "list --schema takes no architecture" "--schema takes no architecture" "$MMAREF" list --schema hopper
