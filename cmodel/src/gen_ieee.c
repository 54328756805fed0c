/* Directed vectors: the IEEE corner cases of the SFMA instructions (NVIDIA DMMA f64, AMD f32/f64
 * MFMA), in the manner of TestFloat's generator for fused multiply-add: the cases an IEEE FMA gets
 * wrong while random operands rarely reach them.  They only choose operands (the expected D is the
 * model's); gen.c offers them first among an SFMA instruction's directed vectors, in f32 or f64 as the
 * instruction is; every value is built from its fields (sign, significand, exponent) through the
 * format table, exactly.  The case sets are built once per format (call_once) and never change after:
 * the library stays safe to call from several threads.
 *
 * Most vectors are one FMA a * b + c: the case sits on lane i % K (vector i) and every other lane
 * multiplies -0 by +0, which leaves the accumulator as it is (x + -0 = x for every x, -0 and NaN
 * included), so D is that one FMA wherever it sits in the chain.  The families:
 *   - classes: a, b and c each from 13 classes x 2 signs (zero, smallest / a middle / largest
 *     subnormal, smallest normal, 1, 1 + ulp, 2 - ulp, 1.5 2^(emax/2), largest finite, inf, quiet and
 *     signalling NaN): every combination (26^3);
 *   - rounding boundaries: c at binade edges and with odd / even / all-ones significands (normal at the
 *     smallest, middle and largest exponents, and subnormal), plus a product of half an ulp of c (a tie),
 *     half an ulp +- the product's last bit, a quarter, three quarters, one and a half ulps, and
 *     products far below c's last bit (only a sticky bit), every sign combination;
 *   - signs of exact zeros: x y - x y (+0 for any signs), zero products plus zeros (-0 only for
 *     -0 + -0), tiny products that round to +-0 or to the smallest subnormal;
 *   - overflow: the largest finite +- half an ulp (a tie that overflows), products beyond the range whose
 *     sum with c is finite again (max * 2 - max), max * max against +-max and +-inf;
 *   - underflow: results at the smallest normal / largest subnormal boundary (ties both ways), products of
 *     normal numbers landing 1 .. p + 2 binades below the smallest normal (subnormal results);
 *   - alignment: c from 3p + 8 binades below the product to 3p + 8 above, both signs, three significand
 *     patterns (the window's jam and clamp edges of rtl/sfma_datapath.sv); the same from 2p + 8 below to
 *     8 above a subnormal times a power of two (a product of 1, 2 or p - 1 significant bits;
 *     c's last bits odd both ways, so that a misplaced sticky bit turns a near-tie into a tie);
 *   - residuals: c = -RN(x y), so D is the product's exact rounding error (every product bit counts);
 *   - chains (K > 1): overflow, cancellation and zero signs across the K steps, sums of subnormals. */
#include <stdlib.h>
#include <string.h>
#ifndef __wasi__
#include <threads.h>
#else
/* WebAssembly (the browser page, docs/web.md): one thread, and wasi-libc has no call_once */
typedef int once_flag;
#define ONCE_FLAG_INIT 0
static void call_once(once_flag *flag, void (*fn)(void))
{
    if (!*flag)
        fn(), *flag = 1;
}
#endif

#include "gen_sets.h"

enum { MAX_CASES = 32768, CHAIN_CASES = 12 };

typedef struct {
    uint64_t a, b, c;
} fma_case;

typedef struct {
    mmaref_format fmt;
    int man, p, bias, emin, emax; /* p = man + 1; emin, emax: exponents of the smallest, largest normal */
    uint64_t sign, inf, nan;
    int n;
    fma_case cases[MAX_CASES];
} case_set;

static case_set sets[2]; /* f64, f32: written once, by build_f64 / build_f32 under call_once */
static once_flag built[2] = {ONCE_FLAG_INIT, ONCE_FLAG_INIT};

