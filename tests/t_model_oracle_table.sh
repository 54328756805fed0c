# The oracle's own instruction table (tests/oracle/table.py, written from the paper's Tables III-IV and
# section IV, CDNA1 from docs/algorithms.md) against the model's (`mmaref list --json`), entry by entry.
# The oracle suites (t_model_oracle, t_model_oracle_amd) compute with table.py's parameters, never the model's, so a
# wrong entry in cmodel/src/isa_*.c shows up here as a named difference, and in the oracle suites as
# mismatching vectors.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
if ! command -v python3 >/dev/null; then not_ok "oracle table: python3 not found"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=tests/oracle

# 1. table.py's rules (from the text of section IV) reproduce every cell of Tables III and IV (transcribed).
python3 $T/table.py --selftest || true

# 2. Spot checks, the expected schedules written here from the paper's text (section and step cited):
#    ARCH NAME = PASSES ALGO F G ALIGN_PRODUCTS ALIGN_C SCALES FLUSH OUT   (every pass alike, K split evenly)
#    ARCH NAME = none                                                      (the paper has no such cell)
out=$(python3 - <<'PY'
import re
import sys
sys.path.insert(0, 'tests/oracle')
import table
cases = """
volta mma.m8n8k4.f32.f16.f16.f16 = 1 FDA 23 0 rz rz none 0 f32-rz            # IV-C Step 3 Volta F=23; App. B .F32.F16: C f16
turing mma.m16n8k8.f16.f16.f16.f16 = 1 FDA 24 0 rz rz none 0 f16-rne         # Step 3 Turing 24; Step 5 f16 RNE
ampere mma.m16n8k16.f32.bf16.bf16.f32 = 2 FDA 24 0 rz rz none 0 f32-rz       # IV-D CoFDA on Ampere
ampere mma.m16n8k8.f32.tf32.tf32.f32 = 2 FDA 24 0 rz rz none 0 f32-rz        # IV-D HMMA.1688.F32.TF32
ampere mma.m16n8k4.f32.tf32.tf32.f32 = 1 FDA 24 0 rz rz none 0 f32-rz        # Table III HMMA.1684: FDA
ampere mma.m16n8k8.f32.bf16.bf16.f32 = 1 FDA 24 0 rz rz none 0 f32-rz        # Table III HMMA.1688.F32.BF16: FDA
ada mma.m16n8k32.f32.e4m3.e5m2.f32 = 2 FDA 13 0 rz rz none 0 f32_e8m13-rz    # IV-D; Step 3 Ada QMMA 13; Step 5 13th bit
ada mma.m16n8k16.f16.e5m2.e5m2.f16 = 1 FDA 13 0 rz rz none 0 f16-rne         # Step 5: FP16 output RNE
hopper mma.m16n8k16.f32.f16.f16.f32 = 1 FDA 25 0 rz rz none 0 f32-rz -133    # Step 3 Hopper HMMA 25; H200: zero terms -133
hopper wgmma.m64n8k32.f32.e4m3.e5m2 = 1 FDA 13 0 rz rz none 0 f32_e8m13-rz -133   # Step 3 QGMMA 13
hopper wgmma.m64n256k8.f32.tf32.tf32 = 1 FDA 25 0 rz rz none 0 f32-rz -133   # HGMMA 25
hopper mma.m16n8k16.f64.f64.f64.f64 = 1 SFMA 0 0 rne rne none 0 f64-rne      # IV-A DMMA
blackwell tcgen05.mma.m128n8k32.block32.f32.e2m1.e4m3.ue8m0 = 1 FDA 25 0 rz rz per-product 0 f32-rz  # "Scale factor"
blackwell tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3 = 1 GDFS 35 16 rz rz per-group 0 f32-rz  # IV-E
rtx-blackwell mma.m16n8k32.f32.e4m3.e4m3.f32 = 1 FDA 25 0 rz rz none 0 f32-rz   # Step 3 RTX QMMA 25, no chain
rtx-blackwell mma.m8n8k4.f64.f64.f64.f64 = 1 SFMA 0 0 rne rne none 0 f64-rne
cdna1 v_mfma_f32_32x32x4bf16 = 1 GPS 0 2 rne rne none 0 f32-rne             # docs "CDNA1": G as CDNA2, no flush
cdna1 v_mfma_f32_16x16x16f16 = 1 GPS 0 4 rne rne none 0 f32-rne
cdna2 v_mfma_f32_32x32x4bf16 = 1 GPS 0 2 rne rne none 1 f32-rne             # IV-B: no _1k -> G=2; Steps 1-4 flush
cdna2 v_mfma_f32_32x32x4bf16_1k = 1 GPS 0 4 rne rne none 1 f32-rne          # IV-B: _1k -> G=4
cdna2 v_mfma_f32_16x16x16f16 = 1 GPS 0 4 rne rne none 1 f32-rne             # IV-B: FP16 G=4 (no chain)
cdna2 v_mfma_f64_4x4x4f64 = 1 SFMA 0 0 rne rne none 0 f64-rne               # IV-A
cdna3 v_mfma_f32_16x16x16_bf16 = 2 FDRDA 24 0 rd rd none 0 f32-rne          # IV-G CoFDRDA; IV-F Step 4 F=24, Step 6 RD
cdna3 v_mfma_f32_16x16x8_xf32 = 2 FDRDA 24 0 rd rd none 0 f32-rne           # IV-G
cdna3 v_mfma_f32_32x32x8_f16 = 1 FDRDA 24 0 rd rd none 0 f32-rne            # Table IV: FDRDA
cdna3 v_mfma_f32_32x32x16_fp8_bf8 = 1 GFDRDA 24 0 rd rd none 0 f32-rne      # IV-H
cdna3 v_mfma_f32_16x16x32_bf8_bf8 = 2 GFDRDA 24 0 rd rd none 0 f32-rne      # IV-I: one GFDRDA takes 16
cdna3 v_mfma_f32_4x4x1_16b_f32 = 1 SFMA 0 0 rne rne none 0 f32-rne          # IV-A
ampere mma.m16n8k32.f32.e4m3.e4m3.f32 = none                                # Table III: QMMA N/A on Ampere
blackwell mma.m8n8k4.f32.f16.f16.f32 = none                                 # HMMA.884: Volta and Turing only
turing mma.m8n8k4.f64.f64.f64.f64 = none                                    # DMMA from Ampere
cdna1 v_mfma_f64_16x16x4f64 = none                                          # docs "CDNA1": no FP64 MFMA
cdna1 v_mfma_f32_32x32x8bf16_1k = none                                      # docs "CDNA1": no _1k
cdna2 v_mfma_f32_32x32x16_fp8_fp8 = none                                    # Table IV: N/A on CDNA2
m3xu m3xu.m8n4k8.f32.f16.f16.f32 = 1 FDA 24 0 rz rz none 0 f32-rz          # docs/m3xu.md: baseline = Ampere HMMA
m3xu m3xu.m8n4k8.f32.bf16.bf16.f32 = 1 FDA 24 0 rz rz none 0 f32-rz
m3xu m3xu.m8n4k4.f32.f32.f32.f32 = 1 M3XU 46 0 rz rz none 0 f32-rne        # F_w = 46, truncation, RNE
m3xu m3xu.m8n4k2.f32c.f32c.f32c.f32c = 1 M3XU 46 0 rz rz none 0 f32c-rne   # M3XU IV-B: 8x4x2 in 4 steps
m3xu m3xu.m8n4k4.f32.f16.f16.f32 = none                                     # IV-A: the FP16 mode is 8x4x8
"""
bad, n = [], 0
for line in cases.strip().split('\n'):
    spec = line.split('#')[0].split()
    arch, name, want = spec[0], spec[1], spec[3:]
    n += 1
    try:
        s = table.schedule(arch, name)
    except table.NotInPaper:
        if want != ['none']:
            bad.append(f"{arch} {name}: table.py says not in the paper")
        continue
    if want == ['none']:
        bad.append(f"{arch} {name}: table.py gives {s}, the paper has no such cell")
        continue
    passes, algo, F, G, ap, ac, sc, fl, out, *zero = want   # zero: a zero term's own exponent, if any
    k = int(re.search(r'_\d+x\d+x(\d+)' if arch in table.AMD_ARCHS else r'm\d+n\d+k(\d+)', name).group(1))
    step = k // int(passes)
    exp = [dict(algo=algo, k_first=i * step, k_count=step, frac_bits=int(F), group=int(G), align_products=ap,
                align_c=ac, scales=sc, flush=int(fl), zero_term_exp=int(zero[0]) if zero else 0, out=out,
                k_run=0, k_stride=0, ab_f16=0)
           for i in range(int(passes))]
    if s != exp:
        bad.append(f"{arch} {name}: table.py {s}, the paper {exp}")
# The measured mma.sync FP8 cells (Hopper on an H200, Blackwell from Khattak & Mikaitis' B200 files):
# two f16 passes with F = 25 over the products k mod 4 in {0, 1}, then {2, 3}, and C added last.
for arch, name, out, zero in (('hopper', 'mma.m16n8k32.f32.e4m3.e5m2.f32', 'f32-rz', -133),
                              ('hopper', 'mma.m16n8k16.f16.e5m2.e5m2.f16', 'f16-rne', -133),
                              ('blackwell', 'mma.m16n8k32.f16.e4m3.e4m3.f16', 'f16-rne', 0),
                              ('blackwell', 'mma.m16n8k16.f32.e5m2.e4m3.f32', 'f32-rz', 0)):
    n += 1
    t = table.derive(arch, name)
    k = int(re.search(r'k(\d+)', name.split('.')[1]).group(1))
    exp = [dict(algo='FDA', k_first=2 * i, k_count=k // 2, frac_bits=25, group=0, align_products='rz', align_c='rz',
                scales='none', flush=0, zero_term_exp=zero, out=out, k_run=2, k_stride=4, ab_f16=1) for i in range(2)]
    if t['schedule'] != exp or t['c_last'] != 1:
        bad.append(f"{arch} {name}: table.py {t['schedule']} c_last {t['c_last']}, measured {exp} c_last 1")
print(f"{n} {len(bad)} " + ' | '.join(bad[:3]))
PY
)
read -r n nbad rest <<<"$out"
if [[ ${nbad:-x} == 0 ]]; then ok "oracle table.py gives the paper's schedule in $n spot checks (F, passes, G, flush, out, N/A cells)"
else not_ok "oracle table.py spot checks: ${nbad:-?} of ${n:-?} wrong: $rest"; fi

