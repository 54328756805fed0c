/* Seeded input generators for the hardware cross-check; see gen.h and docs/hardware-validation.md. */
#include "gen.h"

#include <stddef.h>

static const gen_fmt_info fmt_table[GF_COUNT] = {
    [GF_F64] = {"f64", 64, 11, 52, 0, 1023, 1},
    [GF_F32] = {"f32", 32, 8, 23, 0, 127, 1},
    [GF_TF32] = {"tf32", 32, 8, 10, 13, 127, 1},
    [GF_F16] = {"f16", 16, 5, 10, 0, 15, 1},
    [GF_BF16] = {"bf16", 16, 8, 7, 0, 127, 1},
    [GF_E4M3] = {"e4m3", 8, 4, 3, 0, 7, 0},
    [GF_E5M2] = {"e5m2", 8, 5, 2, 0, 15, 1},
};

const gen_fmt_info *gen_fmt_get(gen_fmt f) { return &fmt_table[f]; }

int gen_fmt_emin(gen_fmt f) { return 1 - fmt_table[f].bias; }

int gen_fmt_emax(gen_fmt f)
{
    const gen_fmt_info *fi = &fmt_table[f];
    int e_all_ones = (1 << fi->ebits) - 1;
    /* IEEE: the all-ones exponent is inf/NaN.  e4m3: it is finite except S.1111.111 (max 448 = 1.75*2^8). */
    return (fi->ieee ? e_all_ones - 1 : e_all_ones) - fi->bias;
}

const char *gen_kind_name(gen_kind k)
{
    static const char *names[GEN_KINDS] = {"raw", "cluster", "special"};
    return k < GEN_KINDS ? names[k] : "?";
}

/* ---- random numbers ---- */