/* (-1)^s m 2^e exactly in the set's format: 1, or 0 when it is not representable */
static int val(const case_set *f, int s, uint64_t m, int e, uint64_t *raw)
{
    uint64_t sb = s ? f->sign : 0;
    if (m == 0) {
        *raw = sb;
        return 1;
    }
    while (m >> f->p) { /* at most p significant bits */
        if (m & 1)
            return 0;
        m >>= 1, e++;
    }
    while (!(m >> (f->p - 1)))
        m <<= 1, e--;
    int lead = e + f->man; /* exponent of the leading one */
    if (lead > f->emax)
        return 0;
    if (lead < f->emin) { /* subnormal */
        int sh = f->emin - lead;
        if (sh >= f->p || (m & ((1ULL << sh) - 1)))
            return 0;
        *raw = sb | (m >> sh);
        return 1;
    }
    *raw = sb | ((uint64_t)(lead + f->bias) << f->man) | (m & ((1ULL << f->man) - 1));
    return 1;
}

static uint64_t num(const case_set *f, int s, uint64_t m, int e)
{
    uint64_t raw = 0;
    val(f, s, m, e, &raw);
    return raw;
}

static void add(case_set *f, uint64_t a, uint64_t b, uint64_t c)
{
    if (f->n < MAX_CASES)
        f->cases[f->n++] = (fma_case){a, b, c};
}

/* a * b = (-1)^s m 2^j with a = m 2^(j - jb), b = 2^jb, jb as near 0 as both allow; 0 if none */
static int split(const case_set *f, int s, uint64_t m, int j, uint64_t *a, uint64_t *b)
{
    for (int t = 0; t <= 2 * (f->emax + f->p); t++)
        for (int neg = 0; neg < 2; neg++) {
            int jb = neg ? -t : t;
            if (val(f, s, m, j - jb, a) && val(f, 0, 1, jb, b))
                return 1;
        }
    return 0;
}

/* the case a * b + c with a * b = (-1)^s m 2^j, when there are such factors */
static void add_product(case_set *f, int s, uint64_t m, int j, uint64_t c)
{
    uint64_t a, b;
    if (split(f, s, m, j, &a, &b))
        add(f, a, b, c);
}

static void classes(case_set *f)
{
    const int man = f->man, p = f->p;
    const uint64_t ones = (1ULL << man) - 1;
    uint64_t mag[13] = {
        0,
        num(f, 0, 1, f->emin - man),               /* smallest subnormal */
        num(f, 0, ones / 3, f->emin - man),        /* a middle subnormal (0101...) */
        num(f, 0, ones, f->emin - man),            /* largest subnormal */
        num(f, 0, 1, f->emin),                     /* smallest normal */
        num(f, 0, 1, 0),                           /* 1 */
        num(f, 0, (1ULL << man) + 1, -man),        /* 1 + ulp */
        num(f, 0, (1ULL << p) - 1, -man),          /* 2 - ulp */
        num(f, 0, 3, f->emax / 2 - 1),             /* 1.5 2^(emax/2): its square is near the top */
        num(f, 0, (1ULL << p) - 1, f->emax - man), /* largest finite */
        f->inf,
        f->nan,                                    /* quiet NaN (the canonical one) */
        f->inf | 1,                                /* signalling NaN */
    };
    uint64_t v[26];
    for (int i = 0; i < 13; i++)
        v[2 * i] = mag[i], v[2 * i + 1] = mag[i] | f->sign;
    for (int i = 0; i < 26; i++)
        for (int j = 0; j < 26; j++)
            for (int k = 0; k < 26; k++)
                add(f, v[i], v[j], v[k]);
}

static void rounding(case_set *f)
{
    const int man = f->man, p = f->p;
    const uint64_t hidden = 1ULL << man, top = (1ULL << p) - 1;
    const uint64_t sigs[] = {hidden, hidden + 1, hidden + 2, top, top - 1}; /* edge, odd, even, all ones */
    const int exps[] = {f->emin, f->emin + 1, 0, f->emax - 1, f->emax};
    const uint64_t subs[] = {1, 2, 3, hidden - 1};
    /* products m 2^(ce + j), c = m_c 2^ce (2^ce: c's ulp) */
    struct { uint64_t m; int j; } t[] = {
        {1, -1},                  /* half an ulp: a tie */
        {hidden + 1, -1 - man},   /* half an ulp + the product's last bit */
        {top, -1 - p},            /* half an ulp - the product's last bit */
        {1, -2}, {3, -2},         /* a quarter, three quarters */
        {3, -1},                  /* one and a half ulps */
        {1, -2 * p - 3},          /* far below c's last bit: a sticky bit */
        {top, -3 * p},
    };
    for (size_t s = 0; s < sizeof sigs / sizeof sigs[0] + sizeof subs / sizeof subs[0]; s++) {
        size_t n_norm = sizeof sigs / sizeof sigs[0];
        for (size_t e = 0; e < (s < n_norm ? sizeof exps / sizeof exps[0] : 1); e++) {
            uint64_t m = s < n_norm ? sigs[s] : subs[s - n_norm];
            int ce = s < n_norm ? exps[e] - man : f->emin - man; /* c = m 2^ce, ulp 2^ce */
            for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
                for (int sc = 0; sc < 2; sc++)
                    for (int sp = 0; sp < 2; sp++)
                        add_product(f, sp, t[k].m, ce + t[k].j, num(f, sc, m, ce));
        }
    }
}

