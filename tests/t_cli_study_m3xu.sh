# mmaref study m3xu (docs/m3xu.md, "Accuracy: is it the same as FP32?"): a small run checked against
# properties that follow from the definitions, not from the code:
#  - the exact column is c + sum a_k b_k rounded to nearest even f32, recomputed here with Python fractions
#    (its own f32 rounding) on every sample the study writes out (100 per class, FP32 and FP32C);
#  - the fmaf-chain column is the chain of correctly rounded fused multiply-adds, recomputed the same way;
#  - with one nonzero product, e_a + e_b >= -126, and c = 0 (class one-product) M3XU and the fmaf chain
#    (K = 1) are correctly rounded: e_p = e_max (a zero c decodes with exponent -126), so the product enters
#    M3XU's sum exactly and is rounded once; below that (e_a + e_b = -127) the zero c sets e_max = -126 and
#    the product's last bit is truncated: a directed vector where that turns a round-up into a tie;
#  - every share is in [0, 100], the counts of every method add up to N, the histograms to the counts;
#  - the CSV, the gnuplot script and the PNG are written; bad options are one-line errors.
. "$(dirname "$0")/lib.sh"
M=$MMAREF
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
N=20000

plot=--no-plot; command -v gnuplot >/dev/null && plot=
"$M" study m3xu --samples $N --seed 7 --out "$tmp/s" $plot >"$tmp/out" 2>"$tmp/err"; rc=$?
[[ $rc == 0 ]] && ok "study m3xu --samples $N runs" || not_ok "study m3xu: rc=$rc: $(head -3 "$tmp/err")"
[[ ! -s $tmp/err ]] && ok "no progress lines for a short run" || not_ok "stderr of a short run: $(head -2 "$tmp/err")"

python3 - "$tmp/s" "$tmp/out" $N <<'PY' || not_ok "the Python checks of the study's files failed to run"
import csv, sys
from fractions import Fraction
d, out, N = sys.argv[1], sys.argv[2], int(sys.argv[3])

def ok(m): print("ok - " + m)
def not_ok(m): print("not ok - " + m)

def f32_value(bits):
    s, e, m = bits >> 31, (bits >> 23) & 0xff, bits & 0x7fffff
    assert e != 0xff, "no inf or NaN in the stimulus"
    v = Fraction(m, 1 << 149) if e == 0 else Fraction((1 << 23) | m) * Fraction(2) ** (e - 150)
    return -v if s else v

def neg_zero(bits): return bits == 0x80000000

def f32_rne(q, negative_zero=False):
    """q rounded to nearest even binary32 (gradual underflow); None when it overflows."""
    if q == 0:
        return 0x80000000 if negative_zero else 0
    s, q = (1, -q) if q < 0 else (0, q)
    e = q.numerator.bit_length() - q.denominator.bit_length()   # 2^e <= q < 2^(e+2)
    if Fraction(2) ** e > q: e -= 1
    if Fraction(2) ** (e + 1) <= q: e += 1
    e = max(e, -126)
    x = q / Fraction(2) ** (e - 23)                               # quantum 2^(e-23)
    n = x.numerator // x.denominator
    r = x - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2): n += 1
    if n == 1 << 24: n, e = 1 << 23, e + 1
    if e > 127: return None
    bits = n if n < (1 << 23) else ((e + 127) << 23) | (n - (1 << 23))
    return (s << 31) | bits

def split64(w): return w & 0xffffffff, w >> 32

def real_dots(k, c, a, b):
    """The rows' dots as lists of (c, [(a_k, b_k)]) in f32 bits: FP32 one, FP32C two (re: ai negated)."""
    if k == 4:
        return [(c, list(zip(a, b)))]
    (cr, ci), A, B = split64(c), [split64(x) for x in a], [split64(x) for x in b]
    re = [(A[i][0], B[i][0]) for i in range(2)], [(A[i][1] ^ 0x80000000, B[i][1]) for i in range(2)]
    im = [(A[i][0], B[i][1]) for i in range(2)], [(A[i][1], B[i][0]) for i in range(2)]
    return [(cr, [re[0][0], re[1][0], re[0][1], re[1][1]]), (ci, [im[0][0], im[1][0], im[0][1], im[1][1]])]

def exact(c, prods):
    q = f32_value(c) + sum(f32_value(x) * f32_value(y) for x, y in prods)
    allneg = neg_zero(c) and all(f32_value(x) * f32_value(y) == 0 and ((x ^ y) >> 31) for x, y in prods)
    return f32_rne(q, allneg)