uint64_t gen_next(gen_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void gen_seed(gen_rng *r, uint64_t seed, const char *stream_name)
{
    uint64_t h = 0xCBF29CE484222325ull; /* FNV-1a of the stream name: one stream per instruction */
    for (const char *p = stream_name; p && *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001B3ull;
    r->s = seed ^ h;
    gen_next(r);
}

uint64_t gen_below(gen_rng *r, uint64_t n) { return n ? gen_next(r) % n : 0; }

static int gen_range(gen_rng *r, int lo, int hi) /* uniform in [lo, hi] */
{
    return hi <= lo ? lo : lo + (int)gen_below(r, (uint64_t)(hi - lo + 1));
}

static int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

/* ---- encodings ---- */

static uint64_t width_mask(gen_fmt f)
{
    int w = fmt_table[f].width;
    return w == 64 ? ~0ull : (1ull << w) - 1;
}

static uint64_t sign_bit(gen_fmt f) { return 1ull << (fmt_table[f].width - 1); }

/* A normal number (-1)^sign * 1.mant * 2^e, e clamped to the normal range. */
static uint64_t encode_normal(gen_fmt f, int sign, int e, uint64_t mant)
{
    const gen_fmt_info *fi = &fmt_table[f];
    e = clampi(e, gen_fmt_emin(f), gen_fmt_emax(f));
    uint64_t E = (uint64_t)(e + fi->bias);
    mant &= (1ull << fi->mbits) - 1;
    if (!fi->ieee && E == (1ull << fi->ebits) - 1 && mant == (1ull << fi->mbits) - 1)
        mant--; /* e4m3: S.1111.111 is NaN; keep the value finite */
    return (sign ? sign_bit(f) : 0) | E << (fi->mbits + fi->lowbits) | mant << fi->lowbits;
}

int gen_specials(gen_fmt f, uint64_t *out, int cap)
{
    const gen_fmt_info *fi = &fmt_table[f];
    uint64_t s = sign_bit(f), low = fi->lowbits, mmask = (1ull << fi->mbits) - 1;
    uint64_t emask = ((1ull << fi->ebits) - 1) << (fi->mbits + low);
    uint64_t one = (uint64_t)fi->bias << (fi->mbits + low);
    uint64_t maxfin = encode_normal(f, 0, gen_fmt_emax(f), ~0ull);
    uint64_t v[32];
    int n = 0;
    v[n++] = 0;                          /* +0 */
    v[n++] = s;                          /* -0 */
    v[n++] = 1ull << low;                /* smallest subnormal */
    v[n++] = s | 1ull << low;
    v[n++] = mmask << low;               /* largest subnormal */
    v[n++] = 1ull << (fi->mbits + low);  /* smallest normal */
    v[n++] = s | 1ull << (fi->mbits + low);
    v[n++] = maxfin;                     /* largest finite */
    v[n++] = s | maxfin;
    v[n++] = one;                        /* +1 */
    v[n++] = s | one;                    /* -1 */
    if (fi->ieee) {
        uint64_t quiet = 1ull << (fi->mbits - 1 + low);
        v[n++] = emask;                  /* +inf */
        v[n++] = s | emask;              /* -inf */
        v[n++] = emask | quiet;          /* quiet NaN */
        v[n++] = emask | 1ull << low;    /* signalling NaN, payload 1 */
        v[n++] = s | emask | quiet | 1ull << low; /* negative NaN with a payload */
    } else {
        v[n++] = emask | mmask;          /* e4m3 NaN 0x7F */
        v[n++] = s | emask | mmask;      /* e4m3 NaN 0xFF */
    }
    if (f == GF_TF32) {
        /* Step 0: the low 13 bits are ignored. */
        v[n++] = 0x7F800001;             /* an f32 NaN that is +inf in TF32 */
        v[n++] = 0x00001FFF;             /* an f32 subnormal that is +0 in TF32 */
        v[n++] = 0x3F801FFF;             /* 1 + 2^-23*(2^13-1): 1.0 in TF32 */
    }
    for (int i = 0; i < n && i < cap; i++)
        out[i] = v[i] & width_mask(f);
    return n < cap ? n : cap;
}

/* ---- the three kinds ---- */

static uint64_t raw_element(gen_rng *r, gen_fmt f) { return gen_next(r) & width_mask(f); }

/* One clustered element: random sign and mantissa, exponent centre +- spread, inside the normal range. */
static uint64_t cluster_element(gen_rng *r, gen_fmt f, int centre, int spread)
{
    int sign = (int)(gen_next(r) & 1);
    int e = centre + gen_range(r, -spread, spread);
    return encode_normal(f, sign, e, gen_next(r));
}

/* Target exponent P of the products, and the split P = ea + eb, such that A, B and C stay normal. */
static void cluster_centres(gen_rng *r, const gen_shape *s, int *ea, int *eb, int *ec)
{
    int lo = gen_fmt_emin(s->c), hi = gen_fmt_emax(s->c);
    int plo = gen_fmt_emin(s->a) + gen_fmt_emin(s->b), phi = gen_fmt_emax(s->a) + gen_fmt_emax(s->b);
    if (plo > lo) lo = plo;
    if (phi < hi) hi = phi;
    int log2k = 0;
    while ((1 << log2k) < s->k)
        log2k++;
    int p = gen_range(r, lo + 3, hi - 3 - log2k); /* the sum of K products grows by up to log2(K) */
    int alo = gen_fmt_emin(s->a) + 3, ahi = gen_fmt_emax(s->a) - 3;
    int blo = gen_fmt_emin(s->b) + 3, bhi = gen_fmt_emax(s->b) - 3;
    int a = gen_range(r, alo > p - bhi ? alo : p - bhi, ahi < p - blo ? ahi : p - blo);
    *ea = a;
    *eb = p - a;
    *ec = p;
}

static void cluster_tile(gen_rng *r, const gen_shape *s, uint64_t *A, uint64_t *B, uint64_t *C)
{
    int ea, eb, ec;
    cluster_centres(r, s, &ea, &eb, &ec);
    /* One tile in 4 spreads its exponents wide (+-12: alignment shifts across the F-bit window); one in
     * 4 moves C's centre up to 30 binades away from the products (C dominant, or truncated away). */
    int spread = gen_below(r, 4) == 0 ? 12 : 3;
    if (gen_below(r, 4) == 0)
        ec += gen_range(r, -30, 30);
    for (int i = 0; i < s->m * s->k; i++)
        A[i] = cluster_element(r, s->a, ea, spread);
    for (int i = 0; i < s->k * s->n; i++)
        B[i] = cluster_element(r, s->b, eb, spread);
    for (int i = 0; i < s->m * s->n; i++)
        C[i] = gen_below(r, 8) == 0 ? (gen_next(r) & 1 ? sign_bit(s->c) : 0) /* +-0 one time in 8 */
                                    : cluster_element(r, s->c, ec, 3);
    if (gen_below(r, 4) == 0) {
        /* Exact pairwise cancellation: B[k+1][n] = B[k][n], A[i][k+1] = -A[i][k], so every product
         * pair sums to zero while still taking part in e_max (C is then aligned to them). */
        for (int k = 0; k + 1 < s->k; k += 2) {
            for (int n = 0; n < s->n; n++)
                B[(k + 1) * s->n + n] = B[k * s->n + n];
            for (int i = 0; i < s->m; i++)
                A[i * s->k + k + 1] = A[i * s->k + k] ^ sign_bit(s->a);
        }
    }
}

/* Replaces each element, with probability 1/one_in, by one of the format's specials. */
static void sprinkle(gen_rng *r, gen_fmt f, uint64_t *x, int count, int one_in)
{
    uint64_t sp[32];
    int ns = gen_specials(f, sp, 32);
    for (int i = 0; i < count; i++)
        if (gen_below(r, (uint64_t)one_in) == 0)
            x[i] = sp[gen_below(r, (uint64_t)ns)];
}

void gen_tile(gen_rng *r, gen_kind kind, const gen_shape *s, uint64_t *A, uint64_t *B, uint64_t *C)
{
    int na = s->m * s->k, nb = s->k * s->n, nc = s->m * s->n;
    if (kind == GEN_RAW) {
        for (int i = 0; i < na; i++) A[i] = raw_element(r, s->a);
        for (int i = 0; i < nb; i++) B[i] = raw_element(r, s->b);
        for (int i = 0; i < nc; i++) C[i] = raw_element(r, s->c);
        return;
    }
    cluster_tile(r, s, A, B, C);
    if (kind == GEN_SPECIAL) {
        /* One special per dot-add on average among its 2K products' operands (about a third of the
         * dot-adds get none), and C special one time in 8. */
        sprinkle(r, s->a, A, na, 2 * s->k);
        sprinkle(r, s->b, B, nb, 2 * s->k);
        sprinkle(r, s->c, C, nc, 8);
    }
}