static void zeros(case_set *f)
{
    const int man = f->man;
    /* x * 1 - x = +0 whatever the signs */
    const struct { uint64_t m; int e; } x[] = {{3, -1}, {(1ULL << f->p) - 1, f->emin - man}, {1, f->emin - man},
                                               {(1ULL << f->p) - 1, f->emax - man}};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
        for (int s = 0; s < 4; s++) {
            uint64_t a = num(f, s & 1, x[i].m, x[i].e), b = num(f, s >> 1, 1, 0);
            uint64_t c = num(f, !((s & 1) ^ (s >> 1)), x[i].m, x[i].e);
            add(f, a, b, c);
        }
    /* zero products plus zeros */
    const uint64_t bs[] = {num(f, 0, 1, 0), num(f, 0, 1, f->emin - man), num(f, 0, (1ULL << f->p) - 1, f->emax - man)};
    for (int sa = 0; sa < 2; sa++)
        for (size_t i = 0; i < 3; i++)
            for (int sb = 0; sb < 2; sb++)
                for (int sc = 0; sc < 2; sc++)
                    add(f, sa ? f->sign : 0, bs[i] | (sb ? f->sign : 0), sc ? f->sign : 0);
    /* tiny products: a quarter, a half (a tie to 0), three quarters, just below and above half the
     * smallest subnormal, against +-0 and +-the smallest subnormal */
    const int lo = f->emin - man; /* the smallest subnormal's exponent */
    const struct { uint64_t m; int j; } t[] = {{1, lo - 2}, {1, lo - 1}, {3, lo - 2}, {(1ULL << f->p) - 1, lo - 1 - f->p},
                                               {(1ULL << man) + 1, lo - 1 - man}, {3, lo - 1}};
    const uint64_t cs[] = {0, f->sign, num(f, 0, 1, lo), num(f, 1, 1, lo)};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (int s = 0; s < 2; s++)
            for (size_t c = 0; c < 4; c++)
                add_product(f, s, t[i].m, t[i].j, cs[c]);
}

static void overflow(case_set *f)
{
    const int man = f->man, p = f->p;
    const uint64_t top = (1ULL << p) - 1, max = num(f, 0, top, f->emax - man);
    const int u = f->emax - man; /* the largest finite's ulp */
    const struct { uint64_t m; int j; } t[] = {{1, u - 1}, {(1ULL << man) + 1, u - 1 - man}, {top, u - 1 - p}, {1, u}, {top, u}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (int s = 0; s < 4; s++)
            add_product(f, s & 1, t[i].m, t[i].j, max | (s >> 1 ? f->sign : 0));
    /* products beyond the range whose sum with c is finite: max 2 - max, max (1 + ulp) - max, ... */
    const uint64_t bs[] = {num(f, 0, 1, 1), num(f, 0, (1ULL << man) + 1, -man), num(f, 0, 3, -1), num(f, 0, 1, 0), max};
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++)
        for (int s = 0; s < 4; s++) {
            uint64_t sa = s & 1 ? f->sign : 0, sc = s >> 1 ? f->sign : 0;
            add(f, max | sa, bs[i], max | sc);
            add(f, max | sa, bs[i], f->inf | sc);
            add(f, num(f, s & 1, 1, f->emax), bs[i], num(f, s >> 1, top, f->emax - man) );
        }
}