def fma_chain(c, prods):
    dd = c
    for x, y in prods:
        p = f32_value(x) * f32_value(y)
        q = p + f32_value(dd)
        # IEEE: an exact zero sum is +0 unless both addends are -0 (round to nearest)
        nz = q == 0 and p == 0 and ((x ^ y) >> 31) and neg_zero(dd)
        dd = f32_rne(q, nz)
    return dd

rows = list(csv.DictReader(open(d + "/m3xu-samples.csv")))
bad_exact = bad_fmaf = checked = 0
single = {"M3XU": 0, "fmaf-chain": 0, "n": 0}
per_class = {}
for r in rows:
    k, c = int(r["k"]), int(r["c"], 16)
    a = [int(x, 16) for x in r["a"].split()]
    b = [int(x, 16) for x in r["b"].split()]
    dots = real_dots(k, c, a, b)
    want = [exact(cc, p) for cc, p in dots]
    fm = [fma_chain(cc, p) for cc, p in dots]
    join = (lambda v: v[0]) if k == 4 else (lambda v: v[0] | v[1] << 32)
    checked += 1
    per_class[(r["suite"], r["class"])] = per_class.get((r["suite"], r["class"]), 0) + 1
    if None in want or join(want) != int(r["exact"], 16):
        bad_exact += 1
        if bad_exact < 4: print("# exact: %s %s: python %s, study %s" % (r["suite"], r["class"], want, r["exact"]))
    if join(fm) != int(r["fmaf-chain"], 16):
        bad_fmaf += 1
        if bad_fmaf < 4: print("# fmaf: %s %s: python %s, study %s" % (r["suite"], r["class"], fm, r["fmaf-chain"]))
    if r["class"] == "one-product":
        single["n"] += 1
        # one product with e_a + e_b >= -126 and c = 0: the definition says one rounding of the exact product
        p = [(x, y) for x, y in dots[0][1] if f32_value(x) * f32_value(y) != 0]
        exps = [((v >> 23) & 0xff) - 127 for v in p[0]] if len(p) == 1 else [-200, 0]
        assert len(p) == 1 and sum(exps) >= -126 and f32_value(dots[0][0]) == 0, r
        for m in ("M3XU", "fmaf-chain"):
            single[m] += int(r[m], 16) == int(r["exact"], 16)
(ok if bad_exact == 0 and checked >= 1800 else not_ok)(
    "exact column = Python fractions RNE on %d samples (%d FP32, %d FP32C), %d differ" %
    (checked, sum(1 for r in rows if r["k"] == "4"), sum(1 for r in rows if r["k"] == "2"), bad_exact))
(ok if bad_fmaf == 0 else not_ok)("fmaf-chain column = Python chain of correctly rounded fmas, %d differ" % bad_fmaf)
(ok if all(v == 100 for v in per_class.values()) and len(per_class) == 18 else not_ok)(
    "100 samples written for each of the %d classes" % len(per_class))
(ok if single["n"] == 100 and single["M3XU"] == 100 and single["fmaf-chain"] == 100 else not_ok)(
    "one product, c = 0: M3XU and the fmaf chain correctly rounded on %d/%d and %d/%d samples" %
    (single["M3XU"], single["n"], single["fmaf-chain"], single["n"]))

# ---- the table on stdout ----
table, suite, skipped = {}, None, {}
methods = ["M3XU", "fmaf-chain", "3xTF32", "3xBF16"]
for line in open(out):
    w = line.split()
    if line.startswith("FP32"):
        suite = line.split(":")[0]
        skipped[suite] = int(line.split(", ")[2].split()[0])
    elif suite and len(w) == 9 and w[1] in methods:
        table[(suite, w[0], w[1])] = (int(w[2]), float(w[3]), float(w[4]), float(w[5].rstrip("%")),
                                      float(w[6].rstrip("%")), float(w[7].rstrip("%")), int(w[8]))
ok_shares = all(0 <= v[i] <= 100 for v in table.values() for i in (3, 4, 5)) and len(table) == 4 * 20
(ok if ok_shares else not_ok)("%d table rows, every share in [0, 100]" % len(table))
sums = True
for s in ("FP32", "FP32C"):
    classes = sorted({c for (su, c, m) in table if su == s and c != "all"})
    for m in methods:
        n = sum(table[(s, c, m)][0] for c in classes)
        sums &= n + skipped[s] == N and table[(s, "all", m)][0] == n
        sums &= all(table[(s, "all", m)][1] >= table[(s, c, m)][1] for c in classes)