# 3. Every instruction of the model: table.py and `mmaref list --json` agree on every schedule field.
"$MMAREF" list --json >"$tmp/list.json" || not_ok "mmaref list --json failed"
python3 $T/compare_table.py --list "$tmp/list.json" || true

# 4. The comparison can fail: a list with five deliberate errors must be reported entry by entry --
#    Hopper HMMA.16816.F32 with F = 24 (the paper: 25), CDNA1's 32x32x8f16 with flushing (docs: none),
#    Ampere's HMMA.16816.F16 as one pass (IV-D: two), a QMMA on Ampere (Table III: N/A), and M3XU's
#    FP32 mode with F = 45 (docs/m3xu.md: 46).
python3 - "$tmp/list.json" "$tmp/wrong.json" <<'PY'
import copy, json, sys
entries = json.load(open(sys.argv[1]))
def find(arch, name):
    return next(e for e in entries if e['arch'] == arch and e['name'] == name)
e = find('hopper', 'mma.m16n8k16.f32.f16.f16.f32')
for p in e['schedule']:
    p['frac_bits'] = 24
e = find('cdna1', 'v_mfma_f32_32x32x8f16')
e['schedule'][0]['flush'] = 1
e = find('ampere', 'mma.m16n8k16.f16.f16.f16.f16')
p = e['schedule'][0]
p['k_count'] = e['k']
e['schedule'] = [p]
e['algo'] = 'FDA'
find('m3xu', 'm3xu.m8n4k4.f32.f32.f32.f32')['schedule'][0]['frac_bits'] = 45
x = copy.deepcopy(find('ada', 'mma.m16n8k16.f32.e4m3.e4m3.f32'))
x['arch'] = 'ampere'
entries.append(x)
json.dump(entries, open(sys.argv[2], 'w'))
PY
out=$(python3 $T/compare_table.py --list "$tmp/wrong.json" --max-report 10); rc=$?
miss=
grep -q '^not ok - table: hopper mma.m16n8k16.f32.f16.f16.f32: .*frac_bits: oracle 25, model 24' <<<"$out" || miss+=" hopper-F"
grep -q '^not ok - table: cdna1 v_mfma_f32_32x32x8f16: .*flush: oracle 0, model 1' <<<"$out" || miss+=" cdna1-flush"
grep -q '^not ok - table: ampere mma.m16n8k16.f16.f16.f16.f16: .*passes: oracle 2, model 1' <<<"$out" || miss+=" ampere-chain"
grep -q '^not ok - table: ampere mma.m16n8k16.f32.e4m3.e4m3.f32: existence: oracle .not in the paper' <<<"$out" || miss+=" ampere-QMMA"
grep -q '^not ok - table: m3xu m3xu.m8n4k4.f32.f32.f32.f32: .*frac_bits: oracle 46, model 45' <<<"$out" || miss+=" m3xu-F"
grep -q '^not ok - oracle table vs mmaref list --json: 5123 instructions compared .*: 5 differ$' <<<"$out" || miss+=" summary"
if [[ $rc -eq 1 && -z $miss ]]; then
  ok "oracle table comparison reports each of 5 planted errors (Hopper F 25->24, CDNA1 GPS flush=1, Ampere CoFDA as one pass, QMMA on Ampere, M3XU FP32 F 46->45) and exits 1"
else
  not_ok "oracle table comparison on a list with 5 planted errors: exit $rc, not reported:${miss:- none}; output: $(grep '^not ok' <<<"$out" | head -5 | tr '\n' ' ')"
fi
# ... and an empty cell: without Volta's instructions, Table III's Volta cells are reported as missing.
python3 -c "import json,sys; json.dump([e for e in json.load(open(sys.argv[1])) if e['arch'] != 'volta'], open(sys.argv[2], 'w'))" \
  "$tmp/list.json" "$tmp/novolta.json"
out=$(python3 $T/compare_table.py --list "$tmp/novolta.json"); rc=$?
if [[ $rc -eq 1 && $out == *"not ok - paper cells without any instruction in the model: 3: volta HMMA.884"* ]]; then
  ok "oracle table comparison reports Table III cells the model has no instruction for (Volta removed: 3 cells)"
else not_ok "oracle table comparison without Volta: exit $rc, '$(grep '^not ok' <<<"$out" | head -2 | tr '\n' ' ')'"; fi
exit 0