static void underflow(case_set *f)
{
    const int man = f->man, p = f->p, lo = f->emin - man;
    const uint64_t top = (1ULL << p) - 1;
    const uint64_t cs[] = {num(f, 0, 1, f->emin), num(f, 0, (1ULL << man) - 1, lo), num(f, 0, (1ULL << man) + 1, lo), 0};
    const struct { uint64_t m; int j; } t[] = {{1, lo - 1}, {1, lo - 2}, {3, lo - 2}, {1, lo}, {top, lo - 1 - p},
                                               {top, f->emin - p} /* the smallest normal - half a subnormal */};
    for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++)
        for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
            for (int s = 0; s < 4; s++)
                add_product(f, s & 1, t[i].m, t[i].j, cs[c] | (s >> 1 ? f->sign : 0));
    /* normal * normal landing k binades below the smallest normal: subnormal results, every rounding */
    const uint64_t ms[] = {top, (1ULL << man) + 1, (1ULL << man) | (1ULL << (man - 1)) | 1};
    for (int k = 1; k <= p + 2; k++)
        for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
            for (int s = 0; s < 2; s++) {
                int ea = f->emin / 2, eb = f->emin - k - ea; /* exponents of the leading ones */
                add(f, num(f, s, ms[i], ea - man), num(f, 0, ms[(i + 1) % 3], eb - man), s ? f->sign : 0);
            }
}

static void alignment(case_set *f)
{
    const int man = f->man, p = f->p;
    const uint64_t top = (1ULL << p) - 1, hidden = 1ULL << man;
    const uint64_t a = num(f, 0, top, -man), bs[] = {num(f, 0, 1, 0), a};
    const uint64_t cm[] = {hidden, top, hidden + 1};
    for (int sh = -(3 * p + 8); sh <= 3 * p + 8; sh++)
        for (size_t b = 0; b < 2; b++)
            for (size_t m = 0; m < 3; m++)
                for (int s = 0; s < 2; s++)
                    add(f, a, bs[b], num(f, s, cm[m], sh - man));
    /* a subnormal times a power of two: a product of fewer than 2p significant bits (1, 2 or p - 1), C
     * from 2p + 8 binades below its leading bit to 8 above: where C's lowest bits fall just below the
     * window while the result keeps the product's binade or the one below */
    const uint64_t subs[] = {1, 3, hidden - 1}, cs[] = {hidden, top, hidden + 1, hidden + 3, hidden + 5};
    for (size_t i = 0; i < 3; i++) {
        uint64_t as = num(f, 0, subs[i], f->emin - man), b2 = num(f, 0, 1, p + 5);
        int lead = f->emin - man + 63 - __builtin_clzll(subs[i]) + p + 5; /* the product's leading bit */
        for (int sh = -(2 * p + 8); sh <= 8; sh++)
            for (size_t m = 0; m < sizeof cs / sizeof cs[0]; m++)
                for (int s = 0; s < 2; s++)
                    add(f, as, b2, num(f, s, cs[m], lead + sh - man));
    }
}

static uint64_t bits_of(const case_set *f, double x)
{
    uint64_t raw = 0;
    mmaref_format_from_double(f->fmt, x, &raw);
    return raw;
}

static void residuals(case_set *f)
{
    uint64_t r = 0x5F3A; /* a fixed stream: the same cases every run */
    for (int i = 0; i < 64; i++) {
        uint64_t mx = (mmaref_rand(&r) >> (64 - f->man)) | (1ULL << f->man);
        uint64_t my = (mmaref_rand(&r) >> (64 - f->man)) | (1ULL << f->man);
        int ex = (int)(mmaref_rand(&r) % 9) - 4, ey = (int)(mmaref_rand(&r) % 9) - 4;
        uint64_t x = num(f, i & 1, mx, ex - f->man), y = num(f, (i >> 1) & 1, my, ey - f->man);
        /* RN(x y): f64 in host double (round to nearest), f32 from the exact double product */
        double px = mmaref_format_to_double(f->fmt, x) * mmaref_format_to_double(f->fmt, y);
        uint64_t prod = f->fmt == MMAREF_F32 ? bits_of(f, (double)(float)px) : bits_of(f, px);
        add(f, x, y, prod ^ f->sign);
        add(f, x, y, (prod ^ f->sign) + 1);  /* one ulp further */
    }
}