(ok if sums else not_ok)("per method the class counts add up to N = %d (skipped: %s) and to 'all'" % (N, skipped))
cr = [table[("FP32", "one-product", m)][3] for m in ("M3XU", "fmaf-chain")]
(ok if cr == [100.0, 100.0] else not_ok)("table: one-product correctly rounded 100%% for M3XU and fmaf (%s)" % cr)
(ok if table[("FP32", "one-product", "M3XU")][1] == 0 else not_ok)("table: one-product M3XU max ulp 0")
claim = [l for l in open(out) if l.strip().startswith("M3XU-FP32:")]
(ok if claim and "%.4f%%" % table[("FP32", "all", "M3XU")][3] in claim[0] else not_ok)(
    "the claim statement quotes the measured share correctly rounded")

# ---- the histogram CSV ----
hist = {}
ok_csv = True
with open(d + "/m3xu.csv") as f:
    head = f.readline().strip()
    ok_csv &= head == "suite,class,method,bucket,ulp_lo,ulp_hi,count"
    for r in csv.reader(f):
        key = (r[0], r[1], r[2])
        hist[key] = hist.get(key, 0) + int(r[6])
        ok_csv &= float(r[4]) <= float(r[5])
(ok if ok_csv and all(hist.get(k) == v[0] for k, v in table.items()) else not_ok)(
    "m3xu.csv parses; every histogram adds up to its table count")
PY

grep -q "^plot " "$tmp/s/m3xu.gp" && grep -q "m3xu.csv" "$tmp/s/m3xu.gp" && ok "m3xu.gp written" || not_ok "m3xu.gp"
if [[ -z $plot ]]; then
  [[ $(head -c 8 "$tmp/s/m3xu.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] && ok "m3xu.png drawn by gnuplot" \
    || not_ok "$tmp/s/m3xu.png is not a PNG"
fi

# the same seed gives the same study; --no-plot draws nothing
"$M" study m3xu --samples 2000 --seed 7 --out "$tmp/r1" --no-plot >/dev/null 2>&1
"$M" study m3xu --samples 2000 --seed 7 --out "$tmp/r2" --no-plot >/dev/null 2>&1
cmp -s "$tmp/r1/m3xu.csv" "$tmp/r2/m3xu.csv" && [[ ! -e $tmp/r1/m3xu.png ]] && ok "same seed, same histograms; --no-plot writes no PNG" \
  || not_ok "study m3xu is not reproducible or --no-plot drew"

# Directed, the boundary of the one-product property (derived in docs/m3xu.md): a = 0x800c3d 2^-86,
# b = 0xffeb15 2^-87 (e_a + e_b = -127); a b = 0x800c3d * 0xffeb15 * 2^-173 = 2^-149 (8389062 + 1/2 + 2^-24):
# correctly rounded up to 0x008001c7, but the bit 2^-173 lies below e_max - 46 = -172, M3XU truncates it and
# rounds the tie to even, 0x008001c6.  With a doubled (e_a + e_b = -126) the product enters exactly: 2^-148
# (8389062 + 1/2 + 2^-24) rounds up to exponent field 2, mantissa 8389063 - 2^23 = 0x1c7: 0x010001c7.
expect_dot "one product, e_a + e_b = -127, c = 0: M3XU truncates the last product bit (tie to even)" 0x008001c6 \
  m3xu m3xu.f32 -a 0x20000c3d,0,0,0 -b 0x1fffeb15,0,0,0 -c 0
expect_dot "one product, e_a + e_b = -126, c = 0: correctly rounded (0x800c3d 0xffeb15 2^-172 rounds up)" 0x010001c7 \
  m3xu m3xu.f32 -a 0x20800c3d,0,0,0 -b 0x1fffeb15,0,0,0 -c 0

expect_error "study m3xu --samples 0" "--samples '0' is not a decimal count" "$M" study m3xu --samples 0 --no-plot
expect_error "study m3xu --samples 1e6" "--samples '1e6' is not a decimal count" "$M" study m3xu --samples 1e6
expect_error "study m3xu --seed -1" "--seed '-1' is not a non-negative integer" "$M" study m3xu --seed -1
expect_error "study m3xu unknown option" "unknown option '--bogus'" "$M" study m3xu --bogus
expect_error "study m3xu --out under a file" "cannot create directory" "$M" study m3xu --samples 10 --out /dev/null/x
long=$(printf 'd%.0s' {1..5000})
expect_error "study m3xu --out longer than PATH_MAX" "is longer than a path can be" "$M" study m3xu --out "$long" --no-plot