static void build(case_set *f, mmaref_format fmt)
{
    mmaref_format_info i;
    mmaref_format_get_info(fmt, &i);
    f->fmt = fmt;
    f->man = i.man_bits, f->p = i.man_bits + 1, f->bias = i.bias;
    f->emin = 1 - i.bias, f->emax = (1 << i.exp_bits) - 2 - i.bias;
    f->sign = 1ULL << (i.width - 1), f->inf = i.inf, f->nan = i.nan;
    classes(f);
    rounding(f);
    zeros(f);
    overflow(f);
    underflow(f);
    alignment(f);
    residuals(f);
}

static void build_f64(void) { build(&sets[0], MMAREF_F64); }
static void build_f32(void) { build(&sets[1], MMAREF_F32); }

static const case_set *set_of(const mmaref_instr *in)
{
    if (in->passes < 1 || in->pass[0].algo != MMAREF_ALGO_SFMA || (in->a != MMAREF_F64 && in->a != MMAREF_F32))
        return NULL;
    int f32 = in->a == MMAREF_F32;
    call_once(&built[f32], f32 ? build_f32 : build_f64);
    return &sets[f32];
}

/* chain j (K > 1): the K lanes' products and C */
static void chain(const case_set *f, int j, int k, uint64_t *c, uint64_t *a, uint64_t *b)
{
    const int man = f->man, p = f->p;
    const uint64_t max = num(f, 0, (1ULL << p) - 1, f->emax - man), one = num(f, 0, 1, 0);
    const uint64_t tiny = num(f, 0, 1, f->emin - man), big = num(f, 0, 1, p);
    for (int i = 0; i < k; i++) {
        uint64_t s = i & 1 ? f->sign : 0;
        b[i] = one;
        switch (j) {
        case 0: a[i] = max; *c = 0; break;                                /* max, inf, inf, ... */
        case 1: a[i] = max | s; *c = 0; break;                            /* max, 0, max, 0 ... */
        case 2: a[i] = i < 2 ? max : max | f->sign; *c = 0; break;        /* inf - max stays inf */
        case 3: a[i] = tiny; *c = 0; break;                               /* k smallest subnormals */
        case 4: a[i] = tiny | s; *c = tiny | f->sign; break;
        case 5: a[i] = big | s; *c = one; break;                          /* 1 + 2^p rounds to 2^p, then 0 */
        case 6: a[i] = f->sign; *c = f->sign; break;                      /* -0 throughout */
        case 7: a[i] = i == k - 1 ? 0 : f->sign; *c = f->sign; break;     /* ... then +0 */
        case 8: a[i] = i == 0 ? f->inf : f->inf | f->sign; *c = 0; break; /* inf - inf: NaN */
        case 9: a[i] = i == k - 1 ? f->nan : one; *c = one; break;        /* NaN in the last lane */
        case 10: a[i] = num(f, i & 1, (1ULL << p) - 1 - (uint64_t)i, -man - i); *c = num(f, 1, 3, -2); break;
        default: a[i] = num(f, 0, (1ULL << man) + 1, -man); b[i] = a[i]; *c = f->sign | one; break;
        }
    }
}

static const char IEEE_LABEL[] = "IEEE FMA corners";

uint64_t gen_ieee_count(const mmaref_instr *in)
{
    const case_set *f = set_of(in);
    return f ? (uint64_t)f->n + (in->k > 1 ? CHAIN_CASES : 0) : 0;
}

const char *gen_ieee_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b,
                            uint64_t *sa, uint64_t *sb)
{
    (void)sa, (void)sb; /* SFMA instructions have no block scales */
    const case_set *f = set_of(in);
    if (!f || idx >= gen_ieee_count(in))
        return NULL;
    if (idx >= (uint64_t)f->n) {
        chain(f, (int)(idx - (uint64_t)f->n), in->k, c, a, b);
        return IEEE_LABEL;
    }
    int lane = (int)(idx % (uint64_t)in->k);
    for (int i = 0; i < in->k; i++)
        a[i] = f->sign, b[i] = 0; /* -0 * +0: leaves the accumulator as it is */
    a[lane] = f->cases[idx].a;
    b[lane] = f->cases[idx].b;
    *c = f->cases[idx].c;
    return IEEE_LABEL;
}

const gen_set gen_ieee_corners = {gen_ieee_count, gen_ieee_vector};
